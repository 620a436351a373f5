#!/usr/bin/env python3
"""Generate compositional development set H: three chat histories and 90 analytic questions.

Histories: a club chess player (`phibsboro`), a home brewer and his brew system "Bertha" (`bertha`), and a
food-bank volunteer at the Northside Larder (`larder`). Every record is written here, and every gold value is
computed from those records. Seeded and deterministic; standard library only.

Usage: python3 tools/datasets/compositional_h/make_set.py [--out DIR]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import re
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ONE = dt.timedelta(days=1)


def D(s: str) -> dt.date:
    return dt.date.fromisoformat(s)


def month_range(y: int, m: int):
    a = dt.date(y, m, 1)
    b = (dt.date(y + (m == 12), m % 12 + 1, 1)) - ONE
    return a, b


def monday(d: dt.date) -> dt.date:
    return d - dt.timedelta(days=d.weekday())


# --------------------------------------------------------------------------------------------------------------
# history scaffolding


class History:
    def __init__(self, name, user_id, start, end, question_time, seed):
        self.name, self.user_id = name, user_id
        self.start, self.end = D(start), D(end)
        self.question_time = question_time
        self.qdate = D(question_time[:10])
        self.rng = random.Random(seed)
        self.rounds, self.records, self.events = [], [], {}

    def add(self, day, hhmm, user, assistant, recs=(), event=None, skey="a"):
        day = D(day) if isinstance(day, str) else day
        assert self.start <= day <= self.end, (self.name, day)
        r = {"day": day, "hhmm": hhmm, "skey": skey, "user": user, "assistant": assistant, "seq": len(self.rounds)}
        self.rounds.append(r)
        for rec in recs:
            assert rec["day"] == day, (rec, day)
            rec["_r"] = r
            rec["_seq"] = len(self.records)
            self.records.append(rec)
        if event:
            assert event not in self.events
            self.events[event] = {"day": day, "_r": r}
        return r

    def busy_days(self):
        return {r["day"] for r in self.rounds}

    def build(self):
        groups = defaultdict(list)
        for r in self.rounds:
            groups[(r["day"], r["skey"])].append(r)
        order = sorted(groups, key=lambda k: (k[0], min(x["hhmm"] for x in groups[k])))
        sessions = []
        for i, k in enumerate(order, 1):
            rs = sorted(groups[k], key=lambda x: (x["hhmm"], x["seq"]))
            sid = f"S{i}"
            rounds = []
            for j, r in enumerate(rs, 1):
                r["id"] = f"{sid}:{j}"
                r["order"] = (k[0], i, j)
                rounds.append({"round_id": r["id"], "time": f"{k[0].isoformat()}T{r['hhmm']}:00",
                               "user": r["user"], "assistant": r["assistant"]})
            sessions.append({"session_id": sid, "date": k[0].isoformat(), "rounds": rounds})
        for rec in self.records:
            rec["round_id"] = rec["_r"]["id"]
        self.records.sort(key=lambda x: (x["_r"]["order"], x["_seq"]))
        for ev in self.events.values():
            ev["round_id"] = ev["_r"]["id"]
        self.doc = {"user_id": self.user_id, "sessions": sessions}
        self.text = "\n".join(f"{r['user']}\n{r['assistant']}" for r in self.rounds)
        return self.doc

    # -- selections ------------------------------------------------------------------------------------------
    def sel(self, kind, a=None, b=None, pred=None):
        out = [r for r in self.records if r["kind"] == kind
               and (a is None or r["day"] >= a) and (b is None or r["day"] <= b)
               and (pred is None or pred(r))]
        return out

    def ev(self, key):
        return self.events[key]["day"]

    def ev_round(self, key):
        return self.events[key]["round_id"]

    def clear(self, kind, *days, pred=None):
        for d in days:
            hits = self.sel(kind, d, d, pred)
            assert not hits, f"{self.name}: {kind} record on boundary day {d}"

    def absent(self, *words):
        for w in words:
            assert not re.search(w, self.text, re.I), f"{self.name}: {w!r} occurs in the history"


# --------------------------------------------------------------------------------------------------------------
# questions


def nonempty(xs, what=""):
    assert xs, f"empty selection {what}"
    return xs


def total(xs, f):
    return sum(x[f] for x in xs)


def mean(xs, f):
    nonempty(xs)
    return sum(x[f] for x in xs) / len(xs)


def unique_top(scores: dict, lowest=False):
    assert scores
    items = sorted(scores.items(), key=lambda kv: kv[1], reverse=not lowest)
    assert len(items) == 1 or items[0][1] != items[1][1], f"tie for top: {items[:3]}"
    return items[0][0]


def rid(xs):
    seen = []
    for x in xs:
        if x["round_id"] not in seen:
            seen.append(x["round_id"])
    return seen


def clean(v):
    if isinstance(v, float):
        v = round(v, 6)
        if v.is_integer():
            return int(v)
    return v


def show(v):
    v = clean(v)
    if isinstance(v, float):
        return f"{v:.2f}".rstrip("0").rstrip(".")
    return str(v)


class QSet:
    def __init__(self, h: History):
        self.h, self.items = h, []

    def add(self, family, qtype, text, gold, evidence=()):
        if "unanswerable" in gold:
            answer = "No answer: nothing in the memory holds this."
        elif "yes_no" in gold:
            answer = "Yes" if gold["yes_no"] else "No"
        elif "group" in gold:
            answer = gold["group"]
        elif "text" in gold:
            answer = gold["text"]
        elif "period" in gold:
            answer = (f"the week of {gold['period']}" if gold["bucket"] == "week"
                      else dt.date.fromisoformat(gold["period"] + "-01").strftime("%B %Y"))
        else:
            answer = show(gold["value"]) + (f" {gold['unit']}" if gold.get("unit") else "")
        n = len(self.items) + 1
        self.items.append({"question_id": f"ch-{self.h.name}-{n:02d}", "history": self.h.name, "question": text,
                           "answer": answer, "type": qtype, "family": family,
                           "question_time": self.h.question_time, "evidence": list(dict.fromkeys(evidence)),
                           "gold": gold})


def num(v, unit=None, either=False):
    g = {"value": clean(v), "unit": unit}
    if either:
        g["either_sign"] = True
    return g


def yes_no(b):
    return {"yes_no": bool(b)}


def group(s):
    return {"group": s}


def text(s):
    return {"text": s}


def week(d):
    return {"period": monday(d).isoformat(), "bucket": "week"}


def month(ym):
    return {"period": ym, "bucket": "month"}


UNANSWERABLE = {"unanswerable": True}


# --------------------------------------------------------------------------------------------------------------
# filler chat (no digits, nothing record-like)

GENERIC = [
    ("What's a quick dinner I can throw together with chickpeas, spinach and a tin of tomatoes?",
     "A chickpea and spinach stew works well: soften an onion and some garlic, add the tomatoes and chickpeas, "
     "simmer until it thickens, then wilt the spinach in at the end. Cumin and a squeeze of lemon lift it."),
    ("Any tips for getting to sleep when my head won't switch off?",
     "Write down whatever is looping before bed, keep the room cool and dark, and if you're still awake after a "
     "while, get up and do something dull in dim light until you feel sleepy."),
    ("Can you recommend a podcast for the bus? Chatty, not politics.",
     "A history or storytelling show could suit you, something like You're Dead to Me or Stuff You Should Know. "
     "Both are light and easy to dip in and out of."),
    ("My sister loved The Secret History. What should she read next?",
     "She might enjoy If We Were Villains by M.L. Rio, or Tana French's The Likeness. Both have that closed "
     "circle, dark academia feel."),
    ("How do I get candle wax out of a tablecloth?",
     "Let it harden and scrape off what you can. Then lay brown paper over the spot and press with a warm iron so "
     "the paper soaks up the rest. Treat any leftover colour before washing."),
    ("Is it bad that my cactus has gone a bit soft at the bottom?",
     "Softness at the base usually means rot from overwatering. Check the roots, cut away anything mushy, let it "
     "dry out and repot it in gritty soil that drains fast."),
    ("What's the actual difference between baking soda and baking powder?",
     "Baking soda is plain bicarbonate and needs an acid in the recipe to react. Baking powder already contains "
     "the acid, so it works on its own."),
    ("Write me a short leaving-card message for a colleague I don't know that well.",
     "\"Wishing you the very best in the new role. It's been a pleasure working alongside you, good luck with "
     "everything!\""),
    ("Raining all day again. Ideas for a lazy day indoors?",
     "Something slow-cooked, a long film you've been meaning to watch, a jigsaw, or finally sorting the drawer "
     "everyone has. A hot bath at the end never hurts."),
    ("Can you explain what an index fund is in plain English?",
     "It's a fund that buys every company in a market index. Instead of someone picking shares, you own a small "
     "slice of everything in it, and the fees tend to be low."),
    ("I keep forgetting to drink water during the day. Any tricks?",
     "Keep a bottle on your desk, tie a glass of water to a habit you already have, like every coffee, or let an "
     "app nudge you."),
    ("What's a good stretch for a stiff lower back?",
     "Knees to chest, cat-cow and a gentle child's pose are all good. Move slowly, and if it's a sharp pain rather "
     "than stiffness, get it checked."),
    ("Help me word a text to my landlord about the leaking shower.",
     "\"Hi, just letting you know the shower has started leaking at the base. Could you arrange for someone to "
     "take a look this week? Happy to be flexible on timing. Thanks!\""),
    ("Is a heated clothes airer worth it?",
     "If you dry a lot indoors and have no dryer, they're handy and much cheaper to run than a tumble dryer. A "
     "cover over it speeds things up."),
    ("What should I get my dad for his birthday? He has everything.",
     "Experiences tend to land well: match tickets, a nice lunch out, a day trip. Or something he'll use up, like "
     "good coffee or a bottle of something he likes."),
    ("Any easy houseplants that survive being ignored?",
     "Snake plants, ZZ plants and pothos are all very forgiving. Low light and irregular watering don't bother "
     "them much."),
    ("What's a nice walk near Dublin for a Sunday?",
     "The Howth cliff path is a classic, or Killiney Hill for the views over the bay. The Phoenix Park is good if "
     "you want something flat."),
    ("How do I stop my glasses fogging up when I wear a scarf?",
     "Push the glasses slightly forward, tuck the scarf so your breath goes down rather than up, or try an "
     "anti-fog wipe."),
    ("Suggest a vegetarian lunch that keeps well for work?",
     "A grain salad with roast veg, feta and a lemony dressing keeps for days, and so does a lentil soup in a "
     "flask."),
    ("Recommend a film for a cosy night in?",
     "Paddington 2 is hard to beat for cosy. If you want something more grown-up, The Holdovers is lovely."),
    ("Is there a trick to stop half an avocado going brown?",
     "Leave the stone in, brush the cut side with lemon juice and wrap it tightly. It will still darken a little "
     "on the surface."),
    ("What's the best way to descale a kettle?",
     "Half fill it with water and white vinegar or some citric acid, bring it to the boil, let it sit, then rinse "
     "it out well a few times."),
    ("My phone battery dies so fast lately. What can I check?",
     "Look at battery usage in settings for a hungry app, turn the brightness down and check for updates. If the "
     "phone is old, the battery may just be worn out."),
    ("How do you make proper porridge?",
     "Oats, milk or water and a pinch of salt, stirred over a low heat until thick and creamy. The toppings are "
     "where the fun is."),
    ("What's a good way to get back into a bit of Irish?",
     "Duolingo has an Irish course, and TG4 has plenty of programmes with subtitles. A few phrases a day adds up."),
    ("Can you give me a simple banana bread recipe?",
     "Mash ripe bananas, mix in melted butter, sugar, an egg and a splash of vanilla, then fold in flour, bread "
     "soda and a pinch of salt. Bake in a lined loaf tin until a skewer comes out clean."),
    ("Is it worth switching energy provider this winter?",
     "Usually yes if you've been on the same plan for a while. Compare the unit rates and standing charges on a "
     "comparison site and check for exit fees first."),
    ("What's a good gift for someone who loves gardening?",
     "A good pair of secateurs, a kneeler, nice gloves or a voucher for a local garden centre are all safe bets."),
    ("Why do I always get a cold when the weather turns?",
     "Colder weather means more time indoors together, which helps viruses spread. Sleep, hand-washing and fresh "
     "air help a bit."),
    ("Any ideas for a cheap weekend away from Dublin?",
     "Westport, Kilkenny or Dingle are all lovely. Going off-season and getting the train keeps it cheap."),
    ("How do I clean a really greasy oven tray?",
     "Soak it in hot water with washing-up liquid and a good handful of bread soda, then scrub with a non-scratch "
     "pad. A paste of bread soda and vinegar shifts the stubborn bits."),
    ("What's the difference between a latte and a flat white?",
     "A flat white has less milk and a thinner layer of microfoam, so the coffee comes through more strongly. A "
     "latte is milkier and foamier."),
    ("Suggest a card game for a family night with mixed ages?",
     "Uno and Dobble are great for mixed ages. For older kids and adults, Sushi Go is quick and easy to learn."),
    ("My neighbour's dog barks all day. How do I raise it nicely?",
     "Catch them at a calm moment, say you thought they might not know since they're out, and ask if there's "
     "anything that might help. Keep it friendly rather than a complaint."),
]

CHESS_FILL = [
    ("Colm keeps playing the Sicilian against me and I never know what to do.",
     "You could sidestep the main lines with the Alapin or a Grand Prix setup. Both give you a clear plan without "
     "memorising a mountain of theory."),
    ("What's the Lucena position again?",
     "It's the key winning rook endgame: your pawn is on the seventh, your king is in front of it, and you build a "
     "bridge with your rook to shelter the king from checks."),
    ("How do I stop blundering when I'm short on time?",
     "Make a quick safety check a habit, looking at your opponent's checks, captures and threats, and practise "
     "faster games so time trouble feels less panicky."),
    ("Can you recommend an endgame book that isn't too dry?",
     "Silman's Complete Endgame Course is very readable and sorted by level, so you only study what you need "
     "right now."),
    ("Marek says I should play more long games. Do you agree?",
     "For improving, slower games are usually better: you have time to calculate and the lessons stick. Some "
     "rapid is fine for practice."),
    ("Is the London System boring or just solid?",
     "Mostly solid. It's easy to learn and hard to blunder in, though at club level it can lead to slow "
     "manoeuvring games. Plenty of strong players use it."),
    ("What's a good way to analyse my games after the club?",
     "Go through the game yourself first without an engine, note what you were thinking at the key moments, then "
     "check with the engine and see where the plan went wrong."),
    ("My hands shake a bit in tense games. Is that normal?",
     "Completely normal, it's adrenaline. Slow breathing between moves and a short walk while your opponent "
     "thinks can help."),
    ("How many openings should a club player really know?",
     "One solid answer to each of White's main first moves and one system as White is plenty. Depth beats "
     "breadth."),
    ("Aoife says she does puzzles every morning before work. Worth copying?",
     "Short daily tactics practice is one of the best habits a club player can have. Just don't let speed "
     "replace careful checking."),
    ("What's the etiquette if my opponent's phone goes off during a game?",
     "Tell the arbiter rather than sorting it out yourself. Most events forfeit the game, but that's the "
     "arbiter's call."),
    ("Is a digital clock with increment worth buying for home?",
     "If you practise with friends, yes. A basic one is cheap and makes practice games feel like the real thing."),
    ("Explain zugzwang like I'm five.",
     "It's when it's your turn and every move makes things worse. You'd love to pass, but you're not allowed."),
    ("Should I learn the Caro-Kann or the French as black?",
     "Both are solid. The Caro-Kann keeps your light-squared bishop healthy; the French leads to sharper closed "
     "positions. Pick whichever suits your taste."),
    ("I keep losing positions that were completely winning. Why?",
     "Usually from relaxing too early. When you're winning, slow down, look for your opponent's best tries and "
     "simplify when you can."),
    ("The club is running a simul with an IM soon. Should I sign up?",
     "Definitely. It's great fun, and you'll learn a lot from how quickly a strong player reads positions."),
    ("What's a good warm-up before a long game?",
     "A handful of easy puzzles to get your eye in, a glance at your opening notes, and water and a snack in the "
     "bag."),
    ("Peter Walsh always offers a draw when he's worse. Is it rude to refuse?",
     "Not at all. Declining a draw offer is completely normal: a polite 'no thanks' and play on."),
    ("What do people mean by good knight versus bad bishop?",
     "A knight on a secure outpost against a bishop hemmed in by its own pawns. The knight has squares, the "
     "bishop has nothing to do."),
    ("Work is so busy I barely study chess any more. How do I keep improving?",
     "Keep it small and regular: a few puzzles on the bus and one game reviewed properly each week. Consistency "
     "matters more than big sessions."),
    ("Is it worth getting a FIDE rating or is the Irish rating enough?",
     "If you plan to play abroad or in bigger opens, a FIDE rating is useful. For club play the Irish one is "
     "fine."),
    ("Any tips for my first game of a tournament when I'm nervous?",
     "Have your first few moves ready so you start on autopilot, arrive early, and treat it as just another club "
     "night."),
    ("How do I deal with an opponent who sighs and fidgets the whole game?",
     "Try to focus on the board, and if it's genuinely distracting, have a quiet word with the arbiter."),
    ("Why does everyone at the club love the King's Indian so much?",
     "It gives Black rich attacking chances on the kingside, so it suits players who like sharp, unbalanced "
     "fights."),
]

BREW_FILL = [
    ("How can I tell if an old packet of yeast is still alive?",
     "Make a small starter and see if it gets going within a day. If it foams and smells bready, it's fine to "
     "pitch."),
    ("Aisling asked if I could brew an alcohol-free beer. Is that doable at home?",
     "It's tricky but possible: there are special yeasts that can't ferment maltose, or you can brew a very light "
     "beer and keep it cold. Expect a bit of trial and error."),
    ("What's the real difference between ale and lager yeast?",
     "Ale yeast works warmer and gives fruitier flavours; lager yeast works cold and slowly and gives a cleaner, "
     "crisper beer."),
    ("Why does my stout taste a bit thin?",
     "Could be a very fermentable wort or too little body from the grain bill. Oats, a touch of crystal malt or a "
     "less attenuative yeast all help."),
    ("Any tips for cleaning Bertha's element without scratching it?",
     "Soak with a brewery cleaner like PBW, then wipe with a soft cloth. Avoid anything abrasive on the element."),
    ("Is kegging worth it over bottling?",
     "Kegging saves a lot of time and gives you control of carbonation, but it costs more to set up and needs "
     "fridge space."),
    ("What's a good beer to have with a Sunday roast?",
     "An Irish red or a brown ale is a lovely match: malty enough for the gravy, not so heavy it takes over."),
    ("What is dry hopping actually doing?",
     "Adding hops after the boil pulls out aroma oils without adding much bitterness, which is where the big "
     "tropical and citrus smells come from."),
    ("My airlock stopped bubbling. Is it finished?",
     "Not necessarily. Take gravity readings a few days apart; if they match, fermentation is done."),
    ("The krausen on my IPA looks weird and patchy. Should I worry?",
     "Probably not. Krausen often looks odd, especially with lots of hop matter. If it smells fine, leave it be."),
    ("Is it safe to reuse bottle caps?",
     "Best not: they rarely seal properly a second time, and you'll get flat beer. New caps are cheap."),
    ("My brother-in-law swears home brew gives worse hangovers. True?",
     "Not really. Unfiltered home brew can have more yeast, which some people notice, but strength and quantity "
     "matter far more."),
    ("What's the easiest way to get labels off old bottles?",
     "Soak them overnight in warm water with a scoop of oxygen cleaner; most labels slide off in the morning."),
    ("Give me a clever name for a winter warmer.",
     "How about Hearth & Home, Fireside Chat or Long Night Ale?"),
    ("What does attenuation mean?",
     "It's how much of the sugar the yeast eats. High attenuation gives a drier beer, low attenuation leaves it "
     "sweeter and fuller."),
    ("How do I get clearer beer?",
     "Irish moss or a Whirlfloc tablet late in the boil, a good cold break, time, and cold crashing before "
     "packaging all help."),
    ("Thinking of entering a homebrew competition next year. What do judges look for?",
     "They judge against the style guidelines: aroma, appearance, flavour, mouthfeel and overall impression. "
     "Clean fermentation matters a lot."),
    ("Should I be worried about oxidation in my hazy IPAs?",
     "Hazies are very sensitive to it. Minimise splashing after fermentation and purge with CO2 if you can."),
    ("What's a good starter recipe for a brown ale?",
     "Pale malt as the base with some crystal and a little chocolate malt, English hops like Fuggles and a clean "
     "English ale yeast."),
    ("Why is my beer overcarbonated and gushing?",
     "Usually too much priming sugar, bottling before fermentation finished, or an infection. Chill the bottles "
     "and open one over the sink to check."),
    ("How do I stop the smell of a brew day filling the whole house?",
     "Open windows, run the extractor, or brew in the garage. Some people like the smell, to be fair."),
    ("What's the point of a yeast starter?",
     "It grows a healthy population of yeast before pitching, which means faster, cleaner fermentations, "
     "especially for strong beers or lagers."),
]

LARDER_FILL = [
    ("Deirdre wants ideas for a food drive at work. What's most useful to ask for?",
     "Long-life staples: tinned fish and meat, pasta sauce, UHT milk, cereal, toiletries and nappies. Things "
     "people don't think to give are often the most needed."),
    ("How do I tell a new volunteer they're stacking tins wrong without sounding bossy?",
     "Show rather than tell: 'Here, let me show you the way we do it so the dates face out.' Keep it light."),
    ("Is it okay to hand out food past its best-before date?",
     "Best-before is about quality, not safety, so many food banks can pass it on for a while. Use-by dates are "
     "different and should be respected."),
    ("Write a short thank-you note to a supermarket that donated to us.",
     "\"Thank you so much for your generous donation to the Northside Larder. It will make a real difference to "
     "the families we support this month.\""),
    ("Any tips for lifting heavy boxes without wrecking my back?",
     "Bend your knees, keep the load close to your body, don't twist while carrying, and ask for help with "
     "anything awkward."),
    ("The warehouse is freezing. How do I stay warm on a long shift?",
     "Layers, thermal socks, fingerless gloves and a flask of something hot. Moving between tasks helps too."),
    ("We get loads of pasta and hardly any sauce. How do we nudge donors?",
     "Publish a short 'most needed' list and update it often. Social posts with a photo of empty shelves work "
     "well."),
    ("How can I say no to extra shifts without feeling guilty?",
     "Remind yourself that a rested volunteer is more useful than a burnt-out one, and offer a specific time you "
     "can do instead."),
    ("Deirdre asked me to write something for the Larder's newsletter. Any ideas?",
     "A short volunteer profile, a behind-the-scenes look at a shift, or a thank-you to a regular donor would all "
     "work well."),
    ("What usually goes into a basic emergency food parcel?",
     "Cereal, tinned meat or fish, beans, pasta and sauce, tinned veg and fruit, tea, long-life milk and some "
     "toiletries."),
    ("How do food banks deal with allergies?",
     "Most ask about dietary needs at referral, keep allergen-free items separate, and label parcels clearly."),
    ("My feet are killing me after standing all shift. Shoe advice?",
     "Supportive shoes with a cushioned sole and good arch support help a lot, and anti-fatigue mats where you "
     "stand longest."),
    ("What's the best way to organise a storeroom so old stock goes out first?",
     "First in, first out: new stock goes behind old stock, with dates facing out and shelves clearly labelled."),
    ("Can you help me write a post asking for weekday morning volunteers?",
     "\"Got a free morning? The Northside Larder needs friendly hands on weekday mornings to sort donations and "
     "pack parcels. No experience needed, just come along!\""),
    ("My friend asked why more people need food banks lately. How do I explain it?",
     "Rent and energy costs have risen much faster than incomes, so people who were just about managing now fall "
     "short before payday."),
    ("Is there a polite way to ask donors not to give opened packets?",
     "A friendly line on the donation poster works: 'For safety, we can only accept unopened items. Thank you!'"),
    ("Deirdre is stressed about the spring appeal. How can I help her?",
     "Offer to take a specific task off her plate, like the volunteer rota or the social posts, rather than a "
     "general 'let me know'."),
    ("What do you think of a fridge for fresh food at the Cabra hall?",
     "It would let you take fresh donations from shops, but you'd need temperature checks and someone to "
     "own the cleaning rota."),
    ("How do I stay patient with a volunteer who talks nonstop?",
     "Give them a task that suits talking, like greeting people, and steer the conversation back when you need "
     "to concentrate."),
    ("Any quick team-building idea for the volunteers before Easter?",
     "A simple shared lunch after a shift, or a tea and cake break where everyone brings something, goes a long "
     "way."),
]


def add_fillers(h: History, pools, p_free=0.6, p_second=0.12):
    """Filler sessions on free days (and now and then a second one on a busy day)."""
    rng = h.rng
    pool = []

    def take():
        nonlocal pool
        if not pool:
            pool = [x for p in pools for x in p]
            rng.shuffle(pool)
        return pool.pop()

    busy = h.busy_days()
    d = h.start + ONE
    while d <= h.end:
        if d not in busy and rng.random() < p_free:
            u, a = take()
            hh = rng.choice(["08", "12", "13", "19", "20", "21", "22"])
            h.add(d, f"{hh}:{rng.choice(['05', '14', '27', '41', '52'])}", u, a, skey="f")
        elif d in busy and rng.random() < p_second:
            u, a = take()
            h.add(d, f"07:{rng.choice(['10', '25', '40'])}", u, a, skey="m")
        d += ONE


def two_step(h, day, hhmm, lead, body, reply, recs, rng, p=0.22, event=None):
    """A record after a lead-in: in one message, or the lead-in as its own round first."""
    if lead and rng.random() < p and event is None:
        base = lead.rstrip(":").rstrip()
        if not base.endswith((".", "!", "?")):
            base += "."
        h.add(day, hhmm, base + " " + rng.choice(["Got a sec?", "Want the details?", "Can you keep this for me?",
                                                  "Here goes."]),
              rng.choice(["Of course, go ahead.", "Sure, send it over.", "Go for it.", "Yes, fire away."]))
        hh, mm = hhmm.split(":")
        h.add(day, f"{hh}:{int(mm) + 3:02d}" if int(mm) < 55 else f"{hh}:59", body, reply, recs=recs)
    else:
        h.add(day, hhmm, f"{lead}\n{body}" if lead else body, reply, recs=recs, event=event)


# ==============================================================================================================
# history 1: Niamh, a club chess player at Phibsboro Chess Club


GAMES = [  # date, time control, opponent, colour, result
    ("2026-08-04", "90+30", "Ruth O'Neill", "white", "win"),
    ("2026-08-06", "15+10", "Aoife Kelly", "black", "loss"),
    ("2026-08-06", "15+10", "Dara Quinn", "white", "win"),
    ("2026-08-09", "10+5", "Fergal Tighe", "white", "win"),
    ("2026-08-11", "90+30", "Tadhg Murphy", "black", "draw"),
    ("2026-08-13", "15+10", "Colm Duffy", "white", "loss"),
    ("2026-08-18", "90+30", "Eoin Brady", "white", "win"),
    ("2026-08-20", "15+10", "Aoife Kelly", "white", "win"),
    ("2026-08-20", "15+10", "Laura Finn", "black", "win"),
    ("2026-08-22", "25+5", "Fiachra Nolan", "white", "win"),
    ("2026-08-22", "25+5", "Helen Curtis", "black", "loss"),
    ("2026-08-22", "25+5", "Mark Doyle", "white", "win"),
    ("2026-08-22", "25+5", "Sean Keogh", "black", "draw"),
    ("2026-08-27", "15+10", "Peter Walsh", "black", "loss"),
    ("2026-08-30", "10+5", "Maeve Dunne", "black", "win"),
    ("2026-09-01", "90+30", "Karol Nowicki", "black", "loss"),
    ("2026-09-03", "15+10", "Colm Duffy", "black", "loss"),
    ("2026-09-03", "15+10", "Aoife Kelly", "white", "draw"),
    ("2026-09-08", "90+30", "Laura Finn", "white", "win"),
    ("2026-09-12", "60+30", "Orla Brennan", "black", "win"),
    ("2026-09-12", "60+30", "Kevin Hayes", "white", "loss"),
    ("2026-09-13", "60+30", "Niall Foley", "black", "draw"),
    ("2026-09-13", "60+30", "Emma Reid", "white", "win"),
    ("2026-09-15", "90+30", "Dara Quinn", "black", "win"),
    ("2026-09-17", "15+10", "Peter Walsh", "white", "win"),
    ("2026-09-22", "90+30", "Shane Moran", "white", "loss"),
    ("2026-09-24", "15+10", "Aoife Kelly", "black", "win"),
    ("2026-09-24", "15+10", "Ruth O'Neill", "white", "draw"),
    ("2026-09-29", "90+30", "Ciara Lynch", "black", "win"),
    ("2026-10-01", "15+10", "Colm Duffy", "white", "loss"),
    ("2026-10-01", "15+10", "Peter Walsh", "black", "win"),
    ("2026-10-03", "15+10", "Ronan Kiely", "white", "win"),
    ("2026-10-08", "15+10", "Tadhg Murphy", "white", "win"),
    ("2026-10-10", "60+30", "Barry Flood", "white", "win"),
    ("2026-10-10", "60+30", "Conor Daly", "black", "loss"),
    ("2026-10-11", "60+30", "Liam Geraghty", "white", "draw"),
    ("2026-10-13", "90+30", "Gavin Ryan", "white", "win"),
    ("2026-10-15", "15+10", "Dara Quinn", "black", "win"),
    ("2026-10-20", "90+30", "Colm Duffy", "black", "draw"),
    ("2026-10-22", "15+10", "Laura Finn", "white", "win"),
    ("2026-10-23", "60+30", "Patricia Hynes", "black", "win"),
    ("2026-10-24", "60+30", "Rob Kinsella", "white", "loss"),
    ("2026-10-24", "60+30", "Ultan Carey", "black", "win"),
    ("2026-10-27", "90+30", "Eoin Brady", "black", "loss"),
    ("2026-10-29", "15+10", "Aoife Kelly", "black", "win"),
    ("2026-10-29", "15+10", "Peter Walsh", "white", "loss"),
]

LESSONS = [  # date, coach, topic, minutes, EUR
    ("2026-08-05", "Marek", "my opening repertoire with black", 60, 40),
    ("2026-08-16", "Sinéad", "calculation", 45, 30),
    ("2026-08-26", "Marek", "rook endgames", 90, 55),
    ("2026-09-16", "Marek", "the Caro-Kann", 60, 40),
    ("2026-09-23", "Marek", "pawn structures", 60, 40),
    ("2026-09-27", "Sinéad", "time management", 45, 30),
    ("2026-10-07", "Marek", "prophylaxis", 60, 40),
    ("2026-10-12", "Sinéad", "endgame studies", 45, 30),
    ("2026-10-21", "Marek", "going through my Congress games", 90, 55),
    ("2026-10-28", "Marek", "attacking the king", 60, 40),
    ("2026-11-01", "Sinéad", "tactics review", 45, 30),
]

ENTRIES = [  # date paid, tournament, EUR
    ("2026-08-11", "Bray Rapidplay", 25),
    ("2026-08-28", "Leinster Open", 45),
    ("2026-09-30", "Dublin Autumn Congress", 50),
    ("2026-10-14", "Kilkenny Weekender", 40),
    ("2026-10-30", "Drogheda Rapid", 20),
]

MINUTES = {"90+30": (150, 245), "60+30": (105, 195), "25+5": (34, 62), "15+10": (27, 55), "10+5": (15, 29)}


def chess_history() -> History:
    h = History("phibsboro", "niamh", "2026-08-03", "2026-11-01", "2026-11-03T09:00:00", 41017)
    rng = h.rng
    rating = 1508
    games = []
    for i, (d, tc, opp, col, res) in enumerate(GAMES):
        lo, hi = MINUTES[tc]
        mins = rng.randint(lo, hi)
        delta = rng.randint(6, 12) if res == "win" else -rng.randint(6, 12) if res == "loss" else rng.randint(-3, 3)
        rating += delta
        games.append({"kind": "game", "day": D(d), "tc": tc, "opponent": opp, "colour": col, "result": res,
                      "minutes": mins, "rating": rating, "delta": delta, "gid": 412 + i})

    # --- renderers ------------------------------------------------------------------------------------------
    word = {"win": "won", "loss": "lost", "draw": "drew"}

    def length(m):
        return f"{m // 60}h {m % 60:02d}m" if m >= 100 else f"{m} min"

    def one(g, style):
        o, c, r, tc, m, rt = g["opponent"], g["colour"], g["result"], g["tc"], g["minutes"], g["rating"]
        if style == "app":
            return (f"Game #{g['gid']} · vs {o} · {c.capitalize()} · {r.capitalize()} · Elo {rt} "
                    f"({g['delta']:+d}) · {tc} · {m} min")
        if style == "labels":
            return (f"Opponent: {o}\nColour: {c}\nResult: {r}\nRating after: {rt}\nTime control: {tc}\n"
                    f"Length: {length(m)}")
        if style == "oneline":
            return f"Result: {r}, Opponent: {o}, Colour: {c}, Rating: {rt}, TC: {tc}, Minutes: {m}"
        if style == "pipe":
            return f"vs {o} | {c} | {word[r]} | rating {rt} | {tc} | {m} min"
        if style == "prose":
            if r == "win":
                return rng.choice([
                    f"Beat {o} with the {c} pieces, {tc}. Took about {m} minutes and my rating's now {rt}.",
                    f"won against {o} as {c} ({tc}), {m} mins, rating up to {rt}",
                ])
            if r == "loss":
                return rng.choice([
                    f"Lost to {o} as {c}. {tc}, {m} mins. Rating down to {rt}.",
                    f"{o} beat me, I had {c}. {m} minutes of {tc} and I'm on {rt} now.",
                ])
            return rng.choice([
                f"Drew with {o}, I had {c}, {tc} time control, {m} minutes. Rating {rt} after.",
                f"draw vs {o} (me {c}), {tc}, lasted {m} min, rating {rt}",
            ])
        raise ValueError(style)

    def many(gs, style):
        if style == "csv":
            rows = [f"{g['day'].isoformat()},{g['opponent']},{g['colour']},{g['result']},{g['rating']},{g['tc']},"
                    f"{g['minutes']}" for g in gs]
            return "date,opponent,colour,result,rating_after,tc,minutes\n" + "\n".join(rows)
        if style == "app":
            return "\n".join(one(g, "app") for g in gs)
        if style == "pipe":
            return "\n".join(one(g, "pipe") for g in gs)
        if style == "blocks":
            return "\n\n".join(f"Round {k}\n" + one(g, "labels") for k, g in enumerate(gs, 1))
        if style == "prose":
            parts = []
            for k, g in enumerate(gs):
                lead = ["First", "Then", "Last one", "And finally"][min(k, 3)] if len(gs) > 2 else ["First", "Then"][k]
                verb = {"win": "beat", "loss": "lost to", "draw": "drew with"}[g["result"]]
                parts.append(f"{lead} I {verb} {g['opponent']} with {g['colour']} in {g['minutes']} min, rating "
                             f"{g['rating']} after")
            return f"All {gs[0]['tc']}. " + ". ".join(parts) + "."
        raise ValueError(style)

    single_styles = ["app", "labels", "oneline", "pipe", "prose"] * 6
    rng.shuffle(single_styles)
    multi_styles = ["csv", "app", "pipe", "blocks", "prose"] * 3
    rng.shuffle(multi_styles)

    lead = {
        "90+30": ["League night.", "Tuesday league game done, here's the log:", "Back from the club, league game:",
                  "ok logging tonight's league game", "Long one at the club tonight.", "League round tonight."],
        "15+10": ["Rapid night at the club.", "Thursday rapids:", "Quick games at Phibsboro tonight.",
                  "club rapid, logging before I forget", "Rapid results from tonight:"],
        "10+5": ["Sunday quickplay at the club.", "Popped into the Sunday quickplay."],
        "25+5": ["Bray Rapidplay done! Full day:"],
        "60+30": ["Tournament games from today:", "Today's rounds:", "Weekend tournament update."],
    }
    reply = {
        "win": ["Logged. Nice work converting that.", "Saved. Sounds like a good night at the board.",
                "Got it, all noted. Well played!", "Noted. That's a solid result."],
        "loss": ["Logged. Tough one, do you want to look at the critical moment later?",
                 "Saved. Losses like that are usually where the learning is.", "Noted. Onwards to the next one."],
        "draw": ["Logged. A hard-fought half point.", "Saved. Draws against stubborn opponents still count.",
                 "Noted, thanks."],
        "mixed": ["All logged. Mixed bag, but plenty to learn from.", "Saved them all. Busy day!",
                  "Got them, thanks. Get some rest after that.", "Logged every game. Well done getting through it."],
    }
    bydate = defaultdict(list)
    for g in games:
        bydate[g["day"]].append(g)
    for d, gs in sorted(bydate.items()):
        tc = gs[0]["tc"]
        hhmm = {"90+30": "23:15", "15+10": "22:20", "10+5": "17:30", "25+5": "20:10", "60+30": "21:05"}[tc]
        if d == D("2026-10-03"):
            continue  # written with the bike-fall day below
        ld = rng.choice(lead[tc])
        if d == D("2026-10-10"):
            ld = "A week on from the bike crash and the wrist is loads better, didn't bother me at all at the Congress. Today's games:"
        if d == D("2026-10-23"):
            ld = "Kilkenny Weekender, round one tonight:"
        if d == D("2026-10-24"):
            ld = "Rest of Kilkenny today."
        if len(gs) == 1:
            body = one(gs[0], single_styles.pop())
            rp = rng.choice(reply[gs[0]["result"]])
        else:
            body = many(gs, multi_styles.pop())
            rp = rng.choice(reply["mixed"])
        two_step(h, d, hhmm, ld, body, rp, gs, rng)

    # bike-fall day: a morning rapid at the club, the fall on the way home told in the evening
    g = bydate[D("2026-10-03")][0]
    h.add("2026-10-03", "12:40", "Saturday morning rapid at the club, just the one game:\n" + one(g, "app"),
          "Logged. Nice way to start the weekend.", recs=[g])
    h.add("2026-10-03", "19:30",
          "Came off the bike on the quays on the way home from the club and landed right on my wrist. A&E says "
          "it's a sprain, not broken. Left wrist at least, so I can still move pieces.",
          "Ouch, I'm sorry. Glad it's only a sprain. Rest it, ice it, and don't rush back onto the bike.",
          event="bike", skey="e")

    # lessons
    lstyles = ["short", "pipe", "labels", "prose", "oneline"] * 3
    rng.shuffle(lstyles)
    full = {"Marek": "Marek Nowak", "Sinéad": "Sinéad Roche"}
    for d, coach, topic, mins, eur in LESSONS:
        rec = {"kind": "lesson", "day": D(d), "coach": full[coach], "topic": topic, "minutes": mins, "cost": eur}
        st = lstyles.pop()
        where = "online" if coach == "Sinéad" else "at the club"
        if st == "short":
            body = f"Lesson w/ {coach} {where}, {mins} min, €{eur}. {topic[0].upper() + topic[1:]}."
        elif st == "pipe":
            body = f"Coach: {full[coach]} | {where} | {mins} min | €{eur} | {topic}"
        elif st == "labels":
            body = f"Coach: {coach}\nTopic: {topic}\nLength: {mins} min\nPaid: €{eur}"
        elif st == "oneline":
            body = f"Lesson: {topic}, Coach: {full[coach]}, Duration: {mins} min, Fee: {eur} EUR"
        else:
            hrs = {45: "three quarters of an hour", 60: "an hour", 90: "an hour and a half"}[mins]
            body = f"Had my lesson with {coach} tonight, {hrs} on {topic}, €{eur}."
        ld = rng.choice(["Coaching log:", "Lesson done.", "", "Another lesson in the bag.", "Quick lesson note:"])
        if d == "2026-09-23":
            h.add(d, "19:05", "Day five in Stoneybatter and the boiler is already making weird noises.",
                  "Classic new-flat welcome. Worth reporting it to the landlord early before the cold sets in.")
        two_step(h, d, "21:40", ld, body,
                 rng.choice(["Noted. Sounds like a useful session.", "Saved. Anything you want to drill this week?",
                             "Logged, thanks.", "Got it. Good topic to work on."]), [rec], rng)

    estyles = ["short", "prose", "pipe", "dash", "oneline"]
    rng.shuffle(estyles)
    for d, name, eur in ENTRIES:
        rec = {"kind": "entry", "day": D(d), "tournament": name, "fee": eur}
        st = estyles.pop()
        body = {"short": f"Entry fee for the {name}: €{eur}",
                "prose": f"Paid {eur} euro to enter the {name}.",
                "pipe": f"Tournament: {name} | fee €{eur}",
                "dash": f"{name} — entry €{eur}, paid online",
                "oneline": f"Entry: {name}, Fee: €{eur}"}[st]
        h.add(d, "13:15", rng.choice(["Signed up!", "Done, I'm entered.", "Booked in:", "Tournament admin:",
                                      "Entered another one."]) + "\n" + body,
              rng.choice(["Great, noted. Good luck!", "Logged. Exciting!", "Saved. Something to look forward to."]),
              recs=[rec])

    # events and later mentions
    h.add("2026-08-03", "20:15",
          "Hi! I want to start keeping track of my chess here. I play at Phibsboro Chess Club: Tuesdays are league "
          "nights and Thursdays are rapid. I also have lessons with Marek at the club and Sinéad online.",
          "Lovely, happy to help. Send me games, lessons and tournament entries whenever you like.")
    h.add("2026-08-24", "21:10",
          "First day at St Vincent's done!! Induction all morning, then shadowing on the ward. Got lost twice "
          "looking for the canteen.",
          "Congratulations on getting through day one! The first week is always a blur, so go easy on yourself.",
          event="job")
    h.add("2026-08-25", "20:45", "Skipping league tonight, I'm wrecked after the new job.",
          "Very sensible. The club will still be there next week.")
    h.add("2026-09-07", "20:30",
          "Can't believe it's two weeks since I started at Vincent's. Finally feel like I know where things are.",
          "That's a great sign. It sounds like you're settling in well.")
    h.add("2026-09-19", "22:00",
          "We got the keys this morning and moved everything into the flat in Stoneybatter today. Every muscle "
          "hurts. No chess for me this weekend!",
          "Congratulations on the new place! Get some rest, the boxes can wait.", event="move")
    h.add("2026-10-06", "19:50", "No league for me tonight, the wrist is still sore and I can't face the cycle.",
          "Fair enough. Resting it now means less time off later.")
    h.add("2026-10-17", "23:40",
          "Clodagh's wedding today in Galway! She looked amazing, and I cried through the vows obviously.",
          "That sounds like a beautiful day. Congratulations to your sister!", event="wedding")
    h.add("2026-10-22", "09:10",
          "Still not recovered from last Saturday's wedding to be honest. Galway took it out of me.",
          "Weddings are exhausting in the best way. Hopefully the rapid tonight perks you up.")

    add_fillers(h, [CHESS_FILL, GENERIC], p_free=0.8, p_second=0.15)
    h.build()
    return h


def chess_questions(h: History):
    qs = QSet(h)
    G = lambda a=None, b=None, p=None: h.sel("game", a, b, p)  # noqa: E731
    Ls = lambda a=None, b=None, p=None: h.sel("lesson", a, b, p)  # noqa: E731
    aug, sep, octo = month_range(2026, 8), month_range(2026, 9), month_range(2026, 10)

    # 1 last week (Mon 26 Oct - Sun 1 Nov), in hours
    lw0 = monday(h.qdate) - dt.timedelta(days=7)
    lw1 = lw0 + dt.timedelta(days=6)
    h.clear("game", lw0 - ONE, lw1, lw0)
    xs = nonempty(G(lw0, lw1))
    qs.add("plain_aggregate", "sum", "how many hours did I spend playing chess last week?",
           num(total(xs, "minutes") / 60, "h"), rid(xs))

    # 2 lessons, last 30 days
    a30 = h.qdate - dt.timedelta(days=29)
    h.clear("lesson", a30 - ONE, a30)
    xs = nonempty(Ls(a30, h.qdate))
    qs.add("plain_aggregate", "sum", "Remind me what I've spent on lessons in the last 30 days?",
           num(total(xs, "cost"), "EUR"), rid(xs))

    # 3 max rating in August
    xs = nonempty(G(*aug))
    qs.add("plain_aggregate", "max", "What was my highest rating in August?",
           num(max(x["rating"] for x in xs)), [max(xs, key=lambda x: x["rating"])["round_id"]])

    # 4 named coach
    xs = nonempty(Ls(p=lambda r: r["coach"].startswith("Marek")))
    qs.add("named_subject", "sum", "How much have I paid Marek in total?", num(total(xs, "cost"), "EUR"), rid(xs))

    # 5 named opponent count
    xs = nonempty(G(p=lambda r: r["opponent"] == "Colm Duffy"))
    qs.add("named_subject", "count", "how many times have I played Colm Duffy?", num(len(xs)), rid(xs))

    # 6 named opponent minutes
    xs = nonempty(G(p=lambda r: r["opponent"] == "Peter Walsh"))
    qs.add("named_subject", "sum", "Total minutes I've spent playing Peter Walsh, roughly?",
           num(total(xs, "minutes"), "min"), rid(xs))

    # 7 since the move
    mv = h.ev("move")
    h.clear("game", mv)
    xs = nonempty(G(mv + ONE))
    qs.add("event_bounded", "count", "How many games have I played since moving into the flat?", num(len(xs)),
           [h.ev_round("move")] + rid(xs))

    # 8 before the new job
    jb = h.ev("job")
    h.clear("game", jb)
    xs = nonempty(G(None, jb - ONE))
    qs.add("event_bounded", "avg", "what was my average game length before I started at Vincent's, in minutes?",
           num(mean(xs, "minutes"), "min"), [h.ev_round("job")] + rid(xs))

    # 9 lessons between the job and the wedding
    wd = h.ev("wedding")
    h.clear("lesson", jb, wd)
    xs = nonempty(Ls(jb + ONE, wd - ONE))
    qs.add("event_bounded", "sum", "What did I spend on lessons between starting the new job and Clodagh's wedding?",
           num(total(xs, "cost"), "EUR"), [h.ev_round("job"), h.ev_round("wedding")] + rid(xs))

    # 10 rating on the bike-fall day
    bk = h.ev("bike")
    xs = G(bk, bk)
    assert len(xs) == 1
    qs.add("event_bounded", "value", "What was my rating after the game I played the day I came off the bike?",
           num(xs[0]["rating"]), [h.ev_round("bike"), xs[0]["round_id"]])

    # 11 the week after the move, in hours
    h.clear("game", mv, mv + dt.timedelta(days=7))
    xs = nonempty(G(mv + ONE, mv + dt.timedelta(days=7)))
    nxt = monday(mv) + dt.timedelta(days=7)
    assert xs == G(nxt, nxt + dt.timedelta(days=6))
    qs.add("event_bounded", "sum", "in the week after the move, how long did I spend at the board? in hours pls",
           num(total(xs, "minutes") / 60, "h"), [h.ev_round("move")] + rid(xs))

    # 12 first opponent after the job
    xs = nonempty(G(jb + ONE))
    assert len(G(xs[0]["day"], xs[0]["day"])) == 1
    qs.add("event_first_last", "first", "Who was the first person I played after starting at St Vincent's?",
           text(xs[0]["opponent"]), [h.ev_round("job"), xs[0]["round_id"]])

    # 13 rating after the last game before the wedding
    h.clear("game", wd)
    xs = nonempty(G(None, wd - ONE))
    assert len(G(xs[-1]["day"], xs[-1]["day"])) == 1
    qs.add("event_first_last", "latest", "what was my rating after my last game before my sister's wedding?",
           num(xs[-1]["rating"]), [h.ev_round("wedding"), xs[-1]["round_id"]])

    # 14 first lesson after the move, cost
    h.clear("lesson", mv)
    xs = nonempty(Ls(mv + ONE))
    qs.add("event_first_last", "first", "How much did my first lesson after the move cost?",
           num(xs[0]["cost"], "EUR"), [h.ev_round("move"), xs[0]["round_id"]])

    # 15 Sept vs Oct game count
    s, o = nonempty(G(*sep)), nonempty(G(*octo))
    assert len(s) != len(o)
    qs.add("comparison", "greater", "Did I play more games in September than in October?", yes_no(len(s) > len(o)),
           rid(s + o))

    # 16 percent change of average game length, Aug -> Oct
    a, o = nonempty(G(*aug)), nonempty(G(*octo))
    qs.add("comparison", "percent_change", "By what percent did my average game length change from August to October?",
           num((mean(o, "minutes") - mean(a, "minutes")) / mean(a, "minutes") * 100, "%"), rid(a + o))

    # 17 lessons or entries
    le, en = nonempty(Ls()), nonempty(h.sel("entry"))
    assert total(le, "cost") != total(en, "fee")
    qs.add("comparison", "greater", "What have I spent more on overall, lessons or tournament entry fees?",
           group("lessons" if total(le, "cost") > total(en, "fee") else "tournament entry fees"), rid(le + en))

    # 18 lost to most
    xs = nonempty(G(p=lambda r: r["result"] == "loss"))
    top = unique_top(Counter(x["opponent"] for x in xs))
    qs.add("group_rank", "rank", "Which opponent did I lose to most?", group(top), rid(xs))

    # 19 time control most in October
    xs = G(*octo)
    top = unique_top(Counter(x["tc"] for x in xs))
    qs.add("group_rank", "rank", "what time control did I play most in October?", group(top), rid(xs))

    # 20 week with most games
    xs = G()
    wk = unique_top(Counter(monday(x["day"]) for x in xs))
    h.clear("game", wk - ONE, wk + dt.timedelta(days=6))
    qs.add("group_rank", "rank", "Which week did I play the most games? Give me the Monday's date.", week(wk),
           rid([x for x in xs if monday(x["day"]) == wk]))

    # 21 average length against the most-played opponent
    xs = G()
    top = unique_top(Counter(x["opponent"] for x in xs))
    ys = [x for x in xs if x["opponent"] == top]
    qs.add("top_group_measure", "avg", "What's my average game length against the person I've played most often?",
           num(mean(ys, "minutes"), "min"), rid(ys))

    # 22 share of games with white
    xs = G()
    w = [x for x in xs if x["colour"] == "white"]
    qs.add("share", "share", "What percentage of my games did I have the white pieces?",
           num(len(w) / len(xs) * 100, "%"), rid(xs))

    # 23 wins with black
    xs = nonempty(G(p=lambda r: r["result"] == "win" and r["colour"] == "black"))
    qs.add("count_condition", "count", "how many games did I win with black?", num(len(xs)), rid(xs))

    # --- unanswerable ---
    h.absent("Clontarf")
    qs.add("unanswerable", "event_absent", "since joining the Clontarf club, how many games have I got in?",
           UNANSWERABLE)
    h.absent("accuracy")
    qs.add("unanswerable", "measure_absent", "What was my average accuracy in September?", UNANSWERABLE)
    h.absent("Kavanagh", r"\bBrian\b")
    qs.add("unanswerable", "name_absent", "what was my rating after my game against Brian Kavanagh?", UNANSWERABLE)
    assert not Ls(*month_range(2026, 7)) and not h.sel("lesson", None, D("2026-08-02"))
    qs.add("unanswerable", "period_empty", "lessons in July, what did they come to?", UNANSWERABLE)
    assert not G(p=lambda r: r["tc"] == "5+0")
    h.absent(r"5\+0")
    qs.add("unanswerable", "value_absent", "How long was my longest 5+0 game?", UNANSWERABLE)
    h.absent("Galway Open")
    assert not h.sel("entry", pred=lambda r: "Galway" in r["tournament"])
    qs.add("unanswerable", "group_absent", "how much was the entry fee for the Galway Open?", UNANSWERABLE)
    assert not Ls(D("2026-09-01"), D("2026-09-10"))
    qs.add("unanswerable", "period_empty", "avg lesson price for the first ten days of september?",
           UNANSWERABLE)
    return qs


# ==============================================================================================================
# history 2: Tomasz, a home brewer, and his all-in-one brew system "Bertha"


BREWS = [  # date, style, litres, OG, hours
    ("2026-09-12", "Pale Ale", 23, 1.050, 5.0),
    ("2026-09-19", "Oatmeal Stout", 21, 1.058, 5.5),
    ("2026-09-26", "Irish Red", 23, 1.052, 5.0),
    ("2026-09-30", "Kölsch", 19, 1.045, 4.5),
    ("2026-10-03", "West Coast IPA", 22, 1.064, 6.0),
    ("2026-10-24", "Pale Ale", 23, 1.048, 4.5),
    ("2026-10-31", "Porter", 21, 1.059, 5.5),
    ("2026-11-08", "Czech Pilsner", 22, 1.046, 6.5),
    ("2026-11-14", "Hazy IPA", 20, 1.066, 5.0),
    ("2026-11-20", "Brown Ale", 19, 1.044, 7.0),
    ("2026-11-28", "Pale Ale", 23, 1.051, 5.0),
    ("2026-12-05", "Winter Warmer", 20, 1.072, 6.0),
]

BOTTLINGS = [  # date, beer, bottles, FG
    ("2026-09-08", "Summer Wheat", 40, 1.010),
    ("2026-09-27", "Pale Ale", 44, 1.011),
    ("2026-10-04", "Oatmeal Stout", 38, 1.016),
    ("2026-10-07", "Irish Red", 42, 1.012),
    ("2026-10-20", "Kölsch", 35, 1.009),
    ("2026-10-25", "West Coast IPA", 40, 1.010),
    ("2026-11-10", "Pale Ale", 43, 1.010),
    ("2026-11-15", "Porter", 38, 1.015),
    ("2026-12-01", "Hazy IPA", 36, 1.014),
    ("2026-12-03", "Czech Pilsner", 40, 1.010),
    ("2026-12-06", "Brown Ale", 33, 1.012),
]

TASTINGS = [  # date, beer, score /10, note
    ("2026-09-20", "Summer Wheat", 7, "a bit thin but refreshing"),
    ("2026-10-18", "Pale Ale", 8, "nice and crisp, could use more hop aroma"),
    ("2026-11-01", "Oatmeal Stout", 8.5, "silky, lovely roast"),
    ("2026-11-21", "Irish Red", 7.5, "slightly too sweet"),
    ("2026-12-02", "West Coast IPA", 9, "best thing I've made"),
    ("2026-11-29", "Kölsch", 8, "clean, the fridge made the difference"),
]

PURCHASES = [  # date, shop, item, EUR
    ("2026-09-09", "Hopsack Homebrew", "Maris Otter 25 kg sack", 52.00),
    ("2026-09-10", "Grainhouse", "Cascade hops 2 x 100 g", 13.80),
    ("2026-09-17", "Grainhouse", "flaked oats 1 kg + roasted barley 500 g", 6.40),
    ("2026-09-18", "Hopsack Homebrew", "US-05 yeast x3", 14.85),
    ("2026-09-24", "Liffey Brew Supplies", "crystal 60 malt 1 kg", 4.90),
    ("2026-09-29", "Hopsack Homebrew", "Citra 100 g + Simcoe 100 g", 21.50),
    ("2026-10-02", "Grainhouse", "Columbus hops 50 g", 5.20),
    ("2026-10-06", "Hopsack Homebrew", "Verdant IPA yeast x2", 13.90),
    ("2026-10-14", "Hopsack Homebrew", "WLP001 yeast", 11.20),
    ("2026-10-22", "Liffey Brew Supplies", "pale malt 5 kg + Carapils 500 g", 15.60),
    ("2026-10-28", "Grainhouse", "chocolate malt + brown malt", 8.70),
    ("2026-10-30", "Hopsack Homebrew", "Saaz 100 g + pilsner malt 5 kg", 19.40),
    ("2026-11-03", "Lidl", "brown sugar 2 kg", 3.20),
    ("2026-11-10", "Hopsack Homebrew", "Mosaic 100 g + Citra 100 g", 22.90),
    ("2026-11-12", "Grainhouse", "lactose 500 g", 4.50),
    ("2026-11-18", "Liffey Brew Supplies", "Nottingham yeast x2", 9.80),
    ("2026-11-24", "Hopsack Homebrew", "Maris Otter 25 kg sack", 54.00),
    ("2026-11-26", "Grainhouse", "Special B 500 g + cinnamon sticks", 7.30),
    ("2026-12-01", "Liffey Brew Supplies", "Irish moss + yeast nutrient", 6.10),
    ("2026-12-03", "Hopsack Homebrew", "East Kent Goldings 100 g", 9.50),
]


def brew_history() -> History:
    h = History("bertha", "tomasz", "2026-09-07", "2026-12-06", "2026-12-08T19:00:00", 52023)
    rng = h.rng

    def og(x):
        return f"{x:.3f}"

    def hours(x):
        return f"{int(x)}h{int(round((x % 1) * 60)):02d}"

    bstyles = ["labels", "oneline", "pipe", "prose", "app", "csv"] * 2
    rng.shuffle(bstyles)
    for n, (d, style, L, g, hrs) in enumerate(BREWS, 31):
        rec = {"kind": "brew", "day": D(d), "style": style, "litres": L, "og": g, "hours": hrs}
        st = bstyles.pop()
        hs = f"{hrs:g}"
        body = {
            "labels": f"Style: {style}\nBatch: {L} L\nOG: {og(g)}\nBrew day: {hs} hrs",
            "oneline": f"Style: {style}, Batch: {L} L, OG: {og(g)}, Time: {hs} h",
            "pipe": f"Brew day | {style} | {L} L | OG {og(g)} | {hs} hrs",
            "prose": f"{style} brewed on Bertha today, {L} litres into the fermenter, OG {og(g)}, took {hs} hours "
                     f"start to finish.",
            "app": f"Batch #{n} · {style} · {L:.1f} L · OG {og(g)} · brew time {hours(hrs)}",
            "csv": f"date,style,litres,og,hours\n{d},{style},{L},{og(g)},{hs}",
        }[st]
        if d == "2026-11-20":
            h.add(d, "18:45",
                  "Disaster. Bertha's element burned out halfway through the boil today. Finished it on the hob in "
                  "two stockpots, so the batch came up short.\n" + f"Style: {style} | Batch: {L} L | OG {og(g)} | "
                  f"{hs} hrs (with all the faffing)",
                  "Oh no, what a day. Well rescued though. Do you know yet if the element can be replaced?",
                  recs=[rec], event="element")
            continue
        ld = rng.choice(["Brew day done!", "Another one in the fermenter.", "Brew log:", "Today's brew:",
                         "Bertha's been busy today.", "Finally got a brew in."])
        if d == "2026-09-19":
            ld = "Brewed anyway, the boil takes care of the water, ha."
        if d == "2026-10-24":
            ld = "First brew since the baby, Aisling's mam minded Zofia for the morning."
        two_step(h, d, rng.choice(["17:20", "18:05", "19:30"]), ld, body,
                 rng.choice(["Logged. Sounds like a smooth brew day.", "Saved. Fingers crossed for a clean ferment.",
                             "Noted. That one should be ready in a few weeks.", "Got it. Enjoy the cleaning up!"]),
                 [rec], rng)

    tstyles = ["prose", "pipe", "labels", "oneline"] * 3
    rng.shuffle(tstyles)
    for d, beer, n, fg in BOTTLINGS:
        rec = {"kind": "bottling", "day": D(d), "beer": beer, "bottles": n, "fg": fg}
        st = tstyles.pop()
        body = {"prose": f"Bottled the {beer} today: {n} bottles, FG {og(fg)}",
                "pipe": f"Bottling | {beer} | {n} x 500ml | FG {og(fg)}",
                "labels": f"Beer: {beer}\nBottles: {n}\nFG: {og(fg)}",
                "oneline": f"Beer: {beer}, Bottles filled: {n}, Final gravity: {og(fg)}"}[st]
        two_step(h, d, "21:10", rng.choice(["Bottling night.", "", "Packaged another one.", "Bottling log:"]), body,
                 rng.choice(["Saved. Now the hard part, waiting.", "Logged. Nice work.", "Noted, thanks."]), [rec], rng)

    sstyles = ["dash", "pipe", "prose"] * 2
    rng.shuffle(sstyles)
    for d, beer, score, note in TASTINGS:
        rec = {"kind": "tasting", "day": D(d), "beer": beer, "score": score}
        st = sstyles.pop()
        sc = f"{score:g}"
        body = {"dash": f"Tasting — {beer}: {sc}/10, {note}",
                "pipe": f"Beer: {beer} | Score: {sc}/10 | {note}",
                "prose": f"Cracked open the {beer} tonight, I'd give it {sc} out of 10. {note[0].upper() + note[1:]}."}[st]
        h.add(d, "20:35", body, rng.choice(["Sounds tasty. Noted.", "Saved your notes.", "Logged. Cheers!"]),
              recs=[rec])

    pstyles = ["order", "labels", "oneline", "pipe", "prose", "csv", "prose2"] * 3
    rng.shuffle(pstyles)
    for k, (d, shop, item, eur) in enumerate(PURCHASES):
        rec = {"kind": "purchase", "day": D(d), "shop": shop, "item": item, "cost": eur}
        st = pstyles.pop()
        body = {"order": f"Order #HB-{20931 + k * 17} · {shop} · {item} · total €{eur:.2f}",
                "labels": f"Shop: {shop}\nItem: {item}\nCost: €{eur:.2f}",
                "oneline": f"Shop: {shop}, Items: {item}, Total: €{eur:.2f}",
                "pipe": f"{shop} | {item} | €{eur:.2f}",
                "prose": f"spent €{eur:.2f} at {shop} on {item}",
                "prose2": f"Got {item} from {shop}, {eur:.2f} euro",
                "csv": f"date,shop,item,cost_eur\n{d},{shop},{item},{eur:.2f}"}[st]
        ld = rng.choice(["Ingredients run.", "Shopping for the next brew:", "", "Receipt for the records:",
                         "Stocked up.", "Bought a few bits.", "More supplies.", "Couldn't resist, ordered more.",
                         "For the spending log:"])
        two_step(h, d, rng.choice(["12:30", "13:10", "16:45"]), ld, body,
                 rng.choice(["Logged the purchase.", "Saved. Good to have stock in.", "Noted, thanks.",
                             "Got it."]), [rec], rng)

    # events and mentions
    h.add("2026-09-07", "20:00",
          "Hiya. I brew at home on a big all-in-one electric system I call Bertha. I'd like to log brew days, "
          "bottlings, tastings and what I spend on ingredients here.",
          "Sounds great. Send them over whenever you like and I'll keep track.")
    h.add("2026-09-15", "08:30",
          "Irish Water put a boil water notice on the whole of Lucan this morning. Great timing.",
          "Annoying! Boiled or bottled water for drinking and brushing teeth until it's lifted.", event="boil_on")
    h.add("2026-09-17", "19:05", "Day three of the boil notice and I'm sick of waiting on the kettle.",
          "Hopefully it won't be much longer. At least brewing boils everything anyway.")
    h.add("2026-09-21", "18:20", "Boil water notice is lifted at last!", "Great news, back to normal.",
          event="boil_off")
    h.add("2026-10-05", "17:40",
          "The fermentation fridge arrived! Second-hand larder fridge off DoneDeal with an Inkbird controller. "
          "Proper temperature control at last.",
          "That's a big upgrade. Your lagers and clean ales will thank you.", event="fridge")
    h.add("2026-10-09", "11:15",
          "She's here!! Zofia was born early this morning, she and Aisling are both doing great. I'm a dad!",
          "Congratulations to you both! Welcome to the world, Zofia. Enjoy every minute.", event="baby")
    h.add("2026-10-19", "21:30",
          "Two weeks since the fermentation fridge arrived and the temps have been rock solid.",
          "That consistency will really show in the beer.")
    h.add("2026-10-23", "03:10", "Two weeks since Zofia arrived. Sleep is a distant memory.",
          "The early weeks are the hardest. Sleep when she sleeps, if you can.")
    h.add("2026-11-07", "23:05",
          "Went along to the Liffey Valley Homebrewers meeting tonight and signed up, so I've officially joined "
          "the club! Brought a few bottles of the red for people to try.",
          "Brilliant! A club is a great way to get honest feedback and pick up tips.", event="club")
    h.add("2026-11-12", "20:50",
          "Still buzzing from last Saturday's club meeting. Got loads of tips on water chemistry.",
          "Water chemistry is a rabbit hole, but a rewarding one.")
    h.add("2026-11-22", "15:30", "Day three without Bertha. Replacement element is on order.",
          "Hopefully it arrives soon. Good time to deep-clean everything else.")
    h.add("2026-11-27", "19:10", "New element fitted, Bertha is back in business.",
          "Great news! Welcome back, Bertha.", event="element_fixed")

    add_fillers(h, [BREW_FILL, GENERIC], p_free=0.8, p_second=0.15)
    h.build()
    return h


def brew_questions(h: History):
    qs = QSet(h)
    B = lambda a=None, b=None, p=None: h.sel("brew", a, b, p)  # noqa: E731
    P = lambda a=None, b=None, p=None: h.sel("purchase", a, b, p)  # noqa: E731
    sep, octo, nov = month_range(2026, 9), month_range(2026, 10), month_range(2026, 11)

    xs = nonempty(B(*nov))
    qs.add("plain_aggregate", "sum", "Litres brewed in November?", num(total(xs, "litres"), "L"), rid(xs))

    d20 = D("2026-10-20")
    h.clear("brew", d20)
    xs = nonempty(B(d20))
    qs.add("plain_aggregate", "avg", "since the 20th of october, what's my average OG been?",
           num(mean(xs, "og")), rid(xs))

    a30 = h.qdate - dt.timedelta(days=29)
    h.clear("purchase", a30 - ONE, a30)
    xs = nonempty(P(a30, h.qdate))
    qs.add("plain_aggregate", "sum", "ingredient spend over the last 30 days?", num(total(xs, "cost"), "EUR"), rid(xs))

    xs = nonempty(B(*octo))
    qs.add("named_subject", "sum", "How many hours did Bertha put in on brew days in October?",
           num(total(xs, "hours"), "h"), rid(xs))

    xs = nonempty(B())
    m = max(x["litres"] for x in xs)
    qs.add("named_subject", "max", "What's the biggest batch Bertha has done?", num(m, "L"),
           rid([x for x in xs if x["litres"] == m]))

    xs = nonempty(P(p=lambda r: r["shop"] == "Grainhouse"))
    qs.add("named_subject", "sum", "How much have I spent at Grainhouse altogether?", num(total(xs, "cost"), "EUR"),
           rid(xs))

    bb = h.ev("baby")
    h.clear("brew", bb)
    xs = nonempty(B(bb + ONE))
    qs.add("event_bounded", "sum", "How much beer have I brewed since Zofia was born, in litres?",
           num(total(xs, "litres"), "L"), [h.ev_round("baby")] + rid(xs))

    fr = h.ev("fridge")
    h.clear("brew", fr)
    xs = nonempty(B(None, fr - ONE))
    qs.add("event_bounded", "avg", "Before the fermentation fridge turned up, how long were my brew days on average? (hours)",
           num(mean(xs, "hours"), "h"), [h.ev_round("fridge")] + rid(xs))

    b0, b1 = h.ev("boil_on"), h.ev("boil_off")
    h.clear("purchase", b0, b1)
    xs = nonempty(P(b0 + ONE, b1 - ONE))
    qs.add("event_bounded", "sum", "Remind me what my ingredient bill was while the boil water notice was on",
           num(total(xs, "cost"), "EUR"), [h.ev_round("boil_on"), h.ev_round("boil_off")] + rid(xs))

    el = h.ev("element")
    xs = B(el, el)
    assert len(xs) == 1
    qs.add("event_bounded", "value", "how big was the batch on the day Bertha's element burned out?",
           num(xs[0]["litres"], "L"), [h.ev_round("element")])

    cl = h.ev("club")
    h.clear("purchase", cl, cl + dt.timedelta(days=7))
    xs = nonempty(P(cl + ONE, cl + dt.timedelta(days=7)))
    nxt = monday(cl) + dt.timedelta(days=7)
    assert xs == P(nxt, nxt + dt.timedelta(days=6))
    qs.add("event_bounded", "sum", "How much did I spend in the week after I joined the homebrew club?",
           num(total(xs, "cost"), "EUR"), [h.ev_round("club")] + rid(xs))

    xs = nonempty(B(fr + ONE))
    qs.add("event_first_last", "first", "What was the first beer I brewed after getting the fermentation fridge?",
           text(xs[0]["style"]), [h.ev_round("fridge"), xs[0]["round_id"]])

    h.clear("purchase", bb)
    xs = nonempty(P(None, bb - ONE))
    assert len(P(xs[-1]["day"], xs[-1]["day"])) == 1
    qs.add("event_first_last", "latest", "Where did I last buy ingredients before the baby came?",
           text(xs[-1]["shop"]), [h.ev_round("baby"), xs[-1]["round_id"]])

    h.clear("bottling", cl)
    xs = nonempty(h.sel("bottling", cl + ONE))
    qs.add("event_first_last", "first", "What FG did the first beer I bottled after joining the club finish at?",
           num(xs[0]["fg"]), [h.ev_round("club"), xs[0]["round_id"]])

    o, n = nonempty(P(*octo)), nonempty(P(*nov))
    assert total(o, "cost") != total(n, "cost")
    qs.add("comparison", "greater", "Did I spend more on ingredients in October than in November?",
           yes_no(total(o, "cost") > total(n, "cost")), rid(o + n))

    s, o = nonempty(B(*sep)), nonempty(B(*octo))
    assert total(o, "litres") < total(s, "litres")
    qs.add("comparison", "difference", "how many fewer litres did I brew in October compared with September?",
           num(total(s, "litres") - total(o, "litres"), "L", either=True), rid(s + o))

    o, n = nonempty(B(*octo)), nonempty(B(*nov))
    assert mean(o, "og") != mean(n, "og")
    qs.add("comparison", "greater", "Was my average OG higher in October or November?",
           month("2026-10" if mean(o, "og") > mean(n, "og") else "2026-11"), rid(o + n))

    xs = nonempty(P(*octo))
    by = defaultdict(float)
    for x in xs:
        by[x["shop"]] += x["cost"]
    qs.add("group_rank", "rank", "which shop did I spend the least at in October?", group(unique_top(by, lowest=True)),
           rid(xs))

    xs = B()
    top = unique_top(Counter(x["style"] for x in xs))
    qs.add("group_rank", "rank", "What style have I brewed most often?", group(top),
           rid([x for x in xs if x["style"] == top]))

    xs = h.sel("bottling")
    by = defaultdict(int)
    for x in xs:
        by[x["day"].strftime("%Y-%m")] += x["bottles"]
    top = unique_top(by)
    qs.add("group_rank", "rank", "Which month did I bottle the most bottles?", month(top),
           rid([x for x in xs if x["day"].strftime("%Y-%m") == top]))

    xs = P()
    top = unique_top(Counter(x["shop"] for x in xs))
    ys = [x for x in xs if x["shop"] == top]
    qs.add("top_group_measure", "sum", "The shop I order from most, how much have I spent there in total?",
           num(total(ys, "cost"), "EUR"), rid(ys))

    xs = P()
    ys = [x for x in xs if x["shop"] == "Liffey Brew Supplies"]
    qs.add("share", "share", "what % of my ingredient money went to Liffey Brew Supplies?",
           num(total(ys, "cost") / total(xs, "cost") * 100, "%"), rid(xs))

    xs = B()
    assert all(abs(x["og"] - 1.060) > 1e-9 for x in xs)
    ys = nonempty([x for x in xs if x["og"] > 1.060])
    qs.add("count_condition", "count", "how many of my brews had an OG over 1.060?", num(len(ys)), rid(ys))

    # --- unanswerable ---
    h.absent(r"\bmoved\b", r"new house", r"moving house", r"move house")
    qs.add("unanswerable", "event_absent", "How many brews have I done since I moved house?", UNANSWERABLE)
    h.absent("mash temp")
    qs.add("unanswerable", "measure_absent", "what was the average mash temperature on my brews?", UNANSWERABLE)
    h.absent("saison")
    qs.add("unanswerable", "value_absent", "What OG did the saison come in at?", UNANSWERABLE)
    assert not P(*month_range(2026, 8))
    qs.add("unanswerable", "period_empty", "what did ingredients cost me in August?", UNANSWERABLE)
    h.absent("Malt Miller")
    qs.add("unanswerable", "group_absent", "what's my spend at The Malt Miller been?", UNANSWERABLE)
    h.absent(r"\bRory\b")
    qs.add("unanswerable", "name_absent", "How many litres did I brew with Rory?", UNANSWERABLE)
    assert not B(bb, bb + dt.timedelta(days=9))
    qs.add("unanswerable", "period_empty",
           "What was the average OG of the beers I brewed in the week after Zofia was born?", UNANSWERABLE)
    return qs


# ==============================================================================================================
# history 3: Gráinne, a volunteer at the Northside Larder food bank


SHIFTS = [  # date, site, hours, kg sorted (None for packing), parcels (None for sorting)
    ("2026-01-06", "Ballymun", 3.0, 240, None),
    ("2026-01-08", "Finglas", 3.5, None, 41),
    ("2026-01-10", "Cabra", 4.0, None, 52),
    ("2026-01-13", "Ballymun", 3.0, 265, None),
    ("2026-01-15", "Finglas", 3.0, None, 36),
    ("2026-01-17", "Ballymun", 5.0, 410, None),
    ("2026-01-22", "Finglas", 3.0, None, 38),
    ("2026-01-24", "Cabra", 4.0, None, 47),
    ("2026-01-27", "Ballymun", 2.5, 190, None),
    ("2026-01-29", "Finglas", 3.0, None, 34),
    ("2026-01-31", "Ballymun", 4.5, 355, None),
    ("2026-02-03", "Ballymun", 2.5, 205, None),
    ("2026-02-05", "Finglas", 3.0, None, 35),
    ("2026-02-07", "Cabra", 3.5, None, 44),
    ("2026-02-14", "Ballymun", 5.0, 460, None),
    ("2026-02-17", "Ballymun", 3.0, 250, None),
    ("2026-02-19", "Finglas", 3.5, None, 40),
    ("2026-02-21", "Cabra", 4.0, None, 50),
    ("2026-02-26", "Finglas", 3.0, None, 37),
    ("2026-02-28", "Ballymun", 4.0, 330, None),
    ("2026-03-05", "Finglas", 3.0, None, 39),
    ("2026-03-07", "Cabra", 4.0, None, 55),
    ("2026-03-09", "Finglas", 5.0, None, 62),
    ("2026-03-12", "Finglas", 3.0, None, 36),
    ("2026-03-14", "Ballymun", 4.0, 320, None),
    ("2026-03-16", "Finglas", 5.0, None, 58),
    ("2026-03-19", "Cabra", 3.0, None, 33),
    ("2026-03-23", "Finglas", 4.5, None, 60),
    ("2026-03-24", "Ballymun", 3.0, 230, None),
    ("2026-03-25", "Ballymun", 2.0, 150, None),
    ("2026-03-26", "Finglas", 3.0, None, 40),
    ("2026-03-30", "Finglas", 5.0, None, 64),
    ("2026-04-02", "Ballymun", 3.0, 270, None),
    ("2026-04-04", "Cabra", 4.0, None, 51),
]

MILEAGE = [  # date, km, EUR, purpose
    ("2026-01-09", 38, 11.40, "collection run from Tesco Ballymun to Finglas"),
    ("2026-01-16", 52, 15.60, "home deliveries around Finglas"),
    ("2026-01-23", 27, 8.10, "bread pickup from the bakery in Cabra"),
    ("2026-02-04", 44, 13.20, "stock transfer Ballymun to Cabra"),
    ("2026-02-13", 61, 18.30, "moving stock back to Ballymun after the repairs"),
    ("2026-02-20", 33, 9.90, "home deliveries in Cabra"),
    ("2026-03-13", 47, 14.10, "collection run from the Lidl depot"),
    ("2026-03-20", 29, 8.70, "bread pickup"),
    ("2026-03-27", 55, 16.50, "Easter appeal collections"),
    ("2026-04-03", 36, 10.80, "home deliveries around Finglas"),
]

TRAININGS = [  # date, topic, hours, where
    ("2026-01-07", "Food safety", 3.0, "online"),
    ("2026-01-28", "Manual handling", 2.0, "Ballymun"),
    ("2026-02-18", "Safeguarding", 2.5, "Finglas"),
    ("2026-02-25", "Allergen awareness", 1.5, "online"),
    ("2026-03-11", "Shift lead induction", 3.0, "Finglas"),
    ("2026-04-01", "First aid", 6.0, "Cabra"),
]


def larder_history() -> History:
    h = History("larder", "grainne", "2026-01-05", "2026-04-05", "2026-04-07T10:00:00", 63031)
    rng = h.rng

    def hfmt(x):
        return f"{x:g}"

    sort_styles = ["short", "pipe", "labels", "csv", "prose", "app"] * 3
    pack_styles = ["prose", "oneline", "pipe", "labels", "app", "csv"] * 4
    rng.shuffle(sort_styles)
    rng.shuffle(pack_styles)
    starts = {"Ballymun": 10, "Finglas": 17, "Cabra": 10}
    for d, site, hrs, kg, parcels in SHIFTS:
        day = D(d)
        rec = {"kind": "shift", "day": day, "site": site, "hours": hrs}
        t0 = starts[site]
        t1h, t1m = t0 + int(hrs), int(round((hrs % 1) * 60))
        span = f"{t0:02d}:00–{t1h:02d}:{t1m:02d}"
        if kg is not None:
            rec["kg"] = kg
            st = sort_styles.pop()
            body = {"short": f"Shift at {site}: {hfmt(hrs)} hrs, sorted {kg} kg",
                    "pipe": f"Site: {site} | Hours: {hfmt(hrs)} | Sorted: {kg} kg",
                    "labels": f"Site: {site}\nHours: {hfmt(hrs)}\nSorted: {kg} kg",
                    "csv": f"date,site,hours,kg_sorted\n{d},{site},{hfmt(hrs)},{kg}",
                    "prose": f"sorted {kg} kg of donations in {hfmt(hrs)} hours at the {site} warehouse",
                    "app": f"Northside Larder · Shift confirmed · {site} · {span} ({hfmt(hrs)} h) · sorting · {kg} kg"}[st]
        else:
            rec["parcels"] = parcels
            st = pack_styles.pop()
            place = {"Finglas": "Finglas hub", "Cabra": "Cabra hall"}[site]
            body = {"prose": f"packed {parcels} parcels in {hfmt(hrs)} hours at the {place}",
                    "oneline": f"Site: {site}, Hours: {hfmt(hrs)}, Parcels packed: {parcels}",
                    "pipe": f"{site} | {hfmt(hrs)} h | {parcels} parcels",
                    "labels": f"Site: {site}\nHours: {hfmt(hrs)}\nParcels: {parcels}",
                    "app": f"Northside Larder · Shift confirmed · {site} · {span} ({hfmt(hrs)} h) · packing · "
                           f"{parcels} parcels",
                    "csv": f"date,site,hours,parcels\n{d},{site},{hfmt(hrs)},{parcels}"}[st]
        ld = rng.choice(["Shift done.", "Another one for the log:", "Back from the Larder.", "", "Good shift today.",
                         "Tired but happy.", "For the volunteer log:", "Busy one today.", "Home now, feet up.",
                         "Quiet enough shift.", "Deirdre had us flat out today."])
        if d == "2026-02-07":
            ld = "Morning shift before the weather turned:"
        if d == "2026-02-14":
            ld = "Back in Ballymun at last, huge backlog after the closure."
        if d == "2026-03-09":
            ld = "First Monday as shift lead!"
        hhmm = f"{min(t1h + 1, 23):02d}:{rng.choice(['05', '20', '35'])}"
        two_step(h, day, hhmm, ld, body,
                 rng.choice(["Logged. Thanks for all you do.", "Saved. That's a solid shift.",
                             "Noted. Put your feet up.", "Got it, well done.", "Logged, thank you."]), [rec], rng)

    mstyles = ["claim", "pipe", "prose", "kv", "labels"] * 2
    rng.shuffle(mstyles)
    for d, km, eur, purpose in MILEAGE:
        rec = {"kind": "mileage", "day": D(d), "km": km, "amount": eur, "purpose": purpose}
        st = mstyles.pop()
        body = {"claim": f"Mileage claim: {km} km, €{eur:.2f} ({purpose})",
                "pipe": f"Claim | {km} km | €{eur:.2f} | {purpose}",
                "prose": f"claimed {km} km today for the {purpose}, €{eur:.2f}",
                "kv": f"km: {km}, amount: €{eur:.2f}, purpose: {purpose}",
                "labels": f"Mileage\nDistance: {km} km\nAmount: €{eur:.2f}\nTrip: {purpose}"}[st]
        ld = rng.choice(["Sent in my mileage.", "Expenses:", "", "Mileage for the week:"])
        h.add(d, "17:50", f"{ld}\n{body}" if ld else body,
              rng.choice(["Noted.", "Logged the claim.", "Saved, thanks."]), recs=[rec])

    trstyles = ["pipe", "prose", "labels", "oneline", "pipe", "labels"]
    rng.shuffle(trstyles)
    for d, topic, hrs, where in TRAININGS:
        rec = {"kind": "training", "day": D(d), "topic": topic, "hours": hrs, "where": where}
        st = trstyles.pop()
        wp = "online" if where == "online" else f"in {where}"
        body = {"pipe": f"Training: {topic} | {hfmt(hrs)} h | {where}",
                "prose": f"did the {topic.lower()} course {wp} tonight, {hfmt(hrs)} hours",
                "labels": f"Course: {topic}\nDuration: {hfmt(hrs)} hrs\nWhere: {where}",
                "oneline": f"Training: {topic}, Length: {hfmt(hrs)} h, Venue: {where}"}[st]
        h.add(d, "21:15", body, rng.choice(["Well done, logged.", "Saved. Useful one.", "Noted, thanks."]),
              recs=[rec])

    h.add("2026-01-05", "19:30",
          "Hi! I volunteer with the Northside Larder, a food bank with a warehouse in Ballymun and packing "
          "sites in Finglas and Cabra. I'd like to keep a log of my shifts, mileage and training.",
          "That's wonderful work. Send me anything you want logged and I'll keep track of it.")
    h.add("2026-01-19", "20:05",
          "Started my new job at the Glasnevin library today! Three days a week, so I'll have to juggle my Larder "
          "shifts a bit.",
          "Congratulations! That sounds like a lovely job. The Larder will be glad you're staying on.", event="job")
    h.add("2026-02-02", "19:15", "Two weeks since I started at the library and I love it.",
          "That's great to hear. Sounds like a good fit.")
    h.add("2026-02-07", "18:40",
          "Storm Fionn tore half the roof panels off the Ballymun warehouse this afternoon. Deirdre says it's "
          "closed until further notice.",
          "What a shame, I hope no one was hurt. Hopefully the repairs are quick.", event="storm", skey="e")
    h.add("2026-02-09", "20:10", "Day three of Ballymun being shut. Deirdre is moving what she can to Finglas.",
          "That's a lot of extra work for everyone. Hang in there.")
    h.add("2026-02-12", "16:25", "Ballymun reopened today, the roof is patched up.", "Brilliant news!",
          event="reopen")
    h.add("2026-02-24", "09:40",
          "The car died on the M50 this morning. Mechanic says the gearbox is gone and it's not worth fixing.",
          "Oh no, that's so stressful. I'm glad you're safe. Let me know if you want help comparing replacements.",
          event="car_dead")
    h.add("2026-03-02", "21:00",
          "Deirdre asked me to be shift lead for the Monday packing at Finglas and I said yes! First one is next "
          "week.",
          "Congratulations, that's a real vote of confidence. You'll be great at it.", event="lead")
    h.add("2026-03-03", "19:45", "A week since the car died and I'm getting very familiar with the bus timetable.",
          "Public transport builds character, as they say. Any luck finding a replacement?")
    h.add("2026-03-04", "20:20", "Day three as shift lead and I've already redone the rota twice.",
          "Sounds like you're taking it seriously. It'll settle down.")
    h.add("2026-03-10", "18:10", "Picked up the new car today! New to me anyway, a little silver Corolla.",
          "Congratulations! Freedom again.", event="car_new")
    h.add("2026-03-21", "23:10",
          "Mam's 70th today! Whole family in the function room at the GAA club, she had an absolute ball.",
          "That sounds like a wonderful night. Happy birthday to your mam!", event="party")
    h.add("2026-03-26", "08:30", "Still recovering from last Saturday's party, the cousins stayed till all hours.",
          "Worth it for a milestone like that, I'd say.")

    add_fillers(h, [LARDER_FILL, GENERIC], p_free=0.8, p_second=0.15)
    h.build()
    return h


def larder_questions(h: History):
    qs = QSet(h)
    S = lambda a=None, b=None, p=None: h.sel("shift", a, b, p)  # noqa: E731
    M = lambda a=None, b=None, p=None: h.sel("mileage", a, b, p)  # noqa: E731
    jan, feb, mar = month_range(2026, 1), month_range(2026, 2), month_range(2026, 3)
    has_kg = lambda r: "kg" in r  # noqa: E731
    has_p = lambda r: "parcels" in r  # noqa: E731

    xs = nonempty(S(*feb))
    qs.add("plain_aggregate", "sum", "Total volunteering hours for February?", num(total(xs, "hours"), "h"), rid(xs))

    xs = nonempty(S(*mar, has_p))
    qs.add("plain_aggregate", "avg", "On my packing shifts in March, how many parcels did I average?",
           num(mean(xs, "parcels")), rid(xs))

    a42 = h.qdate - dt.timedelta(days=41)
    h.clear("shift", a42 - ONE, a42)
    xs = nonempty(S(a42, h.qdate, has_kg))
    qs.add("plain_aggregate", "sum", "roughly how many kilos have I sorted over the last six weeks?",
           num(total(xs, "kg"), "kg"), rid(xs))

    xs = nonempty(S(p=has_p))
    qs.add("named_subject", "sum", "How many parcels have I packed for Northside Larder altogether?",
           num(total(xs, "parcels")), rid(xs))

    xs = nonempty(S(*jan, lambda r: r["site"] == "Finglas"))
    qs.add("named_subject", "sum", "what did I clock at the Finglas hub in January, hours-wise?",
           num(total(xs, "hours"), "h"), rid(xs))

    xs = nonempty(M())
    qs.add("named_subject", "sum", "What's the total mileage money I've claimed from the Larder?",
           num(total(xs, "amount"), "EUR"), rid(xs))

    ld = h.ev("lead")
    h.clear("shift", ld)
    xs = nonempty(S(ld + ONE))
    qs.add("event_bounded", "sum", "Since becoming shift lead, how much time have I given, in hours?",
           num(total(xs, "hours"), "h"), [h.ev_round("lead")] + rid(xs))

    jb = h.ev("job")
    h.clear("shift", jb)
    xs = nonempty(S(None, jb - ONE))
    qs.add("event_bounded", "avg", "average shift before I started at the library, how long were they?",
           num(mean(xs, "hours"), "h"), [h.ev_round("job")] + rid(xs))

    cd = h.ev("car_dead")
    h.clear("mileage", jb, cd)
    xs = nonempty(M(jb + ONE, cd - ONE))
    qs.add("event_bounded", "sum", "how many km did I claim between starting the library job and the car dying?",
           num(total(xs, "km"), "km"), [h.ev_round("job"), h.ev_round("car_dead")] + rid(xs))

    sd = h.ev("storm")
    xs = S(sd, sd)
    assert len(xs) == 1 and "parcels" in xs[0]
    qs.add("event_bounded", "value", "How many parcels did I pack the day the storm hit?", num(xs[0]["parcels"]),
           [h.ev_round("storm"), xs[0]["round_id"]])

    pt = h.ev("party")
    h.clear("shift", pt, pt + dt.timedelta(days=7))
    xs = nonempty(S(pt + ONE, pt + dt.timedelta(days=7), has_kg))
    nxt = monday(pt) + dt.timedelta(days=7)
    assert xs == S(nxt, nxt + dt.timedelta(days=6), has_kg)
    qs.add("event_bounded", "sum", "How many kg did I sort in the week after Mam's 70th?", num(total(xs, "kg"), "kg"),
           [h.ev_round("party")] + rid(xs))

    ro = h.ev("reopen")
    h.clear("shift", ro)
    xs = nonempty(S(ro + ONE))
    assert len(S(xs[0]["day"], xs[0]["day"])) == 1
    qs.add("event_first_last", "first", "Where was my first shift after Ballymun reopened?", text(xs[0]["site"]),
           [h.ev_round("reopen"), xs[0]["round_id"]])

    h.clear("training", ld)
    xs = nonempty(h.sel("training", None, ld - ONE))
    qs.add("event_first_last", "latest", "What was the last training I did before becoming shift lead?",
           text(xs[-1]["topic"]), [h.ev_round("lead"), xs[-1]["round_id"]])

    cn = h.ev("car_new")
    h.clear("mileage", cn)
    xs = nonempty(M(cn + ONE))
    qs.add("event_first_last", "first", "how many km was my first mileage claim after I got the new car?",
           num(xs[0]["km"], "km"), [h.ev_round("car_new"), xs[0]["round_id"]])

    j, m = nonempty(S(*jan, has_kg)), nonempty(S(*mar, has_kg))
    assert total(j, "kg") != total(m, "kg")
    qs.add("comparison", "greater", "was January a bigger month for sorting than March, by kg?",
           yes_no(total(j, "kg") > total(m, "kg")), rid(j + m))

    f, m = nonempty(S(*feb)), nonempty(S(*mar))
    qs.add("comparison", "percent_change", "what's the percent change in my volunteering hours from february to march?",
           num((total(m, "hours") - total(f, "hours")) / total(f, "hours") * 100, "%"), rid(f + m))

    j, m = nonempty(S(*jan, has_p)), nonempty(S(*mar, has_p))
    assert total(m, "parcels") > total(j, "parcels")
    qs.add("comparison", "difference", "How many more parcels did I pack in March than in January?",
           num(total(m, "parcels") - total(j, "parcels"), None, either=True), rid(j + m))

    xs = S()
    by = defaultdict(float)
    for x in xs:
        by[x["site"]] += x["hours"]
    top_hours = unique_top(by)
    qs.add("group_rank", "rank", "Which site have I done the most hours at?", group(top_hours), rid(xs))

    xs = nonempty(S(*feb))
    by = defaultdict(float)
    for x in xs:
        by[monday(x["day"])] += x["hours"]
    wk = unique_top(by)
    h.clear("shift", wk - ONE, wk + dt.timedelta(days=6))
    qs.add("group_rank", "rank", "which week in february did I put in the most hours? just give me the monday",
           week(wk), rid([x for x in xs if monday(x["day"]) == wk]))

    xs = nonempty(S(*jan))
    by = defaultdict(float)
    for x in xs:
        by[x["site"]] += x["hours"]
    assert len(by) == 3
    qs.add("group_rank", "rank", "Where did I spend the least time volunteering in January?",
           group(unique_top(by, lowest=True)), rid(xs))

    xs = S()
    top = unique_top(Counter(x["site"] for x in xs))
    ys = [x for x in xs if x["site"] == top]
    qs.add("top_group_measure", "avg", "At the site I go to most often, what's my average shift length?",
           num(mean(ys, "hours"), "h"), rid(ys))

    xs = S()
    ys = [x for x in xs if x["site"] == "Ballymun"]
    qs.add("share", "share", "What share of my volunteering hours were at the Ballymun warehouse?",
           num(total(ys, "hours") / total(xs, "hours") * 100, "%"), rid(xs))

    xs = S()
    ys = nonempty([x for x in xs if x["hours"] > 4])
    qs.add("count_condition", "count", "How many of my shifts were longer than four hours?", num(len(ys)), rid(ys))

    # --- unanswerable ---
    h.absent("of the month", "volunteer of")
    qs.add("unanswerable", "event_absent", "How many shifts have I done since I was named volunteer of the month?",
           UNANSWERABLE)
    h.absent("household")
    qs.add("unanswerable", "measure_absent", "How many households did I serve in March?", UNANSWERABLE)
    assert not S(p=lambda r: r["site"] == "Ballymun" and "parcels" in r)
    qs.add("unanswerable", "value_absent", "What's my average parcels per shift at Ballymun?", UNANSWERABLE)
    assert not S(*month_range(2025, 12))
    qs.add("unanswerable", "period_empty", "how long were my shifts in December, on average?", UNANSWERABLE)
    h.absent("Coolock")
    qs.add("unanswerable", "group_absent", "average kg per shift at the Coolock site?", UNANSWERABLE)
    h.absent(r"\bTom\b", r"\bTom's\b")
    qs.add("unanswerable", "name_absent", "How much did Tom claim in mileage in March?", UNANSWERABLE)
    assert not M(cd, cn)
    qs.add("unanswerable", "period_empty", "What was my average mileage claim while I was without a car?",
           UNANSWERABLE)
    return qs


# ==============================================================================================================


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=HERE)
    args = ap.parse_args(argv)
    out = args.out
    out.mkdir(parents=True, exist_ok=True)
    everything = []
    for build, ask in ((chess_history, chess_questions), (brew_history, brew_questions),
                       (larder_history, larder_questions)):
        h = build()
        qs = ask(h).items
        assert len(qs) == 30, (h.name, len(qs))
        assert len({q["question"].lower() for q in qs}) == 30
        n_sessions = len(h.doc["sessions"])
        assert 80 <= n_sessions <= 110, (h.name, n_sessions)
        (out / f"history_{h.name}.json").write_text(json.dumps(h.doc, ensure_ascii=False, indent=1) + "\n",
                                                    encoding="utf-8")
        (out / f"questions_{h.name}.jsonl").write_text(
            "".join(json.dumps(q, ensure_ascii=False) + "\n" for q in qs), encoding="utf-8")
        everything += qs
        kinds = Counter(r["kind"] for r in h.records)
        print(f"{h.name}: {n_sessions} sessions, {len(h.rounds)} rounds, records {dict(kinds)}, "
              f"{sum(1 for q in qs if q['gold'].get('unanswerable'))} unanswerable")
    (out / "questions.jsonl").write_text("".join(json.dumps(q, ensure_ascii=False) + "\n" for q in everything),
                                         encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
