"""Seeded histories of everyday records written the way people and apps write them.

Eight kinds of recurring record (sleep, steps, weight, expense, glucose, run,
meditation, game) are logged over ``days`` daily sessions, each record rendered
in a form drawn at random: dashboards with headings glued to the first label,
list markers, ``key=value`` runs, JSON objects and arrays, markdown pipe tables,
receipts, chat shorthand ("total sleep 7h 05m, deep sleep 1h12 😴"), parenthesised
annotations, tracker exports (CSV/TSV), as user text, image captions, image OCR
text or an assistant's read-back. Numbers come in the history's locale (USD, or
EUR with decimal commas and ``.``/space thousands separators), durations in
every common form (``7.2 h``, ``408 min``, ``7h 05m``, ``1:12``, ``42:17``,
``PT1H12M``), steps with ``k`` suffixes, weights sometimes in lb, distances
sometimes in mi. A few values (at most 13% of a unit-bearing column) are bare
numbers whose unit a reader infers from the rest. Unrelated chat is interleaved,
and 1-3 sessions in the middle of the history have no date and no time.

    python tools/datasets/everyday_history.py --out out/everyday --days 60 --seed 0
    python tools/datasets/synthetic_history.py --style everyday --out out/everyday

Checks
------
``checks.jsonl`` holds exact analytic checks, each computed from the generated
records alone (never from the library)::

    {"check_id": "c001", "kind": "sleep", "table_attributes": [...],
     "operator": "avg", "target": "total_sleep", "filters": [...],
     "answer_column": null, "value": 7.1, "unit": "h", "rel_tol": 1e-09,
     "description": "average total sleep in h"}

Semantics. Rows are the records of ``kind`` passing every filter. A filter on a
value column compares the record's value with ``value`` given in the filter's
``unit`` (``=`` for text and booleans); a filter on ``time`` keeps dated records
whose date is in the range (``between`` two ISO dates, both whole days
inclusive; ``>=``/``<`` against one date), and undated records whose dated
neighbours in the history (the rounds just before and after the undated
session) are both in it - as the memory places them
(``langgraph_adamm/analytic/placement.py``). ``count`` is the number of rows
(an int, ``target`` null); ``sum``, ``avg``, ``min``, ``max`` and ``median`` (the
mean of the two middle values for an even count) are over ``target`` in
``unit``; ``first``/``latest`` are the value of the earliest/latest row in time
order, an undated row in its place in the history (after the dated round before
it), and ``change`` is latest minus first;
``argmax_text``/``argmin_text`` give ``answer_column`` of the row with the
largest/smallest ``target`` (only asked when that row is unique). Values are not
rounded: compare with ``rel_tol``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

KIND_ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "sleep": ("total_sleep", "deep_sleep", "sleep_score"),
    "steps": ("steps", "active_minutes"),
    "weight": ("weight", "body_fat"),
    "expense": ("amount", "merchant", "category"),
    "glucose": ("fasting_glucose", "time_in_range"),
    "run": ("distance", "duration", "avg_hr"),
    "meditation": ("duration", "mood"),
    "game": ("game", "score", "won"),
}
"""The attribute set of each kind (names as ``normalize_attribute`` gives them)."""

CANONICAL_UNITS: dict[str, str | None] = {
    "total_sleep": "h",
    "deep_sleep": "h",
    "sleep_score": None,
    "steps": None,
    "active_minutes": "min",
    "weight": "kg",
    "body_fat": "%",
    "amount": None,  # the history's currency: EverydayData.currency
    "merchant": None,
    "category": None,
    "fasting_glucose": "mmol/L",
    "time_in_range": "%",
    "distance": "km",
    "duration": "min",
    "avg_hr": "bpm",
    "mood": None,
    "game": None,
    "score": None,
    "won": None,
}
"""The unit of each attribute's values in ``records`` (amount: the currency)."""

BASE_LABELS: dict[str, str] = {
    "total_sleep": "Total sleep",
    "deep_sleep": "Deep sleep",
    "sleep_score": "Sleep score",
    "steps": "Steps",
    "active_minutes": "Active minutes",
    "weight": "Weight",
    "body_fat": "Body fat",
    "amount": "Amount",
    "merchant": "Merchant",
    "category": "Category",
    "fasting_glucose": "Fasting glucose",
    "time_in_range": "Time in range",
    "distance": "Distance",
    "duration": "Duration",
    "avg_hr": "Avg HR",
    "mood": "Mood",
    "game": "Game",
    "score": "Score",
    "won": "Won",
}
EXTRA_LABELS: dict[str, list[str]] = {
    "avg_hr": ["Avg. HR", "avg hr"],
    "won": ["Won?"],
    "time_in_range": ["Time in range (70-180)", "Time In Range"],
}
LABEL_STYLES = ("plain", "title", "lower", "snake", "camel", "pascal", "upper")

FORMS = (
    "dashboard",
    "list",
    "key_value",
    "json",
    "table",
    "receipt",
    "chat",
    "annotation",
    "tracker_export",
)
"""The families a record may be written in (``EverydayRecord.form``)."""

UNIT_BEARING = frozenset(
    {
        "total_sleep",
        "deep_sleep",
        "weight",
        "body_fat",
        "amount",
        "fasting_glucose",
        "time_in_range",
        "distance",
        "duration",
        "avg_hr",
        "active_minutes",
    }
)
MAX_BARE_SHARE = 0.13
"""The most a unit-bearing column of one kind may hold of bare numbers."""

LB_KG = 0.45359237
MI_KM = 1.609344
_FACTORS: dict[str, tuple[str, float]] = {
    "s": ("time", 1 / 60),
    "min": ("time", 1.0),
    "h": ("time", 60.0),
    "d": ("time", 1440.0),
    "g": ("mass", 0.001),
    "kg": ("mass", 1.0),
    "lb": ("mass", LB_KG),
    "m": ("length", 0.001),
    "km": ("length", 1.0),
    "mi": ("length", MI_KM),
}

MERCHANTS: dict[str, list[str]] = {
    "Cafe Luna": ["coffee"],
    "Green Grocer": ["groceries"],
    "CityRail": ["transport"],
    "Paper Lane": ["books"],
    "Trattoria Roma": ["dining"],
    "Corner Deli": ["lunch", "groceries"],
    "Bloom & Co": ["gifts"],
}
AMOUNTS: dict[str, tuple[float, float]] = {
    "coffee": (2.4, 9.5),
    "groceries": (6.0, 118.0),
    "transport": (1.8, 42.0),
    "books": (7.5, 46.0),
    "dining": (16.0, 96.0),
    "lunch": (5.5, 19.0),
    "gifts": (12.0, 85.0),
}
BIG_MERCHANTS: dict[str, list[str]] = {
    "TechHub": ["electronics"],
    "SkyWays": ["travel"],
}
MOODS = ["calm", "focused", "restless", "sleepy", "content", "anxious"]
GAMES: dict[str, tuple[int, int]] = {
    "Azul": (42, 104),
    "Wingspan": (58, 112),
    "Ticket to Ride": (64, 136),
}
HEADINGS: dict[str, list[str]] = {
    "sleep": ["Sleep dashboard", "Sleep summary", "Last night", "Sleep report"],
    "steps": ["Activity dashboard", "Daily summary", "Activity summary"],
    "weight": ["Body composition", "Scale reading", "Weigh-in"],
    "expense": ["Expense", "Purchase", "Spending tracker"],
    "glucose": ["Glucose report", "CGM summary", "Daily glucose dashboard"],
    "run": ["Run summary", "Running dashboard", "Outdoor Run"],
    "meditation": ["Meditation", "Mindfulness session", "Meditation log"],
    "game": ["Game night", "Board game log", "Game result"],
}
APPS: dict[str, list[str]] = {
    "sleep": ["Sleep Cycle", "Oura", "Fitbit"],
    "steps": ["Fitbit", "Google Fit", "Health"],
    "weight": ["Withings", "Renpho"],
    "expense": ["bank app", "Wallet"],
    "glucose": ["Libre", "Dexcom Clarity"],
    "run": ["Garmin Connect", "Strava"],
    "meditation": ["Headspace", "Insight Timer"],
    "game": ["BG Stats"],
}
INTROS: dict[str, list[str]] = {
    "sleep": ["Morning! Sleep numbers:", "Logging last night.", "sleep log"],
    "steps": ["Activity for today.", "Steps log:", "end of day numbers"],
    "weight": ["Weigh-in this morning.", "Scale:", "Body stats"],
    "expense": ["Track this please.", "New expense:", "Log this purchase:"],
    "glucose": ["Glucose this morning.", "CGM numbers:", "Logging my sugar:"],
    "run": ["Just got back from a run!", "Run log:", "Done with my run."],
    "meditation": ["Meditation done.", "Logging my sit.", "Mindfulness:"],
    "game": ["Game night results!", "We played tonight.", "Logging our game."],
}
NOTES: dict[str, list[str]] = {
    "sleep": ["woke up twice", "late dinner", "new pillow", "hotel bed"],
    "steps": ["rest day", "hiking", "walked to work"],
    "weight": ["after breakfast", "before gym", "new scale"],
    "expense": ["split with Sam", "birthday gift", "work trip"],
    "glucose": ["ate late", "sick day", "after a walk"],
    "run": ["hilly route", "treadmill", "with Sam"],
    "meditation": ["guided", "body scan", "noisy neighbours"],
    "game": ["personal best!", "close one", "new expansion"],
}
READBACK_PROMPTS = [
    "Can you read this screenshot and log it?",
    "Here's a screenshot, please log it.",
    "Log this for me?",
]
ACKS = ["Logged.", "Got it, saved.", "Noted!", "Saved to your log.", "Done."]
CHAT: list[tuple[str, str]] = [
    ("Good morning!", "Good morning! How can I help today?"),
    ("hey", "Hi! What's up?"),
    (
        "Can you suggest a quick pasta recipe for tonight?",
        "Try aglio e olio: garlic, olive oil, chili flakes and parsley.",
    ),
    (
        "What should I pack for a weekend hike?",
        "Layers, water, snacks, a map and a small first-aid kit.",
    ),
    ("Remind me what the capital of Australia is?", "It is Canberra."),
    (
        "How do I keep basil alive indoors?",
        "Give it plenty of sun and water it when the top of the soil is dry.",
    ),
    (
        "I feel like my sleep has been worse lately, any tips?",
        "Keep a regular bedtime, dim the lights in the evening and skip late coffee.",
    ),
    (
        "Is it better to run in the morning or the evening?",
        "Whichever you can stick with; consistency matters more than the hour.",
    ),
    ("thanks!", "Any time."),
    (
        "My sister is visiting next week, any ideas for a day out?",
        "A museum in the morning and a picnic in the afternoon could be nice.",
    ),
    (
        "What's a good board game for two players?",
        "Patchwork and Jaipur are both great with two.",
    ),
    (
        "Ugh, long day at work.",
        "Sorry to hear that. Maybe a short walk or an early night?",
    ),
    (
        "How was my sleep this week?",
        "I can look that up from your logs whenever you like.",
    ),
    (
        "Should I be worried about my glucose after pasta?",
        "A rise after a carb-heavy meal is normal; ask your doctor about your targets.",
    ),
    (
        "Recommend a podcast for my commute?",
        "Try a short daily news show or a history series.",
    ),
    (
        "I finished the novel you recommended.",
        "Glad to hear it! What did you think?",
    ),
    ("What's the weather like for a picnic on Sunday?", "I can't check live weather."),
    (
        "Any idea how to get wine out of a carpet?",
        "Blot it, then use cold water and a little dish soap.",
    ),
]
DAY_PROB: dict[str, float] = {
    "sleep": 0.85,
    "steps": 0.75,
    "weight": 0.45,
    "glucose": 0.5,
    "run": 0.35,
    "meditation": 0.45,
}
WINDOWS: dict[str, tuple[int, int]] = {
    "sleep": (6 * 60, 9 * 60 + 30),
    "weight": (6 * 60, 9 * 60),
    "glucose": (6 * 60 + 30, 9 * 60 + 30),
    "meditation": (6 * 60, 22 * 60),
    "run": (6 * 60 + 30, 20 * 60),
    "expense": (8 * 60, 21 * 60),
    "steps": (19 * 60, 23 * 60),
    "game": (19 * 60, 23 * 60),
    "chat": (7 * 60, 23 * 60),
}


@dataclass
class EverydayRecord:
    """One record: its canonical values and how it was written."""

    kind: str
    round_id: str
    time: datetime | None
    values: dict[str, Any]
    form: str = ""
    channel: str = "user"
    written: dict[str, str | None] = field(default_factory=dict)
    """Per attribute: the unit or style written ("h", "min", "hm", "k", "lb",
    "mi", "USD", ...), "label" when the unit is in the label, "bare" for a bare
    number, None for unitless and text values."""
    seq: int = 0
    """Position in the history (history order; records of one round in text
    order)."""
    neighbours: tuple[datetime | None, datetime | None] | None = None
    """For an undated record: the times of the dated rounds just before and just
    after its round in the history (None: there is none)."""


@dataclass
class EverydayData:
    """A generated history, its checks and the records behind them."""

    history: dict[str, Any]
    checks: list[dict[str, Any]]
    records: dict[str, list[EverydayRecord]]
    currency: str = "USD"

    def write(self, out_dir: str | Path) -> tuple[Path, Path]:
        """Write ``history.json`` and ``checks.jsonl`` into ``out_dir``."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        hist = out / "history.json"
        hist.write_text(
            json.dumps(self.history, indent=1, ensure_ascii=False), encoding="utf-8"
        )
        checks = out / "checks.jsonl"
        checks.write_text(
            "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in self.checks),
            encoding="utf-8",
        )
        return hist, checks


def convert(value: float, from_unit: str | None, to_unit: str | None) -> float:
    """Convert between units of one dimension (identity for equal or no units)."""
    if from_unit == to_unit or from_unit is None or to_unit is None:
        return value
    a, b = _FACTORS[from_unit], _FACTORS[to_unit]
    if a[0] != b[0]:
        raise ValueError(f"cannot convert {from_unit} to {to_unit}")
    return value * a[1] / b[1]


def label_variants(attr: str) -> list[str]:
    """Every label the generator may write for ``attr``."""
    return sorted(
        {_label(attr, s) for s in LABEL_STYLES} | set(EXTRA_LABELS.get(attr, []))
    )


def _label(attr: str, style: str) -> str:
    base = BASE_LABELS[attr]
    words = base.split()
    if style == "title":
        return " ".join(w if w.isupper() else w.capitalize() for w in words)
    if style == "lower":
        return base.lower()
    if style == "snake":
        return "_".join(w.lower() for w in words)
    if style == "camel":
        return words[0].lower() + "".join(w.capitalize() for w in words[1:])
    if style == "pascal":
        return "".join(w if w.isupper() else w.capitalize() for w in words)
    if style == "upper":
        return base.upper()
    return base


# ------------------------------------------------------------------ fields
@dataclass
class _Field:
    attr: str
    value: Any
    text: str
    written: str | None
    number: str | None = None
    header_unit: str | None = None
    json: Any = None


@dataclass
class _Ctx:
    """How one record is written: locale habits and what its form allows."""

    rng: random.Random
    eur: bool
    comma: bool
    group: str
    form: str
    allow_k: bool = True
    allow_bare: bool = True
    note: str | None = None
    styles: dict[str, int] = field(default_factory=dict)

    def pick(self, key: str, options: list[Any]) -> Any:
        """One choice per message: the same ``key`` picks the same option index."""
        if key not in self.styles:
            self.styles[key] = self.rng.randrange(len(options))
        return options[self.styles[key]]


class _State:
    """Running state of one history: weight trend and bare-value quotas."""

    def __init__(self, rng: random.Random) -> None:
        self.kg = rng.uniform(74.0, 92.0)
        self.fat = rng.uniform(19.0, 27.0)
        self.seen: dict[tuple[str, str], int] = {}
        self.bare: dict[tuple[str, str], int] = {}

    def count(self, kind: str, attr: str) -> None:
        """Count a value that is written with its unit."""
        self.seen[(kind, attr)] = self.seen.get((kind, attr), 0) + 1

    def may_be_bare(self, kind: str, attr: str, ctx: _Ctx) -> bool:
        """Count a value; whether to write it bare (within the quota)."""
        key = (kind, attr)
        self.count(kind, attr)
        if not ctx.allow_bare or ctx.rng.random() >= 0.09:
            return False
        if self.bare.get(key, 0) + 1 > MAX_BARE_SHARE * self.seen[key]:
            return False
        self.bare[key] = self.bare.get(key, 0) + 1
        return True


def _dec(ctx: _Ctx, x: float, nd: int) -> str:
    text = f"{x:.{nd}f}"
    return text.replace(".", ",") if ctx.comma else text


def _grouped(ctx: _Ctx, n: int) -> str:
    text = f"{n:,}"
    return text.replace(",", ctx.group)


def _hm(rng: random.Random, minutes: int, labelled: bool = True) -> str:
    h, m = divmod(minutes, 60)
    forms = [
        f"{h}h {m:02d}m",
        f"{h} h {m} min",
        f"{h}h{m:02d}",
        f"{h} hrs {m} mins",
        f"{h} h {m:02d} min",
    ]
    if labelled:
        forms += [f"{h}:{m:02d}", f"PT{h}H{m}M"]
    if h == 0:
        return rng.choice(
            [f"{m} min", f"{m}m", f"0:{m:02d}" if labelled else f"{m}min"]
        )
    return rng.choice(forms)


def _hours_field(
    attr: str, kind: str, ctx: _Ctx, st: _State, lo: float, hi: float
) -> _Field:
    """A sleep duration: decimal hours mostly, else minutes or h+min."""
    rng = ctx.rng
    r = rng.random()
    if r < 0.68:
        v = round(rng.uniform(lo, hi), 1)
        num = _dec(ctx, v, 1)
        if st.may_be_bare(kind, attr, ctx):
            return _Field(attr, v, num, "bare", json=v)
        if v == int(v) and rng.random() < 0.3:
            num = str(int(v))
        unit = ctx.pick("h", ["h", "h", "hrs", "hours", "hr"])
        text = f"{num}{unit}" if unit == "h" and rng.random() < 0.4 else f"{num} {unit}"
        return _Field(attr, v, text, "h", number=num, header_unit="h", json=text)
    st.count(kind, attr)
    minutes = rng.randint(round(lo * 60), round(hi * 60))
    if r < 0.82:
        text = f"{minutes} " + ctx.pick("min", ["min", "min", "minutes", "mins"])
        return _Field(attr, minutes / 60, text, "min", str(minutes), "min", json=text)
    text = _hm(rng, minutes, labelled=ctx.form != "chat")
    return _Field(attr, minutes / 60, text, "hm", json=text)


def _draw(kind: str, ctx: _Ctx, st: _State, currency: str) -> list[_Field]:
    rng = ctx.rng
    if kind == "sleep":
        score = rng.randint(52, 96)
        return [
            _hours_field("total_sleep", kind, ctx, st, 5.0, 8.8),
            _hours_field("deep_sleep", kind, ctx, st, 0.4, 2.1),
            _Field("sleep_score", score, str(score), None, json=score),
        ]
    if kind == "steps":
        out = []
        if ctx.allow_k and rng.random() < 0.3:
            steps = rng.randint(25, 165) * 100
            k = steps / 1000
            num = _dec(ctx, k, 1) if steps % 1000 else str(steps // 1000)
            out.append(_Field("steps", steps, f"{num}k", "k", json=steps))
        else:
            steps = rng.randint(2400, 16800)
            text = _grouped(ctx, steps) if rng.random() < 0.7 else str(steps)
            out.append(_Field("steps", steps, text, None, json=steps))
        am = rng.randint(8, 115)
        if st.may_be_bare(kind, "active_minutes", ctx):
            out.append(_Field("active_minutes", am, str(am), "bare", json=am))
        else:
            unit = ctx.pick("min", ["min", "min", "minutes", "mins"])
            out.append(
                _Field(
                    "active_minutes",
                    am,
                    f"{am} {unit}",
                    "min",
                    str(am),
                    "min",
                    json=f"{am} {unit}",
                )
            )
        return out
    if kind == "weight":
        st.kg += rng.gauss(-0.03, 0.35)
        st.fat = min(32.0, max(12.0, st.fat + rng.gauss(-0.01, 0.25)))
        fat = round(st.fat, 1)
        out = []
        if rng.random() < 0.82:
            kg = round(st.kg, 1)
            num = _dec(ctx, kg, 1)
            if st.may_be_bare(kind, "weight", ctx):
                out.append(_Field("weight", kg, num, "bare", json=kg))
            else:
                unit = ctx.pick("kg", ["kg", "kg", "kgs"])
                text = f"{num} {unit}" if rng.random() < 0.7 else f"{num}{unit}"
                out.append(_Field("weight", kg, text, "kg", num, "kg", json=text))
        else:
            st.count(kind, "weight")
            lb = round(st.kg / LB_KG, 1)
            num = _dec(ctx, lb, 1)
            unit = ctx.pick("lb", ["lb", "lbs", "lbs"])
            text = f"{num} {unit}" if rng.random() < 0.7 else f"{num}{unit}"
            out.append(_Field("weight", lb * LB_KG, text, "lb", num, "lb", json=text))
        num = _dec(ctx, fat, 1)
        if st.may_be_bare(kind, "body_fat", ctx):
            out.append(_Field("body_fat", fat, num, "bare", json=fat))
        else:
            text = ctx.pick("pct", [f"{num} %", f"{num}%"])
            out.append(_Field("body_fat", fat, text, "%", num, "%", json=text))
        return out
    if kind == "expense":
        big = rng.random() < 0.05
        pool = BIG_MERCHANTS if big else MERCHANTS
        merchant = rng.choice(sorted(pool))
        category = rng.choice(pool[merchant])
        return [
            _amount_field(ctx, st, currency, big, category),
            _Field("merchant", merchant, merchant, None, json=merchant),
            _Field("category", category, category, None, json=category),
        ]
    if kind == "glucose":
        g = round(rng.uniform(4.5, 7.2), 1)
        num = _dec(ctx, g, 1)
        out = []
        if st.may_be_bare(kind, "fasting_glucose", ctx):
            out.append(_Field("fasting_glucose", g, num, "bare", json=g))
        else:
            unit = ctx.pick("mmol", ["mmol/L", "mmol/L", "mmol/l"])
            out.append(
                _Field(
                    "fasting_glucose",
                    g,
                    f"{num} {unit}",
                    "mmol/L",
                    num,
                    "mmol/L",
                    json=f"{num} {unit}",
                )
            )
        tir = rng.randint(52, 99)
        if st.may_be_bare(kind, "time_in_range", ctx):
            out.append(_Field("time_in_range", tir, str(tir), "bare", json=tir))
        else:
            text = ctx.pick(
                "pct4", [f"{tir} %", f"{tir}%", f"{tir}%", f"{tir} percent"]
            )
            out.append(
                _Field("time_in_range", tir, text, "%", str(tir), "%", json=text)
            )
        return out
    if kind == "run":
        return _run_fields(ctx, st)
    if kind == "meditation":
        minutes = rng.choice([5, 8, 10, 10, 12, 15, 15, 20, 20, 25, 30, 45])
        out = []
        if st.may_be_bare(kind, "duration", ctx):
            out.append(_Field("duration", minutes, str(minutes), "bare", json=minutes))
        elif minutes in (30, 45) and rng.random() < 0.3:
            text = rng.choice(["0.5 h", "½ h"]) if minutes == 30 else "0.75 h"
            out.append(_Field("duration", minutes, text, "h", json=text))
        elif rng.random() < 0.1:
            out.append(
                _Field(
                    "duration", minutes, f"PT{minutes}M", "iso", json=f"PT{minutes}M"
                )
            )
        else:
            unit = ctx.pick("min5", ["min", "min", "minutes", "mins", "m"])
            sep = "" if unit == "m" else " "
            text = f"{minutes}{sep}{unit}"
            out.append(
                _Field("duration", minutes, text, "min", str(minutes), "min", json=text)
            )
        mood = rng.choice(MOODS)
        out.append(_Field("mood", mood, mood, None, json=mood))
        return out
    if kind == "game":
        game = rng.choice(sorted(GAMES))
        lo, hi = GAMES[game]
        score = rng.randint(lo, hi)
        won = rng.random() < 0.45
        text = ctx.pick(
            "bool",
            [("yes", "no"), ("yes", "no"), ("Y", "N"), ("✓", "✗"), ("true", "false")],
        )[0 if won else 1]
        return [
            _Field("game", game, game, None, json=game),
            _Field("score", score, str(score), None, json=score),
            _Field("won", won, text, None, json=won),
        ]
    raise ValueError(kind)


def _amount_field(
    ctx: _Ctx, st: _State, currency: str, big: bool, category: str
) -> _Field:
    rng = ctx.rng
    if big:
        value = rng.randint(8, 24) * 100
        if ctx.allow_k and value >= 1000 and rng.random() < 0.6:
            num = _dec(ctx, value / 1000, 1) if value % 1000 else str(value // 1000)
            text = rng.choice(
                [f"${num}k"] if currency == "USD" else [f"€{num}k", f"{num}k €"]
            )
            return _Field("amount", float(value), text, currency, json=text)
        whole = _grouped(ctx, value)
        num = f"{whole},00" if ctx.comma else f"{whole}.00"
    else:
        lo, hi = AMOUNTS[category]
        value = round(rng.uniform(lo, hi), 2)
        num = _dec(ctx, value, 2)
    if st.may_be_bare("expense", "amount", ctx):
        return _Field("amount", value, num, "bare", json=value)
    if currency == "USD":
        text = ctx.pick(
            "usd", [f"${num}", f"${num}", f"${num}", f"{num} USD", f"USD {num}"]
        )
        symbol = ctx.pick("usd_sym", ["$", "USD"])
    else:
        text = ctx.pick(
            "eur",
            [f"{num} €", f"{num} €", f"€{num}", f"EUR {num}", f"{num} EUR", f"{num}€"],
        )
        symbol = ctx.pick("eur_sym", ["€", "EUR"])
    return _Field("amount", value, text, currency, num, symbol, json=text)


def _run_fields(ctx: _Ctx, st: _State) -> list[_Field]:
    rng = ctx.rng
    out = []
    if ctx.form == "chat" and rng.random() < 0.2:
        km = float(rng.choice([5, 10]))
        out.append(_Field("distance", km, f"{int(km)}k", "km", json=f"{int(km)} km"))
        st.count("run", "distance")
    elif rng.random() < 0.8:
        km = round(rng.uniform(3.0, 16.0), rng.choice([1, 1, 2]))
        nd = 2 if round(km, 1) != km else 1
        num = _dec(ctx, km, nd)
        if st.may_be_bare("run", "distance", ctx):
            out.append(_Field("distance", km, num, "bare", json=km))
        else:
            text = ctx.pick("km", [f"{num} km", f"{num} km", f"{num}km"])
            out.append(_Field("distance", km, text, "km", num, "km", json=text))
    else:
        st.count("run", "distance")
        mi = round(rng.uniform(2.0, 10.0), 1)
        num = _dec(ctx, mi, 1)
        text = ctx.pick("mi", [f"{num} mi", f"{num} miles", f"{num}mi"])
        km = mi * MI_KM
        out.append(_Field("distance", km, text, "mi", num, "mi", json=text))
    seconds = round(km * rng.uniform(4.7, 6.6) * 60)
    r = rng.random()
    if r < 0.45:
        m, s = divmod(seconds, 60)
        h, m2 = divmod(m, 60)
        text = f"{h}:{m2:02d}:{s:02d}" if h else f"{m}:{s:02d}"
        value, written = seconds / 60, "hms"
        st.count("run", "duration")
        out.append(_Field("duration", value, text, written, json=text))
    else:
        minutes = round(seconds / 60)
        if st.may_be_bare("run", "duration", ctx):
            out.append(_Field("duration", minutes, str(minutes), "bare", json=minutes))
        elif r < 0.8 or minutes < 60:
            unit = ctx.pick("min", ["min", "min", "minutes", "mins"])
            text = f"{minutes} {unit}"
            out.append(
                _Field("duration", minutes, text, "min", str(minutes), "min", json=text)
            )
        else:
            text = _hm(rng, minutes, labelled=ctx.form != "chat")
            out.append(_Field("duration", minutes, text, "hm", json=text))
    hr = rng.randint(126, 172)
    if st.may_be_bare("run", "avg_hr", ctx):
        out.append(_Field("avg_hr", hr, str(hr), "bare", json=hr))
    else:
        text = ctx.pick("bpm", [f"{hr} bpm", f"{hr} bpm", f"{hr}bpm"])
        out.append(_Field("avg_hr", hr, text, "bpm", str(hr), "bpm", json=text))
    return out


# ------------------------------------------------------------------- forms
def _compact(f: _Field) -> str:
    """A value for a space-separated ``key=value`` run."""
    if f.attr in ("merchant", "category", "mood", "game"):
        return f'"{f.text}"' if " " in f.text else f.text
    return f.text.replace(" ", "")


def _heading(kind: str, rng: random.Random, day: date | None) -> str:
    heading = rng.choice(HEADINGS[kind])
    if day is not None and rng.random() < 0.35:
        when = rng.choice([day.strftime("%b %d"), f"{day.strftime('%B')} {day.day}"])
        heading = rng.choice([f"{heading} for {when}", f"{heading} ({when})"])
    return heading


def _is_text(f: _Field) -> bool:
    return f.attr in ("merchant", "category", "mood", "game", "won")


def _pairs(
    fields: list[_Field], labels: dict[str, str], colon: bool, ctx: _Ctx
) -> list[str]:
    out = []
    for f in fields:
        label = labels[f.attr]
        value = f.text
        if ctx.note is not None and f.attr == _note_target(fields):
            value = f"{value} ({ctx.note})"
        sep = ": " if colon or _is_text(f) else " "
        if label.endswith("?"):
            sep = " "
        out.append(f"{label}{sep}{value}")
    return out


def _note_target(fields: list[_Field]) -> str:
    numeric = [f.attr for f in fields if not _is_text(f)]
    return numeric[0] if numeric else fields[0].attr


def _labels_for(
    fields: list[_Field], ctx: _Ctx, compact: bool = False, header_units: bool = True
) -> tuple[dict[str, str], list[_Field]]:
    """Labels in one style for a record, some with the unit in brackets."""
    rng = ctx.rng
    if compact:
        style = ctx.pick("compact_style", ["snake"] * 3 + ["camel", "pascal"])
    else:
        style = ctx.pick(
            "label_style",
            ["plain"] * 6
            + ["title"] * 2
            + ["lower"] * 2
            + ["snake"]
            + ["camel", "pascal", "upper"],
        )
    labels: dict[str, str] = {}
    out: list[_Field] = []
    for f in fields:
        label = _label(f.attr, style)
        if (
            not compact
            and style == "plain"
            and f.attr in EXTRA_LABELS
            and rng.random() < 0.3
        ):
            label = rng.choice(EXTRA_LABELS[f.attr])
        if (
            header_units
            and not compact
            and f.header_unit
            and f.number
            and f.written not in ("bare", None)
            and "(" not in label
            and rng.random() < 0.12
        ):
            label = f"{label} ({f.header_unit})"
            f = _Field(
                f.attr, f.value, f.number, "label", f.number, f.header_unit, f.json
            )
        labels[f.attr] = label
        out.append(f)
    return labels, out


def _render(
    kind: str, recs: list[list[_Field]], ctx: _Ctx, day: date | None
) -> tuple[dict[str, Any], str, list[list[_Field]]]:
    """One round's fields for the records; returns (fields, channel, as written)."""
    rng = ctx.rng
    form = ctx.form
    multi = len(recs) > 1
    if form == "dashboard":
        (fields,) = recs
        labels, fields = _labels_for(fields, ctx)
        heading = _heading(kind, rng, day)
        channel = rng.choices(["user", "caption", "ocr", "assistant"], [5, 2, 2, 1])[0]
        if channel == "ocr":
            lines = [heading]
            for f in fields:
                lines += (
                    [f"{labels[f.attr]}: {f.text}"]
                    if _is_text(f)
                    else [labels[f.attr], f.text]
                )
            image = {"caption": f"Screenshot of my {kind} app", "ocr": "\n".join(lines)}
            return (
                {"user": rng.choice(INTROS[kind]), "images": [image]},
                channel,
                [fields],
            )
        pairs = _pairs(fields, labels, rng.random() < 0.35, ctx)
        if channel == "caption":
            body = (
                ", ".join(pairs[:-1]) + " and " + pairs[-1]
                if len(pairs) > 1
                else pairs[0]
            )
            screen = heading.split(" (")[0].split(" for ")[0]
            if not screen.endswith(("dashboard", "summary", "report", "log")):
                screen += " screen"
            image = {"caption": f"Screenshot of the {screen} showing {body}"}
            return (
                {"user": rng.choice(INTROS[kind]), "images": [image]},
                channel,
                [fields],
            )
        sep = rng.choice([" - ", " – ", " — ", ": ", ". ", "\n"])
        joiner = rng.choice([", ", " · ", " | ", "\n", " – "])
        text = heading + sep + joiner.join(pairs)
        if channel == "assistant":
            image = {"caption": f"Screenshot of my {kind} app"}
            return (
                {
                    "user": rng.choice(READBACK_PROMPTS),
                    "images": [image],
                    "assistant": f"Here's what I see. {text}. Logged!",
                },
                channel,
                [fields],
            )
        return {"user": text, "assistant": rng.choice(ACKS)}, channel, [fields]
    if form in ("list", "annotation"):
        written = []
        blocks = []
        markers = rng.choice(["1)", "1.", "-", "•", "*", "a)"])
        per_line = multi or rng.random() < 0.6
        for i, fields in enumerate(recs):
            labels, fields = _labels_for(fields, ctx)
            written.append(fields)
            colon = form == "annotation" or ctx.pick("colon", [True] * 4 + [False])
            pairs = _pairs(fields, labels, colon, ctx)
            if multi:
                blocks.append(f"{_marker(markers, i)} " + ", ".join(pairs))
            else:
                blocks += [f"{_marker(markers, j)} {p}" for j, p in enumerate(pairs)]
        if form == "annotation" and not multi and rng.random() < 0.5:
            blocks = [b.split(" ", 1)[1] for b in blocks]  # "Label: value (note), ..."
            text = ", ".join(blocks)
        else:
            text = ("\n" if per_line else " ").join(blocks)
        if rng.random() < 0.5:
            text = rng.choice(INTROS[kind]) + "\n" + text
        return {"user": text, "assistant": rng.choice(ACKS)}, "user", written
    if form == "key_value":
        (fields,) = recs
        style = rng.choice(
            ["eq_space", "eq_semicolon", "colon_semicolon", "pipes", "dots"]
        )
        compact = style == "eq_space"
        labels, fields = _labels_for(fields, ctx, compact=compact)
        if style == "eq_space":
            text = " ".join(f"{labels[f.attr]}={_compact(f)}" for f in fields)
        elif style == "eq_semicolon":
            text = "; ".join(f"{labels[f.attr]}={f.text}" for f in fields)
        elif style == "colon_semicolon":
            text = "; ".join(f"{labels[f.attr]}: {f.text}" for f in fields)
        elif style == "pipes":
            text = " | ".join(f"{labels[f.attr]}: {f.text}" for f in fields)
        else:
            text = " · ".join(_pairs(fields, labels, rng.random() < 0.5, ctx))
        if rng.random() < 0.3:
            text = rng.choice(INTROS[kind]) + " " + text
        return {"user": text, "assistant": rng.choice(ACKS)}, "user", [fields]
    if form == "json":
        style = rng.choice(["snake", "snake", "camel", "plain"])
        objs = [{_label(f.attr, style): f.json for f in fields} for fields in recs]
        doc: Any = objs if multi else objs[0]
        body = json.dumps(
            doc, ensure_ascii=False, indent=2 if rng.random() < 0.3 else None
        )
        if rng.random() < 0.3:
            body = f"```json\n{body}\n```"
        text = rng.choice(INTROS[kind]) + "\n" + body if rng.random() < 0.6 else body
        written = [
            [
                _Field(
                    f.attr,
                    f.value,
                    f.text,
                    "bare" if f.written == "bare" else f.written,
                )
                for f in fields
            ]
            for fields in recs
        ]
        return {"user": text, "assistant": rng.choice(ACKS)}, "user", written
    if form == "table":
        if not multi and rng.random() < 0.5:
            (fields,) = recs
            labels, fields = _labels_for(fields, ctx)
            rows = "\n".join(f"| {labels[f.attr]} | {f.text} |" for f in fields)
            text = f"| Field | Value |\n|---|---|\n{rows}"
            written = [fields]
        else:
            labels, first = _labels_for(recs[0], ctx)
            header_from = {f.attr: labels[f.attr] for f in first}
            written = [first]
            for fields in recs[1:]:
                written.append(_same_header(fields, first))
            head = "| " + " | ".join(header_from[f.attr] for f in first) + " |"
            rule = "|" + "|".join("---" for _ in first) + "|"
            body = "\n".join(
                "| " + " | ".join(f.text for f in fs) + " |" for fs in written
            )
            text = f"{head}\n{rule}\n{body}"
        if rng.random() < 0.6:
            text = rng.choice(INTROS[kind]) + "\n" + text
        return {"user": text, "assistant": rng.choice(ACKS)}, "user", written
    if form == "tracker_export":
        app = rng.choice(APPS[kind])
        if multi or rng.random() < 0.6:
            labels, first = _labels_for(recs[0], ctx)
            written = [first] + [_same_header(fs, first) for fs in recs[1:]]
            sep = rng.choice(["\t", ";"] if ctx.comma else ["\t", ",", ","])
            if sep == ",":  # no commas inside a comma-separated cell
                written = [[_no_commas(f) for f in fs] for fs in written]
            head = sep.join(labels[f.attr] for f in first)
            rows = "\n".join(sep.join(f.text for f in fs) for fs in written)
            text = f"{head}\n{rows}"
            if rng.random() < 0.5:
                text = f"Exported from {app}:\n{text}"
            return {"user": text, "assistant": rng.choice(ACKS)}, "user", written
        (fields,) = recs
        labels, fields = _labels_for(fields, ctx)
        body = " · ".join(_pairs(fields, labels, False, ctx))
        channel = rng.choice(["user", "caption"])
        if channel == "caption":
            image = {"caption": f"{app} screenshot: {body}"}
            return (
                {"user": rng.choice(INTROS[kind]), "images": [image]},
                channel,
                [fields],
            )
        return (
            {"user": f"Exported from {app}: {body}", "assistant": rng.choice(ACKS)},
            "user",
            [fields],
        )
    if form == "receipt":
        (fields,) = recs
        amount, merchant, category = fields
        labels, fields = _labels_for(fields, ctx, header_units=False)
        amount = fields[0]
        style = rng.choice(["ocr", "line", "caption"])
        la, lc, lm = labels["amount"], labels["category"], labels["merchant"]
        if style == "ocr":
            ocr = f"{lm}: {merchant.text}\n{lc}: {category.text}\n{la}: {amount.text}"
            image = {"caption": "Photo of a receipt", "ocr": ocr}
            return (
                {"user": rng.choice(INTROS[kind]), "images": [image]},
                "ocr",
                [fields],
            )
        if style == "caption":
            cap = (
                f"Photo of a receipt. {lm}: {merchant.text}. "
                f"{lc}: {category.text}. {la}: {amount.text}"
            )
            return (
                {"user": rng.choice(INTROS[kind]), "images": [{"caption": cap}]},
                "caption",
                [fields],
            )
        sep = rng.choice([" – ", " | ", " · "])
        text = sep.join(
            [
                rng.choice(["Receipt", "Receipt", "Expense"]),
                f"{lm}: {merchant.text}",
                f"{lc}: {category.text}",
                f"{la}: {amount.text}",
            ]
        )
        return {"user": text, "assistant": rng.choice(ACKS)}, "user", [fields]
    if form == "chat":
        (fields,) = recs
        text = _chat(kind, {f.attr: f for f in fields}, rng)
        return {"user": text, "assistant": rng.choice(ACKS)}, "user", [fields]
    raise ValueError(form)


def _marker(style: str, i: int) -> str:
    if style == "1)":
        return f"{i + 1})"
    if style == "1.":
        return f"{i + 1}."
    if style == "a)":
        return f"{'abcdefgh'[i]})"
    return style


_TOKENS = {"$": "USD", "€": "EUR"}


def _same_header(fields: list[_Field], first: list[_Field]) -> list[_Field]:
    """A further table row under the first row's header.

    Under a header with a unit ("Amount ($)") a value in that unit is written as
    the number alone, and a bare number counts as labelled.
    """
    out = []
    for f, h in zip(fields, first, strict=True):
        if h.written == "label":
            unit = _TOKENS.get(h.header_unit or "", h.header_unit)
            if (
                f.number is not None
                and _TOKENS.get(f.header_unit or "", f.header_unit) == unit
            ):
                f = _Field(f.attr, f.value, f.number, "label", f.number, f.header_unit)
            elif f.written == "bare":
                f = _Field(f.attr, f.value, f.text, "label")
        out.append(f)
    return out


def _no_commas(f: _Field) -> _Field:
    if "," not in f.text:
        return f
    return _Field(
        f.attr,
        f.value,
        f.text.replace(",", ""),
        f.written,
        f.number,
        f.header_unit,
        f.json,
    )


def _chat(kind: str, f: dict[str, _Field], rng: random.Random) -> str:
    """Chat shorthand that still names each field (lower case, emoji, "+").

    Prose whose labels are verbs or implied ("slept 6h", "scale says 80 kg",
    "spent $4 at Cafe Luna") needs a language model to read; the phrasing
    corpus covers it (tests/data/phrasings/chat_shorthand.jsonl), this mode
    does not, so that its checks measure the offline extractor's exactness.
    """
    t = {a: x.text for a, x in f.items()}
    if kind == "sleep":
        return rng.choice(
            [
                f"total sleep {t['total_sleep']}, deep sleep {t['deep_sleep']}, sleep "
                f"score {t['sleep_score']}",
                f"{t['total_sleep']} total sleep last night, {t['deep_sleep']} deep "
                f"sleep, sleep score {t['sleep_score']}",
                f"sleep score {t['sleep_score']} 😴 total sleep {t['total_sleep']}, "
                f"deep sleep {t['deep_sleep']}",
            ]
        )
    if kind == "steps":
        return rng.choice(
            [
                f"{t['steps']} steps today, {t['active_minutes']} active minutes"
                if f["active_minutes"].written == "bare"
                else f"{t['steps']} steps today, active minutes {t['active_minutes']}",
                f"steps {t['steps']} + active minutes {t['active_minutes']} 🚶",
            ]
        )
    if kind == "weight":
        return rng.choice(
            [
                f"weight {t['weight']} this morning, body fat {t['body_fat']}",
                f"morning weigh-in 🙂 weight {t['weight']}, body fat {t['body_fat']}",
            ]
        )
    if kind == "expense":
        return rng.choice(
            [
                f"merchant: {t['merchant']}, amount {t['amount']}, category: "
                f"{t['category']} 💸",
                f"amount: {t['amount']} - merchant: {t['merchant']} - category: "
                f"{t['category']}",
            ]
        )
    if kind == "glucose":
        return rng.choice(
            [
                f"fasting glucose {t['fasting_glucose']} this morning, time in range "
                f"{t['time_in_range']}",
                f"time in range {t['time_in_range']} 🙌 fasting glucose "
                f"{t['fasting_glucose']}",
            ]
        )
    if kind == "run":
        return rng.choice(
            [
                f"run done 🏃 distance {t['distance']}, duration {t['duration']}, "
                f"avg HR {t['avg_hr']}",
                f"distance {t['distance']} + duration {t['duration']}, avg hr "
                f"{t['avg_hr']}",
            ]
        )
    if kind == "meditation":
        return rng.choice(
            [
                f"meditation done, duration {t['duration']}, mood: {t['mood']}",
                f"🧘 duration {t['duration']}, mood: {t['mood']}",
            ]
        )
    if kind == "game":
        result = "yes" if f["won"].value else "no"
        return rng.choice(
            [
                f"game night 🎲 game: {t['game']}, score {t['score']}, won: {result}",
                f"just played 🎲 game: {t['game']}, score {t['score']}, won {result}",
            ]
        )
    raise ValueError(kind)


# -------------------------------------------------------------- generation
_FORM_WEIGHTS: dict[str, float] = {
    "dashboard": 16,
    "list": 12,
    "key_value": 14,
    "json": 8,
    "table": 8,
    "receipt": 0,
    "chat": 14,
    "annotation": 8,
    "tracker_export": 9,
}
_MULTI_FORMS = ["json", "table", "list", "tracker_export"]


def _pick_form(kind: str, rng: random.Random, multi: bool) -> str:
    if multi:
        return rng.choice(_MULTI_FORMS)
    weights = dict(_FORM_WEIGHTS)
    if kind == "expense":
        weights["receipt"] = 14
        weights["tracker_export"] = 3
    names = list(weights)
    return rng.choices(names, [weights[n] for n in names])[0]


def _ctx(rng: random.Random, eur: bool, form: str, kind: str) -> _Ctx:
    comma = eur and rng.random() < 0.65
    if eur:
        group = rng.choice([".", " ", ""]) if comma else rng.choice([",", ""])
    else:
        group = rng.choice([",", ",", ""])
    return _Ctx(
        rng,
        eur,
        comma,
        group,
        form,
        allow_k=form not in ("json", "tracker_export", "table"),
        allow_bare=form != "chat" or rng.random() < 0.5,
        note=rng.choice(NOTES[kind]) if form == "annotation" else None,
    )


def generate_everyday(
    days: int = 60, seed: int = 0, start: date = date(2026, 3, 1)
) -> EverydayData:
    """Generate an everyday history of ``days`` dated sessions and its checks.

    Args:
        days: Dated sessions, one per day from ``start``; 1-3 undated sessions
            are inserted in the middle.
        seed: Everything is determined by it (the currency too: EUR with
            decimal commas for about 40% of seeds).
        start: The first day.
    """
    if days < 1:
        raise ValueError("days must be at least 1")
    rng = random.Random(f"everyday:{seed}")
    eur = random.Random(f"locale:{seed}").random() < 0.4
    currency = "EUR" if eur else "USD"
    st = _State(rng)
    records: dict[str, list[EverydayRecord]] = {k: [] for k in KIND_ATTRIBUTES}
    counter = [0]

    def round_items(day: date | None, undated: bool) -> list[tuple[str, int]]:
        """(kind, number of records) per round of one session, before times."""
        items: list[tuple[str, int]] = []
        if undated:
            items.append(("weight", 1))
            for kind in rng.sample(
                ["steps", "expense", "meditation", "sleep", "game"], 2
            ):
                items.append((kind, 1))
            return items
        for kind, p in DAY_PROB.items():
            if rng.random() < p:
                items.append((kind, 1))
        n_exp = sum(rng.random() < p for p in (0.55, 0.35, 0.15))
        if n_exp >= 2 and rng.random() < 0.45:
            items.append(("expense", n_exp))
        else:
            items += [("expense", 1)] * n_exp
        if rng.random() < 0.22:
            items.append(("game", 2 if rng.random() < 0.4 else 1))
        return items

    def make_round(
        sid: str, n: int, kind: str, count: int, when: datetime | None, day: date | None
    ) -> dict[str, Any]:
        rid = f"{sid}:{n}"
        base: dict[str, Any] = {"round_id": rid}
        if when is not None:
            base["time"] = when.isoformat(timespec="minutes")
        if kind == "chat":
            user, assistant = rng.choice(CHAT)
            return base | {"user": user, "assistant": assistant}
        form = _pick_form(kind, rng, count > 1)
        ctx = _ctx(rng, eur, form, kind)
        fields = [_draw(kind, ctx, st, currency) for _ in range(count)]
        fields_out, channel, written = _render(kind, fields, ctx, day)
        for fs in written:
            counter[0] += 1
            records[kind].append(
                EverydayRecord(
                    kind,
                    rid,
                    when,
                    {f.attr: f.value for f in fs},
                    form,
                    channel,
                    {f.attr: f.written for f in fs},
                    counter[0],
                )
            )
        return base | fields_out

    sessions: list[dict[str, Any]] = []
    lo = max(1, days // 3)
    hi = max(lo, (2 * days) // 3)
    n_undated = rng.randint(1, 3)
    undated_after = sorted(rng.sample(range(lo, hi + 1), min(n_undated, hi - lo + 1)))
    for d in range(days):
        day = start + timedelta(days=d)
        sid = f"S{len(sessions) + 1}"
        items = round_items(day, False)
        items += [("chat", 1)] * rng.randint(1, 3)
        timed = []
        for kind, count in items:
            a, b = WINDOWS[kind]
            timed.append((rng.randint(a, b), kind, count))
        timed.sort(key=lambda t: t[0])
        minutes = [t[0] for t in timed]
        for i in range(1, len(minutes)):
            minutes[i] = max(minutes[i], minutes[i - 1] + 1)
        overflow = max(0, (minutes[-1] if minutes else 0) - (23 * 60 + 50))
        rounds = []
        for n, ((_, kind, count), minute) in enumerate(
            zip(timed, minutes, strict=True), start=1
        ):
            when = datetime(day.year, day.month, day.day) + timedelta(
                minutes=minute - overflow
            )
            rounds.append(make_round(sid, n, kind, count, when, day))
        sessions.append({"session_id": sid, "date": day.isoformat(), "rounds": rounds})
        if d + 1 in undated_after:
            sid = f"S{len(sessions) + 1}"
            items = round_items(None, True) + [("chat", 1)] * rng.randint(0, 1)
            rng.shuffle(items)
            rounds = [
                make_round(sid, n, kind, count, None, None)
                for n, (kind, count) in enumerate(items, start=1)
            ]
            sessions.append({"session_id": sid, "rounds": rounds})
    _place_undated(sessions, records)
    history = {"user_id": f"everyday-{seed}", "sessions": sessions}
    end = start + timedelta(days=days - 1)
    checks = _checks(records, start, end, currency)
    return EverydayData(history, checks, records, currency)


def _place_undated(
    sessions: list[dict[str, Any]], records: dict[str, list[EverydayRecord]]
) -> None:
    """Give every undated record the times of the dated rounds around it."""
    times: list[tuple[str, datetime | None]] = [
        (r["round_id"], datetime.fromisoformat(r["time"]) if "time" in r else None)
        for s in sessions
        for r in s["rounds"]
    ]
    around: dict[str, tuple[datetime | None, datetime | None]] = {}
    before: datetime | None = None
    for i, (rid, when) in enumerate(times):
        if when is not None:
            before = when
            continue
        after = next((t for _, t in times[i + 1 :] if t is not None), None)
        around[rid] = (before, after)
    for kind_records in records.values():
        for rec in kind_records:
            if rec.time is None:
                rec.neighbours = around[rec.round_id]


# ------------------------------------------------------------------ checks
def _unit(attr: str, currency: str) -> str | None:
    return currency if attr == "amount" else CANONICAL_UNITS[attr]


def passes(rec: EverydayRecord, flt: dict[str, Any], currency: str) -> bool:
    """Whether a record passes one check filter (see the module docstring)."""
    col, op, value = flt["column"], flt["op"], flt["value"]
    if col == "time" and rec.time is None:
        # both dated neighbours in the range (a missing one is unbounded)
        assert rec.neighbours is not None
        low, high = rec.neighbours
        return all(
            _date_passes(t.date() if t else None, op, value, side)
            for t, side in ((low, -1), (high, 1))
        )
    if col == "time":
        assert rec.time is not None
        d = rec.time.date()
        if op == "between":
            return date.fromisoformat(value[0]) <= d <= date.fromisoformat(value[1])
        x: Any = d
        value = date.fromisoformat(value)
    else:
        x = rec.values[col]
        if "unit" in flt:
            value = convert(value, flt["unit"], _unit(col, currency))
    if op == "=":
        return bool(x == value)
    if op == ">":
        return bool(x > value)
    if op == ">=":
        return bool(x >= value)
    if op == "<":
        return bool(x < value)
    if op == "<=":
        return bool(x <= value)
    if op == "between":
        return bool(value[0] <= x <= value[1])
    raise ValueError(op)


def _date_passes(d: date | None, op: str, value: Any, unbounded: int) -> bool:
    """Whether a day passes a time filter; None is before (-1) or after (1) all."""
    if d is None:
        return (op == "<") if unbounded < 0 else (op == ">=")
    if op == "between":
        return date.fromisoformat(value[0]) <= d <= date.fromisoformat(value[1])
    day = date.fromisoformat(value)
    return {">=": d >= day, "<": d < day}[op]


def time_order(rows: list[EverydayRecord]) -> list[EverydayRecord]:
    """Rows by time; an undated row after the dated round before it in history."""

    def place(r: EverydayRecord) -> tuple[int, datetime, int]:
        when = r.time or (r.neighbours[0] if r.neighbours else None)
        return (0, datetime.min, r.seq) if when is None else (1, when, r.seq)

    return sorted(rows, key=place)


def evaluate(
    check: dict[str, Any], records: dict[str, list[EverydayRecord]], currency: str
) -> Any:
    """A check's expected value from the records (None when it has no answer)."""
    rows = [
        r
        for r in records[check["kind"]]
        if all(passes(r, f, currency) for f in check["filters"])
    ]
    op, target = check["operator"], check["target"]
    if op == "count":
        return len(rows)
    if not rows:
        return None
    src = _unit(target, currency)

    def val(r: EverydayRecord) -> Any:
        v = r.values[target]
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            return v
        return convert(v, src, check["unit"])

    if op in ("argmax_text", "argmin_text"):
        best = (max if op == "argmax_text" else min)(val(r) for r in rows)
        winners = [r for r in rows if val(r) == best]
        answers = {r.values[check["answer_column"]] for r in winners}
        return winners[0].values[check["answer_column"]] if len(answers) == 1 else None
    values = [val(r) for r in rows]
    if op == "sum":
        return sum(values)
    if op == "avg":
        return sum(values) / len(values)
    if op == "min":
        return min(values)
    if op == "max":
        return max(values)
    if op == "median":
        return statistics.median(values)
    ordered = time_order(rows)
    if op == "first":
        return val(ordered[0])
    if op == "latest":
        return val(ordered[-1])
    if op == "change":
        return val(ordered[-1]) - val(ordered[0])
    raise ValueError(op)


def _safe(
    values: list[float], candidates: list[float], unit_factor: float = 1.0
) -> float:
    """The first threshold that no value is (nearly) equal to."""
    for c in candidates:
        if all(abs(v - c * unit_factor) > 1e-6 * max(1.0, abs(v)) for v in values):
            return c
    return candidates[0] + 0.05


def _checks(
    records: dict[str, list[EverydayRecord]], start: date, end: date, currency: str
) -> list[dict[str, Any]]:
    span = (end - start).days

    def rng_days(a: int, b: int) -> list[str]:
        lo = start + timedelta(days=min(a, span))
        hi = start + timedelta(days=min(b, span))
        return [lo.isoformat(), hi.isoformat()]

    def between(a: int, b: int) -> dict[str, Any]:
        return {"column": "time", "op": "between", "value": rng_days(a, b)}

    def vals(kind: str, attr: str) -> list[float]:
        return [r.values[attr] for r in records[kind]]

    cur = currency
    sleep_cut = _safe(vals("sleep", "total_sleep"), [6.0, 6.5, 5.5, 7.0])
    run_km = _safe(vals("run", "distance"), [5.0, 6.0, 8.0, 4.5])
    run_mi = _safe(vals("run", "distance"), [3.0, 4.0, 5.0], MI_KM)
    amt_cut = _safe(vals("expense", "amount"), [20.0, 25.0, 30.0])
    cats: dict[str, int] = {}
    for r in records["expense"]:
        cats[r.values["category"]] = cats.get(r.values["category"], 0) + 1
    top_cat = max(sorted(cats), key=lambda c: cats[c]) if cats else "groceries"
    merchants = sorted({r.values["merchant"] for r in records["expense"]})
    some_merchant = (
        "Cafe Luna" if "Cafe Luna" in merchants else (merchants or ["Cafe Luna"])[0]
    )
    since = {
        "column": "time",
        "op": ">=",
        "value": (start + timedelta(days=min(28, span))).isoformat(),
    }
    specs: list[
        tuple[str, str, str | None, list[dict[str, Any]], str | None, str | None, str]
    ] = [
        # kind, operator, target, filters, answer_column, unit, description
        ("sleep", "avg", "total_sleep", [], None, "h", "average total sleep in h"),
        (
            "sleep",
            "avg",
            "total_sleep",
            [between(7, 20)],
            None,
            "h",
            "average total sleep in h between two dates",
        ),
        ("sleep", "avg", "deep_sleep", [], None, "min", "average deep sleep in min"),
        ("sleep", "max", "sleep_score", [], None, None, "best sleep score"),
        ("sleep", "min", "total_sleep", [], None, "h", "shortest night in h"),
        ("sleep", "median", "sleep_score", [], None, None, "median sleep score"),
        (
            "sleep",
            "count",
            None,
            [{"column": "total_sleep", "op": "<", "value": sleep_cut, "unit": "h"}],
            None,
            None,
            f"nights under {sleep_cut} h",
        ),
        ("sleep", "count", None, [], None, None, "nights logged"),
        (
            "sleep",
            "latest",
            "total_sleep",
            [],
            None,
            "min",
            "latest total sleep in min",
        ),
        ("steps", "sum", "steps", [], None, None, "total steps"),
        (
            "steps",
            "sum",
            "steps",
            [between(14, 27)],
            None,
            None,
            "total steps between two dates",
        ),
        (
            "steps",
            "count",
            None,
            [{"column": "steps", "op": ">=", "value": 10000}],
            None,
            None,
            "days with 10k+ steps",
        ),
        ("steps", "avg", "active_minutes", [], None, "min", "average active minutes"),
        ("steps", "max", "steps", [], None, None, "most steps in a day"),
        ("weight", "latest", "weight", [], None, "kg", "latest weight in kg"),
        ("weight", "first", "weight", [], None, "kg", "first weight in kg"),
        (
            "weight",
            "change",
            "weight",
            [],
            None,
            "kg",
            "weight change first to latest, kg",
        ),
        ("weight", "latest", "weight", [], None, "lb", "latest weight in lb"),
        ("weight", "min", "weight", [], None, "kg", "lowest weight in kg"),
        ("weight", "avg", "body_fat", [], None, "%", "average body fat"),
        ("weight", "latest", "body_fat", [], None, "%", "latest body fat"),
        ("weight", "count", None, [], None, None, "weigh-ins (dated or not)"),
        (
            "weight",
            "change",
            "weight",
            [between(0, 20)],
            None,
            "kg",
            "weight change between two dates",
        ),
        ("expense", "sum", "amount", [], None, cur, "total spent"),
        (
            "expense",
            "sum",
            "amount",
            [{"column": "category", "op": "=", "value": top_cat}],
            None,
            cur,
            f"total spent on {top_cat}",
        ),
        (
            "expense",
            "argmax_text",
            "amount",
            [],
            "merchant",
            None,
            "merchant of the largest expense",
        ),
        (
            "expense",
            "argmin_text",
            "amount",
            [],
            "merchant",
            None,
            "merchant of the smallest expense",
        ),
        (
            "expense",
            "count",
            None,
            [{"column": "category", "op": "=", "value": "coffee"}],
            None,
            None,
            "coffee purchases",
        ),
        ("expense", "max", "amount", [], None, cur, "largest expense"),
        (
            "expense",
            "avg",
            "amount",
            [{"column": "merchant", "op": "=", "value": some_merchant}],
            None,
            cur,
            f"average spent at {some_merchant}",
        ),
        (
            "expense",
            "sum",
            "amount",
            [between(7, 13)],
            None,
            cur,
            "spent between two dates",
        ),
        (
            "expense",
            "count",
            None,
            [{"column": "amount", "op": ">", "value": amt_cut, "unit": cur}],
            None,
            None,
            f"expenses over {amt_cut} {cur}",
        ),
        (
            "glucose",
            "avg",
            "fasting_glucose",
            [],
            None,
            "mmol/L",
            "average fasting glucose",
        ),
        ("glucose", "min", "time_in_range", [], None, "%", "lowest time in range"),
        (
            "glucose",
            "count",
            None,
            [{"column": "time_in_range", "op": ">=", "value": 70, "unit": "%"}],
            None,
            None,
            "days with time in range 70% or more",
        ),
        (
            "glucose",
            "max",
            "fasting_glucose",
            [],
            None,
            "mmol/L",
            "highest fasting glucose",
        ),
        ("glucose", "median", "time_in_range", [], None, "%", "median time in range"),
        (
            "run",
            "count",
            None,
            [{"column": "distance", "op": ">", "value": run_km, "unit": "km"}],
            None,
            None,
            f"runs over {run_km} km",
        ),
        (
            "run",
            "count",
            None,
            [{"column": "distance", "op": ">", "value": run_mi, "unit": "mi"}],
            None,
            None,
            f"runs over {run_mi} mi",
        ),
        ("run", "sum", "distance", [], None, "km", "total distance run in km"),
        ("run", "avg", "duration", [], None, "min", "average run duration in min"),
        (
            "run",
            "max",
            "avg_hr",
            [],
            None,
            "bpm",
            "highest average heart rate of a run",
        ),
        ("run", "latest", "distance", [], None, "km", "latest run distance"),
        (
            "run",
            "sum",
            "distance",
            [since],
            None,
            "mi",
            "distance run since a date, in mi",
        ),
        ("meditation", "avg", "duration", [], None, "min", "average meditation length"),
        (
            "meditation",
            "sum",
            "duration",
            [between(0, 13)],
            None,
            "min",
            "minutes meditated between two dates",
        ),
        (
            "meditation",
            "count",
            None,
            [{"column": "mood", "op": "=", "value": "calm"}],
            None,
            None,
            "calm meditations",
        ),
        ("meditation", "max", "duration", [], None, "h", "longest meditation in h"),
        ("game", "argmax_text", "score", [], "game", None, "game of the top score"),
        ("game", "argmin_text", "score", [], "game", None, "game of the lowest score"),
        (
            "game",
            "count",
            None,
            [{"column": "won", "op": "=", "value": True}],
            None,
            None,
            "games won",
        ),
        (
            "game",
            "avg",
            "score",
            [{"column": "game", "op": "=", "value": "Azul"}],
            None,
            None,
            "average Azul score",
        ),
        (
            "game",
            "max",
            "score",
            [{"column": "won", "op": "=", "value": False}],
            None,
            None,
            "best score in a lost game",
        ),
    ]
    checks = []
    for kind, op, target, filters, answer, unit, desc in specs:
        check = {
            "check_id": "",
            "kind": kind,
            "table_attributes": list(KIND_ATTRIBUTES[kind]),
            "operator": op,
            "target": target,
            "filters": filters,
            "answer_column": answer,
            "value": None,
            "unit": unit,
            "rel_tol": 1e-9,
            "description": desc,
        }
        value = evaluate(check, records, currency)
        if value is None:
            continue
        check["value"] = value
        check["check_id"] = f"c{len(checks) + 1:03d}"
        checks.append(check)
    return checks


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="output folder")
    parser.add_argument("--days", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    data = generate_everyday(args.days, args.seed)
    hist, checks = data.write(args.out)
    n = sum(len(s["rounds"]) for s in data.history["sessions"])
    print(f"wrote {hist} ({n} rounds) and {checks} ({len(data.checks)} checks)")


if __name__ == "__main__":
    main()
