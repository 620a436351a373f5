"""The ``adamm`` command line: ingest histories, list induced tables, run the demo.

One module because it is one thing, the ``adamm`` command line: one
short function per subcommand, the few helpers they share (opening a database
read-only, the progress bar), and the parser that names every subcommand's
options, which is most of its length. Kept together, a subcommand's options
read beside what it does; the library work itself lives in :class:`Memory`
and the evaluation modules.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from langgraph_adamm.config import TEXT_BACKENDS, AdaMMConfig
from langgraph_adamm.errors import AdaMMError, StorageError
from langgraph_adamm.storage.dialect import is_postgres_url, redacted

if TYPE_CHECKING:
    from langgraph_adamm.memory import Memory

# Heavy modules (DuckDB, LangChain, encoders) are imported by the commands that
# need them, so that "adamm --help" and argument errors answer at once.


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
    from langgraph_adamm.history import read_history
    from langgraph_adamm.memory import Memory

    if args.file == "-":
        result = _read_stdin(args)
    else:
        path = Path(args.file)
        if not path.is_file():
            raise AdaMMError(f"{args.file}: no such history file")
        result = read_history(path, strict=args.strict)
    user_id = args.user_id or result.history.user_id
    config = AdaMMConfig(
        ingest_batch_size=args.batch_size or 500, text_backend=args.text_backend
    )
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
        wait=args.wait,
    ) as memory:
        report = memory.ingest(
            result.history,
            retry_failed=args.retry_failed,
            progress=None if args.quiet else _progress_bar("extracting"),
            index_progress=None if args.quiet else _progress_bar("indexing"),
        )
        report.problems.extend(result.problems)
        if args.json:
            print(
                json.dumps(_report_json(report, user_id, redacted(args.db)), indent=1)
            )
        else:
            print(f"user: {user_id}  database: {redacted(args.db)}")
            print(report)
    return 0


def _read_stdin(args: argparse.Namespace) -> Any:
    """A history read from standard input ("-"): JSON, or JSON Lines."""
    import tempfile

    from langgraph_adamm.history import read_history

    data = sys.stdin.buffer.read()
    if not data.strip():
        raise AdaMMError("no history on standard input")
    stripped = data.lstrip(b"\xef\xbb\xbf \t\r\n")
    first_line = stripped.split(b"\n", 1)[0].strip()
    suffix = ".jsonl"
    try:
        first = json.loads(first_line)
    except ValueError:
        suffix = ".json"  # a document spread over several lines
    else:
        if isinstance(first, dict) and "sessions" in first:
            suffix = ".json"  # a whole document on one line (jq -c)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"stdin{suffix}"
        path.write_bytes(data)
        return read_history(path, strict=args.strict)


def _report_json(report: Any, user_id: str, db: str) -> dict[str, Any]:
    """An ingest report as JSON (``adamm ingest --json``)."""
    out = dataclasses.asdict(report)
    out["problems"] = [str(p) for p in report.problems]
    out["user_id"], out["database"] = user_id, db
    return out


_DB_HELP = "memory database: a DuckDB file, or postgresql://user@host:port/dbname"


def _db_exists(db: str) -> bool:
    """Whether a --db names something to open: a file, or a PostgreSQL server."""
    return is_postgres_url(db) or Path(db).exists()


def _users(db_path: str) -> list[str]:
    """The users stored in a database, opened read-only (nothing is written).

    A memory written by an older version is migrated first (opened for writing
    once); a database that is not an adamm memory is refused unchanged.
    """
    db = _read_only(db_path)
    try:
        return [
            r[0]
            for r in db.fetchall(
                "SELECT DISTINCT user_id FROM adamm_rounds ORDER BY user_id"
            )
        ]
    finally:
        db.close()


def _read_only(db_path: str) -> Any:
    """The database opened read-only (migrated first when it is older)."""
    from langgraph_adamm.storage.database import MemoryDatabase

    try:
        return MemoryDatabase(db_path, read_only=True)
    except StorageError as exc:
        if "needs migrating" not in str(exc):
            raise
        MemoryDatabase(db_path).close()
        return MemoryDatabase(db_path, read_only=True)


def _has_image_vectors(db_path: str, user: str) -> bool:
    """Whether the user's memory holds image vectors (a question then needs SigLIP).

    Without them a question needs no visual encoder, and so no open_clip and no
    torch: captions and OCR text are text views.
    """
    db = _read_only(db_path)
    try:
        return _image_vectors_in(db, user)
    finally:
        db.close()


def _image_vectors_in(db: Any, user: str) -> bool:
    """:func:`_has_image_vectors` on a database already open."""
    return bool(
        db.fetchall(
            "SELECT 1 FROM adamm_event_views WHERE user_id = ? AND "
            "modality = 'visual' LIMIT 1",
            [user],
        )
    )


def print_tables(memory: Memory) -> None:
    """Print each induced table with its columns, types, units and row count."""
    tables = memory.describe_tables()
    if not tables:
        print(f"user {memory.user_id}: no tables induced yet")
        return
    for t in tables:
        print(f"\n{t['table']}  ({t['rows']} rows, version {t['version']})")
        print(f"  {t['description']}")
        for other in t.get("possible_split", []):
            why = (
                f"records as alike as {other['alike']:.2f}, numbers alike"
                if "alike" in other
                else f"shared columns {', '.join(other['shared_columns'])}"
            )
            print(
                f"  ! its rows look like those of {other['table']} ({why}; "
                "their rounds interleave): one record kind may be split in two"
            )
        unread = t.get("unread_rounds") or []
        if unread:
            more = " ..." if len(unread) > 5 else ""
            print(
                f"  ! {len(unread)} round(s) look like its records but gave it no "
                f"row ({', '.join(unread[:5])}{more})"
            )
        for c in t["columns"]:
            unit = f" [{c['unit']}]" if c["unit"] else ""
            samples = f"  e.g. {', '.join(c['samples'])}" if c["samples"] else ""
            print(f"  - {c['name']}: {c['type']}{unit}{samples}")
            bad = c.get("uncast")
            if bad:
                rounds = ", ".join(bad["round_ids"][:5])
                more = " ..." if len(bad["round_ids"]) > 5 else ""
                print(
                    f"      {bad['count']} value(s) did not fit and are NULL "
                    f"(rounds {rounds}{more}): {bad['reasons'][0]}"
                )


def _tables(args: argparse.Namespace) -> int:
    from langgraph_adamm.memory import Memory

    if not _db_exists(args.db):
        raise AdaMMError(
            f"no memory database at {redacted(args.db)}; run 'adamm ingest' first"
        )
    stored = _users(args.db)
    if args.user_id and args.user_id not in stored:
        print(
            f"no rounds of user {args.user_id!r} in {redacted(args.db)} "
            f"(users there: {', '.join(map(repr, stored)) or 'none'})"
        )
        return 0
    if not stored:
        print(
            f"the memory at {redacted(args.db)} holds no rounds yet; "
            "run 'adamm ingest' first"
        )
        return 0
    users = [args.user_id] if args.user_id else stored
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


def _forget(args: argparse.Namespace) -> int:
    from langgraph_adamm.memory import Memory
    from langgraph_adamm.storage import compact

    if not _db_exists(args.db):
        raise AdaMMError(f"no memory database at {redacted(args.db)}")
    if args.user_id not in _users(args.db):
        raise AdaMMError(f"no rounds of user {args.user_id!r} in {redacted(args.db)}")
    before = None
    if args.before:
        try:
            before = datetime.fromisoformat(args.before)
        except ValueError as exc:
            raise AdaMMError(
                f"--before {args.before!r} is not a date (use YYYY-MM-DD or an "
                "ISO date and time)"
            ) from exc
    with Memory(
        args.db,
        user_id=args.user_id,
        text_encoder=args.text_model,
        visual_encoder=None,  # deleting needs no image model
        wait=args.wait,
    ) as memory:
        report = memory.forget(
            args.round or None,
            session_id=args.session,
            before=before,
            everything=args.everything,
            dry_run=not args.yes,
        )
        if not args.json:
            print(report)
            if report.dry_run and report.round_ids:
                print("nothing was changed; run again with --yes to forget them")
    out = dataclasses.asdict(report)
    if args.yes and report.round_ids:
        if args.compact:
            compacted = compact(args.db, wait=args.wait)
            out["compacted"] = dataclasses.asdict(compacted)
            if not args.json:
                print(compacted)
        else:
            _checkpoint(args.db, args.wait)
    if args.json:
        print(json.dumps(out, default=str))
    return 0


def _compact(args: argparse.Namespace) -> int:
    from langgraph_adamm.storage import compact

    report = compact(args.db, wait=args.wait)
    print(json.dumps(dataclasses.asdict(report)) if args.json else report)
    return 0


def _checkpoint(db_path: str, wait: float) -> None:
    """Write the deletions into the file, so that freed space can be reused.

    The forget has committed by then: a failure here is a warning, not an error.
    """
    from langgraph_adamm.storage.database import MemoryDatabase

    if is_postgres_url(db_path):
        return  # PostgreSQL reuses the space itself (autovacuum)
    try:
        db = MemoryDatabase(db_path, wait=wait)
        try:
            db.execute("CHECKPOINT")
        finally:
            db.close()
    except Exception as exc:  # noqa: BLE001 - the forget itself is done
        print(
            f"adamm: warning: forgotten, but CHECKPOINT failed: {exc}", file=sys.stderr
        )


def matches_gold(result: dict[str, Any], gold: dict[str, Any]) -> bool:
    """Whether an answer's value equals a gold value (units converted)."""
    from langgraph_adamm.analytic.values import convert_units, convertible

    want, got = gold.get("value"), result.get("value")
    if want is None or got is None:
        return False
    if isinstance(want, bool) or isinstance(got, bool):
        return bool(want == got)
    if isinstance(want, (int, float)) and isinstance(got, (int, float)):
        unit, gold_unit = result.get("unit"), gold.get("unit")
        if unit and gold_unit and unit != gold_unit and convertible(unit, gold_unit):
            got = convert_units(float(got), unit, gold_unit)
        return math.isclose(float(got), float(want), rel_tol=1e-6, abs_tol=1e-9)
    return str(got).strip().lower() == str(want).strip().lower()


def _demo(args: argparse.Namespace) -> int:
    from langgraph_adamm.history import read_history, read_questions
    from langgraph_adamm.memory import Memory

    data = resources.files("langgraph_adamm") / "data"
    with resources.as_file(data / "sample_history.json") as hist_path:
        history = read_history(hist_path).history
    with resources.as_file(data / "sample_questions.jsonl") as q_path:
        questions = read_questions(q_path)
    print(
        f"Ingesting the bundled sample history ({history.round_count} rounds) into "
        f"{redacted(args.db)}, offline (rule extraction, no model)."
    )
    with Memory(args.db, user_id=history.user_id) as memory:
        report = memory.ingest(history, progress=_progress_bar("extracting"))
        print(report)
        print_tables(memory)
        print(
            "\nQuestions answered by the query graph, offline (rule planner, "
            "template reader); the stored gold answer is only compared after:"
        )
        right = 0
        for q in questions:
            result = memory.ask(q.question, question_time=q.question_time)
            ok = matches_gold(result, q.extra.get("gold") or {})
            right += ok
            call = result["steps"][0] if result["steps"] else None
            shown = f"{call['tool']}({json.dumps(call['arguments'])})" if call else "-"
            print(
                f"- {q.question}\n    {shown}\n    -> {result['answer']}\n"
                f"    [{'matches' if ok else 'DIFFERS FROM'} the expected {q.answer}]"
            )
        print(f"\n{right} of {len(questions)} answers match the expected values.")
        if memory.retrieval is not None:
            query = "Can you suggest something to cook for dinner?"
            result = memory.ask(query)
            print(f"\nA question no table answers: {query!r}")
            print(f"    plan: {[s['tool'] for s in result['plan']]}")
            print("    -> " + result["answer"].replace("\n", "\n       "))
    return 0


def _ask_one(memory: Memory, question: str, when: Any) -> dict[str, Any]:
    result = memory.ask(question, question_time=when)
    result["steps"] = [
        {
            "tool": s.get("tool"),
            "arguments": s.get("arguments"),
            "summary": s.get("summary") or "",
            "error": s.get("error"),
            **({"references": s["references"]} if s.get("references") else {}),
            **({"anchor": s["anchor"]} if s.get("anchor") else {}),
        }
        for s in result.get("steps") or []
    ]
    return result


def _ask_user(args: argparse.Namespace) -> tuple[str, bool]:
    """The user asked about, and whether their memory holds image vectors.

    One read-only opening serves both (a cold ``adamm ask`` opens the file once
    more, for the memory itself).
    """
    if args.user_id and args.no_retrieval:
        return str(args.user_id), False
    db = _read_only(args.db)
    try:
        if args.user_id:
            user = str(args.user_id)
        else:
            users = [
                r[0]
                for r in db.fetchall(
                    "SELECT DISTINCT user_id FROM adamm_rounds ORDER BY user_id"
                )
            ]
            if not users:
                raise AdaMMError(
                    f"the memory at {redacted(args.db)} is empty; run 'adamm "
                    "ingest' first"
                )
            if len(users) > 1:
                raise AdaMMError(
                    f"the memory at {redacted(args.db)} holds several users "
                    f"({', '.join(users[:10])}); "
                    "choose one with --user-id"
                )
            user = users[0]
        return user, not args.no_retrieval and _image_vectors_in(db, user)
    finally:
        db.close()


def _ask(args: argparse.Namespace) -> int:
    from langgraph_adamm.history import read_questions
    from langgraph_adamm.memory import Memory

    if (args.question is None) == (args.questions is None):
        raise AdaMMError("give either a QUESTION or --questions FILE")
    try:
        if not _db_exists(args.db):
            raise AdaMMError(
                f"no memory database at {redacted(args.db)}; run 'adamm ingest' first"
            )
        user, images = _ask_user(args)
        questions = (
            read_questions(args.questions) if args.questions is not None else None
        )
        memory = Memory(
            args.db,
            user_id=user,
            model=args.model,
            retrieval=False if args.no_retrieval else None,
            visual_encoder="default" if images else None,
            config=AdaMMConfig(text_backend=args.text_backend),
        )
    except AdaMMError as exc:
        if not args.json:
            raise
        print(
            json.dumps(
                {
                    "question": args.question,
                    "answer": None,
                    "value": None,
                    "unit": None,
                    "evidence": [],
                    "error": str(exc),
                }
            )
        )
        return 2
    with memory:
        items = (
            [(None, args.question, args.question_time)]
            if questions is None
            else [(q.question_id, q.question, q.question_time) for q in questions]
        )
        for qid, text, when in items:
            result = _ask_one(memory, text, when)
            if qid is not None:
                result = {"question_id": qid, **result}
            if args.json:
                print(json.dumps(result, default=str, ensure_ascii=False), flush=True)
            else:
                prefix = f"[{qid}] " if qid else ""
                print(f"{prefix}{text}\n{result['answer']}\n")
    return 0


def _text_encoder(name: str | None, backend: str = "auto") -> Any:
    from langgraph_adamm.retrieval.encoders import (
        DEFAULT_TEXT_MODEL,
        SentenceTransformerEncoder,
    )

    return SentenceTransformerEncoder(name or DEFAULT_TEXT_MODEL, backend=backend)


def _wait_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--wait",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="when another process is writing to the database, wait up to this "
        "long for it (default: fail at once, naming the process)",
    )


def _backend_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--text-backend",
        choices=list(TEXT_BACKENDS),
        default="auto",
        help="how the text encoder runs: auto (the default: onnx when [onnx] is "
        "installed, else torch), torch (reference), onnx (ONNX Runtime, same "
        "vectors) or onnx-int8 (int8, faster on CPU, vectors slightly off)",
    )


def _scenario_dir(path: str) -> Path:
    """A folder of Mem-Gallery scenario files, checked before any model loads."""
    folder = Path(path)
    if not folder.is_dir():
        raise AdaMMError(f"{path}: no such folder")
    if not any(folder.glob("*.json")):
        raise AdaMMError(f"{path}: no Mem-Gallery scenario files (*.json) in it")
    return folder


def _benchmark(args: argparse.Namespace) -> Any:
    """The benchmark's module, its input checked before any model loads."""
    if args.benchmark == "locomo":
        from langgraph_adamm.evaluation import locomo

        locomo.read_items(args.path)
        return locomo
    from langgraph_adamm.evaluation import mem_gallery

    _scenario_dir(args.path)
    return mem_gallery


def _eval(args: argparse.Namespace) -> int:
    from langgraph_adamm.evaluation.common import METHODS, format_table, stderr_log

    bench = _benchmark(args)
    if args.model and not args.rerank:
        raise AdaMMError("--model is for the forest's verifiers: add --rerank forest")
    result = bench.evaluate(
        args.path,
        k=args.k,
        encoder=_text_encoder(args.text_model, args.text_backend),
        methods=args.methods or list(METHODS),
        log=None if args.quiet else stderr_log,
        rerank=args.rerank,
        model=args.model,
    )
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print(format_table(result))
        if hasattr(bench, "format_notes"):
            print("\n" + bench.format_notes(result))
    return 0


def _convert(args: argparse.Namespace) -> int:
    bench = _benchmark(args)
    for path in bench.convert(args.path, args.out):
        print(path)
    return 0


def _package_version() -> str:
    from langgraph_adamm import __version__

    return __version__


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a whole number, got {text!r}"
        ) from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


_BENCHMARKS = ["mem-gallery", "locomo"]
_BENCHMARK_PATH_HELP = (
    "mem-gallery: the folder of scenario files; locomo: the data file "
    "(locomo10.json or a part of it)"
)
# evaluation.common.METHODS, repeated so that "adamm --help" imports no encoder
_METHODS = ["adamm", "adamm_events", "flat", "langgraph_store", "bm25", "hybrid"]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for documentation and tests)."""
    parser = argparse.ArgumentParser(
        prog="adamm", description="Long-term analytic memory for LangGraph agents."
    )
    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {_package_version()}"
    )
    sub = parser.add_subparsers(dest="command", required=True)

    ing = sub.add_parser("ingest", help="ingest a history file (JSON or JSON Lines)")
    ing.add_argument(
        "file",
        help="the history (JSON or JSON Lines, docs/history-format.md); - reads stdin",
    )
    ing.add_argument("--db", required=True, help=_DB_HELP)
    ing.add_argument(
        "--model", help="chat model, e.g. openai:gpt-4.1-nano (default: offline rules)"
    )
    ing.add_argument("--user-id", help="namespace (default: the history's user_id)")
    ing.add_argument(
        "--strict",
        action="store_true",
        help="refuse the whole file when any round is bad: report every problem "
        "and ingest nothing (default: report bad rounds and ingest the rest)",
    )
    ing.add_argument(
        "--retry-failed", action="store_true", help="re-extract failed rounds"
    )
    ing.add_argument(
        "--batch-size",
        type=_positive_int,
        help="rounds per transaction (default 500)",
    )
    _wait_option(ing)
    ing.add_argument("--quiet", action="store_true", help="no progress bar")
    ing.add_argument(
        "--json", action="store_true", help="print the report as one JSON object"
    )
    ing.add_argument(
        "--no-retrieval",
        action="store_true",
        help="analytic memory only (no embeddings)",
    )
    ing.add_argument(
        "--text-model", help="sentence-transformers model (default: packaged MiniLM)"
    )
    _backend_option(ing)
    ing.add_argument(
        "--download-models",
        action="store_true",
        help="fetch the visual encoder's weights from the hub if missing",
    )
    ing.set_defaults(func=_ingest)

    tab = sub.add_parser(
        "tables", help="list induced tables with columns and row counts"
    )
    tab.add_argument("--db", required=True, help=_DB_HELP)
    tab.add_argument("--user-id", help="one namespace (default: all)")
    tab.add_argument(
        "--json", action="store_true", help="print {user: [table, ...]} as JSON"
    )
    tab.set_defaults(func=_tables)

    fg = sub.add_parser(
        "forget",
        help="forget rounds, a session, rounds before a date, or a whole user "
        "(a dry run unless --yes)",
    )
    fg.add_argument("--db", required=True, help=_DB_HELP)
    fg.add_argument("--user-id", required=True, help="the namespace to forget in")
    which = fg.add_mutually_exclusive_group(required=True)
    which.add_argument(
        "--round", action="append", metavar="ROUND_ID", help="a round id (repeatable)"
    )
    which.add_argument(
        "--session", metavar="SESSION_ID", help="every round of a session"
    )
    which.add_argument(
        "--before", metavar="DATE", help="every round dated before this (ISO date)"
    )
    which.add_argument(
        "--everything", action="store_true", help="every round of the user"
    )
    fg.add_argument(
        "--yes",
        action="store_true",
        help="really forget (default: print what would go and change nothing)",
    )
    fg.add_argument(
        "--text-model",
        help="the text model the memory was built with (default: packaged MiniLM)",
    )
    _wait_option(fg)
    fg.add_argument("--json", action="store_true", help="print the report as JSON")
    fg.add_argument(
        "--compact",
        action="store_true",
        help="then rewrite the file without the freed space (see adamm compact)",
    )
    fg.set_defaults(func=_forget)

    cp = sub.add_parser(
        "compact",
        help="rewrite a memory file without the space deleted rows left (DuckDB "
        "never gives it back by itself); the file must not be open elsewhere",
    )
    cp.add_argument("--db", required=True, help="memory database file (DuckDB)")
    _wait_option(cp)
    cp.add_argument("--json", action="store_true", help="print the sizes as JSON")
    cp.set_defaults(func=_compact)

    ev = sub.add_parser("eval", help="retrieval evaluation on a benchmark")
    ev.add_argument("benchmark", choices=_BENCHMARKS, help="benchmark format")
    ev.add_argument("path", help=_BENCHMARK_PATH_HELP)
    ev.add_argument(
        "--k", type=_positive_int, default=10, help="rounds retrieved per question"
    )
    ev.add_argument("--json", action="store_true", help="print one JSON object")
    ev.add_argument(
        "--methods",
        nargs="+",
        choices=_METHODS,
        help="retrieval methods to score (default: all): the hierarchy (adamm), "
        "its events alone, and the baselines flat, langgraph_store, bm25, hybrid "
        "(bm25 and flat fused by reciprocal rank)",
    )
    ev.add_argument(
        "--rerank",
        choices=["forest"],
        help="also score the evidence forest over the hierarchy (method "
        "adamm+forest; offline: the fixed-edge variant)",
    )
    ev.add_argument(
        "--model",
        help="chat model for the forest's verifiers, as provider:model "
        "(default: none, the offline fixed-edge variant)",
    )
    ev.add_argument("--text-model", help="sentence-transformers model (default MiniLM)")
    _backend_option(ev)
    ev.add_argument("--quiet", action="store_true", help="no progress lines")
    ev.set_defaults(func=_eval)

    conv = sub.add_parser(
        "convert", help="convert benchmark files to the history format"
    )
    conv.add_argument("benchmark", choices=_BENCHMARKS, help="benchmark format")
    conv.add_argument("path", help=_BENCHMARK_PATH_HELP)
    conv.add_argument("out", help="folder to write histories and questions into")
    conv.set_defaults(func=_convert)

    ask = sub.add_parser("ask", help="answer a question (or a questions file)")
    ask.add_argument("question", nargs="?", help="the question")
    ask.add_argument("--db", required=True, help=_DB_HELP)
    ask.add_argument("--user-id", help="namespace (default: the only user stored)")
    ask.add_argument(
        "--model", help="chat model, e.g. openai:gpt-4.1-nano (default: offline)"
    )
    ask.add_argument(
        "--questions", help="a questions file (JSON Lines); answers every question"
    )
    ask.add_argument("--question-time", help="'now' for relative dates (ISO date-time)")
    ask.add_argument("--no-retrieval", action="store_true", help="analytic only")
    _backend_option(ask)
    ask.add_argument("--json", action="store_true", help="one JSON object a line")
    ask.set_defaults(func=_ask)

    demo = sub.add_parser(
        "demo", help="ingest the bundled sample and answer its questions"
    )
    demo.add_argument(
        "--db", default="adamm_demo.duckdb", help="memory database file to create/use"
    )
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
    except BrokenPipeError:  # output piped into "head" and closed
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print("adamm: interrupted; committed batches are kept", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - the command line shows no traceback
        print(
            f"adamm: error: unexpected {type(exc).__name__}: {str(exc)[:300]} "
            "(please report this)",
            file=sys.stderr,
        )
        return 1


if __name__ == "__main__":
    sys.exit(main())
