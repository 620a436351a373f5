"""The JSON reader: objects and arrays of objects embedded in text, as records.

Nested objects flatten into spaced labels ("sleep deep"); a quantity object
(``{"value": 81.4, "unit": "kg"}``) is one value; a record's currency field is
the unit of its amounts.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

_VALUE_KEYS = ("value", "val", "amount", "qty", "quantity", "reading")
_UNIT_KEYS = ("unit", "units", "uom", "currency")
_NAME_KEYS = ("name", "metric", "type", "field", "key", "label", "test")


def _get(obj: dict[str, Any], keys: tuple[str, ...]) -> tuple[str, Any] | None:
    for k, v in obj.items():
        if isinstance(k, str) and k.lower() in keys:
            return k, v
    return None


def _quantity_object(obj: dict[str, Any]) -> tuple[str | None, str] | None:
    """A {"value": 81.4, "unit": "kg"} object (with a "name" for its label)."""
    value, unit = _get(obj, _VALUE_KEYS), _get(obj, _UNIT_KEYS)
    if value is None or isinstance(value[1], (dict, list, bool)) or value[1] is None:
        return None
    name = _get(obj, _NAME_KEYS)
    used = {value[0]} | ({unit[0]} if unit else set()) | ({name[0]} if name else set())
    if set(obj) - used or (unit is None and name is None):
        return None
    text = (
        f"{value[1]} {unit[1]}" if unit and isinstance(unit[1], str) else str(value[1])
    )
    label = name[1] if name and isinstance(name[1], str) else None
    return label, text


def flatten_fields(obj: dict[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """(label, value) leaves of a record; nested labels join with a space."""
    quantity = _quantity_object(obj)
    if quantity is not None and (quantity[0] or prefix):
        yield (quantity[0] or prefix), quantity[1]
        return
    currency = _get(obj, ("currency",))
    code = currency[1] if currency and isinstance(currency[1], str) else None
    for key, value in obj.items():
        if code and isinstance(value, (int, float)) and not isinstance(value, bool):
            if re.search(
                r"amount|total|price|cost|paid|spent|fare|tip", str(key), re.I
            ):
                yield f"{prefix} {key}".strip(), f"{value} {code}"
                continue
        name = f"{prefix} {key}".strip()
        if isinstance(value, dict):
            yield from flatten_fields(value, name)
        elif isinstance(value, list):
            if value and all(not isinstance(v, (dict, list)) for v in value):
                yield name, ", ".join(str(v) for v in value)
        elif value is not None:
            yield name, value


def json_values(text: str) -> Iterator[tuple[Any, int, int]]:
    """Top-level JSON objects and arrays embedded in text."""
    decoder = json.JSONDecoder()
    i = min((p for p in (text.find("{"), text.find("[")) if p != -1), default=-1)
    while i != -1:
        try:
            obj, end = decoder.raw_decode(text, i)
        except (json.JSONDecodeError, RecursionError, ValueError):
            obj, end = None, i + 1
        if isinstance(obj, dict) or (
            isinstance(obj, list) and obj and all(isinstance(o, dict) for o in obj)
        ):
            yield obj, i, end
        else:
            end = i + 1
        nxt = [p for p in (text.find("{", end), text.find("[", end)) if p != -1]
        i = min(nxt) if nxt else -1


def records_of(obj: Any) -> list[dict[str, Any]]:
    """A JSON value's records.

    The objects of an array, the array an object wraps (``{"records": [...]}``),
    or the object itself.
    """
    if isinstance(obj, list):
        return [o for o in obj if isinstance(o, dict)]
    lists = [v for v in obj.values() if isinstance(v, list) and v]
    scalars = [v for v in obj.values() if not isinstance(v, (dict, list))]
    if len(lists) == 1 and not scalars and all(isinstance(o, dict) for o in lists[0]):
        return list(lists[0])
    return [obj]
