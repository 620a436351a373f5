"""Bad input never costs valid rounds, and errors are the library's own.

Each test reproduces an input from the hardening issue and asserts that every
valid round is stored exactly once (a clean re-ingest finds them all already
stored) and that what went wrong is reported, naming where.
"""

from __future__ import annotations

import json

import pytest

from langgraph_adamm import AdaMMError, Memory
from langgraph_adamm.history import read_history

VALID = [{"user": f"Sleep: {7 + i % 3} h, Score: {70 + i}"} for i in range(12)]


def doc(rounds, user_id="u"):
    return {
        "user_id": user_id,
        "sessions": [{"session_id": "S1", "date": "2026-03-01", "rounds": rounds}],
    }


def ingest_file(tmp_path, path):
    with Memory(tmp_path / "m.duckdb", user_id="u", retrieval=False) as m:
        rep = m.ingest(path)
        again = m.ingest(path)
        stored = m.db.fetchall("SELECT count(*) FROM adamm_rounds")[0][0]
    return rep, again, stored


def test_a_lone_surrogate_is_replaced_and_reported(tmp_path):
    rounds = [*VALID[:6], {"user": "Sleep: 7 h, note: bad \ud800 text"}, *VALID[6:]]
    path = tmp_path / "h.json"
    path.write_text(json.dumps(doc(rounds)))  # json escapes it as \\ud800
    rep, again, stored = ingest_file(tmp_path, path)
    assert stored == 13 and rep.rounds_new == 13 and again.rounds_new == 0
    (problem,) = rep.problems
    assert "rounds[6]" in str(problem) and "surrogate" in str(problem)


def test_duplicate_image_ids_in_a_round_are_renamed(tmp_path):
    imgs = [{"image_id": "x", "caption": "a chart"}, {"image_id": "x", "caption": "b"}]
    path = tmp_path / "h.json"
    path.write_text(json.dumps(doc([*VALID, {"user": "two pics", "images": imgs}])))
    rep, again, stored = ingest_file(tmp_path, path)
    assert stored == 13 and again.rounds_already_stored == 13
    assert any("duplicate image_id 'x' renamed 'x#2'" in str(p) for p in rep.problems)


def test_a_huge_integer_costs_only_its_value(tmp_path):
    text = json.dumps(doc([*VALID, {"user": "big", "metadata": {"n": 7}}]))
    text = text.replace('"n": 7', '"n": ' + "9" * 5000)
    path = tmp_path / "h.json"
    path.write_text(text)
    rep, _, stored = ingest_file(tmp_path, path)
    assert stored == 13 and not rep.failures


def test_a_latin1_byte_costs_only_its_line(tmp_path):
    lines = [json.dumps({"session_id": "S1", **r}).encode() for r in VALID]
    lines.insert(
        3,
        '{"session_id": "S1", "user": "caf\xe9 2 \u20ac"}'.encode("latin-1", "replace"),
    )
    path = tmp_path / "h.jsonl"
    path.write_bytes(b"\n".join(lines))
    rep, again, stored = ingest_file(tmp_path, path)
    assert stored == 12 and again.rounds_new == 0
    assert any("line 4" in str(p) and "UTF-8" in str(p) for p in rep.problems)


def test_utf16_and_bom_files_are_decoded(tmp_path):
    for codec in ("utf-16", "utf-8-sig"):
        path = tmp_path / f"h-{codec}.json"
        path.write_bytes(json.dumps(doc(VALID), ensure_ascii=False).encode(codec))
        result = read_history(path)
        assert result.history.round_count == 12 and not result.problems


def test_a_deeply_nested_round_is_skipped_and_the_rest_kept(tmp_path):
    text = json.dumps(doc([*VALID, {"user": "deep", "metadata": {"x": 0}}]))
    deep = '{"x": ' * 990 + "0" + "}" * 990  # json.dumps itself cannot nest so deep
    path = tmp_path / "h.json"
    path.write_text(text.replace('{"x": 0}', deep))
    rep, _, stored = ingest_file(tmp_path, path)
    assert stored == 12
    assert any("nested" in str(p) and "rounds[12]" in str(p) for p in rep.problems)


def test_an_oversized_round_is_skipped_and_reported(tmp_path):
    path = tmp_path / "h.json"
    path.write_text(json.dumps(doc([*VALID, {"user": "x" * 300_000}])))
    rep, _, stored = ingest_file(tmp_path, path)
    assert stored == 12
    assert any("300,000 characters" in str(p) for p in rep.problems)


def test_errors_are_the_librarys_own(tmp_path):
    with pytest.raises(AdaMMError, match="user_id"):
        Memory(":memory:", user_id="\ud800")
    m = Memory(":memory:", user_id="u", retrieval=False)
    m.ingest(tmp_path / "h.json") if False else None
    from langgraph_adamm.history import history_from_dict

    m.ingest(history_from_dict(doc(VALID)))
    (t,) = m.tables
    with pytest.raises(AdaMMError):
        m.filter(
            {
                "table": t.table_name,
                "column_filters": [
                    {"column": "time", "op": "=", "value": "9999-12-31"}
                ],
            }
        )
    m.close()
    with pytest.raises(AdaMMError, match="closed"):
        m.compute({"table": t.table_name, "operator": "count"})


def test_a_missing_visual_model_is_said_once_in_the_librarys_words(caplog):
    pytest.importorskip("open_clip")
    from langgraph_adamm.retrieval import encoders

    with encoders._CACHE_LOCK:
        encoders._CACHE.clear()
    encoders._WARNED.discard("visual")
    with caplog.at_level("DEBUG"):
        assert encoders.load_visual_encoder() is None  # no weights offline
    assert not [r for r in caplog.records if r.name == "root"]


def test_an_image_over_the_pixel_limit_is_refused_before_decoding(tmp_path):
    pil = pytest.importorskip("PIL.Image")
    from langgraph_adamm.config import AdaMMConfig
    from langgraph_adamm.retrieval.encoders import load_image

    path = tmp_path / "huge.png"
    pil.new("1", (15000, 11000)).save(path)  # 165 Mpx in a few KB
    assert path.stat().st_size < 200_000
    with pytest.raises(AdaMMError, match="15000 x 11000 px, over the"):
        load_image(path, max_pixels=AdaMMConfig().max_image_pixels)


def test_opening_a_memory_loads_no_model_until_retrieval_is_used(tmp_path):
    pytest.importorskip("sentence_transformers")
    from langgraph_adamm.history import history_from_dict

    path = tmp_path / "m.duckdb"
    with Memory(path, user_id="u", retrieval=False) as m:
        m.ingest(history_from_dict(doc(VALID)))
    with Memory(path, user_id="u") as m:
        assert (
            m.describe_tables()
            and m.compute({"table": m.tables[0].table_name, "operator": "count"}).value
            == 12
        )
        assert m._retrieval_open is False  # analytic calls loaded no encoder
        assert m.retrieval is not None and m._retrieval_open is True


def test_a_damaged_database_is_reported_as_such(tmp_path):
    from langgraph_adamm.cli import main
    from langgraph_adamm.history import history_from_dict

    path = tmp_path / "m.duckdb"
    rounds = [
        {"user": f"Sleep: {7 + i % 3} h, Score: {i}, Note: {'x' * 200}"}
        for i in range(3000)
    ]
    with Memory(path, user_id="u", retrieval=False) as m:
        m.ingest(history_from_dict(doc(rounds)))
    size = path.stat().st_size
    with open(path, "r+b") as f:  # scribble over the middle third
        for off in range(size // 3, 2 * size // 3, 4096):
            f.seek(off + 100)
            f.write(b"\xde\xad\xbe\xef" * 64)
    assert main(["tables", "--db", str(path)]) == 2
    with pytest.raises(AdaMMError):
        with Memory(path, user_id="u", retrieval=False) as m:
            m.describe_tables()
            m.ingest(history_from_dict(doc(VALID)))


def test_progress_starts_before_the_first_round_and_counts_each_round():
    from langgraph_adamm.config import AdaMMConfig
    from langgraph_adamm.history import history_from_dict

    calls: list[tuple[int, int]] = []
    cfg = AdaMMConfig(ingest_batch_size=500)
    with Memory(":memory:", user_id="u", retrieval=False, config=cfg) as m:
        m.ingest(
            history_from_dict(doc(VALID)), progress=lambda d, t: calls.append((d, t))
        )
    assert calls[0] == (0, 12)  # the total is known before any round
    assert calls[1:] == [(i, 12) for i in range(1, 13)]  # not only per batch
