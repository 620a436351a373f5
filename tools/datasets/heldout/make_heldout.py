"""Held-out analytic-memory benchmark: writes history.json and questions.jsonl.

Seeded and deterministic. One user logs four kinds of records in chat over 45 days
(2026-05-01 .. 2026-06-14): blood pressure, body weight, coffee/tea drinks and
reading sessions, mixed with ordinary chatter. Every gold answer is computed below
from the records this script wrote; nothing is typed in by hand.

Run:  python tools/datasets/heldout/make_heldout.py
"""

from __future__ import annotations

import datetime as dt
import json
import random
import statistics
from pathlib import Path

SEED = 20260503
HERE = Path(__file__).resolve().parent
START = dt.date(2026, 5, 1)
DAYS = 45
END = START + dt.timedelta(days=DAYS - 1)  # 2026-06-14, a Sunday
DEFAULT_QT = dt.datetime.combine(END, dt.time(23, 59))

rng = random.Random(SEED)

# --------------------------------------------------------------------------- records

CHATTER = [
    (
        "Any idea what to cook with leftover rice and two eggs?",
        "Fried rice is the classic - add whatever vegetables you have and a splash of soy sauce.",
    ),
    (
        "It's pouring again. Third day in a row.",
        "Sounds like a good evening for staying in.",
    ),
    (
        "Can you remind me why people say 'break a leg'?",
        "It's theatre slang for good luck; the origin is disputed, but it's been around since the 1920s.",
    ),
    (
        "My neighbour's dog barked all night, I'm wrecked.",
        "That's rough. Earplugs or a white-noise app might help tonight.",
    ),
    (
        "What's a good stretch for a stiff lower back?",
        "Try a knees-to-chest stretch and a gentle cat-cow, 30 seconds each.",
    ),
    ("Reminder: dentist on Thursday at 3pm", "Noted, I'll keep that in mind."),
    (
        "Thinking about repainting the hallway, maybe a pale green.",
        "Pale sage greens work well in hallways with little daylight.",
    ),
    (
        "Do you know a quick way to descale a kettle?",
        "Fill it halfway with equal parts water and white vinegar, boil, let it sit an hour, rinse well.",
    ),
    (
        "Work was chaotic today, two deadlines moved up.",
        "That sounds stressful - hope tomorrow is calmer.",
    ),
    (
        "Should I bring a jacket to the concert tonight?",
        "Evenings are still cool, so a light jacket is a safe bet.",
    ),
    (
        "My sister's birthday is next week, gift ideas?",
        "A nice notebook, a plant, or tickets to something you could do together.",
    ),
    (
        "How long should I boil an egg for a jammy yolk?",
        "About 6 and a half minutes, then straight into cold water.",
    ),
    ("I finally fixed the squeaky door hinge.", "Nice, small wins count."),
    (
        "Is it normal for basil to wilt in the afternoon sun?",
        "Yes, it often perks up in the evening; water it in the morning and give it some shade.",
    ),
    ("Booked train tickets for the long weekend.", "Great - where are you heading?"),
    (
        "Any podcast recommendations for the commute?",
        "If you like history, 'The Rest Is History' is a popular pick.",
    ),
    ("Note to self - call the bank about the card", "Got it."),
    (
        "The new running shoes feel great so far.",
        "Glad to hear it - ease into longer runs with them.",
    ),
    (
        "Why does bread go stale faster in the fridge?",
        "Cold speeds up starch retrogradation; bread keeps better at room temperature or frozen.",
    ),
    (
        "Watched a documentary about octopuses, wild animals.",
        "They really are - eight arms with a lot of independent neural control.",
    ),
]

ACKS = [
    "Logged.",
    "Got it, logged.",
    "Noted.",
    "Saved to your log.",
    "Thanks, recorded.",
    "Done.",
]

DRINKS = {
    # drink: (sizes in ml, caffeine range mg)
    "latte": ([350, 470], (110, 160)),
    "flat white": ([240], (120, 150)),
    "espresso": ([30, 60], (60, 130)),
    "cappuccino": ([250, 350], (100, 145)),
    "cold brew": ([350, 470], (180, 260)),
    "americano": ([350, 470], (140, 200)),
    "green tea": ([300, 400], (25, 50)),
}
DRINK_WEIGHTS = [30, 12, 10, 12, 10, 14, 12]
CAFES = ["Blue Bottle", "Starbucks", "Cafe Nero", "home", "Corner Roasters"]
CAFE_WEIGHTS = [25, 25, 15, 20, 15]

BOOKS = [  # (title, first day index, last day index)
    ("Dune", 0, 16),
    ("Piranesi", 14, 26),
    ("Project Hail Mary", 25, 38),
    ("The Overstory", 36, 44),
]


def fmt_bp(s: int, d: int, p: int) -> str:
    style = rng.randrange(6)
    lead = rng.choice(
        [
            "BP this morning",
            "Morning blood pressure",
            "bp check",
            "Took my BP",
            "Blood pressure before breakfast",
        ]
    )
    if style == 0:
        return f"{lead} - Systolic: {s} mmHg, Diastolic: {d} mmHg, Pulse: {p} bpm"
    if style == 1:
        return f"{lead}. systolic: {s} mmHg, diastolic: {d} mmHg, pulse: {p} bpm"
    if style == 2:
        return f"{lead} | Systolic: {s} mmHg | Diastolic: {d} mmHg | Pulse: {p} bpm"
    if style == 3:
        return (
            "Cuff reading\n| Systolic | Diastolic | Pulse |\n|---|---|---|\n"
            f"| {s} mmHg | {d} mmHg | {p} bpm |"
        )
    if style == 4:
        return f"{lead} {json.dumps({'Systolic': f'{s} mmHg', 'Diastolic': f'{d} mmHg', 'Pulse': f'{p} bpm'})}"
    return f"{lead}: Systolic = {s} mmHg, Diastolic = {d} mmHg, Pulse = {p} bpm"


def fmt_weight(w: float, f: float) -> str:
    style = rng.randrange(4)
    lead = rng.choice(
        [
            "Scale this morning.",
            "Weigh-in done.",
            "Stepped on the scale.",
            "Morning weigh in.",
        ]
    )
    if style == 0:
        return f"{lead} Weight: {w:.1f} kg, Body fat: {f:.1f} %"
    if style == 1:
        return f"{lead} weight = {w:.1f} kg, body fat = {f:.1f} %"
    if style == 2:
        return f"{lead}\n| Weight | Body fat |\n|---|---|\n| {w:.1f} kg | {f:.1f} % |"
    return f"{lead} {json.dumps({'Weight': f'{w:.1f} kg', 'Body fat': f'{f:.1f} %'})}"


def fmt_drink(drink: str, size: int, caf: int, cafe: str) -> str:
    style = rng.randrange(4)
    lead = rng.choice(
        [
            "Coffee log",
            "Caffeine tracker",
            "Another one",
            "Drink log",
            "Quick drink entry",
        ]
    )
    if style == 0:
        return f"{lead} - Drink: {drink}, Size: {size} ml, Caffeine: {caf} mg, Cafe: {cafe}"
    if style == 1:
        return f"{lead} | Drink: {drink} | Size: {size} ml | Caffeine: {caf} mg | Cafe: {cafe}"
    if style == 2:
        return f"{lead} {json.dumps({'Drink': drink, 'Size': f'{size} ml', 'Caffeine': f'{caf} mg', 'Cafe': cafe})}"
    return (
        f"{lead}: drink = {drink}, size = {size} ml, caffeine = {caf} mg, cafe = {cafe}"
    )


def fmt_reading(book: str, pages: int, minutes: int) -> str:
    style = rng.randrange(4)
    lead = rng.choice(
        [
            "Read before bed.",
            "Reading tonight.",
            "Evening reading done.",
            "Log my reading please.",
        ]
    )
    if style == 0:
        return f"{lead} Book: {book}, Pages: {pages}, Duration: {minutes} min"
    if style == 1:
        return f"{lead}\n| Book | Pages | Duration |\n|---|---|---|\n| {book} | {pages} | {minutes} min |"
    if style == 2:
        return f"{lead} {json.dumps({'Book': book, 'Pages': pages, 'Duration': f'{minutes} min'})}"
    return f"{lead} book = {book}, pages = {pages}, duration = {minutes} min"


def hm(h0: int, m0: int, h1: int, m1: int) -> dt.time:
    a, b = h0 * 60 + m0, h1 * 60 + m1
    t = rng.randint(a, b)
    return dt.time(t // 60, t % 60)


# Days where a kind must appear so that the fixed-date questions are well defined.
FORCED = {
    "bp": {dt.date(2026, 5, 1), dt.date(2026, 6, 1)},
    "weight": {dt.date(2026, 5, 4), dt.date(2026, 6, 12)},
    "drink": {dt.date(2026, 6, 2)},
    "reading": set(),
}
PROB = {"bp": 0.78, "weight": 0.72, "drink": 0.85, "reading": 0.75}

records: list[dict] = []  # {"kind", "date", "time", "round_id", fields...}
sessions = []
weight = 75.2
fat = 21.4
for i in range(DAYS):
    day = START + dt.timedelta(days=i)
    items = []  # (time, kind, text, fields)
    if rng.random() < PROB["bp"] or day in FORCED["bp"]:
        s = rng.randint(112, 143)
        d = max(66, min(95, int(s * 0.62) + rng.randint(-6, 6)))
        p = rng.randint(56, 82)
        items.append(
            (
                hm(6, 40, 8, 30),
                "bp",
                fmt_bp(s, d, p),
                {"systolic": s, "diastolic": d, "pulse": p},
            )
        )
    weight += rng.uniform(-0.35, 0.22)
    fat += rng.uniform(-0.18, 0.12)
    if rng.random() < PROB["weight"] or day in FORCED["weight"]:
        w, f = (
            round(weight + rng.uniform(-0.3, 0.3), 1),
            round(fat + rng.uniform(-0.2, 0.2), 1),
        )
        items.append(
            (hm(6, 0, 7, 0), "weight", fmt_weight(w, f), {"weight": w, "body_fat": f})
        )
    if rng.random() < PROB["drink"] or day in FORCED["drink"]:
        n = 2 if rng.random() < 0.2 else 1
        for k in range(n):
            drink = rng.choices(list(DRINKS), DRINK_WEIGHTS)[0]
            sizes, (lo, hi) = DRINKS[drink]
            size = rng.choice(sizes)
            caf = rng.randint(lo, hi)
            cafe = rng.choices(CAFES, CAFE_WEIGHTS)[0]
            t = hm(8, 30, 11, 30) if k == 0 else hm(13, 0, 16, 30)
            items.append(
                (
                    t,
                    "drink",
                    fmt_drink(drink, size, caf, cafe),
                    {"drink": drink, "size": size, "caffeine": caf, "cafe": cafe},
                )
            )
    if rng.random() < PROB["reading"] or day in FORCED["reading"]:
        books = [b for b, a, z in BOOKS if a <= i <= z]
        book = rng.choice(books)
        minutes = rng.randint(15, 95)
        pages = max(4, int(minutes * rng.uniform(0.55, 0.95)))
        items.append(
            (
                hm(20, 0, 22, 45),
                "reading",
                fmt_reading(book, pages, minutes),
                {"book": book, "pages": pages, "minutes": minutes},
            )
        )
    n_chat = rng.randint(0, 2)
    while len(items) + n_chat < 2:
        n_chat += 1
    n_chat = min(n_chat, max(0, 5 - len(items)))
    for _ in range(n_chat):
        u, a = rng.choice(CHATTER)
        items.append((hm(9, 0, 22, 0), "chat", u, {"assistant": a}))
    # keep the day at 5 rounds at most: drop chatter first, then second drinks
    while len(items) > 5:
        idx = next((j for j, it in enumerate(items) if it[1] == "chat"), None)
        if idx is None:
            idx = max(j for j, it in enumerate(items) if it[1] == "drink")
        items.pop(idx)
    items.sort(key=lambda it: it[0])
    sid = f"S{i + 1}"
    rounds = []
    used_times = set()
    for k, (t, kind, text, fields) in enumerate(items, start=1):
        ts = dt.datetime.combine(day, t)
        while ts in used_times:
            ts += dt.timedelta(minutes=1)
        used_times.add(ts)
        rid = f"{sid}:{k}"
        if kind == "chat":
            rounds.append(
                {
                    "round_id": rid,
                    "time": ts.strftime("%Y-%m-%dT%H:%M"),
                    "user": text,
                    "assistant": fields["assistant"],
                }
            )
        else:
            rounds.append(
                {
                    "round_id": rid,
                    "time": ts.strftime("%Y-%m-%dT%H:%M"),
                    "user": text,
                    "assistant": rng.choice(ACKS),
                }
            )
            records.append(
                {"kind": kind, "date": day, "time": ts, "round_id": rid, **fields}
            )
    sessions.append({"session_id": sid, "date": day.isoformat(), "rounds": rounds})

history = {"user_id": "heldout", "sessions": sessions}

# --------------------------------------------------------------------------- gold helpers


def d(s: str) -> dt.date:
    return dt.date.fromisoformat(s)


def qt(s: str | None) -> dt.datetime:
    return DEFAULT_QT if s is None else dt.datetime.fromisoformat(s)


def last_week(now: dt.datetime) -> tuple[dt.date, dt.date]:
    monday = now.date() - dt.timedelta(days=now.weekday())
    return monday - dt.timedelta(days=7), monday - dt.timedelta(days=1)


def past_days(now: dt.datetime, n: int) -> tuple[dt.date, dt.date]:
    return now.date() - dt.timedelta(days=n - 1), now.date()


def this_month(now: dt.datetime) -> tuple[dt.date, dt.date]:
    return now.date().replace(day=1), now.date()


def since(x: str, now: dt.datetime) -> tuple[dt.date, dt.date]:
    return d(x), now.date()


def month(y: int, m: int) -> tuple[dt.date, dt.date]:
    nxt = dt.date(y + m // 12, m % 12 + 1, 1)
    return dt.date(y, m, 1), nxt - dt.timedelta(days=1)


ALL = (START, END)


def select(kind, now, span=ALL, where=None):
    lo, hi = span
    out = [
        r
        for r in records
        if r["kind"] == kind and r["time"] <= now and lo <= r["date"] <= hi
    ]
    if where:
        out = [r for r in out if where(r)]
    assert out, (kind, span)
    return out


def decimals(xs):
    return max(
        (len(repr(float(x)).split(".")[1].rstrip("0")) if isinstance(x, float) else 0)
        for x in xs
    )


def unique_extreme(rows, col, fn):
    best = fn(r[col] for r in rows)
    hits = [r for r in rows if r[col] == best]
    return best, hits


questions: list[dict] = []


def add(qtype, text, value, unit, evidence, now=None, answer=None):
    if answer is None:
        if isinstance(value, float):
            shown = f"{value:.2f}".rstrip("0").rstrip(".")
        else:
            shown = str(value)
        answer = (
            f"{shown} {unit}"
            if unit and unit != "%"
            else (f"{shown}%" if unit == "%" else shown)
        )
    questions.append(
        {
            "question_id": f"h{len(questions) + 1:02d}",
            "question": text,
            "answer": answer,
            "type": f"analytic.{qtype}",
            "evidence": [r["round_id"] for r in evidence],
            "question_time": (now or DEFAULT_QT).strftime("%Y-%m-%dT%H:%M:%S"),
            "gold": {"value": value, "unit": unit},
        }
    )


def avg(kind, col, text, unit, span=ALL, where=None, now=None):
    n = qt(now)
    rows = select(kind, n, span, where)
    add("avg", text, statistics.fmean(r[col] for r in rows), unit, rows, n)


def total(kind, col, text, unit, span=ALL, where=None, now=None):
    n = qt(now)
    rows = select(kind, n, span, where)
    v = sum(r[col] for r in rows)
    if isinstance(v, float):
        v = round(v, decimals([r[col] for r in rows]))
    add("sum", text, v, unit, rows, n)


def count(kind, text, span=ALL, where=None, now=None):
    n = qt(now)
    rows = select(kind, n, span, where)
    add("count", text, len(rows), None, rows, n)


def extreme(qtype, kind, col, text, unit, span=ALL, where=None, now=None):
    n = qt(now)
    rows = select(kind, n, span, where)
    v, hits = unique_extreme(rows, col, max if qtype == "max" else min)
    add(qtype, text, v, unit, hits, n)


def median(kind, col, text, unit, span=ALL, where=None, now=None):
    n = qt(now)
    rows = select(kind, n, span, where)
    add("median", text, statistics.median(r[col] for r in rows), unit, rows, n)


def arg_date(qtype, kind, col, text, span=ALL, where=None, now=None):
    n = qt(now)
    rows = select(kind, n, span, where)
    per_day: dict[dt.date, list] = {}
    for r in rows:
        per_day.setdefault(r["date"], []).append(r)
    assert all(len(v) == 1 for v in per_day.values()), (
        "one record per day expected for argdate"
    )
    v, hits = unique_extreme(rows, col, max if qtype == "argmax_date" else min)
    assert len(hits) == 1, f"tie in {text}: {[h['round_id'] for h in hits]}"
    add(
        qtype,
        text,
        hits[0]["date"].isoformat(),
        None,
        hits,
        n,
        answer=hits[0]["date"].isoformat(),
    )


def arg_column(
    kind, col, label_col, text, span=ALL, where=None, now=None, group_sum=False
):
    n = qt(now)
    rows = select(kind, n, span, where)
    if group_sum:
        sums: dict[str, float] = {}
        for r in rows:
            sums[r[label_col]] = sums.get(r[label_col], 0) + r[col]
        best = max(sums.values())
        winners = [k for k, v in sums.items() if v == best]
        assert len(winners) == 1
        ev = [r for r in rows if r[label_col] == winners[0]]
        add("argmax_column", text, winners[0], None, ev, n, answer=winners[0])
        return
    v, hits = unique_extreme(rows, col, max)
    assert len({h[label_col] for h in hits}) == 1, f"tie in {text}"
    add(
        "argmax_column",
        text,
        hits[0][label_col],
        None,
        hits,
        n,
        answer=hits[0][label_col],
    )


def first_latest(qtype, kind, col, text, unit, span=ALL, where=None, now=None):
    n = qt(now)
    rows = sorted(select(kind, n, span, where), key=lambda r: r["time"])
    r = rows[0] if qtype == "first" else rows[-1]
    v = r[col]
    if isinstance(v, str):
        add(qtype, text, v, None, [r], n, answer=v)
    else:
        add(qtype, text, v, unit, [r], n)


def change(kind, col, text, unit, a, b, now=None):
    n = qt(now)
    ra = sorted(select(kind, n, (d(a), d(a))), key=lambda r: r["time"])
    rb = sorted(select(kind, n, (d(b), d(b))), key=lambda r: r["time"])
    assert len(ra) == 1 and len(rb) == 1
    v = rb[0][col] - ra[0][col]
    if isinstance(v, float):
        v = round(v, decimals([ra[0][col], rb[0][col]]))
    add("change", text, v, unit, [ra[0], rb[0]], n)


MAY = month(2026, 5)
JUNE = month(2026, 6)
QT_MAY27 = "2026-05-27T21:00:00"
QT_JUN03 = "2026-06-03T20:00:00"
QT_JUN10 = "2026-06-10T18:00:00"
N_DEF = DEFAULT_QT

# --------------------------------------------------------------------------- questions
# avg
avg("bp", "systolic", "avg systolic last week?", "mmHg", last_week(N_DEF))
avg("weight", "body_fat", "What was my average body fat percentage in May?", "%", MAY)
avg(
    "drink",
    "caffeine",
    "On average, how much caffeine is in the lattes I drink?",
    "mg",
    where=lambda r: r["drink"] == "latte",
)
avg(
    "bp",
    "pulse",
    "What's my pulse typically been between May 10 and May 20?",
    "bpm",
    (d("2026-05-10"), d("2026-05-20")),
)
avg(
    "reading",
    "minutes",
    "mean length of my reading sessions for Dune",
    "min",
    where=lambda r: r["book"] == "Dune",
)
avg(
    "weight",
    "weight",
    "What's my average weight over the past 14 days?",
    "kg",
    past_days(qt(QT_MAY27), 14),
    now=QT_MAY27,
)
# sum
total("reading", "pages", "How many pages did I read in total in May?", None, MAY)
total(
    "drink",
    "caffeine",
    "total caffeine yesterday?",
    "mg",
    (d("2026-06-02"), d("2026-06-02")),
    now=QT_JUN03,
)
total(
    "reading",
    "minutes",
    "How much time have I spent reading Project Hail Mary altogether?",
    "min",
    where=lambda r: r["book"] == "Project Hail Mary",
)
total(
    "drink",
    "size",
    "How many ml of drinks from Starbucks have I had this month?",
    "ml",
    this_month(qt(QT_JUN10)),
    where=lambda r: r["cafe"] == "Starbucks",
    now=QT_JUN10,
)
total(
    "reading",
    "pages",
    "Pages read since June 2, all books combined?",
    None,
    since("2026-06-02", N_DEF),
)
# count
count(
    "bp",
    "How many times was my systolic over 130?",
    where=lambda r: r["systolic"] > 130,
)
count(
    "drink",
    "number of drinks I got at Blue Bottle in May",
    MAY,
    where=lambda r: r["cafe"] == "Blue Bottle",
)
count("reading", "How many reading sessions did I log last week?", last_week(N_DEF))
count(
    "weight",
    "On how many mornings did I weigh in under 73 kg?",
    where=lambda r: r["weight"] < 73,
)
count(
    "drink",
    "How many cold brews have I had since May 20?",
    since("2026-05-20", N_DEF),
    where=lambda r: r["drink"] == "cold brew",
)
count(
    "bp", "how many blood pressure readings have I taken this month", this_month(N_DEF)
)
# min
extreme("min", "bp", "diastolic", "Lowest diastolic reading in May?", "mmHg", MAY)
extreme(
    "min",
    "weight",
    "weight",
    "What's the least I've weighed since I started logging?",
    "kg",
)
extreme(
    "min",
    "reading",
    "minutes",
    "shortest reading session on The Overstory",
    "min",
    where=lambda r: r["book"] == "The Overstory",
)
# max
extreme(
    "max",
    "drink",
    "caffeine",
    "Peak caffeine in a single drink between May 10 and May 20?",
    "mg",
    (d("2026-05-10"), d("2026-05-20")),
)
extreme(
    "max",
    "bp",
    "pulse",
    "What was my highest pulse last week?",
    "bpm",
    last_week(qt(QT_MAY27)),
    now=QT_MAY27,
)
extreme(
    "max",
    "reading",
    "pages",
    "most pages I read in one sitting this month",
    None,
    this_month(N_DEF),
)
# median
median("bp", "systolic", "What was my median systolic pressure in May?", "mmHg", MAY)
median(
    "drink",
    "caffeine",
    "median caffeine per drink, across everything I've logged",
    "mg",
)
# argmax / argmin date
arg_date("argmax_date", "reading", "pages", "Which day did I read the most pages?")
arg_date(
    "argmax_date",
    "bp",
    "systolic",
    "On what day in June was my systolic highest?",
    JUNE,
)
arg_date("argmax_date", "weight", "weight", "When was I heaviest in May?", MAY)
arg_date("argmin_date", "bp", "pulse", "which day had my lowest pulse?")
arg_date(
    "argmin_date",
    "weight",
    "body_fat",
    "What day was my body fat at its lowest since May 15?",
    since("2026-05-15", N_DEF),
)
# argmax column
arg_column("drink", "caffeine", "cafe", "Which cafe made my most caffeinated drink?")
arg_column(
    "reading",
    "minutes",
    "book",
    "What book was I reading during my longest session in May?",
    MAY,
)
arg_column(
    "reading",
    "pages",
    "book",
    "Which book have I read the most pages of overall?",
    group_sum=True,
)
# first / latest
first_latest(
    "first", "weight", "weight", "What was my first weight reading in June?", "kg", JUNE
)
first_latest(
    "first", "reading", "book", "What was the first book I logged reading?", None
)
first_latest("latest", "bp", "systolic", "most recent systolic?", "mmHg")
first_latest(
    "latest",
    "weight",
    "weight",
    "What did I weigh last time I checked?",
    "kg",
    now=QT_MAY27,
)
first_latest(
    "latest",
    "drink",
    "cafe",
    "Where did I get my last coffee?",
    None,
    where=lambda r: r["drink"] != "green tea",
)
# change
change(
    "weight",
    "weight",
    "How much did my weight change between May 4 and June 12?",
    "kg",
    "2026-05-04",
    "2026-06-12",
)
change(
    "bp",
    "systolic",
    "By how much did my systolic go up or down from May 1 to June 1?",
    "mmHg",
    "2026-05-01",
    "2026-06-01",
)

assert len(questions) == 40, len(questions)

# --------------------------------------------------------------------------- checks + write
days_with = {k: len({r["date"] for r in records if r["kind"] == k}) for k in FORCED}
for k, n in days_with.items():
    assert n >= 0.6 * DAYS, (k, n)
for s in sessions:
    assert 2 <= len(s["rounds"]) <= 5, s["session_id"]

(HERE / "history.json").write_text(
    json.dumps(history, indent=1, ensure_ascii=False) + "\n"
)
with open(HERE / "questions.jsonl", "w") as fh:
    for q in questions:
        fh.write(json.dumps(q, ensure_ascii=False) + "\n")

if __name__ == "__main__":
    n_rounds = sum(len(s["rounds"]) for s in sessions)
    print(f"{len(sessions)} sessions, {n_rounds} rounds, {len(records)} records")
    print("days with each kind:", days_with)
    print(f"{len(questions)} questions written")
