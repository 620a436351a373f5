import copy
import importlib.util
import json
from datetime import datetime

import pytest

from langgraph_adamm.cli import _METHODS, main
from langgraph_adamm.evaluation.baselines import BM25Retriever, reciprocal_rank_fusion
from langgraph_adamm.evaluation.common import METHODS
from langgraph_adamm.evaluation.locomo import (
    load_conversation,
    normalise_evidence,
    parse_date_time,
    problems,
    scored,
)
from langgraph_adamm.history import read_history, read_questions

# Written for these tests in LoCoMo's shape (no LoCoMo data is copied here).
ITEM = {
    "sample_id": "conv-t1",
    "conversation": {
        "speaker_a": "Ada",
        "speaker_b": "Ben",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {
                "speaker": "Ada",
                "dia_id": "D1:1",
                "text": "Hi Ben! I finally signed up for the pottery class downtown.",
            },
            {
                "speaker": "Ben",
                "dia_id": "D1:2",
                "text": "Nice. I went hiking with my cousin Thaddeus last weekend.",
            },
            {
                "speaker": "Ada",
                "dia_id": "D1:3",
                "text": "Your cousin? The one who moved to Lisbon?",
            },
            {
                "speaker": "Ben",
                "dia_id": "D1:4",
                "text": "Yes, he is back for a month. Look at this view!",
                "img_url": ["https://example.org/lake.jpg"],
                "blip_caption": "a photo of a mountain lake with pine trees",
                "query": "mountain lake trail",
            },
        ],
        "session_2_date_time": "9:05 am on 20 June, 2023",
        "session_2": [
            {
                "speaker": "Ada",
                "dia_id": "D2:1",
                "text": "My first bowl came out of the kiln yesterday!",
            },
            {
                "speaker": "Ben",
                "dia_id": "D2:2",
                "text": "Congratulations! What colour is the glaze?",
            },
            {
                "speaker": "Ada",
                "dia_id": "D2:3",
                "text": "Deep blue. It is a present for my sister.",
            },
            {
                "speaker": "Ben",
                "dia_id": "D2:4",
                "text": "I started learning to play the cello.",
            },
        ],
    },
    "qa": [
        {
            "question": "Where did the cousin Ben hiked with move to?",
            "answer": "Lisbon",
            "evidence": ["D1:2; D1:3"],
            "category": 1,
        },
        {
            "question": "When did Ada sign up for the pottery class?",
            "answer": "8 May 2023",
            "evidence": ["D1:1"],
            "category": 2,
        },
        {
            "question": "Would Ada enjoy a ceramics fair?",
            "answer": "Likely yes",
            "evidence": ["D1:1", "D2:1", "D:"],
            "category": 3,
        },
        {
            "question": "What colour is the glaze of Ada's first bowl?",
            "answer": "Deep blue",
            "evidence": ["D2:3", "D9:9"],
            "category": 4,
        },
        {
            "question": "What did Ben take a photo of on his hike?",
            "answer": 1,
            "evidence": ["D1:4"],
            "category": 4,
        },
        {
            "question": "What instrument did Ada start learning?",
            "adversarial_answer": "cello",
            "evidence": ["D2:4"],
            "category": 5,
        },
        {
            "question": "What is Ada's favourite season?",
            "answer": "Not mentioned",
            "evidence": [],
            "category": 3,
        },
    ],
}


def write_file(tmp_path, items=None):
    path = tmp_path / "locomo-tiny.json"
    path.write_text(json.dumps([ITEM] if items is None else items))
    return path


def test_session_date_times_parse():
    assert parse_date_time("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56)
    assert parse_date_time("12:48 am on 1 February, 2023") == datetime(
        2023, 2, 1, 0, 48
    )
    assert parse_date_time("10:04 AM on 30 October 2022") == datetime(
        2022, 10, 30, 10, 4
    )
    # only LoCoMo's shape: no guessing of missing parts from today's date
    for text in ("May", "sometime in May, 2023", "1:56 pm on 31 February, 2023", None):
        assert parse_date_time(text) is None


def test_evidence_is_split_checked_and_counted():
    known = {"D1:1", "D1:2", "D1:3", "D2:1", "D2:2"}
    valid, malformed, unknown = normalise_evidence(
        ["D1:2; D1:3", "D1:2", " D2:1 ,D2:2", "D:", "D9:9", "d1:1", "D:1:1"], known
    )
    assert valid == ("D1:2", "D1:3", "D2:1", "D2:2")
    assert malformed == ["D:", "d1:1", "D:1:1"]
    assert unknown == ["D9:9"]


def test_loader_maps_turns_photos_and_questions():
    history, questions = load_conversation(ITEM)
    assert history.user_id == "conv-t1"
    assert [s.session_id for s in history.sessions] == ["session_1", "session_2"]
    rounds = {r.round_id: r for r in history.rounds()}
    assert list(rounds) == [
        "D1:1",
        "D1:2",
        "D1:3",
        "D1:4",
        "D2:1",
        "D2:2",
        "D2:3",
        "D2:4",
    ]
    assert rounds["D1:2"].user.startswith("Ben: Nice. I went hiking")
    assert rounds["D1:2"].time == datetime(2023, 5, 8, 13, 56)
    assert rounds["D2:4"].time == datetime(2023, 6, 20, 9, 5)
    assert history.sessions[1].date.isoformat() == "2023-06-20"
    photo = rounds["D1:4"]
    assert [i.caption for i in photo.images] == [
        "a photo of a mountain lake with pine trees"
    ]
    assert photo.images[0].path is None
    assert photo.metadata["img_url"] == ["https://example.org/lake.jpg"]
    assert rounds["D1:1"].images == ()
    assert [q.type for q in questions] == [
        "multi-hop",
        "temporal",
        "open-domain",
        "single-hop",
        "single-hop",
        "adversarial",
        "open-domain",
    ]
    assert questions[0].evidence == ("D1:2", "D1:3")
    assert questions[2].evidence == ("D1:1", "D2:1")
    assert questions[2].extra["evidence_malformed"] == ["D:"]
    assert questions[3].extra["evidence_unknown"] == ["D9:9"]
    assert questions[4].answer == "1"
    assert questions[5].answer is None
    assert questions[5].extra["adversarial_answer"] == "cello"
    # the adversarial question and the one without evidence are not scored
    assert [q.question_id for q in scored(questions)] == [
        f"conv-t1:{i}" for i in range(1, 6)
    ]


def test_problems_are_counted():
    loaded = [load_conversation(ITEM)]
    counts = problems(loaded)
    assert counts["evidence_problems"] == {
        "malformed": 1,
        "unknown": 1,
        "ids": ["conv-t1:3: 'D:'", "conv-t1:4: 'D9:9'"],
    }
    assert counts["excluded"] == {"adversarial": 1, "no_valid_evidence": 1}
    assert counts["undated_sessions"] == 0


def test_an_unparsable_session_date_leaves_its_rounds_without_time():
    item = copy.deepcopy(ITEM)
    item["conversation"]["session_2_date_time"] = "the Tuesday after"
    history, _ = load_conversation(item)
    later = history.sessions[1]
    assert later.date is None
    assert all(r.time is None for r in later.rounds)
    assert later.rounds[0].metadata["session_date_time"] == "the Tuesday after"
    assert [r.round_id for r in later.rounds] == ["D2:1", "D2:2", "D2:3", "D2:4"]
    assert history.sessions[0].rounds[0].time is not None
    assert problems([(history, [])])["undated_sessions"] == 1


def test_bm25_ranks_the_turn_with_a_rare_name_first():
    history, _ = load_conversation(ITEM)
    assert BM25Retriever(history)("Who is Thaddeus?", 3)[0] == "D1:2"
    assert BM25Retriever(history)("Who is Ada's cousin?", 8)[0] in {"D1:2", "D1:3"}
    assert BM25Retriever(history)("quantum chromodynamics", 5) == []


def test_reciprocal_rank_fusion():
    # b: 1/62 + 1/61; a: 1/61; c: 1/62
    assert reciprocal_rank_fusion([["a", "b"], ["b", "c"]]) == ["b", "a", "c"]
    # a: 1/61 + 1/63 just beats b: 2/62
    assert reciprocal_rank_fusion([["a", "b", "c"], ["d", "b", "a"]]) == list("abdc")
    assert reciprocal_rank_fusion([["x", "x", "y"]]) == ["x", "y"]
    assert reciprocal_rank_fusion([["a", "b"], ["b", "a"]]) == ["a", "b"]  # a tie


def test_the_command_line_lists_every_method():
    assert _METHODS == list(METHODS)


def test_convert_writes_the_shared_format(tmp_path):
    src = write_file(tmp_path)
    assert main(["convert", "locomo", str(src), str(tmp_path / "out")]) == 0
    hist = read_history(tmp_path / "out" / "conv-t1.history.json")
    assert not hist.problems and hist.history.round_count == 8
    rounds = {r.round_id: r for r in hist.history.rounds()}
    assert rounds["D1:4"].images[0].caption.startswith("a photo of a mountain")
    assert rounds["D2:1"].time == datetime(2023, 6, 20, 9, 5)
    qs = read_questions(tmp_path / "out" / "conv-t1.questions.jsonl")
    assert len(qs) == 7 and qs[0].evidence == ("D1:2", "D1:3")
    assert qs[0].type == "multi-hop" and qs[0].extra["category"] == 1
    assert qs[3].extra["evidence_unknown"] == ["D9:9"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file"),
        ("{not json", "not JSON"),
        ('{"sessions": []}', "expected a JSON list of LoCoMo conversations"),
        ('[{"sample_id": "c", "qa": []}]', "item [0]: expected a JSON list"),
    ],
)
def test_bad_files_are_clear_errors(tmp_path, capsys, content, message):
    path = tmp_path / "data.json"
    if content is not None:
        path.write_text(content)
    assert main(["eval", "locomo", str(path), "--quiet"]) == 2
    assert main(["convert", "locomo", str(path), str(tmp_path / "out")]) == 2
    assert not (tmp_path / "out").exists()
    err = capsys.readouterr().err
    assert err.count(f"adamm: error: {path}") == 2 and err.count(message) == 2
    assert "Traceback" not in err


def test_a_folder_or_a_bad_turn_is_a_clear_error(tmp_path, capsys):
    assert main(["eval", "locomo", str(tmp_path), "--quiet"]) == 2
    assert "a folder; expected the LoCoMo data file" in capsys.readouterr().err
    item = copy.deepcopy(ITEM)
    del item["conversation"]["session_2"][1]["speaker"]
    src = write_file(tmp_path, [item])
    assert main(["convert", "locomo", str(src), str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert f"{src}: conversation conv-t1: not a LoCoMo item" in err
    assert "'speaker'" in err


needs_encoder = pytest.mark.skipif(
    importlib.util.find_spec("sentence_transformers") is None,
    reason="needs the [retrieval] extra",
)


@pytest.mark.slow
@needs_encoder
def test_eval_command_json(tmp_path, capsys):
    src = write_file(tmp_path)
    assert main(["eval", "locomo", str(src), "--k", "3", "--json", "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["k"] == 3 and out["questions"] == 5
    assert list(out["methods"]) == list(METHODS)
    for m in out["methods"].values():
        assert set(m["by_type"]) == {
            "multi-hop",
            "temporal",
            "open-domain",
            "single-hop",
        }
        assert m["by_type"]["single-hop"]["n"] == 2
    assert out["evidence_problems"]["malformed"] == 1
    assert out["evidence_problems"]["unknown"] == 1
    assert out["excluded"] == {"adversarial": 1, "no_valid_evidence": 1}
    assert out["methods"]["bm25"]["by_type"]["temporal"]["hit"] == 1.0  # "pottery"


@needs_encoder
def test_eval_table_and_forest(tmp_path, capsys):
    src = write_file(tmp_path)
    args = ["eval", "locomo", str(src), "--k", "3", "--quiet", "--methods", "bm25"]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "| **bm25** | **overall** | 5 |" in text
    assert "Not scored: 1 adversarial questions, 1 with no valid evidence id." in text
    assert "1 malformed, 1 naming no turn (conv-t1:3: 'D:'; conv-t1:4: 'D9:9')" in text
    assert main([*args[:-1], "adamm", "--rerank", "forest", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out["methods"]) == ["adamm", "adamm_memories", "adamm+forest"]
    assert out["forest"]["modes"] == {"fixed-edge": 5}
