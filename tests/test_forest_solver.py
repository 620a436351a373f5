"""The GraphMemix evidence-forest solver against brute force and hand cases."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from langgraph_adamm.forest.solver import (
    TIE_TOLERANCE,
    ForestSolution,
    max_weight_forest,
    objective,
    solve_forest,
)
from tools.benchmarks.bench_forest_solver import ecv_instance, fixed_edge_instance

KAPPA_PROP = 0.2
KAPPA = 0.12
LAM = 0.1
R_HALF = math.exp(-0.7)  # gain 0.05 with kappa 0.12, 0.13 with kappa_prop
RELIABILITIES = [1.0, 0.99, 0.6, 0.3, 0.198, 0.1, R_HALF]
UTILITIES = [0.05, 0.1, 0.12, 0.2, 0.3, 0.5, -0.1]


# ----------------------------------------------------------------- references


def find(parent: dict[int, int], v: int) -> int:
    while parent.get(v, v) != v:
        v = parent[v]
    return v


def is_forest(edges: list[tuple[int, int]]) -> bool:
    parent: dict[int, int] = {}
    for a, b in edges:
        ra, rb = find(parent, a), find(parent, b)
        if ra == rb:
            return False
        parent[ra] = rb
    return True


def components(nodes: list[int], edges: list[tuple[int, int]]) -> int:
    parent: dict[int, int] = {}
    for a, b in edges:
        ra, rb = find(parent, a), find(parent, b)
        if ra != rb:
            parent[ra] = rb
    return len({find(parent, v) for v in nodes})


def rank_key(u: list[float]):
    return lambda v: (-u[v], v)


def brute_objective(
    nodes: list[int],
    u: list[float],
    edges: list[tuple[int, int, float]],
    kappa: float,
    lam: float,
) -> float:
    """max over every forest F of the induced graph (any edges, any gain) of J."""
    members = set(nodes)
    induced = [(i, j, r) for i, j, r in edges if i in members and j in members]
    best = -math.inf
    for size in range(len(induced) + 1):
        for chosen in itertools.combinations(induced, size):
            pairs = [(i, j) for i, j, _ in chosen]
            if not is_forest(pairs):
                continue
            value = (
                sum(u[v] for v in members)
                - lam * sum(-math.log(r) for _, _, r in chosen)
                - kappa * components(sorted(members), pairs)
            )
            best = max(best, value)
    return best


def reference_proposal(
    u: list[float], edges: list[tuple[int, int, float]], k: int
) -> tuple[list[int], int]:
    """Best-improvement 1-swap, every swap scored by ``objective`` from scratch."""
    n = len(u)
    selected = sorted(range(n), key=rank_key(u))[: min(k, n)]
    swaps = 0
    while True:
        current = objective(selected, u, edges, KAPPA_PROP, LAM)[0]
        moves = []
        for x in sorted(selected):
            for y in range(n):
                if y in selected:
                    continue
                trial = [v for v in selected if v != x] + [y]
                delta = objective(trial, u, edges, KAPPA_PROP, LAM)[0] - current
                if delta > TIE_TOLERANCE:
                    moves.append((delta, x, y))
        if not moves:
            return sorted(selected, key=rank_key(u)), swaps
        best = max(m[0] for m in moves)
        _, x, y = next(m for m in moves if m[0] >= best - TIE_TOLERANCE)
        selected = [v for v in selected if v != x] + [y]
        swaps += 1


def reference_refine(
    pool: list[int], u: list[float], edges: list[tuple[int, int, float]]
) -> tuple[list[int], float]:
    """Exhaustive best non-empty subset of ``pool``, with the tie rules."""
    ordered = sorted(pool, key=rank_key(u))
    rank = {v: p for p, v in enumerate(ordered)}
    scored = []
    for size in range(1, len(ordered) + 1):
        for subset in itertools.combinations(ordered, size):
            scored.append((objective(subset, u, edges, KAPPA, LAM)[0], subset))
    best = max(value for value, _ in scored)
    tied = [s for value, s in scored if value >= best - TIE_TOLERANCE]
    winner = min(tied, key=lambda s: (len(s), sorted(rank[v] for v in s)))
    return sorted(winner), best


def random_instance(
    rng: random.Random, n: int, density: float
) -> tuple[list[float], list[tuple[int, int, float]]]:
    """Utilities and reliabilities from small sets, so ties are common."""
    u = [rng.choice(UTILITIES) for _ in range(n)]
    edges = []
    for i, j in itertools.combinations(range(n), 2):
        if rng.random() < density:
            a, b = (i, j) if rng.random() < 0.5 else (j, i)
            edges.append((a, b, rng.choice(RELIABILITIES)))
            if rng.random() < 0.15:  # a duplicate relation of the same pair
                edges.append((b, a, rng.choice(RELIABILITIES)))
    return u, edges


def realistic_instances(count: int) -> list[tuple[list[float], list]]:
    rng = random.Random(2024)
    return [ecv_instance(rng) for _ in range(count)] + [
        fixed_edge_instance(rng) for _ in range(count)
    ]


# ---------------------------------------------------------------------- Kruskal


@pytest.mark.parametrize("seed", range(150))
def test_kruskal_matches_brute_force_forest(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(1, 6)
    gains = [-0.1, 0.0, 0.1, 0.1, 0.2, 0.3, 0.05]
    gain_edges = []
    for i, j in itertools.combinations(range(n), 2):
        if rng.random() < 0.6:
            gain_edges.append((j, i, rng.choice(gains)))  # endpoints reversed
    nodes = [v for v in range(n) if rng.random() < 0.85]

    weight, forest = max_weight_forest(nodes, gain_edges)

    usable = [
        (-g, min(i, j), max(i, j))
        for i, j, g in gain_edges
        if i in nodes and j in nodes and g > 0
    ]
    all_induced = [
        (-g, min(i, j), max(i, j))
        for i, j, g in gain_edges
        if i in nodes and j in nodes
    ]
    forests = []
    for size in range(len(all_induced) + 1):
        for chosen in itertools.combinations(all_induced, size):
            if is_forest([(a, b) for _, a, b in chosen]):
                forests.append((-sum(neg for neg, _, _ in chosen), sorted(chosen)))
    best = max(w for w, _ in forests)
    assert weight == pytest.approx(best, abs=1e-9)
    assert is_forest([(a, b) for a, b, _ in forest])
    assert all(g > 0 and a < b for a, b, g in forest)
    assert {(-g, a, b) for a, b, g in forest} <= set(usable)
    assert weight == pytest.approx(sum(g for _, _, g in forest), abs=1e-12)
    # The deterministic tie order: among all maximum forests Kruskal's is the
    # lexicographically smallest in (gain descending, min end, max end).
    optimal = [f for w, f in forests if w >= best - 1e-9]
    assert sorted((-g, a, b) for a, b, g in forest) == min(optimal)
    # Kruskal order is the output order.
    assert [(-g, a, b) for a, b, g in forest] == sorted(
        (-g, a, b) for a, b, g in forest
    )


def test_kruskal_equal_gains_prefer_smaller_pairs() -> None:
    # A 4-cycle with equal gains: the edge left out is the largest pair, (2, 3).
    weight, forest = max_weight_forest(
        [0, 1, 2, 3], [(2, 3, 0.1), (3, 0, 0.1), (1, 2, 0.1), (0, 1, 0.1)]
    )
    assert [(a, b) for a, b, _ in forest] == [(0, 1), (0, 3), (1, 2)]
    assert weight == pytest.approx(0.3)


def test_kruskal_against_networkx() -> None:
    nx = pytest.importorskip("networkx")
    rng = random.Random(7)
    for _ in range(40):
        n = rng.randint(5, 25)
        gain_edges = [
            (i, j, rng.uniform(-0.1, 0.3))
            for i, j in itertools.combinations(range(n), 2)
            if rng.random() < 0.3
        ]
        nodes = [v for v in range(n) if rng.random() < 0.8]
        graph = nx.Graph()
        graph.add_nodes_from(nodes)
        graph.add_weighted_edges_from(
            (i, j, g) for i, j, g in gain_edges if g > 0 and i in nodes and j in nodes
        )
        expected = nx.maximum_spanning_tree(graph).size(weight="weight")
        assert max_weight_forest(nodes, gain_edges)[0] == pytest.approx(expected)


@pytest.mark.parametrize("seed", range(40))
def test_objective_is_best_over_all_forests(seed: int) -> None:
    """J with the positive-gain Kruskal forest = max over every forest, any edges."""
    rng = random.Random(1000 + seed)
    u, edges = random_instance(rng, rng.randint(1, 6), 0.6)
    nodes = [v for v in range(len(u)) if rng.random() < 0.8] or [0]
    for kappa in (KAPPA, KAPPA_PROP):
        value, forest = objective(nodes, u, edges, kappa, LAM)
        assert value == pytest.approx(brute_objective(nodes, u, edges, kappa, LAM))
        # The value is the documented J of the returned forest.
        pairs = [(a, b) for a, b, _, _ in forest]
        direct = (
            sum(u[v] for v in nodes)
            - LAM * sum(-math.log(r) for _, _, _, r in forest)
            - kappa * components(nodes, pairs)
        )
        assert value == pytest.approx(direct, abs=1e-12)
        for a, b, gain, r in forest:
            assert gain == pytest.approx(kappa + LAM * math.log(r))
            best_r = max(rr for i, j, rr in edges if {i, j} == {a, b})
            assert r == best_r  # duplicates keep the most reliable relation


# ----------------------------------------------------------------- the stages


@pytest.mark.parametrize("seed", range(120))
def test_small_instances_match_reference(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(1, 8)
    k = rng.randint(1, 5)
    u, edges = random_instance(rng, n, rng.choice([0.2, 0.5, 0.9]))
    solution = solve_forest(u, edges, k=k)

    proposal, swaps = reference_proposal(u, edges, k)
    assert solution.proposal == proposal
    assert solution.swaps == swaps
    assert solution.proposal_objective == pytest.approx(
        objective(proposal, u, edges, KAPPA_PROP, LAM)[0], abs=1e-12
    )
    nodes, best = reference_refine(proposal, u, edges)
    assert sorted(solution.nodes) == nodes
    assert solution.objective == pytest.approx(best, abs=1e-12)
    assert solution.edges == objective(nodes, u, edges, KAPPA, LAM)[1]
    assert_local_optimum(solution, u, edges, k)


def assert_local_optimum(
    solution: ForestSolution, u: list[float], edges: list, k: int
) -> None:
    selected = solution.proposal
    assert len(selected) == min(k, len(u))
    current = objective(selected, u, edges, KAPPA_PROP, LAM)[0]
    for x in selected:
        for y in range(len(u)):
            if y in selected:
                continue
            trial = [v for v in selected if v != x] + [y]
            assert (
                objective(trial, u, edges, KAPPA_PROP, LAM)[0] - current
                <= TIE_TOLERANCE
            ), f"swap {x} -> {y} improves the proposal"


@pytest.mark.parametrize("index", range(6))
def test_realistic_instances_match_reference(index: int) -> None:
    u, edges = realistic_instances(3)[index]
    solution = solve_forest(u, edges)
    assert_local_optimum(solution, u, edges, 10)
    assert (solution.proposal, solution.swaps) == reference_proposal(u, edges, 10)
    nodes, best = reference_refine(solution.proposal, u, edges)
    assert sorted(solution.nodes) == nodes
    assert solution.objective == pytest.approx(best, abs=1e-12)


@pytest.mark.slow
def test_realistic_proposals_are_local_optima() -> None:
    for u, edges in realistic_instances(15):
        solution = solve_forest(u, edges)
        assert_local_optimum(solution, u, edges, 10)
        assert (
            sorted(solution.nodes) == reference_refine(solution.proposal, u, edges)[0]
        )


@pytest.mark.parametrize("seed", range(30))
def test_dense_medium_instances_match_reference(seed: int) -> None:
    """Many cycles: exercises the Kruskal paths, not only the no-cycle shortcuts."""
    rng = random.Random(500 + seed)
    n = rng.randint(9, 13)
    u = [rng.uniform(-0.05, 0.3) for _ in range(n)]
    edges = [
        (i, j, rng.choice(RELIABILITIES))
        for i, j in itertools.combinations(range(n), 2)
        if rng.random() < 0.6
    ]
    k = rng.randint(5, 8)
    solution = solve_forest(u, edges, k=k)
    assert (solution.proposal, solution.swaps) == reference_proposal(u, edges, k)
    nodes, best = reference_refine(solution.proposal, u, edges)
    assert sorted(solution.nodes) == nodes
    assert solution.objective == pytest.approx(best, abs=1e-12)


def test_stage_one_swaps_toward_the_edge() -> None:
    # Equal utilities: the top-10 is 0..9; edge (3, 12) makes swapping any x != 3
    # for 12 improve by the same gain, and the first x in index order, 0, goes.
    u = [0.2] * 15
    solution = solve_forest(u, [(3, 12, 1.0)])
    assert solution.swaps == 1
    assert solution.proposal == [1, 2, 3, 4, 5, 6, 7, 8, 9, 12]
    assert solution.proposal_objective == pytest.approx(
        10 * 0.2 - 10 * KAPPA_PROP + KAPPA_PROP
    )
    # Stage 2 keeps all (u > kappa); equal utilities read in index order.
    assert solution.nodes == [1, 2, 3, 12, 4, 5, 6, 7, 8, 9]
    assert solution.components[2] == [3, 12]
    assert solution.edges == [(3, 12, pytest.approx(KAPPA), 1.0)]


def test_stage_one_prefers_the_better_edge() -> None:
    # Top-2 is {0, 1}; node 2 has less utility but a much better edge to 0.
    u = [0.5, 0.09, 0.05]
    solution = solve_forest(u, [(0, 1, 0.3), (0, 2, 1.0)], k=2)
    assert solution.proposal == [0, 2]
    assert solution.swaps == 1
    assert solution.proposal_objective == pytest.approx(0.55 - 0.4 + 0.2)
    assert solution.nodes == [0, 2]
    assert solution.objective == pytest.approx(0.55 - 0.24 + 0.12)


def test_stage_two_uses_its_own_kappa() -> None:
    # r = 0.3: gain 0.2 + 0.1 ln 0.3 = 0.0796 in stage 1, -0.0004 in stage 2.
    solution = solve_forest([0.5, 0.3], [(0, 1, 0.3)])
    assert solution.proposal_objective == pytest.approx(
        0.8 - 2 * KAPPA_PROP + KAPPA_PROP + LAM * math.log(0.3)
    )
    assert solution.nodes == [0, 1]
    assert solution.edges == []
    assert solution.components == [[0], [1]]
    assert solution.objective == pytest.approx(0.8 - 2 * KAPPA)


# -------------------------------------------------------------------- ties


def test_tie_prefers_fewer_nodes() -> None:
    # Node 1 has u == kappa: including it adds exactly 0. Node 3 adds
    # 0.07 - 0.12 + 0.05 = 0 through its edge. Both stay out.
    u = [0.5, KAPPA, 0.3, 0.07]
    edges = [(0, 3, R_HALF)]
    solution = solve_forest(u, edges)
    assert solution.nodes == [0, 2]
    assert reference_refine([0, 1, 2, 3], u, edges)[0] == [0, 2]
    assert solution.objective == pytest.approx(0.8 - 2 * KAPPA)


def test_tie_prefers_earlier_ranks() -> None:
    # a, b are joined through c (strong edges) or through y (weak edges); the
    # sets {a, b, c} and {a, b, y} score the same and beat every other set.
    # y ranks before c (higher utility) although c has the lower index.
    c, y, a, b = 0, 1, 2, 3
    u = [0.0] * 4
    u[a], u[b], u[y], u[c] = 0.5, 0.4, 0.05, -0.09
    edges = [(a, c, 1.0), (c, b, 1.0), (y, a, R_HALF), (b, y, R_HALF)]
    j_c = objective([a, b, c], u, edges, KAPPA, LAM)[0]
    j_y = objective([a, b, y], u, edges, KAPPA, LAM)[0]
    assert abs(j_c - j_y) <= TIE_TOLERANCE
    solution = solve_forest(u, edges, k=4)
    assert solution.proposal == [a, b, y, c]
    assert sorted(solution.nodes) == sorted([a, b, y])
    assert reference_refine([0, 1, 2, 3], u, edges)[0] == sorted([a, b, y])
    assert solution.nodes == [a, y, b]


def test_all_equal_utilities_pick_earlier_indices() -> None:
    below = solve_forest([0.1] * 15, [])
    assert below.proposal == list(range(10))
    assert below.nodes == [0]
    assert below.objective == pytest.approx(0.1 - KAPPA)
    above = solve_forest([0.2] * 15, [])
    assert above.nodes == list(range(10))
    assert above.swaps == 0


# -------------------------------------------------------------- degenerate


@pytest.mark.parametrize("seed", range(10))
def test_no_edges(seed: int) -> None:
    rng = random.Random(seed)
    high = [0.25, 0.125, 0.1][seed % 3]  # the last: nothing exceeds kappa
    u = [rng.uniform(-0.2, high) for _ in range(30)]
    solution = solve_forest(u, [])
    top = sorted(range(30), key=rank_key(u))[:10]
    assert solution.proposal == top
    assert solution.swaps == 0
    expected = [v for v in top if u[v] > KAPPA] or [top[0]]
    assert solution.nodes == expected  # singletons, by utility
    assert solution.components == [[v] for v in expected]
    assert solution.edges == []
    assert solution.objective == pytest.approx(sum(u[v] - KAPPA for v in expected))


def test_one_candidate() -> None:
    single = solve_forest([0.3], [])
    assert (single.nodes, single.proposal, single.swaps) == ([0], [0], 0)
    assert single.objective == pytest.approx(0.3 - KAPPA)
    assert single.proposal_objective == pytest.approx(0.3 - KAPPA_PROP)
    negative = solve_forest([-1.0], [])
    assert negative.nodes == [0]  # the selection is never empty
    assert negative.objective == pytest.approx(-1.0 - KAPPA)


def test_no_candidates() -> None:
    assert solve_forest([], []) == ForestSolution(
        nodes=[], edges=[], objective=0.0, proposal=[], proposal_objective=0.0
    )


@pytest.mark.parametrize("seed", range(20))
def test_fewer_candidates_than_k_is_globally_optimal(seed: int) -> None:
    rng = random.Random(300 + seed)
    n = rng.randint(2, 7)
    u, edges = random_instance(rng, n, 0.6)
    solution = solve_forest(u, edges)
    assert solution.proposal == sorted(range(n), key=rank_key(u))
    assert solution.swaps == 0
    nodes, best = reference_refine(list(range(n)), u, edges)
    assert sorted(solution.nodes) == nodes
    assert solution.objective == pytest.approx(best, abs=1e-12)


def test_non_positive_gain_edge_is_ignored() -> None:
    # r = 0.1: gain 0.12 + 0.1 ln 0.1 < 0 and 0.2 + 0.1 ln 0.1 < 0.
    solution = solve_forest([0.5, 0.5], [(0, 1, 0.1)])
    assert solution.nodes == [0, 1]
    assert solution.edges == []
    assert solution.components == [[0], [1]]
    assert solution.objective == pytest.approx(1.0 - 2 * KAPPA)
    assert max_weight_forest([0, 1], [(0, 1, 0.0), (1, 0, -0.2)]) == (0.0, [])


def test_duplicate_relations_keep_the_most_reliable() -> None:
    solution = solve_forest([0.5, 0.5], [(0, 1, 0.5), (1, 0, 0.99), (0, 1, 0.3)])
    assert solution.edges == [(0, 1, pytest.approx(KAPPA + LAM * math.log(0.99)), 0.99)]


@pytest.mark.parametrize(
    ("utilities", "edges", "fragment"),
    [
        ([0.1, math.nan], [], "utility 1"),
        ([math.inf], [], "utility 0"),
        (["x"], [], "utility 0"),
        ([0.1, 0.2], [(0, 2, 0.5)], "(0, 2, 0.5)"),
        ([0.1, 0.2], [(-1, 1, 0.5)], "(-1, 1, 0.5)"),
        ([0.1, 0.2], [(1, 1, 0.5)], "(1, 1, 0.5)"),
        ([0.1, 0.2], [(0, 1, 0.0)], "(0, 1, 0.0)"),
        ([0.1, 0.2], [(0, 1, 1.5)], "(0, 1, 1.5)"),
        ([0.1, 0.2], [(0, 1, -0.3)], "(0, 1, -0.3)"),
        ([0.1, 0.2], [(0, 1, math.nan)], "(0, 1, nan)"),
        ([0.1, 0.2], [(0.0, 1, 0.5)], "(0.0, 1, 0.5)"),
        ([0.1, 0.2], [(0, 1)], "(0, 1)"),
    ],
)
def test_invalid_input_raises(utilities: list, edges: list, fragment: str) -> None:
    with pytest.raises(ValueError) as info:
        solve_forest(utilities, edges)
    assert fragment in str(info.value)


@pytest.mark.parametrize(
    "kwargs", [{"k": 0}, {"k": 2.5}, {"lam": -0.1}, {"kappa": math.nan}, {"k": 21}]
)
def test_invalid_parameters_raise(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        solve_forest([0.1] * 30, [], **kwargs)


def test_objective_rejects_unknown_nodes() -> None:
    with pytest.raises(ValueError):
        objective([0, 3], [0.1, 0.2], [], KAPPA, LAM)


# ----------------------------------------------------------------- reading


def test_reading_order() -> None:
    # Component {0, 1, 2, 3, 4, 8}: a tree around node 1 (the best, 0.9). BFS
    # from 1 visits its neighbours 3 (0.6), then 0 and 2 (0.5 each, lower index
    # first), then the next level: 4 (child of 3) before 8 (child of 0).
    # Singleton 7 also has 0.9: node 1's component comes first (lower index).
    u = [0.5, 0.9, 0.5, 0.6, 0.4, 0.8, 0.7, 0.9, 0.3]
    edges = [
        (1, 0, 1.0),
        (2, 1, 1.0),
        (1, 3, 1.0),
        (4, 3, 1.0),
        (0, 8, 1.0),
        (6, 5, 1.0),
    ]
    solution = solve_forest(u, edges)
    assert solution.components == [[1, 3, 0, 2, 4, 8], [7], [5, 6]]
    assert solution.nodes == [1, 3, 0, 2, 4, 8, 7, 5, 6]
    assert [(a, b) for a, b, _, _ in solution.edges] == [
        (0, 1),
        (0, 8),
        (1, 2),
        (1, 3),
        (3, 4),
        (5, 6),
    ]


@pytest.mark.parametrize("seed", range(20))
def test_components_are_the_forest_components(seed: int) -> None:
    rng = random.Random(900 + seed)
    u, edges = random_instance(rng, 12, 0.3)
    solution = solve_forest(u, edges)
    assert solution.nodes == [v for comp in solution.components for v in comp]
    assert len(set(solution.nodes)) == len(solution.nodes)
    pairs = [(a, b) for a, b, _, _ in solution.edges]
    assert len(solution.components) == components(solution.nodes, pairs)
    bests = []
    for comp in solution.components:
        assert comp[0] == min(comp, key=rank_key(u))
        bests.append((-u[comp[0]], comp[0]))
        inside = [(a, b) for a, b in pairs if a in comp]
        assert components(comp, inside) == 1
    assert bests == sorted(bests)
