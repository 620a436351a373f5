import asyncio

import pytest

from langgraph_adamm import AdaMMConfig, Memory
from langgraph_adamm.analytic.extraction import LLMExtractor
from langgraph_adamm.errors import AdaMMError, ExtractionError
from langgraph_adamm.history import ImageRef, Round
from tests.conftest import history, scripted, tool_message

ROUND = Round(
    "R1",
    "S1",
    user="Deep sleep 1.2 h last night",
    images=(ImageRef("R1:IMG_1", caption="Sleep dashboard: Total sleep 6.5 h"),),
)

TEXT_ONLY = {
    "observations": [
        {"attribute": "deep sleep", "value": "1.2 h", "source": "user"},
        {"attribute": "mood", "value": "good", "source": "assistant"},
    ]
}
GOOD = {
    "observations": [
        {
            "attribute": "Deep Sleep",
            "value": "1.2 h",
            "source": "user",
            "evidence": "1.2 h",
        },
        {
            "attribute": "total sleep (h)",
            "value": 6.5,
            "source": "caption",
            "image_id": "R1:IMG_1",
            "evidence": "Total sleep 6.5 h",
        },
    ]
}


def test_valid_structured_output_is_grounded():
    ext = LLMExtractor(scripted([tool_message(GOOD)]))
    obs = {o.attribute: o for o in ext.extract(ROUND)}
    assert obs["deep_sleep"].value.number == 1.2 and obs["deep_sleep"].unit == "h"
    assert obs["total_sleep"].unit == "h"  # from the name
    s, e = obs["total_sleep"].provenance.span
    assert ROUND.images[0].caption[s:e] == "Total sleep 6.5 h"
    assert obs["total_sleep"].provenance.image_id == "R1:IMG_1"


def test_malformed_output_is_retried_then_accepted():
    model = scripted(
        [
            AIMessage_text("not json at all"),
            tool_message({"observations": [{"attribute": "x"}]}),  # missing fields
            tool_message(GOOD),
        ]
    )
    assert len(LLMExtractor(model).extract(ROUND)) == 2


def AIMessage_text(text):
    from langchain_core.messages import AIMessage

    return AIMessage(content=text)


def test_unknown_image_is_rejected():
    bad = {
        "observations": [
            {"attribute": "a", "value": 1, "source": "ocr", "image_id": "OTHER"}
        ]
    }
    model = scripted([tool_message(bad)] * 3)
    with pytest.raises(ExtractionError, match="OTHER"):
        LLMExtractor(model).extract(ROUND)


def test_three_failures_are_recorded_and_the_round_is_kept():
    model = scripted([AIMessage_text("garbage")] * 3 + [tool_message(TEXT_ONLY)])
    mem = Memory(":memory:", user_id="u", model=model)
    rep = mem.ingest(history([{"round_id": "R1", "user": "Deep sleep: 1.2 h"}]))
    assert rep.rounds_new == 1 and len(rep.failures) == 1
    assert "3 attempts" in rep.failures[0][1]
    assert mem.analytic.round_status() == {"failed": 1}
    assert mem.analytic.failures()[0][0] == "R1"
    # The round stays stored and can be extracted again later.
    rep2 = mem.ingest(
        history([{"round_id": "R1", "user": "Deep sleep: 1.2 h"}]), retry_failed=True
    )
    assert rep2.rounds_new == 0 and rep2.rounds_processed == 1 and not rep2.failures
    assert mem.analytic.round_status() == {"extracted": 1}
    n = mem.db.fetchall("SELECT count(*) FROM adamm_observations")[0][0]
    assert n == 1  # "mood" cites an assistant turn the round does not have
    dropped = mem.db.fetchall("SELECT ungrounded FROM adamm_rounds")[0][0]
    assert dropped == 1


def test_async_extraction_and_ingest():
    model = scripted([tool_message(GOOD)] + [tool_message(TEXT_ONLY)] * 2)
    ext = LLMExtractor(model)
    assert len(asyncio.run(ext.aextract(ROUND))) == 2
    mem = Memory(":memory:", user_id="u", extractor=ext, config=AdaMMConfig())
    rep = asyncio.run(mem.aingest(history([{"user": "a"}, {"user": "b"}])))
    assert rep.rounds_processed == 2 and not rep.failures


def test_model_string_without_langchain_gives_fix(monkeypatch):
    import builtins

    real = builtins.__import__

    def fake(name, *a, **k):
        if name.startswith("langchain.chat_models"):
            raise ImportError("no langchain")
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", fake)
    with pytest.raises(AdaMMError, match=r"langgraph-adamm\[openai\]"):
        LLMExtractor("openai:gpt-4.1-nano")


def obs_of(output, rnd=ROUND):
    ext = LLMExtractor(scripted([tool_message({"observations": output})]))
    got = ext.extract(rnd)
    return {o.attribute: o for o in got}, got.dropped


def test_a_value_the_source_does_not_state_is_dropped():
    got, dropped = obs_of(
        [
            {"attribute": "deep sleep", "value": "1.9 h", "source": "user"},
            {
                "attribute": "total sleep",
                "value": 6.5,
                "source": "caption",
                "image_id": "R1:IMG_1",
            },
        ]
    )
    assert set(got) == {"total_sleep"} and dropped == 1


def test_a_value_in_another_unit_or_form_is_grounded():
    rnd = Round("R2", "S1", user="slept 7h 05m, deep 1h12, weight 81,4 kg")
    got, dropped = obs_of(
        [
            {"attribute": "total sleep", "value": "425 min", "source": "user"},
            {"attribute": "deep sleep", "value": "72 min", "source": "user"},
            {"attribute": "weight", "value": 81.4, "source": "user"},
            {"attribute": "weight_lb", "value": "179.5 lb", "source": "user"},
        ],
        rnd,
    )
    assert set(got) == {"total_sleep", "deep_sleep", "weight"} and dropped == 1
    s, e = got["total_sleep"].provenance.span
    assert rnd.user[s:e] == "7h 05m"


def test_attributions_to_an_empty_or_missing_turn_are_dropped():
    got, dropped = obs_of(
        [
            {"attribute": "mood", "value": "good", "source": "assistant"},
            {"attribute": "device", "value": "watch", "source": "metadata"},
            {"attribute": "deep sleep", "value": "1.2 h", "source": "user"},
            {
                "attribute": "score",
                "value": "80",
                "source": "ocr",
                "image_id": "R1:IMG_1",
            },
        ]
    )
    assert set(got) == {"deep_sleep"} and dropped == 3


def test_text_values_must_occur_in_their_source():
    rnd = Round("R3", "S1", user="Dinner at Trattoria Roma, 42 EUR")
    got, dropped = obs_of(
        [
            {"attribute": "merchant", "value": "Trattoria Roma", "source": "user"},
            {"attribute": "category", "value": "dining", "source": "user"},
            {"attribute": "amount", "value": "42 EUR", "source": "user"},
        ],
        rnd,
    )
    assert set(got) == {"merchant", "amount"} and dropped == 1
