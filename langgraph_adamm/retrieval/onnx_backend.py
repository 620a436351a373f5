"""ONNX Runtime backends for sentence-transformers text encoders (CPU speed).

``backend="onnx"`` runs the same transformer through ONNX Runtime (fp32: the
same vectors as torch, to rounding; on this machine class no faster);
``backend="onnx-int8"`` quantizes its matrix multiplications to int8 per channel
(dynamic quantization): 1.6-1.7x the encoder throughput on a 2-core CPU, with
vectors a little off torch's (mean cosine 0.993; BENCHMARKS.md).

This module makes the export, and needs torch: the model is exported from the
local weights with ``torch.onnx.export`` - no hub, no network - into a folder
under ``$ADAMM_CACHE_DIR`` (default ``~/.cache/langgraph_adamm``) together with
its tokenizer and a manifest, so that a later process finds and runs it without
torch (:mod:`langgraph_adamm.retrieval.onnx_cache`). Each export is checked,
through that torch-free runner, against the torch model on probe sentences and
refused when it drifts. Pooling (mean or CLS) and normalization follow the
model's own modules.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from langgraph_adamm.errors import AdaMMError
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
    unit_rows,
    write_manifest,
)

logger = logging.getLogger(__name__)

BACKENDS = ("torch", "onnx", "onnx-int8")
MODEL_FILES = {"onnx": "model.onnx", "onnx-int8": "model-int8.onnx"}
PROBES = (
    "I slept 7.5 hours last night and felt rested.",
    "Here is a photo of the receipt from Cafe Luna: total $18.40.",
    "Can you recommend a laptop for video editing under 1,500 euros?",
    "We planted tomatoes along the south fence; water them twice a week.",
    "ok",
)
MIN_PROBE_COSINE = {"onnx": (0.9999, 0.9999), "onnx-int8": (0.95, 0.98)}
"""The worst and the mean cosine to torch's vectors on the probe sentences below
which an export is refused. int8 results depend on the CPU's kernels: on AVX2
without VNNI (an AMD EPYC, 2026-12-01) the two-letter probe "ok" gives 0.955 and
the others 0.992-0.996; on the CPU of the earlier measurements, all were above
0.97. A broken export (wrong pooling, a lost layer) falls far below both."""


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
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise AdaMMError(
                f"cannot write the {self.backend} export to {folder} ({exc}); set "
                "ADAMM_CACHE_DIR to a writable folder"
            ) from exc
        logger.info("exporting text model %s to %s", self.name, folder)
        with tempfile.TemporaryDirectory(dir=folder) as tmp_name:
            tmp = Path(tmp_name)
            raw = tmp / "exported.onnx"
            inputs = self._export(raw)
            if self.backend == "onnx-int8":
                self._quantize(raw, tmp / "quantized.onnx", tmp)
                raw = tmp / "quantized.onnx"
            made = tmp / MODEL_FILES[self.backend]
            self._optimize(raw, made)
            self.tokenizer.backend_tokenizer.save(str(tmp / TOKENIZER))
            manifest = self._manifest(made.name, inputs)
            self._check(OnnxTextRunner(tmp, manifest))
            # Atomic moves, the manifest last: a concurrent export wins or loses
            # whole, and a folder without a manifest is no export.
            os.replace(made, folder / made.name)
            os.replace(tmp / TOKENIZER, folder / TOKENIZER)
            write_manifest(folder, manifest)
        runner = OnnxTextRunner(folder, manifest)
        runner.load()
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

    @staticmethod
    def _optimize(model: Path, out: Path) -> None:
        """Fuse the graph once (ONNX Runtime's portable, "extended" level).

        A cold process then loads the fused graph: a third less session start-up.
        """
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.graph_optimization_level = (
            ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
        )
        options.optimized_model_filepath = str(out)
        ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])

    @staticmethod
    def _quantize(fp32: Path, out: Path, tmp: Path) -> None:
        from onnxruntime.quantization import QuantType, quantize_dynamic
        from onnxruntime.quantization.shape_inference import quant_pre_process

        prepared = tmp / "model-prepared.onnx"
        quant_pre_process(str(fp32), str(prepared), skip_symbolic_shape=True)
        quantize_dynamic(
            str(prepared),
            str(out),
            weight_type=QuantType.QInt8,
            per_channel=True,
            op_types_to_quantize=["MatMul"],
        )

    def _check(self, runner: OnnxTextRunner) -> None:
        """Refuse an export whose torch-free path drifts from torch's vectors."""
        got = runner.encode(list(PROBES))
        ref = np.asarray(
            self._st.encode(list(PROBES), normalize_embeddings=True), dtype=np.float32
        )
        cosines = np.sum(got * unit_rows(ref), axis=1)
        worst, mean = float(cosines.min()), float(cosines.mean())
        min_worst, min_mean = MIN_PROBE_COSINE[self.backend]
        if worst < min_worst or mean < min_mean:
            raise AdaMMError(
                f"the {self.backend} export of {self.name!r} drifts from torch (probe "
                f"cosine worst {worst:.4f}, mean {mean:.4f}; needed {min_worst} and "
                f"{min_mean}); use text_backend='torch'"
            )
