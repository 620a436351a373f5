"""ONNX Runtime backends for sentence-transformers text encoders (CPU speed).

``backend="onnx"`` runs the same transformer through ONNX Runtime (fp32: the
same vectors as torch, to rounding; on this machine class no faster);
``backend="onnx-int8"`` quantizes its matrix multiplications to int8 per channel
(dynamic quantization): 1.6-1.7x the encoder throughput on a 2-core CPU, with
vectors a little off torch's (mean cosine 0.993; BENCHMARKS.md).

The model is exported from the local weights with ``torch.onnx.export`` - no hub,
no network - then cached under ``$ADAMM_CACHE_DIR`` (default
``~/.cache/langgraph_adamm``) in a folder keyed by the weights and the package
versions; a second process or a second run loads the cached file. Each export is
checked against the torch model on probe sentences and refused when it drifts.
Pooling (mean or CLS) and normalization follow the model's own modules.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from langgraph_adamm.errors import AdaMMError

logger = logging.getLogger(__name__)

BACKENDS = ("torch", "onnx", "onnx-int8")
PROBES = (
    "I slept 7.5 hours last night and felt rested.",
    "Here is a photo of the receipt from Cafe Luna: total $18.40.",
    "Can you recommend a laptop for video editing under 1,500 euros?",
    "We planted tomatoes along the south fence; water them twice a week.",
    "ok",
)
CACHE_FORMAT = 1
"""Changes whenever the export recipe does (opset, quantization settings)."""
MIN_PROBE_COSINE = {"onnx": (0.9999, 0.9999), "onnx-int8": (0.95, 0.98)}
"""The worst and the mean cosine to torch's vectors on the probe sentences below
which an export is refused. int8 results depend on the CPU's kernels: on AVX2
without VNNI (an AMD EPYC, 2026-12-01) the two-letter probe "ok" gives 0.955 and
the others 0.992-0.996; on the CPU of the earlier measurements, all were above
0.97. A broken export (wrong pooling, a lost layer) falls far below both."""


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


def _require() -> Any:
    try:
        import onnxruntime
        from onnxruntime.quantization import QuantType, quantize_dynamic  # noqa: F401
    except ImportError as exc:
        raise AdaMMError(
            "the ONNX text backends need onnxruntime and onnx: pip install "
            "'langgraph-adamm[onnx]' (or use text_backend='torch')"
        ) from exc
    return onnxruntime


def _weights_key(st_model: Any, backend: str) -> str:
    """A key that changes when the weights or the exporting packages change."""
    import onnx
    import onnxruntime
    import torch
    import transformers

    versions = (
        CACHE_FORMAT,
        backend,
        torch.__version__,
        transformers.__version__,
        onnx.__version__,
        onnxruntime.__version__,
    )
    digest = hashlib.sha1("|".join(map(str, versions)).encode())
    for param in st_model.parameters():
        digest.update(param.detach().cpu().numpy().tobytes())
    return digest.hexdigest()[:16]


class OnnxTextModel:
    """A sentence-transformers model run through ONNX Runtime.

    Args:
        st_model: The loaded ``SentenceTransformer`` (its tokenizer, sequence
            limit, pooling and weights are used).
        backend: ``"onnx"`` or ``"onnx-int8"``.
        name: The model's name, for file names and messages.

    Raises:
        AdaMMError: when onnxruntime is missing, the model's layout is not
            transformer → pooling (mean or CLS) → optional normalize, or the
            export drifts from torch on the probe sentences.
    """

    def __init__(self, st_model: Any, backend: str, name: str) -> None:
        if backend not in ("onnx", "onnx-int8"):
            raise AdaMMError(f"unknown ONNX backend {backend!r}: use onnx or onnx-int8")
        ort = _require()
        self.backend = backend
        self.name = name
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

        self.tokenizer = st_model.tokenizer
        self.max_length = int(modules[0].max_seq_length or 512)
        path = self._model_file()
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        try:
            self._session = ort.InferenceSession(
                str(path), options, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:  # noqa: BLE001 - a damaged cache file: export again
            logger.warning(
                "cached export %s unreadable (%s); exporting again", path, exc
            )
            path.unlink(missing_ok=True)
            path = self._model_file()
            self._session = ort.InferenceSession(
                str(path), options, providers=["CPUExecutionProvider"]
            )
        self._inputs = [i.name for i in self._session.get_inputs()]
        self.path = path

    # -- export --------------------------------------------------------------
    def _model_file(self) -> Path:
        key = _weights_key(self._st, self.backend)
        folder = cache_dir() / "onnx" / f"{Path(self.name).name}-{key}"
        file = "model-int8.onnx" if self.backend == "onnx-int8" else "model.onnx"
        target = folder / file
        if target.is_file():
            return target
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise AdaMMError(
                f"cannot write the {self.backend} export to {folder} ({exc}); set "
                "ADAMM_CACHE_DIR to a writable folder"
            ) from exc
        logger.info("exporting text model %s to %s", self.name, target)
        with tempfile.TemporaryDirectory(dir=folder) as tmp:
            fp32 = Path(tmp) / "model.onnx"
            self._export(fp32)
            made = fp32
            if self.backend == "onnx-int8":
                made = Path(tmp) / "model-int8.onnx"
                self._quantize(fp32, made, Path(tmp))
            self._check(made)
            os.replace(made, target)  # atomic: a concurrent export wins or loses whole
        return target

    def _export(self, out: Path) -> None:
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
        import warnings

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

    def _check(self, path: Path) -> None:
        import onnxruntime as ort

        session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
        got = self._run(session, [i.name for i in session.get_inputs()], list(PROBES))
        ref = np.asarray(
            self._st.encode(list(PROBES), normalize_embeddings=True), dtype=np.float32
        )
        cosines = np.sum(_unit(got) * _unit(ref), axis=1)
        worst, mean = float(cosines.min()), float(cosines.mean())
        min_worst, min_mean = MIN_PROBE_COSINE[self.backend]
        if worst < min_worst or mean < min_mean:
            raise AdaMMError(
                f"the {self.backend} export of {self.name!r} drifts from torch (probe "
                f"cosine worst {worst:.4f}, mean {mean:.4f}; needed {min_worst} and "
                f"{min_mean}); use text_backend='torch'"
            )

    # -- inference -----------------------------------------------------------
    def _run(self, session: Any, inputs: list[str], texts: list[str]) -> np.ndarray:
        batch = self.tokenizer(
            texts,
            padding=True,
            truncation=True,
            max_length=self.max_length,
            return_tensors="np",
        )
        feed = {k: np.asarray(batch[k], dtype=np.int64) for k in inputs}
        hidden = session.run(None, feed)[0]
        if self.pooling == "cls":
            vecs = hidden[:, 0]
        else:
            mask = np.asarray(batch["attention_mask"], dtype=np.float32)[..., None]
            vecs = (hidden * mask).sum(axis=1) / np.clip(mask.sum(axis=1), 1e-9, None)
        return np.asarray(vecs, dtype=np.float32)

    def encode(self, texts: Sequence[str], batch_size: int = 16) -> np.ndarray:
        """Embeddings of the texts (unit length when the model normalizes).

        Texts are sorted by length so that each batch pads little.
        """
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        dim = None
        out: np.ndarray | None = None
        for start in range(0, len(texts), batch_size):
            idx = order[start : start + batch_size]
            vecs = self._run(self._session, self._inputs, [texts[i] for i in idx])
            if out is None:
                dim = vecs.shape[1]
                out = np.zeros((len(texts), dim), dtype=np.float32)
            out[idx] = vecs
        if out is None:
            return np.zeros((0, 0), dtype=np.float32)
        return _unit(out)  # unit rows, as the torch path returns


def _unit(m: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (m / norms).astype(np.float32)
