"""Seeded synthetic histories of recurring records, with exact analytic questions.

Recurring observations (sleep dashboards, workouts, card-game play logs,
expenses) arrive in varied phrasings - colon lists, ``key=value``, JSON, pipe
tables, dashboard images with captions or with OCR text only, mixed units - and
are interleaved with unrelated chat. Every question's answer is computed from
the generated records themselves, never from the library under test.

    python tools/synthetic_history.py --out out/synth --days 60 --seed 7
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

EXPECTED_SCHEMAS: dict[str, frozenset[str]] = {
    "sleep": frozenset({"total_sleep", "deep_sleep", "resting_hr", "sleep_score"}),
    "workout": frozenset({"activity", "distance", "duration", "avg_hr", "calories"}),
    "cards": frozenset({"game", "score", "won", "opponents"}),
    "expense": frozenset({"category", "amount", "merchant"}),
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
}
"""The unit of each gold value (a table may hold the column in another unit)."""

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


KINDS: dict[str, tuple[float, Callable[[random.Random, int], dict[str, Any]]]] = {
    "sleep": (0.9, _sleep),
    "workout": (0.5, _workout),
    "cards": (0.35, _cards),
    "expense": (0.8, _expense),
}


def generate(
    seed: int = 7,
    days: int = 60,
    start: date = date(2026, 3, 1),
    image_dir: str | Path | None = None,
    user_id: str = "synth",
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
    """
    rng = random.Random(seed)
    img_dir = Path(image_dir) if image_dir is not None else None
    sessions = []
    records: dict[str, list[Record]] = {k: [] for k in KINDS}
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
        sessions.append({"session_id": sid, "date": day.isoformat(), "rounds": rounds})
    history = {"user_id": user_id, "sessions": sessions}
    end = start + timedelta(days=days - 1)
    questions = _questions(records, start, end)
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
        "question_time": f"{now.isoformat()}T21:00:00",
        "gold": {
            "attributes": sorted(attributes),
            "tool": tool,
            "args": args,
            "value": value,
            "unit": unit,
        },
    }


def _questions(
    records: dict[str, list[Record]], start: date, end: date
) -> list[dict[str, Any]]:
    """Analytic questions whose answers are computed from the records.

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
                "analytic.argmax",
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="output folder")
    parser.add_argument("--days", type=int, default=60)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--images", action="store_true", help="render dashboard PNGs (Pillow)"
    )
    args = parser.parse_args()
    out = Path(args.out)
    data = generate(
        args.seed, args.days, image_dir=out / "images" if args.images else None
    )
    hist, qs = data.write(out)
    n = sum(len(s["rounds"]) for s in data.history["sessions"])
    print(f"wrote {hist} ({n} rounds) and {qs} ({len(data.questions)} questions)")


if __name__ == "__main__":
    main()
