"""Documents: a receipt's, order's or bill's own fields apart from its line items.

A receipt, an order confirmation or a bill is one record: its merchant, date,
total, tax and payment are the document's fields; the lines it lists
(``Basmati Rice 1kg  3.19``, ``2 Glass Merlot  16.50``, ``FROZEN PEAS 1KG`` over
``2 x 1.79  3.58``, ``peppers 3pk 2.19, porridge oats 1kg 1.69``) are its items.
Read as fields, every item would become a column named after it and every
receipt a table of its own. Here:

* :func:`envelope_lines` finds a forwarded e-mail's header block (``From:``,
  ``To:``, ``Subject:``, ``Date:`` ...): the message's envelope, not the
  record's fields;
* :func:`document_items` finds the item lines of a document: at least two lines
  (or comma-separated clauses) that end in an amount with cents and whose
  description is no document field (total, tax, tip, delivery, payment ...),
  in a text that states a total. Each becomes a record of its own (``item``,
  ``amount``, and ``quantity`` / ``unit_price`` where the line gives them), so
  the items of every receipt land in one child table linked to the document by
  its source round; the document keeps its fields;
* a total said without a label (``€5.97 altogether``, ``... = 52.30``) is the
  document's ``total``; a photographed receipt's first line, a short name with
  no digits, is its ``merchant``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from langgraph_adamm.analytic.extraction.labels import Pair

_HEADER_RE = re.compile(
    r"^\s*(?:from|to|cc|bcc|subject|date|sent|reply-to|fwd?|re)\s*:", re.IGNORECASE
)
_FORWARD_RE = re.compile(
    r"^\s*-{2,}\s*(?:forwarded|original)\s+message\s*-{2,}\s*$", re.IGNORECASE
)
_FWD_RE = re.compile(r"^\s*(?:fwd?|re)\s*:", re.IGNORECASE)
_AT_NAME_RE = re.compile(
    r"\b(?:at|from)\s+(?P<name>[A-Z][\w'’&.-]*(?:\s+[A-Z][\w'’&.-]*){0,3})\s*:?\s*$"
)
_CURRENCY_RE = re.compile(r"[€£$]|\b(?:EUR|GBP|USD)\b")
_SYMBOLS = {"€": "EUR", "£": "GBP", "$": "USD"}
_AMOUNT = r"[-−]?\d{1,3}(?:[,.]\d{3})*[.,]\d{2}|[-−]?\d+[.,]\d{2}"
_ITEM_RE = re.compile(
    rf"^(?P<label>[^:=+]*?[^\W\d_][^:=+]*?)\s+(?:[€£$]\s?)?(?P<amount>{_AMOUNT})"
    r"(?:\s?(?:EUR|GBP|USD|[€£$]))?\s*$",
    re.IGNORECASE,
)
_QTY_LINE_RE = re.compile(
    rf"^\s*(?P<qty>\d{{1,3}})\s*[x×@]\s*(?:[€£$]\s?)?(?P<unit>{_AMOUNT})\s+"
    rf"(?:[€£$]\s?)?(?P<amount>{_AMOUNT})\s*$",
    re.IGNORECASE,
)
_LEAD_QTY_RE = re.compile(r"^(?P<qty>\d{1,2})\s*[x×]?\s+(?=[^\W\d_])", re.IGNORECASE)
_TRAIL_QTY_RE = re.compile(r"\s+[x×]\s?(?P<qty>\d{1,2})$", re.IGNORECASE)
_FIELD_WORDS = frozenset(
    """total totals subtotal sub sum amount due balance tax vat gst hst tip tips
    gratuity service delivery postage packing shipping p&p discount discounts
    saving savings saved voucher coupon change cash card contactless visa
    mastercard amex debit credit paid payment pay deposit fee fees charge
    charges levy rounding points refund price cost fare rate order grand net
    gross bill""".split()
)
"""Words of a document's own fields: a line holding one is no item."""
_DOCUMENT_WORDS = frozenset(
    """receipt receipts invoice bill order statement confirmation summary ticket
    tax customer copy your the digital e""".split()
)
"""Words naming the document itself ("Receipt", "Tax invoice"): no merchant."""
_TOTAL_CUE_RE = re.compile(
    r"\b(?:total|subtotal|altogether|grand|amount due|to pay|sum)\b|=\s*[€£$]?\s*\d",
    re.IGNORECASE,
)
_UNLABELLED_TOTAL_RE = re.compile(
    rf"(?:(?:[€£$]\s?)?(?P<a>{_AMOUNT})\s*(?:EUR|GBP|USD)?\s+(?:altogether|in total)\b"
    rf"|=\s*(?:[€£$]\s?)?(?P<b>{_AMOUNT})\s*(?:EUR|GBP|USD)?\s*[.!]?\s*$)",
    re.IGNORECASE | re.MULTILINE,
)
_MAX_ITEM = 120
"""The longest text read as an item line: items are short, and the item pattern
costs the square of a text's length (a long line of prose is no item)."""
_CLAUSE_SPLIT_RE = re.compile(r"\s*[,;]\s+|(?<=\d)\.\s+")
_WORD_RE = re.compile(r"[^\W\d_]+(?:&[^\W\d_]+)?")


@dataclass(frozen=True)
class Item:
    """One line item of a document, with the span of text it was read from."""

    item: str
    amount: str
    start: int
    end: int
    quantity: str | None = None
    unit_price: str | None = None


def envelope_lines(lines: list[str]) -> set[int]:
    """Line numbers of an e-mail's envelope: forward markers and header blocks.

    A header block is two or more header lines (``From:``, ``Subject:`` ...)
    one after another, one of them ``From:`` or ``Subject:``.
    """
    out: set[int] = {n for n, ln in enumerate(lines) if _FORWARD_RE.match(ln)}
    blocks = False
    n = 0
    while n < len(lines):
        if not _HEADER_RE.match(lines[n]):
            n += 1
            continue
        end = n
        while end < len(lines) and _HEADER_RE.match(lines[end]):
            end += 1
        block = [lines[k].strip().lower() for k in range(n, end)]
        if end - n >= 2 and any(b.startswith(("from", "subject")) for b in block):
            out.update(range(n, end))
            blocks = True
        n = end
    if blocks or out:  # "fwd: grocery order" above the forwarded message
        out.update(n for n, ln in enumerate(lines) if _FWD_RE.match(ln))
    return out


def _is_field(label: str) -> bool:
    return any(w.lower() in _FIELD_WORDS for w in _WORD_RE.findall(label))


def _item(label: str, amount: str, start: int, end: int) -> Item | None:
    label = label.strip(" \t-•*·")
    if not label or _is_field(label) or not _WORD_RE.search(label):
        return None
    qty = None
    lead = _LEAD_QTY_RE.match(label)
    if lead:
        qty, label = lead["qty"], label[lead.end() :]
    trail = _TRAIL_QTY_RE.search(label)
    if trail and qty is None:
        qty, label = trail["qty"], label[: trail.start()]
    label = label.strip()
    if len(label.split()) > 8:
        return None  # a sentence, not an item
    return Item(label, amount, start, end, qty)


def document_items(lines: list[str], starts: list[int], skip: set[int]) -> list[Item]:
    """The line items of a document in ``lines`` (none when it is no document).

    ``starts`` are the lines' offsets in the text; lines in ``skip`` (tables,
    envelopes) are not read.
    """
    text = "\n".join(ln for n, ln in enumerate(lines) if n not in skip)
    if not _TOTAL_CUE_RE.search(text):
        return []
    items: list[Item] = []
    pending: tuple[int, str] | None = None  # an item line that gave no amount
    for n, line in enumerate(lines):
        if n in skip or not line.strip():
            pending = None
            continue
        qty = _QTY_LINE_RE.match(line)
        if qty and pending is None:
            continue
        if qty and pending is not None:
            p_line, p_label = pending
            found = _item(p_label, qty["amount"], starts[p_line], starts[n] + len(line))
            if found is not None:
                items.append(
                    Item(
                        found.item,
                        found.amount,
                        found.start,
                        found.end,
                        qty["qty"],
                        qty["unit"],
                    )
                )
            pending = None
            continue
        clauses = _clauses(line)
        got = [
            _item(m["label"], m["amount"], starts[n] + s, starts[n] + s + len(c))
            for c, s in clauses
            if len(c) <= _MAX_ITEM and (m := _ITEM_RE.match(c))
        ]
        line_items = [g for g in got if g is not None]
        items.extend(line_items)
        bare = line.strip()
        pending = (
            (n, bare)
            if not line_items
            and ":" not in bare
            and len(bare) <= _MAX_ITEM
            and not _ITEM_RE.match(bare)
            and _WORD_RE.search(bare)
            and not _is_field(bare)
            else None
        )
    return items if len(items) >= 2 else []


def _clauses(line: str) -> list[tuple[str, int]]:
    """A line's comma-separated clauses with their offsets (the line if one)."""
    out: list[tuple[str, int]] = []
    pos = 0
    for m in _CLAUSE_SPLIT_RE.finditer(line):
        out.append((line[pos : m.start()], pos))
        pos = m.end()
    out.append((line[pos:], pos))
    if len(out) > 1:
        # "small shop at Aldi: peppers 3pk 2.19": the words before a colon head it
        first, at = out[0]
        if ":" in first:
            cut = first.rindex(":") + 1
            out[0] = (first[cut:], at + cut)
    return [(c, s + (len(c) - len(c.lstrip()))) for c, s in out if c.strip()]


def currency_of(text: str) -> str | None:
    """The one currency a text states (a symbol or code), or None."""
    found = {_SYMBOLS.get(m, m.upper()) for m in _CURRENCY_RE.findall(text)}
    return found.pop() if len(found) == 1 else None


def item_pairs(
    items: list[Item], first_record: int, currency: str | None = None
) -> tuple[list[Pair], int]:
    """Each item as a record of its own; returns the pairs and the next record.

    Bare amounts get the document's one currency.
    """

    def money(amount: str | None) -> str | None:
        if amount is None or currency is None or _CURRENCY_RE.search(amount):
            return amount
        return f"{amount} {currency}"

    pairs: list[Pair] = []
    record = first_record
    for it in items:
        span = (it.start, it.end)
        pairs.append((record, "item", it.item, span))
        pairs.append((record, "amount", money(it.amount), span))
        if it.quantity is not None:
            pairs.append((record, "quantity", it.quantity, span))
        if it.unit_price is not None:
            pairs.append((record, "unit_price", money(it.unit_price), span))
        record += 1
    return pairs, record


def unlabelled_total(text: str) -> tuple[str, tuple[int, int]] | None:
    """A total said without a label ("€5.97 altogether", "... = 52.30")."""
    m = _UNLABELLED_TOTAL_RE.search(text)
    if m is None:
        return None
    group = "a" if m["a"] else "b"
    return m[group], m.span(group)


_LEAD_IN_RE = re.compile(r"^[^\d:|=@]{1,40}:$")
"""A line of words ending in a colon, above what it introduces."""


def first_line_name(
    lines: list[str], starts: list[int], capitals: bool = False
) -> Pair | None:
    """A receipt's first line as its merchant: a short name.

    A lead-in above a pasted receipt ("Receipt from today:", "Bonnetje:"), a
    line of words ending in a colon, is passed over. ``capitals``: only a
    name printed in capitals, as a till prints it ("DUFFY'S TACKLE"); a line
    typed above a list ("Shopping today") is its title.
    """
    for n, line in enumerate(lines):
        bare = line.strip()
        if not bare or _LEAD_IN_RE.match(bare):
            continue
        words = bare.split()
        if (
            len(words) <= 4
            and not any(ch.isdigit() for ch in bare)
            and not any(ch in bare for ch in ":·|=@")
            and _WORD_RE.search(bare)
            and not _is_field(bare)
            and not {w.lower() for w in _WORD_RE.findall(bare)} <= _DOCUMENT_WORDS
            and not (capitals and bare != bare.upper())
        ):
            start = starts[n] + line.index(bare)
            return (0, "merchant", bare, (start, start + len(bare)))
        return None
    return None


def heading_name(text: str, first: Item) -> Pair | None:
    """The merchant a document's heading names ("Dinner at Kuti's: ...")."""
    line_start = text.rfind("\n", 0, first.start) + 1
    m = _AT_NAME_RE.search(text[line_start : first.start].rstrip())
    if m is None:
        return None
    start = line_start + m.start("name")
    return (0, "merchant", m["name"], (start, start + len(m["name"])))
