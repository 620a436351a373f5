"""ONNX exports written from the weights without torch: vectors, cache, refusals."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from langgraph_adamm import AdaMMConfig, AdaMMError
from langgraph_adamm.retrieval import encoders, onnx_build, onnx_cache, text_backends
from langgraph_adamm.retrieval.bert_weights import read_safetensors, read_spec

pytest.importorskip("sentence_transformers")
pytest.importorskip("onnxruntime")
pytest.importorskip("onnx")
pytest.importorskip("tokenizers")

from langgraph_adamm.retrieval.encoders import SentenceTransformerEncoder  # noqa: E402

TEXTS = [
    "Deep sleep 1h 12m, REM 1h 40m, score 82",
    "Can you suggest a quiet café near the station?",
    "Où est la gare ? Je voudrais un café au lait, s'il vous plaît.",
    "駅はどこですか。明日は雨が降るでしょう。",
    "ok",
    "  leading and trailing spaces\n",
    "word " * 400,  # longer than the model's 256-token window: truncated
    " ".join(f"Day {i}: watered the tomatoes by the south fence." for i in range(30)),
]
HEAVY = ("torch", "transformers", "sentence_transformers")
NO_TORCH = textwrap.dedent("""
    import json, sys
    for name in {heavy!r}:
        sys.modules[name] = None  # as if not installed: find_spec says None
    from langgraph_adamm.retrieval import encoders, onnx_build
    {setup}
    enc = encoders.SentenceTransformerEncoder()
    vecs = enc.encode(json.loads(sys.argv[1]))
    print(json.dumps({{
        "backend": enc.backend,
        "recipe": enc._onnx.manifest.recipe,
        "available": encoders.retrieval_available(),
        "loaded": [m for m in {heavy!r} if sys.modules.get(m) is not None],
        "vectors": vecs.tolist(),
    }}))
""")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ADAMM_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A cache holding the built fp32 export of the packaged MiniLM."""
    folder = tmp_path_factory.mktemp("onnx-build")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ADAMM_CACHE_DIR", str(folder))
        enc = SentenceTransformerEncoder(backend="onnx")
        assert enc._onnx.manifest.recipe == "built" and enc._model is None
        yield folder


@pytest.fixture(scope="module")
def torch_vectors():
    return SentenceTransformerEncoder(backend="torch").encode(TEXTS)


@pytest.fixture
def minilm(tmp_path):
    """A copy of the packaged MiniLM's folder (weights linked), to edit."""
    source = text_backends.model_folder(encoders.DEFAULT_TEXT_MODEL)
    assert source is not None
    copy = tmp_path / "minilm"
    shutil.copytree(source, copy, ignore=shutil.ignore_patterns("*.safetensors"))
    (copy / "model.safetensors").symlink_to(source / "model.safetensors")
    return copy


def edit_json(path: Path, **changes: object) -> None:
    path.write_text(json.dumps({**json.loads(path.read_text()), **changes}))


def test_the_safetensors_reader(tmp_path):
    tensors = {
        "a.weight": np.arange(6, dtype=np.float32).reshape(2, 3),
        "ids": np.array([1, -2], dtype=np.int64),
        "half": np.array([0.5, -1.25], dtype=np.float16),
    }
    bf16 = np.array([1.5, -3.0], dtype=np.float32)
    blobs = {k: v.tobytes() for k, v in tensors.items()}
    blobs["bf"] = (bf16.view(np.uint32) >> 16).astype("<u2").tobytes()
    kinds = {"a.weight": "F32", "ids": "I64", "half": "F16", "bf": "BF16"}
    header: dict[str, object] = {"__metadata__": {"format": "pt"}}
    offset = 0
    for name, blob in blobs.items():
        shape = list(tensors[name].shape) if name in tensors else [2]
        header[name] = {
            "dtype": kinds[name],
            "shape": shape,
            "data_offsets": [offset, offset + len(blob)],
        }
        offset += len(blob)
    head = json.dumps(header).encode()
    path = tmp_path / "t.safetensors"
    path.write_bytes(struct.pack("<Q", len(head)) + head + b"".join(blobs.values()))
    got = read_safetensors(path)
    assert set(got) == {"a.weight", "ids", "half", "bf"}
    for name, want in tensors.items():
        assert got[name].dtype == want.dtype and np.array_equal(got[name], want)
    assert got["bf"].dtype == np.float32 and np.array_equal(got["bf"], bf16)

    header["ids"] = {"dtype": "I64", "shape": [3], "data_offsets": [40, 64]}
    head = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(head)) + head + b"".join(blobs.values()))
    with pytest.raises(AdaMMError, match="t.safetensors: tensor 'ids' lies outside"):
        read_safetensors(path)
    path.write_bytes(b"\x01")
    with pytest.raises(AdaMMError, match="not a safetensors file"):
        read_safetensors(path)


def test_built_vectors_are_torchs(built, torch_vectors, monkeypatch):
    monkeypatch.setenv("ADAMM_CACHE_DIR", str(built))
    enc = SentenceTransformerEncoder(backend="onnx")
    assert enc._onnx.manifest.recipe == "built" and enc._model is None
    got = enc.encode(TEXTS)  # one padded batch of very different lengths
    cosines = np.sum(got * torch_vectors, axis=1)
    assert cosines.min() >= 0.9999, cosines
    assert np.abs(got - torch_vectors).max() < 1e-5
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)
    one_by_one = np.vstack([enc.encode([t]) for t in TEXTS])
    assert np.abs(got - one_by_one).max() < 1e-5


def test_counting_keeps_the_encodings_that_embedding_reads(built, monkeypatch):
    """A view counted for chunking is not tokenized again when embedded."""
    monkeypatch.setenv("ADAMM_CACHE_DIR", str(built))
    enc = SentenceTransformerEncoder(backend="onnx")
    runner = enc._onnx
    fresh = enc.encode(TEXTS)
    counter = runner._read_tokenizer()
    counter.no_truncation()
    counter.no_padding()
    for text in TEXTS:  # the untruncated count, the long texts' too
        assert runner.count_tokens(text) == len(
            counter.encode(text, add_special_tokens=False).ids
        )
    long = {t for t in TEXTS if len(counter.encode(t).ids) >= runner.max_length}
    assert long and set(runner._kept) == set(TEXTS) - long
    assert np.array_equal(enc.encode(TEXTS), fresh)  # kept encodings taken
    assert not runner._kept


def test_the_built_int8_export_is_within_the_int8_tolerance(cache, torch_vectors):
    enc = SentenceTransformerEncoder(backend="onnx-int8")
    assert enc._onnx.manifest.recipe == "built"
    assert enc._onnx.path.name == "model-int8.onnx"
    cosines = np.sum(enc.encode(TEXTS) * torch_vectors, axis=1)
    worst, mean = onnx_build.MIN_PROBE_COSINE["onnx-int8"]
    assert cosines.min() > worst and cosines.mean() > mean, cosines


def test_auto_is_onnx_here_and_torch_without_onnxruntime(built, monkeypatch):
    assert AdaMMConfig().text_backend == "auto"
    monkeypatch.setenv("ADAMM_CACHE_DIR", str(built))
    enc = SentenceTransformerEncoder()
    assert (enc.backend, enc._model, enc.dim) == ("onnx", None, 384)

    find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "onnxruntime" else find_spec(name, *a),
    )
    enc = SentenceTransformerEncoder()
    assert enc.backend == "torch" and enc._onnx is None and enc._model is not None


def test_auto_builds_when_there_is_no_export(cache):
    enc = SentenceTransformerEncoder()
    assert enc.backend == "onnx" and enc._onnx.manifest.recipe == "built"
    assert enc._onnx.folder.parent == cache / "onnx"


def test_a_built_export_does_not_depend_on_torch(monkeypatch, tmp_path):
    """Its key holds onnx, onnxruntime and tokenizers, not torch's version."""
    monkeypatch.setenv("ADAMM_CACHE_DIR", str(tmp_path))
    args = ("m", "/models/m", "onnx")
    built = onnx_cache.export_folder(*args, recipe="built")
    exported = onnx_cache.export_folder(*args)
    assert built != exported
    version = onnx_cache.metadata.version
    monkeypatch.setattr(
        onnx_cache.metadata,
        "version",
        lambda name: "99.0" if name == "torch" else version(name),
    )
    assert onnx_cache.export_folder(*args, recipe="built") == built
    assert onnx_cache.export_folder(*args) != exported
    assert set(onnx_cache.package_versions("built")) == {
        "onnx",
        "onnxruntime",
        "tokenizers",
    }


@pytest.mark.parametrize(
    ("file", "changes", "message"),
    [
        ("config.json", {"hidden_act": "gelu_10"}, "hidden_act 'gelu_10'"),
        ("config.json", {"model_type": "mpnet"}, "model_type 'mpnet' is not bert"),
        (
            "config.json",
            {"position_embedding_type": "relative_key"},
            "position_embedding_type 'relative_key'",
        ),
        (
            "1_Pooling/config.json",
            {"pooling_mode_mean_tokens": False, "pooling_mode_max_tokens": True},
            "pooling 'max_token'",
        ),
    ],
)
def test_unsupported_models_are_refused_by_name(minilm, file, changes, message):
    edit_json(minilm / file, **changes)
    with pytest.raises(AdaMMError, match=message) as raised:
        read_spec(minilm)
    assert str(minilm) in str(raised.value)
    assert not onnx_build.buildable(minilm)


def test_a_folder_without_a_tokenizer_is_refused(minilm, cache):
    (minilm / "tokenizer.json").unlink()
    with pytest.raises(AdaMMError, match="no tokenizer.json"):
        onnx_build.build_export("m", minilm, "onnx")
    assert not list(cache.rglob("*.onnx"))


def test_without_torch_an_unbuildable_model_says_what_to_install(
    minilm, cache, monkeypatch
):
    edit_json(minilm / "config.json", hidden_act="gelu_10")
    monkeypatch.setattr(
        text_backends, "importable", lambda m: m != "sentence_transformers"
    )
    with pytest.raises(AdaMMError, match="hidden_act 'gelu_10'.*langgraph-adamm"):
        SentenceTransformerEncoder(str(minilm), backend="onnx")
    assert not text_backends.onnx_can_serve(str(minilm), minilm)


def test_a_wrong_graph_is_caught_by_the_numpy_forward(cache, monkeypatch):
    monkeypatch.setattr(
        onnx_build, "_activation", lambda g, x, activation: g.op("Relu", x)
    )
    source = text_backends.model_folder(encoders.DEFAULT_TEXT_MODEL)
    with pytest.raises(AdaMMError, match="drifts from the numpy forward pass"):
        onnx_build.build_export("all-MiniLM-L6-v2", source, "onnx")
    assert not list(cache.rglob("*.onnx"))


def no_torch(code_setup: str, cache: Path) -> dict:
    code = NO_TORCH.format(heavy=HEAVY, setup=code_setup)
    out = subprocess.run(
        [sys.executable, "-c", code, json.dumps(TEXTS)],
        capture_output=True,
        text=True,
        env={**os.environ, "ADAMM_CACHE_DIR": str(cache)},
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    return {**json.loads(out.stdout.strip().splitlines()[-1]), "stderr": out.stderr}


@pytest.mark.slow
def test_a_process_without_torch_builds_then_finds_the_export(tmp_path, torch_vectors):
    first = no_torch("", tmp_path)
    assert "to ONNX (onnx) once without torch" in first["stderr"]
    again = no_torch(
        "onnx_build.build_export = None  # a second build would fail", tmp_path
    )
    for run in (first, again):
        assert run["backend"] == "onnx" and run["recipe"] == "built"
        assert run["available"] is True and run["loaded"] == []
        cosines = np.sum(np.asarray(run["vectors"]) * torch_vectors, axis=1)
        assert cosines.min() >= 0.9999, cosines


def test_counting_a_batch_gives_each_texts_pieces(built, monkeypatch):
    """Views tokenized as one batch are cut and embedded as one by one."""
    monkeypatch.setenv("ADAMM_CACHE_DIR", str(built))
    enc = SentenceTransformerEncoder(backend="onnx")
    texts = [*TEXTS, " ".join(TEXTS) * 8]
    one_by_one = [enc.chunks(t) for t in texts]
    fresh = enc.encode(texts)
    enc._onnx._kept.clear()
    assert enc.chunks_many(texts) == one_by_one
    assert len(one_by_one[-1]) > 1
    assert enc._onnx._kept  # the whole texts' encodings kept for encode
    assert np.array_equal(enc.encode(texts), fresh)
