import json
from pathlib import Path

import pytest

from langgraph_adamm.cli import main
from langgraph_adamm.evaluation.mem_gallery import (
    load_scenario,
    query_text,
    retrieval_metrics,
)
from langgraph_adamm.history import read_history, read_questions

pytest.importorskip("sentence_transformers")

DEV = (
    Path(__file__).resolve().parent.parent.parent / "shared/benchmarks/mem-gallery/dev"
)


def test_metric_definitions():
    # Precision counts over what was returned, after deduplication, within K.
    assert retrieval_metrics(["a", "b", "a", "c"], ["a", "z"], k=3) == {
        "precision": 0.5,
        "recall": 0.5,
        "hit": 1.0,
    }
    assert retrieval_metrics(["x"], ["a"], k=10) == {
        "precision": 0.0,
        "recall": 0.0,
        "hit": 0.0,
    }
    assert retrieval_metrics([], ["a"], k=10)["precision"] == 0.0
    assert retrieval_metrics(["a"] * 12, ["a"], k=10)["precision"] == 1.0


SCENARIO = {
    "character_profile": {"name": "Sam"},
    "multi_session_dialogues": [
        {
            "session_id": "D1",
            "date": "2024-06-10",
            "dialogues": [
                {
                    "round": "D1:1",
                    "user": "I started learning the violin this week.",
                    "assistant": "Wonderful! Which piece are you practising?",
                },
                {
                    "round": "D1:2",
                    "user": "Here is my new bike.",
                    "assistant": "Nice colour!",
                    "image_id": ["D1:IMG_001"],
                    "input_image": ["../image/x/D1_IMG_001.jpg"],
                    "image_caption": ["A bright green road bicycle leaning on a wall."],
                },
            ],
        },
        {
            "session_id": "D2",
            "date": "2024-06-12",
            "dialogues": [
                {
                    "round": "D2:1",
                    "user": "My violin teacher praised my scales.",
                    "assistant": "Great progress.",
                },
                {
                    "round": "D2:2",
                    "user": "What should I cook tonight?",
                    "assistant": "Try a mushroom risotto.",
                },
            ],
        },
    ],
    "human-annotated QAs": [
        {
            "point": "FR",
            "question": "Which instrument is Sam learning?",
            "answer": "Violin",
            "session_id": ["D1"],
            "clue": ["D1:1", "D2:1"],
        },
        {
            "point": "VS",
            "question": "Find the photo of my bicycle.",
            "answer": "D1:IMG_001",
            "session_id": ["D1"],
            "clue": ["D1:2"],
            "question_image": "q.png",
            "image_caption": "a green bicycle",
        },
        {
            "point": "AR",
            "question": "What is Sam's blood type?",
            "answer": "Unknown",
            "session_id": [],
            "clue": [],
        },
    ],
}


def write_scenario(folder):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "Tiny_Scenario.json").write_text(json.dumps(SCENARIO))
    return folder


def test_loader_maps_rounds_images_and_questions(tmp_path):
    history, questions = load_scenario(write_scenario(tmp_path) / "Tiny_Scenario.json")
    rounds = {r.round_id: r for r in history.rounds()}
    assert list(rounds) == ["D1:1", "D1:2", "D2:1", "D2:2"]
    assert rounds["D1:2"].images[0].image_id == "D1:IMG_001"
    assert rounds["D1:2"].images[0].caption.startswith("A bright green")
    assert rounds["D2:1"].time.isoformat() == "2024-06-12T00:00:00"
    assert [q.type for q in questions] == ["FR", "VS", "AR"]
    assert questions[0].evidence == ("D1:1", "D2:1")
    assert query_text(questions[1]).endswith("[image: a green bicycle]")


def test_convert_writes_the_shared_format(tmp_path):
    src = write_scenario(tmp_path / "src")
    assert main(["convert", "mem-gallery", str(src), str(tmp_path / "out")]) == 0
    hist = read_history(tmp_path / "out" / "Tiny_Scenario.history.json")
    assert not hist.problems and hist.history.round_count == 4
    qs = read_questions(tmp_path / "out" / "Tiny_Scenario.questions.jsonl")
    assert qs[1].extra["question_image_caption"] == "a green bicycle"


def test_eval_command_json(tmp_path, capsys):
    src = write_scenario(tmp_path / "src")
    assert main(["eval", "mem-gallery", str(src), "--k", "2", "--json", "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["k"] == 2 and out["questions"] == 2  # AR is left out
    assert list(out["methods"]) == [
        "adamm",
        "adamm_events",
        "flat",
        "langgraph_store",
        "bm25",
        "hybrid",
    ]
    for m in out["methods"].values():
        assert set(m["overall"]) == {"precision", "recall", "hit"}
        assert set(m["by_type"]) == {"FR", "VS"}
    assert out["methods"]["flat"]["by_type"]["VS"]["hit"] == 1.0
    # "learning" is in one clue round of the FR question and in no other round
    assert out["methods"]["bm25"]["by_type"]["FR"]["hit"] == 1.0
    assert out["methods"]["hybrid"]["by_type"]["FR"]["hit"] == 1.0


def test_eval_with_the_forest(tmp_path, capsys):
    src = write_scenario(tmp_path / "src")
    args = ["eval", "mem-gallery", str(src), "--k", "2", "--json", "--quiet"]
    assert main([*args, "--methods", "adamm", "--rerank", "forest"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out["methods"]) == ["adamm", "adamm_memories", "adamm+forest"]
    assert set(out["methods"]["adamm+forest"]["by_type"]) == {"FR", "VS"}
    forest = out["forest"]
    assert forest["modes"] == {"fixed-edge": 2}
    access = forest["evidence_access"]
    assert access["gold_rounds"] == 3  # the clue rounds of the two questions
    assert access["direct"] + access["recoverable"] + access["no_access"] == 1.0
    assert 0 < forest["mean_selected_rounds"] <= forest["mean_selected_memories"]
    assert forest["solver_ms"]["p95"] >= forest["solver_ms"]["median"] > 0


def test_eval_model_needs_the_forest(tmp_path, capsys):
    src = write_scenario(tmp_path / "src")
    assert main(["eval", "mem-gallery", str(src), "--model", "openai:x"]) == 2
    assert "--rerank forest" in capsys.readouterr().err


def test_missing_folder_is_a_clear_error(tmp_path, capsys):
    assert main(["eval", "mem-gallery", str(tmp_path), "--quiet"]) == 2
    assert "no Mem-Gallery scenario files" in capsys.readouterr().err


@pytest.mark.skipif(not DEV.is_dir(), reason="Mem-Gallery dev split not present")
def test_real_scenario_files_load():
    for file in sorted(DEV.glob("*.json")):
        history, questions = load_scenario(file)
        ids = {r.round_id for r in history.rounds()}
        assert history.round_count > 0 and questions
        assert all(set(q.evidence) <= ids for q in questions)
