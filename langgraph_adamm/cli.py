"""The ``adamm`` command line: ingest histories, list induced tables, run the demo."""

from __future__ import annotations

import argparse
import json
import sys
from importlib import resources
from pathlib import Path
from typing import Any

from langgraph_adamm.config import AdaMMConfig
from langgraph_adamm.errors import AdaMMError
from langgraph_adamm.history import read_history, read_questions
from langgraph_adamm.memory import IngestReport, Memory
from langgraph_adamm.storage.database import MemoryDatabase


def _progress_bar(total_hint: str) -> Any:
    from tqdm import tqdm

    bar = None

    def update(done: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            bar = tqdm(total=total, unit="round", desc=total_hint, file=sys.stderr)
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    return update


def _ingest(args: argparse.Namespace) -> int:
    path = Path(args.file)
    result = read_history(path, strict=args.strict)
    user_id = args.user_id or result.history.user_id
    config = AdaMMConfig(ingest_batch_size=args.batch_size or 500)
    visual: Any = "default"
    if args.download_models and not args.no_retrieval:
        from langgraph_adamm.retrieval.encoders import load_visual_encoder

        visual = load_visual_encoder(download=True)
    with Memory(
        args.db,
        user_id=user_id,
        model=args.model,
        config=config,
        retrieval=False if args.no_retrieval else None,
        text_encoder=args.text_model,
        visual_encoder=visual,
    ) as memory:
        report = memory.ingest(
            result.history,
            retry_failed=args.retry_failed,
            progress=None if args.quiet else _progress_bar("extracting"),
            index_progress=None if args.quiet else _progress_bar("indexing"),
        )
        report.problems.extend(result.problems)
        print(f"user: {user_id}  database: {args.db}")
        print(report)
    return 0


def _users(db_path: str) -> list[str]:
    db = MemoryDatabase(db_path)
    try:
        return [
            r[0]
            for r in db.fetchall(
                "SELECT DISTINCT user_id FROM adamm_rounds ORDER BY user_id"
            )
        ]
    finally:
        db.close()


def print_tables(memory: Memory) -> None:
    """Print each induced table with its columns, types, units and row count."""
    tables = memory.describe_tables()
    if not tables:
        print(f"user {memory.user_id}: no tables induced yet")
        return
    for t in tables:
        print(f"\n{t['table']}  ({t['rows']} rows, version {t['version']})")
        print(f"  {t['description']}")
        for c in t["columns"]:
            unit = f" [{c['unit']}]" if c["unit"] else ""
            samples = f"  e.g. {', '.join(c['samples'])}" if c["samples"] else ""
            print(f"  - {c['name']}: {c['type']}{unit}{samples}")


def _tables(args: argparse.Namespace) -> int:
    if not Path(args.db).exists():
        raise AdaMMError(f"no memory database at {args.db}; run 'adamm ingest' first")
    users = [args.user_id] if args.user_id else _users(args.db)
    out = {}
    for user in users:
        with Memory(args.db, user_id=user, retrieval=False) as memory:
            if args.json:
                out[user] = memory.describe_tables()
            else:
                print(f"== user {user}")
                print_tables(memory)
    if args.json:
        print(json.dumps(out, indent=1, default=str))
    return 0


def _demo(args: argparse.Namespace) -> int:
    data = resources.files("langgraph_adamm") / "data"
    with resources.as_file(data / "sample_history.json") as hist_path:
        history = read_history(hist_path).history
    with resources.as_file(data / "sample_questions.jsonl") as q_path:
        questions = read_questions(q_path)
    print(
        f"Ingesting the bundled sample history ({history.round_count} rounds) into "
        f"{args.db}, offline (rule extraction, no model)."
    )
    with Memory(args.db, user_id=history.user_id) as memory:
        report: IngestReport = memory.ingest(
            history, progress=_progress_bar("extracting")
        )
        print(report)
        print_tables(memory)
        print("\nExample analytic calls (typed arguments; no SQL from outside):")
        for q in questions[:6]:
            gold = q.extra.get("gold") or {}
            table = next(
                (
                    t
                    for t in memory.tables
                    if set(gold.get("attributes", ())) <= t.attributes
                ),
                None,
            )
            if table is None:
                continue
            call = dict(gold["args"], table=table.table_name)
            if gold["tool"] == "compute":
                res = memory.compute(call)
                got = f"{res.value} {res.unit or ''}".strip()
                print(
                    f"- {q.question}\n    compute({json.dumps(call)})\n    -> {got} "
                    f"from {res.row_count} rows (expected {q.answer})"
                )
            else:
                ranked = memory.rank(call)
                top = ranked.rows[0] if ranked.rows else {}
                print(
                    f"- {q.question}\n    rank({json.dumps(call)})\n    -> "
                    f"{str(top.get('time', ''))[:10]} (expected {q.answer})"
                )
        if memory.retrieval is not None:
            query = "Can you suggest something to cook for dinner?"
            print(f"\nRetrieval memory: event_locate({query!r}, result_budget=2)")
            for unit in memory.event_locate(query, 2):
                first_line = unit.content.splitlines()[0][:90]
                around = [n.unit_id for n in unit.neighbours]
                print(
                    f"- {unit.unit_id} ({unit.time}) score {unit.score:.3f}: "
                    f"{first_line}  [neighbours {around}]"
                )
    return 0


def _text_encoder(name: str | None) -> Any:
    from langgraph_adamm.retrieval.encoders import (
        DEFAULT_TEXT_MODEL,
        SentenceTransformerEncoder,
    )

    return SentenceTransformerEncoder(name or DEFAULT_TEXT_MODEL)


def _eval(args: argparse.Namespace) -> int:
    from langgraph_adamm.evaluation import mem_gallery

    methods = args.methods or ["adamm", "adamm_events", "flat", "langgraph_store"]
    result = mem_gallery.evaluate(
        args.dir,
        k=args.k,
        encoder=_text_encoder(args.text_model),
        methods=methods,
        log=None if args.quiet else mem_gallery.stderr_log,
    )
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print(mem_gallery.format_table(result))
    return 0


def _convert(args: argparse.Namespace) -> int:
    from langgraph_adamm.evaluation import mem_gallery

    for path in mem_gallery.convert(args.dir, args.out):
        print(path)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for documentation and tests)."""
    parser = argparse.ArgumentParser(
        prog="adamm", description="Long-term analytic memory for LangGraph agents."
    )
    sub = parser.add_subparsers(dest="command", required=True)

    ing = sub.add_parser("ingest", help="ingest a history file (JSON or JSON Lines)")
    ing.add_argument("file")
    ing.add_argument("--db", required=True, help="memory database file (DuckDB)")
    ing.add_argument(
        "--model", help="chat model, e.g. openai:gpt-4.1-nano (default: offline rules)"
    )
    ing.add_argument("--user-id", help="namespace (default: the history's user_id)")
    ing.add_argument(
        "--strict", action="store_true", help="stop at the first bad round"
    )
    ing.add_argument(
        "--retry-failed", action="store_true", help="re-extract failed rounds"
    )
    ing.add_argument("--batch-size", type=int, help="rounds per transaction")
    ing.add_argument("--quiet", action="store_true", help="no progress bar")
    ing.add_argument(
        "--no-retrieval",
        action="store_true",
        help="analytic memory only (no embeddings)",
    )
    ing.add_argument(
        "--text-model", help="sentence-transformers model (default: packaged MiniLM)"
    )
    ing.add_argument(
        "--download-models",
        action="store_true",
        help="fetch the visual encoder's weights from the hub if missing",
    )
    ing.set_defaults(func=_ingest)

    tab = sub.add_parser(
        "tables", help="list induced tables with columns and row counts"
    )
    tab.add_argument("--db", required=True)
    tab.add_argument("--user-id", help="one namespace (default: all)")
    tab.add_argument("--json", action="store_true")
    tab.set_defaults(func=_tables)

    ev = sub.add_parser("eval", help="retrieval evaluation on a benchmark")
    ev.add_argument("benchmark", choices=["mem-gallery"])
    ev.add_argument("dir", help="folder of scenario files")
    ev.add_argument("--k", type=int, default=10)
    ev.add_argument("--json", action="store_true", help="print one JSON object")
    ev.add_argument(
        "--methods",
        nargs="+",
        choices=["adamm", "adamm_events", "flat", "langgraph_store"],
    )
    ev.add_argument("--text-model", help="sentence-transformers model (default MiniLM)")
    ev.add_argument("--quiet", action="store_true")
    ev.set_defaults(func=_eval)

    conv = sub.add_parser(
        "convert", help="convert benchmark files to the history format"
    )
    conv.add_argument("benchmark", choices=["mem-gallery"])
    conv.add_argument("dir")
    conv.add_argument("out")
    conv.set_defaults(func=_convert)

    demo = sub.add_parser("demo", help="ingest the bundled sample and show the tables")
    demo.add_argument("--db", default="adamm_demo.duckdb")
    demo.set_defaults(func=_demo)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``adamm`` command."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except AdaMMError as exc:
        print(f"adamm: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
