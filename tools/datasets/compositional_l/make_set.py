#!/usr/bin/env python3
"""Generate compositional set L: three histories (rower, reseller, fosterer) and their questions.

Standard library only, deterministic (fixed seeds). Every gold is computed from the generated records.
Run from the repository root:  python3 tools/datasets/compositional_l/make_set.py
"""

from __future__ import annotations

import datetime as dt
import json
import random
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
D = dt.date
START, END = D(2026, 2, 1), D(2026, 4, 30)
ONE = dt.timedelta(days=1)
QT = "2026-05-01T10:00:00"
MONTH_NAMES = ["", "January", "February", "March", "April", "May"]


def d(m, day):
    return D(2026, m, day)


def all_days(a=START, b=END):
    x = a
    while x <= b:
        yield x
        x += ONE


def monday(x):
    return x - dt.timedelta(days=x.weekday())


def r6(x):
    return round(x + 0.0, 6)


def ddmm(x):
    return f"{x.day:02d}/{x.month:02d}"


def long_date(x):
    return f"{x.day} {MONTH_NAMES[x.month][:3]} {x.year}"


def eur(x):
    return f"€{x:.2f}"


def eur_short(x):
    return f"€{x:g}" if float(x).is_integer() else f"€{x:.2f}"


def mmss(sec):
    return f"{sec // 60}:{sec % 60:02d}"


# ---------------------------------------------------------------------------------------------
# building one history


class Cfg:
    def __init__(self, **kw):
        self.__dict__.update(kw)


ACKS = ["Logged.", "Logged.", "Logged.", "Got it, logged.", "Noted.", "Logged, thanks."]


def build(cfg):
    """Return (history dict, records). Each record: dict with kind, day, fields, round_id."""
    rng = random.Random(cfg.seed)
    event_days = {e["day"] for e in cfg.events}
    blocked = set(event_days) | set(cfg.blocked)
    records = []
    forced_keys = set()
    for day, kind, over in cfg.forced:
        assert day not in blocked, (cfg.name, day)
        f = cfg.gens[kind](rng, day)
        f.update(over)
        cfg.refresh(rng, kind, f, day, over)  # keep derived values consistent with the overrides
        records.append({"kind": kind, "day": day, **f})
        forced_keys.add((day, kind))
    for day in all_days():
        if day in blocked:
            continue
        for kind, p in cfg.probs:
            if (day, kind) in forced_keys:
                continue
            if rng.random() < p:
                f = cfg.gens[kind](rng, day)
                if f is not None:
                    records.append({"kind": kind, "day": day, **f})
    records.sort(key=lambda r: (r["day"], r["kind"]))
    # posting day: late logs are posted the next day
    for r in records:
        r["post"] = r["day"]
        r["late"] = False
        nxt = r["day"] + ONE
        if nxt <= END and nxt not in blocked and rng.random() < cfg.p_late:
            r["post"] = nxt
            r["late"] = True
    # at most 3 record rounds a session
    by_post = defaultdict(list)
    for r in records:
        by_post[r["post"]].append(r)
    drop = set()
    for day, rs in by_post.items():
        rs = [r for r in rs if (r["day"], r["kind"]) not in forced_keys]
        while len([r for r in by_post[day] if id(r) not in drop]) > 3 and rs:
            drop.add(id(rs.pop(rng.randrange(len(rs)))))
    records = [r for r in records if id(r) not in drop]
    # rounds per day
    rounds = defaultdict(list)  # day -> list of (user, assistant, record or None)
    for r in records:
        layout = "late" if r["late"] else rng.choice(cfg.layouts[r["kind"]])
        r["layout"] = layout
        text = cfg.render[r["kind"]](r, layout, rng)
        rounds[r["post"]].append([text, rng.choice(ACKS), r])
    for e in cfg.events:
        rounds[e["day"]].append([e["user"], e["assistant"], None])
    for day, u, a in cfg.mentions:
        assert day not in blocked
        rounds[day].append([u, a, None])
    chat_pool = []

    def next_chat(day):
        """A chat template that fits the day (some only make sense after an event)."""
        for _ in range(2):
            if not chat_pool or all(c[1] > day for c in chat_pool):
                chat_pool.extend(c if isinstance(c, tuple) else (c, START) for c in cfg.chats)
                rng.shuffle(chat_pool)
            for i in range(len(chat_pool) - 1, -1, -1):
                if chat_pool[i][1] <= day:
                    return chat_pool.pop(i)[0](rng)
        raise AssertionError("no chat fits")

    trip_quiet = set(cfg.quiet)
    for day in all_days():
        if day in trip_quiet:
            continue
        n = len(rounds[day])
        if n == 0:
            if rng.random() < cfg.p_chat_only:
                for _ in range(rng.choice([1, 1, 2])):
                    u, a = next_chat(day)
                    rounds[day].append([u, a, None])
        elif n < 4 and rng.random() < cfg.p_chat_extra:
            u, a = next_chat(day)
            rounds[day].append([u, a, None])
        elif day in event_days and n < 3:
            u, a = next_chat(day)
            rounds[day].append([u, a, None])
    sessions = []
    k = 0
    for day in all_days():
        rs = rounds.get(day) or []
        if not rs:
            continue
        assert len(rs) <= 4, (cfg.name, day, len(rs))
        rng.shuffle(rs)
        k += 1
        sid = f"{cfg.prefix}{k}"
        t = dt.datetime.combine(day, dt.time(rng.randint(7, 20), rng.choice([0, 5, 10, 20, 30, 40, 45, 50])))
        out = []
        for i, (u, a, rec) in enumerate(rs, 1):
            rid = f"{sid}:{i}"
            if rec is not None:
                rec["round_id"] = rid
            out.append({"round_id": rid, "time": t.isoformat(), "user": u, "assistant": a})
            t += dt.timedelta(minutes=rng.randint(3, 25))
        sessions.append({"session_id": sid, "date": day.isoformat(), "rounds": out})
    hist = {"user_id": cfg.user_id, "sessions": sessions}
    # checks
    for r in records:
        assert r["day"] not in event_days, (cfg.name, r)
        assert r["post"] not in event_days, (cfg.name, r)
        assert START <= r["day"] <= END
    return hist, records


# ---------------------------------------------------------------------------------------------
# gold helpers


class Q:
    def __init__(self, name, records):
        self.name = name
        self.recs = records
        self.items = []

    def sel(self, kind, a=None, b=None, where=None):
        """Records of kind with a <= day <= b (inclusive)."""
        out = [r for r in self.recs if r["kind"] == kind and (a is None or r["day"] >= a) and (b is None or r["day"] <= b)]
        if where:
            out = [r for r in out if where(r)]
        return out

    def add(self, family, question, gold, qt=QT):
        n = len(self.items) + 1
        self.items.append({"question_id": f"L-{self.name}-{n:02d}", "history": self.name, "question": question,
                           "question_time": qt, "gold": gold, "family": family})

    def num(self, family, question, value, unit, qt=QT):
        self.add(family, question, {"value": r6(value), "unit": unit}, qt)

    def una(self, family, question, qt=QT):
        self.add(family, question, {"unanswerable": True}, qt)


def month_range(m):
    a = d(m, 1)
    b = (d(m + 1, 1) - ONE) if m < 12 else D(2026, 12, 31)
    return a, b


def total(rs, f):
    assert rs, "empty selection"
    return sum(r[f] for r in rs)


def avg(rs, f):
    assert rs, "empty selection"
    return sum(r[f] for r in rs) / len(rs)


def unique_ext(rs, f, biggest=True):
    assert rs
    vals = sorted((r[f] for r in rs), reverse=biggest)
    assert len(vals) == 1 or vals[0] != vals[1], "tie at the top"
    return vals[0]


def groups(rs, key, f=None):
    g = defaultdict(float)
    for r in rs:
        g[r[key] if not callable(key) else key(r)] += (1 if f is None else r[f])
    return dict(g)


def top(g, biggest=True):
    items = sorted(g.items(), key=lambda kv: kv[1], reverse=biggest)
    assert len(items) == 1 or abs(items[0][1] - items[1][1]) > 1e-9, ("tie", items[:3])
    return items[0][0]


def first_after(rs, day):
    rs = sorted((r for r in rs if r["day"] > day), key=lambda r: r["day"])
    assert rs
    assert len(rs) == 1 or rs[0]["day"] != rs[1]["day"], "two records on the first day"
    return rs[0]


def last_before(rs, day):
    rs = sorted((r for r in rs if r["day"] < day), key=lambda r: r["day"])
    assert rs
    assert len(rs) == 1 or rs[-1]["day"] != rs[-2]["day"], "two records on the last day"
    return rs[-1]


def no_record_on(recs, kind, *days):
    for x in days:
        assert not [r for r in recs if r["kind"] == kind and r["day"] == x], (kind, x)


def last_weeks(q, kind, qt_day, n):
    """Window for 'the last n weeks' asked on qt_day (morning): [qt_day - 7n, qt_day - 1];
    asserts that the boundary days that other readings would add or drop hold no record."""
    a, b = qt_day - dt.timedelta(days=7 * n), qt_day - ONE
    no_record_on(q.recs, kind, a, qt_day)
    return a, b


# =============================================================================================
# 1. rower: Orla, a member of a rowing club on the Shannon (Carrick Boat Club)

R_FLOOD, R_BACK, R_NEWM = d(2, 17), d(3, 4), d(3, 19)
R_HBREAK, R_HFIX, R_LEAVE, R_HOME = d(4, 2), d(4, 9), d(4, 18), d(4, 22)
R_TRIP = [d(4, 19), d(4, 20), d(4, 21)]

R_BOATS = [("Heron", 0.42, "single"), ("Saoirse", 0.24, "quad"), ("Ard Rí", 0.2, "coxed four"),
           ("Lady Gregory", 0.14, "double")]
R_STRETCH = ["Lough Corry", "Jamestown cut", "Drumsna reach", "Hartley Bridge loop"]
R_ITEMS = {  # item: (lo, hi, shops)
    "unisuit": (65, 85, ["Oarsport"]),
    "hand tape": (5, 9, ["Oarsport", "Decathlon Athlone", "Amazon"]),
    "seat pad": (12, 20, ["club shop", "Amazon"]),
    "club hoodie": (35, 45, ["club shop"]),
    "thermal leggings": (18, 30, ["Decathlon Athlone"]),
    "splash top": (45, 70, ["Oarsport", "Decathlon Athlone"]),
    "StrokeCoach battery": (15, 25, ["Amazon"]),
    "water bottle": (6, 12, ["Decathlon Athlone", "club shop"]),
    "bungee cords": (8, 14, ["Amazon"]),
    "gate spacers": (10, 16, ["Oarsport"]),
}


def price(rng, lo, hi):
    return round(rng.randint(lo, hi - 1) + rng.choice([0.0, 0.5, 0.99, 0.95, 0.0]), 2)


def r_outing(rng, day):
    if R_FLOOD < day <= R_FLOOD + 4 * ONE or R_BACK < day <= R_BACK + 5 * ONE:
        return None
    while True:
        x = rng.random()
        for boat, w, _ in R_BOATS:
            x -= w
            if x <= 0:
                break
        if not (R_HBREAK <= day <= R_HFIX and boat == "Heron"):
            break
    km = round(rng.uniform(6.0, 12.0) if boat == "Heron" else rng.uniform(8.0, 16.0), 1)
    minutes = int(round(km * rng.uniform(5.2, 6.6)))
    return {"boat": boat, "stretch": rng.choice(R_STRETCH), "km": km, "min": minutes, "spm": rng.randint(18, 26)}


def r_erg(rng, day):
    x = rng.random()
    if x < 0.14:
        m, sec, typ = 2000, rng.randint(455, 499), "2k test"
    elif x < 0.34:
        reps, rep = rng.choice([(4, 1000), (3, 2000), (5, 1000)])
        m, typ = reps * rep, f"{reps} x {rep}m"
        sec = int(m / 500 * rng.uniform(116, 123))
    else:
        m = rng.choice([5000, 6000, 6000, 8000, 10000, 7500])
        sec = int(m / 500 * rng.uniform(122, 133))
        typ = "steady"
    return {"m": m, "km": m / 1000, "sec": sec, "min": sec / 60, "type": typ}


def r_buy(rng, day):
    item = rng.choice(sorted(R_ITEMS))
    lo, hi, shops = R_ITEMS[item]
    return {"item": item, "shop": rng.choice(shops), "eur": price(rng, lo, hi)}


def r_render_outing(r, layout, rng):
    b, s, km, mn, day = r["boat"], r["stretch"], r["km"], r["min"], r["day"]
    sa = "the " + s if s == "Jamestown cut" else s
    if layout == "app":
        return (f"Rowing log export\nDate: {day.isoformat()}\nBoat: {b}\nWater: {s}\nDistance (km): {km}\n"
                f"Duration (min): {mn}\nAvg rate (spm): {r['spm']}")
    if layout == "pipe":
        return f"{ddmm(day)} | {b} | {s} | {km} km | {mn} min"
    if layout == "json":
        return "Pasting from the club app: " + json.dumps(
            {"activity": "on_water", "date": day.isoformat(), "boat": b, "location": s, "distance_km": km,
             "elapsed": f"{mn // 60}:{mn % 60:02d}:00", "stroke_rate_avg": r["spm"]}, ensure_ascii=False)
    if layout == "speedcoach":
        return (f"SpeedCoach session summary — {long_date(day)}\nBoat: {b}\nLocation: {s}\n"
                f"Total distance: {int(round(km * 1000)):,} m\nElapsed: {mn // 60:02d}:{mn % 60:02d}:00\nAvg SPM {r['spm']}")
    if layout == "prose":
        opts = [f"Took the {b} out on {sa} this evening, {km} km in {mn} minutes. Flat as a mirror.",
                f"Good paddle in the {b} today — {sa}, {km}k, took {mn} min.",
                f"{mn} minutes on {sa} in the {b}, {km} km by the SpeedCoach. Hands are cold."]
        return rng.choice(opts)
    return rng.choice([f"Forgot to log yesterday's outing — {b}, {sa}, {km} km, about {mn} min.",
                       f"Didn't log yesterday: {b} on {sa}, {km} km in {mn} minutes."])


def r_render_erg(r, layout, rng):
    day, m, sec, typ = r["day"], r["m"], r["sec"], r["type"]
    split = sec / (m / 500)
    sp = f"{int(split) // 60}:{split % 60:04.1f}"
    piece = f"{m}m" if typ != "2k test" and "x" not in typ else typ if "x" in typ else "2000m"
    if layout == "app":
        return (f"Concept2 Logbook\nDate: {long_date(day)}\nWorkout: {piece}\nTotal distance (m): {m}\n"
                f"Time: {mmss(sec)}.0\nAvg split /500m: {sp}\nDrag factor: {rng.randint(112, 126)}")
    if layout == "pipe":
        return f"{ddmm(day)} | erg | {piece} | {mmss(sec)}"
    if layout == "json":
        return json.dumps({"type": "RowErg", "date": day.isoformat(), "workout": typ, "distance": m,
                           "time": mmss(sec), "stroke_rate": rng.randint(20, 32)})
    if layout == "prose":
        if typ == "2k test":
            return f"2k test on the erg today: {mmss(sec)}. Legs gone."
        if "x" in typ:
            return f"Erg intervals in the garage, {typ}, {mmss(sec)} of work in total, splits around {sp}."
        return rng.choice([f"Did {m / 1000:g}k on the erg, {mmss(sec)}, split {sp}.",
                           f"Steady {m} metres on the rowing machine, {mmss(sec)}."])
    return f"Forgot to log yesterday's erg: {piece}, {mmss(sec)}."


def r_render_buy(r, layout, rng):
    day, it, sh, x = r["day"], r["item"], r["shop"], r["eur"]
    the_sh = "the club shop" if sh == "club shop" else sh
    if layout == "receipt":
        deliv = 0.0 if sh in ("club shop", "Decathlon Athlone") else rng.choice([0.0, 3.95])
        head = {"club shop": "Carrick Boat Club — Club Shop", "Oarsport": "Oarsport Ltd — order confirmation",
                "Decathlon Athlone": "DECATHLON ATHLONE", "Amazon": "Fwd: Your Amazon.ie order"}[sh]
        lines = [head, f"Date: {day.strftime('%d/%m/%Y')}", f"1 x {it}   {eur(x - deliv)}"]
        if deliv:
            lines.append(f"Delivery   {eur(deliv)}")
        lines.append(f"TOTAL   {eur(x)}")
        return "\n".join(lines)
    if layout == "pipe":
        return f"{ddmm(day)} | {sh} | {it} | {eur(x)}"
    if layout == "json":
        return json.dumps({"merchant": sh, "date": day.isoformat(), "item": it,
                           "amount": {"value": x, "currency": "EUR"}})
    if layout == "app":
        return f"Purchase\nDate: {day.isoformat()}\nShop: {sh}\nItem: {it}\nPrice (EUR): {x:.2f}"
    if layout == "prose":
        art = "" if it in ("hand tape", "thermal leggings", "bungee cords", "gate spacers") else "a "
        return rng.choice([f"Picked up {art}{it} in {the_sh}, {eur_short(x)}.",
                           f"Bought {it} from {the_sh} today for {eur_short(x)}. Needed it."])
    return f"Forgot to log yesterday — bought {it} at {the_sh} for {eur_short(x)}."


def r_chats():
    C = []
    C.append(lambda g: (f"Ciara from the club pulled a 7:{g.randint(30, 44)} 2k yesterday. Is that good for a lightweight woman?",
                        "That's a strong club time; national-level lightweight women go under about 7:20."))
    C.append(lambda g: ("Croker have a pair of sculling blades for €420. Worth it, or wait for second hand?",
                        "For a club sculler, good second-hand blades at €200–250 do the job; new only if you race a lot."))
    C.append(lambda g: ("What's a 2:05 split in km/h?", "500 m in 125 s is 4 m/s, so 14.4 km/h."))
    C.append(lambda g: ("How long would 10k take at a 2:10 split?", "20 × 2:10 = 43:20."))
    C.append(lambda g: ("Club fees are going from €180 to €210 next season. What's that as a percent?",
                        "A rise of €30, about 16.7%."))
    C.append(lambda g: ("Coach wants us at 18–20 strokes a minute for steady state. Why so low?",
                        "Low rates force length and power per stroke and keep the heart rate aerobic."))
    C.append(lambda g: (f"Forecast says gusts of {g.randint(40, 55)} km/h tomorrow. Too windy for a single?",
                        "Yes, for a single that's beyond safe on open water — erg instead."))
    C.append(lambda g: ("Is it worth buying a Concept2 for home? They're about €1,200 now.",
                        "If you erg three times a week it pays for itself against gym fees within a couple of years."))
    C.append(lambda g: ("My brother's lot are doing a 100 km charity relay row with 5 people. How far each?",
                        "20 km each if it's split evenly."))
    C.append(lambda g: ("Roughly how many calories does an hour of steady rowing burn for someone 68 kg?",
                        "Somewhere around 500–600 kcal at a steady pace."))
    C.append(lambda g: ("The Head of the River is on 9 May, 4.5 km course. What pace gets me under 20 minutes?",
                        "About 2:13 per 500 m or faster."))
    C.append(lambda g: ("What's the difference between a 2:00 and a 1:55 split in watts?",
                        "About 203 W versus 230 W, roughly 27 W more."))
    C.append(lambda g: ("Any tips for blisters? My hands are in bits.",
                        "Keep them dry, file down the hard edges, and tape only the hot spots."))
    C.append(lambda g: (f"It's {g.randint(1, 4)} degrees with fog on the river. Too cold to go out?",
                        "Cold is fine with layers; fog is the problem — if you can't see 100 m, stay in."))
    C.append(lambda g: ("Quick one, how many metres in a mile?", "1,609 metres."))
    C.append(lambda g: ("Our quad weighs about 60 kg and there are four of us at roughly 65 each. Total?",
                        "About 320 kg on the water."))
    C.append(lambda g: ("Should I do a 5k or a 6k test next month?",
                        "The 6k is the standard ranking test, so it's more comparable; 5k if you want a gentler one."))
    C.append(lambda g: (f"A friend paid €{g.choice([90, 95, 110])} for a second-hand unisuit on DoneDeal. Rip-off?",
                        "A bit high for used — new ones are €70–85."))
    C.append(lambda g: ("What does drag factor actually mean?",
                        "How quickly the flywheel slows down — it sets how heavy each stroke feels."))
    C.append(lambda g: ("Cambridge won the Boat Race by 3 lengths. How many metres is that?",
                        "An eight is about 17–18 m long, so roughly 50–55 m."))
    C.append(lambda g: ("My split on the water is always 10 seconds slower than on the erg. Normal?",
                        "Completely normal in a small boat — balance, wind and stream all cost time."))
    C.append(lambda g: ("How long should I wait to eat before an evening outing?", "Two to three hours after a full meal."))
    return C


def r_refresh(rng, kind, f, day, over):
    if kind == "outing" and "boat" in over and "km" not in over:
        f["km"] = round(rng.uniform(6.0, 12.0) if f["boat"] == "Heron" else rng.uniform(8.0, 16.0), 1)
        f["min"] = int(round(f["km"] * rng.uniform(5.2, 6.6)))


def rower():
    cfg = Cfg(refresh=r_refresh, 
        name="rower", user_id="orla_rowing", seed=1102, prefix="R", p_late=0.15, p_chat_only=0.9, p_chat_extra=0.7,
        probs=[("outing", 0.5), ("erg", 0.34), ("buy", 0.2)],
        gens={"outing": r_outing, "erg": r_erg, "buy": r_buy},
        layouts={"outing": ["app", "pipe", "json", "speedcoach", "prose", "prose"],
                 "erg": ["app", "pipe", "json", "prose", "prose"],
                 "buy": ["receipt", "pipe", "json", "app", "prose"]},
        render={"outing": r_render_outing, "erg": r_render_erg, "buy": r_render_buy},
        forced=[(R_LEAVE - ONE, "outing", {"boat": "Saoirse", "km": 11.4, "min": 64}),
                (R_FLOOD + ONE, "buy", {"item": "thermal leggings", "shop": "Decathlon Athlone", "eur": 24.99}),
                (d(3, 12), "erg", {"m": 6000, "km": 6.0, "sec": 1494, "min": 1494 / 60, "type": "steady"}),
                (R_HOME + ONE, "outing", {"boat": "Heron", "stretch": "Lough Corry"}),
                (d(3, 20), "buy", {"item": "club hoodie", "shop": "club shop", "eur": 40.0}),
                (d(3, 3), "buy", {"item": "hand tape", "shop": "Oarsport", "eur": 6.5})],
        blocked=R_TRIP, quiet=R_TRIP,
        events=[
            {"day": R_FLOOD, "user": "No outing today. The Shannon came over the slipway overnight and the lower bay of the "
                                    "boathouse is under a foot of water — spent the morning passing boats up to the top racks.",
             "assistant": "That sounds grim. Hope the boats came out of it dry."},
            {"day": R_BACK, "user": "Tweaked something low down in my back carrying the four off the trestles this evening. "
                                   "Physio first thing tomorrow.",
             "assistant": "Ouch — rest it until the physio has a look."},
            {"day": R_NEWM, "user": "A new girl, Róisín, came down to the club tonight and signed the forms. "
                                   "She'll sub into the quad on Saturdays.",
             "assistant": "Nice, the quad needed a fourth regular."},
            {"day": R_HBREAK, "user": "Disaster: the rigger on the Heron cracked at the weld while I was spinning at the bridge. "
                                     "Had to paddle back on one side.",
             "assistant": "Glad you got back in — a welder should be able to sort a rigger."},
            {"day": R_HFIX, "user": "Collected the Heron from Declan the welder this evening, good as new and he only took a "
                                   "box of biscuits for it.",
             "assistant": "Great result."},
            {"day": R_LEAVE, "user": "Flying to Lisbon at lunchtime for my cousin Aisling's wedding, so no rowing till I'm home.",
             "assistant": "Have a great time!"},
            {"day": R_HOME, "user": "Home last night. Portugal was gorgeous; legs are stiff from dancing rather than rowing.",
             "assistant": "Welcome back."},
        ],
        mentions=[(d(2, 24), "A week on from the high water and the lower bay still stinks of river. Assessor comes Thursday.",
                   "Fingers crossed the assessor is quick."),
                  (d(3, 11), "Back's still grumbling a week after I did it, so easy stuff only.",
                   "Sensible — easy volume while it settles."),
                  (d(4, 6), "Still no single, Declan says Thursday.", "Not long now."),
                  (d(3, 27), "Róisín's been down every evening since she signed up. Keen as mustard.",
                   "Good to have keen people in the club.")],
        chats=r_chats(),
    )
    return cfg


def rower_questions(q):
    O = lambda a=None, b=None, w=None: q.sel("outing", a, b, w)
    E = lambda a=None, b=None, w=None: q.sel("erg", a, b, w)
    B = lambda a=None, b=None, w=None: q.sel("buy", a, b, w)
    mar, apr, feb = month_range(3), month_range(4), month_range(2)
    q.num("aggregate_month", "How many km did I row on the water in March?", total(O(*mar), "km"), "km")
    wk = (d(3, 23), d(3, 29))
    assert len(O(*wk)) >= 2
    q.num("aggregate_week", "What was my average distance per outing the week of 23 March?", avg(O(*wk), "km"), "km")
    a, b = last_weeks(q, "buy", d(5, 4), 3)
    q.num("aggregate_relative", "how much have i spent on kit in the last three weeks?", total(B(a, b), "eur"), "EUR",
          qt="2026-05-04T09:00:00")
    q.num("aggregate_range", "What was my longest erg session between 1 and 20 March, in minutes?",
          unique_ext(E(d(3, 1), d(3, 20)), "min"), "min")
    q.num("aggregate_min", "Whats my quickest 2k erg time so far?",
          unique_ext(E(w=lambda r: r["type"] == "2k test"), "min", biggest=False), "min")
    q.num("filter_value", "how far have i rowed in totla on Lough Corry", total(O(w=lambda r: r["stretch"] == "Lough Corry"), "km"), "km")
    assert not O(w=lambda r: 79 <= r["min"] <= 81)
    q.num("filter_numeric", "How many of my outings went longer than 80 minutes?", len(O(w=lambda r: r["min"] > 80)), None)
    q.num("named_subject", "how many km has the Heron done since the start of February", total(O(w=lambda r: r["boat"] == "Heron"), "km"), "km")
    q.num("named_subject", "What did the Ard Rí outings add up to in April?",
          total(O(*apr, w=lambda r: r["boat"] == "Ard Rí"), "km"), "km")
    q.num("since_event", "How many erg metres have I done since I hurt my back? Answer in km is fine.",
          total(E(R_BACK + ONE), "km"), "km")
    q.num("before_event", "how many erg sessions did I log before the injury", len(E(b=R_BACK - ONE)), None)
    assert B(R_FLOOD + ONE, R_FLOOD + 7 * ONE)
    q.num("week_after_event", "What did I spend on gear in the week after the boathouse flooded?",
          total(B(R_FLOOD + ONE, R_FLOOD + 7 * ONE), "eur"), "EUR")
    q.num("between_events", "How many times did I go out on the water between the new member joining and the Heron breaking?",
          len(O(R_NEWM + ONE, R_HBREAK - ONE)), None)
    w = O(R_HBREAK + ONE, R_HFIX - ONE)
    assert w and all(r["boat"] != "Heron" for r in w)
    q.num("while_event", "While my single was out of action, how many km did I cover in the other boats?", total(w, "km"), "km")
    q.add("first_after_event", "Which boat did I take out first after I came back from Portugal?",
          {"text": first_after(O(), R_HOME)["boat"]})
    q.add("last_before_event", "which shop did I last buy something from before I did my back in?",
          {"text": last_before(B(), R_BACK)["shop"]})
    q.num("value_on_day", "How far did I row the day before I flew out for the wedding?",
          total(O(R_LEAVE - ONE, R_LEAVE - ONE), "km"), "km")
    q.num("value_on_day", "How long was my erg on 12 March, in minutes?", total(E(d(3, 12), d(3, 12)), "min"), "min")
    diff = total(O(*mar), "km") - total(O(*feb), "km")
    assert diff > 0
    q.num("compare_months", "How many more km did I row on the water in March than in February?", diff, "km")
    fe, me = total(E(*feb), "km"), total(E(*mar), "km")
    q.num("percent_change", "By what percent did my total erg metres change from February to March?", (me - fe) / fe * 100, "%")
    q.add("compare_yes_no", "Did I spend more on kit in April than in March?",
          {"yes_no": total(B(*apr), "eur") > total(B(*mar), "eur")})
    q.add("group_top", "Which boat did I row most often?", {"group": top(groups(O(), "boat"))})
    q.add("group_top", "which shop have I spent the least at", {"group": top(groups(B(), "shop", "eur"), biggest=False)})
    wk_g = groups(O(), lambda r: monday(r["day"]), "km")
    q.add("group_period", "Which week did I do the most km on the water? Give me the Monday's date.",
          {"period": top(wk_g).isoformat(), "bucket": "week"})
    mo_g = groups(E(), lambda r: r["day"].month, "km")
    q.add("group_period", "which month had the most erg metres?", {"period": f"2026-{top(mo_g):02d}", "bucket": "month"})
    gs = groups(B(), "shop", "eur")
    q.num("share", "What share of my kit spending went to Oarsport?", gs["Oarsport"] / sum(gs.values()) * 100, "%")
    st = top(groups(O(), "stretch"))
    q.num("top_group_measure", "On the stretch of water I rowed most often, how many km did I do in total?",
          total(O(w=lambda r: r["stretch"] == st), "km"), "km")
    # unanswerable
    q.una("unanswerable_period", "How many km did I row in January?")
    q.una("unanswerable_measure", "What was my average heart rate on the erg in March?")
    assert not B(w=lambda r: "blade" in r["item"])
    q.una("unanswerable_value", "How much did I pay for the Croker blades?")
    q.una("unanswerable_group", "how many km have I done in the Kingfisher?")
    q.una("unanswerable_event", "What did I spend on the day of the Athlone regatta?")
    q.una("unanswerable_event", "how many outings have i done since i broke my wrist")


# =============================================================================================
# 2. reseller: Dara, who resells vintage clothes online from Cork

V_LOCK, V_BACK, V_JOB, V_STORM = d(2, 12), d(2, 20), d(3, 2), d(3, 14)
V_SBREAK, V_SFIX, V_AWAY, V_HOME = d(3, 27), d(4, 3), d(4, 15), d(4, 19)
V_QUIET = [d(3, 15), d(4, 16), d(4, 17), d(4, 18)]

V_ITEMS = {"Barbour jacket": (35, 75), "Levi's 501s": (22, 45), "Aran jumper": (28, 55), "Harris Tweed blazer": (40, 80),
           "Dr. Martens boots": (35, 70), "Ralph Lauren shirt": (15, 30), "wool overcoat": (45, 90),
           "Nike windbreaker": (20, 40)}
V_DESC = {"Barbour jacket": ["green", "navy", "olive, size M", "sage Bedale"],
          "Levi's 501s": ["W32 L30", "W30 stonewash", "W34 black", "W28 light wash"],
          "Aran jumper": ["cream", "oatmeal, size L", "cream cable-knit", "grey"],
          "Harris Tweed blazer": ["40R", "brown herringbone", "42L check", "38R"],
          "Dr. Martens boots": ["cherry red UK6", "black 8-eye UK9", "UK5 oxblood"],
          "Ralph Lauren shirt": ["blue oxford M", "pink L", "striped S"],
          "wool overcoat": ["camel", "charcoal, size 40", "navy crombie"],
          "Nike windbreaker": ["90s teal", "purple/black", "spellout L"]}
V_PLATFORMS = [("Vinted", 0.4), ("Depop", 0.25), ("eBay", 0.2), ("Instagram", 0.15)]
V_REPEAT = [("Saoirse M.", 0.13), ("rosie_retro", 0.1), ("tomas.o", 0.08), ("denimdan", 0.07), ("Gráinne K.", 0.06)]
V_ONEOFF = ["kev_88", "Maeve from Kilkenny", "stylebyjo", "Pádraig B.", "a lad in Galway", "thriftqueen_ie", "Lorcan",
            "markus.d", "Éabha", "vintagevibes_cork", "Niall T.", "aoibh.styles", "Jacinta", "retro.ronan", "Shane K.",
            "Clodagh", "second_skin", "Fionn", "mo_thrifts", "Brídín", "dub_denim", "Cathal R.", "Orlaith", "wearitagain",
            "Colm", "Síle B.", "threadbare_ie", "Ultan", "Méabh", "Ruairí", "ciara.closet", "Donal P."]
V_SOURCES = [("Vincent's", 0.3), ("Oxfam Douglas", 0.25), ("Cancer Society Bandon", 0.2), ("Mallow car boot", 0.15),
             ("Kinsale house clearance", 0.1)]
V_EXP = {"Castle Cleaners": ("dry cleaning", 8, 25), "Stitch in Time": ("zip repair", 10, 30),
         "Depop": ("listing boost", 4, 10), "IKEA": ("hangers", 10, 20), "Vistaprint": ("thank-you cards", 15, 25)}


def wpick(rng, pairs):
    x = rng.random()
    for k, w in pairs:
        x -= w
        if x <= 0:
            return k
    return pairs[-1][0]


class Oneoff:
    i = 0


def v_sale(rng, day):
    item = rng.choice(sorted(V_ITEMS))
    lo, hi = V_ITEMS[item]
    while True:
        plat = wpick(rng, V_PLATFORMS)
        if not (V_LOCK <= day <= V_BACK and plat == "Vinted"):
            break
    buyer = wpick(rng, V_REPEAT + [(None, 1.0)])
    if buyer is None:
        buyer = V_ONEOFF[Oneoff.i % len(V_ONEOFF)] + ("" if Oneoff.i < len(V_ONEOFF) else f" {Oneoff.i}")
        Oneoff.i += 1
    return {"item": item, "desc": rng.choice(V_DESC[item]), "platform": plat, "buyer": buyer,
            "eur": float(rng.randint(lo, hi)) + rng.choice([0.0, 0.0, 0.0, 0.5])}


def v_haul(rng, day):
    src = wpick(rng, V_SOURCES)
    n = rng.randint(2, 9)
    cats = ["knitwear", "jackets", "shirts", "denim", "shoes", "coats"]
    lines, left = [], n
    rng.shuffle(cats)
    while left:
        c = rng.randint(1, min(3, left)) if len(cats) > 1 else left
        lines.append((cats.pop(), c, float(c * rng.randint(3, 9)) + rng.choice([0.0, 0.5])))
        left -= c
    return {"source": src, "pieces": n, "lines": lines, "eur": sum(x for _, _, x in lines)}


def v_expense(rng, day):
    vendor = rng.choice(sorted(V_EXP))
    what, lo, hi = V_EXP[vendor]
    return {"vendor": vendor, "what": what, "eur": price(rng, lo, hi)}


def v_render_sale(r, layout, rng):
    day, it, ds, pl, by, x = r["day"], r["item"], r["desc"], r["platform"], r["buyer"], r["eur"]
    if layout == "app":
        return (f"{pl} – Sale completed\nDate: {day.isoformat()}\nItem: {it} ({ds})\nBuyer: {by}\nPrice (€): {x:.2f}\n"
                f"Buyer protection fee (paid by buyer): {eur(round(0.7 + 0.05 * x, 2))}")
    if layout == "pipe":
        return f"{ddmm(day)} | {pl} | {it} ({ds}) | {by} | {eur_short(x)}"
    if layout == "json":
        return json.dumps({"platform": pl, "sold_at": f"{day.isoformat()}T{rng.randint(8, 22):02d}:{rng.randint(0, 59):02d}",
                           "title": f"{it} {ds}", "buyer": by, "price_eur": x}, ensure_ascii=False)
    if layout == "email":
        return (f"Fwd: You sold an item on {pl}!\nFrom: {pl} <no-reply@{pl.lower()}.com>\nDate: {long_date(day)}\n"
                f"Good news — your item has sold.\nItem: {it} ({ds})\nBuyer: {by}\nSale price: {eur(x)}\n"
                f"Postage paid by buyer: {eur(rng.choice([3.95, 4.5, 6.5]))}")
    if layout == "prose":
        return rng.choice([f"Sold the {it} ({ds}) for {eur_short(x)} to {by} on {pl}.",
                           f"{by} bought the {it} ({ds}) on {pl} — {eur_short(x)}. Happy days.",
                           f"Another one gone: {it}, {ds}, {eur_short(x)} via {pl}, buyer {by}" + ("" if by.endswith(".") else ".")])
    return f"Forgot to log yesterday's sale: {it} ({ds}) on {pl}, {eur_short(x)}, to {by}" + ("" if by.endswith(".") else ".")


def v_render_haul(r, layout, rng):
    day, s, n, x = r["day"], r["source"], r["pieces"], r["eur"]
    if layout == "receipt":
        head = {"Vincent's": "VINCENT'S — Patrick St, Cork", "Oxfam Douglas": "Oxfam Douglas",
                "Cancer Society Bandon": "Cancer Society Bandon", "Mallow car boot": "Mallow car boot — my own tally",
                "Kinsale house clearance": "Kinsale house clearance — invoice"}[s]
        lines = [head, day.strftime("%d/%m/%Y")] + [f"{c} x {k}   {eur(v)}" for k, c, v in r["lines"]]
        lines.append(f"TOTAL   {eur(x)}")
        return "Receipt from today's sourcing:\n" + "\n".join(lines)
    if layout == "pipe":
        return f"{ddmm(day)} | {s} | {n} pcs | {eur_short(x)}"
    if layout == "json":
        return json.dumps({"sourcing": {"date": day.isoformat(), "source": s, "pieces": n, "spent_eur": x}})
    if layout == "app":
        return f"Sourcing trip\nDate: {day.isoformat()}\nSource: {s}\nPieces: {n}\nSpent (EUR): {x:.2f}"
    if layout == "prose":
        return rng.choice([f"Hit {s} this morning, came home with {n} pieces for {eur_short(x)}.",
                           f"Stock run to {s}: {n} bits, {eur_short(x)} all in."])
    return f"Forgot to log yesterday's haul: {s}, {n} pieces, {eur_short(x)}."


def v_render_exp(r, layout, rng):
    day, v, w, x = r["day"], r["vendor"], r["what"], r["eur"]
    if layout == "receipt":
        return f"{v.upper()}\n{day.strftime('%d/%m/%Y')}\n{w}   {eur(x)}\nTOTAL   {eur(x)}\nThank you!"
    if layout == "pipe":
        return f"{ddmm(day)} | {v} | {w} | {eur(x)}"
    if layout == "json":
        return json.dumps({"expense": {"date": day.isoformat(), "payee": v, "for": w, "amount_eur": x}})
    if layout == "prose":
        return f"Paid {v} {eur_short(x)} for {w} today."
    return f"Forgot to log yesterday — {w} at {v}, {eur_short(x)}."


def v_chats():
    C = []
    C.append(lambda g: ("Saw a Burberry trench at Vincent's for €60 and left it there. Was I mad?",
                        "Depends on the label and condition; a genuine vintage Burberry trench often resells for €120+."))
    C.append(lambda g: ("Vinted buyers pay 5% + 70c protection. On a €40 item what does the buyer pay?", "€42.70."))
    C.append(lambda g: ("eBay's final value fee is 12.9%. On a €65 sale how much do they take?", "About €8.39."))
    C.append(lambda g: (f"My friend Ella sold a Levi's trucker jacket for €{g.choice([75, 85, 95])} on Depop. Am I underpricing?",
                        "Trucker jackets do run higher than 501s; check sold listings for the same wash and size."))
    C.append(lambda g: ("How do I get a musty smell out of a wool coat?",
                        "Air it outside, then steam it; a bag of bicarb or cedar in the wardrobe helps."))
    C.append(lambda g: ("Is €15 for a Harris Tweed at a car boot a good buy?", "Yes, if the label's there and no moth damage."))
    C.append(lambda g: ("What's a 40R blazer in EU sizes?", "About a 50."))
    C.append(lambda g: ("If I list 30 things and sell 40% of them, how many is that?", "12."))
    C.append(lambda g: ("How do I spot a 90s pair of 501s?", "Look at the care tag date and the button-fly stamp number."))
    C.append(lambda g: ("Steam or press knitwear?", "Steam — pressing flattens the stitches."))
    C.append(lambda g: ("A dealer offered €300 for a rail of 25 pieces. What's that per piece?", "€12 a piece."))
    C.append(lambda g: ("Do I need to register for tax on side income?", "Yes, declare it on a Form 11 if it's a regular trade."))
    C.append(lambda g: ("How would you price a cream Aran with a small moth hole?", "About 60% of a perfect one, and say so in the listing."))
    C.append(lambda g: (f"Depop says my listing got {g.randint(150, 260)} views. Is that good?", "Decent — watch saves, they convert better."))
    C.append(lambda g: ("What's £45 in euro roughly?", "About €53."))
    C.append(lambda g: ("My sister wants 10% of anything of hers I sell. Fair?", "Generous to you — consignment is usually 30–50%."))
    C.append(lambda g: ("Best time of day to post on Vinted?", "Evenings, 7–10pm, and Sunday afternoons."))
    C.append(lambda g: ("A shop on Princes St wants €450 a month for a rail. Worth it?",
                        "Only if a rail would sell well over €450 a month after your costs."))
    C.append(lambda g: ("Should I do 15% off bundles of 2+?", "Yes, it clears stock and saves on postage."))
    C.append(lambda g: ("How many hangers for 3 rails of 45?", "135."))
    C.append(lambda g: ("Are shoulder pads in blazers back?", "Strong shoulders are in; vintage 80s cuts sell well."))
    return C


def v_refresh(rng, kind, f, day, over):
    if kind == "sale" and "item" in over and "desc" not in over:
        f["desc"] = rng.choice(V_DESC[f["item"]])


def reseller():
    return Cfg(refresh=v_refresh, 
        name="reseller", user_id="dara_vintage", seed=2206, prefix="V", p_late=0.15, p_chat_only=0.9, p_chat_extra=0.7,
        probs=[("sale", 0.5), ("haul", 0.24), ("expense", 0.2)],
        gens={"sale": v_sale, "haul": v_haul, "expense": v_expense},
        layouts={"sale": ["app", "pipe", "json", "email", "prose", "prose"],
                 "haul": ["receipt", "pipe", "json", "app", "prose"],
                 "expense": ["receipt", "pipe", "json", "prose"]},
        render={"sale": v_render_sale, "haul": v_render_haul, "expense": v_render_exp},
        forced=[(V_STORM - ONE, "sale", {"item": "wool overcoat", "desc": "camel", "platform": "eBay", "eur": 72.0}),
                (V_HOME + ONE, "sale", {"platform": "Depop", "buyer": "rosie_retro"}),
                (V_LOCK - ONE, "haul", {"source": "Oxfam Douglas"}),
                (d(3, 30), "expense", {"vendor": "Castle Cleaners", "what": "dry cleaning", "eur": 18.5}),
                (d(4, 7), "sale", {"platform": "Vinted", "buyer": "Saoirse M.", "eur": 41.5})],
        blocked=V_QUIET, quiet=V_QUIET,
        events=[
            {"day": V_LOCK, "user": "Vinted froze my account overnight — 'unusual activity'. I have to upload ID and wait, "
                                   "so nothing can go out through there for now.",
             "assistant": "Annoying. Verification usually takes a few days."},
            {"day": V_BACK, "user": "Finally got the all-clear email from Vinted support, listings are live again.",
             "assistant": "Good news."},
            {"day": V_JOB, "user": "First shift at Waterstones today. Three days a week from now on, my feet are killing me.",
             "assistant": "Congrats on the new job! Comfy shoes."},
            {"day": V_STORM, "user": "Gale blew all night, no electricity on our road since 3am, so no steaming or photos today.",
             "assistant": "Stay safe, and keep the fridge shut."},
            {"day": V_SBREAK, "user": "The Jiffy steamer gave up mid-jumper — a pop and a smell of burning plastic.",
             "assistant": "Unplug it and don't try it again until it's checked."},
            {"day": V_SFIX, "user": "My brother Fergal swapped the fuse and descaled the element, the steamer's back in business.",
             "assistant": "Handy brother."},
            {"day": V_AWAY, "user": "Off to Berlin with Mags till Sunday, Mauerpark flea market here we come.",
             "assistant": "Have fun, and leave room in the suitcase."},
            {"day": V_HOME, "user": "Back from Germany — suitcase full of sweets for the nieces, nothing for the shop, I was good.",
             "assistant": "Welcome home."},
        ],
        mentions=[(d(2, 16), "Still waiting on Vinted to look at my ID. Four days now.", "They're usually slow at weekends."),
                  (d(3, 16), "Power came back yesterday evening, spent today catching up on photos.", "Glad it's back."),
                  (d(4, 1), "Hand-steaming over the kettle since the steamer died. Not recommended.", "Ha, brave.")],
        chats=v_chats(),
    )


def reseller_questions(q):
    S = lambda a=None, b=None, w=None: q.sel("sale", a, b, w)
    H = lambda a=None, b=None, w=None: q.sel("haul", a, b, w)
    X = lambda a=None, b=None, w=None: q.sel("expense", a, b, w)
    feb, mar, apr = month_range(2), month_range(3), month_range(4)
    q.num("aggregate_month", "How much did I make from sales in February?", total(S(*feb), "eur"), "EUR")
    q.num("aggregate_week", "how many pieces did I sell the week of 9 March", len(S(d(3, 9), d(3, 15))), None)
    q.num("aggregate_relative", "What was my average sale price last month?", avg(S(*apr), "eur"), "EUR")
    q.num("aggregate_range", "what's the most I paid for one sourcing run in March?", unique_ext(H(*mar), "eur"), "EUR")
    q.num("aggregate_min", "cheapest thing i sold in april?", unique_ext(S(*apr), "eur", biggest=False), "EUR")
    q.num("named_subject", "how much did the Barbour jackets make", total(S(w=lambda r: r["item"] == "Barbour jacket"), "eur"), "EUR")
    q.num("filter_value", "total depop sales in march??", total(S(*mar, w=lambda r: r["platform"] == "Depop"), "eur"), "EUR")
    assert not S(w=lambda r: r["eur"] == 50)
    q.num("filter_numeric", "How many things went for more than €50?", len(S(w=lambda r: r["eur"] > 50)), None)
    q.num("named_subject", "How much has Saoirse M. spent with me altogether?",
          total(S(w=lambda r: r["buyer"] == "Saoirse M."), "eur"), "EUR")
    q.num("since_event", "How much have I earned from sales since I started at the bookshop?", total(S(V_JOB + ONE), "eur"), "EUR")
    q.num("before_event", "how many sourcing trips did I do before the new job", len(H(b=V_JOB - ONE)), None)
    q.num("week_after_event", "What did I sell in total the week after the power cut?",
          total(S(V_STORM + ONE, V_STORM + 7 * ONE), "eur"), "EUR")
    q.num("while_event", "How much did I spend on cleaning and repairs while the steamer was broken?",
          total(X(V_SBREAK + ONE, V_SFIX - ONE), "eur"), "EUR")
    q.num("while_event", "how many sales did I make while Vinted had me locked out?", len(S(V_LOCK + ONE, V_BACK - ONE)), None)
    q.num("between_events", "Between the blackout and my trip to Germany, how many pieces did I buy in hauls?",
          total(H(V_STORM + ONE, V_AWAY - ONE), "pieces"), None)
    q.add("first_after_event", "Who bought the first thing I sold after I got back from Germany?",
          {"text": first_after(S(), V_HOME)["buyer"]})
    q.add("last_before_event", "Where did I last source stock before the Vinted suspension?",
          {"text": last_before(H(), V_LOCK)["source"]})
    q.num("value_on_day", "how much did I take in on the day before the storm?", total(S(V_STORM - ONE, V_STORM - ONE), "eur"), "EUR")
    fs, ms = total(S(*feb), "eur"), total(S(*mar), "eur")
    assert ms > fs
    q.num("compare_months", "How much more did I make in March than in February?", ms - fs, "EUR")
    fh, mh = total(H(*feb), "eur"), total(H(*mar), "eur")
    q.num("percent_change", "By what percentage did my haul spending change from February to March?", (mh - fh) / fh * 100, "%")
    dep, eb = S(*apr, w=lambda r: r["platform"] == "Depop"), S(*apr, w=lambda r: r["platform"] == "eBay")
    yn = total(dep, "eur") > total(eb, "eur") if dep and eb else bool(dep)
    q.add("compare_yes_no", "Did Depop bring in more money than eBay in April?", {"yes_no": yn})
    q.add("group_top", "Which platform brought in the most money overall?", {"group": top(groups(S(), "platform", "eur"))})
    q.add("group_top", "which buyer has bought the most items from me", {"group": top(groups(S(), "buyer"))})
    q.add("group_period", "Which week had my best sales total? Monday's date please.",
          {"period": top(groups(S(), lambda r: monday(r["day"]), "eur")).isoformat(), "bucket": "week"})
    q.add("group_period", "which month did I spend the most on stock?",
          {"period": f"2026-{top(groups(H(), lambda r: r['day'].month, 'eur')):02d}", "bucket": "month"})
    gp = groups(S(), "platform", "eur")
    q.num("share", "What share of my sales revenue came through Vinted?", gp["Vinted"] / sum(gp.values()) * 100, "%")
    src = top(groups(H(), "source"))
    q.num("top_group_measure", "At the place I sourced from most often, how much did I spend altogether?",
          total(H(w=lambda r: r["source"] == src), "eur"), "EUR")
    q.num("compare_groups", "March: what's my sales takings minus what I spent on hauls?", ms - mh, "EUR")
    # unanswerable
    assert not S(w=lambda r: "Burberry" in r["item"])
    q.una("unanswerable_value", "How much did I get for the Burberry trench?")
    q.una("unanswerable_measure", "How many likes did my Depop listings get in March?")
    q.una("unanswerable_group", "how much did I sell on Etsy")
    q.una("unanswerable_event", "How much did I make the week after the stockroom flooded?")
    q.una("unanswerable_period", "What were my sales in January?")
    q.una("unanswerable_measure", "How much have I spent on postage since the job started?")


# =============================================================================================
# 3. fosterer: Niamh, who fosters rescue cats in Galway for a cat rescue

F_ARRIVE, F_FLOOD, F_STRIKE, F_ADOPT, F_ANKLE = d(2, 9), d(2, 26), d(3, 12), d(3, 30), d(4, 13)
KITTENS = {"Pip": (0.42, 0.0135), "Fig": (0.38, 0.0122)}
F_CLINICS = [("Westside Vets", 0.45), ("Claddagh Animal Hospital", 0.35), ("Oranmore Vet Clinic", 0.2)]
F_REASONS = {"vaccination": (45, 65), "flea and worm": (25, 40), "dental check": (60, 120), "eye infection": (40, 70),
             "bloods": (80, 130), "check-up": (35, 55)}
F_SHOPS = [("Maxi Zoo", 0.35), ("Petmania", 0.3), ("Zooplus", 0.2), ("Tesco Oranmore", 0.15)]
F_ITEMS = {"kitten milk": (8, 12), "wood pellet litter 30L": (9, 14), "Felix pouches 40-pack": (14, 20),
           "kitten biscuits 2kg": (15, 25), "scratching post": (20, 45), "flea spot-on": (18, 30), "heat pad": (25, 35),
           "toy mice": (3, 6)}


def f_cats(day):
    cats = ["Sooty"]
    if day < F_ADOPT:
        cats.append("Biscuit")
    if day > F_ARRIVE:
        cats += ["Clover", "Pip", "Fig"]
    return cats


def f_weight(rng, cat, day):
    if cat in KITTENS:
        w0, g = KITTENS[cat]
        return round(w0 + g * (day - F_ARRIVE).days + rng.uniform(-0.02, 0.02), 3)
    if cat == "Clover":
        return round(3.05 + 0.007 * (day - F_ARRIVE).days + rng.uniform(-0.05, 0.05), 2)
    if cat == "Biscuit":
        return round(3.3 + 0.004 * (day - START).days + rng.uniform(-0.05, 0.05), 2)
    return round(rng.uniform(4.15, 4.6), 2)


def f_weigh(rng, day):
    cat = rng.choice(f_cats(day))
    return {"cat": cat, "kg": f_weight(rng, cat, day)}


def f_vet(rng, day):
    if F_ANKLE < day <= F_ANKLE + 3 * ONE:
        return None
    cat = rng.choice(f_cats(day))
    reasons = sorted(F_REASONS)
    if cat in KITTENS:
        reasons = ["vaccination", "flea and worm", "eye infection", "check-up"]
    reason = rng.choice(reasons)
    lo, hi = F_REASONS[reason]
    return {"clinic": wpick(rng, F_CLINICS), "cat": cat, "reason": reason, "eur": price(rng, lo, hi)}


def f_supply(rng, day):
    shop = "Zooplus" if F_ANKLE < day <= F_ANKLE + 6 * ONE else wpick(rng, F_SHOPS)
    items = rng.sample(sorted(F_ITEMS), rng.choice([1, 1, 2, 2, 3]))
    lines = [(it, price(rng, *F_ITEMS[it])) for it in items]
    return {"shop": shop, "lines": lines, "eur": round(sum(x for _, x in lines), 2)}


def f_render_weigh(r, layout, rng):
    day, cat, kg = r["day"], r["cat"], r["kg"]
    kitten = cat in KITTENS
    g = int(round(kg * 1000))
    wtxt = f"{g} g" if kitten else f"{kg:.2f} kg"
    if layout == "app":
        return (f"PetWeigh export\nDate: {day.isoformat()}\nPet: {cat}\n"
                + (f"Weight (g): {g}" if kitten else f"Weight (kg): {kg:.2f}"))
    if layout == "pipe":
        return f"{ddmm(day)} | {cat} | {wtxt.replace(' kg', 'kg')}"
    if layout == "json":
        return json.dumps({"pet": cat, "date": day.isoformat(),
                           "weight": {"value": g, "unit": "g"} if kitten else {"value": kg, "unit": "kg"}})
    if layout == "prose":
        return rng.choice([f"{cat} on the scales this morning: {wtxt}.",
                           f"Weighed {cat} — {wtxt}. " + ("Growing well." if kitten else "Holding steady."),
                           f"{wtxt} for {cat} today."])
    return f"Forgot to log yesterday's weigh-in — {cat} was {wtxt}."


def f_render_vet(r, layout, rng):
    day, cl, cat, rs, x = r["day"], r["clinic"], r["cat"], r["reason"], r["eur"]
    if layout == "receipt":
        consult = round(min(x, rng.choice([35.0, 40.0, 45.0])) if x > 50 else x, 2)
        lines = [f"{cl}\nInvoice {rng.randint(10000, 99999)} — {day.strftime('%d/%m/%Y')}\nPatient: {cat}",
                 f"Consultation ({rs})   {eur(consult)}"]
        if x - consult > 0.001:
            lines.append(f"Medication / treatment   {eur(round(x - consult, 2))}")
        lines.append(f"TOTAL   {eur(x)}")
        return "\n".join(lines)
    if layout == "pipe":
        return f"{ddmm(day)} | {cl} | {cat} | {rs} | {eur(x)}"
    if layout == "json":
        return json.dumps({"vet_visit": {"date": day.isoformat(), "clinic": cl, "patient": cat, "reason": rs,
                                         "total": f"EUR {x:.2f}"}})
    if layout == "app":
        return f"Vet visit\nDate: {day.isoformat()}\nClinic: {cl}\nCat: {cat}\nReason: {rs}\nCost (EUR): {x:.2f}"
    if layout == "prose":
        return rng.choice([f"Took {cat} to {cl} for {rs}, {eur_short(x)}.",
                           f"{cat} had {rs} at {cl} today. Bill was {eur_short(x)}."])
    return f"Forgot to log yesterday's vet trip: {cat}, {rs} at {cl}, {eur_short(x)}."


def f_render_supply(r, layout, rng):
    day, sh, lines, x = r["day"], r["shop"], r["lines"], r["eur"]
    its = [it for it, _ in lines]
    names = its[0] if len(its) == 1 else ", ".join(its[:-1]) + " and " + its[-1]
    if layout == "receipt":
        head = {"Maxi Zoo": "MAXI ZOO GALWAY", "Petmania": "PETMANIA — Galway", "Zooplus": "Fwd: Your zooplus order",
                "Tesco Oranmore": "TESCO ORANMORE"}[sh]
        return "\n".join([head, day.strftime("%d/%m/%Y")] + [f"{it}   {eur(p)}" for it, p in lines] + [f"TOTAL   {eur(x)}"])
    if layout == "pipe":
        return f"{ddmm(day)} | {sh} | {names} | {eur(x)}"
    if layout == "json":
        return json.dumps({"shop": sh, "date": day.isoformat(), "items": [{"name": it, "price": p} for it, p in lines],
                           "total_eur": x})
    if layout == "app":
        return f"Supplies\nDate: {day.isoformat()}\nShop: {sh}\nItems: {names}\nTotal (EUR): {x:.2f}"
    if layout == "prose":
        return f"Got {names} at {sh}, {eur_short(x)} in all."
    return f"Forgot to log yesterday — {names} from {sh}, {eur_short(x)}."


def f_chats():
    C = []
    C.append(lambda g: ("How much should a 10-week-old kitten weigh roughly?", "Around 1–1.2 kg, but steady gain matters more."))
    C.append(lambda g: (f"My sister's cat is {g.choice([5.8, 6.1, 6.4])} kg. Is that fat for a moggy?",
                        "Probably a bit heavy for an average domestic cat; 4–5 kg is typical."))
    C.append(lambda g: ("Insurance quote for Sooty came back at €28 a month. Worth it for an old boy?",
                        "For a senior cat, pre-existing conditions are often excluded — read the small print first."))
    C.append(lambda g: ("How many grams of wet food a day for a 4 kg cat?", "Roughly 200–250 g a day, split into meals."))
    C.append((lambda g: ("Kittens are 8 weeks on Friday — when can they have their first jabs?", "From 8–9 weeks, second at 12."), F_ARRIVE + ONE))
    C.append(lambda g: ("The rescue says adoption fee is €120 for a kitten. What does that usually cover?",
                        "Vaccinations, microchip, neutering voucher and flea/worm treatment."))
    C.append(lambda g: ("Is 38.5 degrees a normal temperature for a cat?", "Yes, 38–39.2 °C is normal."))
    C.append(lambda g: ("A cat flap with a microchip reader is €89 in Maxi Zoo. Should I get one?",
                        "Useful with several cats; not needed for fosters who stay indoors."))
    C.append((lambda g: ("How often should kittens be weighed?", "Daily for the first weeks, then every few days."), F_ARRIVE + ONE))
    C.append((lambda g: ("Litter trays: how many do I need for a mum and two kittens?",
                         "Two to start — the kittens can share a low tray once they're mobile."), F_ARRIVE + ONE))
    C.append((lambda g: ("Is it normal for a mother cat to lose weight while nursing?", "Yes, she'll regain it after weaning."), F_ARRIVE + ONE))
    C.append(lambda g: ("What's 1.2 kg in pounds?", "About 2.6 lb."))
    C.append(lambda g: (f"Friend's vet charged €{g.choice([180, 220, 240])} for a dental. Is that normal?",
                        "Dental under anaesthetic often runs €200–400 in Ireland."))
    C.append(lambda g: ("Sooty keeps drinking loads of water. Should I worry?",
                        "In an older cat it's worth a check — kidneys and thyroid are the usual suspects."))
    C.append(lambda g: ("How do I get a shy foster to come out from under the bed?",
                        "Sit on the floor, don't reach, and use treats on a long spoon."))
    C.append((lambda g: ("Can kittens have cow's milk?", "No — use kitten milk replacer."), F_ARRIVE + ONE))
    C.append(lambda g: ("Should I switch to wood pellets from clumping litter?", "Pellets are cheaper and lighter; some cats hate them."))
    C.append(lambda g: ("The rescue has 46 cats waiting for foster homes. Crazy, right?", "Spring is always the busiest time."))
    C.append((lambda g: ("What's a good room temperature for young kittens?", "About 24–26 °C in the first weeks."), F_ARRIVE + ONE))
    C.append(lambda g: ("How long does a flea spot-on last?", "About four weeks for most brands."))
    return C


def f_refresh(rng, kind, f, day, over):
    if kind == "weigh" and "kg" not in over:
        f["kg"] = f_weight(rng, f["cat"], day)
    if kind == "vet" and "reason" in over and "eur" not in over:
        f["eur"] = price(rng, *F_REASONS[f["reason"]])


def fosterer():
    return Cfg(refresh=f_refresh, 
        name="fosterer", user_id="niamh_fosters", seed=3305, prefix="F", p_late=0.15, p_chat_only=0.9, p_chat_extra=0.6,
        probs=[("weigh", 0.5), ("vet", 0.2), ("supply", 0.3)],
        gens={"weigh": f_weigh, "vet": f_vet, "supply": f_supply},
        layouts={"weigh": ["app", "pipe", "json", "prose", "prose"],
                 "vet": ["receipt", "pipe", "json", "app", "prose"],
                 "supply": ["receipt", "pipe", "json", "app", "prose"]},
        render={"weigh": f_render_weigh, "vet": f_render_vet, "supply": f_render_supply},
        forced=[(F_FLOOD + ONE, "weigh", {"cat": "Clover"}),
                (d(3, 16), "weigh", {"cat": "Pip"}), (d(3, 19), "weigh", {"cat": "Pip"}),
                (d(3, 24), "vet", {"clinic": "Westside Vets", "cat": "Sooty", "reason": "bloods", "eur": 112.4}),
                (F_ARRIVE + ONE, "vet", {"clinic": "Claddagh Animal Hospital", "cat": "Clover", "reason": "check-up"}),
                (d(4, 10), "vet", {"clinic": "Oranmore Vet Clinic", "cat": "Fig", "reason": "vaccination"}),
                (F_ANKLE + ONE, "supply", {"shop": "Zooplus"})],
        blocked=[], quiet=[],
        events=[
            {"day": F_ARRIVE, "user": "The rescue van came at nine with a tortie mum and two scraps of kittens. "
                                     "Mum is Clover, the babies are Pip (boy) and Fig (girl).",
             "assistant": "Welcome to them! Keep them in a quiet room for the first few days."},
            {"day": F_FLOOD, "user": "Pipe under the sink let go at 6am, the kitchen floor was an inch deep. "
                                    "Moved everyone up to the spare room.",
             "assistant": "What a morning. Hope the plumber comes quickly."},
            {"day": F_STRIKE, "user": "Bus Éireann drivers walked out today so I hitched a lift to work with Ger.",
             "assistant": "Fair play to Ger."},
            {"day": F_ADOPT, "user": "Biscuit went home with a lovely couple from Salthill today. I bawled the whole way back.",
             "assistant": "That's what it's all for — well done getting him there."},
            {"day": F_ANKLE, "user": "Went over on my ankle on the back step carrying the litter tray. It's swollen like an orange.",
             "assistant": "Ice and elevate, and get it checked if you can't put weight on it."},
        ],
        mentions=[(d(3, 5), "Plumber finally sorted the sink a week after the deluge. Kitchen is ours again.", "Great."),
                  (d(3, 13), "Buses back today, thank god.", "Good."),
                  (d(4, 20), "A week on the crutches now. Ordering everything online.", "Smart move.")],
        chats=f_chats(),
    )


def fosterer_questions(q):
    W = lambda a=None, b=None, w=None: q.sel("weigh", a, b, w)
    V = lambda a=None, b=None, w=None: q.sel("vet", a, b, w)
    P = lambda a=None, b=None, w=None: q.sel("supply", a, b, w)
    feb, mar, apr = month_range(2), month_range(3), month_range(4)
    cat = lambda c: (lambda r: r["cat"] == c)
    q.num("aggregate_month", "How much did I spend on vet bills in March?", total(V(*mar), "eur"), "EUR")
    pw = W(d(3, 16), d(3, 22), cat("Pip"))
    assert len(pw) >= 2
    q.num("aggregate_week", "What did Pip weigh on average the week of 16 March?", avg(pw, "kg"), "kg")
    q.num("aggregate_relative", "what did cat supplies cost me last month", total(P(*mar), "eur"), "EUR",
          qt="2026-04-05T09:30:00")
    q.num("aggregate_max", "What's the heaviest Sooty has been?", unique_ext(W(w=cat("Sooty")), "kg"), "kg")
    q.num("aggregate_min", "what was Fig's lowest recorded weight", unique_ext(W(w=cat("Fig")), "kg", biggest=False), "kg")
    fw = sorted(W(w=cat("Fig")), key=lambda r: r["day"])
    q.num("named_subject", "How much weight did Fig put on between her first and last weigh-in?", fw[-1]["kg"] - fw[0]["kg"], "kg")
    assert not V(w=lambda r: r["eur"] == 80)
    q.num("filter_numeric", "How many vet visits cost more than €80?", len(V(w=lambda r: r["eur"] > 80)), None)
    q.num("named_subject", "how much has Biscuit cost in vet fees", total(V(w=cat("Biscuit")), "eur"), "EUR")
    q.num("since_event", "How much have I spent on supplies since the new arrivals came?", total(P(F_ARRIVE + ONE), "eur"), "EUR")
    q.num("before_event", "Before the kitchen flooding, how much had I spent on supplies?", total(P(b=F_FLOOD - ONE), "eur"), "EUR")
    assert P(F_STRIKE + ONE, F_STRIKE + 7 * ONE)
    q.num("week_after_event", "what did I spend on suplies in the week after the strike?",
          total(P(F_STRIKE + ONE, F_STRIKE + 7 * ONE), "eur"), "EUR")
    q.num("between_events", "How many weigh-ins did I record between the kitchen flood and the bus strike?",
          len(W(F_FLOOD + ONE, F_STRIKE - ONE)), None)
    q.add("first_after_event", "Which vet did I go to first after the mum and kittens arrived?",
          {"text": first_after(V(), F_ARRIVE)["clinic"]})
    q.add("last_before_event", "Which cat had the last vet visit before I hurt my ankle?",
          {"text": last_before(V(), F_ANKLE)["cat"]})
    q.add("first_after_event", "where did I first buy supplies after I sprained my ankle", {"text": first_after(P(), F_ANKLE)["shop"]})
    q.num("value_on_day", "What did Clover weigh the day after the kitchen flooded?",
          total(W(F_FLOOD + ONE, F_FLOOD + ONE, cat("Clover")), "kg"), "kg")
    q.num("value_on_day", "how much was the vet on 24 March", total(V(d(3, 24), d(3, 24)), "eur"), "EUR")
    fp, mp = total(P(*feb), "eur"), total(P(*mar), "eur")
    assert mp != fp
    if mp > fp:
        q.num("compare_months", "How much more did I spend on supplies in March than in February?", mp - fp, "EUR")
    else:
        q.num("compare_months", "How much less did I spend on supplies in March than in February?", fp - mp, "EUR")
    fv, mv = total(V(*feb), "eur"), total(V(*mar), "eur")
    q.num("percent_change", "By what percent did my vet spending change from February to March?", (mv - fv) / fv * 100, "%")
    q.add("compare_yes_no", "Did I spend more at the vets than on supplies in April?",
          {"yes_no": total(V(*apr), "eur") > total(P(*apr), "eur")})
    q.add("group_top", "Which cat went to the vet the most?", {"group": top(groups(V(), "cat"))})
    q.add("group_top", "which shop did i spend the most at for supplies", {"group": top(groups(P(), "shop", "eur"))})
    q.add("group_period", "Which week did I spend the most on supplies? Give me the Monday.",
          {"period": top(groups(P(), lambda r: monday(r["day"]), "eur")).isoformat(), "bucket": "week"})
    q.add("group_period", "Which month were the vet bills highest?",
          {"period": f"2026-{top(groups(V(), lambda r: r['day'].month, 'eur')):02d}", "bucket": "month"})
    gv = groups(V(), "cat", "eur")
    q.num("share", "What share of the vet bills was for Sooty?", gv["Sooty"] / sum(gv.values()) * 100, "%")
    cl = top(groups(V(), "clinic"))
    q.num("top_group_measure", "At the clinic I used most often, what did I spend in total?",
          total(V(w=lambda r: r["clinic"] == cl), "eur"), "EUR")
    # unanswerable
    q.una("unanswerable_group", "How much did Mittens weigh in March?")
    q.una("unanswerable_measure", "What have I spent on the cats' insurance so far?")
    assert not W(F_ADOPT, None, cat("Biscuit"))
    q.una("unanswerable_period", "how much did Biscuit weigh in April")
    q.una("unanswerable_event", "How much did I spend on supplies since the cat flap broke?")
    q.una("unanswerable_measure", "How many grams of food does Sooty eat per day on average?")
    q.una("unanswerable_group", "What did I spend at Knocknacarra Vets?")
    q.una("unanswerable_period", "How much did I spend on supplies in January?")


# =============================================================================================

def main():
    Oneoff.i = 0
    all_q = []
    summary = []
    for cfg_fn, qfn in ((rower, rower_questions), (reseller, reseller_questions), (fosterer, fosterer_questions)):
        cfg = cfg_fn()
        hist, recs = build(cfg)
        q = Q(cfg.name, recs)
        qfn(q)
        n_rounds = sum(len(s["rounds"]) for s in hist["sessions"])
        kinds = defaultdict(int)
        for r in recs:
            kinds[r["kind"]] += 1
        assert 150 <= n_rounds <= 200, (cfg.name, n_rounds)
        assert all(15 <= v <= 50 for v in kinds.values()), (cfg.name, dict(kinds))
        assert 30 <= len(q.items) <= 35, (cfg.name, len(q.items))
        texts = [x["question"] for x in q.items]
        assert len(set(texts)) == len(texts)
        (HERE / f"history_{cfg.name}.json").write_text(json.dumps(hist, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        with open(HERE / f"questions_{cfg.name}.jsonl", "w", encoding="utf-8") as f:
            for x in q.items:
                f.write(json.dumps(x, ensure_ascii=False) + "\n")
        all_q += q.items
        una = sum(1 for x in q.items if x["gold"].get("unanswerable"))
        layouts = defaultdict(int)
        for r in recs:
            layouts[r["layout"]] += 1
        summary.append(f"{cfg.name}: {len(hist['sessions'])} sessions, {n_rounds} rounds, records {dict(kinds)}, "
                       f"layouts {dict(layouts)}, {len(q.items)} questions ({una} unanswerable)")
    una = sum(1 for x in all_q if x["gold"].get("unanswerable"))
    assert 90 <= len(all_q) <= 100 and una >= 18
    with open(HERE / "questions.jsonl", "w", encoding="utf-8") as f:
        for x in all_q:
            f.write(json.dumps(x, ensure_ascii=False) + "\n")
    for s in summary:
        print(s)
    print(f"total: {len(all_q)} questions, {una} unanswerable")


if __name__ == "__main__":
    main()
