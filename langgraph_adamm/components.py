"""What every user's view of one memory database shares, built once.

A :class:`~langgraph_adamm.memory.Memory` is one user's view over these parts:
the database, the configuration, the chat model as the roles call it, the
extractor, the table describer, and the retrieval encoders, which load on first
use (opening a memory for analytic calls costs no model load) and are then
shared by every user's retrieval memory. Each user's view of the same
database is kept here too (:meth:`SharedParts.view`), so that each is built
once, and its retrieval memory comes from :meth:`SharedParts.open_retrieval`,
like every other.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from langgraph_adamm.analytic.extraction.base import Extractor
from langgraph_adamm.analytic.table_descriptions import LLMDescriber, OfflineDescriber
from langgraph_adamm.config import AdaMMConfig
from langgraph_adamm.retrieval.encoders import (
    DEFAULT_TEXT_MODEL,
    SentenceTransformerEncoder,
    TextEncoder,
    VisualEncoder,
    load_visual_encoder,
    retrieval_available,
    vision_available,
    warn_once,
)
from langgraph_adamm.storage.database import MemoryDatabase

if TYPE_CHECKING:
    from langgraph_adamm.chat import StructuredModel
    from langgraph_adamm.memory import Memory
    from langgraph_adamm.retrieval.hierarchy_descriptions import LLMHierarchyDescriber
    from langgraph_adamm.retrieval.memory import RetrievalMemory


class SharedParts:
    """The parts every user's view of one database shares.

    Args:
        db: The open database.
        config: Parameters.
        llm: The chat model as the roles call it (None: offline).
        extractor: Overrides the extractor chosen from ``llm``.
        retrieval: Build retrieval memories: None when their packages are
            installed, False never.
        text_encoder: An encoder, a sentence-transformers model name, or None
            for the packaged MiniLM.
        visual_encoder: An encoder, an open_clip model name, ``"default"`` or None.
        wait: Seconds a writer waits for another process writing the same user.
    """

    def __init__(
        self,
        db: MemoryDatabase,
        config: AdaMMConfig,
        llm: StructuredModel | None,
        extractor: Extractor | None,
        retrieval: bool | None,
        text_encoder: TextEncoder | str | None,
        visual_encoder: VisualEncoder | str | None,
        wait: float,
    ) -> None:
        self.db = db
        self.config = config
        self.llm = llm
        self.wait = wait
        self._extractor = extractor
        self._extractor_lock = threading.Lock()
        self.describer = LLMDescriber(llm) if llm is not None else OfflineDescriber()
        self.hierarchy_describer: LLMHierarchyDescriber | None = None
        if llm is not None:
            from langgraph_adamm.retrieval.hierarchy_descriptions import (
                LLMHierarchyDescriber,
            )

            self.hierarchy_describer = LLMHierarchyDescriber(llm)
        self.retrieval_enabled = retrieval
        self._encoder_spec = (text_encoder, visual_encoder)
        self._encoders: tuple[TextEncoder, VisualEncoder | None] | None = None
        self._text_encoder: TextEncoder | None = None
        self._encoders_lock = threading.Lock()
        self.views: dict[str, Memory] = {}
        """Each user's view of this database, by user id (see :meth:`view`)."""
        self.views_lock = threading.Lock()
        self.before_close: list[Callable[[], None]] = []
        """What must finish before the database closes (an agent middleware's
        turns still being stored)."""

    @property
    def extractor(self) -> Extractor:
        """The extractor given, else the default one, built on first use.

        Reading a memory needs none of the rules' patterns.
        """
        with self._extractor_lock:
            if self._extractor is None:
                self._extractor = _default_extractor(self.llm, self.config)
            return self._extractor

    @property
    def encoders_given(self) -> bool:
        """Whether the encoders came as objects (nothing to load)."""
        text = self._encoder_spec[0]
        return not (text is None or isinstance(text, str))

    def view(self, user_id: str, build: Callable[[str], Memory]) -> Memory:
        """``user_id``'s view of this database, built by ``build`` on first ask.

        One view a user for the database's life: its write lock, caches and
        retrieval memory serve every caller that asks for that user, and the
        graphs, which key their caches by the memory they read, meet the same
        object each time. ``build`` runs under the lock, so two threads asking
        at once get one view.
        """
        with self.views_lock:
            view = self.views.get(user_id)
            if view is None:
                view = self.views[user_id] = build(user_id)
            return view

    def open_retrieval(self, user_id: str) -> RetrievalMemory | None:
        """A user's retrieval memory, or None when it is off.

        On by default when its packages are installed; the encoders load on
        the first call and serve every later one.
        """
        if self.retrieval_enabled is False:
            return None
        if self.retrieval_enabled is None and not retrieval_available():
            warn_once(
                "retrieval-missing",
                "retrieval memory is off: install 'langgraph-adamm[retrieval]' "
                "(sentence-transformers, faiss) to turn it on",
            )
            return None
        # retrieval's modules load here: a question no search serves needs none
        from langgraph_adamm.retrieval.memory import RetrievalMemory

        text, visual = self._loaded_encoders()
        return RetrievalMemory(
            self.db,
            user_id,
            text_encoder=text,
            visual_encoder=visual,
            config=self.config,
            describer=self.hierarchy_describer,
        )

    def text_encoder(self) -> TextEncoder | None:
        """The text encoder retrieval uses, without opening a retrieval memory.

        None when retrieval is off. Built as :meth:`open_retrieval` builds it
        (an ONNX encoder loads its model on its first call); the visual
        encoder is not looked for.
        """
        if self.retrieval_enabled is False or (
            self.retrieval_enabled is None and not retrieval_available()
        ):
            return None
        with self._encoders_lock:
            if self._encoders is not None:
                return self._encoders[0]
            if self._text_encoder is None:
                self._text_encoder = self._load_text_encoder(self._encoder_spec[0])
            return self._text_encoder

    def _loaded_encoders(self) -> tuple[TextEncoder, VisualEncoder | None]:
        with self._encoders_lock:
            if self._encoders is None:
                self._encoders = self._load_encoders(*self._encoder_spec)
            return self._encoders

    def _load_text_encoder(self, text_encoder: Any) -> TextEncoder:
        if text_encoder is None or isinstance(text_encoder, str):
            return SentenceTransformerEncoder(
                text_encoder or DEFAULT_TEXT_MODEL, backend=self.config.text_backend
            )
        return text_encoder

    def _load_encoders(
        self, text_encoder: Any, visual_encoder: Any
    ) -> tuple[TextEncoder, VisualEncoder | None]:
        text = self._text_encoder or self._load_text_encoder(text_encoder)
        visual: VisualEncoder | None
        if visual_encoder == "default":
            visual = load_visual_encoder() if vision_available() else None
            if not vision_available():
                warn_once(
                    "visual-missing",
                    "no visual encoder (install 'langgraph-adamm[vision]'); retrieval "
                    "runs text-only, with captions and OCR text standing for images",
                )
        elif isinstance(visual_encoder, str):
            visual = load_visual_encoder(visual_encoder)
        else:
            visual = visual_encoder
        return text, visual


def _default_extractor(llm: StructuredModel | None, config: AdaMMConfig) -> Extractor:
    """The model's extractor with a model, the rules' without.

    The model extractor's module (and langchain's chat-model classes it
    imports) is loaded only when a model is given.
    """
    if llm is None:
        from langgraph_adamm.analytic.extraction.rule_extractor import RuleExtractor

        return RuleExtractor()
    from langgraph_adamm.analytic.extraction.llm import LLMExtractor

    return LLMExtractor(llm, max_attempts=config.extraction_retries)
