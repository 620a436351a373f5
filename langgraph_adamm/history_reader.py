"""The reader of history and question files: it never guesses.

Decoding (BOM, UTF-16, stray bytes), JSON documents and JSON Lines, the
format's invariants per session and round, and a problem report that names the
file, the line or JSON path and the field of every bad round while the valid
rounds are kept. The data model it builds is :mod:`langgraph_adamm.history`,
whose :func:`~langgraph_adamm.history.read_history`,
:func:`~langgraph_adamm.history.history_from_dict` and
:func:`~langgraph_adamm.history.read_questions` are the public entry points.
"""

from __future__ import annotations

import json
import math
import re
import sys
from datetime import date, datetime
from pathlib import Path
from typing import Any

from langgraph_adamm.errors import HistoryFormatError
from langgraph_adamm.history import (
    DEFAULT_USER_ID,
    History,
    HistoryProblem,
    HistoryReadResult,
    ImageRef,
    Question,
    Round,
    Session,
    parse_time,
)


class _RoundProblem(Exception):
    def __init__(self, field_path: str, message: str) -> None:
        super().__init__(message)
        self.field_path = field_path
        self.message = message


def _opt_str(obj: dict[str, Any], key: str, where: str) -> str | None:
    """An optional string field; ``where`` locates the object that holds it."""
    value = obj.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        sep = "" if not where or where.endswith((".", ": ")) else "."
        raise _RoundProblem(
            f"{where}{sep}{key}", f"expected a string, got {type(value).__name__}"
        )
    return value


class _Builder:
    """Accumulates sessions and rounds, enforcing the format's invariants."""

    def __init__(self, file: Path) -> None:
        self.file = file
        self.base_dir = file.parent
        self.problems: list[HistoryProblem] = []
        self.sessions: dict[str, tuple[date | None, list[Round]]] = {}
        self.round_ids: set[str] = set()
        self.bad_lines: set[int] = set()

    def problem(self, location: str, message: str, fatal: bool = True) -> None:
        self.problems.append(HistoryProblem(str(self.file), location, message, fatal))

    def add_session(self, session_id: str, session_date: date | None) -> None:
        self.sessions.setdefault(session_id, (session_date, []))

    def add_round(
        self,
        raw: Any,
        session_id: str,
        session_date: date | None,
        location: str,
        field_prefix: str,
    ) -> None:
        """Validate one raw round; report it and move on when it is bad."""
        self.notes: list[tuple[str, str]] = []
        try:
            rnd = self._parse_round(raw, session_id, session_date, field_prefix)
        except _RoundProblem as exc:
            self.problem(f"{location}{exc.field_path}", exc.message)
            return
        if rnd.round_id in self.round_ids:
            self.problem(
                f"{location}{field_prefix}round_id",
                f"duplicate round_id {rnd.round_id!r} (the first one is kept)",
            )
            return
        self.round_ids.add(rnd.round_id)
        for where_in_round, message in self.notes:
            where = (
                f"{location}{field_prefix}{where_in_round}"
                if where_in_round
                else location
            )
            self.problem(where, message, fatal=False)
        for img in rnd.images:
            if img.problem:
                self.problem(
                    f"{location}{field_prefix}images[{img.image_id}]",
                    img.problem,
                    fatal=False,
                )
        self.sessions[session_id][1].append(rnd)

    def _parse_round(
        self, raw: Any, session_id: str, session_date: date | None, prefix: str
    ) -> Round:
        if not isinstance(raw, dict):
            raise _RoundProblem(
                prefix.rstrip("."), f"expected an object, got {type(raw).__name__}"
            )
        n = len(self.sessions[session_id][1]) + 1
        round_id = _opt_str(raw, "round_id", prefix)
        if round_id is not None and not round_id.strip():
            raise _RoundProblem(f"{prefix}round_id", "must not be empty")
        round_id = round_id or f"{session_id}:{n}"
        time: datetime | None = None
        if raw.get("time") is not None:
            try:
                time = parse_time(raw["time"])
            except (ValueError, OverflowError) as exc:
                raise _RoundProblem(f"{prefix}time", str(exc)) from None
        elif session_date is not None:
            time = datetime.combine(session_date, datetime.min.time())
        user = _opt_str(raw, "user", prefix) or ""
        assistant = _opt_str(raw, "assistant", prefix) or ""
        images_raw = raw.get("images") or []
        if not isinstance(images_raw, list):
            raise _RoundProblem(f"{prefix}images", "expected a list of image objects")
        images = tuple(
            self._parse_image(img, round_id, i, f"{prefix}images[{i}]")
            for i, img in enumerate(images_raw)
        )
        seen_ids: set[str] = set()
        renamed = []
        for img in images:
            image_id, n = img.image_id, 2
            while image_id in seen_ids:
                image_id, n = f"{img.image_id}#{n}", n + 1
            if image_id != img.image_id:
                self.notes.append(
                    (
                        "images",
                        f"duplicate image_id {img.image_id[:40]!r} renamed "
                        f"{image_id[:44]!r}",
                    )
                )
                img = ImageRef(
                    image_id, img.path, img.url, img.caption, img.ocr, img.problem
                )
            seen_ids.add(image_id)
            renamed.append(img)
        images = tuple(renamed)
        size = (
            len(user)
            + len(assistant)
            + sum(len(i.caption or "") + len(i.ocr or "") for i in images)
        )
        if size > MAX_ROUND_CHARS:
            raise _RoundProblem(
                "",
                f"round text is {size:,} characters (at most {MAX_ROUND_CHARS:,}); "
                "round skipped",
            )
        if not (user.strip() or assistant.strip() or images):
            raise _RoundProblem(
                "",
                "a round needs at least one of 'user', 'assistant' or an image",
            )
        metadata = raw.get("metadata") or {}
        if not isinstance(metadata, dict):
            raise _RoundProblem(f"{prefix}metadata", "expected an object")
        depth = _depth(metadata)
        if depth > MAX_METADATA_DEPTH:
            raise _RoundProblem(
                f"{prefix}metadata",
                f"nested {depth} deep (at most {MAX_METADATA_DEPTH}); round skipped",
            )
        fixed: list[str] = []
        round_id, user, assistant = (
            _clean(round_id, fixed),
            _clean(user, fixed),
            _clean(assistant, fixed),
        )
        images = tuple(
            ImageRef(
                _clean(i.image_id, fixed),
                i.path,
                i.url,
                _clean(i.caption, fixed) if i.caption else i.caption,
                _clean(i.ocr, fixed) if i.ocr else i.ocr,
                i.problem,
            )
            for i in images
        )
        metadata = _clean_json(metadata, fixed)
        if fixed:
            self.notes.append(
                (
                    "",
                    "invalid text (lone surrogates or NUL) replaced with U+FFFD in "
                    + ", ".join(sorted(set(fixed))),
                )
            )
        return Round(
            round_id=round_id,
            session_id=session_id,
            time=time,
            user=user,
            assistant=assistant,
            images=images,
            metadata=metadata,
        )

    def _parse_image(self, raw: Any, round_id: str, i: int, where: str) -> ImageRef:
        if not isinstance(raw, dict):
            raise _RoundProblem(where, "expected an image object")
        path = _opt_str(raw, "path", where)
        url = _opt_str(raw, "url", where)
        caption = _opt_str(raw, "caption", where)
        ocr = _opt_str(raw, "ocr", where)
        if not (path or url or caption):
            raise _RoundProblem(
                where, "an image needs at least one of 'path', 'url' or 'caption'"
            )
        image_id = _opt_str(raw, "image_id", where) or f"{round_id}:IMG_{i + 1}"
        problem = None
        if path:
            try:
                resolved = (self.base_dir / path).resolve()
                found = resolved.is_file()
            except (OSError, ValueError) as exc:
                raise _RoundProblem(
                    f"{where}.path", f"unusable image path: {exc}"
                ) from None
            if not found:
                problem = f"image file not found: {resolved}"
            path = str(resolved)
        return ImageRef(image_id, path, url, caption, ocr, problem)

    def result(self, user_id: str) -> HistoryReadResult:
        sessions = tuple(
            Session(sid, sdate, tuple(rounds))
            for sid, (sdate, rounds) in self.sessions.items()
        )
        return HistoryReadResult(History(user_id, sessions), tuple(self.problems))


def _session_date(raw: Any, builder: _Builder, where: str) -> date | None:
    if raw is None:
        return None
    try:
        return parse_time(raw).date()
    except ValueError as exc:
        builder.problem(where, f"{exc}; the session's rounds keep their own times")
        return None


def _read_document(doc: Any, builder: _Builder) -> str:
    if not isinstance(doc, dict) or not isinstance(doc.get("sessions"), list):
        raise HistoryFormatError(
            f"{builder.file}: expected a JSON object with a 'sessions' list "
            "(see docs/history-format.md), or JSON Lines with one round per line"
        )
    user_id = doc.get("user_id", DEFAULT_USER_ID)
    if not isinstance(user_id, str) or not user_id:
        raise HistoryFormatError(f"{builder.file}: user_id must be a non-empty string")
    if _INVALID_TEXT_RE.search(user_id):
        raise HistoryFormatError(
            f"{builder.file}: user_id is not valid text (lone surrogates or NUL)"
        )
    for si, sess in enumerate(doc["sessions"]):
        where = f"sessions[{si}]"
        if not isinstance(sess, dict):
            builder.problem(where, "expected a session object; session skipped")
            continue
        sid = sess.get("session_id")
        if not isinstance(sid, str) or not sid:
            builder.problem(f"{where}.session_id", "missing or not a string")
            continue
        sid = _INVALID_TEXT_RE.sub("\ufffd", sid)
        if sid in builder.sessions:
            builder.problem(f"{where}.session_id", f"duplicate session_id {sid!r}")
            continue
        sdate = _session_date(sess.get("date"), builder, f"{where}.date")
        builder.add_session(sid, sdate)
        rounds = sess.get("rounds")
        if not isinstance(rounds, list):
            builder.problem(f"{where}.rounds", "expected a list of rounds")
            continue
        for ri, raw in enumerate(rounds):
            builder.add_round(raw, sid, sdate, f"{where}.rounds[{ri}]", ".")
    return user_id


def _read_lines(text: str, builder: _Builder) -> str:
    user_id: str | None = None
    # Split on "\n" only, as the decoder counts lines: U+2028 and friends are
    # text inside a round, not line breaks.
    for lineno, line in enumerate(text.split("\n"), start=1):
        line = line.removesuffix("\r")
        if not line.strip():
            continue
        where = f"line {lineno}"
        if lineno in builder.bad_lines:
            continue  # reported when the file was decoded
        try:
            raw = _loads(line)
        except json.JSONDecodeError as exc:
            builder.problem(where, f"invalid JSON: {exc.msg} at column {exc.colno}")
            continue
        except RecursionError:
            builder.problem(where, "JSON nested too deeply")
            continue
        if not isinstance(raw, dict):
            builder.problem(where, "expected one JSON object per line")
            continue
        sid = raw.get("session_id")
        if not isinstance(sid, str) or not sid:
            builder.problem(f"{where}: session_id", "missing or not a string")
            continue
        sid = _INVALID_TEXT_RE.sub("\ufffd", sid)
        uid = raw.get("user_id")
        if isinstance(uid, str) and _INVALID_TEXT_RE.search(uid):
            builder.problem(
                f"{where}: user_id", "not valid text (lone surrogates or NUL)"
            )
            continue
        if uid is not None and (not isinstance(uid, str) or not uid):
            builder.problem(f"{where}: user_id", "must be a non-empty string")
            continue
        if uid is not None:
            if user_id is not None and uid != user_id:
                builder.problem(
                    f"{where}: user_id",
                    f"{uid!r} differs from {user_id!r} earlier in the file",
                )
                continue
            user_id = uid
        sdate = None
        if sid not in builder.sessions:
            sdate = _session_date(raw.get("date"), builder, f"{where}: date")
            builder.add_session(sid, sdate)
        else:
            sdate = builder.sessions[sid][0]
            if sdate is None and raw.get("date") is not None:
                sdate = _session_date(raw.get("date"), builder, f"{where}: date")
        builder.add_round(raw, sid, sdate, where, ": ")
    return user_id or DEFAULT_USER_ID


MAX_ROUND_CHARS = 200_000
"""A round whose texts (user, assistant, captions, OCR) are longer is skipped
and reported: no dialogue turn is that long, and extraction time grows with it."""
MAX_METADATA_DEPTH = 32
_INVALID_TEXT_RE = re.compile("[\ud800-\udfff\x00]")


def _clean(text: str, fixed: list[str]) -> str:
    """Text with lone surrogates (invalid Unicode) and NUL replaced by U+FFFD.

    No text column of PostgreSQL can hold NUL, so neither engine keeps it.
    """
    if _INVALID_TEXT_RE.search(text):
        fixed.append("text")
        return _INVALID_TEXT_RE.sub("\ufffd", text)
    return text


def _clean_json(value: Any, fixed: list[str]) -> Any:
    if isinstance(value, str):
        return _clean(value, fixed)
    if isinstance(value, dict):
        return {_clean(str(k), fixed): _clean_json(v, fixed) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean_json(v, fixed) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)  # JSON has no NaN or Infinity: kept as text
    return value


def _depth(value: Any) -> int:
    """Nesting depth of a JSON value, without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, d = stack.pop()
        deepest = max(deepest, d)
        if isinstance(item, dict):
            stack.extend((v, d + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, d + 1) for v in item)
    return deepest


MAX_INT_DIGITS = 1000
"""Integers longer than this are kept as text (Python refuses to convert more
than 4,300 digits, and no round needs such a number)."""


def _parse_int(digits: str) -> int | str:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        return f"{digits[:20]}... ({len(digits)} digits)"
    return int(digits)


def _loads(text: str) -> Any:
    """JSON with long integers kept as text, nested up to 10,000 levels.

    Deep nesting is read so that one deeply nested round is reported as that
    round's problem instead of rejecting the file.
    """
    try:
        return json.loads(text, parse_int=_parse_int)
    except RecursionError:
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 10_000))
        try:
            return json.loads(text, parse_int=_parse_int)
        finally:
            sys.setrecursionlimit(limit)


def _decode(data: bytes, builder: _Builder) -> str:
    """The file's text: UTF-8 (with or without BOM) or UTF-16/32 with a BOM.

    Undecodable bytes do not reject the file: in JSON Lines the line that holds
    them is reported and skipped; in a JSON document they are replaced (U+FFFD)
    and reported.
    """
    for bom, codec in (
        (b"\xff\xfe\x00\x00", "utf-32"),
        (b"\x00\x00\xfe\xff", "utf-32"),
        (b"\xff\xfe", "utf-16"),
        (b"\xfe\xff", "utf-16"),
    ):
        if data.startswith(bom):
            try:
                return data.decode(codec)
            except UnicodeDecodeError as exc:
                raise HistoryFormatError(
                    f"{builder.file}: not valid {codec.upper()} at byte {exc.start}"
                ) from None
    if len(data) >= 4 and data[1:4:2] == b"\x00\x00" and data[0:1] != b"\x00":
        try:  # UTF-16 LE without a BOM ("{\x00\"\x00")
            return data.decode("utf-16-le")
        except UnicodeDecodeError:
            pass
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    lines = []
    for lineno, raw in enumerate(data.split(b"\n"), start=1):
        try:
            lines.append(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            builder.problem(
                f"line {lineno}",
                f"not valid UTF-8 at byte {exc.start} of the line (in JSON Lines "
                "the line is skipped; in a JSON document the bytes are replaced)",
                fatal=False,
            )
            lines.append(raw.decode("utf-8", errors="replace"))
            builder.bad_lines.add(lineno)
    return "\n".join(lines)


def read_file(path: str | Path, *, strict: bool = False) -> HistoryReadResult:
    """A history file read as :func:`~langgraph_adamm.history.read_history` says."""
    file = Path(path)
    try:
        data = file.read_bytes()
    except OSError as exc:
        raise HistoryFormatError(f"{file}: cannot read history file: {exc}") from None
    builder = _Builder(file)
    text = _decode(data, builder)
    if file.suffix.lower() in (".jsonl", ".ndjson"):
        user_id = _read_lines(text, builder)
    else:
        try:
            doc = _loads(text)
        except RecursionError:
            raise HistoryFormatError(f"{file}: JSON nested too deeply") from None
        except json.JSONDecodeError as exc:
            if exc.msg != "Extra data":
                raise HistoryFormatError(
                    f"{file}: line {exc.lineno} column {exc.colno}: invalid JSON: "
                    f"{exc.msg}"
                ) from exc
            user_id = _read_lines(text, builder)
        else:
            user_id = _read_document(doc, builder)
    result = builder.result(user_id)
    if strict and result.problems:
        raise HistoryFormatError(
            "; ".join(str(p) for p in result.problems[:20])
            + (
                f" (and {len(result.problems) - 20} more)"
                if len(result.problems) > 20
                else ""
            )
        )
    return result


def read_document(doc: dict[str, Any], base_dir: str | Path = ".") -> History:
    """A history from a JSON document; see :func:`.history.history_from_dict`."""
    builder = _Builder(Path(base_dir) / "<memory>")
    user_id = _read_document(doc, builder)
    if builder.problems:
        raise HistoryFormatError("; ".join(str(p) for p in builder.problems[:20]))
    return builder.result(user_id).history


def read_question_file(path: str | Path) -> list[Question]:
    """A questions file read as :func:`~langgraph_adamm.history.read_questions` says."""
    file = Path(path)
    questions: list[Question] = []
    for lineno, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        where = f"{file}: line {lineno}"
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as exc:
            raise HistoryFormatError(f"{where}: invalid JSON: {exc.msg}") from exc
        if not isinstance(raw, dict) or not isinstance(raw.get("question"), str):
            raise HistoryFormatError(f"{where}: question: expected a string")
        qtime = None
        if raw.get("question_time") is not None:
            try:
                qtime = parse_time(raw["question_time"])
            except ValueError as exc:
                raise HistoryFormatError(f"{where}: question_time: {exc}") from None
        known = {
            "question_id",
            "question",
            "answer",
            "type",
            "evidence",
            "question_time",
        }
        answer = raw.get("answer")
        if isinstance(answer, float) and math.isfinite(answer):
            answer = repr(answer)
        questions.append(
            Question(
                question_id=str(raw.get("question_id") or f"q{len(questions) + 1}"),
                question=raw["question"],
                answer=None if answer is None else str(answer),
                type=raw.get("type"),
                evidence=tuple(str(e) for e in raw.get("evidence") or ()),
                question_time=qtime,
                extra={k: v for k, v in raw.items() if k not in known},
            )
        )
    return questions
