"""LangChain messages as history rounds: how an agent's turns become memory.

A human message and the AI reply that follows it form one round; a human
message with no reply is a round on its own. Text content blocks are joined;
image blocks (``image_url``, ``image`` with a URL or inline data) become the
round's images. Round ids are stable - the human message's id when it has one,
otherwise a hash of the session and content - so adding the same messages twice
stores them once.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from langgraph_adamm.errors import AdaMMError
from langgraph_adamm.history import History, ImageRef, Round, Session, parse_time

MAX_INLINE_IMAGE_CHARS = 8_000_000
"""Inline (base64) images larger than this are refused with a clear error."""

_ROLES = {
    "human": "human",
    "user": "human",
    "ai": "ai",
    "assistant": "ai",
}


def message_role(message: Any) -> str | None:
    """A message's role ("human" or "ai"), or None for other kinds."""
    kind = getattr(message, "type", None)
    if kind is None and isinstance(message, dict):
        kind = message.get("role") or message.get("type")
    return _ROLES.get(str(kind)) if kind is not None else None


def message_content(message: Any) -> Any:
    """A message's content (an object's or a dict's)."""
    if isinstance(message, dict):
        return message.get("content", "")
    return getattr(message, "content", "")


def _image_url(block: dict[str, Any]) -> str | None:
    if block.get("type") == "image_url":
        ref = block.get("image_url")
        return ref.get("url") if isinstance(ref, dict) else ref
    if block.get("type") == "image":
        if block.get("url"):
            return str(block["url"])
        data = block.get("base64") or block.get("data")
        if data:
            if len(data) > MAX_INLINE_IMAGE_CHARS:
                raise AdaMMError(
                    f"an inline image of {len(data)} characters is over the "
                    f"{MAX_INLINE_IMAGE_CHARS} limit; pass it by URL or path"
                )
            mime = block.get("mime_type") or "image/png"
            return f"data:{mime};base64,{data}"
    return None


def content_parts(content: Any, where: str) -> tuple[str, list[str]]:
    """Text and image URLs of a message's content."""
    if isinstance(content, str):
        return content, []
    if not isinstance(content, list):
        raise AdaMMError(f"{where}: content must be text or a list of content blocks")
    texts, images = [], []
    for block in content:
        if isinstance(block, str):
            texts.append(block)
        elif isinstance(block, dict):
            if block.get("type") == "text":
                texts.append(str(block.get("text", "")))
            else:
                url = _image_url(block)
                if url:
                    images.append(url)
    return "\n".join(t for t in texts if t), images


def _when(time: str | datetime | None) -> datetime:
    if isinstance(time, datetime):
        return time.replace(tzinfo=None) if time.tzinfo else time
    if time is None:
        return datetime.now().replace(microsecond=0)
    try:
        return parse_time(time)
    except ValueError as exc:
        raise AdaMMError(f"time: {exc}") from None


def messages_to_history(
    messages: Sequence[Any],
    user_id: str,
    *,
    session_id: str | None = None,
    time: str | datetime | None = None,
) -> History:
    """The rounds of a message list, as a one-session history.

    Raises:
        AdaMMError: for content that is neither text nor content blocks, an
            unparsable time, or an oversized inline image.
    """
    when = _when(time)
    session = session_id or f"chat-{when.date().isoformat()}"
    rounds: list[Round] = []
    pending: tuple[str, str, list[str]] | None = None

    def close(user: str, user_id_: str, images: list[str], reply: str) -> None:
        digest = hashlib.sha256(
            f"{session}\x1f{user}\x1f{reply}\x1f{len(rounds)}".encode(
                "utf-8", "surrogatepass"
            )
        ).hexdigest()[:16]
        rid = user_id_ or f"{session}:{digest}"
        refs = tuple(
            ImageRef(image_id=f"{rid}:IMG_{i}", url=url)
            for i, url in enumerate(images, 1)
        )
        if user or reply or refs:
            rounds.append(
                Round(rid, session, when, user=user, assistant=reply, images=refs)
            )

    for i, message in enumerate(messages):
        role = message_role(message)
        if role is None:
            continue
        text, images = content_parts(message_content(message), f"messages[{i}]")
        if role == "ai" and not text.strip() and not images:
            continue  # a tool-calling step, not a reply
        if role == "human":
            if pending is not None:
                close(pending[0], pending[1], pending[2], "")
            mid = getattr(message, "id", None) or (
                message.get("id") if isinstance(message, dict) else None
            )
            pending = (text, str(mid) if mid else "", images)
        elif pending is not None:
            close(pending[0], pending[1], pending[2] + images, text)
            pending = None
        elif text or images:  # an AI message with no question before it
            close("", "", images, text)
    if pending is not None:
        close(pending[0], pending[1], pending[2], "")
    return History(
        user_id=user_id, sessions=(Session(session, when.date(), tuple(rounds)),)
    )
