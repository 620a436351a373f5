#!/usr/bin/env python3
"""Build the *development* corpus of pasted records (records issue).

Seeded, deterministic, standard library only.  Writes, next to this file:

  history_niamh.json, truth_niamh.jsonl, questions_niamh.jsonl
  history_theo.json,  truth_theo.jsonl,  questions_theo.jsonl
  questions.jsonl  (both histories' questions)

Every record is generated as structured data first (the truth), then rendered in
one of several layouts (the round text / image OCR / caption).  Gold answers are
computed from the truth records only.
"""
from __future__ import annotations

import datetime as dt
import json
import os
import random
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20260417
MG_PER_MMOL = 18.0  # glucose mg/dL -> mmol/L factor used for the truth


# ----------------------------------------------------------------------------
# small helpers
# ----------------------------------------------------------------------------

def d(s: str) -> dt.date:
    return dt.date.fromisoformat(s)


def at(day: dt.date, h: int, m: int) -> dt.datetime:
    return dt.datetime(day.year, day.month, day.day, h, m)


def ms(sec: int) -> str:
    """32:10 or 1:02:15"""
    m, s = divmod(sec, 60)
    h, m = divmod(m, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def hms(sec: int) -> str:
    m, s = divmod(sec, 60)
    h, m = divmod(m, 60)
    return f"{h}:{m:02d}:{s:02d}"


def r2(x: float) -> float:
    return round(x + 1e-9, 2)


def money(x: float) -> str:
    return f"{x:,.2f}"


def dm(day: dt.date) -> str:
    """Tue 3 Mar"""
    return f"{day:%a} {day.day} {day:%b}"


def dmy(day: dt.date) -> str:
    """3 March 2026"""
    return f"{day.day} {day:%B} {day.year}"


def email_date(t: dt.datetime) -> str:
    return f"{t:%a}, {t.day} {t:%b} {t.year} at {t:%H:%M}"


def pick_days(rng: random.Random, start: dt.date, end: dt.date, n: int) -> list[dt.date]:
    span = (end - start).days + 1
    days = rng.sample(range(span), n)
    return sorted(start + dt.timedelta(days=x) for x in days)


def chunk(rng: random.Random, items: list, singles: dict, batches: dict) -> list:
    """Cut chronologically sorted items into (layout, [items]) chunks in random order."""
    chunks = [(lay, 1) for lay, c in singles.items() for _ in range(c)]
    chunks += [(lay, s) for lay, sizes in batches.items() for s in sizes]
    assert sum(s for _, s in chunks) == len(items), (sum(s for _, s in chunks), len(items))
    rng.shuffle(chunks)
    out, i = [], 0
    for lay, s in chunks:
        out.append((lay, items[i:i + s]))
        i += s
    return out


def make_items(rng: random.Random, catalog: list, k: int, factor: float = 1.0,
               multi: float = 0.25, lower: bool = False, upper: bool = False) -> list:
    chosen = rng.sample(catalog, k)
    items = []
    for name, price in chosen:
        up = price * factor
        if factor != 1.0:
            up = round(up, 1) - 0.01
        up = r2(max(up, 0.39))
        q = rng.choice([2, 2, 3]) if rng.random() < multi else 1
        nm = name.lower() if lower else name.upper() if upper else name
        items.append({"item": nm, "quantity": q, "unit_price": up, "amount": r2(q * up)})
    return items


def items_total(items: list) -> float:
    return r2(sum(i["amount"] for i in items))


class History:
    def __init__(self, name: str, user_id: str, start: str, end: str, seed: int):
        self.name = name
        self.user_id = user_id
        self.start = d(start)
        self.end = d(end)
        self.rng = random.Random(seed)
        self.events: list[dict] = []

    def add(self, when: dt.datetime, user: str, assistant: str, images=None,
            records=(), metadata=None) -> None:
        if when.date() > self.end:
            when = at(self.end, 21, self.rng.randint(0, 50))
        ev = {"time": when, "user": user, "assistant": assistant,
              "images": images or [], "records": list(records), "metadata": metadata or {}}
        self.events.append(ev)

    def post_after(self, last: dt.date, lo: int = 0, hi: int = 2) -> dt.datetime:
        day = last + dt.timedelta(days=self.rng.randint(lo, hi))
        if day > self.end:
            day = self.end
        return at(day, self.rng.randint(19, 22), self.rng.randint(0, 59))

    def build(self):
        evs = sorted(self.events, key=lambda e: e["time"])
        seen = set()
        for e in evs:  # unique times
            while e["time"] in seen:
                e["time"] += dt.timedelta(minutes=1)
            seen.add(e["time"])
        evs = sorted(evs, key=lambda e: e["time"])
        sessions, truth = [], []
        by_day: dict = defaultdict(list)
        for e in evs:
            by_day[e["time"].date()].append(e)
        for si, day in enumerate(sorted(by_day), start=1):
            sid = f"S{si}"
            rounds = []
            for ri, e in enumerate(by_day[day], start=1):
                rid = f"{sid}:{ri}"
                rnd = {"round_id": rid, "time": e["time"].isoformat(timespec="seconds"),
                       "user": e["user"], "assistant": e["assistant"]}
                if e["images"]:
                    imgs = []
                    for ii, im in enumerate(e["images"], start=1):
                        im2 = {"image_id": f"{rid}:IMG_{ii}"}
                        im2.update(im)
                        imgs.append(im2)
                    rnd["images"] = imgs
                if e["metadata"]:
                    rnd["metadata"] = e["metadata"]
                rounds.append(rnd)
                for rec in e["records"]:
                    truth.append({"round_id": rid, "kind": rec["kind"], "layout": rec["layout"],
                                  "date": rec["date"].isoformat(),
                                  "fields": {k: v for k, v in rec["fields"].items() if v is not None},
                                  "items": rec.get("items", [])})
            sessions.append({"session_id": sid, "date": day.isoformat(), "rounds": rounds})
        return {"user_id": self.user_id, "sessions": sessions}, truth


def rec(kind: str, layout: str, day: dt.date, fields: dict, items=None) -> dict:
    return {"kind": kind, "layout": layout, "date": day, "fields": fields, "items": items or []}


# ----------------------------------------------------------------------------
# History 1 -- Niamh, Dublin: swims, grocery receipts, card transactions, glucose
# ----------------------------------------------------------------------------

POOLS = ["Rathmines Pool", "Markievicz Leisure Centre", "Iveagh Baths"]
GROCERS = ["Tesco", "Lidl", "Aldi", "Dunnes Stores", "SuperValu"]
GROCERY_CAT = [
    ("Avonmore Milk 2L", 2.29), ("Brennans Bread", 2.15), ("Free Range Eggs 6pk", 2.49),
    ("Basmati Rice 1kg", 3.49), ("Bananas 5pk", 1.39), ("Cheddar 400g", 4.29),
    ("Chicken Fillets 500g", 5.99), ("Greek Yogurt 500g", 2.79), ("Spinach 200g", 1.49),
    ("Porridge Oats 1kg", 1.85), ("Cherry Tomatoes 250g", 1.29), ("Olive Oil 500ml", 6.49),
    ("Wholewheat Pasta 500g", 1.09), ("Salmon Fillets 2pk", 5.49), ("Apples 6pk", 2.19),
    ("Kerrygold Butter 227g", 3.15), ("Coffee Beans 500g", 8.99), ("Broccoli", 0.89),
    ("Onions 1kg", 1.19), ("Peppers 3pk", 2.39), ("Hummus 200g", 1.99),
    ("Orange Juice 1L", 2.59), ("Toilet Roll 9pk", 6.99), ("Washing Up Liquid", 2.25),
    ("Dark Chocolate 85% 100g", 1.79), ("Low Carb Wraps 6pk", 2.89), ("Lentils 500g", 1.65),
    ("Frozen Peas 1kg", 1.99), ("Natural Almonds 200g", 3.29), ("Mince 5% 500g", 4.79),
]
PAYEES = {  # payee: (lo, hi) amount range EUR
    "Spar": (3.2, 19.0), "Insomnia Coffee": (3.1, 8.9), "Dublin Bus": (2.0, 2.0),
    "Circle K": (4.5, 62.0), "Boots": (6.0, 38.0), "Penneys": (8.0, 55.0),
    "Tesco": (12.0, 85.0), "Lidl": (9.0, 48.0), "Deliveroo": (16.0, 34.0),
    "Eason": (7.0, 24.0), "Irish Rail": (9.5, 31.0),
}
PAYEE_W = [7, 6, 3, 3, 3, 2, 4, 4, 2, 2, 2]


def build_niamh() -> History:
    H = History("niamh", "niamh", "2026-02-02", "2026-04-30", SEED + 1)
    rng = H.rng

    # ---------------- swims ----------------
    days = pick_days(rng, H.start, H.end, 36)
    swims = []
    for day in days:
        pool = rng.choices(POOLS, weights=[5, 4, 2])[0]
        dist = rng.randrange(800, 2601, 50)
        pace = rng.uniform(138, 205)  # s / 100 m
        sec = int(dist / 100 * pace)
        hh = rng.choice([7, 7, 8, 12, 18, 19])
        swims.append({"day": day, "pool": pool, "dist": dist, "sec": sec,
                      "t": at(day, hh, rng.randint(0, 59))})
    plan = chunk(rng, swims, {"watch_line": 8, "app_screenshot": 6, "hand_note": 7},
                 {"app_csv": [4, 3, 3], "md_log": [3, 2]})
    for lay, grp in plan:
        if lay == "watch_line":
            s = grp[0]
            pace = ms(int(s["sec"] / s["dist"] * 100))
            intro = rng.choice(["", "from my watch:\n", "Copying this over from Garmin Connect\n",
                                "swim ✔️\n"])
            text = (f"{intro}Pool Swim · {s['pool']}\nDist {s['dist']}m · {ms(s['sec'])} · "
                    f"Laps {s['dist'] // 25} · Avg pace {pace}/100m")
            reply = rng.choice(["Logged that swim.", f"Nice, {s['dist']} m — saved.",
                                "Saved to your swim log."])
            r = rec("swim", lay, s["day"], {"distance_m": s["dist"],
                                            "duration_min": r2(s["sec"] / 60), "pool": s["pool"]})
            H.add(s["t"] + dt.timedelta(minutes=rng.randint(45, 80)), text, reply, records=[r],
                  metadata={"app": "Garmin Connect"})
        elif lay == "app_screenshot":
            s = grp[0]
            km = f"{s['dist'] / 1000:.2f}"
            pace = ms(int(s["sec"] / s["dist"] * 100))
            ocr = (f"Pool Swim\n{dm(s['day'])}\n{s['pool']} · 25 m pool\nDistance\n{km} km\n"
                   f"Time\n{hms(s['sec'])}\nAvg Pace\n{pace} /100m\nCalories\n{rng.randint(180, 520)}")
            user = rng.choice(["today's swim 💪", "swim done", "here's today", "🏊‍♀️"])
            r = rec("swim", lay, s["day"], {"distance_m": s["dist"],
                                            "duration_min": r2(s["sec"] / 60), "pool": s["pool"]})
            H.add(s["t"] + dt.timedelta(minutes=rng.randint(40, 120)), user,
                  "Got it, I've added the swim from the screenshot.",
                  images=[{"caption": "Screenshot of a swim workout summary in a fitness app",
                           "ocr": ocr}], records=[r])
        elif lay == "hand_note":
            s = grp[0]
            mins = round(s["sec"] / 60)
            tpl = rng.choice([
                "Swam {d} m at {p} today, took about {m} min.",
                "meters swum today: {d} ({p}), {m} minutes",
                "Quick one at {p}: {d}m in {m}min. Shoulder felt fine.",
                "did {d} metres at {p}, {m} mins. legs dead",
            ])
            r = rec("swim", lay, s["day"], {"distance_m": s["dist"], "duration_min": mins,
                                            "pool": s["pool"]})
            H.add(s["t"] + dt.timedelta(minutes=rng.randint(50, 150)),
                  tpl.format(d=s["dist"], p=s["pool"], m=mins),
                  rng.choice(["Noted!", "Well done — logged.", "Added to your swims."]), records=[r])
        elif lay == "app_csv":
            lines = ["Date,Location,Distance (km),Moving time (h:mm:ss),Avg pace (/100m)"]
            recs = []
            for s in grp:
                lines.append(f"{s['day'].isoformat()},{s['pool']},{s['dist'] / 1000:.2f},"
                             f"{hms(s['sec'])},{ms(int(s['sec'] / s['dist'] * 100))}")
                recs.append(rec("swim", lay, s["day"], {"distance_m": s["dist"],
                                                        "duration_min": r2(s["sec"] / 60),
                                                        "pool": s["pool"]}))
            intro = rng.choice(["Export from MySwimPro for the last few sessions:",
                                "csv from the swim app, can you keep these?",
                                "Pasting my recent swims (exported):"])
            H.add(H.post_after(grp[-1]["day"]), intro + "\n" + "\n".join(lines),
                  f"Saved {len(grp)} swims from the export.", records=recs,
                  metadata={"app": "MySwimPro"})
        elif lay == "md_log":
            lines = ["| Day | Pool | Distance (m) | Time (min) |", "|---|---|---|---|"]
            recs = []
            for s in grp:
                mins = round(s["sec"] / 60)
                lines.append(f"| {dm(s['day'])} | {s['pool']} | {s['dist']} | {mins} |")
                recs.append(rec("swim", lay, s["day"], {"distance_m": s["dist"],
                                                        "duration_min": mins, "pool": s["pool"]}))
            H.add(H.post_after(grp[-1]["day"]), "My swim log from my notes app:\n" + "\n".join(lines),
                  "Thanks — all of those are in.", records=recs)

    # ---------------- grocery receipts ----------------
    days = pick_days(rng, H.start, H.end, 35)
    layouts = (["receipt_photo"] * 9 + ["email_receipt"] * 6 + ["app_ereceipt"] * 6
               + ["typed_list"] * 7 + ["one_line"] * 7)
    rng.shuffle(layouts)
    for day, lay in zip(days, layouts):
        t = at(day, rng.choice([10, 11, 13, 17, 18, 19]), rng.randint(0, 59))
        if lay == "receipt_photo":
            m = rng.choice(["Tesco", "Lidl", "Aldi", "Dunnes Stores", "SuperValu"])
            f = 0.92 if m in ("Lidl", "Aldi") else 1.0
            items = make_items(rng, GROCERY_CAT, rng.randint(4, 9), f, upper=True)
            tot = items_total(items)
            addr = rng.choice(["Rathmines, Dublin 6", "Camden St, Dublin 2", "Ranelagh, Dublin 6"])
            lines = [m, addr, "VAT No IE" + str(rng.randint(1000000, 9999999)) + "X", ""]
            for it in items:
                if it["quantity"] > 1:
                    lines.append(f"{it['item']}")
                    lines.append(f"  {it['quantity']} x {it['unit_price']:.2f}      {it['amount']:.2f}")
                else:
                    lines.append(f"{it['item']}      {it['amount']:.2f}")
            lines += ["--------------------", f"TOTAL EUR      {tot:.2f}", f"VISA CONTACTLESS  {tot:.2f}",
                      f"{day:%d/%m/%y} {t:%H:%M}  ST{rng.randint(100, 999)} OP{rng.randint(10, 99)}",
                      "THANK YOU FOR SHOPPING"]
            user = rng.choice(["receipt from today", "receipt", "today's shop", "📸"])
            r = rec("grocery_receipt", lay, day, {"total_eur": tot, "merchant": m}, items)
            H.add(t + dt.timedelta(minutes=rng.randint(20, 90)), user,
                  "Saved the receipt.", images=[{"caption": "Photo of a supermarket receipt",
                                                 "ocr": "\n".join(lines)}], records=[r])
        elif lay == "email_receipt":
            m = rng.choice(["Tesco", "Tesco", "SuperValu"])
            items = make_items(rng, GROCERY_CAT, rng.randint(6, 11))
            tot = items_total(items)
            dom = "tesco-online.example" if m == "Tesco" else "supervalu-shop.example"
            body = [
                "---------- Forwarded message ---------",
                f"From: {m} Online <receipts@{dom}>",
                f"Date: {email_date(t)}",
                f"Subject: Your {m} order receipt",
                "To: <niamh.k@example.com>",
                "",
                "Hi Niamh, thanks for shopping with us. Here is your receipt.",
                f"Delivery: {dm(day)}, 18:00–19:00",
                "",
                "Qty  Item                           Price",
            ]
            for it in items:
                body.append(f"{it['quantity']}    {it['item']:<30} €{it['amount']:.2f}")
            body += ["", f"Order total: €{tot:.2f}", "Delivery charge: €0.00 (Delivery Saver)",
                     f"Paid by Visa ending 4417"]
            r = rec("grocery_receipt", lay, day, {"total_eur": tot, "merchant": m}, items)
            H.add(t, rng.choice(["fwd: grocery order", "Forwarding my online shop receipt",
                                 "can you log this one"]) + "\n\n" + "\n".join(body),
                  "Logged the online order as a grocery receipt.", records=[r])
        elif lay == "app_ereceipt":
            items = make_items(rng, GROCERY_CAT, rng.randint(3, 8), 0.92)
            tot = items_total(items)
            body = ["Lidl Plus · Digital receipt", "Store: Lidl", "Branch: Rathmines",
                    f"{day:%d.%m.%Y} {t:%H:%M}", ""]
            for it in items:
                if it["quantity"] > 1:
                    body.append(f"{it['item']}  {it['quantity']} x {it['unit_price']:.2f}  {it['amount']:.2f}")
                else:
                    body.append(f"{it['item']}  {it['amount']:.2f}")
            body += ["", f"Total  €{tot:.2f}", "Paid: Card", f"You saved with Lidl Plus: €{rng.uniform(0.3, 3):.2f}"]
            r = rec("grocery_receipt", lay, day, {"total_eur": tot, "merchant": "Lidl"}, items)
            H.add(t + dt.timedelta(minutes=rng.randint(10, 60)), "\n".join(body),
                  "Saved your Lidl receipt.", records=[r], metadata={"app": "Lidl Plus"})
        elif lay == "typed_list":
            m = rng.choice(["Aldi", "Lidl", "Dunnes Stores", "SuperValu"])
            items = make_items(rng, GROCERY_CAT, rng.randint(3, 6), 0.92 if m in ("Lidl", "Aldi") else 1.0,
                               multi=0.2, lower=True)
            tot = items_total(items)
            parts = []
            for it in items:
                if it["quantity"] > 1:
                    parts.append(f"{it['item']} {it['quantity']}x{it['unit_price']:.2f}")
                else:
                    parts.append(f"{it['item']} {it['amount']:.2f}")
            text = rng.choice(["{m} run: {p}, total €{t}", "{m} today - {p} = €{t}",
                               "small shop at {m}: {p}. €{t} altogether"]).format(
                m=m, p=", ".join(parts), t=f"{tot:.2f}")
            r = rec("grocery_receipt", lay, day, {"total_eur": tot, "merchant": m}, items)
            H.add(t + dt.timedelta(minutes=rng.randint(15, 90)), text, "Noted the shop.", records=[r])
        else:  # one_line
            m = rng.choice(["Tesco", "Dunnes Stores", "Aldi", "SuperValu", "Lidl"])
            tot = r2(rng.uniform(28, 96))
            text = rng.choice(["weekly shop at {m} €{t}", "{m} €{t} groceries", "big shop, {m}, €{t}",
                               "groceries {m} {t} eur"]).format(m=m, t=f"{tot:.2f}")
            r = rec("grocery_receipt", lay, day, {"total_eur": tot, "merchant": m})
            H.add(t + dt.timedelta(minutes=rng.randint(15, 120)), text,
                  rng.choice(["Logged.", "Got it.", "Added to groceries."]), records=[r])

    # ---------------- card transactions ----------------
    n_tx = 12 + 9 + 20 + 7 + 7
    txs = []
    for _ in range(n_tx):
        day = H.start + dt.timedelta(days=rng.randrange((H.end - H.start).days + 1))
        p = rng.choices(list(PAYEES), weights=PAYEE_W)[0]
        lo, hi = PAYEES[p]
        amt = r2(rng.uniform(lo, hi)) if hi > lo else lo
        txs.append({"day": day, "payee": p, "amt": amt,
                    "t": at(day, rng.randint(8, 21), rng.randint(0, 59))})
    txs.sort(key=lambda x: x["t"])
    balance = 2480.00
    plan = chunk(rng, txs, {"revolut_push": 12, "bank_sms": 9, "email_alert": 7, "app_screenshot": 7},
                 {"statement_tsv": [6, 5, 5, 4]})
    for lay, grp in plan:
        if lay == "revolut_push":
            x = grp[0]
            text = rng.choice([
                "Revolut\nPaid €{a} at {p}\nTap to see details",
                "Revolut: 💳 €{a} at {p}",
                "just got this → Revolut · Payment · {p} · -€{a}",
            ]).format(a=f"{x['amt']:.2f}", p=x["payee"])
            r = rec("card_transaction", lay, x["day"], {"amount_eur": x["amt"], "payee": x["payee"]})
            H.add(x["t"] + dt.timedelta(minutes=rng.randint(1, 30)), text, "Logged the payment.",
                  records=[r], metadata={"app": "Revolut"})
        elif lay == "bank_sms":
            x = grp[0]
            balance = r2(balance - x["amt"] + rng.choice([0, 0, 0, 650]))
            text = (f"AIB: Your debit card was used for EUR {x['amt']:.2f} at {x['payee']} on "
                    f"{x['day']:%d%b%y}".replace(f"{x['day']:%b}", f"{x['day']:%b}".upper())
                    + f". Avail bal EUR {money(balance)}. Not you? Call 1800 24 22 27")
            r = rec("card_transaction", lay, x["day"], {"amount_eur": x["amt"], "payee": x["payee"]})
            H.add(x["t"] + dt.timedelta(minutes=rng.randint(1, 40)), "SMS from the bank:\n" + text,
                  "Saved the transaction.", records=[r])
        elif lay == "email_alert":
            x = grp[0]
            sent = x["t"] + dt.timedelta(minutes=2)
            body = ["---------- Forwarded message ---------",
                    "From: Bank of Ireland <alerts@boi-alerts.example>",
                    f"Date: {email_date(sent)}", "Subject: Card transaction alert",
                    "To: <niamh.k@example.com>", "",
                    "A transaction was made on your Visa Debit card ending 2291.",
                    f"Merchant: {x['payee']}", f"Amount: {x['amt']:.2f} EUR",
                    f"Transaction time: {dmy(x['day'])} at {x['t']:%H:%M}",
                    "If you don't recognise this transaction, please contact us."]
            r = rec("card_transaction", lay, x["day"], {"amount_eur": x["amt"], "payee": x["payee"]})
            H.add(x["t"] + dt.timedelta(hours=rng.randint(1, 5)), "\n".join(body),
                  "Recorded the card transaction from the alert.", records=[r])
        elif lay == "app_screenshot":
            x = grp[0]
            ocr = (f"{x['payee']}\n-€{x['amt']:.2f}\nCard payment · {x['day'].day} {x['day']:%b %Y}, "
                   f"{x['t']:%H:%M}\nStatus Completed\nCard •• 7731\nCategory "
                   + rng.choice(["Shopping", "Food & drink", "Transport", "General"]))
            r = rec("card_transaction", lay, x["day"], {"amount_eur": x["amt"], "payee": x["payee"]})
            H.add(x["t"] + dt.timedelta(minutes=rng.randint(5, 180)),
                  rng.choice(["this one", "log pls", "card payment", "another one"]),
                  "Added the payment from the screenshot.",
                  images=[{"caption": "Screenshot of a banking app transaction detail", "ocr": ocr}],
                  records=[r])
        else:  # statement_tsv
            lines = ["Posted\tType\tDescription\tDebit (EUR)\tBalance (EUR)"]
            recs = []
            for x in grp:
                balance = r2(balance - x["amt"])
                lines.append(f"{x['day']:%d %b %Y}\tCard\t{x['payee']}\t{x['amt']:.2f}\t{balance:.2f}")
                recs.append(rec("card_transaction", lay, x["day"], {"amount_eur": x["amt"],
                                                                    "payee": x["payee"]}))
            intro = rng.choice(["Statement lines since last time:", "from online banking (copied):",
                                "recent card spending, pasted from the statement"])
            H.add(H.post_after(grp[-1]["day"], 1, 2), intro + "\n" + "\n".join(lines),
                  f"Saved {len(grp)} transactions.", records=recs, metadata={"app": "AIB online"})
            balance = r2(balance + 900)

    # ---------------- glucose ----------------
    readings = []
    for _ in range(16 + 8 + 20 + 10):
        day = H.start + dt.timedelta(days=rng.randrange((H.end - H.start).days + 1))
        ctx = rng.choices(["fasting", "after meal", "bedtime"], weights=[5, 4, 2])[0]
        if ctx == "fasting":
            v, t = round(rng.uniform(5.3, 7.6), 1), at(day, 7, rng.randint(0, 59))
        elif ctx == "after meal":
            v, t = round(rng.uniform(6.6, 10.8), 1), at(day, rng.choice([14, 20]), rng.randint(0, 59))
        else:
            v, t = round(rng.uniform(5.8, 8.4), 1), at(day, 23, rng.randint(0, 40))
        readings.append({"day": day, "ctx": ctx, "v": v, "t": t})
    readings.sort(key=lambda x: x["t"])
    plan = chunk(rng, readings, {"app_line": 16, "meter_photo": 8, "hand_note": 10},
                 {"csv_export": [5, 5, 6, 4]})
    for lay, grp in plan:
        if lay == "app_line":
            x = grp[0]
            text = f"Blood sugar {x['v']:.1f} mmol/L · {x['ctx']} · {x['t']:%H:%M}"
            if rng.random() < 0.4:
                text = "from mySugr: " + text
            r = rec("glucose", lay, x["day"], {"glucose_mmol_l": x["v"], "context": x["ctx"]})
            H.add(x["t"] + dt.timedelta(minutes=rng.randint(1, 20)), text,
                  "Reading saved." if x["v"] < 10 else "Saved — that one's on the high side.",
                  records=[r], metadata={"app": "mySugr"})
        elif lay == "meter_photo":
            x = grp[0]
            mg = round(x["v"] * MG_PER_MMOL)
            ocr = f"{mg}\nmg/dL\n{x['t']:%H:%M}\n{x['ctx']}"
            r = rec("glucose", lay, x["day"], {"glucose_mmol_l": r2(mg / MG_PER_MMOL), "context": x["ctx"]})
            H.add(x["t"] + dt.timedelta(minutes=rng.randint(1, 10)),
                  rng.choice(["just now (the old meter, it's in mg/dL)", "meter reading", "just now"]),
                  "Logged the meter reading.",
                  images=[{"caption": "Photo of a blood glucose meter display", "ocr": ocr}],
                  records=[r])
        elif lay == "hand_note":
            x = grp[0]
            tpl = {"fasting": ["fasting {v} this morning", "BG {v} fasting", "fasting sugar was {v}"],
                   "after meal": ["{v} after meal, pasta was a mistake", "BG {v} after meal",
                                  "after meal reading {v} mmol"],
                   "bedtime": ["BG {v} bedtime", "{v} at bedtime", "bedtime check: {v}"]}[x["ctx"]]
            r = rec("glucose", lay, x["day"], {"glucose_mmol_l": x["v"], "context": x["ctx"]})
            H.add(x["t"] + dt.timedelta(minutes=rng.randint(1, 25)),
                  rng.choice(tpl).format(v=f"{x['v']:.1f}"), "Noted.", records=[r])
        else:  # csv_export
            lines = ["Date;Time;Glucose (mmol/L);Tag"]
            recs = []
            for x in grp:
                lines.append(f"{x['day']:%d.%m.%Y};{x['t']:%H:%M};{x['v']:.1f};{x['ctx']}")
                recs.append(rec("glucose", lay, x["day"], {"glucose_mmol_l": x["v"], "context": x["ctx"]}))
            H.add(H.post_after(grp[-1]["day"]),
                  rng.choice(["Export from the diabetes app:", "my readings csv",
                              "Readings since the last export:"]) + "\n" + "\n".join(lines),
                  f"Imported {len(grp)} readings.", records=recs)

    add_chat(H, NIAMH_CHAT, target_rounds=215)
    return H


NIAMH_CHAT = [
    ("Any ideas for a low-carb lunch I can bring to work?",
     "Try a big salad with chicken, chickpeas and feta, or lentil soup in a flask."),
    ("What's the difference between freestyle and front crawl?",
     "They're used interchangeably — front crawl is the stroke most people swim in freestyle events."),
    ("It's lashing rain in Dublin again {w}", "Sounds grim — a good day for the indoor pool at least."),
    ("I'm planning to swim {n} km on Saturday, is that too much?",
     "If you regularly do well over a kilometre, building up gradually is fine — split it into sets."),
    ("My doctor says to keep fasting readings under 7. How do I do that?",
     "Consistent evening meals, a short walk after dinner and enough sleep usually help; follow your care team's plan."),
    ("Can you recommend a book for the train to {c}?",
     "How about 'Small Things Like These' by Claire Keegan — short and lovely."),
    ("Is brown rice actually better than white for blood sugar?",
     "It tends to raise blood sugar a bit more slowly because of the fibre, but portion size matters most."),
    ("Budget for groceries is €{n}0 a week, I keep going over.",
     "Planning meals for the week and shopping once with a list usually helps the most."),
    ("How do I stop my goggles fogging?", "Anti-fog spray, rinsing them in cold water, and not touching the inside lenses."),
    ("Remind me what I should ask the diabetes nurse on {d}?",
     "Ask about your HbA1c trend, whether to adjust the meter timing, and exercise around meals."),
    ("thinking of getting a new swimsuit, any tips?", "Chlorine-resistant fabric lasts much longer if you swim several times a week."),
    ("what's a good tumble turn drill?", "Practise somersaults in the middle of the pool first, then add the push-off."),
    ("I'm off to {c} for the weekend {w}", "Have a great trip! Want me to pull together a packing list?"),
    ("Do you think I should switch my bank to Revolut entirely?",
     "Depends on whether you need a local IBAN and branch services — many people keep both."),
    ("ugh, work was so long today", "Sorry to hear that — maybe something relaxing this evening?"),
    ("Is porridge a good breakfast for type 2?", "Steel-cut or jumbo oats with protein like yogurt and nuts tend to work better than instant."),
    ("What's a decent pace per 100m for a beginner?", "Around 2:30 to 3:30 per 100 m is typical for newer adult swimmers."),
    ("Can you convert 7 mmol/L to mg/dL for me?", "Multiply by about 18 — 7 mmol/L is roughly 126 mg/dL."),
    ("Going for coffee with {p} later {w}", "Enjoy! Say hi from me."),
    ("How many calories does swimming burn roughly?", "Roughly 400–600 an hour depending on pace and stroke."),
    ("Should I test before or after swimming?", "Both can be useful — before to make sure you're not low, and after to see the effect."),
    ("My target is {n}0 km of swimming by the end of May", "That's a solid goal — you can track it against your logged swims."),
    ("Any good podcasts for the bus?", "'The Rest Is History' and 'Blindboy' are both popular."),
    ("what should I cook tonight? I have {i} and {j}", "A quick stir-fry with {i} and {j} and some brown rice would work."),
    ("Is it normal for sugar to be higher in the morning?", "Yes — the dawn phenomenon is common; mention it to your nurse if it persists."),
    ("{p}'s birthday is next week, gift ideas?", "A nice candle, a book voucher from Eason, or an experience like a cooking class."),
    ("Do I need to cancel Netflix? Barely use it", "If you haven't watched anything in a month, pausing it is an easy saving."),
    ("How long should I rest between sets?", "15–30 seconds between 100 m repeats is typical for endurance sets."),
    ("Good morning! {w}", "Good morning! What's on today?"),
    ("Can you remind me to renew my Leap card?", "I can't set reminders, but note it for the weekend when you're near a Spar."),
    ("Is eating {i} ok for someone with type 2?", "In sensible portions, yes — pair it with vegetables and watch the carbs on the side."),
    ("I think I'll try the 6am lane swim at {q} next week", "Early sessions are usually quieter — good luck getting up!"),
    ("My HbA1c came back at 52, the nurse seemed happy", "That's a good improvement — keep doing what you're doing."),
    ("Is it cheaper to shop at Lidl or Aldi in Ireland?", "They're usually within a few percent of each other; it depends on your basket."),
    ("Should I set up a savings pot for the {c} trip?", "A separate pot with a small weekly transfer makes it painless."),
    ("Can you explain what SWOLF means on my watch?", "It's strokes per length plus seconds per length — lower is more efficient."),
    ("heading to {p}'s for dinner {w}", "Have a lovely evening!"),
    ("what's a good snack that won't spike my sugar?", "A handful of nuts, Greek yogurt, or cheese with an apple are good options."),
    ("The pool was closed today for a gala, so annoying", "That's frustrating — maybe a walk instead?"),
    ("Is my phone's step count accurate?", "Phones are roughly right for steps but can miss some if it's in a bag."),
    ("How do I cancel a direct debit?", "You can cancel it in your banking app or by contacting the company."),
    ("Do I really need a new meter? The old one shows mg/dL", "Many meters can be switched to mmol/L in settings; ask the pharmacy."),
]
THEO_CHAT = [
    ("How often should I get the car serviced?", "Every 12 months or 10,000 miles is typical — check your handbook."),
    ("Saints {s} yesterday {w}", "Football's a rollercoaster — next match is a new chance."),
    ("Any tips to fall asleep faster?", "Keep a fixed wake time, dim lights an hour before bed, and park the phone outside the bedroom."),
    ("Is it worth buying supermarket fuel or is it worse?", "UK supermarket fuel meets the same standard; premium additives are the main difference."),
    ("I want to get to {n} hours of sleep a night on average", "A consistent bedtime is the biggest lever — try moving it 15 minutes earlier each week."),
    ("What's a nice place for a birthday dinner in Southampton?", "Somewhere like Côte or a tapas place in Oxford Street would suit a group."),
    ("Remind me how to check tyre pressure?", "Check them cold with a gauge, compare to the sticker in the door frame."),
    ("Gift ideas for {p}? They like cycling", "Good bike lights, a nice bottle, or a cycling cap are all safe bets."),
    ("Is caffeine after 2pm really that bad?", "Caffeine has a half-life of about 5–6 hours, so a 3pm coffee can still affect sleep."),
    ("Planning a trip to {c} next month {w}", "Nice! Driving or train? I can help plan the route."),
    ("my commute was awful today, roadworks everywhere", "The M3 works are a pain — maybe leave a bit earlier tomorrow."),
    ("Do you know if Evri deliver on Sundays?", "In many areas they do, though it varies by postcode."),
    ("How do I return something to Amazon without a printer?", "Choose a QR-code drop-off option at a locker or post office."),
    ("what should I cook tonight, I've got {i} and {j}", "How about a quick pasta with {i} and {j}?"),
    ("Can you explain what REM sleep does?", "REM is linked with memory consolidation and emotional processing."),
    ("Thinking of getting an EV next year", "Worth it if you can charge at home — running costs are much lower."),
    ("What's a sensible tip in a UK restaurant?", "10–12.5% is normal; check whether service is already on the bill."),
    ("Bit hungover this morning {w}", "Water, toast and a gentle walk — feel better!"),
    ("I keep waking up at 4am, any idea why?", "Stress, alcohol and a warm room are common culprits; a cooler room can help."),
    ("Should I use premium diesel?", "It's rarely worth the extra for everyday driving."),
    ("Meeting {p} for a drink later", "Have fun!"),
    ("What's my car's fuel economy likely to be on the motorway?", "Most petrol hatchbacks get 45–55 mpg at a steady 70 mph."),
    ("Is it bad to nap after work?", "A 20-minute nap before 4pm is usually fine; longer ones can hurt night sleep."),
    ("I'm trying to spend less than £{n}0 a month eating out", "Tracking each bill and setting a weekly cap usually helps."),
    ("Any good podcasts for the drive?", "'No Such Thing As A Fish' and 'The Rest Is Football' are easy listening."),
    ("Morning {w}", "Morning! What's the plan today?"),
    ("How do I get a refund if a parcel never arrives?", "Contact the retailer first — your contract is with them, not the courier."),
    ("Do blackout curtains really help?", "Yes, darkness helps melatonin — especially in summer mornings."),
    ("What's a good weekend walk near the New Forest?", "The Bolderwood deer sanctuary loop is lovely and flat."),
    ("Fuel prices are going up again", "Apps that compare local prices can save a few pence a litre."),
    ("Is it OK to eat late if I sleep badly?", "A heavy meal within 2–3 hours of bed often makes sleep worse."),
    ("The car's making a squeaking noise when I brake", "Could be worn pads — worth getting it checked soon."),
    ("Should I switch to Octopus for electricity?", "Compare your usage on a few tariffs first; fixed deals vary a lot."),
    ("Any good takeaway in Portswood?", "There are lots of options there — Kuti's does a good curry."),
    ("My Amazon parcel says delivered but it's not here", "Check with neighbours and the safe place photo, then report it to Amazon."),
    ("How many units is a pint of bitter?", "A pint at 4% is about 2.3 units."),
    ("{p}'s coming to stay this weekend {w}", "Nice! Want some ideas for things to do in town?"),
    ("what time should I go to bed to wake at 6:30?", "Aim for about 22:30 so you get close to 8 hours in bed."),
    ("Is Evri or Royal Mail more reliable?", "Experiences vary, but Royal Mail tracked services tend to get fewer complaints."),
    ("Do smart watches measure deep sleep accurately?", "They estimate it from movement and heart rate, so treat it as a trend, not exact."),
    ("Going to the Saints game on Saturday {w}", "Enjoy the match!"),
    ("Thinking of cancelling Amazon Prime", "If you order less than once a month, it may not pay for itself."),
]
FILL = {
    "w": ["☔", "😩", "!", "", "lol", "🙃", "haha", ""],
    "n": ["2", "3", "4", "5", "6", "7", "8"],
    "c": ["Galway", "Cork", "Belfast", "Kilkenny", "Bath", "Bristol", "Brighton", "Oxford"],
    "d": ["Thursday", "Monday", "the 14th", "Friday"],
    "p": ["Aoife", "Ciara", "Mum", "Sam", "Jack", "Priya", "Dad", "Tom"],
    "i": ["chicken", "spinach", "chickpeas", "eggs", "salmon", "leftover rice", "peppers", "mushrooms"],
    "j": ["feta", "tomatoes", "tofu", "broccoli", "courgette", "halloumi", "onions"],
    "q": ["Rathmines", "Markievicz", "Iveagh"],
    "s": ["lost again", "won 2-0", "drew 1-1", "scraped a win", "got battered"],
}


def add_chat(H: History, pool: list, target_rounds: int) -> None:
    rng = H.rng
    n = target_rounds - len(H.events)
    assert n > 0
    used: set = set()
    for k in range(n):
        u, a = pool[k % len(pool)]
        for _ in range(20):
            fills = {key: rng.choice(vals) for key, vals in FILL.items()}
            pre = rng.choice(["", "", "", "hey, ", "quick q: ", "random one — ", "ok so "]) if u.endswith("?") else ""
            body = u.format(**fills)
            if pre:
                body = body[0].lower() + body[1:]
            uu = (pre + body).rstrip()
            if uu not in used:
                break
        else:
            if u.endswith("?"):
                uu = "asking again — " + body[0].lower() + body[1:]
            else:
                uu = body + rng.choice([" (again)", " 🙄", " tbh", "... again"])
        used.add(uu)
        aa = a.format(**fills)
        day = H.start + dt.timedelta(days=rng.randrange((H.end - H.start).days + 1))
        if "orning" in u or "hungover" in u:
            hour = rng.randint(7, 10)
        elif "later" in u or "tonight" in u:
            hour = rng.randint(11, 17)
        else:
            hour = rng.randint(8, 22)
        H.add(at(day, hour, rng.randint(0, 59)), uu, aa)


# ----------------------------------------------------------------------------
# History 2 -- Theo, Southampton: fuel, parcels/orders, sleep, restaurant bills
# ----------------------------------------------------------------------------

STATIONS = ["Shell Romsey Road", "Tesco Extra Eastleigh", "Sainsbury's Hedge End",
            "BP Chandler's Ford", "Esso Bassett"]
SHOPS = {
    "Amazon": [("USB-C cable 2m", 8.99), ("AA batteries 12pk", 9.49), ("Paperback: The Overstory", 9.99),
               ("HDMI cable 1.5m", 7.49), ("Phone case", 14.99), ("Coffee grinder", 39.99),
               ("Printer ink XL", 27.49), ("Kindle cover", 12.99), ("Bike pump", 18.99),
               ("Desk lamp", 29.00)],
    "Argos": [("Kettle", 34.99), ("Bedsheet set double", 35.00), ("Toaster 2-slice", 24.00),
              ("Extension lead 4-way", 11.50), ("Storage boxes 3pk", 15.00)],
    "John Lewis": [("Wool beanie", 15.00), ("Towel bale", 45.00), ("Cafetière 8 cup", 28.00),
                   ("Wine glasses set of 4", 22.00)],
    "Decathlon": [("Bike light set", 24.99), ("Running socks 3pk", 12.99), ("Cycling gloves", 17.99),
                  ("Water bottle 750ml", 6.99), ("Yoga mat", 19.99), ("Inner tube 700c", 5.99)],
    "eBay": [("Used Garmin charger", 7.50), ("Vintage Saints scarf", 16.00), ("Car phone mount", 9.95),
             ("Brake pads (pair)", 13.40), ("Retro game cartridge", 21.00)],
}
MENUS = {
    "Wagamama": [("Chicken Katsu Curry", 14.95), ("Yaki Soba", 13.50), ("Chicken Gyoza", 6.75),
                 ("Edamame", 4.95), ("Green Tea", 2.95), ("Asahi", 5.25), ("Chilli Chicken Ramen", 14.25)],
    "Mettricks": [("Flat White", 3.40), ("Oat Latte", 3.70), ("Croissant", 2.95), ("Banana Bread", 3.50),
                  ("Avocado Toast", 8.50), ("Americano", 3.00), ("Eggs Benedict", 10.50)],
    "The Dancing Man": [("Fish & Chips", 16.50), ("Dancing Man Burger", 15.95), ("Pint of Bitter", 5.40),
                        ("Chips", 4.50), ("Sticky Toffee Pudding", 7.25), ("Soft Drink", 3.20)],
    "Côte": [("Steak Frites", 22.50), ("Moules Marinières", 17.95), ("Chicken Breton", 18.50),
             ("Glass Merlot", 8.25), ("Crème Brûlée", 7.50), ("Bread & Butter", 4.25)],
    "Pho": [("Pho Bo", 13.95), ("Summer Rolls", 6.95), ("Bun Cha", 13.45), ("Iced Coffee", 4.25)],
    "Kuti's": [("Chicken Tikka Masala", 13.95), ("Lamb Rogan Josh", 14.95), ("Pilau Rice", 3.95),
               ("Garlic Naan", 3.75), ("Poppadoms", 2.50), ("Kingfisher", 4.95)],
}
RESTAURANTS = ["Wagamama", "The Dancing Man", "Côte", "Pho", "Kuti's"]


def dish_items(rng, venue, lo, hi, lower=False):
    menu = MENUS[venue]
    k = min(rng.randint(lo, hi), len(menu))
    return make_items(rng, menu, k, multi=0.3, lower=lower)


def build_theo() -> History:
    H = History("theo", "theo", "2026-01-12", "2026-04-11", SEED + 2)
    rng = H.rng

    # ---------------- fuel ----------------
    days = pick_days(rng, H.start, H.end, 34)
    fills = []
    for day in days:
        st = rng.choices(STATIONS, weights=[4, 4, 3, 3, 2])[0]
        week = (day - H.start).days / 7
        pence = round(int(139.9 + week * 0.6 + rng.choice([-2, -1, 0, 1, 2, 3])) + 0.9, 1)
        litres = r2(rng.uniform(27.5, 52.0))
        fills.append({"day": day, "st": st, "p": pence, "l": litres,
                      "amt": r2(litres * pence / 100),
                      "t": at(day, rng.choice([7, 8, 17, 18, 12]), rng.randint(0, 59))})
    odo = 47210
    for f in fills:
        odo += rng.randint(180, 420)
        f["odo"] = odo
    plan = chunk(rng, fills, {"pump_receipt_photo": 7, "fuel_app": 8, "email_ereceipt": 5, "hand_note": 6},
                 {"log_csv": [4, 4]})
    for lay, grp in plan:
        if lay == "pump_receipt_photo":
            f = grp[0]
            ocr = "\n".join([f["st"], rng.choice(["Southampton SO16", "Eastleigh SO50", "Hedge End SO30"]),
                             "", f"PUMP {rng.randint(1, 8)}  UNLEADED", f"{f['l']:.2f} L @ {f['p']:.1f}p/L",
                             f"FUEL TOTAL      £{f['amt']:.2f}", f"CONTACTLESS     £{f['amt']:.2f}",
                             f"{f['day']:%d/%m/%Y} {f['t']:%H:%M}", "THANK YOU - DRIVE SAFELY"])
            r = rec("fuel", lay, f["day"], {"litres": f["l"], "amount_gbp": f["amt"],
                                            "price_per_l_gbp": round(f["p"] / 100, 3), "station": f["st"]})
            H.add(f["t"] + dt.timedelta(minutes=rng.randint(5, 120)),
                  rng.choice(["receipt from today", "fuel", "⛽", "fill-up receipt"]),
                  "Logged the fill-up.", images=[{"caption": "Photo of a petrol station receipt", "ocr": ocr}],
                  records=[r])
        elif lay == "fuel_app":
            f = grp[0]
            text = (f"Fill-up · {f['st']}\nVolume {f['l']:.2f} l · Price/l £{f['p'] / 100:.3f} · "
                    f"Total £{f['amt']:.2f} · Odo {f['odo']:,} mi")
            if rng.random() < 0.5:
                text = "From Fuelio:\n" + text
            r = rec("fuel", lay, f["day"], {"litres": f["l"], "amount_gbp": f["amt"],
                                            "price_per_l_gbp": round(f["p"] / 100, 3), "station": f["st"],
                                            "odometer_mi": f["odo"]})
            H.add(f["t"] + dt.timedelta(minutes=rng.randint(2, 60)), text, "Fill-up saved.", records=[r],
                  metadata={"app": "Fuelio"})
        elif lay == "email_ereceipt":
            f = grp[0]
            brand = f["st"].split()[0]
            sent = f["t"] + dt.timedelta(minutes=3)
            body = ["---------- Forwarded message ---------",
                    f"From: {brand} App <noreply@{brand.lower().replace(chr(39), '')}-app.example>",
                    f"Date: {email_date(sent)}", f"Subject: Your {brand} fuel receipt", "To: theo.m@example.com", "",
                    "Thanks for paying at the pump with the app.", f"Site: {f['st']}", "Product: Unleaded",
                    f"Quantity: {f['l']:.2f} litres", f"Unit price: {f['p']:.1f} p/litre",
                    f"Amount: £{f['amt']:.2f}", f"VAT (20%) included: £{f['amt'] / 6:.2f}"]
            r = rec("fuel", lay, f["day"], {"litres": f["l"], "amount_gbp": f["amt"],
                                            "price_per_l_gbp": round(f["p"] / 100, 3), "station": f["st"]})
            H.add(f["t"] + dt.timedelta(hours=rng.randint(1, 6)), "\n".join(body), "Saved the fuel receipt.",
                  records=[r])
        elif lay == "hand_note":
            f = grp[0]
            l1 = round(f["l"], 1)
            text = rng.choice(["filled up {l}L at {s}, £{a}", "fuel: {s} {l} litres £{a}",
                               "tank full again — {l} l at {s}, cost £{a}"]).format(
                l=f"{l1:.1f}", s=f["st"], a=f"{f['amt']:.2f}")
            r = rec("fuel", lay, f["day"], {"litres": l1, "amount_gbp": f["amt"], "station": f["st"]})
            H.add(f["t"] + dt.timedelta(minutes=rng.randint(5, 180)), text, "Noted.", records=[r])
        else:  # log_csv
            lines = ["Date,Station,Litres,Pence/L,Cost (£),Odometer (mi)"]
            recs = []
            for f in grp:
                lines.append(f"{f['day']:%d/%m/%Y},{f['st']},{f['l']:.2f},{f['p']:.1f},{f['amt']:.2f},{f['odo']}")
                recs.append(rec("fuel", lay, f["day"], {"litres": f["l"], "amount_gbp": f["amt"],
                                                        "price_per_l_gbp": round(f["p"] / 100, 3),
                                                        "station": f["st"], "odometer_mi": f["odo"]}))
            H.add(H.post_after(grp[-1]["day"]),
                  rng.choice(["My fuel spreadsheet, latest rows:", "pasting from my car log (csv)"])
                  + "\n" + "\n".join(lines), f"Added {len(grp)} fill-ups.", records=recs)

    # ---------------- parcel orders ----------------
    days = pick_days(rng, H.start, H.end - dt.timedelta(days=3), 30)
    layouts = (["order_email"] * 7 + ["app_screenshot"] * 6 + ["dispatch_email"] * 6
               + ["hand_note"] * 6 + ["marketplace_paste"] * 5)
    rng.shuffle(layouts)
    for day, lay in zip(days, layouts):
        t = at(day, rng.randint(9, 22), rng.randint(0, 59))
        if lay == "order_email":
            shop = rng.choice(["Argos", "John Lewis", "Decathlon", "Amazon"])
            carrier = {"Argos": "DPD", "John Lewis": "DPD", "Decathlon": "Evri", "Amazon": "Amazon Logistics"}[shop]
            items = make_items(rng, SHOPS[shop], rng.randint(1, 3), multi=0.2)
            post = rng.choice([0.0, 3.95, 4.99]) if items_total(items) < 40 else 0.0
            tot = r2(items_total(items) + post)
            body = ["---------- Forwarded message ---------",
                    f"From: {shop} <orders@{shop.lower().replace(' ', '')}.example>",
                    f"Date: {email_date(t)}", f"Subject: Order confirmation – thanks for your order",
                    "To: theo.m@example.com", "", f"Order number: {rng.randint(10000000, 99999999)}", "",
                    "Item | Qty | Price"]
            for it in items:
                body.append(f"{it['item']} | {it['quantity']} | £{it['amount']:.2f}")
            body += ["", f"Subtotal: £{items_total(items):.2f}", f"Delivery: £{post:.2f} (Standard, {carrier})",
                     f"Order total: £{tot:.2f}"]
            r = rec("parcel_order", lay, day, {"total_gbp": tot, "merchant": shop, "carrier": carrier}, items)
            H.add(t + dt.timedelta(minutes=rng.randint(2, 90)), "\n".join(body), "Logged the order.",
                  records=[r])
        elif lay == "app_screenshot":
            items = make_items(rng, SHOPS["Amazon"], rng.randint(1, 3), multi=0.2)
            tot = items_total(items)
            ocr = ["Order Details", f"Order placed {dmy(day)}",
                   f"Order # 204-{rng.randint(1000000, 9999999)}-{rng.randint(1000000, 9999999)}", ""]
            for it in items:
                ocr.append(f"{it['item']}\nQty: {it['quantity']}\n£{it['unit_price']:.2f}")
            ocr += ["", "Order Summary", f"Item(s) subtotal: £{tot:.2f}", "Postage & Packing: £0.00",
                    f"Grand Total: £{tot:.2f}"]
            r = rec("parcel_order", lay, day, {"total_gbp": tot, "merchant": "Amazon"}, items)
            H.add(t + dt.timedelta(minutes=rng.randint(1, 30)),
                  rng.choice(["ordered this", "another amazon order 🙈", "bought these"]),
                  "Added the Amazon order.",
                  images=[{"caption": "Screenshot of Amazon order details", "ocr": "\n".join(ocr)}],
                  records=[r])
        elif lay == "dispatch_email":
            shop = rng.choice(["Argos", "John Lewis", "Decathlon"])
            carrier = rng.choice(["DPD", "Evri", "Royal Mail"])
            items = make_items(rng, SHOPS[shop], rng.randint(1, 2), multi=0.1)
            tot = items_total(items)
            sent = t + dt.timedelta(days=rng.randint(1, 2))
            body = ["---------- Forwarded message ---------",
                    f"From: {shop} <dispatch@{shop.lower().replace(' ', '')}.example>",
                    f"Date: {email_date(sent)}", f"Subject: Your {shop} order is on its way",
                    "To: theo.m@example.com", "",
                    f"Good news! Your order, placed on {dmy(day)}, has been dispatched with {carrier}.",
                    f"Tracking: {carrier.upper().replace(' ', '')}{rng.randint(100000000, 999999999)}", "",
                    "What's in the parcel:"]
            for it in items:
                body.append(f"- {it['quantity']} × {it['item']} (£{it['unit_price']:.2f} each)")
            body += [f"Order total: £{tot:.2f}"]
            r = rec("parcel_order", lay, day, {"total_gbp": tot, "merchant": shop, "carrier": carrier}, items)
            H.add(sent, "\n".join(body), "Saved — I've dated it by when you ordered.", records=[r])
        elif lay == "hand_note":
            shop = rng.choice(["Decathlon", "Amazon", "Argos", "John Lewis"])
            carrier = rng.choice(["Evri", "Royal Mail", "DPD"])
            it = make_items(rng, SHOPS[shop], 1, multi=0.0, lower=True)
            post = rng.choice([0.0, 2.99, 3.95])
            tot = r2(it[0]["amount"] + post)
            text = rng.choice(["ordered {i} from {s}, £{t} incl postage, coming via {c}",
                               "just bought {i} ({s}) £{t} total, {c} delivery",
                               "{s} order: {i}, £{t} all in. Shipping with {c}"]).format(
                i=it[0]["item"], s=shop, t=f"{tot:.2f}", c=carrier)
            r = rec("parcel_order", lay, day, {"total_gbp": tot, "merchant": shop, "carrier": carrier}, it)
            H.add(t, text, "Noted the order.", records=[r])
        else:  # marketplace_paste (eBay)
            it = make_items(rng, SHOPS["eBay"], 1, multi=0.15)
            post = rng.choice([2.70, 3.20, 3.99, 0.0])
            tot = r2(it[0]["amount"] + post)
            carrier = "Royal Mail" if post else "Evri"
            text = "\n".join(["eBay · Order confirmed", f"Item: {it[0]['item']}",
                              f"Seller: {rng.choice(['bikepartsuk', 'retro_finds_soton', 'gadgetdeals24'])}",
                              f"Quantity: {it[0]['quantity']}", f"Item price: £{it[0]['unit_price']:.2f}",
                              f"Postage: £{post:.2f} · {carrier}", f"Total: £{tot:.2f}",
                              f"Paid {dm(day)} with PayPal"])
            r = rec("parcel_order", lay, day, {"total_gbp": tot, "merchant": "eBay", "carrier": carrier}, it)
            H.add(t + dt.timedelta(minutes=rng.randint(1, 30)), text, "eBay order saved.", records=[r],
                  metadata={"app": "eBay"})

    # ---------------- sleep ----------------
    days = pick_days(rng, H.start + dt.timedelta(days=1), H.end, 51)
    nights = []
    for day in days:
        mins = rng.randint(292, 505)
        deep = rng.randint(38, 105)
        nights.append({"day": day, "min": mins, "deep": deep, "score": min(95, int(40 + mins / 10 + rng.randint(-6, 6))),
                       "t": at(day, rng.choice([7, 7, 8, 9]), rng.randint(0, 59))})
    plan = chunk(rng, nights, {"ring_app": 14, "watch_screenshot": 8, "hand_note": 9},
                 {"watch_csv": [5, 5, 4], "weekly_md": [3, 3]})
    for lay, grp in plan:
        if lay == "ring_app":
            n = grp[0]
            tib = n["min"] + rng.randint(15, 60)
            text = "\n".join([f"Sleep · {dm(n['day'])}",
                              f"Total sleep {n['min'] // 60}h {n['min'] % 60:02d}m",
                              f"Time in bed {tib // 60}h {tib % 60:02d}m",
                              f"Deep sleep {n['deep'] // 60}h {n['deep'] % 60:02d}m",
                              f"REM {rng.randint(60, 110) // 60}h {rng.randint(0, 59):02d}m",
                              f"Sleep score {n['score']}"])
            if rng.random() < 0.5:
                text = rng.choice(["Oura this morning:\n", "ring says:\n", "meh night\n"]) + text
            r = rec("sleep", lay, n["day"], {"sleep_h": r2(n["min"] / 60), "deep_h": r2(n["deep"] / 60),
                                             "sleep_score": n["score"]})
            H.add(n["t"], text, "Logged last night's sleep.", records=[r], metadata={"app": "Oura"})
        elif lay == "watch_screenshot":
            n = grp[0]
            ocr = "\n".join(["Sleep", f"{n['day']:%a}, {n['day']:%b} {n['day'].day}",
                             f"{n['min'] // 60} hr {n['min'] % 60} min", "Time asleep",
                             f"Sleep score {n['score']}", f"Deep {n['deep']} min",
                             f"Light {rng.randint(3, 4)} hr {rng.randint(0, 59)} min"])
            r = rec("sleep", lay, n["day"], {"sleep_h": r2(n["min"] / 60), "deep_h": r2(n["deep"] / 60),
                                             "sleep_score": n["score"]})
            H.add(n["t"] + dt.timedelta(minutes=rng.randint(0, 40)),
                  rng.choice(["last night", "sleep from the watch", "🥱"]),
                  "Saved the sleep summary.",
                  images=[{"caption": "Screenshot of a smartwatch sleep summary", "ocr": ocr}], records=[r])
        elif lay == "hand_note":
            n = grp[0]
            h = round(n["min"] / 60 * 4) / 4  # people round to a quarter hour
            if rng.random() < 0.5:
                hh = int(h)
                mm = int(round((h - hh) * 60))
                txt = rng.choice(["only {a}h{b:02d} sleep last night", "slept {a}h{b:02d}, woke up twice"]).format(
                    a=hh, b=mm) if mm else f"slept {hh}h flat last night"
            else:
                txt = rng.choice(["slept about {h} h", "approx {h} hours of sleep last night",
                                  "sleep ~{h}h, watch was charging"]).format(h=f"{h:g}")
            r = rec("sleep", lay, n["day"], {"sleep_h": r2(h)})
            H.add(n["t"] + dt.timedelta(minutes=rng.randint(0, 90)), txt,
                  rng.choice(["Noted.", "Logged — hope tonight's better.", "Saved."]), records=[r])
        elif lay == "watch_csv":
            lines = ["Date,Minutes Asleep,Minutes Deep,Sleep Score"]
            recs = []
            for n in grp:
                lines.append(f"{n['day'].isoformat()},{n['min']},{n['deep']},{n['score']}")
                recs.append(rec("sleep", lay, n["day"], {"sleep_h": r2(n["min"] / 60),
                                                         "deep_h": r2(n["deep"] / 60), "sleep_score": n["score"]}))
            H.add(H.post_after(grp[-1]["day"], 0, 1),
                  rng.choice(["Fitbit export:", "sleep csv from the watch app", "exported my sleep data"])
                  + "\n" + "\n".join(lines), f"Imported {len(grp)} nights.", records=recs,
                  metadata={"app": "Fitbit"})
        else:  # weekly_md
            lines = ["| Woke | Asleep (h:mm) | Notes |", "|---|---|---|"]
            recs = []
            for n in grp:
                lines.append(f"| {dm(n['day'])} | {n['min'] // 60}:{n['min'] % 60:02d} | "
                             f"{rng.choice(['', 'late film', 'woke 4am', 'good', 'neighbours loud'])} |")
                recs.append(rec("sleep", lay, n["day"], {"sleep_h": r2(n["min"] / 60)}))
            H.add(H.post_after(grp[-1]["day"], 0, 1), "Sleep diary (notes app):\n" + "\n".join(lines),
                  "Added those nights.", records=recs)

    # ---------------- restaurant bills ----------------
    days = pick_days(rng, H.start, H.end, 34)
    layouts = (["receipt_photo"] * 8 + ["email_receipt"] * 6 + ["typed"] * 7
               + ["card_slip_caption"] * 7 + ["one_line"] * 6)
    rng.shuffle(layouts)
    for day, lay in zip(days, layouts):
        t = at(day, rng.choice([12, 13, 13, 19, 19, 20]), rng.randint(0, 59))
        later = "tonight" if t.hour >= 17 else "lunch"
        if lay == "receipt_photo":
            v = rng.choice(RESTAURANTS)
            items = dish_items(rng, v, 2, 6)
            sub = items_total(items)
            tip = r2(sub * 0.125)
            tot = r2(sub + tip)
            ocr = [v, rng.choice(["Above Bar St, Southampton", "Oxford St, Southampton", "West Quay"]),
                   f"Table {rng.randint(1, 40)}  Covers {rng.randint(1, 4)}", f"{day:%d/%m/%Y} {t:%H:%M}", ""]
            for it in items:
                ocr.append(f"{it['quantity']} {it['item']}   {it['amount']:.2f}")
            ocr += ["", f"Subtotal   £{sub:.2f}", f"Optional service 12.5%   £{tip:.2f}", f"TOTAL   £{tot:.2f}"]
            r = rec("restaurant_bill", lay, day, {"total_gbp": tot, "tip_gbp": tip, "venue": v}, items)
            H.add(t + dt.timedelta(minutes=rng.randint(60, 150)),
                  rng.choice([f"receipt from {later}", f"{'dinner' if later == 'tonight' else 'lunch'} receipt", "bill"]),
                  "Saved the bill.", images=[{"caption": "Photo of a restaurant bill", "ocr": "\n".join(ocr)}],
                  records=[r])
        elif lay == "email_receipt":
            v = rng.choice(["Mettricks", "Mettricks", "The Dancing Man", "Pho"])
            if v == "Mettricks":
                t = at(day, rng.randint(8, 11), rng.randint(0, 59))
            items = dish_items(rng, v, 1, 4)
            sub = items_total(items)
            tip = rng.choice([0.0, 1.0, 2.0, r2(round(sub * 0.1, 0))])
            tot = r2(sub + tip)
            body = ["---------- Forwarded message ---------", "From: Square <receipts@square-mail.example>",
                    f"Date: {email_date(t + dt.timedelta(minutes=50))}", f"Subject: Receipt from {v}",
                    "To: theo.m@example.com", "", f"Receipt from {v}", ""]
            for it in items:
                q = f" x{it['quantity']}" if it["quantity"] > 1 else ""
                body.append(f"{it['item']}{q}   £{it['amount']:.2f}")
            body += [f"Subtotal £{sub:.2f}", f"Tip £{tip:.2f}", f"Total £{tot:.2f}",
                     f"Visa •••• 5520  {dm(day)} {t:%H:%M}"]
            r = rec("restaurant_bill", lay, day, {"total_gbp": tot, "tip_gbp": tip, "venue": v}, items)
            H.add(t + dt.timedelta(minutes=rng.randint(60, 240)), "\n".join(body), "Logged that receipt.",
                  records=[r])
        elif lay == "typed":
            v = rng.choice(["Wagamama", "Mettricks", "Pho", "Kuti's", "The Dancing Man"])
            if v == "Mettricks":
                t = at(day, rng.randint(8, 11), rng.randint(0, 59))
            items = dish_items(rng, v, 2, 4, lower=True)
            sub = items_total(items)
            tip = float(rng.choice([2, 3, 4, 5]))
            tot = r2(sub + tip)
            parts = [f"{it['item']} {it['amount']:.2f}" if it["quantity"] == 1 else
                     f"{it['quantity']}x {it['item']} {it['amount']:.2f}" for it in items]
            meal = "Lunch" if t.hour < 16 else "Dinner"
            text = f"{meal} at {v}: {', '.join(parts)} + tip {tip:g} = {tot:.2f}"
            r = rec("restaurant_bill", lay, day, {"total_gbp": tot, "tip_gbp": tip, "venue": v}, items)
            H.add(t + dt.timedelta(minutes=rng.randint(45, 120)), text, "Noted the bill.", records=[r])
        elif lay == "card_slip_caption":
            v = rng.choice(RESTAURANTS)
            amt = r2(rng.uniform(18, 85))
            tip = float(rng.choice([2, 3, 4, 5, 6, 8]))
            tot = r2(amt + tip)
            cap = f"Card machine slip from {v}: Amount £{amt:.2f}, Gratuity £{tip:.2f}, Total £{tot:.2f}, {dm(day)}"
            r = rec("restaurant_bill", lay, day, {"total_gbp": tot, "tip_gbp": tip, "venue": v})
            H.add(t + dt.timedelta(minutes=rng.randint(60, 150)),
                  rng.choice([f"from {later}", "meal out", "slip"]),
                  "Saved the slip.", images=[{"caption": cap}], records=[r])
        else:  # one_line
            v = rng.choice(["Mettricks", "Mettricks", "Pho", "Wagamama"])
            if v == "Mettricks":
                t = at(day, rng.randint(8, 11), rng.randint(0, 59))
            tot = r2(rng.uniform(5.2, 9.8)) if v == "Mettricks" else r2(rng.uniform(14, 29))
            what = "coffee + croissant" if v == "Mettricks" else "quick lunch"
            text = rng.choice(["{w} at {v} £{t}", "{v} {t} ({w})", "£{t} at {v}, {w}"]).format(
                w=what, v=v, t=f"{tot:.2f}")
            r = rec("restaurant_bill", lay, day, {"total_gbp": tot, "venue": v})
            H.add(t + dt.timedelta(minutes=rng.randint(10, 60)), text, "Logged.", records=[r])

    add_chat(H, THEO_CHAT, target_rounds=206)
    return H


# ----------------------------------------------------------------------------
# questions
# ----------------------------------------------------------------------------

UNITS = {"distance_m": "m", "duration_min": "min", "total_eur": "EUR", "amount_eur": "EUR",
         "glucose_mmol_l": "mmol/L", "litres": "L", "amount_gbp": "GBP", "price_per_l_gbp": "GBP/L",
         "total_gbp": "GBP", "tip_gbp": "GBP", "sleep_h": "h", "deep_h": "h", "odometer_mi": "mi"}
ALL = None
FEB, MAR, APR = ("2026-02-01", "2026-02-28"), ("2026-03-01", "2026-03-31"), ("2026-04-01", "2026-04-30")
JAN = ("2026-01-01", "2026-01-31")

# (question, kind, op, attribute, where(attr, value) or None, period or None)
Q_NIAMH = [
    ("How many metres have I swum in total since I started logging?", "swim", "sum", "distance_m", None, ALL),
    ("How far did I swim in total in March?", "swim", "sum", "distance_m", None, MAR),
    ("How many swims did I do in April?", "swim", "count", None, None, APR),
    ("What is my average swim duration in minutes?", "swim", "avg", "duration_min", None, ALL),
    ("What's the longest distance I've swum in one session?", "swim", "max", "distance_m", None, ALL),
    ("How many metres have I swum at Rathmines Pool altogether?", "swim", "sum", "distance_m",
     ("pool", "Rathmines Pool"), ALL),
    ("How many times did I swim at Markievicz Leisure Centre in February and March?", "swim", "count", None,
     ("pool", "Markievicz Leisure Centre"), ("2026-02-01", "2026-03-31")),
    ("What was my shortest swim session in minutes?", "swim", "min", "duration_min", None, ALL),
    ("How much did I spend on groceries in March (receipt totals)?", "grocery_receipt", "sum", "total_eur", None, MAR),
    ("How many grocery receipts have I logged in total?", "grocery_receipt", "count", None, None, ALL),
    ("How much have I spent at Lidl on groceries altogether?", "grocery_receipt", "sum", "total_eur",
     ("merchant", "Lidl"), ALL),
    ("What is my average grocery bill?", "grocery_receipt", "avg", "total_eur", None, ALL),
    ("What was my biggest grocery shop in February?", "grocery_receipt", "max", "total_eur", None, FEB),
    ("How many times did I shop at Tesco for groceries?", "grocery_receipt", "count", None,
     ("merchant", "Tesco"), ALL),
    ("How much did I spend at Dunnes Stores on groceries in total?", "grocery_receipt", "sum", "total_eur",
     ("merchant", "Dunnes Stores"), ALL),
    ("What did my card transactions add up to in March?", "card_transaction", "sum", "amount_eur", None, MAR),
    ("How many card transactions did I make in April?", "card_transaction", "count", None, None, APR),
    ("How much have I spent at Spar on my card?", "card_transaction", "sum", "amount_eur", ("payee", "Spar"), ALL),
    ("What was my largest single card payment?", "card_transaction", "max", "amount_eur", None, ALL),
    ("What was my average card transaction in February?", "card_transaction", "avg", "amount_eur", None, FEB),
    ("How many times did I pay at Insomnia Coffee?", "card_transaction", "count", None,
     ("payee", "Insomnia Coffee"), ALL),
    ("What's my average blood glucose across all readings?", "glucose", "avg", "glucose_mmol_l", None, ALL),
    ("What was my average fasting glucose in March?", "glucose", "avg", "glucose_mmol_l",
     ("context", "fasting"), MAR),
    ("What is the highest glucose reading I've logged?", "glucose", "max", "glucose_mmol_l", None, ALL),
    ("What was my lowest glucose reading in April?", "glucose", "min", "glucose_mmol_l", None, APR),
    ("How many after-meal glucose readings have I logged?", "glucose", "count", None, ("context", "after meal"), ALL),
    ("How many glucose readings did I log in February?", "glucose", "count", None, None, FEB),
    ("What's my average bedtime glucose?", "glucose", "avg", "glucose_mmol_l", ("context", "bedtime"), ALL),
]
Q_THEO = [
    ("How many litres of fuel have I bought in total?", "fuel", "sum", "litres", None, ALL),
    ("How much did I spend on fuel in February?", "fuel", "sum", "amount_gbp", None, FEB),
    ("What's the average price per litre I've paid?", "fuel", "avg", "price_per_l_gbp", None, ALL),
    ("How many times did I fill up in March?", "fuel", "count", None, None, MAR),
    ("What's the most fuel I've put in at one fill-up?", "fuel", "max", "litres", None, ALL),
    ("How much have I spent on fuel at Shell Romsey Road?", "fuel", "sum", "amount_gbp",
     ("station", "Shell Romsey Road"), ALL),
    ("What was my average fill-up cost?", "fuel", "avg", "amount_gbp", None, ALL),
    ("How many online orders have I placed in total?", "parcel_order", "count", None, None, ALL),
    ("How much did I spend on online orders in February?", "parcel_order", "sum", "total_gbp", None, FEB),
    ("How much have I spent on Amazon orders altogether?", "parcel_order", "sum", "total_gbp",
     ("merchant", "Amazon"), ALL),
    ("How many of my orders were delivered by Evri?", "parcel_order", "count", None, ("carrier", "Evri"), ALL),
    ("What was my most expensive online order?", "parcel_order", "max", "total_gbp", None, ALL),
    ("What was the average order total in March?", "parcel_order", "avg", "total_gbp", None, MAR),
    ("What's my average sleep per night?", "sleep", "avg", "sleep_h", None, ALL),
    ("How much did I sleep on average in February?", "sleep", "avg", "sleep_h", None, FEB),
    ("What was my shortest night in March?", "sleep", "min", "sleep_h", None, MAR),
    ("How many nights of sleep have I logged?", "sleep", "count", None, None, ALL),
    ("What's the longest I've slept in a night?", "sleep", "max", "sleep_h", None, ALL),
    ("What's my average deep sleep?", "sleep", "avg", "deep_h", None, ALL),
    ("How much have I spent eating out in total?", "restaurant_bill", "sum", "total_gbp", None, ALL),
    ("How much have I tipped altogether?", "restaurant_bill", "sum", "tip_gbp", None, ALL),
    ("How many restaurant or café bills did I have in March?", "restaurant_bill", "count", None, None, MAR),
    ("What's my average spend at Mettricks?", "restaurant_bill", "avg", "total_gbp", ("venue", "Mettricks"), ALL),
    ("What was my most expensive meal out?", "restaurant_bill", "max", "total_gbp", None, ALL),
    ("How many times did I eat at Pho?", "restaurant_bill", "count", None, ("venue", "Pho"), ALL),
    ("How much did I spend eating out in February?", "restaurant_bill", "sum", "total_gbp", None, FEB),
]


def answer(truth: list, kind, op, attr, where, period):
    sel = [t for t in truth if t["kind"] == kind]
    if where:
        sel = [t for t in sel if t["fields"].get(where[0]) == where[1]]
    if period:
        sel = [t for t in sel if period[0] <= t["date"] <= period[1]]
    if attr:
        sel = [t for t in sel if t["fields"].get(attr) is not None]
    assert sel, (kind, op, attr, where, period)
    vals = [t["fields"][attr] for t in sel] if attr else []
    if op == "count":
        v = len(sel)
    elif op == "sum":
        v = round(sum(vals), 3 if attr == "price_per_l_gbp" else 2)
    elif op == "avg":
        v = round(sum(vals) / len(vals), 3 if attr == "price_per_l_gbp" else 2)
    elif op == "min":
        v = min(vals)
    else:
        v = max(vals)
    if isinstance(v, float) and v.is_integer() and attr in ("distance_m",):
        v = int(v)
    return v, sel


def make_questions(name: str, truth: list, specs: list, order: dict) -> list:
    out = []
    per_kind = Counter()
    for i, (q, kind, op, attr, where, period) in enumerate(specs, start=1):
        v, sel = answer(truth, kind, op, attr, where, period)
        lays = {t["layout"] for t in sel}
        assert len(lays) >= 2, (name, q, lays)
        per_kind[kind] += 1
        unit = "count" if op == "count" else UNITS[attr]
        ev = sorted({t["round_id"] for t in sel}, key=lambda r: order[r])
        out.append({
            "question_id": f"rd-{name}-{i:02d}", "history": name, "question": q, "kind": kind, "op": op,
            "attribute": attr,
            "where": [{"attribute": where[0], "value": where[1]}] if where else [],
            "period": {"from": period[0], "to": period[1]} if period else None,
            "gold": {"value": v, "unit": unit},
            "answer": f"{v} {unit}" if unit != "count" else str(v),
            "type": f"analytic.{op}",
            "n_records": len(sel), "layouts": sorted(lays),
            "evidence": ev,
        })
    assert len(out) >= 25
    assert all(c >= 5 for c in per_kind.values()) and len(per_kind) == 4, per_kind
    return out


# ----------------------------------------------------------------------------
# checks and output
# ----------------------------------------------------------------------------

def check(name: str, doc: dict, truth: list) -> dict:
    rids = [r["round_id"] for s in doc["sessions"] for r in s["rounds"]]
    assert len(rids) == len(set(rids)), "duplicate round ids"
    assert 200 <= len(rids) <= 350, len(rids)
    sids = [s["session_id"] for s in doc["sessions"]]
    assert len(sids) == len(set(sids))
    for s in doc["sessions"]:
        for r in s["rounds"]:
            dt.datetime.fromisoformat(r["time"])
            assert r["time"][:10] == s["date"]
    rset = set(rids)
    with_rec = {t["round_id"] for t in truth}
    assert with_rec <= rset
    frac_chat = 1 - len(with_rec) / len(rids)
    assert 0.28 <= frac_chat <= 0.42, frac_chat
    by = Counter()
    for t in truth:
        dt.date.fromisoformat(t["date"])
        assert t["fields"], t
        by[(t["kind"], t["layout"])] += 1
        if t["items"]:
            for it in t["items"]:
                assert abs(it["quantity"] * it["unit_price"] - it["amount"]) < 0.006, it
    kinds = {k for k, _ in by}
    assert len(kinds) == 4, kinds
    for k in kinds:
        lays = {l: c for (kk, l), c in by.items() if kk == k}
        assert len(lays) >= 4, (k, lays)
        assert all(c >= 4 for c in lays.values()), (k, lays)
    # layout used in several rounds (>= 2 rounds; >= 4 rounds for single-record layouts)
    rounds_per = defaultdict(set)
    for t in truth:
        rounds_per[(t["kind"], t["layout"])].add(t["round_id"])
    for key, rs in rounds_per.items():
        assert len(rs) >= 2, key
    return {"rounds": len(rids), "sessions": len(sids), "record_rounds": len(with_rec),
            "chat_only_rounds": len(rids) - len(with_rec), "records": len(truth),
            "per_kind_layout": {f"{k}/{l}": c for (k, l), c in sorted(by.items())},
            "rounds_per_kind_layout": {f"{k}/{l}": len(rs) for (k, l), rs in sorted(rounds_per.items())}}


def write_jsonl(path: str, rows: list) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")


def main() -> None:
    all_q = []
    summary = {}
    for builder, specs in ((build_niamh, Q_NIAMH), (build_theo, Q_THEO)):
        H = builder()
        doc, truth = H.build()
        stats = check(H.name, doc, truth)
        order = {r["round_id"]: i for i, r in enumerate(r for s in doc["sessions"] for r in s["rounds"])}
        qs = make_questions(H.name, truth, specs, order)
        with open(os.path.join(HERE, f"history_{H.name}.json"), "w", encoding="utf-8") as fh:
            json.dump(doc, fh, ensure_ascii=False, indent=1)
            fh.write("\n")
        write_jsonl(os.path.join(HERE, f"truth_{H.name}.jsonl"), truth)
        write_jsonl(os.path.join(HERE, f"questions_{H.name}.jsonl"), qs)
        all_q += qs
        stats["questions"] = len(qs)
        summary[H.name] = stats
    write_jsonl(os.path.join(HERE, "questions.jsonl"), all_q)
    with open(os.path.join(HERE, "stats.json"), "w", encoding="utf-8") as fh:
        json.dump(summary, fh, ensure_ascii=False, indent=1)
        fh.write("\n")
    print(json.dumps(summary, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
