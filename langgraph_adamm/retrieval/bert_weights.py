"""A BERT sentence encoder's folder read with numpy alone, and its forward pass.

What :mod:`langgraph_adamm.retrieval.onnx_build` needs to write the model as an
ONNX graph without torch: the sentence-transformers folder's configuration
(:func:`read_spec`, JSON files only, so it is cheap enough to decide whether a
folder can be built at all), its weights from ``model.safetensors`` through a
self-contained reader (:func:`read_safetensors`), and :func:`reference_forward`,
a second implementation of the model in float64 numpy that the built graph is
checked against.
"""

from __future__ import annotations

import json
import math
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np

from langgraph_adamm.errors import AdaMMError

WEIGHTS = "model.safetensors"
ACTIVATIONS = ("gelu", "gelu_new", "gelu_pytorch_tanh", "gelu_fast", "relu", "silu")
"""The config's ``hidden_act`` values the builder writes (``swish`` is silu)."""

_DTYPES = {
    "F64": "<f8",
    "F32": "<f4",
    "F16": "<f2",
    "I64": "<i8",
    "I32": "<i4",
    "I16": "<i2",
    "I8": "i1",
    "U8": "u1",
    "BOOL": "?",
}
_MAX_HEADER = 100 << 20
_POOLING_FLAGS = (
    "cls_token",
    "mean_token",
    "max_token",
    "mean_sqrt_len_token",
    "weightedmean_token",
    "lasttoken",
)


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """The tensors of a safetensors file (BF16 widened to float32).

    The format: an 8-byte little-endian header length, a JSON header mapping
    each name to its dtype, shape and byte range, then the raw bytes.

    Raises:
        AdaMMError: naming the file and the tensor when it does not parse.
    """
    try:
        with open(path, "rb") as fh:
            head = fh.read(8)
            size = struct.unpack("<Q", head)[0] if len(head) == 8 else -1
            if not 0 < size <= _MAX_HEADER:
                raise AdaMMError(f"{path}: not a safetensors file (no header)")
            header = json.loads(fh.read(size))
        data = np.fromfile(path, dtype=np.uint8, offset=8 + size)
    except (OSError, ValueError) as exc:
        raise AdaMMError(f"{path}: unreadable safetensors file ({exc})") from exc
    if not isinstance(header, dict):
        raise AdaMMError(f"{path}: the safetensors header is not a JSON object")
    out = {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        try:
            dtype, shape = entry["dtype"], [int(n) for n in entry["shape"]]
            begin, end = (int(n) for n in entry["data_offsets"])
        except (KeyError, TypeError, ValueError) as exc:
            raise AdaMMError(f"{path}: tensor {name!r} has a bad header entry") from exc
        width = 2 if dtype == "BF16" else np.dtype(_DTYPES.get(dtype, "V")).itemsize
        if dtype != "BF16" and dtype not in _DTYPES:
            raise AdaMMError(f"{path}: tensor {name!r} has unknown dtype {dtype}")
        if not 0 <= begin <= end <= data.size or end - begin != width * math.prod(
            shape
        ):
            raise AdaMMError(f"{path}: tensor {name!r} lies outside the file's data")
        raw = data[begin:end]
        if dtype == "BF16":
            array = (raw.view("<u2").astype(np.uint32) << 16).view(np.float32)
        else:
            array = raw.view(_DTYPES[dtype])
        out[name] = array.reshape(shape)
    return out


@dataclass(frozen=True)
class BertSpec:
    """What a sentence-transformers folder with a BERT transformer describes."""

    folder: Path
    """The sentence-transformers folder."""
    weights: Path
    tokenizer: Path
    layers: int
    heads: int
    hidden: int
    eps: float
    activation: str
    max_length: int
    pooling: Literal["mean", "cls"]
    normalize: bool
    pad_token: str
    padding_side: Literal["left", "right"]
    truncation_side: Literal["left", "right"]


def _json(path: Path, folder: Path, optional: bool = False) -> Any:
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        if optional:
            return {}
        raise AdaMMError(f"{folder}: no {path.relative_to(folder)}") from None
    except (OSError, ValueError) as exc:
        raise AdaMMError(f"{path}: unreadable ({exc})") from exc


def _side(value: Any, what: str, folder: Path) -> Literal["left", "right"]:
    if value in (None, "right"):
        return "right"
    if value == "left":
        return "left"
    raise AdaMMError(f"{folder}: tokenizer {what} {value!r} is not left or right")


def _token(value: Any) -> str:
    return str(value["content"] if isinstance(value, dict) else value)


def read_spec(folder: Path) -> BertSpec:
    """The folder's model, when it is transformer → pooling (→ normalize) on BERT.

    Raises:
        AdaMMError: naming the folder and what is missing or unsupported.
    """
    try:
        return _read_spec(folder)
    except (AttributeError, IndexError, KeyError, TypeError, ValueError) as exc:
        raise AdaMMError(f"{folder}: unexpected configuration ({exc!r})") from exc


def _read_spec(folder: Path) -> BertSpec:
    modules = _json(folder / "modules.json", folder)
    kinds = [str(m.get("type", "")).rsplit(".", 1)[-1] for m in modules]
    if kinds[:2] != ["Transformer", "Pooling"] or not set(kinds[2:]) <= {"Normalize"}:
        raise AdaMMError(
            f"{folder}: modules {' → '.join(kinds)} are not transformer → pooling "
            "(→ normalize)"
        )
    base = folder / str(modules[0].get("path") or "")
    config = _json(base / "config.json", folder)
    kind = config.get("model_type")
    if kind != "bert":
        raise AdaMMError(f"{folder}: model_type {kind!r} is not bert")
    position = config.get("position_embedding_type", "absolute")
    if position != "absolute":
        raise AdaMMError(f"{folder}: position_embedding_type {position!r}")
    if config.get("is_decoder"):
        raise AdaMMError(f"{folder}: is_decoder (a BERT decoder)")
    activation = {"swish": "silu"}.get(
        config.get("hidden_act"), config.get("hidden_act")
    )
    if activation not in ACTIVATIONS:
        raise AdaMMError(
            f"{folder}: hidden_act {config.get('hidden_act')!r} (supported: "
            f"{', '.join(ACTIVATIONS)}, swish)"
        )
    st_config = _json(base / "sentence_bert_config.json", folder, optional=True)
    if st_config.get("do_lower_case"):
        raise AdaMMError(f"{folder}: sentence_bert_config do_lower_case")
    tok_config = _json(base / "tokenizer_config.json", folder, optional=True)
    max_length = st_config.get("max_seq_length") or min(
        int(config.get("max_position_embeddings", 512)),
        int(tok_config.get("model_max_length", 512)),
    )
    pool_dir = folder / str(modules[1].get("path") or "1_Pooling")
    pool = _json(pool_dir / "config.json", folder)
    flags = "+".join(
        kind
        for kind in _POOLING_FLAGS
        if pool.get(f"pooling_mode_{kind}") or pool.get(f"pooling_mode_{kind}s")
    )
    mode = pool.get("pooling_mode") or flags
    mode = {"cls_token": "cls", "mean_token": "mean"}.get(mode, mode)
    if mode not in ("mean", "cls"):
        raise AdaMMError(f"{folder}: pooling {mode!r} (supported: mean, cls)")
    pooling: Literal["mean", "cls"] = "cls" if mode == "cls" else "mean"
    pad = tok_config.get("pad_token")
    if pad is None:
        special = base / "special_tokens_map.json"
        pad = _json(special, folder, optional=True).get("pad_token")
    for needed in (WEIGHTS, "tokenizer.json"):
        if not (base / needed).is_file():
            raise AdaMMError(f"{folder}: no {needed}")
    hidden, heads = int(config["hidden_size"]), int(config["num_attention_heads"])
    if hidden % heads:
        raise AdaMMError(f"{folder}: hidden_size {hidden} not a multiple of heads")
    return BertSpec(
        folder=folder,
        weights=base / WEIGHTS,
        tokenizer=base / "tokenizer.json",
        layers=int(config["num_hidden_layers"]),
        heads=heads,
        hidden=hidden,
        eps=float(config.get("layer_norm_eps", 1e-12)),
        activation=activation,
        max_length=int(max_length),
        pooling=pooling,
        normalize=len(kinds) > 2,
        pad_token=_token(pad or "[PAD]"),
        padding_side=_side(tok_config.get("padding_side"), "padding_side", folder),
        truncation_side=_side(
            tok_config.get("truncation_side"), "truncation_side", folder
        ),
    )


def read_weights(spec: BertSpec) -> dict[str, np.ndarray]:
    """The encoder's tensors as float32, named as in ``BertModel`` (no ``bert.``).

    Old checkpoints' ``LayerNorm.gamma``/``beta`` are read as ``weight``/``bias``.

    Raises:
        AdaMMError: naming the file and the first tensor missing or misshapen.
    """
    tensors: dict[str, np.ndarray] = {}
    for name, array in read_safetensors(spec.weights).items():
        name = name.removeprefix("bert.")
        name = name.replace("LayerNorm.gamma", "LayerNorm.weight")
        name = name.replace("LayerNorm.beta", "LayerNorm.bias")
        tensors[name] = array
    h, inner = spec.hidden, None
    wanted: dict[str, tuple[int | None, ...]] = {
        "embeddings.word_embeddings.weight": (None, h),
        "embeddings.position_embeddings.weight": (None, h),
        "embeddings.token_type_embeddings.weight": (None, h),
        "embeddings.LayerNorm.weight": (h,),
        "embeddings.LayerNorm.bias": (h,),
    }
    for i in range(spec.layers):
        p = f"encoder.layer.{i}."
        for part in ("self.query", "self.key", "self.value", "output.dense"):
            name = f"{p}attention.{part}"
            wanted |= {f"{name}.weight": (h, h), f"{name}.bias": (h,)}
        wanted |= {
            f"{p}intermediate.dense.weight": (inner, h),
            f"{p}intermediate.dense.bias": (inner,),
            f"{p}output.dense.weight": (h, inner),
            f"{p}output.dense.bias": (h,),
        }
        for norm in ("attention.output.LayerNorm", "output.LayerNorm"):
            wanted |= {f"{p}{norm}.weight": (h,), f"{p}{norm}.bias": (h,)}
    out = {}
    for name, shape in wanted.items():
        found = tensors.get(name)
        if found is None:
            raise AdaMMError(f"{spec.weights}: no tensor {name}")
        fits = len(found.shape) == len(shape) and all(
            want is None or want == got
            for want, got in zip(shape, found.shape, strict=True)
        )
        if not fits or found.dtype.kind != "f":
            raise AdaMMError(
                f"{spec.weights}: tensor {name} is {found.dtype} {list(found.shape)}"
            )
        out[name] = np.ascontiguousarray(found, dtype=np.float32)
    positions = len(out["embeddings.position_embeddings.weight"])
    if positions < spec.max_length:
        raise AdaMMError(
            f"{spec.weights}: {positions} positions, fewer than max_seq_length "
            f"{spec.max_length}"
        )
    return out


def _erf(x: np.ndarray) -> np.ndarray:
    return np.frompyfunc(math.erf, 1, 1)(x).astype(np.float64)


def activate(x: np.ndarray, activation: str) -> np.ndarray:
    """The feed-forward activation, as transformers defines it."""
    if activation == "gelu":
        return 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))
    if activation in ("gelu_new", "gelu_pytorch_tanh", "gelu_fast"):
        inner = math.sqrt(2.0 / math.pi) * (x + 0.044715 * x**3)
        return 0.5 * x * (1.0 + np.tanh(inner))
    if activation == "relu":
        return np.maximum(x, 0.0)
    return x / (1.0 + np.exp(-x))  # silu


def _layer_norm(x: np.ndarray, w: np.ndarray, b: np.ndarray, eps: float) -> Any:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * w + b


def reference_forward(
    spec: BertSpec,
    weights: dict[str, np.ndarray],
    texts: list[tuple[list[int], list[int]]],
) -> np.ndarray:
    """Pooled (and normalized) vectors of unpadded texts, in float64 numpy.

    Each text is its token ids and token type ids, run on its own: no padding,
    so no attention mask, unlike the graph it checks.
    """
    tables = ("word", "position", "token_type")
    w = {
        k: v.astype(np.float64)
        for k, v in weights.items()
        if not k.startswith(tuple(f"embeddings.{t}_" for t in tables))
    }
    hd = spec.hidden // spec.heads

    def dense(v: np.ndarray, name: str) -> Any:
        return v @ w[f"{name}.weight"].T + w[f"{name}.bias"]

    def norm(v: np.ndarray, name: str) -> Any:
        return _layer_norm(v, w[f"{name}.weight"], w[f"{name}.bias"], spec.eps)

    out = []
    for ids, types in texts:
        n = len(ids)
        x = norm(
            weights["embeddings.word_embeddings.weight"][ids].astype(np.float64)
            + weights["embeddings.position_embeddings.weight"][:n]
            + weights["embeddings.token_type_embeddings.weight"][types],
            "embeddings.LayerNorm",
        )
        for i in range(spec.layers):
            p = f"encoder.layer.{i}."
            q, k, v = (
                dense(x, f"{p}attention.self.{part}")
                .reshape(n, spec.heads, hd)
                .transpose(1, 0, 2)
                for part in ("query", "key", "value")
            )
            scores = q @ k.transpose(0, 2, 1) / math.sqrt(hd)
            scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
            context = (scores / scores.sum(axis=-1, keepdims=True)) @ v
            context = context.transpose(1, 0, 2).reshape(n, spec.hidden)
            x = norm(
                dense(context, f"{p}attention.output.dense") + x,
                f"{p}attention.output.LayerNorm",
            )
            inner = activate(dense(x, f"{p}intermediate.dense"), spec.activation)
            x = norm(dense(inner, f"{p}output.dense") + x, f"{p}output.LayerNorm")
        pooled = x[0] if spec.pooling == "cls" else x.mean(axis=0)
        if spec.normalize:
            pooled = pooled / max(float(np.linalg.norm(pooled)), 1e-12)
        out.append(pooled)
    return np.asarray(out)
