"""An offline extractor that needs no model: labelled values only.

It reads the structure people and apps give labelled values, whatever the
record: ``label: value`` / ``label = value`` / ``label value`` / ``value
label`` items, separated by commas, semicolons, pipes, bullets, middle dots,
dashes, list markers ("1)", "2.", "-", "•") or new lines, under an optional
heading ("Sleep dashboard - Total sleep 7.1 h"); space-separated ``key=value``
runs; JSON objects and arrays of objects; markdown or pipe tables (a table of
several rows is several records); OCR that stacks a label over its value. The
value itself (units, locales, ranges, durations, annotations) is read by
:func:`~langgraph_adamm.analytic.values.parse_value`.

It does not guess at free prose ("slept badly, maybe six hours"); that is the
LLM extractor's job.

:class:`RuleExtractor` composes the readers, each a module of its own: JSON
(:mod:`.json_records`), tables (:mod:`.tabular`), items and lists
(:mod:`.lists`), ``key: value`` fields (:mod:`.key_value`), prose "label value"
runs (:mod:`.prose`), over the shared label and value tests (:mod:`.labels`);
then the currency a record states once (:mod:`.currency`). A record's heading
is read by :mod:`.headings`.
"""

from __future__ import annotations

import re

from langgraph_adamm.analytic.extraction.base import (
    Observation,
    Provenance,
    SourceKind,
    SyncExtractor,
    make_observation,
)
from langgraph_adamm.analytic.extraction.currency import (
    MONEY_HINT_RE,
    with_currency,
)
from langgraph_adamm.analytic.extraction.documents import (
    currency_of,
    document_items,
    envelope_lines,
    first_line_name,
    heading_name,
    item_pairs,
    unlabelled_total,
)
from langgraph_adamm.analytic.extraction.headings import (
    field_starts,
    heading_of,
    record_heading,
)
from langgraph_adamm.analytic.extraction.json_records import (
    flatten_fields,
    json_values,
    records_of,
)
from langgraph_adamm.analytic.extraction.key_value import (
    key_value_pairs,
    separators_as_colons,
)
from langgraph_adamm.analytic.extraction.labels import (
    DATE_TOKEN_RE,
    Pair,
    is_heading_key,
)
from langgraph_adamm.analytic.extraction.lists import (
    list_items,
    list_records,
)
from langgraph_adamm.analytic.extraction.prose import find_label_values
from langgraph_adamm.analytic.extraction.tabular import (
    delimited_tables,
    pipe_tables,
    stacked_pairs,
)
from langgraph_adamm.analytic.values import normalize_attribute
from langgraph_adamm.history import Round

_DATE_VALUE_RE = re.compile(
    rf"^(?:{DATE_TOKEN_RE.pattern})(?:\s+(?:{DATE_TOKEN_RE.pattern})){{0,2}}$",
    re.IGNORECASE,
)
_MISSING = frozenset({"", "-", "–", "—", "n/a", "na", "none", "null", "nil", "?"})
_QUESTION_RE = re.compile(
    r"(?<=[A-Za-z])\?\s(?=(?:yes|no|true|false|y|n)\b|[✓✔✗✘]|\d)", re.IGNORECASE
)


class RuleExtractor(SyncExtractor):
    """Extracts explicit attribute-value pairs from every text a round carries."""

    def extract(self, round_: Round) -> list[Observation]:
        """Observations from dialogue, captions, OCR text and metadata.

        A round that lists several records (a JSON array, a table of several
        rows) yields one record number per record; record 0 is the round's own.
        """
        out: list[Observation] = []
        sources: list[tuple[SourceKind, str | None, str]] = [
            ("user", None, round_.user),
            ("assistant", None, round_.assistant),
        ]
        for img in round_.images:
            if img.caption:
                sources.append(("caption", img.image_id, img.caption))
            if img.ocr:
                sources.append(("ocr", img.image_id, img.ocr))
        next_record = 1
        for source, image_id, text in sources:
            if text and text.strip():
                found = self.extract_text(
                    text, round_.round_id, source, image_id, first_record=next_record
                )
                out.extend(found)
                next_record = (
                    max([next_record - 1, *(o.provenance.record for o in found)]) + 1
                )
        for key, value in flatten_fields(round_.metadata):
            obs = make_observation(key, value, Provenance(round_.round_id, "metadata"))
            if obs:
                out.append(obs)
        return out

    def extract_text(
        self,
        text: str,
        round_id: str,
        source: SourceKind,
        image_id: str | None = None,
        *,
        first_record: int = 1,
    ) -> list[Observation]:
        """Observations from one text; each attribute once per record (first wins).

        Records listed in the text (JSON arrays, tables of several rows) are
        numbered from ``first_record``; everything else is record 0.
        """
        pairs: list[Pair] = []
        masked = list(text)
        record = first_record

        def mask(start: int, end: int) -> None:
            masked[start:end] = " " * (end - start)

        for obj, start, end in list(json_values(text)):
            recs = records_of(obj)
            for rec in recs:
                rec_no = record if len(recs) > 1 else 0
                pairs.extend(
                    (rec_no, k, v, (start, end)) for k, v in flatten_fields(rec)
                )
                record += 1 if len(recs) > 1 else 0
            mask(start, end)
        lines = "".join(masked).split("\n")
        line_starts = [0]
        for ln in lines[:-1]:
            line_starts.append(line_starts[-1] + len(ln) + 1)
        blocks = list(pipe_tables(lines))
        taken = {n for first, last, _ in blocks for n in range(first, last)}
        blocks += [
            b
            for b in delimited_tables(lines)
            if not any(n in taken for n in range(b[0], b[1]))
        ]
        table_lines: set[int] = set()
        for first, last, table_records in blocks:
            span = (line_starts[first], line_starts[last - 1] + len(lines[last - 1]))
            for row in table_records:
                rec_no = record if len(table_records) > 1 else 0
                pairs.extend((rec_no, k, v, span) for k, v in row)
                record += 1 if len(table_records) > 1 else 0
            mask(*span)
            table_lines.update(range(first, last))
        # A forwarded e-mail's envelope is no record's; a document's line items
        # are records of their own (see .documents).
        envelope = envelope_lines(lines)
        for n in envelope:
            mask(line_starts[n], line_starts[n] + len(lines[n]))
        items = document_items(lines, line_starts, table_lines | envelope)
        if items:
            found_items, record = item_pairs(items, record, currency_of(text))
            pairs.extend(found_items)
            for it in items:
                mask(it.start, it.end)
            total = unlabelled_total(text)
            if total is not None:
                mask(*total[1])
            merchant = heading_name(text, items[0])
            if merchant is not None:  # "small shop at Aldi: peppers 2.19, ..."
                mask(text.rfind("\n", 0, items[0].start) + 1, items[0].start)
            else:  # a photographed or pasted receipt: its first line
                merchant = first_line_name(lines, line_starts, capitals=source != "ocr")
        # "Won? ✓" asks and answers: read it as "Won: ✓" (same length, so spans hold).
        rest = separators_as_colons(_QUESTION_RE.sub(": ", "".join(masked)))
        found: list[tuple[int, list[Pair]]] = []
        for offset, clause, group in list_items(rest):
            if not clause.strip():
                continue
            kv = list(key_value_pairs(clause, offset))
            if not kv:
                kv = find_label_values(clause, offset)
            found.append((group, [(0, k, v, s) for k, v, s in kv]))
        pairs.extend(list_records(found, record))
        if source == "ocr":
            pairs.extend((0, k, v, s) for k, v, s in stacked_pairs(lines, line_starts))
        if items:
            own = {
                normalize_attribute(str(k))[0]
                for rec_no, k, _, _ in pairs
                if rec_no == 0
            }
            if total is not None and not any("total" in k for k in own):
                pairs.append((0, "total", total[0], total[1]))
            if merchant is not None and not own & {"merchant", "store", "shop"}:
                # the name is no label of the line below it ("TRATTORIA ROMA"
                # over "Table 12")
                pairs = [p for p in pairs if p[1] != merchant[2]]
                pairs.append(merchant)
        if MONEY_HINT_RE.search(text):
            pairs = with_currency(pairs)
        seen: set[tuple[int, str]] = set()
        out = []
        for rec_no, key, value, span in pairs:
            if isinstance(value, str):
                value = value.strip()
                if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
                    value = value[1:-1]
                if value.lower() in _MISSING:
                    continue
            if (
                isinstance(value, str)
                and is_heading_key(str(key))
                and _DATE_VALUE_RE.match(value)
                and not value.strip().isdigit()
            ):
                continue  # "Piano practice log 2026-03-02": the record's date
            obs = make_observation(
                str(key), value, Provenance(round_id, source, image_id, span, rec_no)
            )
            if obs and (rec_no, obs.attribute) not in seen:
                seen.add((rec_no, obs.attribute))
                out.append(obs)
        return out


__all__ = ["RuleExtractor", "field_starts", "heading_of", "record_heading"]
