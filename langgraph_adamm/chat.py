"""Chat models: one structured-output layer for every model call of the library.

Every role that asks a model for data (extraction, table metadata, episode and
topic descriptions, the planner, instantiation, the reader, the forest's
verifiers) calls :class:`StructuredModel`. It

- picks the structured-output method per model (a provider's native JSON
  schema, tool calling, a local server's grammar-constrained JSON object, JSON
  mode, or plain text), sending the strict wire schema of
  :mod:`langgraph_adamm.schemas`;
- retries transport errors (timeouts, rate limits, dropped connections) with
  exponential backoff through ``Runnable.with_retry``;
- shows a validation error to the model on a bounded number of further
  attempts;
- keeps the prompt inside the model's context window
  (:mod:`langgraph_adamm.fitting`), trimming the least relevant context with a
  note instead of failing on length;
- returns a :class:`CallRecord` (value, or every error in order) and never
  raises for what a model did: each role records the failure where it happens.

Sync and async calls share one implementation: :meth:`StructuredModel._attempts`
is a generator that yields each request and receives its response.

One module because it is one thing, that layer: the method choice,
the retries, the validation loop and the context fitting act on one request
in turn inside :class:`StructuredModel`; what a call leaves behind is
:mod:`langgraph_adamm.call_records`, how a prompt is fitted
:mod:`langgraph_adamm.fitting`.
"""

from __future__ import annotations

import functools
import inspect
import json
import logging
import threading
import time
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
)
from pydantic import BaseModel, ValidationError

from langgraph_adamm.call_records import CallRecord, announce_call
from langgraph_adamm.call_records import add_call_listener as add_call_listener
from langgraph_adamm.call_records import remove_call_listener as remove_call_listener
from langgraph_adamm.errors import AdaMMError
from langgraph_adamm.fitting import Messages, Prompt, TemplatePrompt, as_prompt

if TYPE_CHECKING:  # its import is a tenth of a cold ask that calls no model
    from langchain_core.language_models import BaseChatModel

logger = logging.getLogger(__name__)

M = TypeVar("M", bound=BaseModel)
Method = Literal[
    "auto",
    "json_schema",
    "function_calling",
    "native",
    "json_object",
    "json_mode",
    "text",
]
METHODS: tuple[str, ...] = Method.__args__  # type: ignore[attr-defined]

RETRY_TEXT = (
    "Your previous output was not valid: {error}\n"
    "Return output that matches the schema exactly."
)
SCHEMA_TEXT = (
    "\n\nAnswer with one JSON object, and nothing else, that matches this JSON "
    "schema:\n{schema}"
)


def resolve_chat_model(model: BaseChatModel | str) -> BaseChatModel:
    """A chat model object, or one built from a ``provider:model`` string.

    Raises:
        AdaMMError: when a string is given but langchain's ``init_chat_model`` (or
            the provider package) is not installed.
    """
    if isinstance(model, StructuredModel):
        return model.model
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
        raw = json.loads(_json_text(raw))
    return schema.model_validate(raw)


def _json_text(text: str) -> str:
    """The JSON inside a reply: fences and any prose around one object removed."""
    text = text.strip()
    if text.startswith("```"):
        text = text.strip("`").removeprefix("json").strip()
    if text and text[0] not in "{[":
        start, end = text.find("{"), text.rfind("}")
        if 0 <= start < end:
            return text[start : end + 1]
    return text


def short_error(exc: BaseException) -> str:
    """One line a model (and a person) can act on."""
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"]) or "output"
        more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        return f"{loc}: {first['msg']}{more}"[:300]
    return f"{type(exc).__name__}: {exc}"[:300]


# ---------------------------------------------------------------------------
# Errors


@functools.lru_cache(maxsize=1)
def transport_errors() -> tuple[type[BaseException], ...]:
    """Errors worth retrying unchanged: the request never got a real answer."""
    errors: list[type[BaseException]] = [TimeoutError, ConnectionError]
    try:
        import httpx

        errors.append(httpx.TransportError)
    except ImportError:  # pragma: no cover - httpx comes with langchain-core
        pass
    try:
        import openai

        errors += [
            openai.APIConnectionError,  # timeouts too
            openai.RateLimitError,
            openai.InternalServerError,
        ]
    except ImportError:
        pass
    return tuple(errors)


def _is_context_overflow(exc: BaseException) -> bool:
    text = str(exc).lower()
    return "context" in text and any(
        w in text for w in ("length", "window", "exceed", "too long", "maximum")
    )


# ---------------------------------------------------------------------------
# The layer


TRANSPORT_BACKOFF_S = 1.0
"""The first wait between transport tries when a model's settings name none."""


@dataclass(frozen=True)
class ModelSettings:
    """How the library calls one chat model.

    Attributes:
        method: ``auto`` picks per model: ``json_schema`` (strict) for OpenAI's
            own API, ``json_object`` (``response_format`` json_object with the
            schema, which llama.cpp's server turns into a grammar) for another
            OpenAI-compatible server, the model's own ``with_structured_output``
            otherwise, plain text with the schema in the prompt for a model
            without one.
        context_tokens: The model's context window; None reads the model's
            profile (``max_input_tokens``), and without one nothing is trimmed.
        output_tokens: Tokens kept free for the answer inside the window.
        chars_per_token: The estimate used to fit prompts (conservative).
        transport_attempts: Tries per request on transport errors.
        backoff_s: First wait between transport tries (doubling, jittered);
            None: :data:`TRANSPORT_BACKOFF_S`.
        max_backoff_s: Longest wait between transport tries.
    """

    method: Method = "auto"
    context_tokens: int | None = None
    output_tokens: int = 1024
    chars_per_token: float = 3.0
    transport_attempts: int = 3
    backoff_s: float | None = None
    max_backoff_s: float = 20.0

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise AdaMMError(
                f"unknown structured-output method {self.method!r}; "
                f"use one of {', '.join(METHODS)}"
            )


def _backoff(settings: ModelSettings) -> Any:
    """Tenacity's exponential-jitter parameters for these settings."""
    first = TRANSPORT_BACKOFF_S if settings.backoff_s is None else settings.backoff_s
    import tenacity

    params = inspect.signature(tenacity.wait_exponential_jitter).parameters
    start = "multiplier" if "multiplier" in params else "initial"
    return {start: first, "jitter": first, "max": settings.max_backoff_s}


def _local_openai_server(model: Any) -> bool:
    """A ChatOpenAI pointed at another OpenAI-compatible server (llama.cpp, Ollama)."""
    if type(model).__name__ not in ("ChatOpenAI", "AzureChatOpenAI"):
        return False
    base_url = getattr(model, "openai_api_base", None)
    return bool(base_url) and "api.openai.com" not in str(base_url)


def auto_method(model: Any) -> str:
    """The structured-output method ``auto`` picks for ``model``."""
    if type(model).__name__ in ("ChatOpenAI", "AzureChatOpenAI"):
        return "json_object" if _local_openai_server(model) else "json_schema"
    if not hasattr(model, "with_structured_output"):
        return "text"
    return "native"


def _usage(message: Any) -> tuple[int | None, int | None]:
    usage = getattr(message, "usage_metadata", None) or {}
    return usage.get("input_tokens"), usage.get("output_tokens")


def _add(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else a + b


class StructuredModel:
    """A chat model as every library role calls it (see the module text).

    Args:
        model: A LangChain chat model, a ``provider:model`` string, or another
            StructuredModel (its model is reused, these settings apply).
        settings: How to call it; keyword arguments override single fields.
    """

    def __init__(
        self,
        model: Any,
        settings: ModelSettings | None = None,
        **overrides: Any,
    ) -> None:
        if isinstance(model, StructuredModel):
            settings = settings or model.settings
            model = model.model
        self.settings: ModelSettings
        self.model: Any = resolve_chat_model(model)
        self.settings = replace(settings or ModelSettings(), **overrides)
        self.method = (
            auto_method(self.model)
            if self.settings.method == "auto"
            else self.settings.method
        )
        self._runnables: dict[tuple[Any, str], Any] = {}
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"StructuredModel({type(self.model).__name__}, method={self.method!r})"

    # -- budget ------------------------------------------------------------------
    @property
    def context_tokens(self) -> int | None:
        """The context window used to fit prompts, if known."""
        if self.settings.context_tokens:
            return self.settings.context_tokens
        profile = getattr(self.model, "profile", None)
        if isinstance(profile, Mapping):
            tokens = profile.get("max_input_tokens")
            return int(tokens) if tokens else None
        return None

    def budget_chars(self, scale: float = 1.0) -> int | None:
        """Characters a prompt may take (None: no limit known)."""
        tokens = self.context_tokens
        if tokens is None:
            return None
        room = max(256, tokens - self.output_tokens)
        return int(room * self.settings.chars_per_token * scale)

    # -- runnables ---------------------------------------------------------------
    def _runnable(self, schema: type[BaseModel] | None, method: str) -> Any:
        key = (schema, method)
        with self._lock:
            if key not in self._runnables:
                self._runnables[key] = self._build(schema, method).with_retry(
                    retry_if_exception_type=transport_errors(),
                    wait_exponential_jitter=True,
                    exponential_jitter_params=_backoff(self.settings),
                    stop_after_attempt=max(1, self.settings.transport_attempts),
                )
            return self._runnables[key]

    @property
    def output_tokens(self) -> int:
        """The most tokens an answer may take (the model's own limit, if set)."""
        return int(
            getattr(self.model, "max_tokens", None) or self.settings.output_tokens
        )

    def _build(self, schema: type[BaseModel] | None, method: str) -> Any:
        runnable = self._structured(schema, method)
        if _local_openai_server(self.model):
            # langchain-openai sends the limit as max_completion_tokens, which
            # llama.cpp's server (0.3.x) ignores: without max_tokens a reply
            # that never closes its JSON runs to the end of the context.
            if runnable is self.model:
                return self.model.bind(extra_body={"max_tokens": self.output_tokens})
            if method in ("json_object", "json_mode"):
                return runnable.bind(extra_body={"max_tokens": self.output_tokens})
        return runnable

    def _structured(self, schema: type[BaseModel] | None, method: str) -> Any:
        if schema is None or method == "text":
            return self.model
        if method == "json_schema":
            return self.model.with_structured_output(
                schema, method="json_schema", strict=True, include_raw=True
            )
        if method == "function_calling":
            return self.model.with_structured_output(
                schema, method="function_calling", strict=True, include_raw=True
            )
        if method == "native":
            return self.model.with_structured_output(schema, include_raw=True)
        if method == "json_object":
            return self.model.bind(
                response_format={"type": "json_object", "schema": wire_schema(schema)}
            )
        if method == "json_mode":
            return self.model.bind(response_format={"type": "json_object"})
        raise AdaMMError(f"unknown structured-output method {method!r}")

    def _method_for(self, schema: type[BaseModel] | None) -> str:
        if schema is None:
            return "text"
        if self.method == "native":
            try:
                self._runnable(schema, "native")
            except (NotImplementedError, AttributeError, TypeError):
                return "text"
        return self.method

    # -- one implementation, two drivers ----------------------------------------
    def _attempts(
        self,
        role: str,
        schema: type[BaseModel] | None,
        prompt: str | Sequence[BaseMessage] | Prompt,
        parse: Callable[[Any], Any] | None,
        attempts: int,
        validate: bool,
        method: str,
    ) -> Generator[list[BaseMessage], tuple[Any, BaseException | None], CallRecord]:
        """Yields each request; receives (response, error); returns the record."""
        record = CallRecord(role=role, method=method)
        fitted = as_prompt(prompt)
        scale = 1.0
        start = time.perf_counter()
        schema_text = (
            SCHEMA_TEXT.format(schema=_schema_json(schema))
            if schema is not None and method in ("json_object", "json_mode", "text")
            else ""
        )
        while record.attempts < max(1, attempts):
            budget = self.budget_chars(scale)
            if budget is not None:  # the schema text is added after fitting
                budget = max(200, budget - len(schema_text))
            messages, note = fitted.render(budget)
            if note:
                record.trimmed = note
            if schema_text:
                messages = _with_suffix(messages, schema_text)
            if record.errors:
                messages.append(
                    HumanMessage(content=RETRY_TEXT.format(error=record.errors[-1]))
                )
            record.attempts += 1
            raw, exc = yield messages
            if exc is not None:
                if isinstance(exc, transport_errors()):
                    record.raised = short_error(exc)
                    record.attempts += max(1, self.settings.transport_attempts) - 1
                    break
                if _is_context_overflow(exc) and scale > 0.2:
                    scale *= 0.6  # the estimate was off: ask for less
                record.errors.append(short_error(exc))
                continue
            message = raw.get("raw") if isinstance(raw, dict) else raw
            tokens_in, tokens_out = _usage(message)
            record.input_tokens = _add(record.input_tokens, tokens_in)
            record.output_tokens = _add(record.output_tokens, tokens_out)
            try:
                record.value = self._value(raw, schema, parse, validate)
                break
            except Exception as error:  # noqa: BLE001 - shown to the model next
                record.errors.append(short_error(error))
        record.seconds = time.perf_counter() - start
        if not record.ok:
            logger.info("%s: %s", role, record.failure())
        announce_call(record)
        return record

    @staticmethod
    def _value(
        raw: Any,
        schema: type[BaseModel] | None,
        parse: Callable[[Any], Any] | None,
        validate: bool,
    ) -> Any:
        if schema is None:
            content = getattr(raw, "content", raw)
            if not isinstance(content, str) or not content.strip():
                raise ValueError("the model returned no text")
            value: Any = content.strip()
        else:
            if isinstance(raw, dict) and set(raw) >= {"raw", "parsed"}:
                if raw.get("parsing_error") is not None and validate:
                    raise raw["parsing_error"]
                parsed = raw["parsed"]
                if parsed is None and not validate:
                    parsed = raw["raw"]  # the role's own parser reads the message
                if parsed is None:
                    text = str(getattr(raw["raw"], "content", ""))[:120]
                    raise ValueError(
                        "no structured output came back"
                        + (f" (the model wrote: {text!r})" if text else "")
                    )
                raw = parsed
            if validate:
                value = parse_output(raw, schema)
            else:
                value = raw
                if isinstance(raw, AIMessage) and raw.tool_calls:
                    value = raw.tool_calls[0]["args"]
                elif isinstance(raw, BaseModel) and not isinstance(raw, BaseMessage):
                    value = raw.model_dump()
        return parse(value) if parse is not None else value

    def _start(
        self,
        role: str,
        schema: type[BaseModel] | None,
        prompt: str | Sequence[BaseMessage] | Prompt,
        parse: Callable[[Any], Any] | None,
        attempts: int,
        validate: bool,
    ) -> tuple[Any, Any]:
        """The attempts generator and the runnable its requests go to."""
        method = self._method_for(schema)
        steps = self._attempts(role, schema, prompt, parse, attempts, validate, method)
        return steps, self._runnable(schema, method)

    def call(
        self,
        role: str,
        schema: type[BaseModel] | None,
        prompt: str | Sequence[BaseMessage] | Prompt,
        *,
        parse: Callable[[Any], Any] | None = None,
        attempts: int = 3,
        validate: bool = True,
    ) -> CallRecord:
        """One validated call; never raises for what the model or transport did.

        Args:
            role: Who calls, for records and notes.
            schema: The pydantic model the output must validate as; None asks
                for plain text.
            prompt: A string, messages, or a :class:`Prompt` that can shrink.
            parse: Further checks and conversion of the validated output (a
                raised error is shown to the model on the next attempt).
            attempts: Model calls in all (transport retries not counted).
            validate: False gives ``parse`` the output unvalidated (a dict, or
                the message), for a role whose parser writes its own errors.
        """
        steps, runnable = self._start(role, schema, prompt, parse, attempts, validate)
        try:
            request = next(steps)
            while True:
                try:
                    reply: tuple[Any, BaseException | None] = (
                        runnable.invoke(request),
                        None,
                    )
                except Exception as exc:  # noqa: BLE001 - judged by _attempts
                    reply = (None, exc)
                request = steps.send(reply)
        except StopIteration as done:
            return done.value

    async def acall(
        self,
        role: str,
        schema: type[BaseModel] | None,
        prompt: str | Sequence[BaseMessage] | Prompt,
        *,
        parse: Callable[[Any], Any] | None = None,
        attempts: int = 3,
        validate: bool = True,
    ) -> CallRecord:
        """Async :meth:`call` (the same attempts, through ``ainvoke``)."""
        steps, runnable = self._start(role, schema, prompt, parse, attempts, validate)
        try:
            request = next(steps)
            while True:
                try:
                    reply: tuple[Any, BaseException | None] = (
                        await runnable.ainvoke(request),
                        None,
                    )
                except Exception as exc:  # noqa: BLE001 - judged by _attempts
                    reply = (None, exc)
                request = steps.send(reply)
        except StopIteration as done:
            return done.value


def _with_suffix(messages: list[BaseMessage], suffix: str) -> list[BaseMessage]:
    """The schema text added to the system message, or else to the last human one."""
    out = list(messages)
    if out and isinstance(out[0], SystemMessage):
        out[0] = SystemMessage(content=str(out[0].content) + suffix)
        return out
    for i in range(len(out) - 1, -1, -1):
        if isinstance(out[i], HumanMessage):
            out[i] = HumanMessage(content=str(out[i].content) + suffix)
            return out
    return [*out, HumanMessage(content=suffix.strip())]


@functools.lru_cache(maxsize=64)
def _schema_json(schema: type[BaseModel]) -> str:
    """The wire schema as the text shown in a prompt, built once per schema."""
    return json.dumps(wire_schema(schema))


def wire_schema(schema: type[BaseModel]) -> dict[str, Any]:
    """The strict JSON schema a model is shown for ``schema`` (refs inlined)."""
    from langchain_core.utils.function_calling import convert_to_openai_tool

    tool = convert_to_openai_tool(schema, strict=True)
    return dict(tool["function"]["parameters"])


def structured(model: Any) -> StructuredModel:
    """``model`` as a :class:`StructuredModel` (kept as is when it is one)."""
    return model if isinstance(model, StructuredModel) else StructuredModel(model)


__all__ = [
    "CallRecord",
    "Messages",
    "ModelSettings",
    "Prompt",
    "StructuredModel",
    "TemplatePrompt",
    "add_call_listener",
    "parse_output",
    "remove_call_listener",
    "resolve_chat_model",
    "structured",
    "wire_schema",
]
