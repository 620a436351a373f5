#!/usr/bin/env python3
"""Generate the compositional evaluation set: three histories, questions, gold.

Stdlib only, seeded and deterministic: `python tools/datasets/compositional/make_compositional.py`
rewrites every data file in this folder byte for byte.  Every gold value is computed
from the records this script wrote; the assertions below check that each question is
well defined (non-empty filter, unique argmax/argmin, a record on every single-day
question, no record on any ambiguous boundary day).  Conventions: README.md.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from datetime import date, datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEED = 20260716
DAY = timedelta(days=1)
QT_CLOCK = "T23:45:00"


def D(s: str) -> date:
    return date.fromisoformat(s)


def days(a: date, b: date):
    while a <= b:
        yield a
        a += DAY


def hm(rng, lo: str, hi: str) -> str:
    a = int(lo[:2]) * 60 + int(lo[3:])
    b = int(hi[:2]) * 60 + int(hi[3:])
    m = rng.randint(a, b)
    return f"{m // 60:02d}:{m % 60:02d}"


def clamp(x, lo, hi):
    return max(lo, min(hi, x))


class Rec:
    __slots__ = ("kind", "day", "time", "rid", "f")

    def __init__(self, kind, day, time, f):
        self.kind, self.day, self.time, self.f, self.rid = kind, day, time, f, None


# ---------------------------------------------------------------- rendering records


def render(rng, leads, items, forms, captions=None, lower_p=0.3):
    """items: [(label, shown text, json value)] -> (user text, caption or None)."""
    if rng.random() < lower_p:
        items = [(lab.lower(), s, j) for lab, s, j in items]
    form = rng.choice(forms)
    lead = rng.choice(leads)
    if form == "caption":
        user, title = rng.choice(captions)
        sep = rng.choice([", ", " · ", " | "])
        return user, f"{title}. " + sep.join(f"{lab}: {s}" for lab, s, _ in items)
    if form == "dash":
        return f"{lead} - " + ", ".join(f"{lab}: {s}" for lab, s, _ in items), None
    if form == "pipe":
        return f"{lead} | " + " | ".join(f"{lab}: {s}" for lab, s, _ in items), None
    if form == "eq":
        return f"{lead}. " + ", ".join(f"{lab} = {s}" for lab, s, _ in items), None
    if form == "json":
        body = json.dumps({lab: j for lab, _, j in items}, ensure_ascii=False)
        return f"{lead} {body}", None
    if form == "lines":
        return lead + "\n" + "\n".join(f"{lab}: {s}" for lab, s, _ in items), None
    raise ValueError(form)


def num(v, dec, unit=None):
    s = f"{v:.{dec}f}" if dec else str(int(v))
    return (f"{s} {unit}", f"{s} {unit}") if unit else (s, int(v) if not dec else v)


def items_of(rec, spec):
    """spec: [(label, unit or None, decimals or 'text')] in display order."""
    out = []
    for lab, unit, dec in spec:
        v = rec[lab]
        if dec == "text":
            out.append((lab, v, v))
        else:
            s, j = num(v, dec, unit)
            out.append((lab, s, j))
    return out


ACKS = [
    "Logged.",
    "Got it, saved.",
    "Noted.",
    "Saved to your log.",
    "Thanks, added.",
    "Done, it's in.",
    "Recorded.",
]

# -------------------------------------------------------------------- history: Maya

MAYA_EV = {"knee": D("2026-01-23"), "moved": D("2026-02-14"), "job": D("2026-03-09")}
MAYA = {
    "name": "maya",
    "user_id": "maya_k",
    "start": D("2026-01-05"),
    "end": D("2026-03-29"),
    "events": [
        (
            "knee",
            "18:40",
            "Disaster. Slipped on the icy steps at the tram stop and came down on my "
            "left knee - it's swollen like a grapefruit and the physio says no running for a couple of "
            "weeks.",
            "Oh no, I'm sorry. Rest it, keep it iced and follow the physio's plan.",
        ),
        (
            "moved",
            "21:10",
            "Finally got the keys! We spent the whole day hauling boxes up to the "
            "fourth floor of the new flat in Neukölln. Every muscle aches, but it's ours.",
            "Congratulations on the new home! Enjoy the first night there.",
        ),
        (
            "job",
            "19:05",
            "First day at Lindqvist & Partners today! Got my badge and laptop, met the "
            "whole team, and my brain is completely fried.",
            "Congratulations on day one!",
        ),
    ],
    "mentions": [
        (
            D("2026-02-03"),
            "Knee is much less puffy today, stairs are still annoying though.",
            "Good to hear it's settling down.",
        ),
        (
            D("2026-02-24"),
            "The new place still smells of paint and half the boxes are unopened.",
            "It takes a while to feel settled - one box at a time.",
        ),
        (
            D("2026-03-18"),
            "Second week at Lindqvist and I finally know where the quiet meeting rooms are.",
            "That's a real milestone in any office.",
        ),
    ],
    "chat": [
        (
            "Any idea for a quick dinner with leeks and potatoes?",
            "A leek and potato soup, or a gratin if you have cheese.",
        ),
        (
            "The tram was late again this morning.",
            "That's frustrating, especially in the cold.",
        ),
        (
            "Book club picked Middlemarch, wish me luck.",
            "It's long but very rewarding.",
        ),
        ("My monstera has a new leaf!", "Lovely, it must like its spot."),
        (
            "Remind me to call my sister this weekend.",
            "I'll keep that in mind for the weekend.",
        ),
        (
            "What's a good stretch for tight calves?",
            "A wall calf stretch, held for a while on each side, works well.",
        ),
        (
            "Watched the new Tatort last night, weirdly good.",
            "Glad it was worth staying up for.",
        ),
        (
            "Should I get a rice cooker or is that silly?",
            "Not silly if you cook rice often.",
        ),
        ("It's snowing again, the whole street is white.", "Sounds pretty, stay warm."),
        (
            "Need a birthday gift idea for my dad, he likes birds.",
            "A good pair of binoculars or a bird guide.",
        ),
        ("Made shakshuka for lunch, very proud.", "That sounds delicious."),
        (
            "Is it worth learning Swedish with an app?",
            "Apps are a good start, especially with a little daily practice.",
        ),
        (
            "Forgot my umbrella, of course it's raining.",
            "Classic timing, hope you didn't get soaked.",
        ),
        (
            "How do I get wax out of a tablecloth?",
            "Freeze it, scrape it off, then iron it between paper towels.",
        ),
        (
            "Podcast recommendation for the commute?",
            "Try a narrative history or science show.",
        ),
        ("My neighbour's cat visited again.", "A charming regular guest."),
        (
            "How do I descale a kettle without vinegar?",
            "Citric acid or lemon juice works well - boil, leave, rinse.",
        ),
        (
            "Is it too early to plan a summer trip?",
            "Not at all, early planning often means better options.",
        ),
        (
            "Found a great second-hand bookshop near the station.",
            "Those are treasures, enjoy browsing.",
        ),
        (
            "What goes well with roasted beetroot?",
            "Goat's cheese, walnuts and a little orange.",
        ),
        (
            "Colleague brought cinnamon rolls, the day is saved.",
            "The best kind of colleague.",
        ),
        (
            "My playlist keeps shuffling to the same song.",
            "Shuffle can feel weirdly repetitive, try a fresh mix.",
        ),
        (
            "Should I repot the cactus in winter?",
            "Better to wait for spring when it starts growing.",
        ),
        (
            "The heating in the building is acting up.",
            "Worth letting the building manager know.",
        ),
    ],
    "units": {
        "sleep": [("Total sleep", "h", 1), ("Deep sleep", "h", 1)],
        "coffee": [
            ("Cafe", None, "text"),
            ("Drink", None, "text"),
            ("Price", "EUR", 2),
        ],
        "run": [("Distance", "km", 1), ("Duration", "min", 0), ("Route", None, "text")],
        "weight": [("Weight", "kg", 1), ("Body fat", "%", 1)],
    },
    "look": {
        "sleep": (
            ["Sleep last night", "Sleep", "Last night", "Sleep log"],
            ["dash", "pipe", "eq", "json", "caption", "lines"],
            [
                ("Sleep app this morning", "Sleep tracker summary"),
                ("Screenshot of my sleep", "Sleep dashboard"),
            ],
        ),
        "coffee": (
            ["Coffee", "coffee log", "Receipt", "Coffee run"],
            ["pipe", "eq", "json", "dash", "caption"],
            [("Receipt photo", "Cafe receipt"), ("Card payment screenshot", "Payment")],
        ),
        "run": (
            ["Run done", "Evening run", "Run", "Run log"],
            ["dash", "pipe", "json", "caption", "lines"],
            [("From my running app", "Run summary"), ("Watch screenshot", "Workout")],
        ),
        "weight": (
            ["Morning weigh-in", "Scale", "Weight check"],
            ["dash", "eq", "pipe", "caption", "json"],
            [("Smart scale app", "Body composition")],
        ),
    },
}
CAFE_OFFSET = {
    "Blue Door": 0.0,
    "Kaffeehaus Mitte": 0.30,
    "Bean There": -0.20,
    "Corner Beans": 0.50,
}
DRINK_PRICE = {
    "flat white": 3.80,
    "oat latte": 4.20,
    "cappuccino": 3.50,
    "espresso": 2.40,
    "filter coffee": 3.00,
}
DRINK_W = [
    ("flat white", 38),
    ("oat latte", 22),
    ("cappuccino", 20),
    ("espresso", 10),
    ("filter coffee", 10),
]


def wchoice(rng, pairs):
    return rng.choices([p for p, _ in pairs], weights=[w for _, w in pairs])[0]


def maya_day(day, rng, force):
    K, M, J = MAYA_EV["knee"], MAYA_EV["moved"], MAYA_EV["job"]
    out = []
    if force("weight") or rng.random() < 0.62:
        t = (day - MAYA["start"]).days
        w = (
            65.4
            - 0.012 * t
            + (0.6 if K < day < K + 18 * DAY else 0)
            + (0.3 if day > J else 0)
        )
        out.append(
            (
                "weight",
                hm(rng, "06:40", "07:20"),
                {
                    "Weight": round(rng.gauss(w, 0.25), 1),
                    "Body fat": round(rng.gauss(24.6 - 0.008 * t, 0.3), 1),
                },
            )
        )
    if force("sleep") or rng.random() < 0.9:
        mu = 6.9 if day < M else (7.35 if day < J else 6.95)
        tot = round(clamp(rng.gauss(mu, 0.55), 4.8, 9.2), 1)
        out.append(
            (
                "sleep",
                hm(rng, "07:00", "08:30"),
                {
                    "Total sleep": tot,
                    "Deep sleep": round(tot * rng.uniform(0.14, 0.22), 1),
                },
            )
        )
    n = 0 if rng.random() < 0.12 else 1
    if n and rng.random() < (0.45 if day > J else 0.25):
        n = 2
    if force("coffee"):
        n = max(n, 1)
    cafes = (
        [("Blue Door", 45), ("Kaffeehaus Mitte", 35), ("Bean There", 20)]
        if day < M
        else [("Corner Beans", 45), ("Blue Door", 30), ("Bean There", 25)]
    )
    for i in range(n):
        cafe, drink = wchoice(rng, cafes), wchoice(rng, DRINK_W)
        price = (
            DRINK_PRICE[drink]
            + CAFE_OFFSET[cafe]
            + (0.20 if cafe == "Blue Door" and day >= D("2026-03-01") else 0)
        )
        out.append(
            (
                "coffee",
                hm(rng, "08:10", "10:30") if i == 0 else hm(rng, "13:30", "16:30"),
                {"Cafe": cafe, "Drink": drink, "Price": round(price, 2)},
            )
        )
    if K < day < K + 14 * DAY:
        p, routes = 0.0, []
    elif day < K:
        p, routes = (
            0.65,
            [
                ("Riverside Loop", (5.0, 7.0)),
                ("Park Circuit", (4.0, 5.5)),
                ("Hill Repeats", (6.0, 8.0)),
            ],
        )
    elif day < M:
        p, routes = 0.5, [("Park Circuit", (3.0, 4.5)), ("Riverside Loop", (3.5, 5.0))]
    else:
        p, routes = (
            0.65,
            [
                ("Canal Path", (6.0, 9.0)),
                ("Riverside Loop", (5.0, 7.0)),
                ("Harbour Trail", (4.5, 6.5)),
            ],
        )
    if routes and (force("run") or rng.random() < p):
        route, (lo, hi) = rng.choice(routes)
        dist = round(rng.uniform(lo, hi), 1)
        when = (
            hm(rng, "07:00", "08:00")
            if day.weekday() >= 5
            else hm(rng, "18:00", "19:30")
        )
        out.append(
            (
                "run",
                when,
                {
                    "Route": route,
                    "Distance": dist,
                    "Duration": round(dist * rng.uniform(5.5, 6.5)),
                },
            )
        )
    return out


# --------------------------------------------------------------------- history: Tom

TOM_EV = {"dog": D("2026-03-21"), "out": D("2026-04-18"), "back": D("2026-04-26")}
TOM = {
    "name": "tom",
    "user_id": "tom_r",
    "start": D("2026-03-02"),
    "end": D("2026-05-24"),
    "events": [
        (
            "dog",
            "15:20",
            "We drove out to the breeder this morning and came back with Biscuit, a "
            "ten-week-old beagle. He's asleep on my foot as I type this.",
            "He sounds adorable - welcome to the family, Biscuit!",
        ),
        (
            "out",
            "06:05",
            "Sitting at Gatwick at six in the morning with a terrible coffee. Lisbon for "
            "a whole week, and Biscuit is staying with my parents!",
            "Have a wonderful trip!",
        ),
        (
            "back",
            "20:30",
            "Home again. Three loads of laundry on, the fridge is empty, and Biscuit "
            "nearly knocked my mum over when he saw us.",
            "Welcome back - sounds like a happy reunion.",
        ),
    ],
    "mentions": [
        (
            D("2026-04-02"),
            "Biscuit chewed through my phone charger cable. That dog is a menace.",
            "Puppies and cables - time to hide them away.",
        ),
        (
            D("2026-05-03"),
            "Still showing everyone the Lisbon photos, those tiles were unreal.",
            "They really are beautiful.",
        ),
    ],
    "chat": [
        (
            "Spurs threw away a two goal lead again.",
            "Painful - there's always next weekend.",
        ),
        (
            "What can I plant in a shady corner of the garden?",
            "Ferns, hostas and foxgloves cope well with shade.",
        ),
        (
            "Sam wants to repaint the kitchen yellow. Thoughts?",
            "A soft yellow can make a kitchen feel warm and bright.",
        ),
        (
            "How do I stop a tap dripping?",
            "Usually a worn washer or cartridge - turn off the water and replace it.",
        ),
        (
            "Any good crime series to binge?",
            "Try a Scandinavian noir or a classic British detective series.",
        ),
        (
            "The boiler is making a weird knocking noise.",
            "Could be air or limescale; worth getting it serviced.",
        ),
        (
            "Easy vegetarian curry idea?",
            "A chickpea and spinach curry is quick and forgiving.",
        ),
        (
            "Rain all day, classic bank holiday vibes.",
            "A good excuse for a film and a cup of tea.",
        ),
        (
            "Should I get the car washed or just wait for more rain?",
            "If more rain is coming, waiting is reasonable.",
        ),
        (
            "My brother is visiting next month.",
            "Nice, you'll have to plan a good pub lunch.",
        ),
        (
            "Sam's birthday is coming up, gift ideas?",
            "An experience, like a cooking class, is often a hit.",
        ),
        ("Finally fixed the wobbly shelf.", "Small jobs done feel great."),
        (
            "Is it normal for sourdough starter to smell like nail polish?",
            "Yes, it usually just means it's hungry - feed it.",
        ),
        (
            "Traffic on the ring road was horrendous.",
            "Sounds exhausting, glad you made it.",
        ),
        (
            "How long do I rest a roast chicken?",
            "Long enough for the juices to settle - loosely covered in foil.",
        ),
        ("Pub quiz tonight, we came second again.", "So close - next time it's yours."),
        (
            "Any tips for getting rid of greenfly on roses?",
            "Soapy water spray or encourage ladybirds.",
        ),
        (
            "Sam and I are thinking about a new sofa.",
            "Sit on a few in person before deciding.",
        ),
        (
            "The hedge needs cutting again already.",
            "It's that time of year for growth.",
        ),
        (
            "What's a good board game for four people?",
            "Ticket to Ride or Codenames are crowd-pleasers.",
        ),
        (
            "Finally finished the jigsaw on the dining table.",
            "Satisfying - and you get your table back.",
        ),
        (
            "Work laptop decided to update in the middle of a call.",
            "The worst timing, they always pick the moment.",
        ),
    ],
    "units": {
        "expense": [
            ("Shop", None, "text"),
            ("Category", None, "text"),
            ("Amount", "GBP", 2),
        ],
        "steps": [("Steps", "steps", 0), ("Active minutes", "min", 0)],
        "mood": [("Mood", None, 0), ("Energy", None, 0)],
    },
    "look": {
        "expense": (
            ["Receipt", "Spent", "Shopping", "Expense"],
            ["pipe", "eq", "json", "dash", "caption"],
            [
                ("Banking app notification", "Card payment"),
                ("Photo of the receipt", "Receipt"),
            ],
        ),
        "steps": (
            ["Steps today", "Activity", "Daily activity"],
            ["caption", "caption", "dash", "pipe", "eq"],
            [
                ("Health app screenshot", "Health summary"),
                ("Watch summary for today", "Activity rings"),
            ],
        ),
        "mood": (
            ["Mood check-in", "Check-in", "Evening check-in"],
            ["eq", "pipe", "json", "dash", "lines"],
            None,
        ),
    },
}
SHOPS = {  # shop -> (amount range, category weights)
    "Tesco": (
        (12.0, 55.0),
        [("groceries", 75), ("household", 15), ("pet supplies", 10)],
    ),
    "Lidl": ((9.0, 38.0), [("groceries", 90), ("household", 10)]),
    "Waitrose": ((20.0, 68.0), [("groceries", 100)]),
    "Boots": ((4.0, 22.0), [("toiletries", 100)]),
    "Corner Shop": ((1.8, 8.5), [("snacks", 100)]),
    "Pets at Home": ((8.0, 45.0), [("pet supplies", 100)]),
}


def tom_day(day, rng, force):
    G, O, B = TOM_EV["dog"], TOM_EV["out"], TOM_EV["back"]
    away = O < day < B
    out = []
    if force("steps") or rng.random() < 0.92:
        mu = 15000 if away else (10500 if day > G else 7000)
        st = int(clamp(rng.gauss(mu, 2200 if away else 1800), 1800, 26000))
        out.append(
            (
                "steps",
                hm(rng, "21:30", "22:30"),
                {
                    "Steps": st,
                    "Active minutes": int(clamp(st / 160 + rng.gauss(0, 8), 5, 240)),
                },
            )
        )
    if force("mood") or rng.random() < 0.8:
        mu = 8.0 if away else (6.8 if day > G else 5.8)
        if day.month == 5:
            mu -= 0.4
        mood = int(clamp(round(rng.gauss(mu, 1.0)), 1, 10))
        out.append(
            (
                "mood",
                hm(rng, "20:00", "21:20"),
                {
                    "Mood": mood,
                    "Energy": int(clamp(round(rng.gauss(mood - 0.5, 1.2)), 1, 10)),
                },
            )
        )
    if away:
        return out
    n = 0 if rng.random() < 0.25 else (2 if rng.random() < 0.3 else 1)
    if force("expense"):
        n = max(n, 1)
    shops = [
        ("Tesco", 30),
        ("Lidl", 25),
        ("Waitrose", 10),
        ("Boots", 8),
        ("Corner Shop", 15),
    ]
    if day > G:
        shops.append(("Pets at Home", 12))
    used = []
    for i in range(n):
        if day == G + DAY and i == 0:
            shop, amt, cat = (
                "Pets at Home",
                round(rng.uniform(60, 95), 2),
                "pet supplies",
            )
        else:
            shop = wchoice(rng, [s for s in shops if s[0] not in used])
            (lo, hi), cats = SHOPS[shop]
            cat = wchoice(rng, [c for c in cats if c[0] != "pet supplies" or day > G])
            amt = round(rng.uniform(lo, hi), 2)
        used.append(shop)
        out.append(
            (
                "expense",
                hm(rng, "10:00", "13:00") if i == 0 else hm(rng, "16:00", "19:00"),
                {"Shop": shop, "Category": cat, "Amount": amt},
            )
        )
    return out


# ------------------------------------------------------------------- history: Priya

PRIYA_EV = {"job": D("2026-06-15"), "meds": D("2026-07-08")}
PRIYA = {
    "name": "priya",
    "user_id": "priya_s",
    "start": D("2026-06-01"),
    "end": D("2026-08-23"),
    "events": [
        (
            "job",
            "18:15",
            "Day one at the research unit at St Mary's! I have a desk by the window, a "
            "badge that doesn't open anything yet and a very long onboarding checklist.",
            "What an exciting start - congratulations!",
        ),
        (
            "meds",
            "14:10",
            "Saw Dr Okafor about my readings this morning. She's put me on amlodipine, "
            "one a day, and I took the first tablet with lunch.",
            "Good that you have a plan with her. Keep logging and she'll see how it goes.",
        ),
    ],
    "mentions": [
        (
            D("2026-06-29"),
            "Two weeks in at St Mary's and I already have strong opinions about the coffee machine.",
            "Every office has one of those machines.",
        ),
        (
            D("2026-07-22"),
            "No side effects from the amlodipine so far, just a little tired in the afternoons.",
            "Good to hear; mention the tiredness at your next check-up.",
        ),
    ],
    "chat": [
        (
            "Making dal tonight, red lentils or yellow?",
            "Red lentils cook faster and go creamy.",
        ),
        (
            "My sister sent me a podcast about octopuses, surprisingly moving.",
            "They're remarkable animals.",
        ),
        (
            "The tomatoes on the balcony are finally turning red.",
            "Lovely, homegrown ones taste best.",
        ),
        (
            "It's so humid today, I feel like soup.",
            "Maybe a chilled soup would be kinder today.",
        ),
        (
            "Any tips for keeping basil alive?",
            "Lots of light, water at the base and pinch off the flowers.",
        ),
        ("Thunderstorm rolling in, the sky is purple.", "Sounds dramatic, stay dry."),
        (
            "What's a good gift for a friend who just finished her PhD?",
            "A nice pen, a framed cover page or a celebratory dinner.",
        ),
        (
            "Tried a new bakery, their cardamom buns are dangerous.",
            "Cardamom buns are hard to resist.",
        ),
        (
            "Need a playlist for cleaning the flat.",
            "Upbeat soul or disco makes chores fly by.",
        ),
        (
            "How long should I steep green tea?",
            "Short and not too hot, or it turns bitter.",
        ),
        (
            "My landlord finally fixed the window latch.",
            "Good, one less thing to worry about.",
        ),
        ("Reading in the park was perfect today.", "Sounds like an ideal afternoon."),
        (
            "Should I learn to make dosa at home?",
            "Definitely worth a try once you have a good batter.",
        ),
        (
            "The neighbours are having a barbecue and it smells amazing.",
            "Hard to ignore that smell.",
        ),
        (
            "What's a good side dish for paneer tikka?",
            "A cucumber raita and a simple onion salad.",
        ),
        (
            "Mum called to ask about Diwali plans already.",
            "She likes to plan ahead - nice to be thought of.",
        ),
        (
            "My sunflowers are taller than me now.",
            "That must look wonderful on the balcony.",
        ),
        (
            "Which podcast app is the least annoying?",
            "Pick one with good offline downloads and few ads.",
        ),
        ("Fixed the squeaky wheel on the office chair.", "Small victories."),
        (
            "Is it weird to reread a book right after finishing it?",
            "Not at all - you notice new things the second time.",
        ),
        (
            "Iced coffee or iced tea for this heat?",
            "Iced tea if you want to stay hydrated.",
        ),
        (
            "The farmers market had the sweetest peaches.",
            "Summer peaches are hard to beat.",
        ),
    ],
    "units": {
        "bp": [("Systolic", "mmHg", 0), ("Diastolic", "mmHg", 0), ("Pulse", "bpm", 0)],
        "screen": [("Screen time", "h", 1), ("Social media", "h", 1)],
        "reading": [
            ("Book", None, "text"),
            ("Pages", None, 0),
            ("Reading time", "min", 0),
        ],
        "ride": [
            ("Route", None, "text"),
            ("Distance", "km", 1),
            ("Duration", "min", 0),
        ],
    },
    "look": {
        "bp": (
            ["BP this morning", "Blood pressure", "Morning BP"],
            ["dash", "pipe", "eq", "json", "caption"],
            [("Photo of the cuff display", "Blood pressure monitor")],
        ),
        "screen": (
            ["Screen time today", "Phone usage"],
            ["caption", "caption", "caption", "eq", "pipe"],
            [
                ("Screen time screenshot", "Screen Time report"),
                ("Today's phone report", "Digital wellbeing"),
            ],
        ),
        "reading": (
            ["Reading log", "Read before bed", "Reading"],
            ["pipe", "eq", "json", "dash", "lines"],
            None,
        ),
        "ride": (
            ["Ride", "Bike ride", "Cycling"],
            ["pipe", "dash", "json", "caption"],
            [("From the cycling app", "Ride summary")],
        ),
    },
}


def priya_book(day, rng):
    if day < D("2026-06-15"):
        return "Piranesi"
    if day < D("2026-07-12"):
        return "Middlemarch"
    if day < D("2026-07-21"):
        return rng.choice(["Middlemarch", "Circe", "Circe"])
    if day < D("2026-08-06"):
        return "Circe"
    return (
        rng.choice(["The Overstory", "The Overstory", "Circe"])
        if day < D("2026-08-10")
        else "The Overstory"
    )


def priya_day(day, rng, force):
    J, Md = PRIYA_EV["job"], PRIYA_EV["meds"]
    out = []
    if force("bp") or rng.random() < 0.8:
        if day < Md:
            sy, di = 138.0, 88.0
        else:
            k = min(1.0, (day - Md).days / 12)
            sy, di = 138.0 - 12 * k, 88.0 - 7 * k
        out.append(
            (
                "bp",
                hm(rng, "07:00", "07:40"),
                {
                    "Systolic": round(rng.gauss(sy, 5)),
                    "Diastolic": round(rng.gauss(di, 4)),
                    "Pulse": round(rng.gauss(70, 5)),
                },
            )
        )
    if force("screen") or rng.random() < 0.85:
        tot, soc = (6.4, 2.4) if day < J else (4.6, 1.5)
        tot = round(clamp(rng.gauss(tot, 0.9), 1.5, 11), 1)
        out.append(
            (
                "screen",
                hm(rng, "22:00", "22:45"),
                {
                    "Screen time": tot,
                    "Social media": round(
                        clamp(rng.gauss(soc, 0.45), 0.2, tot - 0.5), 1
                    ),
                },
            )
        )
    if force("reading") or rng.random() < 0.7:
        pages = rng.randint(12, 55)
        out.append(
            (
                "reading",
                hm(rng, "21:00", "21:50"),
                {
                    "Book": priya_book(day, rng),
                    "Pages": pages,
                    "Reading time": int(round(pages * rng.uniform(1.1, 1.6))),
                },
            )
        )
    weekday = day.weekday() < 5
    if weekday and day > J:
        p, commute = 0.75, True
    else:
        p, commute = (0.65 if not weekday else 0.2), False
    if force("ride") or rng.random() < p:
        if commute:
            route, dist, pace, when = (
                "Commute",
                rng.uniform(8.2, 8.8),
                rng.uniform(3.0, 3.6),
                hm(rng, "08:00", "08:25"),
            )
        else:
            route, (lo, hi) = rng.choice(
                [
                    ("Lakeside", (15, 22)),
                    ("Hill Loop", (25, 35)),
                    ("River Path", (10, 14)),
                ]
            )
            dist, pace, when = (
                rng.uniform(lo, hi),
                rng.uniform(2.6, 3.2),
                hm(rng, "09:30", "11:00"),
            )
        dist = round(dist, 1)
        out.append(
            (
                "ride",
                when,
                {"Route": route, "Distance": dist, "Duration": round(dist * pace)},
            )
        )
    return out


# ---------------------------------------------------------------- building a history


def build(cfg, make_day, rng, quiet, must):
    ev_day = {
        cfg["ev"][key]: (key, at, text, reply) for key, at, text, reply in cfg["events"]
    }
    mentions = {d: (t, r) for d, t, r in cfg["mentions"]}
    sessions, records, event_rounds = [], [], {}
    for i, day in enumerate(days(cfg["start"], cfg["end"]), 1):
        sid = f"S{i}"
        items = []  # (hh:mm, user, assistant, caption, Rec or None, event key or None)
        chats = rng.sample(cfg["chat"], 3)
        if day in ev_day:
            key, at, text, reply = ev_day[day]
            items.append((at, text, reply, None, None, key))
            for u, a in chats[: rng.randint(1, 2)]:
                items.append((None, u, a, None, None, None))
        else:
            raw = make_day(day, rng, lambda k, day=day: (k, day) in must)
            for k in {k for k, _ in must if _ == day}:
                assert any(r[0] == k for r in raw), (cfg["name"], k, day)
            raw = [r for r in raw if (r[0], day) not in quiet]
            if (
                day in mentions
            ):  # leave room for the passing mention (at most 5 rounds a day)
                assert not {k for k, d in must if d == day}
                raw = raw[:4]
            for kind, at, fields in raw:
                rec = Rec(kind, day, datetime.fromisoformat(f"{day}T{at}"), fields)
                leads, forms, caps = cfg["look"][kind]
                text, cap = render(
                    rng, leads, items_of(fields, cfg["units"][kind]), forms, caps
                )
                items.append((at, text, rng.choice(ACKS), cap, rec, None))
            n_chat = min(max(2 - len(items), rng.randint(1, 2)), 5 - len(items))
            pool = ([mentions[day]] if day in mentions else []) + chats
            for u, a in pool[: max(n_chat, 1 if day in mentions else 0)]:
                items.append((None, u, a, None, None, None))
        used, done = set(), []
        for at, *rest in sorted(items, key=lambda x: x[0] is None):
            if at is None:  # chat: a free minute of the day
                at = hm(rng, "09:00", "22:50")
                while at in used:
                    at = hm(rng, "09:00", "22:50")
            while at in used:  # two records in one minute: the later one a minute on
                m = int(at[:2]) * 60 + int(at[3:]) + 1
                at = f"{m // 60:02d}:{m % 60:02d}"
            used.add(at)
            if rest[3]:
                rest[3].time = datetime.fromisoformat(f"{day}T{at}")
            done.append((at, *rest))
        done.sort(key=lambda x: x[0])
        rounds = []
        for n, (at, user, asst, cap, rec, key) in enumerate(done, 1):
            rid = f"{sid}:{n}"
            rnd = {
                "round_id": rid,
                "time": f"{day}T{at}",
                "user": user,
                "assistant": asst,
            }
            if cap:
                rnd["images"] = [{"image_id": f"{rid}:IMG_1", "caption": cap}]
            rounds.append(rnd)
            if rec:
                rec.rid = rid
                records.append(rec)
            if key:
                event_rounds[key] = rid
        assert 2 <= len(rounds) <= 5, (cfg["name"], day, len(rounds))
        sessions.append({"session_id": sid, "date": day.isoformat(), "rounds": rounds})
    for key, d in cfg["ev"].items():  # rule 3: nothing recorded on an event day
        assert not [r for r in records if r.day == d], (cfg["name"], key)
    return {"user_id": cfg["user_id"], "sessions": sessions}, records, event_rounds


# ------------------------------------------------------------------- gold computing


class Sel:
    """Records of one history visible at question_time."""

    def __init__(self, recs, units, qt):
        self.recs, self.units, self.qt = recs, units, qt

    def __call__(self, kind, lo=None, hi=None, **where):
        where = {k.replace("_", " "): v for k, v in where.items()}
        return [
            r
            for r in self.recs
            if r.kind == kind
            and r.time <= self.qt
            and (lo is None or r.day >= lo)
            and (hi is None or r.day <= hi)
            and all(r.f[k] == v for k, v in where.items())
        ]

    def unit(self, kind, field):
        for lab, unit, dec in self.units[kind]:
            if lab == field:
                return unit, dec
        raise KeyError(field)


def ev_ids(recs):
    return [r.rid for r in sorted(recs, key=lambda r: r.time)]


def agg(S, op, recs, field=None):
    assert recs, "filter matches no record"
    if op == "count":
        return {"value": len(recs), "unit": None, "evidence": ev_ids(recs)}
    unit, dec = S.unit(recs[0].kind, field)
    vals = [r.f[field] for r in recs]
    if op == "sum":
        v = round(sum(vals), dec) if dec else int(sum(vals))
    elif op == "avg":
        v = sum(vals) / len(vals)
    elif op in ("min", "max"):
        v = min(vals) if op == "min" else max(vals)
        recs = [r for r in recs if r.f[field] == v]
    elif op in ("first", "last"):
        r = (min if op == "first" else max)(recs, key=lambda r: r.time)
        v, recs = r.f[field], [r]
    else:
        raise ValueError(op)
    return {"value": v, "unit": unit, "evidence": ev_ids(recs), "_dec": dec}


def one_day(S, kind, day, field):
    recs = S(kind, day, day)
    assert len(recs) == 1, (kind, day, len(recs))
    return agg(S, "first", recs, field)


def yesno(a, b, test):
    """a, b: gold dicts in the order the question mentions them; test in {'a>b','a<b'}."""
    assert a["value"] != b["value"], "tie in a yes/no comparison"
    yes = a["value"] > b["value"] if test == "a>b" else a["value"] < b["value"]
    return {
        "value": "yes" if yes else "no",
        "unit": None,
        "values": [a["value"], b["value"]],
        "value_unit": a["unit"],
        "evidence": a["evidence"] + b["evidence"],
    }


def diff(a, b, rounded=True, positive=False):
    """a - b; rounded to the values' decimals when both are sums."""
    v = a["value"] - b["value"]
    if rounded:
        v = round(v, a["_dec"]) if a["_dec"] else int(v)
    if positive:
        assert v > 0, "the question presumes a positive difference"
    return {
        "value": v,
        "unit": a["unit"],
        "values": [a["value"], b["value"]],
        "evidence": a["evidence"] + b["evidence"],
    }


def pct(old, new):
    assert old["value"] != 0
    return {
        "value": (new["value"] - old["value"]) / old["value"] * 100,
        "unit": "%",
        "values": [old["value"], new["value"]],
        "value_unit": old["unit"],
        "evidence": old["evidence"] + new["evidence"],
    }


def week_of(r):
    return (r.day - timedelta(days=r.day.weekday())).isoformat()


def month_of(r):
    return r.day.replace(day=1).isoformat()


def group(S, recs, key, metric, field=None, best="max", all_groups=None, then=None):
    """Group-wise aggregate; gold is the winning group's name (or `then` over its records)."""
    assert recs, "filter matches no record"
    keyf = key if callable(key) else (lambda r: r.f[key])
    groups = defaultdict(list)
    for r in recs:
        groups[keyf(r)].append(r)
    if (
        all_groups is not None
    ):  # an argmin must see every group, not just the present ones
        assert set(groups) == set(all_groups), (
            "missing groups",
            set(all_groups) - set(groups),
        )
    vals = {g: agg(S, metric, rs, field)["value"] for g, rs in groups.items()}
    order = sorted(vals.values(), reverse=(best == "max"))
    assert len(order) >= 2 and order[0] != order[1], ("no unique arg" + best, vals)
    win = next(g for g, v in vals.items() if v == order[0])
    unit = None if metric == "count" else S.unit(recs[0].kind, field)[0]
    if then:
        g = then(groups[win])
        g["group"] = win
        return g
    g = {
        "value": win,
        "unit": None,
        "group_value": vals[win],
        "group_unit": unit,
        "evidence": ev_ids(recs),
    }
    if key in (week_of, month_of):  # which-week / which-month: the period's first day
        g["period"] = "week" if key is week_of else "month"
    return g


def month(y, m):
    lo = date(y, m, 1)
    hi = (date(y + m // 12, m % 12 + 1, 1)) - DAY
    return lo, hi


# ------------------------------------------------------------------------ questions


def maya_questions(end):
    K, M, J = MAYA_EV["knee"], MAYA_EV["moved"], MAYA_EV["job"]
    st, T = MAYA["start"], end
    jan, feb, mar = month(2026, 1), month(2026, 2), month(2026, 3)
    return [
        (
            "m01",
            "anchored",
            "How many runs have I done since I hurt my knee?",
            lambda S: agg(S, "count", S("run", K + DAY, T)),
            {},
        ),
        (
            "m02",
            "anchored",
            "What was my average deep sleep in the week before the move?",
            lambda S: agg(S, "avg", S("sleep", M - 7 * DAY, M - DAY), "Deep sleep"),
            {"quiet": [("sleep", M - 7 * DAY)]},
        ),
        (
            "m03",
            "anchored",
            "my first run after the knee injury - how many km was it?",
            lambda S: agg(S, "first", S("run", K + DAY, T), "Distance"),
            {},
        ),
        (
            "m04",
            "anchored",
            "What did my coffees cost me between moving house and starting the new job?",
            lambda S: agg(S, "sum", S("coffee", M + DAY, J - DAY), "Price"),
            {},
        ),
        (
            "m05",
            "anchored",
            "What did I weigh at my last weigh-in before we moved?",
            lambda S: agg(S, "last", S("weight", st, M - DAY), "Weight"),
            {"qt": "2026-02-20"},
        ),
        (
            "m06",
            "anchored",
            "Total distance jogged in the two weeks after I started the new job?",
            lambda S: agg(S, "sum", S("run", J + DAY, J + 14 * DAY), "Distance"),
            {"quiet": [("run", J + 14 * DAY)]},
        ),
        (
            "m07",
            "anchored",
            "Up until the knee thing, what was my longest night of sleep?",
            lambda S: agg(S, "max", S("sleep", st, K - DAY), "Total sleep"),
            {},
        ),
        (
            "m08",
            "compare",
            "Did I sleep more on average after the move than before it?",
            lambda S: yesno(
                agg(S, "avg", S("sleep", M + DAY, T), "Total sleep"),
                agg(S, "avg", S("sleep", st, M - DAY), "Total sleep"),
                "a>b",
            ),
            {},
        ),
        (
            "m09",
            "compare",
            "How much more did I spend on coffee in March than in February?",
            lambda S: diff(
                agg(S, "sum", S("coffee", *mar), "Price"),
                agg(S, "sum", S("coffee", *feb), "Price"),
                positive=True,
            ),
            {},
        ),
        (
            "m10",
            "compare",
            "is a flat white pricier at Blue Door than at Corner Beans, on average?",
            lambda S: yesno(
                agg(
                    S, "avg", S("coffee", Cafe="Blue Door", Drink="flat white"), "Price"
                ),
                agg(
                    S,
                    "avg",
                    S("coffee", Cafe="Corner Beans", Drink="flat white"),
                    "Price",
                ),
                "a>b",
            ),
            {},
        ),
        (
            "m11",
            "compare",
            "By what percentage did my total running distance change from January to February?",
            lambda S: pct(
                agg(S, "sum", S("run", *jan), "Distance"),
                agg(S, "sum", S("run", *feb), "Distance"),
            ),
            {},
        ),
        (
            "m12",
            "compare",
            "Has my average weight gone up from January to March?",
            lambda S: yesno(
                agg(S, "avg", S("weight", *jan), "Weight"),
                agg(S, "avg", S("weight", *mar), "Weight"),
                "a<b",
            ),
            {},
        ),
        (
            "m13",
            "compare",
            "What's the difference between my average run duration on the Canal Path and on the Riverside Loop?",
            lambda S: diff(
                agg(S, "avg", S("run", Route="Canal Path"), "Duration"),
                agg(S, "avg", S("run", Route="Riverside Loop"), "Duration"),
                rounded=False,
                positive=True,
            ),
            {},
        ),
        (
            "m14",
            "group",
            "Which café have I spent the most money at overall?",
            lambda S: group(S, S("coffee"), "Cafe", "sum", "Price"),
            {},
        ),
        (
            "m15",
            "group",
            "what drink do i order most often?",
            lambda S: group(S, S("coffee"), "Drink", "count"),
            {},
        ),
        (
            "m16",
            "group",
            "Which week did I get the least sleep on average?",
            lambda S: group(
                S,
                S("sleep"),
                week_of,
                "avg",
                "Total sleep",
                best="min",
                all_groups=[(st + 7 * i * DAY).isoformat() for i in range(12)],
            ),
            {},
        ),
        (
            "m17",
            "group",
            "In which month did I run the most kilometres?",
            lambda S: group(S, S("run"), month_of, "sum", "Distance"),
            {},
        ),
        (
            "m18",
            "group",
            "Since the move, how much have I spent in total at the café where I've spent the most?",
            lambda S: group(
                S,
                S("coffee", M + DAY, T),
                "Cafe",
                "sum",
                "Price",
                then=lambda rs: agg(S, "sum", rs, "Price"),
            ),
            {},
        ),
        (
            "m19",
            "group",
            "On which route are my runs the longest on average?",
            lambda S: group(S, S("run"), "Route", "avg", "Distance"),
            {},
        ),
        (
            "m20",
            "dates",
            "average total sleep throughout February?",
            lambda S: agg(S, "avg", S("sleep", *feb), "Total sleep"),
            {},
        ),
        (
            "m21",
            "dates",
            "How many coffees did I have over the first half of March?",
            lambda S: agg(S, "count", S("coffee", D("2026-03-01"), D("2026-03-15"))),
            {"quiet": [("coffee", D("2026-03-16"))]},
        ),
        (
            "m22",
            "dates",
            "How far did I run during the week of the 16th of February?",
            lambda S: agg(
                S, "sum", S("run", D("2026-02-16"), D("2026-02-22")), "Distance"
            ),
            {},
        ),
        (
            "m23",
            "dates",
            "lowest weight in the last 3 weeks",
            lambda S: agg(S, "min", S("weight", T - 19 * DAY, T + DAY), "Weight"),
            {"qt": f"{T + DAY}T06:00:00", "quiet": [("weight", T - 20 * DAY)]},
        ),
        (
            "m24",
            "dates",
            "What did I spend on coffees between the 3rd and the 17th?",
            lambda S: agg(
                S, "sum", S("coffee", D("2026-03-03"), D("2026-03-17")), "Price"
            ),
            {"quiet": [("coffee", D("2026-03-03")), ("coffee", D("2026-03-17"))]},
        ),
        (
            "m25",
            "dates",
            "avg deep sleep since mid-February",
            lambda S: agg(S, "avg", S("sleep", D("2026-02-15"), T), "Deep sleep"),
            {"quiet": [("sleep", D("2026-02-14")), ("sleep", D("2026-02-15"))]},
        ),
        (
            "m26",
            "dates",
            "How many runs have I logged over the past fortnight?",
            lambda S: agg(S, "count", S("run", D("2026-02-17"), D("2026-03-02"))),
            {"qt": "2026-03-02T06:00:00", "quiet": [("run", D("2026-02-16"))]},
        ),
        (
            "m27",
            "dates",
            "What did I weigh at the end of January?",
            lambda S: agg(S, "last", S("weight", *jan), "Weight"),
            {"must": [("weight", D("2026-01-31"))]},
        ),
    ]


def tom_questions(end):
    G, O, B = TOM_EV["dog"], TOM_EV["out"], TOM_EV["back"]
    st, T = TOM["start"], end
    mar, apr, may = month(2026, 3), month(2026, 4), month(2026, 5)
    cats = ["groceries", "household", "pet supplies", "toiletries", "snacks"]
    return [
        (
            "t01",
            "anchored",
            "What's my average step count since we got the puppy?",
            lambda S: agg(S, "avg", S("steps", G + DAY, D("2026-04-05")), "Steps"),
            {"qt": "2026-04-05"},
        ),
        (
            "t02",
            "anchored",
            "How many steps did I do the day after I got back from Lisbon?",
            lambda S: one_day(S, "steps", B + DAY, "Steps"),
            {"must": [("steps", B + DAY)]},
        ),
        (
            "t03",
            "anchored",
            "How much did I spend on pet supplies in the two weeks after getting the dog?",
            lambda S: agg(
                S,
                "sum",
                S("expense", G + DAY, G + 14 * DAY, Category="pet supplies"),
                "Amount",
            ),
            {"quiet": [("expense", G + 14 * DAY)]},
        ),
        (
            "t04",
            "anchored",
            "On average, what was my mood while I was away in Lisbon?",
            lambda S: agg(S, "avg", S("mood", O + DAY, B - DAY), "Mood"),
            {},
        ),
        (
            "t05",
            "anchored",
            "how much did I spend at Lidl in the week before we flew out",
            lambda S: agg(
                S, "sum", S("expense", O - 7 * DAY, O - DAY, Shop="Lidl"), "Amount"
            ),
            {"quiet": [("expense", O - 7 * DAY)]},
        ),
        (
            "t06",
            "anchored",
            "What was my energy level the last time I logged it before we got the dog?",
            lambda S: agg(S, "last", S("mood", st, G - DAY), "Energy"),
            {},
        ),
        (
            "t07",
            "anchored",
            "How many times have I bought something at Pets at Home since the holiday ended?",
            lambda S: agg(S, "count", S("expense", B + DAY, T, Shop="Pets at Home")),
            {},
        ),
        (
            "t08",
            "compare",
            "Did I walk more on average after getting the dog than before?",
            lambda S: yesno(
                agg(S, "avg", S("steps", G + DAY, T), "Steps"),
                agg(S, "avg", S("steps", st, G - DAY), "Steps"),
                "a>b",
            ),
            {},
        ),
        (
            "t09",
            "compare",
            "How much less did I spend in April than in March?",
            lambda S: diff(
                agg(S, "sum", S("expense", *mar), "Amount"),
                agg(S, "sum", S("expense", *apr), "Amount"),
                positive=True,
            ),
            {},
        ),
        (
            "t10",
            "compare",
            "Is my average Tesco bill bigger then my average Lidl bill?",
            lambda S: yesno(
                agg(S, "avg", S("expense", Shop="Tesco"), "Amount"),
                agg(S, "avg", S("expense", Shop="Lidl"), "Amount"),
                "a>b",
            ),
            {},
        ),
        (
            "t11",
            "compare",
            "By what percent did my average mood change from March to May?",
            lambda S: pct(
                agg(S, "avg", S("mood", *mar), "Mood"),
                agg(S, "avg", S("mood", *may), "Mood"),
            ),
            {},
        ),
        (
            "t12",
            "compare",
            "Was my energy higher in the week after the trip than in the week before it?",
            lambda S: yesno(
                agg(S, "avg", S("mood", B + DAY, B + 7 * DAY), "Energy"),
                agg(S, "avg", S("mood", O - 7 * DAY, O - DAY), "Energy"),
                "a>b",
            ),
            {"quiet": [("mood", B + 7 * DAY), ("mood", O - 7 * DAY)]},
        ),
        (
            "t13",
            "compare",
            "difference between my average active minutes in April and in March",
            lambda S: diff(
                agg(S, "avg", S("steps", *apr), "Active minutes"),
                agg(S, "avg", S("steps", *mar), "Active minutes"),
                rounded=False,
                positive=True,
            ),
            {},
        ),
        (
            "t14",
            "group",
            "Which shop got most of my money in March?",
            lambda S: group(S, S("expense", *mar), "Shop", "sum", "Amount"),
            {},
        ),
        (
            "t15",
            "group",
            "Which spending category got the least money in April?",
            lambda S: group(
                S,
                S("expense", *apr),
                "Category",
                "sum",
                "Amount",
                best="min",
                all_groups=cats,
            ),
            {},
        ),
        (
            "t16",
            "group",
            "Which week had my highest average step count?",
            lambda S: group(S, S("steps"), week_of, "avg", "Steps"),
            {},
        ),
        (
            "t17",
            "group",
            "In which month was my mood best on average?",
            lambda S: group(S, S("mood"), month_of, "avg", "Mood"),
            {},
        ),
        (
            "t18",
            "group",
            "How much have I spent in total at the shop I go to most often?",
            lambda S: group(
                S,
                S("expense"),
                "Shop",
                "count",
                then=lambda rs: agg(S, "sum", rs, "Amount"),
            ),
            {},
        ),
        (
            "t19",
            "group",
            "Which shop do I pay the most at per visit, on average?",
            lambda S: group(S, S("expense"), "Shop", "avg", "Amount"),
            {},
        ),
        (
            "t20",
            "dates",
            "How many steps did I rack up in total over the first ten days of May?",
            lambda S: agg(
                S, "sum", S("steps", D("2026-05-01"), D("2026-05-10")), "Steps"
            ),
            {},
        ),
        (
            "t21",
            "dates",
            "avg mood in the second half of april",
            lambda S: agg(
                S, "avg", S("mood", D("2026-04-16"), D("2026-04-30")), "Mood"
            ),
            {},
        ),
        (
            "t22",
            "dates",
            "What did I spend altogether during the week of the 4th?",
            lambda S: agg(
                S, "sum", S("expense", D("2026-05-04"), D("2026-05-10")), "Amount"
            ),
            {},
        ),
        (
            "t23",
            "dates",
            "Max steps in a single day over the past fortnight?",
            lambda S: agg(
                S, "max", S("steps", D("2026-03-31"), D("2026-04-13")), "Steps"
            ),
            {"qt": "2026-04-13T06:00:00", "quiet": [("steps", D("2026-03-30"))]},
        ),
        (
            "t24",
            "dates",
            "How much went to Waitrose throughout March?",
            lambda S: agg(S, "sum", S("expense", *mar, Shop="Waitrose"), "Amount"),
            {},
        ),
        (
            "t25",
            "dates",
            "what's my average energy been since mid-April?",
            lambda S: agg(S, "avg", S("mood", D("2026-04-15"), T), "Energy"),
            {"quiet": [("mood", D("2026-04-14")), ("mood", D("2026-04-15"))]},
        ),
        (
            "t26",
            "dates",
            "How many purchases did I log in the last three weeks?",
            lambda S: agg(S, "count", S("expense", T - 19 * DAY, T + DAY)),
            {"qt": f"{T + DAY}T06:00:00", "quiet": [("expense", T - 20 * DAY)]},
        ),
    ]


def priya_questions(end):
    J, Md = PRIYA_EV["job"], PRIYA_EV["meds"]
    st, T = PRIYA["start"], end
    jun, jul, aug = month(2026, 6), month(2026, 7), month(2026, 8)
    return [
        (
            "p01",
            "anchored",
            "What has my average systolic been since I started the blood pressure tablets?",
            lambda S: agg(S, "avg", S("bp", Md + DAY, T), "Systolic"),
            {},
        ),
        (
            "p02",
            "anchored",
            "In the week before I started the medication, what was my highest systolic reading?",
            lambda S: agg(S, "max", S("bp", Md - 7 * DAY, Md - DAY), "Systolic"),
            {"quiet": [("bp", Md - 7 * DAY)]},
        ),
        (
            "p03",
            "anchored",
            "How many pages did I get through between starting the new job and starting the tablets?",
            lambda S: agg(S, "sum", S("reading", J + DAY, Md - DAY), "Pages"),
            {},
        ),
        (
            "p04",
            "anchored",
            "How many minutes did my first bike ride after starting the new job take?",
            lambda S: agg(S, "first", S("ride", J + DAY, T), "Duration"),
            {},
        ),
        (
            "p05",
            "anchored",
            "average screen time until I started the new job?",
            lambda S: agg(S, "avg", S("screen", st, J - DAY), "Screen time"),
            {},
        ),
        (
            "p06",
            "anchored",
            "What was my pulse the day after I started on the tablets?",
            lambda S: one_day(S, "bp", Md + DAY, "Pulse"),
            {"must": [("bp", Md + DAY)]},
        ),
        (
            "p07",
            "anchored",
            "how many rides did I log in the two weeks after I started at the new job",
            lambda S: agg(S, "count", S("ride", J + DAY, J + 14 * DAY)),
            {"quiet": [("ride", J + 14 * DAY)]},
        ),
        (
            "p08",
            "compare",
            "Is my average systolic lower after starting the medication than before?",
            lambda S: yesno(
                agg(S, "avg", S("bp", Md + DAY, T), "Systolic"),
                agg(S, "avg", S("bp", st, Md - DAY), "Systolic"),
                "a<b",
            ),
            {},
        ),
        (
            "p09",
            "compare",
            "How much higher was my average social media time in June than in August?",
            lambda S: diff(
                agg(S, "avg", S("screen", *jun), "Social media"),
                agg(S, "avg", S("screen", *aug), "Social media"),
                rounded=False,
                positive=True,
            ),
            {},
        ),
        (
            "p10",
            "compare",
            "Did I ride further on average on the Commute than on the Lakeside route?",
            lambda S: yesno(
                agg(S, "avg", S("ride", Route="Commute"), "Distance"),
                agg(S, "avg", S("ride", Route="Lakeside"), "Distance"),
                "a>b",
            ),
            {},
        ),
        (
            "p11",
            "compare",
            "By what percentage did the number of pages I read change from June to July?",
            lambda S: pct(
                agg(S, "sum", S("reading", *jun), "Pages"),
                agg(S, "sum", S("reading", *jul), "Pages"),
            ),
            {},
        ),
        (
            "p12",
            "compare",
            "Did my average diastolic go down from July to August?",
            lambda S: yesno(
                agg(S, "avg", S("bp", *jul), "Diastolic"),
                agg(S, "avg", S("bp", *aug), "Diastolic"),
                "a>b",
            ),
            {},
        ),
        (
            "p13",
            "compare",
            "What's the difference between my total km ridden in July and in June?",
            lambda S: diff(
                agg(S, "sum", S("ride", *jul), "Distance"),
                agg(S, "sum", S("ride", *jun), "Distance"),
                positive=True,
            ),
            {},
        ),
        (
            "p14",
            "group",
            "Which book have I spent the most time reading?",
            lambda S: group(S, S("reading"), "Book", "sum", "Reading time"),
            {},
        ),
        (
            "p15",
            "group",
            "which route do I ride most often",
            lambda S: group(S, S("ride"), "Route", "count"),
            {},
        ),
        (
            "p16",
            "group",
            "Which week had the most screen time on average?",
            lambda S: group(S, S("screen"), week_of, "avg", "Screen time"),
            {},
        ),
        (
            "p17",
            "group",
            "In which month did I read the most pages?",
            lambda S: group(S, S("reading"), month_of, "sum", "Pages"),
            {},
        ),
        (
            "p18",
            "group",
            "Of the book I've picked up most often, how many pages have I read in total?",
            lambda S: group(
                S,
                S("reading"),
                "Book",
                "count",
                then=lambda rs: agg(S, "sum", rs, "Pages"),
            ),
            {},
        ),
        (
            "p19",
            "group",
            "Which route takes me the longest on average?",
            lambda S: group(S, S("ride"), "Route", "avg", "Duration"),
            {},
        ),
        (
            "p20",
            "dates",
            "average systolic throughout July",
            lambda S: agg(S, "avg", S("bp", *jul), "Systolic"),
            {},
        ),
        (
            "p21",
            "dates",
            "How many rides did I do between the 3rd and the 17th of August?",
            lambda S: agg(S, "count", S("ride", D("2026-08-03"), D("2026-08-17"))),
            {"quiet": [("ride", D("2026-08-03")), ("ride", D("2026-08-17"))]},
        ),
        (
            "p22",
            "dates",
            "total screen time over the first half of June",
            lambda S: agg(
                S, "sum", S("screen", D("2026-06-01"), D("2026-06-15")), "Screen time"
            ),
            {},
        ),
        (
            "p23",
            "dates",
            "mean diastolic over teh last 3 weeks?",
            lambda S: agg(S, "avg", S("bp", T - 19 * DAY, T + DAY), "Diastolic"),
            {"qt": f"{T + DAY}T06:00:00", "quiet": [("bp", T - 20 * DAY)]},
        ),
        (
            "p24",
            "dates",
            "How long did I spend reading during the week of 13 July?",
            lambda S: agg(
                S, "sum", S("reading", D("2026-07-13"), D("2026-07-19")), "Reading time"
            ),
            {},
        ),
        (
            "p25",
            "dates",
            "How many km have I cycled over the past fortnight?",
            lambda S: agg(
                S, "sum", S("ride", D("2026-07-07"), D("2026-07-20")), "Distance"
            ),
            {"qt": "2026-07-20T06:00:00", "quiet": [("ride", D("2026-07-06"))]},
        ),
        (
            "p26",
            "dates",
            "What was my systolic at the end of June?",
            lambda S: agg(S, "last", S("bp", *jun), "Systolic"),
            {"must": [("bp", D("2026-06-30"))]},
        ),
    ]


# ---------------------------------------------------------------------------- output


def fmt(v, unit):
    if isinstance(v, float):
        s = f"{v:.4f}".rstrip("0").rstrip(".")
    else:
        s = str(v)
    return f"{s} {unit}" if unit else s


def answer_text(g):
    if g["value"] in ("yes", "no"):
        a, b = g["values"]
        return f"{g['value'].capitalize()} ({fmt(a, g['value_unit'])} vs {fmt(b, g['value_unit'])})"
    if "group_value" in g:
        return f"{g['value']} ({fmt(g['group_value'], g['group_unit'])})"
    if "group" in g:
        return f"{fmt(g['value'], g['unit'])} ({g['group']})"
    return fmt(g["value"], g["unit"])


HISTORIES = [
    (MAYA, MAYA_EV, maya_day, maya_questions),
    (TOM, TOM_EV, tom_day, tom_questions),
    (PRIYA, PRIYA_EV, priya_day, priya_questions),
]


def main():
    all_q, summary = [], []
    for idx, (cfg, evs, make_day, make_q) in enumerate(HISTORIES):
        cfg["ev"] = evs
        specs = make_q(cfg["end"])
        quiet, must = set(), set()
        for *_, opt in specs:
            quiet.update(opt.get("quiet", []))
            must.update(opt.get("must", []))
        assert not quiet & must
        rng = random.Random(SEED * 10 + idx)
        doc, recs, ev_rounds = build(cfg, make_day, rng, quiet, must)
        for kind, d in quiet:
            assert not [r for r in recs if r.kind == kind and r.day == d]
        text = json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
        (HERE / f"history_{cfg['name']}.json").write_text(text, encoding="utf-8")
        lines = []
        for qid, fam, question, fn, opt in specs:
            qt = opt.get("qt", cfg["end"].isoformat())
            qt = datetime.fromisoformat(qt if "T" in qt else qt + QT_CLOCK)
            g = fn(Sel(recs, cfg["units"], qt))
            evidence = g.pop("evidence")
            g.pop("_dec", None)
            q = {
                "question_id": qid,
                "history": cfg["name"],
                "question": question,
                "answer": answer_text(g),
                "type": f"compositional.{fam}",
                "family": fam,
                "question_time": qt.isoformat(),
                "evidence": evidence,
                "gold": g,
            }
            lines.append(json.dumps(q, ensure_ascii=False))
        (HERE / f"questions_{cfg['name']}.jsonl").write_text(
            "\n".join(lines) + "\n", encoding="utf-8"
        )
        all_q += lines
        kinds = defaultdict(int)
        for r in recs:
            kinds[r.kind] += 1
        n_rounds = sum(len(s["rounds"]) for s in doc["sessions"])
        summary.append(
            f"{cfg['name']} ({cfg['user_id']}): {cfg['start']}..{cfg['end']}, "
            f"{len(doc['sessions'])} sessions, {n_rounds} rounds, records {dict(kinds)}, "
            f"events {ev_rounds}, questions {len(lines)}"
        )
    (HERE / "questions.jsonl").write_text("\n".join(all_q) + "\n", encoding="utf-8")
    print("\n".join(summary))


if __name__ == "__main__":
    main()
