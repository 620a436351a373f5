"""Seeded synthetic histories of recurring records, with exact analytic questions.

Recurring observations (sleep dashboards, workouts, card-game play logs,
expenses, glucose reports, step counts) arrive in varied phrasings - colon
lists, ``key=value``, JSON, pipe tables, dashboard images with captions or with
OCR text only, mixed units - and are interleaved with unrelated chat. Every
question's answer is computed from the generated records themselves, never from
the library under test.

    python tools/datasets/synthetic_history.py --out out/synth --days 60 --seed 7

Questions
---------
The first questions are a fixed set with fixed wording (the average total sleep
in the first month comes first). The rest are drawn by a random stream seeded
from ``seed`` (or ``phrasing_seed``): for each planned slot a form, a kind of
record, an attribute, optional text conditions, an optional value condition and
an optional date phrase, written with one of several templates the way people
type (lowercase, "avg", "hrs", "rhr", no question mark, ...). A slot whose
records cannot answer it is redrawn a few times and otherwise skipped; a count
of 0 is a valid answer. :func:`question_forms` lists the ``type`` values.

Each question has ``question_id``, ``question``, ``answer`` (text), ``type``,
``evidence`` (round ids: every aggregated row; the rows holding the extreme
value for min/max; the winning row for argmax/argmin; the one row for
first/latest; the two rows for change), ``question_time`` and ``gold`` with
``attributes`` (canonical attribute names involved), ``value`` (exact: a number
in ``gold.unit``, an int for counts, ``"YYYY-MM-DD"`` for which-day, the text
value for which-merchant/game/activity/category), ``unit`` (from ``UNITS``;
null for counts, dates, text and unitless numbers such as scores, steps and
time-in-range percent) and ``tool``/``args``, a Compute or Rank call of
``langgraph_adamm`` that yields ``value`` (documentation of intent; for
argmax/argmin_column it is Compute ``first`` of the column among rows equal to
the extreme value, and ``gold.intent`` holds the Rank call plus the column).

Semantics of the forms (rows = records of one kind that pass every condition
and date range, in time order; "attribute present" matters for sleep_score,
which the first nights lack):

- avg, sum, median, min, max: over the attribute's values. Sums are rounded to
  the decimals the values have (cents for money, 0.1 for km and hours).
- count: the number of rows (a value condition such as "over 8 km" is part of
  the rows' conditions).
- argmax_date / argmin_date ("which day/when was my highest/lowest X"): the
  date of the row with the highest/lowest value; ties go to the earliest row.
- argmax_column / argmin_column ("which merchant had my single biggest
  purchase"): that row's text value of the named column (merchant, category,
  activity or game); ties go to the earliest row. Always about a single row,
  never a per-group total.
- first / latest ("first", "earliest" / "latest", "most recent", "last",
  "current"): the value of the earliest / latest row.
- change: latest row's value minus earliest row's value ("from my first to my
  latest", "how did X change last week"); between two named dates ("between
  March 3 and March 20", "from 2026-03-03 to 2026-03-20"): the value on the
  later date minus the value on the earlier date, asked only when each date has
  exactly one record with the attribute.

Text conditions match record text values exactly: "on food"/"for coffee"
(category), "at Cafe Luna" (merchant; names may be typed in lowercase),
"in/at/playing Catan", "games of Catan" (game), "games I won", "wins", "lose"
(won true/false), "runs"/"rides"/"bike rides"/"cycle"/"swims" (activity
run/ride/swim; "workouts", "sessions", "training sessions" = every activity).
Value conditions: "more than/over/above/longer than X" is >, "X or more/at
least X/X+/X or above" is >=, "under/less than/below/shorter than/fewer than
X" is <, "X or less/at most/no more than X" is <=; "hit 10k steps" is >= 10000.

Dates. ``question_time`` is ``<today>T23:59:00``; no record is logged after
23:50, so every record of ``today`` precedes the question. A record's date is
the date of the round that logged it (a sleep record logged on March 10 is
March 10's). Questions without a date phrase are asked on the last day of the
history and concern every record. Questions with a relative date phrase are
asked on a day drawn from the history, so records after ``question_time`` may
exist: they never fall in a range. Every range is a set of whole calendar days,
both ends inclusive, never past today:

- "in March", "in March 2026", "during march", "for Mar": March 1-31 of that
  year (only months of the history are named).
- "last month": the previous calendar month, 1st to last day.
- "this month", "so far this month": the 1st of today's month to today.
- "this week", "so far this week": Monday of today's week to today.
- "last week", "during last week": Monday to Sunday of the previous calendar
  week (today's Monday - 7 days to today's Monday - 1 day).
- "yesterday": today - 1 day (only in totals and counts, never about sleep).
- "in the last N days", "past N days", "over the past N days", "in the past
  week" (N=7), "past two weeks"/"last 2 weeks" (N=14): the N days ending today,
  today - (N - 1) to today. With ``question_time`` at 23:59 this is the same as
  the rolling window (question_time - N days, question_time].
- "since 2026-03-10", "since March 10", "since the 10th" (the 10th of today's
  month): that day to today.
- "from A to B", "between A and B", "A to B", "A through B", "April 6-12": A
  to B. Dates are written "2026-03-05", "March 5", "Mar 5", "March 5th" or
  "the 5th of March"; all in the history's year.
"""

from __future__ import annotations

import argparse
import json
import operator
import random
import re
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import Any

EXPECTED_SCHEMAS: dict[str, frozenset[str]] = {
    "sleep": frozenset({"total_sleep", "deep_sleep", "resting_hr", "sleep_score"}),
    "workout": frozenset({"activity", "distance", "duration", "avg_hr", "calories"}),
    "cards": frozenset({"game", "score", "won", "opponents"}),
    "expense": frozenset({"category", "amount", "merchant"}),
    "glucose": frozenset({"time_in_range", "avg_glucose"}),
    "steps": frozenset({"steps", "active_minutes"}),
}

LABELS: dict[str, list[str]] = {
    "total_sleep": ["Total sleep", "total_sleep", "Total Sleep", "TotalSleep"],
    "deep_sleep": ["Deep sleep", "deep_sleep", "Deep Sleep", "DeepSleep"],
    "resting_hr": ["Resting HR", "resting_hr", "RestingHR"],
    "sleep_score": ["Sleep score", "sleep_score", "SleepScore"],
    "activity": ["Activity", "activity"],
    "distance": ["Distance", "distance"],
    "duration": ["Duration", "duration"],
    "avg_hr": ["Avg HR", "avg_hr", "AvgHR"],
    "calories": ["Calories", "calories"],
    "game": ["Game", "game"],
    "score": ["Score", "score"],
    "won": ["Won", "won"],
    "opponents": ["Opponents", "opponents"],
    "category": ["Category", "category"],
    "amount": ["Amount", "amount"],
    "merchant": ["Merchant", "merchant"],
    "time_in_range": ["Time in range", "time_in_range", "TimeInRange"],
    "avg_glucose": ["Avg glucose", "avg_glucose", "AvgGlucose"],
    "steps": ["Steps", "steps"],
    "active_minutes": ["Active minutes", "active_minutes", "ActiveMinutes"],
}

UNITS: dict[str, str] = {
    "total_sleep": "h",
    "deep_sleep": "h",
    "distance": "km",
    "duration": "min",
    "amount": "USD",
    "resting_hr": "bpm",
    "avg_hr": "bpm",
    "calories": "kcal",
    "avg_glucose": "mg/dL",
    "active_minutes": "min",
}
"""The unit of each gold value (a table may hold the column in another unit)."""
ASK_TIME = time(23, 59)
"""The time of day of every question (records are logged by 23:50)."""

CHAT = [
    (
        "Can you suggest a quick pasta recipe for tonight?",
        "Try aglio e olio: garlic, olive oil, chili flakes and parsley.",
    ),
    (
        "What should I pack for a weekend hike?",
        "Layers, water, snacks, a map and a small first-aid kit.",
    ),
    (
        "I watched a documentary about octopuses yesterday, fascinating.",
        "They are remarkable problem solvers.",
    ),
    ("Remind me what the capital of Australia is?", "It is Canberra."),
    (
        "My sister is visiting next week, any ideas for a day out?",
        "A museum in the morning and a picnic in the afternoon could be nice.",
    ),
    (
        "How do I keep basil alive indoors?",
        "Give it plenty of sun and water when the top of the soil is dry.",
    ),
    (
        "Any tips for a better morning routine?",
        "Get daylight early and keep the first hour screen-free.",
    ),
    ("I finished the novel you recommended.", "Glad to hear it! What did you think?"),
]
NOISE = [
    "Note to self: call the plumber",
    "Reminder: dentist on Friday",
    "Wifi password = hunter-two",
    "Flight: LH 123 to Munich",
    "Gate: B12",
    "Book title: The Overstory",
    "Podcast: Hidden Brain",
    "Plant name: Fernando",
]


@dataclass
class Record:
    """One recurring observation with its canonical values."""

    kind: str
    round_id: str
    time: datetime
    values: dict[str, Any]


@dataclass
class SyntheticData:
    """A generated history, its questions and the records behind them."""

    history: dict[str, Any]
    questions: list[dict[str, Any]]
    records: dict[str, list[Record]] = field(default_factory=dict)

    def write(self, out_dir: str | Path) -> tuple[Path, Path]:
        """Write ``history.json`` and ``questions.jsonl`` into ``out_dir``."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        hist = out / "history.json"
        hist.write_text(json.dumps(self.history, indent=1), encoding="utf-8")
        qs = out / "questions.jsonl"
        qs.write_text(
            "".join(json.dumps(q) + "\n" for q in self.questions), encoding="utf-8"
        )
        return hist, qs


def _hours(rng: random.Random, v: float) -> str:
    minutes = round(v * 60)
    return rng.choice(
        [
            f"{v} h",
            f"{v}h",
            f"{v} hours",
            f"{minutes // 60} h {minutes % 60} min",
            f"{minutes} min",
        ]
    )


def _fmt(rng: random.Random, attr: str, v: Any) -> str:
    """A value as people write it, in varied units."""
    if attr in ("total_sleep", "deep_sleep"):
        return _hours(rng, v)
    if attr in ("resting_hr", "avg_hr"):
        return rng.choice([f"{v} bpm", f"{v}"])
    if attr == "distance":
        return rng.choice([f"{v} km", f"{v}km", f"{round(v * 1000)} m"])
    if attr == "duration":
        return rng.choice(
            [f"{v} min", f"{v} minutes"]
            + ([f"{v // 60} h {v % 60} min"] if v >= 60 else [])
        )
    if attr == "calories":
        return rng.choice([f"{v} kcal", f"{v} cal", f"{v}"])
    if attr == "amount":
        return rng.choice([f"${v:.2f}", f"{v:.2f} USD", f"{v:.2f} dollars"])
    if attr == "time_in_range":
        return rng.choice([f"{v}%", f"{v} %", f"{v} percent"])
    if attr == "avg_glucose":
        return rng.choice([f"{v} mg/dL", f"{v} mg/dl", f"{v}"])
    if attr == "steps":
        return rng.choice([f"{v:,}", f"{v}", f"{v} steps", f"{v:,} steps"])
    if attr == "active_minutes":
        return rng.choice([f"{v} min", f"{v} minutes", f"{v} mins"])
    if attr == "won":
        return rng.choice(["yes", "true"] if v else ["no", "false"])
    return str(v)


def _label(rng: random.Random, attr: str) -> str:
    return rng.choice(LABELS[attr])


def _json_value(attr: str, v: Any) -> Any:
    if attr in ("total_sleep", "deep_sleep"):
        return f"{v} h"
    if attr == "distance":
        return f"{v} km"
    return v


TITLES = {
    "sleep": "Sleep dashboard",
    "workout": "Workout summary",
    "cards": "Game night log",
    "expense": "Receipt",
    "glucose": "Glucose report",
    "steps": "Step counter",
}
INTROS = {
    "sleep": [
        "Here is my sleep data from last night.",
        "Logging my sleep.",
        "Morning! Sleep numbers:",
    ],
    "workout": [
        "Just finished a workout.",
        "Training log for today.",
        "Done with today's session!",
    ],
    "cards": ["We played cards tonight.", "Game night results.", "Logging our game."],
    "expense": ["Logging an expense.", "Track this purchase please.", "New expense."],
    "glucose": [
        "Today's glucose summary.",
        "Logging my CGM numbers.",
        "Glucose stats for today.",
    ],
    "steps": [
        "Step count for today.",
        "Daily activity summary.",
        "Logging my activity for today.",
    ],
}


def _phrase(
    rng: random.Random,
    kind: str,
    values: dict[str, Any],
    image_dir: Path | None,
    round_id: str,
) -> dict[str, Any]:
    """One round's fields (user, assistant, images) stating the record."""
    attrs = list(values)
    rng.shuffle(attrs)
    style = rng.choice(["colon", "equals", "json", "table", "caption", "ocr"])
    intro = rng.choice(INTROS[kind])
    out: dict[str, Any] = {"assistant": "Got it, logged."}
    if style == "colon":
        body = ", ".join(f"{_label(rng, a)}: {_fmt(rng, a, values[a])}" for a in attrs)
        out["user"] = f"{intro} {body}"
    elif style == "equals":
        body = "; ".join(f"{_label(rng, a)}={_fmt(rng, a, values[a])}" for a in attrs)
        out["user"] = f"{intro}\n{body}"
    elif style == "json":
        obj = {_label(rng, a): _json_value(a, values[a]) for a in attrs}
        out["user"] = f"{intro} {json.dumps(obj)}"
    elif style == "table":
        rows = "\n".join(
            f"| {_label(rng, a)} | {_fmt(rng, a, values[a])} |" for a in attrs
        )
        out["user"] = f"{intro}\n| Field | Value |\n|---|---|\n{rows}"
    else:
        lines = [(LABELS[a][0], _fmt(rng, a, values[a])) for a in attrs]
        image: dict[str, Any] = {"image_id": f"{round_id}:IMG_1"}
        if style == "caption":
            image["caption"] = f"{TITLES[kind]}: " + ", ".join(
                f"{label} {value}"
                for label, value in lines
                if not _is_text(values[_attr_of(label)])
            )
            text_pairs = [
                (label, value)
                for label, value in lines
                if _is_text(values[_attr_of(label)])
            ]
            if text_pairs:  # text fields are not "label number" pairs
                image["caption"] += ". " + ", ".join(
                    f"{lab}: {val}" for lab, val in text_pairs
                )
        else:
            image["caption"] = f"A screenshot of a {TITLES[kind].lower()}"
            image["ocr"] = "\n".join(
                f"{label}\n{value}"
                if not _is_text(values[_attr_of(label)])
                else f"{label}: {value}"
                for label, value in lines
            )
        if image_dir is not None:
            image["path"] = _render(image_dir, round_id, TITLES[kind], lines)
        out["user"] = intro
        out["images"] = [image]
    return out


def _is_text(value: Any) -> bool:
    """Text and yes/no fields are written "Label: value" even on dashboards."""
    return isinstance(value, (str, bool))


def _attr_of(label: str) -> str:
    for attr, labels in LABELS.items():
        if labels[0] == label:
            return attr
    raise KeyError(label)


def _render(
    image_dir: Path, round_id: str, title: str, lines: list[tuple[str, str]]
) -> str:
    """Draw a dashboard screenshot; return its path relative to the history."""
    from PIL import Image, ImageDraw

    image_dir.mkdir(parents=True, exist_ok=True)
    img = Image.new("RGB", (360, 40 + 24 * len(lines)), (245, 247, 250))
    draw = ImageDraw.Draw(img)
    draw.text((12, 10), title, fill=(20, 20, 60))
    for i, (label, value) in enumerate(lines):
        draw.text((12, 36 + 24 * i), label, fill=(60, 60, 60))
        draw.text((220, 36 + 24 * i), value, fill=(0, 0, 0))
    name = round_id.replace(":", "_") + ".png"
    img.save(image_dir / name)
    return f"{image_dir.name}/{name}"


def _sleep(rng: random.Random, n: int) -> dict[str, Any]:
    values = {
        "total_sleep": round(rng.uniform(5.0, 8.5), 1),
        "deep_sleep": round(rng.uniform(0.5, 2.0), 1),
        "resting_hr": rng.randint(50, 66),
    }
    if n >= 3:  # the app added a sleep score after the first few nights
        values["sleep_score"] = rng.randint(60, 95)
    return values


def _workout(rng: random.Random, n: int) -> dict[str, Any]:
    return {
        "activity": rng.choice(["run", "ride", "swim"]),
        "distance": round(rng.uniform(1.0, 30.0), 1),
        "duration": rng.randint(20, 95),
        "avg_hr": rng.randint(110, 170),
        "calories": rng.randint(150, 900),
    }


def _cards(rng: random.Random, n: int) -> dict[str, Any]:
    return {
        "game": rng.choice(["Catan", "Dominion", "Hearts"]),
        "score": rng.randint(2, 15),
        "won": rng.random() < 0.45,
        "opponents": rng.randint(1, 4),
    }


def _expense(rng: random.Random, n: int) -> dict[str, Any]:
    return {
        "category": rng.choice(["food", "transport", "books", "coffee"]),
        "amount": round(rng.uniform(2.0, 80.0), 2),
        "merchant": rng.choice(["Cafe Luna", "CityRail", "Paper Lane", "Green Grocer"]),
    }


def _glucose(rng: random.Random, n: int) -> dict[str, Any]:
    return {
        "time_in_range": rng.randint(55, 99),
        "avg_glucose": rng.randint(95, 165),
    }


def _steps(rng: random.Random, n: int) -> dict[str, Any]:
    return {
        "steps": rng.randint(3000, 16000),
        "active_minutes": rng.randint(10, 110),
    }


KINDS: dict[str, tuple[float, Callable[[random.Random, int], dict[str, Any]]]] = {
    "sleep": (0.9, _sleep),
    "workout": (0.5, _workout),
    "cards": (0.35, _cards),
    "expense": (0.8, _expense),
}
EXTRA_KINDS: dict[str, tuple[float, Callable[[random.Random, int], dict[str, Any]]]] = {
    "glucose": (0.6, _glucose),
    "steps": (0.7, _steps),
}
"""Kinds logged at the end of a day's session. They draw from a random stream of
their own, so the rounds of ``KINDS`` are the same as before these were added."""


def generate(
    seed: int = 7,
    days: int = 60,
    start: date = date(2026, 3, 1),
    image_dir: str | Path | None = None,
    user_id: str = "synth",
    phrasing_seed: int | None = None,
) -> SyntheticData:
    """Generate a history of ``days`` sessions and its analytic questions.

    Args:
        seed: Everything is determined by it.
        days: One session per day.
        start: The first day.
        image_dir: Where to render dashboard images (needs Pillow); image paths in
            the history are relative to this folder's parent. None: captions and
            OCR text only.
        user_id: The history's namespace.
        phrasing_seed: Seeds the choice and wording of the questions (their
            forms, date phrases, thresholds, templates); None: derived from
            ``seed``. The history does not depend on it.
    """
    rng = random.Random(seed)
    img_dir = Path(image_dir) if image_dir is not None else None
    sessions = []
    extra_rng = random.Random(f"extra:{seed}")
    records: dict[str, list[Record]] = {k: [] for k in (*KINDS, *EXTRA_KINDS)}
    noise = list(NOISE) * 2
    rng.shuffle(noise)
    for d in range(days):
        day = start + timedelta(days=d)
        sid = f"S{d + 1}"
        items: list[Record | None] = []
        for kind, (prob, make) in KINDS.items():
            if rng.random() < prob:
                rec = Record(kind, "", datetime.min, make(rng, len(records[kind])))
                records[kind].append(rec)
                items.append(rec)
        items.extend([None] * rng.randint(1, 3))
        rng.shuffle(items)
        rounds = []
        minute = 7 * 60
        for n, item in enumerate(items, start=1):
            rid = f"{sid}:{n}"
            minute += rng.randint(20, 120)
            when = datetime(day.year, day.month, day.day) + timedelta(
                minutes=min(minute, 23 * 60 + 50)
            )
            base: dict[str, Any] = {
                "round_id": rid,
                "time": when.isoformat(timespec="minutes"),
            }
            if item is None:
                if noise and rng.random() < 0.15:
                    base["user"] = noise.pop()
                    base["assistant"] = "Noted."
                else:
                    user, assistant = rng.choice(CHAT)
                    base.update(user=user, assistant=assistant)
            else:
                item.round_id, item.time = rid, when
                base.update(_phrase(rng, item.kind, item.values, img_dir, rid))
            rounds.append(base)
        for kind, (prob, make) in EXTRA_KINDS.items():
            if extra_rng.random() < prob:
                rid = f"{sid}:{len(rounds) + 1}"
                minute += extra_rng.randint(20, 90)
                when = datetime(day.year, day.month, day.day) + timedelta(
                    minutes=min(minute, 23 * 60 + 50)
                )
                rec = Record(kind, rid, when, make(extra_rng, len(records[kind])))
                records[kind].append(rec)
                rounds.append(
                    {"round_id": rid, "time": when.isoformat(timespec="minutes")}
                    | _phrase(extra_rng, kind, rec.values, img_dir, rid)
                )
        sessions.append({"session_id": sid, "date": day.isoformat(), "rounds": rounds})
    history = {"user_id": user_id, "sessions": sessions}
    end = start + timedelta(days=days - 1)
    qseed = seed if phrasing_seed is None else phrasing_seed
    questions = _questions(records, start, end, random.Random(f"questions:{qseed}"))
    return SyntheticData(history, questions, records)


def _in(rec: Record, lo: date, hi: date) -> bool:
    return lo <= rec.time.date() <= hi


def _question(
    qid: str,
    text: str,
    qtype: str,
    value: Any,
    evidence: list[Record],
    attributes: set[str],
    tool: str,
    args: dict[str, Any],
    now: date,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    target = args.get("target_column_expression")
    unit = UNITS.get(target) if args.get("operator") not in ("count", None) else None
    answer = f"{value:.2f}" if isinstance(value, float) else str(value)
    if unit:
        answer = f"{answer} {unit}"
    return {
        "question_id": qid,
        "question": text,
        "answer": answer,
        "type": qtype,
        "evidence": [r.round_id for r in evidence],
        "question_time": datetime.combine(now, ASK_TIME).isoformat(),
        "gold": {
            "attributes": sorted(attributes),
            "tool": tool,
            "args": args,
            "value": value,
            "unit": unit,
            **(extra or {}),
        },
    }


def _legacy_questions(
    records: dict[str, list[Record]], start: date, end: date
) -> list[dict[str, Any]]:
    """The fixed first questions, with fixed wording.

    A question is left out when the history has no record it could be about
    (short histories).
    """
    sleep, work = records["sleep"], records["workout"]
    cards, spend = records["cards"], records["expense"]
    month_end = min(
        end,
        (start.replace(day=28) + timedelta(days=4)).replace(day=1) - timedelta(days=1),
    )
    month = [r for r in sleep if _in(r, start, month_end)]
    in_month = [
        {
            "column": "time",
            "op": "between",
            "value": [start.isoformat(), month_end.isoformat()],
        }
    ]
    food = [r for r in spend if r.values["category"] == "food"]
    long_rides = [r for r in work if r.values["distance"] > 10]
    scored = [r for r in sleep if "sleep_score" in r.values]
    runs = [r for r in work if r.values["activity"] == "run"]
    catan_wins = [r for r in cards if r.values["game"] == "Catan" and r.values["won"]]
    big = [r for r in spend if r.values["amount"] >= 50]

    def top(recs: list[Record], attr: str, pick: Callable[..., Any]) -> Any:
        return pick(r.values[attr] for r in recs)

    def at(recs: list[Record], attr: str, value: Any) -> list[Record]:
        return [r for r in recs if r.values[attr] == value]

    def best_day() -> str:
        best = top(scored, "sleep_score", max)
        return min(r.time for r in at(scored, "sleep_score", best)).date().isoformat()

    specs: list[tuple[list[Record], Callable[[], tuple[Any, ...]]]] = [
        (
            month,
            lambda: (
                f"What was my average total sleep between {start} and {month_end}?",
                "analytic.avg",
                sum(r.values["total_sleep"] for r in month) / len(month),
                month,
                {"total_sleep"},
                "compute",
                {
                    "operator": "avg",
                    "target_column_expression": "total_sleep",
                    "optional_column_filters": in_month,
                },
            ),
        ),
        (
            food,
            lambda: (
                "How much did I spend on food in total?",
                "analytic.sum",
                round(sum(r.values["amount"] for r in food), 2),
                food,
                {"amount", "category"},
                "compute",
                {
                    "operator": "sum",
                    "target_column_expression": "amount",
                    "optional_column_filters": [
                        {"column": "category", "value": "food"}
                    ],
                },
            ),
        ),
        (
            work,
            lambda: (
                "How many workouts covered more than 10 km?",
                "analytic.count",
                len(long_rides),
                long_rides,
                {"distance"},
                "compute",
                {
                    "operator": "count",
                    "target_column_expression": "distance",
                    "optional_column_filters": [
                        {"column": "distance", "op": ">", "value": 10}
                    ],
                },
            ),
        ),
        (
            sleep,
            lambda: (
                "What was my highest resting heart rate?",
                "analytic.max",
                top(sleep, "resting_hr", max),
                at(sleep, "resting_hr", top(sleep, "resting_hr", max)),
                {"resting_hr"},
                "compute",
                {"operator": "max", "target_column_expression": "resting_hr"},
            ),
        ),
        (
            month,
            lambda: (
                f"What was my lowest deep sleep between {start} and {month_end}?",
                "analytic.min",
                top(month, "deep_sleep", min),
                at(month, "deep_sleep", top(month, "deep_sleep", min)),
                {"deep_sleep"},
                "compute",
                {
                    "operator": "min",
                    "target_column_expression": "deep_sleep",
                    "optional_column_filters": in_month,
                },
            ),
        ),
        (
            scored,
            lambda: (
                "Which day had my best sleep score?",
                "analytic.argmax_date",
                (day := best_day()),
                [r for r in scored if r.time.date().isoformat() == day],
                {"sleep_score"},
                "rank",
                {
                    "target_column_expression": "sleep_score",
                    "order": "desc",
                    "result_budget": 1,
                },
            ),
        ),
        (
            sleep,
            lambda: (
                "What was my latest resting heart rate?",
                "analytic.latest",
                sleep[-1].values["resting_hr"],
                [sleep[-1]],
                {"resting_hr"},
                "compute",
                {"operator": "latest", "target_column_expression": "resting_hr"},
            ),
        ),
        (
            month,
            lambda: (
                "How did my deep sleep change from the first to the last night between "
                f"{start} and {month_end}?",
                "analytic.change",
                round(
                    month[-1].values["deep_sleep"] - month[0].values["deep_sleep"], 9
                ),
                [month[0], month[-1]],
                {"deep_sleep"},
                "compute",
                {
                    "operator": "change",
                    "target_column_expression": "deep_sleep",
                    "optional_column_filters": in_month,
                },
            ),
        ),
        (
            runs,
            lambda: (
                "What is the median duration of my runs in minutes?",
                "analytic.median",
                float(statistics.median(r.values["duration"] for r in runs)),
                runs,
                {"duration", "activity"},
                "compute",
                {
                    "operator": "median",
                    "target_column_expression": "duration",
                    "optional_column_filters": [{"column": "activity", "value": "run"}],
                },
            ),
        ),
        (
            cards,
            lambda: (
                "How many games of Catan did I win?",
                "analytic.count",
                len(catan_wins),
                catan_wins,
                {"game", "won"},
                "compute",
                {
                    "operator": "count",
                    "optional_column_filters": [
                        {"column": "game", "value": "Catan"},
                        {"column": "won", "value": True},
                    ],
                },
            ),
        ),
        (
            runs,
            lambda: (
                "What was my average pace (minutes per km) over my runs?",
                "analytic.avg",
                sum(r.values["duration"] / r.values["distance"] for r in runs)
                / len(runs),
                runs,
                {"duration", "distance", "activity"},
                "compute",
                {
                    "operator": "avg",
                    "target_column_expression": "duration / distance",
                    "optional_column_filters": [{"column": "activity", "value": "run"}],
                },
            ),
        ),
        (
            spend,
            lambda: (
                "How many expenses were $50 or more?",
                "analytic.count",
                len(big),
                big,
                {"amount"},
                "compute",
                {
                    "operator": "count",
                    "target_column_expression": "amount",
                    "optional_column_filters": [
                        {"column": "amount", "op": ">=", "value": "$50"}
                    ],
                },
            ),
        ),
    ]
    qs: list[dict[str, Any]] = []
    for needed, spec in specs:
        if needed:
            qs.append(_question(f"q{len(qs) + 1}", *spec(), now=end))
    return qs


QUESTION_FORMS: tuple[str, ...] = (
    "analytic.avg",
    "analytic.sum",
    "analytic.count",
    "analytic.min",
    "analytic.max",
    "analytic.median",
    "analytic.argmax_date",
    "analytic.argmin_date",
    "analytic.argmax_column",
    "analytic.argmin_column",
    "analytic.first",
    "analytic.latest",
    "analytic.change",
)


def question_forms() -> list[str]:
    """The ``type`` values of the questions this generator writes."""
    return list(QUESTION_FORMS)


DECIMALS = {"total_sleep": 1, "deep_sleep": 1, "distance": 1, "amount": 2}
"""Decimals of the record values (others are integers); sums and differences
are rounded to them, which removes only binary noise."""

KEY_ATTRIBUTE = {
    "sleep": "total_sleep",
    "workout": "activity",
    "cards": "game",
    "expense": "amount",
    "glucose": "time_in_range",
    "steps": "steps",
}
"""An attribute every record of the kind has: the target of plain counts."""

MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]

OPS: dict[str, Callable[[Any, Any], bool]] = {
    ">": operator.gt,
    ">=": operator.ge,
    "<": operator.lt,
    "<=": operator.le,
}

THRESHOLDS: dict[str, list[Any]] = {
    "total_sleep": [6, 6.5, 7, 7.5, 8],
    "deep_sleep": [1, 1.5],
    "resting_hr": [55, 58, 60, 62],
    "sleep_score": [75, 80, 85, 90],
    "distance": [5, 8, 10, 15, 20],
    "duration": [30, 45, 60, 90],
    "calories": [400, 500, 700],
    "avg_hr": [130, 140, 150],
    "amount": [10, 20, 25, 50],
    "score": [8, 10, 12],
    "steps": [6000, 8000, 10000, 12000],
    "time_in_range": [70, 80, 90],
    "avg_glucose": [120, 140, 150],
    "active_minutes": [30, 60, 90],
}

NOUNS: dict[str, list[str]] = {
    "total_sleep": ["sleep", "total sleep", "sleep duration", "total sleep time"],
    "deep_sleep": ["deep sleep", "deep sleep time"],
    "resting_hr": [
        "resting heart rate",
        "resting hr",
        "rhr",
        "resting HR",
        "resting pulse",
    ],
    "sleep_score": ["sleep score"],
    "distance": ["distance", "workout distance"],
    "duration": ["duration", "workout duration", "workout time"],
    "avg_hr": ["workout heart rate", "heart rate during workouts"],
    "calories": ["calories burned", "calorie burn"],
    "score": ["score", "game score"],
    "amount": ["spending", "expense amount", "purchase amount"],
    "time_in_range": ["time in range", "TIR", "tir", "glucose time in range"],
    "avg_glucose": ["average glucose", "avg glucose", "glucose", "blood sugar"],
    "steps": ["steps", "step count", "daily steps"],
    "active_minutes": ["active minutes", "active time"],
}

# Templates. Slots: {m} a noun of the attribute, {s} the text conditions
# (" on food", " on my runs", " in Catan"), {w} the date phrase, {c} a value
# condition ("over 8 km"), {x} a bare value, and for workouts {subj} ("runs"),
# {one} ("run"), {verb}, {verbing}, {verbed}, {verbfar}, {verbkm}; {g} a game.
GENERIC: dict[str, list[str]] = {
    "avg": [
        "what was my average {m}{s}{w}?",
        "avg {m}{s}{w}",
        "what's my mean {m}{s}{w}?",
        "average {m}{s}{w}?",
        "on average, what was my {m}{s}{w}?",
        "whats my avg {m}{s}{w}",
        "mean {m}{s}{w}?",
    ],
    "sum": [
        "what was my total {m}{s}{w}?",
        "total {m}{s}{w}",
        "sum of my {m}{s}{w}?",
    ],
    "median": [
        "median {m}{s}{w}?",
        "what was my median {m}{s}{w}",
        "what's the median {m}{s}{w}?",
        "median value of my {m}{s}{w}",
    ],
    "max": [
        "what was my highest {m}{s}{w}?",
        "max {m}{s}{w}",
        "what's the highest {m} i've had{s}{w}?",
        "highest {m}{s}{w}?",
        "peak {m}{s}{w}",
    ],
    "min": [
        "what was my lowest {m}{s}{w}?",
        "min {m}{s}{w}",
        "lowest {m}{s}{w}?",
        "what's the lowest {m} i've had{s}{w}?",
    ],
    "latest": [
        "what's my current {m}{s}?",
        "most recent {m}{s}?",
        "what was my last {m}{s}?",
        "latest {m}{s}",
        "what's my latest {m}{s}?",
        "what was my {m}{s} most recently?",
    ],
    "latest_span": [
        "what was my last {m}{s}{w}?",
        "latest {m}{s}{w}",
        "most recent {m}{s}{w}?",
    ],
    "first": [
        "what was my first {m}{s}{w}?",
        "earliest {m}{s}{w}?",
        "first recorded {m}{s}{w}",
        "what was the first {m} i logged{s}{w}?",
    ],
    "change": [
        "how much has my {m} changed since i started tracking{s}?",
        "change in {m} from first to latest{s}?",
        "difference between my first and latest {m}{s}?",
        "by how much did my {m} change from the first reading to the most recent "
        "one{s}?",
        "how did my {m} change from my first to my last entry{s}?",
    ],
    "change_span": [
        "how did my {m} change{w}?",
        "change in my {m}{w}?",
        "how much did my {m} go up or down{w}?",
        "what's the change in {m}{w} from the first to the last entry?",
    ],
    "change_dates": [
        "how much did my {m} change between {a} and {b}?",
        "difference in {m} from {a} to {b}?",
        "change in my {m} between {a} and {b}",
        "how did my {m} change from {a} to {b}?",
        "how much did my {m} go up or down from {a} to {b}",
    ],
}

SPECIAL: dict[str, dict[str, list[str]]] = {
    "avg": {
        "total_sleep": [
            "how much sleep did i get on average{w}?",
            "how many hrs did i sleep on avg{w}",
            "how long did i sleep on average{w}?",
            "avg hours of sleep per night{w}?",
            "how much did i sleep per night on average{w}",
        ],
        "distance": [
            "how far did i {verbfar} on average{w}?",
            "avg km per {one}{w}",
            "average distance per {one}{w}?",
        ],
        "duration": [
            "how long were my {subj} on average{w}?",
            "avg {one} length in minutes{w}",
            "average time per {one}{w}?",
        ],
        "calories": [
            "how many calories did i burn per {one} on average{w}?",
            "avg calories per {one}{w}",
        ],
        "amount": [
            "how much did i spend on average{s}{w}?",
            "avg expense{s}{w}",
            "what's my average purchase{s}{w}?",
            "how much do i spend per purchase on average{s}{w}",
        ],
        "steps": [
            "how many steps did i average{w}?",
            "avg steps per day{w}",
            "on average how many steps did i walk{w}?",
            "avg daily steps{w}",
        ],
        "score": [
            "what's my average score{s}{w}?",
            "how many points do i score on average{s}{w}?",
        ],
    },
    "sum": {
        "amount": [
            "how much did i spend{s}{w}?",
            "how much money did i spend{s}{w}",
            "total spent{s}{w}?",
            "what did i spend{s}{w} in total?",
            "how much have i spent{s}{w}",
            "total spending{s}{w}",
        ],
        "distance": [
            "how many km did i {verbkm}{w}?",
            "how far did i {verbfar} in total{w}?",
            "total distance{s}{w}?",
            "how many kilometers did i {verbkm}{w}",
        ],
        "duration": [
            "how many minutes did i spend {verbing}{w}?",
            "total time {verbing}{w}?",
            "how long did i spend {verbing}{w} in total?",
        ],
        "calories": [
            "how many calories did i burn{s}{w}?",
            "total calories burned{s}{w}",
            "how many kcal did i burn{s}{w}",
        ],
        "steps": [
            "how many steps did i take{w}?",
            "total steps{w}",
            "how many steps in total{w}?",
            "how many steps did i walk{w}",
        ],
        "total_sleep": [
            "how many hours did i sleep in total{w}?",
            "total hrs of sleep{w}",
            "how much sleep did i get in total{w}?",
        ],
        "score": [
            "how many points did i score{s}{w} in total?",
            "total points{s}{w}",
        ],
        "active_minutes": [
            "how many active minutes did i get{w}?",
            "total active minutes{w}",
        ],
    },
    "max": {
        "total_sleep": [
            "what's the most sleep i got in a night{w}?",
            "longest night of sleep{w}?",
            "most hours i slept{w}?",
        ],
        "deep_sleep": [
            "most deep sleep i got in one night{w}?",
            "what was my max deep sleep{w}",
        ],
        "sleep_score": ["best sleep score{w}?", "what was my best sleep score{w}"],
        "distance": [
            "how far was my longest {one}{w}?",
            "what's the farthest i {verbed}{w}?",
            "longest {one} distance{w}?",
            "max distance{s}{w}",
        ],
        "duration": [
            "how long was my longest {one}{w}?",
            "what was my longest {one} in minutes{w}?",
            "longest {one} duration{w}",
        ],
        "calories": [
            "most calories i burned in one {one}{w}?",
            "max calories burned in a {one}{w}",
            "what's the most calories a {one} burned{w}?",
        ],
        "avg_hr": [
            "highest average heart rate in a {one}{w}?",
            "max workout heart rate{s}{w}",
        ],
        "amount": [
            "biggest purchase{s}{w}?",
            "what was my biggest expense{s}{w}?",
            "largest single expense{s}{w}",
            "what's the most i spent in one go{s}{w}?",
            "most expensive purchase{s}{w}?",
        ],
        "score": [
            "what was my best score{s}{w}?",
            "most points i scored in a game{s}{w}",
        ],
        "steps": [
            "most steps in a day{w}?",
            "highest step count{w}",
            "what's the most steps i did in one day{w}?",
        ],
        "time_in_range": ["best time in range{w}?", "highest tir{w}"],
        "avg_glucose": ["what was my highest avg glucose{w}"],
        "active_minutes": ["most active minutes in a day{w}?"],
    },
    "min": {
        "total_sleep": [
            "what's the least sleep i got{w}?",
            "shortest night of sleep{w}?",
            "fewest hours i slept in a night{w}",
        ],
        "deep_sleep": ["least deep sleep i got{w}?", "min deep sleep{w}"],
        "sleep_score": ["worst sleep score{w}?", "what was my worst sleep score{w}"],
        "distance": [
            "how far was my shortest {one}{w}?",
            "shortest {one} distance{w}?",
            "min distance{s}{w}",
        ],
        "duration": [
            "how long was my shortest {one}{w}?",
            "shortest {one} in minutes{w}?",
        ],
        "calories": [
            "fewest calories i burned in a {one}{w}?",
            "least calories burned in one {one}{w}",
        ],
        "amount": [
            "smallest purchase{s}{w}?",
            "what's the least i spent on a single purchase{s}{w}?",
            "cheapest thing i bought{s}{w}?",
            "smallest expense{s}{w}",
        ],
        "score": [
            "what was my worst score{s}{w}?",
            "fewest points i scored in a game{s}{w}",
        ],
        "steps": [
            "fewest steps in a day{w}?",
            "lowest step count{w}",
            "least steps i did in a day{w}",
        ],
        "time_in_range": ["worst time in range{w}?", "lowest tir{w}"],
        "avg_glucose": ["lowest avg glucose{w}?"],
    },
    "latest": {
        "distance": [
            "how far was my last {one}?",
            "how far did i {verbfar} last time?",
            "distance of my most recent {one}?",
        ],
        "duration": [
            "how long was my last {one}?",
            "how long was my most recent {one}?",
        ],
        "amount": [
            "how much was my last purchase{s}?",
            "how much did i spend{s} last time?",
            "what did my most recent expense{s} cost?",
            "how much was my latest expense{s}?",
        ],
        "score": [
            "what did i score in my last game{s}?",
            "what was my score in my most recent game{s}?",
        ],
        "total_sleep": [
            "how long did i sleep most recently?",
            "how much sleep did i get last time i logged it?",
        ],
        "steps": [
            "what was my most recent step count?",
            "how many steps did i do on my last logged day?",
        ],
    },
    "first": {
        "distance": [
            "how far was my first {one}{w}?",
            "distance of my first {one}{w}?",
        ],
        "duration": ["how long was my first {one}{w}?"],
        "amount": [
            "how much was my first purchase{s}{w}?",
            "what did my first expense{s}{w} cost?",
            "first expense amount{s}{w}?",
        ],
        "score": ["what did i score in my first game{s}{w}?"],
        "steps": ["how many steps did i do on the first day i logged{w}?"],
    },
}

COUNT_PLAIN: dict[str, list[str]] = {
    "workout": [
        "how many {subj} did i do{w}?",
        "how many times did i {verb}{w}?",
        "number of {subj}{w}?",
        "how many {subj} did i log{w}",
        "how many {subj}{w}?",
    ],
    "expense": [
        "how many purchases did i make{s}{w}?",
        "how many times did i buy something{s}{w}?",
        "number of expenses{s}{w}",
        "how many expenses{s}{w}?",
    ],
    "game": [
        "how many games of {g} did i play{w}?",
        "how many times did i play {g}{w}?",
        "number of {g} games{w}?",
        "how many {g} games{w}?",
    ],
    "won": [
        "how many games did i win{w}?",
        "how many wins{w}?",
        "how many times did i win{w}?",
    ],
    "won_game": [
        "how many games of {g} did i win{w}?",
        "how many times did i win at {g}{w}?",
        "how many {g} wins{w}?",
    ],
    "lost": ["how many games did i lose{w}?", "how many losses{w}?"],
    "lost_game": [
        "how many {g} games did i lose{w}?",
        "how many times did i lose at {g}{w}?",
    ],
}

COUNT_COND: dict[str, list[str]] = {
    "total_sleep": [
        "how many nights did i sleep {c}{w}?",
        "how many nights with {c} of sleep{w}?",
        "number of nights i slept {c}{w}",
        "how often did i sleep {c}{w}?",
    ],
    "deep_sleep": [
        "how many nights did i get {c} of deep sleep{w}?",
        "how many nights was my deep sleep {c}{w}?",
    ],
    "resting_hr": [
        "how many days was my resting heart rate {c}{w}?",
        "how many mornings was my rhr {c}{w}",
        "number of days with a resting hr {c}{w}",
    ],
    "sleep_score": [
        "how many nights did i get a sleep score of {c}{w}?",
        "how many nights was my sleep score {c}{w}",
        "number of nights with sleep score {c}{w}",
    ],
    "distance": [
        "how many {subj} {c}{w}?",
        "how many {subj} were {c}{w}?",
        "how many times did i {verbfar} {c}{w}?",
        "number of {subj} {c}{w}",
    ],
    "duration": [
        "how many {subj} {c}{w}?",
        "how many {subj} lasted {c}{w}?",
        "number of {subj} that took {c}{w}",
    ],
    "calories": [
        "how many {subj} burned {c}{w}?",
        "how many {subj} with {c} burned{w}?",
    ],
    "avg_hr": ["how many {subj} had an average heart rate {c}{w}?"],
    "amount": [
        "how many expenses were {c}{s}{w}?",
        "how many purchases {c}{s}{w}?",
        "how many times did i spend {c}{s}{w}?",
        "count of expenses {c}{s}{w}",
    ],
    "steps": [
        "how many days did i walk {c} steps{w}?",
        "how many days with {c} steps{w}?",
        "number of days i got {c} steps{w}",
        "how many days did i do {c} steps{w}",
    ],
    "time_in_range": [
        "how many days was my time in range {c}{w}?",
        "how many days with tir {c}{w}?",
        "days with time in range {c}{w}?",
        "how often was my time in range {c}{w}",
    ],
    "avg_glucose": [
        "how many days was my average glucose {c}{w}?",
        "number of days with avg glucose {c}{w}",
    ],
    "score": [
        "how many games did i score {c}{s}{w}?",
        "in how many games{s} did i get {c}{w}?",
    ],
    "active_minutes": ["how many days did i get {c} of active time{w}?"],
}

SUPERLATIVES: dict[tuple[str, str], list[str]] = {
    ("max", "total_sleep"): ["longest night of sleep", "most sleep"],
    ("min", "total_sleep"): ["shortest night of sleep", "least sleep"],
    ("max", "deep_sleep"): ["most deep sleep"],
    ("min", "deep_sleep"): ["least deep sleep"],
    ("max", "resting_hr"): ["highest resting heart rate", "highest rhr"],
    ("min", "resting_hr"): ["lowest resting heart rate", "lowest resting hr"],
    ("max", "sleep_score"): ["best sleep score", "highest sleep score"],
    ("min", "sleep_score"): ["worst sleep score", "lowest sleep score"],
    ("max", "distance"): ["farthest {one}", "longest {one} by distance"],
    ("min", "distance"): ["shortest {one} by distance", "shortest {one} distance-wise"],
    ("max", "duration"): ["longest {one} time-wise", "longest {one} by time"],
    ("min", "duration"): ["shortest {one} time-wise", "shortest {one} by time"],
    ("max", "calories"): ["{one} that burned the most calories"],
    ("min", "calories"): ["{one} that burned the fewest calories"],
    ("max", "avg_hr"): ["{one} with the highest heart rate"],
    ("min", "avg_hr"): ["{one} with the lowest heart rate"],
    ("max", "amount"): [
        "biggest purchase",
        "most expensive purchase",
        "largest expense",
    ],
    ("min", "amount"): ["smallest purchase", "cheapest purchase", "smallest expense"],
    ("max", "score"): ["highest score", "best score"],
    ("min", "score"): ["lowest score", "worst score"],
    ("max", "steps"): ["most steps", "highest step count"],
    ("min", "steps"): ["fewest steps", "lowest step count"],
    ("max", "time_in_range"): ["best time in range", "highest tir"],
    ("min", "time_in_range"): ["worst time in range", "lowest tir"],
    ("max", "avg_glucose"): ["highest average glucose", "highest avg glucose"],
    ("min", "avg_glucose"): ["lowest average glucose", "lowest avg glucose"],
    ("max", "active_minutes"): ["most active minutes"],
    ("min", "active_minutes"): ["fewest active minutes"],
}
ARG_DATE = [
    "which day did i have the {sup}{s}{w}?",
    "when was my {sup}{s}{w}?",
    "what date was my {sup}{s}{w}?",
    "on which day did i get the {sup}{s}{w}",
    "which date had the {sup}{s}{w}?",
    "day with the {sup}{s}{w}?",
]
ARG_DATE_SPECIAL: dict[tuple[str, str], list[str]] = {
    ("max", "total_sleep"): [
        "which night did i sleep the most{w}?",
        "when did i sleep the longest{w}?",
    ],
    ("min", "total_sleep"): [
        "which night did i sleep the least{w}?",
        "when did i get the least sleep{w}?",
    ],
    ("max", "steps"): ["which day did i walk the most{w}?"],
    ("min", "steps"): ["which day did i walk the least{w}?"],
    ("max", "amount"): ["what day did i spend the most in a single purchase{s}{w}?"],
    ("max", "distance"): ["which day did i {verbfar} the farthest{w}?"],
}
ARG_COLUMN: dict[tuple[str, str, str], list[str]] = {
    ("max", "amount", "merchant"): [
        "which merchant had my biggest single purchase{s}{w}?",
        "where did i make my biggest purchase{s}{w}?",
        "at what shop did i make my most expensive purchase{s}{w}?",
        "which store was my largest single expense{s}{w}?",
        "where did i spend the most in a single purchase{s}{w}?",
    ],
    ("min", "amount", "merchant"): [
        "where did i make my smallest purchase{s}{w}?",
        "which merchant had my cheapest purchase{s}{w}?",
        "at which shop did i make my smallest single purchase{s}{w}?",
    ],
    ("max", "amount", "category"): [
        "what category was my biggest expense{s}{w}?",
        "which category had the single most expensive purchase{s}{w}?",
        "my largest purchase{s}{w} was in which category?",
    ],
    ("min", "amount", "category"): [
        "what category was my smallest expense{s}{w}?",
        "which category did my cheapest single purchase{s}{w} belong to?",
    ],
    ("max", "distance", "activity"): [
        "which activity was my longest workout by distance{w}?",
        "what kind of workout was my farthest one{w}?",
    ],
    ("min", "distance", "activity"): [
        "which activity was my shortest workout by distance{w}?",
    ],
    ("max", "duration", "activity"): [
        "which activity was my longest workout time-wise{w}?",
        "what type of workout took the longest{w}?",
    ],
    ("min", "duration", "activity"): [
        "what type of workout was my shortest one time-wise{w}?",
        "which activity was my shortest workout by time{w}?",
    ],
    ("max", "calories", "activity"): [
        "what kind of workout burned the most calories in a single session{w}?",
        "which activity was my biggest calorie burn in one workout{w}?",
    ],
    ("min", "calories", "activity"): [
        "which workout type burned the fewest calories in one session{w}?",
    ],
    ("max", "avg_hr", "activity"): [
        "which activity had my highest workout heart rate{w}?",
    ],
    ("max", "score", "game"): [
        "in which game did i get my highest score{w}?",
        "in what game did i score the most points in a single game{w}?",
        "what game had my best score{w}?",
    ],
    ("min", "score", "game"): [
        "in which game did i get my lowest score{w}?",
        "what game had my worst score{w}?",
    ],
}


def _value_texts(attr: str, x: Any) -> list[str]:
    """A threshold as people write it (independent of the history's units)."""
    if attr in ("total_sleep", "deep_sleep"):
        return [f"{x:g} hours", f"{x:g} hrs", f"{x:g}h", f"{x:g} h"]
    if attr in ("resting_hr", "avg_hr"):
        return [f"{x} bpm", f"{x}"]
    if attr == "distance":
        return [f"{x} km", f"{x}km", f"{x} kilometers"]
    if attr in ("duration", "active_minutes"):
        return (
            [f"{x} minutes", f"{x} min", f"{x} mins"]
            + (["an hour"] if x == 60 else [])
            + (["half an hour"] if x == 30 else [])
        )
    if attr == "calories":
        return [f"{x} calories", f"{x} kcal", f"{x} cals"]
    if attr == "amount":
        return [f"${x}", f"{x} dollars", f"${x}.00", f"{x} bucks"]
    if attr == "score":
        return [f"{x} points", f"{x}"]
    if attr == "steps":
        return [f"{x:,}", f"{x}"] + ([f"{x // 1000}k"] if x % 1000 == 0 else [])
    if attr == "time_in_range":
        return [f"{x}%", f"{x} percent"]
    if attr == "avg_glucose":
        return [f"{x} mg/dL", f"{x}"]
    return [str(x)]


OP_TEXTS: dict[str, list[str]] = {
    ">": ["more than {x}", "over {x}", "above {x}"],
    ">=": ["{x} or more", "at least {x}", "{x} or above"],
    "<": ["under {x}", "less than {x}", "below {x}"],
    "<=": ["{x} or less", "at most {x}", "no more than {x}"],
}
LENGTHS = frozenset({"total_sleep", "deep_sleep", "distance", "duration"})


def _filter_value(attr: str, x: Any) -> Any:
    """A filter value for ``attr``, with its unit where the attribute has one."""
    unit = UNITS.get(attr)
    if unit == "USD":
        return f"${x:.2f}" if isinstance(x, float) else f"${x}"
    if unit:
        return f"{x} {unit}"
    return x


def _exact(attr: str, x: Any) -> Any:
    return round(x, DECIMALS[attr]) if attr in DECIMALS else x


def _ordinal(n: int) -> str:
    if 11 <= n % 100 <= 13:
        return f"{n}th"
    return f"{n}{({1: 'st', 2: 'nd', 3: 'rd'}).get(n % 10, 'th')}"


@dataclass(frozen=True)
class _Span:
    """An inclusive range of dates, its wording and the day it is asked on."""

    lo: date
    hi: date
    text: str
    now: date

    def holds(self, rec: Record) -> bool:
        return self.lo <= rec.time.date() <= self.hi

    def filter(self) -> dict[str, Any]:
        return {
            "column": "time",
            "op": "between",
            "value": [self.lo.isoformat(), self.hi.isoformat()],
        }


@dataclass
class _Scope:
    """Text conditions on records and the words that go with them."""

    eq: list[tuple[str, Any]] = field(default_factory=list)
    words: dict[str, str] = field(default_factory=dict)


class _Writer:
    """Seeded choices of wording, dates and conditions."""

    def __init__(self, rng: random.Random, start: date, end: date) -> None:
        self.rng, self.start, self.end = rng, start, end

    def pick(self, options: list[Any]) -> Any:
        return self.rng.choice(options)

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def name(self, text: str) -> str:
        """A proper name as typed: as written, or all lowercase."""
        return text.lower() if self.chance(0.35) else text

    def month(self, m: int) -> str:
        return self.name(self.pick([MONTHS[m - 1]] * 3 + [MONTHS[m - 1][:3]]))

    def day_style(self) -> str:
        return self.pick(["iso", "md", "mon", "mdo", "om"])

    def day(self, d: date, style: str) -> str:
        month = self.month(d.month)
        return {
            "iso": d.isoformat(),
            "md": f"{month} {d.day}",
            "mon": f"{month[:3]} {d.day}",
            "mdo": f"{month} {_ordinal(d.day)}",
            "om": f"the {_ordinal(d.day)} of {month}",
        }[style]

    def _now(self, min_days: int) -> date | None:
        first = self.start + timedelta(days=min_days)
        if first > self.end:
            return None
        return first + timedelta(days=self.rng.randint(0, (self.end - first).days))

    def span(self, allow_yesterday: bool = True) -> _Span | None:
        """A date phrase and its range, or None when the history is too short."""
        kinds = ["month", "range", "last_week", "this_week", "this_month"]
        kinds += ["last_month", "since", "last_n", "yesterday"]
        weights = [3, 3, 3, 1, 2, 1, 2, 3, 1 if allow_yesterday else 0]
        which = self.rng.choices(kinds, weights)[0]
        start, end = self.start, self.end
        if which == "month":
            months = sorted(
                {
                    (start + timedelta(days=i)).replace(day=1)
                    for i in range((end - start).days + 1)
                }
            )
            first = self.pick(months)
            last = (first + timedelta(days=32)).replace(day=1) - timedelta(days=1)
            m = self.month(first.month)
            text = self.pick(
                [
                    f"in {m}",
                    f"in {m} {first.year}",
                    f"during {m}",
                    f"for {m}",
                    f"in {m}",
                ]
            )
            return _Span(first, min(last, end), text, end)
        if which == "range":
            total = (end - start).days
            if total < 4:
                return None
            lo = start + timedelta(days=self.rng.randint(0, total - 3))
            hi = min(lo + timedelta(days=self.rng.randint(2, 20)), end)
            style = self.day_style()
            a, b = self.day(lo, style), self.day(hi, style)
            texts = [
                f"from {a} to {b}",
                f"between {a} and {b}",
                f"{a} to {b}",
                f"from {a} through {b}",
            ]
            if lo.month == hi.month and style in ("md", "mon"):
                texts.append(f"{a}-{hi.day}")
                texts.append(f"from {a} to {hi.day}")
            return _Span(lo, hi, self.pick(texts), end)
        if which == "last_n":
            n = self.pick([7, 7, 10, 14, 14, 30])
            now = self._now(n - 1)
            if now is None:
                return None
            texts = {
                7: [
                    "in the last 7 days",
                    "over the past 7 days",
                    "past 7 days",
                    "in the past week",
                    "last 7 days",
                ],
                10: ["in the last 10 days", "past 10 days"],
                14: [
                    "past two weeks",
                    "in the last 2 weeks",
                    "over the last 14 days",
                    "in the past 14 days",
                    "in the last two weeks",
                ],
                30: ["in the last 30 days", "over the past 30 days", "past 30 days"],
            }[n]
            return _Span(now - timedelta(days=n - 1), now, self.pick(texts), now)
        if which == "yesterday":
            now = self._now(1)
            if now is None:
                return None
            day = now - timedelta(days=1)
            return _Span(day, day, "yesterday", now)
        if which == "since":
            now = self._now(8)
            if now is None:
                return None
            lo = start + timedelta(days=self.rng.randint(0, (now - start).days - 3))
            texts = [f"since {self.day(lo, self.pick(['iso', 'md', 'mon', 'mdo']))}"]
            if lo.month == now.month:
                texts += [f"since the {_ordinal(lo.day)}"] * 2
            return _Span(lo, now, self.pick(texts), now)
        now = self._now(2)
        if now is None:
            return None
        monday = now - timedelta(days=now.weekday())
        if which == "last_week":
            lo, hi = monday - timedelta(days=7), monday - timedelta(days=1)
            text = self.pick(["last week", "during last week", "last week"])
        elif which == "this_week":
            if now.weekday() < 2:
                return None
            lo, hi = monday, now
            text = self.pick(["this week", "so far this week", "this week so far"])
        elif which == "this_month":
            if now.day < 5:
                return None
            lo, hi = now.replace(day=1), now
            text = self.pick(["this month", "so far this month", "this month so far"])
        else:  # last_month
            hi = now.replace(day=1) - timedelta(days=1)
            lo = hi.replace(day=1)
            text = self.pick(["last month", "during last month"])
        if lo < start:
            return None
        return _Span(lo, hi, text, now)

    def scope(self, kind: str, mode: str | None) -> _Scope:
        """Text conditions of ``mode`` for ``kind`` and their wording."""
        words: dict[str, str] = {"s": ""}
        eq: list[tuple[str, Any]] = []
        if kind == "workout":
            act = self.pick(["run", "ride", "swim"]) if mode == "activity" else None
            if act:
                eq.append(("activity", act))
            ride = self.pick(
                [("ride", "rode", "riding"), ("cycle", "cycled", "cycling")]
            )
            verb, verbed, verbing = {
                "run": ("run", "ran", "running"),
                "ride": ride,
                "swim": ("swim", "swam", "swimming"),
                None: ("work out", "went", self.pick(["working out", "training"])),
            }[act]
            words.update(
                subj={
                    "run": "runs",
                    "ride": self.pick(["rides", "bike rides"]),
                    "swim": "swims",
                    None: self.pick(["workouts", "sessions", "training sessions"]),
                }[act],
                one={"run": "run", "ride": "ride", "swim": "swim", None: "workout"}[
                    act
                ],
                verb=verb,
                verbed=verbed,
                verbing=verbing,
                verbfar=verb if act else "go",
                verbkm=verb if act else self.pick(["do", "cover"]),
            )
            if act:
                words["s"] = self.pick(
                    [" on my {subj}", " for my {subj}", " for {subj}", " in my {subj}"]
                ).format(**words)
        elif kind == "expense" and mode in ("category", "merchant"):
            if mode == "category":
                cat = self.pick(["food", "transport", "books", "coffee"])
                eq.append(("category", cat))
                words["s"] = self.pick([f" on {cat}", f" for {cat}"])
            else:
                merchant = self.pick(
                    ["Cafe Luna", "CityRail", "Paper Lane", "Green Grocer"]
                )
                eq.append(("merchant", merchant))
                words["s"] = f" at {self.name(merchant)}"
        elif kind == "cards" and mode in ("game", "won"):
            if mode == "game":
                game = self.pick(["Catan", "Dominion", "Hearts"])
                eq.append(("game", game))
                g = self.name(game)
                words.update(
                    g=g, s=self.pick([f" in {g}", f" at {g}", f" playing {g}"])
                )
            else:
                eq.append(("won", True))
                words["s"] = self.pick(
                    [" in games i won", " in my wins", " in the games i won"]
                )
        return _Scope(eq, words)

    def condition(self, attr: str) -> tuple[tuple[str, str, Any], str]:
        """A value condition (attr, op, threshold) and its wording."""
        op = self.rng.choices([">", ">=", "<", "<="], [3, 3, 2, 1])[0]
        x = self.pick(THRESHOLDS[attr])
        value = self.pick(_value_texts(attr, x))
        texts = list(OP_TEXTS[op])
        if op == ">" and attr in LENGTHS:
            texts.append("longer than {x}")
        if op == "<" and attr in LENGTHS:
            texts.append("shorter than {x}")
        if op == "<" and attr == "steps":
            texts.append("fewer than {x}")
        if op == ">=" and " " not in value:
            texts.append("{x}+")
        return (attr, op, x), self.pick(texts).format(x=value)

    def say(self, templates: list[str], span: _Span | None, **slots: str) -> str:
        """Fill a template and type it the way people do."""
        when = f" {span.text}" if span else ""
        template = self.pick(templates)
        front = span is not None and "{w}" in template and self.chance(0.15)
        text = template.format(w="" if front else when, **slots)
        if front:
            assert span is not None
            text = f"{span.text}, {text}"
        text = re.sub(r"\s+", " ", text).strip().rstrip("?")
        if self.chance(0.45):
            text = text[0].upper() + text[1:]
            if self.chance(0.85):
                text = re.sub(r"\bi\b", "I", text)
        return text + "?" if self.chance(0.6) else text


@dataclass
class _Plan:
    """One slot of the question plan."""

    form: str
    targets: list[tuple[str, str | None]]
    span: float = 0.0
    modes: list[str | None] = field(default_factory=lambda: [None])
    column: str | None = None


def _plan() -> list[_Plan]:
    sleep_attrs = ["total_sleep", "deep_sleep", "resting_hr", "sleep_score"]
    sleeps = [("sleep", a) for a in sleep_attrs]
    workouts = [("workout", a) for a in ("distance", "duration", "calories")]
    glucose = [("glucose", "time_in_range"), ("glucose", "avg_glucose")]
    steps = [("steps", "steps"), ("steps", "active_minutes")]
    act = ["activity", "activity", None]
    spend = ["category", "merchant", None]
    return [
        _Plan("avg", [("sleep", "total_sleep")], 0.9),
        _Plan("avg", sleeps[1:] + glucose, 0.5),
        _Plan("avg", workouts, 0.5, act),
        _Plan("avg", [("expense", "amount")], 0.5, spend),
        _Plan("avg", steps + [("cards", "score")], 0.6, ["game", "won", None]),
        _Plan("sum", [("expense", "amount")], 0.8, ["category", "merchant"]),
        _Plan("sum", [("expense", "amount")], 1.0),
        _Plan("sum", [("workout", "distance")], 0.7, act),
        _Plan("sum", [("workout", "calories"), ("workout", "duration")], 0.7, act),
        _Plan(
            "sum", steps + [("sleep", "total_sleep"), ("cards", "score")], 0.9, ["game"]
        ),
        _Plan("count_cond", workouts, 0.5, act),
        _Plan("count_cond", sleeps, 0.5),
        _Plan("count_cond", [("expense", "amount")], 0.5, spend),
        _Plan("count_cond", glucose + steps[:1], 0.5),
        _Plan("count_cards", [("cards", None)], 0.6),
        _Plan("count_plain", [("workout", None), ("expense", None)], 0.8, act + spend),
        _Plan("minmax", sleeps, 0.4),
        _Plan("minmax", workouts + [("workout", "avg_hr")], 0.4, act),
        _Plan("minmax", [("expense", "amount")], 0.4, spend),
        _Plan(
            "minmax", [("cards", "score")] + glucose + steps, 0.4, ["game", "won", None]
        ),
        _Plan("argdate", sleeps, 0.4),
        _Plan("argdate", workouts, 0.4, act),
        _Plan("argdate", [("expense", "amount")], 0.4, spend),
        _Plan("argdate", glucose + steps, 0.4),
        _Plan("argcol", [("expense", "amount")], 0.3, column="spend"),
        _Plan("argcol", workouts + [("workout", "avg_hr")], 0.3, column="activity"),
        _Plan("argcol", [("cards", "score")], 0.3, column="game"),
        _Plan("latest", sleeps + glucose, 0.2),
        _Plan(
            "latest",
            [("workout", "distance"), ("workout", "duration"), ("expense", "amount")]
            + [("cards", "score")],
            0.0,
            ["activity", "merchant", "category", "game"],
        ),
        _Plan("first", sleeps + glucose + steps, 0.3),
        _Plan(
            "first",
            [("workout", "distance"), ("expense", "amount"), ("cards", "score")],
            0.4,
            ["activity", "merchant", "category", "game", None],
        ),
        _Plan("change", sleeps + glucose + steps, 0.0),
        _Plan("change", sleeps + glucose, 1.0),
        _Plan("change_dates", sleeps, 0.0),
        _Plan("change_dates", sleeps + glucose + steps, 0.0),
        _Plan("median", sleeps + glucose, 0.4),
        _Plan(
            "median",
            [("expense", "amount"), ("workout", "duration"), ("workout", "distance")],
            0.3,
            ["activity", "category", "merchant", None],
        ),
        _Plan(
            "count_cond",
            [("workout", "distance"), ("expense", "amount")],
            1.0,
            act + spend,
        ),
    ]


_Gold = tuple[
    str, str, Any, list[Record], set[str], str, dict[str, Any], dict[str, Any] | None
]


def _draw(
    w: _Writer, plan: _Plan, records: dict[str, list[Record]]
) -> tuple[_Gold, date] | None:
    """One try at a question for a plan slot; None when it does not fit."""
    kind, attr = w.pick(plan.targets)
    mode = w.pick(plan.modes)
    if plan.form == "argcol" and plan.column == "spend":
        column = w.pick(["merchant", "category"])
        mode = w.pick([None, "category" if column == "merchant" else "merchant"])
    else:
        column = plan.column
    if kind in ("sleep", "glucose", "steps"):
        mode = None
    elif kind == "workout" and mode not in ("activity", None):
        mode = None
    elif kind == "expense" and mode not in ("category", "merchant", None):
        mode = None
    elif kind == "cards" and mode not in ("game", "won", None):
        mode = None
    scope = w.scope(kind, mode)
    # "yesterday" holds one record of a kind: asked only as a total or a count.
    one_day = kind != "sleep" and plan.form in ("sum", "count_cond", "count_plain")
    span = w.span(allow_yesterday=one_day) if w.chance(plan.span) else None
    if plan.span and span is None and plan.span >= 1.0:
        return None
    now = span.now if span else w.end
    rows = [
        r
        for r in records[kind]
        if (span is None or span.holds(r))
        and all(r.values.get(a) == v for a, v in scope.eq)
        and r.time.date() <= now
    ]
    filters = [{"column": a, "value": v} for a, v in scope.eq]
    attrs = {a for a, _ in scope.eq}
    form, slots = plan.form, dict(scope.words)
    tail = [span.filter()] if span else []

    if form in ("count_cond", "count_plain", "count_cards"):
        if form == "count_cards":
            variant = w.pick(["game", "won", "won_game", "lost", "lost_game"])
            game = w.pick(["Catan", "Dominion", "Hearts"])
            eq: list[tuple[str, Any]] = []
            if "game" in variant:
                eq.append(("game", game))
            if variant.startswith("won"):
                eq.append(("won", True))
            if variant.startswith("lost"):
                eq.append(("won", False))
            rows = [r for r in rows if all(r.values.get(a) == v for a, v in eq)]
            filters = [{"column": a, "value": v} for a, v in eq]
            attrs = {a for a, _ in eq}
            templates = COUNT_PLAIN[variant]
            slots["g"] = w.name(game)
            target = "game"
        elif form == "count_plain":
            templates = COUNT_PLAIN[kind]
            target = KEY_ATTRIBUTE[kind]
        else:
            assert attr is not None
            (cattr, op, x), ctext = w.condition(attr)
            rows = [
                r for r in rows if cattr in r.values and OPS[op](r.values[cattr], x)
            ]
            filters.append(
                {"column": cattr, "op": op, "value": _filter_value(cattr, x)}
            )
            templates = COUNT_COND[attr]
            slots["c"] = ctext
            if attr == "steps" and op == ">=" and w.chance(0.4):
                templates = ["how many days did i hit {x} steps{w}?"]
                slots["x"] = w.pick(_value_texts("steps", x))
            target = attr
        attrs.add(target)
        if span is None and form == "count_cards" and not rows:
            return None
        args = {
            "operator": "count",
            "target_column_expression": target,
            "optional_column_filters": filters + tail,
        }
        text = w.say(templates, span, **slots)
        return (
            text,
            "analytic.count",
            len(rows),
            rows,
            attrs,
            "compute",
            args,
            None,
        ), now

    assert attr is not None
    rows = [r for r in rows if attr in r.values]
    attrs.add(attr)
    filters += tail
    if not rows:
        return None
    vals = [r.values[attr] for r in rows]

    def noun(key: str = "") -> str:
        names = NOUNS[attr]
        if kind == "workout" and not scope.eq:  # "workout distance", not "distance"
            names = [n for n in names if "workout" in n] or names
        if key in ("avg", "sum"):  # not "average average glucose", "total total"
            clash = "av" if key == "avg" else "total"
            names = [n for n in names if not n.startswith(clash)] or names
        return w.pick(names)

    slots["m"] = noun()
    args: dict[str, Any] = {"target_column_expression": attr}
    if filters:
        args["optional_column_filters"] = filters
    extra = None

    def phrase(key: str, generic: bool = True) -> str:
        special = SPECIAL.get(key, {}).get(attr, [])
        if special and (not generic or w.chance(0.6)):
            return w.say(special, span, **slots)
        slots["m"] = noun(key)
        return w.say(GENERIC[key], span, **slots)

    if form in ("avg", "sum", "median"):
        value: Any = {
            "avg": lambda: sum(vals) / len(vals),
            "sum": lambda: _exact(attr, sum(vals)),
            "median": lambda: float(statistics.median(vals)),
        }[form]()
        args = {"operator": form} | args
        # "total sleep" names the nightly value: its sum is asked explicitly.
        text = phrase(form, generic=(form, attr) != ("sum", "total_sleep"))
        gold = (text, f"analytic.{form}", value, rows, attrs, "compute", args)
        return (*gold, None), now
    if form == "minmax":
        which = "max" if w.chance(0.6) else "min"
        best = max(vals) if which == "max" else min(vals)
        win = [r for r in rows if r.values[attr] == best]
        args = {"operator": which} | args
        text = phrase(which, generic=attr not in ("calories", "avg_hr"))
        return (text, f"analytic.{which}", best, win, attrs, "compute", args, None), now
    if form in ("argdate", "argcol"):
        which = "max" if w.chance(0.65) else "min"
        best = max(vals) if which == "max" else min(vals)
        win = next(r for r in rows if r.values[attr] == best)
        rank = {
            "target_column_expression": attr,
            "order": "desc" if which == "max" else "asc",
            **({"optional_column_filters": filters} if filters else {}),
            "result_budget": 1,
        }
        if form == "argdate":
            sups = SUPERLATIVES[(which, attr)]
            slots["sup"] = w.pick(sups).format(**slots)
            if kind == "workout":
                slots["s"] = ""
            special = ARG_DATE_SPECIAL.get((which, attr), [])
            templates = special if special and w.chance(0.4) else ARG_DATE
            text = w.say(templates, span, **slots)
            value = win.time.date().isoformat()
            return (
                text,
                f"analytic.arg{which}_date",
                value,
                [win],
                attrs,
                "rank",
                rank,
                None,
            ), now
        assert column is not None
        templates = ARG_COLUMN.get((which, attr, column))
        if templates is None:
            return None
        attrs.add(column)
        args = {
            "operator": "first",
            "target_column_expression": column,
            "optional_column_filters": filters
            + [{"column": attr, "op": "=", "value": _filter_value(attr, best)}],
        }
        extra = {"intent": {"tool": "rank", "args": rank, "column": column}}
        text = w.say(templates, span, **slots)
        value = win.values[column]
        return (
            text,
            f"analytic.arg{which}_column",
            value,
            [win],
            attrs,
            "compute",
            args,
            extra,
        ), now
    if form in ("latest", "first"):
        row = rows[-1] if form == "latest" else rows[0]
        args = {"operator": form} | args
        key = "latest_span" if form == "latest" and span else form
        text = phrase(key, generic=kind in ("sleep", "glucose", "steps", "cards"))
        return (
            text,
            f"analytic.{form}",
            row.values[attr],
            [row],
            attrs,
            "compute",
            args,
            None,
        ), now
    if form == "change":
        if len(rows) < 2:
            return None
        value = _exact(attr, rows[-1].values[attr] - rows[0].values[attr])
        args = {"operator": "change"} | args
        text = phrase("change_span" if span else "change", generic=True)
        return (
            text,
            "analytic.change",
            value,
            [rows[0], rows[-1]],
            attrs,
            "compute",
            args,
            None,
        ), now
    if form == "change_dates":
        if len(rows) < 4:
            return None
        i, j = sorted(w.rng.sample(range(len(rows)), 2))
        a, b = rows[i], rows[j]
        if (b.time.date() - a.time.date()).days < 3:
            return None
        style = w.day_style()
        slots.update(a=w.day(a.time.date(), style), b=w.day(b.time.date(), style))
        slots["m"] = noun()
        text = w.say(GENERIC["change_dates"], None, **slots)
        value = _exact(attr, b.values[attr] - a.values[attr])
        args = {
            "operator": "change",
            "target_column_expression": attr,
            "optional_column_filters": [
                {
                    "column": "time",
                    "op": "between",
                    "value": [a.time.date().isoformat(), b.time.date().isoformat()],
                }
            ],
        }
        return (
            text,
            "analytic.change",
            value,
            [a, b],
            attrs,
            "compute",
            args,
            None,
        ), now
    raise ValueError(form)


def _questions(
    records: dict[str, list[Record]], start: date, end: date, rng: random.Random
) -> list[dict[str, Any]]:
    """Analytic questions whose answers are computed from the records.

    The fixed questions first, then one question per plan slot that the records
    can answer (a slot is redrawn up to eight times, then skipped).
    """
    qs = _legacy_questions(records, start, end)
    seen = {
        json.dumps([q["type"], q["gold"]["args"]], sort_keys=True, default=str)
        for q in qs
    }
    w = _Writer(rng, start, end)
    for plan in _plan():
        for _ in range(8):
            drawn = _draw(w, plan, records)
            if drawn is None:
                continue
            (text, qtype, value, evidence, attrs, tool, args, extra), now = drawn
            key = json.dumps([qtype, args], sort_keys=True, default=str)
            if key in seen:
                continue
            seen.add(key)
            qs.append(
                _question(
                    f"q{len(qs) + 1}",
                    text,
                    qtype,
                    value,
                    evidence,
                    attrs,
                    tool,
                    args,
                    now=now,
                    extra=extra,
                )
            )
            break
    return qs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="output folder")
    parser.add_argument("--days", type=int, default=60)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--phrasing-seed",
        type=int,
        default=None,
        help="seed of the questions' choice and wording (default: from --seed)",
    )
    parser.add_argument(
        "--images", action="store_true", help="render dashboard PNGs (Pillow)"
    )
    parser.add_argument(
        "--style",
        choices=["classic", "everyday"],
        default="classic",
        help="classic: this generator; everyday: tools/datasets/everyday_history.py "
        "(writes history.json and checks.jsonl)",
    )
    args = parser.parse_args()
    if args.style == "everyday":
        if args.images:
            parser.error("--images needs --style classic")
        try:
            from tools.datasets.everyday_history import main as everyday_main
        except ImportError:  # run as a script: its folder is on sys.path
            from everyday_history import main as everyday_main  # type: ignore
        everyday_main(
            ["--out", args.out, "--days", str(args.days), "--seed", str(args.seed)]
        )
        return
    out = Path(args.out)
    data = generate(
        args.seed,
        args.days,
        image_dir=out / "images" if args.images else None,
        phrasing_seed=args.phrasing_seed,
    )
    hist, qs = data.write(out)
    n = sum(len(s["rounds"]) for s in data.history["sessions"])
    print(f"wrote {hist} ({n} rounds) and {qs} ({len(data.questions)} questions)")


if __name__ == "__main__":
    main()
