"""The one structured-output layer: methods, retries, fitting, and the wire.

Every failure path (malformed output, a validation error, a timeout, a
context overflow) is driven through :class:`StructuredModel` with scripted
models; the wire format is checked against an in-process OpenAI-compatible
endpoint (httpx's mock transport), so no server or key is needed.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from conftest import ScriptedChatModel, scripted, tool_message
from langchain_core.language_models import BaseChatModel
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import BaseModel, Field

from langgraph_adamm import Memory
from langgraph_adamm.analytic.extraction.llm import ExtractionOutput
from langgraph_adamm.analytic.table_descriptions import TableDescription
from langgraph_adamm.chat import (
    Messages,
    ModelSettings,
    StructuredModel,
    TemplatePrompt,
    add_call_listener,
    auto_method,
    remove_call_listener,
    wire_schema,
)
from langgraph_adamm.forest.verifiers import EcvOutput, NodeVerifierOutput
from langgraph_adamm.graphs.query import STEP_MODELS
from langgraph_adamm.planning.llm import PlanOutput, ReaderOutput
from langgraph_adamm.schemas import strict_violations
from langgraph_adamm.tools.langchain import ForgetArgs, create_memory_tools

SCHEMAS = [
    ExtractionOutput,
    TableDescription,
    PlanOutput,
    ReaderOutput,
    NodeVerifierOutput,
    EcvOutput,
    ForgetArgs,
    *STEP_MODELS.values(),
]


class Answer(BaseModel):
    value: int = Field(ge=0, le=10)


class Raising(BaseChatModel):
    """Raises the scripted errors in turn, then answers; counts every call."""

    script: list[Any]
    calls: list[list[BaseMessage]] = []

    @property
    def _llm_type(self) -> str:
        return "raising"

    def _generate(
        self, messages: Any, stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> ChatResult:
        self.calls.append(list(messages))
        out = self.script.pop(0) if self.script else AIMessage(content="")
        if isinstance(out, BaseException):
            raise out
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=out))])


def text_model(*replies: Any) -> Raising:
    return Raising(script=list(replies), calls=[])


# -- schemas -----------------------------------------------------------------------


@pytest.mark.parametrize("schema", SCHEMAS, ids=lambda s: s.__name__)
def test_every_schema_meets_openai_strict_mode(schema: type[BaseModel]) -> None:
    tool = convert_to_openai_tool(schema, strict=True)
    assert tool["function"]["strict"] is True
    assert strict_violations(tool["function"]["parameters"]) == []


def test_every_memory_tool_meets_openai_strict_mode(memory: Memory) -> None:
    tools = create_memory_tools(memory)
    assert len(tools) >= 6
    for tool in tools:
        schema = convert_to_openai_tool(tool, strict=True)["function"]["parameters"]
        assert strict_violations(schema) == [], tool.name


def test_the_strict_check_can_fail() -> None:
    class Loose(BaseModel):
        name: str = Field(default="x", max_length=3)
        extra: dict[str, int] = {}

    problems = strict_violations(
        convert_to_openai_tool(Loose)["function"]["parameters"]
    )
    assert any("additionalProperties" in p for p in problems)
    assert any("not every property is required" in p for p in problems)
    assert any("maxLength" in p or "'default'" in p for p in problems)


def test_null_means_the_default_and_pairs_read_as_a_mapping() -> None:
    lookup = STEP_MODELS["lookup"].model_validate(
        {
            "table": "sleep",
            "key_values": [{"column": "day", "value": "2026-03-01"}],
            "result_budget": None,
        }
    )
    assert lookup.key_values == {"day": "2026-03-01"}
    assert lookup.result_budget == 10
    # a dict (the Python form) is still accepted
    assert STEP_MODELS["lookup"](table="t", key_values={"a": 1}).key_values == {"a": 1}
    # limits stay in validation although the wire schema does not show them
    with pytest.raises(ValueError, match="less than or equal"):
        STEP_MODELS["lookup"](table="t", key_values={"a": 1}, result_budget=10_000)


# -- methods -----------------------------------------------------------------------


def test_auto_method_per_model() -> None:
    openai = pytest.importorskip("langchain_openai")
    hosted = openai.ChatOpenAI(model="gpt-4.1-nano", api_key="k")
    local = openai.ChatOpenAI(model="m", api_key="k", base_url="http://127.0.0.1:1/v1")
    assert auto_method(hosted) == "json_schema"
    assert auto_method(local) == "json_object"
    assert StructuredModel(scripted([])).method == "native"
    # a model without tool calling falls back to the schema in the prompt
    record = StructuredModel(text_model('{"value": 3}')).call("t", Answer, "q?")
    assert record.ok and record.method == "text" and record.value.value == 3


def test_native_method_reads_tool_calls() -> None:
    llm = StructuredModel(scripted([tool_message({"value": 4}, name="Answer")]))
    record = llm.call("t", Answer, "q?")
    assert record.ok and record.value == Answer(value=4) and record.attempts == 1


# -- failure paths -----------------------------------------------------------------


def test_malformed_output_is_retried_with_the_error_shown() -> None:
    model = text_model("I think the answer is three", '```json\n{"value": 3}\n```')
    record = StructuredModel(model).call("t", Answer, "q?")
    assert record.ok and record.value.value == 3
    assert record.attempts == 2 and len(record.errors) == 1
    assert "JSONDecodeError" in record.errors[0]
    retry = str(model.calls[1][-1].content)
    assert "previous output was not valid" in retry and "JSONDecodeError" in retry


def test_validation_error_names_the_field_and_ends_in_a_record() -> None:
    model = text_model('{"value": 99}', '{"value": -1}', '{"value": "x"}')
    record = StructuredModel(model).call("reader", Answer, "q?", attempts=3)
    assert not record.ok and record.attempts == 3 and len(record.errors) == 3
    assert record.errors[0].startswith("value: Input should be less than or equal")
    assert "value: Input should be less than or equal" in str(
        model.calls[1][-1].content
    )
    assert "reader's output was not valid after 3 attempts" in record.failure()


def test_parse_errors_are_shown_to_the_model_too() -> None:
    def positive(a: Answer) -> int:
        if a.value == 0:
            raise ValueError("value 0 is not allowed here")
        return a.value

    model = text_model('{"value": 0}', '{"value": 2}')
    record = StructuredModel(model).call("t", Answer, "q?", parse=positive)
    assert record.value == 2
    assert "value 0 is not allowed" in str(model.calls[1][-1].content)


def test_a_timeout_is_retried_by_with_retry_then_recorded_without_raising() -> None:
    model = text_model(TimeoutError("read timed out"), TimeoutError("again"), "x", "y")
    llm = StructuredModel(model, transport_attempts=2)
    record = llm.call("planner", Answer, "q?", attempts=3)
    assert not record.ok and record.raised == "TimeoutError: again"
    assert len(model.calls) == 2  # the transport retries, and no more
    assert "planner call failed after 2 attempts" in record.failure()


def test_a_transient_error_then_an_answer() -> None:
    model = text_model(ConnectionError("reset"), '{"value": 1}')
    record = StructuredModel(model).call("t", Answer, "q?")
    assert record.ok and record.errors == [] and len(model.calls) == 2


def test_openai_timeouts_and_rate_limits_count_as_transport() -> None:
    openai = pytest.importorskip("openai")
    request = httpx.Request("POST", "http://x")
    timeout = openai.APITimeoutError(request=request)
    limited = openai.RateLimitError(
        "slow down", response=httpx.Response(429, request=request), body=None
    )
    model = text_model(timeout, limited, '{"value": 5}')
    record = StructuredModel(model, transport_attempts=3).call("t", Answer, "q?")
    assert record.ok and record.value.value == 5 and len(model.calls) == 3


def test_the_prompt_is_trimmed_to_the_context_window_with_a_note() -> None:
    context = "\n".join(f"table_{i}: columns a, b, c" for i in range(400))
    prompt = TemplatePrompt(
        "Question: {q}\nContext:\n{context}\nAnswer.",
        {"q": "how?", "context": context},
        trim=("context",),
    )
    model = text_model('{"value": 1}')
    llm = StructuredModel(model, context_tokens=1200, output_tokens=200)
    record = llm.call("planner", Answer, prompt)
    sent = "\n".join(str(m.content) for m in model.calls[0])
    assert (
        record.ok and record.trimmed and "lines of context left out" in record.trimmed
    )
    assert len(sent) <= llm.budget_chars() + 2000  # + the schema text
    assert "Question: how?" in sent and "table_0:" in sent and "table_399" not in sent
    assert "lines of context left out to fit the model's context window" in sent


def test_a_context_overflow_error_asks_for_less() -> None:
    context = "\n".join(f"row {i}" for i in range(2000))
    prompt = TemplatePrompt("{context}", {"context": context}, trim=("context",))
    overflow = ValueError("This model's maximum context length is 4096 tokens")
    model = text_model(overflow, '{"value": 2}')
    llm = StructuredModel(model, context_tokens=4096, output_tokens=100)
    record = llm.call("t", Answer, prompt)
    first, second = (sum(len(str(m.content)) for m in c) for c in model.calls)
    assert record.ok and second < first * 0.8


def test_messages_fall_back_to_smaller_variants() -> None:
    from langchain_core.messages import HumanMessage

    big = [HumanMessage(content="x" * 5000)]
    small = [HumanMessage(content="x" * 100)]
    prompt = Messages(big, lambda: iter([small]))
    model = text_model('{"value": 1}')
    record = StructuredModel(model, context_tokens=800, output_tokens=100).call(
        "t", Answer, prompt
    )
    assert record.ok and record.trimmed
    assert str(model.calls[0][0].content).startswith("x" * 100 + "\n")


def test_sync_and_async_records_agree() -> None:
    replies = ["nope", '{"value": 11}', '{"value": 7}']
    sync = StructuredModel(text_model(*replies)).call("t", Answer, "q?")
    async_ = asyncio.run(StructuredModel(text_model(*replies)).acall("t", Answer, "q?"))
    assert sync.value == async_.value == Answer(value=7)
    assert sync.errors == async_.errors and sync.attempts == async_.attempts == 3


def test_listeners_see_every_call() -> None:
    seen: list[Any] = []
    add_call_listener(seen.append)
    try:
        StructuredModel(text_model('{"value": 1}')).call("reader", Answer, "q?")
    finally:
        remove_call_listener(seen.append)
    assert [r.role for r in seen] == ["reader"] and seen[0].seconds >= 0


def test_plain_text_roles_use_the_same_layer() -> None:
    model = text_model("", "  A week of running.  ")
    record = StructuredModel(model).call("episode description", None, "Describe")
    assert record.value == "A week of running." and record.errors == [
        "ValueError: the model returned no text"
    ]


def test_unknown_method_is_a_clear_error() -> None:
    with pytest.raises(Exception, match="unknown structured-output method 'xml'"):
        ModelSettings(method="xml")  # type: ignore[arg-type]


# -- the wire ------------------------------------------------------------------------


def _completion(content: str) -> dict[str, Any]:
    return {
        "id": "c1",
        "object": "chat.completion",
        "created": 0,
        "model": "local",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 11, "completion_tokens": 5, "total_tokens": 16},
    }


def test_local_openai_server_gets_a_json_object_with_its_schema() -> None:
    openai = pytest.importorskip("langchain_openai")
    bodies: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(request.content))
        reply = '{"value": 3}' if len(bodies) > 1 else '{"value": "three"}'
        return httpx.Response(200, json=_completion(reply))

    chat = openai.ChatOpenAI(
        model="local",
        api_key="k",
        base_url="http://127.0.0.1:9/v1",
        max_retries=0,
        max_tokens=64,
        http_client=httpx.Client(transport=httpx.MockTransport(handler)),
    )
    record = StructuredModel(chat).call("t", Answer, "q?")
    assert record.ok and record.value.value == 3 and record.attempts == 2
    body = bodies[0]
    assert body["response_format"] == {
        "type": "json_object",
        "schema": wire_schema(Answer),
    }
    assert body["max_tokens"] == 64  # llama.cpp's server reads only this name
    assert "JSON schema" in body["messages"][-1]["content"]
    assert record.input_tokens == 22 and record.output_tokens == 10


def test_hosted_openai_gets_a_strict_json_schema() -> None:
    openai = pytest.importorskip("langchain_openai")
    bodies: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(request.content))
        return httpx.Response(200, json=_completion('{"steps": []}'))

    chat = openai.ChatOpenAI(
        model="gpt-4.1-nano",
        api_key="k",
        max_retries=0,
        http_client=httpx.Client(transport=httpx.MockTransport(handler)),
    )
    record = StructuredModel(chat).call("planner", PlanOutput, "plan", attempts=1)
    assert not record.ok and "steps" in record.last_error  # min 1 step, validated
    fmt = bodies[0]["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
    assert strict_violations(fmt["json_schema"]["schema"]) == []


def test_structured_model_keeps_its_settings_through_memory(tmp_path: Any) -> None:
    llm = StructuredModel(ScriptedChatModel(messages=iter([])), context_tokens=999)
    with Memory(str(tmp_path / "m.duckdb"), model=llm, retrieval=False) as mem:
        assert mem.queries.llm is llm and mem.chat_model is llm.model
        assert mem._extractor.llm is llm  # type: ignore[attr-defined]


def test_generic_fake_without_tools_is_text() -> None:
    fake = GenericFakeChatModel(messages=iter([AIMessage(content='{"value": 0}')]))
    record = StructuredModel(fake).call("t", Answer, "q?")
    assert record.method == "text" and record.value == Answer(value=0)
