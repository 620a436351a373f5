"""Prompts that fit a model's context window.

A :class:`Prompt` renders its messages for a budget of characters. A
:class:`TemplatePrompt` shortens its least relevant fields, whole lines from
their end, with a note of what was left out; :class:`Messages` falls back on
smaller variants of one request (shorter snippets). Either is cut at its end
when nothing else fits, so a call never fails on length.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

TRIM_NOTE = "[{n} lines of context left out to fit the model's context window]"


class Prompt(Protocol):
    """Messages for a model, fitted to a budget of characters when one is set."""

    def render(self, budget_chars: int | None) -> tuple[list[BaseMessage], str | None]:
        """The messages, and a note when context was left out to fit."""
        ...


def _fit_lines(text: str, room: int) -> tuple[str, int]:
    """The text cut to ``room`` characters at line ends, from the end."""
    if len(text) <= room:
        return text, 0
    lines = text.splitlines()
    kept: list[str] = []
    used = 0
    for line in lines:
        if used + len(line) + 1 > room:
            break
        kept.append(line)
        used += len(line) + 1
    if not kept and lines:  # one long line: cut inside it
        return lines[0][: max(0, room)], len(lines)
    return "\n".join(kept), len(lines) - len(kept)


@dataclass(frozen=True)
class TemplatePrompt:
    """A prompt template whose ``trim`` fields may be shortened to fit.

    Fields in ``trim`` are shortened in that order (list the least relevant
    first), whole lines from their end, each with a note of how many lines were
    left out. A prompt still too long after that is cut at its end.
    """

    template: str
    fields: Mapping[str, Any]
    trim: tuple[str, ...] = ()
    system: str | None = None

    def _messages(self, fields: Mapping[str, Any]) -> list[BaseMessage]:
        out: list[BaseMessage] = []
        if self.system:
            out.append(SystemMessage(content=self.system))
        out.append(HumanMessage(content=self.template.format(**fields)))
        return out

    def render(self, budget_chars: int | None) -> tuple[list[BaseMessage], str | None]:
        """The messages, with trimmed fields when over ``budget_chars``."""
        fields = dict(self.fields)
        messages = self._messages(fields)
        if budget_chars is None or _chars(messages) <= budget_chars:
            return messages, None
        dropped = 0
        for name in self.trim:
            over = _chars(messages) - budget_chars
            if over <= 0:
                break
            text = str(fields.get(name, ""))
            room = max(0, len(text) - over - len(TRIM_NOTE) - 8)
            kept, n = _fit_lines(text, room)
            if n:
                dropped += n
                fields[name] = kept + "\n" + TRIM_NOTE.format(n=n)
                messages = self._messages(fields)
        if _chars(messages) > budget_chars:
            messages = _cut(messages, budget_chars)
            return messages, "the prompt was cut at its end to fit the context window"
        return messages, f"{dropped} lines of context left out to fit the window"


@dataclass(frozen=True)
class Messages:
    """Ready messages, optionally with smaller variants to fall back on.

    ``variants`` yields the same request at decreasing size (shorter snippets,
    fewer candidates); the first that fits is sent.
    """

    messages: Sequence[BaseMessage]
    variants: Callable[[], Iterator[Sequence[BaseMessage]]] | None = None

    def render(self, budget_chars: int | None) -> tuple[list[BaseMessage], str | None]:
        """The messages, or the first smaller variant that fits ``budget_chars``."""
        first = list(self.messages)
        if budget_chars is None or _chars(first) <= budget_chars:
            return first, None
        for smaller in self.variants() if self.variants else ():
            if _chars(smaller) <= budget_chars:
                return list(smaller), "a smaller request was sent to fit the window"
        return _cut(first, budget_chars), "the prompt was cut to fit the window"


def _chars(messages: Sequence[BaseMessage]) -> int:
    return sum(len(str(m.content)) + 16 for m in messages)


def _cut(messages: Sequence[BaseMessage], budget_chars: int) -> list[BaseMessage]:
    """The last message cut so the whole fits (the others are kept)."""
    out = list(messages)
    rest = _chars(out[:-1])
    last = str(out[-1].content)
    room = max(200, budget_chars - rest - 16)
    out[-1] = type(out[-1])(content=last[:room])
    return out


def as_prompt(prompt: str | Sequence[BaseMessage] | Prompt) -> Prompt:
    """Any prompt form as a :class:`Prompt`."""
    if isinstance(prompt, str):
        return TemplatePrompt("{text}", {"text": prompt}, trim=("text",))
    if isinstance(prompt, (list, tuple)):
        return Messages(list(prompt))
    return prompt  # type: ignore[return-value]
