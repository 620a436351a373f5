"""Documents: a receipt's own fields apart from its line items and envelope."""

from __future__ import annotations

from datetime import date, timedelta

from langgraph_adamm import Memory
from langgraph_adamm.analytic.extraction.rule_extractor import RuleExtractor
from langgraph_adamm.history import history_from_dict


def read(text: str, source: str = "user") -> dict[int, dict[str, str]]:
    out: dict[int, dict[str, str]] = {}
    for obs in RuleExtractor().extract_text(text, "r1", source):  # type: ignore[arg-type]
        out.setdefault(obs.provenance.record, {})[obs.attribute] = obs.value.text
    return out


def numbers(text: str, source: str = "user") -> dict[int, dict[str, object]]:
    out: dict[int, dict[str, object]] = {}
    for obs in RuleExtractor().extract_text(text, "r1", source):  # type: ignore[arg-type]
        v = obs.value
        out.setdefault(obs.provenance.record, {})[obs.attribute] = (
            (v.number, v.unit) if v.number is not None else v.text
        )
    return out


def test_photographed_receipt_items_quantities_merchant_and_total():
    text = (
        "Corner Shop\nMain St 12\n\nBREAD 800G      2.10\nMILK 2L\n"
        "  2 x 1.15      2.30\nAPPLES      3.05\n--------\nTOTAL EUR      7.45\n"
        "CARD  7.45"
    )
    got = numbers(text, "ocr")
    own = got[0]
    assert own["merchant"] == "Corner Shop"
    assert own["total"] == (7.45, "EUR")
    items = [got[r] for r in sorted(got) if r]
    assert [i["item"] for i in items] == ["BREAD 800G", "MILK 2L", "APPLES"]
    assert [i["amount"] for i in items] == [(2.1, "EUR"), (2.3, "EUR"), (3.05, "EUR")]
    assert items[1]["quantity"] == (2, None)
    assert items[1]["unit_price"] == (1.15, "EUR")
    # no item became a field of the receipt
    assert not {"bread", "milk", "apples"} & set(own)


def test_a_pasted_receipt_names_its_merchant_in_capitals():
    text = (
        "Receipt from today:\nHALLORAN'S HARDWARE\nMain St, Ennis\n"
        "Wood glue 250ml        6.49\nSandpaper x4           3.20\n"
        "TOTAL EUR              9.69"
    )
    assert read(text)[0]["merchant"] == "HALLORAN'S HARDWARE"
    # a title typed above a list is no merchant
    typed = read("Weekly shop\nmilk 1.20\nbread 2.30\nTotal 3.50")
    assert "merchant" not in typed[0]


def test_inline_items_with_a_total_said_without_a_label():
    got = read("quick shop at Greenway: carrots 1.20, rice 1kg 2.40. €3.60 altogether")
    assert got[0] == {"total": "3.60", "merchant": "Greenway"}
    assert [got[1]["item"], got[2]["item"]] == ["carrots", "rice 1kg"]


def test_leading_and_trailing_quantities():
    got = read("2 Soup of the day   9.00\nTea x2   5.00\nTotal   £14.00")
    assert (got[1]["item"], got[1]["quantity"]) == ("Soup of the day", "2")
    assert (got[2]["item"], got[2]["quantity"]) == ("Tea", "2")


def test_forwarded_email_envelope_is_no_field():
    text = (
        "---------- Forwarded message ---------\n"
        "From: Shop <orders@shop.example>\nDate: Mon, 2 Mar 2026 at 10:00\n"
        "Subject: Your order\nTo: me@example.com\n\nOrder total: £12.50"
    )
    got = read(text)
    assert set(got[0]) == {"order_total"}


def test_no_items_without_a_total_or_with_one_line():
    # two amounts but nothing says total: fields, as before
    assert set(read("Rent 950.00\nParking 35.00")[0]) == {"rent", "parking"}
    # a total and one priced line: a field, not an item
    got = read("Taxi 14.60\nTotal 14.60")
    assert set(got) == {0}
    # money fields of a document are no items
    got = read("Subtotal 23.10\nVAT 1.62\nTip 2.00\nTotal 26.72")
    assert set(got) == {0}


def _history() -> dict:
    rounds = []
    layouts = [
        "Lidl\nDublin 6\nBREAD      {a}\nCHEESE      {b}\nTOTAL EUR      {t}",
        "Spent at Aldi: bread {a}, cheese {b}. €{t} altogether",
    ]
    for i in range(12):
        d = date(2026, 3, 1) + timedelta(days=i)
        a, b = 1.0 + i / 10, 2.5
        text = layouts[i % 2].format(a=f"{a:.2f}", b=f"{b:.2f}", t=f"{a + b:.2f}")
        rnd = {"round_id": f"S{i}:1", "time": f"{d.isoformat()}T10:00:00"}
        if i % 2 == 0:
            rnd["user"] = "receipt"
            rnd["images"] = [{"caption": "a receipt", "ocr": text}]
        else:
            rnd["user"] = text
        rounds.append({"session_id": f"S{i}", "rounds": [rnd]})
    return {"user_id": "u", "sessions": rounds}


def test_items_of_every_receipt_in_one_child_table(tmp_path):
    with Memory(tmp_path / "m.duckdb", user_id="u", retrieval=False) as memory:
        memory.ingest(history_from_dict(_history()))
        tables = {t.table_name: t for t in memory.tables}
        item_tables = [t for t in tables.values() if "item" in t.attributes]
        assert len(item_tables) == 1
        items = memory.filter(
            {
                "table": item_tables[0].table_name,
                "column_filters": [],
                "result_budget": 100,
            }
        )
        assert items.row_count == 24  # two items on each of 12 receipts
        # no column is named after an item
        assert not any({"bread", "cheese"} & t.attributes for t in tables.values()), (
            tables
        )
