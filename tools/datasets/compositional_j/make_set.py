#!/usr/bin/env python3
"""Generate compositional set J: three histories (a beekeeper, a private tutor, a home-solar owner with
two electric cars) and their questions, with every gold answer computed from the records generated here.

Usage:  python3 tools/datasets/compositional_j/make_set.py
Writes history_<name>.json, questions_<name>.jsonl and questions.jsonl next to this file.
Deterministic (fixed seed); standard library only.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEED = 20260502
START, END = dt.date(2026, 2, 1), dt.date(2026, 4, 30)
QTIME = "2026-05-01T20:00:00"          # "last month" = April 2026


def D(s: str) -> dt.date:
    return dt.date.fromisoformat(s)


def all_days():
    x = START
    while x <= END:
        yield x
        x += dt.timedelta(days=1)


def plus(d: dt.date, n: int) -> dt.date:
    return d + dt.timedelta(days=n)


# ----------------------------------------------------------------------------------------------
# how people write numbers
# ----------------------------------------------------------------------------------------------

def num(x: float, decimals: bool = False) -> str:
    if decimals or abs(x - round(x)) > 1e-9:
        return f"{x:.2f}"
    return str(int(round(x)))


def money(rng, x: float, comma_ok: bool = False) -> str:
    styles = ["€{a}", "{b} EUR", "{a} euro", "€{b}", "EUR {a}", "{a}€"]
    if comma_ok:
        styles += ["{c} €", "{c}€"]
    s = rng.choice(styles)
    a, b = num(x), num(x, True)
    c = b.replace(".", ",")
    out = s.format(a=a, b=b, c=c)
    if out.endswith(" euro") and abs(x - 1) > 1e-9:
        out += "s"
    return out


def kg_str(rng, kg: float) -> str:
    return rng.choice([f"{kg:g} kg", f"{kg:g}kg", f"{int(round(kg * 1000))} g", f"{kg:g} kilos"])


def litre_str(rng, l: float) -> str:
    return rng.choice([f"{l:g} L", f"{l:g} litres", f"{l:g}l", f"{int(round(l * 1000))} ml"])


def mins_str(rng, m: int) -> str:
    h, r = divmod(m, 60)
    if h == 0:
        return rng.choice([f"{m} min", f"{m} mins", f"{m} minutes", "three quarters of an hour" if m == 45 else f"{m} min"])
    opts = [f"{m} min", f"{m} mins", f"{h}h{r:02d}" if r else f"{h}h"]
    if r == 0:
        opts += [f"{h} hour" if h == 1 else f"{h} hours", "an hour" if h == 1 else f"{h} hours"]
    elif r == 30:
        opts += [f"{h}.5 hrs", "an hour and a half" if h == 1 else f"{h} and a half hours"]
    elif r == 15:
        opts += [f"{h}.25 h", f"{h} hour {r}" if h == 1 else f"{h} hours {r}"]
    return rng.choice(opts)


def kwh_str(rng, x: float, wh_ok: bool = True) -> str:
    opts = [f"{x:.1f} kWh", f"{x:.1f}kWh", f"{x:.1f} kwh"]
    if wh_ok:
        opts.append(f"{int(round(x * 1000))} Wh")
    return rng.choice(opts)


# ----------------------------------------------------------------------------------------------
# a history under construction
# ----------------------------------------------------------------------------------------------

class Hist:
    def __init__(self, name: str, user_id: str, seed: int):
        self.name, self.user_id = name, user_id
        self.rng = random.Random(seed)
        self.days: dict[dt.date, list] = defaultdict(list)
        self.records: list[dict] = []
        self.events: dict[str, dt.date] = {}
        self.n = 0

    def add(self, day: dt.date, user: str, assistant: str, hour: float | None = None):
        assert START <= day <= END, day
        if hour is None:
            hour = self.rng.uniform(7.5, 22.0)
        self.n += 1
        self.days[day].append((hour, self.n, user, assistant))

    def record(self, kind: str, day: dt.date, user: str, assistant: str, log_day: dt.date | None = None,
               hour: float | None = None, **fields):
        self.records.append(dict(kind=kind, date=day, logged=log_day or day, **fields))
        self.add(log_day or day, user, assistant, hour)

    def event(self, key: str, day: dt.date, user: str, assistant: str, hour: float | None = None):
        self.events[key] = day
        self.add(day, user, assistant, hour)

    def chat(self, pool: list, n: int):
        """Spread n chat rounds over the period (each pool item used at most twice)."""
        rng = self.rng
        a, b = pool[:], pool[:]
        rng.shuffle(a)
        rng.shuffle(b)
        order = a + b
        assert n <= len(order), "chat pool too small"
        days = list(all_days())
        for i in range(n):
            user, assistant = order[i]
            self.add(rng.choice(days), user, assistant)

    def build(self) -> dict:
        sessions = []
        for i, day in enumerate(sorted(self.days), 1):
            items = sorted(self.days[day], key=lambda t: (t[0], t[1]))
            rounds, last = [], None
            for j, (hour, _, user, assistant) in enumerate(items, 1):
                want = dt.datetime.combine(day, dt.time(0, 0)) + dt.timedelta(minutes=int(hour * 60))
                if last is not None and want <= last:
                    want = last + dt.timedelta(minutes=self.rng.randint(2, 9))
                last = want
                assert want.date() == day, (self.name, day, hour)
                rounds.append({"round_id": f"S{i}:{j}", "time": want.isoformat(timespec="seconds"),
                               "user": user, "assistant": assistant})
            sessions.append({"session_id": f"S{i}", "date": day.isoformat(), "rounds": rounds})
        return {"user_id": self.user_id, "sessions": sessions}


# ----------------------------------------------------------------------------------------------
# gold helpers (all work on the generated records)
# ----------------------------------------------------------------------------------------------

def sel(recs, kind, a: dt.date | None = None, b: dt.date | None = None, where=None, **eq):
    """Records of a kind with a <= date <= b, the given field values and an optional predicate."""
    out = []
    for r in recs:
        if r["kind"] != kind:
            continue
        if a is not None and r["date"] < a:
            continue
        if b is not None and r["date"] > b:
            continue
        if any(r.get(k) != v for k, v in eq.items()):
            continue
        if where is not None and not where(r):
            continue
        out.append(r)
    return out


def month(recs, kind, m: int, **kw):
    a = dt.date(2026, m, 1)
    b = dt.date(2026, m + 1, 1) - dt.timedelta(days=1)
    return sel(recs, kind, a, b, **kw)


def tot(rs, f):
    return round(sum(r[f] for r in rs), 6)


def avg(rs, f):
    assert rs, "average of nothing"
    return round(sum(r[f] for r in rs) / len(rs), 6)


def groups(rs, key, f=None):
    g = defaultdict(float)
    for r in rs:
        g[r[key]] += 1 if f is None else r[f]
    return dict(g)


def top(g: dict):
    ranked = sorted(g.items(), key=lambda kv: -kv[1])
    assert len(ranked) == 1 or ranked[0][1] > ranked[1][1] + 1e-9, f"tie at the top: {ranked[:3]}"
    return ranked[0]


def monday(d: dt.date) -> dt.date:
    return d - dt.timedelta(days=d.weekday())


def weekly(rs, f=None):
    g = defaultdict(float)
    for r in rs:
        g[monday(r["date"])] += 1 if f is None else r[f]
    return dict(g)


def first(rs):
    rs = sorted(rs, key=lambda r: r["date"])
    assert rs, "first of nothing"
    assert len(rs) == 1 or rs[0]["date"] < rs[1]["date"], f"first not unique: {rs[:2]}"
    return rs[0]


def last(rs):
    rs = sorted(rs, key=lambda r: r["date"])
    assert rs, "last of nothing"
    assert len(rs) == 1 or rs[-1]["date"] > rs[-2]["date"], f"last not unique: {rs[-2:]}"
    return rs[-1]


def last_value(rs, f):
    """The field value of the last-dated records; several records on that date must agree on it."""
    rs = sorted(rs, key=lambda r: r["date"])
    assert rs, "last of nothing"
    vals = {r[f] for r in rs if r["date"] == rs[-1]["date"]}
    assert len(vals) == 1, f"last {f} not unique: {vals}"
    return vals.pop()


def unique_max(rs, f):
    vals = sorted((r[f] for r in rs), reverse=True)
    assert len(vals) == 1 or vals[0] > vals[1], f"max not unique: {vals[:3]}"
    return vals[0]


def pct_change(a, b):
    return round((b - a) / a * 100.0, 6)


def share(part, whole):
    return round(part / whole * 100.0, 6)


def V(x, unit=None, **extra):
    if isinstance(x, float):
        x = round(x, 6)
    g = {"value": x, "unit": unit}
    g.update(extra)
    return g


UNANS = {"unanswerable": True}


def clear_on(recs, kinds, days):
    """No record of these kinds is dated on, or logged on, a boundary (event) day."""
    for kind in kinds:
        for day in days:
            assert not sel(recs, kind, day, day), f"a {kind} record falls on the boundary day {day}"
            assert not [r for r in recs if r["kind"] == kind and r["logged"] == day], f"a {kind} record is logged on {day}"


# ==============================================================================================
# 1. hives: Nell keeps bees in the hills of the Algarve
# ==============================================================================================

HIVES_CHAT = [
    ("Is it too early in the year to add a super?", "Usually yes - wait until the brood box is nearly full and there's a flow on."),
    ("What's the difference between a drone cell and a worker cell again?", "Drone cells are bigger and capped with a domed top; worker cappings are flat."),
    ("Morning! Misty up the valley today.", "Morning! Sounds lovely, if damp."),
    ("My friend Joana says her hive had a mite drop of 60 last week. Should she panic?", "That's high for this time of year - she should treat and recheck."),
    ("How long does oxalic acid take to work?", "The drip method works on phoretic mites within days; it doesn't reach capped brood."),
    ("Rui thinks I talk to the bees more than I talk to him.", "The bees are very good listeners."),
    ("Can you remind me what a queen cup looks like?", "A small acorn-shaped cup, usually at the bottom edge of a frame. Empty ones are common."),
    ("Any tips for lighting a smoker that actually stays lit?", "Start with paper, add pine needles or burlap loosely, then pack cooler fuel on top."),
    ("The almond trees are out on the road to Loulé.", "Good early pollen for the bees."),
    ("What's a good recipe for 2:1 syrup?", "Two parts sugar to one part water by weight, dissolved in warm water."),
    ("Why do bees beard on the front of the hive?", "Usually heat or crowding - they hang outside to cool the box."),
    ("Do I need to register my hives with the DGAV every year?", "Yes, the annual declaration is usually due in the autumn window."),
    ("Had a lovely walk with the dog along the levada.", "Sounds like a good morning."),
    ("Is propolis actually good for sore throats or is it a myth?", "There's some evidence it helps a little; it's not a miracle cure."),
    ("Ordered new gloves, my old ones have more holes than leather.", "Good call, especially with stroppy colonies."),
    ("How warm does it need to be before I can open a hive?", "Around 14-15°C and calm, ideally in the middle of the day."),
    ("What's the best way to store spare drawn comb?", "Somewhere cool and sealed, away from wax moth; some people freeze it first."),
    ("My neighbour's cat keeps sitting on the Bramble roof.", "As long as she doesn't knock it, the bees won't mind much."),
    ("What's a nuc exactly?", "A small starter colony, usually five frames with a queen."),
    ("Rainy and cold, no flying today.", "A good day to clean kit."),
    ("Can honey go off?", "Not really - properly ripened honey keeps for years, though it may crystallise."),
    ("How do I stop honey setting in the jar?", "Warm it gently below 40°C; crystallising is natural though."),
    ("The lady at the post office wants to know if my honey is 'organic'.", "Only with certification - you can say it's raw and local."),
    ("What plants should I put in the garden for the bees?", "Rosemary, lavender, borage, thyme and a few early-flowering shrubs."),
    ("Is it normal to see dead bees outside the entrance in winter?", "A few, yes - the colony clears out its dead."),
    ("Bought a new hive tool, the red one, so I can actually find it in the grass.", "Smart move."),
    ("How often should I replace brood comb?", "Rotating out two or three old frames a year is a common rule."),
    ("Rui made a cake with my honey, gone in a day.", "That's the best review."),
    ("What's the temperature inside a brood nest, roughly?", "About 34-35°C."),
    ("Is it true bees can recognise faces?", "Some studies suggest they can learn face-like patterns."),
    ("Sunny and 19 degrees, they're flying like mad.", "Perfect foraging weather."),
    ("Should I clip my queens' wings?", "It's personal; it helps control swarms but some beekeepers dislike it."),
    ("What causes chalkbrood?", "A fungus, often worse in damp, stressed colonies."),
    ("Watching a documentary about Asian hornets, terrifying.", "They're a real threat - worth keeping an eye out."),
    ("Can I feed bees honey from the supermarket?", "Better not - it can carry disease spores. Use sugar."),
    ("Labels for the jars arrived, they look lovely.", "Nice - good labels help sales."),
    ("How do I know if a colony is queenright?", "Look for eggs standing upright in cells, and calm, orderly behaviour."),
    ("My back is killing me after lifting boxes.", "Lift with your knees and take breaks."),
    ("What does a laying worker colony look like?", "Multiple eggs per cell, eggs on cell walls, and bullet-shaped drone brood in worker cells."),
    ("Any idea why bees would be fanning at the entrance?", "Cooling, evaporating nectar, or calling with the Nasonov scent."),
    ("How far do bees fly to forage?", "Usually within 3 km, sometimes much further."),
    ("Tiago says he'll lend me his trailer whenever I need it.", "Handy to have."),
    ("Is 30 kg of honey a good year for one hive round here?", "That would be a decent crop for most hives."),
    ("Happy Friday!", "Happy Friday! Any plans for the bees?"),
]


def gen_hives():
    h = Hist("hives", "nell_apiary", SEED + 1)
    rng = h.rng
    EV = {"sting": D("2026-02-15"), "swarm": D("2026-03-08"), "juniper": D("2026-03-29"), "move": D("2026-04-12")}
    blocked = set(EV.values())

    h.event("sting", EV["sting"],
            "Horrible afternoon. One of the Juniper girls got in under my veil and got me right on the eyelid. By teatime "
            "my whole face had ballooned and my throat felt tight, so Rui drove me down to the centro de saúde - an "
            "injection, a packet of tablets and a telling-off for going in on my own.",
            "That sounds frightening. Please don't open hives alone for a while, and ask about carrying an adrenaline pen.",
            hour=19.2)
    h.add(plus(EV["sting"], 2),
          "Face more or less back to normal, two days on from the eyelid drama. Staying away from the hives till the weekend.",
          "Sensible. Glad the swelling's going down.", hour=10.4)
    h.event("swarm", EV["swarm"],
            "Mrs Doyle next door rang in a panic - a hanging clump of bees the size of a rugby ball on her apple tree. "
            "Shook them into my spare box over a sheet and they marched straight in. They're mine now, calling them Tansy.",
            "What a catch! Tansy it is.", hour=13.1)
    h.event("juniper", EV["juniper"],
            "Opened Juniper this morning and there's nobody home. A handful of dead bees head-first in the cells, no "
            "brood, hardly any stores. Gutted. Box is sealed up and I'll scorch it before it's used again.",
            "I'm sorry, Nell. Sealing it up was the right thing to do.", hour=11.3)
    h.event("move", EV["move"],
            "Up at 4, strapped every box onto Tiago's trailer in the dark and crawled up the hill at 20 km/h. They're "
            "sitting in among the orange trees at the Quinta now and already flying.",
            "Well done - a big job. Hope the blossom is worth it.", hour=9.6)
    h.add(plus(EV["move"], 3),
          "Day three up at the Quinta and the girls are coming home plastered in orange pollen.",
          "They sound happy there.", hour=17.0)

    def active(day):
        hs = ["Bramble", "Clover", "Saffron"]
        if day < EV["juniper"]:
            hs.append("Juniper")
        if day > EV["swarm"]:
            hs.append("Tansy")
        return hs

    def brood_of(hive, day):
        t = (day - START).days
        base = {"Bramble": 3 + 5 * t / 88, "Clover": 2 + 5 * t / 88, "Saffron": 3 + 4 * t / 88,
                "Juniper": max(0.0, 2.5 - 2.2 * t / 56), "Tansy": 2 + 4 * max(0, t - 36) / 52}[hive]
        return max(0, int(round(base + rng.choice([-1, 0, 0, 0, 1]))))

    MITES = {"Bramble": (3, 15), "Clover": (6, 26), "Saffron": (2, 12), "Juniper": (16, 42), "Tansy": (0, 8)}
    TEMPERS = ["calm"] * 5 + ["a bit defensive", "nervy"]
    TEMPER_SENT = {"calm": "Lovely and calm.", "a bit defensive": "A bit defensive today.", "nervy": "Nervy, running all over the frames."}
    ACK = ["Logged.", "Noted.", "Got it.", "Saved.", "Thanks, logged."]

    def can_yesterday(day):
        return plus(day, 1) <= END and plus(day, 1) not in blocked

    def inspection(day, hive):
        b, lo_hi = brood_of(hive, day), MITES[hive]
        m = rng.randint(*lo_hi)
        q = rng.random() < 0.55 and not (hive == "Juniper" and day > D("2026-03-10"))
        temper = rng.choice(TEMPERS)
        lay = rng.randrange(5)
        if lay == 4 and not can_yesterday(day):
            lay = rng.randrange(4)
        when = rng.choice(["this afternoon", "this morning", "after lunch", "just now"])
        log_day, hour = None, rng.uniform(11.0, 17.5)
        if lay == 0:
            text = (f"Inspection | {hive} | brood: {b} frames | mites: {m} | queen seen: {'yes' if q else 'no'} | {temper}")
        elif lay == 1:
            text = (f"Went through {hive} {when} - {b} frames of brood, "
                    f"{'spotted her majesty' if q else 'no sign of the queen'}, mite drop of {m} on the board. "
                    f"{TEMPER_SENT[temper]}")
        elif lay == 2:
            text = json.dumps({"hive": hive, "brood_frames": b, "varroa": m, "queen": "seen" if q else "not seen",
                               "temper": temper}, ensure_ascii=False)
        elif lay == 3:
            text = (f"Hive check - {hive}\nBrood: {b} fr\nVarroa drop: {m}\nQueen: {'seen' if q else 'not seen'}\n"
                    f"Mood: {temper}")
        else:
            text = (f"Forgot to put in yesterday's look at {hive}: {b} frames of brood, {m} mites on the sticky board, "
                    f"queen {'seen' if q else 'not seen'}.")
            log_day, hour = plus(day, 1), rng.uniform(7.5, 10.0)
        h.record("inspection", day, text, rng.choice(ACK + [f"Logged - {hive}, {b} frames."]), log_day=log_day,
                 hour=hour, hive=hive, brood=b, mites=m, queen=q, temper=temper)

    def feeding(day, hive):
        syrup = rng.random() < (0.7 if hive == "Tansy" or day.month > 2 else 0.35)
        lay = rng.randrange(4)
        if syrup:
            l = rng.choice([1, 1.5, 2, 2, 2.5, 3])
            ls = litre_str(rng, l)
            text = [f"Fed {hive} {ls} of 1:1 syrup", f"Feeding | {hive} | syrup | {ls}",
                    json.dumps({"feed": {"hive": hive, "type": "syrup", "amount": ls}}),
                    f"Topped up the feeder on {hive} this evening, {ls} of sugar syrup went in."][lay]
            h.record("feeding", day, text, rng.choice(ACK), hour=rng.uniform(16.5, 20.5), hive=hive, feed="syrup",
                     litres=float(l), kg=0.0)
        else:
            kg = rng.choice([1, 1.5, 2, 2.5])
            ks = kg_str(rng, kg)
            text = [f"Fed {hive} {ks} of fondant", f"Feeding | {hive} | fondant | {ks}",
                    json.dumps({"feed": {"hive": hive, "type": "fondant", "amount": ks}}),
                    f"Put a {ks} slab of fondant over the crownboard on {hive}."][lay]
            h.record("feeding", day, text, rng.choice(ACK), hour=rng.uniform(11.0, 16.0), hive=hive, feed="fondant",
                     litres=0.0, kg=float(kg))

    CHANNELS = [("Rosa's shop", 5.0, (6, 12), 4), ("the co-op", 5.5, (4, 10), 3), ("website", 8.5, (1, 3), 4),
                ("neighbours", 7.0, (1, 4), 3)]
    NEIGHBOURS = ["Senhora Lurdes", "The Brennans from the top house", "Paulo at the garage", "Mrs Doyle"]
    CITIES = ["Lisbon", "Porto", "Faro", "Braga", "Coimbra", "Évora"]

    def sale(day):
        ch, price, rng_jars, _ = rng.choices(CHANNELS, weights=[c[3] for c in CHANNELS])[0]
        n = rng.randint(*rng_jars)
        amt = round(n * price, 2)
        ms = money(rng, amt, comma_ok=True)
        lay = rng.randrange(4)
        if lay == 0:
            text = f"Honey sale | {ch} | {n} {'jar' if n == 1 else 'jars'} | {ms}"
        elif lay == 1:
            text = json.dumps({"sale": {"buyer": ch, "jars": n, "total": ms}}, ensure_ascii=False)
        elif ch == "Rosa's shop":
            text = f"Dropped {n} jars down to Rosa's shop, she paid {ms} on the spot."
        elif ch == "the co-op":
            text = f"Co-op took {n} jars of the winter honey this week. {ms} for the lot."
        elif ch == "website":
            text = f"Website order in - {n} {'jar' if n == 1 else 'jars'} going to {rng.choice(CITIES)}, {ms} incl postage."
        else:
            text = f"{rng.choice(NEIGHBOURS)} took {n} {'jar' if n == 1 else 'jars'} of honey, {ms} into the tin."
        h.record("sale", day, text, rng.choice(ACK), hour=rng.uniform(9.0, 21.0), channel=ch, jars=n, amount=amt)

    for day in all_days():
        if day in blocked:
            continue
        hs = active(day)
        after_sting_pause = EV["sting"] < day <= plus(EV["sting"], 6)
        p_insp = {2: 0.2, 3: 0.5, 4: 0.6}[day.month]
        if not after_sting_pause and rng.random() < p_insp:
            inspection(day, rng.choice(hs))
            if day.month == 4 and rng.random() < 0.25:
                inspection(day, rng.choice(hs))
        p_feed = 0.3 if day.month < 4 else (0.12 if day < EV["move"] else 0.0)
        if rng.random() < p_feed:
            feeding(day, rng.choice(hs))
        if rng.random() < 0.22:
            sale(day)

    h.chat(HIVES_CHAT, 78)
    return h, EV


def questions_hives(h, EV):
    R = h.records
    q = []

    def add(family, text, gold):
        q.append((family, text, gold))

    sting, swarm, jun, move = EV["sting"], EV["swarm"], EV["juniper"], EV["move"]
    clear_on(R, ["inspection", "feeding", "sale"], EV.values())

    add("aggregate.sum.month", "how many jars of honey did I sell in March?", V(tot(month(R, "sale", 3), "jars")))
    add("aggregate.sum.relative", "What did the honey bring in last month, in euro", V(tot(month(R, "sale", 4), "amount"), "EUR"))
    add("aggregate.avg.month", "Average mite count across my inspections in February?", V(avg(month(R, "inspection", 2), "mites")))
    wk = sel(R, "inspection", D("2026-03-16"), D("2026-03-22"))
    assert wk
    add("aggregate.count.week", "how many hive inspections did I do the week of 16 March", V(len(wk)))
    rs = sel(R, "sale", D("2026-03-01"), D("2026-03-20"))
    add("aggregate.max.range", "Biggest single honey sale between the 1st and the 20th of March?",
        V(unique_max(rs, "amount"), "EUR"))

    add("filter.subject.month", "How many times did I open up Clover in April?", V(len(month(R, "inspection", 4, hive="Clover"))))
    add("filter.subject.avg", "whats Bramble's average number of brood frames, over everything I logged",
        V(avg(sel(R, "inspection", hive="Bramble"), "brood")))
    add("filter.value.count", "How many inspections had a mite drop over 20?",
        V(len(sel(R, "inspection", where=lambda r: r["mites"] > 20))))
    add("filter.subject.sum", "How much fondant did Saffron get in total? in kg",
        V(tot(sel(R, "feeding", hive="Saffron", feed="fondant"), "kg"), "kg"))

    add("event.since.sum", "How much syrup have I given out since I caught that swarm?",
        V(tot(sel(R, "feeding", plus(swarm, 1), feed="syrup"), "litres"), "l"))
    add("event.before.count", "Before I got stung on the eye, how many inspections had I done?",
        V(len(sel(R, "inspection", None, plus(sting, -1)))))
    assert move.weekday() == 6
    wa = sel(R, "sale", plus(move, 1), plus(move, 7))
    assert wa
    add("event.week_after", "the week after we moved the hives how many jars did i sell", V(tot(wa, "jars")))
    add("event.since.avg", "Average mite count since the move up to the orange grove?",
        V(avg(sel(R, "inspection", plus(move, 1)), "mites")))
    btw = sel(R, "sale", plus(swarm, 1), plus(jun, -1))
    assert btw
    add("event.between", "Between catching the swarm and losing Juniper, how much honey money came in?",
        V(tot(btw, "amount"), "EUR"))
    lj = last(sel(R, "inspection", None, plus(jun, -1), hive="Juniper"))
    add("event.last_before.value", "How many frames of brood did Juniper have the last time I looked in before it died out?",
        V(lj["brood"]))
    add("event.first_after", "After the sting business, which hive did I open first?",
        {"text": first(sel(R, "inspection", plus(sting, 1)))["hive"]})
    add("event.last_before", "which hive did I feed last before moving them all up to the Quinta",
        {"text": last(sel(R, "feeding", None, plus(move, -1)))["hive"]})

    j3, j4 = tot(month(R, "sale", 3), "jars"), tot(month(R, "sale", 4), "jars")
    assert j3 != j4
    add("compare.yes_no", "Did I sell more jars in April than in March?", {"yes_no": j4 > j3})
    e2, e4 = tot(month(R, "sale", 2), "amount"), tot(month(R, "sale", 4), "amount")
    assert e4 > e2
    add("compare.difference", "How much more did honey sales make in April compared to February?",
        V(round(e4 - e2, 2), "EUR"))
    add("compare.percent_change", "what's the percent change in my average mite count from March to April",
        V(pct_change(avg(month(R, "inspection", 3), "mites"), avg(month(R, "inspection", 4), "mites")), "%"))

    add("group.top", "Which hive has had the most syrup out of all of them?",
        {"group": top(groups(sel(R, "feeding", feed="syrup"), "hive", "litres"))[0]})
    add("group.top_week", "Which week did I make the most from honey? give me the date of the Monday",
        {"period": top(weekly(sel(R, "sale"), "amount"))[0].isoformat(), "bucket": "week"})
    mtop = top({m: len(month(R, "inspection", m)) for m in (2, 3, 4)})
    add("group.top_month", "which month did I do the most inspections in", {"period": f"2026-{mtop[0]:02d}", "bucket": "month"})
    add("group.top_avg", "Which hive had the worst mites on average?",
        {"group": top({k: avg(sel(R, "inspection", hive=k), "mites") for k in ("Bramble", "Clover", "Saffron", "Juniper", "Tansy")})[0]})

    allsales = tot(sel(R, "sale"), "amount")
    add("share", "What share of my honey money came from the co-op?",
        V(share(tot(sel(R, "sale", channel="the co-op"), "amount"), allsales), "%"))

    add("unanswerable.measure", "How many kg of honey did I take off Clover in April?", UNANS)
    add("unanswerable.event", "How many inspections have I done since the wild boar knocked a hive over?", UNANS)
    add("unanswerable.subject", "Whats the average mite count for the Heather hive?", UNANS)
    add("unanswerable.period", "How many jars did I sell in January?", UNANS)
    add("unanswerable.measure", "How much did I spend on sugar for the syrup in March?", UNANS)
    add("unanswerable.value", "How many jars did the Saturday farmers' market in Tavira take off me?", UNANS)
    return q


# ==============================================================================================
# 2. tutor: Fionn gives grinds (private lessons) to secondary-school students in Cork
# ==============================================================================================

TUTOR_CHAT = [
    ("Can you explain integration by parts in one line?", "Integral of u dv = uv minus integral of v du."),
    ("What's the pass mark in the Leaving Cert again?", "A H7 or O6 counts as a pass in most places; it's 40%."),
    ("Morning. Wet and grim as usual.", "Morning! Classic Cork weather."),
    ("My sister charges €60 an hour for piano lessons, I'm in the wrong job.", "Piano teachers do have it sorted."),
    ("Any good free past-paper sites for Irish exams?", "The examinations.ie archive has papers and marking schemes."),
    ("How do I explain moles to someone who hates chemistry?", "Compare it to a dozen - just a counting unit, but a huge one."),
    ("Ciara's mum brought me a barmbrack, very sweet of her.", "That's a lovely gesture."),
    ("Should I charge for lessons cancelled at short notice?", "Many tutors charge if it's under 24 hours; just say it up front."),
    ("What's the French for 'to be fed up'?", "En avoir marre."),
    ("Eimear keeps saying she's 'just bad at maths'. How do I handle that?", "Point to specific things she's got right and frame it as practice, not talent."),
    ("Watched the Munster match, absolute heartbreak.", "Oof. Next time."),
    ("What's a good whiteboard app for online lessons?", "Miro, BitPaper or even the Zoom whiteboard work well."),
    ("Is it worth setting up as a sole trader for grinds?", "If it's steady income, registering keeps Revenue happy and lets you claim expenses."),
    ("How many hours of study a week is realistic for a 6th year?", "Outside school, 10-15 hours is common; quality matters more."),
    ("Darragh's oral is in April, he's terrified.", "Lots of short practice conversations will help."),
    ("Explain the difference between speed and velocity for a 15-year-old?", "Speed is how fast; velocity is how fast and which way."),
    ("My landlord's putting the rent up by 80 a month. Great.", "That's a big jump - worth checking the rent pressure zone rules."),
    ("Any tips for keeping a teenager focused on Zoom?", "Short tasks, cameras on, and make them do the writing, not you."),
    ("What's a good mnemonic for the reactivity series?", "Please Stop Calling Me A Cute Zebra, I Like Her Calling Smart Goats Perfect."),
    ("Slept terribly, too much coffee.", "Maybe cut it off after lunch tomorrow."),
    ("How do I explain why you can't divide by zero?", "Ask what times zero gives 5 - no number does, so there's no answer."),
    ("What's the best way to teach the subjunctive?", "Triggers first - il faut que, bien que - then lots of short sentences."),
    ("Aoife's dad asked if I do group classes.", "Could be a nice earner - small groups of 3-4 work well."),
    ("Is 'Less Stress More Success' any good?", "Students like it - clear summaries and exam focus."),
    ("Walked the Lough with a coffee, very civilised.", "Sounds lovely."),
    ("How do I get a Garda vetting for tutoring?", "Usually through an organisation you work with; private tutors often go via an agency."),
    ("Do students learn more in person or online?", "Evidence is mixed - it depends on the student and the setup."),
    ("Ben's little brother wants grinds too but he's only in 2nd year.", "Could be worth it if they need a confidence boost."),
    ("What's the difference between higher and ordinary level maths paper 2?", "Higher goes deeper into geometry, trig and probability; ordinary is more direct."),
    ("My laptop fan sounds like a jet engine.", "Maybe time to clean the vents."),
    ("How should I structure a 60-minute lesson?", "Quick recap, new idea, guided practice, independent practice, a short quiz."),
    ("Explain Le Chatelier's principle simply?", "If you disturb a system at equilibrium, it shifts to counteract the change."),
    ("Is 45 minutes too short for a grind?", "For younger students it's fine; for exam years an hour works better."),
    ("Had pints with the lads, paying for it today.", "Water and a fry."),
    ("What's the Irish for 'homework'?", "Obair bhaile."),
    ("Should I give parents written progress reports?", "A short monthly note is appreciated and keeps them in the loop."),
    ("What rate do most tutors charge in Cork these days?", "Often between 35 and 60 euro an hour depending on subject and level."),
    ("Any tips for teaching trig ratios?", "SOH CAH TOA plus lots of labelled triangles, then real-world heights."),
    ("The bus was 40 minutes late, again.", "Cork buses, always an adventure."),
    ("Does Revenue let me claim a portion of my broadband?", "If you work from home, a proportion can be claimed - keep the bills."),
    ("Thanks for keeping my head straight with all this.", "Any time."),
    ("Good news - Aoife's school rang her parents to say she's flying.", "Brilliant - that's your work too."),
]


def gen_tutor():
    h = Hist("tutor", "fionn_grinds", SEED + 2)
    rng = h.rng
    EV = {"wrist": D("2026-02-15"), "rates": D("2026-03-01"), "ben": D("2026-03-22"), "job": D("2026-04-12")}
    blocked = set(EV.values())

    h.event("wrist", EV["wrist"],
            "Went flying on the black ice outside Lidl and landed with all my weight on my right hand. Six hours in the "
            "Mercy, and now I'm in a cast up to the elbow. Can't hold a pen.",
            "Oh no, Fionn - rest it. You could move lessons online for a while.", hour=20.1)
    h.add(plus(EV["wrist"], 3),
          "Day four in plaster and I've mastered typing with my left hand. Everything's on Zoom for the next few weeks.",
          "Impressive adaptation.", hour=12.2)
    h.event("rates", EV["rates"],
            "Sent the message round to all the parents tonight: from tomorrow it's 45 an hour instead of 40, and 35 / 65 "
            "for the short and long ones. Nobody's complained yet.",
            "Sounds fair given what others charge.", hour=21.0)
    h.event("ben", EV["ben"],
            "Ben's mum texted - they're moving to Galway at the end of the month, so Thursday was his last lesson with "
            "me. Bit sad, he was finally getting kinematics.",
            "Shame - but nice that he left on a high.", hour=18.4)
    h.add(D("2026-03-19"), "Heading up to Dublin tomorrow for my cousin's 30th, so no grinds Friday or Saturday. "
          "Told the parents already.", "Enjoy the party!", hour=21.6)
    h.event("job", EV["job"],
            "Signed the contract at St Brigid's! I'm covering Ms Kearney's maternity leave from tomorrow - 2nd and 5th "
            "year science. Grinds will be evenings and Saturdays only from now on.",
            "Congratulations! That's a great step.", hour=16.5)
    h.add(plus(EV["job"], 2),
          "Second day in the classroom and I've already confiscated three phones.",
          "Off to a firm start.", hour=17.2)

    # weekly timetable: weekday -> (student, subject, usual minutes)
    TIMETABLE = {0: [("Aoife", "maths", 60)], 1: [("Ben", "physics", 60), ("Eimear", "maths", 45)],
                 2: [("Ciara", "chemistry", 90)], 3: [("Ben", "physics", 60), ("Darragh", "French", 60)],
                 4: [("Aoife", "maths", 45)], 5: [("Ciara", "maths", 60), ("Eimear", "maths", 90)]}
    FEES = {(False, 45): 30.0, (False, 60): 40.0, (False, 90): 60.0, (True, 45): 35.0, (True, 60): 45.0, (True, 90): 65.0}
    MODES = {"Aoife": 0.6, "Ben": 0.3, "Ciara": 0.2, "Darragh": 0.5, "Eimear": 0.7}   # chance of online
    ACK = ["Logged.", "Noted.", "Got it.", "Added.", "Logged, thanks."]
    easter = (D("2026-03-28"), D("2026-04-12"))

    def lesson(day, student, subject, minutes):
        new = day > EV["rates"]
        fee = FEES[(new, minutes)]
        if EV["wrist"] < day <= D("2026-03-08"):
            online = True
        else:
            online = rng.random() < MODES[student]
        mode = "online" if online else "in person"
        lay = rng.randrange(5)
        if lay == 4 and (plus(day, 1) > END or plus(day, 1) in blocked):
            lay = rng.randrange(4)
        log_day, hour = None, rng.uniform(16.0, 21.5) if day.weekday() < 5 else rng.uniform(10.0, 15.0)
        ms, mm = money(rng, fee), mins_str(rng, minutes)
        where = rng.choice(["on Zoom", "online", "over Teams"]) if online else rng.choice(
            ["at her house" if student in ("Aoife", "Ciara", "Eimear") else "at his house", "at mine", "in the library"])
        if lay == 0:
            text = f"Lesson: {student} | {subject} | {mm} | {ms} | {mode}"
        elif lay == 1:
            text = f"Did {mm} of {subject} with {student} {where}, {ms}."
        elif lay == 2:
            text = json.dumps({"student": student, "subject": subject, "length": mm, "fee": ms,
                               "where": "zoom" if online else "in person"}, ensure_ascii=False)
        elif lay == 3:
            text = (f"{day.isoformat()} {int(hour):02d}:00  GRIND  {student} ({subject})  {mm}  paid {ms}  "
                    f"[{'ONLINE' if online else 'F2F'}]")
        else:
            text = f"Forgot to log it - had {student} for {mm} yesterday, {subject}, {where}. {ms}."
            log_day, hour = plus(day, 1), rng.uniform(8.0, 12.0)
        h.record("lesson", day, text, rng.choice(ACK), log_day=log_day, hour=hour, student=student, subject=subject,
                 minutes=minutes, fee=fee, mode=mode)

    MARKS = [("Aoife", "maths", ["Christmas test", "mock paper 1", "mock paper 2", "class test"]),
             ("Ben", "physics", ["mock", "class test", "electricity test"]),
             ("Ciara", "chemistry", ["mock", "organic test", "class test"]),
             ("Ciara", "maths", ["mock paper 1"]),
             ("Darragh", "French", ["mock written", "oral practice", "listening test"]),
             ("Eimear", "maths", ["class test", "mock paper 1", "algebra test"])]

    def mark(day, student, subject, test):
        denom = rng.choice([40, 50, 80, 100, 100])
        got = rng.randint(int(denom * 0.45), int(denom * 0.92))
        pct = round(got / denom * 100, 6)
        lay = rng.randrange(3)
        if lay == 0 and denom != 100:
            text = f"{student}'s {subject} {test} came back: {got}/{denom}."
        elif lay == 0 or lay == 1:
            text = f"Result | {student} | {subject} {test} | {pct:g}%"
        else:
            text = json.dumps({"student": student, "subject": subject, "test": test, "score": f"{pct:g} %"})
        h.record("mark", day, text, rng.choice(["Nice.", "Noted.", "Logged.", "Good to track."]),
                 hour=rng.uniform(15.0, 22.0), student=student, subject=subject, test=test, pct=pct)

    EXPENSES = [("Less Stress More Success Chemistry", "books", 14.95), ("past papers bundle", "books", 22.50),
                ("printer ink", "stationery", 32.99), ("whiteboard markers", "stationery", 8.49),
                ("Zoom Pro", "software", 13.99), ("GoodNotes", "software", 9.99),
                ("Bescherelle verb book", "books", 11.20), ("A4 pads and folders", "stationery", 12.75),
                ("physics revision guide", "books", 17.99), ("graph paper", "stationery", 4.50),
                ("Mathletics subscription", "software", 19.00), ("Exam Paper Plus maths", "books", 16.00)]

    def expense(day, item, cat, amt):
        ms = money(rng, amt)
        lay = rng.randrange(4)
        if lay == 0:
            text = f"Expense | {item} | {cat} | {ms}"
        elif lay == 1:
            text = f"Bought {item} today, {ms}." if cat != "software" else f"{item} renewed, {ms} gone out of the account."
        elif lay == 2:
            text = json.dumps({"expense": item, "category": cat, "amount": ms}, ensure_ascii=False)
        else:
            text = f"Work spend:\nItem: {item}\nType: {cat}\nCost: {ms}"
        h.record("expense", day, text, rng.choice(["Logged.", "Noted - keep the receipt.", "Added."]),
                 hour=rng.uniform(10.0, 21.0), item=item, category=cat, amount=amt)

    for day in all_days():
        if day in blocked or day.weekday() == 6 or day in (D("2026-03-20"), D("2026-03-21")):
            continue
        for student, subject, minutes in TIMETABLE.get(day.weekday(), []):
            if student == "Ben" and day > D("2026-03-19"):
                continue
            if EV["wrist"] < day < plus(EV["wrist"], 3):
                continue
            p = 0.45 if easter[0] <= day <= easter[1] else 0.8
            if student == "Ben" and day == D("2026-03-19"):
                p = 1.0
            if day > EV["job"] and day.weekday() < 5 and minutes == 90:
                minutes = 60
            if rng.random() < p:
                m = minutes if rng.random() < 0.75 else rng.choice([45, 60, 90])
                lesson(day, student, subject, m)

    # marks: spread, a few per student
    mdays = sorted(rng.sample([d for d in all_days() if d not in blocked and d.weekday() != 6], 16))
    pool = []
    for st, sub, tests in MARKS:
        for t in tests:
            pool.append((st, sub, t))
    rng.shuffle(pool)
    pool = pool[:16]
    for day, (st, sub, t) in zip(mdays, pool):
        if st == "Ben" and day >= EV["ben"]:
            day = rng.choice([d for d in all_days() if d < D("2026-03-19") and d not in blocked])
        mark(day, st, sub, t)
    edays = sorted(rng.sample([d for d in all_days() if d not in blocked], 15))
    items = EXPENSES[:] + rng.sample(EXPENSES, 3)
    rng.shuffle(items)
    for day, (item, cat, amt) in zip(edays, items):
        expense(day, item, cat, amt)

    h.chat(TUTOR_CHAT, 54)
    return h, EV


def questions_tutor(h, EV):
    R = h.records
    q = []

    def add(family, text, gold):
        q.append((family, text, gold))

    wrist, rates, ben, job = EV["wrist"], EV["rates"], EV["ben"], EV["job"]
    clear_on(R, ["lesson", "mark", "expense"], EV.values())
    hrs = lambda rs: round(tot(rs, "minutes") / 60, 6)

    add("aggregate.sum.month", "How much did I make from grinds in February?", V(tot(month(R, "lesson", 2), "fee"), "EUR"))
    add("aggregate.sum.relative", "total hours of tutoring last month", V(hrs(month(R, "lesson", 4)), "h"))
    add("aggregate.avg.month", "what was my average lesson length in march, in minutes", V(avg(month(R, "lesson", 3), "minutes"), "min"))
    wk = sel(R, "lesson", D("2026-03-09"), D("2026-03-15"))
    assert wk
    add("aggregate.count.week", "how many lessons did i do the week of the 9th of March", V(len(wk)))
    ex4 = month(R, "expense", 4)
    assert ex4
    add("aggregate.sum.month", "How much did I spend on work stuff in April? books, ink, subscriptions, all of it",
        V(tot(ex4, "amount"), "EUR"))

    add("filter.subject.month", "How many hours of maths did I teach in March?", V(hrs(month(R, "lesson", 3, subject="maths")), "h"))
    am = sel(R, "mark", student="Aoife")
    assert len(am) >= 2
    add("filter.subject.avg", "Aoife's average test score?", V(avg(am, "pct"), "%"))
    add("filter.value.sum", "how much have I spent on books", V(tot(sel(R, "expense", category="books"), "amount"), "EUR"))

    add("event.since.sum", "Since I put my prices up, how much have I earned from Eimear?",
        V(tot(sel(R, "lesson", plus(rates, 1), student="Eimear"), "fee"), "EUR"))
    add("event.before.count", "Before I broke my wrist how many lessons did I do in person?",
        V(len(sel(R, "lesson", None, plus(wrist, -1), mode="in person"))))
    assert job.weekday() == 6
    wa = sel(R, "lesson", plus(job, 1), plus(job, 7))
    assert wa
    add("event.week_after", "How many hours did I teach the week after I got the subbing job?", V(hrs(wa), "h"))
    btw = sel(R, "lesson", plus(wrist, 1), plus(rates, -1))
    add("event.between", "Between breaking my wrist and the price rise, what did I earn?", V(tot(btw, "fee"), "EUR"))
    # Ben's last lesson was Thursday 03-19 and no lesson falls on 03-20 .. 03-22, so "since Ben stopped"
    # reads the same from his last lesson or from the day it was told
    assert last(sel(R, "lesson", student="Ben"))["date"] == D("2026-03-19")
    assert not sel(R, "lesson", D("2026-03-20"), ben)
    add("event.since.avg", "Since Ben stopped coming, what's my average fee per lesson?",
        V(avg(sel(R, "lesson", plus(ben, 1)), "fee"), "EUR"))
    bm = last(sel(R, "mark", None, plus(ben, -1), student="Ben"))
    add("event.last_before.value", "What did Ben get in the last test he did before he left? percent", V(bm["pct"], "%"))
    add("event.first_after", "what was the first subject I taught after breaking my wrist",
        {"text": first(sel(R, "lesson", plus(wrist, 1)))["subject"]})
    add("event.last_before", "What was the last subject I taught before starting at the school?",
        {"text": last_value(sel(R, "lesson", None, plus(job, -1)), "subject")})

    f3, f4 = tot(month(R, "lesson", 3), "fee"), tot(month(R, "lesson", 4), "fee")
    assert f3 != f4
    add("compare.yes_no", "Did I earn more in April than in March?", {"yes_no": f4 > f3})
    n2, n3 = hrs(month(R, "lesson", 2)), hrs(month(R, "lesson", 3))
    assert n2 != n3
    if n3 > n2:
        add("compare.difference", "how many more hours did I teach in March than in February", V(round(n3 - n2, 6), "h"))
    else:
        add("compare.difference", "how many fewer hours did I teach in March than in Feb", V(round(n2 - n3, 6), "h"))
    add("compare.percent_change", "By what percent did my average fee per lesson change from February to March?",
        V(pct_change(avg(month(R, "lesson", 2), "fee"), avg(month(R, "lesson", 3), "fee")), "%"))
    dm = sel(R, "mark", student="Darragh")
    assert len(dm) >= 2
    aa, da = avg(am, "pct"), avg(dm, "pct")
    assert abs(aa - da) > 1e-6
    add("compare.groups.yes_no", "Is Aoife averaging higher than Darragh on her tests, or not?", {"yes_no": aa > da})

    add("group.top", "Which student brought in the most money over the three months?",
        {"group": top(groups(sel(R, "lesson"), "student", "fee"))[0]})
    add("group.top", "Which subject did I spend the most hours teaching?",
        {"group": top(groups(sel(R, "lesson"), "subject", "minutes"))[0]})
    add("group.top_week", "What was my best week for earnings? Monday's date please",
        {"period": top(weekly(sel(R, "lesson"), "fee"))[0].isoformat(), "bucket": "week"})
    mtop = top({m: tot(month(R, "expense", m), "amount") for m in (2, 3, 4)})
    add("group.top_month", "which month did I spend the most on expenses", {"period": f"2026-{mtop[0]:02d}", "bucket": "month"})

    les = sel(R, "lesson")
    add("share", "What share of my teaching hours were online?",
        V(share(tot(sel(R, "lesson", mode="online"), "minutes"), tot(les, "minutes")), "%"))

    add("unanswerable.subject", "How much did I earn from Farah's lessons?", UNANS)
    add("unanswerable.event", "How many lessons have I done since my laptop got robbed?", UNANS)
    add("unanswerable.value", "What did Eimear get in her biology test?", UNANS)
    add("unanswerable.measure", "How much did I spend on petrol driving out to students in March?", UNANS)
    add("unanswerable.period", "How many hours did I tutor in January?", UNANS)
    add("unanswerable.value", "whats Darragh's average mark in maths", UNANS)
    return q


# ==============================================================================================
# 3. solar: Gus has panels on the south roof and on the garage, and charges the family's electric cars
# ==============================================================================================

SOLAR_CHAT = [
    ("Is it worth cleaning solar panels or does the rain do it?", "Rain does most of it; a clean once a year helps if there's bird mess or dust."),
    ("What does 'kWp' actually mean?", "Kilowatt peak - the panels' output under standard test conditions."),
    ("Morning. Frost on the car, clear skies though.", "Good solar day ahead, then!"),
    ("Neighbour says his panels did 30 kWh yesterday. Show-off.", "Bigger system or better angle, probably."),
    ("How long do inverters usually last?", "Roughly 10-15 years; panels last much longer."),
    ("Should I set the car to charge at night or during the day?", "During sunny days to use your own solar, otherwise on the night rate."),
    ("What's the night rate on the Bord Gáis EV plan again?", "I don't have your tariff - check your bill or the app."),
    ("Marta wants a hot tub. I said the panels can't cope.", "A heat pump one might be more efficient, but it adds up."),
    ("What's a good rule for how much to charge an EV battery day to day?", "Keeping it between about 20% and 80% is kindest to the battery."),
    ("The lads at work think EVs are a fad.", "Sales figures suggest otherwise."),
    ("Is it worth getting a diverter for the immersion?", "Often yes - it sends surplus solar into hot water instead of exporting it cheaply."),
    ("How do I read the export meter?", "Look for the register labelled export, often 2.8.0 on smart meters."),
    ("Raining sideways. Panels asleep.", "Not much generation today then."),
    ("Can snow damage panels?", "Rarely - they're rated for snow loads. It just stops generation until it slides off."),
    ("What's the difference between AC and DC charging?", "AC goes through the car's onboard charger; DC bypasses it and is much faster."),
    ("The kids want to name the new battery. Current frontrunner is 'Sparky'.", "Sparky is a strong choice."),
    ("Why does the car charge slower when it's nearly full?", "The charger tapers the current to protect the battery."),
    ("Is it true cold weather cuts EV range?", "Yes, often by 15-30% in winter."),
    ("Took the kids to the park, absolutely freezing.", "Hot chocolate time."),
    ("What angle should panels be at in Ireland?", "Around 30-40 degrees, facing south, is close to ideal."),
    ("Does shade on one panel kill the whole string?", "It can drag it down, unless you have optimisers or microinverters."),
    ("Marta says the garage array was a waste of money.", "It depends how much it makes over the years - worth tracking."),
    ("How much CO2 does a kWh of Irish grid electricity produce?", "Roughly 250-350 grams, depending on the mix."),
    ("What's a smart tariff?", "A plan with cheaper hours, often at night, that suits EVs and batteries."),
    ("Car wash at the garage was out of order, typical.", "Maybe the rain will do it for free."),
    ("Can I get an SEAI grant for a battery?", "The grant is for panels; batteries aren't usually covered on their own."),
    ("What's the clipping thing people talk about with inverters?", "When panels could produce more than the inverter's limit, the extra is lost."),
    ("How do I know if a panel is faulty?", "Compare strings in the app; a sudden drop on one string is a clue."),
    ("The Luas was packed this morning.", "Rush hour is rough."),
    ("Will a heat pump work with my solar?", "Yes, though in winter most of its power will come from the grid."),
    ("What's V2G?", "Vehicle-to-grid - the car's battery can send power back to the house or grid."),
    ("Sun's out! Finally.", "Enjoy it - good for the panels too."),
    ("Electric Ireland sent me a letter about my 'unusual usage'.", "Probably the car charging - nothing to worry about."),
    ("Does a home charger need its own circuit?", "Yes, a dedicated circuit with the right protection."),
    ("What's a typical efficiency for solar panels these days?", "Around 20-22% for modern mono panels."),
    ("My brother-in-law spent 14 grand on his system.", "Prices vary a lot with size and battery."),
    ("How long does it take to charge a car on a granny cable?", "Very slowly - often 20+ hours for a full charge."),
    ("Had a long lie-in. Bliss.", "Well deserved."),
    ("Should I register for the Clean Export Guarantee?", "Yes - you'll get paid for what you export."),
    ("Is it OK to leave the car plugged in all the time?", "Yes, if the charge limit is set sensibly."),
    ("What's the best app for tracking solar?", "Your inverter's own app is usually the most accurate."),
    ("Thanks for keeping all these numbers straight.", "Happy to help."),
]


def gen_solar():
    h = Hist("solar", "gus_kilowatt", SEED + 3)
    rng = h.rng
    EV = {"fault": D("2026-02-22"), "fixed": D("2026-02-26"), "kona": D("2026-03-15"), "battery": D("2026-03-29"),
          "away": D("2026-04-12"), "back": D("2026-04-19")}
    blocked = set(EV.values())

    h.event("fault", EV["fault"],
            "Woke up to a red light on the box in the garage and an E-035 on the screen. App says nothing's been made "
            "all morning. Installer can't come out till Thursday.",
            "Annoying. Worth noting the code for the installer.", hour=11.0)
    h.event("fixed", EV["fixed"],
            "The installer's lad swapped a board in the box and it's green again. Back in business.",
            "Great - good that it was a quick job.", hour=15.5)
    h.event("kona", EV["kona"],
            "Collected Marta's new car from the dealer in Naas this morning. The old diesel Passat is gone, and she's "
            "already arguing with me about whose turn it is on the charger.",
            "Two EVs in the house now! You'll need a rota.", hour=13.4)
    h.event("battery", EV["battery"],
            "Two lads from Voltbank spent the whole day in the garage. There's a white 10 kWh box on the wall now and "
            "the app has a new little battery icon.",
            "Exciting - you'll store more of your own solar now.", hour=18.2)
    h.event("away", EV["away"],
            "In the taxi to the airport at this ungodly hour, Lanzarote here we come. Maura next door has the key. Back Sunday!",
            "Have a great trip!", hour=3.7)
    h.add(EV["away"], "Landed. 24 degrees. Not thinking about electricity for a week.", "Enjoy the sun!", hour=14.0)
    h.event("back", EV["back"],
            "Home. Sunburnt, skint and the fridge is empty. Back to work tomorrow.",
            "Welcome back!", hour=22.0)

    def base(day):
        t = (day - START).days
        return 6.0 + 15.0 * t / 88

    ACK = ["Logged.", "Noted.", "Got it.", "Saved.", "Added to the log."]

    def gen(day, away=False):
        weather = rng.choice([0.25, 0.4, 0.6, 0.75, 0.85, 0.95, 1.0, 1.1])
        s = round(base(day) * weather * rng.uniform(0.92, 1.08), 1)
        g = round(s * rng.uniform(0.36, 0.46), 1)
        lay = rng.randrange(5)
        if away:
            lay = rng.choice([1, 2])
        if lay == 4 and (plus(day, 1) > END or plus(day, 1) in blocked):
            lay = rng.randrange(4)
        log_day, hour = None, rng.uniform(19.0, 22.5)
        if lay == 0:
            text = f"Solar | south {kwh_str(rng, s, False)} | garage {kwh_str(rng, g, False)}"
        elif lay == 1:
            mood = "Grim day" if weather < 0.5 else ("Decent day" if weather < 0.9 else "Cracking day")
            lead = "Checked the app from the sunlounger: " if away else f"{mood} on the roof: "
            text = f"{lead}south array did {s:.1f} and the garage {g:.1f} kWh."
        elif lay == 2:
            text = (f"SolarView daily report\nDate: {day.isoformat()}\nString 1 (South): {s:.2f} kWh\n"
                    f"String 2 (Garage): {kwh_str(rng, g)}\nTotal: {s + g:.2f} kWh")
        elif lay == 3:
            text = json.dumps({"pv": {"date": day.isoformat(), "south_kwh": s, "garage_kwh": g}})
        else:
            text = f"Yesterday's generation - south {s:.1f}, garage {g:.1f} (kWh). {rng.choice(['Not bad.', 'Meh.', 'Getting there.'])}"
            log_day, hour = plus(day, 1), rng.uniform(7.0, 9.5)
        h.record("gen", day, text, rng.choice(ACK), log_day=log_day, hour=hour, south=s, garage=g, total=round(s + g, 1))

    PLACES = [("home", 6), ("work", 2), ("Ionity", 1), ("ESB", 1)]

    def charge(day, car):
        place = rng.choices([p for p, _ in PLACES], weights=[w for _, w in PLACES])[0]
        cap = 52 if car == "Zoe" else 64
        kwh = round(rng.uniform(0.15, 0.6) * cap, 1)
        if place == "home":
            if day > EV["battery"] and rng.random() < 0.4:
                cost = 0.0
            else:
                cost = round(kwh * 0.14, 2)
        elif place == "work":
            cost = 0.0
        elif place == "Ionity":
            cost = round(kwh * 0.69, 2)
        else:
            cost = round(kwh * 0.57, 2)
        lay = rng.randrange(4)
        ms = money(rng, cost) if cost > 0 else rng.choice(["free", "€0.00", "cost nothing", "0 EUR"])
        the = "the " if rng.random() < 0.6 else ""
        hour = rng.uniform(7.0, 22.0)
        if place == "ESB" and lay == 3:
            text = (f"ESB ecars receipt\nVehicle: {car}\nLocation: Tesco Naas\nEnergy: {kwh:.2f} kWh\n"
                    f"Amount: {money(rng, cost)}")
        elif place == "Ionity" and lay == 3:
            text = (f"Ionity Kilcullen - {car}\n{rng.randint(18, 40)} min, {kwh:.1f} kWh\nTotal {money(rng, cost)}. "
                    f"Daylight robbery.")
        elif lay == 0:
            text = f"Charge | {car} | {kwh:.1f} kWh | {place} | {ms}"
        elif lay == 1:
            text = json.dumps({"car": car, "added_kwh": kwh, "where": place, "cost": ms}, ensure_ascii=False)
        elif lay == 2:
            wh = {"home": "at home", "work": "at work", "Ionity": "at the Ionity in Kilcullen", "ESB": "at the ESB point in Tesco"}[place]
            if place == "home" and cost == 0:
                text = f"{the}{car} topped up {wh} straight off the sun and the battery, {kwh:.1f} kWh, {ms}."
            else:
                text = f"Plugged {the}{car} in {wh}, {kwh:.1f} kWh went in, {ms}."
            text = text[0].upper() + text[1:]
        else:
            text = f"{car} {'charged' if rng.random() < 0.5 else 'topped up'} - {kwh:.1f}kWh, {place}, {ms}"
        h.record("charge", day, text, rng.choice(ACK), hour=hour, car=car, kwh=kwh, place=place, cost=cost)

    next_charge = {"Zoe": D("2026-02-02"), "Kona": plus(EV["kona"], 2)}
    for day in all_days():
        if day in blocked:
            continue
        away = EV["away"] < day < EV["back"]
        broken = EV["fault"] < day < EV["fixed"]
        p = 0.6 if away else {2: 0.62, 3: 0.68, 4: 0.7}[day.month]
        if not broken and rng.random() < p:
            gen(day, away=away)
        if away:
            continue
        for car in ("Zoe", "Kona"):
            if car == "Kona" and day <= EV["kona"]:
                continue
            if day >= next_charge[car]:
                charge(day, car)
                next_charge[car] = plus(day, rng.randint(2, 5))

    h.chat(SOLAR_CHAT, 64)
    return h, EV


def questions_solar(h, EV):
    R = h.records
    q = []

    def add(family, text, gold):
        q.append((family, text, gold))

    clear_on(R, ["gen", "charge"], EV.values())
    fault, fixed, kona, batt, away, back = (EV[k] for k in ("fault", "fixed", "kona", "battery", "away", "back"))

    add("aggregate.sum.month", "How much did the panels make in March, both arrays together?",
        V(tot(month(R, "gen", 3), "total"), "kWh"))
    add("aggregate.sum.relative", "What did I spend charging the cars last month?", V(tot(month(R, "charge", 4), "cost"), "EUR"))
    add("aggregate.avg.month", "average daily output from the south roof in april? (just the days I logged)",
        V(avg(month(R, "gen", 4), "south"), "kWh"))
    add("aggregate.max.month", "best day for the garage panels in March, kWh?", V(unique_max(month(R, "gen", 3), "garage"), "kWh"))
    wk = sel(R, "charge", D("2026-03-02"), D("2026-03-08"))
    assert wk
    add("aggregate.sum.week", "total kWh that went into the cars the week of 2 March", V(tot(wk, "kwh"), "kWh"))

    add("filter.value.sum", "How much have I spent at Ionity altogether?", V(tot(sel(R, "charge", place="Ionity"), "cost"), "EUR"))
    add("filter.value.count", "How many charges cost me nothing?", V(len(sel(R, "charge", cost=0.0))))
    add("filter.subject.sum", "How much energy has gone into the Kona overall?", V(tot(sel(R, "charge", car="Kona"), "kwh"), "kWh"))
    add("filter.value.count", "How many days did the south roof do more than 15 kWh?",
        V(len(sel(R, "gen", where=lambda r: r["south"] > 15))))

    hb = sel(R, "charge", plus(batt, 1), place="home")
    add("event.since.avg", "since the battery went in, what's the average cost of charging at home?", V(avg(hb, "cost"), "EUR"))
    add("event.before.sum", "How much did the panels generate in total before the inverter packed up?",
        V(tot(sel(R, "gen", None, plus(fault, -1)), "total"), "kWh"))
    assert back.weekday() == 6
    wa = sel(R, "charge", plus(back, 1), plus(back, 7))
    assert wa
    add("event.week_after", "the week after we got back from holidays, how much did I spend on charging",
        V(tot(wa, "cost"), "EUR"))
    add("event.since.count", "Since Marta got her new car, how many charging sessions have there been, both cars?",
        V(len(sel(R, "charge", plus(kona, 1)))))
    aw = sel(R, "gen", plus(away, 1), plus(back, -1))
    assert aw
    add("event.during", "how much did the garage array produce while we were away", V(tot(aw, "garage"), "kWh"))
    add("event.between", "Between the inverter getting fixed and the battery going in, how much did both arrays make?",
        V(tot(sel(R, "gen", plus(fixed, 1), plus(batt, -1)), "total"), "kWh"))
    add("event.first_after", "What was the first car I charged after the battery was installed?",
        {"text": first(sel(R, "charge", plus(batt, 1)))["car"]})
    add("event.last_before.value", "How many kWh did I put in on the last charge before we went away?",
        V(last(sel(R, "charge", None, plus(away, -1)))["kwh"], "kWh"))

    g4, s2 = tot(month(R, "gen", 4), "garage"), tot(month(R, "gen", 2), "south")
    assert g4 != s2
    add("compare.yes_no", "Did the garage array make more in April than the south roof did in February?", {"yes_no": g4 > s2})
    c2, c3 = tot(month(R, "charge", 2), "cost"), tot(month(R, "charge", 3), "cost")
    assert c3 != c2
    if c3 > c2:
        add("compare.difference", "How much more did I spend on charging in March than in February?", V(round(c3 - c2, 2), "EUR"))
    else:
        add("compare.difference", "How much less did charging cost me in March than in February?", V(round(c2 - c3, 2), "EUR"))
    add("compare.percent_change", "percent change in total generation from March to April",
        V(pct_change(tot(month(R, "gen", 3), "total"), tot(month(R, "gen", 4), "total")), "%"))
    k4, z4 = tot(month(R, "charge", 4, car="Kona"), "kwh"), tot(month(R, "charge", 4, car="Zoe"), "kwh")
    assert k4 != z4
    add("compare.groups.yes_no", "Did the Kona take more kWh than the Zoe in April?", {"yes_no": k4 > z4})

    add("group.top", "Which car has cost more to charge overall?", {"group": top(groups(sel(R, "charge"), "car", "cost"))[0]})
    add("group.top_week", "Which week did the panels produce the most? date of the Monday",
        {"period": top(weekly(sel(R, "gen"), "total"))[0].isoformat(), "bucket": "week"})
    mtop = top({m: tot(month(R, "charge", m), "kwh") for m in (2, 3, 4)})
    add("group.top_month", "which month did I put the most kWh into the cars", {"period": f"2026-{mtop[0]:02d}", "bucket": "month"})

    gall = sel(R, "gen")
    add("share", "What percentage of total generation came from the garage array?",
        V(share(tot(gall, "garage"), tot(gall, "total")), "%"))
    call = sel(R, "charge")
    add("share", "What share of my charging spend went to Ionity?",
        V(share(tot(sel(R, "charge", place="Ionity"), "cost"), tot(call, "cost")), "%"))

    add("unanswerable.measure", "How much did I get paid for exported electricity in March?", UNANS)
    add("unanswerable.measure", "How many kWh did the battery discharge in April?", UNANS)
    add("unanswerable.event", "Since the heat pump was installed, how much have the panels made?", UNANS)
    add("unanswerable.subject", "How much did charging the Tesla cost me?", UNANS)
    add("unanswerable.period", "What did the panels generate in January?", UNANS)
    return q


# ==============================================================================================

def main():
    builders = [("hives", gen_hives, questions_hives), ("tutor", gen_tutor, questions_tutor),
                ("solar", gen_solar, questions_solar)]
    allq = []
    for name, gen, ques in builders:
        h, ev = gen()
        doc = h.build()
        (HERE / f"history_{name}.json").write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        rows = []
        for i, (family, text, gold) in enumerate(ques(h, ev), 1):
            rows.append({"question_id": f"cj-{name}-{i:02d}", "history": name, "question": text,
                         "question_time": QTIME, "family": family, "gold": gold})
        (HERE / f"questions_{name}.jsonl").write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        allq += rows
        nr = sum(len(s["rounds"]) for s in doc["sessions"])
        kinds = defaultdict(int)
        for r in h.records:
            kinds[r["kind"]] += 1
        una = sum(1 for r in rows if r["gold"].get("unanswerable"))
        print(f"{name}: {len(doc['sessions'])} sessions, {nr} rounds, records {dict(kinds)}, "
              f"{len(rows)} questions ({len(rows) - una} answerable, {una} unanswerable)")
    (HERE / "questions.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in allq), encoding="utf-8")
    print(f"total questions: {len(allq)}")


if __name__ == "__main__":
    main()
