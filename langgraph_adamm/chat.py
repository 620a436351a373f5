"""Chat models: resolving ``provider:model`` strings and validated structured output.

Every model call of the library that expects data (extraction, table metadata,
plans, tool arguments, answers) goes through :func:`structured_runnable` and
:func:`parse_output`: the model's structured-output mode where it has one, plain
JSON text otherwise, validated by the pydantic model either way.
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from pydantic import BaseModel

from langgraph_adamm.errors import AdaMMError

M = TypeVar("M", bound=BaseModel)


def resolve_chat_model(model: BaseChatModel | str) -> BaseChatModel:
    """A chat model object, or one built from a ``provider:model`` string.

    Raises:
        AdaMMError: when a string is given but langchain's ``init_chat_model`` (or
            the provider package) is not installed.
    """
    if not isinstance(model, str):
        return model
    try:
        from langchain.chat_models import init_chat_model
    except ImportError as exc:
        raise AdaMMError(
            f"model {model!r} given as a string needs langchain's init_chat_model: "
            "pip install 'langgraph-adamm[openai]' (or pass a chat model object)"
        ) from exc
    try:
        return init_chat_model(model, temperature=0)
    except Exception as exc:
        raise AdaMMError(f"cannot create chat model {model!r}: {exc}") from exc


def structured_runnable(model: Any, schema: type[BaseModel]) -> Any:
    """The model in structured-output mode, or the model itself where it has none."""
    try:
        return model.with_structured_output(schema)
    except (NotImplementedError, AttributeError):
        return model


def parse_output(raw: Any, schema: type[M]) -> M:
    """A model's output (object, dict, message or JSON text) validated as ``schema``.

    Raises:
        ValueError: (json.JSONDecodeError or pydantic.ValidationError) when the
            output does not parse or validate.
    """
    if isinstance(raw, schema):
        return raw
    if isinstance(raw, BaseMessage):  # a message is a pydantic model too
        raw = raw.content
    elif isinstance(raw, BaseModel):
        raw = raw.model_dump()
    if isinstance(raw, list):  # content blocks
        raw = "".join(
            b if isinstance(b, str) else str(b.get("text", ""))
            for b in raw
            if isinstance(b, (str, dict))
        )
    if isinstance(raw, str):
        text = raw.strip()
        if text.startswith("```"):
            text = text.strip("`").removeprefix("json").strip()
        raw = json.loads(text)
    return schema.model_validate(raw)
