"""Vectors of single words, kept beside a text model's ONNX export.

The rule planner compares a question's words with column names ("spent" ~
"amount"). Encoding those words is what made a cold analytic question load the
text model: half a second and 150 MB for a handful of one-word texts. A
lexicon holds the model's vector of every whole word of its tokenizer's
vocabulary (21,719 words for MiniLM; 33 MB of float32), computed once by the
model itself, so the vectors are the ones it would give (identical on this
machine class: the runner's batches do not change them). A word outside the
lexicon is encoded as before.

The files sit in the export folder, which is keyed by the model and the
packages that made it: ``lexicon.npy`` (a matrix, memory-mapped when read)
and ``lexicon.txt`` (its words, one a line), the text written last, so a
folder with the text holds a complete lexicon.
"""

from __future__ import annotations

import json
import logging
import os
import re
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

logger = logging.getLogger(__name__)

MATRIX = "lexicon.npy"
WORDS = "lexicon.txt"
WORD_RE = re.compile(r"[a-z]{2,}")
"""The vocabulary entries kept: whole lower-case words (not ``##`` pieces)."""
BATCH = 256


def vocabulary_words(tokenizer_file: Path) -> list[str]:
    """The whole words of a ``tokenizer.json``'s vocabulary, in its order."""
    data = json.loads(tokenizer_file.read_text(encoding="utf-8"))
    vocab = (data.get("model") or {}).get("vocab") or {}
    if isinstance(vocab, dict):
        ordered = sorted(vocab, key=lambda w: vocab[w])
    else:  # unigram models list [piece, score] pairs
        ordered = [entry[0] for entry in vocab]
    return [w for w in ordered if WORD_RE.fullmatch(w)]


class Lexicon:
    """A read-only word → vector table (memory-mapped)."""

    def __init__(self, words: Sequence[str], matrix: np.ndarray) -> None:
        self.index = {w: i for i, w in enumerate(words)}
        self.matrix = matrix

    def __len__(self) -> int:
        return len(self.index)

    def vector(self, text: str) -> np.ndarray | None:
        """The text's vector when it is one of the lexicon's words."""
        i = self.index.get(text)
        return None if i is None else np.asarray(self.matrix[i], dtype=np.float32)


_LOADED: dict[Path, Lexicon | None] = {}
_LOCK = threading.Lock()


def read_lexicon(folder: Path) -> Lexicon | None:
    """The lexicon kept in an export folder, or None (read once a process)."""
    with _LOCK:
        if folder in _LOADED:
            return _LOADED[folder]
        lexicon = None
        try:
            words = (folder / WORDS).read_text(encoding="utf-8").split("\n")
            matrix = np.load(folder / MATRIX, mmap_mode="r")
            if matrix.ndim == 2 and matrix.shape[0] == len(words):
                lexicon = Lexicon(words, matrix)
            else:
                logger.warning("ignoring the damaged word lexicon in %s", folder)
        except (OSError, ValueError):
            lexicon = None
        _LOADED[folder] = lexicon
        return lexicon


def build_lexicon(
    folder: Path,
    tokenizer_file: Path,
    encode: Callable[[list[str]], np.ndarray],
    *,
    say: Callable[[str], None] | None = None,
) -> Lexicon | None:
    """Encode the vocabulary's words and keep them in ``folder`` (once).

    ``encode`` is the model's own encoder. About 8 s for MiniLM's 21,719 words
    on 2 cores. Returns None (and logs) when the folder cannot be written: the
    words are then encoded when asked for, as without a lexicon.
    """
    found = read_lexicon(folder)
    if found is not None:
        return found
    words = vocabulary_words(tokenizer_file)
    if not words:
        return None
    if say is not None:
        say(
            f"encoding the text model's {len(words):,} vocabulary words once "
            f"(about {len(words) / 2700:.0f} s), so that questions need no model "
            "for them"
        )
    start = time.perf_counter()
    parts = [encode(words[i : i + 4096]) for i in range(0, len(words), 4096)]
    matrix = np.ascontiguousarray(np.concatenate(parts), dtype=np.float32)
    try:
        _write(folder, words, matrix)
    except OSError as exc:
        logger.warning("cannot keep the word lexicon in %s (%s)", folder, exc)
        return None
    took = time.perf_counter() - start
    logger.info("word lexicon of %d words made in %.1f s", len(words), took)
    with _LOCK:
        _LOADED.pop(folder, None)
    return read_lexicon(folder)


def _write(folder: Path, words: list[str], matrix: np.ndarray) -> None:
    """Both files atomically, the word list last (it marks a complete lexicon)."""
    for name, payload in ((MATRIX, matrix), (WORDS, "\n".join(words))):
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}-")
        try:
            with os.fdopen(fd, "wb") as fh:
                if isinstance(payload, np.ndarray):
                    np.save(fh, payload)
                else:
                    fh.write(payload.encode("utf-8"))
            os.chmod(tmp, 0o644)
            os.replace(tmp, folder / name)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


def lexicon_of(encoder: Any) -> Lexicon | None:
    """The lexicon beside an encoder's ONNX export, when it has both."""
    folder = export_folder_of(encoder)
    return read_lexicon(folder) if folder is not None else None


def export_folder_of(encoder: Any) -> Path | None:
    """The folder of the ONNX export an encoder runs (None: it runs none)."""
    runner = getattr(encoder, "onnx_runner", None)
    folder = getattr(runner, "folder", None)
    return Path(folder) if folder is not None else None


def ensure_lexicon(encoder: Any, say: Callable[[str], None] | None = None) -> None:
    """Make the lexicon beside an encoder's ONNX export when it is missing."""
    runner = getattr(encoder, "onnx_runner", None)
    folder = export_folder_of(encoder)
    if runner is None or folder is None:
        return
    tokenizer = folder / runner.manifest.tokenizer_file
    if read_lexicon(folder) is None and tokenizer.is_file():
        build_lexicon(
            folder, tokenizer, lambda texts: runner.encode(texts, BATCH), say=say
        )
