"""Coverage: an answer over half-read records does not call itself the total.

Fill-ups written in two layouts: "Station: ... / Litres: ... / Total: ..." and
an app's "Ltrs ... | Total paid ...", whose total the reader does not put in the
``total`` column. Expected values are computed here from the records written.
"""

import dataclasses
import re
from datetime import date, datetime, timedelta

import numpy as np
import pytest
from conftest import one_a_day

from langgraph_adamm import AdaMMConfig, Memory
from langgraph_adamm.analytic.coverage import unread_rounds
from langgraph_adamm.history import history_from_dict

START = date(2026, 4, 1)
NOW = "2026-05-01T00:00:00"


def fill(i):
    day = START + timedelta(days=3 * i)
    app = i % 3 == 2
    if app:
        text = (
            f"Station: Circle K | Ltrs: {30 + i}.0 | Total paid: €{50 + i}.00 | "
            f"Odometer: {80000 + 300 * i} km"
        )
    else:
        text = (
            f"Fill-up\nStation: Top Oil\nLitres: {30 + i}.0 L\nTotal: €{50 + i}.00\n"
            f"Odometer: {80000 + 300 * i} km"
        )
    return day, text, app


FILLS = [fill(i) for i in range(10)]
CHAT = (
    "What does the odometer total mean on the dashboard? And why is the total so high?"
)


def build_history():
    sessions = [
        {
            "session_id": f"S{i}",
            "date": str(day),
            "rounds": [{"time": f"{day}T09:00:00", "user": text, "assistant": "ok"}],
        }
        for i, (day, text, _) in enumerate(FILLS)
    ]
    sessions.append(
        {
            "session_id": "C1",
            "date": "2026-04-20",
            "rounds": [{"time": "2026-04-20T20:00:00", "user": CHAT, "assistant": "."}],
        }
    )
    return history_from_dict({"user_id": "u", "sessions": sessions})


@pytest.fixture(scope="module")
def mem():
    # Read round by round: realignment would read the app's layout with the
    # fill-ups' kind as the guide (see test_realignment_reads_the_app_layout).
    m = Memory(":memory:", user_id="u", config=AdaMMConfig(realign_kinds=False))
    m.ingest(build_history())
    yield m
    m.close()


def test_realignment_reads_the_app_layout():
    with Memory(":memory:", user_id="u") as m:
        report = m.ingest(build_history())
        assert report.rounds_reread == len(app_rounds())
        table = m.analytic.table(m.tables[0].table_name)
        total = m.compute(
            {
                "table": table.table_name,
                "operator": "sum",
                "target_column_expression": "total",
            }
        )
        assert total.value == pytest.approx(sum(50 + i for i in range(len(FILLS))))
        assert total.row_count == len(FILLS)
        assert unread_rounds(m.analytic, table, [], "total") == []


def app_rounds(until=None):
    return [
        f"S{i}:1"
        for i, (day, _, app) in enumerate(FILLS)
        if app and (until is None or day <= until)
    ]


def test_a_total_over_half_read_rows_is_not_stated(mem):
    out = mem.ask("What did the fill-ups cost in total in April?", question_time=NOW)
    assert out["value"] is None
    said = " ".join(out["unresolved"])
    for rid in app_rounds():
        assert rid in said
    # the figure without them is shown as such, never as the total
    assert "Without" in out["answer"]


def test_the_result_names_the_rounds_and_the_filters_narrow_them(mem):
    table = mem.analytic.table(mem.tables[0].table_name)
    assert set(unread_rounds(mem.analytic, table, [], "total")) == set(app_rounds())
    early = [{"column": "time", "op": "<=", "value": "2026-04-10"}]
    assert unread_rounds(mem.analytic, table, early, "total") == app_rounds(
        date(2026, 4, 10)
    )
    # a value the round does not hold rules it out
    top_oil = [{"column": "station", "op": "=", "value": "Top Oil"}]
    assert unread_rounds(mem.analytic, table, top_oil, "total") == []
    # a column every round reads leaves nothing unread
    assert unread_rounds(mem.analytic, table, [], "odometer") == []


def test_a_round_that_gave_no_row_is_found_and_chat_is_not():
    with Memory(":memory:", user_id="u") as m:
        m.ingest(build_history())
        table = m.analytic.table(m.tables[0].table_name)
        assert unread_rounds(m.analytic, table, []) == []
        # a round the reader lost: its row gone, its text still a record
        m.analytic.db.execute(
            f"DELETE FROM {m.analytic.qualified(table)} WHERE source = 'S0:1'"
        )
        m.analytic.coverage.clear()
        found = unread_rounds(m.analytic, table, [])
        assert found == ["S0:1"]  # and not C1:1: labels in chat, no values
        count = m.compute({"table": table.table_name, "operator": "count"})
        assert count.unread_rounds == ["S0:1"]
        assert "S0:1" in (count.note or "")
        described = m.describe_tables()[0]
        assert described["unread_rounds"] == ["S0:1"]


@pytest.fixture
def unread_by_values(monkeypatch):
    """A memory of labelled fill-ups and one more round whose row is gone.

    Rounds found by their meaning alone are left out: what is found here is
    found by the values extraction read.
    """
    from langgraph_adamm.analytic import coverage

    monkeypatch.setattr(coverage, "_near", lambda memory, table: [])

    def build(text):
        sessions = [
            {
                "session_id": f"S{i}",
                "date": str(day),
                "rounds": [{"time": f"{day}T09:00:00", "user": t, "assistant": "ok"}],
            }
            for i, (day, t, app) in enumerate(FILLS)
            if not app
        ]
        extra = {"time": "2026-05-01T09:00:00", "user": text, "assistant": "ok"}
        sessions.append({"session_id": "X1", "date": "2026-05-01", "rounds": [extra]})
        m = Memory(":memory:", user_id="u")
        m.ingest(history_from_dict({"user_id": "u", "sessions": sessions}))
        table = m.analytic.table(m.tables[0].table_name)
        m.analytic.db.execute(
            f"DELETE FROM {m.analytic.qualified(table)} WHERE source = 'X1:1'"
        )
        m.analytic.coverage.clear()
        return m, table

    return build


def test_a_round_whose_values_were_read_without_colons_is_found(unread_by_values):
    # an app's line states no label with a colon; what extraction read names
    # the table's columns
    m, table = unread_by_values("Litres 41.0 · Total €61.00 · Odometer 83300 km")
    with m:
        assert unread_rounds(m.analytic, table, []) == ["X1:1"]


def test_each_record_of_an_unread_export_is_filtered_on_its_own_values(
    unread_by_values,
):
    # a pasted export of two fill-ups, neither read: a filter on the total
    # rules out the round only when both records fail it
    m, table = unread_by_values(
        "Date,Litres,Total (EUR),Odometer (km)\n"
        "2026-04-29,41.0,45.00,83300\n2026-04-30,42.0,70.00,83600"
    )
    with m:
        over = {"column": "total", "op": ">", "value": 50}
        assert unread_rounds(m.analytic, table, [over]) == ["X1:1"]
        beyond = {"column": "total", "op": ">", "value": 80}
        assert unread_rounds(m.analytic, table, [beyond]) == []


def test_labels_in_json_and_other_spellings_are_read():
    from langgraph_adamm.analytic.coverage import _label_re

    m = _label_re("kiln").search('{"kiln": "pip", "firing": "glaze"}')
    assert m is not None and m.group("v") == "pip"
    m = _label_re("time value").search("top temp: 1231\ntime: 6 hours 55 minutes")
    assert m is None  # the column's own name; its written label "time" is another
    assert _label_re("time").search("time: 6 hours").group("v") == "6 hours"


WASHES = [(START + timedelta(days=1 + 5 * i), 8 + i) for i in range(6)]


def test_a_table_that_looks_like_the_same_kind_is_named_in_the_result(monkeypatch):
    sessions = build_history()
    with Memory(":memory:", user_id="u") as m:
        m.ingest(sessions)
        washes = history_from_dict(
            {
                "user_id": "u",
                "sessions": [
                    {
                        "session_id": f"W{i}",
                        "date": str(day),
                        "rounds": [
                            {
                                "time": f"{day}T12:00:00",
                                "user": f"Car wash - Bay: {i % 2 + 1} | Price: €{p}.00",
                                "assistant": "ok",
                            }
                        ],
                    }
                    for i, (day, p) in enumerate(WASHES)
                ],
            }
        )
        m.ingest(washes)
        names = [t.table_name for t in m.tables]
        assert len(names) == 2
        fills = next(
            t.table_name
            for t in m.tables
            if any(c.name == "odometer" for c in t.columns)
        )
        other = next(n for n in names if n != fills)
        # say the two hold one kind, as possible_splits would for interleaved
        # tables sharing most columns
        monkeypatch.setattr(
            m.analytic,
            "possible_splits",
            lambda: {fills: [{"table": other, "shared_columns": []}]},
        )
        m.analytic.coverage.clear()
        table = m.analytic.table(fills)
        early = [{"column": "time", "op": "<=", "value": "2026-04-10"}]
        found = unread_rounds(m.analytic, table, early)
        assert found == [
            f"W{i}:1" for i, (day, _) in enumerate(WASHES) if day <= date(2026, 4, 10)
        ]
        count = m.compute({"table": fills, "operator": "count"})
        assert set(count.unread_rounds) >= {f"W{i}:1" for i in range(len(WASHES))}


def test_unlabelled_rounds_that_mean_a_tables_records_are_named(monkeypatch):
    """A fill-up told in prose, beside fill-ups read from labels, is unread.

    No label names a column; the round holds an amount in the table's unit and
    its vector is nearer the fill-ups than anything else. One as near to two
    kinds, one without an amount, and one whose litres no fill-up could hold
    (1.75 L of water) are none (the vectors are made up here).
    """
    from langgraph_adamm.analytic import coverage

    with Memory(":memory:", user_id="u", retrieval=False) as m:
        m.ingest(build_history())
        table = m.analytic.table(m.tables[0].table_name)  # the fill-ups
        other = np.array([0.0, 1.0, 0.0])
        unread = [
            (
                "P1:1",
                None,
                "Filled up at Circle K, €61.20 all in.",
                np.array([0.9, 0.1, 0.42]),
            ),
            ("P2:1", None, "Top Oil again, 58 euros.", np.array([0.7, 0.7, 0.14])),
            ("P3:1", None, "Filled up at Circle K today.", np.array([0.9, 0.1, 0.42])),
            ("P4:1", None, "Water: 1750 ml", np.array([0.9, 0.1, 0.42])),
        ]
        unread = [(r, t, x, v / np.linalg.norm(v)) for r, t, x, v in unread]
        kinds = coverage._Kinds(
            {table.table_name: np.array([1.0, 0.0, 0.0]), "other": other}, unread
        )
        monkeypatch.setattr(coverage, "_kinds", lambda memory: kinds)
        m.analytic.coverage.clear()
        assert unread_rounds(m.analytic, table, []) == ["P1:1"]
        near = coverage._near(m.analytic, table)
        assert near[0].values == {"total": "€61.20"}


def test_a_question_about_a_price_is_no_record():
    from langgraph_adamm.analytic import coverage

    with Memory(":memory:", user_id="u") as m:
        m.ingest(build_history())
        asked = [
            r for r, _, text, _ in coverage._kinds(m.analytic).unread if "?" in text
        ]
        assert not asked  # the chat round asks: not among the rounds no table read


def test_a_row_without_the_filtered_value_that_means_it_is_named(monkeypatch):
    """``type = rent`` passes no row whose type was not written.

    Rows with no type are named when their round is nearest the rent rows
    (the vectors are made up here): not one nearest the deposits, nor one
    near nothing, nor one a time filter rules out.
    """
    from langgraph_adamm.analytic import coverage

    def row(i, kind):
        typed = f'"type": "{kind}", ' if kind else ""
        text = (
            f'{{{typed}"tenant": "T{i % 3}", "amount": "{100 + i} EUR", "via": "cash"}}'
        )
        day = f"2026-04-{i + 1:02d}"
        return {
            "session_id": f"R{i}",
            "date": day,
            "rounds": [{"time": f"{day}T12:00:00", "user": text, "assistant": "ok"}],
        }

    rent, deposit = np.array([1.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0])
    near_rent = np.array([0.9, 0.2, 0.38])
    rows = [
        ("rent", rent),
        ("rent", rent),
        ("deposit", deposit),
        ("deposit", deposit),
        (None, near_rent),
        ("rent", rent),
        (None, np.array([0.2, 0.9, 0.38])),  # nearest the deposits
        (None, np.array([0.1, 0.1, 0.99])),  # near nothing
        (None, near_rent),
        ("deposit", deposit),
    ]
    history = {"user_id": "u", "sessions": [row(i, k) for i, (k, _) in enumerate(rows)]}
    with Memory(":memory:", user_id="u", retrieval=False) as m:
        m.ingest(history_from_dict(history))
        (table,) = m.analytic.tables
        vectors = {
            f"R{i}:1": (datetime(2026, 4, i + 1, 12), "", v / np.linalg.norm(v))
            for i, (_, v) in enumerate(rows)
        }
        monkeypatch.setattr(
            coverage, "_kinds", lambda memory: coverage._Kinds({}, [], vectors)
        )
        m.analytic.coverage.clear()
        wanted = {"column": "type", "op": "=", "value": "rent"}
        assert unread_rounds(m.analytic, table, [wanted]) == ["R4:1", "R8:1"]
        early = {"column": "time", "op": "<=", "value": "2026-04-07"}
        assert unread_rounds(m.analytic, table, [wanted, early]) == ["R4:1"]
        assert unread_rounds(m.analytic, table, []) == []


def _firing(i):
    n, lost = 10 + i % 6, i % 3
    if i % 4 == 3:  # a layout whose losses are no labelled value
        return f"Firing log - Kiln: Pip | peak 1230 C | {n} pieces, {lost} cracked"
    if i % 8 == 5:  # a firing that says nothing of losses, and how long it took
        return f"Firing log - Kiln: Pip | peak 1230 C | Pieces: {n} | took 4 h 5 min"
    return f"Firing log - Kiln: Pip | peak 1230 C | Pieces: {n} | Lost: {lost}"


def test_a_row_lacking_the_measure_while_its_round_holds_a_number_is_named():
    history = one_a_day([(START + timedelta(days=i), _firing(i)) for i in range(24)])
    config = AdaMMConfig(realign_kinds=False)  # the second layout stays unread
    with Memory(":memory:", user_id="u", config=config) as m:
        m.ingest(history)
        out = m.ask("How many pieces did I lose in April?", question_time=NOW)
        assert out["value"] is None
        said = " ".join(out["unresolved"])
        unread = [f"S{i}:1" for i in range(24) if i % 4 == 3]
        silent = [f"S{i}:1" for i in range(24) if i % 8 == 5 and i % 4 != 3]
        assert all(rid in said for rid in unread)
        named = set(re.findall(r"S\d+:\d+", said))
        assert silent and not named & set(silent)
        # no unread number is above the highest read: the highest stands
        out = m.ask("What's the most I lost in one firing in April?", question_time=NOW)
        assert out["value"] == 2 and not out["unresolved"], out["answer"]
        # the pieces were read in every row: their total stands
        out = m.ask("How many pieces did I fire in April?", question_time=NOW)
        assert out["value"] == sum(10 + i % 6 for i in range(24))
        assert not out["unresolved"]
        # what coverage read is read again after the memory changes
        late = {
            "session_id": "L1",
            "date": "2026-04-28",
            "rounds": [
                {
                    "time": "2026-04-28T18:00:00",
                    "user": _firing(3),
                    "assistant": "ok",
                }
            ],
        }
        m.ingest(history_from_dict({"user_id": "u", "sessions": [late]}))
        out = m.ask("How many pieces did I lose in April?", question_time=NOW)
        assert "L1:1" in " ".join(out["unresolved"])


def test_a_record_of_another_table_that_names_the_filtered_value_is_named():
    # the rent records are another kind: one that says "plumber" and holds an
    # amount a repair could cost is money the plumbers' total does not read
    start = date(2026, 3, 2)
    rounds = [
        (
            start + timedelta(days=3 * i),
            f"Rent in - Tenant: {['Tomasz', 'Lucia'][i % 2]} | "
            f"Amount: €{[850, 920][i % 2]}.00 | Via: bank transfer",
        )
        for i in range(14)
    ] + [
        (
            start + timedelta(days=1 + 4 * i),
            f"Repair - Who: {['plumber', 'electrician'][i % 2]} | Flat: {1 + i % 3} | "
            f"Cost: €{80 + 13 * i}.50",
        )
        for i in range(10)
    ]
    odd = [
        # read as rent, says plumber, an amount a repair could be
        (
            date(2026, 3, 24),
            "Rent in - Tenant: Lucia | Amount: €405.88 | Via: paid the plumber",
        ),
        # a plumber named, an amount no repair comes near
        (
            date(2026, 3, 27),
            "Rent in - Tenant: Tomasz | Amount: €2500.00 | Via: plumber's son",
        ),
        # chat, no record
        (date(2026, 3, 29), "Do plumbers really charge 120 an hour now?"),
    ]
    rounds = sorted(rounds + odd)
    ids = {text: f"S{i}:1" for i, (_, text) in enumerate(rounds)}
    with Memory(":memory:", user_id="u") as m:
        m.ingest(one_a_day(rounds))
        out = m.ask("How much have I paid plumbers, all in?", question_time=NOW)
        said = set(re.findall(r"S\d+:\d+", " ".join(out["unresolved"])))
        assert out["value"] is None and ids[odd[0][1]] in said, out["answer"]
        assert not said & {ids[odd[1][1]], ids[odd[2][1]]}
        # an electrician's total: no record says electrician elsewhere
        out = m.ask("How much have I paid electricians, all in?", question_time=NOW)
        paid = sum(80 + 13 * i + 0.5 for i in range(10) if i % 2)
        assert out["value"] == pytest.approx(paid) and not out["unresolved"]


def test_a_measure_of_the_same_name_in_another_table_is_one_kinds_layout():
    # two layouts of rehearsals read into two tables sharing only the measure:
    # a total over one of them is no total
    start = date(2026, 3, 2)
    rounds = []
    for i in range(24):
        d, hours = start + timedelta(days=2 * i), 1.5 + 0.25 * (i % 5)
        if i % 2:
            cost, sound = f"€{15 + i % 3}.00", 20 + i
            text = f"Rehearsal - Rehearsal: {hours} h | Room cost: {cost} | "
            text += f"Sound: {sound}"
        else:
            where = ["Pirate Studios", "Mick garage"][i % 4 // 2]
            text = (
                f"Practice tonight - Rehearsal: {hours} h | Where: {where} | Band: all"
            )
        rounds.append((d, text))
    with Memory(":memory:", user_id="u") as m:
        m.ingest(one_a_day(rounds, at="21:00:00"))
        tables = [
            t for t in m.analytic.tables if "rehearsal" in {c.name for c in t.columns}
        ]
        assert len(tables) == 2  # the layouts this test is about
        out = m.ask("How many hours did we rehearse in March?", question_time=NOW)
        assert out["value"] is None and out["unresolved"], out["answer"]
        said = set(re.findall(r"S\d+:\d+", " ".join(out["unresolved"])))
        march = {f"S{i}:1" for i, (d, _) in enumerate(rounds) if d.month == 3}
        assert said and said <= march


def test_tables_whose_records_mean_the_same_are_one_kind_split(monkeypatch):
    """Fill-ups in English and in a German app's labels, and car washes.

    No column name is shared. Two tables are one kind split in two when their
    records' mean vectors are at least KIN_FLOOR alike and each number of one
    could be a number of the other (litres beside litres, euros beside euros):
    then a count over one names the other's rounds. Less alike, or numbers
    that cannot be the other's (a wash's €8-13 is no fill-up's €50-59), they
    are two kinds of one person's life and nothing is said (the vectors are
    made up here).
    """
    from langgraph_adamm.analytic import coverage
    from langgraph_adamm.analytic.memory import KIN_FLOOR

    def session(sid, day, hour, text):
        return {
            "session_id": sid,
            "date": str(day),
            "rounds": [
                {"time": f"{day}T{hour}:00:00", "user": text, "assistant": "ok"}
            ],
        }

    sessions = [
        session(f"S{i}", day, "09", text) for i, (day, text, _) in enumerate(FILLS)
    ]
    sessions += [
        session(
            f"G{i}",
            START + timedelta(days=3 * i + 1),
            "10",
            f"Tankstelle: Aral | Liter: {31 + i}.5 L | Betrag: €{51 + i}.40",
        )
        for i in range(6)
    ]
    sessions += [
        session(f"W{i}", day, "12", f"Wash | bay {i % 2 + 1} | €{p}.00 | ok")
        for i, (day, p) in enumerate(WASHES)
    ]
    sessions.sort(key=lambda s: s["date"])
    with Memory(":memory:", user_id="u") as m:
        m.ingest(history_from_dict({"user_id": "u", "sessions": sessions}))
        assert len(m.tables) == 3

        def holding(column):
            return next(
                t.table_name
                for t in m.tables
                if any(c.name == column for c in t.columns)
            )

        fills, german = holding("odometer"), holding("betrag")
        washes = next(
            t.table_name for t in m.tables if t.table_name not in (fills, german)
        )
        for alike, split in ((KIN_FLOOR + 0.05, True), (KIN_FLOOR - 0.05, False)):
            second = np.array([alike, (1 - alike**2) ** 0.5, 0.0])
            centroids = {
                fills: np.array([1.0, 0.0, 0.0]),
                german: second,
                washes: second,
            }
            monkeypatch.setattr(
                coverage, "table_centroids", lambda memory, c=centroids: c
            )
            m.analytic.coverage.clear()
            partners = m.analytic.possible_splits().get(fills, [])
            assert [p["table"] for p in partners] == ([german] if split else [])
            count = m.compute({"table": fills, "operator": "count"})
            named = set(count.unread_rounds)
            assert bool(named & {f"G{i}:1" for i in range(6)}) == split
            assert not named & {f"W{i}:1" for i in range(len(WASHES))}


def test_a_round_naming_what_tells_a_filtered_value_apart_may_hold_it():
    # An e-mail's subject "Je bestelling bij Kamera Express" is the column
    # value; a receipt of the same shop in another layout says only "Kamera
    # Express": it may be one of the filtered records, unlike one of another
    # shop or one naming only the words every value shares.
    from langgraph_adamm.analytic.coverage import Lookalike, _may_pass
    from langgraph_adamm.analytic.tables import Column, TableSchema

    samples = (
        "Je bestelling bij Kamera Express",
        "Je bestelling bij Foto Konijnenberg",
        "Your Adobe invoice",
    )
    table = TableSchema(
        "u",
        1,
        "orders_log",
        "",
        frozenset({"fwd", "totaal"}),
        (
            Column("fwd", "fwd", "VARCHAR", samples=samples),
            Column("totaal", "totaal", "DOUBLE", unit="EUR"),
        ),
    )
    flt = {"column": "fwd", "op": "=", "value": samples[0]}

    def look(text):
        return Lookalike("R1:1", None, text.lower(), {})

    assert _may_pass(table, flt, look("Receipt - Kamera Express Rotterdam, €114.93"))
    assert not _may_pass(table, flt, look("Receipt - Foto Konijnenberg, €20.00"))
    assert not _may_pass(table, flt, look("Je bestelling bij de bakker, €4.00"))
    assert _may_pass(table, flt, look("je bestelling bij kamera express: €9"))
    # one word of a value ("Express" of "Tesco Express") tells nothing
    tesco = dataclasses.replace(
        table,
        columns=(
            Column("fwd", "fwd", "VARCHAR", samples=("Tesco Express", "Tesco Extra")),
        ),
    )
    shop = {"column": "fwd", "op": "=", "value": "Tesco Express"}
    assert not _may_pass(tesco, shop, look("Receipt - Kamera Express, €30"))
