"""What a small local model does in each LLM role, side by side with the rules.

    python tools/benchmarks/bench_local_model.py --model GGUF extraction \\
        [--per-family N]
    python tools/benchmarks/bench_local_model.py --model GGUF planning \\
        [--compositional N]
    python tools/benchmarks/bench_local_model.py --model GGUF forest [--questions N]
    python tools/benchmarks/bench_local_model.py --model GGUF forms \\
        [--sets compositional_c ...] [--per-set N] [--free N]

The model (a GGUF file; ``tools/support/assemble_qwen.py`` builds Qwen2.5-Coder-1.5B)
runs behind llama.cpp's OpenAI-compatible server (``tools/support/local_model.py``) and
the library reaches it through ``ChatOpenAI(base_url=...)``. Every model call
is recorded through the structured-output layer's listener: per role, calls,
failures, median seconds and median tokens in and out.

- ``extraction``: the model extractor against the rule extractor, single-record
  entries of the phrasing corpus and of the free-prose set
  (``tools/datasets/heldout/prose``). "exact" is the corpus's own scoring (every pair,
  attribute name included, nothing else read); "values" counts an entry whose
  every expected value is read under some attribute.
- ``planning``: the model planner (planner, instantiation, reader all by the
  model) against the rule planner on the same offline-built memories: the
  first N questions of each compositional history, and N of the generator's
  questions for one seed. Exact values (``matches_gold``).
- ``forms``: the rules alone, the model filling question forms (the default
  with a model), and the model planning freely (``forms=False``; the first
  ``--free`` questions per set, it is slow), on the questions of each set the
  rules do not read whole (the only ones a model is asked with
  ``rules_first``). Verdicts: exact, caveated (no number stated as fact),
  wrong (a wrong number stated).
- ``forest``: Mem-Gallery Recall@10 / Hit@10 on the first N questions of one
  dev scenario: the hierarchy, the fixed-edge forest (no model), and the
  verified forest (node verifier + ECV by the model).

Nothing here is tuned: prompts and settings are the library's defaults.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from langgraph_adamm.chat import (  # noqa: E402
    CallRecord,
    StructuredModel,
    add_call_listener,
)
from tools.support.local_model import LocalServer  # noqa: E402

RECORDS: list[CallRecord] = []


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def role_table(records: list[CallRecord]) -> list[dict[str, Any]]:
    """Per role: calls, failed calls, attempts, median seconds and tokens."""
    by_role: dict[str, list[CallRecord]] = defaultdict(list)
    for r in records:
        by_role[r.role].append(r)
    out = []
    for role, rs in sorted(by_role.items()):
        out.append(
            {
                "role": role,
                "calls": len(rs),
                "failed": sum(not r.ok for r in rs),
                "attempts": sum(r.attempts for r in rs),
                "median_s": _median([r.seconds for r in rs]),
                "median_tokens_in": _median(
                    [r.input_tokens for r in rs if r.input_tokens is not None]
                ),
                "median_tokens_out": _median(
                    [r.output_tokens for r in rs if r.output_tokens is not None]
                ),
            }
        )
    return out


def _print_roles(rows: list[dict[str, Any]]) -> None:
    print("| role | calls | failed | attempts | median s | tokens in | tokens out |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        med = f"{r['median_s']:.1f}" if r["median_s"] is not None else "-"
        print(
            f"| {r['role']} | {r['calls']} | {r['failed']} | {r['attempts']} | {med} "
            f"| {r['median_tokens_in']} | {r['median_tokens_out']} |"
        )


# -- extraction --------------------------------------------------------------------


def _scoring() -> Any:
    from tools.benchmarks.bench_phrasings import _load_scoring

    return _load_scoring()


class _Once:
    """An extractor that reads each round once (scoring reads it twice)."""

    def __init__(self, extractor: Any) -> None:
        self.extractor = extractor
        self.seen: dict[str, Any] = {}

    def extract(self, round_: Any) -> Any:
        if round_.round_id not in self.seen:
            self.seen[round_.round_id] = self.extractor.extract(round_)
        return self.seen[round_.round_id]


def run_extraction(llm: StructuredModel, args: argparse.Namespace) -> dict[str, Any]:
    from langgraph_adamm.analytic.extraction.llm import LLMExtractor
    from langgraph_adamm.analytic.extraction.rule_extractor import RuleExtractor
    from langgraph_adamm.errors import ExtractionError

    scoring = _scoring()
    corpus = sys.modules["tests.phrasings"]
    entries: list[dict[str, Any]] = []
    for family in scoring.families():
        single = [e for e in scoring.load_corpus(family) if "expect" in e]
        entries += single[: args.per_family]
    prose_dir = ROOT / "tools" / "datasets" / "heldout" / "prose"
    corpus.CORPUS_DIR = prose_dir  # type: ignore[attr-defined]
    prose = [e for e in scoring.load_corpus("prose") if "expect" in e]
    entries += prose[: args.prose]
    model = LLMExtractor(llm)
    rules = RuleExtractor()
    per_family: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    misses: list[dict[str, Any]] = []
    for n, entry in enumerate(entries, 1):
        fam = entry["family"]
        per_family[fam]["entries"] += 1
        for name, extractor in (("rules", rules), ("model", model)):
            once = _Once(extractor)
            try:
                got = scoring.read(entry, once)
                miss, noise = scoring.score(entry, once)
            except ExtractionError as exc:
                per_family[fam][f"{name}_failed"] += 1
                misses.append({"id": entry["id"], "by": name, "failed": str(exc)[:200]})
                continue
            per_family[fam][f"{name}_exact"] += not miss and not noise
            values = [o for rec in got.values() for o in rec.values()]
            want = entry["expect"]
            found = all(
                any(scoring._matches(o, w) for o in values) for w in want.values()
            )
            per_family[fam][f"{name}_values"] += found
            if name == "model" and (miss or noise):
                misses.append(
                    {"id": entry["id"], "by": name, "miss": miss, "noise": noise}
                )
        print(f"[{n}/{len(entries)}] {entry['id']}", file=sys.stderr, flush=True)
    return {"families": {k: dict(v) for k, v in per_family.items()}, "misses": misses}


def _print_extraction(result: dict[str, Any]) -> None:
    print("| family | entries | rules exact | model exact | rules values | "
          "model values | model failed |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---:|")
    total: dict[str, int] = defaultdict(int)
    for fam, v in sorted(result["families"].items()):
        for k, n in v.items():
            total[k] += n
        print(
            f"| {fam} | {v['entries']} | {v.get('rules_exact', 0)} | "
            f"{v.get('model_exact', 0)} | {v.get('rules_values', 0)} | "
            f"{v.get('model_values', 0)} | {v.get('model_failed', 0)} |"
        )
    print(
        f"| **all** | {total['entries']} | {total['rules_exact']} | "
        f"{total['model_exact']} | {total['rules_values']} | {total['model_values']} "
        f"| {total['model_failed']} |"
    )


# -- planning ----------------------------------------------------------------------


def _answer(graph: Any, q: dict[str, Any]) -> dict[str, Any]:
    out = graph.invoke(
        {"question": q["question"], "question_time": q.get("question_time")}
    )
    return dict(out)


def _ask_both(
    mem: Any, llm: StructuredModel, questions: list[dict[str, Any]], label: str
) -> list[dict[str, Any]]:
    from langgraph_adamm.cli import matches_gold
    from langgraph_adamm.graphs import create_query_graph

    rule_graph = create_query_graph(mem, model=None).compile()
    model_graph = create_query_graph(mem, model=llm).compile()
    rows = []
    for q in questions:
        rule = _answer(rule_graph, q)
        t = time.perf_counter()
        model = _answer(model_graph, q)
        rows.append(
            {
                "set": label,
                "id": q.get("question_id"),
                "question": q["question"],
                "gold": q["gold"],
                "rules": matches_gold(rule, q["gold"]),
                "model": matches_gold(model, q["gold"]),
                "model_value": model.get("value"),
                "model_answer": str(model.get("answer", ""))[:200],
                "model_failure": model.get("failure"),
                "model_plan": [s.get("tool") for s in model.get("steps") or []],
                "seconds": round(time.perf_counter() - t, 1),
            }
        )
        r = rows[-1]
        print(
            f"{label} {r['id']}: rules {r['rules']} model {r['model']} "
            f"({r['seconds']} s)",
            file=sys.stderr,
            flush=True,
        )
    return rows


def run_planning(llm: StructuredModel, args: argparse.Namespace) -> dict[str, Any]:
    from langgraph_adamm import Memory

    rows: list[dict[str, Any]] = []
    comp = ROOT / "tools" / "datasets" / "compositional"
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.histories:
            hist = comp / f"history_{name}.json"
            user = json.loads(hist.read_text(encoding="utf-8"))["user_id"]
            questions = [
                json.loads(line)
                for line in (comp / f"questions_{name}.jsonl").read_text().splitlines()
                if line.strip()
            ][: args.compositional]
            with Memory(Path(tmp) / f"{name}.duckdb", user_id=user) as mem:
                mem.ingest(hist)
                rows += _ask_both(mem, llm, questions, f"compositional/{name}")
        if args.generated:
            from tools.datasets.synthetic_history import generate

            data = generate(args.seed, 60)
            hist, _ = data.write(tmp)
            with Memory(Path(tmp) / "gen.duckdb", user_id=data.history["user_id"]) as m:
                m.ingest(hist)
                step = max(1, len(data.questions) // args.generated)
                chosen = data.questions[::step][: args.generated]
                rows += _ask_both(m, llm, chosen, f"generator/seed {args.seed}")
    return {"questions": rows}


def _print_planning(result: dict[str, Any]) -> None:
    by_set: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in result["questions"]:
        by_set[r["set"]].append(r)
    print("| set | questions | rule planner exact | model planner exact | "
          "model failures |")  # fmt: skip
    print("|---|---:|---:|---:|---:|")
    for name, rs in by_set.items():
        print(
            f"| {name} | {len(rs)} | {sum(r['rules'] for r in rs)} | "
            f"{sum(r['model'] for r in rs)} | "
            f"{sum(bool(r['model_failure']) for r in rs)} |"
        )


# -- forms ---------------------------------------------------------------------------


def _verdict(out: dict[str, Any], gold: dict[str, Any]) -> str:
    """exact, caveated (no number stated as fact) or wrong (a wrong one stated)."""
    from langgraph_adamm.cli import matches_gold

    stated = out.get("value") is not None and not out.get("unresolved")
    if gold.get("unanswerable"):
        return "wrong" if stated else "exact"
    if matches_gold(out, gold):
        return "exact"
    return "wrong" if stated else "caveated"


def _read_whole(out: dict[str, Any]) -> bool:
    return out.get("value") is not None and not out.get("unresolved")


def run_forms(llm: StructuredModel, args: argparse.Namespace) -> dict[str, Any]:
    """Rules alone, the model filling forms, the model planning freely.

    The questions are those of each set whose rules' answer is not an
    unqualified value; those whose rules' plan was whole (caveated only by
    what the tools found) never reach a model (``rules_first``) and are
    listed apart. ``--per-set``: questions the model is asked, per set.
    """
    from langgraph_adamm import Memory
    from langgraph_adamm.graphs import create_query_graph

    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for set_name in args.sets:
            folder = ROOT / "tools" / "datasets" / set_name
            chosen = 0
            for hist in sorted(folder.glob("history_*.json")):
                name = hist.stem.removeprefix("history_")
                user = json.loads(hist.read_text(encoding="utf-8"))["user_id"]
                qfile = folder / f"questions_{name}.jsonl"
                questions = [
                    json.loads(line)
                    for line in qfile.read_text(encoding="utf-8").splitlines()
                    if line.strip()
                ]
                with Memory(Path(tmp) / f"{set_name}_{name}.duckdb", user_id=user) as m:
                    m.ingest(hist)
                    rules = create_query_graph(m).compile()
                    forms = create_query_graph(m, model=llm).compile()
                    free = create_query_graph(m, model=llm, forms=False).compile()
                    for q in questions:
                        if chosen >= args.per_set:
                            break
                        offline = _answer(rules, q)
                        if _read_whole(offline):
                            continue  # the model is never asked
                        row = {
                            "set": set_name,
                            "id": q.get("question_id"),
                            "question": q["question"],
                            "rules": _verdict(offline, q["gold"]),
                        }
                        modes = [("forms", forms)]
                        if chosen < args.free:
                            modes.append(("free", free))
                        for mode, graph in modes:
                            t = time.perf_counter()
                            seen = len(RECORDS)
                            out = _answer(graph, q)
                            row[f"{mode}_fills"] = [
                                r.value.model_dump(mode="json", exclude_none=True)
                                for r in RECORDS[seen:]
                                if r.role == "form" and r.ok
                            ]
                            row[f"{mode}_unresolved"] = out.get("unresolved")
                            row[mode] = _verdict(out, q["gold"])
                            row[f"{mode}_s"] = round(time.perf_counter() - t, 1)
                            row[f"{mode}_planned_by"] = out.get("planned_by")
                            row[f"{mode}_notes"] = [
                                n for n in out.get("notes") or [] if "form" in n
                            ][:2]
                            row[f"{mode}_steps"] = [
                                s.get("tool") for s in out.get("steps") or []
                            ]
                            row[f"{mode}_value"] = out.get("value")
                            if mode == "forms":
                                row["asked"] = not any(
                                    "was not asked" in n for n in out.get("notes") or []
                                )
                                if not row["asked"]:
                                    break  # the rules' plan was whole: no model
                        rows.append(row)
                        chosen += bool(row["asked"])
                        print(
                            f"{set_name} {row['id']}: rules {row['rules']} forms "
                            f"{row['forms']} ({row['forms_s']} s) free "
                            f"{row.get('free', '-')}",
                            file=sys.stderr,
                            flush=True,
                        )
    return {"questions": rows}


def _print_forms(result: dict[str, Any]) -> None:
    rows = [r for r in result["questions"] if r.get("asked")]
    print(
        f"{len(rows)} questions asked of the model; "
        f"{len(result['questions']) - len(rows)} more the rules planned whole "
        "(caveated by what the tools found), not asked"
    )
    print("| mode | questions | exact | caveated | wrong stated | median s |")
    print("|---|---:|---:|---:|---:|---:|")
    for mode in ("rules", "forms", "free"):
        rs = [r for r in rows if mode in r]
        secs = [r[f"{mode}_s"] for r in rs if f"{mode}_s" in r]
        print(
            f"| {mode} | {len(rs)} | {sum(r[mode] == 'exact' for r in rs)} | "
            f"{sum(r[mode] == 'caveated' for r in rs)} | "
            f"{sum(r[mode] == 'wrong' for r in rs)} | "
            f"{_median(secs) if secs else '-'} |"
        )


# -- forest ------------------------------------------------------------------------


def run_forest(llm: StructuredModel, args: argparse.Namespace) -> dict[str, Any]:
    from langgraph_adamm.evaluation.mem_gallery import evaluate
    from langgraph_adamm.retrieval.encoders import (
        DEFAULT_TEXT_MODEL,
        SentenceTransformerEncoder,
    )

    src = Path(args.dev) / f"{args.scenario}.json"
    raw = json.loads(src.read_text(encoding="utf-8"))
    raw["human-annotated QAs"] = raw["human-annotated QAs"][: args.questions]
    encoder = SentenceTransformerEncoder(DEFAULT_TEXT_MODEL)
    out: dict[str, Any] = {"scenario": args.scenario, "questions": args.questions}
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / src.name).write_text(json.dumps(raw), encoding="utf-8")
        for label, model in (("fixed-edge", None), ("verified", llm)):
            t = time.perf_counter()
            result = evaluate(
                tmp,
                k=10,
                encoder=encoder,
                methods=["adamm"],
                rerank="forest",
                model=model,
            )
            out[label] = {
                "seconds": round(time.perf_counter() - t, 1),
                "methods": {
                    name: m["overall"] for name, m in result["methods"].items()
                },
                "scored": result["questions"],
            }
            print(f"forest {label}: {out[label]}", file=sys.stderr, flush=True)
    return out


def _print_forest(result: dict[str, Any]) -> None:
    print("| variant | method | questions | Recall@10 | Hit@10 |")
    print("|---|---|---:|---:|---:|")
    for label in ("fixed-edge", "verified"):
        part = result[label]
        for name, m in part["methods"].items():
            print(
                f"| {label} | {name} | {part['scored']} | {m.get('recall', 0):.3f} | "
                f"{m.get('hit', 0):.3f} |"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, required=True, help="a GGUF file")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--n-ctx", type=int, default=8192)
    parser.add_argument("--timeout", type=float, default=600.0, help="per request")
    parser.add_argument("--max-tokens", type=int, default=768)
    parser.add_argument("--json", type=Path, help="write the full result here")
    sub = parser.add_subparsers(dest="task", required=True)
    ex = sub.add_parser("extraction")
    ex.add_argument("--per-family", type=int, default=2)
    ex.add_argument("--prose", type=int, default=20)
    pl = sub.add_parser("planning")
    pl.add_argument("--histories", nargs="*", default=["maya", "tom", "priya"])
    pl.add_argument("--compositional", type=int, default=3)
    pl.add_argument("--seed", type=int, default=3001)
    pl.add_argument("--generated", type=int, default=4)
    fm = sub.add_parser("forms")
    fm.add_argument("--sets", nargs="+", default=["compositional_c", "compositional_d"])
    fm.add_argument("--per-set", type=int, default=12)
    fm.add_argument("--free", type=int, default=3, help="per set, also planned freely")
    fo = sub.add_parser("forest")
    fo.add_argument(
        "--dev", default=str(ROOT.parent / "shared/benchmarks/mem-gallery/dev")
    )
    fo.add_argument("--scenario", default="Music_Dance_Theater_Performance_Learning")
    fo.add_argument("--questions", type=int, default=12)
    args = parser.parse_args(argv)

    add_call_listener(RECORDS.append)
    started = time.perf_counter()
    with LocalServer(args.model, n_ctx=args.n_ctx, threads=args.threads) as server:
        chat = server.chat(timeout_s=args.timeout, max_tokens=args.max_tokens)
        llm = StructuredModel(chat, context_tokens=args.n_ctx)
        run = {"extraction": run_extraction, "planning": run_planning,
               "forest": run_forest, "forms": run_forms}[args.task]  # fmt: skip
        result = run(llm, args)
    result["roles"] = role_table(RECORDS)
    result["failed_calls"] = [
        {"role": r.role, "attempts": r.attempts, "errors": r.errors, "raised": r.raised}
        for r in RECORDS
        if not r.ok
    ]
    result["retried_calls"] = [
        {"role": r.role, "attempts": r.attempts, "errors": r.errors}
        for r in RECORDS
        if r.ok and r.attempts > 1
    ]
    result["model"] = args.model.name
    result["threads"] = args.threads
    result["wall_s"] = round(time.perf_counter() - started, 1)
    printers = {"extraction": _print_extraction, "planning": _print_planning,
                "forest": _print_forest, "forms": _print_forms}  # fmt: skip
    printers[args.task](result)
    print()
    _print_roles(result["roles"])
    print(f"\nwall time {result['wall_s']} s, model {args.model.name}, "
          f"{args.threads} thread(s)")  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(result, indent=1, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
