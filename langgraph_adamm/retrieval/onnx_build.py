"""ONNX exports of BERT sentence encoders written from their weights, without torch.

The packaged all-MiniLM-L6-v2, and any sentence-transformers folder whose
transformer is a BERT encoder (``model_type`` ``"bert"``, absolute positions,
a supported activation) under mean or CLS pooling, is written as an ONNX graph
(opset 17) with ``onnx.helper``, from ``model.safetensors`` read with numpy
(:mod:`langgraph_adamm.retrieval.bert_weights`): embeddings, self-attention
with an additive mask, feed-forward, each sub-layer's residual and LayerNorm.
The graph takes the inputs the torch export takes and gives the last hidden
state; pooling and normalization stay in the runner
(:class:`~langgraph_adamm.retrieval.onnx_cache.OnnxTextRunner`), which runs it
unchanged. ONNX Runtime fuses it once (and quantizes it, for onnx-int8) as for
the torch export.

The export is checked, through that runner, against a float64 numpy forward
pass of the same weights (a second implementation: a wrong graph falls far
below the floors of :data:`MIN_PROBE_COSINE`) and refused when it drifts. It
needs onnx, onnxruntime and tokenizers, and is keyed by their versions alone.
A folder it cannot build is refused with an :class:`AdaMMError` naming what
and where; the encoder then turns to the torch export.

Measured on a 2-core CPU (2026-12): the packaged MiniLM builds in 2-3 s
(onnx) and 4-5 s (onnx-int8) when the CPU is idle, 6-7 s and 8-9 s when other
work loads it, once, on first need; its vectors are torch's (cosine 1.0000,
largest difference 3e-7), and it runs as fast as the torch export.
"""

from __future__ import annotations

import importlib.util
import logging
import math
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from langgraph_adamm.errors import AdaMMError
from langgraph_adamm.retrieval.bert_weights import (
    BertSpec,
    read_spec,
    read_weights,
    reference_forward,
)
from langgraph_adamm.retrieval.onnx_cache import (
    BUILD_FORMAT,
    TOKENIZER,
    ExportManifest,
    OnnxTextRunner,
    digest_files,
    export_folder,
    package_versions,
    source_files,
    write_manifest,
)

logger = logging.getLogger(__name__)

MODEL_FILES = {"onnx": "model.onnx", "onnx-int8": "model-int8.onnx"}
PROBES = (
    "I slept 7.5 hours last night and felt rested.",
    "Here is a photo of the receipt from Cafe Luna: total $18.40.",
    "Can you recommend a laptop for video editing under 1,500 euros?",
    "We planted tomatoes along the south fence; water them twice a week.",
    "ok",
)
MIN_PROBE_COSINE = {"onnx": (0.9999, 0.9999), "onnx-int8": (0.95, 0.98)}
"""The worst and the mean cosine to the reference vectors (torch's, or the
numpy forward's) on the probe sentences below which an export is refused. int8
results depend on the CPU's kernels: on AVX2 without VNNI (an AMD EPYC,
2026-12-01) the two-letter probe "ok" gives 0.955 and the others 0.992-0.996;
on the CPU of the earlier measurements, all were above 0.97. A broken export
(wrong pooling, a lost layer) falls far below both."""
EXPORT_SECONDS = {"onnx": 5, "onnx-int8": 8}
"""About how long an export of MiniLM takes on a 2-core CPU, for the message."""
OPSET = 17
ONNX_EXTRA = "pip install 'langgraph-adamm[onnx]'"


def build_missing() -> str | None:
    """The package the build lacks (checked without importing), or None."""
    for name in ("onnx", "onnxruntime", "tokenizers"):
        if importlib.util.find_spec(name) is None:
            return name
    return None


def buildable(folder: Path) -> bool:
    """Whether the folder's model can be built without torch (reads JSON only)."""
    if build_missing() is not None:
        return False
    try:
        read_spec(folder)
    except AdaMMError:
        return False
    return True


def exporting(name: str, backend: str, folder: Path, how: str) -> Callable[[], None]:
    """Say that an export starts (a first command is slower); call to say it ended."""
    start = time.perf_counter()
    logger.warning(
        "exporting the text model %s to ONNX (%s) once%s (about %d s) into %s",
        name,
        backend,
        how,
        EXPORT_SECONDS.get(backend, 10),
        folder,
    )

    def done() -> None:
        logger.warning(
            "exported the text model %s in %.0f s", name, time.perf_counter() - start
        )

    return done


# -- the graph ----------------------------------------------------------------
class _Graph:
    """Nodes and initializers, each output named after its node."""

    def __init__(self) -> None:
        self.nodes: list[Any] = []
        self.weights: list[Any] = []

    def const(self, name: str, value: Any, dtype: Any = np.float32) -> str:
        from onnx import numpy_helper

        self.weights.append(numpy_helper.from_array(np.asarray(value, dtype), name))
        return name

    def op(self, kind: str, *inputs: str, **attrs: Any) -> str:
        from onnx import helper

        out = f"{kind}_{len(self.nodes)}"
        self.nodes.append(helper.make_node(kind, list(inputs), [out], **attrs))
        return out


def _activation(g: _Graph, x: str, activation: str) -> str:
    if activation == "gelu":  # x/2 (1 + erf(x / sqrt 2)), as ONNX Runtime fuses it
        erf = g.op("Erf", g.op("Div", x, g.const("sqrt2", math.sqrt(2.0))))
        half = g.op("Mul", x, g.op("Add", erf, g.const("one", 1.0)))
        return g.op("Mul", half, g.const("half", 0.5))
    if activation == "relu":
        return g.op("Relu", x)
    if activation == "silu":
        return g.op("Mul", x, g.op("Sigmoid", x))
    cube = g.op("Mul", x, g.op("Mul", x, x))  # the tanh approximations
    inner = g.op("Add", x, g.op("Mul", cube, g.const("gelu_c", 0.044715)))
    scaled = g.op("Mul", inner, g.const("gelu_k", math.sqrt(2.0 / math.pi)))
    half = g.op("Mul", x, g.op("Add", g.op("Tanh", scaled), g.const("one", 1.0)))
    return g.op("Mul", half, g.const("half", 0.5))


def bert_graph(spec: BertSpec, w: dict[str, np.ndarray]) -> Any:
    """The encoder as an ONNX model: ids, mask, token types → last hidden state."""
    from onnx import TensorProto, helper

    g = _Graph()
    heads, hd = spec.heads, spec.hidden // spec.heads

    def linear(x: str, name: str) -> str:
        weight = g.const(f"{name}.weight.T", w[f"{name}.weight"].T)
        return g.op(
            "Add", g.op("MatMul", x, weight), g.const(f"{name}.bias", w[f"{name}.bias"])
        )

    def norm(x: str, name: str) -> str:
        return g.op(
            "LayerNormalization",
            x,
            g.const(f"{name}.weight", w[f"{name}.weight"]),
            g.const(f"{name}.bias", w[f"{name}.bias"]),
            axis=-1,
            epsilon=spec.eps,
        )

    def table(name: str, ids: str) -> str:
        return g.op("Gather", g.const(name, w[name]), ids)

    tokens = g.op("Gather", g.op("Shape", "input_ids"), g.const("one_i", 1, np.int64))
    positions = g.op("Range", g.const("zero_i", 0, np.int64), tokens, "one_i")
    x = g.op(
        "Add",
        g.op(
            "Add",
            table("embeddings.word_embeddings.weight", "input_ids"),
            table("embeddings.token_type_embeddings.weight", "token_type_ids"),
        ),
        table("embeddings.position_embeddings.weight", positions),
    )
    x = norm(x, "embeddings.LayerNorm")
    # 0 where attended, the lowest float where padded: [batch, 1, 1, tokens]
    keep = g.op("Cast", "attention_mask", to=TensorProto.FLOAT)
    blocked = g.op("Sub", g.const("one", 1.0), keep)
    lowest = g.const("lowest", np.finfo(np.float32).min)
    mask = g.op(
        "Unsqueeze", g.op("Mul", blocked, lowest), g.const("axes", [1, 2], np.int64)
    )
    split = g.const("heads_shape", [0, 0, heads, hd], np.int64)
    merged = g.const("hidden_shape", [0, 0, spec.hidden], np.int64)
    scale = g.const("scale", 1.0 / math.sqrt(hd))
    for i in range(spec.layers):
        p = f"encoder.layer.{i}."

        def heads_of(part: str, perm: list[int], x: str = x, p: str = p) -> str:
            shaped = g.op("Reshape", linear(x, f"{p}attention.self.{part}"), split)
            return g.op("Transpose", shaped, perm=perm)

        q = heads_of("query", [0, 2, 1, 3])
        k = heads_of("key", [0, 2, 3, 1])
        v = heads_of("value", [0, 2, 1, 3])
        scores = g.op("Add", g.op("Mul", g.op("MatMul", q, k), scale), mask)
        context = g.op("MatMul", g.op("Softmax", scores, axis=-1), v)
        context = g.op("Reshape", g.op("Transpose", context, perm=[0, 2, 1, 3]), merged)
        attended = linear(context, f"{p}attention.output.dense")
        x = norm(g.op("Add", attended, x), f"{p}attention.output.LayerNorm")
        inner = _activation(g, linear(x, f"{p}intermediate.dense"), spec.activation)
        out = linear(inner, f"{p}output.dense")
        x = norm(g.op("Add", out, x), f"{p}output.LayerNorm")
    g.nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"]))
    axes = ["batch", "tokens"]
    graph = helper.make_graph(
        g.nodes,
        "bert",
        [
            helper.make_tensor_value_info(n, TensorProto.INT64, axes)
            for n in ("input_ids", "attention_mask", "token_type_ids")
        ],
        [
            helper.make_tensor_value_info(
                "last_hidden_state", TensorProto.FLOAT, [*axes, spec.hidden]
            )
        ],
        initializer=_unique(g.weights),
    )
    return helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=8
    )


def _unique(weights: list[Any]) -> list[Any]:
    """The initializers, each name once (shared constants are declared again)."""
    seen: dict[str, Any] = {}
    for tensor in weights:
        seen.setdefault(tensor.name, tensor)
    return list(seen.values())


# -- ONNX Runtime's passes, shared with the torch export ------------------------
def optimize(model: Path, out: Path) -> None:
    """Fuse the graph once (ONNX Runtime's portable, "extended" level).

    A cold process then loads the fused graph: a third less session start-up.
    """
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    options.optimized_model_filepath = str(out)
    # the weights in a file of their own (see ExportManifest.data_file)
    options.add_session_config_entry(
        "session.optimized_model_external_initializers_file_name", data_file(out.name)
    )
    options.add_session_config_entry(
        "session.optimized_model_external_initializers_min_size_in_bytes", "1024"
    )
    ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])


def data_file(model_file: str) -> str:
    """The name of the weights file beside a model file."""
    return model_file + ".data"


def quantize(fp32: Path, out: Path, tmp: Path) -> None:
    """int8 weights per channel for the matrix multiplications (dynamic)."""
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


def finish(raw: Path, backend: str, tmp: Path) -> Path:
    """The model file an export ships: ``raw`` quantized for onnx-int8, fused."""
    if backend == "onnx-int8":
        quantize(raw, tmp / "quantized.onnx", tmp)
        raw = tmp / "quantized.onnx"
    made = tmp / MODEL_FILES[backend]
    optimize(raw, made)
    return made


def publish(tmp: Path, folder: Path, manifest: ExportManifest) -> OnnxTextRunner:
    """Move a checked export from ``tmp`` into its folder; its runner, loaded.

    Atomic moves, the manifest last: a concurrent export wins or loses whole,
    and a folder without a manifest is no export.
    """
    if manifest.data_file:  # the weights first: the graph names them
        os.replace(tmp / manifest.data_file, folder / manifest.data_file)
    os.replace(tmp / manifest.model_file, folder / manifest.model_file)
    os.replace(tmp / TOKENIZER, folder / TOKENIZER)
    write_manifest(folder, manifest)
    runner = OnnxTextRunner(folder, manifest)
    runner.load()
    return runner


def check_probes(
    runner: OnnxTextRunner, reference: np.ndarray, backend: str, what: str
) -> None:
    """Refuse an export whose vectors on :data:`PROBES` drift from the reference."""
    got = runner.encode(list(PROBES))
    ref = reference / np.clip(
        np.linalg.norm(reference, axis=1, keepdims=True), 1e-12, None
    )
    cosines = np.sum(got * ref, axis=1)
    worst, mean = float(cosines.min()), float(cosines.mean())
    min_worst, min_mean = MIN_PROBE_COSINE[backend]
    if worst < min_worst or mean < min_mean:
        raise AdaMMError(
            f"the {backend} export of {runner.manifest.model!r} drifts from {what} "
            f"(probe cosine worst {worst:.4f}, mean {mean:.4f}; needed {min_worst} "
            f"and {min_mean}); use text_backend='torch'"
        )


def make_folder(folder: Path, backend: str) -> None:
    """Create an export folder, or say how to give it a writable place."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise AdaMMError(
            f"cannot write the {backend} export to {folder} ({exc}); set "
            "ADAMM_CACHE_DIR to a writable folder"
        ) from exc


# -- the build ----------------------------------------------------------------
def build_export(name: str, source: Path, backend: str) -> OnnxTextRunner:
    """Build, check and cache the ONNX export of a local BERT model; its runner.

    Raises:
        AdaMMError: when onnx, onnxruntime or tokenizers is missing, the folder
            is not a model the builder writes (naming what and the folder), or
            the export drifts from the numpy forward pass.
    """
    if backend not in MODEL_FILES:
        raise AdaMMError(f"unknown ONNX backend {backend!r}: use onnx or onnx-int8")
    missing = build_missing()
    if missing is not None:
        raise AdaMMError(f"building ONNX exports needs {missing}: {ONNX_EXTRA}")
    spec = read_spec(source)
    folder = export_folder(name, str(source), backend, recipe="built")
    make_folder(folder, backend)
    done = exporting(name, backend, folder, " without torch")
    weights = read_weights(spec)
    with tempfile.TemporaryDirectory(dir=folder) as tmp_name:
        tmp = Path(tmp_name)
        import onnx

        model = bert_graph(spec, weights)
        onnx.checker.check_model(model)
        onnx.save(model, str(tmp / "built.onnx"))
        del model
        made = finish(tmp / "built.onnx", backend, tmp)
        manifest = _manifest(name, source, spec, backend, made.name)
        (tmp / TOKENIZER).write_bytes(spec.tokenizer.read_bytes())
        runner = OnnxTextRunner(tmp, manifest)
        pieces = [runner.tokenize([text]) for text in PROBES]
        reference = reference_forward(
            spec,
            weights,
            [(list(t["input_ids"][0]), list(t["token_type_ids"][0])) for t in pieces],
        )
        check_probes(runner, reference, backend, "the numpy forward pass")
        runner = publish(tmp, folder, manifest)
    done()
    return runner


def _manifest(
    name: str, source: Path, spec: BertSpec, backend: str, model_file: str
) -> ExportManifest:
    from tokenizers import Tokenizer

    pad_id = Tokenizer.from_file(str(spec.tokenizer)).token_to_id(spec.pad_token)
    if pad_id is None:
        raise AdaMMError(
            f"{spec.tokenizer}: no id for the pad token {spec.pad_token!r}"
        )
    files = source_files(source)
    return ExportManifest(
        format=BUILD_FORMAT,
        recipe="built",
        backend=backend,  # type: ignore[arg-type]
        model=name,
        source=str(source),
        files=files,
        digest=digest_files(source, list(files)),
        packages=package_versions("built"),
        model_file=model_file,
        data_file=data_file(model_file),
        inputs=["input_ids", "attention_mask", "token_type_ids"],
        max_length=spec.max_length,
        pad_id=int(pad_id),
        pad_token=spec.pad_token,
        padding_side=spec.padding_side,
        truncation_side=spec.truncation_side,
        pooling=spec.pooling,
        normalize=spec.normalize,
        dim=spec.hidden,
    )
