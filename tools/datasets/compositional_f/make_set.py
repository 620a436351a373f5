#!/usr/bin/env python3
"""Generate compositional development set F: three ~3-month chat histories and 90 questions.

Histories (each a JSON document in the shared history format):
  bluebell  Ruairi's car "Bluebell" (fuel fill-ups, trips, garage visits); a house move, a puncture,
            a fuel-tanker strike, a car-park bump, a heat wave.
  dad       Priya logs her father's health (blood pressure, fasting glucose, weigh-ins, walks); new BP
            tablets, a hospital stay, a power cut, physio, a heat wave, a neighbours' party.
  stall     Jonas's weekend candle-and-soap stall "Fern & Flame" (market days, supply orders, production
            batches); a second-hand van, a storm that cancels a market, a card-reader outage, a new
            weekday job, a heat wave.

Every gold value is computed from the records written here; asserts check that each selection is
non-empty, top groups are unique, no record of the queried kind lies on an ambiguous boundary day,
and that unanswerable questions have no data. Seeded and deterministic; standard library only.

Usage: python3 tools/datasets/compositional_f/make_set.py   (writes into this folder)
"""

from __future__ import annotations

import datetime as dt
import json
import random
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
D = dt.date.fromisoformat
ONE = dt.timedelta(days=1)


def days(start, end):
    d = D(start) if isinstance(start, str) else start
    e = D(end) if isinstance(end, str) else end
    while d <= e:
        yield d
        d += ONE


# ----------------------------------------------------------------------------------------------------
# history builder


class History:
    def __init__(self, name, user_id, seed, question_time):
        self.name, self.user_id, self.question_time = name, user_id, question_time
        self.rng = random.Random(seed)
        self.by_day = defaultdict(list)
        self.rows = defaultdict(list)
        self.events = {}
        self.questions = []

    def say(self, day, hhmm, user, assistant):
        day = D(day) if isinstance(day, str) else day
        r = {"time": f"{day.isoformat()}T{hhmm}:00", "user": user, "assistant": assistant}
        assert all(x["time"] != r["time"] for x in self.by_day[day]), ("two rounds at one time", r["time"])
        self.by_day[day].append(r)
        return r

    def record(self, table, day, hhmm, fields, text, assistant):
        day = D(day) if isinstance(day, str) else day
        r = self.say(day, hhmm, text, assistant)
        row = dict(fields)
        row.update(_date=day, _round=r, _time=r["time"])
        self.rows[table].append(row)
        return row

    def event(self, key, day, hhmm, text, assistant):
        day = D(day) if isinstance(day, str) else day
        self.events[key] = (day, self.say(day, hhmm, text, assistant))

    def finalize(self):
        sessions = []
        for i, day in enumerate(sorted(self.by_day), 1):
            rounds = sorted(self.by_day[day], key=lambda r: r["time"])
            out = []
            for k, r in enumerate(rounds, 1):
                r["round_id"] = f"S{i}:{k}"
                out.append({"round_id": r["round_id"], "time": r["time"], "user": r["user"],
                            "assistant": r["assistant"]})
            sessions.append({"session_id": f"S{i}", "date": day.isoformat(), "rounds": out})
        for t in self.rows:
            self.rows[t].sort(key=lambda x: x["_time"])
        self.sessions = sessions
        assert max(self.by_day) < D(self.question_time[:10]), "question_time must follow the last session"
        return {"user_id": self.user_id, "sessions": sessions}

    # --- selections -------------------------------------------------------------------------------
    def sel(self, table, start=None, end=None, where=None):
        s = D(start) if isinstance(start, str) else start
        e = D(end) if isinstance(end, str) else end
        out = [r for r in self.rows[table]
               if (s is None or r["_date"] >= s) and (e is None or r["_date"] <= e) and (where is None or where(r))]
        return out

    def clear(self, table, *when):
        """No record of `table` on these (ambiguous boundary) days."""
        for w in when:
            w = D(w) if isinstance(w, str) else w
            bad = [r for r in self.rows[table] if r["_date"] == w]
            assert not bad, (self.name, table, "record on a boundary day", w)

    def ev(self, key):
        return self.events[key][0]

    def ev_round(self, key):
        return self.events[key][1]["round_id"]

    def all_text(self):
        return "\n".join(r["user"] + "\n" + r["assistant"] for rs in self.by_day.values() for r in rs).lower()

    # --- questions --------------------------------------------------------------------------------
    def ask(self, family, qtype, question, gold, evidence, answer):
        self.questions.append({"family": family, "type": qtype, "question": question, "gold": gold,
                               "evidence": evidence, "answer": answer})


def rids(rows, *extra):
    ids = [r["_round"]["round_id"] for r in rows] + list(extra)
    seen, out = set(), []
    for i in ids:
        if i not in seen:
            seen.add(i)
            out.append(i)
    return out


def need(rows, what=""):
    assert rows, ("empty selection", what)
    return rows


def total(rows, f):
    return sum(r[f] for r in need(rows, f))


def mean(rows, f):
    need(rows, f)
    return sum(r[f] for r in rows) / len(rows)


def num(v, unit, either_sign=False):
    g = {"value": round(v, 10), "unit": unit}
    if either_sign:
        g["either_sign"] = True
    return g


def fmt(v, unit):
    s = f"{v:.4f}".rstrip("0").rstrip(".") if isinstance(v, float) else str(v)
    return f"{s} {unit}" if unit else s


def top(groups, key, reverse=True):
    """The unique best group of a {name: rows} dict by key(rows)."""
    scored = sorted(((key(rs), g) for g, rs in groups.items()), reverse=reverse)
    assert len(scored) >= 2 and scored[0][0] != scored[1][0], ("top group is tied", scored[:3])
    return scored[0][1], scored[0][0]


def group_by(rows, f):
    g = defaultdict(list)
    for r in rows:
        g[f(r)].append(r)
    return dict(g)


def monday(d):
    return d - dt.timedelta(days=d.weekday())


def month_name(key):
    return dt.date(int(key[:4]), int(key[5:7]), 1).strftime("%B %Y")


UNANSWERABLE = {"unanswerable": True}


def check_no_text(h, *words):
    t = h.all_text()
    for w in words:
        assert w.lower() not in t, (h.name, "unanswerable but the history mentions", w)


def check_no_field(h, *words):
    for table, rows in h.rows.items():
        for r in rows:
            for k in r:
                for w in words:
                    assert w not in k, (h.name, table, "unanswerable but a field holds", w)
            assert all(w.lower() not in r["_round"]["user"].lower() for w in words), (h.name, words)


def followups(h, pool):
    """Chat rounds later on a day that already holds a record (people keep talking after a paste).
    Each pool item is (table, user, assistant): it goes on a day with a record of that table (None: any)."""
    used = set()
    for table, u, a in pool:
        rows = h.rows[table] if table else [r for rs in h.rows.values() for r in rs]
        options = sorted({r["_date"] for r in rows} - used)
        d = h.rng.choice(options)
        used.add(d)
        h.say(d, f"22:{h.rng.randint(10, 59):02d}", u, a)


def pick_lead(h, leads):
    return h.rng.choice(leads)


def chat_days(h, start, end, n, busy, pool):
    """n filler chat sessions on days without anything else, from a pool of (user, assistant)."""
    free = [d for d in days(start, end) if d not in busy]
    chosen = sorted(h.rng.sample(free, min(n, len(free))))
    items = list(pool)
    h.rng.shuffle(items)
    for i, d in enumerate(chosen):
        u, a = items[i % len(items)]
        h.say(d, f"{h.rng.randint(12, 22):02d}:{h.rng.choice(['05', '17', '32', '48'])}", u, a)


# ====================================================================================================
# 1. Bluebell, the car


CAR_CHAT = [
    ("Any podcast recommendations for a two-hour drive? I've run out of true crime.",
     "A few to try: 'Blindboy Podcast' for rambling stories, 'The Rest Is History' for long episodes, "
     "or an audiobook like 'Project Hail Mary' if you want something gripping."),
    ("Is a dashcam worth it for a small car like mine?",
     "For most drivers, yes: a basic front camera costs little and can settle disputes after a bump. "
     "Look for one with a parking mode if the car is often left in car parks."),
    ("What's the best way to get tree sap off a windscreen?",
     "Isopropyl alcohol on a microfibre cloth works well; let it sit a minute, then wipe. "
     "Avoid scraping, which can scratch the glass."),
    ("My brother-in-law keeps telling me premium petrol would make Bluebell faster. Is that nonsense for a Fiesta?",
     "Mostly, yes. A Fiesta's engine is tuned for standard 95 octane; premium rarely makes a measurable "
     "difference unless the manual asks for it."),
    ("Bluebell squeaks when I brake in the wet. Should I worry?",
     "A light squeal in wet weather is often just surface rust on the discs and goes after a few stops. "
     "If it grinds or persists when dry, get the pads checked."),
    ("Can you suggest a road-trip playlist for the Wild Atlantic Way?",
     "Try a mix of The Waterboys, Hozier, Lisa Hannigan, Villagers and some trad from Lankum for the wilder bits."),
    ("How do I clear condensation off the inside of the windscreen faster?",
     "Air con on with the heater warm and the recirculation off; cracking a window helps too. "
     "A clean inside windscreen fogs much less."),
    ("What's the speed limit on regional roads again?",
     "Regional roads default to 80 km/h in Ireland, though signs can set a lower limit; local roads are now 60."),
    ("Remind me what the warning light that looks like a horseshoe with an exclamation mark means?",
     "That's the tyre pressure monitoring light. It means one or more tyres may be low; check them when cold."),
    ("Is it bad to let the tank run really low?",
     "Occasionally it's fine, but running on fumes regularly can draw sediment into the fuel pump. "
     "Topping up at a quarter tank is a good habit."),
    ("What should I keep in the boot for emergencies?",
     "A hi-vis vest, warning triangle, torch, jump leads, a blanket, water and a phone charger cover most situations."),
    ("Any tips for parking in Galway city on a Saturday?",
     "The Eyre Square and Fairgreen car parks fill early; the park-and-ride from Carnmore or just getting in before 10 helps."),
    ("How often should I wash the car?",
     "Every two weeks is plenty for most people; more often in winter when there's road salt."),
    ("What's a good cheap air freshener that doesn't smell like a chemical factory?",
     "A small bag of coffee beans or a cedar block under the seat works surprisingly well."),
    ("I keep forgetting where I parked. Any trick?",
     "Drop a pin in your maps app as soon as you park, or take a quick photo of the nearest sign."),
    ("Should I get breakdown cover or is it a waste of money?",
     "For an older car that does long trips, basic cover is usually worth it; check whether your insurer bundles it."),
    ("Bluebell's 11 years old now. How long do Fiestas usually last?",
     "Well-maintained Fiestas commonly pass 250,000 km. Regular oil changes and rust checks are the big things."),
    ("Is it worth learning to change my own oil?",
     "It can save money if you have space and tools, but disposal of old oil is a hassle; many people leave it to the garage."),
    ("What's the etiquette for letting people merge on the motorway?",
     "Zip merging: let one car in from the merging lane, then go. Keeping a steady gap makes it smoother for everyone."),
    ("Random question: why do car windows fog up more when there are more people in the car?",
     "Each person breathes out warm moist air, which condenses on the cold glass."),
    ("How do I get dog hair out of car seats? My sister's dog was in the back.",
     "A rubber glove or a damp sponge rubbed along the fabric balls the hair up; then vacuum."),
    ("What's a sensible budget for a weekend away in Connemara?",
     "Roughly 250-400 euro for two nights for one person with a B&B, food and petrol, depending on where you stay."),
    ("Any idea why my phone disconnects from the car Bluetooth every few minutes?",
     "Try deleting the pairing on both the car and phone and pairing again, and turn off battery saver for Bluetooth."),
    ("Thinking of getting the car valeted. Inside only or full?",
     "If the outside is just dusty, an interior valet is usually the better value."),
    ("Is it cheaper to drive to Dublin or get the train for a day trip?",
     "For one person the train is often similar once you add tolls and city parking; for two or more, driving usually wins."),
    ("What do the little numbers on the side of a tyre mean?",
     "Something like 195/55 R15 is the width in mm, the sidewall height as a percent of the width, and the rim size in inches."),
    ("How do I get the smell of chips out of the car?",
     "Air it out, vacuum the seats and leave an open bowl of bicarbonate of soda in overnight."),
    ("Any nice places to stop for a walk between Galway and Clifden?",
     "Oughterard's riverside, the Glengowla area, and the lay-bys near Maam Cross for the views."),
    ("Should I warm the engine up before driving on cold mornings?",
     "Modern engines don't need idling; drive gently for the first few minutes instead."),
    ("What's the best app for finding cheap petrol nearby?",
     "Pick a Pump covers a lot of Irish stations with user-reported prices."),
    ("Can you explain how a road tax renewal works online?",
     "On motortax.ie you enter the PIN from your renewal form, pick the period, and pay by card; the disc comes by post."),
    ("Is it rude to eat in someone else's car?",
     "Most people appreciate being asked first, especially with anything crumbly or greasy."),
    ("What does the little snowflake light on the dashboard mean?",
     "It's a low outside temperature warning, usually around 3-4 degrees, meaning roads might be icy."),
    ("Thinking of getting seat covers. Worth it?",
     "If you carry muddy gear or pets, yes; fitted covers look better than universal ones."),
    ("How long can a car sit without being driven before the battery dies?",
     "Typically two to four weeks for a healthy battery; a trickle charger helps for longer."),
    ("Give me a fun fact about Ford Fiestas.",
     "The Fiesta was Britain's best-selling car for over a decade and was built for more than 45 years."),
    ("What's the cheapest way to get a scratch out of the paint?",
     "For light scratches, a polishing compound by hand can work; deeper ones need touch-up paint."),
    ("Are those little phone holders that clip onto the air vent any good?",
     "They're fine for light phones, but a heavy phone can droop or break the vent slats; a dash mount is sturdier."),
    ("What's the rule on using a phone at traffic lights?",
     "In Ireland holding a phone while driving is an offence even when stopped at lights; hands-free only."),
    ("My sat nav keeps sending me down tiny boreens. How do I stop that?",
     "Set it to prefer major roads or avoid unpaved roads, and update the maps."),
]

CAR_FOLLOW = [
    ("fuel", "Is that a decent price for around here?", "It's in line with what you've been paying lately, maybe a touch lower."),
    ("fuel", "Should I be keeping the receipts for anything?", "Garage and fuel receipts are handy if you ever claim mileage or sell the car."),
    ("trip", "Traffic on the way back was brutal, an hour to do twenty minutes.", "Ugh. Was there an accident or just the usual?"),
    ("trip", "The sunset over the bay on the way home was unreal.", "Sounds beautiful. The west coast does good sunsets."),
    ("trip", "Bluebell handled the hills really well today.", "Good to hear she's running smoothly."),
    ("trip", "Passed three tractors in a row on the way, a new record.", "A true rural driving achievement."),
    ("trip", "Stopped for chips on the way home, no regrets.", "A road trip isn't complete without them."),
    (None, "I think the rear window is rattling again.", "Could be a loose trim clip; a garage can usually fix that quickly."),
    (None, "Remind me to check the oil this weekend.", "I can't set reminders, but a phone alarm for Saturday morning would do it."),
    (None, "The car smells like wet jacket. Ideas?", "Dry the mats out fully and leave a box of baking soda in overnight."),
    (None, "Is it me or are the roads worse than last year?", "Plenty of people are saying the same; potholes have been bad this spring."),
    (None, "Do you think I'm driving too much?", "Only you can say, but having the numbers here will help you see the pattern."),
]

CAR_LEADS_FILL = ["Filled Bluebell up on the way to work.", "Petrol run before work:",
                  "Petrol stop today -", "Log this fill-up for me please", "Fuel receipt:", "Filled up this morning.",
                  "Quick one, fill-up:", "Topped up Bluebell."]
CAR_ACK_FILL = ["Logged the fill-up.", "Got it, saved to Bluebell's fuel log.", "Saved, thanks.",
                "Noted. Drive safe!", "Added to the log.", "All logged."]
CAR_LEADS_TRIP = ["Back from a drive.", "Here's today's drive:", "Long drive today, here's the trip:",
                  "Logging today's trip", "Nice spin today.", "Trip for the log:"]
CAR_ACK_TRIP = ["Nice, trip logged.", "Saved the trip.", "Logged. Sounds like a good drive.",
                "Got it.", "Trip added."]


def build_bluebell():
    h = History("bluebell", "ruairi", 6101, "2026-06-01T09:00:00")
    rng = h.rng
    busy = set()

    # intro
    h.say("2026-03-02", "19:10",
          "Hi! I've finally named my car: she's Bluebell, a 2015 Ford Fiesta, blue obviously. I want to keep "
          "track of her fuel, trips and garage bills here so I can see what she's costing me.",
          "Lovely name. Paste fill-ups, trips and garage bills whenever you like and I'll keep them together.")
    busy.add(D("2026-03-02"))

    # events, told in prose on the day
    h.event("move", "2026-03-28", "20:40",
            "Exhausted. We got the keys to the house in Oranmore this morning and spent the whole day ferrying "
            "boxes from the flat in Galway. Bluebell did about six runs with the back seats down.",
            "Congratulations on the new house! Get some rest, the unpacking can wait a day.")
    h.event("puncture", "2026-04-09", "09:15",
            "Absolute nightmare this morning. The front left tyre went completely flat on the N6 near Ardaun "
            "and I had to put the space-saver on in the lashing rain on the hard shoulder.",
            "That sounds miserable, glad you're safe. Space-savers are limited to about 80 km/h, so get the "
            "tyre sorted soon.")
    h.event("strike", "2026-04-20", "08:05",
            "The fuel tanker drivers walked out this morning. There are queues at every station in town and "
            "half of them have run dry already.",
            "That's disruptive. If your tank is reasonably full, it might be worth avoiding unnecessary trips "
            "for a few days.")
    h.event("strike_end", "2026-04-24", "18:30",
            "Good news, the tanker drivers' dispute is over, deal agreed overnight. Stations are getting "
            "deliveries again.",
            "Great, things should be back to normal within a day or two.")
    h.event("bump", "2026-05-05", "17:50",
            "Some lad reversed straight into Bluebell in the Tesco car park at Briarhill. The rear bumper is "
            "cracked and there's a big dent in the boot. We swapped insurance details at least.",
            "Sorry to hear it. Take photos of the damage and his details, and let your insurer know today.")
    h.event("heat", "2026-05-14", "16:20",
            "It's 28 degrees in Galway, I don't even know who I am any more. Bluebell's steering wheel was too hot "
            "to touch after work and the air con is just blowing warm air.",
            "A rare scorcher! A windscreen sunshade helps a lot, and the air con may need a regas if it's blowing warm.")
    # later mentions that date them
    h.say("2026-04-02", "21:05",
          "Five days in the new house and my drive to work is down to 12 minutes. Still can't find the kettle though.",
          "A shorter commute is a great perk. The kettle will turn up in the last box, it always does.")
    h.say("2026-04-16", "20:10",
          "A week on from the blowout and I've finally stopped flinching at every pothole.",
          "Glad the nerves are settling. The new tyre should give you peace of mind.")
    h.say("2026-05-07", "13:30",
          "The insurance assessor came to look at the dent from Tuesday's car park incident. They'll cover it.",
          "Good, that's a relief. Did they say which garage to use?")
    h.say("2026-05-17", "15:45",
          "Day four of this heatwave. I parked under a tree at work and still came back to an oven.",
          "Four days is a long stretch for here. Keep water in the car and a sunshade on the windscreen.")
    for k in ("2026-03-28", "2026-04-09", "2026-04-20", "2026-04-24", "2026-05-05", "2026-05-14", "2026-04-02",
              "2026-04-16", "2026-05-07", "2026-05-17"):
        busy.add(D(k))

    # odometer: daily driving plus logged trips (there and back)
    trip_dates = ["2026-03-04", "2026-03-07", "2026-03-11", "2026-03-14", "2026-03-19", "2026-03-22", "2026-03-25",
                  "2026-04-02", "2026-04-05", "2026-04-11", "2026-04-13", "2026-04-18", "2026-04-21", "2026-04-23",
                  "2026-04-26", "2026-04-29",
                  "2026-05-02", "2026-05-06", "2026-05-09", "2026-05-13", "2026-05-16", "2026-05-19", "2026-05-23",
                  "2026-05-27", "2026-05-30"]
    routes_before = [("Galway to Clifden", 79), ("Galway to Westport", 81), ("Galway to Limerick", 104),
                     ("Galway to Athlone", 93), ("Galway to Ennis", 68)]
    routes_after = [("Oranmore to Athlone", 85), ("Oranmore to Limerick", 95), ("Oranmore to Ennis", 60),
                    ("Oranmore to Clifden", 88), ("Oranmore to Kinvara", 22), ("Oranmore to Tuam", 40)]
    trips = {}
    for i, ds in enumerate(trip_dates):
        d = D(ds)
        pool = routes_before if d < D("2026-03-28") else routes_after
        route, base = pool[i % len(pool)] if d < D("2026-03-28") else rng.choice(pool)
        if ds == "2026-04-26":
            route, base = "Oranmore to Limerick", 95
        dist = round(base + rng.uniform(-3, 3), 1)
        trips[d] = (route, dist)

    fills = {"2026-03-03": "Circle K Headford Road", "2026-03-10": "Applegreen Briarhill",
             "2026-03-17": "Circle K Headford Road", "2026-03-24": "Circle K Headford Road",
             "2026-03-31": "Top Oil Oranmore", "2026-04-07": "Top Oil Oranmore", "2026-04-14": "Applegreen Briarhill",
             "2026-04-22": "Circle K Claregalway", "2026-04-28": "Top Oil Oranmore",
             "2026-05-05": "Applegreen Briarhill", "2026-05-12": "Top Oil Oranmore", "2026-05-18": "Top Oil Oranmore",
             "2026-05-25": "Applegreen Briarhill", "2026-05-29": "Top Oil Oranmore"}
    base_price = {3: 1.742, 4: 1.781, 5: 1.727}
    station_off = {"Circle K Headford Road": 0.012, "Applegreen Briarhill": -0.008, "Top Oil Oranmore": -0.015,
                   "Circle K Claregalway": 0.0}
    odo = 84120.0
    last_odo = 84120 - 520
    fill_forms = [
        lambda st, l, p, t, o: f"Fill-up\nStation: {st}\nFuel: Unleaded\nLitres: {l:.2f} L\nPrice per litre: €{p:.3f}\n"
                               f"Total: €{t:.2f}\nOdometer: {o:,} km",
        lambda st, l, p, t, o: f"Fuel log - Station: {st}, Fuel: unleaded, Litres: {l:.2f} L, Price per litre: {p:.3f} EUR, "
                               f"Total: {t:.2f} EUR, Odometer: {o:,} km",
        lambda st, l, p, t, o: f"Station: {st} | Fuel: Unleaded | Litres: {l:.2f} | Price per litre: €{p:.3f} | "
                               f"Total: €{t:.2f} | Odometer: {o:,} km",
    ]
    trip_forms = [
        lambda r, d, dur, c: f"Trip log\nRoute: {r}\nDistance: {d:.1f} km\nDuration: {dur}\nAvg consumption: {c:.1f} l/100km",
        lambda r, d, dur, c: f"Trip computer - Route: {r}, Distance: {d:.1f} km, Duration: {dur}, Avg consumption: {c:.1f} l/100km",
        lambda r, d, dur, c: f"Route: {r}\nDistance: {d:.1f} km\nDuration: {dur}\nAvg consumption: {c:.1f} l/100km",
    ]
    for d in days("2026-03-02", "2026-05-30"):
        daily = rng.uniform(28, 50) if d < D("2026-03-28") else rng.uniform(20, 38)
        if d in trips:
            daily += 2 * trips[d][1]
        if d == D("2026-04-20") or D("2026-04-20") < d < D("2026-04-24"):
            daily *= 0.6
        ds = d.isoformat()
        if ds in fills:
            # the fill happens before most of the day's driving
            st = fills[ds]
            o = int(round(odo + daily * 0.3))
            litres = round(min(44.8, max(10.0, (o - last_odo) * rng.uniform(5.7, 6.5) / 100)), 2)
            last_odo = o
            price = base_price[d.month] + station_off[st] + rng.uniform(-0.01, 0.01)
            if ds == "2026-04-22":
                price = 1.949
            price = round(price, 3)
            cost = round(litres * price, 2)
            text = pick_lead(h, CAR_LEADS_FILL) + "\n" + rng.choice(fill_forms)(st, litres, price, cost, o)
            hhmm = f"{rng.randint(7, 9):02d}:{rng.randint(0, 59):02d}"
            if ds == "2026-04-22":
                text = ("Day three of the strike. Queued 25 minutes in Claregalway but got a full tank.\n"
                        + fill_forms[0](st, litres, price, cost, o))
            if ds == "2026-05-05":
                hhmm = "08:10"
            h.record("fuel", d, hhmm, {"station": st, "fuel": "unleaded", "litres": litres, "price": price,
                                       "total": cost, "odometer": o}, text, rng.choice(CAR_ACK_FILL))
            busy.add(d)
        odo += daily
        if d in trips:
            route, dist = trips[d]
            speed = rng.uniform(68, 84)
            mins = int(round(dist / speed * 60))
            dur = f"{mins // 60}h {mins % 60:02d}m"
            cons = round(rng.uniform(5.2, 6.6), 1)
            text = pick_lead(h, CAR_LEADS_TRIP) + "\n" + rng.choice(trip_forms)(route, dist, dur, cons)
            h.record("trip", d, f"{rng.randint(18, 21):02d}:{rng.randint(0, 59):02d}",
                     {"route": route, "distance": dist, "consumption": cons}, text, rng.choice(CAR_ACK_TRIP))
            busy.add(d)

    services = [("2026-03-12", "Kelly Motors", "oil and filter change", 145.00),
                ("2026-04-10", "Oranmore Tyre Centre", "new front tyre", 96.50),
                ("2026-04-30", "NCT Centre Galway", "NCT test", 55.00),
                ("2026-05-08", "Kelly Motors", "rear bumper respray and dent repair", 320.00),
                ("2026-05-20", "Oranmore Auto Care", "air con regas", 89.00),
                ("2026-05-27", "Oranmore Auto Care", "new wiper blades", 32.00)]
    svc_forms = [
        lambda g, j, c: f"Garage visit\nGarage: {g}\nJob: {j}\nCost: €{c:.2f}",
        lambda g, j, c: f"Service record - Garage: {g}; Job: {j}; Cost: €{c:.2f}",
        lambda g, j, c: f"Garage: {g}, Job: {j}, Cost: {c:.2f} EUR",
    ]
    svc_leads = {"2026-04-10": "Got the puncture sorted properly, they said the old tyre couldn't be repaired.",
                 "2026-05-08": "Bumper is fixed, looks like new. Insurance is paying me back later.",
                 "2026-05-20": "Air con is cold again, thank god.",
                 "2026-04-30": "Passed the NCT!"}
    for ds, g, j, c in services:
        lead = svc_leads.get(ds, rng.choice(["Garage bill for the log:", "Bluebell's been to the garage."]))
        h.record("service", ds, "17:35", {"garage": g, "job": j, "cost": c},
                 lead + "\n" + rng.choice(svc_forms)(g, j, c),
                 rng.choice(["Logged the garage visit.", "Saved. Good to have it on record.", "Noted, thanks."]))
        busy.add(D(ds))

    # a few chat rounds inside record sessions, and filler chat sessions
    chat_days(h, "2026-03-03", "2026-05-31", 40, busy, CAR_CHAT)
    followups(h, CAR_FOLLOW)
    doc = h.finalize()

    # ------------------------------------------------------------------------------------------
    # questions
    F, T, S = "fuel", "trip", "service"
    apr = h.sel(F, "2026-04-01", "2026-04-30")
    v = total(apr, "total")
    h.ask("plain_aggregate", "sum", "How much did I spend on petrol in April?", num(v, "EUR"), rids(apr), fmt(v, "EUR"))
    may = h.sel(F, "2026-05-01", "2026-05-31")
    h.ask("plain_aggregate", "count", "how many times did I fill up in May?", num(len(need(may)), None), rids(may),
          str(len(may)))
    v = mean(may, "price")
    h.ask("plain_aggregate", "avg", "What was my average price per litre last month?", num(v, "EUR/l"), rids(may),
          fmt(v, "EUR/l"))
    mar_t = h.sel(T, "2026-03-01", "2026-03-31")
    best = max(r["distance"] for r in need(mar_t))
    assert sum(r["distance"] == best for r in mar_t) == 1
    h.ask("plain_aggregate", "max", "What's the longest trip I logged in March, in km?", num(best, "km"),
          rids([r for r in mar_t if r["distance"] == best]), fmt(best, "km"))

    v = total(may, "litres")
    h.ask("named_subject", "sum", "How many litres did Bluebell take altogether in May?", num(v, "l"), rids(may),
          fmt(v, "l"))
    sv = h.sel(S)
    v = total(sv, "cost")
    h.ask("named_subject", "sum", "What has Bluebell cost me in garage bills so far?", num(v, "EUR"), rids(sv),
          fmt(v, "EUR"))
    apr_t = h.sel(T, "2026-04-01", "2026-04-30")
    v = mean(apr_t, "distance")
    h.ask("named_subject", "avg", "What was the average length of Bluebell's trips in April?", num(v, "km"),
          rids(apr_t), fmt(v, "km"))

    mv = h.ev("move")
    h.clear(F, mv)
    rows = h.sel(F, mv)
    v = total(rows, "total")
    h.ask("event_bounded", "sum", "How much have I spent on fuel since we moved house?", num(v, "EUR"),
          rids(rows, h.ev_round("move")), fmt(v, "EUR"))
    s0, s1 = h.ev("strike"), h.ev("strike_end")
    h.clear(T, s0, s1)
    rows = h.sel(T, s0, s1)
    v = total(rows, "distance")
    h.ask("event_bounded", "sum", "How many km of trips did I log while the tanker strike was on?", num(v, "km"),
          rids(rows, h.ev_round("strike"), h.ev_round("strike_end")), fmt(v, "km"))
    pu = h.ev("puncture")
    h.clear(T, pu)
    rows = h.sel(T, None, pu - ONE)
    h.ask("event_bounded", "count", "How many trips had I logged before the puncture?", num(len(need(rows)), None),
          rids(rows, h.ev_round("puncture")), str(len(rows)))
    he = h.ev("heat")
    h.clear(T, he, he + 7 * ONE)
    rows = h.sel(T, he + ONE, he + 7 * ONE)
    v = total(rows, "distance")
    h.ask("event_bounded", "sum", "how far did I drive on logged trips in the week after the heat wave started?",
          num(v, "km"), rids(rows, h.ev_round("heat")), fmt(v, "km"))
    bp = h.ev("bump")
    rows = h.sel(F, bp, bp)
    assert len(rows) == 1
    v = rows[0]["total"]
    h.ask("event_bounded", "sum", "What did I pay for petrol on the day that guy backed into my car?", num(v, "EUR"),
          rids(rows, h.ev_round("bump")), fmt(v, "EUR"))

    rows = h.sel(F, mv)
    first = rows[0]
    h.ask("event_first_last", "first", "Which station did I fill up at first after the move?",
          {"text": first["station"]}, rids([first], h.ev_round("move")), first["station"])
    h.clear(F, pu)
    last = h.sel(F, None, pu - ONE)[-1]
    h.ask("event_first_last", "latest", "What did the odometer say at my last fill-up before the flat tyre?",
          num(last["odometer"], "km"), rids([last], h.ev_round("puncture")), fmt(last["odometer"], "km"))
    first = h.sel(T, s1 + ONE)[0]
    h.ask("event_first_last", "first", "What route was my first trip after the strike ended?",
          {"text": first["route"]}, rids([first], h.ev_round("strike_end")), first["route"])

    mar = h.sel(F, "2026-03-01", "2026-03-31")
    a, b = mean(may, "price"), mean(mar, "price")
    assert a != b
    h.ask("comparison", "greater", "Did I pay more per litre on average in May than in March?", {"yes_no": a > b},
          rids(may + mar), "yes" if a > b else "no")
    a, b = total(may, "total"), total(apr, "total")
    assert a > b
    h.ask("comparison", "difference", "How much more did I spend on petrol in May than in April?",
          num(a - b, "EUR", either_sign=True), rids(may + apr), fmt(a - b, "EUR"))
    a, b = mean(mar, "price"), mean(may, "price")
    pc = (b - a) / a * 100
    h.ask("comparison", "percent_change", "By what percent did my average price per litre change from March to May?",
          num(pc, "%", either_sign=False), rids(mar + may), fmt(pc, "%"))

    allf = h.sel(F)
    g, _ = top(group_by(allf, lambda r: r["station"]), lambda rs: sum(r["total"] for r in rs))
    h.ask("group_rank", "rank", "Which station have I spent the most at overall?", {"group": g},
          rids([r for r in allf if r["station"] == g]), g)
    allt = h.sel(T)
    g, _ = top(group_by(allt, lambda r: r["_date"].strftime("%Y-%m")), lambda rs: sum(r["distance"] for r in rs))
    h.ask("group_rank", "rank", "Which month did I cover the most km on my logged trips?",
          {"period": g, "bucket": "month"}, rids([r for r in allt if r["_date"].strftime("%Y-%m") == g]), month_name(g))
    g, _ = top(group_by(allf, lambda r: monday(r["_date"])), lambda rs: sum(r["total"] for r in rs))
    h.ask("group_rank", "rank", "Which week did I spend the most on fuel?", {"period": g.isoformat(), "bucket": "week"},
          rids([r for r in allf if monday(r["_date"]) == g]), f"the week of {g.isoformat()}")

    g, _ = top(group_by(allf, lambda r: r["station"]), len)
    rows = [r for r in allf if r["station"] == g]
    v = total(rows, "litres")
    h.ask("top_group_measure", "sum", "How many litres have I bought in total at the station I use most often?",
          num(v, "l"), rids(rows), fmt(v, "l"))
    part = [r for r in allf if r["station"] == "Top Oil Oranmore"]
    v = total(part, "total") / total(allf, "total") * 100
    h.ask("share", "share", "What percentage of my fuel money went to Top Oil?", num(v, "%"), rids(allf), fmt(v, "%"))

    # unanswerable
    assert all(r["fuel"] == "unleaded" for r in allf)
    check_no_text(h, "diesel")
    h.ask("unanswerable", "value_absent", "How much diesel did I buy in April?", UNANSWERABLE, [], "No diesel was bought.")
    check_no_text(h, "stolen", "broken into", "break-in", "broke into")
    h.ask("unanswerable", "event_absent", "How much have I spent on fuel since the car was broken into?",
          UNANSWERABLE, [], "No break-in is mentioned.")
    check_no_field(h, "pressure", "psi")
    h.ask("unanswerable", "measure_absent", "What was Bluebell's average tyre pressure in May?", UNANSWERABLE, [],
          "Tyre pressure was never logged.")
    assert not h.sel(F, "2026-02-01", "2026-02-28")
    h.ask("unanswerable", "period_empty", "what was the avg price per litre I paid in February?", UNANSWERABLE, [],
          "No fill-ups were logged in February.")
    check_no_text(h, "maxol")
    h.ask("unanswerable", "group_absent", "What's my average fill-up size at Maxol?", UNANSWERABLE, [],
          "No fill-up at Maxol.")
    check_no_text(h, "conor")
    h.ask("unanswerable", "name_absent", "How many litres did Conor's van take in May?", UNANSWERABLE, [],
          "Nobody called Conor appears.")
    assert not h.sel(T, "2025-06-01", "2025-08-31")
    h.ask("unanswerable", "period_empty", "What was my average trip distance last summer?", UNANSWERABLE, [],
          "No trips were logged last summer.")
    return h, doc


# ====================================================================================================
# 2. Dad's health


DAD_CHAT = [
    ("Any ideas for low-sugar snacks Dad might actually eat? He hates anything that tastes 'healthy'.",
     "Try cheese and oatcakes, a handful of nuts, hummus with carrot sticks, or Greek yoghurt with a few berries."),
    ("How do I get Dad to drink more water? He says tea counts.",
     "Tea does count towards fluids. A jug on the table he can see, or water with a slice of lemon, often helps too."),
    ("Dad wants to know if he can still have his pint on Fridays with the diabetes.",
     "Many people with type 2 diabetes can have a drink in moderation, ideally with food; worth confirming with his GP."),
    ("What's a good gentle exercise for someone in their late seventies?",
     "Walking, chair-based exercises, tai chi and water aerobics are all gentle and good for balance."),
    ("Can you help me make a weekly pill organiser chart for Dad?",
     "Sure: a grid with days across the top and morning/evening rows, one tick per dose, works well on the fridge."),
    ("Dad keeps forgetting his glasses everywhere. Any tricks?",
     "A glasses cord, a fixed spot by the door, or a cheap spare pair in each room saves a lot of hunting."),
    ("What questions should I ask at his next GP appointment?",
     "Whether his targets for blood pressure and glucose have changed, any side effects, and whether any tablets can be reviewed."),
    ("Recommend an audiobook for a man who loves westerns?",
     "'Lonesome Dove' by Larry McMurtry is long and wonderful; 'True Grit' by Charles Portis is shorter and funny."),
    ("Is it normal for older people to sleep less?",
     "Sleep tends to get lighter and more broken with age, though total need doesn't drop much. Naps can make nights shorter."),
    ("Dad asked what a normal resting heart rate is for his age.",
     "Between 60 and 100 bpm is the usual range for adults, including older people."),
    ("What should I pack in a hospital bag just in case, for Dad?",
     "His medication list, glasses, phone charger, dressing gown, slippers, toiletries and a book or radio."),
    ("Any easy dinners with low glycaemic index?",
     "Salmon with lentils and greens, chicken and vegetable stir-fry with brown rice, or a bean chilli."),
    ("He's been grumpy all week. How do I talk to him about getting more help at home?",
     "Start with what he wants to keep doing himself, and frame help as protecting that independence."),
    ("Dad wants to start doing the crossword again. Which paper has a good one?",
     "The Irish Times Simplex and Crosaire are classics; the Simplex is gentler to start with."),
    ("What's the difference between type 1 and type 2 diabetes, in plain words?",
     "Type 1: the body makes no insulin. Type 2: the body makes some but doesn't respond to it well; it's managed with diet, exercise and tablets."),
    ("How warm should his bedroom be at night?",
     "Around 18 degrees is often recommended for older adults, with extra layers if he feels the cold."),
    ("Do you know any good day trips near Dublin for someone who can't walk far?",
     "Powerscourt Gardens, the Botanic Gardens in Glasnevin, and Howth with a drive to the summit car park are all manageable."),
    ("Dad asked me to find the words to 'The Green Glens of Antrim'.",
     "I can't reproduce the full lyrics, but I can summarise the song or point you to where to find them."),
    ("Is it OK for Dad to take paracetamol with his other tablets?",
     "Paracetamol is generally safe with most blood pressure and diabetes medicines, but check with his pharmacist."),
    ("He wants a new armchair that's easy to get out of. What should I look for?",
     "A firm seat, higher seat height, sturdy armrests, or a riser-recliner if getting up is hard."),
    ("How often should his feet be checked with the diabetes?",
     "Daily checks at home for cuts or colour changes, and a professional foot check at least once a year."),
    ("Can you remind me how to set up a shared calendar on my phone for Dad's appointments?",
     "In Google Calendar, create a new calendar, share it with your siblings by email and give them permission to edit."),
    ("Dad got a letter about the flu vaccine for autumn. Worth booking early?",
     "Yes, over-65s are prioritised, and early booking gets a convenient slot at the pharmacy or GP."),
    ("Is there a good pedometer app for older people?",
     "Most phones count steps already; apps with big text like 'Pacer' or the built-in Health app are simple enough."),
]

DAD_FOLLOW = [
    ("bp", "Is that reading OK for his age?", "It's within the range his GP has been happy with, but trends matter more than one reading."),
    ("bp", "Dad says the cuff is too tight.", "Make sure it sits on bare skin about 2 cm above the elbow, with a finger's room underneath."),
    ("walk", "He wants to walk to Mass on Sunday by himself.", "If the route is familiar and he has his phone, that could be a nice goal."),
    ("walk", "He stopped to chat to every dog on the way, so it took ages.", "Sounds like a sociable walk, which is good for him too."),
    ("glucose", "He refused his porridge again and had toast.", "Toast with some protein like egg or peanut butter is a decent compromise."),
    (None, "He's in great form today, told the postman all about his garden.", "Lovely, good days are worth noting too."),
    (None, "He was a bit breathless coming up the stairs.", "Worth watching; if it keeps happening or gets worse, call the GP."),
    (None, "He's been sleeping in the chair after lunch a lot.", "A short nap is fine; long afternoon naps can make nights harder."),
    (None, "My brother rang from Toronto, he wants weekly updates.", "A short weekly summary message might make that easy."),
    (None, "He's watching the snooker and shouting at the telly.", "Sounds like he's feeling himself."),
    (None, "Remind me his GP's name is Dr Walsh for next time.", "Noted: Dr Walsh is Dad's GP."),
    (None, "Made him a lentil soup, he had two bowls.", "Great, lentils are filling and kind to blood sugar."),
    (None, "Do you think I'm overdoing the checking?", "Regular readings help his GP; it's fine as long as it isn't stressing either of you."),
]

DAD_ACK = ["Logged.", "Got it, saved for Dad.", "Thanks, noted.", "Saved.", "All logged, thanks.", "Noted for Dad's log."]


def build_dad():
    h = History("dad", "priya", 6202, "2026-06-30T20:00:00")
    rng = h.rng
    busy = set()
    h.say("2026-04-01", "20:15",
          "Hi. My dad (he's 78, lives with us) has high blood pressure and type 2 diabetes, and I've taken over "
          "logging his readings and walks. I'll paste them here as I go if that's OK.",
          "Of course. Paste his readings and walks whenever you take them and I'll keep them organised.")
    busy.add(D("2026-04-01"))

    h.event("meds", "2026-04-15", "18:40",
            "Back from the GP with Dad. She's put him on amlodipine, 5 mg once a day, because his pressure has "
            "been creeping up. He grumbled the whole way home about 'another tablet'.",
            "That's a common first step. Ankle swelling can happen with amlodipine, so keep an eye out.")
    h.event("admitted", "2026-05-06", "23:20",
            "Rough night. Dad was wheezing and confused by the evening so we called an ambulance, and he's been "
            "admitted to the Mater with a chest infection.",
            "I'm so sorry. He's in the right place. Try to get some sleep if you can.")
    h.event("home", "2026-05-11", "16:05",
            "Dad's home! They discharged him this afternoon with a week of oral antibiotics. He's tired but "
            "already complaining about the hospital tea, so he must be feeling better.",
            "Wonderful news. Complaining about hospital tea is a great sign.")
    h.event("power", "2026-05-27", "21:35",
            "The storm knocked the power out across the whole estate at six. We're sitting with candles and Dad "
            "is telling stories about the blackouts in the seventies.",
            "Sounds almost cosy. Keep the fridge and freezer shut as much as possible until it's back.")
    h.event("physio", "2026-06-01", "14:10",
            "Dad had his first physio session at the primary care centre today. The physio gave him balance "
            "exercises and told him to build up his walking gradually.",
            "A good plan. Balance work should make him steadier on his walks.")
    h.event("heat", "2026-06-10", "15:50",
            "It's 27 degrees and Dad refuses to take off his cardigan. We're keeping him indoors in the afternoons.",
            "Sensible. Make sure he drinks plenty and stays out of the midday sun.")
    h.event("party", "2026-06-20", "23:55",
            "The Dolans next door are having a 60th with a live band in the garden and it's nearly midnight. "
            "Dad's sitting up in bed grumbling.",
            "Hopefully it winds down soon. Earplugs might help him tonight.")
    mentions = [
        ("2026-04-22", "A week on the new tablet now and his ankles are a bit puffy in the evenings.",
         "That can happen with amlodipine; mention it to the GP if it gets worse."),
        ("2026-05-08", "Visited Dad on the ward. He's on IV antibiotics and eating a bit.",
         "Good to hear he's eating. Fingers crossed for a quick recovery."),
        ("2026-05-13", "Two days since Dad got out of hospital and he's already trying to do the hoovering.",
         "Let him potter, but gently. Recovery takes a while at his age."),
        ("2026-06-08", "Second week of physio, and Dad's standing on one leg at the sink to show off.",
         "That's great progress!"),
        ("2026-06-12", "Third day of this heat. He's only walking first thing in the morning.",
         "Good idea to walk early while it's cool."),
        ("2026-06-21", "Dad's wrecked after the Dolans' party last night. He says the band was 'not bad, actually'.",
         "Ha, a convert. Maybe let him nap this afternoon."),
    ]
    for ds, u, a in mentions:
        h.say(ds, "19:45", u, a)
    for k in ["2026-04-15", "2026-05-06", "2026-05-11", "2026-05-27", "2026-06-01", "2026-06-10", "2026-06-20"] + \
            [m[0] for m in mentions]:
        busy.add(D(k))

    hospital = set(days("2026-05-06", "2026-05-11"))
    no_bp = {D("2026-04-15"), D("2026-06-01")} | hospital
    no_glu = {D("2026-05-18")} | hospital
    no_walk = {D("2026-06-10")} | hospital
    bp_forms = [
        lambda s, d, p: f"Dad's BP this morning\nSystolic: {s} mmHg\nDiastolic: {d} mmHg\nPulse: {p} bpm\nArm: left",
        lambda s, d, p: f"BP monitor - Systolic: {s} mmHg, Diastolic: {d} mmHg, Pulse: {p} bpm, Arm: left",
        lambda s, d, p: f"Systolic: {s} mmHg | Diastolic: {d} mmHg | Pulse: {p} bpm | Arm: left",
    ]
    glu_forms = [
        lambda g: f"Fasting glucose: {g:.1f} mmol/L\nMeter: Contour Next",
        lambda g: f"Glucose check - Fasting glucose: {g:.1f} mmol/L, Meter: Contour Next",
    ]
    wt_forms = [
        lambda w, b: f"Weigh-in\nWeight: {w:.1f} kg\nBMI: {b:.1f}",
        lambda w, b: f"Sunday weigh-in - Weight: {w:.1f} kg, BMI: {b:.1f}",
    ]
    walk_forms = [
        lambda r, d, m, s: f"Dad's walk\nRoute: {r}\nDistance: {d:.2f} km\nDuration: {m} min\nSteps: {s:,}",
        lambda r, d, m, s: f"Walk - Route: {r}, Distance: {d:.2f} km, Duration: {m} min, Steps: {s:,}",
        lambda r, d, m, s: f"Route: {r} | Distance: {d:.2f} km | Duration: {m} min | Steps: {s:,}",
    ]
    routes = [("canal loop", 2.4), ("round the green", 1.3), ("to the shops and back", 1.8), ("Bushy Park", 3.0)]
    route_w = [6, 3, 3, 2]
    weight = 81.6
    for d in days("2026-04-02", "2026-06-28"):
        ds = d.isoformat()
        after_meds = d >= D("2026-04-15")
        after_hosp = d > D("2026-05-11")
        # blood pressure
        if d not in no_bp and (rng.random() < 0.45 or ds in ("2026-05-27", "2026-06-02", "2026-06-21")):
            s = rng.gauss(134 if after_meds else 149, 6)
            if after_hosp:
                s -= 3
            if ds == "2026-06-21":
                s = 153
            s = int(round(s))
            dia = int(round(rng.gauss(81 if after_meds else 89, 4)))
            p = int(round(rng.gauss(71, 5)))
            h.record("bp", d, "08:0" + str(rng.randint(0, 9)), {"systolic": s, "diastolic": dia, "pulse": p, "arm": "left"},
                     (rng.choice(["", "Morning reading.\n", "Here's Dad's BP.\n"]) + rng.choice(bp_forms)(s, dia, p)).strip(),
                     rng.choice(DAD_ACK))
            busy.add(d)
        # glucose
        if d not in no_glu and rng.random() < 0.3:
            base = {4: 7.2, 5: 7.6, 6: 6.9}[d.month]
            g = round(rng.gauss(base, 0.4), 1)
            h.record("glucose", d, "08:2" + str(rng.randint(0, 9)), {"glucose": g},
                     rng.choice(["", "Fasting one today.\n", "Glucose before breakfast:\n"]) + rng.choice(glu_forms)(g),
                     rng.choice(DAD_ACK))
            busy.add(d)
        # weight on Sundays
        if d.weekday() == 6 and d not in hospital:
            weight += rng.uniform(-0.35, 0.15)
            if ds == "2026-05-17":
                weight -= 1.6
            w = round(weight, 1)
            b = round(w / 1.73 ** 2, 1)
            h.record("weight", d, "09:30", {"weight": w, "bmi": b}, rng.choice(wt_forms)(w, b), rng.choice(DAD_ACK))
            busy.add(d)
        # walks
        p_walk = 0.4 if d.month < 6 else 0.5
        if d not in no_walk and rng.random() < p_walk:
            r, base = rng.choices(routes, weights=route_w)[0]
            scale = 1.0 if d < D("2026-06-01") else 1.15
            dist = round(base * scale * rng.uniform(0.93, 1.07), 2)
            mins = int(round(dist / rng.uniform(3.0, 3.6) * 60))
            steps = int(round(dist * rng.uniform(1380, 1480)))
            h.record("walk", d, f"{rng.randint(10, 11)}:{rng.randint(10, 59):02d}",
                     {"route": r, "distance": dist, "steps": steps},
                     rng.choice(["", "Walk done.\n", "Dad's out and back.\n", "He did his walk.\n"])
                     + rng.choice(walk_forms)(r, dist, mins, steps), rng.choice(DAD_ACK))
            busy.add(d)
    chat_days(h, "2026-04-02", "2026-06-28", 14, busy, DAD_CHAT)
    followups(h, DAD_FOLLOW)
    doc = h.finalize()

    B, G, W, K = "bp", "glucose", "weight", "walk"
    rows = h.sel(G, "2026-04-01", "2026-04-30")
    v = mean(rows, "glucose")
    h.ask("plain_aggregate", "avg", "What was the average fasting glucose in April?", num(v, "mmol/L"), rids(rows),
          fmt(v, "mmol/L"))
    rows = h.sel(K, "2026-06-01", "2026-06-30")
    h.ask("plain_aggregate", "count", "How many walks were logged in June?", num(len(need(rows)), None), rids(rows),
          str(len(rows)))
    rows = h.sel(K, "2026-05-01", "2026-05-31")
    v = total(rows, "distance")
    h.ask("plain_aggregate", "sum", "total walking distance last month, in km?", num(v, "km"), rids(rows), fmt(v, "km"))
    rows = h.sel(B, "2026-04-01", "2026-04-30")
    best = max(r["pulse"] for r in need(rows))
    h.ask("plain_aggregate", "max", "What was the highest pulse reading in April?", num(best, "bpm"),
          rids([r for r in rows if r["pulse"] == best]), fmt(best, "bpm"))

    jun_bp = h.sel(B, "2026-06-01", "2026-06-30")
    v = mean(jun_bp, "systolic")
    h.ask("named_subject", "avg", "What was Dad's average systolic in June?", num(v, "mmHg"), rids(jun_bp),
          fmt(v, "mmHg"))
    rows = h.sel(W, "2026-05-01", "2026-05-31")
    v = min(r["weight"] for r in need(rows))
    h.ask("named_subject", "min", "What was Dad's lowest weight in May?", num(v, "kg"),
          rids([r for r in rows if r["weight"] == v]), fmt(v, "kg"))
    rows = h.sel(K, "2026-04-01", "2026-04-30")
    v = total(rows, "steps")
    h.ask("named_subject", "sum", "How many steps did Dad clock up on his walks in April, all together?",
          num(v, "steps"), rids(rows), fmt(v, "steps"))

    md = h.ev("meds")
    h.clear(B, md)
    rows = h.sel(B, md)
    v = mean(rows, "systolic")
    h.ask("event_bounded", "avg", "whats Dad's average systolic been since he started the new blood pressure tablets?",
          num(v, "mmHg"), rids(rows, h.ev_round("meds")), fmt(v, "mmHg"))
    rows = h.sel(B, None, md - ONE)
    v = mean(rows, "systolic")
    h.ask("event_bounded", "avg", "What was his average systolic before the GP put him on the new meds?",
          num(v, "mmHg"), rids(rows, h.ev_round("meds")), fmt(v, "mmHg"))
    hm, ht = h.ev("home"), h.ev("heat")
    h.clear(K, hm, ht)
    rows = h.sel(K, hm, ht)
    v = total(rows, "distance")
    h.ask("event_bounded", "sum",
          "How far did Dad walk in total between coming home from hospital and the start of the heatwave?",
          num(v, "km"), rids(rows, h.ev_round("home"), h.ev_round("heat")), fmt(v, "km"))
    h.clear(G, hm, hm + 7 * ONE)
    rows = h.sel(G, hm + ONE, hm + 7 * ONE)
    v = mean(rows, "glucose")
    h.ask("event_bounded", "avg", "What was Dad's average fasting glucose in the week after he got out of hospital?",
          num(v, "mmol/L"), rids(rows, h.ev_round("home")), fmt(v, "mmol/L"))
    pw = h.ev("power")
    rows = h.sel(B, pw, pw)
    assert len(rows) == 1
    v = rows[0]["systolic"]
    h.ask("event_bounded", "value", "What was Dad's systolic reading on the day of the power cut?", num(v, "mmHg"),
          rids(rows, h.ev_round("power")), fmt(v, "mmHg"))

    h.clear(W, hm)
    first = h.sel(W, hm)[0]
    h.ask("event_first_last", "first", "What was Dad's first weight after he came home from hospital?",
          num(first["weight"], "kg"), rids([first], h.ev_round("home")), fmt(first["weight"], "kg"))
    ad = h.ev("admitted")
    h.clear(K, ad)
    last = h.sel(K, None, ad - ONE)[-1]
    h.ask("event_first_last", "latest", "Which route did Dad walk last before he was admitted?",
          {"text": last["route"]}, rids([last], h.ev_round("admitted")), last["route"])
    ph = h.ev("physio")
    h.clear(B, ph)
    first = h.sel(B, ph)[0]
    h.ask("event_first_last", "first", "What was his first systolic reading after the physio started?",
          num(first["systolic"], "mmHg"), rids([first], h.ev_round("physio")), fmt(first["systolic"], "mmHg"))

    apr_bp = h.sel(B, "2026-04-01", "2026-04-30")
    a, b = mean(jun_bp, "diastolic"), mean(apr_bp, "diastolic")
    assert a != b
    h.ask("comparison", "less", "Was Dad's average diastolic lower in June than in April?", {"yes_no": a < b},
          rids(jun_bp + apr_bp), "yes" if a < b else "no")
    ws = h.sel(W)
    v = ws[-1]["weight"] - ws[0]["weight"]
    h.ask("comparison", "change", "By how much did Dad's weight change between his first and last weigh-in?",
          num(v, "kg", either_sign=True), rids([ws[0], ws[-1]]), fmt(v, "kg"))
    jw, aw = h.sel(K, "2026-06-01", "2026-06-30"), h.sel(K, "2026-04-01", "2026-04-30")
    a, b = mean(jw, "distance"), mean(aw, "distance")
    assert a > b
    h.ask("comparison", "difference", "How much further did Dad walk per walk on average in June than in April?",
          num(a - b, "km", either_sign=True), rids(jw + aw), fmt(a - b, "km"))

    allk = h.sel(K)
    g, _ = top(group_by(allk, lambda r: monday(r["_date"])), lambda rs: sum(r["distance"] for r in rs))
    h.ask("group_rank", "rank", "Which week did Dad walk the furthest in total?",
          {"period": g.isoformat(), "bucket": "week"}, rids([r for r in allk if monday(r["_date"]) == g]),
          f"the week of {g.isoformat()}")
    allg = h.sel(G)
    g, _ = top(group_by(allg, lambda r: r["_date"].strftime("%Y-%m")), lambda rs: mean(rs, "glucose"))
    h.ask("group_rank", "rank", "Which month had Dad's highest average fasting glucose?",
          {"period": g, "bucket": "month"}, rids([r for r in allg if r["_date"].strftime("%Y-%m") == g]), month_name(g))
    g, _ = top(group_by(allk, lambda r: r["route"]), len)
    h.ask("group_rank", "rank", "Which route has Dad walked most often?", {"group": g},
          rids([r for r in allk if r["route"] == g]), g)
    rows = [r for r in allk if r["route"] == g]
    v = mean(rows, "distance")
    h.ask("top_group_measure", "avg", "Roughly how long is Dad's most frequent walking route on average, in km?",
          num(v, "km"), rids(rows), fmt(v, "km"))
    part = [r for r in allk if r["route"] == "canal loop"]
    v = total(part, "distance") / total(allk, "distance") * 100
    h.ask("share", "share", "What share of Dad's walking distance was on the canal loop?", num(v, "%"), rids(allk),
          fmt(v, "%"))

    check_no_field(h, "cholesterol")
    check_no_text(h, "cholesterol")
    h.ask("unanswerable", "measure_absent", "What was Dad's average cholesterol in May?", UNANSWERABLE, [],
          "Cholesterol was never logged.")
    check_no_text(h, " fall", " fell", "tripped")
    h.ask("unanswerable", "event_absent", "What's Dad's average systolic been since his fall?", UNANSWERABLE, [],
          "No fall is mentioned.")
    check_no_text(h, "meera")
    h.ask("unanswerable", "name_absent", "What was Auntie Meera's average glucose in June?", UNANSWERABLE, [],
          "Nobody called Meera appears.")
    assert not h.sel(K, ad, hm)
    h.ask("unanswerable", "period_empty", "What was the average length of Dad's walks while he was in hospital?",
          UNANSWERABLE, [], "No walks were logged during his hospital stay.")
    assert all(r["arm"] == "left" for r in h.sel(B))
    check_no_text(h, "right arm")
    h.ask("unanswerable", "value_absent", "What's Dad's average systolic on the right arm?", UNANSWERABLE, [],
          "Every reading was taken on the left arm.")
    assert not h.sel(W, "2026-03-01", "2026-03-31")
    h.ask("unanswerable", "period_empty", "What did Dad weigh on average in March?", UNANSWERABLE, [],
          "No weigh-ins in March.")
    check_no_text(h, "beach", "seafront", "strand")
    h.ask("unanswerable", "group_absent", "How long are Dad's walks on the beach, on average?", UNANSWERABLE, [],
          "No beach walks were logged.")
    return h, doc


# ====================================================================================================
# 3. Fern & Flame, a weekend market stall


STALL_CHAT = [
    ("How should I price a 200 g soy candle? Materials come to about 4 euro.",
     "A common rule of thumb is 2.5-3x materials for retail, so 12-14 euro, checked against what similar stalls charge."),
    ("Can you write me an Instagram caption for the new orange & clove candles?",
     "'Warm spice, bright citrus, cosy evenings. Our orange & clove candles are back this weekend.'"),
    ("Is it worth getting a card reader with a printer?",
     "Most customers are happy with emailed or no receipts, so a basic reader is usually enough for a market stall."),
    ("How do I stop soap from sweating in humid weather?",
     "Store it somewhere cool and dry with airflow, and wrap it once fully cured; a dehumidifier in the workroom helps."),
    ("What's a good name for a winter candle range?",
     "Some ideas: 'Hearth', 'Frost & Fir', 'Long Nights', or 'Fireside Collection'."),
    ("Do I need product liability insurance for a market stall?",
     "Most markets require public liability insurance, and product liability is strongly recommended for candles and soap."),
    ("How long should cold-process soap cure?",
     "Four to six weeks is standard, so it hardens and becomes milder."),
    ("Any tips for making the stall look better from a distance?",
     "Height is key: crates or tiered shelves, a clear banner at eye level, and grouping products by colour."),
    ("What labelling do candles legally need in Ireland?",
     "CLP safety labelling if the fragrance requires it, plus your business name and address and usage warnings."),
    ("Should I do a loyalty card?",
     "A simple stamp card, say buy five get one free, works well for regulars and costs very little."),
    ("How do I deal with people who haggle at the stall?",
     "Be friendly but firm; offer a bundle deal instead of a discount on a single item."),
    ("Best way to pack candles so they don't crack in a cold van?",
     "Wrap them individually in paper, pack them tightly in boxes, and avoid sudden temperature changes."),
    ("What's the difference between soy and paraffin wax for customers?",
     "Soy is plant-based and burns a bit cooler and cleaner; paraffin usually gives a stronger scent throw."),
    ("Should I register as a sole trader or a company?",
     "Most small stalls start as sole traders because it's simpler; an accountant can advise once turnover grows."),
    ("Can you help me write a short bio for the market's website?",
     "'Fern & Flame makes small-batch soy candles and cold-process soaps in Dublin, scented with essential oils and poured by hand.'"),
    ("What music is OK to play at a stall without a licence?",
     "Playing music in public usually needs a licence; many stallholders skip it or use royalty-free playlists."),
    ("Any ideas for a cheap stall banner?",
     "A printed vinyl banner from an online printer costs 30-60 euro; a painted wooden sign looks more handmade."),
    ("How much stock should I bring to a market?",
     "A rough guide is 2-3 times what you expect to sell, so the table looks full until the end."),
    ("Do customers care about plastic-free packaging?",
     "Many do, especially at craft markets; kraft paper and card boxes are a selling point."),
    ("What's a sensible float to bring in cash?",
     "Around 100-150 euro in small notes and coins covers most market days."),
    ("How can I keep my hands from drying out with all the soap making?",
     "Gloves while handling lye and a thick balm at night make a big difference."),
]

STALL_FOLLOW = [
    ("sales", "A woman bought six of the lavender ones for her book club.", "That's a great sale. Book clubs love a candle."),
    ("sales", "My feet are killing me after standing all day.", "Cushioned mats behind the stall make a real difference."),
    ("sales", "Should I have brought more soap?", "If you sold out early, yes; note which ones went first."),
    ("sales", "The stall next to me sells hot sauce and it smelt amazing all day.", "Good neighbours make the day go faster."),
    ("sales", "Someone asked if I do wedding favours.", "Could be a nice side line; mini tins with custom labels are popular."),
    ("sales", "A little kid asked if the soap was cake.", "The oat & honey one does look edible. Maybe a 'not food' sign!"),
    ("sales", "Rain held off until packing up, typical.", "At least it didn't ruin the selling hours."),
    ("batch", "I think the orange & clove needs a stronger scent.", "Try bumping the fragrance load a little in a small test batch."),
    ("batch", "The workroom smells like a lavender field now.", "There are worse side effects of the job."),
    (None, "Do people prefer gift boxes or loose candles?", "Offer both: loose for regulars, boxed for gifts at a small premium."),
    (None, "How do I keep track of which scents sell best?", "A tally per scent on the day, pasted here, would let us compare over time."),
    (None, "Thinking of trying a Friday evening market at some point.", "Could be worth a trial once the weekends are running smoothly."),
    (None, "Got a lovely review on Instagram today.", "Brilliant, share it on your story!"),
]

STALL_ACK = ["Logged.", "Saved, thanks!", "Got it.", "Noted for Fern & Flame.", "Added.", "Logged, nice one."]


def build_stall():
    h = History("stall", "jonas", 6303, "2026-07-28T10:00:00")
    rng = h.rng
    busy = set()
    h.say("2026-05-01", "21:00",
          "Hey! I run a little candle and soap stall called Fern & Flame at weekend markets around Dublin. "
          "I want to keep my market takings, supply orders and batches in one place. OK if I paste them here?",
          "Absolutely. Paste market days, orders and batches as they happen and I'll keep track.")
    busy.add(D("2026-05-01"))

    h.event("van", "2026-05-20", "19:25",
            "Picked up a second-hand Citroen Berlingo today from a guy in Naas. No more cramming the gazebo into "
            "the Micra!",
            "Brilliant, that will make setup so much easier.")
    h.event("storm", "2026-06-07", "07:40",
            "Met Eireann put out an orange wind warning overnight and Docklands called off today's market at 7am. "
            "Gutted, I'd made forty new tealights for it.",
            "That's frustrating, but safer than a gazebo in a gale. The tealights will keep.")
    h.event("outage", "2026-06-20", "13:30",
            "SumUp has been down nationally since about 9 so it's cash only at the stall. People keep walking "
            "off to find an ATM and not coming back.",
            "That's painful. A sign saying 'cash only, ATM at the entrance' might save a few sales.")
    h.event("job", "2026-06-29", "17:10",
            "First day at the bakery in Rathfarnham today, 7 to 3 on weekdays. So the markets are strictly "
            "weekends from now on, and batches will have to be evenings.",
            "Congratulations on the new job! Evening batches are doable with a bit of planning.")
    h.event("heat", "2026-07-09", "16:45",
            "Properly hot today, 29 degrees. I had to move all the pillar candles into the coolest room in the "
            "house because they were going soft on the shelf.",
            "Good call. Candles soften well below their melt point, so keep them shaded in the van too.")
    mentions = [
        ("2026-05-23", "First market with the van this morning, setup took half the time.",
         "Great to hear the van is already paying off."),
        ("2026-06-10", "Still annoyed about Sunday's washout. Docklands says pitch fees won't be refunded.",
         "That's a shame. Maybe ask if they'll credit it against a future date."),
        ("2026-06-27", "Fingers crossed no repeat of last Saturday's card machine meltdown today.",
         "Bringing extra cash change is a good backup either way."),
        ("2026-07-11", "Third day of the heat. Candles in the van were sweating by noon.",
         "A cool box or insulated crates in the van might help on hot days."),
    ]
    for ds, u, a in mentions:
        h.say(ds, "07:15", u, a)
    for k in ["2026-05-20", "2026-06-07", "2026-06-20", "2026-06-29", "2026-07-09"] + [m[0] for m in mentions]:
        busy.add(D(k))

    MARLAY, DOCK, HOWTH = "Marlay Park Saturday Market", "Docklands Sunday Market", "Howth Harbour Market"
    fee = {MARLAY: 35, DOCK: 30, HOWTH: 25}
    mean_take = {MARLAY: 395, DOCK: 330, HOWTH: 300}
    howth_days = {"2026-05-10", "2026-05-31", "2026-06-01", "2026-06-28", "2026-07-19"}
    sale_forms = [
        lambda m, t, n, f: f"Market day wrap-up\nMarket: {m}\nTakings: €{t:.2f}\nItems sold: {n}\nPitch fee: €{f}",
        lambda m, t, n, f: f"Fern & Flame - Market: {m}, Takings: {t:.2f} EUR, Items sold: {n}, Pitch fee: {f} EUR",
        lambda m, t, n, f: f"Market: {m} | Takings: €{t:.2f} | Items sold: {n} | Pitch fee: €{f}",
    ]
    sale_leads = ["Good day!", "Bit slow today.", "Home and knackered.", "", "Today's numbers:",
                  "Lavender ones flew off the table.", "Decent crowd today."]
    for d in days("2026-05-02", "2026-07-26"):
        ds = d.isoformat()
        if d.weekday() == 5:
            mk = MARLAY
        elif ds in howth_days:
            mk = HOWTH
        elif d.weekday() == 6 and ds != "2026-06-07":
            mk = DOCK
        else:
            continue
        t = rng.gauss(mean_take[mk], 55)
        if ds == "2026-06-20":
            t = 236.5
        if D("2026-07-09") <= d <= D("2026-07-12"):
            t *= 0.8
        t = round(t * 2) / 2
        n = int(round(t / rng.uniform(10.5, 12.5)))
        lead = rng.choice(sale_leads)
        if ds == "2026-06-20":
            lead = "Card reader came back around 1. Painful morning."
        h.record("sales", d, f"{rng.randint(17, 19)}:{rng.randint(10, 59):02d}",
                 {"market": mk, "takings": t, "items": n, "fee": fee[mk]},
                 (lead + "\n" if lead else "") + rng.choice(sale_forms)(mk, t, n, fee[mk]), rng.choice(STALL_ACK))
        busy.add(d)

    event_days = {h.ev(k) for k in h.events}
    weekdays = [d for d in days("2026-05-04", "2026-07-24") if d.weekday() < 5 and d not in event_days]
    supply_days = sorted(rng.sample(weekdays, 16))
    suppliers = [("Candle Shack", "soy wax", (60, 110)), ("Candle Shack", "cotton wicks", (12, 25)),
                 ("The Jar Store", "amber jars", (45, 90)), ("The Jar Store", "tins with lids", (30, 55)),
                 ("Aroma Oils Ireland", "lavender essential oil", (25, 48)),
                 ("Aroma Oils Ireland", "sweet orange essential oil", (20, 40)),
                 ("Print Pal", "labels", (18, 35)), ("Soapmakers Supply", "shea butter", (22, 40)),
                 ("Soapmakers Supply", "olive oil", (28, 52))]
    sup_forms = [
        lambda s, i, a: f"Supplies order\nSupplier: {s}\nItem: {i}\nAmount: €{a:.2f}",
        lambda s, i, a: f"Order confirmation - Supplier: {s}, Item: {i}, Amount: {a:.2f} EUR",
        lambda s, i, a: f"Supplier: {s} | Item: {i} | Amount: €{a:.2f}",
    ]
    for i, d in enumerate(supply_days):
        s, it, (lo, hi) = suppliers[i % len(suppliers)] if i < len(suppliers) else rng.choice(suppliers)
        a = round(rng.uniform(lo, hi), 2)
        h.record("supplies", d, f"{rng.randint(20, 22)}:{rng.randint(10, 59):02d}",
                 {"supplier": s, "item": it, "amount": a},
                 (rng.choice(["Ordered more stuff.", "Restock:", "", "Another order in."]) + "\n"
                  + rng.choice(sup_forms)(s, it, a)).strip(), rng.choice(STALL_ACK))
        busy.add(d)
    left = [d for d in weekdays if d not in supply_days]
    batch_days = sorted(rng.sample(left, 20))
    products = [("lavender candle", (18, 30)), ("orange & clove candle", (14, 26)), ("sea salt soap", (16, 24)),
                ("oat & honey soap", (14, 22))]
    bat_forms = [
        lambda p, u, hr: f"Batch log\nProduct: {p}\nUnits: {u}\nHours: {hr} h",
        lambda p, u, hr: f"Made a batch - Product: {p}, Units: {u}, Hours: {hr} h",
    ]
    for i, d in enumerate(batch_days):
        p, (lo, hi) = products[i % 4] if i < 8 else rng.choices(products, weights=[4, 2, 2, 2])[0]
        u = rng.randint(lo, hi)
        hr = round(rng.choice([2, 2.5, 3, 3.5, 4, 4.5]), 1)
        h.record("batch", d, f"{rng.randint(20, 22)}:{rng.randint(10, 59):02d}",
                 {"product": p, "units": u, "hours": hr},
                 (rng.choice(["Evening in the workroom.", "Poured a batch tonight.", "", "Batch done!"]) + "\n"
                  + rng.choice(bat_forms)(p, u, hr)).strip(), rng.choice(STALL_ACK))
        busy.add(d)
    chat_days(h, "2026-05-02", "2026-07-26", 17, busy, STALL_CHAT)
    followups(h, STALL_FOLLOW)
    doc = h.finalize()

    SA, SU, BA = "sales", "supplies", "batch"
    jun = h.sel(SA, "2026-06-01", "2026-06-30")
    v = total(jun, "takings")
    h.ask("plain_aggregate", "sum", "How much did I take in total in June?", num(v, "EUR"), rids(jun), fmt(v, "EUR"))
    may = h.sel(SA, "2026-05-01", "2026-05-31")
    v = total(may, "items")
    h.ask("plain_aggregate", "sum", "How many items did I sell in May?", num(v, None), rids(may), str(v))
    jul = h.sel(SA, "2026-07-01", "2026-07-31")
    v = mean(jul, "takings")
    h.ask("plain_aggregate", "avg", "What were my average takings per market in July?", num(v, "EUR"), rids(jul),
          fmt(v, "EUR"))
    rows = h.sel(SU, "2026-06-01", "2026-06-30")
    v = total(rows, "amount")
    h.ask("plain_aggregate", "sum", "how much did I spend on supplies last month?", num(v, "EUR"), rids(rows),
          fmt(v, "EUR"))

    rows = h.sel(BA, "2026-06-01", "2026-06-30")
    v = total(rows, "units")
    h.ask("named_subject", "sum", "How many units did Fern & Flame produce in June?", num(v, None), rids(rows), str(v))
    v = total(may, "fee")
    h.ask("named_subject", "sum", "What did Fern & Flame pay in pitch fees in May?", num(v, "EUR"), rids(may),
          fmt(v, "EUR"))
    alls = h.sel(SA)
    best = max(r["takings"] for r in alls)
    assert sum(r["takings"] == best for r in alls) == 1
    h.ask("named_subject", "max", "What's Fern & Flame's best single market day so far, takings-wise?",
          num(best, "EUR"), rids([r for r in alls if r["takings"] == best]), fmt(best, "EUR"))

    vn = h.ev("van")
    h.clear(SA, vn)
    rows = h.sel(SA, vn)
    v = total(rows, "takings")
    h.ask("event_bounded", "sum", "How much have I taken since I bought the van?", num(v, "EUR"),
          rids(rows, h.ev_round("van")), fmt(v, "EUR"))
    jb = h.ev("job")
    h.clear(SA, jb)
    rows = h.sel(SA, None, jb - ONE)
    v = mean(rows, "takings")
    h.ask("event_bounded", "avg", "What were my average takings per market before I started at the bakery?",
          num(v, "EUR"), rids(rows, h.ev_round("job")), fmt(v, "EUR"))
    st, ht = h.ev("storm"), h.ev("heat")
    h.clear(SU, st, ht)
    rows = h.sel(SU, st, ht)
    v = total(rows, "amount")
    h.ask("event_bounded", "sum", "How much did I spend on supplies between the storm and the heatwave?",
          num(v, "EUR"), rids(rows, h.ev_round("storm"), h.ev_round("heat")), fmt(v, "EUR"))
    h.clear(SA, vn, vn + 7 * ONE)
    rows = h.sel(SA, vn + ONE, vn + 7 * ONE)
    v = total(rows, "items")
    h.ask("event_bounded", "sum", "How many items did I sell in the week after I got the van?", num(v, None),
          rids(rows, h.ev_round("van")), str(v))
    od = h.ev("outage")
    rows = h.sel(SA, od, od)
    assert len(rows) == 1
    v = rows[0]["takings"]
    h.ask("event_bounded", "value", "How much did I take on the day the card machines went down?", num(v, "EUR"),
          rids(rows, h.ev_round("outage")), fmt(v, "EUR"))

    h.clear(SA, st)
    first = h.sel(SA, st)[0]
    h.ask("event_first_last", "first", "Which market did I do first after the storm?", {"text": first["market"]},
          rids([first], h.ev_round("storm")), first["market"])
    last = h.sel(SU, None, ht - ONE)[-1]
    h.ask("event_first_last", "latest", "What was the last thing I ordered from a supplier before the heat wave?",
          {"text": last["item"]}, rids([last], h.ev_round("heat")), last["item"])
    first = h.sel(SA, jb)[0]
    h.ask("event_first_last", "first", "What were my takings at the first market after I started the bakery job?",
          num(first["takings"], "EUR"), rids([first], h.ev_round("job")), fmt(first["takings"], "EUR"))

    a, b = mean(jul, "takings"), mean(may, "takings")
    assert a != b
    h.ask("comparison", "greater", "Were my average takings higher in July than in May?", {"yes_no": a > b},
          rids(jul + may), "yes" if a > b else "no")
    jm = [r for r in jun if r["market"] == MARLAY]
    jd = [r for r in jun if r["market"] == DOCK]
    a, b = total(jm, "takings"), total(jd, "takings")
    assert a > b
    h.ask("comparison", "difference", "How much more did I make at Marlay than at Docklands in June?",
          num(a - b, "EUR", either_sign=True), rids(jm + jd), fmt(a - b, "EUR"))
    a, b = total(may, "items"), total(jun, "items")
    pc = (b - a) / a * 100
    h.ask("comparison", "percent_change", "By what % did the number of items I sold change from May to June?",
          num(pc, "%"), rids(may + jun), fmt(pc, "%"))

    g, _ = top(group_by(alls, lambda r: r["market"]), lambda rs: sum(r["takings"] for r in rs))
    h.ask("group_rank", "rank", "Which market made me the most money in total?", {"group": g},
          rids([r for r in alls if r["market"] == g]), g)
    g, _ = top(group_by(alls, lambda r: monday(r["_date"])), lambda rs: sum(r["takings"] for r in rs))
    h.ask("group_rank", "rank", "Which week was my best for takings?", {"period": g.isoformat(), "bucket": "week"},
          rids([r for r in alls if monday(r["_date"]) == g]), f"the week of {g.isoformat()}")
    allb = h.sel(BA)
    g, _ = top(group_by(allb, lambda r: r["product"]), lambda rs: sum(r["units"] for r in rs))
    h.ask("group_rank", "rank", "Which product have I made the most of?", {"group": g},
          rids([r for r in allb if r["product"] == g]), g)

    g, _ = top(group_by(alls, lambda r: r["market"]), len)
    rows = [r for r in alls if r["market"] == g]
    v = total(rows, "fee")
    h.ask("top_group_measure", "sum", "How much have I paid in pitch fees at the market I do most often?",
          num(v, "EUR"), rids(rows), fmt(v, "EUR"))
    part = [r for r in alls if r["market"] == MARLAY]
    v = total(part, "takings") / total(alls, "takings") * 100
    h.ask("share", "share", "What share of my takings came from the Saturday market?", num(v, "%"), rids(alls),
          fmt(v, "%"))

    check_no_text(h, "christmas")
    h.ask("unanswerable", "group_absent", "What were my average takings at the Christmas market?", UNANSWERABLE, [],
          "No Christmas market was logged.")
    check_no_field(h, "customer", "footfall")
    h.ask("unanswerable", "measure_absent", "How many customers did I get per market on average in June?",
          UNANSWERABLE, [], "Customer numbers were never logged.")
    check_no_text(h, "beeswax")
    h.ask("unanswerable", "value_absent", "What's the average I've paid for beeswax?", UNANSWERABLE, [],
          "No beeswax was ordered.")
    check_no_text(h, "broke down", "breakdown", "broken down")
    h.ask("unanswerable", "event_absent", "How much have I taken since the van broke down?", UNANSWERABLE, [],
          "The van never broke down in the history.")
    check_no_text(h, "aoife")
    h.ask("unanswerable", "name_absent", "How much did Aoife's stall take in July?", UNANSWERABLE, [],
          "Nobody called Aoife appears.")
    assert not h.sel(SA, "2026-04-01", "2026-04-30")
    h.ask("unanswerable", "period_empty", "What were my average takings in April?", UNANSWERABLE, [],
          "No markets were logged in April.")
    check_no_field(h, "mile", "km", "distance")
    h.ask("unanswerable", "measure_absent", "How many km did I put on the van driving to markets in June?",
          UNANSWERABLE, [], "Van mileage was never logged.")
    return h, doc


# ====================================================================================================


def main():
    builders = [build_bluebell, build_dad, build_stall]
    everything = []
    for b in builders:
        h, doc = b()
        n_rounds = sum(len(s["rounds"]) for s in doc["sessions"])
        (HERE / f"history_{h.name}.json").write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n",
                                                     encoding="utf-8")
        qs = []
        for i, q in enumerate(h.questions, 1):
            qs.append({"question_id": f"cf-{h.name}-{i:02d}", "history": h.name, "question": q["question"],
                       "answer": q["answer"], "type": q["type"], "family": q["family"],
                       "question_time": h.question_time, "evidence": q["evidence"], "gold": q["gold"]})
        assert len(qs) == 30, (h.name, len(qs))
        assert len({q["question"] for q in qs}) == len(qs)
        (HERE / f"questions_{h.name}.jsonl").write_text(
            "".join(json.dumps(q, ensure_ascii=False) + "\n" for q in qs), encoding="utf-8")
        everything += qs
        tables = {t: len(r) for t, r in h.rows.items()}
        print(f"{h.name}: {len(doc['sessions'])} sessions, {n_rounds} rounds, records {tables}, "
              f"{len(qs)} questions ({sum(1 for q in qs if q['gold'].get('unanswerable'))} unanswerable)")
    (HERE / "questions.jsonl").write_text("".join(json.dumps(q, ensure_ascii=False) + "\n" for q in everything),
                                          encoding="utf-8")
    fam = defaultdict(int)
    for q in everything:
        fam[q["family"]] += 1
    print(f"total: {len(everything)} questions; per family: {dict(sorted(fam.items()))}")


if __name__ == "__main__":
    main()
