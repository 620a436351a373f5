"""The torch export: offline from the packaged model, cache, checks.

The packaged MiniLM is built without torch by default
(tests/test_onnx_build.py); here the builder refuses it, as it refuses models
it cannot write, so that the torch export is made.
"""

from __future__ import annotations

import numpy as np
import pytest

from langgraph_adamm import AdaMMConfig, AdaMMError, Memory

pytest.importorskip("sentence_transformers")
pytest.importorskip("onnxruntime")

from langgraph_adamm.retrieval import onnx_backend, onnx_build  # noqa: E402
from langgraph_adamm.retrieval.encoders import SentenceTransformerEncoder  # noqa: E402
from tests.test_forest_discovery import garden_history  # noqa: E402

TEXTS = [
    "Deep sleep 1h 12m, REM 1h 40m, score 82",
    "Can you suggest a quiet café near the station?",
    "Total: $48.82 Paid with Visa",
    "ok",
    "word " * 400,  # longer than the model's window: truncated like torch
]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ADAMM_CACHE_DIR", str(tmp_path / "cache"))

    def refuse(name, source, backend):
        raise AdaMMError(f"{source}: refused for this test")

    monkeypatch.setattr(onnx_build, "build_export", refuse)
    return tmp_path / "cache"


def cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.sum(a * b, axis=1)


def test_exports_offline_and_matches_torch(cache):
    torch_vecs = SentenceTransformerEncoder(backend="torch").encode(TEXTS)
    fp32 = SentenceTransformerEncoder(backend="onnx")
    int8 = SentenceTransformerEncoder(backend="onnx-int8")
    assert fp32._onnx.path.parent.parent == cache / "onnx"
    assert fp32._onnx.path != int8._onnx.path  # keyed by backend
    assert fp32._onnx.manifest.recipe == int8._onnx.manifest.recipe == "torch"
    got = fp32.encode(TEXTS)
    assert got.shape == (5, 384) and fp32.dim == 384
    assert cosines(got, torch_vecs).min() > 0.9999
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)
    assert cosines(int8.encode(TEXTS), torch_vecs).min() > 0.95
    # batches sorted by length give the same rows as one text at a time
    one_by_one = np.vstack([fp32.encode([t]) for t in TEXTS])
    assert cosines(got, one_by_one).min() > 0.99999
    assert fp32.encode([]).shape == (0, 384)


def test_a_cached_export_is_reused(cache, monkeypatch):
    first = SentenceTransformerEncoder(backend="onnx")._onnx.path

    def no_export(*args, **kwargs):
        raise AssertionError("exported again")

    monkeypatch.setattr(onnx_backend.OnnxTextModel, "_export", no_export)
    assert SentenceTransformerEncoder(backend="onnx")._onnx.path == first


@pytest.mark.parametrize("floors", [(1.01, 0.0), (0.0, 1.01)], ids=["worst", "mean"])
def test_a_drifting_export_is_refused_and_not_cached(cache, monkeypatch, floors):
    monkeypatch.setitem(onnx_backend.MIN_PROBE_COSINE, "onnx", floors)
    with pytest.raises(AdaMMError, match="drifts from torch"):
        SentenceTransformerEncoder(backend="onnx")
    assert not list(cache.rglob("*.onnx"))


def test_unknown_backends_are_refused():
    with pytest.raises(AdaMMError, match="unknown text backend"):
        SentenceTransformerEncoder(backend="tensorrt")
    with pytest.raises(ValueError, match="text_backend"):
        AdaMMConfig(text_backend="onnx-fp16")


def test_memory_on_the_onnx_backend_finds_what_torch_finds(cache):
    found = []
    for backend in ("torch", "onnx"):
        with Memory(
            ":memory:",
            user_id="u",
            visual_encoder=None,
            config=AdaMMConfig(text_backend=backend),
        ) as m:
            m.ingest(garden_history())
            assert m.retrieval.text_encoder.backend == backend
            found.append(
                [u.unit_id for u in m.semantic_match("bike gears", "event", 3)]
            )
    assert found[0] == found[1]
