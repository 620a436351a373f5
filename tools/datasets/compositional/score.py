#!/usr/bin/env python3
"""Score `adamm ask --questions FILE --json` answers against the compositional set.

Usage:
  python tools/datasets/compositional/score.py ANSWERS.jsonl [ANSWERS.jsonl ...]
         [--questions QUESTIONS.jsonl [QUESTIONS.jsonl ...]] [--json]

Default questions: tools/datasets/compositional/questions.jsonl (all histories).  Answers are
matched to questions by `question_id` (ids are unique across histories).

A question is EXACT when the answer's `value` matches `gold.value`:
- numbers: within relative tolerance 1e-6 (absolute 1e-9), after converting the
  answer's unit to the gold unit when both are known units of one dimension; two known
  units of different dimensions (EUR vs GBP, km vs min) never match; when either unit
  is missing or unknown the numbers are compared as given;
- yes/no: true/false or "yes"/"no" (case-insensitive);
- dates: case-insensitive equality, and a timestamp (or range) starting on the gold day
  counts; for which-month questions "YYYY-MM" counts, for which-week the ISO week
  "YYYY-Www" of the gold Monday counts;
- text (group names): case-insensitive equality, whitespace trimmed.
A miss is CAVEATED when `value` is null or `unresolved` is a non-empty list, otherwise it
is WRONG-UNCAVEATED.  A question with no answer line is MISSING (reported apart).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent

# unit -> (dimension, factor to the dimension's base unit); currencies: one dimension per code
UNITS = {
    "mg": ("mass", 1e-3),
    "g": ("mass", 1.0),
    "kg": ("mass", 1e3),
    "lb": ("mass", 453.59237),
    "ml": ("volume", 1e-3),
    "l": ("volume", 1.0),
    "s": ("time", 1.0),
    "min": ("time", 60.0),
    "h": ("time", 3600.0),
    "m": ("length", 1.0),
    "km": ("length", 1000.0),
    "mi": ("length", 1609.344),
    "mmhg": ("pressure", 1.0),
    "bpm": ("rate", 1.0),
    "steps": ("steps", 1.0),
    "%": ("ratio", 0.01),
    "eur": ("currency:EUR", 1.0),
    "gbp": ("currency:GBP", 1.0),
    "usd": ("currency:USD", 1.0),
}
ALIASES = {
    "sec": "s",
    "secs": "s",
    "second": "s",
    "seconds": "s",
    "mins": "min",
    "minute": "min",
    "minutes": "min",
    "hr": "h",
    "hrs": "h",
    "hour": "h",
    "hours": "h",
    "kilometre": "km",
    "kilometres": "km",
    "kilometer": "km",
    "kilometers": "km",
    "kilogram": "kg",
    "kilograms": "kg",
    "kgs": "kg",
    "lbs": "lb",
    "step": "steps",
    "percent": "%",
    "pct": "%",
    "€": "eur",
    "£": "gbp",
    "$": "usd",
    "mm hg": "mmhg",
}


def unit_key(u):
    if u is None:
        return None
    k = str(u).strip().lower()
    if not k:
        return None
    k = ALIASES.get(k, k)
    return k if k in UNITS else None


def is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def match(answer: dict, q: dict) -> tuple[bool, str]:
    gold = q["gold"]
    got, want = answer.get("value"), gold["value"]
    if got is None:
        return False, "no value"
    if want in ("yes", "no"):
        if isinstance(got, bool):
            got = "yes" if got else "no"
        g = str(got).strip().lower()
        g = {"true": "yes", "false": "no"}.get(g, g)
        return g == want, ""
    if is_number(want):
        if isinstance(got, str):
            try:
                got = float(got.strip())
            except ValueError:
                return False, "non-numeric value"
        if not is_number(got):
            return False, "non-numeric value"
        got, note = float(got), ""
        f, t = unit_key(answer.get("unit")), unit_key(gold.get("unit"))
        if f and t and f != t:
            if UNITS[f][0] != UNITS[t][0]:
                return (
                    False,
                    f"unit {answer.get('unit')!r} vs gold {gold.get('unit')!r}",
                )
            got, note = (
                got * UNITS[f][1] / UNITS[t][1],
                f"converted {answer.get('unit')}->{gold.get('unit')}",
            )
        return math.isclose(got, float(want), rel_tol=1e-6, abs_tol=1e-9), note
    g, w = str(got).strip().lower(), str(want).strip().lower()
    if g == w:
        return True, ""
    if len(w) == 10 and w[4] == "-" and w[7] == "-":
        if g[:10] == w and g[10:11] in ("t", " "):
            return True, "timestamp on the gold day"
        if gold.get("period") == "month" and g == w[:7]:
            return True, "month as YYYY-MM"
        if gold.get("period") == "week":
            y, wk, _ = date.fromisoformat(w).isocalendar()
            if g in (f"{y}-w{wk:02d}", f"{y}w{wk:02d}"):
                return True, "ISO week"
    return False, ""


def read_jsonl(path):
    return [
        json.loads(line)
        for line in Path(path).read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "answers", nargs="+", help="answers files (adamm ask --json output)"
    )
    ap.add_argument("--questions", nargs="+", default=[str(HERE / "questions.jsonl")])
    ap.add_argument(
        "--json", action="store_true", help="print the summary as one JSON object"
    )
    args = ap.parse_args(argv)

    questions = [q for p in args.questions for q in read_jsonl(p)]
    answers = {}
    for p in args.answers:
        for a in read_jsonl(p):
            answers[a.get("question_id")] = a
    per_family, per_history = defaultdict(lambda: [0, 0]), defaultdict(lambda: [0, 0])
    exact, caveated, wrong, missing = [], [], [], []
    for q in questions:
        a = answers.get(q["question_id"])
        per_family[q["family"]][1] += 1
        per_history[q["history"]][1] += 1
        if a is None:
            missing.append(q)
            continue
        ok, note = match(a, q)
        unresolved = a.get("unresolved") or []
        if ok:
            exact.append(q)
            per_family[q["family"]][0] += 1
            per_history[q["history"]][0] += 1
        elif a.get("value") is None or (isinstance(unresolved, list) and unresolved):
            caveated.append((q, a, note))
        else:
            wrong.append((q, a, note))

    def row(q, a, note):
        return {
            "question_id": q["question_id"],
            "history": q["history"],
            "family": q["family"],
            "question": q["question"],
            "question_time": q["question_time"],
            "gold": q["gold"]["value"],
            "gold_unit": q["gold"].get("unit"),
            "value": a.get("value"),
            "unit": a.get("unit"),
            "answer": a.get("answer"),
            "unresolved": a.get("unresolved"),
            "note": note,
        }

    n = len(questions)
    summary = {
        "exact": len(exact),
        "n": n,
        "uncaveated_wrong": len(wrong),
        "caveated": len(caveated),
        "missing": len(missing),
        "per_family": {
            k: {"exact": v[0], "n": v[1]} for k, v in sorted(per_family.items())
        },
        "per_history": {
            k: {"exact": v[0], "n": v[1]} for k, v in sorted(per_history.items())
        },
        "caveated_misses": [row(*x) for x in caveated],
        "wrong_uncaveated": [row(*x) for x in wrong],
        "missing_ids": [q["question_id"] for q in missing],
    }
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
        return 0
    print(f"exact: {len(exact)}/{n} = {len(exact) / n:.1%}" if n else "no questions")
    for title, table in (("per family", per_family), ("per history", per_history)):
        print(f"\n{title}:")
        for k in sorted(table):
            r, m = table[k]
            print(f"  {k:<10} {r}/{m}")
    if missing:
        print(f"\nmissing answers ({len(missing)}): {' '.join(summary['missing_ids'])}")
    print(f"\ncaveated misses ({len(caveated)}):")
    for q, a, note in caveated:
        print(f"- {q['question_id']} [{q['family']}] {q['question']}")
        print(
            f"    gold: {q['gold']['value']!r} {q['gold'].get('unit') or ''}   system: "
            f"{a.get('value')!r} {a.get('unit') or ''}  unresolved: {a.get('unresolved')}"
        )
    print(f"\nwrong, uncaveated ({len(wrong)}):")
    for q, a, note in wrong:
        print(
            f"- {q['question_id']} [{q['family']}/{q['history']}] {q['question']}"
            f"  (question_time {q['question_time']})"
        )
        print(f"    gold:       {q['gold']['value']!r} {q['gold'].get('unit') or ''}")
        print(f"    system:     {a.get('value')!r} {a.get('unit') or ''}  {note}")
        print(f"    answer:     {a.get('answer')}")
        print(f"    unresolved: {a.get('unresolved')}")
    print(f"\nexact={len(exact)}/{n} uncaveated_wrong={len(wrong)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
