"""Cached ONNX exports of text encoders, found and run without torch.

An export folder holds the ONNX file, the model's tokenizer as
``tokenizer.json`` and ``manifest.json``: the sequence limit, padding, pooling,
normalization, dimension and input names, i.e. everything a query needs. A
process that finds a current export therefore imports only the ``tokenizers``
package and onnxruntime: no torch, transformers or sentence-transformers, which
take most of a cold ``adamm ask`` (BENCHMARKS.md, "Start-up").

Exports come by one of two recipes. ``"built"``
(:mod:`langgraph_adamm.retrieval.onnx_build`) writes the graph of a BERT model
from its weights with ``onnx.helper``, without torch; ``"torch"``
(:mod:`langgraph_adamm.retrieval.onnx_backend`) exports any model
sentence-transformers loads with ``torch.onnx``. Both give the same vectors
(to rounding) and are found alike: the built one first.

Finding an export costs a hash of short strings and a stat of the model
folder's files. The folder's name is keyed by the recipe and its version
(:data:`CACHE_FORMAT`, :data:`BUILD_FORMAT`), the backend, the model folder's
resolved path and the versions of the packages that make the export, read
from their metadata (not imported): installing or upgrading torch leaves a
built export current.
The manifest lists the model folder's files with their sizes and modification
times, and the SHA-256 of their contents taken at export. When the listing
matches, the export is current; when it does not (a reinstall rewrites the
times), the contents are hashed again: the same digest refreshes the listing,
another means other weights, and the model is exported again.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import logging
import os
import tempfile
import threading
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, ValidationError

from langgraph_adamm.errors import AdaMMError

logger = logging.getLogger(__name__)

CACHE_FORMAT = 3
"""Changes whenever the torch export recipe does (opset, quantization
settings, the files of an export folder). 3: weights in a file of their own."""
BUILD_FORMAT = 2
"""Changes whenever the built recipe does (the graph, its checks, its files).
2: weights in a file of their own."""
EXPORT_PACKAGES = ("torch", "transformers", "sentence-transformers", "onnx")
"""The packages that make a torch export; a new version of one exports again."""
BUILD_PACKAGES = ("onnx", "onnxruntime", "tokenizers")
"""The packages that make a built export."""
Recipe = Literal["built", "torch"]
MANIFEST = "manifest.json"
TOKENIZER = "tokenizer.json"


def cache_dir() -> Path:
    """Where exported models are kept (``ADAMM_CACHE_DIR`` overrides)."""
    root = os.environ.get("ADAMM_CACHE_DIR")
    if root:
        return Path(root).expanduser()
    try:
        return Path.home() / ".cache" / "langgraph_adamm"
    except RuntimeError as exc:  # no home directory
        raise AdaMMError(
            "no home folder for the ONNX export cache; set ADAMM_CACHE_DIR"
        ) from exc


class ExportManifest(BaseModel):
    """What an export folder holds, and what it was made from."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    format: int
    backend: Literal["onnx", "onnx-int8"]
    recipe: Recipe = "torch"
    model: str
    """The encoder's name (what a memory stores as its text encoder)."""
    source: str
    """The model folder exported, resolved; "" for a model named on the hub."""
    files: dict[str, tuple[int, int]]
    """The model folder's files: relative path -> (size, mtime in ns)."""
    digest: str
    """SHA-256 of those files' contents (of the weights for a hub model)."""
    packages: dict[str, str]
    model_file: str
    data_file: str = ""
    """The weights beside the graph ("": inside it). ONNX Runtime maps such a
    file instead of copying a whole model into memory: a session opens with
    about a third of the memory at its peak, in a third of the time."""
    tokenizer_file: str = TOKENIZER
    inputs: list[str]
    max_length: int
    pad_id: int
    pad_token: str
    pad_type_id: int = 0
    padding_side: Literal["left", "right"] = "right"
    truncation_side: Literal["left", "right"] = "right"
    pooling: Literal["mean", "cls"]
    normalize: bool
    dim: int


def package_versions(recipe: Recipe = "torch") -> dict[str, str]:
    """Versions of the packages making a recipe's exports, without importing them."""
    names = BUILD_PACKAGES if recipe == "built" else (*EXPORT_PACKAGES, "onnxruntime")
    out = {}
    for name in names:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "-"
    return out


def recipe_format(recipe: Recipe) -> int:
    """The version of a recipe, which its manifests carry."""
    return BUILD_FORMAT if recipe == "built" else CACHE_FORMAT


def export_folder(
    name: str, source: str, backend: str, weights: str = "", recipe: Recipe = "torch"
) -> Path:
    """The folder of an export of the model at ``source`` (cheap: no file read).

    ``weights`` (a digest of them) keys a hub model's export, ``source`` being "".
    """
    versions = [f"{k}={v}" for k, v in sorted(package_versions(recipe).items())]
    parts = [str(recipe_format(recipe)), backend, source, weights, *versions]
    if recipe != "torch":  # the torch recipe's keys predate the built one
        parts.insert(0, recipe)
    key = hashlib.sha1("|".join(parts).encode()).hexdigest()[:16]
    return cache_dir() / "onnx" / f"{Path(name).name}-{key}"


def source_files(folder: Path) -> dict[str, tuple[int, int]]:
    """The model folder's files, with size and modification time (not hidden ones)."""
    out = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if any(part.startswith(".") for part in rel.parts) or not path.is_file():
            continue
        st = path.stat()
        out[rel.as_posix()] = (st.st_size, st.st_mtime_ns)
    return out


def digest_files(folder: Path, names: Sequence[str]) -> str:
    """SHA-256 over the files' names and contents, in the given order."""
    digest = hashlib.sha256()
    for name in names:
        digest.update(name.encode() + b"\0")
        with open(folder / name, "rb") as fh:
            while block := fh.read(1 << 20):
                digest.update(block)
    return digest.hexdigest()


def read_manifest(folder: Path) -> ExportManifest | None:
    """The folder's manifest, or None when there is none or it does not parse."""
    try:
        text = (folder / MANIFEST).read_text()
    except OSError:
        return None
    try:
        return ExportManifest.model_validate_json(text)
    except ValidationError:
        logger.warning("ignoring the unreadable export manifest in %s", folder)
        return None


def write_manifest(folder: Path, manifest: ExportManifest) -> None:
    """Write the manifest atomically: its presence marks a complete export."""
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".manifest-", suffix=".json")
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(json.dumps(manifest.model_dump(mode="json"), indent=1))
        os.chmod(tmp, 0o644)  # mkstemp's 0600 would hide it from a shared cache
        os.replace(tmp, folder / MANIFEST)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def current_export(folder: Path, source: Path | None) -> ExportManifest | None:
    """The folder's manifest when the export in it is complete and current.

    ``source`` (the model folder) is checked by its file listing and, when that
    changed, by its digest; None (a hub model) checks the folder alone.
    """
    manifest = read_manifest(folder)
    if (
        manifest is None
        or manifest.format != recipe_format(manifest.recipe)
        or manifest.packages != package_versions(manifest.recipe)
        or not (folder / manifest.model_file).is_file()
        or not (folder / manifest.tokenizer_file).is_file()
        or (manifest.data_file and not (folder / manifest.data_file).is_file())
    ):
        return None
    if source is None:
        return manifest
    try:
        files = source_files(source)
        if files == manifest.files:
            return manifest
        if manifest.digest != digest_files(source, list(files)):
            return None  # other weights, or other files: export again
    except OSError:
        return None
    logger.info("model folder %s touched, same contents; reusing its export", source)
    try:
        write_manifest(folder, manifest.model_copy(update={"files": files}))
    except OSError:
        pass  # a read-only cache: the digest is taken again next time
    return manifest


def find_export(name: str, source: Path, backend: str) -> OnnxTextRunner | None:
    """A runner for a current cached export of the model folder, or None.

    A built export is looked for first, then a torch one. Imports nothing
    heavy: a None answer (no export, stale, or onnxruntime or tokenizers
    missing) sends the caller to the export path.
    """
    if any(importlib.util.find_spec(m) is None for m in ("onnxruntime", "tokenizers")):
        return None
    recipes: tuple[Recipe, ...] = ("built", "torch")
    for recipe in recipes:
        folder = export_folder(name, str(source), backend, recipe=recipe)
        manifest = current_export(folder, source)
        made = manifest and (manifest.recipe, manifest.backend, manifest.model)
        if manifest is not None and made == (recipe, backend, name):
            return OnnxTextRunner(folder, manifest)
    return None


def discard_export(folder: Path) -> None:
    """Remove an export's manifest and model files (a damaged export)."""
    for path in folder.glob("*"):
        if path.name == MANIFEST or path.suffix in (".onnx", ".data"):
            path.unlink(missing_ok=True)


KEPT_ENCODINGS = 4096
"""Encodings kept between counting a text and embedding it, at most."""


class OnnxTextRunner:
    """Tokenizes with ``tokenizers`` and runs the exported model with onnxruntime.

    Nothing is loaded until the first call, so that opening a memory costs only
    reading the manifest. Tokenization is the one sentence-transformers applies:
    truncation to ``max_length`` (longest first), padding with the pad token, an
    attention mask, and token types when the model takes them.

    Args:
        folder: The export folder.
        manifest: Its manifest.
    """

    def __init__(self, folder: Path, manifest: ExportManifest) -> None:
        self.folder = folder
        self.manifest = manifest
        self.path = folder / manifest.model_file
        self.dim = manifest.dim
        self.max_length = manifest.max_length
        self._lock = threading.Lock()
        self._session: Any = None
        self._tokenizer: Any = None
        self._counter: Any = None
        self._specials = 0
        self._kept: dict[str, Any] = {}

    def load(self) -> None:
        """Load the tokenizer and the ONNX Runtime session (once).

        Raises:
            AdaMMError: when onnxruntime is missing or the files do not load.
        """
        if self._session is not None:
            return
        with self._lock:
            if self._session is not None:
                return
            try:
                import onnxruntime as ort
            except ImportError as exc:
                raise AdaMMError(
                    "the ONNX text backends need onnxruntime and tokenizers: pip "
                    "install 'langgraph-adamm[onnx]' (or use text_backend='torch')"
                ) from exc
            m = self.manifest
            try:
                tokenizer = self._read_tokenizer()
                options = ort.SessionOptions()
                options.graph_optimization_level = (
                    ort.GraphOptimizationLevel.ORT_ENABLE_ALL
                )
                # Idle workers would spin between calls, taking the cores from
                # the Python work (queries, planning) that runs between them.
                options.add_session_config_entry("session.intra_op.allow_spinning", "0")
                session = ort.InferenceSession(
                    str(self.path), options, providers=["CPUExecutionProvider"]
                )
            except Exception as exc:  # noqa: BLE001 - any damage reads the same
                raise AdaMMError(
                    f"the cached ONNX export in {self.folder} does not load ({exc})"
                ) from exc
            tokenizer.enable_truncation(
                m.max_length, strategy="longest_first", direction=m.truncation_side
            )
            tokenizer.no_padding()  # padded here, to each batch's own width
            self._specials = len(tokenizer.encode("").ids)
            self._tokenizer = tokenizer
            self._session = session

    def _read_tokenizer(self) -> Any:
        try:
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise AdaMMError(
                "the ONNX text backends need the tokenizers package: pip install "
                "tokenizers (or use text_backend='torch')"
            ) from exc
        return Tokenizer.from_file(str(self.folder / self.manifest.tokenizer_file))

    def _encodings(self, texts: Sequence[str]) -> list[Any]:
        """The texts' encodings: those kept by :meth:`count_tokens` taken."""
        self.load()
        kept = self._kept
        found = [kept.pop(t, None) for t in texts] if kept else [None] * len(texts)
        missing = [t for t, e in zip(texts, found, strict=True) if e is None]
        fresh = iter(self._tokenizer.encode_batch(missing) if missing else [])
        return [e if e is not None else next(fresh) for e in found]

    def _pad(self, encodings: Sequence[Any]) -> dict[str, np.ndarray]:
        """The model's inputs for a batch, padded to its longest text."""
        m = self.manifest
        width = max(len(e.ids) for e in encodings)
        batch = {
            "input_ids": np.full((len(encodings), width), m.pad_id, dtype=np.int64),
            "attention_mask": np.zeros((len(encodings), width), dtype=np.int64),
            "token_type_ids": np.full(
                (len(encodings), width), m.pad_type_id, dtype=np.int64
            ),
        }
        for row, e in enumerate(encodings):
            n = len(e.ids)
            cols = slice(0, n) if m.padding_side == "right" else slice(width - n, None)
            batch["input_ids"][row, cols] = e.ids
            batch["attention_mask"][row, cols] = e.attention_mask
            batch["token_type_ids"][row, cols] = e.type_ids
        return batch

    def tokenize(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        """The model's inputs for texts: ids, attention mask, token types."""
        return self._pad(self._encodings(texts))

    def count_tokens(self, text: str) -> int:
        """Tokens of the text without special tokens and untruncated.

        A text that fits the window is read by the model's own tokenizer and
        its encoding kept for :meth:`encode`, which would read it again (a
        view is counted before it is embedded); a longer one by an untruncated
        copy of the tokenizer.
        """
        self.load()
        encoding = self._kept.get(text)
        if encoding is None:
            encoding = self._tokenizer.encode(text)
        if len(encoding.ids) < self.max_length:  # whole: nothing truncated
            self._keep(text, encoding)
            return len(encoding.ids) - self._specials
        if self._counter is None:
            with self._lock:
                if self._counter is None:
                    counter = self._read_tokenizer()
                    counter.no_truncation()
                    counter.no_padding()
                    self._counter = counter
        return len(self._counter.encode(text, add_special_tokens=False).ids)

    def _keep(self, text: str, encoding: Any) -> None:
        if text not in self._kept and len(self._kept) >= KEPT_ENCODINGS:
            self._kept.clear()
        self._kept[text] = encoding

    def prepare_counts(self, texts: Sequence[str]) -> None:
        """Tokenize texts about to be counted in one batch, keeping their encodings.

        The tokenizer's batch call runs on every core, one call per text does
        not; :meth:`count_tokens` then finds a whole text's encoding kept (and
        :meth:`encode` after it). Texts the window truncates are not kept.
        """
        self.load()
        todo = [t for t in dict.fromkeys(texts) if t not in self._kept]
        for text, encoding in zip(
            todo, self._tokenizer.encode_batch(todo) if todo else [], strict=True
        ):
            if len(encoding.ids) < self.max_length:
                self._keep(text, encoding)

    def pooled(self, batch: dict[str, np.ndarray]) -> np.ndarray:
        """The model's pooled vectors of one padded batch, before normalization."""
        hidden = self._session.run(None, {k: batch[k] for k in self.manifest.inputs})[0]
        if self.manifest.pooling == "cls":
            return np.asarray(hidden[:, 0], dtype=np.float32)
        mask = batch["attention_mask"].astype(np.float32)[..., None]
        vecs = (hidden * mask).sum(axis=1) / np.clip(mask.sum(axis=1), 1e-9, None)
        return np.asarray(vecs, dtype=np.float32)

    def encode(self, texts: Sequence[str], batch_size: int = 16) -> np.ndarray:
        """Unit-length embeddings of the texts.

        Texts are tokenized first and batched by token count, a batch closing
        when padding would pass a quarter of its tokens: on a CPU a padded
        position costs as much as a real one, and the vectors do not depend on
        the batch.
        """
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        encodings = self._encodings(texts)
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        batch: list[int] = []
        real = 0
        for i in [*order, None]:
            n = len(encodings[i].ids) if i is not None else 0
            if batch and (
                i is None
                or len(batch) == batch_size
                or (len(batch) + 1) * n > 1.25 * (real + n)
            ):
                out[batch] = self.pooled(self._pad([encodings[j] for j in batch]))
                batch, real = [], 0
            if i is not None:
                batch.append(i)
                real += n
        return unit_rows(out)  # unit rows, as the torch path returns


def unit_rows(m: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (zero rows stay zero), as float32."""
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (m / norms).astype(np.float32)
