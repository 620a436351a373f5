#!/usr/bin/env python3
"""Held-out corpus of pasted records (two histories) for the records issue.

Seeded and deterministic, standard library only.  Writes, next to this file:
  history_<name>.json, truth_<name>.jsonl, questions_<name>.jsonl, questions.jsonl

Every record is generated once as canonical values, rendered in one layout, and the
truth line is derived from the values *as displayed* (converted to the canonical unit),
so that truth and text agree.  Gold answers are computed from the truth lines only.
"""
import datetime as dt
import json
import os
import random
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20260417

MI_KM = 1.609344
FT_M = 0.3048
LB_KG = 0.45359237


def r2(x):
    return round(x + 1e-9, 2)


def de(x):
    """German money: 1.234,50"""
    s = f"{x:,.2f}"
    return s.replace(",", "_").replace(".", ",").replace("_", ".")


def hms(sec):
    sec = int(round(sec))
    return f"{sec // 3600}:{sec % 3600 // 60:02d}:{sec % 60:02d}"


def days(start, end):
    d = start
    while d <= end:
        yield d
        d += dt.timedelta(days=1)


def at(d, h, m=0):
    return dt.datetime(d.year, d.month, d.day, h, m)


MON = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
MONTH = ["January", "February", "March", "April", "May", "June", "July", "August",
         "September", "October", "November", "December"]
MONAT = ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September",
         "Oktober", "November", "Dezember"]
WD = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


class History:
    def __init__(self, name, user_id, rng):
        self.name = name
        self.user_id = user_id
        self.rng = rng
        self.rounds = []

    def add(self, time, user, assistant, images=None, recs=None, metadata=None):
        r = dict(time=time, user=user.strip(), assistant=assistant, images=images or [],
                 recs=recs or [], metadata=metadata or {})
        self.rounds.append(r)
        return r

    @staticmethod
    def rec(kind, layout, date, fields, items=None):
        return dict(kind=kind, layout=layout, date=date, fields=fields, items=items or [])

    def finish(self):
        rs = sorted(self.rounds, key=lambda r: r["time"])
        sessions = []
        last = None
        for r in rs:
            if last is None or r["time"].date() != last.date() or \
                    (r["time"] - last).total_seconds() > 3 * 3600:
                sessions.append([])
            sessions[-1].append(r)
            last = r["time"]
        doc = {"user_id": self.user_id, "sessions": []}
        truth = []
        for si, sess in enumerate(sessions, 1):
            sid = f"S{si}"
            srounds = []
            for ri, r in enumerate(sess, 1):
                rid = f"{sid}:{ri}"
                out = {"round_id": rid, "time": r["time"].isoformat(timespec="seconds"),
                       "user": r["user"], "assistant": r["assistant"]}
                if r["images"]:
                    imgs = []
                    for ii, im in enumerate(r["images"], 1):
                        x = {"image_id": f"{rid}:IMG_{ii}"}
                        # no image files ship with this set: keep caption/ocr only (a path to a
                        # missing file would be reported as bad input by the reader)
                        x.update({k: v for k, v in im.items() if k != "path"})
                        imgs.append(x)
                    out["images"] = imgs
                if r["metadata"]:
                    out["metadata"] = r["metadata"]
                srounds.append(out)
                for rec in r["recs"]:
                    truth.append({"round_id": rid, "kind": rec["kind"], "layout": rec["layout"],
                                  "date": rec["date"].isoformat(), "fields": rec["fields"],
                                  "items": rec["items"]})
            doc["sessions"].append({"session_id": sid, "date": sess[0]["time"].date().isoformat(),
                                    "rounds": srounds})
        return doc, truth


def add_fillers(h, fillers, n, start, end, followups):
    """Non-record rounds: some follow-ups right after a record round, some on their own."""
    rng = h.rng
    rec_rounds = [r for r in h.rounds if r["recs"]]
    pool = list(fillers)
    rng.shuffle(pool)
    fu = list(followups)
    for i in range(n):
        if i < len(pool):
            item = pool[i]
        else:
            item = rng.choice(fu)
        if len(item) == 3:
            u, a, img = item
        else:
            u, a, img = item[0], item[1], None
        if rng.random() < 0.5 and rec_rounds:
            base = rng.choice(rec_rounds)
            t = base["time"] + dt.timedelta(minutes=rng.randint(2, 40))
        else:
            day = start + dt.timedelta(days=rng.randrange((end - start).days + 1))
            t = at(day, rng.randint(8, 21), rng.randint(0, 59))
        h.add(t, u, a, images=[img] if img else None)


def pick_layouts(rng, n, quotas, rest):
    """quotas: {layout: min count}; remaining filled from `rest` weights."""
    lst = []
    for k, q in quotas.items():
        lst += [k] * q
    assert len(lst) <= n, (n, quotas)
    names, w = zip(*rest)
    while len(lst) < n:
        lst.append(rng.choices(names, w)[0])
    rng.shuffle(lst)
    return lst


# ====================================================================== history 1 ===
# Hannah, Bristol (UK): bike rides, pharmacy receipts, blood pressure, weekly energy use.

H1_START = dt.date(2026, 2, 2)
H1_END = dt.date(2026, 4, 30)

ROUTES = {
    "Commute": dict(km=(19.3, 0.5), spd=(23.0, 1.2), epk=4.5),
    "Canal loop": dict(km=(31.0, 2.5), spd=(25.0, 1.5), epk=3.0),
    "Ashton Court": dict(km=(24.0, 3.0), spd=(19.5, 1.5), epk=15.0),
    "Chew Valley": dict(km=(58.0, 5.0), spd=(24.0, 1.5), epk=11.0),
    "Severn Bridge loop": dict(km=(74.0, 6.0), spd=(25.0, 1.5), epk=8.0),
    "Cheddar Gorge": dict(km=(96.0, 6.0), spd=(22.5, 1.5), epk=13.0),
}


def h1_rides(h):
    rng = h.rng
    rides = []
    for d in days(H1_START, H1_END):
        wd = d.weekday()
        if wd < 5:
            if rng.random() < 0.62 and wd in (0, 1, 3, 4):
                rides.append((d, "Commute", at(d, 7, rng.choice([25, 30, 40]))))
            elif rng.random() < 0.10:
                rides.append((d, "Canal loop", at(d, 17, rng.randint(30, 55))))
        elif wd == 5:
            if rng.random() < 0.85:
                frac = (d - H1_START).days / 88
                opts = ["Chew Valley", "Severn Bridge loop", "Cheddar Gorge", "Canal loop"]
                w = [4, 3 * frac + 0.5, 3 * frac, 2]
                rides.append((d, rng.choices(opts, w)[0], at(d, 8, rng.randint(0, 45))))
        else:
            if rng.random() < 0.55:
                rides.append((d, rng.choice(["Canal loop", "Ashton Court", "Ashton Court", "Chew Valley"]),
                               at(d, 9, rng.randint(0, 50))))
    data = []
    for d, route, start in rides:
        p = ROUTES[route]
        km = max(5, rng.gauss(*p["km"]))
        spd = rng.gauss(*p["spd"])
        sec = km / spd * 3600
        elev = km * p["epk"] * rng.uniform(0.8, 1.2)
        hr = int(round(rng.gauss(138 if route != "Commute" else 128, 5)))
        data.append(dict(date=d, route=route, start=start, km=km, sec=sec, elev=elev, hr=hr))
    n = len(data)
    # three CSV batches of 4 consecutive rides
    layouts = [None] * n
    starts = (int(n * 0.15), int(n * 0.45), int(n * 0.78))
    for s in starts:
        for i in range(s, s + 4):
            layouts[i] = "csv_export"
    free = [i for i in range(n) if layouts[i] is None]
    commutes = [i for i in free if data[i]["route"] == "Commute"]
    canal = [i for i in free if data[i]["route"] == "Canal loop"]
    for i in rng.sample(commutes, 6) + rng.sample(canal, 2):
        layouts[i] = "one_line"
    free = [i for i in range(n) if layouts[i] is None]
    lay = pick_layouts(rng, len(free), {"strava_paste": 7, "garmin_abbrev": 7, "computer_photo": 6},
                       [("strava_paste", 3), ("garmin_abbrev", 3), ("computer_photo", 2)])
    for i, l in zip(free, lay):
        layouts[i] = l
    # CSV batches
    for s in starts:
        batch = data[s:s + 4]
        recs, rows = [], []
        hdr = rng.choice(["Date,Route,Distance (km),Moving time (min),Elev gain (m),Avg HR (bpm)",
                          "date,route,distance_km,moving_min,ascent_m,avg_hr"])
        for x in batch:
            km = round(x["km"], 1)
            mins = int(round(x["sec"] / 60))
            el = int(round(x["elev"]))
            rows.append(f"{x['date'].isoformat()},{x['route']},{km},{mins},{el},{x['hr']}")
            recs.append(h.rec("ride", "csv_export", x["date"],
                              {"distance_km": km, "moving_time_min": mins, "elevation_gain_m": el,
                               "avg_hr_bpm": x["hr"], "route": x["route"]}))
        t = at(batch[-1]["date"] + dt.timedelta(days=rng.randint(1, 2)), 20, rng.randint(0, 50))
        intro = rng.choice(["Exported the last few rides from my ride log spreadsheet:",
                            "catching up — rides from the log:",
                            "Here's the export from the bike app (phone was dead so didn't paste them)"])
        h.add(t, intro + "\n" + hdr + "\n" + "\n".join(rows),
              "Thanks — I've got all four rides from the export.", recs=recs,
              metadata={"source": "csv"})
    for i, x in enumerate(data):
        l = layouts[i]
        if l == "csv_export":
            continue
        delay = 1 if rng.random() < 0.25 else 0
        post = x["start"] + dt.timedelta(seconds=x["sec"] + rng.randint(900, 5400))
        if delay:
            post = at(x["date"] + dt.timedelta(days=1), rng.randint(7, 12), rng.randint(0, 59))
        yest = "Yesterday's ride: " if delay else ""
        route = x["route"]
        if l == "strava_paste":
            km = round(x["km"], 1)
            sec = int(round(x["sec"]))
            el = int(round(x["elev"]))
            spd = round(km / (sec / 3600), 1)
            title = route if route != "Commute" else rng.choice(["Commute", "Commute to school"])
            v = rng.randrange(3)
            if v == 0:
                body = f"{title}\nDistance\n{km} km\nMoving Time\n{hms(sec)}\nElevation\n{el} m\nAvg Speed\n{spd} km/h"
                mins = r2(sec / 60)
            elif v == 1:
                body = f"Strava — {title}: {km} km, moving time {hms(sec)}, elev gain {el} m (avg {spd} km/h)"
                mins = r2(sec / 60)
            else:
                m = int(round(sec / 60))
                body = f"{title} 🚴\n{km} km · {m // 60}h {m % 60:02d}m · {el} m elev"
                mins = m
            rec = h.rec("ride", l, x["date"], {"distance_km": km, "moving_time_min": mins,
                                               "elevation_gain_m": el, "route": route})
            h.add(post, yest + body, rng.choice(["Nice one, saved.", "Logged the ride.",
                                                "Great ride — noted."]), recs=[rec],
                  metadata={"app": "Strava"})
        elif l == "garmin_abbrev":
            mi = round(x["km"] / MI_KM, 2)
            sec = int(round(x["sec"]))
            ft = int(round(x["elev"] / FT_M))
            cal = int(x["km"] * rng.uniform(22, 27))
            dstr = f"{WD[x['date'].weekday()]}, {MON[x['date'].month - 1]} {x['date'].day}"
            v = rng.randrange(3)
            if v == 0:
                body = (f"Garmin Connect · {route} · {dstr}\n"
                        f"Dist {mi:.2f}mi  Time {hms(sec)}  Asc {ft}ft  Avg HR {x['hr']}  Cal {cal}")
            elif v == 1:
                body = (f"{route} ({dstr})\nTime {hms(sec)} | Dist {mi:.2f} mi | Avg HR {x['hr']} bpm | "
                        f"Asc {ft} ft | Cal {cal}")
            else:
                body = f"{dstr} {route} — Dist {mi:.2f}mi, Asc {ft}ft, Time {hms(sec)}, Avg HR {x['hr']}"
            rec = h.rec("ride", l, x["date"], {"distance_km": r2(mi * MI_KM),
                                               "moving_time_min": r2(sec / 60),
                                               "elevation_gain_m": r2(ft * FT_M),
                                               "avg_hr_bpm": x["hr"], "route": route})
            h.add(post, body, rng.choice(["Saved from Garmin.", "Got it.", "Logged — good effort."]),
                  recs=[rec], metadata={"app": "Garmin Connect"})
        elif l == "computer_photo":
            km = round(x["km"], 2)
            sec = int(round(x["sec"]))
            el = int(round(x["elev"]))
            spd = round(km / (sec / 3600), 1)
            if rng.random() < 0.6:
                img = {"caption": "Photo of a bike computer screen on the handlebars",
                       "ocr": f"DIST\n{km:.2f} km\nRIDE TIME\n{hms(sec)}\nAVG SPD\n{spd} km/h\nASCENT\n{el} m\n"
                              f"{rng.randint(4, 14)}°C"}
            else:
                img = {"caption": f"Wahoo bike computer showing distance {km:.2f} km, ride time {hms(sec)}, "
                                  f"avg speed {spd} km/h, ascent {el} m"}
            img["path"] = f"images/ride_{x['date'].isoformat()}.jpg"
            fields = {"distance_km": km, "moving_time_min": r2(sec / 60), "elevation_gain_m": el}
            if rng.random() < 0.65 or route == "Commute":
                ut = rng.choice([f"{route} today, pic of the head unit",
                                 f"{route} done 📸", f"screen after {route}"])
                if route == "Commute":
                    ut = rng.choice(["commute both ways today, screen pic", "commute, head unit pic"])
                fields["route"] = route
            else:
                ut = rng.choice(["today's ride", "📸", "pic from the ride"])
            if delay:
                ut = ut.replace("today", "yesterday").replace("today's", "yesterday's")
                if "yesterday" not in ut:
                    ut = "from yesterday: " + ut
            h.add(post, ut, rng.choice(["Got it from the photo.", "Saved.", "Nice — noted."]),
                  images=[img], recs=[h.rec("ride", l, x["date"], fields)])
        elif l == "one_line":
            mi = round(x["km"] / MI_KM, 1)
            m = int(round(x["sec"] / 60))
            if route == "Commute":
                body = rng.choice([f"Bike commute both ways today, {mi} mi, {m} min moving",
                                   f"commuted on the bike — {mi} miles, {m} mins",
                                   f"rode to school and back: {mi}mi / {m}min"])
            else:
                tm = f"{m // 60}h{m % 60:02d}" if m >= 60 else f"{m} min"
                body = rng.choice([f"quick canal loop after work, {mi} miles in {tm}",
                                   f"Canal loop this evening — {mi} mi, {tm}"])
            if delay:
                body = body.replace("today", "yesterday").replace("this evening", "yesterday evening")
                if "yesterday" not in body:
                    body = "yesterday: " + body
            h.add(post, body, rng.choice(["Noted.", "Logged.", "👍 saved"]),
                  recs=[h.rec("ride", l, x["date"], {"distance_km": r2(mi * MI_KM),
                                                      "moving_time_min": m, "route": route})])


PHARM = [  # name, receipt short name, price, stores
    ("Nurofen 200mg Tablets 24", "NUROFEN 200MG TABS 24", 4.75),
    ("Paracetamol 500mg Caplets 16", "PARACETAMOL CAPS 16", 0.79),
    ("Piriton Allergy Tablets 30", "PIRITON TABS 30", 5.29),
    ("Rennie Peppermint 24", "RENNIE PEPPERMINT 24", 3.25),
    ("Strepsils Honey & Lemon 24", "STREPSILS HON/LEM 24", 4.49),
    ("Sudafed Blocked Nose Spray 15ml", "SUDAFED NASAL SPR", 6.49),
    ("Olbas Oil 10ml", "OLBAS OIL 10ML", 4.95),
    ("Vitamin D 1000IU 90 Tablets", "VIT D 1000IU 90S", 6.50),
    ("Colgate Total Toothpaste 75ml", "COLGATE TOTAL 75ML", 3.50),
    ("Elastoplast Fabric Plasters 20", "ELASTOPLAST FABRIC 20", 2.75),
    ("Calpol 6+ Suspension 80ml", "CALPOL 6+ 80ML", 4.69),
    ("Simple Moisturiser 125ml", "SIMPLE MOIST 125ML", 4.99),
    ("Cetirizine Hayfever Tablets 30", "CETIRIZINE 10MG 30", 2.99),
    ("Deep Heat Cream 35g", "DEEP HEAT 35G", 4.80),
    ("Savlon Antiseptic Cream 30g", "SAVLON CREAM 30G", 3.60),
    ("Duracell AA Batteries 4 pack", "DURACELL AA 4PK", 4.99),
    ("Head & Shoulders Shampoo 250ml", "H&S SHAMPOO 250ML", 4.00),
    ("Imodium Instants 6", "IMODIUM INST 6", 4.55),
]
RX = ("NHS Prescription Charge", "NHS PRESC CHARGE", 9.90)
STORES = {"Boots": ["Boots Broadmead", "Boots Clifton Village", "Boots Whiteladies Rd"],
          "Superdrug": ["Superdrug Broadmead", "Superdrug Gloucester Rd"],
          "Day Lewis Pharmacy": ["Day Lewis Pharmacy, 118 Gloucester Road"],
          "Well Pharmacy": ["Well Pharmacy, Cotham Hill"]}


def basket(rng, catalogue, k_lo, k_hi, rx_ok=False, qty2=0.2):
    k = rng.randint(k_lo, k_hi)
    picks = rng.sample(catalogue, k)
    if rx_ok and rng.random() < 0.3:
        picks = [RX] + picks[:-1] if k > 1 else [RX]
    out = []
    for p in picks:
        q = 2 if (rng.random() < qty2 and p is not RX) else 1
        out.append((p, q))
    return out


def h1_pharmacy(h):
    rng = h.rng
    n = 30
    dates = sorted(rng.sample(list(days(H1_START, H1_END)), n))
    lay = pick_layouts(rng, n, {"receipt_photo": 8, "app_ereceipt": 6, "email_forward": 6, "typed_note": 7},
                       [("receipt_photo", 1), ("typed_note", 1)])
    merch_for = {"receipt_photo": ["Boots", "Boots", "Superdrug", "Day Lewis Pharmacy", "Well Pharmacy"],
                 "app_ereceipt": ["Boots", "Superdrug"],
                 "email_forward": ["Boots", "Superdrug"],
                 "typed_note": ["Boots", "Day Lewis Pharmacy", "Day Lewis Pharmacy", "Well Pharmacy", "Superdrug"]}
    cyc = defaultdict(list)
    for d, l in zip(dates, lay):
        if not cyc[l]:
            cyc[l] = rng.sample(merch_for[l], len(merch_for[l]))
        m = cyc[l].pop()
        store = rng.choice(STORES[m])
        t = at(d, rng.randint(9, 18), rng.randint(0, 59))
        items = basket(rng, PHARM, 1 if l != "typed_note" else 2, 5 if l != "typed_note" else 3,
                       rx_ok=(m != "Superdrug" and l != "email_forward"))
        tr_items = []
        if l == "receipt_photo":
            lines = [m.upper(), store.replace(m, "").strip(", ") or "Bristol",
                     f"VAT REG NO {rng.randint(100, 999)} {rng.randint(1000, 9999)} {rng.randint(10, 99)}",
                     "-" * 28]
            for (name, short, price), q in items:
                amt = r2(price * q)
                lines.append(f"{short:<22}£{amt:.2f}")
                if q > 1:
                    lines.append(f"  {q} @ £{price:.2f}")
                tr_items.append({"item": short, "quantity": q, "unit_price": price, "amount": amt})
            tot = r2(sum(i["amount"] for i in tr_items))
            lbl = rng.choice(["BALANCE DUE", "TOTAL", "TOTAL TO PAY"])
            lines += ["-" * 28, f"{lbl:<22}£{tot:.2f}",
                      rng.choice(["VISA CONTACTLESS", "MASTERCARD", "CASH"]) + f"  £{tot:.2f}",
                      f"{d.day:02d}/{d.month:02d}/{d.year} {t.hour:02d}:{t.minute:02d}  ST {rng.randint(1000, 9999)}"
                      f"  TILL {rng.randint(1, 6)}"]
            ut = rng.choice(["receipt from today", "keeping this one", "", "for the spreadsheet pls",
                             "another receipt"])
            t2 = t + dt.timedelta(minutes=rng.randint(10, 180))
            h.add(t2, ut, rng.choice(["Saved the receipt.", "Got it — receipt filed.", "Filed."]),
                  images=[{"path": f"images/receipt_{d.isoformat()}.jpg",
                           "caption": "Photo of a crumpled paper till receipt", "ocr": "\n".join(lines)}],
                  recs=[h.rec("pharmacy_receipt", l, d, {"merchant": m, "total_gbp": tot}, tr_items)])
        elif l == "app_ereceipt":
            if m == "Boots":
                lines = ["Boots app · Digital receipt", store,
                         f"{d.day} {MONTH[d.month - 1]} {d.year}, {t.hour:02d}:{t.minute:02d}", ""]
                for (name, short, price), q in items:
                    amt = r2(price * q)
                    if q > 1:
                        lines.append(f"{q} x {name}  £{price:.2f} each  £{amt:.2f}")
                    else:
                        lines.append(f"1 x {name}  £{amt:.2f}")
                    tr_items.append({"item": name, "quantity": q, "unit_price": price, "amount": amt})
                tot = r2(sum(i["amount"] for i in tr_items))
                lines += ["", f"Total paid  £{tot:.2f}", f"Advantage Card points earned: {int(tot * 4)}"]
            else:
                lines = ["Superdrug — e-receipt", f"Store: {store}",
                         f"Date: {d.day:02d}/{d.month:02d}/{d.year} {t.hour:02d}:{t.minute:02d}", "Items:"]
                for (name, short, price), q in items:
                    amt = r2(price * q)
                    lines.append(f"- {name} x{q} ... £{amt:.2f}")
                    tr_items.append({"item": name, "quantity": q, "unit_price": price, "amount": amt})
                tot = r2(sum(i["amount"] for i in tr_items))
                lines += [f"TOTAL £{tot:.2f}", f"Health & Beauty Card points: {int(tot)}"]
            ut = rng.choice(["", "from the app:", "e-receipt 👇"])
            h.add(t + dt.timedelta(minutes=rng.randint(5, 300)), (ut + "\n" if ut else "") + "\n".join(lines),
                  rng.choice(["Saved.", "Got the e-receipt.", "Filed it."]),
                  recs=[h.rec("pharmacy_receipt", l, d, {"merchant": m, "total_gbp": tot}, tr_items)],
                  metadata={"app": m})
        elif l == "email_forward":
            oid = rng.randint(10 ** 9, 10 ** 10 - 1)
            frm = "Boots.com <noreply@orders.boots.com>" if m == "Boots" else "Superdrug <orders@superdrug.com>"
            subj = (f"Your Boots.com order {oid} is confirmed" if m == "Boots"
                    else f"Order confirmation - {oid}")
            lines = ["---------- Forwarded message ---------", f"From: {frm}",
                     f"Date: {WD[d.weekday()]}, {d.day} {MON[d.month - 1]} {d.year} at {t.hour:02d}:{t.minute:02d}",
                     f"Subject: {subj}", "To: Hannah Price <hannah.price@example.co.uk>", "",
                     "Hi Hannah,", "Thanks for your order. Here's a summary:", ""]
            for (name, short, price), q in items:
                amt = r2(price * q)
                lines.append(f"{name}    Qty {q}    £{amt:.2f}")
                tr_items.append({"item": name, "quantity": q, "unit_price": price, "amount": amt})
            sub = r2(sum(i["amount"] for i in tr_items))
            deliv = 0.0 if sub >= 25 else (3.50 if m == "Boots" else 3.99)
            lines.append(f"Subtotal: £{sub:.2f}")
            lines.append(f"Delivery: £{deliv:.2f}" if deliv else "Delivery: FREE")
            if deliv:
                tr_items.append({"item": "Delivery", "quantity": 1, "unit_price": deliv, "amount": deliv})
            tot = r2(sub + deliv)
            lines += [f"Order total: £{tot:.2f}", "", "We'll let you know when it's on its way."]
            delay = rng.choice([0, 0, 1, 2])
            h.add(t + dt.timedelta(days=delay, minutes=rng.randint(5, 200)),
                  rng.choice(["fwd for my records", "can you file this one", "online order 👇", ""]) + "\n\n"
                  + "\n".join(lines), rng.choice(["Filed the order.", "Saved the order confirmation."]),
                  recs=[h.rec("pharmacy_receipt", l, d, {"merchant": m, "total_gbp": tot}, tr_items)])
        else:  # typed_note
            parts = []
            for (name, short, price), q in items:
                amt = r2(price * q)
                nm = name.split(" ")[0] if name is not RX[0] else "prescription"
                nm = nm.lower() if nm not in ("Nurofen", "Piriton", "Rennie", "Strepsils", "Sudafed", "Olbas",
                                              "Colgate", "Elastoplast", "Calpol", "Simple", "Savlon",
                                              "Duracell", "Imodium") else nm
                if name.startswith("Vitamin"):
                    nm = "vitamin D"
                if name.startswith("Head"):
                    nm = "shampoo"
                if name.startswith("Deep"):
                    nm = "Deep Heat"
                if q > 1:
                    parts.append(f"2x {nm} @ {price:.2f}")
                else:
                    parts.append(f"{nm} {price:.2f}")
                tr_items.append({"item": nm, "quantity": q, "unit_price": price, "amount": amt})
            tot = r2(sum(i["amount"] for i in tr_items))
            short_m = {"Boots": "Boots", "Day Lewis Pharmacy": rng.choice(["Day Lewis", "the Day Lewis on Glos Rd"]),
                       "Well Pharmacy": rng.choice(["Well", "Well pharmacy"]), "Superdrug": "Superdrug"}[m]
            v = rng.randrange(3)
            if v == 0:
                body = f"{short_m}: " + ", ".join(parts) + f" = {tot:.2f}"
            elif v == 1:
                body = f"popped into {short_m} on the way home — " + ", ".join(parts) + f". £{tot:.2f} altogether"
            else:
                body = f"{short_m} £{tot:.2f} ({'; '.join(parts)})"
            h.add(t + dt.timedelta(minutes=rng.randint(10, 240)), body,
                  rng.choice(["Noted.", "Added to your spending.", "Got it."]),
                  recs=[h.rec("pharmacy_receipt", l, d, {"merchant": m, "total_gbp": tot}, tr_items)])


def h1_bp(h):
    rng = h.rng
    reads = []
    for d in days(H1_START, H1_END):
        if rng.random() < 0.80:
            reads.append((d, "am"))
        if rng.random() < 0.10:
            reads.append((d, "pm"))
    data = []
    for d, tod in reads:
        frac = (d - H1_START).days / 88
        s = 137 - 9 * frac + rng.gauss(0, 4.5) - (3 if tod == "pm" else 0)
        di = 87 - 6 * frac + rng.gauss(0, 3) - (2 if tod == "pm" else 0)
        p = 69 + rng.gauss(0, 4)
        t = at(d, 7, rng.randint(0, 50)) if tod == "am" else at(d, 21, rng.randint(0, 50))
        data.append(dict(date=d, t=t, s=int(round(s)), d=int(round(di)), p=int(round(p))))
    n = len(data)
    layouts = [None] * n
    batches = [(int(n * 0.08), 6), (int(n * 0.45), 6), (int(n * 0.8), 6)]
    for s, k in batches:
        for i in range(s, s + k):
            layouts[i] = "omron_csv"
    free = [i for i in range(n) if layouts[i] is None]
    lay = pick_layouts(rng, len(free), {"slash_note": 10, "monitor_photo": 9, "withings_notification": 9},
                       [("slash_note", 2), ("monitor_photo", 1), ("withings_notification", 1)])
    for i, l in zip(free, lay):
        layouts[i] = l
    for s, k in batches:
        b = data[s:s + k]
        v = rng.randrange(2)
        if v == 0:
            hdr = "Date,Time,Systolic (mmHg),Diastolic (mmHg),Pulse (bpm),Irregular heartbeat"
            rows = [f"{x['date'].strftime('%d/%m/%Y')},{x['t'].strftime('%H:%M')},{x['s']},{x['d']},{x['p']},No"
                    for x in b]
        else:
            hdr = "Measurement Date;SYS(mmHg);DIA(mmHg);Pulse(bpm)"
            rows = [f"{x['date'].isoformat()} {x['t'].strftime('%H:%M')};{x['s']};{x['d']};{x['p']}" for x in b]
        recs = [h.rec("bp_reading", "omron_csv", x["date"],
                      {"systolic_mmhg": x["s"], "diastolic_mmhg": x["d"], "pulse_bpm": x["p"]}) for x in b]
        t = at(b[-1]["date"] + dt.timedelta(days=1), 19, rng.randint(0, 59))
        h.add(t, rng.choice(["OMRON connect export since last time:", "bp export from the cuff app"]) + "\n"
              + hdr + "\n" + "\n".join(rows),
              "Thanks — all readings from the export are saved.", recs=recs, metadata={"app": "OMRON connect"})
    for i, x in enumerate(data):
        l = layouts[i]
        if l == "omron_csv":
            continue
        fields = {"systolic_mmhg": x["s"], "diastolic_mmhg": x["d"], "pulse_bpm": x["p"]}
        post = x["t"] + dt.timedelta(minutes=rng.randint(1, 25))
        am = x["t"].hour < 12
        when = "this morning" if am else "tonight"
        if l == "slash_note":
            body = rng.choice([f"bp {x['s']}/{x['d']}, pulse {x['p']}",
                               f"BP {when}: {x['s']}/{x['d']} (HR {x['p']})",
                               f"{'Morning' if am else 'Evening'} BP {x['s']}/{x['d']} p{x['p']}",
                               f"{x['s']}/{x['d']} {when}, pulse {x['p']}"])
            h.add(post, body, rng.choice(["Noted.", "Logged your reading.", "Got it."]),
                  recs=[h.rec("bp_reading", l, x["date"], fields)])
        elif l == "monitor_photo":
            if rng.random() < 0.6:
                img = {"caption": "Photo of an upper-arm blood pressure monitor display",
                       "ocr": f"SYS\nmmHg\n{x['s']}\nDIA\nmmHg\n{x['d']}\nPUL\n/min\n{x['p']}\nM"}
            else:
                img = {"caption": f"Blood pressure monitor screen reading SYS {x['s']} DIA {x['d']} "
                                  f"PULSE {x['p']}"}
            img["path"] = f"images/bp_{x['date'].isoformat()}_{x['t'].hour}.jpg"
            h.add(post, rng.choice(["", f"{when}'s", "reading", "📷"]),
                  rng.choice(["Saved the reading.", "Got it from the photo."]),
                  images=[img], recs=[h.rec("bp_reading", l, x["date"], fields)])
        else:
            v = rng.randrange(2)
            if v == 0:
                body = (f"Withings Health Mate\nBlood pressure {x['s']}/{x['d']} mmHg\nHeart rate {x['p']} bpm\n"
                        f"Today, {x['t'].strftime('%H:%M')}")
            else:
                body = (f"Health Mate: New measurement — Systolic {x['s']} mmHg · Diastolic {x['d']} mmHg · "
                        f"Heart rate {x['p']} bpm")
            h.add(post, body, rng.choice(["Logged.", "Saved the measurement."]),
                  recs=[h.rec("bp_reading", l, x["date"], fields)], metadata={"app": "Withings"})
    # clinic readings (white-coat): own layout
    for d, src in [(dt.date(2026, 2, 11), "gp"), (dt.date(2026, 3, 4), "pharm"), (dt.date(2026, 3, 25), "gp"),
                   (dt.date(2026, 4, 15), "pharm"), (dt.date(2026, 4, 22), "gp")]:
        frac = (d - H1_START).days / 88
        s = int(round(145 - 9 * frac + rng.gauss(0, 3)))
        di = int(round(91 - 6 * frac + rng.gauss(0, 2)))
        p = int(round(76 + rng.gauss(0, 3)))
        if src == "gp":
            body = rng.choice([f"Had my review at the surgery — the nurse got {s} over {di}, pulse {p}.",
                               f"GP check today, {s} over {di} and pulse {p}. She wants to keep the dose for now."])
        else:
            body = f"pharmacist did a free BP check while I waited: {s}/{di}, pulse {p}"
        h.add(at(d, rng.randint(11, 16), rng.randint(0, 59)), body,
              "Clinic readings often run a little higher than home ones. Saved it.",
              recs=[h.rec("bp_reading", "clinic_line", d,
                          {"systolic_mmhg": s, "diastolic_mmhg": di, "pulse_bpm": p})])


def h1_energy(h):
    rng = h.rng
    weeks = [H1_START + dt.timedelta(days=7 * i) for i in range(12)]  # Mondays
    plan = ["email_summary", "app_paste", "usage_screenshot", "one_line", "email_summary", "app_paste",
            "tsv_export", "tsv_export", "usage_screenshot", "one_line", "email_summary", "app_paste"]
    vals = []
    for i, w in enumerate(weeks):
        frac = i / 11
        e = rng.gauss(64 - 8 * frac, 4)
        g = rng.gauss(260 - 130 * frac, 18)
        vals.append(dict(start=w, end=w + dt.timedelta(days=6), e=e, g=g))

    def costs(e, g):
        return r2(e * 0.2450 + 7 * 0.5375), r2(g * 0.0634 + 7 * 0.3165)

    def span(v):
        s, e = v["start"], v["end"]
        return f"{s.day} {MON[s.month - 1]} – {e.day} {MON[e.month - 1]}"

    for i, v in enumerate(vals):
        l = plan[i]
        if l == "tsv_export" and i == 7:
            continue
        e = round(v["e"], 1)
        g = round(v["g"], 1)
        ce, cg = costs(e, g)
        end = v["end"]
        post = at(end + dt.timedelta(days=1), rng.randint(8, 20), rng.randint(0, 59))
        if l == "email_summary":
            body = ("---------- Forwarded message ---------\nFrom: Octopus Energy <hello@octopus.energy>\n"
                    f"Date: {WD[post.weekday()]}, {post.day} {MON[post.month - 1]} {post.year}\n"
                    f"Subject: Your energy use for {span(v)}\n\nHi Hannah,\n\nHere's how last week went:\n"
                    f"⚡ Electricity: {e} kWh — £{ce:.2f}\n🔥 Gas: {g} kWh — £{cg:.2f}\n"
                    "(costs include standing charges)\n\nSee you next week,\nOctopus Energy")
            recs = [h.rec("energy_use", l, end, {"fuel": "electricity", "usage_kwh": e, "cost_gbp": ce}),
                    h.rec("energy_use", l, end, {"fuel": "gas", "usage_kwh": g, "cost_gbp": cg})]
            h.add(post, "weekly energy email\n\n" + body, "Saved both fuels for that week.", recs=recs)
        elif l == "app_paste":
            body = (f"Octopus app > Usage > Week {span(v)}\nElectricity\n{e} kWh · £{ce:.2f}\n"
                    f"Gas\n{g} kWh · £{cg:.2f}")
            recs = [h.rec("energy_use", l, end, {"fuel": "electricity", "usage_kwh": e, "cost_gbp": ce}),
                    h.rec("energy_use", l, end, {"fuel": "gas", "usage_kwh": g, "cost_gbp": cg})]
            h.add(post, body, "Got last week's usage.", recs=recs, metadata={"app": "Octopus Energy"})
        elif l == "usage_screenshot":
            img = {"path": f"images/energy_{end.isoformat()}.png",
                   "caption": "Screenshot of an energy app usage screen",
                   "ocr": f"Your usage\n{span(v)}\nElectricity  {e} kWh\nCost  £{ce:.2f}\nGas  {g} kWh\n"
                          f"Cost  £{cg:.2f}\nCompared with last week"}
            recs = [h.rec("energy_use", l, end, {"fuel": "electricity", "usage_kwh": e, "cost_gbp": ce}),
                    h.rec("energy_use", l, end, {"fuel": "gas", "usage_kwh": g, "cost_gbp": cg})]
            h.add(post, rng.choice(["last week's energy", "usage screen"]), "Saved the week's usage.",
                  images=[img], recs=recs)
        elif l == "one_line":
            ei, gi = int(round(v["e"])), int(round(v["g"]))
            s = v["start"]
            body = rng.choice([f"energy w/c {s.day} {MON[s.month - 1]}: elec {ei} kWh, gas {gi} kWh",
                               f"meter app says week of {s.day}/{s.month}: {ei} kWh electric / {gi} kWh gas"])
            recs = [h.rec("energy_use", l, end, {"fuel": "electricity", "usage_kwh": ei}),
                    h.rec("energy_use", l, end, {"fuel": "gas", "usage_kwh": gi})]
            h.add(post, body, "Noted both.", recs=recs)
        elif l == "tsv_export":
            rows, recs = [], []
            for vv in (vals[6], vals[7]):
                ee, gg = round(vv["e"], 1), round(vv["g"], 1)
                c1, c2 = costs(ee, gg)
                for fuel, u, c in (("Electricity", ee, c1), ("Gas", gg, c2)):
                    rows.append(f"{vv['start'].isoformat()}\t{fuel}\t{u}\t{c:.2f}")
                    recs.append(h.rec("energy_use", l, vv["end"],
                                      {"fuel": fuel.lower(), "usage_kwh": u, "cost_gbp": c}))
            post = at(vals[7]["end"] + dt.timedelta(days=2), 20, 10)
            h.add(post, "missed a couple of weeks, here's the export:\nWeek starting\tFuel\tUsage (kWh)\tCost (£)\n"
                  + "\n".join(rows), "Saved all four rows (two weeks, both fuels).", recs=recs,
                  metadata={"source": "tsv"})


H1_FILLERS = [
    ("Morning! Any tips for staying warm on winter rides without overheating?",
     "Layer thin: a base layer, a windproof gilet and overshoes, then shed the gilet once you're warm."),
    ("What's a sensible tyre pressure for 28mm tyres?",
     "For most riders around 70–80 psi is a good start; go a bit lower on rough roads."),
    ("Remind me to book the bike in for a service before Easter.", "Noted — bike service before Easter."),
    ("Is it normal for home blood pressure to be lower than at the GP?",
     "Yes, many people read lower at home; it's often called the white-coat effect."),
    ("What's the difference between amlodipine and ramipril, roughly?",
     "Amlodipine is a calcium channel blocker; ramipril is an ACE inhibitor. Your GP chooses based on your situation."),
    ("Quick vegetarian dinner idea with lentils?", "A red lentil dal with tomatoes, ginger and spinach — about 25 minutes."),
    ("Year 9 parents' evening tonight, wish me luck", "Good luck! Have one positive point ready for each student."),
    ("How do I bleed a radiator?",
     "Heating off, open the bleed valve a quarter turn until water appears, close it, then check the boiler pressure."),
    ("Should I switch to a fixed tariff this spring?",
     "Compare the fixed unit rates with the price cap forecast; fixing makes sense if it's close to or below the cap."),
    ("Is cycling in the rain bad for the chain?", "Not if you clean and re-lube it afterwards; a wet lube helps in winter."),
    ("Good stretches after long rides?", "Hip flexors, hamstrings, quads and calves, about 30 seconds each."),
    ("Tom's birthday next Saturday — ideas for a 10-year-old into Lego?",
     "A Lego Technic or Minecraft set usually goes down well at that age."),
    ("How much caffeine is too much with high blood pressure?",
     "Guidance usually says under about 400 mg a day; some people with hypertension do better with less."),
    ("Thinking about the Dragon Ride in June, is that realistic?",
     "With steady training and a couple of long rides beforehand, yes."),
    ("What should I carry on a 3-hour ride?", "Two bottles, snacks, a spare tube, levers, pump, rain jacket and phone."),
    ("The boiler's making a banging noise again", "That's often kettling from limescale; worth getting an engineer to flush it."),
    ("What does a smart meter actually measure?",
     "It records electricity or gas through the meter every half hour and sends it to your supplier."),
    ("Feeling a bit run down this week", "Rest and sleep help — maybe swap a hard ride for an easy spin."),
    ("Podcast suggestions for the turbo trainer?", "The Cycling Podcast, or a light comedy panel show."),
    ("What's a good cadence for climbing?", "Around 70–85 rpm keeps the load off your knees."),
    ("Can you draft a polite email to the landlord about the damp in the bathroom?",
     "Sure — here's a short draft that describes the problem, when you noticed it and asks for a visit."),
    ("How long should I rest before measuring blood pressure?", "Sit quietly for about five minutes, feet flat, arm supported."),
    ("Should I measure on the left or right arm?", "Use the arm that gave the higher reading at your first check, and stick to it."),
    ("Any good route ideas south of Bristol that avoid the A37?",
     "Try the lanes through Winford and Chew Magna, or the Strawberry Line towards Cheddar."),
    ("Marking mocks all weekend 😩", "Sounds like a slog — maybe break it up with a short ride."),
    ("What's a good snack for long rides that isn't a gel?", "Flapjack, bananas, rice cakes with jam or a small sandwich."),
    ("How often should I replace brake pads?", "When the grooves are worn away or you hear metal; in winter that can be a few months."),
    ("Is it worth getting a heat pump for a 1930s semi?",
     "Possibly, with insulation first; get a heat-loss survey to size it properly."),
    ("Book club tonight — we're doing Tomorrow, and Tomorrow, and Tomorrow", "Enjoy! It's a good one to discuss."),
    ("How do I get Tom to read more?", "Let him pick, try graphic novels, and read together for ten minutes a night."),
    ("Does salt really matter that much for blood pressure?",
     "Yes, for many people cutting salt lowers systolic pressure by a few points."),
    ("What's the best way to clean a bike drivetrain quickly?", "Degreaser on the chain, brush the cassette, rinse, dry and re-lube."),
    ("Any idea why my knee aches after long rides?", "Often saddle height or cleat position; worth a bike fit if it persists."),
    ("Can you summarise the new school timetable changes for me?",
     "Send me the text and I'll summarise it in a few bullet points."),
    ("It's snowing! No riding today", "Enjoy the rest day — maybe some stretching instead."),
    ("Should I put the heating on a timer or leave it on low?", "For most homes a timer uses less energy than leaving it on low all day."),
    ("Is ibuprofen ok with blood pressure tablets?", "It can raise blood pressure and interact with some tablets; ask your pharmacist."),
    ("Easter holidays start Friday!", "Lovely — any plans?"),
    ("Going to Cornwall for four days over Easter", "Sounds great. Taking the bike?"),
    ("What's a good gear ratio for hilly sportives?", "A compact 50/34 with an 11-32 cassette suits most hilly events."),
    ("Write me a short note for the school newsletter about the cycling club",
     "Here's a friendly three-sentence note inviting students to join the Thursday cycling club."),
    ("How much water should I drink on a ride?", "Roughly one bottle an hour, more when it's warm."),
    ("Do I need to calibrate my blood pressure monitor?", "Most home monitors should be checked against a clinic device every year or two."),
    ("Rain all week apparently", "Good week for the turbo trainer then."),
    ("Can you recommend a lightweight rain jacket?", "Look for a packable waterproof shell with taped seams and a dropped tail."),
    ("I keep forgetting my evening tablet", "Try linking it to a habit, like brushing your teeth, or set a phone reminder."),
    ("What's the easiest way to lower my gas bill?", "Turn the thermostat down a degree, lower the boiler flow temperature and draught-proof."),
    ("Lovely sunny ride weather finally ☀️", "Enjoy it!"),
    ("How do I fix a slow puncture?", "Find the hole by pumping the tube and listening, then patch it or swap the tube and check the tyre for glass."),
    ("Can you help me plan meals for next week?", "Sure — five dinners, one batch-cooked, with a shared shopping list?"),
    ("Planning the Cheddar Gorge loop on Saturday, it's about 60 miles with the climb.",
     "Sounds great — take plenty of food for the gorge."),
    ("Dad's reading at his check-up was 152/94, should he be worried?",
     "That's above target; he should ask his GP about repeat readings."),
    ("Octopus emailed that the unit rate changes from April.", "Thanks — worth checking your direct debit afterwards."),
    ("My sister says she rode 100 km last weekend, I'm jealous", "You'll get there — your long rides are building up."),
    ("Here's the view from the top of Dundry Hill", "Beautiful view!",
     {"path": "images/dundry.jpg", "caption": "View over Bristol from Dundry Hill on a clear morning"}),
    ("Look at this sunset over the Suspension Bridge", "Gorgeous.",
     {"path": "images/bridge.jpg", "caption": "Clifton Suspension Bridge at sunset"}),
    ("New bar tape!", "Looks smart.", {"path": "images/bartape.jpg", "caption": "Close-up of red handlebar tape on a road bike"}),
]
H1_FOLLOW = [("thanks!", "You're welcome."), ("cheers", "Any time."), ("ok great", "👍"),
             ("is that a lot?", "It's within your usual range."), ("thanks, that's helpful", "Glad it helps."),
             ("perfect", "👍"), ("👍", "😊")]


def build_h1(rng):
    h = History("hannah", "hannah", rng)
    h1_rides(h)
    h1_pharmacy(h)
    h1_bp(h)
    h1_energy(h)
    nrec = len(h.rounds)
    add_fillers(h, H1_FILLERS, int(nrec * 0.5), H1_START, H1_END, H1_FOLLOW)
    return h


H1_QUESTIONS = [
    # ride
    ("How many kilometres did I ride in total in March?", "ride", "sum", "distance_km", None,
     ("2026-03-01", "2026-03-31")),
    ("What was my average ride distance over the whole period?", "ride", "avg", "distance_km", None, None),
    ("How many times did I ride the Canal loop?", "ride", "count", None, ("route", "Canal loop"), None),
    ("What was the most climbing I did on a single ride?", "ride", "max", "elevation_gain_m", None, None),
    ("How many minutes of moving time did I log on the bike in April?", "ride", "sum", "moving_time_min", None,
     ("2026-04-01", "2026-04-30")),
    ("What was my average heart rate across rides in February and March?", "ride", "avg", "avg_hr_bpm", None,
     ("2026-02-01", "2026-03-31")),
    ("How far did I ride commuting in total?", "ride", "sum", "distance_km", ("route", "Commute"), None),
    ("What was my longest Chew Valley ride?", "ride", "max", "distance_km", ("route", "Chew Valley"), None),
    # pharmacy
    ("How much did I spend at pharmacies and drugstores in March?", "pharmacy_receipt", "sum", "total_gbp", None,
     ("2026-03-01", "2026-03-31")),
    ("How much have I spent at Boots altogether?", "pharmacy_receipt", "sum", "total_gbp", ("merchant", "Boots"), None),
    ("How many times did I buy something at Day Lewis?", "pharmacy_receipt", "count", None,
     ("merchant", "Day Lewis Pharmacy"), None),
    ("What was my most expensive pharmacy receipt?", "pharmacy_receipt", "max", "total_gbp", None, None),
    ("What's my average spend per pharmacy trip?", "pharmacy_receipt", "avg", "total_gbp", None, None),
    ("How many pharmacy or drugstore receipts do I have from February?", "pharmacy_receipt", "count", None, None,
     ("2026-02-01", "2026-02-28")),
    ("How much did I spend at Superdrug?", "pharmacy_receipt", "sum", "total_gbp", ("merchant", "Superdrug"), None),
    # bp
    ("What was my average systolic blood pressure in March?", "bp_reading", "avg", "systolic_mmhg", None,
     ("2026-03-01", "2026-03-31")),
    ("What was my highest systolic reading overall?", "bp_reading", "max", "systolic_mmhg", None, None),
    ("How many blood pressure readings did I take in April?", "bp_reading", "count", None, None,
     ("2026-04-01", "2026-04-30")),
    ("What was my average diastolic pressure over all readings?", "bp_reading", "avg", "diastolic_mmhg", None, None),
    ("What was my lowest pulse at a blood pressure reading in February?", "bp_reading", "min", "pulse_bpm", None,
     ("2026-02-01", "2026-02-28")),
    ("What was my lowest diastolic reading in April?", "bp_reading", "min", "diastolic_mmhg", None,
     ("2026-04-01", "2026-04-30")),
    # energy
    ("How much electricity did we use in total over all the weeks I logged?", "energy_use", "sum", "usage_kwh",
     ("fuel", "electricity"), None),
    ("What was our average weekly gas use in the weeks from 2 to 29 March?", "energy_use", "avg", "usage_kwh",
     ("fuel", "gas"), ("2026-03-02", "2026-03-29")),
    ("What was the highest weekly electricity cost?", "energy_use", "max", "cost_gbp", ("fuel", "electricity"), None),
    ("How much did gas cost us in total in the weeks of February (2 Feb to 1 Mar)?", "energy_use", "sum", "cost_gbp",
     ("fuel", "gas"), ("2026-02-02", "2026-03-01")),
    ("What was the lowest weekly gas use?", "energy_use", "min", "usage_kwh", ("fuel", "gas"), None),
    ("How many weekly usage entries (either fuel) do I have for the weeks from 30 March to 26 April?",
     "energy_use", "count", None, None, ("2026-03-30", "2026-04-26")),
]


# ====================================================================== history 2 ===
# Tomas, Berlin freelance designer: train/bus trips, DIY store receipts, body weight, invoices.

H2_START = dt.date(2026, 1, 12)
H2_END = dt.date(2026, 4, 12)

STATIONS = {"Berlin": ("Berlin Hbf", "Berlin ZOB"), "Potsdam": ("Potsdam Hbf", "Potsdam Hbf"),
            "Hamburg": ("Hamburg Hbf", "Hamburg ZOB"), "Leipzig": ("Leipzig Hbf", "Leipzig Hbf (Ostseite)"),
            "Dresden": ("Dresden Hbf", "Dresden Hbf (Bayrische Str.)"), "Prague": ("Praha hl.n.", "Praha ÚAN Florenc"),
            "Rostock": ("Rostock Hbf", "Rostock ZOB")}
LONG = {  # dest: (mode, fare range, duration min)
    "Hamburg": ("train", [17.99, 21.99, 27.99, 34.99, 49.99], 112),
    "Leipzig": ("bus", [9.99, 12.99, 14.99, 19.99], 145),
    "Dresden": ("bus", [11.99, 14.99, 18.99, 22.99], 150),
    "Prague": ("bus", [24.99, 29.99, 34.99], 275),
    "Rostock": ("train", [19.99, 24.99, 29.99], 155),
}


def h2_trips(h):
    rng = h.rng
    legs = []  # dict(date, dep datetime, origin, dest, mode, fare, dur)
    potsdam_days = []
    for d in days(H2_START, H2_END):
        if d.weekday() in (1, 3) and rng.random() < 0.75:
            potsdam_days.append(d)
    for d in potsdam_days:
        out = at(d, 8, rng.choice([4, 34])) if True else None
        back = at(d, rng.choice([16, 17, 18]), rng.choice([4, 34]))
        legs.append(dict(date=d, dep=out, origin="Berlin", dest="Potsdam", mode="train", fare=4.70,
                         dur=rng.choice([33, 35, 37]), pday=True))
        legs.append(dict(date=d, dep=back, origin="Potsdam", dest="Berlin", mode="train", fare=4.70,
                         dur=rng.choice([33, 35, 37]), pday=True))
    weekends = [d for d in days(H2_START, H2_END) if d.weekday() == 5]
    trips = rng.sample(weekends, 10)
    dests = ["Hamburg", "Hamburg", "Hamburg", "Hamburg", "Leipzig", "Leipzig", "Dresden", "Prague", "Rostock",
             "Dresden"]
    rng.shuffle(dests)
    for d, dest in zip(sorted(trips), dests):
        mode, fares, dur = LONG[dest]
        back_d = d + dt.timedelta(days=1)
        for (o, t, dd) in (("Berlin", dest, d), (dest, "Berlin", back_d)):
            legs.append(dict(date=dd, dep=at(dd, rng.randint(7, 17), rng.choice([4, 15, 34, 45])), origin=o,
                             dest=t, mode=mode, fare=rng.choice(fares), dur=dur + rng.randint(-6, 12), pday=False))
    legs.sort(key=lambda x: x["dep"])
    # Potsdam days: table batches / ticket photo / one-liner both legs
    pd_sorted = sorted(potsdam_days)
    k = len(pd_sorted)
    md_batches = [pd_sorted[j:j + 2] for j in (2, int(k * 0.45), int(k * 0.8))]
    md_days = {d for b in md_batches for d in b}
    rest_days = [d for d in pd_sorted if d not in md_days]
    choice = {}
    for i, d in enumerate(rest_days):
        choice[d] = "ticket_photo" if i % 2 == 0 else "one_line"
    by_day = defaultdict(list)
    for x in legs:
        if x["pday"]:
            by_day[x["date"]].append(x)

    def rec(x, layout, fields_extra=None):
        f = {"origin": x["origin"], "destination": x["dest"], "mode": x["mode"], "fare_eur": x["fare"]}
        if fields_extra:
            f.update(fields_extra)
        return h.rec("trip", layout, x["date"], f)

    for b in md_batches:
        rows, recs = [], []
        for d in b:
            for x in by_day[d]:
                rows.append(f"| {d.day:02d}.{d.month:02d}. | {x['origin']} | {x['dest']} | RE1 | {de(x['fare'])} |")
                recs.append(rec(x, "md_table"))
        t = at(b[-1] + dt.timedelta(days=rng.randint(2, 5)), 18, rng.randint(0, 59))
        h.add(t, rng.choice(["Travel expenses log (for the tax folder):", "my Fahrtkosten table so far:"])
              + "\n| Date | From | To | Line | Fare (€) |\n|---|---|---|---|---|\n" + "\n".join(rows),
              "Saved all rows from the table.", recs=recs, metadata={"source": "notes app"})
    for d, l in choice.items():
        out, back = by_day[d]
        if l == "ticket_photo":
            for x in (out, back) if rng.random() < 0.5 else (out,):
                st_o = STATIONS[x["origin"]][0]
                st_d = STATIONS[x["dest"]][0]
                img = {"path": f"images/ticket_{d.isoformat()}_{x['dep'].hour}.jpg",
                       "caption": "Photo of a printed train ticket from a ticket machine",
                       "ocr": f"DB Fahrkarte\nEINZELFAHRT\nVON: {st_o}\nNACH: {st_d}\nVBB Tarifbereich ABC\n"
                              f"Gültig am {d.day:02d}.{d.month:02d}.{str(d.year)[2:]} ab {x['dep'].strftime('%H:%M')}\n"
                              f"Erwachsener 1\nPreis EUR {de(x['fare'])}\nMwSt 7% enthalten"}
                h.add(x["dep"] - dt.timedelta(minutes=rng.randint(3, 12)),
                      rng.choice(["ticket", "for expenses", "", "Potsdam ticket"]),
                      rng.choice(["Saved the ticket.", "Filed for expenses."]), images=[img],
                      recs=[rec(x, "ticket_photo")])
        else:
            body = rng.choice([f"RE1 to Potsdam and back today, {de(out['fare'])} € each way",
                               f"Potsdam for Nordlicht today — train there and back, {out['fare']:.2f} each way",
                               f"train Potsdam & back, 2× {de(out['fare'])}€"])
            h.add(back["dep"] + dt.timedelta(minutes=rng.randint(40, 120)), body, "Noted both legs.",
                  recs=[rec(out, "one_line"), rec(back, "one_line")])
    # long distance legs
    for x in [x for x in legs if not x["pday"]]:
        r = rng.random()
        arr = x["dep"] + dt.timedelta(minutes=x["dur"])
        if x["mode"] == "train" and r < 0.8:
            booked = x["dep"] - dt.timedelta(days=rng.randint(3, 20), hours=rng.randint(0, 10))
            booked = booked.replace(hour=rng.randint(19, 22))
            train = f"ICE {rng.randint(500, 1699)}" if x["dest"] in ("Hamburg",) or x["origin"] == "Hamburg" \
                else f"IC {rng.randint(2000, 2399)}"
            oid = f"{rng.randint(100, 999)} {rng.randint(100, 999)} {rng.randint(100, 999)} {rng.randint(100, 999)}"
            body = ("---------- Forwarded message ---------\nFrom: DB Fernverkehr <buchungsbestaetigung@bahn.de>\n"
                    f"Date: {WD[booked.weekday()]}, {booked.day} {MON[booked.month - 1]} {booked.year}, "
                    f"{booked.strftime('%H:%M')}\nSubject: Booking confirmation (Order {oid})\n\n"
                    f"Your journey\nOutward journey on {x['date'].day:02d}.{x['date'].month:02d}.{x['date'].year}\n"
                    f"{STATIONS[x['origin']][0]}  dep {x['dep'].strftime('%H:%M')}  platform {rng.randint(1, 14)}\n"
                    f"{STATIONS[x['dest']][0]}  arr {arr.strftime('%H:%M')}  platform {rng.randint(1, 14)}\n"
                    f"{train}, Super Sparpreis, 2nd class, 1 adult, BahnCard 25\n\n"
                    f"Total price  {de(x['fare'])} €\nincl. 7% VAT {de(r2(x['fare'] * 7 / 107))} €")
            h.add(booked, rng.choice(["booked!", "fwd", "booking for the weekend trip"]) + "\n\n" + body,
                  rng.choice(["Saved the booking.", "Got the ticket details."]),
                  recs=[rec(x, "db_email", {"duration_min": x["dur"]})])
        elif x["mode"] == "bus" and r < 0.8:
            booked = x["dep"] - dt.timedelta(days=rng.randint(1, 14))
            booked = booked.replace(hour=rng.randint(18, 22), minute=rng.randint(0, 59))
            dd = x["dur"]
            body = (f"FlixBus\nBooking no. {rng.randint(3000, 3999)} {rng.randint(100, 999)} {rng.randint(100, 999)}\n"
                    f"{WD[x['date'].weekday()]}, {x['date'].day} {MON[x['date'].month - 1]} · "
                    f"{x['dep'].strftime('%H:%M')} {STATIONS[x['origin']][1]} → {arr.strftime('%H:%M')} "
                    f"{STATIONS[x['dest']][1]}\n{dd // 60}h {dd % 60:02d}m · Direct\n1 Adult · Total €{x['fare']:.2f}")
            h.add(booked, body, rng.choice(["Saved the bus booking.", "Got it."]),
                  recs=[rec(x, "flixbus_app", {"duration_min": dd})], metadata={"app": "FlixBus"})
        else:
            hm = f"{x['dur'] // 60}h{x['dur'] % 60:02d}"
            vehicle = "ICE" if x["mode"] == "train" else "Flixbus"
            if x["dest"] == "Berlin":
                body = rng.choice([f"back from {x['origin']} on the {vehicle}, {x['fare']:.2f}, {hm}",
                                   f"{vehicle} {x['origin']} → Berlin done, {de(x['fare'])}€ ({hm})"])
                t = arr + dt.timedelta(minutes=rng.randint(20, 90))
                f = {"duration_min": x["dur"]}
            else:
                body = f"{vehicle} to {x['dest']} tomorrow, booked for {x['fare']:.2f}"
                t = at(x["date"] - dt.timedelta(days=1), rng.randint(19, 22), rng.randint(0, 59))
                f = None
            h.add(t, body, "Noted.", recs=[rec(x, "one_line", f)])


HW = [  # german name, english short, price
    ("Spax Universalschrauben 4x40 200 St.", "screws 4x40", 8.49),
    ("Ponal Express Holzleim 225 g", "wood glue", 6.99),
    ("Schleifpapier-Set K80-240 10 St.", "sandpaper set", 4.99),
    ("tesa Malerkrepp 30 mm x 50 m", "masking tape", 3.79),
    ("Alpina Wandfarbe weiß 10 l", "white paint 10l", 39.95),
    ("Farbroller 25 cm Set", "paint roller", 7.49),
    ("Fischer Dübel SX 6 100 St.", "wall plugs", 3.99),
    ("Silikon transparent 310 ml", "silicone", 6.49),
    ("Kartuschenpistole", "caulking gun", 9.99),
    ("LED Leuchtmittel E27 2er", "LED bulbs", 7.99),
    ("Kabelbinder 100 St.", "cable ties", 2.99),
    ("Abdeckfolie 4 x 5 m", "dust sheet", 2.49),
    ("Pinselset 3-tlg.", "brushes", 5.99),
    ("Osmo Holzlasur 2,5 l", "wood stain", 34.95),
    ("Terrassendiele Douglasie 2,4 m", "decking board", 12.99),
    ("Blumenerde 40 l", "potting soil", 5.49),
    ("Bit-Set 32-tlg.", "bit set", 14.99),
    ("Spachtelmasse 5 kg", "filler", 9.49),
    ("Arbeitshandschuhe Gr. 9", "gloves", 3.49),
    ("Möbelscharnier 35 mm 2 St.", "hinges", 4.29),
]


def h2_hardware(h):
    rng = h.rng
    n = 25
    dates = sorted(rng.sample([d for d in days(H2_START, H2_END) if d.weekday() != 6], n))
    lay = pick_layouts(rng, n, {"receipt_photo": 7, "order_email": 5, "app_ebon": 6, "typed_list": 6},
                       [("receipt_photo", 1)])
    merch_for = {"receipt_photo": ["Bauhaus", "OBI", "Hornbach", "toom"], "order_email": ["Hornbach", "OBI"],
                 "app_ebon": ["Bauhaus", "toom"], "typed_list": ["Bauhaus", "OBI", "toom", "Hornbach"]}
    stores = {"Bauhaus": "Berlin-Neukölln, Grenzallee 21", "OBI": "Markt Berlin-Treptow",
              "Hornbach": "Berlin-Tempelhof", "toom": "Berlin-Britz"}
    cyc = defaultdict(list)
    for d, l in zip(dates, lay):
        if not cyc[l]:
            cyc[l] = rng.sample(merch_for[l], len(merch_for[l]))
        m = cyc[l].pop()
        t = at(d, rng.randint(9, 18), rng.randint(0, 59))
        picks = rng.sample(HW, rng.randint(1, 5) if l != "typed_list" else rng.randint(2, 4))
        items = [(p, (rng.choice([2, 3, 4]) if rng.random() < 0.25 else 1)) for p in picks]
        tr = []
        if l == "receipt_photo":
            lines = [m.upper() if m != "toom" else "toom Baumarkt", stores[m], f"Tel. 030 {rng.randint(1000000, 9999999)}",
                     "=" * 30]
            for (gname, en, price), q in items:
                amt = r2(price * q)
                lines.append(f"{gname[:24]:<24} {de(amt)} A")
                if q > 1:
                    lines.append(f"  {q} x {de(price)}")
                tr.append({"item": gname[:24], "quantity": q, "unit_price": price, "amount": amt})
            tot = r2(sum(i["amount"] for i in tr))
            net = r2(tot / 1.19)
            lines += ["=" * 30, f"SUMME EUR {de(tot):>18}", f"Gegeben EC-Karte {de(tot)}",
                      f"A 19% MwSt {de(r2(tot - net))}  Netto {de(net)}",
                      f"{d.day:02d}.{d.month:02d}.{d.year} {t.strftime('%H:%M')} Kasse {rng.randint(1, 9)} "
                      f"Bon {rng.randint(1000, 9999)}"]
            h.add(t + dt.timedelta(minutes=rng.randint(20, 200)),
                  rng.choice(["receipt from today", "Kassenbon", "", "balcony stuff"]),
                  rng.choice(["Saved.", "Got the receipt."]),
                  images=[{"path": f"images/bon_{d.isoformat()}.jpg", "caption": "Photo of a long thermal till receipt",
                           "ocr": "\n".join(lines)}],
                  recs=[h.rec("hardware_receipt", l, d, {"merchant": m, "total_eur": tot}, tr)])
        elif l == "order_email":
            oid = rng.randint(10 ** 7, 10 ** 8 - 1)
            frm = "HORNBACH <service@hornbach.de>" if m == "Hornbach" else "OBI Online-Shop <noreply@obi.de>"
            lines = ["---------- Forwarded message ---------", f"From: {frm}",
                     f"Date: {d.day:02d}.{d.month:02d}.{d.year}, {t.strftime('%H:%M')}",
                     f"Subject: Ihre Bestellung {oid} – Bestellbestätigung", "",
                     "Hallo Tomas Berger,", "vielen Dank für Ihre Bestellung.", "",
                     "Artikel | Menge | Einzelpreis | Gesamt"]
            for (gname, en, price), q in items:
                amt = r2(price * q)
                lines.append(f"{gname} | {q} | {de(price)} € | {de(amt)} €")
                tr.append({"item": gname, "quantity": q, "unit_price": price, "amount": amt})
            sub = r2(sum(i["amount"] for i in tr))
            ship = 0.0 if sub >= 50 else 4.95
            lines.append(f"Zwischensumme: {de(sub)} €")
            lines.append(f"Versandkosten: {de(ship)} €" if ship else "Versandkosten: kostenlos")
            if ship:
                tr.append({"item": "Versandkosten", "quantity": 1, "unit_price": ship, "amount": ship})
            tot = r2(sub + ship)
            lines += [f"Gesamtsumme inkl. MwSt.: {de(tot)} €", f"enthaltene MwSt. 19%: {de(r2(tot - tot / 1.19))} €"]
            h.add(t + dt.timedelta(days=rng.choice([0, 0, 1, 3]), minutes=rng.randint(5, 120)),
                  rng.choice(["fyi order from " + m, "online order", ""]) + "\n\n" + "\n".join(lines),
                  "Filed the order.", recs=[h.rec("hardware_receipt", l, d, {"merchant": m, "total_eur": tot}, tr)])
        elif l == "app_ebon":
            head = (f"BAUHAUS App – digital receipt\nStore: Berlin-Neukölln" if m == "Bauhaus"
                    else "toom App — eBon\nMarkt: Berlin-Britz")
            lines = [head, f"{d.day:02d}.{d.month:02d}.{d.year} {t.strftime('%H:%M')}", ""]
            for (gname, en, price), q in items:
                amt = r2(price * q)
                lines.append(f"{q} × {gname} à {de(price)} € = {de(amt)} €")
                tr.append({"item": gname, "quantity": q, "unit_price": price, "amount": amt})
            tot = r2(sum(i["amount"] for i in tr))
            lines += ["", f"Total: {de(tot)} €" if m == "Bauhaus" else f"Bezahlt: {de(tot)} € (girocard)"]
            h.add(t + dt.timedelta(minutes=rng.randint(10, 300)), "\n".join(lines),
                  rng.choice(["Saved the eBon.", "Got it."]),
                  recs=[h.rec("hardware_receipt", l, d, {"merchant": m, "total_eur": tot}, tr)],
                  metadata={"app": m})
        else:
            parts = []
            for (gname, en, price), q in items:
                amt = r2(price * q)
                parts.append(f"{q} {en} @ {price:.2f}" if q > 1 else f"{en} {price:.2f}")
                tr.append({"item": en, "quantity": q, "unit_price": price, "amount": amt})
            tot = r2(sum(i["amount"] for i in tr))
            body = rng.choice([f"{m} run: " + ", ".join(parts) + f" → {tot:.2f}",
                               f"Bought at {m}: " + ", ".join(parts) + f" — {tot:.2f} all up",
                               f"{m} {tot:.2f}€ ({'; '.join(parts)})"])
            h.add(t + dt.timedelta(minutes=rng.randint(10, 120)), body, rng.choice(["Noted.", "Got it."]),
                  recs=[h.rec("hardware_receipt", l, d, {"merchant": m, "total_eur": tot}, tr)])


def h2_weight(h):
    rng = h.rng
    data = []
    for d in days(H2_START, H2_END):
        if rng.random() < 0.8:
            frac = (d - H2_START).days / 90
            kg = 84.6 - 3.6 * frac + rng.gauss(0, 0.45)
            bf = 23.2 - 1.8 * frac + rng.gauss(0, 0.4)
            data.append(dict(date=d, kg=kg, bf=bf, t=at(d, 7, rng.randint(0, 40))))
    n = len(data)
    layouts = [None] * n
    batches = [(int(n * 0.1), 5), (int(n * 0.42), 5), (int(n * 0.75), 5)]
    for s, k in batches:
        for i in range(s, s + k):
            layouts[i] = "renpho_csv"
    free = [i for i in range(n) if layouts[i] is None]
    lay = pick_layouts(rng, len(free), {"withings_paste": 14, "hand_note": 10, "inbody_photo": 6,
                                        "renpho_screenshot": 6}, [("withings_paste", 2), ("hand_note", 1)])
    for i, l in zip(free, lay):
        layouts[i] = l
    for s, k in batches:
        b = data[s:s + k]
        rows, recs = [], []
        for x in b:
            lb = round(x["kg"] / LB_KG, 1)
            bf = round(x["bf"] + 0.6, 1)
            bmi = round(x["kg"] / 1.84 ** 2, 1)
            rows.append(f"{x['date'].isoformat()} {x['t'].strftime('%H:%M:%S')},{lb},{bmi},{bf},{round(lb * 0.56, 1)}")
            recs.append(h.rec("weight", "renpho_csv", x["date"], {"weight_kg": r2(lb * LB_KG), "body_fat_pct": bf}))
        t = at(b[-1]["date"] + dt.timedelta(days=rng.randint(1, 3)), 21, rng.randint(0, 59))
        h.add(t, rng.choice(["Export from Lena's scale app (the days I weighed at hers):",
                             "Renpho export, couple of days:"])
              + "\nTime of Measurement,Weight(lb),BMI,Body Fat(%),Skeletal Muscle(lb)\n" + "\n".join(rows),
              "Saved those weigh-ins (converted from lb).", recs=recs, metadata={"app": "Renpho"})
    for i, x in enumerate(data):
        l = layouts[i]
        if l == "renpho_csv":
            continue
        post = x["t"] + dt.timedelta(minutes=rng.randint(2, 60))
        if l == "withings_paste":
            kg, bf = round(x["kg"], 1), round(x["bf"], 1)
            body = rng.choice([f"Withings · Weight {kg} kg · Fat {bf} % · {x['t'].strftime('%H:%M')}",
                               f"Body+ scale\nWeight: {kg} kg\nFat mass: {bf}%\nMuscle mass: {round(kg * 0.71, 1)} kg",
                               f"Withings: {kg} kg, body fat {bf} %"])
            h.add(post, body, rng.choice(["Logged.", "Saved."]), metadata={"app": "Withings"},
                  recs=[h.rec("weight", l, x["date"], {"weight_kg": kg, "body_fat_pct": bf})])
        elif l == "hand_note":
            kg = round(x["kg"], 1)
            body = rng.choice([f"{kg} kg this morning", f"weighed in at {kg}kg", f"weight today {kg} kg",
                               f"scale: {str(kg).replace('.', ',')} kg"])
            h.add(post, body, rng.choice(["Noted.", "👍 logged."]),
                  recs=[h.rec("weight", l, x["date"], {"weight_kg": kg})])
        elif l == "inbody_photo":
            kg, pbf = round(x["kg"] + 0.4, 1), round(x["bf"] - 0.8, 1)  # clothes on / different method
            t = at(x["date"], 18, rng.randint(0, 59))
            smm = round(kg * 0.445, 1)
            bfm = round(kg * pbf / 100, 1)
            img = {"path": f"images/inbody_{x['date'].isoformat()}.jpg",
                   "caption": "Photo of an InBody result sheet from the gym",
                   "ocr": f"InBody 270\nID tomas.b   Height 184cm   Age 38   Gender Male\n"
                          f"Test Date / Time {x['date'].year}.{x['date'].month:02d}.{x['date'].day:02d}. "
                          f"{t.strftime('%H:%M')}\nBody Composition Analysis\n"
                          f"Weight (kg) {kg}  (63.2 ~ 85.6)\nSkeletal Muscle Mass (kg) {smm}\n"
                          f"Body Fat Mass (kg) {bfm}\nBMI (kg/m²) {round(kg / 1.84 ** 2, 1)}\n"
                          f"PBF Percent Body Fat (%) {pbf}\nInBody Score {rng.randint(74, 82)}/100"}
            h.add(t + dt.timedelta(minutes=10), rng.choice(["gym printout", "InBody from today", ""]),
                  "Saved the InBody result.", images=[img],
                  recs=[h.rec("weight", l, x["date"], {"weight_kg": kg, "body_fat_pct": pbf})])
        else:
            lb = round(x["kg"] / LB_KG, 1)
            bf = round(x["bf"] + 0.6, 1)
            img = {"path": f"images/renpho_{x['date'].isoformat()}.png",
                   "caption": f"Renpho app screenshot: Weight {lb} lb, Body Fat {bf}%, BMI {round(x['kg'] / 1.84 ** 2, 1)}"}
            h.add(post, rng.choice(["at Lena's this morning", "her scale only does lb 🙄", "this morning"]),
                  "Saved (converted to kg).", images=[img],
                  recs=[h.rec("weight", l, x["date"], {"weight_kg": r2(lb * LB_KG), "body_fat_pct": bf})])


CLIENTS = {
    "Nordlicht GmbH": dict(names=["Nordlicht GmbH", "Nordlicht", "NORDLICHT GMBH"], mail="buchhaltung@nordlicht-potsdam.de"),
    "Kiez Bäckerei": dict(names=["Kiez Bäckerei", "Kiez Bakery", "the bakery (Kiez Bäckerei)"], mail="hallo@kiezbaeckerei.de"),
    "Studio Vogel": dict(names=["Studio Vogel", "Studio Vogel", "Vogel"], mail="office@studiovogel.de"),
    "Havel Verlag": dict(names=["Havel Verlag", "Havel Verlag", "Havel"], mail="herstellung@havel-verlag.de"),
}


def inv_items(rng, client, d, retainer_months):
    if client == "Nordlicht GmbH":
        if d.month not in retainer_months:
            retainer_months.add(d.month)
            it = [(f"Design retainer {MONTH[d.month - 1]} {d.year}", 1, 1500.00)]
            if rng.random() < 0.5:
                it.append(("Additional UI screens (hours)", rng.choice([4, 6, 8, 10, 12]), 85.00))
        else:
            it = [("Additional UI screens (hours)", rng.choice([6, 8, 10, 12, 16]), 85.00)]
    elif client == "Kiez Bäckerei":
        it = rng.sample([("Menu card redesign", 1, 320.00), ("Instagram templates (set of 6)", 1, 180.00),
                         ("Print adjustments (hours)", rng.choice([2, 3, 4]), 65.00),
                         ("Price sign templates", 1, 120.00)], rng.randint(1, 2))
    elif client == "Studio Vogel":
        it = [("Design support (hours)", rng.choice([12, 16, 20, 24, 30]), 75.00)]
    else:
        it = [(f"Book cover design '{rng.choice(['Spreewald', 'Die Havel', 'Nachtzug', 'Kiefern', 'Stille Wasser'])}'",
               1, 850.00)]
        if rng.random() < 0.5:
            it.append(("Cover revisions (hours)", rng.choice([2, 3, 5]), 70.00))
    return it


def h2_invoices(h):
    rng = h.rng
    dates = sorted(rng.sample([d for d in days(H2_START, H2_END) if d.weekday() < 5], 27))
    clients = []
    for d in dates:
        clients.append(rng.choices(list(CLIENTS), [3, 2, 3, 2])[0])
    # ensure Nordlicht at month ends
    invs = []
    retainer_months = set()
    for i, (d, c) in enumerate(zip(dates, clients)):
        its = inv_items(rng, c, d, retainer_months)
        tr = [{"item": n_, "quantity": q, "unit_price": p, "amount": r2(q * p)} for n_, q, p in its]
        net = r2(sum(x["amount"] for x in tr))
        vat = r2(net * 0.19)
        invs.append(dict(date=d, client=c, no=f"2026-{i + 7:03d}", items=tr, net=net, vat=vat, tot=r2(net + vat)))
    lay = [None] * len(invs)
    md_batches = [[3, 4, 5], [17, 18, 19]]
    for b in md_batches:
        for i in b:
            lay[i] = "md_table"
    free = [i for i in range(len(invs)) if lay[i] is None]
    ll = pick_layouts(rng, len(free), {"sent_email": 6, "lexoffice_notice": 5, "pdf_screenshot": 5, "one_line": 4},
                      [("sent_email", 1), ("lexoffice_notice", 1)])
    for i, l in zip(free, ll):
        lay[i] = l

    def rec(x, l, with_items):
        return h.rec("invoice", l, x["date"], {"client": x["client"], "invoice_no": x["no"], "net_eur": x["net"],
                                               "vat_eur": x["vat"], "total_eur": x["tot"]},
                     x["items"] if with_items else [])

    for b in md_batches:
        rows = []
        for i in b:
            x = invs[i]
            rows.append(f"| {x['no']} | {x['date'].day:02d}.{x['date'].month:02d}.{x['date'].year} | {x['client']} | "
                        f"{de(x['net'])} | {de(x['vat'])} | {de(x['tot'])} |")
        t = at(invs[b[-1]]["date"] + dt.timedelta(days=rng.randint(3, 6)), 20, rng.randint(0, 59))
        h.add(t, "Invoices I sent while you weren't tracking (from my spreadsheet):\n"
              "| Nr. | Date | Client | Net (€) | VAT 19% (€) | Gross (€) |\n|---|---|---|---|---|---|\n" + "\n".join(rows),
              "Saved all three invoices.", recs=[rec(invs[i], "md_table", False) for i in b],
              metadata={"source": "spreadsheet"})
    for i, x in enumerate(invs):
        l = lay[i]
        if l == "md_table":
            continue
        d = x["date"]
        t = at(d, rng.randint(10, 18), rng.randint(0, 59))
        nm = rng.choice(CLIENTS[x["client"]]["names"])
        if l == "sent_email":
            lines = ["---------- Forwarded message ---------", "From: Tomas Berger <mail@tomasberger.design>",
                     f"Date: {WD[d.weekday()]}, {d.day} {MON[d.month - 1]} {d.year}, {t.strftime('%H:%M')}",
                     f"To: {CLIENTS[x['client']]['mail']}",
                     f"Subject: Rechnung {x['no']} – {nm}", "",
                     "Hallo,", f"anbei meine Rechnung {x['no']} für folgende Leistungen:", ""]
            for it in x["items"]:
                if it["quantity"] > 1:
                    lines.append(f"- {it['item']}: {it['quantity']} × {de(it['unit_price'])} € = {de(it['amount'])} €")
                else:
                    lines.append(f"- {it['item']}: {de(it['amount'])} €")
            lines += ["", f"Netto {de(x['net'])} € + 19 % USt. {de(x['vat'])} € = {de(x['tot'])} €",
                      "Zahlbar innerhalb von 14 Tagen.", "", "Viele Grüße", "Tomas"]
            h.add(t + dt.timedelta(minutes=rng.randint(2, 60)), "sent this one out:\n\n" + "\n".join(lines),
                  "Saved the invoice.", recs=[rec(x, l, True)])
        elif l == "lexoffice_notice":
            body = rng.choice([
                f"lexoffice: Rechnung {x['no']} an {nm} wurde versendet.\nNetto {de(x['net'])} € · USt. {de(x['vat'])} € · "
                f"Brutto {de(x['tot'])} €\nRechnungsdatum {d.day:02d}.{d.month:02d}.{d.year}",
                f"lexoffice\nInvoice {x['no']} sent to {nm}\nDate: {d.day:02d}.{d.month:02d}.{d.year}\n"
                f"Net amount {de(x['net'])} €\nVAT 19% {de(x['vat'])} €\nTotal {de(x['tot'])} €"])
            h.add(t + dt.timedelta(minutes=1), body, "Saved.", recs=[rec(x, l, False)], metadata={"app": "lexoffice"})
        elif l == "pdf_screenshot":
            lines = ["Tomas Berger · Grafikdesign · Weserstr. 58 · 12045 Berlin", nm,
                     f"Rechnung Nr. {x['no']}", f"Rechnungsdatum: {d.day:02d}.{d.month:02d}.{d.year}",
                     f"Leistungszeitraum: {MONAT[(d.month - 2) % 12] if d.day < 8 else MONAT[d.month - 1]} {d.year}",
                     "Pos. Beschreibung Menge Einzelpreis Gesamt"]
            for k, it in enumerate(x["items"], 1):
                lines.append(f"{k} {it['item']} {it['quantity']} {de(it['unit_price'])} € {de(it['amount'])} €")
            due = d + dt.timedelta(days=14)
            lines += [f"Nettobetrag {de(x['net'])} €", f"zzgl. 19 % USt. {de(x['vat'])} €",
                      f"Rechnungsbetrag {de(x['tot'])} €",
                      f"Zahlbar bis {due.day:02d}.{due.month:02d}.{due.year} · IBAN DE12 1001 0010 0123 4567 89"]
            h.add(t + dt.timedelta(minutes=rng.randint(2, 90)), rng.choice(["invoice pdf", "this went out today", ""]),
                  "Saved the invoice.", images=[{"path": f"images/invoice_{x['no']}.png",
                                                  "caption": "Screenshot of an invoice PDF", "ocr": "\n".join(lines)}],
                  recs=[rec(x, l, True)])
        else:
            body = rng.choice([f"invoiced {nm} today: {x['net']:.2f} net, {x['tot']:.2f} with VAT",
                               f"sent {nm} their invoice, {de(x['net'])} + 19% = {de(x['tot'])} €",
                               f"Rechnung an {nm} raus — {de(x['tot'])} € brutto ({de(x['net'])} netto)"])
            h.add(t + dt.timedelta(minutes=rng.randint(2, 120)), body, "Noted.",
                  recs=[h.rec("invoice", l, d, {"client": x["client"], "net_eur": x["net"], "vat_eur": x["vat"],
                                                "total_eur": x["tot"]})])


H2_FILLERS = [
    ("Morning. Can you help me word a follow-up for an unpaid invoice?",
     "Sure — a friendly reminder with the invoice number, amount and a new due date usually works."),
    ("What's the Kleinunternehmerregelung limit these days?", "It changed recently; check the current threshold with your Steuerberater."),
    ("How do I stop the balcony boards from greying?", "Oil them once or twice a year with a UV-protecting decking oil."),
    ("Lena and I are thinking about Copenhagen in May", "Nice — the night train or the bus via Rostock ferry are both options."),
    ("Is the Deutschlandticket worth it for me?", "If you ride regional trains and the U-Bahn several times a week, probably yes."),
    ("Best way to drill into Altbau plaster without it crumbling?", "Start without hammer mode, use masking tape on the spot and a sharp bit."),
    ("Can you suggest a font pairing for a bakery menu?", "Try a warm serif like Recoleta for headings with a clean sans like Inter for prices."),
    ("Gym was packed tonight", "January crowds — it usually calms down by February."),
    ("How much protein should I aim for while cutting?", "Around 1.6–2.2 g per kg of body weight is a common target."),
    ("Remind me to send the quarterly VAT return before the 10th", "Noted — VAT return before the 10th."),
    ("What's a good primer for fresh plaster?", "A diluted mist coat or a dedicated Tiefgrund works well before painting."),
    ("Any tips for sleeping on a FlixBus?", "Neck pillow, eye mask, earplugs, and pick a window seat away from the toilet."),
    ("Can you check this sentence for my portfolio: 'I craft brands that breathe'?",
     "It reads a bit abstract; maybe 'I design brands that feel alive and easy to use'."),
    ("Raining in Berlin again", "Typical March. Good day for indoor jobs on the flat."),
    ("What's the difference between Spax and cheap screws really?", "Sharper tips, better threads and harder steel — less splitting and stripping."),
    ("Can I deduct the train to Potsdam as a business expense?", "Trips to clients are generally deductible as travel costs; keep the tickets."),
    ("How do I price a logo for a small bakery?", "Many freelancers quote a flat fee with two revision rounds included."),
    ("Lena's birthday next week, ideas?", "A weekend away, a pottery class together, or something from a local designer."),
    ("How long does Holzlasur need to dry between coats?", "Usually about 12 hours, longer when it's cold and damp."),
    ("Feeling lazy today, skipped the gym", "Rest days count too — just get back to it tomorrow."),
    ("What's a healthy rate of weight loss?", "About 0.5–1% of body weight per week is sustainable for most people."),
    ("Do I need a permit to put a planter box on the balcony railing?", "Usually not, but check the house rules and secure it well."),
    ("Studio Vogel wants me for two more weeks in March", "Nice — worth confirming the hourly rate and the hours in writing."),
    ("What's the quickest way from Hamburg Hbf to the Schanze?", "U3 towards Barmbek to Sternschanze, about ten minutes."),
    ("Which is better for a small flat, roller or brush for ceilings?", "A roller on an extension pole — faster and more even."),
    ("Can you make me a packing list for a weekend in Prague?", "Sure: layers, comfy shoes, adapter not needed, some korunas, rain jacket."),
    ("Client asked for 'more pop' in the design 🙃", "Classic. Ask them to point at an example they like."),
    ("How do I fix a squeaky door hinge?", "Lift the pin, clean it, add a drop of oil or a little Vaseline and refit."),
    ("Should I get a cordless drill or a corded one?", "Cordless is more convenient; a good 18 V model handles most home jobs."),
    ("How many calories is a Döner roughly?", "Often 600–900 kcal depending on the size and sauce."),
    ("Plans for Easter?", "Not sure yet — maybe a lake day if the weather holds."),
    ("What's a fair day rate for a senior designer in Berlin?", "It varies a lot, but many senior freelancers charge several hundred euros a day."),
    ("Thinking about booking Hamburg again next month, fares look cheap", "Book early for the Super Sparpreis."),
    ("Quote for Nordlicht's relaunch went out — fingers crossed", "Good luck! When do they decide?"),
    ("How do I remove old silicone from the bathtub?", "Cut it out with a blade, use a silicone remover, then clean with spirit."),
    ("Any stretches for my lower back after sitting all day?", "Cat-cow, child's pose and hip flexor stretches, a few minutes each."),
    ("The S-Bahn is delayed again", "Ugh. Is the RE an option?"),
    ("Should I invoice Studio Vogel weekly or monthly?", "Whatever is in the contract; weekly smooths your cash flow."),
    ("What's the best way to store leftover paint?", "Seal the lid tightly, store upside down somewhere frost-free."),
    ("Balcony's finally done!", "Congrats! Looks like a great spot for summer.",
     {"path": "images/balcony.jpg", "caption": "Freshly oiled wooden balcony with two chairs and plants"}),
    ("New moodboard for the bakery", "Warm palette, nice.",
     {"path": "images/moodboard.png", "caption": "Moodboard with cream, rust and dark green tones and bread photos"}),
    ("View from the train", "Pretty.", {"path": "images/elbe.jpg", "caption": "The Elbe river seen from a train window"}),
    ("Lena weighed herself on my scale, she says it's broken 😂", "Scales rarely win popularity contests."),
    ("My mum asks what I'd like for my birthday", "Maybe a good tool you've been eyeing, like a jigsaw?"),
    ("Which VAT rate applies to design work for a German client?", "Standard 19% for most design services."),
    ("How do I politely say no to a rush job?", "Thank them, explain your current load and offer a later start date."),
    ("Can you summarise the tax deadlines for freelancers this year?", "Send me your situation and I'll list the relevant dates."),
    ("Long day. Three client calls.", "Sounds tiring — get some rest."),
    ("Is 10,000 steps a day still the thing?", "It's a handy target; benefits start well below that too."),
    ("Found a great Vietnamese place near Hermannplatz", "Nice — what did you have?"),
]
H2_FOLLOW = [("thanks", "You're welcome."), ("danke!", "Gern!"), ("ok", "👍"), ("great", "😊"),
             ("perfect, thanks", "Any time."), ("👌", "👍")]


def build_h2(rng):
    h = History("tomas", "tomas", rng)
    h2_trips(h)
    h2_hardware(h)
    h2_weight(h)
    h2_invoices(h)
    nrec = len(h.rounds)
    add_fillers(h, H2_FILLERS, int(nrec * 0.5), H2_START, H2_END, H2_FOLLOW)
    return h


H2_QUESTIONS = [
    # trip
    ("How much did I spend on train and bus fares in February?", "trip", "sum", "fare_eur", None,
     ("2026-02-01", "2026-02-28")),
    ("How many trips did I make to Potsdam?", "trip", "count", None, ("destination", "Potsdam"), None),
    ("What was the most I paid for a single trip?", "trip", "max", "fare_eur", None, None),
    ("What was my average fare over all trips?", "trip", "avg", "fare_eur", None, None),
    ("How much did I spend on bus trips in total?", "trip", "sum", "fare_eur", ("mode", "bus"), None),
    ("How many trips did I take in March?", "trip", "count", None, None, ("2026-03-01", "2026-03-31")),
    ("What was the average journey time of my trips that have a duration?", "trip", "avg", "duration_min", None, None),
    # hardware
    ("How much did I spend at DIY stores in March?", "hardware_receipt", "sum", "total_eur", None,
     ("2026-03-01", "2026-03-31")),
    ("How much have I spent at Bauhaus in total?", "hardware_receipt", "sum", "total_eur", ("merchant", "Bauhaus"), None),
    ("How many times did I buy from OBI?", "hardware_receipt", "count", None, ("merchant", "OBI"), None),
    ("What was my biggest DIY receipt?", "hardware_receipt", "max", "total_eur", None, None),
    ("What's my average DIY receipt?", "hardware_receipt", "avg", "total_eur", None, None),
    ("How many hardware store receipts do I have from January and February?", "hardware_receipt", "count", None,
     None, ("2026-01-01", "2026-02-28")),
    # weight
    ("What was my average weight in February?", "weight", "avg", "weight_kg", None, ("2026-02-01", "2026-02-28")),
    ("What was my lowest weight in March?", "weight", "min", "weight_kg", None, ("2026-03-01", "2026-03-31")),
    ("What was my highest recorded weight?", "weight", "max", "weight_kg", None, None),
    ("How many times did I weigh myself in March?", "weight", "count", None, None, ("2026-03-01", "2026-03-31")),
    ("What was my average body fat percentage over everything I logged?", "weight", "avg", "body_fat_pct", None, None),
    ("What was my lowest weight overall?", "weight", "min", "weight_kg", None, None),
    # invoice
    ("How much did I invoice in total (gross) in March?", "invoice", "sum", "total_eur", None,
     ("2026-03-01", "2026-03-31")),
    ("How much net have I invoiced Nordlicht GmbH in total?", "invoice", "sum", "net_eur",
     ("client", "Nordlicht GmbH"), None),
    ("How many invoices did I send to Studio Vogel?", "invoice", "count", None, ("client", "Studio Vogel"), None),
    ("What was my largest invoice (gross)?", "invoice", "max", "total_eur", None, None),
    ("What's the average net amount of my invoices?", "invoice", "avg", "net_eur", None, None),
    ("How much VAT did I charge in total in January and February?", "invoice", "sum", "vat_eur", None,
     ("2026-01-01", "2026-02-28")),
    ("How much have I billed Kiez Bäckerei including VAT?", "invoice", "sum", "total_eur", ("client", "Kiez Bäckerei"),
     None),
]

UNITS = {"_km": "km", "_min": "min", "_m": "m", "_bpm": "bpm", "_gbp": "GBP", "_mmhg": "mmHg", "_kwh": "kWh",
         "_eur": "EUR", "_kg": "kg", "_pct": "%"}


def unit_of(attr):
    if attr is None:
        return None
    for suf, u in sorted(UNITS.items(), key=lambda kv: -len(kv[0])):
        if attr.endswith(suf):
            return u
    raise ValueError(attr)


def make_questions(name, truth, specs):
    out = []
    for qi, (text, kind, op, attr, where, period) in enumerate(specs, 1):
        sel = []
        for t in truth:
            if t["kind"] != kind:
                continue
            if period and not (period[0] <= t["date"] <= period[1]):
                continue
            if where and t["fields"].get(where[0]) != where[1]:
                continue
            if attr and attr not in t["fields"]:
                continue
            sel.append(t)
        assert sel, (name, text)
        lays = {t["layout"] for t in sel}
        kind_lays = {t["layout"] for t in truth if t["kind"] == kind}
        assert len(lays) >= 2 or len(kind_lays) < 2, (name, text, lays)
        vals = [t["fields"][attr] for t in sel] if attr else []
        if op == "sum":
            v = r2(sum(vals))
        elif op == "avg":
            v = r2(sum(vals) / len(vals))
        elif op == "count":
            v = len(sel)
        elif op == "min":
            v = min(vals)
        else:
            v = max(vals)
        ev = []
        for t in sel:
            if t["round_id"] not in ev:
                ev.append(t["round_id"])
        out.append({"question_id": f"rh-{name}-{qi:02d}", "history": name, "question": text, "kind": kind, "op": op,
                    "attribute": attr,
                    "where": [{"attribute": where[0], "value": where[1]}] if where else [],
                    "period": {"from": period[0], "to": period[1]} if period else None,
                    "gold": {"value": v, "unit": unit_of(attr) if op != "count" else "records"},
                    "evidence": ev, "n_records": len(sel), "layouts": sorted(lays)})
    return out


def check(name, doc, truth, questions):
    rids = [r["round_id"] for s in doc["sessions"] for r in s["rounds"]]
    assert len(rids) == len(set(rids)), "duplicate round ids"
    assert 200 <= len(rids) <= 350, (name, len(rids))
    sids = [s["session_id"] for s in doc["sessions"]]
    assert len(sids) == len(set(sids))
    rset = set(rids)
    for t in truth:
        dt.date.fromisoformat(t["date"])
        assert t["round_id"] in rset
    for s in doc["sessions"]:
        for r in s["rounds"]:
            dt.datetime.fromisoformat(r["time"])
    by = defaultdict(Counter)
    for t in truth:
        by[t["kind"]][t["layout"]] += 1
    assert len(by) == 4, by
    for k, c in by.items():
        assert len(c) >= 4 and all(n >= 4 for n in c.values()), (name, k, c)
    qk = Counter(q["kind"] for q in questions)
    assert len(questions) >= 25 and all(qk[k] >= 5 for k in by), qk
    rec_rounds = {t["round_id"] for t in truth}
    share = 1 - len(rec_rounds) / len(rids)
    assert 0.25 <= share <= 0.45, (name, share)
    return len(rids), len(truth), share, by


def main():
    rng = random.Random(SEED)
    allq = []
    summary = []
    for build, specs in ((build_h1, H1_QUESTIONS), (build_h2, H2_QUESTIONS)):
        h = build(random.Random(rng.randrange(10 ** 9)))
        doc, truth = h.finish()
        qs = make_questions(h.name, truth, specs)
        n_r, n_t, share, by = check(h.name, doc, truth, qs)
        with open(os.path.join(HERE, f"history_{h.name}.json"), "w", encoding="utf-8") as f:
            json.dump(doc, f, ensure_ascii=False, indent=1)
        with open(os.path.join(HERE, f"truth_{h.name}.jsonl"), "w", encoding="utf-8") as f:
            for t in truth:
                f.write(json.dumps(t, ensure_ascii=False) + "\n")
        with open(os.path.join(HERE, f"questions_{h.name}.jsonl"), "w", encoding="utf-8") as f:
            for q in qs:
                f.write(json.dumps(q, ensure_ascii=False) + "\n")
        allq += qs
        summary.append((h.name, n_r, n_t, len(qs), round(share, 2), {k: dict(v) for k, v in by.items()}))
    with open(os.path.join(HERE, "questions.jsonl"), "w", encoding="utf-8") as f:
        for q in allq:
            f.write(json.dumps(q, ensure_ascii=False) + "\n")
    for s in summary:
        print(s)


if __name__ == "__main__":
    main()
