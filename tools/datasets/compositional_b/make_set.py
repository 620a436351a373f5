#!/usr/bin/env python3
"""Compositional evaluation set B: three chat histories and their questions.

Seeded, deterministic and standard-library only. It writes, next to itself,

  history_nurse.json, history_gardener.json, history_student.json
  questions_nurse.jsonl, questions_gardener.jsonl, questions_student.jsonl
  questions.jsonl  (all of them)

and computes every gold value from the records it wrote. Every question is
checked to be well defined (its filter matches at least one record, its
argmax/argmin is unique, a yes/no comparison is not a tie, a "how much more"
has the sign its wording implies); a failed check stops the script. If that
happens for a seed, change SEED (see README.md), never the question.

Usage: python tools/datasets/compositional_b/make_set.py
"""

from __future__ import annotations

import json
import math
import random
from collections import defaultdict
from datetime import date, datetime, time, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEED = 7303  # README.md: seeds tried and why they were rejected

D = date.fromisoformat
ONE = timedelta(days=1)


def days(n: int) -> timedelta:
    return timedelta(days=n)


# --------------------------------------------------------------------------
# record kinds: fields are (key, label, unit, decimals); decimals None = text


class Kind:
    def __init__(self, name, title, fields, leads, intros):
        self.name, self.title, self.fields = name, title, fields
        self.leads, self.intros = leads, intros

    def field(self, key):
        for f in self.fields:
            if f[0] == key:
                return f
        raise KeyError(key)


KINDS = {k.name: k for k in [
    Kind("sleep", "Sleep", [("sleep", "Total sleep", "h", 1), ("wakeups", "Wake-ups", None, 0)],
         ["Sleep last night", "Sleep tracker", "Last night", "Sleep log"],
         ["Here's the sleep app from last night.", "Sleep screenshot.", "Sleep app, for the record."]),
    Kind("water", "Water", [("water", "Water", "ml", 0)],
         ["Water today", "Hydration", "Water tracker", "Fluids for the day"],
         ["Water app screenshot.", "Bottle tracker for today."]),
    Kind("takeaway", "Takeaway order", [("place", "Place", None, None), ("dish", "Dish", None, None),
                                        ("price", "Price", "EUR", 2)],
         ["Takeaway tonight", "Ordered in", "Dinner delivery", "Couldn't face cooking"],
         ["Screenshot of tonight's order.", "Delivery app receipt.", "Order confirmation attached."]),
    Kind("fuel", "Fuel receipt", [("station", "Station", None, None), ("litres", "Litres", "L", 1),
                                  ("cost", "Cost", "EUR", 2)],
         ["Filled up", "Petrol stop", "Tank full again", "Fuel on the way home"],
         ["Pump receipt attached.", "Photo of the fuel receipt.", "Receipt from the garage."]),
    Kind("hike", "Walk", [("trail", "Trail", None, None), ("distance", "Distance", "km", 1),
                          ("ascent", "Ascent", "m", 0)],
         ["Walk today", "Out on the fells", "Today's walk", "Back from a ramble"],
         ["GPS watch summary.", "Screenshot of the walking app.", "Route summary from the app."]),
    Kind("glucose", "Glucose meter", [("glucose", "Fasting glucose", "mmol/L", 1)],
         ["Fasting reading", "Glucose check", "Finger prick"],
         ["Photo of the meter.", "Meter display."]),
    Kind("weight", "Scales", [("weight", "Weight", "kg", 1)],
         ["Weigh-in", "On the scales", "Weight check"],
         ["Photo of the bathroom scales.", "Scales app."]),
    Kind("expense", "Expense", [("payee", "Payee", None, None), ("category", "Category", None, None),
                                ("amount", "Amount", "GBP", 2)],
         ["Spent today", "Expense for the book", "Paid out", "Another one for the ledger"],
         ["Receipt photo.", "Bank app screenshot.", "Card statement line."]),
    Kind("study", "Study timer", [("subject", "Subject", None, None), ("duration", "Duration", "min", 0)],
         ["Study session", "Library session done", "Revision", "Focus timer finished"],
         ["Focus app screenshot.", "Timer app summary.", "Study tracker."]),
    Kind("swim", "Swim", [("pool", "Pool", None, None), ("lengths", "Lengths", None, 0),
                          ("time", "Time", "min", 0)],
         ["Swim done", "Pool session", "Swim log", "Out of the water"],
         ["Swim watch summary.", "Screenshot from the swim tracker."]),
    Kind("meditation", "Meditation app", [("length", "Length", "min", 0), ("style", "Style", None, None)],
         ["Meditated", "Sat for a bit", "Mindfulness", "Quiet time"],
         ["Meditation app screenshot.", "Streak screen from the app."]),
]}

ACKS = ["Logged it.", "Got it, saved.", "Noted - thanks!", "Added to your log.", "Saved.",
        "Thanks, it's in.", "Recorded.", "All logged."]


def num(x: float, dec: int):
    """The value as it is written (so gold is computed from the written text)."""
    return int(round(x)) if dec == 0 else float(f"{x:.{dec}f}")


def fmt(value, unit, dec) -> str:
    if dec is None:
        return value
    s = f"{value:.{dec}f}"
    return f"{s} {unit}" if unit else s


def render(kind: Kind, vals: dict, rng: random.Random, rid: str):
    """One record as a person pastes it: user text and (maybe) an image caption."""
    pairs = [(lab, fmt(vals[k], unit, dec)) for k, lab, unit, dec in kind.fields]
    lab = (lambda s: s) if rng.random() < 0.75 else str.lower
    colon = ", ".join(f"{lab(label)}: {v}" for label, v in pairs)
    piped = f"{kind.title} | " + " | ".join(f"{lab(label)}: {v}" for label, v in pairs)
    lead = rng.choice(kind.leads)
    form = rng.choice(["plain", "lead", "eq", "pipe", "json", "lines", "caption", "caption"])
    if form == "plain":
        return colon, None
    if form == "lead":
        return f"{lead}. {colon}", None
    if form == "eq":
        return ", ".join(f"{label.lower()} = {v}" for label, v in pairs), None
    if form == "pipe":
        return piped, None
    if form == "json":
        obj = {label: (vals[k] if unit is None and dec is not None else fmt(vals[k], unit, dec))
               for k, label, unit, dec in kind.fields}
        return f"{lead}:\n{json.dumps(obj)}", None
    if form == "lines":
        return lead + "\n" + "\n".join(f"{lab(label)}: {v}" for label, v in pairs), None
    caption = piped if rng.random() < 0.5 else f"{kind.title} screenshot. {colon}"
    return rng.choice(kind.intros), [{"image_id": f"{rid}:IMG_1", "caption": caption}]


# --------------------------------------------------------------------------
# ordinary chat (no numbers anywhere, so nothing here looks like a record)

GENERIC_CHAT = [
    ("Any ideas for a quick dinner with eggs and spinach?",
     "A frittata or shakshuka would both come together quickly."),
    ("It's lashing rain here again.", "Sounds grim - a good excuse for a hot drink and a film."),
    ("Can you recommend a podcast for a long drive?",
     "A narrative history series or a comedy panel show makes the miles go quicker."),
    ("How do I get candle wax out of a tablecloth?",
     "Freeze it, scrape off what you can, then iron it between sheets of brown paper."),
    ("What's a good way to remember birthdays?", "Put them in your calendar with a reminder a week ahead."),
    ("My phone battery drains so fast lately.",
     "Check which apps use it in the battery settings, and turn off background refresh for the worst."),
    ("Is an air fryer actually worth it?", "If you cook small portions often, most people find it handy."),
    ("Remind me what the difference between baking soda and baking powder is?",
     "Baking powder already contains an acid; baking soda needs one in the recipe to react."),
    ("Any tips for keeping houseplants alive?", "Water less than you think and give them as much light as you can."),
    ("I keep forgetting to reply to messages.", "Try answering straight away or setting one daily catch-up slot."),
    ("What should I watch tonight, something light?", "A feel-good comedy or a baking show might hit the spot."),
    ("Is it normal for bread dough to be this sticky?", "Wetter doughs are sticky; oil your hands rather than adding flour."),
    ("Can you help me word a thank-you note to a neighbour?",
     "Sure: keep it short, say what they did and how much it helped."),
    ("How long does cooked rice keep in the fridge?", "Only a day or so - cool it quickly and reheat it until piping hot."),
]

CHAT = {
    "nurse": [
        ("Handover ran late again today.", "That's tiring - hopefully the next one goes smoother."),
        ("What are good snacks to bring on a long shift?", "Nuts, yoghurt, fruit and wholegrain crackers keep you going."),
        ("One of my patients told me the funniest story today.", "Moments like that make the hard days lighter."),
        ("My feet are killing me - any shoe tips for nurses?", "Cushioned, supportive clogs or running shoes help a lot."),
        ("How do I politely say no to swapping a shift?", "Keep it simple: thank them, say it doesn't work for you, no long excuses."),
        ("Ward was chaos, but we got through it.", "Well done getting through it - make sure you rest."),
        ("Should I do the wound-care study day?", "If it interests you, it's usually good for your practice and your CV."),
    ],
    "gardener": [
        ("The tomatoes in the greenhouse need pinching out.", "Nip the side shoots while they're small and they'll crop better."),
        ("Slugs got my lettuces again.", "Wool pellets or a beer trap might keep them off the next lot."),
        ("What can I sow directly outside now?", "Beetroot, carrots, radishes and salad leaves are all happy sown direct."),
        ("Allotment committee meeting tonight, wish me patience.", "Good luck - bring a flask and a sense of humour."),
        ("Is it too late to prune the roses?", "A light tidy is fine; save the hard pruning for late winter."),
        ("The blackbirds are nesting in the hedge again.", "Lovely - best leave the hedge trimming until they've fledged."),
        ("What's a good climber for a north wall?", "Climbing hydrangea or a shade-tolerant clematis would suit it."),
    ],
    "student": [
        ("Group project partner ghosted us again.", "Message them directly and copy in the module lead if it keeps happening."),
        ("How do I write a good lab report discussion?", "Explain what your results mean, compare them with the literature and be honest about limits."),
        ("My flatmate left the dishes out again.", "A shared rota on the fridge might save an argument."),
        ("What's a cheap meal I can batch cook?", "A big pot of dal or chilli freezes well and costs very little."),
        ("Should I get the bus or walk to campus in this wind?", "If it's gusty and wet, the bus sounds wiser today."),
        ("The library was packed, couldn't find a desk.", "Try the quieter floors early or a departmental study room."),
        ("Any tips for flashcards that actually work?", "Test yourself actively and space the reviews out over days."),
    ],
}


# --------------------------------------------------------------------------
# a history under construction


class Rec:
    def __init__(self, kind, rid, t, v):
        self.kind, self.rid, self.time, self.v = kind, rid, t, v

    @property
    def day(self) -> date:
        return self.time.date()


class History:
    def __init__(self, name, user_id, start, ndays):
        self.name, self.user_id = name, user_id
        self.start, self.end = start, start + days(ndays - 1)
        self.sessions, self.recs, self.events = [], [], {}

    def add_day(self, day, items, rng):
        sid = f"S{len(self.sessions) + 1}"
        mins = sorted(rng.sample(range(7 * 60, 22 * 60 + 50), len(items)))
        rounds = []
        for i, (item, m) in enumerate(zip(items, mins), 1):
            rid = f"{sid}:{i}"
            t = datetime.combine(day, time(m // 60, m % 60))
            rnd = {"round_id": rid, "time": t.isoformat()}
            if item[0] == "rec":
                _, kind, vals = item
                user, images = render(KINDS[kind], vals, rng, rid)
                rnd["user"], rnd["assistant"] = user, rng.choice(ACKS)
                if images:
                    rnd["images"] = images
                self.recs.append(Rec(kind, rid, t, vals))
            else:
                _, user, reply, event = item
                rnd["user"], rnd["assistant"] = user, reply
                if event:
                    self.events[event] = (day, rid)
            rounds.append(rnd)
        self.sessions.append({"session_id": sid, "date": day.isoformat(), "rounds": rounds})

    def document(self):
        return {"user_id": self.user_id, "sessions": self.sessions}


def build(h, rng, day_records, events, passing, chat):
    """events: {day: (key, text, reply)}; passing: {day: (text, reply)}."""
    for i in range((h.end - h.start).days + 1):
        day = h.start + days(i)
        if day in events:  # an event day carries no record at all
            key, text, reply = events[day]
            items = [("say", u, a, None) for u, a in rng.sample(chat, rng.randint(1, 3))]
            items.insert(rng.randint(0, len(items)), ("say", text, reply, key))
        else:
            recs = [("rec", k, v) for k, v in day_records(day, rng)]
            if day in passing and len(recs) == 5:
                recs.pop()  # leave room for the passing mention
            k = len(recs)
            assert k <= 5, (h.name, day, k)
            lo = max(2 - k, 1 if k < 5 else 0)
            hi = max(lo, min(2, 5 - k))
            chats = [("say", u, a, None) for u, a in rng.sample(chat, rng.randint(lo, hi))]
            if day in passing:
                assert chats, (h.name, day, "no room for a passing mention")
                chats[0] = ("say", *passing[day], None)
            items = recs + chats
            rng.shuffle(items)
        assert 2 <= len(items) <= 5
        h.add_day(day, items, rng)
    assert set(h.events) == {e[0] for e in events.values()}


def pick(rng, weighted: dict):
    return rng.choices(list(weighted), weights=list(weighted.values()))[0]


# --------------------------------------------------------------------------
# history 1: Aoife, a ward nurse in Dublin; nights, a move to Drogheda, back on days

NURSE_START, NURSE_DAYS = D("2026-01-05"), 77
NURSE_EV = {"nights": D("2026-01-24"), "move": D("2026-02-19"), "days": D("2026-03-09")}

TAKE_DUBLIN = {"Golden Wok": [("Spice bag", 11.5), ("Chicken curry", 13.9), ("Beef chow mein", 14.5)],
               "Pizza Nostra": [("Margherita", 12.0), ("Pepperoni pizza", 14.5)],
               "Saffron House": [("Chicken tikka masala", 15.9), ("Lamb rogan josh", 17.5)],
               "Burrito Bros": [("Chicken burrito", 10.5), ("Nachos", 8.5)]}
TAKE_DROGHEDA = {"Boyne Chipper": [("Spice bag", 10.5), ("Fish and chips", 12.5)],
                 "Pizza Nostra": TAKE_DUBLIN["Pizza Nostra"],
                 "Little Tokyo": [("Chicken katsu curry", 14.0), ("Sushi platter", 18.5)]}
W_DUBLIN = {"Golden Wok": 4, "Pizza Nostra": 3, "Saffron House": 2, "Burrito Bros": 2}
W_DROGHEDA = {"Boyne Chipper": 4, "Pizza Nostra": 3, "Little Tokyo": 2}
STATIONS = {"Circle K Ballymun": 1.76, "Applegreen Finglas": 1.73, "Texaco Glasnevin": 1.79,
            "Applegreen Drogheda": 1.72, "Maxol Termonfeckin": 1.81}
ST_DUBLIN = {"Circle K Ballymun": 4, "Applegreen Finglas": 1.5, "Texaco Glasnevin": 1}
ST_DROGHEDA = {"Applegreen Drogheda": 3, "Maxol Termonfeckin": 1.5}


def make_nurse(rng):
    h = History("nurse", "aoife_wardnurse", NURSE_START, NURSE_DAYS)
    ev = NURSE_EV
    state = {"fuel_due": NURSE_START + days(2)}

    def day_records(day, rng):
        phase = "day" if day < ev["nights"] else ("night" if day < ev["days"] else "back")
        dublin = day < ev["move"]
        out = []
        if rng.random() < 0.85 or day == ev["days"] + ONE:
            mu = {"day": 7.2, "night": 5.8, "back": 7.0}[phase]
            wake = rng.choice([1, 2, 3, 3, 4]) if phase == "night" else rng.choice([0, 1, 1, 2, 2, 3])
            out.append(("sleep", {"sleep": num(min(9.4, max(3.6, rng.gauss(mu, 0.6))), 1), "wakeups": wake}))
        if rng.random() < 0.6:
            mu = 2050 if phase == "night" else 1750
            out.append(("water", {"water": int(round(rng.gauss(mu, 300) / 50) * 50)}))
        if rng.random() < {"day": 0.3, "night": 0.5, "back": 0.3}[phase]:
            menu, w = (TAKE_DUBLIN, W_DUBLIN) if dublin else (TAKE_DROGHEDA, W_DROGHEDA)
            place = pick(rng, w)
            dish, base = rng.choice(menu[place])
            out.append(("takeaway", {"place": place, "dish": dish, "price": num(base + rng.uniform(0, 3.5), 2)}))
        if day >= state["fuel_due"]:
            station = pick(rng, ST_DUBLIN if dublin else ST_DROGHEDA)
            litres = num(rng.uniform(30, 48), 1)
            ppl = STATIONS[station] + rng.uniform(-0.02, 0.02)
            out.append(("fuel", {"station": station, "litres": litres, "cost": num(litres * ppl, 2)}))
            state["fuel_due"] = day + days(rng.randint(6, 8) if dublin else rng.randint(3, 5))
        return out

    events = {
        ev["nights"]: ("nights",
                       "Right, first night shift tonight. The rota has me on nights for the foreseeable, "
                       "so I'm trying to nap this afternoon. Any tips for staying sharp at four in the morning?",
                       "Nap before you go in, keep caffeine to the first half of the shift, and eat light. "
                       "Blackout curtains will help when you sleep after."),
        ev["move"]: ("move",
                     "We got the keys! Officially living in Drogheda now. Boxes everywhere and the kettle "
                     "is the only thing unpacked, but it's ours.",
                     "Congratulations on the new home! Unpack the bed and the kettle first and the rest can wait."),
        ev["days"]: ("days",
                     "Back on day shifts from today, thank god. Early start this morning and I actually "
                     "feel like a human being again.",
                     "That's great news - enjoy getting back in step with daylight."),
    }
    passing = {
        ev["nights"] + days(3): ("Still can't get used to sleeping while it's bright outside.",
                                 "It takes a while; an eye mask and a cool room really help."),
        ev["move"] + days(4): ("Found a lovely walk along the Boyne near the new flat.",
                               "A riverside walk on your doorstep is a great perk."),
        ev["days"] + days(5): ("Feels so good to be on the same schedule as everyone else again.",
                               "It sounds like a real relief."),
    }
    build(h, rng, day_records, events, passing, CHAT["nurse"] + GENERIC_CHAT)
    return h


# --------------------------------------------------------------------------
# history 2: Walter, a retired gardener in the Dales; no more sugar, his daughter visits

GARD_START, GARD_DAYS = D("2026-04-06"), 77
GARD_EV = {"nosugar": D("2026-04-23"), "arrive": D("2026-05-16"), "leave": D("2026-05-30")}
TRAILS = {"Bolton Abbey riverside": (7.0, 1.0, 120, 25, 3), "Ilkley Moor": (9.0, 1.2, 290, 40, 3),
          "Malham Cove loop": (11.0, 1.5, 330, 45, 2), "Simon's Seat": (12.5, 1.0, 450, 40, 1.5),
          "Pen-y-ghent": (10.0, 0.8, 560, 40, 1)}
PAYEES = {"Morrisons": ("groceries", 25, 70), "Booths": ("groceries", 15, 45),
          "Dobbies": ("garden", 8, 60), "The Craven Arms": ("eating out", 18, 45),
          "Waterstones": ("books", 9, 25)}
W_PAYEE = {"Morrisons": 4, "Booths": 2, "Dobbies": 3, "The Craven Arms": 2, "Waterstones": 1}
W_PAYEE_VISIT = {"Morrisons": 4, "Booths": 3, "Dobbies": 1, "The Craven Arms": 3, "Waterstones": 1}
BILLS = {12: ("Yorkshire Water", 38.40), 20: ("British Gas", 64.20)}


def make_gardener(rng):
    h = History("gardener", "walter_allotment", GARD_START, GARD_DAYS)
    ev = GARD_EV

    def day_records(day, rng):
        sweet = day < ev["nosugar"]
        visit = ev["arrive"] < day < ev["leave"]
        out = []
        p_hike = 0.3 if visit else (0.3 if sweet else 0.42)
        if rng.random() < p_hike:
            trail = pick(rng, {t: v[4] for t, v in TRAILS.items()})
            km, sd, asc, asd, _ = TRAILS[trail]
            out.append(("hike", {"trail": trail, "distance": num(max(3.0, rng.gauss(km, sd)), 1),
                                 "ascent": num(max(40, rng.gauss(asc, asd)), 0)}))
        if rng.random() < 0.75:
            if sweet:
                mu = 6.4
            else:
                mu = max(5.6, 6.3 - 0.7 * (day - ev["nosugar"]).days / 30)
            out.append(("glucose", {"glucose": num(rng.gauss(mu, 0.22), 1)}))
        if rng.random() < 0.4:
            mu = 89.0 if sweet else 89.0 - 0.05 * (day - ev["nosugar"]).days
            out.append(("weight", {"weight": num(rng.gauss(mu, 0.3), 1)}))
        if day.day in BILLS:
            payee, amount = BILLS[day.day]
            out.append(("expense", {"payee": payee, "category": "utilities", "amount": amount}))
        n = rng.choices([0, 1, 2], weights=[3, 4, 3] if visit else [4, 4, 2])[0]
        if day == ev["leave"] + ONE:
            n = max(n, 1)
        for _ in range(min(n, 5 - len(out))):
            payee = pick(rng, W_PAYEE_VISIT if visit else W_PAYEE)
            cat, lo, hi = PAYEES[payee]
            out.append(("expense", {"payee": payee, "category": cat, "amount": num(rng.uniform(lo, hi), 2)}))
        return out

    events = {
        ev["nosugar"]: ("nosugar",
                        "Saw the GP this morning about my blood results. She says I'm borderline diabetic, "
                        "so that's it: no more sugar in my tea, no biscuits, no cake. Binned the shortbread "
                        "tin as soon as I got home.",
                        "That's a sensible decision, and binning the tin makes it easier. Lots of people "
                        "find the cravings fade after a few weeks."),
        ev["arrive"]: ("arrive",
                       "Megan's train got in this afternoon - she's staying with me for a couple of weeks "
                       "while her flat is being done up. Lovely to have the house full again.",
                       "How lovely to have your daughter to stay. Enjoy the company!"),
        ev["leave"]: ("leave",
                      "Dropped Megan back at the station today. The house feels very quiet now.",
                      "It's always strange when a house goes quiet again. I hope her flat is a treat to go back to."),
    }
    passing = {
        ev["nosugar"] + days(6): ("Tea without sugar still tastes odd, but I'm getting there.",
                                  "Your taste adjusts surprisingly fast - well done sticking with it."),
        ev["arrive"] + days(5): ("Megan has been helping me weed the allotment, what a treat.",
                                 "Many hands make light work - sounds like a lovely time."),
        ev["leave"] + days(3): ("I miss having Megan around for dinner.", "That's natural; maybe a video call this week?"),
    }
    build(h, rng, day_records, events, passing, CHAT["gardener"] + GENERIC_CHAT)
    return h


# --------------------------------------------------------------------------
# history 3: Priya, a pharmacy student in Manchester; swim club, exams

STU_START, STU_DAYS = D("2025-10-06"), 77
STU_EV = {"club": D("2025-10-22"), "exams": D("2025-12-01"), "done": D("2025-12-12")}
SUBJECTS = {"Pharmacology": 3, "Organic chemistry": 2.5, "Pharmaceutics": 2, "Biochemistry": 1.5}
POOLS_BEFORE = {"Moss Side Leisure Centre": 2, "Levenshulme Baths": 1}
POOLS_AFTER = {"Aquatics Centre": 4, "Moss Side Leisure Centre": 1}
STYLES = {"breathing": 3, "body scan": 2, "loving kindness": 1}


def make_student(rng):
    h = History("student", "priya_pharm", STU_START, STU_DAYS)
    ev = STU_EV

    def day_records(day, rng):
        if day < ev["exams"] - days(7):
            phase = "term"
        elif day < ev["exams"]:
            phase = "runup"
        else:
            phase = "exams" if day < ev["done"] else "free"
        weekend = day.weekday() >= 5
        out = []
        w = {"term": [3, 4, 3] if not weekend else [5, 4, 1], "runup": [1, 3, 6],
             "exams": [2, 5, 3], "free": [6, 4, 0]}[phase]
        for _ in range(rng.choices([0, 1, 2], weights=w)[0]):
            mins = rng.randrange(25, 125 if phase in ("runup", "exams") else 100, 5)
            out.append(("study", {"subject": pick(rng, SUBJECTS), "duration": mins}))
        club = day > ev["club"]
        p_swim = {"term": 0.4 if club else 0.25, "runup": 0.3, "exams": 0.15, "free": 0.35}[phase]
        if rng.random() < p_swim or day == ev["club"] + ONE:
            pool = "Aquatics Centre" if day == ev["club"] + ONE else pick(rng, POOLS_AFTER if club else POOLS_BEFORE)
            lengths = rng.randint(30, 70) + (10 if pool == "Aquatics Centre" else 0)
            out.append(("swim", {"pool": pool, "lengths": lengths,
                                 "time": int(round(lengths * 0.85 + rng.gauss(4, 3)))}))
        if rng.random() < (0.75 if phase in ("runup", "exams") else 0.45):
            lo, hi = (10, 35) if phase in ("runup", "exams") else (5, 25)
            out.append(("meditation", {"length": rng.randrange(lo, hi, 5) + rng.choice([0, 0, 2]),
                                       "style": pick(rng, STYLES)}))
        return out

    events = {
        ev["club"]: ("club",
                     "I finally signed up for the uni swimming club after tonight's taster session! "
                     "They train at the Aquatics Centre, so that's my pool from now on.",
                     "Brilliant - a club is a great way to keep swimming regularly, and you'll meet people too."),
        ev["exams"]: ("exams",
                      "First exam done this morning, pharmacology. Exam season has officially begun - "
                      "wish me luck for the rest of them.",
                      "Good luck! Rest well between papers and don't dwell on the ones that are done."),
        ev["done"]: ("done",
                     "THAT'S IT. Last paper handed in, I'm free!!! Going to sleep for a week.",
                     "Congratulations on finishing! Enjoy the rest - you've earned it."),
    }
    passing = {
        ev["club"] + days(6): ("The swim club people are so friendly, glad I joined.",
                               "That's lovely - a friendly club makes early sessions easier."),
        ev["exams"] + days(4): ("Two papers down, a few to go.", "Keep going, you're doing great."),
        ev["done"] + days(3): ("Finally reading a novel for fun again.", "Enjoy it - a well-earned treat."),
    }
    build(h, rng, day_records, events, passing, CHAT["student"] + GENERIC_CHAT)
    return h


# --------------------------------------------------------------------------
# gold computation


def T(s: str) -> datetime:
    return datetime.fromisoformat(s)


def week_of(d: date) -> date:
    return d - days(d.weekday())


def month_end(d: date) -> date:
    return (d.replace(day=28) + days(4)).replace(day=1) - ONE


class Questions:
    def __init__(self, h: History, prefix: str, qt_default: str):
        self.h, self.prefix, self.qt_default = h, prefix, qt_default
        self.items = []

    def ev(self, key) -> date:
        return self.h.events[key][0]

    def sel(self, kind, lo=None, hi=None, qt=None, **eq):
        qt = T(qt or self.qt_default)
        hi = qt.date() if hi is None else min(hi, qt.date())
        out = [r for r in self.h.recs if r.kind == kind and (lo is None or r.day >= lo) and r.day <= hi
               and r.time <= qt and all(r.v[k] == v for k, v in eq.items())]
        assert out, (self.prefix, len(self.items) + 1, kind, lo, hi, eq, "empty selection")
        return out

    def add(self, family, question, value, unit, evidence, qt=None, values=None, answer=None):
        assert family in ("anchored", "compare", "group", "dates")
        qid = f"{self.prefix}{len(self.items) + 1:02d}"
        gold = {"value": value, "unit": unit}
        if values is not None:
            gold["values"] = list(values)
        rids = []
        for r in sorted(evidence, key=lambda r: r.time):
            if r.rid not in rids:
                rids.append(r.rid)
        self.items.append({"question_id": qid, "history": self.h.name, "question": question,
                           "answer": answer or answer_text(value, unit, values), "family": family,
                           "question_time": qt or self.qt_default, "evidence": rids, "gold": gold})


def show(x) -> str:
    if isinstance(x, float):
        return f"{x:.4f}".rstrip("0").rstrip(".")
    return str(x)


def answer_text(value, unit, values=None) -> str:
    s = show(value) + (f" {unit}" if unit and value not in ("yes", "no") else "")
    if values is not None:
        s += " (" + " vs ".join(show(v) + (f" {unit}" if unit else "") for v in values) + ")"
    return s


def agg(op, recs, key=None):
    """(value, unit, evidence records) of one operator over records of one kind."""
    if op == "count":
        return len(recs), None, recs
    _, _, unit, dec = KINDS[recs[0].kind].field(key)
    xs = [r.v[key] for r in recs]
    if op == "sum":
        s = round(math.fsum(xs), dec)
        return (int(s) if dec == 0 else s), unit, recs
    if op == "avg":
        return sum(xs) / len(xs), unit, recs
    if op in ("min", "max"):
        best = min(xs) if op == "min" else max(xs)
        return best, unit, [r for r in recs if r.v[key] == best]
    if op in ("first", "last"):
        r = min(recs, key=lambda r: r.time) if op == "first" else max(recs, key=lambda r: r.time)
        return r.v[key], unit, [r]
    raise ValueError(op)


def dec_of(recs, key) -> int:
    return KINDS[recs[0].kind].field(key)[3]


def by_field(key):
    return lambda r: r.v[key]


def by_week(r):
    return week_of(r.day).isoformat()


def by_month(r):
    return r.day.replace(day=1).isoformat()


def best_group(recs, group, op, key=None, lowest=False):
    """The unique group with the highest (lowest) op; (name, its records, all scores)."""
    groups = defaultdict(list)
    for r in recs:
        groups[group(r)].append(r)
    scores = {g: agg(op, rs, key)[0] for g, rs in groups.items()}
    top = (min if lowest else max)(scores.values())
    winners = [g for g, s in scores.items() if s == top]
    assert len(winners) == 1, ("tie", winners, scores)
    return winners[0], groups[winners[0]], scores


def yes_no(a, b, claim: bool):
    assert a != b, ("tie in a yes/no comparison", a, b)
    return "yes" if claim else "no"


# --------------------------------------------------------------------------
# the questions


def nurse_questions(h: History) -> list:
    q = Questions(h, "n", "2026-03-22T23:59:00")
    nights, move, backdays = q.ev("nights"), q.ev("move"), q.ev("days")

    # anchored
    qt = "2026-02-15T22:00:00"
    q.add("anchored", "How much have I spent on takeaways since I went onto nights?",
          *agg("sum", q.sel("takeaway", nights, qt=qt), "price"), qt=qt)
    q.add("anchored", "avg sleep in the 2 weeks after my first night shift",
          *agg("avg", q.sel("sleep", nights + ONE, nights + days(14)), "sleep"))
    q.add("anchored", "How many times did I fill up the car before the move?",
          *agg("count", q.sel("fuel", None, move - ONE)))
    q.add("anchored", "Where did I order my first takeaway from after moving house?",
          *agg("first", q.sel("takeaway", move + ONE), "place"))
    q.add("anchored", "Between switching to the night rota and relocating to Drogheda, what was my "
          "average daily water intake?", *agg("avg", q.sel("water", nights + ONE, move - ONE), "water"))
    q.add("anchored", "The day after I came off nights, how long did I sleep?",
          *agg("last", q.sel("sleep", backdays + ONE, backdays + ONE), "sleep"))
    q.add("anchored", "how much water did i log in total the week before we moved",
          *agg("sum", q.sel("water", move - days(7), move - ONE), "water"))
    q.add("anchored", "What was the priciest takeaway I had while I was working nights?",
          *agg("max", q.sel("takeaway", nights + ONE, backdays - ONE), "price"))

    # compare
    a = agg("avg", q.sel("sleep", None, nights - ONE), "sleep")
    b = agg("avg", q.sel("sleep", nights + ONE, backdays - ONE), "sleep")
    q.add("compare", "Did I sleep more on average before nights started than during the night-shift stretch?",
          yes_no(a[0], b[0], a[0] > b[0]), "h", a[2] + b[2], values=(a[0], b[0]))
    jan = agg("sum", q.sel("fuel", D("2026-01-01"), D("2026-01-31")), "cost")
    feb = agg("sum", q.sel("fuel", D("2026-02-01"), D("2026-02-28")), "cost")
    assert feb[0] > jan[0]
    q.add("compare", "How much more did I spend on fuel in February than in January?",
          round(feb[0] - jan[0], 2), "EUR", jan[2] + feb[2])
    after = agg("avg", q.sel("fuel", move + ONE), "cost")
    before = agg("avg", q.sel("fuel", None, move - ONE), "cost")
    q.add("compare", "Was a typical fill-up more expensive after the move than before it?",
          yes_no(after[0], before[0], after[0] > before[0]), "EUR", before[2] + after[2],
          values=(after[0], before[0]))
    during = agg("avg", q.sel("sleep", nights + ONE, backdays - ONE), "sleep")
    back = agg("avg", q.sel("sleep", backdays + ONE), "sleep")
    q.add("compare", "What's the percentage change in my average sleep from the night-shift period to "
          "after I went back on days?", (back[0] - during[0]) / during[0] * 100, "%", during[2] + back[2])
    pn = agg("sum", q.sel("takeaway", place="Pizza Nostra"), "price")
    gw = agg("sum", q.sel("takeaway", place="Golden Wok"), "price")
    assert pn[0] != gw[0]
    q.add("compare", "Did I spend more at Pizza Nostra or Golden Wok overall?",
          "Pizza Nostra" if pn[0] > gw[0] else "Golden Wok", None, pn[2] + gw[2],
          answer=f"{'Pizza Nostra' if pn[0] > gw[0] else 'Golden Wok'} ({show(pn[0])} vs {show(gw[0])} EUR)")
    f1 = agg("sum", q.sel("takeaway", D("2026-02-01"), D("2026-02-15")), "price")
    f2 = agg("sum", q.sel("takeaway", D("2026-02-16"), D("2026-02-28")), "price")
    q.add("compare", "difference between my takeaway spending in the first half of Feb and the second half?",
          round(f1[0] - f2[0], 2), "EUR", f1[2] + f2[2])
    wj = agg("avg", q.sel("water", D("2026-01-01"), D("2026-01-31")), "water")
    wm = agg("avg", q.sel("water", D("2026-03-01"), D("2026-03-31")), "water")
    q.add("compare", "Did my average water intake go down from January to March?",
          yes_no(wj[0], wm[0], wm[0] < wj[0]), "ml", wj[2] + wm[2], values=(wj[0], wm[0]))

    # group
    name, rs, _ = best_group(q.sel("takeaway"), by_field("place"), "sum", "price")
    q.add("group", "Which takeaway place have I spent the most money at overall?", name, None, rs)
    name, rs, _ = best_group(q.sel("takeaway"), by_field("dish"), "count")
    q.add("group", "what dish do I order most often", name, None, rs)
    name, rs, _ = best_group(q.sel("sleep"), by_week, "avg", "sleep", lowest=True)
    q.add("group", "Which week did I sleep the least on average?", name, None, rs)
    name, rs, _ = best_group(q.sel("fuel"), by_field("station"), "count")
    q.add("group", "How much have I spent in total at the petrol station I use most often?",
          *agg("sum", rs, "cost"))
    name, rs, _ = best_group(q.sel("fuel"), by_month, "sum", "litres")
    q.add("group", "In which month did I put the most litres into the car?", name, None, rs)
    name, rs, _ = best_group(q.sel("fuel"), by_field("station"), "avg", "cost")
    q.add("group", "Which station costs me the most per fill-up on average?", name, None, rs)

    # dates
    q.add("dates", "Total water logged throughout febuary?",
          *agg("sum", q.sel("water", D("2026-02-01"), D("2026-02-28")), "water"))
    q.add("dates", "How many takeaways did I get in late January?",
          *agg("count", q.sel("takeaway", D("2026-01-21"), D("2026-01-31"))))
    wk = week_of(D("2026-03-09"))
    q.add("dates", "average sleep the week of the 9th of March",
          *agg("avg", q.sel("sleep", wk, wk + days(6)), "sleep"))
    qt = "2026-03-01T21:00:00"
    q.add("dates", "over the past fortnight how much did I spend on fuel?",
          *agg("sum", q.sel("fuel", T(qt).date() - days(13), qt=qt), "cost"), qt=qt)
    q.add("dates", "Shortest night's sleep in the first ten days of February?",
          *agg("min", q.sel("sleep", D("2026-02-01"), D("2026-02-10")), "sleep"))
    q.add("dates", "How much did I spend on takeaways between the 3rd and the 17th of February?",
          *agg("sum", q.sel("takeaway", D("2026-02-03"), D("2026-02-17")), "price"))
    return q.items


def gardener_questions(h: History) -> list:
    q = Questions(h, "g", "2026-06-21T23:59:00")
    nosugar, arrive, leave = q.ev("nosugar"), q.ev("arrive"), q.ev("leave")

    # anchored
    qt = "2026-05-12T09:00:00"
    q.add("anchored", "What's my average fasting glucose since I gave up sugar?",
          *agg("avg", q.sel("glucose", nosugar, qt=qt), "glucose"), qt=qt)
    q.add("anchored", "How far did I walk altogether while Megan was staying with me?",
          *agg("sum", q.sel("hike", arrive + ONE, leave - ONE), "distance"))
    q.add("anchored", "What did I weigh the last time I got on the scales before cutting out sugar?",
          *agg("last", q.sel("weight", None, nosugar - ONE), "weight"))
    q.add("anchored", "how many walks have i done in the three weeks after my daughter went home",
          *agg("count", q.sel("hike", leave + ONE, leave + days(21))))
    q.add("anchored", "How much did I spend on groceries in the week before Megan arrived?",
          *agg("sum", q.sel("expense", arrive - days(7), arrive - ONE, category="groceries"), "amount"))
    q.add("anchored", "Highest glucose reading between the GP appointment and my daughter's arrival?",
          *agg("max", q.sel("glucose", nosugar + ONE, arrive - ONE), "glucose"))
    q.add("anchored", "How much did I spend the day after Megan left?",
          *agg("sum", q.sel("expense", leave + ONE, leave + ONE), "amount"))
    q.add("anchored", "My first walk after the doctor told me to drop sugar - how much climbing was it?",
          *agg("first", q.sel("hike", nosugar + ONE), "ascent"))

    # compare
    may = agg("avg", q.sel("glucose", D("2026-05-01"), D("2026-05-31")), "glucose")
    apr = agg("avg", q.sel("glucose", D("2026-04-01"), D("2026-04-30")), "glucose")
    q.add("compare", "Was my glucose lower on average in May than in April?",
          yes_no(may[0], apr[0], may[0] < apr[0]), "mmol/L", apr[2] + may[2], values=(may[0], apr[0]))
    vis = agg("sum", q.sel("expense", arrive + ONE, leave - ONE, category="eating out"), "amount")
    pre = agg("sum", q.sel("expense", arrive - days(14), arrive - ONE, category="eating out"), "amount")
    assert vis[0] > pre[0]
    q.add("compare", "How much more did I spend on eating out during Megan's visit than in the fortnight before it?",
          round(vis[0] - pre[0], 2), "GBP", pre[2] + vis[2])
    first = agg("first", q.sel("weight", nosugar + ONE), "weight")
    latest = agg("last", q.sel("weight", nosugar + ONE), "weight")
    assert first[0] > latest[0]
    q.add("compare", "By how much did my weight drop from my first weigh-in after quitting sugar to my most "
          "recent one?", round(first[0] - latest[0], 1), "kg", first[2] + latest[2])
    il = agg("avg", q.sel("hike", trail="Ilkley Moor"), "ascent")
    ma = agg("avg", q.sel("hike", trail="Malham Cove loop"), "ascent")
    q.add("compare", "Is the average ascent on Ilkley Moor higher than on the Malham Cove loop?",
          yes_no(il[0], ma[0], il[0] > ma[0]), "m", il[2] + ma[2], values=(il[0], ma[0]))
    sa = agg("sum", q.sel("expense", D("2026-04-01"), D("2026-04-30")), "amount")
    sm = agg("sum", q.sel("expense", D("2026-05-01"), D("2026-05-31")), "amount")
    q.add("compare", "percentage change in my total spending from April to May?",
          (sm[0] - sa[0]) / sa[0] * 100, "%", sa[2] + sm[2])
    jn = agg("avg", q.sel("hike", D("2026-06-01"), D("2026-06-30")), "distance")
    my = agg("avg", q.sel("hike", D("2026-05-01"), D("2026-05-31")), "distance")
    q.add("compare", "Were my walks longer on average in June than in May?",
          yes_no(jn[0], my[0], jn[0] > my[0]), "km", my[2] + jn[2], values=(jn[0], my[0]))
    ga = agg("sum", q.sel("expense", D("2026-05-01"), D("2026-05-31"), category="garden"), "amount")
    gr = agg("sum", q.sel("expense", D("2026-05-01"), D("2026-05-31"), category="groceries"), "amount")
    assert ga[0] != gr[0]
    win = "garden" if ga[0] > gr[0] else "groceries"
    q.add("compare", "In May, did I spend more on garden stuff or on groceries?", win, None, ga[2] + gr[2],
          answer=f"{win} ({show(ga[0])} vs {show(gr[0])} GBP)")

    # group
    name, rs, _ = best_group(q.sel("expense"), by_field("category"), "sum", "amount")
    q.add("group", "Which category do I spend the most on?", name, None, rs)
    name, rs, _ = best_group(q.sel("hike"), by_field("trail"), "count")
    q.add("group", "Which trail have I walked most often?", name, None, rs)
    name, rs, _ = best_group(q.sel("expense"), by_field("payee"), "sum", "amount")
    q.add("group", "Who have I paid the most money to, in total?", name, None, rs)
    name, rs, _ = best_group(q.sel("glucose"), by_week, "avg", "glucose")
    q.add("group", "Which week had my highest avarage fasting glucose?", name, None, rs)
    name, rs, _ = best_group(q.sel("expense"), by_field("payee"), "count")
    q.add("group", "How much have I spent altogether at the place I pay most often?", *agg("sum", rs, "amount"))
    name, rs, _ = best_group(q.sel("hike"), by_field("trail"), "avg", "ascent")
    q.add("group", "Which trail has given me the most climbing on average?", name, None, rs)
    name, rs, _ = best_group(q.sel("weight"), by_month, "avg", "weight", lowest=True)
    q.add("group", "which month did I weigh the least on average", name, None, rs)

    # dates
    q.add("dates", "How many km did I walk in the first half of May?",
          *agg("sum", q.sel("hike", D("2026-05-01"), D("2026-05-15")), "distance"))
    q.add("dates", "average weight in early June",
          *agg("avg", q.sel("weight", D("2026-06-01"), D("2026-06-10")), "weight"))
    q.add("dates", "What's the most I've spent in one go since mid-May?",
          *agg("max", q.sel("expense", D("2026-05-15")), "amount"))
    end = T(q.qt_default).date()
    q.add("dates", "total spent over the last three weeks",
          *agg("sum", q.sel("expense", end - days(20)), "amount"))
    q.add("dates", "Lowest glucose reading at the end of April?",
          *agg("min", q.sel("glucose", D("2026-04-24"), D("2026-04-30")), "glucose"))
    q.add("dates", "How many walks did I do in the second half of April?",
          *agg("count", q.sel("hike", D("2026-04-16"), D("2026-04-30"))))
    return q.items


def student_questions(h: History) -> list:
    q = Questions(h, "s", "2025-12-21T23:59:00")
    club, exams, done = q.ev("club"), q.ev("exams"), q.ev("done")

    # anchored
    qt = "2025-11-30T20:00:00"
    q.add("anchored", "How many lengths have I swum since joining the swim club?",
          *agg("sum", q.sel("swim", club, qt=qt), "lengths"), qt=qt)
    q.add("anchored", "average study session length in the week before exams started",
          *agg("avg", q.sel("study", exams - days(7), exams - ONE), "duration"))
    q.add("anchored", "total minutes of meditation during the exam period?",
          *agg("sum", q.sel("meditation", exams, done), "length"))
    q.add("anchored", "How long was my first swim after I finished my exams?",
          *agg("first", q.sel("swim", done + ONE), "time"))
    q.add("anchored", "How many pharmacology sessions did I log before signing up for the club?",
          *agg("count", q.sel("study", None, club - ONE, subject="Pharmacology")))
    q.add("anchored", "Longest study session between joining the swim club and my first exam?",
          *agg("max", q.sel("study", club + ONE, exams - ONE), "duration"))
    q.add("anchored", "how many lengths did I do the day after I joined the club",
          *agg("sum", q.sel("swim", club + ONE, club + ONE), "lengths"))
    q.add("anchored", "What was the last meditation style I did before exams kicked off?",
          *agg("last", q.sel("meditation", None, exams - ONE), "style"))

    # compare
    nov = agg("sum", q.sel("meditation", D("2025-11-01"), D("2025-11-30")), "length")
    oct_ = agg("sum", q.sel("meditation", D("2025-10-01"), D("2025-10-31")), "length")
    q.add("compare", "Did I meditate more in total in November than in October?",
          yes_no(nov[0], oct_[0], nov[0] > oct_[0]), "min", oct_[2] + nov[2], values=(nov[0], oct_[0]))
    wb = agg("sum", q.sel("study", exams - days(7), exams - ONE), "duration")
    wa = agg("sum", q.sel("study", done + ONE, done + days(7)), "duration")
    q.add("compare", "What's the difference in total study time between the week before exams and the week "
          "after they ended?", wb[0] - wa[0], "min", wb[2] + wa[2])
    aq = agg("avg", q.sel("swim", pool="Aquatics Centre"), "lengths")
    ms = agg("avg", q.sel("swim", pool="Moss Side Leisure Centre"), "lengths")
    q.add("compare", "Do I swim more lengths on average at the Aquatics Centre than at Moss Side?",
          yes_no(aq[0], ms[0], aq[0] > ms[0]), None, aq[2] + ms[2], values=(aq[0], ms[0]))
    bef = agg("avg", q.sel("meditation", None, exams - ONE), "length")
    dur = agg("avg", q.sel("meditation", exams, done), "length")
    q.add("compare", "percentage change in my average meditaion length from before exams to during exams",
          (dur[0] - bef[0]) / bef[0] * 100, "%", bef[2] + dur[2])
    so = agg("avg", q.sel("swim", D("2025-10-01"), D("2025-10-31")), "time")
    sn = agg("avg", q.sel("swim", D("2025-11-01"), D("2025-11-30")), "time")
    q.add("compare", "Did my average swim time go up from October to November?",
          yes_no(so[0], sn[0], sn[0] > so[0]), "min", so[2] + sn[2], values=(so[0], sn[0]))
    ph = agg("sum", q.sel("study", subject="Pharmacology"), "duration")
    bi = agg("sum", q.sel("study", subject="Biochemistry"), "duration")
    assert ph[0] != bi[0]
    win = "Pharmacology" if ph[0] > bi[0] else "Biochemistry"
    q.add("compare", "Which have I studied more overall, pharmacology or biochemistry?", win, None,
          ph[2] + bi[2], answer=f"{win} ({ph[0]} vs {bi[0]} min)")
    cn = agg("count", q.sel("swim", D("2025-11-01"), D("2025-11-30")))
    cd = agg("count", q.sel("swim", D("2025-12-01"), D("2025-12-31")))
    assert cn[0] > cd[0]
    q.add("compare", "How many fewer swims did I do in December than in November?", cn[0] - cd[0], None,
          cn[2] + cd[2])

    # group
    name, rs, _ = best_group(q.sel("study"), by_field("subject"), "sum", "duration")
    q.add("group", "Which subject have I put the most hours into?", name, None, rs)
    name, rs, _ = best_group(q.sel("swim"), by_field("pool"), "count")
    q.add("group", "which pool do I go to most?", name, None, rs)
    name, rs, _ = best_group(q.sel("study"), by_week, "sum", "duration")
    q.add("group", "Which week did I study the most in total?", name, None, rs)
    name, rs, _ = best_group(q.sel("meditation"), by_field("style"), "count")
    q.add("group", "What style of meditation do I do most often?", name, None, rs)
    name, rs, _ = best_group(q.sel("swim"), by_field("pool"), "count")
    q.add("group", "Total lengths at the pool I swim at most often?", *agg("sum", rs, "lengths"))
    name, rs, _ = best_group(q.sel("meditation"), by_month, "avg", "length")
    q.add("group", "Which month had the highest average meditation length?", name, None, rs)

    # dates
    q.add("dates", "How much did I study in the second half of November?",
          *agg("sum", q.sel("study", D("2025-11-16"), D("2025-11-30")), "duration"))
    q.add("dates", "How many swims in the first 10 days of December?",
          *agg("count", q.sel("swim", D("2025-12-01"), D("2025-12-10"))))
    wk = week_of(D("2025-11-17"))
    q.add("dates", "average meditation length the week of 17 November",
          *agg("avg", q.sel("meditation", wk, wk + days(6)), "length"))
    end = T(q.qt_default).date()
    q.add("dates", "longest swim over the past fortnight?",
          *agg("max", q.sel("swim", end - days(13)), "time"))
    q.add("dates", "total study minutes between the 3rd and the 9th of November",
          *agg("sum", q.sel("study", D("2025-11-03"), D("2025-11-09")), "duration"))
    q.add("dates", "how many times did i meditate throughout october?",
          *agg("count", q.sel("meditation", D("2025-10-01"), D("2025-10-31"))))
    return q.items


# --------------------------------------------------------------------------


def main() -> None:
    made = [("nurse", make_nurse, nurse_questions), ("gardener", make_gardener, gardener_questions),
            ("student", make_student, student_questions)]
    everything, out = [], []
    for i, (name, make, ask) in enumerate(made):
        h = make(random.Random(SEED * 10 + i))
        for key, (day, rid) in h.events.items():  # no record on an event day
            assert not [r for r in h.recs if r.day == day], (name, key)
        items = ask(h)
        out.append((name, h, items))
        everything += items
        nrounds = sum(len(s["rounds"]) for s in h.sessions)
        kinds = {k: sum(r.kind == k for r in h.recs) for k in dict.fromkeys(r.kind for r in h.recs)}
        events = ", ".join(f"{k} {d} {rid}" for k, (d, rid) in h.events.items())
        print(f"{name}: user {h.user_id}, {len(h.sessions)} sessions {h.start}..{h.end}, {nrounds} rounds, "
              f"records {kinds}; events: {events}")
    ids = [x["question_id"] for x in everything]
    assert len(ids) == len(set(ids))
    for name, h, items in out:  # written only once every check has passed
        (HERE / f"history_{name}.json").write_text(json.dumps(h.document(), indent=1) + "\n")
        (HERE / f"questions_{name}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in items))
    (HERE / "questions.jsonl").write_text("".join(json.dumps(x) + "\n" for x in everything))
    fam = {f: sum(x["family"] == f for x in everything) for f in ("anchored", "compare", "group", "dates")}
    yn = [x["gold"]["value"] for x in everything if x["gold"]["value"] in ("yes", "no")]
    print(f"{len(everything)} questions {fam}; yes/no: {yn.count('yes')} yes, {yn.count('no')} no")


if __name__ == "__main__":
    main()
