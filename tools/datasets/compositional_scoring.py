"""Scoring of `adamm ask --questions FILE --json` answers, shared by compositional sets F to L.

Each set's `score.py` runs `main` with its own name and folder:
  python3 tools/datasets/compositional_<x>/score.py ANSWERS.jsonl [ANSWERS.jsonl ...]
          [--questions tools/datasets/compositional_<x>/questions.jsonl] [--json] [--per-question] [--by-family]

Each answers file holds one JSON object per line with at least `question_id`, `value`, `unit` and
`unresolved` (as `adamm ask --json` prints them). Standard library only.

Outcomes, for a question whose gold has an answer:
  exact      a value, nothing unresolved, and the value matches the gold
  caveated   value null, or a non-empty `unresolved` list (a caveated miss)
  wrong      a value, nothing unresolved, and it does not match (uncaveated wrong)
  missing    no answer line for the question
For an unanswerable gold (`{"unanswerable": true}`):
  exact      value null (the answer states no value)
  caveated   a value, with a non-empty `unresolved` list
  wrong      a value with nothing unresolved

Matching: numbers within relative tolerance 1e-6, or equal after rounding both to 2 decimals,
after converting the answer's unit to the gold unit within length, time, mass, volume and energy;
`either_sign` golds compare absolute values. A percent gold (unit "%") also accepts the same share
written as a fraction with no unit (0.42 for 42 %). Text and group golds compare case-insensitively,
ignoring accents, surrounding whitespace and quotes, end punctuation and a leading "the".
Yes/no golds accept booleans and yes/no/true/false strings. Period golds: a week matches any
date inside its Monday-Sunday week, an ISO week ("2026-W20") or a timestamp on such a date; a month
matches any date in it, "YYYY-MM", or its month name (with or without the year).

Questions of a history with no answer at all in the given files are not scored (and said so).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import re
import sys
import unicodedata
from collections import defaultdict
from pathlib import Path

# unit -> (dimension, factor to the dimension's base unit)
UNITS = {
    # length
    "mm": ("length", 1e-3), "cm": ("length", 1e-2), "m": ("length", 1.0), "km": ("length", 1e3),
    "mi": ("length", 1609.344), "mile": ("length", 1609.344), "miles": ("length", 1609.344),
    "meter": ("length", 1.0), "meters": ("length", 1.0), "metre": ("length", 1.0), "metres": ("length", 1.0),
    "kilometer": ("length", 1e3), "kilometers": ("length", 1e3), "kilometre": ("length", 1e3), "kilometres": ("length", 1e3),
    "millimeter": ("length", 1e-3), "millimeters": ("length", 1e-3), "millimetre": ("length", 1e-3), "millimetres": ("length", 1e-3),
    # time
    "s": ("time", 1.0), "sec": ("time", 1.0), "secs": ("time", 1.0), "second": ("time", 1.0), "seconds": ("time", 1.0),
    "min": ("time", 60.0), "mins": ("time", 60.0), "minute": ("time", 60.0), "minutes": ("time", 60.0),
    "h": ("time", 3600.0), "hr": ("time", 3600.0), "hrs": ("time", 3600.0), "hour": ("time", 3600.0), "hours": ("time", 3600.0),
    # mass
    "mg": ("mass", 1e-3), "g": ("mass", 1.0), "gram": ("mass", 1.0), "grams": ("mass", 1.0),
    "kg": ("mass", 1e3), "kgs": ("mass", 1e3), "kilogram": ("mass", 1e3), "kilograms": ("mass", 1e3), "kilo": ("mass", 1e3), "kilos": ("mass", 1e3),
    "lb": ("mass", 453.59237), "lbs": ("mass", 453.59237),
    # volume
    "ml": ("volume", 1e-3), "l": ("volume", 1.0), "liter": ("volume", 1.0), "litre": ("volume", 1.0),
    "liters": ("volume", 1.0), "litres": ("volume", 1.0),
    # energy
    "j": ("energy", 1.0), "kj": ("energy", 1e3), "mj": ("energy", 1e6),
    "wh": ("energy", 3600.0), "kwh": ("energy", 3.6e6), "mwh": ("energy", 3.6e9),
    # same-unit spellings (no conversion, but recognised as that unit)
    "%": ("percent", 1.0), "percent": ("percent", 1.0), "pct": ("percent", 1.0),
    "°c": ("temperature", 1.0), "degc": ("temperature", 1.0), "c": ("temperature", 1.0), "celsius": ("temperature", 1.0),
    "degree_celsius": ("temperature", 1.0), "degrees": ("temperature", 1.0),
    "eur": ("eur", 1.0), "€": ("eur", 1.0), "euro": ("eur", 1.0), "euros": ("eur", 1.0),
    "bpm": ("tempo", 1.0),
}

MONTHS = {m.lower(): i for i, m in enumerate(
    ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
     "November", "December"], 1)}
MONTHS.update({k[:3]: v for k, v in list(MONTHS.items())})
MONTHS["sept"] = 9


def unit_key(u):
    if u is None:
        return None
    k = str(u).strip().lower().replace(" ", "_")
    k = k.replace("º", "°").replace("_°c", "°c")
    if k in ("", "none", "null"):
        return None
    return k


def is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def fold(s: str) -> str:
    s = unicodedata.normalize("NFKD", s)
    return "".join(c for c in s if not unicodedata.combining(c))


QUOTES = "\"'`“”‘’«»"


def norm_text(x) -> str:
    s = fold(str(x)).casefold().strip()
    for _ in range(3):
        s = s.strip().strip(QUOTES).strip().rstrip(".!?;:,").strip()
    if s.startswith("the "):
        s = s[4:]
    return re.sub(r"\s+", " ", s)


def unwrap(value):
    """A one-element list or a {"value": x} object stands for x."""
    while True:
        if isinstance(value, list) and len(value) == 1:
            value = value[0]
        elif isinstance(value, dict) and len(value) == 1 and next(iter(value)) in ("value", "group", "text", "label"):
            value = next(iter(value.values()))
        else:
            return value


NUM_RE = re.compile(r"^\s*([-+−]?\d+(?:[.,]\d+)?)\s*(?:/\s*\d+)?\s*([^\d\s].*)?$")


def parse_number(value, unit):
    """(number, unit) from a number or a numeric string such as '3.5 km' or '7/10'; None when not numeric."""
    if is_number(value):
        return float(value), unit
    if isinstance(value, str):
        m = NUM_RE.match(value.replace("\u2212", "-"))
        if m:
            x = float(m.group(1).replace(",", ".").replace("−", "-"))
            return x, unit if unit not in (None, "") else (m.group(2) or None)
    return None


def match_number(answer, gold):
    parsed = parse_number(unwrap(answer.get("value")), answer.get("unit"))
    if parsed is None:
        return False, "non-numeric value"
    got, got_unit = parsed
    want, want_unit = float(gold["value"]), gold.get("unit")
    note = ""
    f, t = unit_key(got_unit), unit_key(want_unit)
    if t is not None and f is not None and f != t:
        if f in UNITS and t in UNITS:
            if UNITS[f][0] != UNITS[t][0]:
                return False, f"unit {got_unit!r} is not {want_unit!r}"
            got = got * UNITS[f][1] / UNITS[t][1]
            note = f"converted {got_unit}->{want_unit}"
        else:
            note = f"unit {got_unit!r} vs gold {want_unit!r} (not compared)"
    if gold.get("either_sign"):
        got, want = abs(got), abs(want)
    ok = math.isclose(got, want, rel_tol=1e-6, abs_tol=1e-9) or round(got, 2) == round(want, 2)
    if not ok and t in ("%", "percent", "pct") and f is None:
        ok = math.isclose(got * 100, want, rel_tol=1e-6, abs_tol=1e-9) or round(got * 100, 2) == round(want, 2)
        note = "read as a fraction" if ok else note
    return ok, note


def match_yes_no(answer, gold):
    v = unwrap(answer.get("value"))
    if isinstance(v, bool):
        got = v
    elif isinstance(v, str) and norm_text(v) in ("yes", "y", "true", "no", "n", "false"):
        got = norm_text(v) in ("yes", "y", "true")
    else:
        return False, "not a yes/no value"
    return got == bool(gold["yes_no"]), ""


def match_text(answer, want):
    v = unwrap(answer.get("value"))
    if v is None or isinstance(v, (dict, list, bool)):
        return False, "not a text value"
    return norm_text(v) == norm_text(want), ""


def parse_date(s):
    m = re.match(r"^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$", s)
    if m:
        try:
            return dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError:
            return None
    return None


def match_period(answer, gold):
    v = unwrap(answer.get("value"))
    if not isinstance(v, str):
        return False, "not a period"
    s = v.strip()
    bucket = gold["bucket"]
    if bucket == "week":
        start = dt.date.fromisoformat(gold["period"])
        start -= dt.timedelta(days=start.weekday())
        day = parse_date(s)
        if day is not None:
            return start <= day <= start + dt.timedelta(days=6), ""
        m = re.match(r"^(\d{4})-?W(\d{1,2})$", s, re.I)
        if m:
            iso = start.isocalendar()
            return (int(m.group(1)), int(m.group(2))) == (iso[0], iso[1]), ""
        first = re.split(r"\s*(?:/|\.\.|–|—|\bto\b)\s*", s)[0]
        day = parse_date(first)
        if day is not None:
            return start <= day <= start + dt.timedelta(days=6), ""
        return False, "unreadable week"
    year, month = map(int, gold["period"][:7].split("-"))
    day = parse_date(s)
    if day is not None:
        return (day.year, day.month) == (year, month), ""
    m = re.match(r"^(\d{4})-(\d{2})$", s)
    if m:
        return (int(m.group(1)), int(m.group(2))) == (year, month), ""
    words = norm_text(s).replace(",", " ").split()
    if words and words[0] in MONTHS:
        if MONTHS[words[0]] != month:
            return False, ""
        if len(words) > 1 and words[1].isdigit():
            return int(words[1]) == year, ""
        return len(words) == 1, ""
    return False, "unreadable month"


def matches(answer, gold):
    if "yes_no" in gold:
        return match_yes_no(answer, gold)
    if "group" in gold:
        return match_text(answer, gold["group"])
    if "text" in gold:
        return match_text(answer, gold["text"])
    if "period" in gold:
        return match_period(answer, gold)
    return match_number(answer, gold)


def has_unresolved(answer):
    u = answer.get("unresolved")
    return bool(u) and u not in ("[]",)


def outcome(answer, gold):
    """(outcome, note) for one question."""
    if answer is None:
        return "missing", "no answer"
    value = answer.get("value")
    if isinstance(value, str) and not value.strip():
        value = None
    unresolved = has_unresolved(answer)
    if gold.get("unanswerable"):
        if value is None:
            return "exact", "no value stated"
        return ("caveated", "value given, with unresolved parts") if unresolved else ("wrong", "value given for an unanswerable question")
    if value is None:
        return "caveated", "no value"
    if unresolved:
        return "caveated", "unresolved: " + json.dumps(answer.get("unresolved"))[:120]
    ok, note = matches(answer, gold)
    return ("exact" if ok else "wrong"), note


KINDS = ("exact", "caveated", "wrong", "missing")


def tally(rows):
    t = {k: 0 for k in KINDS}
    for r in rows:
        t[r["outcome"]] += 1
    t["total"] = len(rows)
    t["wrong_per_50"] = round(50.0 * t["wrong"] / len(rows), 2) if rows else 0.0
    return t


def line(name, t):
    n = t["total"] or 1
    return (f"  {name:<17} {t['exact']:>4} exact ({t['exact'] / n:6.1%})  {t['caveated']:>4} caveated  "
            f"{t['wrong']:>4} wrong  {t['missing']:>4} missing  / {t['total']:<4}  wrong per 50: {t['wrong_per_50']}")


def main(set_name: str, here: Path, argv=None) -> int:
    """Score answers against compositional set ``set_name``, whose files are in ``here``."""
    ap = argparse.ArgumentParser(description=f"Score adamm ask --json answers against compositional set {set_name}.")
    ap.add_argument("answers", nargs="+", type=Path, help="answers files (one JSON object per line)")
    ap.add_argument("--questions", type=Path, default=here / "questions.jsonl")
    ap.add_argument("--json", action="store_true", help="print one JSON object of totals")
    ap.add_argument("--per-question", action="store_true", help="also print each question's outcome")
    ap.add_argument("--by-family", action="store_true", help="also print totals per question family")
    args = ap.parse_args(argv)

    questions = [json.loads(x) for x in args.questions.read_text(encoding="utf-8").splitlines() if x.strip()]
    by_text = {q["question"]: q["question_id"] for q in questions}
    answers = {}
    for path in args.answers:
        for x in path.read_text(encoding="utf-8").splitlines():
            if not x.strip():
                continue
            a = json.loads(x)
            qid = a.get("question_id") or by_text.get(a.get("question"))
            if qid is not None:
                answers[qid] = a
    answered_histories = {q["history"] for q in questions if q["question_id"] in answers}
    skipped = sorted({q["history"] for q in questions} - answered_histories)

    rows = []
    for q in questions:
        if q["history"] not in answered_histories:
            continue
        a = answers.get(q["question_id"])
        out, note = outcome(a, q["gold"])
        rows.append({"question_id": q["question_id"], "history": q["history"], "family": q["family"],
                     "unanswerable": bool(q["gold"].get("unanswerable")), "outcome": out, "note": note,
                     "question": q["question"], "gold": q["gold"],
                     "value": None if a is None else a.get("value"), "unit": None if a is None else a.get("unit"),
                     "unresolved": None if a is None else a.get("unresolved")})

    histories = sorted({r["history"] for r in rows})
    families = sorted({r["family"] for r in rows})
    result = {
        "overall": tally(rows),
        "answerable": tally([r for r in rows if not r["unanswerable"]]),
        "unanswerable": tally([r for r in rows if r["unanswerable"]]),
        "per_history": {h: tally([r for r in rows if r["history"] == h]) for h in histories},
        "not_scored_histories": skipped,
    }
    if args.by_family:
        result["per_family"] = {f: tally([r for r in rows if r["family"] == f]) for f in families}
    if args.per_question:
        result["questions"] = [{k: r[k] for k in ("question_id", "outcome", "note", "gold", "value", "unit", "unresolved")}
                               for r in rows]

    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return 0
    print(f"compositional set {set_name}: {len(rows)} questions scored"
          + (f" (not scored, no answers: {', '.join(skipped)})" if skipped else ""))
    print(line("overall", result["overall"]))
    print(line("answerable", result["answerable"]))
    print(line("unanswerable", result["unanswerable"]))
    print("per history:")
    for h in histories:
        print(line(h, result["per_history"][h]))
    if args.by_family:
        print("per family:")
        for f in families:
            print(line(f, result["per_family"][f]))
    if args.per_question:
        print("per question:")
        for r in rows:
            gold = json.dumps(r["gold"], ensure_ascii=False)
            print(f"- {r['question_id']} [{r['family']}] {r['outcome']}: {r['question']}")
            print(f"    gold {gold}  |  answer {r['value']!r} {r['unit'] or ''}  unresolved={r['unresolved']!r}  {r['note']}")
    return 0

