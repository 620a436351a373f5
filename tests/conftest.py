from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage

from langgraph_adamm import AdaMMConfig, Memory
from langgraph_adamm.history import history_from_dict


class ScriptedChatModel(GenericFakeChatModel):
    """A fake chat model that supports tool binding and plays scripted messages."""

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedChatModel:  # type: ignore[override]
        return self


def tool_message(args: dict[str, Any], name: str = "ExtractionOutput") -> AIMessage:
    return AIMessage(
        content="", tool_calls=[{"name": name, "args": args, "id": "call_1"}]
    )


def scripted(messages: list[AIMessage | str]) -> ScriptedChatModel:
    return ScriptedChatModel(messages=iter(messages))


def history(
    rounds: list[dict[str, Any]],
    user_id: str = "u",
    session: str = "S1",
    date: str = "2026-03-01",
) -> Any:
    """A one-session history; rounds get ids S1:1.. unless they carry one."""
    return history_from_dict(
        {
            "user_id": user_id,
            "sessions": [{"session_id": session, "date": date, "rounds": rounds}],
        }
    )


@pytest.fixture
def memory() -> Iterator[Memory]:
    mem = Memory(":memory:", user_id="u", config=AdaMMConfig(ingest_batch_size=1))
    yield mem
    mem.close()
