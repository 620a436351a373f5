#!/usr/bin/env python3
"""Generate compositional set K: three histories (an angler's log, a freelance photographer's
shoots and money, an aquarium keeper's tanks) and their questions.

    python3 tools/datasets/compositional_k/make_set.py

Writes history_<name>.json, questions_<name>.jsonl and questions.jsonl next to this file.
Deterministic (fixed seeds). Every gold is computed from the records generated here; the asserts
keep each gold unambiguous (unique tops, no records on the day of a life event, no records on the
day where two readings of a relative period would differ, ...). Standard library only.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from datetime import date, datetime, time, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
START, END = date(2026, 2, 1), date(2026, 4, 30)
ALL_DAYS = [START + timedelta(days=i) for i in range((END - START).days + 1)]
QT = "2026-05-01T10:00:00"          # default question time (after the last session)
QT_MON = "2026-05-04T09:00:00"      # a Monday: "the last three weeks" = Apr 13 .. May 3
LAST3 = [(date(2026, 4, 13), date(2026, 5, 4)), (date(2026, 4, 14), date(2026, 5, 4))]
ONE = timedelta(days=1)


def D(s: str) -> date:
    return date.fromisoformat(s)


def monday(x: date) -> date:
    return x - timedelta(days=x.weekday())


def month_days(ym: str):
    y, m = map(int, ym.split("-"))
    a = date(y, m, 1)
    b = date(y + (m == 12), m % 12 + 1, 1) - ONE
    return a, b


# ----------------------------------------------------------------------------- wording helpers

ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen twenty").split()
TENS = {30: "thirty", 40: "forty", 50: "fifty", 60: "sixty", 70: "seventy", 80: "eighty"}


def word(n: int) -> str:
    if 0 <= n <= 20:
        return ONES[n]
    if n in TENS:
        return TENS[n]
    return str(n)


def cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def dur(minutes: int, style: str) -> str:
    """A duration in one of the ways people and apps write it."""
    h, m = divmod(minutes, 60)
    if style == "words" and m in (0, 30):
        if m == 0:
            return "an hour" if h == 1 else f"{word(h)} hours"
        return "half an hour" if h == 0 else ("an hour and a half" if h == 1 else f"{word(h)} and a half hours")
    if style == "dec":
        return f"{minutes / 60:g}h"
    if style == "dec_sp":
        return "1 hour" if minutes == 60 else f"{minutes / 60:g} hours"
    if style == "mins":
        return f"{minutes} mins"
    if style == "hrs_min":
        u = "hr" if h == 1 else "hrs"
        return f"{h} {u} {m} min" if m else f"{h} {u}"
    return f"{h}h{m:02d}" if m else f"{h}h"  # "hm" (and the fallback for words)


def kg(grams: int, style: str) -> str:
    if style == "g":
        return f"{grams}g"
    if style == "grams":
        return f"{grams} grams"
    if style == "kilos" and grams < 1000:
        return f"{grams} grams"
    if style == "kilos":
        return f"{grams / 1000:g}".replace(".", ",") + " kilos"
    if style == "kgns":
        return f"{grams / 1000:g}kg"
    return f"{grams / 1000:g} kg"


def eur(cents: int, style: str) -> str:
    e, c = divmod(cents, 100)
    dot = f"{e}.{c:02d}"
    if style == "sym":
        return f"€{dot}"
    if style == "code":
        return f"{dot} EUR"
    if style == "code_first":
        return f"EUR {dot}"
    if style == "after":
        return f"{e},{c:02d} €"
    if style == "nl":                       # Dutch/Belgian: €1.850,00
        return f"€{e:,}".replace(",", ".") + f",{c:02d}"
    if style == "euros":
        return f"{e} euros" if c == 0 else f"{dot} euros"
    if style == "euro":
        return f"{e} euro" if c == 0 else f"{dot} euro"
    if style == "bare":
        return dot
    if style == "bare_comma":
        return f"{e},{c:02d}"
    raise ValueError(style)


def litres(x: float, style: str) -> str:
    s = f"{x:g}"
    if style == "L":
        return f"{s} L"
    if style == "l":
        return f"{s}l"
    if style == "comma":
        return s.replace(".", ",") + " L"
    if style == "words" and float(x).is_integer() and (x <= 20 or x in TENS):
        return f"{word(int(x))} litres"
    return f"{s} litres"


def day_name(x: date) -> str:
    return f"{x:%a} {x.day} {x:%b} {x.year}"


# ----------------------------------------------------------------------------- golds

def num(v, unit=None, either_sign=False):
    if isinstance(v, float):
        v = round(v, 6)
        if v.is_integer():
            v = int(v)
    g = {"value": v, "unit": unit}
    if either_sign:
        g["either_sign"] = True
    return g


def text(s):
    return {"text": s}


def group(s):
    return {"group": s}


def yes_no(b):
    return {"yes_no": bool(b)}


def month(ym):
    return {"period": ym, "bucket": "month"}


def week(mon: date):
    assert mon.weekday() == 0
    return {"period": mon.isoformat(), "bucket": "week"}


UNANSWERABLE = {"unanswerable": True}


def unique_top(d: dict, lowest=False):
    items = sorted(d.items(), key=lambda kv: (kv[1] if lowest else -kv[1]))
    assert len(items) >= 2 and items[0][1] != items[1][1], ("tie at the top", items[:3])
    return items[0][0]


def same(*vals):
    assert all(v == vals[0] for v in vals), ("readings of the period disagree", vals)
    return vals[0]


def avg(xs):
    xs = list(xs)
    assert xs, "average of nothing"
    return sum(xs) / len(xs)


# ----------------------------------------------------------------------------- history builder

class History:
    def __init__(self, name, user_id, who, seed):
        self.name, self.user_id, self.who = name, user_id, who
        self.rng = random.Random(seed)
        self.rounds = defaultdict(list)        # day -> [[minute_of_day, user, assistant]]
        self.records = []
        self.events = {}                       # key -> (day, how told, how asked)
        self.alt = defaultdict(list)           # key -> other days a reader could take for the event
        self.blocked = set()                   # days with no record of any kind (dated or told)
        self.quiet = defaultdict(set)          # kind -> days with no record of that kind
        self.layouts = defaultdict(set)        # kind -> layouts used
        self.questions = []

    # -- rounds and records
    def say(self, day, hm, user, assistant):
        assert START <= day <= END
        self.rounds[day].append([hm, user, assistant])

    def event(self, key, day, hm, user, assistant, asked):
        self.events[key] = (day, user, asked)
        self.blocked.add(day)
        self.say(day, hm, user, assistant)

    def free(self, kind, day):
        return START <= day <= END and day not in self.blocked and day not in self.quiet[kind]

    def add(self, kind, day, told, hm, layout, user, assistant, **fields):
        assert self.free(kind, day) and self.free(kind, told) and day <= told, (kind, day, told)
        rec = dict(kind=kind, date=day, told=told, layout=layout, **fields)
        self.records.append(rec)
        self.layouts[kind].add(layout)
        self.say(told, hm, user, assistant)
        return rec

    def sel(self, kind, a=None, b=None, **eq):
        """Records of a kind dated a..b (inclusive) whose fields equal eq."""
        out = [r for r in self.records if r["kind"] == kind
               and (a is None or r["date"] >= a) and (b is None or r["date"] <= b)
               and all(r.get(k) == v for k, v in eq.items())]
        return sorted(out, key=lambda r: (r["date"], r["told"]))

    def month(self, kind, ym, **eq):
        return self.sel(kind, *month_days(ym), **eq)

    def days_of(self, ev):
        return [self.events[ev][0]] + self.alt[ev]

    def since(self, kind, ev, **eq):
        return same(*(self.sel(kind, d + ONE, None, **eq) for d in self.days_of(ev)))

    def before(self, kind, ev, **eq):
        return same(*(self.sel(kind, None, d - ONE, **eq) for d in self.days_of(ev)))

    def between(self, kind, ev1, ev2, **eq):
        return same(*(self.sel(kind, d1 + ONE, d2 - ONE, **eq) for d1 in self.days_of(ev1) for d2 in self.days_of(ev2)))

    def week_after(self, kind, ev, f, **eq):
        """f(records) over 'the week after' an event, asserted equal for the three usual readings."""
        e = self.events[ev][0]
        nm = monday(e) + timedelta(days=7)
        return same(*(f(self.sel(kind, a, b, **eq)) for a, b in
                      [(e + ONE, e + timedelta(days=7)), (e, e + timedelta(days=6)), (nm, nm + timedelta(days=6))]))

    def last3(self, kind, f, **eq):
        return same(*(f(self.sel(kind, a, b, **eq)) for a, b in LAST3))

    def first_after(self, kind, ev, **eq):
        rs = self.since(kind, ev, **eq)
        assert rs and (len(rs) == 1 or rs[0]["date"] < rs[1]["date"]), ("first record not unique", ev)
        return rs[0]

    def last_before(self, kind, ev, **eq):
        rs = self.before(kind, ev, **eq)
        assert rs and (len(rs) == 1 or rs[-1]["date"] > rs[-2]["date"]), ("last record not unique", ev)
        return rs[-1]

    def by(self, kind, key, f, recs=None):
        g = defaultdict(list)
        for r in (self.sel(kind) if recs is None else recs):
            g[key(r) if callable(key) else r[key]].append(r)
        return {k: f(v) for k, v in g.items()}

    def by_week(self, kind, f):
        d = self.by(kind, lambda r: monday(r["date"]), f)
        top = unique_top(d)
        assert top >= START, "top week starts before the history"
        return top

    # -- questions
    def q(self, family, question, gold, qt=QT):
        self.questions.append({"question_id": f"K-{self.name}-{len(self.questions) + 1:02d}",
                               "history": self.name, "question": question, "question_time": qt,
                               "gold": gold, "family": family})

    # -- chat filler
    def fill_chat(self, pool, target):
        """Ordinary chat (no records) until the history has `target` rounds: most record-free days get
        one chat round (a few stay without a session), the rest go to random days."""
        rng = self.rng
        need = target - sum(len(v) for v in self.rounds.values())
        empty = [d for d in ALL_DAYS if not self.rounds[d]]
        rng.shuffle(empty)
        days = empty[:min(need, int(0.85 * len(empty)))]
        while len(days) < need:
            d = rng.choice(ALL_DAYS)
            if self.rounds[d] and days.count(d) < 2:
                days.append(d)
        uses = [0] * len(pool)
        recent = []
        order = list(range(len(pool)))
        rng.shuffle(order)
        for day in sorted(days):
            fresh = [i for i in order if uses[i] == 0]
            if fresh:
                i = fresh[0]
            else:
                again = []
                for window in (25, 12, 0):
                    again = again or [i for i in order if uses[i] < 2 and not getattr(pool[i], "once", False)
                                      and i not in recent[len(recent) - window:]]
                assert again, "chat pool too small"
                i = rng.choice(again)
            uses[i] += 1
            recent.append(i)
            u, a = pool[i](rng)
            self.say(day, rng.randint(8 * 60, 22 * 60), u, a)

    # -- output
    def to_json(self):
        sessions = []
        for day in sorted(d for d in self.rounds if self.rounds[d]):
            sid = f"S{len(sessions) + 1}"
            rounds, prev = [], -10
            for i, (hm, u, a) in enumerate(sorted(self.rounds[day], key=lambda r: r[0]), 1):
                hm = max(hm, prev + 3)
                prev = hm
                assert hm < 24 * 60
                t = datetime.combine(day, time(hm // 60, hm % 60))
                rounds.append({"round_id": f"{sid}:{i}", "time": t.isoformat(), "user": u, "assistant": a})
            sessions.append({"session_id": sid, "date": day.isoformat(), "rounds": rounds})
        return {"user_id": self.user_id, "sessions": sessions}

    def stats(self):
        doc = self.to_json()
        kinds = defaultdict(int)
        for r in self.records:
            kinds[r["kind"]] += 1
        return {"sessions": len(doc["sessions"]), "rounds": sum(len(s["rounds"]) for s in doc["sessions"]),
                "records": dict(kinds), "late": sum(r["told"] != r["date"] for r in self.records),
                "questions": len(self.questions),
                "unanswerable": sum(bool(q["gold"].get("unanswerable")) for q in self.questions)}

    def check(self):
        st = self.stats()
        assert 150 <= st["rounds"] <= 180, st
        for kind, n in st["records"].items():
            assert 15 <= n <= 80, (kind, n)
            assert 3 <= len(self.layouts[kind]) <= 6, (kind, self.layouts[kind])
        for r in self.records:
            assert r["date"] not in self.blocked and r["told"] not in self.blocked
            assert r["date"] not in self.quiet[r["kind"]] and r["told"] not in self.quiet[r["kind"]]
        for q in self.questions:
            assert q["gold"], q
            assert q["question_time"] > max(self.rounds).isoformat() + "T23:59"
        return st


def mark_once(pool, *starts):
    """Marks the chat templates whose user text starts with one of `starts` as said at most once."""
    for f in pool:
        if f(random.Random(0))[0].startswith(starts):
            f.once = True


def pick(rng, weighted):
    """weighted: [(value, weight)]"""
    total = sum(w for _, w in weighted)
    x = rng.uniform(0, total)
    for v, w in weighted:
        x -= w
        if x <= 0:
            return v
    return weighted[-1][0]


def evening(rng):
    return rng.randint(17 * 60, 21 * 60 + 30)


def morning(rng):
    return rng.randint(7 * 60, 10 * 60)


def daytime(rng):
    return rng.randint(9 * 60, 18 * 60)


# ============================================================================= 1. angler

ANGLER_CHAT = [
    lambda r: (f"Dessie reckons he had {r.randint(7, 14)} trout on Lough Mask on Sunday. I'll believe it when I see the photos.",
               "Ask for the photos — fishermen's arithmetic is famous."),
    lambda r: ("What's the best knot for joining braid to a fluoro leader?",
               "The FG knot is the slimmest and strongest; an Alberto is easier to tie with cold fingers."),
    lambda r: (f"The new Stradic is €{r.choice([219, 229, 239])} in the window at Duffy's Tackle. I'm not buying it. Probably.",
               "Looking is free. Good luck holding out."),
    lambda r: ("How long do maggots keep in the fridge?",
               "A week or two if they're cold and dry, in a tub with a bit of sawdust."),
    lambda r: (f"Forecast says gusts of {r.choice([60, 65, 70, 75])} km/h tomorrow, so the lough is out.",
               "Sensible. No fish is worth a swamped boat."),
    lambda r: (f"My brother-in-law still won't shut up about the {r.choice([9, 10, 11])} kg pike he had on Lough Ree two summers ago.",
               "Every family has one. Time to beat it."),
    lambda r: ("Any tips for fishing wet flies in a big wave?",
               "Short line, keep the flies high in the wave and hang them for a second before you lift."),
    lambda r: (f"Renewal letter came for the salmon licence, €{r.choice([100, 150])} for the season now. Haven't decided if I'll bother.",
               "Worth it only if you'll fish the Moy a good few times."),
    lambda r: ("What's the difference between a pollack and a coalfish?",
               "Pollack have a curved lateral line and a jutting lower jaw; coalfish have a straight, pale line."),
    lambda r: (f"Watched a documentary about the salmon run, some of them swim {r.choice(['2,000', '3,000', '4,000'])} km to get home.",
               "Incredible navigation, isn't it?"),
    lambda r: ("Is a fish finder worth it on a 16 ft boat?",
               "A basic one helps you find drop-offs and depth quickly — useful on a big lough."),
    lambda r: (f"There's a Lowrance fish finder on DoneDeal for €{r.choice([180, 220, 250])}, very tempting.",
               "Check the transducer is included before you bite."),
    lambda r: ("Remind me how to unhook a pike without hurting it?",
               "Long-nosed pliers, keep it in the water if you can, support its belly if you lift it."),
    lambda r: (f"Club AGM is on the {r.choice([18, 19, 20])}th. Membership is going up to €{r.choice([40, 45, 50])}, apparently.",
               "Worth going along to have your say."),
    lambda r: ("What's a good way to cook fresh pollack?",
               "Pan-fry in butter with lemon and capers. It's delicate, so don't overcook it."),
    lambda r: (f"Tide tables say low water at {r.randint(6, 11)}:{r.choice(['05', '20', '40'])} on Saturday at Spiddal.",
               "Fish the flood tide as it comes back in."),
    lambda r: ("Should I keep the waders in the car or in the shed?",
               "The shed — heat in a car is hard on the seams."),
    lambda r: (f"The neighbour's young lad had {r.randint(2, 5)} mackerel off Salthill prom last summer and now he wants to come out with me.",
               "Bring him on a calm day, he'll love it."),
    lambda r: (f"A lad offered me €{r.choice([30, 35, 40])} for my old Abu reel. Not sure I want to let it go.",
               "Depends how much it means to you."),
    lambda r: ("Why do trout rise more in the evening?",
               "Insect hatches and lower light — more food on the surface and less risk from above."),
    lambda r: (f"Petrol for the car was €{r.choice(['1.78', '1.81', '1.84'])} a litre in Moycullen today. Robbery.",
               "Fuel prices are brutal this year."),
    lambda r: ("How do I stop line twist on a spinning reel?",
               "A swivel above the lure helps, and close the bail arm by hand instead of cranking the handle."),
    lambda r: (f"Spent the evening at the vice, tied {r.randint(8, 15)} bibios for the duckfly.",
               "A full box for the hatch!"),
    lambda r: ("Thinking of trying the shore at Annaghdown, any tips?",
               "Fish the points where the wind blows into the shore, and keep low."),
    lambda r: (f"Dessie's grandson is {r.randint(6, 9)} and already casts better than me.",
               "Start them young!"),
    lambda r: (f"The Kestrel's trailer needs two new tyres, quote was €{r.choice([140, 160, 180])} for the pair. Haven't done it yet.",
               "Worth doing before a long tow."),
    lambda r: ("What's the bag limit for trout on the Corrib these days?",
               "Check the current Inland Fisheries bye-laws — limits change, so verify before keeping fish."),
    lambda r: ("Rain all day. Re-spooled two reels and watched the rugby.",
               "A good day for maintenance."),
    lambda r: (f"Read that the Corrib is about {r.choice([176, 178, 180])} square km. No wonder I get lost.",
               "It's a big water with a lot of islands."),
    lambda r: ("Do barbless hooks really lose more fish?",
               "Slightly, if you give slack; keep the line tight and you'll lose very few."),
    lambda r: (f"Met a Dutch couple at the pier who drove {r.randint(900, 1300)} km just to fish Connemara for a week.",
               "That's dedication."),
    lambda r: ("Is fluorocarbon really invisible to fish?",
               "Not invisible, but it's closer to water in how it bends light, so it's less visible than mono."),
    lambda r: ("What size hooks for perch?", "Size 10 to 14, with worms or maggots."),
    lambda r: ("Saw an otter at Annaghdown this morning, it had a fish bigger than anything I caught all week.",
               "Lucky sighting!"),
    lambda r: ("How do I keep the boat battery healthy when I'm not using it?",
               "Keep it topped up with a smart charger and store it somewhere dry."),
    lambda r: (f"The weather station in Oughterard recorded {r.randint(40, 70)} mm of rain this week.",
               "The loughs will be rising."),
    lambda r: (f"Dessie's wife made a pike pie out of a {r.choice([3, 4])} kg fish he kept. Surprisingly good.",
               "Pike is underrated on the table."),
    lambda r: ("Can you explain the duckfly hatch?",
               "Chironomids — buzzers — hatch on the Irish loughs in March and April, and trout feed hard on them."),
    lambda r: (f"My nephew wants a first rod for his birthday, budget about €{r.choice([40, 50, 60])}. Any ideas?",
               "A 2.1 m spinning combo with 6–8 lb line is a great start."),
    lambda r: ("How long does frozen mackerel keep for bait?", "Several months in the freezer if it's well wrapped."),
    lambda r: ("Best state of the tide for pollack off the rocks?",
               "Often the first hours of the flood, and around dawn and dusk."),
    lambda r: (f"Dessie found a Rapala in the reeds that must be {r.choice([12, 15, 18])} years old. Still swims perfectly.",
               "They don't make them like that any more."),
    lambda r: ("What varnish should I use on the Kestrel's floorboards?",
               "Marine varnish, with a light sanding between coats."),
    lambda r: ("Do trout see colour?", "Yes, quite well, especially in shallow water and good light."),
    lambda r: ("How do I sharpen hooks properly?", "A small diamond file, stroking from the bend towards the point."),
    lambda r: ("What's the best way to store flies so they don't rust?", "Let them dry before they go back in the box, and keep a sachet of silica gel in it."),
    lambda r: ("Why do fish go off the feed when the pressure drops?", "Nobody's fully sure — light, wind and temperature change at the same time."),
    lambda r: ("Grand soft day. Sorted out the tackle bag and threw out half of it.", "Lighter bag, happier back."),
    lambda r: ("Is it worth learning to cast double-handed?", "If you plan to fish big rivers for salmon, yes."),
    lambda r: ("Any tips for landing a fish on your own from a boat?", "Keep the net low in the water and draw the fish over it, don't chase it."),
]
mark_once(ANGLER_CHAT, "Dessie reckons", "My brother-in-law", "Renewal letter", "Watched a documentary", "There's a Lowrance",
          "Club AGM", "The neighbour's young lad", "A lad offered", "Dessie's grandson", "The Kestrel's trailer", "Read that",
          "Met a Dutch", "The new Stradic", "Saw an otter", "Dessie's wife", "My nephew", "Dessie found")


def build_angler():
    h = History("angler", "ciaran.mcdonagh", "Ciarán, a Galway angler with a small boat, the Kestrel", seed=12)
    rng = h.rng
    ev = h.event
    ev("engine", D("2026-02-12"), 19 * 60 + 40,
       "Disaster of a day. Halfway across from Oughterard the outboard on the Kestrel coughed twice and went silent, "
       "and nothing I did would bring it back. Dessie had to come out and tow me in with his boat, took us nearly two "
       "hours. Smells like the gearbox.",
       "Rotten luck — good that Dessie was nearby. Fingers crossed it's a cheap fix.",
       "since the Kestrel broke down / before her engine gave out")
    h.say(D("2026-02-17"), 12 * 60 + 5, "Still no word from Walsh's about the Kestrel. Bank fishing it is for now.",
          "Shore fishing can be productive too — fewer distractions.")
    ev("boatback", D("2026-03-08"), 16 * 60 + 10,
       "Walsh brought the Kestrel down to the slipway this morning — new water pump and impeller, and she purrs like a "
       "cat now. Three and a half weeks without her felt like a year.",
       "Great news! Enjoy having her back.",
       "since the boat was fixed / the week after I got the boat back")
    ev("flood", D("2026-03-15"), 18 * 60 + 25,
       "You should see Foxford. The Moy is over the road by the bridge, the car park at the Cathedral Beat is under a "
       "good metre of water and the lads in the shop say they haven't seen it that high since 2015.",
       "Stay well back from the banks — flood water is dangerous.",
       "since the flood / between the flood and breaking my wrist")
    h.say(D("2026-03-19"), 13 * 60, "Moy still brown and high, no point going near it for another week at least.",
          "Give it time to drop and clear.")
    ev("wrist", D("2026-04-04"), 21 * 60 + 5,
       "Went arse over tit on the green slime at the bottom of the Oughterard slipway. Landed on my left hand. Six hours "
       "in A&E at UHG: fractured scaphoid, plaster up to the elbow for six weeks.",
       "Ouch — sorry to hear it. Rest it and follow the fracture clinic's advice.",
       "since I broke my wrist / last outing before the wrist")
    h.say(D("2026-02-25"), 21 * 60 + 10, "Dessie's boat burns about 9 litres on a long day. He says the Kestrel is a thirsty "
          "old thing compared to his.", "Engine age and hull shape make a big difference.")
    h.say(D("2026-04-09"), 11 * 60 + 30, "Day five in the plaster. You can't tie a blood knot with one hand, I've tried.",
          "Pre-tied rigs might be your friend for a while.")
    h.say(D("2026-04-21"), 10 * 60 + 15, "Day 17 in the cast. Dessie's been driving me everywhere, he's a saint.",
          "Good friends are worth more than good tackle.")
    E = {k: v[0] for k, v in h.events.items()}
    h.quiet["trip"] |= {E["boatback"] + timedelta(days=7), LAST3[0][0]}

    # ---- trips
    def catch(venue, day):
        if venue == "Lough Corrib":
            sp = "pike" if day < D("2026-02-15") or rng.random() < 0.3 else "brown trout"
        elif venue == "Lough Mask":
            sp = rng.choice(["brown trout", "perch", "perch"])
        elif venue == "Spiddal Pier":
            sp = rng.choice(["pollack", "pollack", "wrasse"])
        else:
            sp = "salmon"
        n = {"brown trout": [0, 1, 1, 2, 2, 3, 3, 4, 5], "pike": [0, 1, 1, 2, 3], "perch": [2, 3, 4, 5, 6, 7, 9],
             "pollack": [0, 1, 2, 2, 3, 4, 5], "wrasse": [1, 2, 3, 4, 6], "salmon": [0, 0, 0, 1]}[sp]
        n = rng.choice(n)
        lo, hi = {"brown trout": (450, 1900), "pike": (2200, 7800), "perch": (150, 450), "pollack": (400, 2600),
                  "wrasse": (300, 1400), "salmon": (3200, 5600)}[sp]
        g = rng.randrange(lo, hi + 1, 50) if n else None
        return sp, n, g

    def catch_phrase(sp, n, g, wstyle):
        if n == 0:
            return rng.choice(["blanked", "not a touch", "nothing doing"])
        cnt = ("a " + sp if sp in ("pike", "salmon") else "one " + sp) if n == 1 else f"{word(n)} {sp}"
        big = "" if n == 1 else rng.choice([", biggest about ", ", best one ", ", the biggest "]) + kg(g, wstyle)
        return cnt + (big if n > 1 else f" of {kg(g, wstyle)}")

    def trip_text(layout, day, venue, sp, n, g, m):
        ws = rng.choice(["kg", "kg", "g", "kilos", "kgns"])
        if layout == "export":
            lines = [rng.choice(["Fishing trip logged ✅", "Trip summary", "Session saved"]), f"Spot: {venue}",
                     f"Date: {day_name(day)}", f"Duration (h): {m / 60:g}", f"Catches: {n}",
                     f"Biggest catch (kg): {g / 1000:g}" if n else "Biggest catch (kg): –",
                     f"Species: {cap(sp) if n else '–'}"]
            pre = rng.choice(["", "From the app:\n", "Today's one 👇\n"])
            return pre + "\n".join(lines), rng.choice(["Logged, thanks.", "Got it.", "Saved."])
        if layout == "pipe":
            c = "blank | —" if n == 0 else f"{sp} x{n} | best {kg(g, rng.choice(['kgns', 'g']))}"
            return (f"{day:%d/%m} | {venue} | {c} | {dur(m, rng.choice(['dec', 'hm']))}",
                    rng.choice(["Noted.", "Logged.", "👍"]))
        if layout == "json":
            body = json.dumps({"spot": venue, "date": day.isoformat(), "fish": n, "max_weight_g": g,
                               "species": sp if n else None, "time_on_water_min": m})
            return (rng.choice(["json from the export: ", "raw export, can you keep this: ", ""]) + body,
                    "Stored.")
        if layout == "prose":
            tpl = rng.choice([
                "Out on {v} for {d} today. {C}.",
                "{v} this afternoon, {d}. {C}.",
                "Decent session at {v}: {c} in {d}.",
                "Back from {v}. {D} on the water, {c}."])
            if n == 0:
                tpl = rng.choice(["{v} today, {d}. Blanked, not a touch.", "Went to {v} for {d} and caught nothing. Lovely day for it though."])
            c = catch_phrase(sp, n, g, ws)
            dd = dur(m, rng.choice(["words", "words", "hm", "dec_sp", "mins"]))
            txt = tpl.format(v=venue, d=dd, D=cap(dd), c=c, C=cap(c))
            return txt, rng.choice(["Nice one!", "Tight lines next time.", "Sounds like a good day out.", "Noted."])
        if layout == "late":
            c = catch_phrase(sp, n, g, ws)
            return (rng.choice(["Forgot to log yesterday's trip. ", "Yesterday, for the log: ", "Never logged yesterday — "])
                    + f"{venue}, {c}, {dur(m, rng.choice(['words', 'hm', 'hrs_min']))}.",
                    "Added to yesterday.")
        raise ValueError(layout)

    n_trips = 0
    for day in ALL_DAYS:
        p = 0.6 if day < E["wrist"] else 0.35
        if not h.free("trip", day) or rng.random() >= p:
            continue
        opts = [("Lough Corrib", 35), ("Lough Mask", 25), ("Spiddal Pier", 25), ("River Moy", 15)]
        if E["flood"] <= day <= E["flood"] + timedelta(days=12):
            opts = opts[:3]
        if day > E["wrist"]:
            opts = [("Spiddal Pier", 55), ("Lough Corrib", 45)]
        venue = pick(rng, opts)
        sp, n, g = catch(venue, day)
        m = rng.choice([90, 120, 150, 180, 180, 210, 240, 240, 270, 300, 360]) + rng.choice([0, 0, 0, 15])
        layout = pick(rng, [("export", 3), ("pipe", 3), ("json", 1.5), ("prose", 4), ("late", 2.5)])
        told, hm = day, evening(rng)
        if layout == "late":
            if h.free("trip", day + ONE):
                told, hm = day + ONE, morning(rng)
            else:
                layout = "prose"
        u, a = trip_text(layout, day, venue, sp, n, g, m)
        h.add("trip", day, told, hm, layout, u, a, venue=venue, species=sp, n=n, best_g=g, minutes=m)
        n_trips += 1

    # ---- tackle purchases
    SHOPS = {
        "Duffy's Tackle": [("Maggots 1pt", 400), ("Worms (tub)", 450), ("Fluorocarbon 8lb 50m", 1150),
                           ("Barbless hooks sz 10", 350), ("Mepps spinners x3", 1050), ("Pike traces x5", 999),
                           ("Drop-shot weights", 650), ("Landing net", 3499), ("Waders repair kit", 1250)],
        "Galway Angling Centre": [("Rapala X-Rap 10cm", 1499), ("Savage Gear 4D Trout 8cm", 1299),
                                  ("Braid 20lb 150m", 2199), ("Fly selection (12)", 2400), ("Polarised glasses", 3995),
                                  ("Spinning rod 2.7m", 8999), ("Wading boots", 11999), ("Leader wallet", 899)],
        "Tackle Direct": [("Mackerel feathers x4", 499), ("Soft lures 12pk", 1349), ("Tackle box 3600", 2299),
                          ("Fly line WF6F", 4950), ("Boat seat cushion", 2875)],
    }

    def purchase_text(layout, day, shop, items, total):
        if layout == "email":
            no = f"#{shop.split()[0][:3].upper().strip(chr(39))}-{rng.randint(10000, 99999)}"
            lines = [f"Fwd: Your order {no}", f"From: {shop} <orders@{shop.lower().replace(' ', '').replace(chr(39), '')}.ie>", "",
                     f"{shop} — thanks for your order!"]
            lines += [f"{q} x {it} ...... {eur(q * c, 'sym')}" for it, c, q in items]
            lines += [f"Order total: {eur(total, 'sym')}", f"Paid by Visa ****{rng.randint(1000, 9999)}"]
            return "\n".join(lines), rng.choice(["Got it, logged the order.", "Thanks, noted."])
        if layout == "till":
            lines = [shop.upper(), {"Duffy's Tackle": "Main St, Oughterard", "Galway Angling Centre": "Unit 4, Liosban, Galway"}[shop],
                     f"{day:%d/%m/%Y} {rng.randint(9, 17)}:{rng.randint(10, 59)}"]
            lines += [f"{(str(q) + ' ' if q > 1 else '') + it:<28}{eur(q * c, 'bare'):>8}" for it, c, q in items]
            lines += [f"{'TOTAL EUR':<28}{eur(total, 'bare'):>8}", f"{'CARD':<28}{eur(total, 'bare'):>8}"]
            return "Receipt from today:\n" + "\n".join(lines), "Saved the receipt."
        if layout == "pipe":
            what = " + ".join((f"{q}x " if q > 1 else "") + it.lower() for it, _, q in items)
            return f"tackle | {shop} | {what} | {eur(total, rng.choice(['code', 'sym']))}", "Logged."
        if layout == "prose":
            what = " and ".join((f"{q}x " if q > 1 else "") + it for it, _, q in items)
            return (rng.choice([f"Dropped into {shop} on the way home, got {what}, {eur(total, rng.choice(['euro', 'euros', 'sym']))}.",
                                f"Spent {eur(total, rng.choice(['sym', 'euros']))} in {shop}: {what}.",
                                f"{shop} again. {what}. {eur(total, rng.choice(['after', 'sym']))} gone."]),
                    rng.choice(["Noted.", "The tackle tax!", "Logged that."]))
        raise ValueError(layout)

    for day in ALL_DAYS:
        if not h.free("purchase", day) or rng.random() >= 0.25:
            continue
        shop = pick(rng, [("Duffy's Tackle", 45), ("Galway Angling Centre", 35), ("Tackle Direct", 20)])
        k = rng.choice([1, 1, 1, 2, 2, 3])
        items = [(it, c, rng.choice([1, 1, 1, 2]) if c < 1000 else 1) for it, c in rng.sample(SHOPS[shop], k)]
        total = sum(c * q for _, c, q in items)
        layout = pick(rng, [("email", 4 if shop != "Duffy's Tackle" else 0), ("till", 3 if shop != "Tackle Direct" else 0),
                            ("pipe", 2), ("prose", 3)])
        u, a = purchase_text(layout, day, shop, items, total)
        h.add("purchase", day, day, daytime(rng), layout, u, a, shop=shop, cents=total,
              items=[it for it, _, _ in items])

    # ---- fuel for the Kestrel
    for day in ALL_DAYS:
        working = day < E["engine"] or day > E["boatback"]
        if not working or not h.free("fuel", day) or rng.random() >= 0.3:
            continue
        layout = pick(rng, [("pump", 3), ("pipe", 2), ("prose", 3), ("late", 2)])
        told, hm = day, daytime(rng)
        if layout == "late":
            if h.free("fuel", day + ONE):
                told, hm = day + ONE, morning(rng)
            else:
                layout = "prose"
        price = rng.randint(1699, 1799)                   # tenths of a cent per litre
        if layout == "pump":
            lt = rng.randint(800, 1600) / 100
        else:
            lt = float(rng.randint(8, 16))
        cents = round(lt * price / 10)
        st = rng.choice(["Applegreen Oughterard", "Maxol Moycullen"])
        who = "Dessie took the Kestrel out for me, I paid for the petrol: " if day > E["wrist"] else ""
        if layout == "pump":
            u = (rng.choice(["Petrol for the Kestrel:\n", "Jerry can for the boat:\n", who + "\n" if who else "Kestrel fuel\n"])
                 + f"{st.upper()}\nPump {rng.randint(1, 8)}  Unleaded\n{f'{lt:.2f}'.replace('.', ',') if rng.random() < 0.4 else f'{lt:.2f}'} L"
                 f" @ €{price / 1000:.3f}/L\nTOTAL {eur(cents, 'sym')}")
            a = "Logged the Kestrel's fuel."
        elif layout == "pipe":
            u = f"fuel | Kestrel | {litres(lt, rng.choice(['L', 'l']))} | {eur(cents, rng.choice(['sym', 'code']))}"
            a = "Noted."
        elif layout == "prose":
            u = rng.choice([f"Filled the jerry cans for the Kestrel, {litres(lt, rng.choice(['words', 'litres']))}, {eur(cents, 'sym')}.",
                                  f"Put {litres(lt, rng.choice(['words', 'L']))} in the Kestrel's tank at {st.split()[0]}, cost {eur(cents, rng.choice(['sym', 'euros']))}.",
                                  f"{eur(cents, 'sym')} of petrol for the boat, {litres(lt, 'litres')}."])
            if who:
                u = who + u[0].lower() + u[1:]
            a = rng.choice(["Got it.", "Noted, thanks."])
        else:
            u = (f"Forgot to note it: yesterday I put {litres(lt, rng.choice(['words', 'L']))} in the Kestrel, "
                 f"{eur(cents, rng.choice(['sym', 'euros']))}.")
            a = "Added to yesterday."
        h.add("fuel", day, told, hm, layout, u, a, litres=lt, cents=cents)

    h.fill_chat(ANGLER_CHAT, rng.randint(152, 166))

    # ---- questions
    T = "trip"
    h.q("sum_month", "How many fish did I land in March, all venues together?",
        num(sum(r["n"] for r in h.month(T, "2026-03"))))
    h.q("avg_month", "On average, how long was I out per fishing trip in February?",
        num(avg(r["minutes"] for r in h.month(T, "2026-02")) / 60, "h"))
    h.q("max_since_event", "What's the heaviest fish I've had since the Kestrel broke down?",
        num(max(r["best_g"] for r in h.since(T, "engine") if r["n"]) / 1000, "kg"))
    top_venue = unique_top(h.by(T, "venue", lambda rs: sum(r["n"] for r in rs)))
    h.q("group_top", "Which venue has given me the most fish so far this year?", group(top_venue))
    h.q("count_since_event", "How many times have I fished Lough Mask since the flood?",
        num(len(h.since(T, "flood", venue="Lough Mask"))))
    h.q("count_filter", "How many trips did I come home from without a single fish?",
        num(sum(1 for r in h.sel(T) if r["n"] == 0)))
    h.q("first_after_event", "Where did I fish first once the boat was fixed?",
        text(h.first_after(T, "boatback")["venue"]))
    h.q("last_before_event", "How many fish did I catch on my last outing before I broke my wrist?",
        num(h.last_before(T, "wrist")["n"]))
    mar = sum(r["n"] for r in h.month(T, "2026-03", venue="Lough Corrib"))
    apr = sum(r["n"] for r in h.month(T, "2026-04", venue="Lough Corrib"))
    assert mar != apr
    h.q("compare_diff", "What's the difference between my Lough Corrib catch in March and in April?",
        num(mar - apr, None, either_sign=True))
    ff, fa = (sum(r["n"] for r in h.month(T, m)) for m in ("2026-02", "2026-04"))
    assert ff != fa
    h.q("compare_yes_no", "Did I catch more fish in February than in April?", yes_no(ff > fa))
    hours = h.by(T, lambda r: r["date"].strftime("%Y-%m"), lambda rs: sum(r["minutes"] for r in rs))
    h.q("month_top", "Which month did I spend the most time fishing?", month(unique_top(hours)))
    h.q("week_top", "Which week did I catch the most fish? Give me the Monday.",
        week(h.by_week(T, lambda rs: sum(r["n"] for r in rs))))
    trips = h.sel(T)
    h.q("share", "What percentage of my trips were at Spiddal Pier?",
        num(100 * sum(1 for r in trips if r["venue"] == "Spiddal Pier") / len(trips), "%"))
    h.q("last_n_weeks", "How many hours have I fished in the last three weeks?",
        num(h.last3(T, lambda rs: sum(r["minutes"] for r in rs)) / 60, "h"), qt=QT_MON)
    h.q("avg_subject", "On the Corrib trips where I caught something, what was the average weight of the biggest fish?",
        num(avg(r["best_g"] for r in h.sel(T, venue="Lough Corrib") if r["n"]) / 1000, "kg"))
    h.q("between_events", "Between the flood and breaking my wrist, how many hours did I spend fishing?",
        num(sum(r["minutes"] for r in h.between(T, "flood", "wrist")) / 60, "h"))
    h.q("week_after_event", "In the week after I got the boat back, how many trips did I make?",
        num(h.week_after(T, "boatback", len)))
    top_hours = sum(r["minutes"] for r in h.sel(T, venue=top_venue)) / 60
    h.q("top_group_measure", "At the venue where I've caught the most fish, how many hours have I put in altogether?",
        num(top_hours, "h"))
    c_corrib = sum(r["n"] for r in h.sel(T, venue="Lough Corrib"))
    c_mask = sum(r["n"] for r in h.sel(T, venue="Lough Mask"))
    (va, ca), (vb, cb) = sorted([("Lough Corrib", c_corrib), ("Lough Mask", c_mask)], key=lambda x: -x[1])
    assert ca > cb > 0
    h.q("ratio", f"How many times as many fish have I had from {va} as from {vb}?", num(ca / cb))
    P = "purchase"
    h.q("sum_month_subject", "How much did I spend at Duffy's Tackle in March?",
        num(sum(r["cents"] for r in h.month(P, "2026-03", shop="Duffy's Tackle")) / 100, "EUR"))
    h.q("sum_since_event", "How much have I spent on tackle since I broke my wrist?",
        num(sum(r["cents"] for r in h.since(P, "wrist")) / 100, "EUR"))
    h.q("group_top", "Which tackle shop have I given the most money to?",
        group(unique_top(h.by(P, "shop", lambda rs: sum(r["cents"] for r in rs)))))
    feb = h.month(P, "2026-02")
    top = max(r["cents"] for r in feb)
    assert sum(r["cents"] == top for r in feb) == 1
    h.q("max_month", "What was my biggest single tackle purchase in February?", num(top / 100, "EUR"))
    f, m = (sum(r["cents"] for r in h.month(P, x)) for x in ("2026-02", "2026-03"))
    h.q("percent_change", "By what percentage did my tackle spending change from February to March?",
        num(100 * (m - f) / f, "%"))
    F = "fuel"
    h.q("sum_since_event", "How many litres of petrol has the Kestrel taken since she was repaired?",
        num(round(sum(r["litres"] for r in h.since(F, "boatback")), 2), "L"))
    h.q("sum_month", "What did fuel for the Kestrel cost me in April?",
        num(sum(r["cents"] for r in h.month(F, "2026-04")) / 100, "EUR"))
    n_before = len(h.before(F, "engine"))
    assert n_before >= 1
    h.q("count_before_event", "How many times did I fill up the Kestrel before her engine gave out?", num(n_before))
    # unanswerable
    h.q("unans_measure", "How long was the longest fish I caught in March, in centimetres?", UNANSWERABLE)
    assert not h.sel(T, venue="Lough Derg")
    h.q("unans_value", "What was the biggest fish I had at Lough Derg?", UNANSWERABLE)
    h.q("unans_event", "How many fish have I caught since I sold the Kestrel?", UNANSWERABLE)
    h.q("unans_period", "What was my average catch per trip in January?", UNANSWERABLE)
    h.q("unans_subject", "How much petrol did Dessie's boat use in March?", UNANSWERABLE)
    h.q("unans_measure", "What was the water temperature on my Lough Mask trips?", UNANSWERABLE)
    h.q("unans_value", "What was the dearest thing I bought at Murphy's Outdoor?", UNANSWERABLE)
    return h


# ============================================================================= 2. studio (photographer)

STUDIO_CHAT = [
    lambda r: (f"A friend of mine charges €{r.choice(['2,800', '3,200', '3,500'])} for a full wedding day and still says she's underpriced.",
               "Worth comparing notes on what's included."),
    lambda r: ("How should I price a half-day corporate shoot?",
               "Start from your day rate, add editing time and usage rights, and quote one flat fee."),
    lambda r: (f"The Fuji 56mm f/1.2 is €{r.choice([999, 1049])} at the moment. Not today, wallet.",
               "Wise restraint."),
    lambda r: ("What's a good backup routine for client photos?",
               "3-2-1: three copies, on two kinds of media, one of them off-site or in the cloud."),
    lambda r: (f"The reel from a portrait session last autumn got {r.randint(300, 900)} likes overnight. Instagram is weird.",
               "Nice — people love behind-the-scenes."),
    lambda r: ("RAW only, or RAW+JPEG for weddings?",
               "RAW to one card and JPEG to the second gives you a backup and quick previews."),
    lambda r: (f"Finished a blog post on golden hour, {r.randint(1200, 1800)} words. Took forever.",
               "Good content for search, too."),
    lambda r: ("How many photos should I deliver for a two-hour portrait session?",
               "Commonly 20–40 edited images; put the number in the contract."),
    lambda r: ("My cousin wants a quote for an engagement shoot in June.",
               "Send her your standard package with a family discount, if you like."),
    lambda r: (f"Cameranu has the Sony 24-70 GM II for €{r.choice(['2,199', '2,299'])}. Dreaming.",
               "One day!"),
    lambda r: ("How do I chase an overdue invoice without sounding rude?",
               "A friendly reminder with the invoice attached and a clear new due date."),
    lambda r: (f"Culled and edited {r.randint(200, 400)} photos today. My eyes are square.",
               "Take a walk — 20 minutes away from the screen helps."),
    lambda r: ("Tips for a venue with mixed lighting?",
               "Set white balance for the dominant light, or gel your flash to match it."),
    lambda r: (f"My landlord is putting the flat rent up {r.choice([3, 4, 5])}% from July.",
               "Ouch. Check it against the legal maximum for your contract."),
    lambda r: (f"Weather app says {r.choice([80, 85, 90])}% chance of rain on Saturday.",
               "Pack the clear umbrellas — they photograph nicely."),
    lambda r: (f"Watched a talk by someone who shoots {r.randint(35, 60)} weddings a year. I would die.",
               "That pace is brutal."),
    lambda r: ("How long should I keep client RAW files?",
               "Many keep them at least a year; say so in your contract."),
    lambda r: (f"A rental place in Amsterdam wants €{r.choice([45, 55, 65])} a day for a tilt-shift lens. Might be worth it one day.",
               "Renting makes sense for occasional use."),
    lambda r: ("Is it worth joining a photographers' association?",
               "It can help with contracts, insurance and networking."),
    lambda r: (f"Admin day. Filed {r.randint(10, 25)} receipts for the bookkeeper and answered emails.",
               "The unglamorous half of freelancing."),
    lambda r: ("What shutter speed for a first dance?",
               "Around 1/200 s with flash, faster without, with a fast lens wide open."),
    lambda r: (f"A brand with {r.randint(40, 90)}k followers asked me to shoot for free 'for exposure'. No.",
               "Exposure doesn't pay rent."),
    lambda r: ("Tips for posing couples who are awkward in front of a camera?",
               "Give them something to do — walk, whisper, laugh. Prompts beat poses."),
    lambda r: (f"Sold my old Nikon D750 on Marktplaats for €{r.choice([480, 520, 550])}. Bittersweet.",
               "It'll make someone else happy."),
    lambda r: ("How do I calibrate my monitor properly?",
               "A colorimeter like a SpyderX or Calibrite, recalibrated monthly."),
    lambda r: ("Do I need model releases for event photos?",
               "For commercial use, yes; for the client's own internal use, often not — check your contract."),
    lambda r: (f"Coffee with a stylist who wants to team up. She does about {r.randint(4, 9)} shoots a month.",
               "Could be a good source of referrals."),
    lambda r: ("Any good free alternatives to Lightroom for quick culling?",
               "Photo Mechanic isn't free but is fast; FastRawViewer and darktable are worth a look."),
    lambda r: ("Should I charge a travel fee outside Rotterdam?",
               "Yes — a per-km fee or flat zones beyond a set radius is common."),
    lambda r: ("What's the difference between usage rights and copyright?",
               "You keep the copyright; usage rights say what the client may do with the images, and for how long."),
    lambda r: (f"A bride asked whether I could deliver {r.choice([800, 1000, 1200])} photos. That's a lot of editing.",
               "Quality over quantity — set expectations in the contract."),
    lambda r: ("Best way to store camera batteries for a few weeks?", "Around half charged, somewhere cool and dry."),
    lambda r: ("Is a second shooter worth it for small weddings?",
               "Under about 60 guests often not, but it helps when two things happen at once."),
    lambda r: ("How do I write a decent 'about me' page?", "Short, personal, a photo of you and a clear way to book."),
    lambda r: (f"The neighbour's cat sat for me for {r.randint(10, 20)} minutes while I tested a lighting setup. Best model ever.",
               "Cats: perfect models, on their own terms."),
    lambda r: ("What's a fair price for a one-hour mini session?",
               "Often a third to half of a full session fee, with fewer images."),
    lambda r: ("Any tips for photographing steaming food?", "Backlight it against a dark background and shoot right after plating."),
    lambda r: ("Should I offer payment plans for weddings?", "Many do: a deposit on booking and the rest before the day."),
    lambda r: (f"My accountant says to put {r.choice([30, 35, 40])}% of everything aside for tax.", "Sound advice for freelancers."),
    lambda r: ("How do I get rid of moiré on a striped shirt?",
               "Change distance or angle a little when shooting, or fix it afterwards with a moiré brush."),
    lambda r: ("Good podcasts about the business side of photography?",
               "Look for ones on pricing and marketing for small studios; interviews with working photographers are useful."),
    lambda r: ("What's the best way to photograph glass bottles without reflections?",
               "Light from behind through a diffuser, with black cards at the sides to define the edges."),
    lambda r: ("How do I stop a flash from making skin look shiny?", "Bounce or diffuse it, and keep blotting papers in the bag."),
    lambda r: ("Can you suggest a simple contract checklist for portrait clients?",
               "Date and place, fee and deposit, number of images, delivery time, usage, cancellation and rescheduling."),
    lambda r: ("What's a good way to back up cards during a wedding?",
               "Dual card slots, and copy to a laptop or SSD at the dinner break."),
    lambda r: ("Should I watermark client galleries?", "Not the delivered ones; a small mark on social previews is fine."),
    lambda r: ("Which is better for a headshot backdrop, grey or white?", "Mid-grey is the more forgiving; white needs more light control."),
    lambda r: ("How many days should I allow for delivering wedding photos?", "Four to eight weeks is common; a sneak peek within a week keeps couples happy."),
    lambda r: ("Why do my blacks look muddy when I print?", "Check the monitor brightness and soft-proof with the printer's profile."),
    lambda r: ("Rainy Sunday. Reorganised my lens bag and watched a documentary about Vivian Maier.", "A good kind of Sunday."),
    lambda r: ("Any tips for getting kids to look at the camera?", "Make it a game — noises, a toy on the lens, and lots of patience."),
]
mark_once(STUDIO_CHAT, "A friend of mine", "The Fuji 56mm", "The reel from", "Finished a blog", "My cousin", "Cameranu has",
          "My landlord", "Watched a talk", "A rental place", "A brand with", "Sold my old", "Coffee with", "A bride asked",
          "The neighbour's cat", "My accountant")

WEDDINGS = ["Sanne & Bram", "Priya & Tom", "Elif & Daan", "Mila & Jesse", "Fatima & Ruben"]
CLIENTS = {
    "portrait": [("Van Dijk family", 1), ("Kowalczyk", 1), ("Dr. Maas", 1), ("Okafor twins", 1), ("Lotte Visser", 1),
                 ("Hamid Rezaei", 1), ("Codam", 0.6)],
    "product": [("Bakkerij Jansen", 65), ("Koffiebar Noord", 20), ("Olijf & Co", 15)],
    "event": [("Hotel New York", 45), ("Codam", 30), ("RoTeC Summit", 25)],
}


def build_studio():
    h = History("studio", "noor.haddad", "Noor, a freelance photographer in Rotterdam", seed=14)
    rng = h.rng
    ev = h.event
    ev("sony", D("2026-02-15"), 17 * 60 + 20,
       "Ugh. Test shots at Kijkduin for a personal project — a gust took the tripod over and the Sony went face-first "
       "onto the concrete path. Lens mount is cracked and it won't talk to any lens. Taking it to Cameranu tomorrow.",
       "That's painful — at least you have the Fuji. Hope the repair is quick.",
       "since I dropped the Sony / the week after I dropped it")
    h.say(D("2026-03-09"), 15 * 60 + 40, "The Sony is back from Cameranu and works like new. Never again without a sandbag.",
          "Welcome back, Sony.")
    ev("strike", D("2026-03-03"), 9 * 60 + 5,
       "Not a single train running anywhere in the country today — the NS staff walked out. Had to move the Utrecht "
       "headshots and spent the morning on the phone.",
       "What a hassle. Hopefully the clients were understanding.",
       "between the train strike and getting the studio")
    ev("studio", D("2026-03-20"), 18 * 60 + 30,
       "Signed the contract for the unit at Keilewerf this afternoon!! 38 m², north light, keys on Monday. My own "
       "space at last.",
       "Congratulations — that's a big step!",
       "since I got my own studio / before I signed for the studio")
    h.alt["studio"].append(D("2026-03-23"))     # the keys came three days after the signing
    h.say(D("2026-03-23"), 10 * 60, "Keys! Spent the morning in the new space with a tape measure and a grin.",
          "Enjoy setting it up.")
    ev("sister", D("2026-04-11"), 23 * 60 + 10,
       "Amira and Youssef are married!! I was there as a guest for once, no camera. The photographer they hired was "
       "fine but I kept wanting to fix his angles. Danced till my feet gave up.",
       "Congratulations to them — and well done for switching off!",
       "since my sister's wedding / last client before it")
    h.say(D("2026-03-26"), 13 * 60 + 45, "Thinking about a DJI Mini drone, about €799. Need to check the no-fly zones "
          "around Rotterdam first — not buying anything until I know.",
          "The port and the airport cover a lot of the city — check the map first.")
    h.say(D("2026-04-02"), 20 * 60 + 15, "Amira's flowers for the big day cost €750. Weddings are madness.",
          "They really add up.")
    h.say(D("2026-04-14"), 9 * 60 + 30, "Still recovering from Amira's wedding. Coffee is not helping.",
          "Take it easy today.")
    E = {k: v[0] for k, v in h.events.items()}
    h.quiet["shoot"].add(E["sony"] + timedelta(days=7))
    h.quiet["expense"].add(LAST3[0][0])
    for kind in ("shoot", "invoice", "expense"):      # signing (Mar 20) or keys (Mar 23): same answers either way
        h.quiet[kind] |= {D("2026-03-21"), D("2026-03-22"), D("2026-03-23")}
    sony_out = (E["sony"], D("2026-03-09"))

    # ---- shoots
    shoot_days = []
    sats = [d for d in ALL_DAYS if d.weekday() == 5 and h.free("shoot", d)]
    wed_days = sorted(rng.sample(sats, 5))
    for day in ALL_DAYS:
        if day in wed_days:
            shoot_days.append((day, "wedding"))
        elif day.weekday() < 5 and h.free("shoot", day) and rng.random() < 0.47:
            shoot_days.append((day, pick(rng, [("portrait", 40), ("product", 30), ("event", 30)])))
    wi = iter(WEDDINGS)

    def shoot_text(layout, day, client, typ, minutes, frames, body):
        bl = {"Sony": rng.choice(["Sony A7 IV", "A7IV", "Sony"]), "Fuji": rng.choice(["Fujifilm X-T5", "X-T5", "Fuji"])}[body]
        fr = f"{frames:,}" if rng.random() < 0.6 else str(frames)
        if layout == "export":
            lines = [f"Session summary — {day_name(day)}", f"Client: {client}", f"Type: {cap(typ)}",
                     f"Time on location (h): {minutes / 60:g}", f"Frames captured: {frames}",
                     f"Body: {'Sony A7 IV' if body == 'Sony' else 'Fujifilm X-T5'}"]
            return "\n".join(lines), rng.choice(["Logged the session.", "Saved."])
        if layout == "pipe":
            return (f"{day.isoformat()} | {typ} | {client} | {dur(minutes, rng.choice(['dec', 'hm']))} | {frames} fr | {bl}",
                    "Noted.")
        if layout == "json":
            return (json.dumps({"client": client, "type": typ, "hours": minutes / 60, "frames": frames,
                                "camera": "Sony A7 IV" if body == "Sony" else "Fujifilm X-T5", "date": day.isoformat()}),
                    "Stored.")
        if layout == "lightroom":
            folder = f"{day:%Y-%m-%d}_{client.replace(' ', '').replace('&', '-').replace('.', '')}_{typ}"
            return (f"Lightroom: imported {frames} photos from {bl} into {folder}. "
                    f"{rng.choice(['Shoot was', 'On location', 'Time on site'])} {dur(minutes, rng.choice(['hm', 'dec', 'mins']))}.",
                    "Import logged.")
        d = dur(minutes, rng.choice(["words", "words", "hm", "dec_sp"]))
        if typ == "wedding":
            body_txt = rng.choice([f"{client}'s wedding", f"wedding for {client}"])
            core = f"{body_txt}, {d} on my feet, {fr} frames on the {bl}"
        else:
            core = rng.choice([f"the {client} {typ} shoot, {d}, {fr} frames on the {bl}",
                               f"{typ} job for {client}: {d} on location and {fr} frames with the {bl}"])
        if layout == "late":
            return (rng.choice(["Forgot to log yesterday's shoot: ", "For the log, yesterday: "]) + core + ".",
                    "Added to yesterday.")
        return (rng.choice(["Wrapped ", "Done with ", "Just finished "]) + core + rng.choice([".", "!", ". Tired."]),
                rng.choice(["Well done!", "Nice, logged.", "Sounds like a good one."]))

    shoots = []
    for day, typ in shoot_days:
        client = next(wi) if typ == "wedding" else pick(rng, CLIENTS[typ])
        lo, hi = {"wedding": (480, 660), "portrait": (60, 180), "product": (180, 360), "event": (180, 360)}[typ]
        minutes = rng.randrange(lo, hi + 1, 30)
        flo, fhi = {"wedding": (1400, 2600), "portrait": (150, 600), "product": (300, 900), "event": (500, 1300)}[typ]
        frames = rng.randint(flo, fhi)
        sony_ok = not (sony_out[0] <= day < sony_out[1])
        if typ in ("wedding", "event"):
            body = "Sony" if sony_ok else "Fuji"
        else:
            body = "Sony" if sony_ok and rng.random() < 0.3 else "Fuji"
        layout = pick(rng, [("export", 3), ("pipe", 2), ("json", 1.5), ("lightroom", 2), ("prose", 3), ("late", 2.5)])
        told, hm = day, evening(rng)
        if typ == "wedding":
            hm = rng.randint(22 * 60, 23 * 60 + 30)
        if layout == "late":
            if h.free("shoot", day + ONE):
                told, hm = day + ONE, morning(rng)
            else:
                layout = "prose"
        u, a = shoot_text(layout, day, client, typ, minutes, frames, body)
        shoots.append(h.add("shoot", day, told, hm, layout, u, a, client=client, type=typ, minutes=minutes,
                            frames=frames, body=body))

    # ---- invoices paid
    def invoice_text(layout, inv, client, cents):
        if layout == "bank":
            return (rng.choice(["", "Yes! 💸\n", "Finally.\n"]) +
                    f"ING: Bijschrijving {eur(cents, 'nl')} van {client.upper()} — omschrijving: factuur {inv}",
                    rng.choice(["Payment logged.", "Nice, noted as paid."]))
        if layout == "email":
            return (f"Fwd: Payment received for invoice {inv}\nFrom: Moneybird <no-reply@moneybird.nl>\n\n"
                    f"Good news! {client} has paid invoice {inv} ({eur(cents, rng.choice(['sym', 'code_first']))}).",
                    "Marked as paid.")
        if layout == "pipe":
            return f"paid | {inv} | {client} | {eur(cents, rng.choice(['code', 'bare']))}", "Noted."
        if layout == "json":
            return json.dumps({"invoice": inv, "client": client, "amount_eur": cents / 100, "status": "paid"}), "Stored."
        return (rng.choice([f"{client} finally paid! {eur(cents, rng.choice(['euros', 'sym']))}.",
                            f"Payment in from {client}, {eur(cents, rng.choice(['sym', 'euros', 'nl']))} for {inv}."]),
                rng.choice(["Great!", "Good to have that in.", "Noted."]))

    pays = []
    for i, (client, typ) in enumerate([("Hotel New York", "event"), ("Koffiebar Noord", "product"), ("Kowalczyk", "portrait")]):
        pays.append((D("2026-02-02") + timedelta(days=2 * i + rng.randint(0, 1)), f"NH-2026-{i + 1:03d}", client, typ))
    for i, s in enumerate(shoots):
        if rng.random() >= 0.72:
            continue
        pd = s["date"] + timedelta(days=rng.randint(5, 24))
        while pd <= END and not h.free("invoice", pd):
            pd += ONE
        if pd <= END:
            pays.append((pd, f"NH-2026-{i + 4:03d}", s["client"], s["type"]))
    for pd, inv, client, typ in sorted(pays, key=lambda p: p[0]):
        lo, hi, step = {"wedding": (165000, 245000, 5000), "portrait": (17500, 45000, 2500),
                        "product": (38000, 95000, 1250), "event": (60000, 140000, 5000)}[typ]
        cents = rng.randrange(lo, hi + 1, step)
        layout = pick(rng, [("bank", 3), ("email", 3), ("pipe", 1.5), ("json", 1), ("prose", 2.5)])
        u, a = invoice_text(layout, inv, client, cents)
        h.add("invoice", pd, pd, daytime(rng), layout, u, a, client=client, invoice=inv, cents=cents)

    # ---- expenses
    VEND = {
        "Kamera Express": [("SanDisk Extreme Pro 128GB", 2999), ("Sony NP-FZ100 battery", 7900),
                           ("Peak Design Slide strap", 5495), ("Lens cleaning kit", 1895), ("Fuji NP-W235 battery", 6900)],
        "Foto Konijnenberg": [("Backdrop paper 2.72 x 11m grey", 6450), ("5-in-1 reflector 107cm", 3995),
                              ("Colour gel set", 2450), ("Light stand 2.8m", 4900)],
        "Bol.com": [("External SSD 2TB", 14999), ("Spring clamps 12pcs", 1999), ("Gaffer tape 50m", 1299)],
        "Cameranu": [("Sensor cleaning", 4900), ("UV filter 67mm", 3450)],
    }
    fixed = [(D("2026-02-06"), "Adobe", [("Creative Cloud Photography plan", 2419, 1)], "email"),
             (D("2026-02-24"), "Cameranu", [("Repair Sony A7 IV — lens mount replacement", 21250, 1)], "email"),
             (D("2026-03-06"), "Adobe", [("Creative Cloud Photography plan", 2419, 1)], "bank"),
             (D("2026-03-24"), "Stichting Keilewerf", [("Deposit unit 2.14", 115000, 1)], "prose"),
             (D("2026-04-01"), "Stichting Keilewerf", [("Rent April unit 2.14", 57500, 1)], "bank"),
             (D("2026-04-06"), "Adobe", [("Creative Cloud Photography plan", 2419, 1)], "email")]
    fixed.append((D("2026-02-10"), "Kamera Express", [("SanDisk Extreme Pro 128GB", 2999, 2)],
                  pick(rng, [("email", 3), ("pipe", 2), ("prose", 3)])))
    fixed_days = {f[0] for f in fixed}
    exp_plan = list(fixed)
    for day in ALL_DAYS:
        if day in fixed_days or not h.free("expense", day) or rng.random() >= 0.17:
            continue
        v = pick(rng, [("Kamera Express", 40), ("Foto Konijnenberg", 30), ("Bol.com", 20), ("Cameranu", 10)])
        k = rng.choice([1, 1, 2])
        items = [(it, c, rng.choice([1, 1, 2]) if c < 3000 else 1) for it, c in rng.sample(VEND[v], k)]
        exp_plan.append((day, v, items, pick(rng, [("email", 3), ("pipe", 2), ("prose", 3), ("bank", 1)])))

    def expense_text(layout, day, vendor, items, total):
        if layout == "email":
            if vendor == "Adobe":
                return (f"Fwd: Your Adobe invoice\nFrom: Adobe <message@adobe.com>\n\nHi Noor, we've processed your payment "
                        f"of {eur(total, 'sym')} for Creative Cloud Photography plan (20GB). Invoice IE{rng.randint(10**8, 10**9)}.",
                        "Logged the subscription.")
            lines = [f"Fwd: Je bestelling bij {vendor}", f"{vendor}", f"Ordernummer {rng.randint(10**6, 10**7)}"]
            lines += [f"{it} x{q}  {eur(c * q, 'nl')}" for it, c, q in items]
            lines += [f"Totaal: {eur(total, 'nl')}"]
            return "\n".join(lines), rng.choice(["Receipt saved.", "Logged."])
        if layout == "bank":
            return (f"ING: Afschrijving {eur(total, 'nl')} aan {vendor.upper()} — {items[0][0]}",
                    "Logged as an expense.")
        what = " + ".join((f"{q}x " if q > 1 else "") + it for it, _, q in items)
        if layout == "pipe":
            return f"exp | {vendor} | {what} | {eur(total, rng.choice(['code', 'sym']))}", "Noted."
        if vendor == "Stichting Keilewerf":
            return (f"Paid the deposit for the studio to Stichting Keilewerf, {eur(total, 'nl')}. Gulp.",
                    "A big one, but a good investment.")
        return (rng.choice([f"Bought {what.lower()} at {vendor}, {eur(total, rng.choice(['sym', 'euros']))}.",
                            f"{vendor} order: {what}. {eur(total, rng.choice(['sym', 'after']))}."]),
                rng.choice(["Noted.", "Logged."]))

    for day, vendor, items, layout in sorted(exp_plan, key=lambda x: x[0]):
        total = sum(c * q for _, c, q in items)
        u, a = expense_text(layout, day, vendor, items, total)
        h.add("expense", day, day, daytime(rng), layout, u, a, vendor=vendor, cents=total,
              items=[it for it, _, _ in items])

    h.fill_chat(STUDIO_CHAT, rng.randint(152, 166))

    # ---- questions
    S, I, X = "shoot", "invoice", "expense"
    h.q("sum_month", "How many hours was I actually on location for shoots in March?",
        num(sum(r["minutes"] for r in h.month(S, "2026-03")) / 60, "h"))
    h.q("count_filter", "How many weddings have I photographed since February?",
        num(len(h.sel(S, type="wedding"))))
    allS = h.sel(S)
    h.q("share", "What share of my shoots were portrait sessions?",
        num(100 * sum(r["type"] == "portrait" for r in allS) / len(allS), "%"))
    h.q("group_top", "Which client has paid me the most so far?",
        group(unique_top(h.by(I, "client", lambda rs: sum(r["cents"] for r in rs)))))
    h.q("avg_filter", "On average, how many frames do I shoot at a wedding?",
        num(avg(r["frames"] for r in h.sel(S, type="wedding"))))
    h.q("count_since_event", "Since I dropped the Sony, how many shoots have I done on the Fuji?",
        num(len(h.since(S, "sony", body="Fuji"))))
    h.q("first_after_event", "Which client was the first one I shot with the Sony again after dropping it?",
        text(h.first_after(S, "sony", body="Sony")["client"]))
    mi, ai = (sum(r["cents"] for r in h.month(I, m)) for m in ("2026-03", "2026-04"))
    assert mi != ai
    h.q("compare_yes_no", "Did more money come in from clients in April than in March?", yes_no(ai > mi))
    fi = sum(r["cents"] for r in h.month(I, "2026-02"))
    h.q("percent_change", "By how much did my client income change from February to March, in percent?",
        num(100 * (mi - fi) / fi, "%"))
    h.q("sum_since_event", "How much have clients paid me since I got my own studio?",
        num(sum(r["cents"] for r in h.since(I, "studio")) / 100, "EUR"))
    h.q("last_n_weeks", "What have I spent on business expenses in the last three weeks?",
        num(h.last3(X, lambda rs: sum(r["cents"] for r in rs)) / 100, "EUR"), qt=QT_MON)
    h.q("week_top", "Which week was I on location the most hours? Monday's date please.",
        week(h.by_week(S, lambda rs: sum(r["minutes"] for r in rs))))
    h.q("month_top", "In which month did I shoot the most frames?",
        month(unique_top(h.by(S, lambda r: r["date"].strftime("%Y-%m"), lambda rs: sum(r["frames"] for r in rs)))))
    hp = sum(r["minutes"] for r in h.sel(S, type="product"))
    he = sum(r["minutes"] for r in h.sel(S, type="event"))
    assert hp != he
    h.q("compare_diff", "What's the difference in hours between my product shoots and my event shoots?",
        num((hp - he) / 60, "h", either_sign=True))
    topc = unique_top(h.by(S, "client", len))
    h.q("top_group_measure", "For the client I've shot most often, how many hours have I spent on their shoots in total?",
        num(sum(r["minutes"] for r in h.sel(S, client=topc)) / 60, "h"))
    ke = sum(r["cents"] for r in h.month(X, "2026-02", vendor="Kamera Express"))
    assert ke > 0
    h.q("sum_month_subject", "How much did I spend at Kamera Express in February?", num(ke / 100, "EUR"))
    bx = h.before(X, "studio")
    top = max(r["cents"] for r in bx)
    assert sum(r["cents"] == top for r in bx) == 1
    h.q("max_before_event", "What was my biggest business expense before I started renting the studio?", num(top / 100, "EUR"))
    h.q("week_after_event", "How many shoots did I do in the week after I dropped the Sony?",
        num(h.week_after(S, "sony", len)))
    h.q("between_events", "Between the train strike and getting the studio, how many frames did I shoot?",
        num(sum(r["frames"] for r in h.between(S, "strike", "studio"))))
    h.q("last_before_event", "Who did I last shoot for before my sister's wedding?",
        text(h.last_before(S, "sister")["client"]))
    h.q("avg_month", "What was the average payment I received from a client in March?",
        num(avg(r["cents"] for r in h.month(I, "2026-03")) / 100, "EUR"))
    h.q("sum_month_subject", "How many frames have I put through the Sony in April?",
        num(sum(r["frames"] for r in h.month(S, "2026-04", body="Sony"))))
    hw = sum(r["minutes"] for r in h.sel(S, type="wedding"))
    hpo = sum(r["minutes"] for r in h.sel(S, type="portrait"))
    assert hw > hpo
    h.q("ratio", "How many times as many hours did I spend on weddings as on portrait sessions?", num(hw / hpo))
    h.q("count_month", "How many shoots did I do in February?", num(len(h.month(S, "2026-02"))))
    h.q("count_since_event", "How many product shoots have I done since my sister's wedding?",
        num(len(h.since(S, "sister", type="product"))))
    # unanswerable
    h.q("unans_measure", "What was my average ISO on the wedding shoots?", UNANSWERABLE)
    assert not h.sel(I, client="Hendriks")
    h.q("unans_value", "How much did the Hendriks wedding pay me?", UNANSWERABLE)
    h.q("unans_event", "How many shoots have I done since I hired an assistant?", UNANSWERABLE)
    h.q("unans_period", "What was my average time on location per shoot in January?", UNANSWERABLE)
    h.q("unans_subject", "What's the average number of frames per shoot on my Canon?", UNANSWERABLE)
    h.q("unans_measure", "How many kilometres did I drive to shoots in March?", UNANSWERABLE)
    h.q("unans_value", "How much did I pay for the drone?", UNANSWERABLE)
    return h


# ============================================================================= 3. aquarium

AQUA_CHAT = [
    lambda r: (f"A colleague has a {r.choice([450, 540, 600])} litre reef tank. His electricity bill must be insane.",
               "Reef tanks are power-hungry with all the lights and pumps."),
    lambda r: ("How often should I rinse the filter sponges?",
               "Every 4–6 weeks, in old tank water, never under the tap."),
    lambda r: (f"Aqua Gent had a pair of German blue rams for €{r.choice(['24.95', '29.95'])}. Didn't buy them, they'd never cope with my water.",
               "Good call — rams want soft, warm water."),
    lambda r: ("What should mbuna eat, really?",
               "Mostly vegetable-based flakes and pellets; too much protein causes bloat."),
    lambda r: ("Why does the nano keep getting brown dust on the glass?",
               "Diatoms — common in younger tanks or with silicates in the water. They usually fade."),
    lambda r: (f"Katrien says her goldfish is {r.randint(12, 17)} years old. In a bowl!",
               "A very tough goldfish."),
    lambda r: ("Is Ghent tap water OK for Caridina shrimp?",
               "It's fairly hard; Caridina keepers usually remineralise RO water instead."),
    lambda r: (f"Looked at a Juwel Vision 260 in the shop, €{r.choice([689, 729, 749])}. The living room says no.",
               "Maybe when you move."),
    lambda r: (f"Watched a video of someone keeping {r.randint(30, 80)} mbuna in one tank. Chaos.",
               "Crowding spreads aggression out — a classic Malawi trick."),
    lambda r: ("What temperature do cherry shrimp like?",
               "Anywhere from about 20 to 25 °C; they're hardy."),
    lambda r: ("How long can fish go without food if I'm away?",
               "Healthy adults can manage a week; a feeder or a neighbour is safer for longer."),
    lambda r: ("Do I use Seachem Prime at every water change?",
               "Yes — it removes chlorine and chloramine from the new water."),
    lambda r: (f"The neighbour's kid counted {r.randint(20, 35)} fish in the Rio. There are more, they hide.",
               "Tetras are champions of hide and seek."),
    lambda r: ("What plants survive cichlids?",
               "Anubias and java fern tied to rock — tough and not tasty."),
    lambda r: (f"Club night: someone brought a {r.choice([22, 25, 28])} cm pleco in a bucket.",
               "They get big!"),
    lambda r: ("How can I bring pH down a bit in the Rio without chemicals?",
               "Catappa leaves or driftwood — but a stable pH matters more than a perfect one."),
    lambda r: ("Can a betta live in the nano with the shrimp?",
               "Some bettas hunt shrimp, some ignore them; it's down to the individual."),
    lambda r: ("Is half a degree of swing overnight a problem?",
               "No, small swings like that are normal."),
    lambda r: ("Vacuumed the gravel in the Rio and found a hidden snail colony.",
               "Free clean-up crew."),
    lambda r: (f"Zooplus newsletter says {r.choice([15, 20, 25])}% off Tetra food this week.",
               "Stock up if you use it."),
    lambda r: ("How long do yellow labs live?",
               "Around 6 to 10 years with good care."),
    lambda r: ("The LED on the nano flickers. What do I check first?",
               "The power supply and the connectors."),
    lambda r: (f"Borrowed a book on Lake Malawi from the library, {r.randint(250, 400)} pages of rocks and fish.",
               "Sounds like perfect bedtime reading."),
    lambda r: ("Should I quarantine new fish?",
               "Ideally two to four weeks in a separate tank."),
    lambda r: (f"Shrimp census in the nano: I think about {r.randint(40, 70)} now. They breed like mad.",
               "A thriving colony!"),
    lambda r: ("The Malawi's filter is louder than usual, impeller?",
               "Likely — clean the impeller and its well, and check for a worn shaft."),
    lambda r: ("What's a reasonable number of fish for a 180 L community tank?",
               "It depends on adult sizes and filtration; start light and add slowly."),
    lambda r: (f"Electricity bill came, €{r.randint(95, 140)} for the month. The heaters don't help.",
               "Lids and insulation behind the tank help a bit."),
    lambda r: ("Tips for catching one specific fish out of a planted tank?",
               "Two nets — one to guide, one to catch — and patience. Or a bottle trap at night."),
    lambda r: ("How do I cycle a new tank quickly?", "Seed it with filter media from a healthy tank and dose a bacteria starter."),
    lambda r: ("Why do my cardinals go pale at night?", "That's normal — they fade at night as camouflage."),
    lambda r: (f"A colleague wants me to fish-sit his {r.choice([60, 90, 120])} litre tank in the summer.", "Easy job with a feeding plan."),
    lambda r: ("Best way to get rid of too many snails?", "A lettuce leaf as a trap overnight, and feed less."),
    lambda r: ("Is driftwood OK in the Malawi?", "It lowers pH a little; most Malawi keepers stick to rock."),
    lambda r: ("How do I get algae off the glass without scratching it?", "A magnetic cleaner or a plastic scraper."),
    lambda r: (f"Read that Lake Malawi has over {r.choice([500, 700, 850])} cichlid species.", "An incredible lake."),
    lambda r: ("Should I switch the tanks off in a thunderstorm?", "No need — just use a surge protector."),
    lambda r: ("How can I tell if a heater has died?",
               "Compare the thermometer with the set point; a light that never goes off is a warning too."),
    lambda r: ("What makes water cloudy right after a water change?",
               "Usually a bacterial bloom or stirred-up substrate; it clears in a day or two."),
    lambda r: (f"Saw a {r.choice(['1.5', '2', '2.5'])} metre tank at the club show in Gent. Dreamy.", "One day!"),
    lambda r: ("Can shrimp eat blanched spinach?", "Yes, a little at a time; take out leftovers after a few hours."),
    lambda r: ("How often should I replace the filter carbon?", "Every three to four weeks if you use it at all — many don't."),
    lambda r: ("Are there fish that eat hair algae?", "Siamese algae eaters and Amano shrimp help, but fixing the light and nutrients matters more."),
    lambda r: ("Quiet evening watching the Malawi. Better than TV.", "The best kind of TV."),
    lambda r: ("What's the gap between two feedings on a weekday?", "Once or twice a day, small portions they finish in a couple of minutes."),
]
mark_once(AQUA_CHAT, "A colleague has", "Aqua Gent had", "Katrien says", "Looked at a Juwel", "Watched a video", "The neighbour's kid",
          "Club night", "Borrowed a book", "Electricity bill", "A colleague wants", "Read that", "Saw a ")

TANKS = {"Malawi": dict(t=(250, 268), ph=(78, 83), no3=[10, 15, 20, 25, 30, 35, 40, 45]),
         "Rio": dict(t=(240, 254), ph=(68, 74), no3=[5, 10, 10, 15, 15, 20, 25, 30]),
         "Nano": dict(t=(225, 240), ph=(64, 70), no3=[0, 5, 5, 10, 10, 15])}
TANK_SAY = {"Malawi": "the Malawi", "Rio": "the Rio", "Nano": "the nano"}


def build_aquarium():
    h = History("aquarium", "wim.desmet", "Wim, a fishkeeper in Ghent with three tanks (Malawi, Rio, Nano)", seed=10)
    rng = h.rng
    ev = h.event
    ev("power", D("2026-02-22"), 16 * 60 + 20,
       "No electricity on the whole street from 6 this morning until almost 4 — the storm brought a line down. Heaters "
       "and filters off for ten hours. I wrapped the Malawi in duvets and ran an air pump off the car battery.",
       "Quick thinking. Keep an eye on them for a day or two.",
       "since the power cut / the week after the power cut / between the power cut and the ceiling")
    h.say(D("2026-02-24"), 20 * 60, "Everyone survived Sunday. Nobody even looks stressed. Fish are tougher than me.",
          "Glad to hear it!")
    ev("ceiling", D("2026-03-09"), 19 * 60 + 50,
       "Came home to water dripping through the ceiling onto the Rio's cabinet. The guy upstairs had a washing machine "
       "hose burst. Moved the plugs, put a bucket on the lid, the fish don't care.",
       "What a homecoming. Check the cabinet stays level as it dries.",
       "since the water came through the ceiling")
    h.say(D("2026-03-12"), 18 * 60 + 15, "Insurance man came to look at the ceiling. The Rio's cabinet is warped at the back.",
          "Might be worth a new stand before it gets worse.")
    ev("bruno", D("2026-04-02"), 8 * 60 + 10,
       "Found Bruno on the living room floor this morning, stiff. He must have jumped through the gap at the back of the "
       "Malawi lid overnight. Eight years I had him. Gutted.",
       "I'm so sorry. Eight years is a good long life for a cichlid.",
       "since Bruno died")
    h.say(D("2026-04-05"), 14 * 60, "Put a proper mesh lid on the Malawi. Too late for Bruno.",
          "It'll protect the others.")
    ev("lisbon", D("2026-04-16"), 6 * 60 + 40,
       "Taxi to Zaventem in ten minutes. Katrien next door has the key and five days of food in little labelled boxes. "
       "Lisbon, here I come!",
       "Have a great trip!",
       "before I left for Lisbon / while I was in Lisbon")
    ev("back", D("2026-04-21"), 22 * 60 + 5,
       "Home! Everyone alive, the nano a bit cloudy, and judging by the Malawi's bellies Katrien was generous.",
       "Welcome home — a water change tomorrow should sort the cloudiness.",
       "since I got back from Lisbon")
    E = {k: v[0] for k, v in h.events.items()}
    h.blocked |= {E["lisbon"] + timedelta(days=i) for i in range(1, 5)}
    h.quiet["test"] |= {E["power"] + timedelta(days=7), LAST3[0][0]}

    # ---- water tests
    def test_text(layout, day, tank, t, ph, no3):
        T, P = f"{t / 10:.1f}", f"{ph / 10:.1f}"
        if layout == "export":
            size = {"Malawi": "240 L", "Rio": "180 L", "Nano": "30 L"}[tank]
            return ("\n".join(["AquaLog — water test", f"Tank: {tank} ({size})",
                               f"Logged: {day:%d/%m/%Y} {rng.randint(18, 21)}:{rng.randint(10, 59)}",
                               f"Temperature (°C): {T}", f"pH: {P}", f"Nitrate NO3 (mg/L): {no3}"]),
                    rng.choice(["Logged.", "Saved the test."]))
        if layout == "pipe":
            return (f"{tank.lower()} | {T}{rng.choice(['C', '°C', ' °C'])} | pH {P} | NO3 {no3}{rng.choice(['ppm', ' mg/l'])}",
                    "Noted.")
        if layout == "json":
            return json.dumps({"tank": tank.lower(), "temp_c": t / 10, "ph": ph / 10, "nitrate_ppm": no3}), "Stored."
        if layout == "short":
            return f"{tank}: T {T} / pH {P} / NO3 {no3}", rng.choice(["👍", "Noted."])
        Tt = rng.choice([f"{T} degrees", f"{T}°C", f"{T.replace('.', ',')} °C"])
        nn = rng.choice([f"nitrate {no3}", f"nitrates at {no3} ppm", f"NO3 {no3} mg/l"])
        if layout == "late":
            return (f"Forgot to post yesterday's test on {TANK_SAY[tank]}: {Tt}, pH {P}, {nn}.", "Added to yesterday.")
        return (rng.choice([f"Tested {TANK_SAY[tank]} tonight: {Tt}, pH {P}, {nn}.",
                            f"{cap(TANK_SAY[tank])} today — {Tt}, pH {P}, {nn}. All fine."]),
                rng.choice(["Looks stable.", "Good numbers.", "Noted."]))

    for day in ALL_DAYS:
        after = (day - E["power"]).days
        if not h.free("test", day) or (rng.random() >= 0.5 and after not in (1, 2)):
            continue
        tanks = [pick(rng, [("Malawi", 40), ("Rio", 35), ("Nano", 25)]) if after != 2 else "Malawi"]
        if rng.random() < 0.13 and after != 1:
            tanks.append(rng.choice([t for t in TANKS if t != tanks[0]]))
        for tank in tanks:
            spec = TANKS[tank]
            t = rng.randint(*spec["t"])
            ph = rng.randint(*spec["ph"])
            no3 = rng.choice(spec["no3"])
            layout = pick(rng, [("export", 3), ("pipe", 2.5), ("json", 1.2), ("short", 2), ("prose", 3), ("late", 1.3)])
            told, hm = day, evening(rng)
            if layout == "late":
                if h.free("test", day + ONE):
                    told, hm = day + ONE, morning(rng)
                else:
                    layout = "prose"
            u, a = test_text(layout, day, tank, t, ph, no3)
            h.add("test", day, told, hm, layout, u, a, tank=tank, temp=t / 10, ph=ph / 10, no3=no3)

    # ---- water changes
    def change_text(layout, tank, lt):
        if layout == "buckets":
            return (f"{cap(word(int(lt) // 10))} 10-litre buckets out of {TANK_SAY[tank]} and fresh water back in.",
                    rng.choice(["Nice and fresh.", "Noted."]))
        if layout == "pipe":
            return f"WC | {tank} | {lt:g} {rng.choice(['l', 'L'])} | Prime added", "Logged."
        if layout == "export":
            return (f"AquaLog — maintenance\nTank: {tank}\nTask: Water change\nVolume (L): {lt:g}", "Saved.")
        s = litres(lt, rng.choice(["L", "litres", "words", "l"]))
        if layout == "late":
            return f"Forgot to note yesterday's water change: {s} on {TANK_SAY[tank]}.", "Added to yesterday."
        return (rng.choice([f"Did a water change on {TANK_SAY[tank]}, {s}.", f"Changed {s} on {TANK_SAY[tank]} this evening.",
                            f"{cap(TANK_SAY[tank])} got {s} of fresh water today."]),
                rng.choice(["The fish will thank you.", "Noted.", "Good routine."]))

    plans = []
    for tank, (lo, hi) in [("Malawi", (5, 8)), ("Rio", (6, 9)), ("Nano", (8, 13))]:
        day = START + timedelta(days=rng.randint(0, lo))
        while day <= END:
            while day <= END and not h.free("change", day):
                day += ONE
            if day > END:
                break
            plans.append((day, tank))
            day += timedelta(days=rng.randint(lo, hi))
    used = set()
    for day, tank in sorted(plans):
        if (day, tank) in used:
            continue
        used.add((day, tank))
        lt = float({"Malawi": rng.randrange(40, 81, 5), "Rio": rng.randrange(30, 61, 5), "Nano": rng.randint(3, 8)}[tank])
        opts = [("prose", 4), ("pipe", 2), ("export", 2), ("late", 1.2)]
        if lt % 10 == 0 and lt >= 20:
            opts.append(("buckets", 2))
        layout = pick(rng, opts)
        told, hm = day, evening(rng)
        if layout == "late":
            if h.free("change", day + ONE):
                told, hm = day + ONE, morning(rng)
            else:
                layout = "prose"
        u, a = change_text(layout, tank, lt)
        h.add("change", day, told, hm, layout, u, a, tank=tank, litres=lt)

    # ---- purchases
    SHOP = {
        "Aqua Gent": [("Cardinal tetra", 295, (6, 10)), ("Otocinclus", 350, (3, 5)), ("Amano shrimp", 250, (5, 10)),
                      ("Yellow lab", 895, (1, 3)), ("Java fern", 695, (1, 2)), ("Seachem Prime 250ml", 1495, (1, 1)),
                      ("Frozen bloodworm", 349, (2, 4))],
        "Zooplus": [("Tetra Pro Energy 500ml", 1999, (1, 1)), ("JBL ProScape test set", 3490, (1, 1)),
                    ("NLS Cichlid pellets", 2499, (1, 1)), ("Eheim filter sponges", 1199, (1, 2))],
        "De Vissenwinkel": [("Pseudotropheus demasoni", 1250, (2, 4)), ("Cherry shrimp", 175, (10, 20)),
                            ("Lace rock (per kg)", 350, (5, 12))],
        "Brico": [("Bucket 10L", 449, (1, 2)), ("Garden hose 5m", 899, (1, 1)), ("Microfibre cloths", 599, (1, 1))],
    }

    def buy_text(layout, day, shop, items, total):
        if layout == "receipt":
            lines = [shop.upper(), {"Aqua Gent": "Brusselsesteenweg 412, 9050 Gent", "De Vissenwinkel": "Langestraat 18, 8000 Brugge",
                                    "Brico": "Kortrijksesteenweg 1100, 9051 Gent"}[shop],
                     f"{day:%d/%m/%Y} {rng.randint(10, 17)}:{rng.randint(10, 59)}"]
            for it, c, q in items:
                lines.append(f"{q} x {it} à {eur(c, 'bare_comma')}   {eur(c * q, 'bare_comma')}" if q > 1
                             else f"{it}   {eur(c, 'bare_comma')}")
            lines += [f"TOTAAL EUR {eur(total, 'bare_comma')}", f"Bancontact {eur(total, 'bare_comma')}"]
            return "Bonnetje:\n" + "\n".join(lines), "Receipt saved."
        if layout == "email":
            lines = [f"Fwd: Your zooplus order {rng.randint(10**9, 10**10)} has been dispatched", "zooplus.be", ""]
            lines += [f"{q}x {it}  {eur(c * q, 'sym')}" for it, c, q in items]
            lines += [f"Order total: {eur(total, 'sym')}"]
            return "\n".join(lines), "Order logged."
        if layout == "pipe":
            what = " + ".join((f"{q}x " if q > 1 else "") + it for it, _, q in items)
            return f"aq | {shop} | {what} | {eur(total, rng.choice(['code', 'sym']))}", "Noted."
        if len(items) == 1 and items[0][2] > 1 and "kg" not in items[0][0] and rng.random() < 0.7:
            it, c, q = items[0]
            return (f"Picked up {q} {it.lower()} at {shop}, {eur(c, rng.choice(['sym', 'euro']))} each.",
                    rng.choice(["Nice additions!", "Noted."]))
        what = ", ".join((f"{q}x " if q > 1 else "") + it for it, _, q in items)
        return (rng.choice([f"Spent {eur(total, rng.choice(['sym', 'after', 'euro']))} at {shop}: {what}.",
                            f"{shop} run: {what}, {eur(total, rng.choice(['sym', 'after']))} in total."]),
                rng.choice(["Noted.", "The hobby tax!"]))

    for day in ALL_DAYS:
        if not h.free("purchase", day) or rng.random() >= 0.25:
            continue
        shop = pick(rng, [("Aqua Gent", 45), ("Zooplus", 25), ("De Vissenwinkel", 20), ("Brico", 10)])
        k = rng.choice([1, 1, 2])
        items = [(it, c, rng.randint(*qr)) for it, c, qr in rng.sample(SHOP[shop], k)]
        total = sum(c * q for _, c, q in items)
        layout = pick(rng, [("email", 4 if shop == "Zooplus" else 0), ("receipt", 3 if shop != "Zooplus" else 0),
                            ("pipe", 2), ("prose", 3)])
        u, a = buy_text(layout, day, shop, items, total)
        h.add("purchase", day, day, daytime(rng), layout, u, a, shop=shop, cents=total,
              items=[it for it, _, _ in items])

    h.fill_chat(AQUA_CHAT, rng.randint(152, 166))

    # ---- questions
    T, C, P = "test", "change", "purchase"
    h.q("avg_month", "What was the average temperature in the Malawi tank during March?",
        num(avg(r["temp"] for r in h.month(T, "2026-03", tank="Malawi")), "°C"))
    h.q("max_since_event", "What's the highest nitrate reading I've had on the Rio since the water came through the ceiling?",
        num(max(r["no3"] for r in h.since(T, "ceiling", tank="Rio")), "mg/L"))
    h.q("sum_month", "How many litres of water did I change on the Malawi in February?",
        num(sum(r["litres"] for r in h.month(C, "2026-02", tank="Malawi")), "L"))
    h.q("sum_since_event", "Since Bruno died, how many litres have I changed across all the tanks?",
        num(sum(r["litres"] for r in h.since(C, "bruno")), "L"))
    h.q("group_top", "Which tank has had the most water changed, in litres?",
        group(unique_top(h.by(C, "tank", lambda rs: sum(r["litres"] for r in rs)))))
    h.q("avg_subject", "What's the average pH of the nano?", num(avg(r["ph"] for r in h.sel(T, tank="Nano"))))
    h.q("first_after_event", "After the power cut, which tank did I test first?", text(h.first_after(T, "power")["tank"]))
    h.q("last_before_event", "What was the last nitrate reading on the Malawi before I left for Lisbon?",
        num(h.last_before(T, "lisbon", tank="Malawi")["no3"], "mg/L"))
    fr, mr = (sum(r["litres"] for r in h.month(C, m, tank="Rio")) for m in ("2026-02", "2026-03"))
    assert fr != mr
    h.q("compare_yes_no", "Did I change more water on the Rio in March than in February?", yes_no(mr > fr))
    h.q("sum_month", "How much did I spend on fish stuff in March?",
        num(sum(r["cents"] for r in h.month(P, "2026-03")) / 100, "EUR"))
    h.q("group_top", "Which shop got most of my money?",
        group(unique_top(h.by(P, "shop", lambda rs: sum(r["cents"] for r in rs)))))
    allT = h.sel(T)
    h.q("share", "What percentage of my water tests were on the nano?",
        num(100 * sum(r["tank"] == "Nano" for r in allT) / len(allT), "%"))
    h.q("week_top", "Which week did I change the most water? Monday's date please.",
        week(h.by_week(C, lambda rs: sum(r["litres"] for r in rs))))
    h.q("month_top", "Which month did I spend the most on the aquarium hobby?",
        month(unique_top(h.by(P, lambda r: r["date"].strftime("%Y-%m"), lambda rs: sum(r["cents"] for r in rs)))))
    h.q("last_n_weeks", "How many water tests have I done in the last three weeks?", num(h.last3(T, len)), qt=QT_MON)
    am = avg(r["temp"] for r in h.month(T, "2026-04", tank="Malawi"))
    ar = avg(r["temp"] for r in h.month(T, "2026-04", tank="Rio"))
    assert am > ar
    h.q("compare_diff", "In April, how much warmer was the Malawi than the Rio on average?", num(am - ar, "°C"))
    h.q("count_since_event", "Since I got back from Lisbon, how many water changes have I done on the Malawi?",
        num(len(h.since(C, "back", tank="Malawi"))))
    h.q("between_events", "How many times did I test the Rio between the power cut and the ceiling drama?",
        num(len(h.between(T, "power", "ceiling", tank="Rio"))))
    h.q("week_after_event", "What was the Malawi's average temperature in the week after the power cut?",
        num(h.week_after(T, "power", lambda rs: avg(r["temp"] for r in rs), tank="Malawi"), "°C"))
    f3, m3 = (avg(r["no3"] for r in h.month(T, m, tank="Rio")) for m in ("2026-02", "2026-03"))
    h.q("percent_change", "How much did the Rio's average nitrate change from February to March, in percent?",
        num(100 * (m3 - f3) / f3, "%"))
    topt = unique_top(h.by(T, "tank", len))
    h.q("top_group_measure", "For the tank I test most often, what's the average nitrate?",
        num(avg(r["no3"] for r in h.sel(T, tank=topt)), "mg/L"))
    h.q("min_subject", "What was the lowest pH I measured on the Malawi?",
        num(min(r["ph"] for r in h.sel(T, tank="Malawi"))))
    h.q("count_subject", "How many times did I order from Zooplus?", num(len(h.sel(P, shop="Zooplus"))))
    # unanswerable
    h.q("unans_measure", "What was the ammonia level in the Malawi in March?", UNANSWERABLE)
    h.q("unans_subject", "What's the average temperature of my discus tank?", UNANSWERABLE)
    assert not h.sel(T, E["lisbon"], E["back"])
    h.q("unans_period", "What was the Rio's average temperature while I was in Lisbon?", UNANSWERABLE)
    h.q("unans_event", "Since I switched the nano over to RO water, how many water changes have I done on it?", UNANSWERABLE)
    h.q("unans_value", "What was the most expensive thing I bought at Aqua Hasselt?", UNANSWERABLE)
    h.q("unans_measure", "What was the GH of the nano last month?", UNANSWERABLE)
    h.q("unans_period", "What was the average nitrate on the Malawi in January?", UNANSWERABLE)
    return h


# ============================================================================= main

def main():
    built = [build_angler(), build_studio(), build_aquarium()]
    everything = []
    for h in built:
        st = h.check()
        (HERE / f"history_{h.name}.json").write_text(
            json.dumps(h.to_json(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        lines = [json.dumps(q, ensure_ascii=False) for q in h.questions]
        (HERE / f"questions_{h.name}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        everything += lines
        layouts = {k: sorted(v) for k, v in h.layouts.items()}
        print(f"{h.name:<9} user={h.user_id:<16} sessions={st['sessions']:<3} rounds={st['rounds']:<3} "
              f"records={st['records']} late={st['late']} questions={st['questions']} "
              f"unanswerable={st['unanswerable']} layouts={layouts}")
    (HERE / "questions.jsonl").write_text("\n".join(everything) + "\n", encoding="utf-8")
    print(f"{len(everything)} questions in questions.jsonl")


if __name__ == "__main__":
    main()
