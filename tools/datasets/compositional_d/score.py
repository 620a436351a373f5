#!/usr/bin/env python3
"""Score `adamm ask --questions FILE --json` answers against compositional set D.

Usage:
  python3 tools/datasets/compositional_d/score.py ANSWERS.jsonl [ANSWERS.jsonl ...]
      [--questions tools/datasets/compositional_d/questions.jsonl] [--json]
      [--rel-tol 1e-6]

Each answers file holds one JSON object a line, as `adamm ask --json` writes them
(`question_id`, `value`, `unit`, `unresolved`, ...). Standard library only.

Every question ends in one of three outcomes:
- exact: the answer gives a value, lists nothing as unresolved, and the value is right;
- caveated-miss: the answer withholds its value (`value` is null) or carries a
  non-empty `unresolved` list - it said it could not answer exactly;
- uncaveated-wrong: the answer gives a value, claims nothing unresolved, and is wrong.
A question with no answer line at all is counted as "missing" (listed apart).

Right means, by the gold's shape:
- number: within relative tolerance (default 1e-6; absolute 1e-9 near zero) after
  converting the answer's unit to the gold unit when both are known units of one
  dimension (length, time, mass, volume). Known units of different dimensions are
  wrong; an unknown unit, or none, is compared as given (noted). A gold with
  `either_sign` (a "difference between A and B" question) accepts -value too.
  Percent-change golds are in percent: a bare fraction (0.12 for 12%) is wrong.
- yes/no: the answer's value read as yes/no (true/false, "yes"/"no", "Yes." ...).
- which group: the name, compared case-insensitively with whitespace, quotes,
  end punctuation and a leading "the" ignored.
- which week / month (`period`): the first day YYYY-MM-DD; for a week any date
  inside that Monday-Sunday week (a timestamp too, or an ISO week "2026-W11")
  counts, for a month any date in it, "YYYY-MM", or the month's name (with the
  right year if a year is given).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections import defaultdict
from datetime import date, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent

# unit -> (dimension, factor to the dimension's base unit)
UNITS = {
    "m": ("length", 1.0),
    "metre": ("length", 1.0),
    "metres": ("length", 1.0),
    "meter": ("length", 1.0),
    "meters": ("length", 1.0),
    "km": ("length", 1000.0),
    "kilometre": ("length", 1000.0),
    "kilometres": ("length", 1000.0),
    "kilometer": ("length", 1000.0),
    "kilometers": ("length", 1000.0),
    "mi": ("length", 1609.344),
    "s": ("time", 1.0),
    "sec": ("time", 1.0),
    "second": ("time", 1.0),
    "seconds": ("time", 1.0),
    "min": ("time", 60.0),
    "mins": ("time", 60.0),
    "minute": ("time", 60.0),
    "minutes": ("time", 60.0),
    "h": ("time", 3600.0),
    "hr": ("time", 3600.0),
    "hrs": ("time", 3600.0),
    "hour": ("time", 3600.0),
    "hours": ("time", 3600.0),
    "day": ("time", 86400.0),
    "days": ("time", 86400.0),
    "d": ("time", 86400.0),
    "mg": ("mass", 1e-3),
    "g": ("mass", 1.0),
    "kg": ("mass", 1e3),
    "ml": ("volume", 1e-3),
    "l": ("volume", 1.0),
    "litre": ("volume", 1.0),
    "litres": ("volume", 1.0),
    "liter": ("volume", 1.0),
    "liters": ("volume", 1.0),
    "eur": ("eur", 1.0),
    "€": ("eur", 1.0),
    "euro": ("eur", 1.0),
    "euros": ("eur", 1.0),
    "bpm": ("rate", 1.0),
    "w": ("power", 1.0),
    "watt": ("power", 1.0),
    "watts": ("power", 1.0),
    "kw": ("power", 1000.0),
    "word": ("words", 1.0),
    "words": ("words", 1.0),
    "%": ("percent", 1.0),
    "percent": ("percent", 1.0),
    "pct": ("percent", 1.0),
}

MONTHS = {
    m: i + 1
    for i, m in enumerate(
        [
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ]
    )
}
ISO_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
ISO_WEEK = re.compile(r"(\d{4})-?W(\d{1,2})", re.I)
ISO_MONTH = re.compile(r"^(\d{4})-(\d{2})$")


def unit_key(u):
    if u is None:
        return None
    k = str(u).strip()
    if not k:
        return None
    return k.lower() if k.lower() in UNITS else k


def is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def as_number(x):
    if is_number(x):
        return float(x)
    if isinstance(x, str):
        t = x.strip().replace("\u202f", "").replace(" ", "")
        m = re.fullmatch(r"[-+]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?", t)
        if m:
            return float(t.replace(",", ""))
        try:
            return float(t)
        except ValueError:
            return None
    return None


def convert(value, from_unit, to_unit):
    """(value in to_unit or None when not comparable, note)."""
    f, t = unit_key(from_unit), unit_key(to_unit)
    if f == t:
        return value, ""
    if f is None or t is None:
        return value, f"unit {from_unit!r} vs gold {to_unit!r} (compared as given)"
    if f in UNITS and t in UNITS:
        if UNITS[f][0] == UNITS[t][0]:
            return value * UNITS[f][1] / UNITS[t][
                1
            ], f"converted {from_unit}->{to_unit}"
        return (
            None,
            f"unit {from_unit!r} is not a {UNITS[t][0]} unit like gold {to_unit!r}",
        )
    return value, f"unit {from_unit!r} vs gold {to_unit!r} (compared as given)"


def norm_name(x):
    s = str(x).strip().strip("\"'`").strip()
    s = re.sub(r"[.!?,;:]+$", "", s)
    s = re.sub(r"\s+", " ", s).lower()
    return s[4:] if s.startswith("the ") else s


def yes_no(x):
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, str):
        s = re.sub(r"[^a-z]", "", x.strip().lower())
        if s in ("yes", "y", "true"):
            return "yes"
        if s in ("no", "n", "false"):
            return "no"
    return None


def check_period(got, gold):
    first = date.fromisoformat(gold["value"])
    if gold["period"] == "week":
        last = first + timedelta(days=6)
    else:
        nxt = (first.replace(day=28) + timedelta(days=4)).replace(day=1)
        last = nxt - timedelta(days=1)
    s = str(got).strip()
    m = ISO_DATE.search(s)
    if m:
        try:
            day = date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError:
            return False, "not a date"
        if first <= day <= last:
            return (
                True,
                ""
                if day == first
                else f"{day.isoformat()} lies in the gold {gold['period']}",
            )
        return False, ""
    if gold["period"] == "week":
        m = ISO_WEEK.search(s)
        if m:
            y, w = first.isocalendar()[:2]
            return (int(m.group(1)) == y and int(m.group(2)) == w), "ISO week"
        return False, "not a date"
    m = ISO_MONTH.match(s)
    if m:
        return (int(m.group(1)), int(m.group(2))) == (first.year, first.month), ""
    words = re.findall(r"[a-z]+|\d{4}", s.lower())
    months = [MONTHS[w] for w in words if w in MONTHS]
    years = [int(w) for w in words if w.isdigit()]
    if months:
        ok = months[0] == first.month and (not years or years[0] == first.year)
        return ok, "month name"
    return False, "not a month"


def judge(answer: dict, gold: dict, rel_tol: float):
    """(right, note) for an answer that gives a value."""
    got, want = answer.get("value"), gold["value"]
    if "period" in gold:
        return check_period(got, gold)
    if want in ("yes", "no") and "values" in gold:
        yn = yes_no(got)
        if yn is None:
            return False, f"not a yes/no: {got!r}"
        return yn == want, ""
    if isinstance(want, str):
        if isinstance(got, (dict, list)):
            return False, "not a name"
        return norm_name(got) == norm_name(want), ""
    num, unit = as_number(got), answer.get("unit")
    if num is None and isinstance(
        got, str
    ):  # "12.5 km": a number with its unit in the text
        m = re.fullmatch(r"\s*([-+]?\d[\d,]*(?:\.\d+)?)\s*([^\d\s][^\d]*)\s*", got)
        if m:
            num = as_number(m.group(1))
            unit = unit or m.group(2).strip()
    if num is None:
        return False, "non-numeric value"
    conv, note = convert(num, unit, gold.get("unit"))
    if conv is None:
        return False, note
    if math.isclose(conv, float(want), rel_tol=rel_tol, abs_tol=1e-9):
        return True, note
    if gold.get("either_sign") and math.isclose(
        -conv, float(want), rel_tol=rel_tol, abs_tol=1e-9
    ):
        return True, (note + "; " if note else "") + "sign flipped (allowed)"
    return False, note


def load_jsonl(path: Path):
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError as e:
            print(f"warning: {path}:{n}: not JSON ({e})", file=sys.stderr)
    return out


def fmt_gold(g):
    if "period" in g:
        return f"{g['period']} of {g['value']}"
    u = g.get("unit")
    return f"{g['value']!r}{' ' + u if u else ''}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "answers", nargs="+", type=Path, help="answers files from adamm ask --json"
    )
    ap.add_argument("--questions", type=Path, default=HERE / "questions.jsonl")
    ap.add_argument(
        "--json",
        action="store_true",
        help="print a summary object instead of the report",
    )
    ap.add_argument("--rel-tol", type=float, default=1e-6)
    args = ap.parse_args(argv)

    questions = load_jsonl(args.questions)
    by_text = defaultdict(list)
    for q in questions:
        by_text[q["question"].strip()].append(q["question_id"])
    answers = {}
    for path in args.answers:
        for a in load_jsonl(path):
            qid = a.get("question_id")
            if qid is None:  # fall back to the question text when it names one question
                ids = by_text.get(str(a.get("question", "")).strip(), [])
                qid = ids[0] if len(ids) == 1 else None
            if qid is not None:
                answers[qid] = a

    outcomes = ("exact", "caveated-miss", "uncaveated-wrong", "missing")
    overall = dict.fromkeys(outcomes, 0)
    per_family = defaultdict(lambda: dict.fromkeys(outcomes, 0))
    per_history = defaultdict(lambda: dict.fromkeys(outcomes, 0))
    rows = []
    for q in questions:
        a = answers.get(q["question_id"])
        note = ""
        if a is None:
            outcome = "missing"
        elif a.get("value") is None or a.get("unresolved"):
            outcome = "caveated-miss"
            if a.get("unresolved"):
                note = f"unresolved: {a.get('unresolved')}"
            else:
                note = "no value"
        else:
            ok, note = judge(a, q["gold"], args.rel_tol)
            outcome = "exact" if ok else "uncaveated-wrong"
        overall[outcome] += 1
        per_family[q["family"]][outcome] += 1
        per_history[q["history"]][outcome] += 1
        rows.append(
            {
                "question_id": q["question_id"],
                "history": q["history"],
                "family": q["family"],
                "question": q["question"],
                "question_time": q["question_time"],
                "outcome": outcome.replace("-", "_"),
                "note": note,
                "gold": q["gold"],
                "value": None if a is None else a.get("value"),
                "unit": None if a is None else a.get("unit"),
                "unresolved": None if a is None else a.get("unresolved"),
                "answer": None if a is None else a.get("answer"),
            }
        )

    total = len(questions)

    def snake(c):
        return dict(
            {k.replace("-", "_"): v for k, v in c.items()}, total=sum(c.values())
        )

    if args.json:
        summary = {
            "total": total,
            **{k.replace("-", "_"): v for k, v in overall.items()},
            "exact_rate": overall["exact"] / total if total else 0.0,
            "per_family": {f: snake(per_family[f]) for f in sorted(per_family)},
            "per_history": {h: snake(per_history[h]) for h in sorted(per_history)},
            "questions": rows,
        }
        print(json.dumps(summary, ensure_ascii=False, indent=1))
        return 0

    def line(name, c):
        n = sum(c.values())
        extra = f"  missing {c['missing']}" if c["missing"] else ""
        return (
            f"  {name:<12} exact {c['exact']:>3}/{n:<3} ({c['exact'] / n:6.1%})   "
            f"caveated-miss {c['caveated-miss']:>3}   "
            f"uncaveated-wrong {c['uncaveated-wrong']:>3}{extra}"
        )

    print(f"compositional set D: {total} questions, {len(answers)} answers read")
    print(line("overall", overall))
    print("\nper family:")
    for f in sorted(per_family):
        print(line(f, per_family[f]))
    print("\nper history:")
    for h in sorted(per_history):
        print(line(h, per_history[h]))
    misses = [r for r in rows if r["outcome"] != "exact"]
    print(f"\nnot exact ({len(misses)}):")
    for r in misses:
        print(
            f"- {r['question_id']} [{r['family']}] {r['outcome']}: {r['question']}"
            f"  (question_time {r['question_time']})"
        )
        print(f"    gold:   {fmt_gold(r['gold'])}")
        if r["outcome"] != "missing":
            print(f"    system: {r['value']!r} {r['unit'] or ''}  {r['note']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
