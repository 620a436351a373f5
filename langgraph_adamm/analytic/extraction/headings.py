"""The heading a record gives itself in the text before its first field."""

from __future__ import annotations

import re

from langgraph_adamm.analytic.extraction.base import Observation
from langgraph_adamm.analytic.extraction.labels import (
    DATE_TOKEN_RE,
    DATE_WORDS,
    SOURCE_WORDS,
    STOPWORDS,
)

_TITLE_RE = re.compile(r"""['"“‘]([^'"”’\n]{2,40})['"”’]""")
_HEADING_FILLERS = frozenset(
    """here's heres here is are your my daily today's todays the a an quick new
    latest this""".split()
)
_GENERIC_HEADINGS = frozenset(
    "log summary entry update numbers data stats statistics today record".split()
)
_HEADING_DATE_RE = re.compile(
    rf"\b(?:for|on|of|from)?\s*(?:{DATE_TOKEN_RE.pattern})"
    rf"(?:\s+(?:{DATE_TOKEN_RE.pattern}))*(?=\W|$)",
    re.IGNORECASE,
)


def heading_of(prefix: str) -> str | None:
    """The name a record gives itself in the text before its first field.

    "Daily glucose dashboard for Mar 11. " -> "glucose dashboard", "Ride log – "
    -> "ride log", "[Run] " -> "run", "Screenshot titled 'Sleep report'
    showing " -> "sleep report". None for no heading, a chat lead ("hey, quick
    log:", "Morning! Here are today's numbers —"), a source ("Exported from
    Google Fit:") or a generic word alone ("Log:").
    """
    text = prefix.strip()
    if not text:
        return None
    title = _TITLE_RE.search(text)
    if title:
        text = title.group(1)
    elif re.search(r"[!?]", text):
        return None
    text = _HEADING_DATE_RE.sub(" ", text)
    words = [
        w.lower()
        for w in re.findall(r"[^\W\d_][\w'’-]*", text)
        if w.lower() not in _HEADING_FILLERS
    ]
    if not words or len(words) > 4:
        return None
    if any(w in STOPWORDS or w in SOURCE_WORDS for w in words) or all(
        w in DATE_WORDS for w in words
    ):
        return None  # a chat lead, a source, or only a when ("Last night:")
    if len(words) == 1 and words[0] in _GENERIC_HEADINGS:
        return None
    return " ".join(words)


def field_starts(observations: list[Observation]) -> dict[str, int]:
    """Where the first field of a round's records starts, per text.

    A document's line items and a table's rows count: the heading is the text
    before the first of them ("Receipt" over "Espresso 2.80").

    Keys are "user", "assistant", "<image id>/caption" and "<image id>/ocr".
    """
    starts: dict[str, int] = {}
    for obs in observations:
        p = obs.provenance
        if p.span is None or p.source == "metadata":
            continue
        key = f"{p.image_id}/{p.source}" if p.image_id else p.source
        starts[key] = min(starts.get(key, p.span[0]), p.span[0])
    return starts


def record_heading(starts: dict[str, int], texts: dict[str, str]) -> str | None:
    """The heading of a round's own record: its first text before its first field.

    ``starts`` as :func:`field_starts` gives them; ``texts`` has the same keys.
    """
    images = sorted(k for k in starts if k not in ("user", "assistant"))
    for key in ("user", "assistant", *images):
        if key in starts and key in texts:
            return heading_of(texts[key][: starts[key]])
    return None
