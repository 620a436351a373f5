#!/usr/bin/env python3
"""Score `adamm ask --questions FILE --db DB --json --user-id USER` output against set B.

Usage:
  python tools/datasets/compositional_b/score.py ANSWERS.jsonl [ANSWERS.jsonl ...] [--questions Q.jsonl ...]

Answers files are JSON lines with "question_id", "answer", "value", "unit" and
(maybe) "unresolved"; several files are merged by question_id. The questions
default to questions.jsonl next to this script (all three histories); every
question in them is scored, so a question without an answer line is a miss.

A question is EXACT when the answer's value matches gold.value:
- numbers: within relative tolerance 1e-6 (absolute 1e-9), after converting the
  answer's unit to the gold unit when both are known units of one dimension
  (mass, volume, time, length, glucose, percent; each currency is its own
  dimension). Known units of different dimensions never match; a missing or
  unknown unit on either side compares the bare numbers;
- yes/no: true/false or "yes"/"no" (case-insensitive);
- dates and text: case-insensitive equality after trimming; for a date gold, a
  value that starts with that day followed by "T" or a space (a timestamp, or
  "2026-02-09 to 2026-02-15") also counts.
A miss is CAVEATED when the value is null or "unresolved" is non-empty, and
WRONG-UNCAVEATED otherwise (a confident wrong answer).
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
FAMILIES = ("anchored", "compare", "group", "dates")

# unit (lower case) -> (dimension, factor to the dimension's base unit)
UNITS = {
    "mg": ("mass", 1e-3), "g": ("mass", 1.0), "kg": ("mass", 1e3), "lb": ("mass", 453.59237),
    "ml": ("volume", 1e-3), "l": ("volume", 1.0), "litre": ("volume", 1.0), "litres": ("volume", 1.0),
    "liter": ("volume", 1.0), "liters": ("volume", 1.0),
    "s": ("time", 1.0), "sec": ("time", 1.0), "min": ("time", 60.0), "mins": ("time", 60.0),
    "minute": ("time", 60.0), "minutes": ("time", 60.0), "h": ("time", 3600.0), "hr": ("time", 3600.0),
    "hrs": ("time", 3600.0), "hour": ("time", 3600.0), "hours": ("time", 3600.0),
    "m": ("length", 1.0), "km": ("length", 1e3), "mi": ("length", 1609.344),
    "mmol/l": ("glucose", 1.0),
    "%": ("percent", 1.0), "percent": ("percent", 1.0),
    "eur": ("EUR", 1.0), "€": ("EUR", 1.0), "euro": ("EUR", 1.0), "euros": ("EUR", 1.0),
    "gbp": ("GBP", 1.0), "£": ("GBP", 1.0), "usd": ("USD", 1.0), "$": ("USD", 1.0),
}


def unit_info(u):
    if u is None or str(u).strip() == "":
        return None
    return UNITS.get(str(u).strip().lower())


def is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def to_yes_no(x):
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, str):
        s = x.strip().lower().rstrip(".!")
        return {"yes": "yes", "true": "yes", "no": "no", "false": "no"}.get(s)
    return None


def judge(answer: dict | None, gold: dict) -> tuple[bool, str]:
    if answer is None:
        return False, "no answer line"
    got, want = answer.get("value"), gold["value"]
    if got is None:
        return False, "value is null"
    if want in ("yes", "no"):
        yn = to_yes_no(got)
        return yn == want, "" if yn is not None else "not a yes/no value"
    if is_number(want):
        if isinstance(got, str):
            try:
                got = float(got.replace(",", ""))
            except ValueError:
                return False, "non-numeric value"
        if not is_number(got):
            return False, "non-numeric value"
        got, note = float(got), ""
        fu, tu = unit_info(answer.get("unit")), unit_info(gold.get("unit"))
        if fu and tu:
            if fu[0] != tu[0]:
                return False, f"unit {answer.get('unit')!r} is not a {gold.get('unit')!r} unit"
            if fu[1] != tu[1]:
                got, note = got * fu[1] / tu[1], f"converted {answer.get('unit')} -> {gold.get('unit')}"
        return math.isclose(got, float(want), rel_tol=1e-6, abs_tol=1e-9), note
    g, w = str(got).strip().lower(), str(want).strip().lower()
    if g == w:
        return True, ""
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", w) and g.startswith(w) and g[10:11] in ("t", " "):
        return True, "starts with the gold day"
    return False, ""


def read_jsonl(path: Path) -> list:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def main(argv: list) -> int:
    answer_paths, question_paths, i = [], [], 0
    while i < len(argv):
        if argv[i] == "--questions":
            question_paths.append(Path(argv[i + 1]))
            i += 2
        else:
            answer_paths.append(Path(argv[i]))
            i += 1
    if not answer_paths:
        print(__doc__)
        return 2
    questions = [q for p in (question_paths or [HERE / "questions.jsonl"]) for q in read_jsonl(p)]
    answers = {}
    for p in answer_paths:
        for a in read_jsonl(p):
            answers[a.get("question_id")] = a

    per = defaultdict(lambda: [0, 0, 0])  # exact, caveated misses, total
    wrong = []
    for q in questions:
        a = answers.get(q["question_id"])
        ok, note = judge(a, q["gold"])
        fam = per[q["family"]]
        fam[2] += 1
        if ok:
            fam[0] += 1
        elif a is None or a.get("value") is None or a.get("unresolved"):
            fam[1] += 1
        else:
            wrong.append((q, a, note))

    n = len(questions)
    k = sum(v[0] for v in per.values())
    cav = sum(v[1] for v in per.values())
    print(f"exact: {k}/{n} = {k / n:.1%}   caveated misses: {cav}   wrong-uncaveated: {len(wrong)}")
    print("\nper family (exact / caveated misses / questions):")
    for f in [*FAMILIES, *sorted(set(per) - set(FAMILIES))]:
        if f in per:
            e, c, t = per[f]
            print(f"  {f:<10} {e}/{t}   caveated {c}")
    print(f"\nwrong, uncaveated ({len(wrong)}):")
    for q, a, note in wrong:
        g = q["gold"]
        print(f"- {q['question_id']} [{q['family']}] {q['question']}  (question_time {q['question_time']})")
        print(f"    gold:   {g['value']!r} {g.get('unit') or ''}" + (f"  values {g['values']}" if "values" in g else ""))
        print(f"    value:  {a.get('value')!r} {a.get('unit') or ''}  {note}".rstrip())
        print(f"    answer: {str(a.get('answer', ''))[:300]}")
    print(f"exact={k}/{n} uncaveated_wrong={len(wrong)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
