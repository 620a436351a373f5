#!/usr/bin/env python3
"""Generate the compositional_c evaluation set (standard library only).

Writes, next to this file:
  history_<name>.json      three chat histories in the JSON document form of
                           /work/shared/spec/history-format.md
  questions_<name>.jsonl   the questions on each history, with gold values
  questions.jsonl          all questions

Every gold value is computed from the records this script wrote. Assertions
check that each question is well defined (non-empty periods, non-zero compared
differences, no ties for a top group, exactly one record where "the record on
day X" is asked for, no record of the asked kind on boundary days so inclusive
and exclusive readings of a period agree).

    python3 tools/datasets/compositional_c/make_set.py            # writes the files
    python3 tools/datasets/compositional_c/make_set.py --seed N   # try another seed
    python3 tools/datasets/compositional_c/make_set.py --search   # first seed >= SEED that passes

Deterministic: running it twice writes byte-identical files.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
from collections import defaultdict
from datetime import date, datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEED = 20261107
NAMES = ["commuter", "baby", "baker"]


class Rejected(Exception):
    """A well-definedness assertion failed for this seed."""


def check(cond, msg):
    if not cond:
        raise Rejected(msg)


def D(s: str) -> date:
    return date.fromisoformat(s)


def days(a: date, b: date):
    out = []
    d = a
    while d <= b:
        out.append(d)
        d += timedelta(days=1)
    return out


def pick(rng, weighted):
    """weighted: list of (value, weight)."""
    total = sum(w for _, w in weighted)
    x = rng.random() * total
    for v, w in weighted:
        x -= w
        if x < 0:
            return v
    return weighted[-1][0]


# --------------------------------------------------------------------------
# record kinds and surface forms
# --------------------------------------------------------------------------

FORMATS = ["plain", "dash", "pipe", "equals", "lines", "json", "image"]


class Kind:
    def __init__(self, key, fields, leads, titles, image_leads, caption_heads, acks):
        self.key = key
        self.fields = fields  # list of (label, unit or None, fmt: text|int|1dp|2dp)
        self.leads = leads
        self.titles = titles
        self.image_leads = image_leads
        self.caption_heads = caption_heads
        self.acks = acks
        self.deck: list[str] = []

    def dp(self, label):
        for lab, _u, fmt in self.fields:
            if lab == label:
                return {"int": 0, "1dp": 1, "2dp": 2}.get(fmt)
        raise KeyError(label)

    def unit(self, label):
        for lab, u, _f in self.fields:
            if lab == label:
                return u
        raise KeyError(label)

    def next_format(self, rng):
        if not self.deck:
            self.deck = FORMATS[:]
            rng.shuffle(self.deck)
        return self.deck.pop()


class _LeadView:
    """A kind seen through the leads that fit the time of day."""

    def __init__(self, kind, leads):
        self.fields = kind.fields
        self.leads = leads
        self.titles = kind.titles
        self.image_leads = kind.image_leads
        self.caption_heads = kind.caption_heads


def fmt_value(v, unit, fmt):
    if fmt == "text":
        return str(v)
    if fmt == "int":
        s = str(int(v))
    elif fmt == "1dp":
        s = f"{v:.1f}"
    else:
        s = f"{v:.2f}"
    return f"{s} {unit}" if unit else s


def lead_fits(lead, hour):
    t = lead.lower()
    if hour >= 12 and "morning" in t:
        return False
    if hour < 12 and any(w in t for w in ("evening", "home", "tonight")):
        return False
    return True


def render(kind: Kind, values: dict, rng, hour=12):
    """Return (user_text, images or None, format)."""
    form = kind.next_format(rng)
    leads = [x for x in kind.leads if lead_fits(x, hour)]
    kind = _LeadView(kind, leads)
    pairs = [(lab, fmt_value(values[lab], u, f)) for lab, u, f in kind.fields]
    low = rng.random() < 0.25

    def L(lab):
        return lab.lower() if low else lab

    if form == "plain":
        text = ", ".join(f"{L(a)}: {b}" for a, b in pairs)
        return text, None, form
    if form == "dash":
        text = rng.choice(kind.leads) + " - " + ", ".join(f"{L(a)}: {b}" for a, b in pairs)
        return text, None, form
    if form == "pipe":
        text = " | ".join([rng.choice(kind.titles)] + [f"{L(a)}: {b}" for a, b in pairs])
        return text, None, form
    if form == "equals":
        text = ", ".join(f"{a.lower()} = {b}" for a, b in pairs)
        return text, None, form
    if form == "lines":
        text = rng.choice(kind.leads) + "\n" + "\n".join(f"{L(a)}: {b}" for a, b in pairs)
        return text, None, form
    if form == "json":
        text = rng.choice(kind.leads) + "\n" + json.dumps({a: b for a, b in pairs})
        return text, None, form
    caption = rng.choice(kind.caption_heads) + ". " + ", ".join(f"{a}: {b}" for a, b in pairs)
    return rng.choice(kind.image_leads), [{"caption": caption}], form


# --------------------------------------------------------------------------
# ordinary chat
# --------------------------------------------------------------------------

GENERIC_CHAT = [
    ("Any tips for keeping basil alive on a windowsill?",
     "Give it as much light as you can, water when the top of the soil feels dry, and pinch off the flower buds so it keeps making leaves."),
    ("What's a good board game for a small group of friends who don't play much?",
     "Something quick to learn works best: Codenames, Just One or Ticket to Ride are all easy to pick up."),
    ("Can you suggest a quick vegetarian dinner with chickpeas?",
     "Try a chickpea and spinach curry: onion, garlic, ginger, a spoon of curry paste, tinned tomatoes, chickpeas and a handful of spinach at the end."),
    ("It's been grey and drizzly all day here.",
     "Those days drag. A warm drink and a bright lamp can make the evening feel a lot cosier."),
    ("Recommend me a podcast for the evenings?",
     "If you like stories, try a narrative history podcast; if you want something lighter, a comedy panel show is easy listening."),
    ("How do I get a red wine stain out of a cotton shirt?",
     "Blot it, rinse from the back with cold water, then work in a little washing-up liquid before a normal wash. Avoid hot water until it's gone."),
    ("My sister's birthday is coming up and I have no idea what to get her.",
     "Think about what she's been talking about lately. An experience, like a class or a concert, is often remembered longer than an object."),
    ("What's the difference between baking soda and baking powder?",
     "Baking soda needs an acid in the recipe to react; baking powder already contains its own acid, so it works on its own."),
    ("I keep waking up with a stiff neck.",
     "Check your pillow height and try to keep your neck in line with your spine. Gentle stretches in the morning help too."),
    ("Give me a good book to read on holiday.",
     "For an easy but gripping read, try a well-reviewed mystery; for something warmer, a character-driven novel like A Man Called Ove."),
    ("How long should I steep green tea?",
     "Short and not too hot: a couple of minutes with water just off the boil keeps it from turning bitter."),
    ("Watched a really good documentary about octopuses tonight.",
     "They're fascinating animals, incredibly clever and curious. Was it the one filmed in a kelp forest?"),
    ("Should I learn Spanish with an app or a class?",
     "An app is great for daily habit and vocabulary; a class gives you speaking practice. Many people combine both."),
    ("What's a nice thing to cook for friends that isn't too fussy?",
     "A big tray bake or a slow-cooked stew lets you spend time with your guests instead of the stove."),
    ("The neighbours are having their kitchen redone and the drilling is endless.",
     "That's tiring. Headphones with some music might rescue your afternoon."),
    ("Any idea how to stop my glasses fogging up?",
     "A drop of washing-up liquid rubbed on and polished off leaves a thin film that stops most of the fog."),
]

CHAT = {
    "commuter": [
        ("Got soaked on the way in, my shoes are still wet.",
         "Stuffing them with newspaper dries them much faster. A pair of spare office shoes might be worth it."),
        ("Can you recommend some upbeat music for a Sunday clean-up?",
         "Try some classic funk or a feel-good indie playlist, anything with a good groove makes chores go quicker."),
        ("My flatmate wants to start cycling too, what bike should she look at?",
         "A hybrid is a great all-rounder for commuting; the most important thing is that it fits her well."),
        ("What's a simple way to keep track of tyre wear?",
         "Look for flat spots, cuts and the wear indicators if the tyre has them, and check the tread centre is still rounded."),
        ("Is it better to ride with a backpack or panniers?",
         "Panniers keep your back cool and dry, while a backpack is simpler. For a longer daily ride, panniers usually win."),
        ("Made a huge pot of lentil soup for the week.",
         "Great batch cook. It keeps well and tastes even better after a day in the fridge."),
        ("What's the best way to clean a bike chain at home?",
         "Wipe it down with a rag, use a degreaser with a brush, rinse, dry it well and then apply lube sparingly, wiping off the excess."),
        ("Is it worth getting a rain cape for cycling?",
         "They keep you dry but catch the wind. A good waterproof jacket and overshoes are usually more practical for commuting."),
        ("Any ideas for a packed lunch that survives a bag ride?",
         "Grain salads, wraps and sturdy sandwiches travel well. Pack them in a rigid box so they don't get squashed."),
        ("The office coffee machine broke again.",
         "A bit of a crisis for a Monday-ish feeling day. Maybe a thermos from home is the backup plan."),
        ("What should I watch tonight, something funny?",
         "A light sitcom or a stand-up special would fit. Something like Parks and Recreation is easy to dip into."),
        ("I want to get better at fixing punctures quickly.",
         "Practise at home: tyre levers, find the cause, check inside the tyre, and keep a spare tube rather than patching on the roadside."),
        ("My lights keep running flat, any tips?",
         "Charge them on a fixed evening routine, and carry a small backup light in your bag for the days you forget."),
        ("Thinking of planning a cycling holiday in the summer.",
         "Lovely idea. Routes along rivers are usually flat and scenic, and many regions have bike-friendly guesthouses."),
        ("How do I stop my hands going numb on longer rides?",
         "Change your hand position often, check your saddle tilt and bar height, and padded gloves help a lot."),
        ("Colleague asked me to join the climbing wall group.",
         "That could be a fun way to get to know people and a nice change from the bike."),
        ("What's a good stretch after riding?",
         "Hip flexor and hamstring stretches are the big ones, plus a calf stretch against a wall."),
        ("Tried a new ramen place near the station, it was great.",
         "Nice find! A rich broth after a cold ride sounds perfect."),
    ],
    "baby": [
        ("Mila grabbed my hair today and would not let go.",
         "Babies have a surprisingly strong grip! It's a reflex that fades as she learns to grab on purpose."),
        ("Is it normal that she hiccups so much?",
         "Hiccups are very common in babies and rarely bother them. Burping during feeds can help a little."),
        ("We tried a baby massage class, she loved it.",
         "That's lovely, and a nice calming routine you can keep doing at home."),
        ("What's a good first book to read to a baby?",
         "Board books with high-contrast pictures or simple rhymes are ideal, and hearing your voice is the main thing."),
        ("The washing basket never seems to empty.",
         "Babies create laundry at an astonishing rate. Keeping it simple, with fewer outfits and more sleepsuits, helps."),
        ("My friend dropped off a lasagne, what a hero.",
         "Friends who bring food are the best kind of support at this stage."),
        ("How do I know if she's getting enough sleep?",
         "If she's mostly content between sleeps and feeding well, she's probably getting what she needs. Tiredness cues like rubbing eyes are worth watching."),
        ("Any tips for getting a baby to take a dummy?",
         "Offer it when she's calm and sleepy rather than upset, and don't force it; some babies just take a while to decide."),
        ("What songs do people sing to babies besides the usual ones?",
         "Anything you like works: babies love your voice more than the song. Slow pop songs and folk songs are popular choices."),
        ("I'm so tired I put the milk in the cupboard and the cereal in the fridge.",
         "That's a classic sign of new-parent tiredness. Try to rest when she naps, even if the house is a mess."),
        ("Is tummy time really that important?",
         "It helps her build neck and shoulder strength. Short, frequent sessions on your chest or the floor are plenty at this age."),
        ("What's a good quick lunch I can eat with one hand?",
         "Wraps, toasties, a boiled egg or a bowl of soup in a mug all work well with a baby on your arm."),
        ("Mila smiled at the cat today and the cat looked baffled.",
         "That's adorable. Cats often take a while to warm up to babies, but they usually get curious."),
        ("How warm should her room be at night?",
         "Comfortably cool is best. Dress her in a sleeping bag suited to the room and check her chest or neck rather than her hands."),
        ("My mum keeps giving advice I didn't ask for.",
         "It's usually love, even when it's tiring. A friendly thanks and then doing what works for you is fine."),
        ("Do babies get bored?",
         "They can get overstimulated or under-stimulated. Simple changes of scene, like a walk or a look out of the window, go a long way."),
        ("What should I pack in the changing bag for a day out?",
         "Nappies, wipes, a change of clothes, a muslin, a bottle and milk, and a spare top for you too."),
        ("Mila discovered her own hands today, she stared at them for ages.",
         "A lovely milestone. Hand-watching is how babies start to learn they can control their bodies."),
    ],
    "baker": [
        ("What's a good way to feed a starter when I'm busy?",
         "Keep it in the fridge between bakes and feed it once a week; take it out the day before you need it."),
        ("A customer asked whether my bread freezes well.",
         "Most crusty loaves freeze beautifully if sliced first and wrapped tightly; a quick toast revives them."),
        ("Should I offer a loyalty card at the stall?",
         "A simple stamp card can encourage regulars to come back, and it costs very little to run."),
        ("The oven door seal looks worn.",
         "A worn seal loses heat and steam, so it's worth replacing soon; they're usually easy to swap."),
        ("How do I get a more open crumb in my country loaf?",
         "Higher hydration, a strong starter, gentle handling and a good long bulk ferment all help open the crumb."),
        ("It rained so hard the awning nearly came down.",
         "Market life! Weighted legs and an extra tie-down on the awning might save it next time."),
        ("My sourdough starter smells a bit like nail polish.",
         "That usually means it's hungry. Feed it more often or at a higher ratio for a few days and the smell should settle."),
        ("What's a good way to score a loaf so it opens nicely?",
         "Use a sharp blade at a shallow angle, one confident cut, and make sure the dough is well shaped with good surface tension."),
        ("Customers keep asking for a gluten-free option.",
         "A dedicated gluten-free bake needs a separate space and tools to avoid contamination, so it's worth thinking through carefully first."),
        ("How should I price a new seeded loaf?",
         "Work out ingredient and time cost, add overhead and margin, then compare with what similar bakers charge locally."),
        ("It was freezing at the stall this morning.",
         "Brr. Thermal layers, fingerless gloves and a flask of something hot make market mornings much more bearable."),
        ("Any ideas for using up stale bread?",
         "Bread pudding, croutons, panzanella or breadcrumbs for the freezer are all great ways to avoid waste."),
        ("Should I make a simple website for the bakery?",
         "Even a single page with what you bake, where to find you and how to order can bring in new customers."),
        ("My wrists ache after a long shaping session.",
         "Take short breaks, keep your work surface at a good height and try to shape with your whole arm rather than just the wrists."),
        ("What's the best way to keep crusts crisp at a market?",
         "Paper bags rather than plastic, and keep loaves out of humid corners of the stall."),
        ("A regular told me my rye is the best she's had.",
         "That's the kind of feedback that keeps you going. Regulars like her are the heart of a market stall."),
        ("Thinking about trying laminated doughs this winter.",
         "Croissants are a fun challenge. Cold hands, cold butter and patience are the main ingredients."),
        ("How do I stop loaves sticking to the banneton?",
         "Dust it with rice flour, which doesn't absorb moisture like wheat flour does."),
    ],
}

def chat_window(user_text):
    """Hours in which a chat line is plausible ("tonight" in the evening, ...)."""
    t = user_text.lower()
    if "tonight" in t or "this evening" in t:
        return (19, 22)
    if "this morning" in t:
        return (9, 12)
    if "today" in t:
        return (13, 21)
    return (8, 21)


FILLER_REPLY = [
    "Logged it.", "Got it, saved to your log.", "Noted.", "Thanks, recorded.",
    "Saved.", "All noted down.", "Added to the log.", "Recorded, thanks for sending it.",
]


# --------------------------------------------------------------------------
# histories
# --------------------------------------------------------------------------

class History:
    def __init__(self, name, user_id, start, end, qt_default):
        self.name = name
        self.user_id = user_id
        self.start = start
        self.end = end
        self.qt_default = qt_default
        self.kinds: dict[str, Kind] = {}
        self.events: dict[date, tuple] = {}  # day -> (key, user, assistant)
        self.event_days: dict[str, date] = {}
        self.event_hours: dict[date, tuple] = {}
        self.mentions: dict[date, tuple] = {}  # day -> (user, assistant)
        self.planned: dict[date, list] = defaultdict(list)  # day -> [(kind, time, values)]
        self.blanks: dict[str, set] = defaultdict(set)
        self.records: list[dict] = []
        self.doc = None
        self.event_rounds: dict[str, str] = {}
        self.mention_rounds: dict[str, list] = defaultdict(list)

    def add_event(self, key, day, user, assistant, hours=(9, 21)):
        self.events[day] = (key, user, assistant)
        self.event_hours[day] = hours
        self.event_days[key] = day

    def add_mention(self, event_key, day, user, assistant):
        self.mentions[day] = (event_key, user, assistant)

    def plan(self, kind, day, hhmm, values):
        h, m = hhmm
        self.planned[day].append((kind, datetime(day.year, day.month, day.day, h, m), values))

    def assemble(self, rng):
        pool = CHAT[self.name] + GENERIC_CHAT
        deck: list = []

        def next_chat():
            nonlocal deck
            if not deck:
                deck = pool[:]
                rng.shuffle(deck)
            return deck.pop()

        sessions = []
        for n, day in enumerate(days(self.start, self.end), start=1):
            sid = f"S{n}"
            items = []  # (time, kind or None, payload)
            used_minutes = set()

            def free_time(h1, h2):
                while True:
                    t = datetime(day.year, day.month, day.day, rng.randint(h1, h2), rng.randint(0, 59))
                    key = t.hour * 60 + t.minute
                    if all(abs(key - u) >= 3 for u in used_minutes):
                        used_minutes.add(key)
                        return t

            if day in self.events:
                check(not self.planned.get(day), f"{self.name}: record planned on event day {day}")
                key, u, a = self.events[day]
                items.append((free_time(*self.event_hours[day]), "event", (key, u, a)))
                for _ in range(rng.randint(1, 3)):
                    c = next_chat()
                    items.append((free_time(*chat_window(c[0])), "chat", c))
            else:
                recs = sorted(self.planned.get(day, []), key=lambda r: r[1])
                check(len(recs) <= 4, f"{self.name}: too many records on {day}")
                for kind, t, values in recs:
                    key = t.hour * 60 + t.minute
                    while any(abs(key - u) < 3 for u in used_minutes):
                        key += 3
                    used_minutes.add(key)
                    t = datetime(day.year, day.month, day.day, key // 60, key % 60)
                    items.append((t, kind, values))
                n_chat = rng.randint(max(1, 2 - len(recs)), 5 - len(recs))
                if day in self.mentions:
                    items.append((free_time(9, 21), "mention", self.mentions[day]))
                    n_chat -= 1
                for _ in range(n_chat):
                    c = next_chat()
                    items.append((free_time(*chat_window(c[0])), "chat", c))
            items.sort(key=lambda x: x[0])
            check(2 <= len(items) <= 5, f"{self.name}: {len(items)} rounds on {day}")
            rounds = []
            for i, (t, what, payload) in enumerate(items, start=1):
                rid = f"{sid}:{i}"
                rnd = {"round_id": rid, "time": t.isoformat(timespec="seconds")}
                if what == "chat":
                    rnd["user"], rnd["assistant"] = payload
                elif what == "event":
                    key, u, a = payload
                    rnd["user"], rnd["assistant"] = u, a
                    self.event_rounds[key] = rid
                elif what == "mention":
                    key, u, a = payload
                    rnd["user"], rnd["assistant"] = u, a
                    self.mention_rounds[key].append(rid)
                else:
                    kind = self.kinds[what]
                    text, images, form = render(kind, payload, rng, t.hour)
                    rnd["user"] = text
                    rnd["assistant"] = rng.choice(kind.acks + FILLER_REPLY)
                    if images:
                        rnd["images"] = images
                    self.records.append({"kind": what, "day": day, "time": t, "round_id": rid,
                                         "values": payload, "format": form})
                rounds.append(rnd)
            sessions.append({"session_id": sid, "date": day.isoformat(), "rounds": rounds})
        self.doc = {"user_id": self.user_id, "sessions": sessions}
        # no digits in ordinary chat, leads, category values
        record_rounds = {rec["round_id"] for rec in self.records}
        for s in sessions:
            for r in s["rounds"]:
                if r["round_id"] in record_rounds:
                    check(not re.search(r"\d", r["assistant"]), f"digit in ack {r['round_id']}")
                else:
                    check(not re.search(r"\d", r["user"] + r["assistant"]), f"digit in chat {r['round_id']}")
        for rec in self.records:
            k = self.kinds[rec["kind"]]
            for lab, _u, f in k.fields:
                if f == "text":
                    check(not re.search(r"\d", rec["values"][lab]), "digit in category")
        for k in self.kinds.values():
            for s in k.leads + k.titles + k.image_leads + k.caption_heads:
                check(not re.search(r"\d", s) and ":" not in s, f"bad lead {s!r}")


# ---------------------------------------------------------------- commuter

def build_commuter(rng) -> History:
    h = History("commuter", "jonas", D("2026-02-02"), D("2026-04-26"), datetime(2026, 4, 26, 23, 45))
    h.kinds["ride"] = Kind(
        "ride",
        [("Route", None, "text"), ("Distance", "km", "1dp"), ("Duration", "min", "int"), ("Elevation", "m", "int")],
        leads=["Commute home", "Ride in this morning", "Today's ride", "Bike log", "Ride done",
               "Evening ride back", "Logged the ride"],
        titles=["Ride", "Commute", "Bike log", "Today on the bike"],
        image_leads=["Screenshot from the cycling app.", "Here's today's ride from the app.",
                     "App summary of my ride.", "Ride screenshot."],
        caption_heads=["Cycling app ride summary", "Screenshot of a ride summary card",
                       "Bike computer summary screen"],
        acks=["Nice ride, logged.", "Saved the ride.", "Got the ride in your log."],
    )
    h.kinds["spend"] = Kind(
        "spend",
        [("Item", None, "text"), ("Shop", None, "text"), ("Cost", "EUR", "2dp")],
        leads=["Bike spending", "Bought some bits for the bike", "Bike shop receipt", "Another bike expense",
               "Spent on the bike"],
        titles=["Bike spend", "Purchase", "Bike costs"],
        image_leads=["Receipt from the bike shop.", "Photo of the receipt.", "Bike shop receipt pic."],
        caption_heads=["Photo of a shop receipt", "Receipt photo", "Crumpled till receipt"],
        acks=["Expense saved.", "Logged the purchase.", "Added to your bike costs."],
    )
    E_JOB, E_CRASH, E_BIKE = D("2026-02-23"), D("2026-03-20"), D("2026-04-11")
    RESUME = D("2026-04-02")
    h.add_event("job", E_JOB,
                "Big day: first proper day at Brightwell. Lovely team, a bike room in the basement and showers that "
                "actually work. The way out there is a good deal longer than my old commute though, through the "
                "harbour and past the woods.",
                "Congratulations on the new role! Decent bike parking and showers make a longer commute much easier. "
                "How did the first day feel?", hours=(18, 21))
    h.add_event("crash", E_CRASH,
                "Came off on the wet cobbles by the market on the way home. Knee is swollen and the GP says no "
                "cycling until it settles down. Annoyingly the helmet cracked too.",
                "Ouch, I'm sorry. Rest, ice and keeping it raised will help, and it's good you had the helmet on. "
                "Take it easy and let it heal properly before getting back on.", hours=(19, 22))
    h.add_event("bike", E_BIKE,
                "The new bike is home at last! Collected it this morning - carbon frame, electronic gears, it feels "
                "like cheating after the old steel thing.",
                "How exciting! Enjoy getting to know it, and maybe keep the first outings gentle while you dial in "
                "the fit.", hours=(12, 20))
    h.add_mention("job", D("2026-03-05"),
                  "The new team took me out for lunch today, I think I'm going to like it at Brightwell.",
                  "That's a great sign. Feeling welcome early on makes a real difference.")
    h.add_mention("crash", D("2026-03-28"),
                  "Physio says the knee is healing well, I'm doing the stretches every evening and itching to ride.",
                  "Good news. Sticking with the exercises now should make the comeback smoother.")
    h.add_mention("crash", D("2026-04-17"),
                  "Knee still grumbles on the stairs at work, but on the bike it's totally fine now.",
                  "Glad it's holding up. Keep an eye on it if it flares after longer rides.")
    h.add_mention("bike", D("2026-04-19"),
                  "Honestly the new bike is so light I keep checking I haven't left something behind.",
                  "That's the best kind of problem to have!")

    h.blanks["ride"] |= {D("2026-03-01"), D("2026-03-08"), D("2026-03-15"), D("2026-03-16")}
    h.blanks["spend"] |= {D("2026-04-03"), D("2026-04-05")}
    force_ride = {RESUME, D("2026-04-12"), D("2026-04-20")}
    route_par = {  # distance, sd, elev range, speed km/h
        "canal path": (8.6, 0.3, (18, 40), 20.0),
        "ring road": (10.3, 0.4, (45, 75), 19.5),
        "harbour road": (12.8, 0.4, (35, 60), 20.0),
        "forest track": (14.9, 0.5, (120, 185), 17.0),
        "hill loop": (36.0, 6.0, (380, 760), 18.5),
    }
    scripted_spend = {
        D("2026-03-23"): ("helmet", "Velo Depot", 89.00),
        D("2026-03-27"): ("gloves", "Corner Cycles", 24.50),
        D("2026-04-13"): ("pedals", "Spoke and Chain", 64.00),
        D("2026-04-18"): ("bottle cage", "Corner Cycles", 12.00),
        D("2026-04-22"): ("mudguards", "Velo Depot", 39.90),
    }
    small = [("inner tube", (6.5, 8.9)), ("chain lube", (9.9, 12.5)), ("rear light", (18.0, 29.0)),
             ("inner tube", (6.5, 8.9)), ("gloves", (19.0, 27.0))]
    big = [("brake pads", (18.0, 26.0)), ("tyre", (35.0, 48.0)), ("service", (55.0, 75.0))]
    for day in days(h.start, h.end):
        if day in h.events:
            continue
        wd = day.weekday()
        # ---- ride
        ride = None
        if E_CRASH < day < RESUME or day in h.blanks["ride"]:
            ride = None
        else:
            recovery = E_CRASH < day < E_BIKE
            if day in force_ride:
                go = True
            elif wd < 5:  # Fridays are often a home-office day
                go = rng.random() < (0.75 if recovery else 0.5 if wd == 4 else 0.9)
            else:
                go = (not recovery) and rng.random() < 0.35
            if go:
                if wd >= 5 or day == D("2026-04-12"):
                    route = "hill loop"
                elif day < E_JOB:
                    route = pick(rng, [("canal path", 0.6), ("ring road", 0.4)])
                elif recovery:
                    route = "harbour road"
                else:
                    route = pick(rng, [("harbour road", 0.55), ("forest track", 0.45)])
                mu, sd, (e1, e2), speed = route_par[route]
                if day == D("2026-04-12"):  # a gentle first spin on the new bike
                    mu, sd = 24.0, 1.5
                dist = round(max(3.0, rng.gauss(mu, sd)), 1)
                if recovery:
                    speed *= 0.85
                if day > E_BIKE:
                    speed *= 1.08
                dur = int(round(dist / speed * 60 + rng.gauss(0, 1.5)))
                elev = rng.randint(e1, e2)
                if wd >= 5:
                    t = (rng.randint(11, 15), rng.randint(0, 59))
                elif rng.random() < 0.5:
                    t = (rng.randint(7, 8), rng.randint(0, 59))
                else:
                    t = (rng.randint(17, 19), rng.randint(0, 59))
                ride = {"Route": route, "Distance": dist, "Duration": dur, "Elevation": elev}
                h.plan("ride", day, t, ride)
        # ---- spend
        if day in h.blanks["spend"]:
            continue
        if day in scripted_spend:
            item, shop, cost = scripted_spend[day]
        elif rng.random() < 0.15:
            if rng.random() < 0.65:
                item, (lo, hi) = rng.choice(small)
                shop = pick(rng, [("Corner Cycles", 0.6), ("Spoke and Chain", 0.3), ("Velo Depot", 0.1)])
            else:
                item, (lo, hi) = rng.choice(big)
                shop = pick(rng, [("Velo Depot", 0.6), ("Spoke and Chain", 0.4)])
            cost = round(rng.uniform(lo, hi) * 10) / 10
        else:
            continue
        h.plan("spend", day, (rng.randint(12, 19), rng.randint(0, 59)), {"Item": item, "Shop": shop, "Cost": cost})
    return h


# ---------------------------------------------------------------- baby

def build_baby(rng) -> History:
    h = History("baby", "priya", D("2026-05-04"), D("2026-07-19"), datetime(2026, 7, 19, 23, 45))
    h.kinds["feed"] = Kind(
        "feed",
        [("Milk", None, "text"), ("Amount", "ml", "int"), ("Duration", "min", "int")],
        leads=["Bottle", "Feed log", "Mila's bottle", "Just fed her", "Feed", "Bottle finished"],
        titles=["Feed", "Bottle", "Mila feed"],
        image_leads=["Photo of the feeding app.", "Screenshot from the baby tracker.", "Tracker screenshot."],
        caption_heads=["Baby tracker app screenshot, feed entry", "Feeding app card",
                       "Screenshot of a baby tracker feed log"],
        acks=["Feed logged.", "Got the bottle down.", "Saved Mila's feed."],
    )
    h.kinds["nap"] = Kind(
        "nap",
        [("Place", None, "text"), ("Nap length", "min", "int")],
        leads=["Nap", "She finally slept", "Nap log", "Mila napped", "Sleep log"],
        titles=["Nap", "Mila nap", "Sleep"],
        image_leads=["Tracker screenshot of her nap.", "Nap from the app.", "Baby app nap card."],
        caption_heads=["Baby tracker app sleep entry", "Screenshot of a nap timer", "Sleep tracker card"],
        acks=["Nap noted.", "Lovely, saved her nap.", "Nap logged."],
    )
    h.kinds["weigh"] = Kind(
        "weigh",
        [("Weight", "kg", "2dp"), ("Height", "cm", "1dp")],
        leads=["Clinic weigh-in", "Weighed her today", "Health visitor check", "Weigh-in"],
        titles=["Weigh-in", "Clinic", "Growth check"],
        image_leads=["Photo of her red book page.", "Clinic printout.", "Growth chart photo."],
        caption_heads=["Photo of a baby health record page", "Clinic weigh-in slip",
                       "Handwritten growth record"],
        acks=["Growth check saved.", "Weigh-in logged.", "Noted her measurements."],
    )
    E_MOVE, E_MEDS, E_WORK = D("2026-05-23"), D("2026-06-12"), D("2026-06-29")
    h.add_event("move", E_MOVE,
                "We finally have the keys and slept our first night in the new flat! Boxes everywhere, but Mila has "
                "a little room of her own now with a proper cot.",
                "Congratulations! A new home with a nursery is a big step. Go easy on the unpacking and rest when "
                "she does.", hours=(9, 12))
    h.add_event("meds", E_MEDS,
                "The GP thinks all the spitting up and arching is reflux, and prescribed something to give her "
                "before each bottle. Gave her the first dose this evening.",
                "I hope it brings her some relief. It can take a little while to see a difference, so keep an eye "
                "on how she settles after feeds.", hours=(19, 22))
    h.add_event("work", E_WORK,
                "Dev's leave is over, he was at his desk in town from early this morning. Very quiet here with just "
                "me and Mila all day.",
                "That's a big change for all of you. Be kind to yourself while you find a new rhythm.", hours=(18, 21))
    h.add_mention("move", D("2026-06-03"),
                  "Still unpacking the last boxes in the new place, I found the good saucepans at last.",
                  "Small victories! The kitchen will feel like home now.")
    h.add_mention("meds", D("2026-06-24"),
                  "She seems much more comfortable after bottles these days, the GP's prescription is really helping.",
                  "That's really good to hear, it makes such a difference to her and to you.")
    h.add_mention("work", D("2026-07-08"),
                  "The days feel long now that Dev's at the office, but the walks with the pram help.",
                  "Getting out each day is a great idea for both of you.")
    h.blanks["feed"] |= {D("2026-06-05"), D("2026-07-05")}
    h.blanks["nap"] |= {D("2026-06-14"), D("2026-06-15"), D("2026-06-21"), D("2026-06-28")}
    force_feed = {D("2026-07-07"): 2}
    force_nap = {D("2026-05-24"): 1}
    nap_base = {"cot": 85, "pram": 60, "sling": 45, "car seat": 30}
    for day in days(h.start, h.end):
        if day in h.events:
            continue
        age = (day - h.start).days
        n_feed = 0 if day in h.blanks["feed"] else force_feed.get(day, 2 if rng.random() < 0.55 else 1)
        slots = [(6, 9), (14, 17)]
        chosen = slots if n_feed == 2 else [rng.choice(slots)] if n_feed == 1 else []
        for h1, h2 in chosen:
            amount = 105 + 0.55 * age + (12 if day > E_MEDS else 0) + rng.gauss(0, 8)
            amount = int(round(amount / 5) * 5)
            milk = pick(rng, [("expressed", 0.7), ("formula", 0.3)] if day < E_WORK
                        else [("expressed", 0.35), ("formula", 0.65)])
            dur = max(6, int(round(rng.gauss(22, 4) if day < E_MEDS else rng.gauss(14, 3))))
            h.plan("feed", day, (rng.randint(h1, h2), rng.randint(0, 59)),
                   {"Milk": milk, "Amount": amount, "Duration": dur})
        weigh = day.weekday() == 1 and (rng.random() < 0.85 or day in (h.start + timedelta(days=1),))
        if day in h.blanks["nap"]:
            n_nap = 0
        elif day in force_nap:
            n_nap = force_nap[day]
        else:
            n_nap = pick(rng, [(0, 0.15), (1, 0.5), (2, 0.35)])
        if n_feed + n_nap + weigh > 4:
            n_nap = 4 - n_feed - weigh
        nap_slots = [(10, 12), (15, 18)]
        chosen = nap_slots if n_nap == 2 else [rng.choice(nap_slots)] if n_nap == 1 else []
        for h1, h2 in chosen:
            if day < E_MOVE:
                place = pick(rng, [("pram", 0.45), ("sling", 0.35), ("car seat", 0.2)])
            elif day < E_WORK:
                place = pick(rng, [("cot", 0.5), ("pram", 0.3), ("sling", 0.15), ("car seat", 0.05)])
            else:
                place = pick(rng, [("pram", 0.5), ("cot", 0.35), ("sling", 0.1), ("car seat", 0.05)])
            length = nap_base[place] + (10 if day > E_MEDS else 0) + rng.gauss(0, 12)
            length = max(15, int(round(length / 5) * 5))
            h.plan("nap", day, (rng.randint(h1, h2), rng.randint(0, 59)), {"Place": place, "Nap length": length})
        if weigh:
            w = round(4.85 + 0.026 * age + rng.gauss(0, 0.03), 2)
            ht = round(56.0 + 0.09 * age + rng.gauss(0, 0.2), 1)
            h.plan("weigh", day, (rng.randint(10, 11), rng.randint(0, 59)), {"Weight": w, "Height": ht})
    return h


# ---------------------------------------------------------------- baker

def build_baker(rng) -> History:
    h = History("baker", "ines", D("2026-09-01"), D("2026-11-22"), datetime(2026, 11, 22, 23, 45))
    h.kinds["sale"] = Kind(
        "sale",
        [("Market", None, "text"), ("Loaves", "loaves", "int"), ("Takings", "EUR", "2dp")],
        leads=["Sales today", "Market done", "Packed up the stall", "Bread sales", "Delivery done",
               "Another day of selling"],
        titles=["Sales", "Stall", "Bakery sales", "Today"],
        image_leads=["Photo of my sales sheet.", "Card reader summary.", "Sales tally pic."],
        caption_heads=["Photo of a handwritten sales tally", "Card reader end-of-day summary",
                       "Whiteboard sales tally"],
        acks=["Sales logged.", "Nice day, saved it.", "Got the sales down."],
    )
    h.kinds["buy"] = Kind(
        "buy",
        [("Ingredient", None, "text"), ("Supplier", None, "text"), ("Weight", "kg", "int"), ("Cost", "EUR", "2dp")],
        leads=["Ingredient order", "Restocked", "Bought supplies", "Flour run", "Supplier invoice"],
        titles=["Order", "Supplies", "Ingredients"],
        image_leads=["Invoice photo.", "Delivery note.", "Photo of the invoice."],
        caption_heads=["Photo of a supplier invoice", "Delivery note photo", "Scanned invoice"],
        acks=["Order logged.", "Saved the invoice.", "Added to your costs."],
    )
    E_LEAVE, E_BACK, E_OVEN = D("2026-10-03"), D("2026-10-12"), D("2026-10-29")
    h.add_event("leave", E_LEAVE,
                "Off to Porto this morning to see my sister! Kitchen locked up, stall cancelled, and the sourdough "
                "starter is being babysat by my neighbour.",
                "Have a wonderful time! A proper break will do you good, and the starter is in safe hands.", hours=(7, 8))
    h.add_event("back", E_BACK,
                "Home again after a lovely stretch in Porto. The starter survived at the neighbour's, thank "
                "goodness, and I'm itching to bake.",
                "Welcome home! Glad the starter made it. Easing back in with a feeding schedule will get it "
                "lively again quickly.", hours=(18, 21))
    h.add_event("oven", E_OVEN,
                "The deck oven was delivered and installed today! Proper stone decks, I can fit so much more bread "
                "in at once. The kitchen feels like a real bakery now.",
                "That's a huge upgrade, congratulations! It might take a few bakes to learn its hot spots.", hours=(16, 21))
    h.add_mention("back", D("2026-10-20"),
                  "Still dreaming about the custard tarts I had on the trip, I might try making some.",
                  "Pasteis de nata at home would be a fun project, and your market regulars might love them.")
    h.add_mention("oven", D("2026-11-05"),
                  "The stone decks run a little hot at the back, I'm learning their moods.",
                  "Rotating trays halfway through usually evens that out.")
    h.blanks["sale"] |= {D("2026-09-15"), D("2026-10-14"), D("2026-10-15"), D("2026-11-12")}
    h.blanks["buy"] |= {D("2026-09-26"), D("2026-11-08")}
    force_sale = {D("2026-11-14")}
    schedule = {1: ("farm shop", 0.9), 2: ("Riverside market", 0.9), 3: ("Harbour Cafe", 0.35),
                4: ("farm shop", 0.9), 5: ("Saturday market", 0.95)}
    loaf_base = {"farm shop": (16, 3), "Riverside market": (30, 5), "Saturday market": (46, 7),
                 "Harbour Cafe": (12, 2)}
    scripted_buy = {D("2026-10-13"): ("spelt flour", "Mill House", 25, 49.50)}
    goods = [("rye flour", "Mill House", 25, (31.0, 36.0)), ("spelt flour", "Mill House", 25, (45.0, 52.0)),
             ("white flour", "Cash and Carry", 25, (19.0, 24.0)), ("butter", "Cash and Carry", 5, (38.0, 45.0)),
             ("seeds", "Green Larder", 5, (22.0, 28.0)), ("yeast", "Cash and Carry", 1, (6.0, 8.0)),
             ("white flour", "Cash and Carry", 25, (19.0, 24.0))]
    for day in days(h.start, h.end):
        if day in h.events or E_LEAVE < day < E_BACK:
            continue
        wd = day.weekday()
        if wd in schedule and day not in h.blanks["sale"]:
            market, p = schedule[wd]
            if day in force_sale or rng.random() < p:
                mu, sd = loaf_base[market]
                if day > E_OVEN:
                    mu *= 1.35
                loaves = max(4, int(round(rng.gauss(mu, sd))))
                if market == "farm shop":
                    takings = loaves * 4.2
                elif market == "Harbour Cafe":
                    takings = loaves * 3.6
                else:
                    takings = loaves * 4.8 + rng.uniform(20, 110 if market == "Saturday market" else 60)
                takings = round(takings * 2) / 2
                hh = {"farm shop": (9, 10), "Riverside market": (19, 20), "Harbour Cafe": (10, 11),
                      "Saturday market": (14, 15)}[market]
                h.plan("sale", day, (rng.randint(*hh), rng.randint(0, 59)),
                       {"Market": market, "Loaves": loaves, "Takings": takings})
        if day in h.blanks["buy"]:
            continue
        if day in scripted_buy:
            ing, sup, kg, cost = scripted_buy[day]
        elif wd in (0, 1, 3, 4) and rng.random() < 0.4:
            ing, sup, kg, (lo, hi) = rng.choice(goods)
            if day > E_OVEN and ing.endswith("flour") and rng.random() < 0.3:
                kg *= 2
                lo, hi = lo * 2, hi * 2
            cost = round(rng.uniform(lo, hi) * 4) / 4
        else:
            continue
        h.plan("buy", day, (rng.randint(12, 16), rng.randint(0, 59)),
               {"Ingredient": ing, "Supplier": sup, "Weight": kg, "Cost": cost})
    return h


# --------------------------------------------------------------------------
# questions
# --------------------------------------------------------------------------

def num(x, dp=None):
    if isinstance(x, int):
        return str(x)
    if dp is not None:
        return f"{x:.{dp}f}"
    s = f"{x:.2f}".rstrip("0").rstrip(".")
    return s


def with_unit(x, unit, dp=None):
    return f"{num(x, dp)} {unit}" if unit else num(x, dp)


class QB:
    def __init__(self, h: History, prefix):
        self.h = h
        self.prefix = prefix
        self.qs = []

    def sel(self, kind, a=None, b=None, where=None, qt=None):
        qt = qt or self.h.qt_default
        out = []
        for r in self.h.records:
            if r["kind"] != kind or r["time"] > qt:
                continue
            if a and r["day"] < a:
                continue
            if b and r["day"] > b:
                continue
            if where and any(r["values"][k] != v for k, v in where.items()):
                continue
            out.append(r)
        check(out, f"{self.h.name}: empty selection {kind} {a}..{b} {where}")
        return out

    def blank(self, kind, *ds):
        for d in ds:
            check(not any(r["kind"] == kind and r["day"] == d for r in self.h.records),
                  f"{self.h.name}: boundary {d} carries a {kind} record")

    def event(self, key):
        return self.h.event_days[key]

    def agg(self, op, recs, field):
        kind = self.h.kinds[recs[0]["kind"]]
        if op == "count":
            return len(recs)
        vals = [r["values"][field] for r in recs]
        if op == "sum":
            dp = kind.dp(field)
            return int(round(math.fsum(vals))) if dp == 0 else round(math.fsum(vals), dp)
        if op == "avg":
            return math.fsum(vals) / len(vals)
        raise ValueError(op)

    def unit(self, recs, field, op):
        if op == "count":
            return None
        return self.h.kinds[recs[0]["kind"]].unit(field)

    def add(self, family, question, answer, gold, evidence, qt=None):
        n = len(self.qs) + 1
        self.qs.append({
            "question_id": f"{self.prefix}{n:02d}",
            "history": self.h.name,
            "question": question,
            "answer": answer,
            "type": f"compositional.{family}",
            "family": family,
            "question_time": (qt or self.h.qt_default).isoformat(timespec="seconds"),
            "evidence": sorted({r["round_id"] for r in evidence}, key=round_key),
            "gold": gold,
        })

    # ---------------------------------------------------------- question shapes
    def q_value(self, family, question, kind, field, op, a=None, b=None, where=None, qt=None, text=None):
        rs = self.sel(kind, a, b, where=where, qt=qt)
        v = self.agg(op, rs, field)
        u = self.unit(rs, field, op)
        dp = None if op == "avg" else (0 if op == "count" else self.h.kinds[kind].dp(field))
        what = text or ""
        ans = f"{with_unit(v, u, dp if op != 'avg' else None)}{what} ({len(rs)} record{'s' if len(rs) != 1 else ''})"
        self.add(family, question, ans, {"value": v, "unit": u}, rs, qt)
        return v

    def q_record(self, family, question, rec, field, note):
        kind = self.h.kinds[rec["kind"]]
        v = rec["values"][field]
        u = kind.unit(field)
        self.add(family, question, f"{with_unit(v, u, kind.dp(field))} ({note}, {rec['day'].isoformat()})",
                 {"value": v, "unit": u}, [rec])

    def q_yesno(self, family, question, side_a, side_b, kind, field, op, label_a, label_b, qt=None,
                direction="greater"):
        ra = self.sel(kind, *side_a, qt=qt)
        rb = self.sel(kind, *side_b, qt=qt)
        va, vb = self.agg(op, ra, field), self.agg(op, rb, field)
        check(abs(va - vb) > 1e-9, f"{self.h.name}: tie in yes/no {question}")
        yes = va > vb if direction == "greater" else va < vb
        u = self.unit(ra, field, op)
        ans = (f"{'Yes' if yes else 'No'}: {with_unit(va, u)} {label_a} vs {with_unit(vb, u)} {label_b}")
        self.add(family, question, ans,
                 {"value": "yes" if yes else "no", "unit": None, "values": [va, vb], "value_unit": u},
                 ra + rb, qt)

    def q_diff(self, family, template, sides, kind, field, op, qt=None):
        """sides: [(label, (a, b, where))]; the larger side is named first."""
        got = []
        for lab, sp in sides:
            rs = self.sel(kind, *sp, qt=qt)
            got.append((self.agg(op, rs, field), lab, rs))
        got.sort(key=lambda g: -g[0])
        (va, la, ra), (vb, lb, rb) = got
        check(va - vb > 1e-9, f"{self.h.name}: zero difference {template}")
        dpf = self.h.kinds[kind].dp(field) if op == "sum" else None
        diff = round(va - vb, dpf) if dpf is not None else va - vb
        u = self.unit(ra, field, op)
        q = template.format(A=la, B=lb)
        ans = f"{with_unit(diff, u)} ({with_unit(va, u)} {la} vs {with_unit(vb, u)} {lb})"
        self.add(family, q, ans, {"value": diff, "unit": u, "values": [va, vb]}, ra + rb, qt)

    def q_pct(self, family, question, va, vb, ra, rb, unit_v, la, lb, qt=None):
        check(abs(va) > 1e-9 and abs(vb - va) > 1e-9, "bad percent change")
        pct = (vb - va) / va * 100
        ans = f"{pct:+.2f}% ({with_unit(va, unit_v)} {la} to {with_unit(vb, unit_v)} {lb})"
        self.add(family, question, ans, {"value": pct, "unit": "%", "values": [va, vb]}, ra + rb, qt)

    def groups(self, recs, key):
        g = defaultdict(list)
        for r in recs:
            if key == "week":
                k = (r["day"] - timedelta(days=r["day"].weekday())).isoformat()
            elif key == "month":
                k = r["day"].replace(day=1).isoformat()
            else:
                k = r["values"][key]
            g[k].append(r)
        return g

    def top(self, recs, key, op, field):
        g = self.groups(recs, key)
        scored = sorted(((self.agg(op, rs, field), k, rs) for k, rs in g.items()), key=lambda x: (-x[0], x[1]))
        check(len(scored) >= 2 and scored[0][0] - scored[1][0] > 1e-9,
              f"{self.h.name}: tie or single group for {key}/{op}/{field}")
        return scored

    def q_group(self, family, question, kind, key, op, field, a=None, b=None, qt=None):
        rs = self.sel(kind, a, b, qt=qt)
        scored = self.top(rs, key, op, field)
        v, k, _ = scored[0]
        u = self.unit(rs, field, op)
        gold = {"value": k, "unit": None, "group_value": v, "group_unit": u}
        if key in ("week", "month"):
            gold["period"] = key
        runner = scored[1]
        label = f"week of {k}" if key == "week" else (k[:7] if key == "month" else k)
        ans = (f"{label} ({with_unit(v, u)}; next: "
               f"{'week of ' + runner[1] if key == 'week' else runner[1][:7] if key == 'month' else runner[1]}"
               f" with {with_unit(runner[0], u)})")
        self.add(family, question, ans, gold, rs, qt)
        return k

    def q_of_top(self, family, question, kind, key, field, op, top_op="count", top_field=None, qt=None):
        rs = self.sel(kind, qt=qt)
        scored = self.top(rs, key, top_op, top_field)
        k = scored[0][1]
        grs = [r for r in rs if r["values"][key] == k]
        v = self.agg(op, grs, field)
        u = self.unit(grs, field, op)
        self.add(family, question, f"{with_unit(v, u)} ({k}, {len(grs)} records)", {"value": v, "unit": u}, grs, qt)


def round_key(rid):
    s, n = rid.split(":")
    return (int(s[1:]), int(n))


def first_after(h, kind, day):
    rs = sorted((r for r in h.records if r["kind"] == kind and r["day"] > day), key=lambda r: r["time"])
    check(rs, "no record after")
    return rs[0]


def last_before(h, kind, day):
    rs = sorted((r for r in h.records if r["kind"] == kind and r["day"] < day), key=lambda r: r["time"])
    check(rs, "no record before")
    return rs[-1]


def only_on(h, kind, day):
    rs = [r for r in h.records if r["kind"] == kind and r["day"] == day]
    check(len(rs) == 1, f"{h.name}: {len(rs)} {kind} records on {day}")
    return rs[0]


ONE = timedelta(days=1)


def questions_commuter(h: History):
    q = QB(h, "cy")
    job, crash, bike = q.event("job"), q.event("crash"), q.event("bike")
    start, end = h.start, h.end
    # ---- anchored
    q.q_value("anchored", "How many km have I ridden in total since I started the new job?",
              "ride", "Distance", "sum", job + ONE, None, text=" ridden since starting at Brightwell")
    q.q_value("anchored", "What was my average ride distance before I changed jobs?",
              "ride", "Distance", "avg", start, job - ONE)
    q.q_value("anchored", "how many rides did I log between starting the new job and my crash?",
              "ride", None, "count", job + ONE, crash - ONE)
    q.blank("spend", crash + 14 * ONE)
    q.q_value("anchored", "How much did I spend on bike stuff in the two weeks after I hurt my knee?",
              "spend", "Cost", "sum", crash + ONE, crash + 14 * ONE)
    r = first_after(h, "ride", crash)
    q.q_record("anchored", "My first ride back after the knee injury - how long did it take?", r, "Duration",
               "first ride after the crash")
    r = only_on(h, "ride", bike + ONE)
    q.q_record("anchored", "How far did I go the day after I got the new bike?", r, "Distance",
               "the day after the new bike")
    # ---- compare
    q.q_yesno("compare", "Did I ride more km in March than in February?",
              (D("2026-03-01"), D("2026-03-31")), (D("2026-02-01"), D("2026-02-28")),
              "ride", "Distance", "sum", "in March", "in February")
    q.q_diff("compare", "How much more did I spend on the bike in {A} than in {B}?",
             [("April", (D("2026-04-01"), D("2026-04-30"))), ("March", (D("2026-03-01"), D("2026-03-31")))],
             "spend", "Cost", "sum")
    q.q_yesno("compare", "Do I average more elevation on the forest track than on harbour road?",
              (None, None, {"Route": "forest track"}), (None, None, {"Route": "harbour road"}),
              "ride", "Elevation", "avg", "on the forest track", "on harbour road")
    fa, fb = (D("2026-02-01"), D("2026-02-28")), (D("2026-04-01"), D("2026-04-30"))
    ra, rb = q.sel("ride", *fa), q.sel("ride", *fb)
    q.q_pct("compare", "By what percentage did my average ride time change from February to April?",
            q.agg("avg", ra, "Duration"), q.agg("avg", rb, "Duration"), ra, rb, "min", "in February", "in April")
    q.q_diff("compare", "What's the difference in average ride time between the {A} and the {B}?",
             [("ring road", (None, None, {"Route": "ring road"})), ("canal path", (None, None, {"Route": "canal path"}))],
             "ride", "Duration", "avg")
    q.q_yesno("compare", "did my average distance per ride go up from March to April?",
              (D("2026-03-01"), D("2026-03-31")), (D("2026-04-01"), D("2026-04-30")),
              "ride", "Distance", "avg", "in March", "in April", direction="less")
    # ---- group
    q.q_group("group", "Which route do I ride most often?", "ride", "Route", "count", None)
    q.q_group("group", "Which bike shop have I spent the most at overall?", "spend", "Shop", "sum", "Cost")
    q.q_group("group", "Which week did I cover the most distance on the bike?", "ride", "week", "sum", "Distance")
    q.q_of_top("group", "How much have I spent altogether at the shop I go to most often?",
               "spend", "Shop", "Cost", "sum")
    q.q_group("group", "Which month had my highest average climbing per ride?", "ride", "month", "avg", "Elevation")
    q.q_group("group", "What bike thing have I spent the most on in total?", "spend", "Item", "sum", "Cost")
    # ---- dates
    q.blank("ride", D("2026-03-15"), D("2026-03-16"))
    q.q_value("dates", "How far did I cycle over the first half of March?", "ride", "Distance", "sum",
              D("2026-03-01"), D("2026-03-15"))
    q.q_value("dates", "What was my average ride time throughout February?", "ride", "Duration", "avg",
              D("2026-02-01"), D("2026-02-28"))
    q.blank("ride", D("2026-03-08"), D("2026-03-15"))
    q.q_value("dates", "How many times did I get on the bike during the week of March 9th?", "ride", None, "count",
              D("2026-03-09"), D("2026-03-15"))
    q.blank("spend", end - 21 * ONE)
    q.q_value("dates", "how much have I spent on the bike in the past 3 weeks?", "spend", "Cost", "sum",
              end - 20 * ONE, end)
    qt = datetime(2026, 3, 15, 23, 45)
    q.blank("ride", D("2026-03-01"))
    q.q_value("dates", "What was my total climbing over the past fortnight?", "ride", "Elevation", "sum",
              D("2026-03-02"), D("2026-03-15"), qt=qt)
    qt = datetime(2026, 4, 23, 23, 45)
    r = only_on(h, "ride", D("2026-04-20"))
    q.q_record("dates", "How long was my ride three days ago?", r, "Duration", "three days before the question")
    q.qs[-1]["question_time"] = qt.isoformat(timespec="seconds")
    return q.qs


def questions_baby(h: History):
    q = QB(h, "ba")
    move, meds, work = q.event("move"), q.event("meds"), q.event("work")
    start, end = h.start, h.end
    # ---- anchored
    q.q_value("anchored", "What's Mila's average bottle since she started on the reflux medicine?",
              "feed", "Amount", "avg", meds + ONE, None)
    q.q_value("anchored", "How many naps did she have before we moved house?", "nap", None, "count",
              start, move - ONE)
    q.q_value("anchored", "What was her average nap length between the move and starting the reflux meds?",
              "nap", "Nap length", "avg", move + ONE, meds - ONE)
    q.blank("feed", meds - 7 * ONE)
    q.q_value("anchored", "How much milk did she drink in total in the week before the reflux medicine?",
              "feed", "Amount", "sum", meds - 7 * ONE, meds - ONE)
    r = last_before(h, "weigh", work)
    q.q_record("anchored", "What did she weigh at her last weigh-in before Dev went back to work?", r, "Weight",
               "last weigh-in before Dev's return to work")
    r = only_on(h, "nap", move + ONE)
    q.q_record("anchored", "how long did she nap the day after we moved in?", r, "Nap length",
               "the day after the move")
    # ---- compare
    q.q_yesno("compare", "Did she nap more in total in June than in May?",
              (D("2026-06-01"), D("2026-06-30")), (D("2026-05-01"), D("2026-05-31")),
              "nap", "Nap length", "sum", "in June", "in May")
    q.q_diff("compare", "How much more milk did she drink in {A} than in {B}?",
             [("June", (D("2026-06-01"), D("2026-06-30"))), ("May", (D("2026-05-01"), D("2026-05-31")))],
             "feed", "Amount", "sum")
    q.q_yesno("compare", "Are her formula bottles bigger on average than the expressed ones?",
              (None, None, {"Milk": "formula"}), (None, None, {"Milk": "expressed"}),
              "feed", "Amount", "avg", "formula", "expressed")
    q.q_diff("compare", "How much longer are her {A} naps than her {B} naps, on average?",
             [("cot", (None, None, {"Place": "cot"})), ("pram", (None, None, {"Place": "pram"}))],
             "nap", "Nap length", "avg")
    ws = sorted((r for r in h.records if r["kind"] == "weigh"), key=lambda r: r["time"])
    q.q_pct("compare", "By what percent has her weight gone up from her first weigh-in to the latest one?",
            ws[0]["values"]["Weight"], ws[-1]["values"]["Weight"], [ws[0]], [ws[-1]], "kg",
            f"on {ws[0]['day']}", f"on {ws[-1]['day']}")
    q.q_yesno("compare", "Did her average feed time go down from May to July?",
              (D("2026-05-01"), D("2026-05-31")), (D("2026-07-01"), D("2026-07-31")),
              "feed", "Duration", "avg", "in May", "in July", direction="greater")
    # "go down from May to July" is yes when May > July: values stay [May, July]
    # ---- group
    q.q_group("group", "Where does she nap most often?", "nap", "Place", "count", None)
    q.q_group("group", "Which nap spot gives her the longest naps on average?", "nap", "Place", "avg", "Nap length")
    q.q_group("group", "Which week did she drink the most milk?", "feed", "week", "sum", "Amount")
    q.q_group("group", "Which month did she have the most naps?", "nap", "month", "count", None)
    q.q_of_top("group", "What's her total nap time in the place she naps most?", "nap", "Place", "Nap length", "sum")
    q.q_group("group", "Which milk does she get more often, formula or expressed?", "feed", "Milk", "count", None)
    # ---- dates
    q.q_value("dates", "How many ml did she drink in the first ten days of June?", "feed", "Amount", "sum",
              D("2026-06-01"), D("2026-06-10"))
    q.blank("nap", D("2026-06-14"), D("2026-06-15"))
    q.q_value("dates", "what's her average nap length since mid-June?", "nap", "Nap length", "avg",
              D("2026-06-15"), None)
    q.blank("nap", D("2026-06-21"), D("2026-06-28"))
    q.q_value("dates", "What was her total nap time during the week of the 22nd of June?", "nap", "Nap length",
              "sum", D("2026-06-22"), D("2026-06-28"))
    q.blank("feed", end - 14 * ONE)
    q.q_value("dates", "Average bottle size over the past fortnight?", "feed", "Amount", "avg",
              end - 13 * ONE, end)
    qt = datetime(2026, 7, 12, 23, 45)
    q.q_value("dates", "How much milk did she have five days ago?", "feed", "Amount", "sum",
              D("2026-07-07"), D("2026-07-07"), qt=qt)
    q.q_value("dates", "How many naps did I log for her throughout May?", "nap", None, "count",
              D("2026-05-01"), D("2026-05-31"))
    return q.qs


def questions_baker(h: History):
    q = QB(h, "bk")
    leave, back, oven = q.event("leave"), q.event("back"), q.event("oven")
    start, end = h.start, h.end
    # ---- anchored
    q.q_value("anchored", "How much have I taken in total since the new oven arrived?", "sale", "Takings", "sum",
              oven + ONE, None)
    q.q_value("anchored", "How many loaves did I sell before I went away?", "sale", "Loaves", "sum",
              start, leave - ONE)
    q.q_value("anchored", "What were my average takings per sale between getting back from Porto and the new oven?",
              "sale", "Takings", "avg", back + ONE, oven - ONE)
    q.blank("buy", leave - 7 * ONE)
    q.q_value("anchored", "How much did I spend on ingredients the week before my trip?", "buy", "Cost", "sum",
              leave - 7 * ONE, leave - ONE)
    r = first_after(h, "buy", back)
    q.q_record("anchored", "What did my first ingredient order after I got home cost?", r, "Cost",
               "first order after the return")
    q.blank("sale", oven + 14 * ONE)
    q.q_value("anchored", "How many loaves did I shift in the two weeks after the new oven went in?", "sale",
              "Loaves", "sum", oven + ONE, oven + 14 * ONE)
    r = last_before(h, "sale", leave)
    q.q_record("anchored", "How many loaves did I sell on my last selling day before the holiday?", r, "Loaves",
               "last sale before the trip")
    # ---- compare
    q.q_yesno("compare", "Did I take more money in October than in September?",
              (D("2026-10-01"), D("2026-10-31")), (D("2026-09-01"), D("2026-09-30")),
              "sale", "Takings", "sum", "in October", "in September")
    q.q_diff("compare", "How much more did I make in {A} than in {B}?",
             [("November", (D("2026-11-01"), D("2026-11-30"))), ("October", (D("2026-10-01"), D("2026-10-31")))],
             "sale", "Takings", "sum")
    q.q_yesno("compare", "Are my average takings higher at the Saturday market than at the Riverside market?",
              (None, None, {"Market": "Saturday market"}), (None, None, {"Market": "Riverside market"}),
              "sale", "Takings", "avg", "at the Saturday market", "at the Riverside market")
    ra, rb = q.sel("sale", D("2026-09-01"), D("2026-09-30")), q.sel("sale", D("2026-11-01"), D("2026-11-30"))
    q.q_pct("compare", "What's the percentage change in loaves sold from September to November?",
            q.agg("sum", ra, "Loaves"), q.agg("sum", rb, "Loaves"), ra, rb, "loaves", "in September", "in November")
    q.q_diff("compare", "What's the difference between what I've spent at {A} and at {B}?",
             [("Mill House", (None, None, {"Supplier": "Mill House"})),
              ("Cash and Carry", (None, None, {"Supplier": "Cash and Carry"}))], "buy", "Cost", "sum")
    q.q_yesno("compare", "Have I spent more on rye flour than on spelt flour?",
              (None, None, {"Ingredient": "rye flour"}), (None, None, {"Ingredient": "spelt flour"}),
              "buy", "Cost", "sum", "on rye flour", "on spelt flour")
    # ---- group
    q.q_group("group", "Which market brings in the most money overall?", "sale", "Market", "sum", "Takings")
    q.q_group("group", "Which supplier do I order from most often?", "buy", "Supplier", "count", None)
    q.q_group("group", "Which week had my best takings?", "sale", "week", "sum", "Takings")
    q.q_of_top("group", "How much have I spent in total with the supplier I use the most?", "buy", "Supplier",
               "Cost", "sum")
    q.q_group("group", "Which ingredient eats up most of my money?", "buy", "Ingredient", "sum", "Cost")
    q.q_group("group", "In which month did I sell the most bread?", "sale", "month", "sum", "Loaves")
    # ---- dates
    q.blank("sale", D("2026-09-15"))
    q.q_value("dates", "How much did I take over the second half of September?", "sale", "Takings", "sum",
              D("2026-09-16"), D("2026-09-30"))
    q.q_value("dates", "how many loaves did I sell in the first ten days of November?", "sale", "Loaves", "sum",
              D("2026-11-01"), D("2026-11-10"))
    q.blank("sale", D("2026-10-14"), D("2026-10-15"))
    q.q_value("dates", "What are my average takings since mid-October?", "sale", "Takings", "avg",
              D("2026-10-15"), None)
    q.blank("buy", end - 14 * ONE)
    q.q_value("dates", "How much have I spent on ingredients over the past fortnight?", "buy", "Cost", "sum",
              end - 13 * ONE, end)
    q.blank("sale", D("2026-09-13"), D("2026-09-20"))
    q.q_value("dates", "What did I take during the week of the 14th of September?", "sale", "Takings", "sum",
              D("2026-09-14"), D("2026-09-20"))
    qt = datetime(2026, 11, 18, 23, 45)
    r = only_on(h, "sale", D("2026-11-14"))
    q.q_record("dates", "What were my takings four days ago?", r, "Takings", "four days before the question")
    q.qs[-1]["question_time"] = qt.isoformat(timespec="seconds")
    return q.qs


BUILDERS = {"commuter": (build_commuter, questions_commuter),
            "baby": (build_baby, questions_baby),
            "baker": (build_baker, questions_baker)}


def generate(seed):
    out = {}
    for i, name in enumerate(NAMES):
        rng = random.Random(seed * 10 + i)
        build, ask = BUILDERS[name]
        h = build(rng)
        for kind, ds in h.blanks.items():
            for d in ds:
                check(not any(k == kind for k, _t, _v in h.planned.get(d, [])), f"blank {d} planned")
        h.assemble(rng)
        qs = ask(h)
        check(len(qs) >= 22, f"{name}: only {len(qs)} questions")
        for k, rid in h.event_rounds.items():
            check(rid, "event round")
        out[name] = (h, qs)
    return out


def dump_json(obj):
    return json.dumps(obj, indent=1, ensure_ascii=False) + "\n"


def write(out):
    allq = []
    for name in NAMES:
        h, qs = out[name]
        (HERE / f"history_{name}.json").write_text(dump_json(h.doc), encoding="utf-8")
        lines = "".join(json.dumps(q, ensure_ascii=False) + "\n" for q in qs)
        (HERE / f"questions_{name}.jsonl").write_text(lines, encoding="utf-8")
        allq.extend(qs)
    (HERE / "questions.jsonl").write_text("".join(json.dumps(q, ensure_ascii=False) + "\n" for q in allq),
                                          encoding="utf-8")


def summary(out):
    fam = defaultdict(int)
    for name in NAMES:
        h, qs = out[name]
        n_rounds = sum(len(s["rounds"]) for s in h.doc["sessions"])
        kinds = defaultdict(int)
        forms = defaultdict(int)
        for r in h.records:
            kinds[r["kind"]] += 1
            forms[r["format"]] += 1
        print(f"{name}: user {h.user_id}, {len(h.doc['sessions'])} sessions, {n_rounds} rounds, "
              f"records {dict(kinds)}, formats {dict(sorted(forms.items()))}")
        for key, rid in h.event_rounds.items():
            print(f"  event {key}: {h.event_days[key]} {rid}; later mentions {h.mention_rounds.get(key, [])}")
        for qq in qs:
            fam[qq["family"]] += 1
    print("questions per family:", dict(fam), "total", sum(fam.values()))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--search", action="store_true", help="try seeds from --seed upwards, report rejections")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    seed = args.seed
    while True:
        try:
            out = generate(seed)
            break
        except Rejected as e:
            if not args.search:
                print(f"seed {seed} rejected: {e}", file=sys.stderr)
                return 1
            print(f"seed {seed} rejected: {e}")
            seed += 1
    write(out)
    if not args.quiet:
        print(f"seed {seed}")
        summary(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
