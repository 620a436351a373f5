"""Score a records corpus (``records_dev``, ``records_heldout``) with oracle calls.

A records corpus is a history of pasted records (apps, receipts, e-mails, exports,
photos whose values are only in OCR or a caption), the truth of every record
(``truth_<name>.jsonl``: round, kind, layout, date, fields with the unit in their
names) and questions that each name their oracle operator call: a kind, an
operator, an attribute, an equality filter and a period (``questions_<name>.jsonl``).

No planner is involved. For each kind the oracle picks the table that holds most of
the kind's records (by the ``source`` round of each row), and for each attribute the
column of that table whose values agree with the truth on most records (after unit
conversion); the period is read on whichever of ``time`` or a date column agrees
with the records' own dates. The call is then the one a correct planner makes, and
the answer is scored against the gold value:

- ``exact``: within 0.01% (or 0.011 absolute, for money);
- ``caveated``: not exact, but the result names rounds in range it could not read
  (``unread_rounds``), so an answer over it is not stated unqualified;
- ``wrong``: not exact and nothing said.

Besides the answers it reports, per kind, how many tables the kind's records went
to and the share in its main table ("one kind, one table").

Usage::

    python tools/datasets/records_eval.py tools/datasets/records_dev [--db-dir DIR]
        [--json] [--per-question] [--reuse]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")

_SUFFIX_UNITS = {
    "m": "m",
    "km": "km",
    "mi": "mi",
    "min": "min",
    "h": "h",
    "s": "s",
    "eur": "EUR",
    "usd": "USD",
    "gbp": "GBP",
    "kg": "kg",
    "lb": "lb",
    "g": "g",
    "l": "L",
    "litres": "L",
    "liters": "L",
    "kwh": "kWh",
    "mmhg": "mmHg",
    "bpm": "bpm",
}


@dataclass
class KindPlace:
    """Where a kind's records went."""

    kind: str
    records: int
    table: str | None
    in_table: int
    tables: dict[str, int] = field(default_factory=dict)


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _unit_of(attribute: str, gold_unit: str | None = None) -> str | None:
    if gold_unit:
        return gold_unit
    parts = attribute.lower().split("_")
    for n in (2, 1):
        tail = "_".join(parts[-n:])
        if len(parts) > n and tail in _SUFFIX_UNITS:
            return _SUFFIX_UNITS[tail]
        if tail == "mmol_l":
            return "mmol/L"
        if tail == "mg_dl":
            return "mg/dL"
    return None


def _convert(value: float, from_unit: str | None, to_unit: str | None) -> float:
    from langgraph_adamm.analytic.units import canonical_unit, convert_units

    if not from_unit or not to_unit:
        return value
    src = canonical_unit(from_unit) or from_unit
    dst = canonical_unit(to_unit) or to_unit
    try:
        return convert_units(value, src, dst)
    except Exception:  # ValueError, or pint's own for an unknown unit: none
        return value


def _close(got: Any, want: Any) -> bool:
    if isinstance(want, str) or isinstance(got, str):
        return isinstance(got, str) and got.strip().lower() == str(want).lower()
    if got is None or want is None:
        return got is want
    try:
        g, w = float(got), float(want)
    except (TypeError, ValueError):
        return False
    return math.isclose(g, w, rel_tol=1e-4, abs_tol=0.011)


def _day(value: Any) -> date | None:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value[:10]).date()
        except ValueError:
            return None
    return None


def _rows(memory: Any, table: str) -> list[dict[str, Any]]:
    res = memory.filter({"table": table, "column_filters": [], "result_budget": 1000})
    return list(res.rows)


def _matched(
    values_by_source: dict[str, list[Any]], truth_by_source: dict[str, list[Any]]
) -> int:
    """How many truth values a column's values reproduce, source by source."""
    hits = 0
    for src, wants in truth_by_source.items():
        pool = list(values_by_source.get(src, []))
        for want in wants:
            for i, got in enumerate(pool):
                if _close(got, want):
                    hits += 1
                    del pool[i]
                    break
    return hits


class Oracle:
    """The table, columns and period column a correct planner would use."""

    def __init__(self, memory: Any, truth: list[dict[str, Any]]) -> None:
        self.memory = memory
        self.truth = truth
        self.by_kind: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for rec in truth:
            self.by_kind[rec["kind"]].append(rec)
        self.tables = {t.table_name: t for t in memory.tables}
        self.rows = {name: _rows(memory, name) for name in self.tables}
        self.places = {k: self._place(k, recs) for k, recs in self.by_kind.items()}
        self._columns: dict[tuple[str, str, str | None], str | None] = {}

    def _place(self, kind: str, records: list[dict[str, Any]]) -> KindPlace:
        rounds = Counter(r["round_id"] for r in records)
        per_table: dict[str, int] = {}
        extra: dict[str, int] = {}
        for name, rows in self.rows.items():
            got = Counter(row.get("source") for row in rows)
            n = sum(min(c, got.get(src, 0)) for src, c in rounds.items())
            if n:
                per_table[name] = n
                # rows beyond the kind's records in its rounds: a document's
                # items, say, are no rows of the document's kind
                extra[name] = sum(
                    max(0, got.get(src, 0) - c) for src, c in rounds.items()
                )
        best = (
            max(per_table, key=lambda n: (per_table[n] - extra[n], per_table[n]))
            if per_table
            else None
        )
        return KindPlace(
            kind, len(records), best, per_table.get(best, 0) if best else 0, per_table
        )

    def column(self, kind: str, attribute: str, unit: str | None) -> str | None:
        key = (kind, attribute, unit)
        if key not in self._columns:
            self._columns[key] = self._column(kind, attribute, unit)
        return self._columns[key]

    def _column(self, kind: str, attribute: str, unit: str | None) -> str | None:
        table = self.places[kind].table
        if table is None:
            return None
        truth: dict[str, list[Any]] = defaultdict(list)
        for rec in self.by_kind[kind]:
            if attribute in rec["fields"]:
                truth[rec["round_id"]].append(rec["fields"][attribute])
        best, best_hits = None, 0
        for col in self.tables[table].columns:
            values: dict[str, list[Any]] = defaultdict(list)
            for row in self.rows[table]:
                v = row.get(col.name)
                if v is None:
                    continue
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    v = _convert(float(v), col.unit, unit)
                elif not isinstance(v, str):
                    v = str(v)
                values[row.get("source")].append(v)
            hits = _matched(values, truth)
            if hits > best_hits:
                best, best_hits = col.name, hits
        return best

    def period_column(self, kind: str) -> str:
        table = self.places[kind].table
        truth: dict[str, list[Any]] = defaultdict(list)
        for rec in self.by_kind[kind]:
            truth[rec["round_id"]].append(rec["date"])
        best, best_hits = "time", -1
        assert table is not None
        names = ["time"] + [
            c.name
            for c in self.tables[table].columns
            if c.sql_type in ("DATE", "TIMESTAMP")
        ]
        for name in names:
            values: dict[str, list[Any]] = defaultdict(list)
            for row in self.rows[table]:
                d = _day(row.get(name))
                if d is not None:
                    values[row.get("source")].append(d.isoformat())
            hits = _matched(values, truth)
            if hits > best_hits:
                best, best_hits = name, hits
        return best


def answer(oracle: Oracle, q: dict[str, Any]) -> dict[str, Any]:
    """The oracle call's result for one question, scored."""
    gold = q["gold"]
    unit = gold.get("unit")
    out: dict[str, Any] = {"question_id": q["question_id"], "gold": gold["value"]}
    place = oracle.places.get(q["kind"])
    if place is None or place.table is None:
        return {**out, "verdict": "wrong", "why": "no table holds the kind"}
    table = place.table
    filters: list[dict[str, Any]] = []
    for w in q.get("where") or []:
        col = oracle.column(q["kind"], w["attribute"], None)
        if col is None:
            return {**out, "verdict": "wrong", "why": f"no column for {w['attribute']}"}
        filters.append({"column": col, "op": "=", "value": w["value"]})
    if q.get("period"):
        col = oracle.period_column(q["kind"])
        p = q["period"]
        filters.append({"column": col, "op": "between", "value": [p["from"], p["to"]]})
    target = None
    if q["op"] != "count":
        target = oracle.column(
            q["kind"], q["attribute"], _unit_of(q["attribute"], unit)
        )
        if target is None:
            return {**out, "verdict": "wrong", "why": f"no column for {q['attribute']}"}
    args = {
        "table": table,
        "operator": q["op"],
        "target_column_expression": target,
        "optional_column_filters": filters,
    }
    try:
        res = oracle.memory.compute(args)
    except Exception as exc:  # an operator error is a wrong answer, said why
        return {**out, "verdict": "wrong", "why": f"{type(exc).__name__}: {exc}"}
    value = res.value
    if isinstance(value, (int, float)) and q["op"] != "count":
        value = _convert(float(value), res.unit, _unit_of(q["attribute"], unit))
    exact = _close(value, gold["value"])
    verdict = "exact" if exact else ("caveated" if res.unread_rounds else "wrong")
    return {
        **out,
        "got": value,
        "verdict": verdict,
        "call": args,
        "unread_rounds": len(res.unread_rounds),
        "rows": res.row_count,
    }


def _histories(folder: Path) -> list[str]:
    return sorted(p.stem[len("history_") :] for p in folder.glob("history_*.json"))


def run(
    folder: Path, db_dir: Path, reuse: bool, realign: bool = True
) -> dict[str, Any]:
    from langgraph_adamm import AdaMMConfig, Memory

    config = AdaMMConfig() if realign else AdaMMConfig(realign_kinds=False)

    results: list[dict[str, Any]] = []
    kinds: list[dict[str, Any]] = []
    for name in _histories(folder):
        history = folder / f"history_{name}.json"
        user = json.loads(history.read_text(encoding="utf-8")).get("user_id", "default")
        db = db_dir / f"{name}.duckdb"
        if not (reuse and db.exists()):
            for stale in db_dir.glob(f"{name}.duckdb*"):
                stale.unlink()
            with Memory(str(db), user_id=user, config=config) as memory:
                memory.ingest(str(history))
        truth = _read_jsonl(folder / f"truth_{name}.jsonl")
        questions = _read_jsonl(folder / f"questions_{name}.jsonl")
        with Memory(str(db), user_id=user) as memory:
            oracle = Oracle(memory, truth)
            for place in oracle.places.values():
                kinds.append(
                    {
                        "history": name,
                        "kind": place.kind,
                        "records": place.records,
                        "tables": len(place.tables),
                        "in_main_table": place.in_table,
                        "main_table": place.table,
                    }
                )
            for q in questions:
                results.append({"history": name, **answer(oracle, q)})
    verdicts = Counter(r["verdict"] for r in results)
    one_table = sum(1 for k in kinds if k["tables"] == 1)
    return {
        "overall": {
            "exact": verdicts["exact"],
            "caveated": verdicts["caveated"],
            "wrong": verdicts["wrong"],
            "total": len(results),
            "kinds": len(kinds),
            "kinds_in_one_table": one_table,
            "tables": sum(k["tables"] for k in kinds),
            "records": sum(k["records"] for k in kinds),
            "records_in_main_tables": sum(k["in_main_table"] for k in kinds),
        },
        "kinds": kinds,
        "questions": results,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("folder", type=Path)
    p.add_argument("--db-dir", type=Path, default=None)
    p.add_argument("--reuse", action="store_true", help="keep an ingested database")
    p.add_argument(
        "--no-realign", action="store_true", help="ingest with realign_kinds off"
    )
    p.add_argument("--json", action="store_true")
    p.add_argument("--per-question", action="store_true")
    a = p.parse_args(argv)
    db_dir = a.db_dir or Path(tempfile.mkdtemp(prefix="adamm_records_"))
    db_dir.mkdir(parents=True, exist_ok=True)
    report = run(a.folder, db_dir, a.reuse, not a.no_realign)
    if a.json:
        shown = (
            report if a.per_question else {k: report[k] for k in ("overall", "kinds")}
        )
        print(json.dumps(shown, indent=1, default=str))
        return 0
    o = report["overall"]
    print(
        f"exact {o['exact']}/{o['total']}, caveated {o['caveated']}, "
        f"wrong {o['wrong']}; "
        f"kinds in one table {o['kinds_in_one_table']}/{o['kinds']} "
        f"({o['tables']} tables for {o['kinds']} kinds); records in their kind's "
        f"main table {o['records_in_main_tables']}/{o['records']}"
    )
    for k in report["kinds"]:
        print(
            f"  {k['history']}/{k['kind']}: "
            f"{k['in_main_table']}/{k['records']} records in "
            f"{k['main_table']}, {k['tables']} tables"
        )
    if a.per_question:
        for r in report["questions"]:
            print(json.dumps(r, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
