#!/usr/bin/env python3
"""Generate compositional set I: three histories (a small landlord, a covers-band guitarist, a potter)
and their questions, with every gold answer computed from the records generated here.

Usage:  python3 tools/datasets/compositional_i/make_set.py
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
SEED = 20260601
START, END = dt.date(2026, 3, 1), dt.date(2026, 5, 31)
QTIME = "2026-06-01T20:00:00"


def D(s: str) -> dt.date:
    return dt.date.fromisoformat(s)


def days_between(a: dt.date, b: dt.date):
    x = a
    while x <= b:
        yield x
        x += dt.timedelta(days=1)


# ----------------------------------------------------------------------------------------------
# formatting of values, in the ways people write them
# ----------------------------------------------------------------------------------------------

def num(x: float, decimals: bool = False) -> str:
    if decimals or abs(x - round(x)) > 1e-9:
        return f"{x:.2f}"
    return str(int(round(x)))


def money(rng, x: float, style: int | None = None) -> str:
    style = rng.randrange(6) if style is None else style
    if style == 0:
        return f"€{num(x)}"
    if style == 1:
        return f"{num(x, True)} EUR"
    if style == 2:
        return f"{num(x)} euro" if abs(x - 1) < 1e-9 else f"{num(x)} euros"
    if style == 3:
        return f"€{num(x, True)}"
    if style == 4:
        return f"EUR {num(x)}"
    return f"{num(x)}€"


def dur(rng, minutes: int, style: int | None = None) -> str:
    h, m = divmod(minutes, 60)
    hw = "hour" if h == 1 else "hours"
    opts = [f"{h}h {m:02d}m" if m else f"{h}h", f"{minutes} min", f"{h} {hw} {m} minutes" if m else f"{h} {hw}",
            f"{h}h{m:02d}" if m else f"{h}h"]
    if m % 15 == 0:
        opts.append(f"{minutes / 60:g} hours")
        opts.append(f"{minutes / 60:g} hrs")
    return opts[rng.randrange(len(opts))] if style is None else opts[style % len(opts)]


def mass(rng, kg: float) -> str:
    opts = [f"{kg:g} kg", f"{kg:g}kg", f"{int(round(kg * 1000))} g", f"{kg:g} kilos"]
    return rng.choice(opts)


def temp(rng, c: int) -> str:
    return rng.choice([f"{c}°C", f"{c} C", f"{c} degrees", f"{c}ºC", f"{c} °C"])


def km(rng, k: int) -> str:
    return rng.choice([f"{k} km", f"{k}km", f"{k} kilometres", f"{k} kms"])


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
        if hour is None:
            hour = self.rng.uniform(8.0, 21.5)
        self.n += 1
        self.days[day].append((hour, self.n, user, assistant))

    def record(self, kind: str, day: dt.date, user: str, assistant: str, log_day: dt.date | None = None,
               hour: float | None = None, **fields):
        self.records.append(dict(kind=kind, date=day, **fields))
        self.add(log_day or day, user, assistant, hour)

    def event(self, key: str, day: dt.date, user: str, assistant: str, hour: float | None = None):
        self.events[key] = day
        self.add(day, user, assistant, hour)

    def chat(self, pool: list, n: int, avoid: set | None = None):
        """Spread n chat rounds over the period, drawing from the pool (each item used at most twice)."""
        rng = self.rng
        first, second = pool[:], pool[:]
        rng.shuffle(first)
        rng.shuffle(second)
        order = first + second
        assert n <= len(order), "chat pool too small"
        alldays = list(days_between(START, END))
        for i in range(n):
            user, assistant = order[i % len(order)]
            day = rng.choice(alldays)
            self.add(day, user, assistant)

    def build(self) -> dict:
        sessions = []
        for i, day in enumerate(sorted(self.days), 1):
            items = sorted(self.days[day], key=lambda t: (t[0], t[1]))
            t = dt.datetime.combine(day, dt.time(0, 0))
            rounds = []
            last = None
            for j, (hour, _, user, assistant) in enumerate(items, 1):
                want = dt.datetime.combine(day, dt.time(0, 0)) + dt.timedelta(minutes=int(hour * 60))
                if last is not None and want <= last:
                    want = last + dt.timedelta(minutes=self.rng.randint(1, 6))
                last = want
                assert want.date() == day, (self.name, day, hour)
                rounds.append({"round_id": f"S{i}:{j}", "time": want.isoformat(timespec="seconds"),
                               "user": user, "assistant": assistant})
            sessions.append({"session_id": f"S{i}", "date": day.isoformat(), "rounds": rounds})
        return {"user_id": self.user_id, "sessions": sessions}


# ----------------------------------------------------------------------------------------------
# gold helpers (all work on the generated records)
# ----------------------------------------------------------------------------------------------

def sel(recs, kind, a: dt.date | None = None, b: dt.date | None = None, **eq):
    """Records of a kind with a <= date <= b and the given field values."""
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
        out.append(r)
    return out


def month(recs, kind, m: int, **eq):
    a = dt.date(2026, m, 1)
    b = (dt.date(2026, m + 1, 1) if m < 12 else dt.date(2027, 1, 1)) - dt.timedelta(days=1)
    return sel(recs, kind, a, b, **eq)


def tot(rs, f):
    return round(sum(r[f] for r in rs), 2)


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
    assert len(ranked) == 1 or ranked[0][1] > ranked[1][1], f"tie at the top: {ranked[:3]}"
    return ranked[0]


def monday(d: dt.date) -> dt.date:
    return d - dt.timedelta(days=d.weekday())


def clear_on(recs, kind, day):
    assert not sel(recs, kind, day, day), f"a {kind} record falls on the boundary day {day}"


def pct_change(a, b):
    return round((b - a) / a * 100.0, 6)


def V(x, unit=None, **extra):
    g = {"value": x, "unit": unit}
    g.update(extra)
    return g


UNANS = {"unanswerable": True}


# ==============================================================================================
# 1. landlord: Maeve lets three flats on Kestrel Road, a box room to a lodger and her garage
# ==============================================================================================

LANDLORD_CHAT = [
    ("Is it normal for a tenant to ask for a new mattress after a year?", "Not unusual. If it came furnished, a worn mattress is usually the landlord's to replace."),
    ("How long should I keep old rent receipts?", "Six years is the usual rule of thumb for tax records."),
    ("Morning. Grey out again.", "Morning! Grey here too, in spirit."),
    ("What's a reasonable notice period if I want to redo a kitchen while someone's living there?", "Give as much notice as you can, in writing; two to four weeks is considerate."),
    ("Remind me what a gas safety cert is supposed to cover?", "Boiler, cooker and flues checked by a registered engineer, once a year."),
    ("My sister thinks I should sell flat 2 and be done with it.", "Worth thinking through the tax and the income you'd lose before deciding."),
    ("Do you know any good way to get mould off a bathroom ceiling?", "Diluted bleach or a mould spray, then an anti-mould paint and better ventilation."),
    ("Had a long chat with Tomasz about his bike in the hall. Sorted, I think.", "Glad it went well."),
    ("Can I deduct the cost of my own travel to the flats?", "Often yes, if it's wholly for the letting business. Check with your accountant."),
    ("Ugh, the council bin collection changed day again.", "Annoying. Might be worth letting the tenants know."),
    ("What's the difference between a repair and an improvement for tax?", "A repair restores what was there; an improvement adds something new. Only repairs are usually deductible straight away."),
    ("Going to the wholesaler for paint later, any tips on colours for rentals?", "Warm whites and light greys are safe and easy to touch up."),
    ("Neighbour's letting her two-bed for 1,400 a month, can you believe it.", "Rents have climbed a lot in the area."),
    ("Should I get landlord insurance that covers loss of rent?", "It can be worth it if a long void would hurt your cash flow."),
    ("Just realised I never changed the smoke alarm batteries in the hall.", "Good moment to do it, and note the date."),
    ("Thinking of putting a bike shed in the back garden.", "Tenants tend to love that. Check if you need permission."),
    ("Is there an app for tracking tenancy renewals?", "There are several; a shared calendar with reminders works too."),
    ("Sunny for once! Washing on the line.", "Enjoy it!"),
    ("Do I have to give a receipt for cash rent?", "It's good practice, and some tenants will need it."),
    ("What's a fair rent increase these days?", "It depends on local rules and caps; check the rent pressure zone limits where you are."),
    ("Tomasz asked if he can paint his bedroom dark green.", "Up to you; you could agree he repaints before leaving."),
    ("How do I bleed a radiator properly?", "Heating off, radiator key on the valve, open until water comes, then close."),
    ("I hate doing the accounts.", "A little each month makes it much less painful."),
    ("Priya's exams are coming up, she's barely out of her room.", "Hope they go well for her."),
    ("What do I need to check at an inventory?", "Condition of each room, fixtures, meters and keys, with dated photos."),
    ("Lucia's little boy drew me a picture of the house. Stuck it on the fridge.", "That's lovely."),
    ("Is a gutter clean something I can do myself safely?", "With a stable ladder and someone footing it, yes. Otherwise get a pro."),
    ("Should I let tenants have pets?", "Many landlords do, with a pet clause and a slightly bigger deposit."),
    ("Dreading the tax return this year.", "You've been logging everything, so it should be easier."),
    ("Any idea how often carpets in a rental should be replaced?", "Roughly every 5 to 10 years depending on wear."),
    ("The letting agent rang again offering to manage everything for me.", "Compare their fee with the time you spend yourself."),
    ("Gerry says his car's finally fixed so he'll keep the garage a while yet.", "Good news for the garage income."),
    ("What should go into a welcome pack for a new tenant?", "Meter locations, bin days, contacts for repairs, Wi-Fi info and the house rules."),
    ("Had coffee with my old school friend today, nice break from all this.", "Sounds like a good break."),
    ("Is it my job or the tenant's to unblock a sink?", "Usually the tenant's if they caused it, yours if it's a fault."),
    ("Rain again. The garden's a swamp.", "At least the lawn won't need watering."),
    ("Can I keep part of a deposit for cleaning?", "Only to bring it back to the check-in standard, not for normal wear."),
    ("Remind me, does flat 1 have the electric shower or the mixer?", "I don't have that noted; you could check the inventory photos."),
    ("Watched a programme about property developers last night, no thanks.", "Small-scale sounds calmer."),
    ("What's a good way to remind tenants about rent without nagging?", "An automatic friendly reminder a few days before the due date."),
    ("Should I replace the old storage heaters eventually?", "Modern heaters or a heat pump could cut bills and help with ratings."),
    ("My back's sore from hauling paint tins.", "Take it easy and stretch."),
    ("Is there a quick way to test if a smoke alarm works?", "Press and hold the test button until it sounds."),
    ("Do I need to tell the insurer when a flat is empty?", "Yes, many policies have conditions about unoccupied properties."),
    ("Hello again!", "Hello! What's new?"),
    ("Got the annual statement from the bank, all boring.", "Boring is good with banks."),
    ("What's the best filler for cracks in plaster?", "A flexible ready-mixed filler for fine cracks, powder filler for deeper ones."),
    ("Honestly thinking about a holiday once this year's sorted.", "You've earned one."),
    ("Should I ask for references from a lodger?", "Yes, a previous landlord and an employer or college reference is sensible."),
    ("Thanks for keeping track of all this.", "Any time."),
    ("Can a landlord enter a flat without notice for an emergency?", "In a genuine emergency, generally yes; otherwise give proper notice."),
    ("Feel like I spend my life on the phone to tradespeople.", "It comes with the territory, sadly."),
]


def gen_landlord():
    h = Hist("landlord", "maeve_kestrel", SEED + 1)
    rng = h.rng

    # ---- life events (told on the day, without the words the questions use) ----
    h.event("storm", D("2026-03-15"),
            "What a night. The wind ripped a load of slates off the roof at Kestrel Road and half the ridge tiles are lying in the back garden. Tomasz says water's dripping into his hall.",
            "That sounds awful. Get something over the roof as soon as you can.", 8.2)
    h.event("declan_out", D("2026-03-29"),
            "Declan gave me back his keys this afternoon, he's off to Galway for the new job. Flat 3 is sitting empty now.",
            "Sad to lose a good one. Time to find someone new for flat 3.", 16.5)
    h.event("hannah_in", D("2026-04-18"),
            "Hannah signed this morning and I handed over the keys to flat 3. Nice to have somebody in there again.",
            "Great, flat 3 is occupied again.", 11.0)
    h.event("boiler", D("2026-05-06"),
            "Lucia rang at 7am, no heating and no hot water, and the display in the hot press is flashing F28. Poor woman has a toddler.",
            "Ouch. That code usually means no ignition; worth getting a gas engineer out today.", 7.1)
    # ---- later mentions that date them ----
    h.add(D("2026-03-17"), "Tarp's still holding on the roof, two days on from that gale.", "Good, that buys time.")
    h.add(D("2026-03-22"), "A week since the wind took the slates and Tomasz's hall ceiling has finally dried out.", "Glad it's drying.")
    h.add(D("2026-04-02"), "Lucia's a bit short this month, she says the rest is coming next week.", "Noted, thanks for the heads-up.", 9.0)
    h.add(D("2026-04-01"), "Flat 3 echoes now it's empty. Weird walking round it.", "It'll feel different once it's furnished again.")
    h.add(D("2026-04-25"), "Hannah's first week in flat 3 went fine, she's very tidy.", "Good start.")
    h.add(D("2026-05-09"), "Lucia's had hot water since yesterday afternoon, thank god.", "Great news.")

    # ---- rent received ----
    tenants = {"Tomasz": ("flat 1", "bank transfer"), "Lucia": ("flat 2", "standing order"),
               "Declan": ("flat 3", "Revolut"), "Hannah": ("flat 3", "bank transfer"),
               "Priya": ("box room", "cash"), "Gerry": ("garage", "cash")}
    pay = [("Tomasz", "2026-03-02", 850), ("Tomasz", "2026-04-01", 850), ("Tomasz", "2026-05-01", 850),
           ("Lucia", "2026-03-03", 920), ("Lucia", "2026-04-02", 500), ("Lucia", "2026-04-09", 420),
           ("Lucia", "2026-05-04", 920),
           ("Declan", "2026-03-05", 400), ("Declan", "2026-03-19", 400),
           ("Hannah", "2026-04-20", 880), ("Hannah", "2026-05-18", 880)]
    for fri in days_between(D("2026-03-06"), D("2026-05-29")):
        if fri.weekday() == 4 and fri != D("2026-04-10"):
            pay.append(("Priya", fri.isoformat(), 320 if fri == D("2026-04-17") else 160))
    for mon in days_between(D("2026-03-02"), D("2026-05-25")):
        if mon.weekday() == 0:
            pay.append(("Gerry", mon.isoformat(), 25))
    pay.sort(key=lambda p: p[1])
    pron = {"Tomasz": "his", "Lucia": "her", "Declan": "his", "Hannah": "her", "Priya": "her", "Gerry": "his"}
    for i, (who, day, amt) in enumerate(pay):
        day = D(day)
        where, method = tenants[who]
        if who == "Priya" and rng.random() < 0.4:
            method = "Revolut"
        if who == "Lucia" and amt != 920:
            method = "bank transfer"
        lay = rng.randrange(4)
        log_day = day
        m = money(rng, amt)
        if lay == 0:
            text = f"Rent in - {who} | {where.capitalize()} | {m} | {method}"
        elif lay == 1:
            what = {"Priya": "her week", "Gerry": "the garage money", "Declan": "his fortnight"}.get(who, f"{pron[who]} rent")
            text = f"{who} paid {what} today, {m} by {method}." if method != "cash" else f"{who} handed me {what} today, {m} cash."
            if who == "Lucia" and amt != 920:
                text = f"Lucia paid part of April's rent today, {m} by {method}, rest next week she says."
        elif lay == 2:
            text = ('{"type": "rent", "tenant": "%s", "unit": "%s", "amount": "%s EUR", "via": "%s"}'
                    % (who, where, num(amt, True), method))
        else:
            if day + dt.timedelta(days=1) <= END and day + dt.timedelta(days=1) not in h.events.values():
                log_day = day + dt.timedelta(days=1)
                text = f"{who}'s rent landed yesterday - {m}." if who not in ("Gerry",) else f"Gerry dropped in his {m} for the garage yesterday."
            else:
                text = f"{who}: {m} received ({method})"
        reply = rng.choice(["Logged.", f"Noted - {who}, {num(amt)}.", "Got it.", "Logged, thanks.", "Noted."])
        h.record("rent", day, text, reply, log_day=log_day, tenant=who, unit=where, amount=float(amt))

    # ---- repairs and maintenance ----
    jobs = [("2026-03-04", "flat 1", "handyman", "rehung the bathroom door", (60, 110)),
            ("2026-03-10", "flat 2", "plumber", "unblocked the kitchen sink", (90, 140)),
            ("2026-03-12", "house", "gardener", "cut back the hedges", (45, 70)),
            ("2026-03-16", "flat 1", "roofer", "emergency tarp over the ridge", (260, 320)),
            ("2026-03-18", "flat 1", "roofer", "replaced ridge tiles and slates", (1100, 1400)),
            ("2026-03-20", "flat 2", "handyman", "put the fence panels back up", (80, 140)),
            ("2026-03-24", "flat 3", "electrician", "swapped the smoke alarms for mains ones", (150, 240)),
            ("2026-03-31", "flat 3", "cleaner", "end-of-tenancy clean", (140, 220)),
            ("2026-04-02", "flat 3", "painter", "repainted the living room and hall", (380, 560)),
            ("2026-04-07", "flat 3", "handyman", "new curtain rails and a shelf", (55, 95)),
            ("2026-04-09", "flat 3", "plumber", "fitted a new shower mixer", (180, 260)),
            ("2026-04-14", "flat 1", "electrician", "sorted the tripping RCD", (90, 160)),
            ("2026-04-15", "flat 2", "handyman", "resealed the bath", (40, 75)),
            ("2026-04-16", "flat 3", "cleaner", "carpet deep clean", (110, 170)),
            ("2026-04-25", "house", "gardener", "first lawn cut of the year", (45, 65)),
            ("2026-04-29", "flat 1", "plumber", "leaking radiator valve", (85, 130)),
            ("2026-05-06", "flat 2", "plumber", "emergency call-out for the boiler", (120, 160)),
            ("2026-05-08", "flat 2", "plumber", "new PCB fitted in the boiler", (360, 420)),
            ("2026-05-12", "house", "gardener", "lawn and weeding", (45, 70)),
            ("2026-05-19", "flat 3", "handyman", "fixed the shed door", (50, 90)),
            ("2026-05-22", "flat 1", "electrician", "new outside light", (95, 150)),
            ("2026-05-27", "flat 2", "handyman", "new bathroom extractor fan", (90, 150))]
    for day, where, trade, job, (lo, hi) in jobs:
        day = D(day)
        cost = round(rng.uniform(lo, hi) * 2) / 2 if rng.random() < 0.7 else round(rng.uniform(lo, hi), 2)
        lay = rng.randrange(4)
        m = money(rng, cost)
        place = "the house" if where == "house" else where
        log_day = day
        if lay == 0:
            text = f"Repair: {place.capitalize()} / {trade} / {job} / {m}"
        elif lay == 1:
            text = f"Paid the {trade} {m} for {job.replace('rehung', 'rehanging').replace('put ', 'putting ')} at {place}."
            if job.startswith(("unblocked", "cut ", "replaced", "swapped", "repainted", "fitted", "sorted", "resealed", "fixed")):
                text = f"Paid the {trade} {m} today - {job}, {place}."
        elif lay == 2:
            text = f"Maintenance\nProperty: {place}\nJob: {job}\nWho: {trade}\nCost: {num(cost, True)} EUR"
        else:
            nxt = day + dt.timedelta(days=1)
            if nxt <= END and nxt not in h.events.values() and day not in h.events.values():
                log_day = nxt
                text = f"{trade.capitalize()} was in {place} yesterday, {job}. Bill came to {m}."
            else:
                text = f"{trade.capitalize()} at {place} today: {job}, {m}."
        reply = rng.choice(["Logged.", f"Noted - {num(cost)} for the {trade}.", "Logged that repair.", "Got it, noted."])
        h.record("repair", day, text, reply, log_day=log_day, unit=where, trade=trade, job=job, cost=float(cost))

    h.chat(LANDLORD_CHAT, 92)
    return h


def questions_landlord(h):
    R, E = h.records, h.events
    rent, rep = "rent", "repair"
    storm, dout, hin, boil = E["storm"], E["declan_out"], E["hannah_in"], E["boiler"]
    for day in (storm, dout, hin, boil):
        clear_on(R, rent, day)
    for day in (storm, dout, hin):
        clear_on(R, rep, day)
    q = []

    def add(family, text, gold):
        q.append((family, text, gold))

    add("aggregate.sum.month", "How much rent came in altogether in April?", V(tot(month(R, rent, 4), "amount"), "EUR"))
    add("aggregate.sum.relative", "what did repairs cost me last month", V(tot(month(R, rep, 5), "cost"), "EUR"))
    add("aggregate.avg.month", "Average repair bill in March?", V(avg(month(R, rep, 3), "cost"), "EUR"))
    add("aggregate.count.filter", "How many times did Priya pay me in May?", V(len(month(R, rent, 5, tenant="Priya"))))
    wk = sel(R, rep, D("2026-04-13"), D("2026-04-19"))
    assert len(wk) >= 3
    add("aggregate.max.week", "What was the priciest job during the week of April 13th?", V(max(r["cost"] for r in wk), "EUR"))
    add("filter.subject", "Total rent from Tomasz over the whole three months?", V(tot(sel(R, rent, tenant="Tomasz"), "amount"), "EUR"))
    add("filter.value", "How much have I paid plumbers, all in?", V(tot(sel(R, rep, trade="plumber"), "cost"), "EUR"))
    add("filter.value.month", "What did flat 3 cost me in repairs during April?", V(tot(month(R, rep, 4, unit="flat 3"), "cost"), "EUR"))
    add("event.since", "How much have I spent on repairs since the storm?", V(tot(sel(R, rep, storm), "cost"), "EUR"))
    add("event.before", "Before the storm hit, how much rent had I collected?",
        V(tot(sel(R, rent, None, storm - dt.timedelta(days=1)), "amount"), "EUR"))
    gap = sel(R, rep, dout + dt.timedelta(days=1), hin - dt.timedelta(days=1), unit="flat 3")
    assert gap
    add("event.between", "Between Declan moving out and the new tenant moving in, what did I spend getting flat 3 ready?",
        V(tot(gap, "cost"), "EUR"))
    assert storm.weekday() == 6
    add("event.week_after", "how many repair jobs were done in the week after the storm?",
        V(len(sel(R, rep, storm + dt.timedelta(days=1), storm + dt.timedelta(days=7)))))
    on = sel(R, rep, boil, boil)
    assert on
    add("event.on_day", "On the day the boiler broke, how much did I pay out for repairs?", V(tot(on, "cost"), "EUR"))
    after = sorted(sel(R, rent, boil + dt.timedelta(days=1)), key=lambda r: r["date"])
    assert after[0]["date"] < after[1]["date"]
    add("event.first_after", "Which tenant was first to pay rent after the boiler packed in?", {"text": after[0]["tenant"]})
    before = sorted(sel(R, rep, None, dout - dt.timedelta(days=1)), key=lambda r: r["date"])
    assert before[-1]["date"] > before[-2]["date"]
    add("event.last_before", "The last repair job before Declan moved out - what sort of tradesperson did it?",
        {"text": before[-1]["trade"]})
    m3, m4, m5 = (tot(month(R, rep, m), "cost") for m in (3, 4, 5))
    add("compare.yes_no", "Did repairs cost more in April than in March?", {"yes_no": m4 > m3})
    r3, r4 = tot(month(R, rent, 3), "amount"), tot(month(R, rent, 4), "amount")
    add("compare.difference", "What's the difference between March's rent takings and April's?",
        V(round(r4 - r3, 2), "EUR", either_sign=True))
    add("compare.percent_change", "By what percentage did my repair spending change from April to May?",
        V(pct_change(m4, m5), "%"))
    trade_top = top(groups(sel(R, rep), "trade", "cost"))
    add("group.top", "Which kind of tradesperson have I paid the most overall?", {"group": trade_top[0]})
    weeks = defaultdict(float)
    for r in sel(R, rent):
        weeks[monday(r["date"])] += r["amount"]
    wtop = top(weeks)
    add("group.top_week", "Which week did the most rent come in? Just give me the Monday.",
        {"period": wtop[0].isoformat(), "bucket": "week"})
    months = {m: tot(month(R, rep, m), "cost") for m in (3, 4, 5)}
    mtop = top(months)
    add("group.top_month", "which month was worst for repair bills?", {"period": f"2026-{mtop[0]:02d}", "bucket": "month"})
    allrent = tot(sel(R, rent), "amount")
    add("share", "What share of all the rent came from Priya?",
        V(round(tot(sel(R, rent, tenant="Priya"), "amount") / allrent * 100, 6), "%"))
    ttop = top(groups(sel(R, rent), "tenant", "amount"))
    add("group.top_measure", "How much has my biggest-paying tenant paid me in total?", V(round(ttop[1], 2), "EUR"))
    add("event.since.count", "How many rent payments have come in since the new tenant moved in?",
        V(len(sel(R, rent, hin))))
    # unanswerable
    add("unanswerable.measure", "How many hours did the tradespeople spend at the flats in total?", UNANS)
    add("unanswerable.value", "What did the locksmith charge me?", UNANS)
    add("unanswerable.event", "What have repairs cost since the flood in flat 1?", UNANS)
    add("unanswerable.period", "How much rent did I collect in February?", UNANS)
    add("unanswerable.group", "how much rent has Marek paid so far", UNANS)
    return q


# ==============================================================================================
# 2. band: Rory plays guitar in a covers/function band; gigs, rehearsals, gear
# ==============================================================================================

BAND_CHAT = [
    ("Can you suggest a good warm-up for fingers before a gig?", "Slow chromatic runs and some stretches for five minutes do wonders."),
    ("What key is Mr Brightside in again?", "It's usually played in D flat, or C sharp, depending on who you ask."),
    ("Any tips for a first dance that the couple want played slower than the record?", "Rehearse it at their tempo with a click so it doesn't creep back up."),
    ("Morning. Ears still ringing a bit.", "Plugs next time! Morning."),
    ("Is it worth getting in-ears or just stick with wedges?", "In-ears give you control and protect hearing; worth it if the band plays often."),
    ("How do I stop my strings going dead so quickly?", "Wipe them after every gig and wash your hands before playing."),
    ("Our singer wants to add 'Valerie' again. Third time this year.", "Crowd-pleasers are crowd-pleasers."),
    ("What's a fair deposit to ask for a wedding booking?", "Many bands ask 25 to 50 percent to hold the date."),
    ("Should the band have public liability insurance?", "Most venues ask for it now, so yes."),
    ("Do you know a good way to learn a solo fast?", "Slow it down, loop the hard bars, then build back up."),
    ("Rained the whole way home, wipers on full.", "Glad you made it back safe."),
    ("What's the difference between a fuzz and an overdrive pedal?", "Overdrive pushes the amp gently; fuzz clips hard for a thicker, buzzier tone."),
    ("Thinking of learning some mandolin for the folky wedding sets.", "It'd add a nice colour, and the fingering is like violin."),
    ("How early should we arrive at a wedding venue to set up?", "Two hours before you play is a comfortable buffer."),
    ("Any stretches for a stiff neck after carrying amps?", "Gentle neck rolls and shoulder shrugs, and lift with your legs."),
    ("Should I set up my own guitar or pay a tech?", "Basic setups are learnable; a tech is worth it for frets and nut work."),
    ("What's a good tempo for 'Sweet Caroline'?", "Around 126 to 128 bpm works for dancing."),
    ("The bride's dad wants 'Come On Eileen' twice. Fine by me.", "The dancefloor will agree."),
    ("Can you remind me how to work out drop D for a song?", "Tune the low E down a whole step to D."),
    ("Had the afternoon off, went for a long walk by the river.", "Sounds restorative."),
    ("Is it normal for pubs to want a free first gig?", "Some try it; plenty of bands say no."),
    ("What should go in a band contract for weddings?", "Date, times, fee, deposit, cancellation, power and food for the band."),
    ("Keyboard player's moving house this month, chaos.", "Hopefully rehearsals survive it."),
    ("How do I get a cleaner clean tone at low volume?", "Lower the gain, keep the mids up, and use the amp's clean channel."),
    ("Is there a trick to remembering setlists?", "Group songs by key and tempo; it makes the order stick."),
    ("Good gig, bad sound guy. Every time.", "The eternal struggle."),
    ("What's a reasonable rate for a dep guitarist?", "Usually similar to a member's cut for that gig, sometimes a bit more."),
    ("Can you explain what a capo does, for my nephew?", "It clamps the strings at a fret so you can play open shapes in a higher key."),
    ("Should we do a mailing list for the band?", "It's a cheap way to fill pub gigs."),
    ("Hello!", "Hi! What's happening?"),
    ("Do you think we need a website or is Instagram enough?", "A simple site with videos and a contact form helps wedding clients trust you."),
    ("I keep rushing the intro of 'Superstition'.", "Practise it with a click at 90 percent speed."),
    ("How do I label cables so they don't get nicked at gigs?", "Coloured tape with your initials on both ends."),
    ("The singer's got a cold, hope she's OK by the weekend.", "Honey and lemon and lots of rest."),
    ("What's the best way to store guitars in a cold van?", "In hard cases, and let them warm up before opening."),
    ("Is 'Brown Eyed Girl' too cheesy for a corporate do?", "Corporate crowds love a bit of cheese."),
    ("Learning the bridge of 'Don't Stop Me Now' is doing my head in.", "Break it into two-bar chunks."),
    ("Saw a cracking band in town last night, really tight horn section.", "Nice, inspiration for the set?"),
    ("How do you deal with a drunk guest grabbing the mic?", "Stay friendly, take it back, and get the best man to help."),
    ("Remind me to order a spare strap lock.", "I can't set reminders, but I'll note that you want one."),
    ("Any idea how long a set of valves lasts?", "Power valves often go a year or two with regular gigging."),
    ("Feeling a bit burnt out this week.", "Maybe skip a practice and rest up."),
    ("Is it rude to ask the couple for a meal at the wedding?", "Not at all, it's standard in most contracts."),
    ("What's a good cheap wireless system for guitar?", "Entry-level digital ones from the big brands are fine for pubs."),
    ("Can you write me a short bio for the band?", "Sure: tell me the band name, style, and a highlight or two."),
    ("How many songs is a typical 45-minute set?", "About 11 to 13 songs."),
    ("Sunny day, practising on the back step.", "Lovely."),
    ("Should I learn to sing backing vocals?", "Bands always want more harmonies, so yes."),
    ("Thanks for keeping my gig diary straight.", "Happy to."),
    ("What's the best way to clean a fretboard?", "A little lemon oil on a cloth for rosewood, damp cloth for maple."),
    ("Is it worth bringing a spare amp to weddings?", "A small backup amp can save a night."),
    ("Mum came to the pub gig, she said we were too loud.", "Mums are always right about volume."),
    ("How do I price a festival slot?", "Look at the crowd size, travel and set length, and what they pay similar acts."),
    ("Neck's a bit bowed on the Tele, should I adjust the truss rod?", "A quarter turn at a time, and check relief after each."),
    ("Quiet week, nothing much happening.", "Enjoy the quiet."),
]


def gen_band():
    h = Hist("band", "rory_strings", SEED + 2)
    rng = h.rng
    h.event("mick_quits", D("2026-03-22"),
            "Mick rang this morning. He's taking the job in Cork and he's finished with us as of now, won't be back. We need someone behind the kit, fast.",
            "That's a blow. Maybe ask around for a dep while you look.", 10.3)
    h.event("hand", D("2026-04-07"),
            "Caught my left hand in the sliding door of the van loading out. Two fingers strapped together and the doctor says no playing for ten days at least.",
            "Ouch. Rest it properly so it heals.", 22.4)
    h.event("shauna", D("2026-04-26"),
            "Had coffee with Shauna today, she's a monster on kit and she said yes - she's in the band!",
            "Brilliant news!", 15.0)
    h.event("van", D("2026-05-16"),
            "Clutch went on the M6 on the way home from Kilronan. Three hours on the hard shoulder waiting for the tow truck.",
            "What a night. Glad you're safe.", 23.6)
    h.add(D("2026-03-24"), "First practice without Mick tonight, felt strange playing to a drum machine.", "It'll settle once you find someone.")
    h.add(D("2026-04-09"), "Two days of typing one-handed, this strapping is a pain.", "Hang in there.")
    h.add(D("2026-04-16"), "Strapping's off, fingers stiff but they work.", "Go easy at first.")
    h.add(D("2026-05-05"), "Shauna's first proper run-through of the wedding set since joining, tight as anything.", "Sounds like a great fit.")
    h.add(D("2026-05-18"), "Van's been in the garage since Saturday's clutch drama, borrowing Dad's estate.", "Hope it's a quick fix.")

    venues = {"The Crown": ("pub", 24), "Mulligan's": ("pub", 12), "Tierney's": ("pub", 38), "The Anchor": ("pub", 30),
              "Hollybank Hotel": ("wedding", 172), "Lough Rynn Castle": ("wedding", 210), "Kilronan House": ("wedding", 140),
              "Dunmore Golf Club": ("corporate", 60), "Riverfest": ("festival", 90)}
    gigs = [("2026-03-06", "The Crown"), ("2026-03-07", "Hollybank Hotel"), ("2026-03-13", "Mulligan's"),
            ("2026-03-14", "Dunmore Golf Club"), ("2026-03-20", "The Crown"), ("2026-03-21", "Lough Rynn Castle"),
            ("2026-03-26", "The Crown"), ("2026-03-28", "Tierney's"), ("2026-04-03", "The Crown"),
            ("2026-04-04", "Kilronan House"), ("2026-04-18", "Mulligan's"), ("2026-04-24", "Tierney's"),
            ("2026-04-25", "Hollybank Hotel"), ("2026-04-30", "The Anchor"), ("2026-05-01", "The Crown"),
            ("2026-05-02", "Dunmore Golf Club"), ("2026-05-08", "Mulligan's"), ("2026-05-09", "Lough Rynn Castle"),
            ("2026-05-15", "The Crown"), ("2026-05-16", "Kilronan House"), ("2026-05-21", "The Crown"),
            ("2026-05-23", "Riverfest"), ("2026-05-29", "Tierney's"), ("2026-05-30", "Hollybank Hotel")]
    fees = {"pub": [100, 120, 130, 150, 160, 180], "wedding": list(range(420, 660, 10)),
            "corporate": list(range(350, 560, 25)), "festival": [300]}
    for day, venue in gigs:
        day = D(day)
        typ, k = venues[venue]
        fee = rng.choice(fees[typ])
        lay = rng.randrange(4)
        log_day = day
        hour = rng.uniform(22.5, 23.9)
        m = money(rng, fee)
        if lay == 0:
            text = f"Gig: {venue} | {typ} | fee {m} | {km(rng, k)}"
        elif lay == 1:
            nxt = day + dt.timedelta(days=1)
            if nxt <= END and nxt not in h.events.values():
                log_day, hour = nxt, rng.uniform(9.0, 13.0)
                text = f"Played {venue} last night, {typ} gig, got {m}, {km(rng, k)} there and back."
            else:
                text = f"Just back from {venue}, {typ} gig, {m} for me, {km(rng, k)} round trip."
        elif lay == 2:
            text = '{"gig": "%s", "type": "%s", "fee": "%s", "travel_km": %d}' % (venue, typ, m, k)
        else:
            text = f"{typ.capitalize()} at {venue}\nFee: {m}\nMileage: {km(rng, k)}"
        reply = rng.choice(["Logged.", f"Noted - {venue}, {num(fee)}.", "Logged the gig.", "Got it."])
        h.record("gig", day, text, reply, log_day=log_day, hour=hour, venue=venue, gig_type=typ, fee=float(fee), km=float(k))

    # rehearsals
    reh = ["2026-03-03", "2026-03-08", "2026-03-10", "2026-03-15", "2026-03-17", "2026-03-24", "2026-03-29",
           "2026-03-31", "2026-04-02", "2026-04-05", "2026-04-21", "2026-04-23", "2026-04-28", "2026-05-03",
           "2026-05-05", "2026-05-10", "2026-05-12", "2026-05-14", "2026-05-19", "2026-05-24", "2026-05-26",
           "2026-05-28"]
    for day in reh:
        day = D(day)
        minutes = rng.choice([90, 105, 120, 135, 150, 165, 180])
        if day < h.events["mick_quits"]:
            place, cost = "Mick's garage", 0.0
        elif day < h.events["shauna"]:
            place, cost = "Pirate Studios", float(rng.choice([18, 21, 24, 27]))
        else:
            place, cost = "the Sound Room", float(rng.choice([15, 20, 25]))
        lay = rng.randrange(4)
        d_ = dur(rng, minutes)
        if lay == 0:
            text = f"Rehearsal {d_} at {place}" + (f", room {money(rng, cost)}" if cost else "")
        elif lay == 1:
            text = f"Practice tonight in {place}, {d_}." + (f" My share of the room was {money(rng, cost)}." if cost else "")
        elif lay == 2:
            text = f"rehearsal - {d_} - {place} - " + (money(rng, cost) if cost else "free")
        else:
            text = ('{"rehearsal": {"where": "%s", "length": "%s", "room_cost": %s}}'
                    % (place, d_, num(cost, True)))
        reply = rng.choice(["Logged.", f"Noted - {d_}.", "Got it.", "Logged the rehearsal."])
        h.record("rehearsal", day, text, reply, hour=rng.uniform(21.5, 23.5), place=place, minutes=float(minutes), room_cost=cost)

    gear = [("2026-03-02", "three sets of 10-46 strings", "Matchetts Music", (30, 36)),
            ("2026-03-11", "a patch cable", "Thomann", (8, 14)),
            ("2026-03-18", "a tuner pedal", "Thomann", (55, 80)),
            ("2026-03-25", "a new gig bag", "Waltons", (60, 95)),
            ("2026-03-27", "a pack of picks", "Matchetts Music", (5, 9)),
            ("2026-04-01", "a capo", "Waltons", (15, 25)),
            ("2026-04-12", "a set of amp valves", "Thomann", (75, 110)),
            ("2026-04-20", "strings", "Matchetts Music", (10, 13)),
            ("2026-04-29", "a leather strap", "Waltons", (35, 55)),
            ("2026-05-04", "in-ear monitors", "Thomann", (150, 220)),
            ("2026-05-07", "a cable tester", "Thomann", (20, 30)),
            ("2026-05-13", "strap locks", "Matchetts Music", (12, 18)),
            ("2026-05-20", "two sets of strings", "Matchetts Music", (20, 26)),
            ("2026-05-22", "a small backup amp", "Waltons", (180, 240)),
            ("2026-05-27", "a fret polishing kit", "Thomann", (18, 26)),
            ("2026-05-31", "spare 9V batteries", "Matchetts Music", (6, 10))]
    for day, item, shop, (lo, hi) in gear:
        day = D(day)
        cost = round(rng.uniform(lo, hi), 2) if rng.random() < 0.5 else float(round(rng.uniform(lo, hi)))
        m = money(rng, cost)
        lay = rng.randrange(4)
        if lay == 0:
            text = f"Bought {item} at {shop}, {m}"
        elif lay == 1:
            text = f"Gear: {item} | {shop} | {m}"
        elif lay == 2:
            text = f"{m} on {item} from {shop}. Treat yourself, they said."
        else:
            text = '{"spent": "%s", "on": "%s", "where": "%s"}' % (m, item, shop)
        reply = rng.choice(["Logged.", "Noted.", f"Noted - {num(cost)}.", "Got it, logged."])
        h.record("gear", day, text, reply, item=item, shop=shop, cost=cost)

    h.chat(BAND_CHAT, 96)
    return h


def questions_band(h):
    R, E = h.records, h.events
    mick, hand, shauna, van = E["mick_quits"], E["hand"], E["shauna"], E["van"]
    for day in (mick, hand, shauna):
        for k in ("gig", "rehearsal", "gear"):
            clear_on(R, k, day)
    clear_on(R, "gear", van)
    q = []

    def add(family, text, gold):
        q.append((family, text, gold))

    add("aggregate.sum.month", "How much did I earn from gigs in March?", V(tot(month(R, "gig", 3), "fee"), "EUR"))
    add("aggregate.count.relative", "how many gigs did we play last month?", V(len(month(R, "gig", 5))))
    add("aggregate.avg.filter", "What's my average fee for a wedding?", V(avg(sel(R, "gig", gig_type="wedding"), "fee"), "EUR"))
    add("aggregate.sum.month", "How much time did we spend rehearsing in April? In hours please.",
        V(round(tot(month(R, "rehearsal", 4), "minutes") / 60, 6), "h"))
    add("aggregate.max.month", "What was the longest drive for a gig in May?", V(max(r["km"] for r in month(R, "gig", 5)), "km"))
    add("filter.subject", "How much have we made at the Crown in total?", V(tot(sel(R, "gig", venue="The Crown"), "fee"), "EUR"))
    add("filter.value", "How many km did I drive for weddings overall?", V(tot(sel(R, "gig", gig_type="wedding"), "km"), "km"))
    wk = sel(R, "gig", D("2026-03-09"), D("2026-03-15"))
    assert len(wk) >= 2
    add("aggregate.sum.week", "What did I make from gigs the week of the 9th of March?", V(tot(wk, "fee"), "EUR"))
    add("event.since.count", "How many rehearsals have we had since our drummer quit?", V(len(sel(R, "rehearsal", mick))))
    add("event.before", "What did I earn from gigs before I hurt my hand?", V(tot(sel(R, "gig", None, hand), "fee"), "EUR"))
    btw = sel(R, "rehearsal", mick, shauna)
    assert btw
    add("event.between", "Between Mick leaving and the new drummer joining, how much did I pay for rehearsal rooms?",
        V(tot(btw, "room_cost"), "EUR"))
    assert mick.weekday() == 6
    wa = sel(R, "gear", mick + dt.timedelta(days=1), mick + dt.timedelta(days=7))
    assert wa
    add("event.week_after", "How much did I spend on gear in the week after our drummer left?", V(tot(wa, "cost"), "EUR"))
    on = sel(R, "gig", van, van)
    assert len(on) == 1
    add("event.on_day", "What did the gig pay on the day the van broke down?", V(on[0]["fee"], "EUR"))
    after = sorted(sel(R, "gig", hand + dt.timedelta(days=1)), key=lambda r: r["date"])
    assert after[0]["date"] < after[1]["date"]
    add("event.first_after", "Where was our first gig after I injured my hand?", {"text": after[0]["venue"]})
    before = sorted(sel(R, "gig", None, shauna - dt.timedelta(days=1)), key=lambda r: r["date"])
    add("event.last_before", "last gig before the new drummer joined - which venue was it?", {"text": before[-1]["venue"]})
    g4, g5 = tot(month(R, "gig", 4), "fee"), tot(month(R, "gig", 5), "fee")
    add("compare.yes_no", "Did I make more from gigs in May than in April?", {"yes_no": g5 > g4})
    wed, pub = tot(sel(R, "gig", gig_type="wedding"), "fee"), tot(sel(R, "gig", gig_type="pub"), "fee")
    assert wed > pub
    add("compare.difference", "How much more have the weddings paid than the pub gigs, overall?", V(round(wed - pub, 2), "EUR"))
    t3, t5 = tot(month(R, "rehearsal", 3), "minutes"), tot(month(R, "rehearsal", 5), "minutes")
    add("compare.percent_change", "By how much did my rehearsal time change from March to May, in percent?", V(pct_change(t3, t5), "%"))
    vtop = top(groups(sel(R, "gig"), "venue", "fee"))
    add("group.top", "Which venue has paid me the most overall?", {"group": vtop[0]})
    weeks = defaultdict(float)
    for r in sel(R, "rehearsal"):
        weeks[monday(r["date"])] += r["minutes"]
    wtop = top(weeks)
    add("group.top_week", "Which week did we rehearse the longest? Give me the Monday's date.",
        {"period": wtop[0].isoformat(), "bucket": "week"})
    mtop = top({m: tot(month(R, "gig", m), "km") for m in (3, 4, 5)})
    add("group.top_month", "In which month did I drive the most for gigs?", {"period": f"2026-{mtop[0]:02d}", "bucket": "month"})
    add("share", "what share of my gig money came from weddings?", V(round(wed / tot(sel(R, "gig"), "fee") * 100, 6), "%"))
    ctop = top(groups(sel(R, "gig"), "venue"))
    add("group.top_measure", "At the venue we play most often, what's the average fee?",
        V(avg(sel(R, "gig", venue=ctop[0]), "fee"), "EUR"))
    add("event.since.avg", "Since Shauna joined, how long is an average rehearsal, in minutes?",
        V(round(avg(sel(R, "rehearsal", shauna), "minutes"), 6), "min"))
    add("unanswerable.measure", "How many people came to the Crown gigs on average?", UNANS)
    add("unanswerable.group", "How much did we get paid at Electric Picnic?", UNANS)
    add("unanswerable.event", "What have I earned from gigs since our album launch?", UNANS)
    add("unanswerable.period", "what did rehearsal rooms cost me in February", UNANS)
    add("unanswerable.value", "How much have I spent on drum skins?", UNANS)
    return q


# ==============================================================================================
# 3. kiln: Ines, a potter with two kilns ("Bertha", the big one, and "Pip", the little one)
# ==============================================================================================

KILN_CHAT = [
    ("Why do my glazes crawl on the rim?", "Often dust or oil on the bisque, or glaze applied too thick. Wipe pieces with a damp sponge first."),
    ("What's the difference between cone 6 and cone 10?", "Cone 10 is hotter, roughly 1300 °C versus about 1220 °C for cone 6, depending on heat rate."),
    ("Morning! Coffee in hand, wheel's calling.", "Morning! Enjoy the throwing."),
    ("How thin should a mug wall be?", "Around 5 to 6 mm is comfortable for a mug."),
    ("Any idea why my handles keep cracking where they join?", "The handle and mug were probably at different dryness. Dry them slowly under plastic."),
    ("Should I wedge porcelain the same way as stoneware?", "Gently; porcelain is less forgiving, so spiral wedge lightly and keep it moist."),
    ("Do you know a good food-safe clear glaze?", "Most commercial cone 6 clears are food safe when fired correctly; check the supplier's data sheet."),
    ("Hands are wrecked from trimming all day.", "A good hand cream at night helps a lot."),
    ("What's a good price for a handmade mug these days?", "Around 25 to 40 euro is common for handmade mugs, more with a name."),
    ("Is it OK to reclaim clay with bits of glaze in it?", "Better not; glaze bits can cause blisters and bloating."),
    ("How do I stop plates warping in the kiln?", "Compress the base well, dry slowly and evenly, and fire on a flat, clean shelf."),
    ("Listening to a podcast about Japanese pottery while I trim.", "Sounds like a lovely afternoon."),
    ("What's the best way to photograph pots for Etsy?", "Soft natural light, a plain background, and a couple of lifestyle shots."),
    ("Why is my celadon coming out cloudy?", "Usually underfiring, or too much glaze. Try a hotter soak or thinner coat."),
    ("Do I need a respirator for mixing glazes?", "Yes, a proper dust mask or respirator for dry materials is strongly advised."),
    ("Raining again, perfect weather for staying at the wheel.", "Cosy studio day."),
    ("How long should greenware dry before a bisque?", "Until it's bone dry: room temperature to the touch, usually a week or so."),
    ("What's kiln wash made of?", "Typically equal parts kaolin and alumina hydrate, mixed with water."),
    ("Can I fire glazed pieces touching each other?", "No, they'll fuse together. Leave a finger's gap."),
    ("A customer asked if my bowls are dishwasher safe.", "If fully vitrified with a durable glaze, usually yes; test one first."),
    ("Why do I get pinholes in my glaze?", "Gas escaping from the body; a slower bisque or a hold at peak can help."),
    ("Hello!", "Hi there! What's on the wheel today?"),
    ("Should I sign the bottoms of my pots?", "Yes, a stamp or signature helps people find you again."),
    ("What's the best way to pack mugs for posting?", "Bubble wrap, then a box with a couple of centimetres of padding on every side."),
    ("Thinking about trying slip trailing.", "Fun technique. Keep the slip the consistency of thick cream."),
    ("My mum wants a set of bowls for her birthday, no pressure.", "A lovely present to make."),
    ("How do I know if my kiln shelves are cracked?", "Tap them: a dull sound instead of a ring often means a crack."),
    ("What's the difference between oxidation and reduction firing?", "Oxidation has plenty of oxygen; reduction starves it, changing glaze colours."),
    ("Trimmed 20 bowls and my back is screaming.", "Stretch and take breaks between batches."),
    ("Any tips for centring bigger lumps of clay?", "Cone it up and down a few times and use your body weight, not your arms."),
    ("Do you think I should offer pottery classes?", "If you enjoy teaching, it's steady income and good marketing."),
    ("What's terra sigillata?", "A very fine clay slip that can be burnished to a soft sheen."),
    ("Lovely light in here this evening.", "Enjoy it."),
    ("How do I price a commission fairly?", "Materials, firing costs, your hours, and a margin; commissions can carry a premium."),
    ("Should I insure my kilns?", "Check your building policy; kilns are often excluded unless listed."),
    ("Can you explain what a witness cone is for?", "It shows how much heat work the kiln actually did, as a check on the controller."),
    ("Tried a new speckled glaze, it went a bit brown.", "Speckled glazes vary with thickness and heat; try a thinner coat."),
    ("What causes S-cracks in the base?", "Usually not compressing the base enough while throwing."),
    ("Spent the afternoon answering emails instead of making anything.", "Admin days are work too."),
    ("What's the right way to store glaze buckets?", "Lidded, labelled, and stirred well before each use."),
    ("Is it worth getting a pug mill?", "If you reclaim a lot, it saves time and wrists."),
    ("Do customers actually read care instructions?", "Some do; a small card in the box helps."),
    ("I want to try a moon jar this summer.", "Ambitious and beautiful. Make two halves and join them."),
    ("How often should I vacuum the kiln?", "A quick vacuum of the floor and elements every few firings."),
    ("Got a lovely message from someone who bought a teapot.", "That's the best kind of feedback."),
    ("What do I do with all my seconds?", "Sell them cheaply as seconds, use them, or give them away."),
    ("Is underglaze the same as glaze?", "No, underglaze is coloured slip for decoration, usually under a clear."),
    ("My dog stole a lump of clay and ate half of it.", "Should be fine in small amounts, but keep an eye on him."),
    ("Thanks for keeping my firing notes tidy.", "Happy to help."),
    ("Quiet day. Just wedging and thinking.", "Sometimes that's the best kind of day."),
    ("How do I stop glaze running onto the shelf?", "Leave a bare foot, fire a cookie underneath, and apply thinner near the base."),
    ("Should I post on Instagram every day?", "Consistency matters more than frequency; a few good posts a week is fine."),
]


def gen_kiln():
    h = Hist("kiln", "ines_clay", SEED + 3)
    rng = h.rng
    h.event("repair", D("2026-03-19"),
            "Sparky was here first thing and put brand new elements into Bertha. She's been crawling up to temperature for months, fingers crossed that's sorted.",
            "Fresh elements should make a big difference.", 9.5)
    h.event("move", D("2026-04-05"),
            "Last box carried up the stairs - I'm out of the garage and into unit 4 at the Mill! Both kilns get wired in during the week hopefully.",
            "Congratulations on the new space!", 18.0)
    h.event("flu", D("2026-04-23"),
            "Woke up burning, 39.2 on the thermometer and every bone aches. Staying in bed, the kiln can wait.",
            "Rest and fluids. The pots will keep.", 8.4)
    h.event("open_day", D("2026-05-10"),
            "The Mill had its doors open to the public all day for the spring arts trail - must have been eighty people through my unit!",
            "What a day! Great exposure.", 18.5)
    h.add(D("2026-03-24"), "Bertha is a different kiln since Thursday's new elements, honestly.", "Good to hear.")
    h.add(D("2026-04-12"), "First week at the Mill done, I keep getting lost between the units.", "It'll feel like home soon.")
    h.add(D("2026-04-27"), "Day five of this bug, still on the sofa with Lemsip.", "Feel better soon.")
    h.add(D("2026-04-30"), "Feeling human again, back at the Mill tomorrow.", "Good, but pace yourself.")
    h.add(D("2026-05-12"), "Still buzzing from Sunday, three people asked about classes.", "Might be worth trying.")

    bertha = ["2026-03-02", "2026-03-06", "2026-03-11", "2026-03-16", "2026-03-23", "2026-03-27", "2026-04-01",
              "2026-04-09", "2026-04-14", "2026-04-18", "2026-04-21", "2026-05-02", "2026-05-06", "2026-05-12",
              "2026-05-16", "2026-05-20", "2026-05-25", "2026-05-29"]
    pip = ["2026-03-04", "2026-03-08", "2026-03-13", "2026-03-18", "2026-03-21", "2026-03-25", "2026-03-30",
           "2026-04-02", "2026-04-10", "2026-04-13", "2026-04-16", "2026-04-20", "2026-05-01", "2026-05-04",
           "2026-05-08", "2026-05-14", "2026-05-18", "2026-05-22", "2026-05-27", "2026-05-31"]
    firings = [(D(x), "Bertha") for x in bertha] + [(D(x), "Pip") for x in pip]
    firings.sort()
    nxt_type = {"Bertha": "bisque", "Pip": "bisque"}
    for day, kiln in firings:
        typ = nxt_type[kiln]
        nxt_type[kiln] = "glaze" if typ == "bisque" else "bisque"
        if kiln == "Bertha":
            if day < h.events["repair"]:
                lo, hi = (570, 630) if typ == "bisque" else (690, 750)
            else:
                lo, hi = (450, 510) if typ == "bisque" else (540, 600)
            n = rng.randint(20, 36)
        else:
            lo, hi = (300, 360) if typ == "bisque" else (390, 450)
            n = rng.randint(6, 14)
        minutes = rng.randrange(lo, hi + 1, 5)
        peak = rng.randint(990, 1010) if typ == "bisque" else rng.randint(1215, 1245)
        lost = rng.choice([0, 0, 0, 1]) if typ == "bisque" else rng.choice([0, 1, 1, 2, 3])
        lay = rng.randrange(4)
        if lay == 0:
            lt = "none lost" if lost == 0 else f"{lost} cracked"
            text = f"Firing log - {kiln} | {typ} | peak {temp(rng, peak)} | {dur(rng, minutes)} | {n} pieces, {lt}"
        elif lay == 1:
            lt = rng.choice(["Everything survived.", "No losses."]) if lost == 0 else (
                f"Lost {lost} - cracked on the foot." if lost > 1 else "Lost one, a crack right through the base.")
            text = f"Fired {kiln} today, {typ} load of {n}. Topped out at {temp(rng, peak)} after {dur(rng, minutes)}. {lt}"
        elif lay == 2:
            text = ('{"kiln": "%s", "firing": "%s", "peak_c": %d, "time": "%s", "loaded": %d, "lost": %d}'
                    % (kiln, typ, peak, dur(rng, minutes), n, lost))
        else:
            text = f"Kiln: {kiln}\nType: {typ}\nTop temp: {temp(rng, peak)}\nTime: {dur(rng, minutes)}\nLoaded: {n}\nLosses: {lost}"
        reply = rng.choice(["Logged.", f"Noted - {kiln}, {n} pieces.", "Got it.", "Logged the firing."])
        h.record("firing", day, text, reply, hour=rng.uniform(17.0, 21.0), kiln=kiln, firing_type=typ,
                 peak_c=float(peak), minutes=float(minutes), loaded=float(n), lost=float(lost))

    clay = [("2026-03-03", "stoneware", "Potclays"), ("2026-03-10", "porcelain", "Scarva"),
            ("2026-03-17", "stoneware", "Potclays"), ("2026-03-26", "terracotta", "the Clay Cellar"),
            ("2026-04-01", "porcelain", "Scarva"), ("2026-04-07", "stoneware", "Potclays"),
            ("2026-04-11", "stoneware", "the Clay Cellar"), ("2026-04-17", "porcelain", "Scarva"),
            ("2026-04-28", "stoneware", "Potclays"), ("2026-05-05", "terracotta", "the Clay Cellar"),
            ("2026-05-11", "stoneware", "Potclays"), ("2026-05-15", "porcelain", "Scarva"),
            ("2026-05-21", "stoneware", "Potclays"), ("2026-05-26", "stoneware", "the Clay Cellar"),
            ("2026-05-30", "porcelain", "Scarva")]
    per_kg = {"stoneware": 1.9, "porcelain": 4.2, "terracotta": 1.4}
    for day, ctype, supplier in clay:
        day = D(day)
        kg = rng.choice([10, 12.5, 20, 25, 30]) if ctype != "porcelain" else rng.choice([5, 7.5, 10, 12.5])
        price = round(kg * per_kg[ctype] * rng.uniform(0.95, 1.08), 2)
        m = money(rng, price)
        lay = rng.randrange(4)
        if lay == 0:
            text = f"Clay order: {mass(rng, kg)} {ctype} from {supplier}, {m}"
        elif lay == 1:
            text = f"Picked up {ctype} from {supplier} today, {mass(rng, kg)} in total, cost me {m}."
        elif lay == 2:
            text = ('{"purchase": "clay", "type": "%s", "weight": "%s", "price": "%s", "from": "%s"}'
                    % (ctype, mass(rng, kg), m, supplier))
        else:
            text = f"Bought {mass(rng, kg)} of {ctype} ({supplier}) - {m}"
        reply = rng.choice(["Logged.", f"Noted - {kg:g} kg.", "Got it.", "Logged the clay."])
        h.record("clay", day, text, reply, clay_type=ctype, supplier=supplier, kg=float(kg), cost=price)

    sales = [("2026-03-05", "Etsy"), ("2026-03-09", "wholesale"), ("2026-03-12", "Etsy"), ("2026-03-20", "commission"),
             ("2026-03-23", "wholesale"), ("2026-03-28", "Etsy"), ("2026-04-03", "Etsy"), ("2026-04-06", "wholesale"),
             ("2026-04-11", "studio shop"), ("2026-04-15", "commission"), ("2026-04-18", "studio shop"),
             ("2026-04-20", "wholesale"), ("2026-04-26", "Etsy"), ("2026-05-03", "Etsy"), ("2026-05-04", "wholesale"),
             ("2026-05-07", "studio shop"), ("2026-05-10", "studio shop"), ("2026-05-13", "Etsy"),
             ("2026-05-17", "commission"), ("2026-05-18", "wholesale"), ("2026-05-21", "Etsy"),
             ("2026-05-23", "studio shop"), ("2026-05-28", "commission"), ("2026-05-30", "Etsy"),
             ("2026-05-31", "studio shop")]
    buyers = ["Aoife", "Mrs Quinn", "Dara", "the Hegartys"]
    goods = [("mug", "mugs"), ("bowl", "bowls"), ("bud vase", "bud vases"), ("plate", "plates"), ("jug", "jugs")]
    bi = 0
    for day, ch in sales:
        day = D(day)
        if ch == "Etsy":
            n = rng.randint(1, 3)
            amt = float(n * rng.choice([28, 32, 36, 42]) + rng.choice([0, 6.5]))
        elif ch == "wholesale":
            n = rng.choice([8, 10, 12, 16])
            amt = float(n * 18)
        elif ch == "commission":
            n = rng.choice([4, 6, 8])
            amt = float(rng.choice([180, 220, 240, 290, 320]))
        else:
            n = rng.randint(1, 4)
            amt = float(n * rng.choice([25, 30, 35]))
        if day == h.events["open_day"]:
            n, amt = 27, 689.0
        one, many = rng.choice(goods)
        what = f"{n} {many}" if n > 1 else f"a {one}"
        m = money(rng, amt)
        lay = rng.randrange(4)
        if day == h.events["open_day"]:
            text = f"Studio shop takings today: {n} pieces, {m} between cash and card."
        elif ch == "commission":
            who = buyers[bi % len(buyers)]
            bi += 1
            text = rng.choice([f"{who} collected her commission today, {what}, paid {m}." if who in ("Aoife", "Mrs Quinn") else
                               f"{who} picked up their commission today, {what}, {m} paid.",
                               f"Sale | commission ({who}) | {n} piece{'s' if n > 1 else ''} | {m}",
                               '{"sold_via": "commission", "client": "%s", "items": %d, "total": "%s"}' % (who, n, m)])
        elif lay == 0:
            text = (f"Etsy order: {what}, {m}" if ch == "Etsy" else
                    f"Wholesale drop to the Bean café: {what}, invoice {m}" if ch == "wholesale" else
                    f"Studio shop sale: {what}, {m}")
        elif lay == 1:
            text = f"Sale | {ch} | {n} piece{'s' if n > 1 else ''} | {m}"
        elif lay == 2:
            text = '{"sold_via": "%s", "items": %d, "total": "%s"}' % (ch, n, m)
        else:
            text = (f"Sold {what} on Etsy today, {m} all in." if ch == "Etsy" else
                    f"Dropped {what} to the Bean for their wholesale order, {m} on the invoice." if ch == "wholesale" else
                    f"Someone wandered into the unit and bought {what} from the studio shop shelf, {m}.")
        reply = rng.choice(["Logged.", f"Noted - {num(amt)}.", "Got it.", "Logged the sale."])
        h.record("sale", day, text, reply, hour=rng.uniform(12.0, 19.0) if day != h.events["open_day"] else 19.5,
                 channel=ch, items=float(n), amount=amt)

    h.chat(KILN_CHAT, 96)
    return h


def questions_kiln(h):
    R, E = h.records, h.events
    rep, move, flu, openday = E["repair"], E["move"], E["flu"], E["open_day"]
    for day in (rep, move, flu):
        for k in ("firing", "clay", "sale"):
            clear_on(R, k, day)
    clear_on(R, "firing", openday)
    q = []

    def add(family, text, gold):
        q.append((family, text, gold))

    add("aggregate.count.month", "How many firings did I do in March?", V(len(month(R, "firing", 3))))
    add("aggregate.sum.relative", "How much clay did I buy last month?", V(tot(month(R, "clay", 5), "kg"), "kg"))
    add("aggregate.avg.filter", "What was the average peak temperature of my glaze firings in April?",
        V(round(avg(month(R, "firing", 4, firing_type="glaze"), "peak_c"), 6), "°C"))
    add("aggregate.sum.month", "how much money did I make from sales in April", V(tot(month(R, "sale", 4), "amount"), "EUR"))
    wk = sel(R, "firing", D("2026-05-18"), D("2026-05-24"))
    assert len(wk) >= 2
    add("aggregate.max.week", "Longest firing in the week of May 18th - how many hours?",
        V(round(max(r["minutes"] for r in wk) / 60, 6), "h"))
    add("filter.subject.month", "How many times did I fire Bertha in April?", V(len(month(R, "firing", 4, kiln="Bertha"))))
    add("filter.subject", "How many pieces has Pip lost in total?", V(tot(sel(R, "firing", kiln="Pip"), "lost")))
    add("filter.value", "What have I made on Etsy altogether?", V(tot(sel(R, "sale", channel="Etsy"), "amount"), "EUR"))
    add("event.since.avg", "Since Bertha was repaired, what's her average firing time?",
        V(round(avg(sel(R, "firing", rep, kiln="Bertha"), "minutes") / 60, 6), "h"))
    pre = sel(R, "firing", None, rep, kiln="Bertha", firing_type="glaze")
    assert pre
    add("event.before.avg", "Before the repair, how long did Bertha's glaze firings take on average?",
        V(round(avg(pre, "minutes") / 60, 6), "h"))
    btw = sel(R, "firing", move, flu)
    assert btw
    add("event.between", "Between moving studios and getting sick, how many pieces went through the kilns?",
        V(tot(btw, "loaded")))
    assert move.weekday() == 6
    wa = sel(R, "clay", move + dt.timedelta(days=1), move + dt.timedelta(days=7))
    assert wa
    add("event.week_after", "How much clay did I buy the week after the move? In kilos.", V(tot(wa, "kg"), "kg"))
    on = sel(R, "sale", openday, openday)
    assert on
    add("event.on_day", "How much did I take on the open studio day?", V(tot(on, "amount"), "EUR"))
    after = sorted(sel(R, "firing", flu + dt.timedelta(days=1)), key=lambda r: r["date"])
    assert after[0]["date"] < after[1]["date"]
    add("event.first_after", "After I came down with the flu, which kiln did I fire first?", {"text": after[0]["kiln"]})
    before = sorted(sel(R, "clay", None, move - dt.timedelta(days=1)), key=lambda r: r["date"])
    add("event.last_before", "what kind of clay was the last lot I bought before moving studios?", {"text": before[-1]["clay_type"]})
    l3, l4 = tot(month(R, "firing", 3), "lost"), tot(month(R, "firing", 4), "lost")
    assert l3 != l4
    add("compare.yes_no", "Did I lose more pieces in March than in April?", {"yes_no": l3 > l4})
    s3, s5 = tot(month(R, "sale", 3), "amount"), tot(month(R, "sale", 5), "amount")
    assert s5 > s3
    add("compare.difference", "How much more did I earn from sales in May than in March?", V(round(s5 - s3, 2), "EUR"))
    c3, c4 = tot(month(R, "clay", 3), "cost"), tot(month(R, "clay", 4), "cost")
    add("compare.percent_change", "Percent change in what I spent on clay, March to April?", V(pct_change(c3, c4), "%"))
    chtop = top(groups(sel(R, "sale"), "channel", "amount"))
    add("group.top", "Which way of selling has brought in the most money?", {"group": chtop[0]})
    weeks = defaultdict(float)
    for r in sel(R, "firing"):
        weeks[monday(r["date"])] += r["loaded"]
    wtop = top(weeks)
    add("group.top_week", "Which week did I fire the most pieces? Monday's date please.",
        {"period": wtop[0].isoformat(), "bucket": "week"})
    mtop = top({m: tot(month(R, "clay", m), "cost") for m in (3, 4, 5)})
    add("group.top_month", "Which month did I spend the most on clay?", {"period": f"2026-{mtop[0]:02d}", "bucket": "month"})
    allsales = tot(sel(R, "sale"), "amount")
    add("share", "What share of my sales money came from commissions?",
        V(round(tot(sel(R, "sale", channel="commission"), "amount") / allsales * 100, 6), "%"))
    add("group.top_measure", "How much has my best-earning sales channel brought in?", V(round(chtop[1], 2), "EUR"))
    b = sel(R, "firing", kiln="Bertha")
    add("share.ratio", "What percentage of the pieces I loaded into Bertha came out broken?",
        V(round(tot(b, "lost") / tot(b, "loaded") * 100, 6), "%"))
    add("unanswerable.measure", "How much electricity did Bertha use in April?", UNANS)
    add("unanswerable.value", "What's the usual peak temperature of my raku firings?", UNANS)
    add("unanswerable.event", "How many firings have I done since the kiln caught fire?", UNANS)
    add("unanswerable.group", "How much did the gallery in Kinsale pay me?", UNANS)
    add("unanswerable.period", "how much clay did I buy in February?", UNANS)
    return q


# ==============================================================================================

def main():
    builders = [("landlord", gen_landlord, questions_landlord), ("band", gen_band, questions_band),
                ("kiln", gen_kiln, questions_kiln)]
    allq = []
    for name, gen, ques in builders:
        h = gen()
        doc = h.build()
        (HERE / f"history_{name}.json").write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        rows = []
        for i, (family, text, gold) in enumerate(ques(h), 1):
            rows.append({"question_id": f"ci-{name}-{i:02d}", "history": name, "question": text,
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
