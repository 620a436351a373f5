"""Records of structured model calls, and the listeners that see each one.

Every call through :class:`~langgraph_adamm.chat.StructuredModel` ends in a
:class:`CallRecord`: its value, or every error in order, with attempts, time,
tokens and what was trimmed. Listeners (benchmarks, logs) see every record.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

# Call records log under the chat layer's name, where they always have.
logger = logging.getLogger("langgraph_adamm.chat")


@dataclass
class CallRecord:
    """What one structured call did: its value, or every error in order.

    Attributes:
        role: The library role that called ("planner", "extraction" ...).
        method: The structured-output method used.
        value: The validated (and parsed) value; None when the call failed.
        errors: One line per failed attempt (bad JSON, a validation error, a
            provider's refusal), as shown to the model on the next attempt.
        raised: The transport error that ended the call after its retries.
        attempts: Requests sent (a transport failure counts all its tries).
        seconds: Wall time of the whole call.
        input_tokens: Prompt tokens over all attempts, where the model reports.
        output_tokens: Completion tokens over all attempts, where reported.
        trimmed: What was left out to fit the context window, if anything.
    """

    role: str
    method: str
    value: Any = None
    errors: list[str] = field(default_factory=list)
    raised: str | None = None
    attempts: int = 0
    seconds: float = 0.0
    input_tokens: int | None = None
    output_tokens: int | None = None
    trimmed: str | None = None

    @property
    def ok(self) -> bool:
        """Whether a value came back."""
        return self.value is not None

    @property
    def last_error(self) -> str:
        """The error that ended the call."""
        return self.raised or (self.errors[-1] if self.errors else "no output")

    def failure(self) -> str:
        """A sentence for a note or a failure field."""
        if self.raised is not None:
            return (
                f"the {self.role} call failed after {self.attempts} attempts "
                f"({self.raised})"
            )
        return (
            f"the {self.role}'s output was not valid after {self.attempts} "
            f"attempts (last error: {self.last_error})"
        )


_listeners: list[Callable[[CallRecord], None]] = []
_listeners_lock = threading.Lock()


def add_call_listener(listener: Callable[[CallRecord], None]) -> None:
    """Call ``listener`` with every finished :class:`CallRecord` (benchmarks, logs)."""
    with _listeners_lock:
        _listeners.append(listener)


def remove_call_listener(listener: Callable[[CallRecord], None]) -> None:
    """Stop calling ``listener``."""
    with _listeners_lock:
        if listener in _listeners:
            _listeners.remove(listener)


def announce_call(record: CallRecord) -> None:
    """Hand a finished record to every listener; a failing listener is logged."""
    with _listeners_lock:
        listeners = list(_listeners)
    for listener in listeners:
        try:
            listener(record)
        except Exception:  # noqa: BLE001 - a listener never breaks a call
            logger.exception("call listener failed")
