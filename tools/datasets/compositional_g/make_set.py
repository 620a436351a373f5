#!/usr/bin/env python3
"""Generate compositional set G: three chat histories and 90 analytic questions with computed golds.

Standard library only, seeded and deterministic. Run:

    python3 tools/datasets/compositional_g/make_set.py

It writes history_<name>.json, questions_<name>.jsonl and questions.jsonl next to this file.
Every gold value is computed from the records the generator itself wrote into the histories, and
the asserts below check that selections are non-empty, top groups unique, boundary days clear of
records of the queried kind, and unanswerable questions truly without data.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import re
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
D = dt.date.fromisoformat
ONE = dt.timedelta(days=1)


def span(a: dt.date, b: dt.date):
    d = a
    while d <= b:
        yield d
        d += ONE


def monday(d: dt.date) -> dt.date:
    return d - dt.timedelta(days=d.weekday())


def r4(x: float) -> float:
    return round(x + 0.0, 4)


def money(x: float) -> str:
    return f"{x:,.2f}"


def num(x: float) -> str:
    if abs(x - round(x)) < 1e-9:
        return f"{int(round(x))}"
    return f"{x:g}"


# --------------------------------------------------------------------------------------------------
# history builder
# --------------------------------------------------------------------------------------------------

class History:
    def __init__(self, name: str, user: str, start: str, end: str, qtime: str, seed: int):
        self.name, self.user = name, user
        self.start, self.end = D(start), D(end)
        self.qtime = qtime
        self.rng = random.Random(seed)
        self.items: dict[dt.date, list[dict]] = defaultdict(list)
        self.records: list[dict] = []
        self.events: dict[str, dict] = {}
        self.used_times: set[tuple] = set()
        self.doc = None

    def _slot(self, date, hm):
        h, m = map(int, hm.split(":"))
        while (date, h, m) in self.used_times:
            m += 3
            if m >= 60:
                h, m = h + 1, m - 60
        self.used_times.add((date, h, m))
        return f"{h:02d}:{m:02d}"

    def say(self, date, hm, user, assistant, rec=None, event=None):
        assert self.start <= date <= self.end, (self.name, date)
        item = {"t": self._slot(date, hm), "user": user, "assistant": assistant, "rec": rec, "event": event}
        self.items[date].append(item)
        return item

    def record(self, kind, date, hm, user, assistant, **fields):
        rec = dict(kind=kind, date=date, **fields)
        self.records.append(rec)
        self.say(date, hm, user, assistant, rec=rec)
        return rec

    def event(self, key, date, hm, user, assistant):
        ev = {"key": key, "date": date}
        self.events[key] = ev
        self.say(date, hm, user, assistant, event=ev)
        return ev

    def build(self):
        sessions = []
        n = 0
        for date in sorted(self.items):
            items = sorted(self.items[date], key=lambda it: it["t"])
            groups, last = [], None
            for it in items:
                h, m = map(int, it["t"].split(":"))
                mins = h * 60 + m
                if last is None or mins - last >= 180:
                    groups.append([])
                groups[-1].append(it)
                last = mins
            for g in groups:
                n += 1
                sid = f"S{n}"
                rounds = []
                for k, it in enumerate(g, 1):
                    rid = f"{sid}:{k}"
                    if it["rec"] is not None:
                        it["rec"]["rid"] = rid
                    if it["event"] is not None:
                        it["event"]["rid"] = rid
                    it["rid"] = rid
                    rounds.append({"round_id": rid, "time": f"{date.isoformat()}T{it['t']}:00",
                                   "user": it["user"], "assistant": it["assistant"]})
                sessions.append({"session_id": sid, "date": date.isoformat(), "rounds": rounds})
        self.order = {}
        for s in sessions:
            for r in s["rounds"]:
                self.order[r["round_id"]] = len(self.order)
        for rec in self.records:
            assert "rid" in rec, rec
        self.doc = {"user_id": self.user, "sessions": sessions}
        self.alltext = "\n".join(r["user"] + "\n" + r["assistant"] for s in sessions for r in s["rounds"]).lower()
        return self.doc

    # ---- selections -------------------------------------------------------------------------
    def sel(self, kind, a=None, b=None, field=None, **eq):
        a = D(a) if isinstance(a, str) else a
        b = D(b) if isinstance(b, str) else b
        out = [r for r in self.records if r["kind"] == kind
               and (a is None or r["date"] >= a) and (b is None or r["date"] <= b)
               and (field is None or r.get(field) is not None)
               and all(r.get(k) == v for k, v in eq.items())]
        out.sort(key=lambda r: self.order[r["rid"]])
        return out

    def clear(self, kind, *days):
        """No record of `kind` on any of these (ambiguous boundary) days."""
        for d in days:
            d = D(d) if isinstance(d, str) else d
            hits = [r for r in self.records if r["kind"] == kind and r["date"] == d]
            assert not hits, (self.name, kind, d, hits)

    def absent(self, *terms):
        for t in terms:
            pat = r"\b" + re.escape(t.strip().lower()) + (r"\b" if t.endswith(" ") else "")
            assert not re.search(pat, self.alltext), (self.name, "term present", t)

    def ev(self, key):
        return self.events[key]

    def evd(self, key):
        return self.events[key]["date"]


def pick(rng, options):
    return options[rng.randrange(len(options))]


def slot(hm: str) -> str:
    h = int(hm[:2])
    return "morning" if h < 11 else ("midday" if h < 16 else "evening")


def earlier(rng, hm: str) -> str:
    """A clock time a few minutes before hm (when an app export was made before it was pasted)."""
    h, m = map(int, hm.split(":"))
    t = max(0, h * 60 + m - rng.randint(2, 25))
    return f"{t // 60:02d}:{t % 60:02d}"


def lead_in(rng, d: dt.date, hm: str, leads: dict) -> str:
    """A lead-in line that fits the time of day and the weekday (or none)."""
    wk = "weekend" if d.weekday() >= 5 else "weekday"
    opts = list(leads.get("any", [])) + list(leads.get(slot(hm), [])) + list(leads.get(wk + "_" + slot(hm), []))
    return pick(rng, opts) if opts else ""


class Filler:
    """Filler chat; each line is used at most once and never before the day it can be said."""

    def __init__(self, rng, lines):
        self.rng = rng
        self.lines = []
        for u, a, *rest in lines:
            after = D(rest[0]) if rest and rest[0] else None
            before = D(rest[1]) if len(rest) > 1 else None
            self.lines.append((u, a, after, before))
        rng.shuffle(self.lines)

    def next(self, d):
        for i, (u, a, after, before) in enumerate(self.lines):
            if (after is None or d >= after) and (before is None or d <= before):
                del self.lines[i]
                return u, a
        return None


# --------------------------------------------------------------------------------------------------
# questions
# --------------------------------------------------------------------------------------------------

QUESTIONS: dict[str, list[dict]] = defaultdict(list)


def add_q(h: History, text, family, qtype, gold, answer, evidence=()):
    ev = sorted(set(evidence), key=lambda rid: h.order[rid])
    n = len(QUESTIONS[h.name]) + 1
    QUESTIONS[h.name].append({
        "question_id": f"cg-{h.name}-{n:02d}", "history": h.name, "question": text, "answer": answer,
        "type": qtype, "family": family, "question_time": h.qtime, "evidence": ev, "gold": gold})


def nonempty(rows, what=""):
    assert rows, ("empty selection", what)
    return rows


def total(rows, f):
    return r4(sum(r[f] for r in nonempty(rows, f)))


def mean(rows, f):
    rows = nonempty([r for r in rows if r.get(f) is not None], f)
    return r4(sum(r[f] for r in rows) / len(rows))


def rids(rows, *more):
    return [r["rid"] for r in rows] + [m["rid"] for m in more]


def top_group(rows, key, f=None, lowest=False):
    """The unique top (or bottom) group of rows by sum of f (count when f is None)."""
    agg = defaultdict(float)
    for r in nonempty(rows, key):
        agg[r[key]] += 1 if f is None else r[f]
    ranked = sorted(agg.items(), key=lambda kv: kv[1], reverse=not lowest)
    assert len(ranked) >= 2, ("one group only", key)
    assert abs(ranked[0][1] - ranked[1][1]) > 1e-9, ("top group not unique", ranked[:3])
    return ranked[0][0], ranked[0][1], agg


def unans(h, text, why, evidence=()):
    add_q(h, text, "unanswerable", "unanswerable." + why, {"unanswerable": True},
          "There is no such data in the memory.", evidence)


# ==================================================================================================
# 1. atlantis: a planted community tank called Atlantis (Jan 12 - Apr 10 2026)
# ==================================================================================================

def make_atlantis():
    h = History("atlantis", "mireille", "2026-01-12", "2026-04-10", "2026-04-11T09:30:00", seed=7311)
    rng = h.rng
    TANK_L = 120
    trip = (D("2026-02-20"), D("2026-03-01"))
    ich = (D("2026-03-25"), D("2026-04-02"))

    # ---- events ---------------------------------------------------------------------------------
    h.event("power", D("2026-01-24"), "08:40",
            "The storm took our power out at about six this morning and it's still off. Filter and heater "
            "both dead, so I've wrapped Atlantis in a duvet and I'm checking on the fish every hour. Ugh.",
            "That's stressful, but a duvet is genuinely the right move: insulation slows the heat loss a lot. "
            "Keep the lid on, skip feeding today so there's less waste without the filter running, and "
            "don't worry about the bacteria too much, a few hours without flow is usually fine.")
    h.event("co2", D("2026-02-06"), "19:20",
            "Set up the CO2 diffuser on Atlantis this evening! Bubble counter ticking along at about one "
            "bubble a second, drop checker on the back glass. Fingers crossed the plants love it.",
            "Exciting! Give the drop checker a couple of hours to settle before judging it, and watch the "
            "fish at the surface over the next few days. If anyone gasps, ease the bubble rate down.")
    h.event("away", trip[0], "06:15",
            "At the airport, off to Tenerife for ten days! Maud from next door has the feeding schedule and "
            "the little pill-box of portions, so Atlantis is in her hands now.",
            "Have a wonderful trip! Pre-portioned food is the best way to stop over-feeding while you're "
            "away. Enjoy the sun and try not to check the tank camera every hour.")
    h.event("back", trip[1], "22:05",
            "Back home from Tenerife tonight. First thing I did, before even taking my coat off, was look at "
            "Atlantis. Everyone's alive, plants are a jungle, glass is a bit green.",
            "Welcome back! A bit of algae after ten days is completely normal. A good glass scrape and a "
            "water change in the next day or two will get things back on track.")
    h.event("tetra", D("2026-03-12"), "07:50",
            "Found one of the rummynose tetras dead this morning, stuck behind the filter intake. The rest of "
            "the school looks normal. Feeling a bit rubbish about it.",
            "I'm sorry, that's never nice to find. Take it out, keep an eye on the others for a few days, and "
            "test the water tomorrow since a body in the tank can give the ammonia a bump.")
    h.event("ich", ich[0], "18:30",
            "White spots on both honey gouramis tonight. It's ich. I've started treatment: heat going up "
            "slowly and the first dose of medication is in.",
            "Good that you caught it early. Raise the temperature gradually, keep the lights dimmer, and do "
            "the water changes between doses the medication instructions ask for. Remove carbon from the "
            "filter if you use any.")
    h.event("ich_end", ich[1], "20:10",
            "Last dose went in this morning and the ich treatment is officially finished. Both gouramis are "
            "clear. Bringing the heat back down over the next few days.",
            "Brilliant news! Bring it down slowly, a degree or so a day, and keep an eye out for any "
            "stragglers over the next week.")

    # later mentions that date the events
    h.say(D("2026-01-31"), "10:05",
          "A week since the power cut and honestly the plants don't seem bothered at all. The cardinal "
          "tetras are colouring up nicely again.",
          "That's a good sign that nothing crashed. Colour coming back is usually the best stress indicator.")
    h.say(D("2026-02-16"), "20:45",
          "Ten days with CO2 now and the carpet plants are pearling every afternoon. It's mesmerising.",
          "Pearling is such a nice reward. It means photosynthesis is outpacing what the water can hold.")
    h.say(D("2026-03-19"), "19:40",
          "A week since we lost the tetra and the rest of the school are fine. I think it was just old.",
          "That's reassuring. Rummynose live a good few years but an older fish can just go.")
    h.say(D("2026-03-27"), "08:05",
          "Day three of the ich treatment. Spots are fewer on the bigger gourami, the small one still has a "
          "couple on its fins.",
          "That sounds like it's working. The free-swimming stage is what the medication hits, so spots "
          "dropping off is exactly what you want to see.")

    # ---- water changes --------------------------------------------------------------------------
    no_change = {D("2026-01-24"), D("2026-03-12"), ich[0], ich[1]}
    change_days = set()
    wk = monday(h.start)
    while wk <= h.end:
        if rng.random() < 0.95:
            change_days.add(wk + dt.timedelta(days=pick(rng, [5, 6])))
        if rng.random() < 0.3:
            change_days.add(wk + dt.timedelta(days=pick(rng, [1, 2, 3])))
        wk += dt.timedelta(days=7)
    change_days = {d for d in change_days if h.start <= d <= h.end and not (trip[0] <= d <= trip[1])}
    change_days = {d for d in change_days if not (ich[0] <= d <= ich[1])}
    change_days -= no_change
    change_days |= {D("2026-01-25"), D("2026-03-02"), D("2026-03-27"), D("2026-03-29"), D("2026-03-31")}
    change_litres = {}
    for d in sorted(change_days):
        change_litres[d] = pick(rng, [18, 20, 24, 24, 30, 30, 36])
    change_litres[D("2026-01-25")] = 36
    change_litres[D("2026-03-02")] = 40
    for d in (D("2026-03-27"), D("2026-03-29"), D("2026-03-31")):
        change_litres[d] = 30

    lead_change = {"any": ["", "", "", "Water change done.", "Right, water change logged:", "Done the weekly one."],
                   "weekend_morning": ["Weekend chores:", "Tank maintenance this morning."],
                   "weekday_morning": ["Quick one before work.", "Before work:"],
                   "evening": ["Did it after work.", "Evening maintenance:"]}
    ack_change = ["Noted, thanks.", "Logged. Nice consistent routine.", "Got it. Remember to match the "
                  "temperature of the new water.", "Saved. Your nitrates will thank you.",
                  "Noted. Did you vacuum the gravel too?", "Logged it.", "Perfect, that's in.",
                  "Thanks, recorded."]

    def fmt_change(d, hm, litres):
        pct = round(litres / TANK_L * 100)
        style = rng.randrange(6)
        lead = lead_in(rng, d, hm, lead_change)
        when = "this morning" if slot(hm) == "morning" else ("this evening" if slot(hm) == "evening" else "today")
        if style == 0:
            body = f"Water change\nVolume: {litres} L\nPercent: {pct} %"
        elif style == 1:
            body = f"did a {pct}% water change, about {litres} L"
        elif style == 2:
            body = f"Water change | {litres} L | {pct}%"
        elif style == 3:
            body = f"[AquaLog] {d.isoformat()} Atlantis water change: {litres} L ({pct} %)"
        elif style == 4:
            body = f"Swapped out {litres} litres of water {when}, dechlorinated and temperature matched."
        else:
            body = f"Water change: {litres} L out, {litres} L fresh in."
        return (lead + "\n" + body).strip() if lead else body

    for d in sorted(change_litres):
        hm = pick(rng, ["09:30", "10:15", "11:00"]) if d.weekday() >= 5 else pick(rng, ["07:20", "18:40", "19:30"])
        if d in (D("2026-03-27"),):
            hm = "09:10"
        h.record("change", d, hm, fmt_change(d, hm, change_litres[d]), pick(rng, ack_change),
                 litres=change_litres[d], percent=round(change_litres[d] / TANK_L * 100))

    # ---- water tests ----------------------------------------------------------------------------
    no_test = {D("2026-02-06"), trip[0], trip[1], D("2026-03-08"), D("2026-03-09"), D("2026-03-12"),
               D("2026-03-13")}
    forced = {D("2026-01-24"), D("2026-03-27"), D("2026-03-03"), D("2026-03-05"), D("2026-02-09"),
              D("2026-02-13"), D("2026-02-18"), D("2026-03-14"), D("2026-01-13")}
    test_days = []
    for d in span(h.start, h.end):
        if trip[0] <= d <= trip[1] or d in no_test:
            continue
        if d in forced or rng.random() < 0.4:
            test_days.append(d)

    def last_change_before(d):
        prev = [c for c in change_litres if c <= d]
        return max(prev) if prev else h.start - dt.timedelta(days=3)

    lead_test = {"any": ["", "", "", "Weekly-ish test results.", "Numbers from today's test:", "Test kit out again:"],
                 "morning": ["Water test this morning.", "Tested before breakfast:"],
                 "evening": ["Tested tonight:", "Did the drops after dinner."]}
    ack_test = ["Thanks, saved.", "Logged. All looks within a safe range.", "Noted, nothing alarming there.",
                "Got it, recorded for the tank.", "Saved. Plants seem to be doing their job.",
                "Logged. Keep an eye on the trend rather than any single reading.", "Recorded.",
                "Noted. Steady is good."]

    def fmt_test(d, hm, t):
        ph, am, no3, temp = t["ph"], t.get("ammonia"), t.get("nitrate"), t["temp"]
        if am is None:
            return pick(rng, [
                f"Quick check, no time for the full kit. pH: {ph}\nTemp: {temp} °C",
                f"Just pH and temperature today: pH {ph}, {temp}°C",
                f"Atlantis quick check | pH {ph} | {temp} °C",
            ])
        style = rng.randrange(5)
        lead = lead_in(rng, d, hm, lead_test)
        if style == 0:
            body = f"pH: {ph}\nAmmonia: {am:g} ppm\nNitrate: {no3} ppm\nTemp: {temp} °C"
        elif style == 1:
            body = f"pH {ph}, ammonia {am:g} ppm, nitrate {no3} ppm, temp {temp}°C"
        elif style == 2:
            body = f"Atlantis | pH {ph} | NH3 {am:.2f} ppm | NO3 {no3} ppm | {temp} °C"
        elif style == 3:
            body = (f"[AquaLog export] {d.isoformat()} {earlier(rng, hm)} Atlantis: "
                    f"pH={ph}; ammonia={am:.2f} ppm; nitrate={no3} ppm; temp={temp} °C")
        else:
            amw = "zero ammonia" if am == 0 else f"ammonia at {am:g} ppm"
            opener = ("Tested after work" if slot(hm) == "evening" and d.weekday() < 5 else
                      "Tested this morning" if slot(hm) == "morning" else "Tested today")
            lead = ""
            body = (f"{opener}: pH {ph}, {amw}, nitrate about {no3} ppm, and the thermometer "
                    f"says {temp} degrees.")
        return (lead + "\n" + body).strip() if lead else body

    for d in test_days:
        co2 = d > D("2026-02-06")
        ph = pick(rng, [6.7, 6.8, 6.8, 6.9]) if co2 else pick(rng, [7.3, 7.4, 7.4, 7.5])
        if d > trip[1] and d <= D("2026-03-04"):
            ph = 7.0  # CO2 bottle ran low while away
        since = (d - last_change_before(d)).days
        no3 = min(40, max(5, int(round((8 + 3.2 * since + rng.uniform(-3, 3)) / 5.0)) * 5))
        am = 0.25 if rng.random() < 0.15 else 0.0
        if d == D("2026-03-14"):
            am = 0.5
        temp = round(25.0 + rng.uniform(-0.5, 0.5), 1)
        if ich[0] < d <= ich[1]:
            temp = round(pick(rng, [29.6, 29.8, 30.0, 30.2]), 1)
        if ich[1] < d <= ich[1] + 5 * ONE:
            temp = round(30.0 - 1.0 * (d - ich[1]).days + rng.uniform(-0.2, 0.2), 1)
        if d == D("2026-01-24"):
            temp = 21.6
        if d == D("2026-01-25"):
            temp = 24.2
        if d == D("2026-03-27"):
            temp = 30.1
        t = {"ph": ph, "ammonia": am, "nitrate": no3, "temp": temp}
        if d not in forced and rng.random() < 0.2:
            t = {"ph": ph, "temp": temp}
        hm = pick(rng, ["07:40", "19:15", "20:30", "21:10"])
        if d == D("2026-01-24"):
            hm, text = "21:30", (f"Power came back around two. Tank's been creeping back up all evening. "
                                 f"Quick check before bed:\nTemp: {temp} °C\npH: {ph}")
            t = {"ph": ph, "temp": temp}
        elif d == D("2026-03-27"):
            hm = "08:40"
            text = fmt_test(d, hm, t)
        else:
            text = fmt_test(d, hm, t)
        h.record("test", d, hm, text, pick(rng, ack_test), ph=t["ph"], ammonia=t.get("ammonia"),
                 nitrate=t.get("nitrate"), temp=t["temp"])

    # ---- purchases ------------------------------------------------------------------------------
    purchases = [
        ("2026-01-13", "Fishy Business", "a gravel vacuum", 16.00),
        ("2026-01-14", "Blue Reef Aquatics", "6 rummynose tetras", 21.00),
        ("2026-01-17", "Aquatopia", "an Amazon sword and two java ferns", 14.50),
        ("2026-01-21", "ZooPlus", "flake food and sinking pellets", 18.90),
        ("2026-01-28", "Blue Reef Aquatics", "a spare air pump", 24.00),
        ("2026-02-04", "Aquatopia", "a CO2 diffuser kit", 89.00),
        ("2026-02-11", "Blue Reef Aquatics", "3 honey gouramis", 22.50),
        ("2026-02-14", "ZooPlus", "a master test kit refill", 32.99),
        ("2026-03-03", "Fishy Business", "5 Amano shrimp", 17.50),
        ("2026-03-07", "Aquatopia", "Monte Carlo carpet plants", 11.00),
        ("2026-03-14", "Blue Reef Aquatics", "4 rummynose tetras", 14.00),
        ("2026-03-18", "ZooPlus", "frozen bloodworm", 9.80),
        ("2026-03-25", "Fishy Business", "ich medication", 12.95),
        ("2026-03-30", "Fishy Business", "a UV steriliser", 45.00),
        ("2026-04-04", "Blue Reef Aquatics", "java moss and a bristlenose pleco", 19.00),
        ("2026-04-08", "ZooPlus", "flake food", 8.49),
    ]
    ack_buy = ["Nice! Quarantine the new arrivals if you can.", "Noted, added to the tank spending.",
               "Logged. That should make a difference.", "Got it, saved.", "Recorded, thanks.",
               "Ooh, good pick. Saved.", "Noted.", "Logged it under Atlantis."]

    def fmt_buy(d, shop, item, cost):
        style = rng.randrange(5)
        if shop == "ZooPlus":  # an online shop
            style = pick(rng, [2, 3, 5])
        if style == 5:
            return f"Online order from {shop} arrived: {item}, €{cost:.2f} including delivery."
        if style == 0:
            return f"Bought at {shop}: {item}, €{cost:.2f}"
        if style == 1:
            return f"Receipt for the tank stuff:\nShop: {shop}\nItem: {item}\nCost: {cost:.2f} EUR"
        if style == 2:
            return f"{shop} | {item} | €{cost:.2f}"
        if style == 3:
            return f"Order confirmation {d.strftime('%d/%m/%Y')} - {shop} - {item} - total €{cost:.2f}"
        return f"Popped into {shop} on the way home and came out with {item}, €{cost:.2f} all in."

    for ds, shop, item, cost in purchases:
        d = D(ds)
        hm = "17:45" if d.weekday() < 5 else "13:20"
        if d == ich[0]:
            hm = "12:30"
        h.record("buy", d, hm, fmt_buy(d, shop, item, cost), pick(rng, ack_buy), shop=shop, item=item, cost=cost)

    # ---- filler ---------------------------------------------------------------------------------
    filler = Filler(rng, [
        ("Do otocinclus get along with cardinal tetras?", "Yes, they're peaceful and ignore each other. Otos want a mature tank with some biofilm, though."),
        ("The java fern has little baby plants on its leaves. Can I cut them off?", "Yes, once they have a few roots you can pull them off and tie them to wood or rock.", "2026-02-10"),
        ("My partner says the tank hum keeps him awake. Any ideas?", "Check the air pump first: standing it on a folded towel or a sponge often kills most of the noise."),
        ("Is it bad that the gouramis keep going to the surface?", "Gouramis breathe air from the surface as normal behaviour, so it's usually fine unless they're gasping constantly.", "2026-02-12"),
        ("Thinking about a background for the back glass. Black or blue?", "Black tends to make colours pop and hides cables. Blue looks more 'ocean' but can wash out red fish."),
        ("What's the best way to clean the glass without scratching it?", "A magnetic cleaner or a plastic-bladed scraper. Keep sand out of the way so it doesn't get dragged."),
        ("The Amazon sword is melting a bit. Normal?", "Quite common after planting. It usually sheds old leaves and grows new ones once settled.", "2026-01-19"),
        ("Any tips for catching a fish without stressing everyone out?", "Two nets: one to guide, one to catch. Lights off and slow movements help a lot."),
        ("Should I turn the light off when I'm at work all day?", "A timer is ideal. Around eight hours of light keeps plants happy and algae in check."),
        ("There's a snail in the tank I definitely didn't buy!", "Hitchhikers on plants are very common. One or two are harmless; a boom usually means overfeeding.", "2026-01-19"),
        ("How often should I rinse the filter sponge?", "Every few weeks, in old tank water rather than tap water, so you keep the bacteria."),
        ("My friend wants to start a tank. What size would you tell a beginner?", "Bigger than they think. Larger volumes are more stable, so a bigger tank is actually the kinder start."),
        ("Just watched the tetras school instead of doing the dishes.", "Honestly that's the best part of keeping a tank."),
        ("Is driftwood supposed to make the water brown?", "Yes, tannins leach out. It's harmless and many fish like it; boiling the wood reduces it."),
        ("The bristlenose has already found the driftwood. Do they actually eat it?", "They rasp at it, and it helps their digestion, so it's a good thing to have in there.", "2026-04-05"),
        ("Can I feed the shrimp the same flakes as the fish?", "They'll scavenge leftovers happily; a sinking pellet now and then helps.", "2026-03-04"),
        ("Ordered a new lid, mine has a crack in the corner.", "Good call. Gouramis and tetras can jump, so a full lid is worth it."),
        ("What do you think of adding a few corydoras later?", "They'd suit a planted community tank well; keep them in a group and give them soft sand."),
        ("Rearranged the rocks a bit, now the tank looks totally different.", "Fun! Give everyone a day to re-map their territories."),
        ("How do I know if the CO2 is too high?", "Fish gasping at the surface and a yellow drop checker are the warning signs. Turn it down if you see either.", "2026-02-07"),
        ("I keep thinking about a second tank.", "The classic slope! Maybe let this one settle into a routine first."),
        ("Why does the water look cloudy after I feed?", "Usually too much food breaking down. Try smaller portions and see if it clears."),
        ("Lights came on at the wrong time today, the timer must have drifted.", "Mechanical timers do slip. A cheap digital one holds time better."),
        ("The cardinals are so much bluer in the evening.", "Their iridescence changes with the light angle, it's lovely."),
        ("How are rummynose different from cardinals to keep?", "Rummynose like it a touch warmer and are a good water-quality warning: their red noses fade when something's off.", "2026-01-15"),
        ("Any good plants that don't need much light?", "Java fern, anubias, cryptocorynes and mosses all cope with low light."),
        ("Is it okay to use tap water if I add conditioner?", "Yes, a good dechlorinator makes tap water safe; just match the temperature."),
        ("Bit of brown dust on the leaves. Should I worry?", "Probably diatoms. They're common in younger tanks and usually fade; otos and snails love them."),
        ("How long can fish go without food, realistically?", "Healthy adult fish cope with a week or so, but a neighbour with pre-portioned food is kinder for longer trips.", None),
        ("My cat sits in front of the tank like it's television.", "Fish TV is a classic. Just keep the lid secure."),
        ("What do I do with the old tank water?", "Houseplants love it, it's full of nutrients."),
        ("I think the bigger gourami is building a bubble nest?", "Males build nests when they're comfortable, which is a nice sign.", "2026-03-03"),
        ("Would a leaf-litter look work in my tank?", "Catappa leaves add tannins and hiding spots, and tetras tend to love them."),
        ("How do I stop the carpet plants floating up?", "Plant small portions deep with tweezers, and trim rather than pull.", "2026-03-08"),
        ("Is a UV steriliser actually worth it?", "It helps with green water and some free-floating pathogens, but it's not a cure-all.", "2026-03-26"),
        ("The afternoon sun hits the tank and it looks incredible.", "Lovely, but daily direct sun can fuel algae, so keep an eye on it."),
        ("How do I tell if a fish is stressed?", "Clamped fins, faded colours, hiding and rapid breathing are the usual signs."),
        ("Do I need to quarantine plants?", "A quick rinse and a look for snails is usually enough; some people give them a dip."),
        ("The shrimp are hoovering the rocks all day, so cute.", "Amanos are tireless little cleaners.", "2026-03-05"),
        ("Would you put a lid light on a timer with a sunrise mode?", "A gradual ramp is gentler on the fish than lights snapping on."),
    ])
    busy = {d for d in h.items}
    for d in span(h.start, h.end):
        if trip[0] < d < trip[1]:
            continue
        p = 0.35 if d in busy else 0.6
        if rng.random() < p:
            x = filler.next(d)
            if x:
                h.say(d, pick(rng, ["12:10", "13:40", "22:15"]), *x)
    h.build()

    # ---- questions --------------------------------------------------------------------------------
    E = h.evd
    jan = ("2026-01-01", "2026-01-31")
    feb = ("2026-02-01", "2026-02-28")
    mar = ("2026-03-01", "2026-03-31")

    rows = h.sel("change", *jan)
    v = total(rows, "litres")
    add_q(h, "how many litres of water did I change in January altogether?", "plain_aggregate",
          "analytic.sum", {"value": v, "unit": "L"}, f"{num(v)} L", rids(rows))

    rows = h.sel("test", *mar, field="nitrate")
    v = mean(rows, "nitrate")
    add_q(h, "What was my average nitrate reading in March?", "plain_aggregate", "analytic.avg",
          {"value": v, "unit": "ppm"}, f"{v:.2f} ppm", rids(rows))

    rows = h.sel("test", *mar, field="ammonia")
    v = max(r["ammonia"] for r in nonempty(rows))
    add_q(h, "highest ammonia I measured last month?", "plain_aggregate", "analytic.max",
          {"value": v, "unit": "ppm"}, f"{v:g} ppm", rids([r for r in rows if r["ammonia"] == v]))

    h.clear("test", "2026-03-12", "2026-03-13")
    rows = h.sel("test", "2026-03-13", "2026-04-11")
    add_q(h, "How many water tests have I done in the last 30 days?", "plain_aggregate", "analytic.count",
          {"value": len(nonempty(rows)), "unit": None}, f"{len(rows)}", rids(rows))

    rows = h.sel("buy", *feb)
    v = total(rows, "cost")
    add_q(h, "What did Atlantis cost me in February, all the purchases together?", "named_subject",
          "analytic.sum", {"value": v, "unit": "EUR"}, f"€{money(v)}", rids(rows))

    rows = h.sel("test", field="ph")
    v = min(r["ph"] for r in rows)
    add_q(h, "what's the lowest pH atlantis has ever tested at?", "named_subject", "analytic.min",
          {"value": v, "unit": None}, f"{v}", rids([r for r in rows if r["ph"] == v]))

    rows = h.sel("test", *jan, field="temp")
    v = mean(rows, "temp")
    add_q(h, "Roughly what temperature was Atlantis running at on average in January, in °C?", "named_subject",
          "analytic.avg", {"value": v, "unit": "°C"}, f"{v:.2f} °C", rids(rows))

    h.clear("test", E("co2"), E("away"))
    rows = h.sel("test", E("co2") + ONE, E("away") - ONE, field="ph")
    v = mean(rows, "ph")
    add_q(h, "What was the average pH between setting up the CO2 and flying out to Tenerife?", "event_bounded",
          "analytic.avg.between", {"value": v, "unit": None}, f"{v:.2f}", rids(rows, h.ev("co2"), h.ev("away")))

    h.clear("change", E("tetra"))
    rows = h.sel("change", E("tetra") + ONE, "2026-04-11")
    v = total(rows, "litres")
    add_q(h, "How many litres have I swapped out since we lost the tetra?", "event_bounded", "analytic.sum.since",
          {"value": v, "unit": "L"}, f"{num(v)} L", rids(rows, h.ev("tetra")))

    rows = h.sel("test", E("power"), E("power"), field="temp")
    assert len(rows) == 1
    v = rows[0]["temp"]
    add_q(h, "do you remember what temperature the water was on the day of the power cut?", "event_bounded",
          "analytic.value.on_event", {"value": v, "unit": "°C"}, f"{v} °C", rids(rows, h.ev("power")))

    h.clear("change", E("ich"), E("ich_end"))
    rows = h.sel("change", E("ich") + ONE, E("ich_end") - ONE)
    add_q(h, "how many water changes did I do during the ich treatment?", "event_bounded",
          "analytic.count.between", {"value": len(nonempty(rows)), "unit": None}, f"{len(rows)}",
          rids(rows, h.ev("ich"), h.ev("ich_end")))

    h.clear("test", E("back"), E("back") + 7 * ONE, E("back") + 8 * ONE)
    rows = h.sel("test", E("back") + ONE, E("back") + 6 * ONE, field="nitrate")
    v = max(r["nitrate"] for r in nonempty(rows))
    add_q(h, "In the week after I got back from Tenerife, what was the highest nitrate reading?",
          "event_bounded", "analytic.max.week_after", {"value": v, "unit": "ppm"}, f"{v} ppm",
          rids([r for r in rows if r["nitrate"] == v], h.ev("back")))

    day3 = E("ich") + 2 * ONE
    rows = h.sel("test", day3, day3, field="temp")
    assert len(rows) == 1
    v = rows[0]["temp"]
    add_q(h, "What did the thermometer say on day three of the ich treatment?", "event_bounded",
          "analytic.value.event_day_n", {"value": v, "unit": "°C"}, f"{v} °C", rids(rows, h.ev("ich")))

    h.clear("buy", E("tetra"))
    rows = h.sel("buy", E("tetra") + ONE)
    first = nonempty(rows)[0]
    add_q(h, "Which shop did I buy from first after the tetra died?", "event_first_last", "analytic.first_after.text",
          {"text": first["shop"]}, first["shop"], rids([first], h.ev("tetra")))

    rows = h.sel("test", None, E("away") - ONE, field="nitrate")
    last = nonempty(rows)[-1]
    add_q(h, "what was the last nitrate reading before I left for Tenerife?", "event_first_last",
          "analytic.last_before.value", {"value": last["nitrate"], "unit": "ppm"}, f"{last['nitrate']} ppm",
          rids([last], h.ev("away")))

    h.clear("change", E("power"))
    rows = h.sel("change", E("power") + ONE)
    first = nonempty(rows)[0]
    add_q(h, "How big was the first water change after the power cut, in litres?", "event_first_last",
          "analytic.first_after.value", {"value": first["litres"], "unit": "L"}, f"{first['litres']} L",
          rids([first], h.ev("power")))

    a_rows, b_rows = h.sel("change", *mar), h.sel("change", *feb)
    a, b = total(a_rows, "litres"), total(b_rows, "litres")
    assert a != b
    add_q(h, "Did I change more water in March than in February?", "comparison", "analytic.compare.yes_no",
          {"yes_no": a > b}, ("Yes" if a > b else "No") + f" ({num(a)} L vs {num(b)} L)", rids(a_rows + b_rows))

    a_rows, b_rows = h.sel("buy", *jan), h.sel("buy", *mar)
    a, b = total(a_rows, "cost"), total(b_rows, "cost")
    v = r4((b - a) / a * 100)
    add_q(h, "By what percent did my spending on the tank change from January to March?", "comparison",
          "analytic.compare.percent_change", {"value": v, "unit": "%"}, f"{v:+.2f} %", rids(a_rows + b_rows))

    rows = h.sel("buy")
    g, gv, agg = top_group(rows, "shop", "cost")
    add_q(h, "Which shop have I spent the most money at?", "group_rank", "analytic.rank.top_group",
          {"group": g}, g, rids([r for r in rows if r["shop"] == g]))

    rows = h.sel("change")
    for r in rows:
        r["week"] = monday(r["date"]).isoformat()
    g, gv, agg = top_group(rows, "week", "litres")
    add_q(h, "which week did I change the most water? just give me the monday", "group_rank",
          "analytic.rank.top_week", {"period": g, "bucket": "week"}, g, rids([r for r in rows if r["week"] == g]))

    rows = h.sel("buy")
    for r in rows:
        r["month"] = r["date"].strftime("%Y-%m")
    g, gv, agg = top_group(rows, "month", "cost")
    add_q(h, "In which month did the tank cost me the most?", "group_rank", "analytic.rank.top_month",
          {"period": g, "bucket": "month"}, dt.date.fromisoformat(g + "-01").strftime("%B %Y"),
          rids([r for r in rows if r["month"] == g]))

    rows = h.sel("buy")
    g, cnt, _ = top_group(rows, "shop")
    sub = [r for r in rows if r["shop"] == g]
    v = total(sub, "cost")
    add_q(h, "How much have I spent in total at the shop I go to most often?", "top_group_measure",
          "analytic.top_group.sum", {"value": v, "unit": "EUR"}, f"€{money(v)} ({g})", rids(sub))

    rows = h.sel("buy")
    sub = [r for r in rows if r["shop"] == "Blue Reef Aquatics"]
    v = r4(total(sub, "cost") / total(rows, "cost") * 100)
    add_q(h, "What percentage of my tank spending went to Blue Reef Aquatics?", "share", "analytic.share",
          {"value": v, "unit": "%"}, f"{v:.2f} %", rids(rows))

    # ---- unanswerable ---------------------------------------------------------------------------
    h.absent("phosphate", "po4")
    unans(h, "What was the average phosphate level in February?", "measure_never_recorded")
    assert not h.sel("test", E("away"), E("back"))
    unans(h, "what was the average water temp while I was away in Tenerife?", "period_no_data",
          [h.ev("away")["rid"], h.ev("back")["rid"]])
    h.absent("leak", "sprang")
    unans(h, "How many litres have I changed since the tank sprang a leak?", "event_never_happened")
    h.absent("pets corner")
    assert not h.sel("buy", shop="Pets Corner")
    unans(h, "how much did I spend at Pets Corner?", "group_does_not_exist")
    assert not [r for r in h.records if r["kind"] == "test" and r.get("ammonia") == 2.0]
    unans(h, "On which day did the ammonia hit 2 ppm?", "value_no_row_holds")
    h.absent("lucas", "nano")
    unans(h, "How many litres did I change in Lucas's nano tank in March?", "name_not_in_memory")
    assert not h.sel("test", "2025-12-01", "2025-12-31")
    h.absent("december")
    unans(h, "What was the highest nitrate reading in December?", "period_no_data")
    return h


# ==================================================================================================
# 2. lingua: a freelance translator (Aug 3 - Oct 30 2026)
# ==================================================================================================

def make_lingua():
    h = History("lingua", "tomasz", "2026-08-03", "2026-10-30", "2026-10-31T10:00:00", seed=4420)
    rng = h.rng
    lisbon = (D("2026-09-21"), D("2026-09-25"))
    flu = (D("2026-10-14"), D("2026-10-20"))

    h.event("brightline", D("2026-08-17"), "10:20",
            "Signed the framework contract with Brightline Games this morning! Proper game localisation work "
            "at last, they want me on their German-to-English dialogue from now on.",
            "Congratulations, that's a big one! A framework contract means steadier work. It might be worth "
            "setting up a glossary and style sheet with them early so the terminology stays consistent.")
    h.event("laptop", D("2026-09-02"), "08:35",
            "My laptop died this morning. Black screen, fans spinning, won't boot. Of course it's the week "
            "with two deadlines. Backups are in the cloud at least.",
            "Oh no, rotten timing. Good that your backups are in the cloud. If you need to keep working "
            "today, a library computer or a borrowed machine with the web version of your CAT tool can "
            "bridge the gap.")
    h.event("lisbon", lisbon[0], "06:50",
            "At the airport, off to Lisbon for the translators' conference. Out-of-office is on, phone "
            "stays in airplane mode as long as I can manage.",
            "Have a great conference! Enjoy the networking, and the pastéis de nata.")
    h.event("lisbon_back", lisbon[1], "21:40",
            "Back from Lisbon. Full head, empty suitcase of clean clothes. Met two agency people who might "
            "send work my way.",
            "Welcome back! Sounds productive. Follow up with those contacts while the conversation is "
            "still fresh.")
    h.event("hive", D("2026-10-05"), "09:05",
            "First day working from Hive, the coworking place on Dock Street. Free trial day today, "
            "proper desk, good coffee, nobody's washing machine spinning behind me.",
            "That sounds like a great change of scene. Notice how your focus feels after a few days "
            "there compared with working from home.")
    h.event("flu", flu[0], "07:30",
            "Woke up with a fever and aching everywhere. Pretty sure it's the flu. Emailed my clients, "
            "nothing's getting translated today.",
            "Rest and fluids. Clients generally understand illness if you tell them early, as you did. "
            "Don't try to work through a fever.")
    h.event("flu_end", flu[1], "09:00",
            "Finally back on my feet today, the flu's done with me. Still a bit slow but human again.",
            "Glad you're feeling better! Ease back in gently this week.")

    h.say(D("2026-08-24"), "12:30",
          "A week since signing with Brightline and the string files are already piling up in my inbox.",
          "A good problem to have! Batch them by character or scene if the files allow.")
    h.say(D("2026-10-12"), "18:20",
          "A week since I started at Hive and I'm getting more done before lunch than I used to all day.",
          "That's a strong endorsement for the membership.")
    h.say(D("2026-10-16"), "14:10",
          "Day three of this flu. Managed a little bit of light proofreading from the sofa but that's it.",
          "Don't push it. Light tasks are fine if you feel up to them, but rest comes first.")

    clients = ["Hartmann Legal", "Nordlicht Media", "Verbum Agency", "Ostsee Pharma", "Brightline Games"]
    tasks = {"Hartmann Legal": ["contract review", "supply agreement", "terms and conditions"],
             "Nordlicht Media": ["documentary subtitles", "subtitle timing pass", "press kit"],
             "Verbum Agency": ["website copy", "product descriptions", "brochure"],
             "Ostsee Pharma": ["patient leaflet", "packaging texts", "leaflet QA"],
             "Brightline Games": ["dialogue strings", "UI strings", "quest texts"]}
    rates = {"Hartmann Legal": 0.14, "Nordlicht Media": 0.10, "Verbum Agency": 0.09, "Ostsee Pharma": 0.13,
             "Brightline Games": 0.11}

    # ---- invoices ---------------------------------------------------------------------------------
    invoices = [
        ("2026-08-05", "Verbum Agency", 3800), ("2026-08-07", "Hartmann Legal", 5200),
        ("2026-08-12", "Nordlicht Media", 6500), ("2026-08-14", "Ostsee Pharma", 2900),
        ("2026-08-21", "Verbum Agency", 4100), ("2026-08-26", "Brightline Games", 7400),
        ("2026-08-31", "Hartmann Legal", 3300), ("2026-09-04", "Nordlicht Media", 5800),
        ("2026-09-10", "Ostsee Pharma", 6200), ("2026-09-15", "Brightline Games", 9000),
        ("2026-09-18", "Verbum Agency", 2700), ("2026-09-29", "Hartmann Legal", 4800),
        ("2026-10-02", "Nordlicht Media", 3900), ("2026-10-08", "Ostsee Pharma", 5500),
        ("2026-10-13", "Brightline Games", 6800), ("2026-10-21", "Verbum Agency", 3100),
        ("2026-10-23", "Hartmann Legal", 6000), ("2026-10-26", "Hartmann Legal", 2100),
        ("2026-10-28", "Nordlicht Media", 4400),
    ]
    ack_inv = ["Noted. Nice to see that one go out.", "Logged the invoice.", "Saved. Fingers crossed they pay "
               "on time.", "Recorded, thanks.", "Got it.", "Logged. Do you want a reminder if it's not paid "
               "in thirty days?", "Noted in your invoice log.", "Saved."]
    inv_no = 31

    def fmt_inv(d, client, words, amount, no):
        style = rng.randrange(5)
        w_comma = f"{words:,}"
        if style == 0:
            return f"Invoice INV-2026-{no:03d} sent to {client}: {w_comma} words, €{amount:.2f}"
        if style == 1:
            return f"Sent another invoice.\nClient: {client}\nWords: {words}\nAmount: {amount:.2f} EUR"
        if style == 2:
            return f"INV-2026-{no:03d} | {client} | {w_comma} words | {amount:.2f} EUR"
        if style == 3:
            return (f"Invoice export {d.isoformat()}: client={client}; words={words}; total={amount:.2f} EUR; "
                    f"status=sent")
        return (f"Just billed {client} for the {pick(rng, tasks[client])} job, {w_comma} words, comes to "
                f"€{amount:.2f}.")

    for ds, client, words in invoices:
        d = D(ds)
        amount = round(words * rates[client], 2)
        h.record("invoice", d, pick(rng, ["16:40", "17:30", "11:50"]), fmt_inv(d, client, words, amount, inv_no),
                 pick(rng, ack_inv), client=client, words=words, amount=amount)
        inv_no += 1

    # ---- expenses ---------------------------------------------------------------------------------
    expenses = [
        ("2026-08-04", "Trados Studio subscription", 39.00), ("2026-08-10", "DeepL Pro", 25.99),
        ("2026-08-19", "printer ink", 34.50), ("2026-08-27", "translators' association membership", 95.00),
        ("2026-09-02", "new laptop", 1149.00), ("2026-09-02", "external SSD", 89.00),
        ("2026-09-04", "Trados Studio subscription", 39.00), ("2026-09-14", "conference ticket", 260.00),
        ("2026-09-22", "hotel in Lisbon", 372.00), ("2026-09-23", "dinner with colleagues", 48.50),
        ("2026-09-24", "taxi to the venue", 22.00), ("2026-10-04", "Trados Studio subscription", 39.00),
        ("2026-10-06", "Hive monthly membership", 180.00), ("2026-10-19", "Duden dictionary bundle", 42.00),
        ("2026-10-27", "DeepL Pro", 25.99),
    ]
    ack_exp = ["Logged as a business expense.", "Noted, keep the receipt for the tax return.", "Saved.",
               "Recorded.", "Got it, that's deductible.", "Noted.", "Logged it."]

    def fmt_exp(d, item, amount):
        style = rng.randrange(5)
        if style == 0:
            return f"Expense: {item}, €{amount:.2f}"
        if style == 1:
            return f"Receipt - {item} - {amount:.2f} EUR"
        if style == 2:
            return f"Paid {amount:.2f} euros for the {item}."
        if style == 3:
            return f"expense | {d.isoformat()} | {item} | €{amount:.2f}"
        return f"Item: {item}\nAmount: {amount:.2f} EUR\nPaid by: business card"

    for ds, item, amount in expenses:
        d = D(ds)
        hm = pick(rng, ["13:05", "15:20", "19:10"])
        if d == D("2026-09-02"):
            hm = "14:00" if item == "new laptop" else "14:40"
        text = fmt_exp(d, item, amount)
        if d == D("2026-09-02") and item == "new laptop":
            text = "Couldn't face waiting for a repair. " + text
        h.record("expense", d, hm, text, pick(rng, ack_exp), item=item, amount=amount)

    # ---- hours ----------------------------------------------------------------------------------
    no_hours = {D("2026-09-02"), lisbon[0], D("2026-09-22"), D("2026-09-24"), lisbon[1], flu[0],
                D("2026-10-15"), D("2026-10-17"), D("2026-10-18"), flu[1]}
    forced_hours = {D("2026-09-23"): [("Brightline Games", 1.5)], D("2026-10-16"): [("Hartmann Legal", 1.0)],
                    D("2026-10-19"): [("Ostsee Pharma", 1.5)], D("2026-10-21"): [("Verbum Agency", 3.0),
                                                                                ("Hartmann Legal", 2.5)]}
    ack_hours = ["Logged.", "Noted on your timesheet.", "Saved, thanks.", "Got it.", "Recorded. Don't forget "
                 "breaks.", "Logged it against the client.", "Noted."]

    def fmt_hours(d, client, hrs):
        task = pick(rng, tasks[client])
        style = rng.randrange(5)
        unit = "hour" if hrs == 1 else "hours"
        if style == 0:
            return f"Timesheet: {client} - {hrs:g} h ({task})"
        if style == 1:
            return f"Logged {hrs:g} {unit} on the {client} {task} today."
        if style == 2:
            hh, mm = int(hrs), int(round((hrs - int(hrs)) * 60))
            dur = f"{hh}h {mm:02d}m" if mm else f"{hh}h"
            return f"Toggl export: {d.isoformat()} | {client} | {task} | {dur}"
        if style == 3:
            return f"Client: {client}\nTask: {task}\nHours: {hrs:g} h"
        return f"Spent about {hrs:g} {unit} on {client} stuff today, the {task}."

    for d in span(h.start, h.end):
        if d in no_hours:
            continue
        if d in forced_hours:
            logs = forced_hours[d]
        else:
            p = 0.85 if d.weekday() < 5 else (0.2 if d.weekday() == 5 else 0.0)
            if rng.random() >= p or (flu[0] <= d <= flu[1]):
                continue
            active = [c for c in clients if c != "Brightline Games" or d > D("2026-08-17")]
            n = 2 if rng.random() < 0.35 else 1
            wts = [1 + 3 * sum(1 for ds, c2, _ in invoices if c2 == c and d < D(ds) <= d + 12 * ONE) for c in active]
            chosen = []
            while len(chosen) < n:
                c = rng.choices(active, weights=wts)[0]
                if c not in chosen:
                    chosen.append(c)
            logs = [(c, pick(rng, [1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 6.0])) for c in chosen]
        times = ["17:35", "17:50"] if len(logs) == 2 else [pick(rng, ["17:50", "18:30", "20:00"])]
        for (c, hrs), hm in zip(logs, times):
            h.record("hours", d, hm, fmt_hours(d, c, hrs), pick(rng, ack_hours), client=c, hours=hrs)

    filler = Filler(rng, [
        ("How do you translate 'Feierabend' so it doesn't sound clunky?", "Context decides: 'end of the working day', 'knocking-off time' or just 'after work' often reads most naturally."),
        ("Client wants 'gender-neutral but not awkward' English. Any rules of thumb?", "Singular 'they', role nouns like 'chair' or 'firefighter', and rewriting into the plural usually do it."),
        ("Is it worth raising my rates for new clients only?", "Many freelancers do exactly that: new clients get the new rate, and existing ones get notice of an increase later."),
        ("Got an email asking for a free test translation. Ugh.", "A short test is common in the industry; anything long enough to be usable work should be paid."),
        ("What's a polite way to chase an overdue payment?", "A friendly reminder with the invoice attached and the due date restated, then a firmer one a week later."),
        ("My back hates this chair.", "Worth sorting out; a chair or monitor height change makes a big difference over a long day."),
        ("'Which' or 'that'? I always second-guess myself.", "In British English they're often interchangeable for restrictive clauses; 'which' with commas introduces a non-restrictive one."),
        ("I keep translating the legal German too literally. 'Hiermit' everywhere.", "Legal English loves 'hereby' too, but it can often just go. Read the sentence aloud and cut what adds nothing."),
        ("Game dialogue is so much more fun than contracts.", "It uses a very different muscle: voice, humour and character. Nice to have both.", "2026-08-19"),
        ("Should I specialise more or stay broad?", "A couple of strong specialisms plus some general work is a common, resilient mix."),
        ("Had a long walk by the river to clear my head.", "Good call, breaks improve the quality of the next session more than people think."),
        ("Terminology question: 'Beipackzettel' - leaflet or package insert?", "In UK regulatory texts it's 'package leaflet'; 'package insert' is the US term."),
        ("My CAT tool keeps freezing on big files.", "Splitting the file, clearing the project cache and updating usually help. Keep autosave short."),
        ("Do you think I need a website?", "A simple one with specialisms, language pairs and a contact form helps agencies find and trust you."),
        ("The coffee machine in my building broke and I'm not okay.", "A true crisis for any translator.", None),
        ("How do I word an out-of-office that doesn't sound lazy?", "Dates, a return date and an alternative contact if urgent. Short is professional."),
        ("Read an article saying machine translation will replace us all. Again.", "Post-editing, transcreation and specialised work keep changing shape, but the demand for judgment hasn't gone."),
        ("Subtitles have a character limit per line, right?", "Yes, many broadcasters set a per-line limit, with reading-speed limits on top."),
        ("Finally cleaned my desk. Found three pens I thought were lost.", "A clean desk is a small victory."),
        ("Is 'proofreading' the same as 'revision'?", "Not quite: revision compares the translation with the source, proofreading usually checks the target text alone."),
        ("Thinking of learning Portuguese properly after that trip.", "It would pair nicely with your existing languages. A little every day beats long weekend sessions.", "2026-09-26"),
        ("Client sent a PDF scan of a fax. In 2026.", "Time for OCR and patience. Quote for the extra formatting work if it's big."),
        ("Still setting up the new laptop. Shortcuts, fonts, dictionaries, the lot.", "Export your settings file this time, so the next migration is one click.", "2026-09-03", "2026-09-12"),
        ("Brightline's style guide says swearing is fine in the dialogue. Liberating.", "Game localisation does let characters sound like people. Keep a consistent register per character.", "2026-08-18"),
        ("The Hive people do a Friday lunch. Nice way to meet other freelancers.", "Coworking communities are half the value of the desk.", "2026-10-09"),
        ("Someone at the conference recommended a terminology tool, trying it out.", "Worth a trial; a good termbase saves more time the more repeat clients you have.", "2026-09-27"),
        ("How long should I keep old project files?", "Many freelancers keep them for the period their contracts or local record-keeping rules require, and archive them offline."),
        ("Nordlicht's documentary is about lighthouses. I now know far too much about lenses.", "The best part of the job: accidental expertise."),
        ("Do you know a good English equivalent of 'Schnapsidee'?", "'Harebrained scheme' or 'crazy idea' usually work, depending on the tone."),
        ("Rainy Saturday, no work, just a novel and tea.", "Well earned."),
        ("Is it unprofessional to say no to a rush job?", "Not at all. Declining politely protects the quality of the work you do take on."),
        ("I always forget whether it's 'data is' or 'data are'.", "Both are accepted; many style guides now prefer 'data is' for general writing, 'data are' in science."),
    ])
    busy = set(h.items)
    for d in span(h.start, h.end):
        if lisbon[0] <= d <= lisbon[1] or flu[0] <= d < flu[1]:
            continue
        p = 0.15 if d in busy else 0.45
        if rng.random() < p:
            x = filler.next(d)
            if x:
                h.say(d, pick(rng, ["08:20", "10:40", "21:30"]), *x)
    h.build()

    E = h.evd
    aug = ("2026-08-01", "2026-08-31")
    sep = ("2026-09-01", "2026-09-30")
    octo = ("2026-10-01", "2026-10-31")

    rows = h.sel("invoice", *sep)
    v = total(rows, "words")
    add_q(h, "how many words did I invoice in september?", "plain_aggregate", "analytic.sum",
          {"value": v, "unit": "words"}, f"{num(v)} words", rids(rows))

    h.clear("invoice", "2026-09-01", "2026-09-02")
    rows = h.sel("invoice", "2026-09-02", "2026-10-31")
    v = mean(rows, "amount")
    add_q(h, "What's my average invoice amount over the last 60 days?", "plain_aggregate", "analytic.avg",
          {"value": v, "unit": "EUR"}, f"€{money(v)}", rids(rows))

    rows = h.sel("hours", "2026-10-19", "2026-10-25")
    v = total(rows, "hours")
    add_q(h, "How many hours did I log last week?", "plain_aggregate", "analytic.sum",
          {"value": v, "unit": "h"}, f"{num(v)} h", rids(rows))

    rows = h.sel("expense", *aug)
    v = max(r["amount"] for r in nonempty(rows))
    add_q(h, "biggest single expense I had in August?", "plain_aggregate", "analytic.max",
          {"value": v, "unit": "EUR"}, f"€{money(v)}", rids([r for r in rows if r["amount"] == v]))

    rows = h.sel("invoice", client="Hartmann Legal")
    v = total(rows, "amount")
    add_q(h, "How much have I invoiced Hartmann Legal in total?", "named_subject", "analytic.sum",
          {"value": v, "unit": "EUR"}, f"€{money(v)}", rids(rows))

    rows = h.sel("hours", *octo, client="Nordlicht Media")
    v = total(rows, "hours")
    add_q(h, "how many hours have i put into Nordlicht stuff in October?", "named_subject", "analytic.sum",
          {"value": v, "unit": "h"}, f"{num(v)} h", rids(rows))

    rows = h.sel("invoice", client="Verbum Agency")
    v = mean(rows, "words")
    add_q(h, "What's the average word count on my Verbum invoices?", "named_subject", "analytic.avg",
          {"value": v, "unit": "words"}, f"{num(v)} words", rids(rows))

    h.clear("expense", E("hive"))
    rows = h.sel("expense", E("hive") + ONE, "2026-10-31")
    v = total(rows, "amount")
    add_q(h, "What have my expenses come to since I started at the coworking place?", "event_bounded",
          "analytic.sum.since", {"value": v, "unit": "EUR"}, f"€{money(v)}", rids(rows, h.ev("hive")))

    h.clear("expense", E("lisbon"), E("lisbon_back"))
    rows = h.sel("expense", E("lisbon") + ONE, E("lisbon_back") - ONE)
    v = total(rows, "amount")
    add_q(h, "roughly how much did I spend while I was in Lisbon?", "event_bounded", "analytic.sum.between",
          {"value": v, "unit": "EUR"}, f"€{money(v)}", rids(rows, h.ev("lisbon"), h.ev("lisbon_back")))

    h.clear("invoice", E("brightline"))
    rows = h.sel("invoice", None, E("brightline") - ONE)
    v = total(rows, "words")
    add_q(h, "How many words had I invoiced before I signed with Brightline?", "event_bounded",
          "analytic.sum.before", {"value": v, "unit": "words"}, f"{num(v)} words", rids(rows, h.ev("brightline")))

    rows = h.sel("expense", E("laptop"), E("laptop"))
    v = total(rows, "amount")
    add_q(h, "what did I spend on the day my laptop died?", "event_bounded", "analytic.sum.on_event",
          {"value": v, "unit": "EUR"}, f"€{money(v)}", rids(rows, h.ev("laptop")))

    h.clear("hours", E("flu"), E("flu_end"))
    rows = h.sel("hours", E("flu") + ONE, E("flu_end") - ONE)
    v = total(rows, "hours")
    add_q(h, "How many hours did I manage to log while I was down with the flu?", "event_bounded",
          "analytic.sum.between", {"value": v, "unit": "h"}, f"{num(v)} h", rids(rows, h.ev("flu"), h.ev("flu_end")))

    h.clear("invoice", E("lisbon_back"))
    first = nonempty(h.sel("invoice", E("lisbon_back") + ONE))[0]
    add_q(h, "Which client did I invoice first after getting back from Lisbon?", "event_first_last",
          "analytic.first_after.text", {"text": first["client"]}, first["client"], rids([first], h.ev("lisbon_back")))

    h.clear("invoice", E("laptop"))
    last = nonempty(h.sel("invoice", None, E("laptop") - ONE))[-1]
    add_q(h, "What was the amount on my last invoice before the laptop gave up?", "event_first_last",
          "analytic.last_before.value", {"value": last["amount"], "unit": "EUR"}, f"€{money(last['amount'])}",
          rids([last], h.ev("laptop")))

    h.clear("hours", E("flu_end"))
    first = nonempty(h.sel("hours", E("flu_end") + ONE))[0]
    same_day = [r for r in h.sel("hours", first["date"], first["date"])]
    assert same_day[0] is first and (len(same_day) == 1 or same_day[1]["client"] != first["client"])
    add_q(h, "who was the first client I logged hours for once I was over the flu?", "event_first_last",
          "analytic.first_after.text", {"text": first["client"]}, first["client"], rids([first], h.ev("flu_end")))

    a_rows, b_rows = h.sel("invoice", *octo), h.sel("invoice", *sep)
    a, b = total(a_rows, "amount"), total(b_rows, "amount")
    assert a != b
    add_q(h, "Did I invoice more in October than in September?", "comparison", "analytic.compare.yes_no",
          {"yes_no": a > b}, ("Yes" if a > b else "No") + f" (€{money(a)} vs €{money(b)})", rids(a_rows + b_rows))

    a_rows, b_rows = h.sel("hours", *sep), h.sel("hours", *aug)
    a, b = total(a_rows, "hours"), total(b_rows, "hours")
    v = r4(a - b)
    add_q(h, "what's the difference between the hours I logged in August and in September?", "comparison",
          "analytic.compare.difference", {"value": v, "unit": "h", "either_sign": True}, f"{num(v)} h",
          rids(a_rows + b_rows))

    a_rows, b_rows = h.sel("expense", *sep), h.sel("expense", *aug)
    a, b = total(a_rows, "amount"), total(b_rows, "amount")
    v = r4(a / b)
    add_q(h, "how many times more did I spend on expenses in September than in August?", "comparison",
          "analytic.compare.ratio", {"value": v, "unit": None}, f"{v:.2f}x", rids(a_rows + b_rows))

    rows = h.sel("invoice", *sep)
    g, gv, _ = top_group(rows, "client", "amount")
    add_q(h, "Which client paid me the most in September?", "group_rank", "analytic.rank.top_group",
          {"group": g}, g, rids([r for r in rows if r["client"] == g]))

    rows = h.sel("hours", *sep)
    assert {r["client"] for r in rows} == set(clients)
    g, gv, _ = top_group(rows, "client", "hours", lowest=True)
    add_q(h, "Who did I spend the fewest hours on in September?", "group_rank", "analytic.rank.bottom_group",
          {"group": g}, g, rids([r for r in rows if r["client"] == g]))

    rows = h.sel("hours")
    for r in rows:
        r["week"] = monday(r["date"]).isoformat()
    g, gv, _ = top_group(rows, "week", "hours")
    add_q(h, "which week did I work the most hours? tell me the monday it started", "group_rank",
          "analytic.rank.top_week", {"period": g, "bucket": "week"}, g, rids([r for r in rows if r["week"] == g]))

    rows = h.sel("invoice")
    g, cnt, _ = top_group(rows, "client")
    sub = [r for r in rows if r["client"] == g]
    v = total(sub, "amount")
    add_q(h, "For the client I send the most invoices to, what's the total I've billed them?", "top_group_measure",
          "analytic.top_group.sum", {"value": v, "unit": "EUR"}, f"€{money(v)} ({g})", rids(sub))

    rows = h.sel("invoice")
    sub = [r for r in rows if r["client"] == "Ostsee Pharma"]
    v = r4(total(sub, "amount") / total(rows, "amount") * 100)
    add_q(h, "what percentage of everything I've invoiced came from Ostsee Pharma?", "share", "analytic.share",
          {"value": v, "unit": "%"}, f"{v:.2f} %", rids(rows))

    # ---- unanswerable ---------------------------------------------------------------------------
    h.absent("meridian")
    unans(h, "How much did I invoice Meridian Translations in September?", "group_does_not_exist")
    h.absent("hired", "hire ")
    unans(h, "How many hours have I logged since I hired an assistant?", "event_never_happened")
    assert not h.sel("invoice", "2026-07-01", "2026-07-31")
    h.absent("july")
    unans(h, "What was my largest invoice in July?", "period_no_data")
    h.absent("kilomet", "mileage", " km", "drove", "drive ")
    unans(h, "How many kilometres did I drive for work in September?", "measure_never_recorded")
    h.absent("agnieszka")
    unans(h, "how much did Agnieszka pay me in October?", "name_not_in_memory")
    assert not h.sel("invoice", words=10000)
    unans(h, "Which day did I invoice exactly 10,000 words?", "value_no_row_holds")
    h.absent("vat")
    unans(h, "What's the total VAT I charged in August?", "measure_never_recorded")
    return h


# ==================================================================================================
# 3. margins: a reader and book-club member (Sep 14 - Dec 11 2026)
# ==================================================================================================

def make_margins():
    h = History("margins", "hanne", "2026-09-14", "2026-12-11", "2026-12-12T11:00:00", seed=90210)
    rng = h.rng
    retreat = (D("2026-11-20"), D("2026-11-23"))

    h.event("club", D("2026-09-22"), "22:10",
            "Went to my first Lantern Club meeting tonight! Eight of us in the back room of the café on "
            "Mill Lane, and we argued about Piranesi's ending for an hour. I think I've found my people.",
            "That sounds like a lovely evening! A good first meeting makes it so much easier to keep going. "
            "What did the others make of the ending?")
    h.event("glasses", D("2026-10-03"), "11:30",
            "Picked up my new reading glasses today, proper varifocals this time. The optician says it takes "
            "a week or two to get used to them.",
            "Exciting! Varifocals do take some adjusting, especially on stairs. For reading, move your eyes "
            "more than your head and keep the book a little lower.")
    h.event("archive", D("2026-10-19"), "08:00",
            "First day at the city archive job today! Nervous. Bus leaves in ten minutes.",
            "Good luck! First days are mostly introductions and passwords. You'll be great.")
    h.event("wrist", D("2026-11-09"), "18:45",
            "Slipped on wet leaves outside work and sprained my wrist. It's in a brace now and holding anything "
            "heavier than a phone hurts.",
            "Ouch, I'm sorry. Rest, ice and keeping it raised help. A book stand or a cushion on your lap can "
            "take the weight while it heals.")
    h.event("retreat", retreat[0], "19:20",
            "Arrived at the cabin in Connemara for the reading retreat weekend. Fire's lit, phone's in a "
            "drawer, and there are six of us plus a very large dog that belongs to the host.",
            "That sounds like heaven. Enjoy the quiet and the long stretches of reading.")
    h.event("retreat_end", retreat[1], "20:00",
            "Home from the retreat. Already missing the fire and the silence.",
            "Welcome back! Retreat afterglow is real. Maybe keep one quiet evening a week to hold onto it.")

    h.say(D("2026-09-29"), "20:30",
          "A week since my first Lantern Club evening and I've already started the next pick.",
          "That's the sign of a good club: you want to be ready for the next one.")
    h.say(D("2026-11-12"), "21:00",
          "Day four of the wrist brace. I've propped the book on a cushion, which sort of works.",
          "Good improvising. Try to keep the wrist still and supported while you read.")

    # ---- books read -----------------------------------------------------------------------------
    # (title, first day, last day, weight, minutes per page)
    books = [
        ("Middlemarch", D("2026-09-14"), D("2026-12-11"), 2.0, 1.8),
        ("Piranesi", D("2026-09-14"), D("2026-09-21"), 3.0, 1.2),
        ("Klara and the Sun", D("2026-09-29"), D("2026-10-24"), 2.5, 1.1),
        ("The Overstory", D("2026-10-25"), D("2026-11-19"), 3.0, 1.5),
        ("The Remains of the Day", D("2026-11-10"), D("2026-11-24"), 2.0, 1.3),
        ("Demon Copperhead", D("2026-11-21"), D("2026-12-11"), 3.0, 1.3),
    ]
    no_read = {D("2026-09-22"), D("2026-10-03"), D("2026-10-04"), D("2026-10-10"), D("2026-10-11"),
               D("2026-11-09"), D("2026-11-10"), retreat[0], retreat[1], D("2026-11-28"), D("2026-11-29")}
    forced_read = {D("2026-10-19"), D("2026-10-06"), D("2026-10-08"), D("2026-11-11"), D("2026-11-21"),
                   D("2026-11-22"), D("2026-12-01"), D("2026-12-05")}
    lead_read = {"any": ["", "", "", "Reading log:", "Logged a session."],
                 "weekday_morning": ["On the bus this morning:", "Commute read:"],
                 "weekend_morning": ["Slow morning, coffee and a book:", "Morning read in bed:"],
                 "weekday_midday": ["Lunch break read."], "weekend_midday": ["Afternoon on the sofa:"],
                 "evening": ["Tonight's reading.", "Before bed:"]}
    lead_retreat = {"any": ["", "By the fire:", "Cabin session:"]}
    ack_read = ["Lovely, saved.", "Logged. How are you finding it?", "Noted!", "Saved to your reading log.",
                "Got it. Nice steady progress.", "Recorded.", "Logged, thanks.", "Noted. Enjoy the rest of it."]

    def fmt_read(d, hm, book, pages, mins, retreat_day=False):
        style = rng.randrange(6)
        lead = lead_in(rng, d, hm, lead_retreat if retreat_day else lead_read)
        if style == 0:
            body = f"{book}, {pages} pages, {mins} min"
        elif style == 1:
            body = f"Book: {book}\nPages: {pages}\nTime: {mins} min"
        elif style == 2:
            body = f"{book} | {pages} pages | {mins} min"
        elif style == 3:
            body = f"[StoryGraph] {d.isoformat()} {earlier(rng, hm)} session logged: {book} - {pages} pages - {mins} minutes"
        elif style == 4:
            body = f"Read {pages} pages of {book}, about {mins} minutes."
        else:
            tail = "Couldn't put it down." if pages >= 35 else pick(rng, ["Slow going but I'm enjoying it.",
                                                                        "Not much, but it counts.", ""])
            body = f"Got through {pages} pages of {book} in {mins} minutes. {tail}".strip()
        return (lead + "\n" + body).strip() if lead else body

    for d in span(h.start, h.end):
        if d in no_read:
            continue
        in_retreat = retreat[0] < d < retreat[1]
        if d in forced_read:
            n = 2 if in_retreat or d == D("2026-10-19") else 1
        else:
            if rng.random() >= 0.72:
                continue
            n = 2 if rng.random() < 0.22 else 1
        active = [b for b in books if b[1] <= d <= b[2]]
        times = ["08:10", "21:40"] if n == 2 else [pick(rng, ["08:15", "12:45", "21:30", "22:05"])]
        if in_retreat:
            times = ["10:30", "16:00"]
        for hm in times:
            weights = [b[3] for b in active]
            book = rng.choices(active, weights=weights)[0]
            if d == D("2026-11-11"):
                book = next(b for b in books if b[0] == "The Remains of the Day")
            pages = rng.randint(60, 95) if in_retreat else rng.randint(12, 48)
            if D("2026-11-09") < d <= D("2026-11-16"):
                pages = rng.randint(8, 20)
            mins = int(round(pages * book[4] + rng.randint(-4, 6)))
            h.record("read", d, hm, fmt_read(d, hm, book[0], pages, mins, in_retreat), pick(rng, ack_read),
                     book=book[0], pages=pages, minutes=mins)

    # ---- purchases --------------------------------------------------------------------------------
    purchases = [
        ("2026-09-15", "Kennys", "Piranesi", 12.99), ("2026-09-19", "Oxfam Books", "The Remains of the Day", 3.50),
        ("2026-09-28", "Dubray Books", "Klara and the Sun", 14.99), ("2026-10-07", "Hodges Figgis", "The Overstory", 15.99),
        ("2026-10-16", "Kennys", "Braiding Sweetgrass", 18.00), ("2026-10-24", "Oxfam Books", "two old Penguin paperbacks", 6.00),
        ("2026-11-02", "Dubray Books", "Demon Copperhead", 16.99),
        ("2026-11-14", "Kennys", "Tomorrow, and Tomorrow, and Tomorrow", 17.99),
        ("2026-11-27", "Hodges Figgis", "Orbital", 13.99), ("2026-12-03", "Kennys", "Small Things Like These", 9.99),
        ("2026-12-08", "Oxfam Books", "Stoner", 4.00),
    ]
    ack_buy = ["Ooh, good choice. Saved.", "Noted. The to-read pile grows!", "Logged.", "Saved to your book "
               "spending.", "Nice find!", "Recorded."]

    def fmt_buy(d, shop, title, price):
        style = rng.randrange(5)
        if style == 0:
            return f"Bought {title} at {shop}, €{price:.2f}"
        if style == 1:
            return f"Shop: {shop}\nTitle: {title}\nPrice: {price:.2f} EUR"
        if style == 2:
            return f"{shop} | {title} | €{price:.2f}"
        if style == 3:
            return f"Receipt {d.strftime('%d.%m.%Y')} - {shop} - {title} - total {price:.2f} EUR"
        return f"I was weak and went into {shop}. Came out with {title} for €{price:.2f}."

    for ds, shop, title, price in purchases:
        d = D(ds)
        h.record("buy", d, pick(rng, ["13:10", "17:40"]), fmt_buy(d, shop, title, price), pick(rng, ack_buy),
                 shop=shop, title=title, price=price)

    # ---- library visits -------------------------------------------------------------------------
    visits = [("2026-09-17", "Central Library", 3), ("2026-09-30", "Rathmines", 2), ("2026-10-08", "Central Library", 2),
              ("2026-10-24", "Pearse Street", 4), ("2026-11-04", "Central Library", 1), ("2026-11-14", "Rathmines", 3),
              ("2026-11-26", "Central Library", 2), ("2026-12-05", "Pearse Street", 2), ("2026-12-10", "Central Library", 1)]
    ack_lib = ["Logged the library trip.", "Noted. Don't forget the due dates!", "Saved.", "Nice haul.", "Recorded."]

    def fmt_lib(d, branch, n):
        style = rng.randrange(4)
        if style == 0:
            return f"Library run: {branch}, borrowed {n} books"
        if style == 1:
            return f"Branch: {branch} | borrowed: {n}"
        if style == 2:
            place = "the Central Library" if branch == "Central Library" else f"the {branch} library"
            return f"Popped into {place} and came home with {n} books."
        return f"Library visit\nBranch: {branch}\nBooks borrowed: {n}"

    for ds, branch, n in visits:
        d = D(ds)
        h.record("library", d, pick(rng, ["11:20", "16:30"]), fmt_lib(d, branch, n), pick(rng, ack_lib),
                 branch=branch, borrowed=n)

    filler = Filler(rng, [
        ("Do you think it's cheating to skim the boring chapters?", "Not at all. Reading for pleasure has no rules, and some classics earn a skim."),
        ("What should I suggest for the club next? Something short, people are busy.", "A novella is a good shout: Claire Keegan or Ishiguro's shorter work tend to spark discussion.", "2026-09-24"),
        ("Middlemarch is so long but I love Dorothea.", "She's wonderful. The book rewards the patience; the last third pulls everything together."),
        ("Is it weird to read two books at once?", "Very common. Many people pair a dense book with a lighter one."),
        ("I fell asleep on the sofa with the book on my face.", "The highest compliment a cosy evening can get."),
        ("How do you keep track of characters in big Victorian novels?", "A bookmark with a quick character list, or a family tree sketched on an index card."),
        ("Made a new bookmark out of an old postcard.", "Reusing postcards is the best kind of bookmark."),
        ("The club can't agree on whether to do a classic or something new.", "Alternating months keeps both camps happy.", "2026-09-24"),
        ("My shelves are officially full.", "The eternal problem. A 'one in, one out' shelf or a little free library donation might help."),
        ("Rain all day. Perfect reading weather.", "Tea, blanket, book. Enjoy it."),
        ("Should I annotate in pencil or is that sacrilege?", "Pencil in your own books is a conversation with the text. Go for it."),
        ("Someone at work recommended a fantasy series of nine books. Terrifying.", "Try the first one as a standalone and decide from there.", "2026-10-20"),
        ("I want to read more poetry but don't know where to start.", "An anthology lets you sample widely; read a poem aloud before bed."),
        ("What's the best light for reading in bed?", "A warm, dimmable clip-on or a lamp angled from behind your shoulder avoids glare."),
        ("I cried at the end of a chapter on the bus. Very dignified.", "A book that moves you in public is a book that worked."),
        ("Is it rude to leave a book club early?", "Not if you say goodbye kindly. Everyone has evenings that run out.", "2026-09-24"),
        ("Trying to read less on my phone before bed.", "Leaving the phone charging in another room is the simplest trick."),
        ("Which translation of Anna Karenina is best?", "Many readers like Pevear and Volokhonsky; others prefer the Maudes for flow. Sample a page of each."),
        ("Our host made soup for everyone at the club. Heroic.", "Food and books, the perfect pairing.", "2026-10-14"),
        ("The varifocals are finally starting to feel normal.", "That adjustment period really does pass. Glad they're settling in.", "2026-10-12", "2026-10-31"),
        ("Typing this one-handed. Turning pages is a whole operation.", "A book stand or a clip to hold the pages open might save your sanity.", "2026-11-10", "2026-11-19"),
        ("The archive has a reading room with green lamps. I'm in love.", "That sounds like the perfect lunch-break spot.", "2026-10-21"),
        ("Do you think it's okay to abandon a book halfway?", "Yes. Life's too short for books you're not enjoying; you can always come back."),
        ("Should the club do a film adaptation night?", "A fun change of pace, and comparing book and film always sparks a debate.", "2026-10-01"),
        ("I love how Ishiguro's narrators never quite say what they mean.", "That unreliable restraint is his signature. It makes the reader do the feeling."),
        ("My sister wants a book recommendation for a long flight.", "Something immersive and plot-driven works best on a plane; a big family saga or a thriller."),
        ("Found an old train ticket inside a second-hand book. Love that.", "Second-hand books come with their own little histories."),
        ("How do people read so fast? I'm a slow reader.", "Speed isn't the point. Slow readers often remember more."),
        ("Cold evenings and a good book, that's my whole plan for winter.", "Sounds like an excellent plan."),
        ("The Overstory makes me want to go and hug a tree.", "It has that effect on a lot of readers!", "2026-10-28"),
    ])
    busy = set(h.items)
    for d in span(h.start, h.end):
        if retreat[0] <= d <= retreat[1]:
            continue
        p = 0.12 if d in busy else 0.45
        if rng.random() < p:
            x = filler.next(d)
            if x:
                h.say(d, pick(rng, ["10:05", "13:30", "19:45"]), *x)
    h.build()

    E = h.evd
    sep = ("2026-09-01", "2026-09-30")
    octo = ("2026-10-01", "2026-10-31")
    nov = ("2026-11-01", "2026-11-30")

    rows = h.sel("read", *octo)
    v = total(rows, "pages")
    add_q(h, "How many pages did I read in October?", "plain_aggregate", "analytic.sum",
          {"value": v, "unit": "pages"}, f"{num(v)} pages", rids(rows))

    rows = h.sel("read", *nov)
    v = mean(rows, "minutes")
    add_q(h, "average reading session length last month, in minutes?", "plain_aggregate", "analytic.avg",
          {"value": v, "unit": "min"}, f"{v:.2f} min", rids(rows))

    h.clear("read", "2026-11-28", "2026-11-29")
    rows = h.sel("read", "2026-11-29", "2026-12-12")
    add_q(h, "How many reading sessions have I logged over the past fortnight?", "plain_aggregate",
          "analytic.count", {"value": len(nonempty(rows)), "unit": None}, f"{len(rows)}", rids(rows))

    rows = h.sel("buy", *sep)
    v = total(rows, "price")
    add_q(h, "What did I spend on books in September?", "plain_aggregate", "analytic.sum",
          {"value": v, "unit": "EUR"}, f"€{money(v)}", rids(rows))

    rows = h.sel("read", book="Middlemarch")
    v = total(rows, "pages")
    add_q(h, "how many pages of Middlemarch have I got through in total?", "named_subject", "analytic.sum",
          {"value": v, "unit": "pages"}, f"{num(v)} pages", rids(rows))

    rows = h.sel("read", book="Piranesi")
    v = total(rows, "minutes")
    add_q(h, "How long did I spend reading Piranesi altogether, in hours?", "named_subject", "analytic.sum",
          {"value": v, "unit": "min"}, f"{v / 60:.2f} h ({num(v)} min)", rids(rows))

    h.clear("read", E("club"))
    rows = h.sel("read", E("club") + ONE, "2026-12-12")
    v = total(rows, "pages")
    add_q(h, "since joining the Lantern Club, how many pages have I read?", "event_bounded", "analytic.sum.since",
          {"value": v, "unit": "pages"}, f"{num(v)} pages", rids(rows, h.ev("club")))

    h.clear("read", E("retreat"), E("retreat_end"))
    rows = h.sel("read", E("retreat") + ONE, E("retreat_end") - ONE)
    v = total(rows, "pages")
    add_q(h, "How many pages did I read on the reading retreat?", "event_bounded", "analytic.sum.between",
          {"value": v, "unit": "pages"}, f"{num(v)} pages", rids(rows, h.ev("retreat"), h.ev("retreat_end")))

    rows = h.sel("read", E("archive"), E("archive"))
    v = total(rows, "minutes")
    add_q(h, "how long did I read on my first day at the archive?", "event_bounded", "analytic.sum.on_event",
          {"value": v, "unit": "min"}, f"{num(v)} min", rids(rows, h.ev("archive")))

    h.clear("read", E("glasses"), E("wrist"))
    rows = h.sel("read", E("glasses") + ONE, E("wrist") - ONE)
    v = mean(rows, "pages")
    add_q(h, "On average, how many pages per sitting was I reading between getting my varifocals and hurting "
          "my wrist?", "event_bounded", "analytic.avg.between", {"value": v, "unit": "pages"}, f"{v:.2f} pages",
          rids(rows, h.ev("glasses"), h.ev("wrist")))

    h.clear("read", E("glasses"), E("glasses") + ONE, E("glasses") + 7 * ONE, E("glasses") + 8 * ONE)
    rows = h.sel("read", E("glasses") + 2 * ONE, E("glasses") + 6 * ONE)
    v = max(r["minutes"] for r in nonempty(rows))
    add_q(h, "What was my longest reading session in the week after I picked up the new glasses?", "event_bounded",
          "analytic.max.week_after", {"value": v, "unit": "min"}, f"{v} min",
          rids([r for r in rows if r["minutes"] == v], h.ev("glasses")))

    h.clear("read", E("wrist"))
    first = nonempty(h.sel("read", E("wrist") + ONE))[0]
    add_q(h, "What was the first book I picked up after spraining my wrist?", "event_first_last",
          "analytic.first_after.text", {"text": first["book"]}, first["book"], rids([first], h.ev("wrist")))

    h.clear("buy", E("club"))
    last = nonempty(h.sel("buy", None, E("club") - ONE))[-1]
    add_q(h, "Which shop did I last buy a book from before the book club's first meeting?", "event_first_last",
          "analytic.last_before.text", {"text": last["shop"]}, last["shop"], rids([last], h.ev("club")))

    h.clear("library", E("archive"))
    first = nonempty(h.sel("library", E("archive") + ONE))[0]
    add_q(h, "how many books did I borrow on my first library visit after starting the new job?", "event_first_last",
          "analytic.first_after.value", {"value": first["borrowed"], "unit": None}, f"{first['borrowed']}",
          rids([first], h.ev("archive")))

    a_rows, b_rows = h.sel("read", *nov), h.sel("read", *octo)
    a, b = total(a_rows, "pages"), total(b_rows, "pages")
    assert a != b
    add_q(h, "Did I read more pages in November than in October?", "comparison", "analytic.compare.yes_no",
          {"yes_no": a > b}, ("Yes" if a > b else "No") + f" ({num(a)} vs {num(b)} pages)", rids(a_rows + b_rows))

    a_rows, b_rows = h.sel("read", *sep), h.sel("read", *nov)
    a, b = mean(a_rows, "minutes"), mean(b_rows, "minutes")
    v = r4((b - a) / a * 100)
    add_q(h, "What's the percent change in my average session length from September to November?", "comparison",
          "analytic.compare.percent_change", {"value": v, "unit": "%"}, f"{v:+.2f} %", rids(a_rows + b_rows))

    a_rows, b_rows = h.sel("buy", *octo), h.sel("buy", *nov)
    a, b = total(a_rows, "price"), total(b_rows, "price")
    v = r4(a - b)
    add_q(h, "how much more or less did I spend on books in October compared to November?", "comparison",
          "analytic.compare.difference", {"value": v, "unit": "EUR", "either_sign": True}, f"€{money(abs(v))}",
          rids(a_rows + b_rows))

    rows = h.sel("read", *octo)
    g, gv, _ = top_group(rows, "book", "minutes")
    add_q(h, "Which book did I spend the most time on in October?", "group_rank", "analytic.rank.top_group",
          {"group": g}, g, rids([r for r in rows if r["book"] == g]))

    rows = h.sel("library")
    g, gv, _ = top_group(rows, "branch")
    add_q(h, "which library branch do I go to most?", "group_rank", "analytic.rank.top_group",
          {"group": g}, g, rids([r for r in rows if r["branch"] == g]))

    rows = h.sel("read")
    for r in rows:
        r["month"] = r["date"].strftime("%Y-%m")
    g, gv, _ = top_group(rows, "month", "pages")
    add_q(h, "Which month did I read the most pages in?", "group_rank", "analytic.rank.top_month",
          {"period": g, "bucket": "month"}, dt.date.fromisoformat(g + "-01").strftime("%B %Y"),
          rids([r for r in rows if r["month"] == g]))

    rows = h.sel("read")
    g, cnt, _ = top_group(rows, "book")
    sub = [r for r in rows if r["book"] == g]
    v = total(sub, "minutes")
    add_q(h, "The book I've had the most reading sessions with - how many minutes have I put into it?",
          "top_group_measure", "analytic.top_group.sum", {"value": v, "unit": "min"}, f"{num(v)} min ({g})", rids(sub))

    rows = h.sel("buy")
    sub = [r for r in rows if r["shop"] == "Kennys"]
    v = r4(total(sub, "price") / total(rows, "price") * 100)
    add_q(h, "what share of my book money went to Kennys, as a percentage?", "share", "analytic.share",
          {"value": v, "unit": "%"}, f"{v:.2f} %", rids(rows))

    # ---- unanswerable ---------------------------------------------------------------------------
    h.absent("audiobook", "audio", "listen")
    unans(h, "How many hours of audiobooks did I listen to in November?", "measure_never_recorded")
    h.absent("kindle", "e-reader")
    unans(h, "How many pages have I read since my Kindle broke?", "event_never_happened")
    h.absent("war and peace")
    assert not h.sel("read", book="War and Peace")
    unans(h, "how many pages of War and Peace did I read?", "name_not_in_memory")
    h.absent("waterstones")
    unans(h, "What did I spend at Waterstones?", "group_does_not_exist")
    assert not h.sel("read", "2026-08-01", "2026-08-31")
    h.absent("august")
    unans(h, "What was my average session length in August?", "period_no_data")
    assert not h.sel("read", pages=150)
    unans(h, "On which day did I read 150 pages in one sitting?", "value_no_row_holds")
    h.absent("rating", "stars", "star ")
    unans(h, "What's the average star rating I gave the books I read in October?", "measure_never_recorded")
    assert not h.sel("read", "2026-09-01", "2026-09-07")
    unans(h, "What was my longest reading session in the first week of September?", "period_no_data")
    return h


# ==================================================================================================

def main():
    hs = [make_atlantis(), make_lingua(), make_margins()]
    all_q = []
    for h in hs:
        qs = QUESTIONS[h.name]
        assert len(qs) == 30, (h.name, len(qs))
        assert len({q["question"] for q in qs}) == 30
        nsess = len(h.doc["sessions"])
        assert 80 <= nsess <= 110, (h.name, nsess)
        (HERE / f"history_{h.name}.json").write_text(json.dumps(h.doc, ensure_ascii=False, indent=1) + "\n",
                                                      encoding="utf-8")
        with open(HERE / f"questions_{h.name}.jsonl", "w", encoding="utf-8") as f:
            for q in qs:
                f.write(json.dumps(q, ensure_ascii=False) + "\n")
        all_q += qs
        nr = sum(len(s["rounds"]) for s in h.doc["sessions"])
        kinds = defaultdict(int)
        for r in h.records:
            kinds[r["kind"]] += 1
        print(f"{h.name}: user {h.user}, {nsess} sessions / {nr} rounds, records {dict(kinds)}, "
              f"question time {h.qtime}")
    with open(HERE / "questions.jsonl", "w", encoding="utf-8") as f:
        for q in all_q:
            f.write(json.dumps(q, ensure_ascii=False) + "\n")
    fam = defaultdict(int)
    for q in all_q:
        fam[q["family"]] += 1
    n_un = sum(1 for q in all_q if q["gold"].get("unanswerable"))
    assert n_un >= 20
    print(f"{len(all_q)} questions, {n_un} unanswerable; families {dict(fam)}")


if __name__ == "__main__":
    main()
