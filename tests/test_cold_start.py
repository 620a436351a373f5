"""A question from a cold process: a cached ONNX export, and no torch on its path."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

pytest.importorskip("sentence_transformers")
pytest.importorskip("onnxruntime")
pytest.importorskip("tokenizers")

from langgraph_adamm import AdaMMConfig, Memory  # noqa: E402
from langgraph_adamm.cli import _has_image_vectors  # noqa: E402
from langgraph_adamm.retrieval import encoders, onnx_cache  # noqa: E402
from langgraph_adamm.retrieval.encoders import SentenceTransformerEncoder  # noqa: E402
from langgraph_adamm.storage.database import MemoryDatabase  # noqa: E402
from tests.test_forest_discovery import garden_history  # noqa: E402

TEXTS = [
    "I slept 7.5 hours last night and felt rested.",
    "  leading and trailing spaces\n",
    "Où est la gare ? Je voudrais un café au lait, s'il vous plaît.",
    "駅はどこですか。明日は雨が降るでしょう。",
    "Schlafdauer 7 Std. 12 Min., Ruhepuls 52 - Übelkeit keine",
    "word " * 400,  # longer than the model's 256-token window
    "ok",
]
HEAVY = ("torch", "transformers", "sentence_transformers", "open_clip")


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    """A cache holding the fp32 export of the packaged MiniLM (made once)."""
    folder = tmp_path_factory.mktemp("onnx-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ADAMM_CACHE_DIR", str(folder))
        SentenceTransformerEncoder(backend="onnx")
        yield folder


@pytest.fixture(scope="module")
def torch_encoder():
    return SentenceTransformerEncoder(backend="torch")


@pytest.fixture
def no_sentence_transformers(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("sentence-transformers loaded")

    monkeypatch.setattr(encoders, "_load_sentence_transformer", refuse)


def test_a_cached_export_is_found_without_loading_the_model(
    cache, no_sentence_transformers
):
    enc = SentenceTransformerEncoder(backend="onnx")
    assert enc._model is None
    # what a memory stores and checks on open: the same as the torch encoder's
    assert (enc.name, enc.dim) == ("all-MiniLM-L6-v2", 384)
    fresh = onnx_cache.find_export(enc.name, enc._source, "onnx")
    assert fresh is not None and fresh._session is None  # loaded on first encode
    assert enc._onnx.path.parent.parent == cache / "onnx"
    manifest = enc._onnx.manifest
    assert (manifest.pooling, manifest.normalize, manifest.max_length) == (
        "mean",
        True,
        256,
    )
    assert enc.encode(["a first query"]).shape == (1, 384)


def test_tokenization_is_sentence_transformers(
    cache, torch_encoder, no_sentence_transformers
):
    runner = SentenceTransformerEncoder(backend="onnx")._onnx
    want = torch_encoder._model.preprocess(TEXTS)
    got = runner.tokenize(TEXTS)
    assert got["input_ids"].shape == (len(TEXTS), 256)  # truncated, padded
    for key in ("input_ids", "attention_mask", "token_type_ids"):
        assert np.array_equal(got[key], want[key].numpy()), key


def test_torch_free_vectors_are_torchs(cache, torch_encoder, no_sentence_transformers):
    fast = SentenceTransformerEncoder(backend="onnx")
    got = fast.encode(TEXTS)
    assert fast._model is None
    cosines = np.sum(got * torch_encoder.encode(TEXTS), axis=1)
    assert cosines.min() >= 0.9999, cosines
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)
    # long views are cut where the torch tokenizer cuts them
    long = " ".join(
        f"Day {i}: watered the tomatoes by the south fence." for i in range(90)
    )
    pieces = fast.chunks(long)
    assert len(pieces) > 1 and pieces == torch_encoder.chunks(long)


@pytest.mark.slow
def test_a_cold_ask_imports_no_torch(cache, tmp_path):
    db = tmp_path / "m.duckdb"
    with Memory(
        db, user_id="u", visual_encoder=None, config=AdaMMConfig(text_backend="onnx")
    ) as m:
        m.ingest(garden_history())
    code = textwrap.dedent(f"""
        import json, sys
        from langgraph_adamm.cli import main
        rc = main(["ask", "--db", sys.argv[1], "--json",  # the default backend
                   "When did I plant tomatoes by the fence?"])
        print(json.dumps({{"rc": rc, "heavy": [m for m in {HEAVY!r}
                                               if m in sys.modules]}}))
    """)
    env = {**os.environ, "ADAMM_CACHE_DIR": str(cache)}
    out = subprocess.run(
        [sys.executable, "-c", code, str(db)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.strip().splitlines()
    answer, check = json.loads(lines[0]), json.loads(lines[-1])
    assert check == {"rc": 0, "heavy": []}
    assert "tomato" in json.dumps(answer).lower()
    # a memory holding image vectors would load the visual encoder (and torch)
    assert not _has_image_vectors(str(db), "u")
    with MemoryDatabase(str(db)) as raw:
        raw.execute(
            "INSERT INTO adamm_event_views (user_id, round_id, view, modality, vec) "
            "VALUES ('u', 'S1:2', 'image:IMG1', 'visual', ?)",
            [np.zeros(4, dtype=np.float32).tobytes()],
        )
    assert _has_image_vectors(str(db), "u")


def _fake_export(tmp_path):
    """A model folder and an export folder whose manifest describes it."""
    source = tmp_path / "model"
    (source / "1_Pooling").mkdir(parents=True)
    (source / "config.json").write_text('{"hidden_size": 4}')
    (source / "model.safetensors").write_bytes(b"\x00" * 64)
    (source / "1_Pooling" / "config.json").write_text("{}")
    (source / ".cache").mkdir()
    (source / ".cache" / "lock").write_text("ignored")
    folder = onnx_cache.export_folder("m", str(source), "onnx")
    folder.mkdir(parents=True)
    (folder / "model.onnx").write_bytes(b"onnx")
    (folder / "tokenizer.json").write_text("{}")
    files = onnx_cache.source_files(source)
    manifest = onnx_cache.ExportManifest(
        format=onnx_cache.CACHE_FORMAT,
        backend="onnx",
        model="m",
        source=str(source),
        files=files,
        digest=onnx_cache.digest_files(source, list(files)),
        packages=onnx_cache.package_versions(),
        model_file="model.onnx",
        inputs=["input_ids", "attention_mask"],
        max_length=8,
        pad_id=0,
        pad_token="[PAD]",
        pooling="mean",
        normalize=True,
        dim=4,
    )
    onnx_cache.write_manifest(folder, manifest)
    return source, folder


def test_the_cache_key_and_the_stat_check(tmp_path, monkeypatch):
    monkeypatch.setenv("ADAMM_CACHE_DIR", str(tmp_path / "cache"))
    source, folder = _fake_export(tmp_path)
    assert set(onnx_cache.source_files(source)) == {
        "config.json",
        "model.safetensors",
        "1_Pooling/config.json",
    }  # hidden files are not the model's
    found = onnx_cache.find_export("m", source, "onnx")
    assert found is not None and found.folder == folder and found.dim == 4
    assert onnx_cache.find_export("m", source, "onnx-int8") is None  # keyed apart
    assert onnx_cache.find_export("other", source, "onnx") is None

    # touched (a reinstall), same contents: reused, and the listing refreshed
    weights = source / "model.safetensors"
    stat = weights.stat()
    os.utime(weights, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    assert onnx_cache.current_export(folder, source) is not None
    assert onnx_cache.read_manifest(folder).files == onnx_cache.source_files(source)

    # other contents: not current (the caller exports again)
    weights.write_bytes(b"\x01" * 64)
    assert onnx_cache.current_export(folder, source) is None


def test_other_package_versions_or_a_broken_manifest_are_not_current(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("ADAMM_CACHE_DIR", str(tmp_path / "cache"))
    source, folder = _fake_export(tmp_path)
    versions = {**onnx_cache.package_versions(), "torch": "0.0.1"}
    monkeypatch.setattr(onnx_cache, "package_versions", lambda *recipe: versions)
    assert onnx_cache.export_folder("m", str(source), "onnx") != folder
    assert onnx_cache.current_export(folder, source) is None
    monkeypatch.undo()
    monkeypatch.setenv("ADAMM_CACHE_DIR", str(tmp_path / "cache"))
    assert onnx_cache.current_export(folder, source) is not None
    (folder / "manifest.json").write_text("{not json")
    assert onnx_cache.current_export(folder, source) is None
    assert onnx_cache.find_export("m", source, "onnx") is None


@pytest.mark.slow
def test_a_damaged_cached_export_is_made_again(tmp_path, monkeypatch):
    monkeypatch.setenv("ADAMM_CACHE_DIR", str(tmp_path / "cache"))
    want = SentenceTransformerEncoder(backend="onnx").encode(TEXTS[:3])
    enc = SentenceTransformerEncoder(backend="onnx")
    assert enc._model is None
    # a runner of its own: the process's shared one has its session loaded
    enc._onnx = onnx_cache.OnnxTextRunner(enc._onnx.folder, enc._onnx.manifest)
    enc._onnx.path.write_bytes(b"not an onnx file")
    got = enc.encode(TEXTS[:3])  # warns, exports again (without torch), answers
    assert np.sum(got * want, axis=1).min() > 0.9999
    assert SentenceTransformerEncoder(backend="onnx")._model is None


@pytest.mark.slow
def test_a_model_without_a_local_folder_is_keyed_by_its_weights(
    tmp_path, monkeypatch, torch_encoder
):
    from langgraph_adamm.retrieval.onnx_backend import OnnxTextModel

    monkeypatch.setenv("ADAMM_CACHE_DIR", str(tmp_path / "cache"))
    first = OnnxTextModel(torch_encoder._model, "onnx", "someone/minilm")
    assert first.runner.manifest.source == "" and first.runner.manifest.files == {}

    def no_export(*args, **kwargs):
        raise AssertionError("exported again")

    monkeypatch.setattr(OnnxTextModel, "_export", no_export)
    again = OnnxTextModel(torch_encoder._model, "onnx", "someone/minilm")
    assert again.path == first.path and again.path.parent.name.startswith("minilm-")
