from datetime import datetime, timedelta

import numpy as np
import pytest

from langgraph_adamm import AdaMMConfig
from langgraph_adamm.retrieval.hierarchy import Event, Hierarchy, fused_similarity

T0 = datetime(2026, 3, 1, 9, 0)


def unit(*xs):
    v = np.asarray(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def at_cos(c):
    """A unit vector whose cosine with (1, 0) is c."""
    return unit(c, np.sqrt(max(0.0, 1 - c * c)))


def ev(i, text_vec, time=T0, visual=None, session="S1"):
    return Event(f"r{i}", session, i, time, f"text {i}", text_vec, visual)


def test_fusion_renormalizes_over_shared_modalities():
    a, b = unit(1, 0), at_cos(0.5)
    va, vb = unit(0, 1), unit(0, 1)
    assert fused_similarity(a, None, b, None) == pytest.approx(0.5)
    assert fused_similarity(a, va, b, None) == pytest.approx(0.5)  # visual omitted
    assert fused_similarity(a, va, b, vb) == pytest.approx(0.6 * 0.5 + 0.4 * 1.0)
    assert fused_similarity(None, va, None, vb) == pytest.approx(1.0)
    assert fused_similarity(a, None, None, vb) == 0.0  # nothing shared


@pytest.mark.parametrize(("cos", "joins"), [(0.61, True), (0.59, False)])
def test_episode_threshold(cos, joins):
    h = Hierarchy()  # theta_epi = 0.60
    h.add_event(ev(1, unit(1, 0)))
    h.add_event(ev(2, at_cos(cos), T0 + timedelta(hours=1)))
    assert (len(h.episodes) == 1) is joins


@pytest.mark.parametrize(("cos", "joins"), [(0.5, False), (0.5001, True)])
def test_episode_threshold_is_strict(cos, joins):
    # 0.5 is exact in binary, so "at the threshold" is testable: it must exceed.
    h = Hierarchy(AdaMMConfig(episode_threshold=0.5))
    h.add_event(ev(1, unit(1, 0)))
    h.add_event(ev(2, at_cos(cos), T0))
    assert (len(h.episodes) == 1) is joins


@pytest.mark.parametrize(
    ("gap", "joins"),
    [
        (timedelta(hours=23), True),
        (timedelta(days=1), True),
        (timedelta(days=1, seconds=1), False),
    ],
)
def test_one_day_gap_rule(gap, joins):
    h = Hierarchy()
    h.add_event(ev(1, unit(1, 0)))
    h.add_event(ev(2, unit(1, 0), T0 + gap))  # identical content
    assert (len(h.episodes) == 1) is joins


def test_gap_is_measured_from_the_episodes_last_event():
    h = Hierarchy()
    for i in range(4):  # a chain of events 20 hours apart stays one episode
        h.add_event(ev(i, unit(1, 0), T0 + timedelta(hours=20 * i)))
    assert len(h.episodes) == 1 and h.episodes[1].end == T0 + timedelta(hours=60)


def test_images_take_part_in_episode_assignment():
    h = Hierarchy()
    h.add_event(ev(1, unit(1, 0), visual=unit(1, 0)))
    # text alone (0.5) would not join; with matching images 0.6*0.5+0.4*1.0 = 0.7 does
    h.add_event(ev(2, at_cos(0.5), T0, visual=unit(1, 0)))
    assert len(h.episodes) == 1
    h.add_event(ev(3, at_cos(-0.5), T0))  # no image: text only, far from the episode
    assert len(h.episodes) == 2


def test_topics_group_closed_episodes_without_adjacency():
    cfg = AdaMMConfig()
    h = Hierarchy(cfg)
    a, b = unit(1, 0, 0), unit(0, 1, 0)
    h.add_event(ev(1, a, T0))
    h.add_event(ev(2, b, T0 + timedelta(days=5)))  # closes episode 1 -> topic 1
    h.add_event(ev(3, a, T0 + timedelta(days=10)))  # closes episode 2 -> topic 2
    h.add_event(ev(4, b, T0 + timedelta(days=15)))  # closes episode 3 -> topic 1
    assert {t: v.episode_ids for t, v in h.topics.items()} == {1: [1, 3], 2: [2]}
    assert h.episodes[3].topic_id == 1 and h.current == 4
    assert not h.episodes[4].closed and h.episodes[4].topic_id is None


@pytest.mark.parametrize(
    ("threshold", "cos", "same_topic"),
    [(0.65, 0.66, True), (0.65, 0.64, False), (0.5, 0.5, False), (0.5, 0.5001, True)],
)
def test_topic_threshold(threshold, cos, same_topic):
    h = Hierarchy(AdaMMConfig(topic_threshold=threshold))
    h.add_event(ev(1, unit(1, 0, 0), T0))
    h.add_event(ev(2, unit(0, 0, 1), T0 + timedelta(days=3)))
    h.add_event(
        ev(
            3,
            np.array([cos, np.sqrt(1 - cos**2), 0], np.float32),
            T0 + timedelta(days=6),
        )
    )
    h.add_event(ev(4, unit(0, 0, 1), T0 + timedelta(days=9)))  # closes episode 3
    assert (h.episodes[3].topic_id == h.episodes[1].topic_id) is same_topic


def test_episode_vectors_pool_children():
    h = Hierarchy()
    h.add_event(ev(1, unit(1, 0), visual=unit(1, 0)))
    h.add_event(ev(2, unit(1, 0.1), T0))  # joins; no image
    ep = h.episodes[1]
    assert ep.visual_count == 1 and np.allclose(ep.visual_vec, unit(1, 0))
    expected = unit(1, 0) + unit(1, 0.1)
    assert np.allclose(ep.text_vec, expected / np.linalg.norm(expected), atol=1e-6)
    assert ep.description == "text 1 text 2"  # extractive: first sentence of each


def test_event_table_reads_stored_events_in_one_batch_on_demand():
    from langgraph_adamm.retrieval.hierarchy import EventTable

    stored = {f"r{i}": (f"r{i}", "S1", i, T0, f"text {i}", 1) for i in range(5)}
    calls = []

    def loader(ids, hints):
        calls.append(list(ids))
        return [stored[r] for r in ids if r in stored]

    table = EventTable.stored([f"r{i}" for i in range(5)], [1, 1, 1, -1, -1], loader)
    assert len(table) == 5 and list(table) == [f"r{i}" for i in range(5)]
    assert not calls and table.episode_at(0) == 1 and table.episode_at(4) is None
    got = table.many(["r3", "r1", "r3"])
    assert [e.round_id for e in got] == ["r3", "r1", "r3"] and calls == [["r3", "r1"]]
    assert table["r1"].text == "text 1" and table.many_at([3])[0].order == 3
    assert len(calls) == 1  # cached
    assert "r4" in table and "r9" not in table and table.position("r2") == 2
    with pytest.raises(KeyError):
        table["r9"]
    table.add(ev(5, unit(1, 0)))
    assert table.position("r5") == 5 and table.many_at([5])[0].text == "text 5"


def test_a_grown_topic_restacks_one_row_as_stacking_all_would():
    from langgraph_adamm.retrieval.hierarchy import NodeVectors, Topic

    rng = np.random.default_rng(0)
    topics = [
        Topic(i, text_sum=rng.standard_normal(8).astype(np.float32)) for i in range(5)
    ]
    topics[2].visual_sum = rng.standard_normal(4).astype(np.float32)
    stacked = NodeVectors.stack(list(topics))
    topics[3].text_sum = topics[3].text_sum + rng.standard_normal(8).astype(np.float32)
    topics.append(Topic(5, text_sum=rng.standard_normal(8).astype(np.float32)))
    for node in (topics[3], topics[5]):  # grown, then new
        once = stacked.with_node(node)
        assert once is not None
        whole = NodeVectors.stack(topics[: len(once.nodes)])
        assert [n.topic_id for n in once.nodes] == [n.topic_id for n in whole.nodes]
        for a, b in ((once.text, whole.text), (once.visual, whole.visual)):
            assert a.dtype == b.dtype and np.array_equal(a, b)
        assert np.array_equal(once.has_visual, whole.has_visual)
        stacked = once
    # a topic's first visual vector: the matrix has no visual columns to fit it
    blind = NodeVectors.stack([Topic(0, text_sum=np.ones(8, np.float32))])
    seen = Topic(1, text_sum=np.ones(8, np.float32), visual_sum=np.ones(4, np.float32))
    assert blind.with_node(seen) is None


def test_topics_of_a_long_history_are_those_of_stacking_every_time():
    rng = np.random.default_rng(1)
    config = AdaMMConfig(episode_threshold=0.2, topic_threshold=0.3)
    fast, slow = Hierarchy(config), Hierarchy(config)
    slow_close = slow.close_current

    def close_and_forget() -> int:
        topic = slow_close()
        slow.invalidate()  # every close stacks the topics from scratch
        return topic

    slow.close_current = close_and_forget  # type: ignore[method-assign]
    for i in range(300):
        v = rng.standard_normal(16).astype(np.float32)
        v /= np.linalg.norm(v)
        vis = unit(*rng.standard_normal(4)) if i % 7 == 0 else None
        fast.add_event(ev(i, v, T0 + timedelta(hours=i), vis))
        slow.add_event(ev(i, v.copy(), T0 + timedelta(hours=i), vis))
    assert len(fast.topics) > 5
    assert {t: x.episode_ids for t, x in fast.topics.items()} == {
        t: x.episode_ids for t, x in slow.topics.items()
    }
