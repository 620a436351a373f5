"""Schemas every provider accepts: the wire form of what crosses the model boundary.

Model outputs and tool arguments are pydantic models. Their Python validation
keeps its defaults and limits (a result budget of at most 50, a goal of at most
500 characters), but the JSON schema a model is shown keeps to the strictest
subset providers share, OpenAI's strict mode: every object lists all of its
properties as required and forbids others, an optional property is nullable
instead of absent, and no length, range or pattern keyword appears (a model
that breaks a limit gets pydantic's message on a retry instead).

A model that sends ``null`` for a property with a default gets the default: the
strict wire form has no way to leave a property out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, ClassVar

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    WithJsonSchema,
    model_validator,
)

# Keywords outside the strict subset: limits stay in pydantic's validation.
UNSUPPORTED_KEYWORDS = frozenset(
    {
        "default",
        "minLength",
        "maxLength",
        "pattern",
        "format",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minItems",
        "maxItems",
        "uniqueItems",
        "minProperties",
        "maxProperties",
        "examples",
    }
)

SCALAR_SCHEMA: dict[str, Any] = {
    "anyOf": [
        {"type": "string"},
        {"type": "number"},
        {"type": "boolean"},
        {"type": "null"},
    ]
}
"""A string, number, yes/no or null: the wire form of a free-typed value."""

VALUE_SCHEMA: dict[str, Any] = {
    "anyOf": [
        {"type": "string"},
        {"type": "number"},
        {"type": "boolean"},
        {
            "type": "array",
            "items": {
                "anyOf": [{"type": "string"}, {"type": "number"}, {"type": "boolean"}]
            },
        },
        {"type": "null"},
    ]
}
"""A scalar or a list of scalars (``between``'s bounds, ``in``'s values)."""


def _from_pairs(key: str, value: str) -> Callable[[Any], Any]:
    def convert(data: Any) -> Any:
        if isinstance(data, list) and all(
            isinstance(p, dict) and set(p) == {key, value} for p in data
        ):
            return {p[key]: p[value] for p in data}
        return data

    return convert


def pairs_json(key: str, value: str, value_schema: dict[str, Any]) -> WithJsonSchema:
    """The wire form of a mapping: a list of ``{key, value}`` objects.

    Strict mode has no free-keyed objects. Python code sees a dict; a model
    sends (and sees) a list of pairs; a dict is accepted too.
    """
    return WithJsonSchema(
        {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {key: {"type": "string"}, value: value_schema},
                "required": [key, value],
                "additionalProperties": False,
            },
        }
    )


KeyValues = Annotated[
    dict[str, Any],
    BeforeValidator(_from_pairs("column", "value")),
    pairs_json("column", "value", SCALAR_SCHEMA),
]
"""Column -> value, sent as ``[{"column": ..., "value": ...}]``."""

ColumnDescriptions = Annotated[
    dict[str, str],
    BeforeValidator(_from_pairs("column", "description")),
    pairs_json("column", "description", {"type": "string"}),
]
"""Column -> description, sent as ``[{"column": ..., "description": ...}]``."""

AnyValue = Annotated[Any, WithJsonSchema(VALUE_SCHEMA)]
"""A filter's value: a scalar or a list of scalars."""


def _allows_null(prop: dict[str, Any]) -> bool:
    if prop.get("type") == "null" or "null" in (prop.get("type") or []):
        return True
    return any(_allows_null(p) for p in prop.get("anyOf", []))


def _strip(node: Any) -> None:
    """Remove unsupported keywords below a property (nested models keep theirs)."""
    if isinstance(node, dict):
        for key in list(node):
            if key in UNSUPPORTED_KEYWORDS:
                del node[key]
        for key, child in node.items():
            if key == "properties" and isinstance(child, dict):
                for prop in child.values():
                    _strip(prop)
            elif key in ("items", "additionalProperties", "anyOf", "oneOf", "allOf"):
                _strip(child)
    elif isinstance(node, list):
        for child in node:
            _strip(child)


def _nullable(prop: dict[str, Any]) -> dict[str, Any]:
    if _allows_null(prop):
        return prop
    description = prop.pop("description", None)
    out: dict[str, Any]
    if "anyOf" in prop and len(prop) == 1:
        out = {"anyOf": [*prop["anyOf"], {"type": "null"}]}
    else:
        out = {"anyOf": [prop, {"type": "null"}]}
    if description:
        out["description"] = description
    return out


def strict_json_schema(schema: dict[str, Any], cls: type[BaseModel]) -> None:
    """Rewrite one model's generated JSON schema into the strict subset, in place."""
    props: dict[str, Any] = schema.get("properties", {})
    required = set(schema.get("required", []))
    for name in list(props):
        prop = props[name]
        _strip(prop)
        if "oneOf" in prop:  # strict mode knows anyOf only
            prop["anyOf"] = prop.pop("oneOf")
        if name not in required:
            props[name] = _nullable(prop)
    schema["properties"] = props
    schema["required"] = list(props)
    schema["additionalProperties"] = False
    schema.pop("default", None)


class WireModel(BaseModel):
    """Base of every model-facing schema: strict JSON schema, null means default."""

    model_config = ConfigDict(json_schema_extra=strict_json_schema)
    _null_means_default: ClassVar[frozenset[str]] = frozenset()

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        cls._null_means_default = frozenset(
            name
            for name, field in cls.model_fields.items()
            if not field.is_required() and not _admits_none(field.annotation)
        )

    @model_validator(mode="before")
    @classmethod
    def _drop_nulls(cls, data: Any) -> Any:
        if isinstance(data, dict) and cls._null_means_default:
            return {
                k: v
                for k, v in data.items()
                if not (v is None and k in cls._null_means_default)
            }
        return data


def _admits_none(annotation: Any) -> bool:
    if annotation is None or annotation is type(None) or annotation is Any:
        return True
    args = getattr(annotation, "__args__", ())
    return any(_admits_none(a) for a in args) if args else False


STRICT_KEYWORDS = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "anyOf",
        "enum",
        "const",
        "description",
        "title",
        "$ref",
        "$defs",
        "definitions",
    }
)


def strict_violations(schema: Any, where: str = "$") -> list[str]:
    """Where a JSON schema breaks OpenAI's strict-mode rules (empty when it keeps them).

    The rules checked: the root is an object; every object lists properties,
    requires all of them and sets ``additionalProperties`` to false; every
    schema is typed (``type``, ``anyOf``, ``enum``, ``const`` or ``$ref``); only
    the keywords of the strict subset appear.
    """
    out: list[str] = []
    is_object = isinstance(schema, dict) and schema.get("type") == "object"
    if where == "$" and not is_object:
        return ["$: the root is not an object"]
    if not isinstance(schema, dict):
        return [f"{where}: not a schema"]
    for key in schema:
        if key not in STRICT_KEYWORDS:
            out.append(f"{where}: keyword {key!r} is outside the strict subset")
    if not any(k in schema for k in ("type", "anyOf", "enum", "const", "$ref")):
        out.append(f"{where}: untyped")
    types = schema.get("type")
    if types == "object" or (isinstance(types, list) and "object" in types):
        props = schema.get("properties")
        if not isinstance(props, dict):
            out.append(f"{where}: an object without properties")
            props = {}
        if schema.get("additionalProperties") is not False:
            out.append(f"{where}: additionalProperties is not false")
        if sorted(schema.get("required", [])) != sorted(props):
            missing = sorted(set(props) - set(schema.get("required", [])))
            out.append(f"{where}: not every property is required ({missing})")
        for name, prop in props.items():
            out.extend(strict_violations(prop, f"{where}.{name}"))
    if "items" in schema:
        out.extend(strict_violations(schema["items"], f"{where}[]"))
    for i, sub in enumerate(schema.get("anyOf", [])):
        out.extend(strict_violations(sub, f"{where}|{i}"))
    for name, sub in (schema.get("$defs") or {}).items():
        out.extend(strict_violations(sub, f"$defs.{name}"))
    return out
