from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import pytest
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field, PrivateAttr

from langgraph_adamm.config import ForestConfig
from langgraph_adamm.forest.candidates import CandidatePool, ForestCandidate
from langgraph_adamm.forest.verifiers import (
    ECV_PROMPT,
    NODE_VERIFIER_PROMPT,
    OCR_SEPARATOR,
    SNIPPET_OCR_CHARS,
    SNIPPET_TEXT_CHARS,
    EcvRow,
    ForestEdge,
    arun_verifiers,
    candidate_ids,
    ecv_payload,
    edge_reliability,
    fixed_edges,
    node_payload,
    node_utility,
    parse_ecv_output,
    relevant_ocr,
    run_verifiers,
    snippet,
)
from tests.conftest import scripted

# ---------------------------------------------------------------------------
# Fixtures and fakes


def make_pool() -> CandidatePool:
    """Five candidates; anchors 0 and 3.

    Eligible relations: 0-3 consecutive_turn (anchor to anchor), 1-0 same_round,
    2-3 same_round; candidate 4 has none (not sent to the ECV). Anonymous ids:
    c1..c5 for indices 0..4, so the ECV sees c1..c4.
    """
    cands = [
        ForestCandidate(
            "D1:1#user", "D1:1", "I adopted a dog named Biscuit today.", 0.91,
            session_id="S1", position=0, date="2026-03-01", location="Lisbon",
        ),
        ForestCandidate(
            "D1:1#assistant", "D1:1", "Congratulations! What breed is Biscuit?",
            0.55, session_id="S1", position=1, date="2026-03-01",
        ),
        ForestCandidate(
            "D1:2#user", "D1:2", "He is a beagle, two years old.", 0.48,
            session_id="S1", position=2, date="2026-03-01",
        ),
        ForestCandidate(
            "D1:2#image:IMG_3", "D1:2", "A beagle on a red leash.", 0.72,
            modalities=("image",), session_id="S1", position=3,
            date="2026-03-01", ocr="VET CARD\nName: Biscuit. Breed: beagle.",
        ),
        ForestCandidate(
            "D9:1#user", "D9:1", "The weather was rainy.", 0.2,
            session_id="S9", position=0, date="2026-04-02",
        ),
    ]  # fmt: skip
    return CandidatePool(
        question="What breed is my dog Biscuit?",
        candidates=cands,
        explicit={
            (0, 1): ("same_round",),
            (0, 3): ("consecutive_turn",),
            (2, 3): ("same_round",),
        },
        anchors=[0, 3],
    )


def ecv_rows(*rows: tuple[str, str | None, float, str]) -> str:
    return json.dumps(
        {
            "rows": [
                {
                    "id": cid,
                    "direct_support": 2,
                    "best_anchor_id": anchor,
                    "incremental_support": inc,
                    "role": role,
                }
                for cid, anchor, inc, role in rows
            ]
        }
    )


GOOD_ECV = ecv_rows(
    ("c1", "c4", 0, "redundant"),
    ("c2", "c1", 2, "clarification"),
    ("c3", "c4", 5, "new_fact"),
    ("c4", "c1", 3, "corroboration"),
)
GOOD_NODE = json.dumps(
    {"scores": [{"id": f"c{k}", "score": s} for k, s in enumerate([5, 1, 4, 3, 0], 1)]}
)


def route(messages: list[BaseMessage]) -> str:
    """Which verifier is asking: read from the system prompt (the layer may add
    the output schema after it)."""
    system = str(messages[0].content)
    if system.startswith(ECV_PROMPT):
        return "ecv"
    assert system.startswith(NODE_VERIFIER_PROMPT)
    return "node"


class RoutedModel(BaseChatModel):
    """A fake chat model that answers each verifier from its own script.

    Calls are concurrent, so outputs are routed by prompt, not call order. An
    Exception in a script is raised. Every call's messages are recorded.
    """

    node: list[Any] = Field(default_factory=list)
    ecv: list[Any] = Field(default_factory=list)
    calls: list[tuple[str, list[BaseMessage]]] = Field(default_factory=list)
    _lock: threading.Lock = PrivateAttr(default_factory=threading.Lock)

    @property
    def _llm_type(self) -> str:
        return "routed-fake"

    def _next(self, messages: list[BaseMessage]) -> ChatResult:
        kind = route(messages)
        with self._lock:
            self.calls.append((kind, list(messages)))
            script = self.node if kind == "node" else self.ecv
            if not script:
                raise AssertionError(f"unexpected extra {kind} call")
            out = script.pop(0)
        if isinstance(out, Exception):
            raise out
        message = out if isinstance(out, AIMessage) else AIMessage(content=out)
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:  # fmt: skip
        return self._next(messages)

    def kinds(self) -> list[str]:
        return [kind for kind, _ in self.calls]

    def texts(self, kind: str) -> list[str]:
        return [
            "\n".join(str(m.content) for m in msgs)
            for k, msgs in self.calls
            if k == kind
        ]


class BarrierModel(RoutedModel):
    """Each call waits until the other verifier's call is in flight too."""

    _barrier: threading.Barrier = PrivateAttr(
        default_factory=lambda: threading.Barrier(2, timeout=5)
    )

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:  # fmt: skip
        self._barrier.wait()  # BrokenBarrierError (→ fallback) if calls were serial
        return self._next(messages)


class EventModel(RoutedModel):
    """Async: each call signals its start and waits for the other's start."""

    _events: dict[str, asyncio.Event] = PrivateAttr(default_factory=dict)

    def _generate(self, *args: Any, **kwargs: Any) -> ChatResult:
        raise AssertionError("the async variant must use ainvoke")

    async def _agenerate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:  # fmt: skip
        kind = route(messages)
        other = "ecv" if kind == "node" else "node"
        for name in ("node", "ecv"):
            self._events.setdefault(name, asyncio.Event())
        self._events[kind].set()
        await asyncio.wait_for(self._events[other].wait(), timeout=5)
        return self._next(messages)


# ---------------------------------------------------------------------------
# Node verifier


def test_node_valid_output_and_ecv_valid_output() -> None:
    model = RoutedModel(node=[GOOD_NODE], ecv=[GOOD_ECV])
    out = run_verifiers(model, make_pool(), question_type="single-hop")
    assert out.node_ok and out.edges_ok and out.notes == []
    assert out.node_scores == [5.0, 1.0, 4.0, 3.0, 0.0]
    assert sorted(model.kinds()) == ["ecv", "node"]
    assert out.roles == [
        "redundant",
        "clarification",
        "new_fact",
        "corroboration",
        None,
    ]
    by_pair = {(e.anchor, e.candidate): e for e in out.edges}
    assert set(by_pair) == {(0, 1), (3, 2), (0, 3)}
    assert by_pair[(0, 1)][3:] == ("clarification", "same_round")
    assert by_pair[(0, 1)].reliability == pytest.approx(0.99 * 2 / 5)
    assert by_pair[(3, 2)].reliability == pytest.approx(0.99)
    assert by_pair[(3, 2)].relation == "same_round"
    assert by_pair[(0, 3)].relation == "consecutive_turn"
    node_msg = json.loads(str(model.calls[model.kinds().index("node")][1][1].content))
    assert node_msg["question_type"] == "single-hop"
    assert [c["id"] for c in node_msg["candidates"]] == ["c1", "c2", "c3", "c4", "c5"]


def test_node_sparse_output_scores_left_out_candidates_zero() -> None:
    sparse = json.dumps({"scores": [{"id": "c3", "score": 4.5}]})
    out = run_verifiers(RoutedModel(node=[sparse], ecv=[GOOD_ECV]), make_pool())
    assert out.node_ok and out.node_errors == []
    assert out.node_scores == [0.0, 0.0, 4.5, 0.0, 0.0]


def test_node_empty_scores_list_is_valid() -> None:
    out = run_verifiers(
        RoutedModel(node=['{"scores": []}'], ecv=[GOOD_ECV]), make_pool()
    )
    assert out.node_ok and out.node_scores == [0.0] * 5


@pytest.mark.parametrize(
    ("bad", "error"),
    [
        ({"scores": [{"id": "c9", "score": 3}]}, "unknown candidate id 'c9'"),
        ({"scores": [{"id": "D1:1", "score": 3}]}, "unknown candidate id"),
        (
            {"scores": [{"id": "c1", "score": 3}, {"id": "c1", "score": 2}]},
            "appears more than once",
        ),
        ({"scores": [{"id": "c1", "score": 7}]}, "from 0 to 5"),
        ({"scores": [{"id": "c1", "score": -1}]}, "from 0 to 5"),
        ({"scores": [{"id": "c1", "score": "high"}]}, "must be a number"),
        ({"scores": [{"id": "c1", "score": True}]}, "must be a number"),
        ({"scores": [{"id": "c1"}]}, "must be a number"),
        ({"scores": {"c1": 3}}, '"scores" list'),
        ([{"id": "c1", "score": 3}], "JSON object"),
        ({"scores": [{"score": 3}]}, 'string "id"'),
    ],
)
def test_node_invalid_output_is_retried_with_the_error(bad: Any, error: str) -> None:
    good = json.dumps({"scores": [{"id": "c1", "score": 2}]})
    model = RoutedModel(node=[json.dumps(bad), good], ecv=[GOOD_ECV])
    out = run_verifiers(model, make_pool())
    assert out.node_ok and out.notes == []
    assert out.node_scores == [2.0, 0.0, 0.0, 0.0, 0.0]
    assert len(out.node_errors) == 1 and error in out.node_errors[0]
    first, second = model.texts("node")
    assert "previous output was not valid" not in first
    assert "Your previous output was not valid" in second and error in second


def test_node_malformed_json_three_times_falls_back_with_a_note() -> None:
    model = RoutedModel(node=["not json", "{scores: [", ""], ecv=[GOOD_ECV])
    out = run_verifiers(model, make_pool())
    assert model.kinds().count("node") == 3
    assert not out.node_ok and out.edges_ok
    assert out.node_scores == [0.0] * 5
    assert len(out.node_errors) == 3
    assert len(out.notes) == 1
    note = out.notes[0]
    assert note.startswith("node verifier failed after 3 attempts (last error: ")
    assert "retrieval scores only" in note
    assert out.edges  # the ECV still worked


def test_attempts_parameter_bounds_the_retries() -> None:
    model = RoutedModel(node=["x", "y"], ecv=[GOOD_ECV])
    out = run_verifiers(model, make_pool(), attempts=2)
    assert model.kinds().count("node") == 2
    assert "failed after 2 attempts" in out.notes[0]


def test_fenced_json_and_content_blocks_are_read() -> None:
    fenced = "```json\n" + json.dumps({"scores": [{"id": "c2", "score": 3}]}) + "\n```"
    blocks = AIMessage(
        content=[{"type": "text", "text": '{"scores": [{"id": "c1", "score": 1}]}'}]
    )
    for raw, want in ((fenced, [0.0, 3.0]), (blocks, [1.0, 0.0])):
        pool = make_pool()
        pool.explicit = {}  # no ECV call: one call, so a plain scripted fake will do
        out = run_verifiers(scripted([raw]), pool)
        assert out.node_ok, out.notes
        assert out.node_scores[:2] == want


# ---------------------------------------------------------------------------
# Evidence-chain verifier


@pytest.mark.parametrize(
    ("bad", "error"),
    [
        (
            ecv_rows(("c1", "c4", 1, "new_fact"), ("c2", "c1", 2, "new_fact")),
            "missing: c3, c4",
        ),
        (
            ecv_rows(
                ("c1", "c4", 1, "new_fact"),
                ("c1", "c4", 1, "new_fact"),
                ("c2", "c1", 2, "new_fact"),
                ("c3", "c4", 2, "new_fact"),
                ("c4", "c1", 2, "new_fact"),
            ),  # fmt: skip
            "appears more than once",
        ),
        (
            ecv_rows(
                ("c1", "c4", 1, "new_fact"),
                ("c2", "c1", 2, "new_fact"),
                ("c3", "c4", 2, "new_fact"),
                ("c4", "c1", 2, "new_fact"),
                ("c5", None, 0, "irrelevant"),
            ),  # fmt: skip
            "'c5' was not sent",
        ),
        (
            ecv_rows(
                ("c1", "c4", 1, "new_fact"),
                ("c2", "c1", 2, "new_fact"),
                ("c3", "c4", 9, "new_fact"),
                ("c4", "c1", 2, "new_fact"),
            ),  # fmt: skip
            "incremental_support of 'c3' must be from 0 to 5",
        ),
        (
            ecv_rows(
                ("c1", "c4", 1, "new_fact"),
                ("c2", "c1", "lots", "new_fact"),  # type: ignore[arg-type]
                ("c3", "c4", 2, "new_fact"),
                ("c4", "c1", 2, "new_fact"),
            ),  # fmt: skip
            "must be a number",
        ),
        ("```json\n{rows: oops\n```", "not valid JSON"),
    ],
)
def test_ecv_invalid_output_is_retried(bad: str, error: str) -> None:
    model = RoutedModel(node=[GOOD_NODE], ecv=[bad, GOOD_ECV])
    out = run_verifiers(model, make_pool())
    assert out.edges_ok and out.notes == []
    assert len(out.ecv_errors) == 1 and error in out.ecv_errors[0]
    assert error in model.texts("ecv")[1]
    assert len(out.edges) == 3


def test_ecv_direct_support_out_of_range_is_retried() -> None:
    bad = json.loads(GOOD_ECV)
    bad["rows"][0]["direct_support"] = 6
    model = RoutedModel(node=[GOOD_NODE], ecv=[json.dumps(bad), GOOD_ECV])
    out = run_verifiers(model, make_pool())
    assert out.edges_ok and "direct_support of 'c1'" in out.ecv_errors[0]


def test_ecv_normalisation_is_done_in_code_without_retry() -> None:
    pool = make_pool()
    raw = ecv_rows(
        ("c1", "c4", 4, "elaboration"),  # invalid role → irrelevant, 0
        ("c2", "c4", 4, "new_fact"),  # c4 is not eligible for c2 → cleared
        ("c3", "c4", 0, "new_fact"),  # positive role with 0 → irrelevant
        ("c4", "c1", 3, "redundant"),  # non-positive role → incremental 0
    )
    rows = parse_ecv_output(raw, pool)
    assert rows == {
        0: EcvRow(3, "irrelevant", 0.0, "consecutive_turn"),
        1: EcvRow(None, "irrelevant", 0.0, None),
        2: EcvRow(3, "irrelevant", 0.0, "same_round"),
        3: EcvRow(0, "redundant", 0.0, "consecutive_turn"),
    }
    model = RoutedModel(node=[GOOD_NODE], ecv=[raw])
    out = run_verifiers(model, pool)
    assert model.kinds().count("ecv") == 1 and out.ecv_errors == []
    assert out.edges_ok and out.edges == []
    assert out.roles == ["irrelevant", "irrelevant", "irrelevant", "redundant", None]


@pytest.mark.parametrize("anchor", [None, "c2", "c9", ["c1"], 1])
def test_ecv_null_unknown_or_self_anchor_clears_the_edge(anchor: Any) -> None:
    raw = json.loads(GOOD_ECV)
    raw["rows"][1]["best_anchor_id"] = anchor  # c2: only c1 is eligible
    rows = parse_ecv_output(json.dumps(raw), make_pool())
    assert rows[1] == EcvRow(None, "irrelevant", 0.0, None)


def test_ecv_direct_support_is_dropped_and_may_be_left_out() -> None:
    raw = json.loads(GOOD_ECV)
    for row in raw["rows"]:
        row.pop("direct_support")
    rows = parse_ecv_output(json.dumps(raw), make_pool())
    assert rows[2] == EcvRow(3, "new_fact", 5.0, "same_round")


def test_ecv_anchor_pair_keeps_one_edge_per_unordered_pair() -> None:
    raw = ecv_rows(
        ("c1", "c4", 1, "corroboration"),  # anchor 3 → 0, weaker
        ("c2", None, 0, "irrelevant"),
        ("c3", None, 0, "irrelevant"),
        ("c4", "c1", 4, "new_fact"),  # anchor 0 → 3, stronger
    )
    out = run_verifiers(RoutedModel(node=[GOOD_NODE], ecv=[raw]), make_pool())
    assert len(out.edges) == 1
    (edge,) = out.edges
    assert edge[:2] == (0, 3) and edge[3:] == ("new_fact", "consecutive_turn")
    assert edge.reliability == pytest.approx(0.99 * 4 / 5)


def test_ecv_three_failures_fall_back_to_fixed_edges() -> None:
    model = RoutedModel(node=[GOOD_NODE], ecv=["{}", "[]", "nope"])
    pool = make_pool()
    out = run_verifiers(model, pool)
    assert out.node_ok and not out.edges_ok
    assert out.edges == fixed_edges(pool)
    assert out.roles == ["fixed", "fixed", "fixed", "fixed", None]
    assert out.notes[0].startswith("evidence-chain verifier failed after 3 attempts")
    assert "fixed edges" in out.notes[0]


def test_no_eligible_anchor_means_no_ecv_call() -> None:
    pool = make_pool()
    pool.explicit = {}
    model = RoutedModel(node=[GOOD_NODE])
    out = run_verifiers(model, pool)
    assert model.kinds() == ["node"]
    assert out.edges_ok and out.edges == [] and out.roles == [None] * 5
    assert ecv_payload(pool) is None


def test_empty_pool_makes_no_call() -> None:
    pool = CandidatePool(question="q", candidates=[])
    model = RoutedModel()
    out = run_verifiers(model, pool)
    assert model.calls == []
    assert out.node_ok and out.edges_ok and out.node_scores == [] and out.edges == []


# ---------------------------------------------------------------------------
# Failures never raise


def test_model_raising_falls_back_without_raising() -> None:
    model = RoutedModel(
        node=[ConnectionError("network down")] * 3, ecv=[TimeoutError("too slow")] * 3
    )
    pool = make_pool()
    out = run_verifiers(model, pool)
    assert len(model.calls) == 6  # a raising call is retried like bad output
    assert not out.node_ok and not out.edges_ok
    assert out.node_scores == [0.0] * 5
    assert out.edges == fixed_edges(pool)
    assert any(
        "node verifier call failed after 3 attempts (ConnectionError: network down)"
        in n
        and "retrieval scores only" in n
        for n in out.notes
    )
    assert any("TimeoutError: too slow" in n for n in out.notes)


def test_a_transient_model_error_is_retried() -> None:
    model = RoutedModel(node=[ConnectionError("429"), GOOD_NODE], ecv=[GOOD_ECV])
    out = run_verifiers(model, make_pool())
    assert out.node_ok and out.edges_ok and out.notes == []
    assert out.node_scores == [5.0, 1.0, 4.0, 3.0, 0.0]


def test_async_model_raising_falls_back_without_raising() -> None:
    model = RoutedModel(node=[RuntimeError("boom")] * 3, ecv=[GOOD_ECV])
    out = asyncio.run(arun_verifiers(model, make_pool()))
    assert not out.node_ok and out.edges_ok
    assert "RuntimeError: boom" in out.notes[0]


# ---------------------------------------------------------------------------
# Prompts: anonymous ids, snippets


def test_prompts_use_anonymous_ids_only() -> None:
    pool = make_pool()
    model = RoutedModel(node=[GOOD_NODE], ecv=[GOOD_ECV])
    run_verifiers(model, pool)
    sent = "\n".join(str(m.content) for _, msgs in model.calls for m in msgs)
    for cand in pool.candidates:
        assert cand.round_id not in sent
        assert cand.memory_id not in sent
    assert candidate_ids(pool) == ["c1", "c2", "c3", "c4", "c5"]
    ecv_msg = json.loads(str(model.calls[model.kinds().index("ecv")][1][1].content))
    assert [a["id"] for a in ecv_msg["anchors"]] == ["c1", "c4"]
    assert [c["id"] for c in ecv_msg["candidates"]] == ["c1", "c2", "c3", "c4"]
    c2 = ecv_msg["candidates"][1]
    assert c2["is_atomic_anchor"] is False
    assert c2["eligible_anchor_relations"] == [
        {"anchor_id": "c1", "relation": "same_round"}
    ]
    assert ecv_msg["candidates"][0]["is_atomic_anchor"] is True
    assert set(c2) == {
        "id", "modalities", "date", "location", "retrieval_score", "snippet",
        "is_atomic_anchor", "eligible_anchor_relations",
    }  # fmt: skip
    assert set(ecv_msg["anchors"][0]) == {"id", "text", "date", "location"}


def test_node_payload_fields() -> None:
    pool = make_pool()
    pool.question_image_captions = ["a photo of a dog"]
    payload = node_payload(pool)
    assert set(payload) == {
        "question", "question_image_captions", "question_type", "candidates",
    }  # fmt: skip
    assert payload["question_type"] is None
    assert payload["question_image_captions"] == ["a photo of a dog"]
    img = payload["candidates"][3]
    assert img["modalities"] == ["image"] and img["retrieval_score"] == 0.72
    assert "Breed: beagle." in img["snippet"]


def test_snippet_is_bounded_and_ocr_is_query_relevant() -> None:
    ocr = "\n".join(
        [f"noise line {k}   with   filler words" for k in range(20)]
        + ["Passport number 12345 expires 2031"]
    )
    cand = ForestCandidate("m", "r", "word " * 300, 0.5, ocr=ocr)
    text = snippet(cand, "When does my passport expire?")
    body, _, ocr_part = text.partition(OCR_SEPARATOR)
    assert len(body) <= SNIPPET_TEXT_CHARS
    assert 0 < len(ocr_part) <= SNIPPET_OCR_CHARS
    assert ocr_part.startswith("Passport number 12345 expires 2031")
    assert "  " not in ocr_part
    short = ForestCandidate("m", "r", "Just  a\n short text", 0.5)
    assert snippet(short, "q") == "Just a short text"
    assert relevant_ocr(None, "q") == ""
    assert len(relevant_ocr("x" * 500, "q")) <= SNIPPET_OCR_CHARS


def test_prompt_snippets_respect_the_limits() -> None:
    pool = make_pool()
    pool.candidates[0].text = "long " * 400
    pool.candidates[0].ocr = "Biscuit " * 100
    for c in node_payload(pool)["candidates"]:
        body, _, ocr_part = c["snippet"].partition(OCR_SEPARATOR)
        assert len(body) <= SNIPPET_TEXT_CHARS and len(ocr_part) <= SNIPPET_OCR_CHARS


# ---------------------------------------------------------------------------
# Concurrency


def test_sync_calls_are_in_flight_at_once() -> None:
    model = BarrierModel(node=[GOOD_NODE], ecv=[GOOD_ECV])
    out = run_verifiers(model, make_pool())
    assert out.node_ok and out.edges_ok, out.notes  # serial calls break the barrier


def test_async_calls_are_in_flight_at_once() -> None:
    model = EventModel(node=[GOOD_NODE], ecv=[GOOD_ECV])
    out = asyncio.run(arun_verifiers(model, make_pool()))
    assert out.node_ok and out.edges_ok, out.notes
    assert out.node_scores == [5.0, 1.0, 4.0, 3.0, 0.0]
    assert len(out.edges) == 3


def test_async_retries_like_sync() -> None:
    model = RoutedModel(node=["bad", GOOD_NODE], ecv=[GOOD_ECV])
    out = asyncio.run(arun_verifiers(model, make_pool()))
    assert out.node_ok and len(out.node_errors) == 1


# ---------------------------------------------------------------------------
# Formulas and fixed edges


def test_edge_reliability_and_node_utility() -> None:
    assert edge_reliability(5) == pytest.approx(0.99)
    assert edge_reliability(2.5) == pytest.approx(0.495)
    assert edge_reliability(0) == 0.0
    assert edge_reliability(9) == pytest.approx(0.99)
    assert edge_reliability(5, ceiling=0.5) == pytest.approx(0.5)
    assert node_utility(0.0, 0.0) == pytest.approx(
        1 / (1 + 2.718281828459045**3.711336)
    )
    assert node_utility(1.0, 5.0) == pytest.approx(
        1 / (1 + 2.718281828459045 ** -(4.054056 + 5 * 0.225380 - 3.711336))
    )
    assert node_utility(0.5, 5) > node_utility(0.5, 0)
    assert node_utility(-1000, 0) == pytest.approx(0.0)


def test_fixed_edges_one_per_pair_at_099() -> None:
    pool = make_pool()
    assert fixed_edges(pool) == [
        ForestEdge(0, 1, 0.99, "fixed", "same_round"),
        ForestEdge(3, 2, 0.99, "fixed", "same_round"),
        ForestEdge(0, 3, 0.99, "fixed", "consecutive_turn"),
    ]
    pool.explicit[(0, 1)] = ("same_round", "consecutive_turn")
    assert [e.relation for e in fixed_edges(pool) if e.candidate == 1] == ["same_round"]


def test_config_sets_limits_ceiling_and_attempts() -> None:
    config = ForestConfig(snippet_chars=50, ocr_chars=30, reliability_ceiling=0.5,
                          attempts=2)  # fmt: skip
    pool = make_pool()
    pool.candidates[0].text = "long " * 400
    pool.candidates[0].ocr = "Biscuit the beagle " * 20
    body, _, ocr_part = node_payload(pool, config=config)["candidates"][0][
        "snippet"
    ].partition(OCR_SEPARATOR)
    assert len(body) <= 50 and 0 < len(ocr_part) <= 30
    model = RoutedModel(node=["x", "y"], ecv=[GOOD_ECV])
    out = run_verifiers(model, pool, config=config)
    assert model.kinds().count("node") == 2 and "after 2 attempts" in out.notes[0]
    assert max(e.reliability for e in out.edges) == pytest.approx(0.5)
    model = RoutedModel(node=[GOOD_NODE], ecv=["x", "y", "z"])
    out = run_verifiers(model, pool, config=config, attempts=3)
    assert model.kinds().count("ecv") == 3
    assert {e.reliability for e in out.edges} == {0.5}
    assert "reliability 0.5" in out.notes[0]
