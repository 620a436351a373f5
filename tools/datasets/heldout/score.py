"""Score `adamm ask --json` answers against the held-out questions.

Usage:
  python tools/datasets/heldout/score.py [ANSWERS] [QUESTIONS]
  (defaults: /tmp/heldout_answers.jsonl, tools/datasets/heldout/questions.jsonl)

A question is right when the output's `value` equals `gold.value`:
numbers within relative tolerance 1e-6 (absolute 1e-9 near zero), after converting
the output's unit to the gold unit when both are known units of one dimension;
dates and text by case-insensitive equality (whitespace trimmed).
"""

from __future__ import annotations

import json
import math
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent

# unit -> (dimension, factor to the dimension's base unit)
UNITS = {
    "mg": ("mass", 1e-3),
    "g": ("mass", 1.0),
    "kg": ("mass", 1e3),
    "lb": ("mass", 453.59237),
    "ml": ("volume", 1e-3),
    "l": ("volume", 1.0),
    "L": ("volume", 1.0),
    "s": ("time", 1.0),
    "sec": ("time", 1.0),
    "min": ("time", 60.0),
    "h": ("time", 3600.0),
    "mmhg": ("pressure", 1.0),
    "bpm": ("rate", 1.0),
    "%": ("ratio", 1.0),
}


def unit_key(u):
    if u is None:
        return None
    u = str(u).strip()
    return u if u in UNITS else (u.lower() if u.lower() in UNITS else u)


def convert(value, from_unit, to_unit):
    """Return (value in to_unit, note) - unchanged when units match or are not comparable."""
    f, t = unit_key(from_unit), unit_key(to_unit)
    if f == t or f is None or t is None:
        return value, "" if f == t else f"unit {from_unit!r} vs gold {to_unit!r}"
    if f in UNITS and t in UNITS and UNITS[f][0] == UNITS[t][0]:
        return value * UNITS[f][1] / UNITS[t][1], f"converted {from_unit}->{to_unit}"
    return value, f"unit {from_unit!r} vs gold {to_unit!r} (not convertible)"


def is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def correct(answer: dict, gold: dict) -> tuple[bool, str]:
    got, want = answer.get("value"), gold["value"]
    if got is None:
        return False, "no value"
    if is_number(want):
        if isinstance(got, str):
            try:
                got = float(got)
            except ValueError:
                return False, "non-numeric value"
        if not is_number(got):
            return False, "non-numeric value"
        got, note = convert(float(got), answer.get("unit"), gold.get("unit"))
        ok = math.isclose(got, float(want), rel_tol=1e-6, abs_tol=1e-9)
        return ok, note
    g, w = str(got).strip().lower(), str(want).strip().lower()
    if g == w:
        return True, ""
    # a which-day answer given as a timestamp on that day ("2026-05-07T06:40:00") counts
    if len(w) == 10 and w[4] == "-" and g[:10] == w and g[10:11] in ("t", " "):
        return True, "timestamp on the gold day"
    return False, ""


def main() -> int:
    answers_path = (
        Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/tmp/heldout_answers.jsonl")
    )
    questions_path = (
        Path(sys.argv[2]) if len(sys.argv) > 2 else HERE / "questions.jsonl"
    )
    questions = [
        json.loads(line)
        for line in questions_path.read_text().splitlines()
        if line.strip()
    ]
    answers = {}
    for line in answers_path.read_text().splitlines():
        if line.strip():
            a = json.loads(line)
            answers[a.get("question_id")] = a
    per_type = defaultdict(lambda: [0, 0])
    wrong = []
    right = 0
    for q in questions:
        a = answers.get(q["question_id"], {})
        ok, note = correct(a, q["gold"]) if a else (False, "no answer")
        per_type[q["type"]][1] += 1
        if ok:
            per_type[q["type"]][0] += 1
            right += 1
        else:
            steps = a.get("steps") or []
            wrong.append((q, a, steps[0].get("arguments") if steps else None, note))
    print(f"accuracy: {right}/{len(questions)} = {right / len(questions):.1%}")
    print("\nper type:")
    for t in sorted(per_type):
        r, n = per_type[t]
        print(f"  {t:<24} {r}/{n}")
    print(f"\nwrong ({len(wrong)}):")
    for q, a, args, note in wrong:
        print(
            f"- {q['question_id']} [{q['type']}] {q['question']}  (question_time {q['question_time']})"
        )
        print(f"    gold:   {q['gold']['value']!r} {q['gold']['unit'] or ''}")
        print(f"    system: {a.get('value')!r} {a.get('unit') or ''}  {note}")
        print(f"    steps[0].arguments: {json.dumps(args)}")
        if a.get("steps") and a["steps"][0].get("error"):
            print(f"    error: {a['steps'][0]['error']}")
        if a.get("notes"):
            print(f"    notes: {a['notes']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
