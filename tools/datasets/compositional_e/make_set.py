#!/usr/bin/env python3
"""Compositional set E: four histories and their questions, with gold computed from the records.

Standard library only, seeded and deterministic: running it twice writes byte-identical files.

    python3 tools/datasets/compositional_e/make_set.py [--out DIR]

Every gold value is computed here from the records this script wrote (no hand-typed numbers);
the script asserts that each question is well defined (non-empty selections, unique top groups,
unique lookups, no records on ambiguous boundary days) and that every unanswerable question really
has no data in the history (the event, measure, value, name or period never appears).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ONE = dt.timedelta(days=1)


def D(s: str) -> dt.date:
    return dt.date.fromisoformat(s)


def monday(day: dt.date) -> dt.date:
    return day - day.weekday() * ONE


def month_bounds(year: int, month: int) -> tuple[dt.date, dt.date]:
    first = dt.date(year, month, 1)
    nxt = dt.date(year + (month == 12), month % 12 + 1, 1)
    return first, nxt - ONE


def num(x: float, decimals: int = 1) -> str:
    """A value as people write it: no trailing zeros beyond what the decimals need."""
    s = f"{x:.{decimals}f}"
    return s


def clean(x: float) -> float:
    """Round away float noise from sums of decimal values (gold keeps 10 decimals)."""
    return round(x, 10)


# ---------------------------------------------------------------------------
# history building
# ---------------------------------------------------------------------------


class History:
    def __init__(self, name, user_id, start, ndays, seed, question_time, acks, fillers):
        self.name = name
        self.user_id = user_id
        self.start = D(start)
        self.ndays = ndays
        self.end = self.start + (ndays - 1) * ONE
        self.rng = random.Random(seed)
        self.seed = seed
        self.qt = dt.datetime.fromisoformat(question_time)
        self.acks = acks
        self.fillers = list(fillers)
        self._filler_queue: list = []
        self.items = defaultdict(list)  # date -> items
        self.records: list[dict] = []  # filled by finish()
        self.tellings: list[dict] = []  # event tellings, filled by finish()
        self.event_days: dict[str, dt.date] = {}  # planned start days, checked against the tellings
        self.sessions: list[dict] = []
        self.all_text = ""
        self.questions: list[dict] = []

    def dates(self):
        return [self.start + i * ONE for i in range(self.ndays)]

    # -- items ---------------------------------------------------------------
    def record(self, date, kind, hhmm, values, text, keep=False):
        self.items[date].append({"type": "record", "kind": kind, "date": date, "hhmm": hhmm,
                                 "v": values, "user": text, "keep": keep})

    def tell(self, key, role, date, hhmm, text, reply, forbid=()):
        """An event telling: role 'start' (the day it starts), 'pre', 'mention', 'end'."""
        low = text.lower()
        for w in forbid:
            assert w.lower() not in low, (self.name, key, w)
        if role == "start":
            self.event_days[key] = date
        self.items[date].append({"type": "event", "key": key, "role": role, "date": date,
                                 "hhmm": hhmm, "user": text, "assistant": reply})

    def next_filler(self):
        if not self._filler_queue:
            self._filler_queue = list(self.fillers)
            self.rng.shuffle(self._filler_queue)
        return self._filler_queue.pop()

    # -- rounds --------------------------------------------------------------
    def finish(self):
        R = self.rng
        for n, date in enumerate(self.dates(), 1):
            items = self.items.get(date, [])
            while len(items) > 5:
                optional = [it for it in items if it["type"] == "record" and not it["keep"]]
                assert optional, (self.name, date, "too many fixed items")
                items.remove(optional[-1])
            target = max(len(items), R.randint(2, 5))
            taken = {it["hhmm"] for it in items}
            while len(items) < target:
                hhmm = (R.randint(7, 21), R.choice(range(0, 60, 1)))
                if hhmm in taken:
                    continue
                taken.add(hhmm)
                user, reply = self.next_filler()
                items.append({"type": "chat", "date": date, "hhmm": hhmm, "user": user, "assistant": reply})
            items = sorted(enumerate(items), key=lambda p: (p[1]["hhmm"], p[0]))
            items = [it for _, it in items]
            rounds = []
            last = None
            for k, it in enumerate(items, 1):
                h, m = it["hhmm"]
                minute = h * 60 + m
                if last is not None and minute <= last:
                    minute = last + 1
                last = minute
                h, m = divmod(minute, 60)
                assert h < 24
                rid = f"S{n}:{k}"
                it["round"] = rid
                it["time"] = dt.datetime(date.year, date.month, date.day, h, m)
                if it["type"] == "record":
                    it["assistant"] = R.choice(self.acks)
                    self.records.append(it)
                elif it["type"] == "event":
                    self.tellings.append(it)
                rounds.append({"round_id": rid, "time": it["time"].isoformat(),
                               "user": it["user"], "assistant": it["assistant"]})
            self.sessions.append({"session_id": f"S{n}", "date": date.isoformat(), "rounds": rounds})
        self.all_text = "\n".join(r["user"] + "\n" + r["assistant"] for s in self.sessions for r in s["rounds"]).lower()
        for key, day in self.event_days.items():
            starts = [t for t in self.tellings if t["key"] == key and t["role"] == "start"]
            assert len(starts) == 1 and starts[0]["date"] == day, (self.name, key)

    def doc(self):
        return {"user_id": self.user_id, "sessions": self.sessions}

    # -- event days, from the rounds that tell them ------------------------------
    def ev(self, key, role="start"):
        ts = [t for t in self.tellings if t["key"] == key and t["role"] == role]
        assert len(ts) == 1, (self.name, key, role)
        return ts[0]["date"]

    def ev_round(self, key, role="start"):
        return [t["round"] for t in self.tellings if t["key"] == key and t["role"] == role]

    # -- queries ---------------------------------------------------------------
    def sel(self, kind, lo=None, hi=None, where=None, **eq):
        out = []
        for r in self.records:
            if r["kind"] != kind:
                continue
            if lo is not None and r["date"] < lo:
                continue
            if hi is not None and r["date"] > hi:
                continue
            if any(r["v"].get(k) != v for k, v in eq.items()):
                continue
            if where is not None and not where(r):
                continue
            out.append(r)
        return out

    def on(self, kind, day):
        return self.sel(kind, day, day)

    def last_n_days(self, n):
        """The N days ending on question_time's date (the README's 'past/last N days')."""
        today = self.qt.date()
        return today - (n - 1) * ONE, today

    def since(self, day):
        return day, self.qt.date()

    def absent(self, *words):
        for w in words:
            assert w.lower() not in self.all_text, (self.name, "should be absent", w)

    def no_value(self, kind, column, value):
        assert all(str(r["v"].get(column, "")).lower() != value.lower() for r in self.records if r["kind"] == kind)
        self.absent(value)

    # -- questions -------------------------------------------------------------
    def q(self, question, family, type_, gold, evidence=(), answer=None, question_time=None):
        n = len(self.questions) + 1
        qt = question_time or self.qt
        if answer is None:
            answer = describe(gold)
        self.questions.append({
            "question_id": f"ce-{self.name}-{n:02d}",
            "history": self.name,
            "question": question,
            "answer": answer,
            "type": type_,
            "family": family,
            "question_time": qt.isoformat(),
            "evidence": sorted(set(evidence), key=round_key),
            "gold": gold,
        })


def round_key(rid):
    s, k = rid[1:].split(":")
    return int(s), int(k)


def describe(gold):
    if gold.get("unanswerable"):
        return "Cannot be answered from the history: " + gold["why"]
    if "yes_no" in gold:
        return "yes" if gold["yes_no"] else "no"
    if "group" in gold:
        return gold["group"]
    if "text" in gold:
        return gold["text"]
    if "period" in gold:
        if gold["bucket"] == "week":
            return f"the week starting Monday {gold['period']}"
        return gold["period"]
    v = gold["value"]
    s = str(v) if isinstance(v, int) else f"{v:.4f}".rstrip("0").rstrip(".")
    unit = gold.get("unit")
    out = f"{s} {unit}" if unit and unit != "%" else (f"{s}%" if unit == "%" else s)
    if gold.get("either_sign"):
        out += " (either sign)"
    return out


# gold helpers ---------------------------------------------------------------

def values(recs, col):
    return [r["v"][col] for r in recs]


def g_value(x, unit, **extra):
    if isinstance(x, float):
        x = clean(x)
    out = {"value": x, "unit": unit}
    out.update(extra)
    return out


def need(recs, n=1):
    assert len(recs) >= n, "a question's selection is empty"
    return recs


def avg(recs, col):
    need(recs)
    return sum(values(recs, col)) / len(recs)


def total(recs, col):
    need(recs)
    return clean(sum(values(recs, col)))


def rounds(recs):
    return [r["round"] for r in recs]


def top_group(recs, key, score, reverse=True):
    """Groups of recs by key(r), scored by score(list); returns (best group, its recs), asserting a unique best."""
    groups = defaultdict(list)
    for r in recs:
        groups[key(r)].append(r)
    scored = sorted(((score(rs), g) for g, rs in groups.items()), reverse=reverse)
    assert len(scored) >= 2 and scored[0][0] != scored[1][0], ("tie for the top group", scored[:3])
    assert abs(scored[0][0] - scored[1][0]) > 1e-9
    best = scored[0][1]
    return best, groups[best]


def pct_change(old, new):
    return (new - old) / old * 100.0


def unans(why):
    return {"unanswerable": True, "why": why}


def render(R, lead, fields, forms=("dash", "pipe", "lines", "eq")):
    """One record in one of the surface forms people and apps use."""
    form = R.choice(forms)
    if form == "dash":
        return f"{lead} - " + ", ".join(f"{k}: {v}" for k, v in fields)
    if form == "pipe":
        return f"{lead} | " + " | ".join(f"{k}: {v}" for k, v in fields)
    if form == "lines":
        return lead + "\n" + "\n".join(f"{k}: {v}" for k, v in fields)
    if form == "eq":
        return lead + "\n" + ", ".join(f"{k.lower()} = {v}" for k, v in fields)
    raise ValueError(form)


def hm(h, m=0):
    return (h, m)


GENERIC_FILLERS = [
    ("Any idea what to cook tonight? I've got leeks, potatoes and half a block of cheddar.",
     "Leek and potato gratin would use all three: slice thin, layer with the cheese and bake until golden."),
    ("The washing machine is making a grinding noise on spin again.",
     "That is often a coin or hair clip caught in the drum paddles or the pump filter. Worth checking the filter first."),
    ("Remind me what the difference between baking soda and baking powder is?",
     "Baking soda is pure bicarbonate and needs an acid; baking powder already contains the acid."),
    ("Can you suggest a podcast for a long drive?",
     "For a long drive a narrative series works well, something history-based or a true-crime season."),
    ("My neighbour gave us a huge bag of apples, what can I do with them?",
     "Apple crumble, chutney, or stewed apples to freeze in portions."),
    ("What's a good gift for a friend who just moved flats?",
     "A nice plant, a good bread board, or a voucher for a local restaurant so they can take a break from unpacking."),
    ("I keep forgetting to call the dentist back.",
     "Set a reminder for tomorrow morning right after breakfast, it's usually the easiest time to get through."),
    ("How long should I boil an egg for a runny yolk?",
     "About six minutes from boiling for a large egg, then straight into cold water."),
    ("The car's due for its service, any tips for not getting upsold?",
     "Ask for the quote in writing first and say no to anything not on the manufacturer's schedule unless they can show you."),
    ("Watched a great documentary about octopuses last night.",
     "They're remarkable animals, each arm can taste and act semi-independently."),
    ("Is it worth descaling the kettle with vinegar?",
     "Yes, half water and half vinegar, boil, leave for an hour, then rinse well and boil fresh water once."),
    ("My phone battery is dying by mid-afternoon these days.",
     "Check which apps use the most battery in settings; background location is a frequent culprit."),
    ("Any ideas for a rainy Sunday afternoon?",
     "A board game, a baking project, or finally sorting the photo backlog with a film on."),
    ("How do I get candle wax off a tablecloth?",
     "Let it harden, scrape off what you can, then iron it between sheets of kitchen paper."),
    ("The printer says it's offline even though it's right next to the router.",
     "Try turning both off and on, then re-adding the printer; printers often lose their address after a router restart."),
    ("What goes well with roast squash?",
     "Sage, feta, toasted seeds, or a spoon of yoghurt with chilli."),
    ("Ordered new curtains for the bedroom finally.",
     "That should make a difference to the light in the mornings."),
    ("Do you know a good stretch for a stiff neck?",
     "Slow chin tucks and gently tilting the ear to the shoulder, holding each for half a minute, help most people."),
    ("Our internet dropped out twice during dinner.",
     "If it keeps happening, the provider's status page or a router log can show whether it's the line or the box."),
    ("What's the name of that dish with chickpeas and spinach?",
     "You might mean chana saag, or the Spanish espinacas con garbanzos."),
    ("Finished that crime novel everyone was talking about, the ending was so silly.",
     "A disappointing ending after a good build-up is the worst."),
    ("Should I repot a plant that's got roots coming out the bottom?",
     "Yes, move it to a pot one size up in spring or summer."),
    ("The kitchen tap is dripping again.",
     "Usually a worn washer or cartridge; turning off the isolation valve under the sink lets you swap it."),
    ("Is there a trick to folding fitted sheets?",
     "Tuck the corners into each other to make a rectangle, then fold it like a normal sheet."),
    ("Can you recommend a film for tonight? Something light.",
     "A light comedy or an animated film is a safe bet for a relaxed evening."),
    ("My mum's birthday is coming up and I have no ideas.",
     "An experience together, like lunch out or a concert, often means more than a thing."),
    ("How do I get rid of fruit flies in the kitchen?",
     "A small dish of cider vinegar with a drop of washing-up liquid traps them; take the fruit bowl out for a few days."),
    ("The bins didn't get collected again.",
     "Reporting a missed collection on the council website usually gets a pick-up within a couple of days."),
    ("What's a quick lunch I can make with eggs and spinach?",
     "A spinach omelette or shakshuka-style eggs in a pan with a tin of tomatoes."),
    ("Ran out of milk, had black tea for once. Not bad actually.",
     "Some teas are nicer without milk anyway."),
    ("Spent the evening sorting old photos.",
     "A satisfying job once it's done."),
    ("Do you know how to unblock a shower drain without chemicals?",
     "Pull out the hair with a drain snake, then pour boiling water with baking soda and vinegar."),
    ("My friend Lena is getting married in the autumn!",
     "Lovely news. Time to start thinking about an outfit."),
    ("The radio said it'll be windy this weekend.",
     "Worth tying down anything loose outside."),
    ("Tried a new bakery on the corner, their sourdough is excellent.",
     "A good bakery nearby is dangerous in the best way."),
    ("How long do cooked rice leftovers keep?",
     "Cool it quickly and keep it in the fridge for no more than a day."),
    ("I should really back up my laptop.",
     "An external drive plus one cloud copy covers most risks."),
    ("Lost my keys for twenty minutes, they were in the fridge.",
     "It happens to everyone at least once."),
    ("Any good word games to play with friends?",
     "Codenames and Just One are both great with a group."),
    ("The neighbours' kid is learning the trumpet.",
     "Everyone starts somewhere."),
]


# ---------------------------------------------------------------------------
# history 1: Biscuit the dog (walks, meals, weigh-ins), told by his owner
# ---------------------------------------------------------------------------

def build_biscuit():
    fillers = GENERIC_FILLERS + [
        ("Biscuit stole a whole sock from the laundry basket and paraded it round the garden.",
         "A proud thief. Hopefully it came back in one piece."),
        ("Any tips for getting a dog to stop pulling on the lead?",
         "Stop walking the moment the lead goes tight and only move on when it's slack; treats for walking at your side."),
        ("Biscuit met a cat at the gate and pretended not to see it.",
         "A very diplomatic dog."),
        ("Is it normal for a spaniel to snore this loudly?",
         "Quite normal for many dogs, especially on their backs; only worth a vet's look if it comes with breathing trouble in the day."),
        ("Booked Biscuit in at the groomer for next month.",
         "He'll come back smelling of shampoo and very offended."),
        ("Biscuit barked at his own reflection in the oven door again.",
         "He clearly doesn't trust that other dog."),
        ("Which dog shampoo is gentle enough for sensitive skin?",
         "An oatmeal-based, fragrance-free shampoo is a safe choice; rinse very thoroughly."),
        ("The postman now brings Biscuit a biscuit every morning.",
         "That explains why he waits at the door at nine."),
        ("Biscuit chewed the corner of the new doormat.",
         "A chew toy by the door might redirect him."),
        ("How often should I clean his ears?",
         "For a spaniel, a gentle check and wipe once a week is usually enough, more after swimming."),
        ("Biscuit learned to ring the bell on the back door to go out!",
         "Clever boy. Now he'll ring it every time he hears a bird."),
        ("Got Biscuit a new squeaky hedgehog, the old one lost its squeak.",
         "Squeak-ectomy complete, then."),
        ("Biscuit spent the afternoon asleep in a patch of sun on the landing.",
         "Sounds like a perfect afternoon for him."),
        ("Do dogs get bored of the same route?",
         "They enjoy new smells, so varying the route now and then is good enrichment."),
    ]
    acks = ["Logged for Biscuit.", "Got it, saved.", "Noted, good boy Biscuit.", "Added to his log.", "Saved.", "Thanks, logged."]
    h = History("biscuit", "dana", "2026-03-02", 91, seed=51017, question_time="2026-06-01T08:30:00",
                acks=acks, fillers=fillers)
    R = h.rng

    PAW = D("2026-03-19")
    SIS_PRE, SIS_IN, SIS_OUT = D("2026-03-30"), D("2026-04-03"), D("2026-04-10")
    WORKS = D("2026-04-14")
    SCALE = D("2026-05-01")
    HEAT, HEAT_END = D("2026-05-18"), D("2026-05-27")
    LOOKUP = D("2026-04-23")

    # events, told in prose -----------------------------------------------------
    h.tell("paw", "start", PAW, hm(16, 40),
           "Biscuit caught his front paw on the wire by the compost bins, blood everywhere. The vet glued it and he's "
           "in the cone of shame tonight, so no walk today.",
           "Poor Biscuit. Keep the cone on so he can't lick the glue off, and let him rest.",
           forbid=("cut his paw", "hurt his paw", "injur"))
    h.tell("paw", "mention", D("2026-03-26"), hm(12, 10),
           "Vet check on the paw this morning, healing nicely. Longer walks allowed again from next week.",
           "Good news, he'll be thrilled.")
    h.tell("paw", "mention", D("2026-04-02"), hm(19, 50),
           "Ever since he hurt his paw he gives the compost bins a very wide berth.",
           "Dogs remember where things went wrong.")
    h.tell("sister", "pre", SIS_PRE, hm(10, 5),
           "My sister Jo is coming on Friday with the twins for the Easter week, I need to make up the spare room.",
           "That will be a lively week. Biscuit will love the extra attention.")
    h.tell("sister", "start", SIS_IN, hm(14, 10),
           "Jo and the twins got here after lunch, the house is chaos already and Biscuit is in heaven.",
           "Enjoy the chaos!", forbid=("sister", "staying"))
    h.tell("sister", "mention", D("2026-04-06"), hm(20, 30),
           "The twins want to take Biscuit out every hour, he's exhausted.",
           "He'll sleep well tonight.")
    h.tell("sister", "end", SIS_OUT, hm(9, 15),
           "Waved Jo and the twins off at the station this morning. Biscuit keeps checking the spare room.",
           "He'll miss them. The house will feel very quiet.")
    h.tell("sister", "mention", D("2026-04-12"), hm(17, 45),
           "Biscuit's been moping since my sister left, he lies by the spare room door.",
           "Give him a few days, he'll perk up.")
    h.tell("works", "start", WORKS, hm(8, 5),
           "Jackhammers next door from seven this morning, the Hendersons are gutting their whole ground floor. "
           "Biscuit barked himself hoarse.",
           "That sounds stressful for him. Some background music can help mask the noise.",
           forbid=("building works", "building", "works"))
    h.tell("works", "mention", D("2026-04-22"), hm(13, 20),
           "These building works next door are driving Biscuit and me mad.",
           "Hopefully the noisiest part is over soon.")
    h.tell("works", "mention", D("2026-05-06"), hm(9, 40),
           "A skip lorry for the building works blocked our drive for an hour this morning.",
           "Annoying. Maybe ask the builders for a heads-up next time.")
    h.tell("scale", "start", SCALE, hm(9, 30),
           "The bathroom scale finally died, so no more Sunday weigh-ins for Biscuit until I get a new one.",
           "The vet can weigh him at his next visit in the meantime.")
    h.tell("heat", "start", HEAT, hm(12, 30),
           "Thirty-one degrees by eleven o'clock. Biscuit flopped onto the kitchen tiles and refused to budge.",
           "Keep water down for him and skip the midday walk; early mornings and late evenings are safest.",
           forbid=("heatwave", "heat wave", "heat"))
    h.tell("heat", "mention", D("2026-05-21"), hm(20, 15),
           "Day four of the heatwave, we only go out at dawn now.",
           "Sensible, pavements get hot enough to burn paws.")
    h.tell("heat", "end", HEAT_END, hm(7, 50),
           "The heatwave finally broke overnight, proper rain this morning and Biscuit is sniffing everything.",
           "He'll be glad of the cooler air.")

    places = {"Millbrook Park": (0.38, 2.0, 4.6), "Castle Green": (0.25, 1.5, 3.4),
              "Beech Wood": (0.23, 3.4, 6.4), "Harbour Beach": (0.14, 4.0, 7.6)}
    names = list(places)
    weights = [places[p][0] for p in names]
    walk_leads = ["Biscuit's walk", "Walk log", "Walk with Biscuit", "Biscuit walk"]
    meal_leads = {"breakfast": ["Biscuit breakfast", "Biscuit's breakfast"], "dinner": ["Biscuit dinner", "Biscuit's dinner"]}
    dog_weight = 14.6

    def walk(day, hhmm, place=None, keep=False):
        place = place or R.choices(names, weights)[0]
        _, lo, hi = places[place]
        dist = R.uniform(lo, hi)
        if PAW < day <= PAW + 9 * ONE:
            dist *= 0.55
        if HEAT <= day < HEAT_END:
            dist *= 0.7
        dist = round(max(dist, 0.8), 1)
        mins = int(round(dist * R.uniform(11.5, 15.5)))
        text = render(R, R.choice(walk_leads), [("Distance", f"{num(dist)} km"), ("Duration", f"{mins} min"), ("Place", place)])
        h.record(day, "walk", hhmm, {"distance": dist, "duration": mins, "place": place}, text, keep)

    def meal(day, which, hhmm, keep=False):
        if PAW <= day <= PAW + 14 * ONE:
            food = R.choices(["salmon kibble", "chicken and rice", "wet food"], [0.3, 0.6, 0.1])[0]
        else:
            food = R.choices(["salmon kibble", "chicken and rice", "wet food"], [0.62, 0.2, 0.18])[0]
        amount = {"salmon kibble": R.randrange(150, 195, 5), "chicken and rice": R.randrange(200, 265, 5),
                  "wet food": R.choice([200, 300, 400])}[food]
        text = render(R, R.choice(meal_leads[which]), [("Food", food), ("Amount", f"{amount} g")],
                      forms=("dash", "pipe", "lines"))
        h.record(day, "meal", hhmm, {"food": food, "amount": amount}, text, keep)

    for day in h.dates():
        # walks
        if day in (PAW, SIS_OUT):
            n_walks = 0
        elif day in (LOOKUP, SIS_IN, HEAT):
            n_walks = 1
        else:
            n_walks = 2 if R.random() < 0.3 else (1 if R.random() < 0.93 else 0)
        if n_walks:
            if day == SIS_IN:
                walk(day, hm(18, R.randint(0, 40)), keep=True)
            elif day == HEAT:
                walk(day, hm(20, R.randint(30, 50)), keep=True)
            elif day == LOOKUP:
                walk(day, hm(7, R.randint(0, 40)), place="Beech Wood", keep=True)
            elif HEAT < day < HEAT_END:
                walk(day, hm(5, R.randint(40, 59)))
            else:
                walk(day, hm(7, R.randint(0, 45)))
        if n_walks == 2:
            walk(day, hm(18, R.randint(0, 50)))
        # meals
        both = day == HEAT
        if both or R.random() < 0.5:
            meal(day, "breakfast", hm(7, R.randint(46, 59)), keep=both)
        if both or R.random() < 0.72:
            meal(day, "dinner", hm(17, R.randint(30, 59)), keep=both)
        # Sunday weigh-ins until the scale dies
        if day.weekday() == 6 and D("2026-03-08") <= day < SCALE:
            dog_weight = round(dog_weight + R.uniform(-0.25, 0.15), 1)
            cond = R.choice(["4/9", "5/9", "5/9"])
            text = render(R, R.choice(["Biscuit weigh-in", "Weigh-in"]), [("Weight", f"{num(dog_weight)} kg"), ("Body condition", cond)],
                          forms=("dash", "pipe", "lines"))
            h.record(day, "weigh-in", hm(9, R.randint(0, 20)), {"weight": dog_weight, "condition": cond}, text, keep=True)

    h.finish()

    # -- questions -----------------------------------------------------------------
    paw, sis_in, sis_out = h.ev("paw"), h.ev("sister"), h.ev("sister", "end")
    works, heat = h.ev("works"), h.ev("heat")
    today = h.qt.date()
    mar, apr, may = month_bounds(2026, 3), month_bounds(2026, 4), month_bounds(2026, 5)
    assert not h.on("walk", sis_out) and not h.on("walk", paw) and not h.on("weigh-in", works)
    assert all(r["time"] > h.tellings[[t["round"] for t in h.tellings].index(h.ev_round("sister")[0])]["time"]
               for r in h.on("walk", sis_in))

    rs = h.sel("walk", *may)
    h.q("What was the average distance of Biscuit's walks in May?", "aggregate", "avg",
        g_value(avg(rs, "distance"), "km"), rounds(rs))
    rs = h.sel("walk", *apr, place="Castle Green")
    h.q("total km Biscuit did at Castle Green across April?", "aggregate", "sum",
        g_value(total(rs, "distance"), "km"), rounds(rs))
    rs = h.sel("walk", *h.since(D("2026-04-01")), where=lambda r: r["v"]["distance"] > 5)
    h.q("How many of Biscuit's walks since the start of April were longer than 5 km?", "aggregate", "count",
        g_value(len(need(rs)), None), rounds(rs))
    rs = h.sel("walk", *h.last_n_days(21))
    best = max(values(rs, "duration"))
    h.q("What's the longest walk Biscuit has done over the last three weeks, in minutes?", "aggregate", "max",
        g_value(best, "min"), [r["round"] for r in rs if r["v"]["duration"] == best])
    rs = h.sel("meal", *mar)
    low = min(values(rs, "amount"))
    h.q("What was the smallest meal I gave Biscuit in March, in grams?", "aggregate", "min",
        g_value(low, "g"), [r["round"] for r in rs if r["v"]["amount"] == low])
    rs = h.sel("weigh-in", *mar)
    h.q("Could you tell me Biscuit's average weight across March?", "aggregate", "avg",
        g_value(avg(rs, "weight"), "kg"), rounds(rs))
    rs = h.sel("meal", *h.last_n_days(14), food="wet food")
    h.q("How many times did Biscuit get wet food in the past fortnight?", "aggregate", "count",
        g_value(len(need(rs)), None), rounds(rs))

    rs = h.sel("walk", *h.since(works))
    h.q("How many walks has Biscuit had since the building works next door started?", "event_period", "count",
        g_value(len(need(rs)), None), rounds(rs) + h.ev_round("works"))
    rs = h.sel("walk", h.start, paw - ONE)
    h.q("Before he hurt his paw, how far did Biscuit usually walk? Average per walk in km please.", "event_period", "avg",
        g_value(avg(rs, "distance"), "km"), rounds(rs) + h.ev_round("paw"))
    rs = h.sel("walk", sis_in, sis_out)
    h.q("While my sister was staying with us, how many kilometres did Biscuit walk in total?", "event_stretch", "sum",
        g_value(total(rs, "distance"), "km"), rounds(rs) + h.ev_round("sister") + h.ev_round("sister", "end"))
    rs = h.sel("walk", works, heat)
    h.q("How many walks did Biscuit get between the building works starting and the start of the heatwave?",
        "event_stretch", "count", g_value(len(need(rs)), None), rounds(rs) + h.ev_round("works") + h.ev_round("heat"))
    rs = need(h.on("meal", heat), 2)
    h.q("How many grams of food did Biscuit eat on the day the heatwave started?", "event_day", "sum",
        g_value(total(rs, "amount"), "g"), rounds(rs) + h.ev_round("heat"))
    rs = h.sel("walk", paw)
    h.q("Where did I take Biscuit for his first walk after he cut his paw?", "event_first_last", "first",
        {"text": rs[0]["v"]["place"]}, [rs[0]["round"]] + h.ev_round("paw"))
    rs = h.sel("weigh-in", None, works - ONE)
    h.q("What did Biscuit weigh at the last weigh-in before the building works began?", "event_first_last", "latest",
        g_value(rs[-1]["v"]["weight"], "kg"), [rs[-1]["round"]] + h.ev_round("works"))

    a, b = h.sel("walk", *apr), h.sel("walk", *mar)
    h.q("Did Biscuit cover more distance in April than in March?", "compare_periods", "greater",
        {"yes_no": total(a, "distance") > total(b, "distance")}, rounds(a) + rounds(b))
    a, b = h.sel("walk", *mar), h.sel("walk", *may)
    h.q("By what percent did Biscuit's average walk duration change from March to May?", "compare_periods", "percent_change",
        g_value(pct_change(avg(a, "duration"), avg(b, "duration")), "%"), rounds(a) + rounds(b))
    a, b = h.sel("walk", place="Beech Wood"), h.sel("walk", place="Millbrook Park")
    h.q("What's the difference between Biscuit's average walk length at Beech Wood and at Millbrook Park, in km?",
        "compare_groups", "difference", g_value(avg(a, "distance") - avg(b, "distance"), "km", either_sign=True),
        rounds(a) + rounds(b))
    a, b = h.sel("walk", place="Millbrook Park"), h.sel("walk", place="Harbour Beach")
    h.q("How many times more walks did Biscuit do at Millbrook Park than at Harbour Beach?", "compare_groups", "ratio",
        g_value(len(a) / len(need(b)), None), rounds(a) + rounds(b))

    allw = h.sel("walk")
    grp, grs = top_group(allw, lambda r: r["v"]["place"], len)
    h.q("Which place did I take Biscuit to most often?", "group_top", "argmax_group", {"group": grp}, rounds(grs))
    low_grp, lrs = top_group(allw, lambda r: r["v"]["place"], lambda rs_: -avg(rs_, "distance"))
    h.q("At which spot are Biscuit's walks the shortest on average?", "group_top", "argmin_group", {"group": low_grp}, rounds(lrs))
    h.q("On average, how long do Biscuit's walks last at the spot we go to most? Minutes please.", "group_measure", "avg",
        g_value(avg(grs, "duration"), "min"), rounds(grs))
    wk, wrs = top_group(allw, lambda r: monday(r["date"]), lambda rs_: sum(values(rs_, "distance")))
    h.q("Which week did Biscuit walk the most kilometres? Give me the Monday's date.", "bucket", "argmax_week",
        {"period": wk.isoformat(), "bucket": "week"}, rounds(wrs))
    meals = h.sel("meal")
    mo, mrs = top_group(meals, lambda r: r["date"].strftime("%Y-%m"), lambda rs_: sum(values(rs_, "amount")))
    h.q("Which month did Biscuit eat the most food in, by weight?", "bucket", "argmax_month",
        {"period": mo, "bucket": "month"}, rounds(mrs))
    rs = h.sel("meal", *apr)
    part = [r for r in rs if r["v"]["food"] == "chicken and rice"]
    h.q("What percentage of the food Biscuit ate in April (by weight) was chicken and rice?", "share", "share",
        g_value(total(part, "amount") / total(rs, "amount") * 100, "%"), rounds(rs))
    rs = h.on("walk", LOOKUP)
    assert len(rs) == 1
    h.q("Where did Biscuit walk on 23 April?", "lookup", "lookup", {"text": rs[0]["v"]["place"]}, rounds(rs))

    # unanswerable
    h.absent("neuter", "castrat", "spay")
    h.q("How far has Biscuit walked since he was neutered?", "unanswerable", "event_never",
        unans("no neutering is ever mentioned"))
    h.absent("heart", "pulse", "bpm")
    h.q("What's Biscuit's average resting heart rate this spring?", "unanswerable", "measure_never",
        unans("no heart rate is recorded"))
    h.no_value("walk", "place", "Lakeside Park")
    h.q("What was the average length of Biscuit's walks at Lakeside Park in April?", "unanswerable", "value_never",
        unans("no walk at Lakeside Park"))
    assert not [r for r in h.records if r["date"] < h.start] and h.start == D("2026-03-02")
    h.q("How far did Biscuit walk in total in February?", "unanswerable", "period_before_history",
        unans("the history starts on 2026-03-02"))
    assert not h.sel("weigh-in", *may)
    h.q("What did Biscuit weigh on average in May?", "unanswerable", "period_no_records",
        unans("no weigh-ins in May (the scale died on 1 May)"))
    h.absent("rolo")
    h.q("How much did Rolo eat last week?", "unanswerable", "name_never", unans("no Rolo is ever mentioned"))
    return h


# ---------------------------------------------------------------------------
# history 2: Mia's piano practice and lessons, told by her father
# ---------------------------------------------------------------------------

def build_mia():
    fillers = GENERIC_FILLERS + [
        ("Mia asked why pianos have black keys at all.",
         "A good question for a nine-year-old: they fill in the semitones so every key can be played in."),
        ("Is it bad if she practises with the sustain pedal down all the time?",
         "It can hide uneven playing; teachers usually want the pedal only where it's marked."),
        ("Mia wants to learn the theme from her favourite film by ear.",
         "Playing by ear is great for her musicianship, let her try."),
        ("How do I get her to practise without a fight every evening?",
         "A fixed slot, a short target, and letting her choose the order of pieces often helps."),
        ("Mia's school play is about pirates, she's very excited.",
         "Sounds like a fun one."),
        ("Packed lunch ideas for a fussy eater?",
         "Pinwheel wraps, cheese and crackers, cucumber sticks and a little dip usually go down well."),
        ("Should a nine-year-old do theory exams alongside playing?",
         "It helps with reading music; many teachers combine a little theory with practical grades."),
        ("Mia drew a cartoon of her teacher as a metronome.",
         "Hopefully the teacher has a sense of humour."),
        ("The piano stool wobbles, is that fixable?",
         "Usually the leg bolts just need tightening from underneath."),
        ("Mia played duets with her cousin on a video call.",
         "A lovely way to keep her motivated."),
        ("What's a good metronome app?",
         "Most free metronome apps do the job; one with a visual beat is handy for children."),
        ("She's begging for a cat again.",
         "That negotiation never really ends, does it."),
        ("Mia says her hands get tired on the long pieces.",
         "Short breaks and relaxed wrists help; tired hands are normal while strength builds."),
    ]
    acks = ["Logged for Mia.", "Saved to her practice log.", "Got it.", "Noted, well done Mia.", "Added.", "Logged."]
    h = History("mia", "tom", "2026-01-05", 91, seed=60318, question_time="2026-04-06T19:30:00",
                acks=acks, fillers=fillers)
    R = h.rng

    POWER = D("2026-01-21")
    RECITAL_PRE, RECITAL = D("2026-02-20"), D("2026-02-28")
    FINGER = D("2026-03-10")
    PIANO_PRE, PIANO = D("2026-03-12"), D("2026-03-26")
    STRIKE, STRIKE_END = D("2026-03-16"), D("2026-03-21")
    SUBS = {D("2026-02-14"), D("2026-03-07")}

    h.tell("power", "start", POWER, hm(18, 5),
           "The whole street went dark just after six. No lights, no heating and of course no keyboard, so we played "
           "cards by candlelight.",
           "Candlelit card games are a good memory to make. Hopefully it comes back soon.",
           forbid=("power cut", "power", "outage"))
    h.tell("power", "mention", D("2026-01-24"), hm(11, 15),
           "Since the power cut the keyboard has forgotten all its presets, Mia is furious.",
           "Most keyboards have a factory reset; the manual will say how to save presets again.")
    h.tell("power", "mention", D("2026-02-03"), hm(19, 5),
           "The electricity company sent a letter apologising for the power cut last month.",
           "At least they apologised.")
    h.tell("recital", "pre", RECITAL_PRE, hm(20, 10),
           "Recital is on the 28th at St Anne's, Mia's already nervous about it.",
           "A bit of nerves is normal. Playing it through for the family a few times can help.")
    h.tell("recital", "start", RECITAL, hm(19, 45),
           "Mia played on stage at St Anne's hall tonight! Hands shaking, but she got through the Minuet without a "
           "single stop and bowed like a pro.",
           "Wonderful, what an achievement for her!", forbid=("recital",))
    h.tell("recital", "mention", D("2026-03-04"), hm(18, 40),
           "Since the recital she wants to play everything twice as fast.",
           "Confidence is great, though the metronome may disagree.")
    h.tell("finger", "start", FINGER, hm(15, 50),
           "Mia slammed her finger in the car door at school pickup. Swollen and purple, ice pack and ibuprofen, "
           "no playing for a few days.",
           "Ouch. Keep it elevated and iced; if it's still very swollen tomorrow, get it checked.",
           forbid=("hurt her finger", "injur"))
    h.tell("piano", "pre", PIANO_PRE, hm(21, 0),
           "We ordered a secondhand upright, delivery should be in a couple of weeks.",
           "Exciting! An acoustic piano will feel quite different under her fingers.")
    h.tell("finger", "mention", D("2026-03-13"), hm(17, 20),
           "Her finger's looking much better, she's itching to play again.",
           "Good, ease back in with short sessions.")
    h.tell("strike", "start", STRIKE, hm(8, 20),
           "No trains at all today, the drivers walked out over pay. Two hours on a rammed bus to get to work.",
           "That's a long commute. Hopefully it's resolved quickly.", forbid=("strike",))
    h.tell("finger", "mention", D("2026-03-17"), hm(20, 45),
           "Since she hurt her finger she's been very careful with car doors.",
           "Lesson learned the hard way.")
    h.tell("strike", "mention", D("2026-03-18"), hm(19, 10),
           "Day three of the rail strike, bus again. Mia practised while I was stuck in traffic.",
           "At least someone got something done.")
    h.tell("strike", "end", STRIKE_END, hm(8, 0),
           "Trains are back to normal this morning, what a relief.",
           "Great, back to the normal routine.")
    h.tell("piano", "start", PIANO, hm(17, 30),
           "The upright arrived! Two delivery men, one very narrow hallway and a scratched doorframe, but it's in the "
           "living room.",
           "Congratulations! Give it a few weeks to settle before having it tuned.", forbid=("new piano",))
    h.tell("piano", "mention", D("2026-03-28"), hm(12, 0),
           "Mia loves the new piano, says the keys feel heavier than the keyboard.",
           "Acoustic actions are heavier; it'll build finger strength.")

    def pieces_for(day):
        w = {"Sonatina in C": 0.22, "Scales and arpeggios": 0.2}
        if day < RECITAL:
            w["Minuet in G"] = 0.45 if day >= D("2026-02-09") else 0.32
        else:
            w["Minuet in G"] = 0.05
        if day >= D("2026-01-26"):
            w["Für Elise"] = 0.26
        if day > RECITAL:
            w["The Entertainer"] = 0.3
        return w

    tempo_plan = {  # start bpm, gain per day
        "Minuet in G": (72, 0.35), "Sonatina in C": (80, 0.25), "Scales and arpeggios": (60, 0.3),
        "Für Elise": (56, 0.4), "The Entertainer": (70, 0.5),
    }
    first_day = {"Für Elise": D("2026-01-26"), "The Entertainer": RECITAL + ONE}
    leads = ["Mia's practice", "Practice log", "Piano practice - Mia", "Mia practised"]
    mark = 6.6

    def practice(day, hhmm, keep=False, avoid=None):
        w = pieces_for(day)
        if avoid:
            w.pop(avoid, None)
        names = sorted(w)
        piece = R.choices(names, [w[p] for p in names])[0]
        lo, hi = (10, 25) if piece == "Scales and arpeggios" else (15, 40)
        mins = R.randint(lo, hi)
        if day > PIANO:
            mins = min(45, mins + R.randint(0, 8))
        base, gain = tempo_plan[piece]
        since = (day - first_day.get(piece, h.start)).days
        tempo = int(round(base + gain * since + R.uniform(-4, 4)))
        text = render(R, R.choice(leads), [("Piece", piece), ("Duration", f"{mins} min"), ("Tempo", f"{tempo} bpm")])
        h.record(day, "practice", hhmm, {"piece": piece, "duration": mins, "tempo": tempo}, text, keep)
        return piece

    for day in h.dates():
        if day == POWER:
            p = practice(day, hm(16, R.randint(0, 30)), keep=True)
            practice(day, hm(17, R.randint(5, 40)), keep=True, avoid=p)
        elif day in (RECITAL, STRIKE_END) or FINGER <= day <= FINGER + 3 * ONE:
            pass
        else:
            u = R.random()
            n = 2 if u < 0.25 else (1 if u < 0.86 else 0)
            if day == RECITAL + ONE:
                n = max(n, 1)
            late = day == PIANO
            if n:
                p = practice(day, hm(18 if late else 16, R.randint(35, 59)))
                if n == 2:
                    practice(day, hm(19, R.randint(0, 50)), avoid=p)
        if day.weekday() == 5 and day != RECITAL:
            mark = min(9.4, mark + R.uniform(-0.25, 0.4))
            m = int(round(mark + R.uniform(-0.8, 0.8)))
            m = max(5, min(10, m))
            teacher = "Mr Hale" if day in SUBS else "Mrs Okafor"
            scales = R.randint(0, 4)
            text = render(R, R.choice(["Lesson notes", "Piano lesson", "Mia's lesson"]),
                          [("Teacher", teacher), ("Mark", f"{m}/10"), ("Scales passed", str(scales))],
                          forms=("dash", "pipe", "lines"))
            h.record(day, "lesson", hm(10, R.randint(30, 50)), {"teacher": teacher, "mark": m, "scales": scales}, text, keep=True)

    h.finish()

    recital, finger, piano = h.ev("recital"), h.ev("finger"), h.ev("piano")
    strike, strike_end, power = h.ev("strike"), h.ev("strike", "end"), h.ev("power")
    jan, feb, mar = month_bounds(2026, 1), month_bounds(2026, 2), month_bounds(2026, 3)
    assert not h.on("practice", recital) and not h.on("practice", finger) and not h.on("practice", strike_end)

    rs = h.sel("practice", *feb)
    h.q("How many minutes did Mia practise in total in February?", "aggregate", "sum",
        g_value(total(rs, "duration"), "min"), rounds(rs))
    rs = h.sel("practice", *h.last_n_days(21))
    h.q("what's mia's average practice session length over the last three weeks", "aggregate", "avg",
        g_value(avg(rs, "duration"), "min"), rounds(rs))
    rs = h.sel("practice", *jan, piece="Minuet in G")
    h.q("How many times did Mia practise the Minuet in G in January?", "aggregate", "count",
        g_value(len(need(rs)), None), rounds(rs))
    rs = h.sel("practice", piece="Für Elise")
    best = max(values(rs, "tempo"))
    h.q("What's the fastest tempo Mia has played Für Elise at so far?", "aggregate", "max",
        g_value(best, "bpm"), [r["round"] for r in rs if r["v"]["tempo"] == best])
    rs = h.sel("lesson", *mar)
    low = min(values(rs, "mark"))
    h.q("What was Mia's lowest lesson mark in March?", "aggregate", "min",
        g_value(low, None), [r["round"] for r in rs if r["v"]["mark"] == low])
    rs = h.sel("lesson", *h.since(D("2026-02-01")))
    h.q("Could you tell me how many scales Mia has passed at her lessons since the start of February?", "aggregate", "sum",
        g_value(total(rs, "scales"), None), rounds(rs))
    rs = h.sel("practice", *mar, where=lambda r: r["v"]["duration"] >= 30)
    h.q("How many of Mia's practice sessions in March were 30 minutes or longer?", "aggregate", "count",
        g_value(len(need(rs)), None), rounds(rs))

    rs = h.sel("practice", *h.since(recital))
    h.q("How many practice sessions has Mia done since the recital?", "event_period", "count",
        g_value(len(need(rs)), None), rounds(rs) + h.ev_round("recital"))
    rs = h.sel("practice", h.start, piano - ONE)
    h.q("What was Mia's average practice time per session before the new piano arrived?", "event_period", "avg",
        g_value(avg(rs, "duration"), "min"), rounds(rs) + h.ev_round("piano"))
    rs = h.sel("practice", *h.since(piano))
    h.q("How much has Mia practised in total since the new piano arrived? In minutes.", "event_period", "sum",
        g_value(total(rs, "duration"), "min"), rounds(rs) + h.ev_round("piano"))
    rs = h.sel("practice", strike, strike_end)
    h.q("How many minutes did Mia practise during the rail strike?", "event_stretch", "sum",
        g_value(total(rs, "duration"), "min"), rounds(rs) + h.ev_round("strike") + h.ev_round("strike", "end"))
    rs = need(h.on("practice", power), 2)
    h.q("How long did Mia practise on the day of the power cut?", "event_day", "sum",
        g_value(total(rs, "duration"), "min"), rounds(rs) + h.ev_round("power"))
    rs = h.sel("practice", recital)
    h.q("Which piece did Mia practise first after the recital?", "event_first_last", "first",
        {"text": rs[0]["v"]["piece"]}, [rs[0]["round"]] + h.ev_round("recital"))
    rs = h.sel("practice", None, finger - ONE)
    h.q("What was the last piece Mia worked on before she hurt her finger?", "event_first_last", "latest",
        {"text": rs[-1]["v"]["piece"]}, [rs[-1]["round"]] + h.ev_round("finger"))
    rs = h.sel("practice", finger + ONE, finger + 14 * ONE)
    h.q("In the two weeks after Mia hurt her finger, how many minutes did she practise altogether?", "event_period", "sum",
        g_value(total(rs, "duration"), "min"), rounds(rs) + h.ev_round("finger"))

    a, b = h.sel("practice", *mar), h.sel("practice", *feb)
    h.q("Did Mia practise more minutes in March than in February?", "compare_periods", "greater",
        {"yes_no": total(a, "duration") > total(b, "duration")}, rounds(a) + rounds(b))
    a, b = h.sel("practice", *feb, piece="Für Elise"), h.sel("practice", *mar, piece="Für Elise")
    h.q("By what percentage did Mia's average tempo on Für Elise go up from February to March?", "compare_periods",
        "percent_change", g_value(pct_change(avg(a, "tempo"), avg(b, "tempo")), "%"), rounds(a) + rounds(b))
    a, b = h.sel("practice", *mar), h.sel("practice", *jan)
    h.q("What's the ratio of Mia's total practice time in March to January?", "compare_periods", "ratio",
        g_value(total(a, "duration") / total(b, "duration"), None), rounds(a) + rounds(b))
    a, b = h.sel("lesson", *mar), h.sel("lesson", *jan)
    diff = avg(a, "mark") - avg(b, "mark")
    assert diff > 0
    h.q("How much higher was Mia's average lesson mark in March than in January?", "compare_periods", "difference",
        g_value(diff, None), rounds(a) + rounds(b))
    a, b = h.sel("practice", piece="Für Elise"), h.sel("practice", piece="Sonatina in C")
    ta, tb = total(a, "duration"), total(b, "duration")
    assert ta != tb
    h.q("Has Mia spent more time on Für Elise or on the Sonatina overall?", "compare_groups", "argmax_of_two",
        {"group": "Für Elise" if ta > tb else "Sonatina in C"}, rounds(a) + rounds(b))

    allp = h.sel("practice")
    grp, grs = top_group(allp, lambda r: r["v"]["piece"], lambda rs_: sum(values(rs_, "duration")))
    h.q("Which piece has Mia put the most practice minutes into?", "group_top", "argmax_group", {"group": grp}, rounds(grs))
    cgrp, cgrs = top_group(allp, lambda r: r["v"]["piece"], len)
    h.q("For the piece Mia practises most often, what's her average session length?", "group_measure", "avg",
        g_value(avg(cgrs, "duration"), "min"), rounds(cgrs))
    wk, wrs = top_group(allp, lambda r: monday(r["date"]), lambda rs_: sum(values(rs_, "duration")))
    h.q("Which week did Mia practise the most? Monday's date please.", "bucket", "argmax_week",
        {"period": wk.isoformat(), "bucket": "week"}, rounds(wrs))
    lessons = h.sel("lesson", jan[0], mar[1])
    mo, mrs = top_group(lessons, lambda r: r["date"].strftime("%Y-%m"), lambda rs_: avg(rs_, "mark"))
    h.q("Across January, February and March, which month had Mia's best average lesson mark?", "bucket", "argmax_month",
        {"period": mo, "bucket": "month"}, rounds(mrs))
    rs = h.sel("practice", *mar)
    part = [r for r in rs if r["v"]["piece"] == "Scales and arpeggios"]
    h.q("What share of Mia's practice time in March went on scales and arpeggios?", "share", "share",
        g_value(total(part, "duration") / total(rs, "duration") * 100, "%"), rounds(rs))
    rs = h.on("lesson", D("2026-02-14"))
    assert len(rs) == 1
    h.q("Who taught Mia's lesson on 14 February?", "lookup", "lookup", {"text": rs[0]["v"]["teacher"]}, rounds(rs))

    h.absent("violin")
    h.q("How many minutes has Mia practised since she started violin lessons?", "unanswerable", "event_never",
        unans("no violin lessons are ever mentioned"))
    h.absent("mistake", "error")
    h.q("What's Mia's average number of mistakes per practice?", "unanswerable", "measure_never",
        unans("mistakes are never recorded"))
    h.no_value("practice", "piece", "Moonlight Sonata")
    h.q("What tempo is Mia playing the Moonlight Sonata at these days?", "unanswerable", "value_never",
        unans("no practice of the Moonlight Sonata"))
    assert h.start == D("2026-01-05")
    h.q("How much did Mia practise in December?", "unanswerable", "period_before_history",
        unans("the history starts on 2026-01-05; December 2025 has no records"))
    h.absent("oscar")
    h.q("What mark did Oscar get at his last piano lesson?", "unanswerable", "name_never", unans("no Oscar is ever mentioned"))
    h.no_value("lesson", "teacher", "Mr Blake")
    h.q("What's Mia's average mark in lessons with Mr Blake?", "unanswerable", "group_never",
        unans("no lesson with Mr Blake"))
    return h


# ---------------------------------------------------------------------------
# history 3: an allotment's harvests and weather station, summer
# ---------------------------------------------------------------------------

def build_plot():
    fillers = GENERIC_FILLERS + [
        ("The slugs have found the dahlias.",
         "Beer traps or a ring of grit around the stems can slow them down."),
        ("Sam from the next plot gave me some of his rhubarb.",
         "Rhubarb crumble season, then."),
        ("When should I sow the winter onions?",
         "Onion sets for overwintering usually go in from late September to November."),
        ("Spent an hour tying in the tomatoes, they're taller than me now.",
         "They clearly like the greenhouse."),
        ("The blackbirds are stripping the redcurrants.",
         "A bit of netting over the bushes keeps most of them off."),
        ("Is it too late to plant more lettuce?",
         "Not at all, quick leaf varieties can go in until late summer."),
        ("Composted the pea haulms today.",
         "Good, they'll add nitrogen to the heap."),
        ("What's eating holes in my brassica leaves?",
         "Most likely cabbage white caterpillars; check the undersides for eggs."),
        ("The allotment committee wants everyone to clear their paths by the end of the month.",
         "A good excuse to get the strimmer out."),
        ("Found a frog living under the water butt.",
         "A great slug hunter to have on the plot."),
        ("How do I know when potatoes are ready?",
         "Earlies once the flowers open; maincrop when the foliage yellows and dies back."),
        ("Made a huge pot of ratatouille.",
         "A perfect use for a summer glut."),
        ("Should I pinch out the side shoots on cordon tomatoes?",
         "Yes, pinch them out while small so the energy goes into the trusses."),
        ("Gave a bag of lettuce to the couple on plot 14.",
         "Sharing the glut is half the fun."),
    ]
    acks = ["Added to the log.", "Logged.", "Got it.", "Saved.", "Noted.", "Thanks, recorded."]
    h = History("plot", "priya", "2026-06-01", 91, seed=70427, question_time="2026-08-31T08:00:00",
                acks=acks, fillers=fillers)
    R = h.rng

    HAIL = D("2026-06-23")
    CRETE_PRE, BAN = D("2026-07-04"), D("2026-07-06")
    LEAVE, BACK = D("2026-07-18"), D("2026-07-28")
    BREAKIN = D("2026-08-05")
    BACKPAIN = D("2026-08-17")
    LOOKUP = D("2026-08-12")

    h.tell("hail", "start", HAIL, hm(17, 20),
           "Ice the size of peas bouncing off the greenhouse roof for twenty minutes. The lettuces look like confetti.",
           "That's brutal for soft leaves. Check the greenhouse panes for cracks.", forbid=("hail",))
    h.tell("hail", "mention", D("2026-06-26"), hm(11, 0),
           "Patched two greenhouse panes the hailstorm cracked.",
           "Good, before the next rain gets in.")
    h.tell("hail", "mention", D("2026-07-01"), hm(19, 30),
           "Since the hailstorm the lettuces never really came back.",
           "A fresh sowing might be quicker than nursing them.")
    h.tell("crete", "pre", CRETE_PRE, hm(20, 20),
           "Crete in two weeks! Need to sort out watering with Sam.",
           "Lovely. A watering rota written down for Sam will help.")
    h.tell("ban", "start", BAN, hm(9, 10),
           "Letter from the water company: from today no hoses and no sprinklers, watering cans only.",
           "Mulching heavily will help the soil hold what water you give it.", forbid=("hosepipe", "ban"))
    h.tell("ban", "mention", D("2026-07-14"), hm(21, 5),
           "The hosepipe ban means forty cans a night, my arms are dead.",
           "Focus the water on the roots of the thirstiest crops.")
    h.tell("crete", "start", LEAVE, hm(6, 40),
           "Gate B12, boarding in twenty minutes. Sam has the plot keys and a very long list.",
           "Have a wonderful trip!", forbid=("crete", "holiday"))
    h.tell("crete", "mention", D("2026-07-23"), hm(18, 45),
           "Sam sent a photo, the courgettes are enormous. The sea here is so blue.",
           "Sounds like everyone is thriving.")
    h.tell("crete", "end", BACK, hm(21, 40),
           "Home at last. Too tired to go up to the plot, that's tomorrow's job.",
           "Welcome back, rest up.")
    h.tell("crete", "mention", D("2026-08-01"), hm(10, 30),
           "Since I got back from Crete I've done nothing but weed.",
           "Ten days is a long time for weeds.")
    h.tell("ban", "mention", D("2026-08-02"), hm(20, 0),
           "Still under the hosepipe ban and the water butts are empty.",
           "Hopefully some rain is on the way.")
    h.tell("breakin", "start", BREAKIN, hm(8, 30),
           "Someone jimmied the padlock on the shed overnight, the strimmer and both forks are gone. The police gave "
           "me a crime number.",
           "Horrible. A shed alarm or a better hasp might help, and tell the allotment committee.",
           forbid=("break-in", "broke in", "break in", "broken into"))
    h.tell("breakin", "mention", D("2026-08-09"), hm(16, 15),
           "Since the break-in I carry the tools home in the car every evening.",
           "Annoying but safer.")
    h.tell("back", "start", BACKPAIN, hm(18, 0),
           "Lifted the full water butt on my own like an idiot and now I can't stand up straight.",
           "Rest it, gentle movement, and see a doctor if it goes down your leg.", forbid=("put my back out", "back out"))
    h.tell("back", "mention", D("2026-08-20"), hm(19, 40),
           "Back's still stiff, Sam did the digging for me.",
           "Good neighbour.")
    h.tell("back", "mention", D("2026-08-24"), hm(9, 20),
           "First day I could bend properly since I put my back out.",
           "Take it easy with the lifting for a while.")

    crops = {  # window, (min kg, max kg), beds, weight
        "strawberries": (D("2026-06-01"), D("2026-07-10"), (0.2, 0.8), {"raised bed": 1.0}, 1.0),
        "lettuce": (D("2026-06-01"), D("2026-07-15"), (0.15, 0.45), {"raised bed": 1.0}, 0.8),
        "raspberries": (D("2026-07-01"), D("2026-08-15"), (0.15, 0.5), {"fruit cage": 1.0}, 0.8),
        "potatoes": (D("2026-07-01"), D("2026-08-30"), (1.5, 4.2), {"top bed": 1.0}, 0.7),
        "courgettes": (D("2026-06-25"), D("2026-08-30"), (0.4, 1.6), {"bottom bed": 1.0}, 0.9),
        "tomatoes": (D("2026-07-12"), D("2026-08-30"), (0.3, 2.2), {"greenhouse": 0.72, "south border": 0.28}, 1.2),
        "runner beans": (D("2026-07-22"), D("2026-08-30"), (0.2, 0.9), {"by the shed": 1.0}, 0.9),
        "cucumbers": (D("2026-07-05"), D("2026-08-30"), (0.3, 0.8), {"greenhouse": 1.0}, 0.6),
    }
    leads = ["Harvest", "Picked today", "Harvest log", "From the plot"]

    def harvest(day, crop, hhmm, bed=None, keep=False):
        _, _, (lo, hi), beds, _ = crops[crop]
        grams = int(round(R.uniform(lo, hi) * 100)) * 10
        if crop == "lettuce" and day > HAIL:
            grams = max(100, grams // 2 // 10 * 10)
        bed = bed or R.choices(sorted(beds), [beds[b] for b in sorted(beds)])[0]
        shown = f"{grams} g" if grams < 1000 else f"{grams / 1000:g} kg"
        text = render(R, R.choice(leads), [("Crop", crop), ("Weight", shown), ("Bed", bed)])
        h.record(day, "harvest", hhmm, {"crop": crop, "weight": grams / 1000, "grams": grams, "bed": bed}, text, keep)

    def in_season(day):
        return sorted(c for c, spec in crops.items() if spec[0] <= day <= spec[1]
                      and not (c == "lettuce" and HAIL < day and R.random() < 0.5))

    for day in h.dates():
        away = LEAVE <= day <= BACK
        if day == BREAKIN:
            picks = ["courgettes", "potatoes", "tomatoes"]
        elif day == LOOKUP:
            picks = ["tomatoes", "runner beans"]
        elif away or day == BACKPAIN:
            picks = []
        elif R.random() < 0.72:
            pool = in_season(day)
            if day == BACK + ONE:
                pool = [c for c in pool if c != "potatoes"]
            k = min(len(pool), R.choice([1, 1, 2, 2, 3]))
            picks = []
            while len(picks) < k:
                c = R.choices(pool, [crops[c][4] for c in pool])[0]
                if c not in picks:
                    picks.append(c)
        else:
            picks = []
        start_h = 10 if day == BREAKIN else R.choice([8, 9, 17, 18])
        for i, c in enumerate(picks):
            bed = "south border" if (day == LOOKUP and c == "tomatoes") else None
            harvest(day, c, hm(start_h + i // 2, 10 + 25 * (i % 2) + R.randint(0, 9)), bed=bed,
                    keep=day in (BREAKIN, LOOKUP))
        # weather station (an app, keeps logging while away); none on the day I got back
        if day != BACK and R.random() < 0.9:
            m = day.month
            tmax = {6: 21.0, 7: 25.0, 8: 24.0}[m] + R.uniform(-4, 5)
            if D("2026-07-08") <= day <= D("2026-07-16"):
                tmax += 4
            rain = 0.0 if R.random() < 0.62 else round(R.uniform(0.4, 14.0), 1)
            if day == HAIL:
                tmax, rain = 17.0, 18.6
            if BAN <= day <= D("2026-08-03") and rain and R.random() < 0.6:
                rain = 0.0
            if LEAVE < day < BACK and R.random() < 0.3:  # showers while I was away
                rain = round(R.uniform(1.5, 12.0), 1)
            tmax = int(round(tmax))
            wind = R.randint(5, 38)
            text = render(R, R.choice(["Weather station", "Plot weather", "Weather station today"]),
                          [("Rain", f"{num(rain)} mm"), ("Max temp", f"{tmax} °C"), ("Wind", f"{wind} km/h")],
                          forms=("dash", "pipe", "lines"))
            h.record(day, "weather", hm(21, R.randint(0, 30)), {"rain": rain, "tmax": tmax, "wind": wind}, text)

    h.finish()

    hail, ban, breakin, back = h.ev("hail"), h.ev("ban"), h.ev("breakin"), h.ev("back")
    leave, home = h.ev("crete"), h.ev("crete", "end")
    jun, jul, aug = month_bounds(2026, 6), month_bounds(2026, 7), month_bounds(2026, 8)
    assert not h.on("harvest", home) and not h.on("weather", home) and not h.on("harvest", back)

    rs = h.sel("harvest", *aug, crop="tomatoes")
    h.q("How many kilos of tomatoes did I pick in August?", "aggregate", "sum", g_value(total(rs, "weight"), "kg"), rounds(rs))
    rs = h.sel("harvest", *jul, crop="courgettes")
    h.q("What was my average courgette harvest in July, in grams?", "aggregate", "avg",
        g_value(avg(rs, "grams"), "g"), rounds(rs))
    rs = h.sel("harvest", *h.last_n_days(21), crop="potatoes")
    h.q("How many times did I dig potatoes over the last three weeks?", "aggregate", "count",
        g_value(len(need(rs)), None), rounds(rs))
    rs = h.sel("harvest", crop="strawberries")
    best = max(values(rs, "weight"))
    h.q("What's the biggest single strawberry pick I've logged?", "aggregate", "max",
        g_value(best, "kg"), [r["round"] for r in rs if r["v"]["weight"] == best])
    rs = h.sel("weather", *jun)
    h.q("How much rain fell across June, in mm?", "aggregate", "sum", g_value(total(rs, "rain"), "mm"), rounds(rs))
    rs = h.sel("weather", *jul, where=lambda r: r["v"]["tmax"] >= 28)
    h.q("How many days in July hit 28 degrees or more?", "aggregate", "count", g_value(len(need(rs)), None), rounds(rs))
    rs = h.sel("weather", *aug)
    low = min(values(rs, "tmax"))
    h.q("What was the coolest daily max temperature in August?", "aggregate", "min",
        g_value(low, "°C"), [r["round"] for r in rs if r["v"]["tmax"] == low])

    rs = h.sel("harvest", *h.since(hail))
    h.q("Since the hailstorm, how much have I harvested altogether, in kg?", "event_period", "sum",
        g_value(total(rs, "weight"), "kg"), rounds(rs) + h.ev_round("hail"))
    rs = h.sel("weather", h.start, ban - ONE)
    h.q("What was the average max temperature before the hosepipe ban came in?", "event_period", "avg",
        g_value(avg(rs, "tmax"), "°C"), rounds(rs) + h.ev_round("ban"))
    rs = h.sel("weather", leave, home)
    assert total(rs, "rain") > 0
    h.q("How much rain did the weather station record while I was away in Crete?", "event_stretch", "sum",
        g_value(total(rs, "rain"), "mm"), rounds(rs) + h.ev_round("crete") + h.ev_round("crete", "end"))
    rs = need(h.on("harvest", breakin), 2)
    h.q("How much did I harvest on the day of the shed break-in?", "event_day", "sum",
        g_value(total(rs, "weight"), "kg"), rounds(rs) + h.ev_round("breakin"))
    rs = h.sel("harvest", home)
    h.q("What was the first thing I picked after getting back from Crete?", "event_first_last", "first",
        {"text": rs[0]["v"]["crop"]}, [rs[0]["round"]] + h.ev_round("crete", "end"))
    rs = h.sel("harvest", None, back - ONE, crop="potatoes")
    h.q("How heavy was the last potato harvest before I put my back out?", "event_first_last", "latest",
        g_value(rs[-1]["v"]["weight"], "kg"), [rs[-1]["round"]] + h.ev_round("back"))

    a, b = h.sel("harvest", *jul), h.sel("harvest", *jun)
    diff = total(a, "weight") - total(b, "weight")
    assert diff > 0
    h.q("How much more did I harvest in July than in June, in kg?", "compare_periods", "difference",
        g_value(diff, "kg"), rounds(a) + rounds(b))
    a, b = h.sel("weather", *jul), h.sel("weather", *jun)
    h.q("Was July wetter than June?", "compare_periods", "greater",
        {"yes_no": total(a, "rain") > total(b, "rain")}, rounds(a) + rounds(b))
    a, b = h.sel("harvest", *jul, crop="tomatoes"), h.sel("harvest", *aug, crop="tomatoes")
    h.q("By what percentage did my average tomato pick change from July to August?", "compare_periods", "percent_change",
        g_value(pct_change(avg(a, "weight"), avg(b, "weight")), "%"), rounds(a) + rounds(b))
    a, b = h.sel("harvest", crop="potatoes"), h.sel("harvest", crop="courgettes")
    h.q("How many times heavier was my total potato harvest than my courgette harvest?", "compare_groups", "ratio",
        g_value(total(a, "weight") / total(b, "weight"), None), rounds(a) + rounds(b))
    a, b = h.sel("harvest", bed="greenhouse"), h.sel("harvest", bed="top bed")
    ta, tb = total(a, "weight"), total(b, "weight")
    assert ta != tb
    h.q("Did the greenhouse give me more than the top bed this summer, by weight?", "compare_groups", "greater",
        {"yes_no": ta > tb}, rounds(a) + rounds(b))

    allh = h.sel("harvest")
    grp, grs = top_group(allh, lambda r: r["v"]["crop"], lambda rs_: sum(values(rs_, "grams")))
    h.q("Which crop gave the most by weight in total?", "group_top", "argmax_group", {"group": grp}, rounds(grs))
    lgrp, lgrs = top_group(allh, lambda r: r["v"]["crop"], lambda rs_: -len(rs_))
    h.q("which crop did I pick the least often", "group_top", "argmin_group", {"group": lgrp}, rounds(lgrs))
    cgrp, cgrs = top_group(allh, lambda r: r["v"]["crop"], len)
    h.q("For whichever crop I harvested most often, what's the total weight I picked?", "group_measure", "sum",
        g_value(total(cgrs, "weight"), "kg"), rounds(cgrs))
    wk, wrs = top_group(allh, lambda r: monday(r["date"]), lambda rs_: sum(values(rs_, "grams")))
    h.q("Which was my biggest harvest week by weight? Give the Monday.", "bucket", "argmax_week",
        {"period": wk.isoformat(), "bucket": "week"}, rounds(wrs))
    mo, mrs = top_group(h.sel("weather"), lambda r: r["date"].strftime("%Y-%m"), lambda rs_: avg(rs_, "tmax"))
    h.q("Across June, July and August, which month was the hottest on average?", "bucket", "argmax_month",
        {"period": mo, "bucket": "month"}, rounds(mrs))
    part = [r for r in allh if r["v"]["crop"] == "tomatoes"]
    h.q("What share of the harvest was tomatoes?", "share", "share",
        g_value(total(part, "weight") / total(allh, "weight") * 100, "%"), rounds(allh))
    rs = h.on("harvest", LOOKUP)
    toms = [r for r in rs if r["v"]["crop"] == "tomatoes"]
    assert len(toms) == 1
    h.q("Which bed did the tomatoes I picked on 12 August come from?", "lookup", "lookup",
        {"text": toms[0]["v"]["bed"]}, rounds(toms))

    h.absent("fox")
    h.q("How much have I harvested since the fox dug up the plot?", "unanswerable", "event_never",
        unans("no fox is ever mentioned"))
    h.absent(" ph ", "ph:", "acidity")
    h.q("What was the average soil pH this summer?", "unanswerable", "measure_never", unans("soil pH is never recorded"))
    h.no_value("harvest", "crop", "sweetcorn")
    h.q("What was my biggest sweetcorn pick in August, in kg?", "unanswerable", "value_never", unans("no sweetcorn harvested"))
    assert h.start == D("2026-06-01")
    h.q("How much rain did we get in May?", "unanswerable", "period_before_history",
        unans("the history starts on 2026-06-01"))
    assert not h.sel("harvest", *aug, crop="strawberries")
    h.q("What was my average strawberry pick in August?", "unanswerable", "period_no_records",
        unans("no strawberries were picked in August"))
    h.absent("ravi")
    h.q("How much did Ravi pick from his plot in July?", "unanswerable", "name_never", unans("no Ravi is ever mentioned"))
    h.no_value("harvest", "bed", "polytunnel")
    h.q("What's the heaviest single pick I've had from the polytunnel?", "unanswerable", "group_never",
        unans("no bed called polytunnel"))
    return h


# ---------------------------------------------------------------------------
# history 4: a home's energy use (smart meter app) and thermostat, winter
# ---------------------------------------------------------------------------

def build_energy():
    fillers = GENERIC_FILLERS + [
        ("Is it cheaper to leave the heating on low all day or blast it when needed?",
         "For most well-insulated homes, heating only when needed uses less energy overall."),
        ("Marta wants to put thermal curtains in the living room.",
         "They do help, especially on big single-glazed windows."),
        ("How do I bleed a radiator?",
         "With the heating off, open the valve at the top with a radiator key until water, not air, comes out."),
        ("Our kettle seems to take ages to boil lately.",
         "Limescale on the element slows it; a descale usually fixes it."),
        ("The smart meter display has gone blank again.",
         "It usually just needs re-pairing; the supplier's app shows the readings anyway."),
        ("Should we get draught excluders for the doors?",
         "Yes, cheap and effective, especially for the front door and the letterbox."),
        ("Marta bought a heated throw for the sofa.",
         "Those use very little electricity compared with heating a whole room."),
        ("The condensation on the bedroom windows is terrible every morning.",
         "Airing the room for ten minutes and wiping the glass helps; a dehumidifier if it persists."),
        ("What temperature should the hot water cylinder be set to?",
         "Around sixty degrees, high enough to prevent bacteria."),
        ("Is it worth switching to a time-of-use tariff?",
         "If you can move washing and dishwasher runs to the night hours, often yes."),
        ("Put the winter tyres on the car today.",
         "Good timing."),
        ("Made a big pot of bigos for the weekend.",
         "Perfect winter food, and better the second day."),
        ("The loft hatch lets in a real draught.",
         "A strip of foam seal and an insulated board on the hatch fix most of that."),
        ("Marta's making her gingerbread again.",
         "The house must smell wonderful."),
    ]
    acks = ["Logged.", "Saved to the energy log.", "Got it.", "Noted.", "Added.", "Thanks, recorded."]
    h = History("energy", "ole", "2025-11-03", 91, seed=80531, question_time="2026-02-02T07:30:00",
                acks=acks, fillers=fillers)
    R = h.rng

    JOB = D("2025-11-17")
    BOILER, BOILER_FIX = D("2025-12-03"), D("2025-12-06")
    GUESTS_PRE, GUESTS, GUESTS_OUT = D("2025-12-14"), D("2025-12-20"), D("2025-12-29")
    COLD, COLD_EASING = D("2026-01-08"), D("2026-01-21")
    POWER = D("2026-01-26")
    LOOKUP = D("2025-12-18")

    h.tell("job", "start", JOB, hm(8, 50),
           "First day at Nordlys today! Fully remote, so it's me and the laptop at the kitchen table from now on.",
           "Congratulations, good luck on day one!", forbid=("new job",))
    h.tell("job", "mention", D("2025-11-26"), hm(19, 20),
           "Since I started the new job the heating is on all day, I can feel the bill coming.",
           "Heating one room well instead of the whole house can help.")
    h.tell("boiler", "start", BOILER, hm(7, 40),
           "No hot water this morning and the display in the airing cupboard just blinks F28. Cold shower, never again.",
           "F28 is often an ignition fault. Check the gas supply is on, then call an engineer.",
           forbid=("boiler", "broke"))
    h.tell("boiler", "mention", D("2025-12-04"), hm(18, 30),
           "Boiler still broken, the engineer can only come Saturday. Electric heaters everywhere.",
           "Keep the doors closed to hold the heat in the rooms you use.")
    h.tell("boiler", "end", BOILER_FIX, hm(11, 0),
           "Engineer swapped the ignition board, we have heating and hot water again!",
           "Great news, enjoy a hot shower.")
    h.tell("job", "mention", D("2025-12-09"), hm(8, 10),
           "The new job has video calls from eight, so the study heater goes on early.",
           "A small heater in one room is cheaper than the whole system.")
    h.tell("guests", "pre", GUESTS_PRE, hm(20, 0),
           "Marta's parents are flying in on the 20th for Christmas, need to clear the spare room.",
           "Lovely. Clearing the spare room is always a bigger job than it looks.")
    h.tell("guests", "start", GUESTS, hm(15, 30),
           "Piotr and Ewa landed at three, the spare room is theirs until after Christmas.",
           "Enjoy the time together!", forbid=("parents", "staying"))
    h.tell("guests", "mention", D("2025-12-24"), hm(21, 0),
           "With Marta's parents here the oven hasn't been off all day.",
           "That's the Christmas spirit.")
    h.tell("guests", "end", GUESTS_OUT, hm(10, 0),
           "Dropped Piotr and Ewa at the airport, the house is very quiet now.",
           "It always feels empty after a full house.")
    h.tell("cold", "start", COLD, hm(7, 15),
           "Minus nine this morning, the pipes in the garage froze solid and the car wouldn't start.",
           "Leave the garage tap open a little once it thaws, and a hairdryer works on frozen pipes.",
           forbid=("cold snap", "snap", "cold"))
    h.tell("cold", "mention", D("2026-01-15"), hm(20, 40),
           "A week into this cold snap and the gas meter is spinning.",
           "It should ease off soon, the forecast is milder next week.")
    h.tell("cold", "mention", COLD_EASING, hm(8, 30),
           "The cold snap is finally easing, plus two and drizzle.",
           "Drizzle never felt so welcome.")
    h.tell("power", "start", POWER, hm(19, 10),
           "Everything went dark at seven, the whole street. Candles, and soup on the camping stove.",
           "Stay warm; keep the fridge and freezer doors shut until it's back.", forbid=("power cut", "power"))
    h.tell("power", "mention", D("2026-01-28"), hm(12, 45),
           "The power cut fried the router, a new one arrives Friday.",
           "Annoying. A surge protector for the router might be worth it.")

    def outside(day):
        t0 = {11: 7.0, 12: 3.5, 1: 1.0, 2: 2.0}[day.month] + R.uniform(-3.5, 3.5)
        if COLD <= day < COLD_EASING:
            t0 = R.uniform(-10.0, -3.5)
        if day == COLD:
            t0 = -9.0
        return t0

    leads = ["Energy app", "Meter readout", "Today's usage", "Smart meter"]
    mode_w = {"eco": 0.46, "comfort": 0.4, "boost": 0.14}
    for day in h.dates():
        out = outside(day)
        remote = day >= JOB
        broken = BOILER <= day < BOILER_FIX
        guests = GUESTS <= day <= GUESTS_OUT
        gas = 18 + 3.1 * (16 - out) + R.uniform(-6, 6) + (7 if remote else 0) + (5 if guests else 0)
        elec = 7.2 + R.uniform(-1.8, 2.2) + (2.0 if remote else 0) + (2.5 if guests else 0)
        if broken:
            gas = R.uniform(1.5, 3.5) if day > BOILER else R.uniform(7, 10)
            elec += 9 + R.uniform(0, 3)
        if day == POWER:
            elec = 3.1
        gas, elec = round(gas, 1), round(elec, 1)
        cost = round(elec * 0.34 + gas * 0.11 + 0.62, 2)
        skip = day in (BOILER_FIX, GUESTS_OUT) or (day not in (POWER, BOILER) and R.random() < 0.08)
        if not skip:
            text = render(R, R.choice(leads), [("Electricity", f"{num(elec)} kWh"), ("Gas", f"{num(gas)} kWh"),
                                               ("Cost", R.choice([f"{cost:.2f} EUR", f"€{cost:.2f}"]))])
            h.record(day, "usage", hm(22, R.randint(0, 40)), {"electricity": elec, "gas": gas, "cost": cost}, text,
                     keep=day in (POWER, BOILER))
        # thermostat checks a few evenings a week
        if day == LOOKUP or (day not in (JOB, COLD) and R.random() < 0.55):
            w = dict(mode_w)
            if COLD <= day < COLD_EASING:
                w["boost"] = 0.4
            mode = R.choices(sorted(w), [w[m] for m in sorted(w)])[0]
            room = {"eco": R.uniform(17.6, 19.2), "comfort": R.uniform(19.8, 21.4), "boost": R.uniform(21.4, 23.0)}[mode]
            if broken:
                room = R.uniform(14.5, 16.5)
            room = round(room, 1)
            o = int(round(out))
            text = render(R, R.choice(["Thermostat", "Thermostat check", "Heating"]),
                          [("Living room", f"{num(room)} °C"), ("Outside", f"{o} °C"), ("Mode", mode)],
                          forms=("dash", "pipe", "lines"))
            h.record(day, "thermostat", hm(20, R.randint(0, 50)), {"living": room, "outside": o, "mode": mode}, text,
                     keep=day == LOOKUP)

    h.finish()

    job, boiler, fixed = h.ev("job"), h.ev("boiler"), h.ev("boiler", "end")
    guests, guests_out, cold, power = h.ev("guests"), h.ev("guests", "end"), h.ev("cold"), h.ev("power")
    nov, dec, jan = month_bounds(2025, 11), month_bounds(2025, 12), month_bounds(2026, 1)
    assert not h.on("usage", fixed) and not h.on("usage", guests_out) and not h.on("thermostat", job)
    assert not h.on("thermostat", cold)

    rs = h.sel("usage", *jan)
    h.q("What was our average daily electricity use in January?", "aggregate", "avg",
        g_value(avg(rs, "electricity"), "kWh"), rounds(rs))
    rs = h.sel("usage", *dec)
    h.q("How much did we spend on energy in December, all told?", "aggregate", "sum",
        g_value(total(rs, "cost"), "EUR"), rounds(rs))
    rs = h.sel("usage", *h.last_n_days(21), where=lambda r: r["v"]["gas"] > 60)
    h.q("On how many days in the last three weeks did gas go over 60 kWh?", "aggregate", "count",
        g_value(len(need(rs)), None), rounds(rs))
    rs = h.sel("thermostat", *nov)
    low = min(values(rs, "outside"))
    h.q("What was the coldest outside reading in November?", "aggregate", "min",
        g_value(low, "°C"), [r["round"] for r in rs if r["v"]["outside"] == low])
    rs = h.sel("thermostat", *h.since(D("2026-01-01")))
    best = max(values(rs, "living"))
    h.q("What's the warmest the living room has been since the start of January?", "aggregate", "max",
        g_value(best, "°C"), [r["round"] for r in rs if r["v"]["living"] == best])
    rs = h.sel("thermostat", *jan, mode="boost")
    h.q("How many times was the thermostat on boost in January?", "aggregate", "count",
        g_value(len(need(rs, 2)), None), rounds(rs))
    rs = h.sel("usage", *h.last_n_days(14))
    h.q("How much did energy cost us over the past fortnight?", "aggregate", "sum",
        g_value(total(rs, "cost"), "EUR"), rounds(rs))
    rs = h.sel("thermostat", *jan, where=lambda r: r["v"]["outside"] < 0)
    h.q("How many thermostat checks did I log in January when it was below zero outside?", "aggregate", "count",
        g_value(len(need(rs)), None), rounds(rs))

    rs = h.sel("usage", *h.since(cold))
    h.q("What's our average gas use per day since the cold snap started?", "event_period", "avg",
        g_value(avg(rs, "gas"), "kWh"), rounds(rs) + h.ev_round("cold"))
    rs = h.sel("usage", h.start, boiler - ONE)
    h.q("Before the boiler broke, what was our average gas use per day?", "event_period", "avg",
        g_value(avg(rs, "gas"), "kWh"), rounds(rs) + h.ev_round("boiler"))
    rs = h.sel("usage", boiler, fixed)
    h.q("How much gas did we use while the boiler was broken?", "event_stretch", "sum",
        g_value(total(rs, "gas"), "kWh"), rounds(rs) + h.ev_round("boiler") + h.ev_round("boiler", "end"))
    rs = h.sel("usage", guests, guests_out)
    h.q("While Marta's parents were staying with us, what was our average daily electricity use?", "event_stretch", "avg",
        g_value(avg(rs, "electricity"), "kWh"), rounds(rs) + h.ev_round("guests") + h.ev_round("guests", "end"))
    rs = h.on("usage", power)
    assert len(rs) == 1
    h.q("How much electricity did we use on the day of the power cut?", "event_day", "value",
        g_value(rs[0]["v"]["electricity"], "kWh"), rounds(rs) + h.ev_round("power"))
    rs = h.sel("thermostat", job)
    h.q("Which mode was the thermostat on the first time I checked it after starting the new job?", "event_first_last",
        "first", {"text": rs[0]["v"]["mode"]}, [rs[0]["round"]] + h.ev_round("job"))
    rs = h.sel("thermostat", None, cold - ONE)
    h.q("What was the outside temperature at the last thermostat check before the cold snap?", "event_first_last",
        "latest", g_value(rs[-1]["v"]["outside"], "°C"), [rs[-1]["round"]] + h.ev_round("cold"))

    a, b = h.sel("usage", *jan), h.sel("usage", *dec)
    h.q("Did we use more gas in January than in December?", "compare_periods", "greater",
        {"yes_no": total(a, "gas") > total(b, "gas")}, rounds(a) + rounds(b))
    a, b = h.sel("usage", *nov), h.sel("usage", *jan)
    h.q("By what percent did our average daily energy cost change from November to January?", "compare_periods",
        "percent_change", g_value(pct_change(avg(a, "cost"), avg(b, "cost")), "%"), rounds(a) + rounds(b))
    rs = h.sel("usage", *jan)
    h.q("How many times more gas than electricity did we use in January?", "compare_periods", "ratio",
        g_value(total(rs, "gas") / total(rs, "electricity"), None), rounds(rs))
    a, b = h.sel("thermostat", mode="comfort"), h.sel("thermostat", mode="eco")
    h.q("What's the difference in average living-room temperature between comfort and eco mode?", "compare_groups",
        "difference", g_value(avg(a, "living") - avg(b, "living"), "°C", either_sign=True), rounds(a) + rounds(b))

    allt = h.sel("thermostat")
    grp, grs = top_group(allt, lambda r: r["v"]["mode"], len)
    h.q("Which thermostat mode did I use most often?", "group_top", "argmax_group", {"group": grp}, rounds(grs))
    h.q("When the thermostat was on the mode I use most, what was the living room temperature on average?",
        "group_measure", "avg", g_value(avg(grs, "living"), "°C"), rounds(grs))
    allu = h.sel("usage")
    wk, wrs = top_group(allu, lambda r: monday(r["date"]), lambda rs_: sum(values(rs_, "gas")))
    h.q("Which week did we burn the most gas? Give me the Monday's date.", "bucket", "argmax_week",
        {"period": wk.isoformat(), "bucket": "week"}, rounds(wrs))
    mo, mrs = top_group(allu, lambda r: r["date"].strftime("%Y-%m"), lambda rs_: sum(values(rs_, "cost")))
    h.q("Which month did we spend the most on energy?", "bucket", "argmax_month", {"period": mo, "bucket": "month"}, rounds(mrs))
    part = h.sel("usage", *dec)
    h.q("What percentage of our total energy spend since November went on December?", "share", "share",
        g_value(total(part, "cost") / total(allu, "cost") * 100, "%"), rounds(allu))
    rs = h.on("thermostat", LOOKUP)
    assert len(rs) == 1
    h.q("What mode was the thermostat on on 18 December?", "lookup", "lookup", {"text": rs[0]["v"]["mode"]}, rounds(rs))

    h.absent("heat pump")
    h.q("How much gas have we used since the heat pump was installed?", "unanswerable", "event_never",
        unans("no heat pump is ever mentioned"))
    h.absent("solar", "panel")
    h.q("How much electricity did the solar panels generate in January?", "unanswerable", "measure_never",
        unans("no solar generation is recorded"))
    assert all(r["v"]["mode"] != "away" for r in h.sel("thermostat"))
    h.absent("mode: away", "away mode")
    h.q("What was the living room temperature on average when the thermostat was in away mode?", "unanswerable", "value_never", unans("no thermostat check in away mode"))
    assert h.start == D("2025-11-03")
    h.q("What was our electricity use in October?", "unanswerable", "period_before_history",
        unans("the history starts on 2025-11-03"))
    h.absent("pedro")
    h.q("How much energy did we use while Uncle Pedro was visiting?", "unanswerable", "name_never",
        unans("no Pedro is ever mentioned"))
    h.absent("bedroom temp", "bedroom:")
    assert all("bedroom" not in r["user"].lower() for r in h.records)
    h.q("What was the average bedroom temperature in January?", "unanswerable", "measure_never",
        unans("only the living room temperature is recorded"))
    return h


BUILDERS = [build_biscuit, build_mia, build_plot, build_energy]


def write_jsonl(path, rows):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=HERE)
    args = ap.parse_args(argv)
    out = args.out
    out.mkdir(parents=True, exist_ok=True)
    all_q, facts = [], {}
    for build in BUILDERS:
        h = build()
        (out / f"history_{h.name}.json").write_text(json.dumps(h.doc(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        write_jsonl(out / f"questions_{h.name}.jsonl", h.questions)
        all_q += h.questions
        kinds = defaultdict(int)
        for r in h.records:
            kinds[r["kind"]] += 1
        fam = defaultdict(int)
        for q in h.questions:
            fam[q["family"]] += 1
        facts[h.name] = {
            "user_id": h.user_id, "seed": h.seed, "first_day": h.start.isoformat(), "last_day": h.end.isoformat(),
            "question_time": h.qt.isoformat(), "sessions": len(h.sessions),
            "rounds": sum(len(s["rounds"]) for s in h.sessions), "records": dict(sorted(kinds.items())),
            "questions": len(h.questions), "families": dict(sorted(fam.items())),
            "events": [{"event": t["key"], "role": t["role"], "day": t["date"].isoformat(), "round": t["round"],
                        "text": t["user"]} for t in h.tellings],
        }
        assert len({q["question_id"] for q in h.questions}) == len(h.questions)
    write_jsonl(out / "questions.jsonl", all_q)
    (out / "facts.json").write_text(json.dumps(facts, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    n_un = sum(1 for q in all_q if q["gold"].get("unanswerable"))
    print(f"{len(all_q)} questions ({n_un} unanswerable) over {len(BUILDERS)} histories -> {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
