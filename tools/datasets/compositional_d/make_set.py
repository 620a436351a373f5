#!/usr/bin/env python3
# ruff: noqa: E501  (chat and data literals are written as people write them)
"""Generate compositional evaluation set D: three chat histories and their questions.

Standard library only, seeded and deterministic: running it twice writes
byte-identical files. Every gold value is computed from the records this
script wrote, and the script asserts that each question is well defined
(compared values differ, an argmax has no tie, a "the day after X" has exactly
one record, boundary days hold no record of the kind so that inclusive and
exclusive readings agree, no record falls on an event day, ordinary chat and
event prose hold no digits).

Usage:
  python3 tools/datasets/compositional_d/make_set.py            # write the files (default seed)
  python3 tools/datasets/compositional_d/make_set.py --seed N   # another seed
  python3 tools/datasets/compositional_d/make_set.py --search N # try N seeds from the default, report
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import traceback
from collections import defaultdict
from datetime import date, datetime, time, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEED = 20260726
DIGIT = re.compile(r"[0-9]")


def d(s: str) -> date:
    return date.fromisoformat(s)


def day_range(a: date, b: date):
    x = a
    while x <= b:
        yield x
        x += timedelta(days=1)


def monday(x: date) -> date:
    return x - timedelta(days=x.weekday())


def at(x: date, hh: int = 23, mm: int = 45) -> datetime:
    return datetime.combine(x, time(hh, mm))


def fmt_num(x) -> str:
    if isinstance(x, int):
        return str(x)
    if abs(x - round(x)) < 1e-9:
        return str(int(round(x)))
    return f"{x:.4f}".rstrip("0").rstrip(".")


# ---------------------------------------------------------------- record kinds


class Kind:
    """A record kind: its labelled fields (label, unit, decimals; decimals None = category)."""

    def __init__(self, name, fields, leads, titles, image_leads, acks, late=False):
        self.name = name
        self.late = late  # logged at the end of the day (a daily summary)
        self.fields = fields
        self.leads = leads
        self.titles = titles
        self.image_leads = image_leads
        self.acks = acks

    def field(self, label):
        for f in self.fields:
            if f[0] == label:
                return f
        raise KeyError(label)

    def value_text(self, label, v):
        _, unit, dec = self.field(label)
        if dec is None:
            return v
        s = f"{v:.{dec}f}"
        return f"{s} {unit}" if unit else s


STYLES = ["plain", "lead_dash", "pipe", "eq", "lines", "json", "image"]
STYLE_WEIGHTS = [14, 18, 14, 12, 14, 12, 16]


def label_case(label, rng, style):
    if style == "eq":
        return label.lower()
    r = rng.random()
    if r < 0.12:
        return label.lower()
    if r < 0.17:
        return label.upper()
    return label


def render(kind: Kind, values: dict, rng: random.Random):
    """User text (and images) for one record, in one of the chat-log surface forms."""
    style = rng.choices(STYLES, STYLE_WEIGHTS)[0]
    pairs = [
        (label_case(lab, rng, style), kind.value_text(lab, values[lab]))
        for lab, _, _ in kind.fields
    ]
    lead = rng.choice(kind.leads)
    plain = ", ".join(f"{k}: {v}" for k, v in pairs)
    images = None
    if style == "plain":
        text = plain
    elif style == "lead_dash":
        text = f"{lead} - {plain}"
    elif style == "pipe":
        text = f"{rng.choice(kind.titles)} | " + " | ".join(
            f"{k}: {v}" for k, v in pairs
        )
    elif style == "eq":
        sep = rng.choice([", ", "; "])
        text = sep.join(f"{k} = {v}" for k, v in pairs)
        if rng.random() < 0.5:
            text = f"{lead}\n{text}"
    elif style == "lines":
        text = lead + "\n" + "\n".join(f"{k}: {v}" for k, v in pairs)
    elif style == "json":
        obj = {}
        for (k, v), (lab, unit, dec) in zip(pairs, kind.fields, strict=True):
            if dec is not None and not unit:
                obj[k] = values[lab] if dec == 0 else round(values[lab], dec)
            else:
                obj[k] = v
        text = lead + "\n" + json.dumps(obj, ensure_ascii=False)
    else:  # image
        text = rng.choice(kind.image_leads)
        sep = rng.choice([", ", " | ", "; "])
        cap = sep.join(f"{k}: {v}" for k, v in pairs)
        if rng.random() < 0.6:
            cap = f"{rng.choice(kind.titles)} - {cap}"
        images = [{"caption": cap}]
    return text, images, style


# ---------------------------------------------------------------- history model


class Record:
    def __init__(self, kind, day, values):
        self.kind = kind
        self.day = day
        self.v = values
        self.round_id = None
        self.dt = None
        self.style = None


class History:
    """Base: subclasses define kinds, the calendar, events, chat and the data model."""

    name = ""
    user_id = ""
    start = end = None
    kinds: dict = {}
    events: dict = {}  # day -> (user, assistant, short description, minute of the day)
    mentions: dict = {}  # day -> (user, assistant, what it refers to)
    chat: list = []
    blackout: set = set()  # (kind, day): no record of the kind on the day
    exactly_one: set = set()  # (kind, day): exactly one record of the kind on the day

    def __init__(self, rng):
        self.rng = rng
        self.today = {}

    def count(self, kind, day):  # pragma: no cover - subclass
        raise NotImplementedError

    def make(self, kind, day):  # pragma: no cover - subclass
        raise NotImplementedError

    # -- build
    def build(self):
        rng = self.rng
        sessions = []
        records = []
        for i, day in enumerate(day_range(self.start, self.end)):
            sid = f"S{i + 1}"
            recs = []
            self.today = {}
            if day not in self.events:
                for kname in self.kinds:
                    n = self.count(kname, day)
                    if (kname, day) in self.blackout:
                        n = 0
                    if (kname, day) in self.exactly_one:
                        n = 1
                    self.today[kname] = n
                    for _ in range(n):
                        recs.append(Record(kname, day, self.make(kname, day)))
            room = 5 - (1 if day in self.mentions else 0)
            while len(recs) > room:  # at most five rounds a day: drop a surplus record
                drop = [r for r in recs if (r.kind, day) not in self.exactly_one][-1]
                recs.remove(drop)
            items = [("rec", r) for r in recs]
            if day in self.mentions:
                items.append(("mention", self.mentions[day]))
            n_fixed = len(items) + (1 if day in self.events else 0)
            n_total = min(5, max(2, n_fixed + rng.choice([0, 1, 1, 2])))
            n_chat = max(0, n_total - n_fixed)
            if n_chat == 0 and n_fixed < 5 and rng.random() < 0.7:
                n_chat = 1
            for c in rng.sample(self.chat, n_chat):
                items.append(("chat", c))
            rng.shuffle(items)
            items.sort(
                key=lambda it: it[0] == "rec" and self.kinds[it[1].kind].late
            )  # stable: summaries last
            minute = rng.randint(7 * 60, 9 * 60 + 15)
            timed = []
            late_seen = False
            for j, item in enumerate(items):
                step = rng.randint(35, 185) if j else 0
                if item[0] == "rec" and self.kinds[item[1].kind].late:
                    # a daily summary is written in the evening
                    minute = (
                        minute + min(step, 60)
                        if late_seen
                        else max(minute + step, 19 * 60 + 5 + step % 70)
                    )
                    late_seen = True
                else:
                    minute += step
                timed.append((minute, item))
            if day in self.events:
                # the event round sits at the time of day its prose implies
                ev = self.events[day]
                m = ev[3]
                while any(m == t for t, _ in timed):
                    m += 1
                timed.append((m, ("event", ev)))
                timed.sort(key=lambda x: x[0])
            assert 2 <= len(timed) <= 5, (self.name, day, len(timed))
            rounds = []
            for j, (minute, (what, obj)) in enumerate(timed):
                assert minute < 23 * 60, (self.name, day)
                t = datetime.combine(day, time(minute // 60, minute % 60))
                rid = f"{sid}:{j + 1}"
                rnd = {"round_id": rid, "time": t.isoformat()}
                if what == "rec":
                    kind = self.kinds[obj.kind]
                    text, images, style = render(kind, obj.v, rng)
                    rnd["user"] = text
                    rnd["assistant"] = rng.choice(kind.acks)
                    if images:
                        rnd["images"] = [
                            {"image_id": f"{rid}:IMG_{k + 1}", "caption": im["caption"]}
                            for k, im in enumerate(images)
                        ]
                    obj.round_id, obj.dt, obj.style = rid, t, style
                    records.append(obj)
                else:
                    user, assistant = obj[0], obj[1]
                    assert not DIGIT.search(user) and not DIGIT.search(assistant), (
                        what,
                        user,
                    )
                    rnd["user"] = user
                    rnd["assistant"] = assistant
                    if what == "event":
                        self.event_rounds[day] = rid
                    if what == "mention":
                        self.mention_rounds[day] = rid
                assert not DIGIT.search(rnd["assistant"]), rnd
                rounds.append(rnd)
            sessions.append(
                {"session_id": sid, "date": day.isoformat(), "rounds": rounds}
            )
        self.records = records
        self.sessions = sessions
        for kind in self.kinds.values():
            for text in kind.leads + kind.titles + kind.image_leads + kind.acks:
                assert not DIGIT.search(text), text
        for r in records:
            for lab, _, dec in self.kinds[r.kind].fields:
                if dec is None:
                    assert not DIGIT.search(r.v[lab]), r.v
        # no record of any kind on an event day
        for r in records:
            assert r.day not in self.events, (self.name, r.day)
        for kname, day in self.blackout:
            assert not any(r.kind == kname and r.day == day for r in records)
        for kname, day in self.exactly_one:
            assert sum(1 for r in records if r.kind == kname and r.day == day) == 1
        return {"user_id": self.user_id, "sessions": sessions}


# ---------------------------------------------------------------- gold helpers


class Store:
    def __init__(self, hist: History):
        self.h = hist
        self.records = hist.records

    def recs(self, kind, a, b, qt, **where):
        out = [
            r
            for r in self.records
            if r.kind == kind
            and a <= r.day <= b
            and r.dt <= qt
            and all(r.v[k] == v for k, v in where.items())
        ]
        return sorted(out, key=lambda r: r.dt)

    def assert_empty(self, kind, day):
        assert not any(r.kind == kind and r.day == day for r in self.records), (
            self.h.name,
            "boundary day holds a record",
            kind,
            day,
        )

    def unit(self, kind, field):
        return self.h.kinds[kind].field(field)[1] or None

    def dec(self, kind, field):
        return self.h.kinds[kind].field(field)[2]


MIN_RECORDS = 2  # a sum or an average is taken over at least this many records
MARGIN = 0.03  # compared values differ by at least 3% of the larger one
RANK_MARGIN = 0.02  # a top group's sum or average beats the runner-up by at least 2%


def well_apart(a, b, margin=MARGIN):
    return abs(a - b) > 1e-9 and abs(a - b) >= margin * max(abs(a), abs(b))


def aggregate(store, recs, op, field, min_n=1):
    assert recs, "empty selection"
    if op in ("sum", "avg"):
        assert len(recs) >= min_n, ("too few records for a sum/average", len(recs))
    if op == "count":
        return len(recs)
    kind = recs[0].kind
    vals = [r.v[field] for r in recs]
    if op == "sum":
        return round(sum(vals), store.dec(kind, field))
    if op == "avg":
        return sum(vals) / len(vals)
    if op == "value":
        assert len(vals) == 1, "a single record was expected"
        return vals[0]
    raise ValueError(op)


def op_unit(store, kind, op, field):
    return None if op == "count" else store.unit(kind, field)


class Questions:
    def __init__(self, store: Store, prefix: str, default_qt: datetime):
        self.s = store
        self.prefix = prefix
        self.default_qt = default_qt
        self.items = []

    def _add(self, family, text, answer, evidence, gold, qt):
        qid = f"{self.prefix}-{len(self.items) + 1:02d}"
        assert not any(q["question"] == text for q in self.items)
        self.items.append(
            {
                "question_id": qid,
                "history": self.s.h.name,
                "question": text,
                "answer": answer,
                "type": f"compositional.{family}",
                "family": family,
                "question_time": qt.isoformat(),
                "evidence": sorted({r.round_id for r in evidence}, key=round_key),
                "gold": gold,
            }
        )

    # a single aggregate
    def num(self, family, text, recs, op, field=None, qt=None, note=""):
        qt = qt or self.default_qt
        assert recs, (self.prefix, text)
        assert all(r.dt <= qt for r in recs)
        value = aggregate(self.s, recs, op, field, MIN_RECORDS)
        unit = op_unit(self.s, recs[0].kind, op, field)
        ans = f"{fmt_num(value)}{' ' + unit if unit else ''}"
        if op == "value":
            ans += f" ({recs[0].day.isoformat()}, {recs[0].round_id})"
        else:
            ans += (
                f" ({op} over {len(recs)} record{'s' if len(recs) != 1 else ''}{note})"
            )
        self._add(family, text, ans, recs, {"value": value, "unit": unit}, qt)

    # yes/no: is A's aggregate greater than B's
    def yesno(
        self,
        family,
        text,
        recs_a,
        recs_b,
        op,
        field=None,
        qt=None,
        la="",
        lb="",
        rising=False,
    ):
        """Gold "yes" when A's aggregate is greater than B's. values are [A, B], or [B, A]
        when rising (a "did it go up from B to A" question: values in time order)."""
        qt = qt or self.default_qt
        a = aggregate(self.s, recs_a, op, field, MIN_RECORDS)
        b = aggregate(self.s, recs_b, op, field, MIN_RECORDS)
        assert well_apart(a, b), (self.prefix, text, a, b)
        unit = op_unit(self.s, recs_a[0].kind, op, field)
        yes = "yes" if a > b else "no"
        u = f" {unit}" if unit else ""
        ans = f"{yes.capitalize()}: {fmt_num(a)}{u} {la} vs {fmt_num(b)}{u} {lb}"
        gold = {
            "value": yes,
            "unit": None,
            "values": [b, a] if rising else [a, b],
            "value_unit": unit,
        }
        self._add(family, text, ans, recs_a + recs_b, gold, qt)

    # difference a - b (or |a - b| when either_sign)
    def diff(
        self,
        family,
        text,
        recs_a,
        recs_b,
        op,
        field=None,
        qt=None,
        either_sign=False,
        la="",
        lb="",
    ):
        qt = qt or self.default_qt
        a = aggregate(self.s, recs_a, op, field, MIN_RECORDS)
        b = aggregate(self.s, recs_b, op, field, MIN_RECORDS)
        v = a - b
        assert well_apart(a, b), (self.prefix, text, a, b)
        if either_sign:
            v = abs(v)
        else:
            assert v > 0, (self.prefix, text, a, b)
        kind = recs_a[0].kind
        if op in ("sum", "value"):
            v = round(v, self.s.dec(kind, field))
        unit = op_unit(self.s, kind, op, field)
        u = f" {unit}" if unit else ""
        ans = f"{fmt_num(v)}{u} ({fmt_num(a)}{u} {la} vs {fmt_num(b)}{u} {lb})"
        gold = {"value": v, "unit": unit, "values": [a, b]}
        if either_sign:
            gold["either_sign"] = True
        self._add(family, text, ans, recs_a + recs_b, gold, qt)

    # percent change from a to b
    def pct(
        self, family, text, recs_from, recs_to, op, field=None, qt=None, la="", lb=""
    ):
        qt = qt or self.default_qt
        a = aggregate(self.s, recs_from, op, field, MIN_RECORDS)
        b = aggregate(self.s, recs_to, op, field, MIN_RECORDS)
        assert a != 0 and well_apart(a, b), (self.prefix, text, a, b)
        v = (b - a) / a * 100.0
        unit = op_unit(self.s, recs_from[0].kind, op, field)
        u = f" {unit}" if unit else ""
        ans = f"{v:+.2f}% ({fmt_num(a)}{u} {la} -> {fmt_num(b)}{u} {lb})"
        gold = {"value": v, "unit": "%", "values": [a, b], "value_unit": unit}
        self._add(family, text, ans, recs_from + recs_to, gold, qt)

    def _groups(self, recs, key):
        groups = defaultdict(list)
        for r in recs:
            groups[key(r)].append(r)
        return groups

    def _rank(self, groups, op, field, order):
        scored = [(aggregate(self.s, rs, op, field), g) for g, rs in groups.items()]
        scored.sort(key=lambda x: x[0], reverse=(order == "max"))
        assert len(scored) >= 2
        assert abs(scored[0][0] - scored[1][0]) > 1e-9, ("tie", scored[:2])
        if op != "count":
            assert well_apart(scored[0][0], scored[1][0], RANK_MARGIN), (
                "near tie",
                scored[:2],
            )
        return scored[0]

    # which category value has the max/min aggregate
    def which(
        self, family, text, recs, group_field, op, field=None, order="max", qt=None
    ):
        qt = qt or self.default_qt
        groups = self._groups(recs, lambda r: r.v[group_field])
        val, g = self._rank(groups, op, field, order)
        unit = op_unit(self.s, recs[0].kind, op, field)
        u = f" {unit}" if unit else ""
        ans = f"{g} ({op}{'' if op == 'count' else ' ' + field}: {fmt_num(val)}{u}, {len(groups)} {group_field.lower()} values compared)"
        gold = {"value": g, "unit": None, "group_value": val, "group_unit": unit}
        self._add(family, text, ans, groups[g], gold, qt)

    # which week / month has the max/min aggregate
    def which_period(
        self, family, text, recs, period, op, field=None, order="max", qt=None
    ):
        qt = qt or self.default_qt
        if period == "week":
            key = lambda r: monday(r.day).isoformat()  # noqa: E731
        else:
            key = lambda r: r.day.replace(day=1).isoformat()  # noqa: E731
        groups = self._groups(recs, key)
        val, g = self._rank(groups, op, field, order)
        unit = op_unit(self.s, recs[0].kind, op, field)
        u = f" {unit}" if unit else ""
        if period == "week":
            gd = d(g)
            label = f"the week of {g} to {(gd + timedelta(days=6)).isoformat()}"
        else:
            label = d(g).strftime("%B %Y")
        ans = f"{label} ({op}{'' if op == 'count' else ' ' + field}: {fmt_num(val)}{u})"
        gold = {
            "value": g,
            "unit": None,
            "period": period,
            "group_value": val,
            "group_unit": unit,
        }
        self._add(family, text, ans, groups[g], gold, qt)

    # a measure of the top group: rank by (rank_op, rank_field), then measure the top group
    def top_then(
        self, family, text, recs, group_field, rank_op, rank_field, op, field, qt=None
    ):
        qt = qt or self.default_qt
        groups = self._groups(recs, lambda r: r.v[group_field])
        _, g = self._rank(groups, rank_op, rank_field, "max")
        value = aggregate(self.s, groups[g], op, field, MIN_RECORDS)
        unit = op_unit(self.s, recs[0].kind, op, field)
        ans = f"{fmt_num(value)}{' ' + unit if unit else ''} (at {g}, the most frequent {group_field.lower()}, {len(groups[g])} records)"
        gold = {"value": value, "unit": unit, "group": g}
        self._add(family, text, ans, groups[g], gold, qt)


def round_key(rid: str):
    s, n = rid.split(":")
    return (int(s[1:]), int(n))


def ack_pool(*extra):
    base = [
        "Logged.",
        "Got it, saved to your log.",
        "Noted.",
        "Thanks - that's recorded.",
        "Added to the log.",
    ]
    return base + list(extra)


# ================================================================ history 1: Noor, triathlete


class Noor(History):
    name = "noor"
    user_id = "noor_tri"
    start, end = d("2026-02-02"), d("2026-04-26")
    INJ, BACK_IN_WATER, MOVE, RACE = (
        d("2026-02-18"),
        d("2026-03-09"),
        d("2026-03-21"),
        d("2026-04-12"),
    )
    kinds = {
        "swim": Kind(
            "swim",
            [("Pool", None, None), ("Distance", "m", 0), ("Time", "min", 0)],
            [
                "Swim log",
                "Pool session",
                "Morning swim",
                "Swim done",
                "Lengths this morning",
            ],
            ["Swim", "Pool log", "Swim session"],
            [
                "Screenshot from my watch after the pool",
                "Here's the swim summary off my watch",
                "Watch photo from the pool",
            ],
            ack_pool("Nice swim - logged.", "Good work in the water, saved."),
        ),
        "run": Kind(
            "run",
            [
                ("Route", None, None),
                ("Distance", "km", 1),
                ("Duration", "min", 0),
                ("Avg HR", "bpm", 0),
            ],
            ["Run log", "Out for a run", "Run done", "Evening run", "Quick run"],
            ["Run", "Run log", "Today's run"],
            [
                "Watch screen after my run",
                "Run summary from the app",
                "Here's my run screen",
            ],
            ack_pool("Solid run - logged.", "Great, run saved."),
        ),
        "trainer": Kind(
            "trainer",
            [("Workout", None, None), ("Duration", "min", 0), ("Avg power", "W", 0)],
            ["Turbo session", "Trainer ride", "Indoor ride", "Bike trainer log"],
            ["Trainer", "Turbo", "Indoor bike"],
            [
                "Photo of the trainer app at the end",
                "End screen from the turbo app",
                "Trainer app screenshot",
            ],
            ack_pool("Good turbo session - logged.", "Saved your ride."),
        ),
    }
    events = {
        INJ: (
            "Disaster on the way home - the steps outside school were pure ice and I went down hard on my right side. "
            "I can't lift my arm above my head without wincing, and the physio says I'm banned from the water for a good while.",
            "Oh no, I'm sorry. Rest it, ice it and follow the physio's advice - the bike and gentle running can keep you ticking over.",
            "shoulder injury",
            18 * 60 + 40,
        ),
        MOVE: (
            "Keys in hand! Spent the whole day hauling boxes up the stairs, and tonight it's a mattress on the floor and "
            "takeaway eaten off a cardboard box. The view over the river is worth every aching muscle.",
            "Congratulations on the new place! Enjoy the first night, boxes and all.",
            "house move",
            21 * 60 + 30,
        ),
        RACE: (
            "Did it! Crossed the line by the lake this morning with legs like jelly and a medal round my neck. "
            "My transition was a shambles but I didn't care one bit.",
            "Huge congratulations! That's a brilliant achievement - enjoy the medal and the rest.",
            "sprint triathlon",
            14 * 60 + 20,
        ),
    }
    mentions = {
        d("2026-03-02"): (
            "My arm is slowly coming back, I can almost reach the top shelf again without it twinging.",
            "That's good progress. Keep the rehab exercises going.",
            "shoulder injury",
        ),
        BACK_IN_WATER: (
            "The physio finally said I can get back in the water as long as I take it easy.",
            "Great news - ease in with short, relaxed sessions.",
            "shoulder injury",
        ),
        d("2026-03-28"): (
            "Still living out of boxes at the new flat, but I found the kettle at last.",
            "The kettle is the most important box! The rest can wait.",
            "house move",
        ),
        d("2026-04-03"): (
            "The walk to school along the water from the new place is so much nicer than the old bus.",
            "What a lovely way to start the day.",
            "house move",
        ),
        d("2026-04-17"): (
            "Still grinning about last weekend by the lake, I've already looked at entering another one.",
            "That's the bug! Pick one with enough time to build up again.",
            "sprint triathlon",
        ),
    }
    chat = [
        (
            "Can you suggest a quick vegetarian dinner that's high in protein?",
            "A chickpea and spinach curry with brown rice is quick and filling, or a tofu stir-fry with plenty of veg.",
        ),
        (
            "How do I stop my goggles fogging up?",
            "Rinse them in cold water, avoid touching the inside of the lens, and try a drop of baby shampoo as a homemade anti-fog.",
        ),
        (
            "Any tips for keeping a class of teenagers engaged on a Friday afternoon?",
            "Short bursts of activity help: a quick quiz, a map challenge in pairs, or letting them teach each other a concept.",
        ),
        (
            "What's a good podcast for long easy runs?",
            "Story-driven ones work well - a serialised mystery or an interview show keeps the time flowing.",
        ),
        (
            "Is it worth buying a proper tri suit or can I race in normal kit?",
            "Normal kit works for a first race; a tri suit just saves time in transition and dries faster.",
        ),
        (
            "It's been raining all week and I'm going stir crazy.",
            "Grey weeks are draining. Maybe plan something cosy for the weekend to look forward to.",
        ),
        (
            "Help me write a polite email to a parent about missing homework.",
            "Sure - open with something positive about the student, state the missing work plainly, and offer a way to catch up.",
        ),
        (
            "What should I eat before an early morning swim?",
            "Something small and easy: a banana, toast with honey, or a few oat biscuits a little while before.",
        ),
        (
            "My friend's birthday is coming up and she loves hiking. Gift ideas?",
            "A good pair of merino socks, a trail guidebook for a new area, or a lightweight flask are all safe bets.",
        ),
        (
            "How do I practise transitions at home?",
            "Lay out your kit like a mini transition area and rehearse the sequence: helmet on before touching the bike, shoes, then go.",
        ),
        (
            "Can you explain what a brick session is?",
            "It's a bike ride followed straight away by a run, so your legs learn to cope with the switch.",
        ),
        (
            "Marking mock exams tonight, send coffee.",
            "Sending virtual coffee. Mark in batches with short breaks so the last scripts get the same attention as the first.",
        ),
        (
            "What's the best way to clean a wetsuit?",
            "Rinse it inside and out in cool fresh water, use a wetsuit shampoo now and then, and dry it in the shade on a wide hanger.",
        ),
        (
            "Recommend a novel for the weekend?",
            "If you fancy something gripping, try a literary thriller; for something gentle, a warm small-town story.",
        ),
        (
            "I keep getting a stitch when I run, why?",
            "Often it's eating too close to running or shallow breathing. Slow down a little and breathe deeply into your belly.",
        ),
        (
            "How long should I leave a slow cooker stew?",
            "Most stews are happy on low for most of the day, or on high for an afternoon - check the meat is falling apart.",
        ),
        (
            "Our department meeting overran again.",
            "That's frustrating. An agenda with a time next to each item sometimes keeps things moving.",
        ),
        (
            "Is open water swimming very different from the pool?",
            "Yes - no walls to push off, sighting to stay on course, colder water and other swimmers around you. Practise sighting every few strokes.",
        ),
        (
            "What stretches help tight hip flexors?",
            "Low lunges, the couch stretch and a gentle pigeon pose are all good; hold each for a few slow breaths.",
        ),
        (
            "Any ideas for a geography starter activity on rivers?",
            "Show an aerial photo of a meander and ask pupils to guess how it formed before you explain erosion and deposition.",
        ),
        (
            "Windy out today, the bins went flying.",
            "Hope nothing got damaged! Weigh the lids down until it calms down.",
        ),
        (
            "How do I keep my bike chain from squeaking?",
            "Clean it with a degreaser, dry it, then apply a little chain lube and wipe off the excess.",
        ),
        (
            "Should I do strength training as a triathlete?",
            "Yes - a couple of short sessions a week on legs, core and shoulders helps prevent injury.",
        ),
        (
            "What's a nice breakfast I can prep the night before?",
            "Overnight oats with yoghurt, berries and a spoon of nut butter - grab it from the fridge and go.",
        ),
        (
            "My sister wants to start running too, how should she begin?",
            "A walk-run plan is ideal: alternate short jogs with walking breaks and build the running bits gradually.",
        ),
        (
            "The school trip paperwork is endless.",
            "Risk assessments and consent forms really pile up. A checklist per trip saves redoing the same work.",
        ),
        (
            "What's the difference between a lido and a normal pool?",
            "A lido is an outdoor public pool, often heated these days, with that lovely open-air feeling.",
        ),
        (
            "How do I stay motivated to train in the dark evenings?",
            "Lay out your kit early, plan the session in advance, and keep it short on the hardest days - showing up is the win.",
        ),
        (
            "Can you recommend a good waterproof phone pouch?",
            "Look for a roll-top pouch with a lanyard and a touch-friendly window; test it with tissue inside before trusting it.",
        ),
        (
            "Lovely sunset over the rooftops tonight.",
            "That sounds gorgeous. Those evenings make the long days worth it.",
        ),
        (
            "What's a good way to fuel during a long bike ride?",
            "Small, regular bites - a bar, a banana or some gels - plus a bottle with electrolytes, starting early in the ride.",
        ),
        (
            "The kids in my form group made me a card today, I nearly cried.",
            "That's so lovely. Those moments are what teaching is about.",
        ),
    ]
    blackout = {
        ("swim", d("2026-03-15")),  # "since mid-March": the 15th or the 16th
        (
            "run",
            d("2026-04-05"),
        ),  # "the seven days leading up to the race" = Apr 5-11 = race week Apr 6-12
    }
    exactly_one = {
        ("run", d("2026-04-13")),  # the day after the race
        ("run", d("2026-04-17")),  # "9 days ago" from Apr 26
    }

    def phase(self, day):
        if day < self.INJ:
            return "pre"
        if day < self.BACK_IN_WATER:
            return "injured"
        if day < self.MOVE:
            return "return"
        if day < self.RACE - timedelta(days=7):
            return "build"
        if day < self.RACE:
            return "taper"
        if day <= self.RACE + timedelta(days=7):
            return "recover"
        return "late"

    def count(self, kind, day):
        rng, ph, wd = self.rng, self.phase(day), day.weekday()
        if kind == "swim":
            p = {
                "pre": 0.55,
                "injured": 0.0,
                "return": 0.45,
                "build": 0.6,
                "taper": 0.45,
                "recover": 0.4,
                "late": 0.5,
            }[ph]
            if wd == 6:
                p *= 0.5
            return 1 if rng.random() < p else 0
        if kind == "run":
            if self.RACE < day <= self.RACE + timedelta(days=2):
                return 0
            p = {
                "pre": 0.45,
                "injured": 0.4,
                "return": 0.5,
                "build": 0.55,
                "taper": 0.55,
                "recover": 0.35,
                "late": 0.5,
            }[ph]
            return 1 if rng.random() < p else 0
        if kind == "trainer":
            p = {
                "pre": 0.3,
                "injured": 0.55,
                "return": 0.35,
                "build": 0.35,
                "taper": 0.3,
                "recover": 0.2,
                "late": 0.3,
            }[ph]
            return 1 if rng.random() < p else 0
        raise KeyError(kind)

    def make(self, kind, day):
        rng, ph = self.rng, self.phase(day)
        if kind == "swim":
            if ph == "pre":
                pool = rng.choices(["Eastgate Baths", "Marlow Lido"], [65, 35])[0]
                dist = rng.randrange(1500, 2301, 50)
            elif ph == "return":
                pool = rng.choices(["Eastgate Baths", "Marlow Lido"], [80, 20])[0]
                dist = rng.randrange(800, 1501, 50)
            else:
                pool = rng.choices(["Riverside Centre", "Marlow Lido"], [72, 28])[0]
                lo, hi = {
                    "build": (1700, 2600),
                    "taper": (1000, 1500),
                    "recover": (1000, 1600),
                    "late": (1600, 2400),
                }[ph]
                dist = rng.randrange(lo, hi + 1, 50)
            pace = (
                rng.uniform(1.95, 2.35)
                if pool != "Marlow Lido"
                else rng.uniform(2.1, 2.45)
            )
            return {
                "Pool": pool,
                "Distance": dist,
                "Time": int(round(dist / 100 * pace)),
            }
        if kind == "run":
            if day == self.RACE + timedelta(days=1):
                dist = round(rng.uniform(3.0, 4.5), 1)
                return {
                    "Route": "Park Laps",
                    "Distance": dist,
                    "Duration": int(round(dist * rng.uniform(6.3, 6.8))),
                    "Avg HR": rng.randint(128, 136),
                }
            if day < self.MOVE:
                route = rng.choices(
                    ["Canal Loop", "Beacon Hill", "Park Laps"], [50, 30, 20]
                )[0]
            else:
                route = rng.choices(
                    ["Riverside Path", "Beacon Hill", "Park Laps"], [50, 30, 20]
                )[0]
            lo, hi = {
                "Canal Loop": (6, 10),
                "Beacon Hill": (5, 9),
                "Park Laps": (4, 7),
                "Riverside Path": (6, 12),
            }[route]
            factor = {
                "pre": 0.85,
                "injured": 0.85,
                "return": 1.05,
                "build": 1.1,
                "taper": 0.7,
                "recover": 0.8,
                "late": 1.0,
            }[ph]
            dist = round(rng.uniform(lo, hi) * factor, 1)
            pace = rng.uniform(5.2, 6.1) + (0.5 if route == "Beacon Hill" else 0.0)
            hr = 147 + (9 if route == "Beacon Hill" else 0) + rng.randint(-6, 6)
            return {
                "Route": route,
                "Distance": dist,
                "Duration": int(round(dist * pace)),
                "Avg HR": hr,
            }
        if kind == "trainer":
            w = rng.choices(["Endurance", "Sweet Spot", "Threshold"], [45, 35, 20])[0]
            lo, hi = {
                "Endurance": (60, 90),
                "Sweet Spot": (50, 75),
                "Threshold": (40, 60),
            }[w]
            dur = rng.randrange(lo, hi + 1, 5)
            base = {"Endurance": 160, "Sweet Spot": 200, "Threshold": 222}[w]
            trend = (day - self.start).days / 84 * 26
            return {
                "Workout": w,
                "Duration": dur,
                "Avg power": int(round(base + trend + rng.uniform(-7, 7))),
            }
        raise KeyError(kind)


def noor_questions(h: Noor, S: Store):
    END = h.end
    Q = Questions(S, "cd-noor", at(END))
    qt = Q.default_qt
    START, INJ, MOVE, RACE = h.start, h.INJ, h.MOVE, h.RACE
    feb = (d("2026-02-01"), d("2026-02-28"))
    mar = (d("2026-03-01"), d("2026-03-31"))
    apr = (d("2026-04-01"), d("2026-04-30"))
    R = lambda k, a, b, t=qt, **w: S.recs(k, a, b, t, **w)  # noqa: E731
    one = timedelta(days=1)

    # anchored
    Q.num(
        "anchored",
        "how many km have I run since moving house?",
        R("run", MOVE + one, END),
        "sum",
        "Distance",
    )
    Q.num(
        "anchored",
        "What was my average swim distance before I hurt my shoulder?",
        R("swim", START, INJ - one),
        "avg",
        "Distance",
    )
    S.assert_empty("run", RACE - timedelta(days=7))
    Q.num(
        "anchored",
        "How far did I run in the seven days leading up to the race?",
        R("run", RACE - timedelta(days=7), RACE - one),
        "sum",
        "Distance",
    )
    Q.num(
        "anchored",
        "How many turbo sessions did I squeeze in between hurting my shoulder and the move?",
        R("trainer", INJ + one, MOVE - one),
        "count",
    )
    first = R("swim", MOVE + one, END)[:1]
    Q.num(
        "anchored",
        "My first swim after the move - how many metres was it?",
        first,
        "value",
        "Distance",
    )
    qt_in = at(RACE + timedelta(days=2), 23, 0)
    day_after = R("run", RACE + one, RACE + one, qt_in)
    assert len(day_after) == 1
    Q.num(
        "anchored",
        "How many minutes did I run for the day after the triathlon?",
        day_after,
        "value",
        "Duration",
        qt=qt_in,
    )

    # compare
    Q.yesno(
        "compare",
        "Did I swim more in March than in February?",
        R("swim", *mar),
        R("swim", *feb),
        "sum",
        "Distance",
        la="in March",
        lb="in February",
    )
    Q.diff(
        "compare",
        "How many more km did I run in March compared with February?",
        R("run", *mar),
        R("run", *feb),
        "sum",
        "Distance",
        la="in March",
        lb="in February",
    )
    Q.yesno(
        "compare",
        "Is my heart rate higher on Beacon Hill runs than on the Canal Loop, on average?",
        R("run", START, END, Route="Beacon Hill"),
        R("run", START, END, Route="Canal Loop"),
        "avg",
        "Avg HR",
        la="on Beacon Hill",
        lb="on the Canal Loop",
    )
    Q.pct(
        "compare",
        "By what percentage did my average turbo power change from February to April?",
        R("trainer", *feb),
        R("trainer", *apr),
        "avg",
        "Avg power",
        la="in February",
        lb="in April",
    )
    Q.diff(
        "compare",
        "What's the difference between how long my swims take at Riverside and at Eastgate, on average?",
        R("swim", START, END, Pool="Riverside Centre"),
        R("swim", START, END, Pool="Eastgate Baths"),
        "avg",
        "Time",
        either_sign=True,
        la="at Riverside Centre",
        lb="at Eastgate Baths",
    )
    Q.yesno(
        "compare",
        "did my average run distance go up from feb to march?",
        R("run", *mar),
        R("run", *feb),
        "avg",
        "Distance",
        la="in March",
        lb="in February",
        rising=True,
    )

    # group
    Q.which(
        "group",
        "Which turbo workout do I do most often?",
        R("trainer", START, END),
        "Workout",
        "count",
    )
    Q.which(
        "group",
        "Which route have I racked up the most km on?",
        R("run", START, END),
        "Route",
        "sum",
        "Distance",
    )
    Q.which_period(
        "group",
        "Which week did I spend the most time on the bike trainer?",
        R("trainer", START, END),
        "week",
        "sum",
        "Duration",
    )
    Q.top_then(
        "group",
        "How many metres have I swum in total at the pool I go to most?",
        R("swim", START, END),
        "Pool",
        "count",
        None,
        "sum",
        "Distance",
    )
    Q.which(
        "group",
        "what kind of trainer session gets my highest average power?",
        R("trainer", START, END),
        "Workout",
        "avg",
        "Avg power",
    )
    Q.which_period(
        "group",
        "Which month did I run the furthest in?",
        R("run", START, END),
        "month",
        "sum",
        "Distance",
    )

    # dates
    Q.num(
        "dates",
        "How many km did I run over the first half of March?",
        R("run", d("2026-03-01"), d("2026-03-15")),
        "sum",
        "Distance",
    )
    Q.num(
        "dates",
        "total minutes on the bike trainer throughout February?",
        R("trainer", *feb),
        "sum",
        "Duration",
    )
    Q.num(
        "dates",
        "What was my average swim distance during the week of the 13th?",
        R("swim", d("2026-04-13"), d("2026-04-19")),
        "avg",
        "Distance",
    )
    Q.num(
        "dates",
        "How many runs have I done in the last 3 weeks?",
        R("run", END - timedelta(days=20), END),
        "count",
    )
    S.assert_empty("swim", d("2026-03-15"))
    Q.num(
        "dates",
        "How many metres have I swum since mid-March?",
        R("swim", d("2026-03-15"), END),
        "sum",
        "Distance",
    )
    nine = R("run", END - timedelta(days=9), END - timedelta(days=9))
    assert len(nine) == 1
    Q.num("dates", "How far did I run 9 days ago?", nine, "value", "Distance")
    return Q.items


# ================================================================ history 2: Dario, freelance translator


class Dario(History):
    name = "dario"
    user_id = "dario_translates"
    start, end = d("2026-03-02"), d("2026-05-17")
    RETAINER, MUM_IN, MUM_OUT = d("2026-03-25"), d("2026-04-18"), d("2026-05-02")
    kinds = {
        "work": Kind(
            "work",
            [("Client", None, None), ("Hours", "h", 1), ("Words", "words", 0)],
            [
                "Work log",
                "Timesheet",
                "Done for today",
                "Logging my hours",
                "Session wrapped",
            ],
            ["Timesheet", "Work log", "Hours"],
            [
                "Screenshot of my time tracker",
                "Time tracker at the end of the session",
                "Here's the tracker screen",
            ],
            ack_pool("Good shift - logged.", "Saved to your timesheet."),
            late=True,
        ),
        "invoice": Kind(
            "invoice",
            [("Client", None, None), ("Amount", "EUR", 2), ("Terms", "days", 0)],
            ["Invoice sent", "Sent an invoice", "Invoice out", "Billing done"],
            ["Invoice", "Invoice sent", "Billing"],
            [
                "Screenshot of the invoice I just sent",
                "Invoice PDF preview",
                "Here's the invoice summary",
            ],
            ack_pool(
                "Invoice logged - fingers crossed for prompt payment.",
                "Saved the invoice.",
            ),
        ),
        "expense": Kind(
            "expense",
            [("Category", None, None), ("Cost", "EUR", 2)],
            ["Expense", "Spent", "Receipt", "Business expense"],
            ["Expense", "Receipt", "Spending"],
            ["Photo of the receipt", "Receipt snap", "Card statement screenshot"],
            ack_pool("Expense noted.", "Saved for your accounts."),
        ),
    }
    events = {
        RETAINER: (
            "The clinic people finally sent back the signed paperwork this morning - a standing monthly arrangement, "
            "steady work at last. I did a little dance in the kitchen.",
            "That's wonderful news - regular work makes freelancing so much calmer. Enjoy the dance!",
            "Northwind retainer signed",
            11 * 60 + 30,
        ),
        MUM_IN: (
            "Mum's train pulled in just after lunch. She's settled into the spare room with a suitcase big enough for a "
            "month and has already rearranged my spice rack.",
            "How lovely to have her there! Enjoy the company, and maybe hide the things you don't want reorganised.",
            "mother arrives to stay",
            16 * 60 + 5,
        ),
        MUM_OUT: (
            "Walked Mum to the platform this morning and waved until the train disappeared. The flat feels very quiet "
            "now, and my fridge is full of her cooking.",
            "It's always a bit strange when the house goes quiet. At least you're well fed for a while.",
            "mother leaves",
            12 * 60 + 40,
        ),
    }
    mentions = {
        d("2026-04-08"): (
            "The clinic sent their style guide over, very thorough, lots of rules about patient-facing wording.",
            "A detailed style guide is a gift - it saves a lot of back and forth later.",
            "Northwind retainer",
        ),
        d("2026-04-24"): (
            "Mum has decided my balcony needs geraniums, so that's our weekend sorted.",
            "Geraniums are cheerful and forgiving - a nice project to do together.",
            "mother staying",
        ),
        d("2026-05-09"): (
            "Mum phoned to say the geraniums had better still be alive, and she's already planning the next visit.",
            "Sounds like you'll have to keep them watered!",
            "mother left",
        ),
    }
    chat = [
        (
            "How would you translate 'in bocca al lupo' naturally?",
            "In most contexts 'good luck' or 'break a leg' works; the wolf is best left behind.",
        ),
        (
            "Is it 'data is' or 'data are' in a legal text?",
            "Legal and scientific clients often prefer 'data are'; otherwise 'data is' is widely accepted. Follow the client's style guide.",
        ),
        (
            "My laptop fan sounds like a jet engine.",
            "It might need dusting - compressed air through the vents often helps, and check nothing heavy is running in the background.",
        ),
        (
            "Any tips for chasing a late payment without sounding rude?",
            "Keep it short and friendly: reference the invoice, say when it was due, and ask if anything is needed from your side.",
        ),
        (
            "What's a good pasta dish for one?",
            "Cacio e pepe is perfect for one: pasta, pecorino, black pepper and a splash of the cooking water.",
        ),
        (
            "Should I use British or American spelling for a games company?",
            "Ask them, but many games companies default to American spelling for a global audience.",
        ),
        (
            "I can't focus today, everything feels like wading through treacle.",
            "Start with a short, specific task to get going, and work in focused blocks with proper breaks in between.",
        ),
        (
            "How do I translate a pun that doesn't work in English?",
            "Look for a different pun with the same effect, or move the wordplay to a nearby sentence if the client allows it.",
        ),
        (
            "Recommend a good desk chair that doesn't cost a fortune?",
            "A refurbished office chair is often the best value; look for adjustable lumbar support.",
        ),
        (
            "The neighbours are drilling again.",
            "Noise-cancelling headphones and some rain sounds might save your sanity until they finish.",
        ),
        (
            "What's the English term for 'decreto legislativo'?",
            "'Legislative decree' is the usual rendering, often with the Italian in brackets the first time.",
        ),
        (
            "Is it worth joining a translators' association?",
            "Often yes - directories bring clients, and the training and community help when you work alone.",
        ),
        (
            "Rainy Sunday, I'm making risotto.",
            "Perfect risotto weather. Keep the stock hot and stir patiently - it's worth it.",
        ),
        (
            "How do I set boundaries with a client who emails at midnight?",
            "State your working hours in your signature and reply during them; most clients adapt quickly.",
        ),
        (
            "Any good style guides for medical translation?",
            "The AMA style guide and plain-language guidance for patient materials are both good starting points.",
        ),
        (
            "My plants are dying, I think I overwater them.",
            "Let the top of the soil dry out between waterings and make sure the pots drain well.",
        ),
        (
            "What's a nice way to say no to a rush job?",
            "Thank them, say you can't give it the quality it deserves this time, and suggest a later slot.",
        ),
        (
            "Help me come up with a file naming convention for projects.",
            "Client, project, language pair and version in a fixed order works well and keeps sorting tidy.",
        ),
        (
            "Can you explain what a CAT tool does?",
            "It splits a text into segments, stores your translations in a memory and suggests matches when similar sentences come back.",
        ),
        (
            "I finished a really satisfying chapter today.",
            "That's a great feeling. Enjoy it - good chapters are what the job is all about.",
        ),
        (
            "What should I cook for a friend who's vegan?",
            "A chickpea and squash stew with crusty bread, or a big pasta with roasted vegetables and a cheese-free pesto.",
        ),
        (
            "How can I improve my posture at the desk?",
            "Screen at eye level, feet flat, elbows at your sides, and stand up every so often to reset.",
        ),
        (
            "The tram was packed this morning.",
            "Rush hour crushes are no fun. A slightly later start might make the commute calmer.",
        ),
        (
            "Is it okay to turn down work from a client who pays late?",
            "Yes. You can also ask for a deposit or shorter payment terms as a condition of the next job.",
        ),
        (
            "Give me a gentle stretching routine for after a long day typing.",
            "Wrist circles, finger stretches, shoulder rolls and a slow neck stretch to each side - a few breaths each.",
        ),
        (
            "What's the difference between 'comprise' and 'compose'?",
            "The whole comprises the parts; the parts compose the whole. 'Comprised of' is common but frowned on by purists.",
        ),
        (
            "I'm thinking of learning Portuguese as a third language.",
            "With Italian already, the grammar will come fast - pronunciation will be the fun challenge.",
        ),
        (
            "Sunny afternoon, I took my laptop to the park.",
            "Lovely - just watch the screen glare and enjoy the fresh air.",
        ),
        (
            "Any tips for proofreading my own work?",
            "Leave it overnight if you can, read it aloud, and change the font so your eyes see it fresh.",
        ),
        (
            "A reader wrote to the publisher to praise my translation!",
            "That's fantastic - save that message for the days when the work feels thankless.",
        ),
        (
            "How do I stop a glossary getting out of hand?",
            "Keep one term per line with the source, the target and a short note, and prune it at the end of each project.",
        ),
    ]
    blackout = (
        {
            ("invoice", x) for x in day_range(d("2026-03-18"), d("2026-03-26"))
        }  # "the end of March": late vs last week
        | {
            (
                "work",
                d("2026-05-16"),
            ),  # the fortnight after Mum left: May 3-16 vs May 2-15
            ("work", d("2026-04-15")),
            (
                "work",
                d("2026-04-17"),
            ),  # "the past month": 30 days vs a calendar month back
            (
                "expense",
                d("2026-04-06"),
            ),  # "between the 6th and the 19th": inclusive vs exclusive
            ("expense", d("2026-04-19")),
            ("expense", d("2026-05-03")),  # "the past fortnight": 14 vs 15 days
        }
    )
    exactly_one = {
        ("invoice", d("2026-03-03")),  # February's work billed at the start of March
        ("invoice", d("2026-03-27")),
        ("invoice", d("2026-03-31")),
        ("invoice", d("2026-04-30")),
        ("work", d("2026-05-03")),  # the day after Mum left (a Sunday of catching up)
        ("work", d("2026-04-06")),  # "4 days ago" from Apr 10
    }

    def staying(self, day):
        return self.MUM_IN < day < self.MUM_OUT

    def count(self, kind, day):
        rng, wd = self.rng, day.weekday()
        weekend = wd >= 5
        if kind == "work":
            p = 0.15 if weekend else (0.6 if self.staying(day) else 0.87)
            if rng.random() >= p:
                return 0
            two = 0.1 if (weekend or self.staying(day)) else 0.3
            return 2 if rng.random() < two else 1
        if kind == "invoice":
            if weekend:
                return 0
            return 1 if rng.random() < 0.15 else 0
        if kind == "expense":
            p = 0.35 if weekend else 0.5
            if self.staying(day):
                p += 0.15
            if rng.random() >= p:
                return 0
            return 2 if rng.random() < 0.15 else 1
        raise KeyError(kind)

    def make(self, kind, day):
        rng = self.rng
        if kind == "work":
            if day <= self.RETAINER:
                c = rng.choices(
                    ["Halden Press", "Vermeer Legal", "Orbis Games"], [45, 35, 20]
                )[0]
            else:
                c = rng.choices(
                    [
                        "Northwind Clinic",
                        "Halden Press",
                        "Vermeer Legal",
                        "Orbis Games",
                    ],
                    [38, 27, 20, 15],
                )[0]
            hi = 4.0 if self.staying(day) else 6.5
            hours = rng.randrange(3, int(hi * 2) + 1) / 2
            rate = {
                "Halden Press": 480,
                "Vermeer Legal": 380,
                "Orbis Games": 560,
                "Northwind Clinic": 420,
            }[c]
            words = int(round(hours * rate * rng.uniform(0.8, 1.2) / 50)) * 50
            return {"Client": c, "Hours": hours, "Words": words}
        if kind == "invoice":
            if day in (d("2026-03-31"), d("2026-04-30")):
                return {"Client": "Northwind Clinic", "Amount": 1800.0, "Terms": 30}
            clients = ["Halden Press", "Vermeer Legal", "Orbis Games"]
            c = rng.choices(clients, [40, 35, 25])[0]
            lo, hi = {
                "Halden Press": (600, 1500),
                "Vermeer Legal": (900, 2200),
                "Orbis Games": (400, 1100),
            }[c]
            amount = round(
                rng.randrange(lo, hi) + rng.choice([0.0, 0.0, 0.5, 0.25, 0.75]), 2
            )
            terms = {"Halden Press": 30, "Vermeer Legal": 45, "Orbis Games": 14}[c]
            return {"Client": c, "Amount": amount, "Terms": terms}
        if kind == "expense":
            wd = day.weekday()
            if self.staying(day):
                cats, w = (
                    ["coworking", "lunch", "train", "software", "books"],
                    [10, 50, 15, 10, 15],
                )
            elif wd >= 5:
                cats, w = ["lunch", "train", "books", "software"], [40, 25, 25, 10]
            else:
                cats, w = (
                    ["coworking", "lunch", "train", "software", "books"],
                    [40, 19, 13, 14, 14],
                )
            cat = rng.choices(cats, w)[0]
            if cat == "coworking":
                cost = 22.0
            elif cat == "train":
                cost = round(rng.uniform(8.4, 34.9), 2)
            elif cat == "software":
                cost = rng.choice([9.99, 12.0, 24.99, 49.0])
            elif cat == "books":
                cost = round(rng.uniform(11, 32), 2)
            else:
                cost = round(rng.uniform(8.5, 21.0), 2)
            return {"Category": cat, "Cost": cost}
        raise KeyError(kind)


def dario_questions(h: Dario, S: Store):
    END = h.end
    Q = Questions(S, "cd-dario", at(END))
    qt = Q.default_qt
    START, RET, IN, OUT = h.start, h.RETAINER, h.MUM_IN, h.MUM_OUT
    one = timedelta(days=1)
    mar = (d("2026-03-01"), d("2026-03-31"))
    apr = (d("2026-04-01"), d("2026-04-30"))
    R = lambda k, a, b, t=qt, **w: S.recs(k, a, b, t, **w)  # noqa: E731

    # anchored
    Q.num(
        "anchored",
        "How many hours have I logged since the Northwind retainer kicked in?",
        R("work", RET + one, END),
        "sum",
        "Hours",
    )
    Q.num(
        "anchored",
        "how much did I invoice before I landed the retainer?",
        R("invoice", START, RET - one),
        "sum",
        "Amount",
    )
    Q.num(
        "anchored",
        "How many hours did I manage to work while Mum was staying?",
        R("work", IN + one, OUT - one),
        "sum",
        "Hours",
    )
    S.assert_empty("work", OUT + timedelta(days=14))
    Q.num(
        "anchored",
        "How many words did I get through in the fortnight after Mum went home?",
        R("work", OUT + one, OUT + timedelta(days=14)),
        "sum",
        "Words",
    )
    last = R("invoice", START, IN - one)[-1:]
    Q.num(
        "anchored",
        "What was the last invoice I sent before Mum arrived? How much was it for?",
        last,
        "value",
        "Amount",
    )
    qt_in = at(OUT + timedelta(days=3), 23, 0)
    day_after = R("work", OUT + one, OUT + one, qt_in)
    assert len(day_after) == 1
    Q.num(
        "anchored",
        "The day after Mum left, how many hours did I put in?",
        day_after,
        "value",
        "Hours",
        qt=qt_in,
    )

    # compare
    Q.yesno(
        "compare",
        "Did I invoice more in April than in March?",
        R("invoice", *apr),
        R("invoice", *mar),
        "sum",
        "Amount",
        la="in April",
        lb="in March",
    )
    Q.diff(
        "compare",
        "How much more have I spent on coworking than on train tickets?",
        R("expense", START, END, Category="coworking"),
        R("expense", START, END, Category="train"),
        "sum",
        "Cost",
        la="on coworking",
        lb="on train",
    )
    Q.yesno(
        "compare",
        "Are my invoices to Halden Press bigger on average than the ones to Vermeer Legal?",
        R("invoice", START, END, Client="Halden Press"),
        R("invoice", START, END, Client="Vermeer Legal"),
        "avg",
        "Amount",
        la="Halden Press",
        lb="Vermeer Legal",
    )
    Q.pct(
        "compare",
        "What's the percentage change in my billable hours from March to April?",
        R("work", *mar),
        R("work", *apr),
        "sum",
        "Hours",
        la="in March",
        lb="in April",
    )
    Q.diff(
        "compare",
        "how many more hours have I put in for Halden than for Orbis?",
        R("work", START, END, Client="Halden Press"),
        R("work", START, END, Client="Orbis Games"),
        "sum",
        "Hours",
        la="for Halden Press",
        lb="for Orbis Games",
    )
    Q.yesno(
        "compare",
        "did my spending go up from March to April?",
        R("expense", *apr),
        R("expense", *mar),
        "sum",
        "Cost",
        la="in April",
        lb="in March",
        rising=True,
    )

    # group
    Q.which(
        "group",
        "Which client have I billed the most overall?",
        R("invoice", START, END),
        "Client",
        "sum",
        "Amount",
    )
    Q.which(
        "group",
        "Who do I log work for most often?",
        R("work", START, END),
        "Client",
        "count",
    )
    Q.which(
        "group",
        "What's my biggest spending category?",
        R("expense", START, END),
        "Category",
        "sum",
        "Cost",
    )
    Q.which_period(
        "group",
        "Which week did I translate the most words?",
        R("work", START, END),
        "week",
        "sum",
        "Words",
    )
    Q.top_then(
        "group",
        "How many hours in total have I done for the client I work for most often?",
        R("work", START, END),
        "Client",
        "count",
        None,
        "sum",
        "Hours",
    )
    Q.which_period(
        "group",
        "Which month did I put in the most hours?",
        R("work", START, END),
        "month",
        "sum",
        "Hours",
    )

    # dates
    Q.num(
        "dates",
        "How many hours did I work in the first ten days of April?",
        R("work", d("2026-04-01"), d("2026-04-10")),
        "sum",
        "Hours",
    )
    S.assert_empty("expense", d("2026-04-06"))
    S.assert_empty("expense", d("2026-04-19"))
    Q.num(
        "dates",
        "what did I spend between the 6th and the 19th of April?",
        R("expense", d("2026-04-06"), d("2026-04-19")),
        "sum",
        "Cost",
    )
    for x in day_range(d("2026-03-18"), d("2026-03-26")):
        S.assert_empty("invoice", x)
    Q.num(
        "dates",
        "How many invoices went out at the end of March?",
        R("invoice", d("2026-03-21"), d("2026-03-31")),
        "count",
    )
    S.assert_empty("expense", END - timedelta(days=14))
    Q.num(
        "dates",
        "How much have I spent in the past fortnight?",
        R("expense", END - timedelta(days=13), END),
        "sum",
        "Cost",
    )
    S.assert_empty("work", END - timedelta(days=30))
    Q.num(
        "dates",
        "How many hours have I logged in the past month?",
        R("work", END - timedelta(days=29), END),
        "sum",
        "Hours",
    )
    qt4 = at(d("2026-04-10"), 23, 0)
    four = R("work", d("2026-04-06"), d("2026-04-06"), qt4)
    assert len(four) == 1
    Q.num(
        "dates",
        "How many words did I translate 4 days ago?",
        four,
        "value",
        "Words",
        qt=qt4,
    )
    return Q.items


# ================================================================ history 3: Ines, migraine diary


class Ines(History):
    name = "ines"
    user_id = "ines_headdiary"
    start, end = d("2026-01-05"), d("2026-03-29")
    PREV, AWAY, HOME = d("2026-02-02"), d("2026-02-20"), d("2026-02-27")
    kinds = {
        "attack": Kind(
            "attack",
            [("Trigger", None, None), ("Duration", "h", 1), ("Pain", None, 0)],
            [
                "Migraine diary",
                "Head log",
                "Attack log",
                "Another one today",
                "Migraine",
            ],
            ["Migraine", "Attack", "Head diary"],
            [
                "Screenshot from my migraine app",
                "Here's the entry from the headache app",
                "Migraine app screen",
            ],
            ack_pool(
                "I'm sorry it was a bad one - logged.", "Noted in your diary. Rest up."
            ),
        ),
        "med": Kind(
            "med",
            [("Medication", None, None), ("Dose", "mg", 0), ("Relief", "min", 0)],
            ["Meds", "Took something", "Medication log", "Pill taken"],
            ["Meds", "Dose log", "Pill log"],
            ["Photo of the med tracker", "Pill tracker screenshot", "Meds app entry"],
            ack_pool("Dose logged.", "Noted - hope it keeps working."),
        ),
        "checkin": Kind(
            "checkin",
            [("Water", "L", 1), ("Screen time", "h", 1)],
            ["Daily check-in", "Evening check-in", "Today's numbers", "Check-in"],
            ["Check-in", "Daily check-in", "Habits"],
            [
                "Screenshot of my habit tracker",
                "Habit app at the end of the day",
                "Phone wellbeing screen",
            ],
            ack_pool("Check-in saved.", "Thanks, logged for today."),
            late=True,
        ),
    }
    events = {
        PREV: (
            "Saw the neurologist this afternoon and we're finally trying something I take every evening to stop them "
            "before they start. Picked up the first box at the chemist and swallowed the first tablet with dinner. Fingers crossed.",
            "That's a big step - it often takes a few weeks to show its effect, so be patient with it.",
            "starts a daily preventive",
            20 * 60 + 35,
        ),
        AWAY: (
            "Sitting at the gate with a pastry, boarding soon. A whole week at Clara's place in Porto - my big sister "
            "has planned every single meal already.",
            "Have a wonderful time! Pack your usual meds in your hand luggage just in case.",
            "flies away to her sister's",
            10 * 60 + 15,
        ),
        HOME: (
            "Back in my own bed tonight. The suitcase has exploded all over the hallway and I already miss the sea air "
            "and Clara's cooking.",
            "Welcome home! Unpacking can wait until tomorrow.",
            "returns home",
            22 * 60 + 10,
        ),
    }
    mentions = {
        d("2026-02-10"): (
            "The new evening tablets make me a bit drowsy, but the doctor said that usually settles.",
            "It often does settle after the first weeks. Mention it at your follow-up if it doesn't.",
            "preventive",
        ),
        d("2026-03-04"): (
            "My neurologist was pleased at the follow-up, she thinks the daily pills are doing their job.",
            "That's really encouraging news.",
            "preventive",
        ),
        d("2026-03-08"): (
            "Still thinking about those blue tiles and the river in Porto, I want to go back in the summer.",
            "It sounds like it left a mark - a summer trip would be lovely.",
            "trip",
        ),
    }
    chat = [
        (
            "Can you suggest a calming playlist for working?",
            "Ambient and lo-fi instrumental music tends to work well - nothing with lyrics to pull your attention.",
        ),
        (
            "Is dark mode actually better for your eyes?",
            "It can reduce glare in dim rooms, but good lighting and regular breaks matter more than the colour scheme.",
        ),
        (
            "What's a simple lunch I can batch cook?",
            "A big pot of lentil soup or a tray of roasted vegetables with grains keeps well for several days.",
        ),
        (
            "My client wants the logo bigger. Again.",
            "The classic request! Show the bigger version next to the original so they can see the balance.",
        ),
        (
            "Any gentle yoga poses for a stiff neck?",
            "Try slow neck rolls, cat-cow, thread the needle and child's pose, breathing slowly in each.",
        ),
        (
            "The wind is howling tonight.",
            "Sounds wild out there. A good night to stay in with a blanket.",
        ),
        (
            "What's a good font pairing for a bakery menu?",
            "A warm serif for headings with a clean sans-serif for the items usually feels friendly and readable.",
        ),
        (
            "How do I make my flat less bright in the mornings?",
            "Blackout lining on the curtains or a simple roller blind behind them makes a big difference.",
        ),
        (
            "Recommend a novel that isn't too heavy?",
            "Something light and warm, like a cosy mystery or a feel-good story about a small community.",
        ),
        (
            "I have a big pitch presentation coming up and I'm nervous.",
            "Rehearse the opening until it's automatic - once you're rolling, the nerves usually settle.",
        ),
        (
            "What's the best way to organise design files?",
            "One folder per client, subfolders per project, and clear version names so you never hunt for the final final file.",
        ),
        (
            "Made a big pot of soup today, feeling very domestic.",
            "Nothing beats a pot of soup on the stove. Enjoy it!",
        ),
        (
            "Any tips for staying hydrated when I forget to drink?",
            "Keep a bottle on your desk, have a glass with every meal, and try herbal tea in the afternoon.",
        ),
        (
            "How can I cut down on screen glare?",
            "Lower the brightness to match the room, use a matte filter, and set the screen side-on to windows.",
        ),
        (
            "My neighbour's cat keeps visiting my balcony.",
            "Sounds like you've been adopted. Put a little cushion out there and you'll have a regular guest.",
        ),
        (
            "What's a good stretch after sitting all day?",
            "A standing forward fold, hip flexor lunges and a doorway chest stretch undo a lot of desk hunching.",
        ),
        (
            "Is it worth learning motion design?",
            "It's in demand and fun - start with simple logo animations and build up from there.",
        ),
        (
            "Grey and drizzly again.",
            "The kind of day for a warm drink and a good playlist.",
        ),
        (
            "What should I pack for a week somewhere by the sea?",
            "Light layers, comfy walking shoes, sunglasses, a scarf and a rain jacket for the evenings.",
        ),
        (
            "How do I tell a client politely that their deadline isn't realistic?",
            "Explain what's possible in that time, offer a phased delivery, and let them choose.",
        ),
        (
            "Any suggestions for a relaxing evening routine?",
            "Dim the lights, put the phone away, a warm shower, then a book or some gentle stretching.",
        ),
        (
            "What colours go well with terracotta?",
            "Sage green, cream, deep navy and warm mustard all sit nicely next to terracotta.",
        ),
        (
            "My friend is getting married and asked me to design the invitations!",
            "What a lovely thing to be asked. Start with a mood board of their favourite things.",
        ),
        (
            "How do I stop clenching my jaw at my desk?",
            "Notice it, rest your tongue on the roof of your mouth, and set gentle reminders to relax your face and shoulders.",
        ),
        (
            "Recipe idea with leftover rice?",
            "Fried rice with an egg and whatever veg you have, or rice pudding if you fancy something sweet.",
        ),
        (
            "The printer jammed right before a client meeting.",
            "Classic timing. A PDF on a tablet can be a calmer backup next time.",
        ),
        (
            "Can you recommend a podcast about design?",
            "There are good interview shows with designers talking about their process - try one and see if the host suits you.",
        ),
        (
            "Spent the afternoon sketching in the park.",
            "That sounds restorative - sketching outdoors is a lovely break from the screen.",
        ),
        (
            "Does magnesium help with headaches?",
            "Some people find it helps; ask your doctor before starting any supplement.",
        ),
        (
            "I finally tidied my desk.",
            "A clear desk feels great. Enjoy the space while it lasts!",
        ),
        (
            "Is it silly to wear sunglasses indoors when the light bothers me?",
            "Not at all - lots of people with light sensitivity do, and tinted lenses can help too.",
        ),
    ]
    blackout = {
        (
            "checkin",
            d("2026-03-13"),
        ),  # two weeks after getting home: Feb 28-Mar 13 vs Feb 27-Mar 12
        ("attack", d("2026-02-15")),  # "since mid-February": the 15th or the 16th
        ("med", d("2026-03-19")),  # "the last 10 days": 10 vs 11 days
    }
    exactly_one = {
        ("attack", d("2026-02-23")),  # a family dinner with wine while away
        ("attack", d("2026-03-24")),  # "three days ago" from Mar 27
    }

    def phase(self, day):
        if day < self.PREV:
            return "pre"
        if day < self.PREV + timedelta(days=14):
            return "early"
        if self.AWAY < day < self.HOME:
            return "away"
        if day < d("2026-03-01"):
            return "feb"
        return "mar"

    def count(self, kind, day):
        rng, ph = self.rng, self.phase(day)
        if kind == "attack":
            p = {"pre": 0.3, "early": 0.22, "away": 0.2, "feb": 0.14, "mar": 0.12}[ph]
            return 1 if rng.random() < p else 0
        if kind == "med":
            if self.today.get("attack"):
                return 2 if rng.random() < (0.45 if ph == "pre" else 0.3) else 1
            return 1 if rng.random() < 0.07 else 0
        if kind == "checkin":
            p = 0.35 if ph == "away" else 0.72
            return 1 if rng.random() < p else 0
        raise KeyError(kind)

    def make(self, kind, day):
        rng, ph = self.rng, self.phase(day)
        if kind == "attack":
            if ph == "away":
                trig = rng.choices(
                    ["red wine", "skipped meal", "weather"], [45, 30, 25]
                )[0]
            else:
                trig = rng.choices(
                    ["weather", "screens", "stress", "red wine", "skipped meal"],
                    [24, 30, 24, 11, 11],
                )[0]
            if day == d("2026-02-23"):
                trig = "red wine"
            if ph == "pre":
                pain, dur = rng.randint(5, 9), rng.uniform(4, 18)
            elif ph in ("early", "away"):
                pain, dur = rng.randint(4, 8), rng.uniform(3, 14)
            else:
                pain, dur = rng.randint(3, 7), rng.uniform(2.5, 10)
            if trig == "weather":
                pain = min(10, pain + 1)
            return {"Trigger": trig, "Duration": round(dur, 1), "Pain": pain}
        if kind == "med":
            if self.today.get("attack"):
                m = rng.choices(
                    ["sumatriptan", "ibuprofen", "paracetamol"], [45, 35, 20]
                )[0]
            else:
                m = rng.choices(["ibuprofen", "paracetamol"], [60, 40])[0]
            dose = {
                "sumatriptan": rng.choice([50, 50, 100]),
                "ibuprofen": rng.choice([400, 400, 200]),
                "paracetamol": rng.choice([1000, 1000, 500]),
            }[m]
            lo, hi = {
                "sumatriptan": (25, 60),
                "ibuprofen": (50, 110),
                "paracetamol": (60, 130),
            }[m]
            return {"Medication": m, "Dose": dose, "Relief": rng.randint(lo, hi)}
        if kind == "checkin":
            lo, hi = {
                "pre": (1.1, 2.0),
                "early": (1.3, 2.2),
                "away": (1.0, 1.8),
                "feb": (1.4, 2.4),
                "mar": (1.6, 2.6),
            }[ph]
            slo, shi = {
                "pre": (6, 10.5),
                "early": (5.5, 9.5),
                "away": (1.5, 4),
                "feb": (5, 9),
                "mar": (4.5, 8),
            }[ph]
            return {
                "Water": round(rng.uniform(lo, hi), 1),
                "Screen time": round(rng.uniform(slo, shi), 1),
            }
        raise KeyError(kind)


def ines_questions(h: Ines, S: Store):
    END = h.end
    Q = Questions(S, "cd-ines", at(END))
    qt = Q.default_qt
    START, PREV, AWAY, HOME = h.start, h.PREV, h.AWAY, h.HOME
    one = timedelta(days=1)
    jan = (d("2026-01-01"), d("2026-01-31"))
    feb = (d("2026-02-01"), d("2026-02-28"))
    mar = (d("2026-03-01"), d("2026-03-31"))
    R = lambda k, a, b, t=qt, **w: S.recs(k, a, b, t, **w)  # noqa: E731

    # anchored
    Q.num(
        "anchored",
        "How many migraines have I had since I started the preventive?",
        R("attack", PREV + one, END),
        "count",
    )
    Q.num(
        "anchored",
        "What was my average pain score before I went on the daily tablets?",
        R("attack", START, PREV - one),
        "avg",
        "Pain",
    )
    Q.num(
        "anchored",
        "how many painkillers did I take while I was away?",
        R("med", AWAY + one, HOME - one),
        "count",
    )
    S.assert_empty("checkin", HOME + timedelta(days=14))
    Q.num(
        "anchored",
        "In the two weeks after I got home from my trip, how much water was I drinking on average?",
        R("checkin", HOME + one, HOME + timedelta(days=14)),
        "avg",
        "Water",
    )
    first = R("attack", HOME + one, END)[:1]
    Q.num(
        "anchored",
        "How long did my first migraine after I got back last?",
        first,
        "value",
        "Duration",
    )
    Q.num(
        "anchored",
        "What was my average screen time in the seven days before I flew out?",
        R("checkin", AWAY - timedelta(days=7), AWAY - one),
        "avg",
        "Screen time",
    )

    # compare
    Q.yesno(
        "compare",
        "Did I get more migraines in January than in February?",
        R("attack", *jan),
        R("attack", *feb),
        "count",
        la="in January",
        lb="in February",
    )
    Q.diff(
        "compare",
        "How much longer did my attacks last on average in January than in March?",
        R("attack", *jan),
        R("attack", *mar),
        "avg",
        "Duration",
        la="in January",
        lb="in March",
    )
    Q.yesno(
        "compare",
        "is my pain usually worse when the trigger is weather than when it's stress?",
        R("attack", START, END, Trigger="weather"),
        R("attack", START, END, Trigger="stress"),
        "avg",
        "Pain",
        la="weather",
        lb="stress",
    )
    Q.pct(
        "compare",
        "What's the percent change in my average screen time from January to March?",
        R("checkin", *jan),
        R("checkin", *mar),
        "avg",
        "Screen time",
        la="in January",
        lb="in March",
    )
    Q.yesno(
        "compare",
        "Did my water intake go up from January to February?",
        R("checkin", *feb),
        R("checkin", *jan),
        "avg",
        "Water",
        la="in February",
        lb="in January",
        rising=True,
    )
    Q.diff(
        "compare",
        "What's the difference in total sumatriptan between January and February?",
        R("med", *jan, Medication="sumatriptan"),
        R("med", *feb, Medication="sumatriptan"),
        "sum",
        "Dose",
        either_sign=True,
        la="in January",
        lb="in February",
    )

    # group
    Q.which(
        "group",
        "What sets off my migraines most often?",
        R("attack", START, END),
        "Trigger",
        "count",
    )
    Q.which(
        "group",
        "Which medication do I reach for most?",
        R("med", START, END),
        "Medication",
        "count",
    )
    Q.which_period(
        "group",
        "Which week had the most hours of migraine?",
        R("attack", START, END),
        "week",
        "sum",
        "Duration",
    )
    Q.which(
        "group",
        "Which painkiller works fastest for me on average?",
        R("med", START, END),
        "Medication",
        "avg",
        "Relief",
        order="min",
    )
    Q.top_then(
        "group",
        "How many hours of migraine have I had in total from my most common trigger?",
        R("attack", START, END),
        "Trigger",
        "count",
        None,
        "sum",
        "Duration",
    )
    Q.which_period(
        "group",
        "Which month was my average water intake highest?",
        R("checkin", START, END),
        "month",
        "avg",
        "Water",
    )

    # dates
    Q.num(
        "dates",
        "How many attacks did I have throughout February?",
        R("attack", *feb),
        "count",
    )
    Q.num(
        "dates",
        "What was my average screen time over the second half of January?",
        R("checkin", d("2026-01-16"), d("2026-01-31")),
        "avg",
        "Screen time",
    )
    Q.num(
        "dates",
        "how much water was I averaging during the week of the 9th?",
        R("checkin", d("2026-03-09"), d("2026-03-15")),
        "avg",
        "Water",
    )
    S.assert_empty("med", END - timedelta(days=10))
    Q.num(
        "dates",
        "How many doses have I taken in the last 10 days?",
        R("med", END - timedelta(days=9), END),
        "count",
    )
    qt3 = at(d("2026-03-27"), 23, 0)
    three = R("attack", d("2026-03-24"), d("2026-03-24"), qt3)
    assert len(three) == 1
    assert three[0] is not first[0], (
        "the three-days-ago attack is also the first one after the trip"
    )
    Q.num(
        "dates",
        "How long did the migraine three days ago last?",
        three,
        "value",
        "Duration",
        qt=qt3,
    )
    S.assert_empty("attack", d("2026-02-15"))
    Q.num(
        "dates",
        "What's my average pain been since mid-February?",
        R("attack", d("2026-02-15"), END),
        "avg",
        "Pain",
    )
    return Q.items


# ---------------------------------------------------------------- driver

HISTORIES = [(Noor, noor_questions), (Dario, dario_questions), (Ines, ines_questions)]


def generate(seed: int):
    out = {}
    stats = {}
    all_q = []
    for cls, qfn in HISTORIES:
        rng = random.Random(f"{seed}:{cls.name}")
        h = cls(rng)
        h.event_rounds, h.mention_rounds = {}, {}
        doc = h.build()
        S = Store(h)
        qs = qfn(h, S)
        fams = defaultdict(int)
        for q in qs:
            fams[q["family"]] += 1
        assert len(qs) >= 22 and all(
            fams[f] >= 5 for f in ("anchored", "compare", "group", "dates")
        ), fams
        # no record on an event day, event rounds present
        assert set(h.event_rounds) == set(h.events)
        out[f"history_{h.name}.json"] = (
            json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
        )
        out[f"questions_{h.name}.jsonl"] = "".join(
            json.dumps(q, ensure_ascii=False) + "\n" for q in qs
        )
        all_q.extend(qs)
        per_kind = defaultdict(
            lambda: {"records": 0, "days": set(), "styles": defaultdict(int)}
        )
        for r in h.records:
            pk = per_kind[r.kind]
            pk["records"] += 1
            pk["days"].add(r.day)
            pk["styles"][r.style] += 1
        stats[h.name] = {
            "user_id": h.user_id,
            "sessions": len(doc["sessions"]),
            "rounds": sum(len(s["rounds"]) for s in doc["sessions"]),
            "records": len(h.records),
            "kinds": {
                k: {
                    "records": v["records"],
                    "days": len(v["days"]),
                    "styles": dict(sorted(v["styles"].items())),
                }
                for k, v in per_kind.items()
            },
            "events": {
                day.isoformat(): [h.event_rounds[day], h.events[day][2]]
                for day in sorted(h.events)
            },
            "mentions": {
                day.isoformat(): [h.mention_rounds[day], h.mentions[day][2]]
                for day in sorted(h.mentions)
            },
            "families": dict(fams),
        }
    ids = [q["question_id"] for q in all_q]
    assert len(ids) == len(set(ids))
    out["questions.jsonl"] = "".join(
        json.dumps(q, ensure_ascii=False) + "\n" for q in all_q
    )
    return out, stats


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument(
        "--search",
        type=int,
        default=0,
        help="try this many seeds from --seed and report which pass",
    )
    ap.add_argument("--out", type=Path, default=HERE)
    ap.add_argument(
        "--stats", action="store_true", help="print per-history statistics as JSON"
    )
    args = ap.parse_args(argv)
    if args.search:
        for s in range(args.seed, args.seed + args.search):
            try:
                generate(s)
                print(f"seed {s}: ok")
            except AssertionError as e:
                frames = [
                    f
                    for f in traceback.extract_tb(e.__traceback__)
                    if f.name.endswith("_questions") or f.name == "build"
                ]
                where = f" at line {frames[-1].lineno}" if frames else ""
                print(f"seed {s}: rejected{where} ({e!r})")
        return 0
    files, stats = generate(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (args.out / name).write_text(text, encoding="utf-8")
    if args.stats:
        print(json.dumps(stats, indent=1))
    else:
        n = sum(1 for line in files["questions.jsonl"].splitlines() if line.strip())
        print(
            f"seed {args.seed}: wrote {len(files)} files, {n} questions to {args.out}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
