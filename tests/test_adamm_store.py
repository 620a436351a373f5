"""AdaMMStore: LangGraph's BaseStore over the memory (store agents and LangMem).

The store's contract is LangGraph's (InMemoryStore is the reference): put/get/
delete/search/list_namespaces, batches and their async forms. On top of it,
a namespace names a user (``("memories", "{user_id}")``), what is put becomes a
round of that user's memory (searched by the hierarchy, forgotten on delete),
and rounds that came in another way are items of the user's base namespace.
Time-to-live is not supported: a ``ttl`` is refused with NotImplementedError.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from typing import Any, TypedDict

import pytest
from conftest import history, scripted, tool_message
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.config import get_store
from langgraph.graph import START, StateGraph
from langgraph.runtime import Runtime
from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    PutOp,
    SearchItem,
    SearchOp,
)

from langgraph_adamm import Memory
from langgraph_adamm.store import AdaMMStore
from tools.support.memory_state import HashEncoder

pytest.importorskip("faiss")

ALICE = ("memories", "alice")
BOB = ("memories", "bob")
PREFS = ("memories", "alice", "prefs")


@pytest.fixture
def mem() -> Iterator[Memory]:
    m = Memory(
        ":memory:", user_id="alice", text_encoder=HashEncoder(), visual_encoder=None
    )
    yield m
    m.close()


@pytest.fixture
def store(mem: Memory) -> AdaMMStore:
    return AdaMMStore(mem)


def round_texts(mem: Memory, user: str) -> list[str]:
    """The text of each of the user's stored rounds (user and assistant side)."""
    rows = mem.db.fetchall(
        "SELECT user_text, assistant_text FROM adamm_rounds WHERE user_id = ? "
        "ORDER BY round_id",
        [user],
    )
    return [" ".join(t for t in row if t) for row in rows]


def cells_holding(mem: Memory, word: str) -> list[str]:
    """``table.column`` of every text cell of the database holding ``word``."""
    found = []
    tables = mem.db.fetchall(
        "SELECT table_name FROM information_schema.tables "
        "WHERE table_schema = current_schema()"
    )
    for (table,) in tables:
        columns = mem.db.fetchall(
            "SELECT column_name, data_type FROM information_schema.columns "
            "WHERE table_name = ? AND table_schema = current_schema()",
            [table],
        )
        for column, dtype in columns:
            if "VARCHAR" not in dtype.upper() and dtype.lower() not in (
                "character varying",
                "json",
                "array",
                "text",
            ):
                continue
            (count,) = mem.db.fetchall(
                f'SELECT count(*) FROM "{table}" '
                f'WHERE CAST("{column}" AS VARCHAR) ILIKE ?',
                [f"%{word}%"],
            )[0]
            if count:
                found.append(f"{table}.{column}")
    return found


def lexical_hits(mem: Memory, user: str, word: str) -> dict[str, float]:
    retrieval = mem.for_user(user).retrieval
    assert retrieval is not None
    return retrieval.round_lexical_scores(word)


def keys(items: list[SearchItem]) -> list[str]:
    return [i.key for i in items]


def plain(result: Any) -> Any:
    """A batch result in a comparable form (SearchItem equality ignores score)."""
    if isinstance(result, Item):
        return result.dict()
    if isinstance(result, list):
        return [plain(r) for r in result]
    return result


# -- put and get ---------------------------------------------------------------


def test_put_then_get_gives_the_value_back_exactly(store):
    value = {
        "content": "Alice's passport number ends in 4471",
        "tags": ["travel", "documents"],
        "meta": {"confidence": 0.9, "source": {"kind": "chat", "turn": 3}},
        "note": "unicode kept: café ✓",
        "flag": True,
        "missing": None,
    }
    before = datetime.now(timezone.utc)
    store.put(ALICE, "passport", value)
    after = datetime.now(timezone.utc)
    item = store.get(ALICE, "passport")
    assert isinstance(item, Item)
    assert item.value == value
    assert (item.key, item.namespace) == ("passport", ALICE)
    for moment in (item.created_at, item.updated_at):
        assert moment.tzinfo is not None and moment.utcoffset() == timedelta(0)
        assert before - timedelta(seconds=1) <= moment <= after + timedelta(seconds=1)
    assert item.created_at <= item.updated_at


def test_get_of_a_missing_key_or_user_is_none(store):
    store.put(ALICE, "k", {"content": "something"})
    assert store.get(ALICE, "other") is None
    assert store.get(PREFS, "k") is None
    assert store.get(("memories", "nobody"), "k") is None


def test_second_put_replaces_the_value_and_keeps_created_at(store):
    store.put(ALICE, "car", {"content": "Alice drives a red hatchback"})
    first = store.get(ALICE, "car")
    store.put(ALICE, "car", {"content": "Alice now drives a blue estate", "v": 2})
    second = store.get(ALICE, "car")
    assert second.value == {"content": "Alice now drives a blue estate", "v": 2}
    assert second.created_at == first.created_at
    assert second.updated_at > first.updated_at
    assert [i.key for i in store.search(ALICE)] == ["car"]


def test_replacing_a_value_forgets_the_old_text(store, mem):
    store.put(ALICE, "trip", {"content": "Flight to Zanzibar on the ninth"})
    store.put(ALICE, "other", {"content": "Bought new running shoes"})
    assert lexical_hits(mem, "alice", "zanzibar")
    store.put(ALICE, "trip", {"content": "The trip was cancelled for good"})
    found = store.search(ALICE, query="zanzibar")
    assert all("Zanzibar" not in json.dumps(i.value) for i in found)
    assert lexical_hits(mem, "alice", "zanzibar") == {}
    assert not any("Zanzibar" in t for t in round_texts(mem, "alice"))
    assert cells_holding(mem, "zanzibar") == []


def test_delete_forgets_the_item_and_its_text(store, mem):
    store.put(ALICE, "pin", {"content": "The garage code is quetzal seven"})
    assert keys(store.search(ALICE, query="quetzal")) == ["pin"]
    store.delete(ALICE, "pin")
    assert store.get(ALICE, "pin") is None
    assert store.search(ALICE, query="quetzal") == []
    assert store.search(ALICE) == []
    assert lexical_hits(mem, "alice", "quetzal") == {}
    assert round_texts(mem, "alice") == []
    assert cells_holding(mem, "quetzal") == []


def test_put_of_none_deletes(store, mem):
    store.put(ALICE, "pin", {"content": "The shed key is under the marigold pot"})
    store.put(ALICE, "pin", None)
    assert store.get(ALICE, "pin") is None
    assert store.search(ALICE, query="marigold") == []
    assert cells_holding(mem, "marigold") == []


def test_deleting_a_missing_key_is_not_an_error(store):
    store.delete(ALICE, "never-put")
    store.delete(("memories", "nobody", "sub"), "never-put")
    store.put(ALICE, "k", {"content": "kept"})
    store.delete(ALICE, "k")
    store.delete(ALICE, "k")
    assert store.get(ALICE, "k") is None


# -- what a value becomes in the memory -------------------------------------------


def test_string_content_is_the_round_text(store, mem):
    store.put(ALICE, "k", {"content": "I keep bees on the allotment", "n": 1})
    assert round_texts(mem, "alice") == ["I keep bees on the allotment"]


def test_message_content_becomes_the_text_of_the_messages(store, mem):
    value = {
        "content": [
            {"role": "user", "content": "I adore quokkas"},
            {"role": "assistant", "content": "Quokkas are famously cheerful"},
        ]
    }
    store.put(ALICE, "chat", value)
    assert store.get(ALICE, "chat").value == value
    (text,) = round_texts(mem, "alice")
    assert "I adore quokkas" in text and "Quokkas are famously cheerful" in text
    assert '"role"' not in text and "assistant" not in text
    store.put(ALICE, "other", {"content": "The weather was mild all week"})
    assert keys(store.search(ALICE, query="quokkas"))[0] == "chat"


def test_langchain_message_objects_in_content_are_remembered(store, mem):
    messages = [
        HumanMessage("My nephew collects trilobite fossils"),
        AIMessage("Trilobites make a wonderful collection"),
    ]
    store.put(ALICE, "msgs", {"content": messages})
    (text,) = round_texts(mem, "alice")
    assert "My nephew collects trilobite fossils" in text
    assert "Trilobites make a wonderful collection" in text
    store.put(ALICE, "other", {"content": "Dinner was pasta with pesto"})
    assert keys(store.search(ALICE, query="trilobite"))[0] == "msgs"


def test_other_values_are_remembered_as_their_json(store, mem):
    value = {"food": "rambutan", "rating": 5, "tags": ["sweet"]}
    store.put(ALICE, "fruit", value)
    (text,) = round_texts(mem, "alice")
    assert json.loads(text) == value
    store.put(ALICE, "other", {"content": "Walked the dog in the park"})
    assert keys(store.search(ALICE, query="rambutan"))[0] == "fruit"


def test_index_false_keeps_the_item_out_of_query_search(store, mem):
    store.put(ALICE, "hidden", {"content": "The safe combination is pelican"}, False)
    store.put(ALICE, "shown", {"content": "Lunch with Sam on Friday"})
    assert store.get(ALICE, "hidden").value == {
        "content": "The safe combination is pelican"
    }
    assert set(keys(store.search(ALICE))) == {"hidden", "shown"}
    assert "hidden" not in keys(store.search(ALICE, query="pelican"))
    assert lexical_hits(mem, "alice", "pelican") == {}


def test_index_as_a_field_list_is_searchable(store):
    store.put(ALICE, "a", {"content": "Booked a pottery workshop"}, ["content"])
    store.put(ALICE, "b", {"content": "Paid the electricity bill"})
    assert keys(store.search(ALICE, query="pottery"))[0] == "a"


# -- namespaces ----------------------------------------------------------------


def test_namespace_outside_the_template_is_refused(store):
    for namespace in [("notes", "alice"), ("memories",)]:
        calls = {
            "put": lambda ns=namespace: store.put(ns, "k", {"content": "x"}),
            "get": lambda ns=namespace: store.get(ns, "k"),
            "delete": lambda ns=namespace: store.delete(ns, "k"),
        }
        for name, call in calls.items():
            with pytest.raises(InvalidNamespaceError) as caught:
                call()
            message = str(caught.value)
            assert "memories" in message and "{user_id}" in message, (name, message)
    assert store.list_namespaces() == []


def test_invalid_labels_are_refused(store):
    doc = {"content": "x"}
    failures = []
    for ns in [("memories", "al.ice"), ("memories", "alice", ""), ("memories", "")]:
        calls = {
            "put": lambda ns=ns: store.put(ns, "k", doc),
            "get": lambda ns=ns: store.get(ns, "k"),
            "delete": lambda ns=ns: store.delete(ns, "k"),
            "search": lambda ns=ns: store.search(ns),
            "prefix": lambda ns=ns: store.list_namespaces(prefix=ns),
            "suffix": lambda ns=ns: store.list_namespaces(suffix=ns),
            "batch put": lambda ns=ns: store.batch([PutOp(ns, "k", doc)]),
            "batch get": lambda ns=ns: store.batch([GetOp(ns, "k")]),
        }
        for name, call in calls.items():
            try:
                call()
            except InvalidNamespaceError:
                continue
            failures.append((name, ns))
    assert failures == []
    assert store.list_namespaces() == []


def test_users_are_isolated(store, mem):
    store.put(ALICE, "locker", {"content": "My locker code is saffron"})
    store.put(BOB, "hobby", {"content": "Bob builds model trains"})
    store.put(BOB, "locker", {"content": "Bob has no locker"})
    assert store.get(ALICE, "locker").value == {"content": "My locker code is saffron"}
    assert store.get(BOB, "locker").value == {"content": "Bob has no locker"}
    assert set(keys(store.search(BOB))) == {"hobby", "locker"}
    for item in store.search(BOB, query="saffron locker code"):
        assert item.namespace == BOB and "saffron" not in item.value["content"]
    assert all(i.namespace == ALICE for i in store.search(ALICE, query="trains"))
    store.delete(BOB, "locker")
    assert store.get(ALICE, "locker") is not None
    assert lexical_hits(mem, "bob", "saffron") == {}
    assert store.search(("memories", "nobody"), query="saffron") == []


def test_sub_namespaces_hold_their_own_items(store):
    store.put(ALICE, "k", {"content": "Base note about kayaking"})
    store.put(PREFS, "k", {"content": "Prefers window seats"})
    store.put(("memories", "alice", "prefs", "food"), "k", {"content": "No olives"})
    assert store.get(PREFS, "k").namespace == PREFS
    assert store.get(PREFS, "k").value == {"content": "Prefers window seats"}
    assert store.get(ALICE, "k").value == {"content": "Base note about kayaking"}
    store.delete(("memories", "alice", "work"), "k")
    store.delete(PREFS, "k")
    assert store.get(PREFS, "k") is None
    assert store.get(ALICE, "k") is not None
    assert store.get(("memories", "alice", "prefs", "food"), "k") is not None


def test_a_custom_template_places_the_user_label(mem):
    store = AdaMMStore(mem, namespace=("apps", "diary", "{user_id}"))
    store.put(("apps", "diary", "carol"), "d1", {"content": "Carol saw an otter"})
    store.put(("apps", "diary", "carol", "drafts"), "d2", {"content": "draft"})
    assert store.get(("apps", "diary", "carol"), "d1").value == {
        "content": "Carol saw an otter"
    }
    assert set(keys(store.search(("apps", "diary", "carol")))) == {"d1", "d2"}
    assert any("Carol saw an otter" in t for t in round_texts(mem, "carol"))
    for namespace in [("apps", "notes", "carol"), ("apps", "diary"), ALICE]:
        with pytest.raises(InvalidNamespaceError, match="diary"):
            store.put(namespace, "k", {"content": "x"})


# -- search ----------------------------------------------------------------------


def test_search_without_query_is_newest_first_and_paged(store):
    for i in range(5):
        store.put(ALICE, f"k{i}", {"content": f"Plain note number {i}"})
    items = store.search(ALICE)
    assert keys(items) == ["k4", "k3", "k2", "k1", "k0"]
    assert all(isinstance(i, SearchItem) and i.score is None for i in items)
    assert keys(store.search(ALICE, limit=2, offset=1)) == ["k3", "k2"]
    assert keys(store.search(ALICE, offset=4)) == ["k0"]
    store.put(ALICE, "k1", {"content": "Plain note number 1, edited"})
    assert keys(store.search(ALICE, limit=2)) == ["k1", "k4"]


def test_search_prefix_includes_sub_namespaces(store):
    store.put(ALICE, "base", {"content": "Base note"})
    store.put(PREFS, "seat", {"content": "Aisle seat please"})
    store.put(("memories", "alice", "prefs", "food"), "olives", {"content": "None"})
    store.put(("memories", "alice", "work"), "desk", {"content": "Desk by window"})
    assert set(keys(store.search(ALICE))) == {"base", "seat", "olives", "desk"}
    by_prefs = store.search(PREFS)
    assert set(keys(by_prefs)) == {"seat", "olives"}
    assert {i.namespace for i in by_prefs} == {
        PREFS,
        ("memories", "alice", "prefs", "food"),
    }
    assert keys(store.search(PREFS, query="aisle seat"))[0] == "seat"
    assert all(
        i.namespace[:3] == PREFS for i in store.search(PREFS, query="desk window")
    )


def test_query_ranks_the_rare_word_first(store):
    texts = {
        "weather": "We talked about the weather and the garden today",
        "violin": "My sister plays the violin in an orchestra",
        "xylo": "I started xylophone lessons on Tuesday",
        "garden": "The garden needs watering after the weather turned dry",
    }
    for key, text in texts.items():
        store.put(ALICE, key, {"content": text})
    found = store.search(ALICE, query="xylophone")
    assert found[0].key == "xylo"
    assert all(isinstance(i.score, float) for i in found)
    scores = [i.score for i in found]
    assert scores == sorted(scores, reverse=True)
    assert store.search(ALICE, query="violin orchestra")[0].key == "violin"


def test_query_search_pages(store):
    for i in range(5):
        store.put(ALICE, f"doc{i}", {"content": f"test document number {i}"})
    everything = keys(store.search(ALICE, query="document", limit=10))
    assert sorted(everything) == [f"doc{i}" for i in range(5)]
    first = keys(store.search(ALICE, query="document", limit=2))
    second = keys(store.search(ALICE, query="document", limit=2, offset=2))
    assert first + second == everything[:4]


FRUIT_AND_CARS = {
    "red_apple": {"content": "red apple", "color": "red", "score": 4.5},
    "red_car": {"content": "red car", "color": "red", "score": 3.0},
    "green_apple": {"content": "green apple", "color": "green", "score": 4.0},
    "blue_car": {"content": "blue car", "color": "blue", "score": 3.5},
}
SHOPS = {"red_apple": "north", "red_car": "south", "green_apple": "north"}


def test_filter_by_equality_nested_and_operators(store):
    for key, value in FRUIT_AND_CARS.items():
        meta = {"shop": SHOPS[key]} if key in SHOPS else {}
        store.put(ALICE, key, {**value, "meta": meta})
    cases = {
        "color=red": ({"color": "red"}, {"red_apple", "red_car"}),
        "nested": ({"meta": {"shop": "north"}}, {"red_apple", "green_apple"}),
        "$eq": ({"color": {"$eq": "blue"}}, {"blue_car"}),
        "$ne": ({"color": {"$ne": "red"}}, {"green_apple", "blue_car"}),
        "$gt": ({"score": {"$gt": 3.5}}, {"red_apple", "green_apple"}),
        "$gte": ({"score": {"$gte": 3.5}}, {"red_apple", "green_apple", "blue_car"}),
        "$lt": ({"score": {"$lt": 3.5}}, {"red_car"}),
        "$lte": ({"score": {"$lte": 3.5}}, {"red_car", "blue_car"}),
        "two keys": ({"color": "red", "score": {"$gte": 4}}, {"red_apple"}),
        "no match": ({"color": "purple"}, set()),
    }
    got = {
        name: set(keys(store.search(ALICE, filter=f))) for name, (f, _) in cases.items()
    }
    assert got == {name: expected for name, (_, expected) in cases.items()}


def test_filter_with_a_query(store):
    for key, value in FRUIT_AND_CARS.items():
        store.put(ALICE, key, value)
    apples = store.search(ALICE, query="apple", filter={"color": "red"})
    assert set(keys(apples)) <= {"red_apple", "red_car"} and apples[0].key == (
        "red_apple"
    )
    cars = store.search(ALICE, query="car", filter={"score": {"$gt": 3.2}})
    assert cars[0].key == "blue_car"
    assert set(keys(cars)) <= {"red_apple", "green_apple", "blue_car"}
    green = store.search(
        ALICE, query="apple", filter={"score": {"$gte": 4.0}, "color": "green"}
    )
    assert keys(green) == ["green_apple"]


# -- rounds that came in another way -------------------------------------------------


def test_ingested_rounds_are_items_of_the_base_namespace(store, mem):
    mem.ingest(
        history(
            [
                {"user": "I planted tulip bulbs by the fence"},
                {"user": "The plumber comes on Thursday"},
            ],
            user_id="alice",
        )
    )
    item = store.get(ALICE, "S1:1")
    assert item is not None and item.namespace == ALICE
    assert "I planted tulip bulbs by the fence" in item.value["content"]
    assert set(keys(store.search(ALICE))) == {"S1:1", "S1:2"}
    assert store.search(PREFS) == []
    assert keys(store.search(ALICE, query="tulip"))[0] == "S1:1"
    store.delete(ALICE, "S1:1")
    assert store.get(ALICE, "S1:1") is None
    assert mem.rounds_to_forget(["S1:1", "S1:2"]) == ["S1:2"]
    assert lexical_hits(mem, "alice", "tulip") == {}


def test_added_messages_are_items_and_can_be_deleted(store, mem):
    mem.add_messages(
        [HumanMessage("I am learning to juggle"), AIMessage("Juggling takes practice")]
    )
    (item,) = store.search(ALICE)
    assert "I am learning to juggle" in item.value["content"]
    assert store.get(ALICE, item.key).value == item.value
    assert mem.rounds_to_forget([item.key]) == [item.key]
    store.delete(ALICE, item.key)
    assert store.search(ALICE) == []
    assert mem.rounds_to_forget([item.key]) == []


def test_another_users_ingested_rounds_stay_in_their_namespace(store, mem):
    mem.for_user("bob").ingest(
        history([{"user": "Bob repaired the canoe"}], user_id="bob")
    )
    assert keys(store.search(BOB)) == ["S1:1"]
    assert store.search(ALICE) == []
    assert store.get(ALICE, "S1:1") is None


# -- list_namespaces -------------------------------------------------------------


def test_list_namespaces_matches_as_langgraph_does(store):
    namespaces = [
        ALICE,
        PREFS,
        ("memories", "alice", "prefs", "food"),
        ("memories", "alice", "work"),
        ("memories", "bob", "work"),
        ("memories", "carol", "prefs"),
    ]
    for i, ns in enumerate(namespaces):
        store.put(ns, f"k{i}", {"content": f"note {i}"})
    assert store.list_namespaces() == sorted(namespaces)
    assert store.list_namespaces(prefix=PREFS) == [
        PREFS,
        ("memories", "alice", "prefs", "food"),
    ]
    assert store.list_namespaces(suffix=("prefs",)) == [
        PREFS,
        ("memories", "carol", "prefs"),
    ]
    assert store.list_namespaces(prefix=("memories", "*", "work")) == [
        ("memories", "alice", "work"),
        ("memories", "bob", "work"),
    ]
    assert store.list_namespaces(prefix=ALICE, suffix=("*", "work")) == [
        ("memories", "alice", "work")
    ]
    assert store.list_namespaces(max_depth=2) == [ALICE, BOB, ("memories", "carol")]
    assert store.list_namespaces(prefix=ALICE, max_depth=3) == [
        ALICE,
        PREFS,
        ("memories", "alice", "work"),
    ]
    assert store.list_namespaces(limit=2, offset=1) == sorted(namespaces)[1:3]
    assert store.list_namespaces(prefix=("nothing",)) == []
    store.delete(("memories", "bob", "work"), "k4")
    assert ("memories", "bob", "work") not in store.list_namespaces()


def test_list_namespaces_includes_users_with_ingested_rounds_only(store, mem):
    mem.for_user("dave").ingest(history([{"user": "Dave likes chess"}], user_id="dave"))
    assert store.list_namespaces() == [("memories", "dave")]


# -- batches and async ---------------------------------------------------------------


def test_batch_returns_results_in_op_order(store):
    results = store.batch(
        [
            PutOp(ALICE, "a", {"content": "Alice studies Portuguese"}),
            PutOp(PREFS, "b", {"content": "Prefers green tea"}),
            GetOp(ALICE, "a"),
            SearchOp(ALICE, None, 10, 0, "portuguese"),
            ListNamespacesOp((MatchCondition("prefix", ALICE),), None, 100, 0),
            PutOp(ALICE, "a", None),
            GetOp(ALICE, "a"),
            SearchOp(ALICE, {"content": "Prefers green tea"}, 10, 0, None),
        ]
    )
    assert len(results) == 8
    assert results[0] is None and results[1] is None
    assert results[2].value == {"content": "Alice studies Portuguese"}
    assert keys(results[3])[0] == "a"
    assert results[4] == [ALICE, PREFS]
    assert results[5] is None and results[6] is None
    assert keys(results[7]) == ["b"]


def test_abatch_gives_what_batch_gives(store):
    store.put(ALICE, "a", {"content": "Alice studies Portuguese", "n": 1})
    store.put(PREFS, "b", {"content": "Prefers green tea", "n": 2})
    ops = [
        GetOp(ALICE, "a"),
        GetOp(ALICE, "missing"),
        SearchOp(ALICE, None, 10, 0, None),
        SearchOp(ALICE, {"n": {"$gte": 1}}, 10, 0, "green tea"),
        ListNamespacesOp((), 2, 100, 0),
    ]
    assert plain(asyncio.run(store.abatch(ops))) == plain(store.batch(ops))


def test_async_methods(store):
    async def run() -> None:
        await store.aput(ALICE, "a", {"content": "Alice's bike is a tandem"})
        await store.aput(PREFS, "b", {"content": "Prefers mornings"})
        item = await store.aget(ALICE, "a")
        assert item is not None
        assert item.value == {"content": "Alice's bike is a tandem"}
        found = await store.asearch(ALICE, query="tandem")
        assert found[0].key == "a"
        assert await store.alist_namespaces() == [ALICE, PREFS]
        await store.adelete(ALICE, "a")
        assert await store.aget(ALICE, "a") is None
        assert keys(await store.asearch(ALICE)) == ["b"]

    asyncio.run(run())


# -- time-to-live --------------------------------------------------------------------


def test_ttl_is_not_supported(store):
    assert store.supports_ttl is False
    with pytest.raises(NotImplementedError, match="TTL"):
        store.put(ALICE, "k", {"content": "expires"}, ttl=5)
    with pytest.raises(NotImplementedError, match="TTL"):
        asyncio.run(store.aput(ALICE, "k", {"content": "expires"}, ttl=5.0))
    assert store.get(ALICE, "k") is None
    store.put(ALICE, "k", {"content": "kept"}, ttl=None)
    assert store.get(ALICE, "k").value == {"content": "kept"}


# -- in a LangGraph graph ------------------------------------------------------------


class NoteState(TypedDict, total=False):
    note: str
    found: list[str]


def test_graph_nodes_use_the_store_through_runtime(store):
    seen: list[BaseStore] = []

    def remember(state: NoteState, runtime: Runtime) -> NoteState:
        runtime.store.put(ALICE, "note", {"content": state["note"]})
        return {}

    def recall(state: NoteState, runtime: Runtime) -> NoteState:
        seen.append(get_store())
        found = runtime.store.search(ALICE, query="marmalade")
        return {"found": [i.value["content"] for i in found]}

    builder = StateGraph(NoteState)
    builder.add_node("remember", remember)
    builder.add_node("recall", recall)
    builder.add_edge(START, "remember")
    builder.add_edge("remember", "recall")
    graph = builder.compile(store=store)
    out = graph.invoke({"note": "Alice makes marmalade every January"})
    assert out["found"][0] == "Alice makes marmalade every January"
    assert seen == [store] and seen[0] is store
    assert store.get(ALICE, "note") is not None


# -- LangMem's memory tools ----------------------------------------------------------

TEA = "Alice's favourite tea is lapsang souchong"


def langmem_agent(store: AdaMMStore, steps: list[AIMessage]) -> Any:
    langmem = pytest.importorskip("langmem")
    from langchain.agents import create_agent

    namespace = ("memories", "{langgraph_user_id}")
    tools = [
        langmem.create_manage_memory_tool(namespace=namespace),
        langmem.create_search_memory_tool(namespace=namespace),
    ]
    return create_agent(scripted(steps), tools=tools, store=store)


def remember_then_search() -> list[AIMessage]:
    return [
        tool_message({"content": TEA}, name="manage_memory"),
        tool_message({"query": "lapsang"}, name="search_memory"),
        AIMessage(content="Noted."),
    ]


def search_only() -> list[AIMessage]:
    return [
        tool_message({"query": "lapsang"}, name="search_memory"),
        AIMessage(content="Nothing found."),
    ]


def as_user(user: str) -> dict[str, Any]:
    return {"configurable": {"langgraph_user_id": user}}


def check_langmem_run(store: AdaMMStore, result: dict[str, Any]) -> None:
    outputs = [m for m in result["messages"] if isinstance(m, ToolMessage)]
    assert len(outputs) == 2 and all(m.status != "error" for m in outputs)
    assert outputs[0].content.startswith("created memory")
    found = json.loads(outputs[1].content)
    assert found[0]["value"] == {"content": TEA}
    assert found[0]["namespace"] == ["memories", "alice"]
    (item,) = store.search(ALICE)
    assert item.value == {"content": TEA} and item.key == found[0]["key"]
    assert store.search(BOB) == []


def test_langmem_tools_remember_and_search_per_user_sync(store):
    agent = langmem_agent(store, remember_then_search())
    prompt = {"messages": [HumanMessage("Remember my favourite tea.")]}
    check_langmem_run(store, agent.invoke(prompt, config=as_user("alice")))
    bob = langmem_agent(store, search_only())
    out = bob.invoke({"messages": [HumanMessage("What tea?")]}, config=as_user("bob"))
    (output,) = [m for m in out["messages"] if isinstance(m, ToolMessage)]
    assert json.loads(output.content) == []


def test_langmem_tools_remember_and_search_per_user_async(store):
    agent = langmem_agent(store, remember_then_search())
    prompt = {"messages": [HumanMessage("Remember my favourite tea.")]}
    check_langmem_run(
        store, asyncio.run(agent.ainvoke(prompt, config=as_user("alice")))
    )
    bob = langmem_agent(store, search_only())
    out = asyncio.run(
        bob.ainvoke({"messages": [HumanMessage("What tea?")]}, config=as_user("bob"))
    )
    (output,) = [m for m in out["messages"] if isinstance(m, ToolMessage)]
    assert json.loads(output.content) == []


def test_without_retrieval_memory_query_search_ranks_by_shared_words() -> None:
    with Memory(":memory:", user_id="alice", retrieval=False) as m:
        store = AdaMMStore(m)
        store.put(ALICE, "tea", {"content": "I drink oolong tea every morning"})
        store.put(ALICE, "bike", {"content": "My bike is a blue Brompton"})
        store.put(ALICE, "car", {"content": "The car is blue"})
        hits = store.search(ALICE, query="blue bike")
        assert [h.key for h in hits] == ["bike", "car"]
        assert hits[0].score == pytest.approx(1.0) and hits[1].score == 0.5
        assert store.search(ALICE, query="violin") == []


def test_records_put_through_the_store_are_computed_over() -> None:
    runs = [(5.0, 30), (7.5, 44), (10.0, 61), (6.0, 35), (4.0, 25)]
    with Memory(":memory:", user_id="alice", retrieval=False) as m:
        store = AdaMMStore(m)
        store.batch(
            [
                PutOp(
                    ALICE,
                    f"run-{i}",
                    {"content": f"Run log: distance: {km} km, duration: {mins} min"},
                )
                for i, (km, mins) in enumerate(runs)
            ]
        )
        (table,) = m.tables
        result = m.compute(
            {
                "table": table.table_name,
                "operator": "sum",
                "target_column_expression": "distance",
            }
        )
        assert result.value == pytest.approx(32.5) and result.unit == "km"
        store.delete(ALICE, "run-0")
        result = m.compute(
            {
                "table": table.table_name,
                "operator": "sum",
                "target_column_expression": "distance",
            }
        )
        assert result.value == pytest.approx(27.5)


def test_bad_puts_are_refused_by_name_and_store_nothing(
    store: AdaMMStore, mem: Memory
) -> None:
    store.put(ALICE, "kept", {"content": "the first note"})
    with pytest.raises(ValueError, match=r"'tea' in \('memories', 'alice'\) is a str"):
        store.batch(
            [
                PutOp(ALICE, "fine", {"content": "a fine note"}),
                PutOp(ALICE, "tea", "oolong"),  # type: ignore[arg-type]
            ]
        )
    with pytest.raises(ValueError, match="store keys are non-empty strings"):
        store.put(ALICE, "", {"content": "x"})
    assert store.get(ALICE, "fine") is None
    assert [i.key for i in store.search(ALICE)] == ["kept"]
    assert round_texts(mem, "alice") == ["the first note"]
