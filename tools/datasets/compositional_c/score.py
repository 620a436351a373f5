#!/usr/bin/env python3
"""Score `adamm ask --questions FILE --json` output against the compositional_c questions.

Usage:
  python3 tools/datasets/compositional_c/score.py ANSWERS.jsonl [ANSWERS.jsonl ...]
          [--questions tools/datasets/compositional_c/questions.jsonl] [--json] [--tol 1e-6] [--quiet]

Each answers file holds JSON lines with at least `question_id` (or the question
text), `value`, `unit` and `unresolved`. Every question lands in one bucket:

  exact             the value matches the gold value and nothing is unresolved
  caveated-miss     the answer withholds its value (`value` is null) or lists
                    something in `unresolved`, and is not exact
  uncaveated-wrong  a value was given with an empty `unresolved`, and it is wrong
  missing           no answer line for the question

Matching rules:
  numbers     relative tolerance --tol (absolute 1e-9 near zero), after converting
              the answer's unit to the gold unit when both are known units of one
              dimension; known units of different dimensions are wrong; a missing
              or unknown unit on either side compares the bare numbers. A percent
              gold also accepts the same change given as a unitless ratio.
  yes/no      `value` yes/no (or true/false); the two side values are not required.
  group name  case-insensitive, whitespace collapsed, surrounding quotes and a
              leading "the " ignored.
  week        the Monday (YYYY-MM-DD, a timestamp on it, or a range starting on
              it) or the ISO week label (YYYY-Www).
  month       YYYY-MM, any date in that month, or the month's name.
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
BUCKETS = ("exact", "caveated-miss", "uncaveated-wrong", "missing")

# unit -> (dimension, factor to the dimension's base unit)
UNITS = {
    "m": ("length", 1.0), "km": ("length", 1000.0), "cm": ("length", 0.01),
    "ml": ("volume", 1e-3), "l": ("volume", 1.0),
    "s": ("time", 1.0), "min": ("time", 60.0), "h": ("time", 3600.0),
    "g": ("mass", 1.0), "kg": ("mass", 1000.0), "mg": ("mass", 1e-3),
    "eur": ("money", 1.0),
    "loaves": ("loaves", 1.0),
    "%": ("percent", 1.0),
}
ALIASES = {
    "€": "eur", "euro": "eur", "euros": "eur",
    "minute": "min", "minutes": "min", "mins": "min",
    "hour": "h", "hours": "h", "hr": "h", "hrs": "h",
    "second": "s", "seconds": "s", "sec": "s", "secs": "s",
    "kilometre": "km", "kilometres": "km", "kilometer": "km", "kilometers": "km",
    "metre": "m", "metres": "m", "meter": "m", "meters": "m",
    "centimetre": "cm", "centimetres": "cm", "centimeter": "cm", "centimeters": "cm",
    "millilitre": "ml", "millilitres": "ml", "milliliter": "ml", "milliliters": "ml", "mL": "ml",
    "litre": "l", "litres": "l", "liter": "l", "liters": "l",
    "kilogram": "kg", "kilograms": "kg", "kgs": "kg", "gram": "g", "grams": "g",
    "loaf": "loaves", "percent": "%", "pct": "%",
}
MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december"]


def unit_key(u):
    if u is None:
        return None
    s = str(u).strip()
    if not s:
        return None
    low = s.lower()
    low = ALIASES.get(s, ALIASES.get(low, low))
    return low


def is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def as_number(x):
    if is_number(x):
        return float(x)
    if isinstance(x, str):
        m = re.fullmatch(r"\s*([-+]?\d+(?:\.\d+)?)\s*(%|[A-Za-z€]+)?\s*", x.replace(",", ""))
        if m:
            return float(m.group(1))
    return None


def numbers_match(got, got_unit, want, want_unit, tol):
    g = as_number(got)
    if g is None:
        return False, "non-numeric value"
    fu, tu = unit_key(got_unit), unit_key(want_unit)
    if isinstance(got, str) and fu is None:  # "12.5 km" given as a string
        m = re.search(r"(%|[A-Za-z€]+)\s*$", got.strip())
        fu = unit_key(m.group(1)) if m else None
    note = ""
    if fu and tu and fu != tu:
        if fu in UNITS and tu in UNITS:
            if UNITS[fu][0] != UNITS[tu][0]:
                return False, f"unit {got_unit!r} vs gold {want_unit!r}"
            g = g * UNITS[fu][1] / UNITS[tu][1]
            note = f"converted {got_unit}->{want_unit}"
        else:
            note = f"unit {got_unit!r} vs gold {want_unit!r} (not convertible, compared bare)"
    elif tu and not fu:
        note = "answer has no unit"
    close = math.isclose(g, float(want), rel_tol=tol, abs_tol=1e-9)
    if not close and tu == "%" and fu in (None, "ratio"):
        if math.isclose(g * 100, float(want), rel_tol=tol, abs_tol=1e-9):
            return True, "ratio read as percent"
    return close, note


def norm_text(x):
    s = re.sub(r"\s+", " ", str(x)).strip().strip("\"'`").strip().lower()
    if s.startswith("the "):
        s = s[4:]
    return s


def first_date(s):
    m = re.search(r"(\d{4})-(\d{2})-(\d{2})", s)
    if not m:
        return None
    try:
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None


def week_match(got, want):
    monday = date.fromisoformat(want)
    s = str(got).strip()
    m = re.fullmatch(r"(\d{4})-?W(\d{1,2})", s, flags=re.I)
    if m:
        y, w = monday.isocalendar()[:2]
        return (int(m.group(1)), int(m.group(2))) == (y, w), "ISO week label"
    d = first_date(s)
    if d is None:
        return False, "no date in value"
    if d == monday:
        return True, ""
    if monday <= d <= monday + timedelta(days=6):
        return False, f"a day inside the gold week ({d}), not its Monday"
    return False, ""


def month_match(got, want):
    first = date.fromisoformat(want)
    s = str(got).strip().lower()
    m = re.fullmatch(r"(\d{4})-(\d{2})", s)
    if m:
        return (int(m.group(1)), int(m.group(2))) == (first.year, first.month), ""
    d = first_date(s)
    if d is not None:
        return (d.year, d.month) == (first.year, first.month), ""
    for i, name in enumerate(MONTHS, start=1):
        if re.search(rf"\b{name}\b", s) or re.fullmatch(rf"{name[:3]}\.?( \d{{4}})?", s):
            y = re.search(r"\d{4}", s)
            return i == first.month and (not y or int(y.group()) == first.year), "month name"
    return False, ""


def correct(answer, gold, tol):
    got, want = answer.get("value"), gold["value"]
    if got is None:
        return False, "no value"
    if want in ("yes", "no"):
        if isinstance(got, bool):
            g = "yes" if got else "no"
        else:
            g = norm_text(got)
            g = {"true": "yes", "false": "no"}.get(g, g)
        return g == want, ""
    period = gold.get("period")
    if period == "week":
        return week_match(got, want)
    if period == "month":
        return month_match(got, want)
    if is_number(want):
        return numbers_match(got, answer.get("unit"), want, gold.get("unit"), tol)
    return norm_text(got) == norm_text(want), ""


def caveated(answer):
    return answer.get("value") is None or bool(answer.get("unresolved"))


def load_jsonl(path):
    out = []
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError as e:
                print(f"{path}:{n}: not JSON ({e})", file=sys.stderr)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("answers", nargs="+", help="answers files from `adamm ask --json`")
    ap.add_argument("--questions", default=str(HERE / "questions.jsonl"))
    ap.add_argument("--json", action="store_true", help="print a summary object instead of the report")
    ap.add_argument("--tol", type=float, default=1e-6, help="relative tolerance for numbers")
    ap.add_argument("--quiet", action="store_true", help="totals only, no per-question list")
    args = ap.parse_args(argv)

    questions = load_jsonl(args.questions)
    by_id, by_text = {}, {}
    for path in args.answers:
        for a in load_jsonl(path):
            if a.get("question_id") is not None:
                by_id[str(a["question_id"])] = a
            if a.get("question"):
                by_text.setdefault((a["question"].strip(), a.get("question_time")), a)
                by_text.setdefault((a["question"].strip(), None), a)

    counts = {"overall": dict.fromkeys(BUCKETS, 0)}
    per_family = defaultdict(lambda: dict.fromkeys(BUCKETS, 0))
    per_history = defaultdict(lambda: dict.fromkeys(BUCKETS, 0))
    items = []
    for q in questions:
        a = by_id.get(str(q["question_id"])) or by_text.get((q["question"].strip(), q.get("question_time"))) \
            or by_text.get((q["question"].strip(), None))
        if a is None:
            bucket, note = "missing", "no answer"
        else:
            ok, note = correct(a, q["gold"], args.tol)
            if ok and not a.get("unresolved"):
                bucket = "exact"
            elif caveated(a):
                bucket = "caveated-miss"
                if ok:
                    note = (note + "; " if note else "") + "right value but unresolved parts listed"
            else:
                bucket = "uncaveated-wrong"
        counts["overall"][bucket] += 1
        per_family[q.get("family", q["type"])][bucket] += 1
        per_history[q.get("history", "?")][bucket] += 1
        items.append({
            "question_id": q["question_id"], "history": q.get("history"), "family": q.get("family"),
            "outcome": bucket, "note": note, "question": q["question"],
            "question_time": q.get("question_time"),
            "gold": q["gold"].get("value"), "gold_unit": q["gold"].get("unit"),
            "got": None if a is None else a.get("value"), "got_unit": None if a is None else a.get("unit"),
            "unresolved": None if a is None else a.get("unresolved"),
        })

    n = len(questions)
    summary = {
        "questions": n,
        **counts["overall"],
        "exact_rate": counts["overall"]["exact"] / n if n else 0.0,
        "per_family": {k: per_family[k] for k in sorted(per_family)},
        "per_history": {k: per_history[k] for k in sorted(per_history)},
        "items": items,
    }
    if args.json:
        print(json.dumps(summary, indent=1))
        return 0

    def line(name, c):
        tot = sum(c.values())
        return (f"  {name:<12} {c['exact']:>3}/{tot:<3} exact   {c['caveated-miss']:>3} caveated-miss   "
                f"{c['uncaveated-wrong']:>3} uncaveated-wrong" + (f"   {c['missing']} missing" if c["missing"] else ""))

    o = counts["overall"]
    print(f"exact: {o['exact']}/{n} = {summary['exact_rate']:.1%}   caveated-miss: {o['caveated-miss']}   "
          f"uncaveated-wrong: {o['uncaveated-wrong']}" + (f"   missing: {o['missing']}" if o["missing"] else ""))
    print("\nper family:")
    for k in sorted(per_family):
        print(line(k, per_family[k]))
    print("\nper history:")
    for k in sorted(per_history):
        print(line(k, per_history[k]))
    if not args.quiet:
        bad = [i for i in items if i["outcome"] != "exact"]
        print(f"\nnot exact ({len(bad)}):")
        for i in bad:
            print(f"- {i['question_id']} [{i['family']}, {i['outcome']}] {i['question']}  "
                  f"(question_time {i['question_time']})")
            print(f"    gold:   {i['gold']!r} {i['gold_unit'] or ''}")
            print(f"    system: {i['got']!r} {i['got_unit'] or ''}  {i['note']}")
            if i["unresolved"]:
                print(f"    unresolved: {i['unresolved']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
