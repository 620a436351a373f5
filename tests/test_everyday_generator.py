"""Tests of tools/datasets/everyday_history.py itself (not of the extractor)."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from collections import Counter
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest

from langgraph_adamm.analytic.values import normalize_attribute
from langgraph_adamm.history import read_history
from tools.datasets.everyday_history import (
    FORMS,
    KIND_ATTRIBUTES,
    UNIT_BEARING,
    EverydayData,
    EverydayRecord,
    generate_everyday,
    label_variants,
    passes,
)

ROOT = Path(__file__).resolve().parents[1]
OPERATORS = {
    "count",
    "sum",
    "avg",
    "min",
    "max",
    "median",
    "first",
    "latest",
    "change",
    "argmax_text",
    "argmin_text",
}
UNITS = set(
    "s min h d g kg lb oz m km mi kcal bpm % USD EUR GBP mg/dL mmol/L mmHg "
    "degC degF mL L".split()
)
# The test's own conversion factors (to min, kg, km), independent of the tool's.
TO_BASE = {
    "s": 1 / 60,
    "min": 1.0,
    "h": 60.0,
    "kg": 1.0,
    "lb": 0.45359237,
    "km": 1.0,
    "mi": 1.609344,
}
STORED = {"total_sleep": "h", "deep_sleep": "h", "weight": "kg", "distance": "km"}
STORED.update(duration="min", active_minutes="min")


@pytest.fixture(scope="module")
def data() -> EverydayData:
    return generate_everyday(60, 0)


@pytest.fixture(scope="module")
def several() -> list[EverydayData]:
    return [generate_everyday(60, s) for s in range(6)]


def _dump(d: EverydayData) -> str:
    return json.dumps([d.history, d.checks], sort_keys=True)


def test_deterministic_per_seed() -> None:
    a, b = generate_everyday(30, 3), generate_everyday(30, 3)
    assert _dump(a) == _dump(b)
    assert _dump(a) != _dump(generate_everyday(30, 4))


def _python_calls(days: int, seed: int = 11) -> int:
    """Python function calls made generating ``days`` days (the work done)."""
    calls = [0]

    def count(frame: Any, event: str, arg: Any) -> None:
        if event == "call":
            calls[0] += 1

    sys.setprofile(count)
    try:
        generate_everyday(days, seed)
    finally:
        sys.setprofile(None)
    return calls[0]


def test_work_grows_linearly_with_days() -> None:
    """Generating is linear in days, at a few hundred calls a day (about 420 and
    25,000 for 60 days when written): a quadratic pass or a costly call per
    round shows as a count, whatever the machine's speed (speed: benchmarks)."""
    sixty, hundred_twenty = _python_calls(60), _python_calls(120)
    assert sixty < 60 * 800, f"{sixty} calls for 60 days"
    assert hundred_twenty < 2.2 * sixty, (sixty, hundred_twenty)


def test_history_reads_cleanly(data: EverydayData, tmp_path: Path) -> None:
    hist_path, checks_path = data.write(tmp_path)
    assert hist_path.name == "history.json" and checks_path.name == "checks.jsonl"
    result = read_history(hist_path, strict=True)
    assert not result.problems
    n_rounds = sum(len(s["rounds"]) for s in data.history["sessions"])
    assert result.history.round_count == n_rounds
    lines = checks_path.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in lines] == data.checks


def test_undated_sessions_in_the_middle(several: list[EverydayData]) -> None:
    for d in several:
        sessions = d.history["sessions"]
        undated = [i for i, s in enumerate(sessions) if "date" not in s]
        assert 1 <= len(undated) <= 3
        for i in undated:
            assert 0 < i < len(sessions) - 1
            assert all("time" not in r for r in sessions[i]["rounds"])
        for s in sessions:
            if "date" in s:
                times = [r["time"] for r in s["rounds"]]
                assert all(t.startswith(s["date"] + "T") for t in times)
                assert times == sorted(times) and len(set(times)) == len(times)
        weights = d.records["weight"]
        assert any(r.time is None for r in weights)


def _round_texts(d: EverydayData) -> dict[str, str]:
    out = {}
    for s in d.history["sessions"]:
        for r in s["rounds"]:
            parts = [r.get("user", ""), r.get("assistant", "")]
            for im in r.get("images", []):
                parts += [im.get("caption", ""), im.get("ocr", "")]
            out[r["round_id"]] = "\n".join(parts)
    return out


def test_records_match_rounds(several: list[EverydayData]) -> None:
    for d in several:
        texts = _round_texts(d)
        times = {
            r["round_id"]: r.get("time")
            for s in d.history["sessions"]
            for r in s["rounds"]
        }
        seqs = []
        for kind, recs in d.records.items():
            for rec in recs:
                assert rec.kind == kind
                assert set(rec.values) == set(KIND_ATTRIBUTES[kind])
                assert rec.form in FORMS
                text = texts[rec.round_id]
                expected_time = times[rec.round_id]
                if expected_time is None:
                    assert rec.time is None
                else:
                    assert rec.time == datetime.fromisoformat(expected_time)
                for attr in ("merchant", "category", "mood", "game"):
                    if attr in rec.values:
                        assert rec.values[attr] in text
                for attr in ("sleep_score", "score"):
                    if attr in rec.values:
                        assert str(rec.values[attr]) in text
                seqs.append(rec.seq)
        assert len(seqs) == len(set(seqs))


def test_labels_normalise_to_the_attribute() -> None:
    for attrs in KIND_ATTRIBUTES.values():
        for attr in attrs:
            for label in label_variants(attr):
                assert normalize_attribute(label)[0] == attr, label


def test_forms_and_channels_are_mixed(several: list[EverydayData]) -> None:
    for d in several:
        recs = [r for rs in d.records.values() for r in rs]
        forms = Counter(r.form for r in recs)
        assert len(forms) >= 8, forms
        assert max(forms.values()) < 0.3 * len(recs)
        assert {"caption", "ocr"} <= {r.channel for r in recs}
        multi = Counter(r.round_id for r in recs)
        assert max(multi.values()) >= 2  # JSON arrays / tables of several records
        chat = [
            r
            for s in d.history["sessions"]
            for r in s["rounds"]
            if r["round_id"] not in multi
        ]
        assert len(chat) >= 30


def test_units_are_mixed(several: list[EverydayData]) -> None:
    def written(d: EverydayData, kind: str, attr: str) -> Counter[Any]:
        return Counter(r.written[attr] for r in d.records[kind])

    for d in several[:3]:
        sleep = written(d, "sleep", "total_sleep")
        assert sleep["h"] > sleep["min"] + sleep["hm"] > 0
        assert written(d, "weight", "weight")["lb"] > 0
        assert written(d, "run", "distance")["mi"] > 0
        assert written(d, "steps", "steps")["k"] > 0
        assert written(d, "run", "duration")["hms"] > 0


def test_bare_values_are_a_plausible_minority(several: list[EverydayData]) -> None:
    total_bare = 0
    for d in several:
        for kind, attrs in KIND_ATTRIBUTES.items():
            for attr in attrs:
                if attr not in UNIT_BEARING or not d.records[kind]:
                    continue
                col = d.records[kind]
                bare = [r for r in col if r.written[attr] == "bare"]
                assert len(bare) <= 0.15 * len(col), (kind, attr)
                total_bare += len(bare)
                others = [r.values[attr] for r in col if r.written[attr] != "bare"]
                for r in bare:
                    assert min(others) * 0.5 <= r.values[attr] <= max(others) * 1.5
    assert total_bare > 0


def test_currency_per_history() -> None:
    currencies = {}
    for seed in range(10):
        d = generate_everyday(20, seed)
        currencies.setdefault(d.currency, d)
    assert set(currencies) == {"USD", "EUR"}
    eur = currencies["EUR"]
    texts = "\n".join(_round_texts(eur).values())
    assert "€" in texts or "EUR" in texts
    assert "$" not in texts and "USD" not in texts
    assert any(
        r.written["amount"] in ("EUR", "label", "bare") for r in eur.records["expense"]
    )
    usd_texts = "\n".join(_round_texts(currencies["USD"]).values())
    assert "€" not in usd_texts


def test_check_shapes(several: list[EverydayData]) -> None:
    keys = {
        "check_id",
        "kind",
        "table_attributes",
        "operator",
        "target",
        "filters",
        "answer_column",
        "value",
        "unit",
        "rel_tol",
    }
    ops: set[str] = set()
    for d in several:
        assert len(d.checks) >= 30
        ids = [c["check_id"] for c in d.checks]
        assert len(ids) == len(set(ids))
        for c in d.checks:
            assert keys <= set(c)
            assert c["table_attributes"] == list(KIND_ATTRIBUTES[c["kind"]])
            assert c["operator"] in OPERATORS
            ops.add(c["operator"])
            assert c["unit"] is None or c["unit"] in UNITS
            if c["operator"] == "count":
                assert c["target"] is None and isinstance(c["value"], int)
                assert c["unit"] is None
            else:
                assert c["target"] in c["table_attributes"]
            if c["operator"].endswith("_text"):
                assert c["answer_column"] in c["table_attributes"]
                assert isinstance(c["value"], str)
            for f in c["filters"]:
                assert f["column"] == "time" or f["column"] in c["table_attributes"]
                assert f["op"] in {"=", ">", ">=", "<", "<=", "between"}
                assert "unit" not in f or f["unit"] in UNITS
    assert ops == OPERATORS


# ------------------------------------------------ independent recomputation
def _history_days(d: EverydayData) -> tuple[dict[str, int], list[date | None]]:
    """Each round's position in the history, and each position's day."""
    rounds = [r for s in d.history["sessions"] for r in s["rounds"]]
    days = [date.fromisoformat(r["time"][:10]) if "time" in r else None for r in rounds]
    return {r["round_id"]: i for i, r in enumerate(rounds)}, days


def _day_passes(day: date, f: dict[str, Any]) -> bool:
    if f["op"] == "between":
        lo, hi = (date.fromisoformat(x) for x in f["value"])
        return lo <= day <= hi
    assert f["op"] == ">="
    return day >= date.fromisoformat(f["value"])


def _passes(
    r: EverydayRecord, f: dict[str, Any], history: tuple[dict[str, int], list[Any]]
) -> bool:
    if f["column"] == "time":
        if r.time is not None:
            return _day_passes(r.time.date(), f)
        # undated: kept when the dated rounds around it are both in the range
        position, days = history
        i = position[r.round_id]
        before = next(x for x in reversed(days[:i]) if x is not None)
        after = next(x for x in days[i + 1 :] if x is not None)
        return _day_passes(before, f) and _day_passes(after, f)
    x, value = r.values[f["column"]], f["value"]  # value in the stored unit
    ops = {
        "=": lambda a, b: a == b,
        ">": lambda a, b: a > b,
        ">=": lambda a, b: a >= b,
        "<": lambda a, b: a < b,
        "<=": lambda a, b: a <= b,
    }
    return bool(ops[f["op"]](x, value))


def _filter_value_in_stored_unit(f: dict[str, Any]) -> Any:
    stored = STORED.get(f["column"])
    if "unit" not in f or stored is None or f["unit"] == stored:
        return f["value"]
    return f["value"] * TO_BASE[f["unit"]] / TO_BASE[stored]


def _recompute(c: dict[str, Any], d: EverydayData) -> Any:
    history = _history_days(d)
    rows = []
    for r in d.records[c["kind"]]:
        ok = True
        for f in c["filters"]:
            g = dict(f)
            if f["column"] != "time":
                g["value"] = _filter_value_in_stored_unit(f)
                g.pop("unit", None)
            ok = ok and _passes(r, g, history)
        if ok:
            rows.append(r)
    if c["operator"] == "count":
        return len(rows)
    target = c["target"]

    def v(r: EverydayRecord) -> Any:
        stored = STORED.get(target)
        x = r.values[target]
        if stored is None or c["unit"] in (None, stored) or c["unit"] == d.currency:
            return x
        return x * TO_BASE[stored] / TO_BASE[c["unit"]]

    op = c["operator"]
    if op == "avg":
        return statistics.fmean(v(r) for r in rows)
    if op == "sum":
        return sum(v(r) for r in rows)
    if op == "median":
        return statistics.median(v(r) for r in rows)
    if op in ("min", "max"):
        return (min if op == "min" else max)(v(r) for r in rows)
    if op in ("first", "latest", "change"):
        # the history is in time order: undated rows in their place, by position
        ordered = sorted(rows, key=lambda r: (history[0][r.round_id], r.seq))
        first, last = v(ordered[0]), v(ordered[-1])
        return {"first": first, "latest": last, "change": last - first}[op]
    if op in ("argmax_text", "argmin_text"):
        pick = max if op == "argmax_text" else min
        best = pick(rows, key=v)
        assert sum(1 for r in rows if v(r) == v(best)) == 1 or all(
            r.values[c["answer_column"]] == best.values[c["answer_column"]]
            for r in rows
            if v(r) == v(best)
        )
        return best.values[c["answer_column"]]
    raise AssertionError(op)


def test_checks_recomputed_from_records(several: list[EverydayData]) -> None:
    for d in several:
        for c in d.checks:
            got = _recompute(c, d)
            if isinstance(c["value"], (str, bool)) or c["operator"] == "count":
                assert got == c["value"], c
            else:
                assert got == pytest.approx(c["value"], rel=c["rel_tol"], abs=1e-9), c


def test_meditation_duration_excludes_runs(data: EverydayData) -> None:
    [check] = [
        c
        for c in data.checks
        if c["kind"] == "meditation" and c["operator"] == "avg" and not c["filters"]
    ]
    med = [r.values["duration"] for r in data.records["meditation"]]
    runs = [r.values["duration"] for r in data.records["run"]]
    assert check["value"] == pytest.approx(sum(med) / len(med))
    assert check["value"] != pytest.approx(
        (sum(med) + sum(runs)) / (len(med) + len(runs))
    )


def test_latest_weight_keeps_undated_rows_in_their_place(
    several: list[EverydayData],
) -> None:
    for d in several:
        weights = d.records["weight"]
        undated = [r for r in weights if r.time is None]
        assert undated  # every undated session logs a weight
        for r in undated:
            assert r.neighbours is not None
            before, after = r.neighbours
            assert before is not None and after is not None and before < after
        # the history is in time order: the rule's order is history order
        last = max(weights, key=lambda r: r.seq)
        first = min(weights, key=lambda r: r.seq)
        by_op = {
            c["operator"]: c
            for c in d.checks
            if c["kind"] == "weight"
            and c["target"] == "weight"
            and c["unit"] == "kg"
            and not c["filters"]
        }
        assert by_op["latest"]["value"] == pytest.approx(last.values["weight"])
        assert by_op["first"]["value"] == pytest.approx(first.values["weight"])
        assert by_op["change"]["value"] == pytest.approx(
            last.values["weight"] - first.values["weight"]
        )
        count = next(
            c
            for c in d.checks
            if c["kind"] == "weight" and c["operator"] == "count" and not c["filters"]
        )
        assert count["value"] == len(weights)


def test_time_filters_keep_undated_rows_between_neighbours_in_range(
    several: list[EverydayData],
) -> None:
    for d in several:
        for r in (r for rs in d.records.values() for r in rs if r.time is None):
            assert r.neighbours is not None
            low, high = (t.date() for t in r.neighbours if t is not None)
            inside = {"op": "between", "value": [str(low), str(high)]}
            across = {"op": "between", "value": [str(high), str(high)]}
            for flt, kept in ((inside, True), (across, False)):
                assert passes(r, {"column": "time", **flt}, d.currency) is kept


def test_sleep_average_spans_units(data: EverydayData) -> None:
    check = next(
        c
        for c in data.checks
        if c["target"] == "total_sleep" and c["operator"] == "avg" and not c["filters"]
    )
    assert check["unit"] == "h"
    written = {r.written["total_sleep"] for r in data.records["sleep"]}
    assert {"h", "min"} <= written or {"h", "hm"} <= written


def test_time_filters_are_inclusive_whole_days(data: EverydayData) -> None:
    windows = [
        f["value"]
        for c in data.checks
        for f in c["filters"]
        if f["column"] == "time" and f["op"] == "between"
    ]
    assert windows
    for lo, hi in windows:
        assert date.fromisoformat(lo) <= date.fromisoformat(hi)


@pytest.mark.parametrize(
    "argv",
    [
        ["tools/datasets/everyday_history.py", "--days", "12", "--seed", "5"],
        ["tools/datasets/synthetic_history.py", "--style", "everyday", "--days", "12"],
    ],
)
def test_command_line(argv: list[str], tmp_path: Path) -> None:
    out = tmp_path / "out"
    subprocess.run(
        [sys.executable, *argv, "--out", str(out)], cwd=ROOT, check=True, timeout=60
    )
    assert (out / "history.json").exists()
    assert (out / "checks.jsonl").read_text(encoding="utf-8").strip()
