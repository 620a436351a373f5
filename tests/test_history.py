import json

import pytest

from langgraph_adamm.errors import HistoryFormatError
from langgraph_adamm.history import read_history, read_questions


def write(tmp_path, name, content):
    p = tmp_path / name
    p.write_text(content if isinstance(content, str) else json.dumps(content))
    return p


def test_json_document_defaults(tmp_path):
    p = write(
        tmp_path,
        "h.json",
        {
            "sessions": [
                {
                    "session_id": "S1",
                    "date": "2026-03-02",
                    "rounds": [
                        {"user": "hi"},
                        {"assistant": "yo", "time": "2026-03-02T08:00:00Z"},
                    ],
                }
            ]
        },
    )
    res = read_history(p)
    assert not res.problems
    rounds = list(res.history.rounds())
    assert res.history.user_id == "default"
    assert [r.round_id for r in rounds] == ["S1:1", "S1:2"]
    assert rounds[0].time.isoformat() == "2026-03-02T00:00:00"
    assert rounds[1].time.isoformat() == "2026-03-02T08:00:00"


def test_bad_rounds_are_reported_and_valid_ones_kept(tmp_path):
    p = write(
        tmp_path,
        "h.json",
        {
            "user_id": "a",
            "sessions": [
                {
                    "session_id": "S1",
                    "rounds": [
                        {"round_id": "r1", "user": "ok"},
                        {"round_id": "r2", "user": "bad time", "time": "yesterday"},
                        {"round_id": "r1", "user": "duplicate"},
                        {"round_id": "r4"},
                        {
                            "round_id": "r5",
                            "user": "img",
                            "images": [{"path": "missing.png"}],
                        },
                        "not an object",
                    ],
                }
            ],
        },
    )
    res = read_history(p)
    assert [r.round_id for r in res.history.rounds()] == ["r1", "r5"]
    text = "\n".join(str(x) for x in res.problems)
    assert "sessions[0].rounds[1].time" in text and "yesterday" in text
    assert "duplicate round_id 'r1'" in text
    assert "sessions[0].rounds[3]" in text and "at least one of" in text
    assert "image file not found" in text
    assert "h.json" in text
    assert res.skipped_rounds == 4  # the missing image keeps its round
    with pytest.raises(HistoryFormatError, match="yesterday"):
        read_history(p, strict=True)


def test_json_lines(tmp_path):
    lines = [
        {"session_id": "A", "date": "2026-01-01", "user": "one"},
        {"session_id": "B", "user": "two", "time": "2026-01-02T10:00"},
        {"session_id": "A", "user": "three"},
    ]
    body = "\n".join(json.dumps(x) for x in lines) + "\n{broken\n"
    res = read_history(write(tmp_path, "h.jsonl", body))
    assert [s.session_id for s in res.history.sessions] == ["A", "B"]
    assert [r.round_id for r in res.history.sessions[0].rounds] == ["A:1", "A:2"]
    assert res.history.sessions[0].rounds[1].time.isoformat() == "2026-01-01T00:00:00"
    assert len(res.problems) == 1 and "line 4" in str(res.problems[0])


def test_unknown_shape_and_unreadable(tmp_path):
    with pytest.raises(HistoryFormatError, match="sessions"):
        read_history(write(tmp_path, "x.json", {"rounds": []}))
    with pytest.raises(HistoryFormatError, match="line 1 column"):
        read_history(write(tmp_path, "y.json", "{nope"))
    with pytest.raises(HistoryFormatError, match="cannot read"):
        read_history(tmp_path / "absent.json")


def test_questions(tmp_path):
    p = write(
        tmp_path,
        "q.jsonl",
        json.dumps(
            {
                "question": "avg?",
                "answer": 1.5,
                "evidence": ["S1:1"],
                "question_time": "2026-04-01T09:00:00",
                "gold": {},
            }
        )
        + "\n",
    )
    (q,) = read_questions(p)
    assert q.question_id == "q1" and q.answer == "1.5" and q.extra == {"gold": {}}
    bad = write(tmp_path, "b.jsonl", '{"question": 3}\n')
    with pytest.raises(HistoryFormatError, match="line 1"):
        read_questions(bad)
