"""The currency a record states once, given to its bare amounts."""

from __future__ import annotations

import re

from langgraph_adamm.analytic.extraction.labels import Pair
from langgraph_adamm.analytic.units import CURRENCIES, spelled_unit
from langgraph_adamm.analytic.values import (
    canonical_unit,
    normalize_attribute,
    parse_value,
)

_MONEY_MARK_RE = re.compile(
    r"[$€£¥]|(?<![A-Za-z])(?:USD|EUR|GBP|JPY|CHF|CAD|AUD)(?![A-Za-z])", re.IGNORECASE
)
MONEY_HINT_RE = re.compile(r"[$€£¥]|usd|eur|gbp|jpy|chf|cad|aud|cur|ccy", re.I)
"""Whether a text may state a currency (a cheap first test)."""
_CURRENCY_KEYS = frozenset({"currency", "ccy", "cur", "curr", "currency_code"})
_MONEY_KEY_RE = re.compile(
    r"total|subtotal|amount|sum|paid|balance|due|price|cost|fare", re.IGNORECASE
)
_MEASURE_KEYS = frozenset(
    {
        "weight",
        "distance",
        "volume",
        "quantity",
        "qty",
        "count",
        "odometer",
        "mileage",
        "reading",
        "length",
        "height",
        "temperature",
        "temp",
    }
)
"""Field names of a measure that is never money, whatever the record's total."""
_CENTS_RE = re.compile(
    r"^[-+−]?\d{1,3}(?:[,.'\u00a0\u202f ]\d{3})*[.,]\d{2}$|^[-+−]?\d+[.,]\d{2}$"
)


def with_currency(pairs: list[Pair]) -> list[Pair]:
    """Amounts whose record states the currency once elsewhere get it.

    A currency column or field ("Amount;Currency" over "-42,17;EUR",
    "amount=12.40 currency=USD") is the unit of the record's bare amounts; a
    receipt that prints its currency once, at the total ("Milk 1.19 ... TOTAL
    EUR 7.53"), gives it to the line items written with cents. A record with
    two currencies, or none at a total, is left as it is.
    """
    by_record: dict[int, list[int]] = {}
    for n, (rec, _, _, _) in enumerate(pairs):
        by_record.setdefault(rec, []).append(n)
    out = list(pairs)
    for indexes in by_record.values():
        code = None
        stated: set[str] = set()
        at_total = False
        for n in indexes:
            _, key, value, _ = pairs[n]
            name = normalize_attribute(str(key))[0]
            if name in _CURRENCY_KEYS and isinstance(value, str):
                unit = canonical_unit(value.strip())
                code = unit if unit in CURRENCIES else code
                continue
            unit = parse_value(str(value)).unit
            if unit in CURRENCIES:
                stated.add(unit)
                at_total = at_total or bool(_MONEY_KEY_RE.search(name))
        if code is None and (len(stated) != 1 or not at_total):
            continue
        currency = code or next(iter(stated))
        for n in indexes:
            rec, key, value, span = pairs[n]
            if normalize_attribute(str(key))[0] in _CURRENCY_KEYS or _names_measure(
                str(key)
            ):
                continue
            text = str(value).strip()
            parsed = parse_value(text)
            if (
                parsed.number is None
                or parsed.unit is not None
                or parsed.kind
                in (
                    "date",
                    "clock",
                    "duration",
                )
            ):
                continue
            if code is not None or _CENTS_RE.match(text):
                out[n] = (rec, key, f"{text} {currency}", span)
    return out


def _names_measure(key: str) -> bool:
    """Whether a field's name says it is a quantity other than money.

    "Litres: 23.68" beside "Total: €40.92" is 23.68 litres: a name that is a
    unit ("Litres", "km", "Steps"), carries one ("Volume (L)", "distance_km")
    or names a measure ("Weight", "Odometer") keeps its bare number bare.
    """
    name, hint = normalize_attribute(key)
    if hint is not None and hint not in CURRENCIES:
        return True
    words = name.split("_")
    if words[-1] in _MEASURE_KEYS or words[0] in _MEASURE_KEYS:
        return True
    unit = spelled_unit(words[-1])
    return unit is not None and unit not in CURRENCIES
