"""ONNX Runtime backends for sentence-transformers text encoders (CPU speed).

``backend="onnx"`` runs the same transformer through ONNX Runtime (fp32: the
same vectors as torch, to rounding; on this machine class no faster);
``backend="onnx-int8"`` quantizes its matrix multiplications to int8 per channel
(dynamic quantization): 1.6-1.7x the encoder throughput on a 2-core CPU, with
vectors a little off torch's (mean cosine 0.993; BENCHMARKS.md).

This module makes the torch export, for the models that
:mod:`langgraph_adamm.retrieval.onnx_build` cannot write without torch (other
architectures, hub models): the model is exported from the local weights with
``torch.onnx.export`` - no hub, no network - into a folder under
``$ADAMM_CACHE_DIR`` (default ``~/.cache/langgraph_adamm``) together with its
tokenizer and a manifest, so that a later process finds and runs it without
torch (:mod:`langgraph_adamm.retrieval.onnx_cache`). Each export is checked,
through that torch-free runner, against the torch model on probe sentences and
refused when it drifts. Pooling (mean or CLS) and normalization follow the
model's own modules.
"""

from __future__ import annotations

import hashlib
import logging
import tempfile
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from langgraph_adamm.errors import AdaMMError
from langgraph_adamm.retrieval.onnx_build import (
    MIN_PROBE_COSINE,
    PROBES,
    check_probes,
    data_file,
    exporting,
    finish,
    make_folder,
    publish,
)
from langgraph_adamm.retrieval.onnx_cache import (
    CACHE_FORMAT,
    TOKENIZER,
    ExportManifest,
    OnnxTextRunner,
    current_export,
    digest_files,
    discard_export,
    export_folder,
    package_versions,
    source_files,
)

logger = logging.getLogger(__name__)

__all__ = ["MIN_PROBE_COSINE", "PROBES", "OnnxTextModel"]


def _require() -> Any:
    try:
        import onnxruntime
        import tokenizers  # noqa: F401
        from onnxruntime.quantization import QuantType, quantize_dynamic  # noqa: F401
    except ImportError as exc:
        raise AdaMMError(
            "the ONNX text backends need onnxruntime and onnx: pip install "
            "'langgraph-adamm[onnx]' (or use text_backend='torch')"
        ) from exc
    return onnxruntime


def _weights_digest(st_model: Any) -> str:
    """SHA-256 of the parameters (a hub model, whose files are not at hand)."""
    digest = hashlib.sha256()
    for param in st_model.parameters():
        digest.update(param.detach().cpu().numpy().tobytes())
    return digest.hexdigest()


class OnnxTextModel:
    """A sentence-transformers model exported to ONNX, run through ONNX Runtime.

    The export is made once and cached; :attr:`runner` runs it (the torch-free
    path a later process takes straight away).

    Args:
        st_model: The loaded ``SentenceTransformer`` (its tokenizer, sequence
            limit, pooling and weights are used).
        backend: ``"onnx"`` or ``"onnx-int8"``.
        name: The model's name, for file names and messages.
        source: The local model folder it was loaded from; the export is keyed
            by it and found again without torch. None (a hub model): keyed by
            the weights, found again only after loading them.

    Raises:
        AdaMMError: when onnxruntime is missing, the model's layout is not
            transformer → pooling (mean or CLS) → optional normalize, its
            tokenizer is not a fast one, or the export drifts from torch on the
            probe sentences.
    """

    def __init__(
        self, st_model: Any, backend: str, name: str, source: Path | None = None
    ) -> None:
        if backend not in ("onnx", "onnx-int8"):
            raise AdaMMError(f"unknown ONNX backend {backend!r}: use onnx or onnx-int8")
        _require()
        self.backend = backend
        self.name = name
        self.source = source
        self._st = st_model
        modules = list(st_model)
        kinds = [type(m).__name__ for m in modules]
        if (
            not kinds
            or kinds[0] != "Transformer"
            or kinds[1:2] != ["Pooling"]
            or not set(kinds[2:]) <= {"Normalize"}
        ):
            raise AdaMMError(
                f"text model {name!r} ({' → '.join(kinds)}) is not transformer → "
                "pooling (→ normalize); the ONNX backends support those models only"
            )
        pooling = modules[1]
        mode = getattr(pooling, "pooling_mode", None) or (
            "mean" if getattr(pooling, "pooling_mode_mean_tokens", False) else
            "cls" if getattr(pooling, "pooling_mode_cls_token", False) else "?"
        )  # fmt: skip
        if mode not in ("mean", "cls"):
            raise AdaMMError(
                f"text model {name!r} pools by {mode!r}; the ONNX backends support "
                "mean and CLS pooling"
            )
        self.pooling = mode
        self.normalize = "Normalize" in kinds
        self.tokenizer = st_model.tokenizer
        if getattr(self.tokenizer, "backend_tokenizer", None) is None:
            raise AdaMMError(
                f"text model {name!r} has no fast tokenizer (tokenizer.json); the "
                "ONNX backends need one"
            )
        self.max_length = int(modules[0].max_seq_length or 512)
        self.runner = self._runner()
        self.path = self.runner.path

    def encode(self, texts: Sequence[str], batch_size: int = 16) -> np.ndarray:
        """Unit-length embeddings of the texts."""
        return self.runner.encode(texts, batch_size)

    # -- export --------------------------------------------------------------
    def _folder(self) -> Path:
        if self.source is not None:
            return export_folder(self.name, str(self.source), self.backend)
        return export_folder(self.name, "", self.backend, _weights_digest(self._st))

    def _runner(self) -> OnnxTextRunner:
        folder = self._folder()
        manifest = current_export(folder, self.source)
        if manifest is not None:
            runner = OnnxTextRunner(folder, manifest)
            try:
                runner.load()
                return runner
            except AdaMMError as exc:  # a damaged cache file: export again
                logger.warning("%s; exporting again", exc)
                discard_export(folder)
        make_folder(folder, self.backend)
        done = exporting(self.name, self.backend, folder, " with torch")
        with tempfile.TemporaryDirectory(dir=folder) as tmp_name:
            tmp = Path(tmp_name)
            raw = tmp / "exported.onnx"
            inputs = self._export(raw)
            made = finish(raw, self.backend, tmp)
            self.tokenizer.backend_tokenizer.save(str(tmp / TOKENIZER))
            manifest = self._manifest(made.name, inputs)
            self._check(OnnxTextRunner(tmp, manifest))
            runner = publish(tmp, folder, manifest)
        done()
        return runner

    def _manifest(self, model_file: str, inputs: list[str]) -> ExportManifest:
        if self.source is not None:
            files = source_files(self.source)
            digest = digest_files(self.source, list(files))
        else:
            files, digest = {}, _weights_digest(self._st)
        tok = self.tokenizer
        getter = getattr(self._st, "get_embedding_dimension", None)
        getter = getter or self._st.get_sentence_embedding_dimension
        return ExportManifest(
            format=CACHE_FORMAT,
            backend=self.backend,  # type: ignore[arg-type]
            model=self.name,
            source=str(self.source or ""),
            files=files,
            digest=digest,
            packages=package_versions(),
            model_file=model_file,
            data_file=data_file(model_file),
            inputs=inputs,
            max_length=self.max_length,
            pad_id=int(tok.pad_token_id or 0),
            pad_token=str(tok.pad_token or "[PAD]"),
            pad_type_id=int(getattr(tok, "pad_token_type_id", 0) or 0),
            padding_side=getattr(tok, "padding_side", "right"),
            truncation_side=getattr(tok, "truncation_side", "right"),
            pooling=self.pooling,  # type: ignore[arg-type]
            normalize=self.normalize,
            dim=int(getter()),
        )

    def _export(self, out: Path) -> list[str]:
        """Export the transformer to ``out``; the names of the inputs it takes."""
        import torch

        transformer = self._st[0].auto_model.eval().cpu()
        sample = self.tokenizer(
            ["a short probe", "a slightly longer probe sentence"],
            padding=True,
            return_tensors="pt",
        )
        names = [
            k for k in ("input_ids", "attention_mask", "token_type_ids") if k in sample
        ]

        class _Hidden(torch.nn.Module):
            def __init__(self, model: Any) -> None:
                super().__init__()
                self.model = model

            def forward(self, *args: Any) -> Any:
                inputs = dict(zip(names, args, strict=True))
                return self.model(**inputs).last_hidden_state

        axes = {k: {0: "batch", 1: "tokens"} for k in [*names, "last_hidden_state"]}
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.onnx.export(
                _Hidden(transformer),
                tuple(sample[k] for k in names),
                str(out),
                input_names=names,
                output_names=["last_hidden_state"],
                dynamic_axes=axes,
                opset_version=17,
                dynamo=False,
            )
        return names

    def _check(self, runner: OnnxTextRunner) -> None:
        """Refuse an export whose torch-free path drifts from torch's vectors."""
        ref = self._st.encode(list(PROBES), normalize_embeddings=True)
        check_probes(runner, np.asarray(ref, dtype=np.float32), self.backend, "torch")
