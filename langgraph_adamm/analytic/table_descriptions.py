"""Table metadata: name, description and column descriptions for induced schemas.

A chat model writes them when one is given (AdaMM §3.3.3); otherwise they are
derived from the attributes, so that the planner always has something to read.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from pydantic import Field

from langgraph_adamm.analytic.tables import TYPE_LABELS
from langgraph_adamm.schemas import ColumnDescriptions, WireModel

logger = logging.getLogger(__name__)

DESCRIBE_TABLE_PROMPT = """You name tables in a personal analytic memory.
A table was induced from fields that recur together in a user's conversations
and screenshots. Give it a short snake_case name (at most 4 words) saying what
one row records, a one-sentence description of what questions it can answer, and
a short description of each column.

Columns (name, type, unit, example values):
{columns}{heading}"""

_HEADING_LINE = "\nThe records usually begin with the heading: {heading!r}"
_RECORD_WORDS = frozenset(
    """log dashboard receipt summary report check entry journal diary session
    stats results tracker record split stop weigh-in check-in invoice bill
    statement""".split()
)
_HEADED_RE = re.compile(r'^Recurring "([^"]+)" records of ')


def heading_in(description: str) -> str | None:
    """The heading an offline description names, if any."""
    match = _HEADED_RE.match(description)
    return match.group(1) if match else None


_GENERIC_TOKENS = frozenset({"avg", "average", "total", "max", "min", "num", "value"})


class TableDescription(WireModel):
    """What a describer returns; also the structured-output schema for a model."""

    name: str = Field(description="snake_case table name, at most 4 words")
    description: str = Field(description="one sentence: what a row records")
    columns: ColumnDescriptions = Field(
        default_factory=dict, description="column name -> short description"
    )


class TableDescriber(Protocol):
    """Writes table metadata for a schema."""

    def describe(
        self,
        columns: Sequence[tuple[str, str, str | None, Sequence[str]]],
        *,
        heading: str | None = None,
    ) -> TableDescription:
        """Metadata for a table with these (name, sql type, unit, samples) columns.

        ``heading`` is the name the records give themselves, when one recurs
        ("glucose dashboard", "ride log").
        """
        ...


def safe_table_name(name: str) -> str:
    """Turn any proposed name into a safe lower-case identifier."""
    text = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")[:48].rstrip("_")
    if not text:
        text = "records"
    if text[0].isdigit():
        text = f"t_{text}"
    return text


def _column_line(
    name: str, sql_type: str, unit: str | None, samples: Sequence[str]
) -> str:
    unit_part = f" ({unit})" if unit else ""
    examples = f"; e.g. {', '.join(samples)}" if samples else ""
    return f"{name}: {TYPE_LABELS.get(sql_type, sql_type)}{unit_part}{examples}"


class OfflineDescriber:
    """Derives metadata from the attribute names; needs no model."""

    def describe(
        self,
        columns: Sequence[tuple[str, str, str | None, Sequence[str]]],
        *,
        heading: str | None = None,
    ) -> TableDescription:
        """Name the table after its records' heading, else a shared word.

        Without a heading, a word its fields share names it, else its first
        fields.
        """
        names = [c[0] for c in columns]
        tokens = Counter(
            tok
            for n in names
            for tok in set(n.split("_"))
            if len(tok) > 2 and tok not in _GENERIC_TOKENS
        )
        shared = [
            t for t, c in sorted(tokens.items(), key=lambda x: (-x[1], x[0])) if c >= 2
        ]
        base = shared[0] if shared else "_".join(names[:2])
        fields = ", ".join(f"{n} ({u})" if u else n for n, _, u, _ in columns)
        name = f"{base}_log"
        headed = ""
        if heading:
            last = heading.split()[-1]
            name = heading if last in _RECORD_WORDS else f"{heading}_log"
            headed = f'"{heading}" '
        return TableDescription(
            name=safe_table_name(name),
            description=f"Recurring {headed}records of {fields}; one row per round "
            "that reported them.",
            columns={c[0]: _column_line(*c) for c in columns},
        )


class LLMDescriber:
    """Asks a chat model for table metadata; falls back to :class:`OfflineDescriber`.

    Args:
        model: A LangChain chat model supporting structured output.
        prompt: The prompt template; ``{columns}`` receives one line per column.
    """

    def __init__(self, model: Any, prompt: str = DESCRIBE_TABLE_PROMPT) -> None:
        from langgraph_adamm.chat import structured

        self.llm = structured(model)
        self.model = self.llm.model
        self.prompt = prompt
        self._offline = OfflineDescriber()

    def describe(
        self,
        columns: Sequence[tuple[str, str, str | None, Sequence[str]]],
        *,
        heading: str | None = None,
    ) -> TableDescription:
        """Model-written metadata, or derived metadata if the model fails."""
        from langgraph_adamm.chat import TemplatePrompt

        fallback = self._offline.describe(columns, heading=heading)
        lines = "\n".join(_column_line(*c) for c in columns)
        extra = _HEADING_LINE.format(heading=heading) if heading else ""
        record = self.llm.call(
            "table description",
            TableDescription,
            TemplatePrompt(self.prompt, {"columns": lines, "heading": extra}),
            attempts=2,
        )
        if not record.ok:
            logger.warning("%s; using derived names", record.failure())
            return fallback
        out: TableDescription = record.value
        merged: Mapping[str, str] = {
            **fallback.columns,
            **{
                k: v
                for k, v in out.columns.items()
                if k in fallback.columns and v.strip()
            },
        }
        return TableDescription(
            name=safe_table_name(out.name),
            description=out.description.strip()[:500] or fallback.description,
            columns=dict(merged),
        )
