"""GraphMemix evidence-forest solver: pick evidence memories as a forest.

GraphMemix selects the evidence for a question as a small set ``S`` of candidate
memories together with a forest ``F`` of reliable relations among them. Each
candidate ``i`` has a utility ``u_i`` (candidate index = its rank for ties) and
each candidate relation ``e = (i, j)`` a reliability ``0 < r_e <= 1``, whose cost
is ``c_e = -ln r_e``. The objective of a node set is

    J(S) = sum_{i in S} u_i - lam * sum_{e in F} c_e - kappa * m(S, F)

where ``m`` is the number of connected components of the forest (isolated nodes
count as components). Since ``m = |S| - |F|`` for a forest,

    J(S) = sum_{i in S} u_i - kappa * |S| + sum_{e in F} g_e,
    g_e = kappa - lam * c_e,

so an edge pays for itself only when its *gain* ``g_e`` is positive, and the
best forest on ``S`` is the maximum-weight forest of the subgraph induced by
``S`` on the positive-gain edges. Kruskal finds it (gains descending; equal
gains in the order of ``(min(i, j), max(i, j))``, which makes the forest unique).
Duplicate relations of one pair keep the most reliable one (the best gain).

The solver has two stages:

1. **Proposal** (component cost ``kappa_prop``, default 0.2). The cardinality is
   fixed at ``k' = min(k, n)``. Starting from the ``k'`` candidates of highest
   utility (ties: lower index first), best-improvement 1-swap local search
   evaluates every swap (``x`` selected out, ``y`` unselected in), each with its
   exact forest, and applies the best strict improvement (more than 1e-12;
   swaps within 1e-12 of the best count as equal and the first in the order of
   ``(x, y)`` wins) until no swap improves: the proposal is a true 1-swap local
   optimum.
2. **Exact refinement** (component cost ``kappa``, default 0.12). Every
   non-empty subset of the proposal (``2**k' - 1`` of them) is scored with its
   own maximum forest (gains recomputed with ``kappa``) and the best is kept.
   Objectives within 1e-12 of the best tie; ties go to fewer nodes, then to
   earlier ranks (the sorted tuples of the members' ranks in the proposal,
   compared lexicographically; a rank is the position in the proposal sorted by
   ``(-u, index)``).

Both stages are exact; they are fast because of the cycle property of maximum
forests (with the strict edge order above): the forest of ``S + {y}`` uses only
edges of the forest of ``S`` and edges incident to ``y``. Stage 1 therefore
solves the forest of ``S - {x}`` once per ``x`` and then prices each ``y`` with a
tiny Kruskal, or with no work at all when ``y`` has no positive edge into
``S - {x}`` (or its edges go to distinct trees). Stage 2 builds each subset from
the subset without its last-ranked member, whose forest is already known.

The selected nodes come back in reading order: components by their best
member's utility (descending; ties lower index first), and inside a component a
breadth-first walk over the forest from that best member, visiting neighbours in
the order of ``(-u, index)``.
"""

from __future__ import annotations

import math
import operator
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

TIE_TOLERANCE = 1e-12
"""Objective differences up to this size are ties (and not improvements)."""

MAX_PROPOSAL = 20
"""Largest proposal size ``min(k, n)``: stage 2 scores ``2**k'`` subsets."""

# An edge inside the solver: (-gain, a, b) with a < b. Sorting these tuples gives
# Kruskal's order (gain descending, then (a, b)), and -(-gain) is exact.
_Edge = tuple[float, int, int]


@dataclass
class ForestSolution:
    """The evidence forest chosen for one question.

    Attributes:
        nodes: Selected candidate indices in reading order (see the module
            docstring).
        edges: The forest's edges as ``(i, j, gain, reliability)`` with ``i < j``
            and the gain computed with ``kappa``, in Kruskal order (gain
            descending, then ``(i, j)``).
        objective: ``J`` of the selection with ``kappa`` (stage 2).
        proposal: The stage-1 node indices, sorted by rank ``(-u, index)``.
        proposal_objective: ``J`` of the proposal with ``kappa_prop``.
        swaps: How many swaps stage 1 accepted.
        components: The forest's connected components, each in reading order;
            ``nodes`` is their concatenation.
    """

    nodes: list[int] = field(default_factory=list)
    edges: list[tuple[int, int, float, float]] = field(default_factory=list)
    objective: float = 0.0
    proposal: list[int] = field(default_factory=list)
    proposal_objective: float = 0.0
    swaps: int = 0
    components: list[list[int]] = field(default_factory=list)


# --------------------------------------------------------------------- inputs


def _check_utilities(utilities: Sequence[float]) -> list[float]:
    out: list[float] = []
    for i, value in enumerate(utilities):
        try:
            x = float(value)
        except (TypeError, ValueError):
            raise ValueError(f"utility {i} is not a number: {value!r}") from None
        if not math.isfinite(x):
            raise ValueError(f"utility {i} is not finite: {value!r}")
        out.append(x)
    return out


def _check_edges(
    edges: Iterable[tuple[int, int, float]], n: int
) -> dict[tuple[int, int], float]:
    """Validated relations as ``{(a, b): best reliability}`` with ``a < b``."""
    best: dict[tuple[int, int], float] = {}
    for edge in edges:
        try:
            i_raw, j_raw, r_raw = edge
        except (TypeError, ValueError):
            raise ValueError(
                f"edge {edge!r} is not an (i, j, reliability) triple"
            ) from None
        try:
            i = operator.index(i_raw)
            j = operator.index(j_raw)
        except TypeError:
            raise ValueError(f"edge {edge!r}: endpoints must be integers") from None
        if not (0 <= i < n and 0 <= j < n):
            raise ValueError(
                f"edge {edge!r}: endpoint out of range (there are {n} candidates)"
            )
        if i == j:
            raise ValueError(f"edge {edge!r}: an edge needs two distinct endpoints")
        try:
            r = float(r_raw)
        except (TypeError, ValueError):
            raise ValueError(f"edge {edge!r}: reliability is not a number") from None
        if not 0.0 < r <= 1.0:  # also rejects NaN
            raise ValueError(f"edge {edge!r}: reliability must be in (0, 1]")
        key = (i, j) if i < j else (j, i)
        if r > best.get(key, 0.0):
            best[key] = r
    return best


def _check_parameters(k: int, kappa_prop: float, kappa: float, lam: float) -> int:
    try:
        k_int = operator.index(k)
    except TypeError:
        raise ValueError(f"k must be an integer, got {k!r}") from None
    if k_int < 1:
        raise ValueError(f"k must be at least 1, got {k_int}")
    for name, value in (("kappa_prop", kappa_prop), ("kappa", kappa), ("lam", lam)):
        if not math.isfinite(value):
            raise ValueError(f"{name} must be finite, got {value!r}")
    if lam < 0:
        raise ValueError(f"lam must be non-negative, got {lam!r}")
    return k_int


def _gain_edges(
    reliability: dict[tuple[int, int], float], kappa: float, lam: float
) -> list[_Edge]:
    """Positive-gain edges in Kruskal order, as ``(-gain, a, b)``."""
    out: list[_Edge] = []
    for (a, b), r in reliability.items():
        gain = kappa - lam * -math.log(r)
        if gain > 0.0:
            out.append((-gain, a, b))
    out.sort()
    return out


# -------------------------------------------------------------------- forests


def _kruskal(ordered: Iterable[_Edge]) -> tuple[float, list[_Edge], dict[int, int]]:
    """Kruskal over edges already in order; returns (weight, forest, parents)."""
    parent: dict[int, int] = {}
    forest: list[_Edge] = []
    weight = 0.0
    for edge in ordered:
        _, a, b = edge
        ra = a
        while ra in parent:
            ra = parent[ra]
        rb = b
        while rb in parent:
            rb = parent[rb]
        if ra != rb:
            parent[ra] = rb
            forest.append(edge)
            weight -= edge[0]
    return weight, forest, parent


def _root(parent: dict[int, int], v: int) -> int:
    while v in parent:
        v = parent[v]
    return v


def max_weight_forest(
    nodes: Iterable[int], gain_edges: Iterable[tuple[int, int, float]]
) -> tuple[float, list[tuple[int, int, float]]]:
    """Maximum-weight forest of the subgraph induced by ``nodes`` (Kruskal).

    Only edges with both endpoints in ``nodes`` and a positive gain are used.
    Equal gains are taken in the order of ``(min(i, j), max(i, j))``, so the
    forest is unique.

    Args:
        nodes: The node set.
        gain_edges: ``(i, j, gain)`` triples.

    Returns:
        The forest's weight (sum of gains) and its edges as ``(i, j, gain)`` with
        ``i < j``, in the order Kruskal accepted them.
    """
    members = set(nodes)
    ordered: list[_Edge] = []
    for i, j, gain in gain_edges:
        if gain > 0.0 and i in members and j in members and i != j:
            ordered.append((-gain, min(i, j), max(i, j)))
    ordered.sort()
    weight, forest, _ = _kruskal(ordered)
    return weight, [(a, b, -neg) for neg, a, b in forest]


def _forest_on(
    members: set[int], ordered: Sequence[_Edge]
) -> tuple[float, list[_Edge]]:
    weight, forest, _ = _kruskal(
        e for e in ordered if e[1] in members and e[2] in members
    )
    return weight, forest


def objective(
    nodes: Iterable[int],
    utilities: Sequence[float],
    edges: Sequence[tuple[int, int, float]],
    kappa: float,
    lam: float,
) -> tuple[float, list[tuple[int, int, float, float]]]:
    """``J(S)`` of a node set and its best forest.

    Args:
        nodes: The node set ``S`` (candidate indices).
        utilities: Utilities of all candidates.
        edges: Candidate relations ``(i, j, reliability)``.
        kappa: Component cost.
        lam: Weight of the edge costs ``-ln r``.

    Returns:
        ``J(S)`` and the forest's edges as ``(i, j, gain, reliability)``, ``i < j``,
        in Kruskal order.

    Raises:
        ValueError: On invalid utilities, relations or nodes.
    """
    u = _check_utilities(utilities)
    reliability = _check_edges(edges, len(u))
    members = sorted(set(nodes))
    for v in members:
        if not 0 <= v < len(u):
            raise ValueError(f"node {v!r} out of range (there are {len(u)} candidates)")
    return _objective(members, u, reliability, kappa, lam)


def _objective(
    members: Sequence[int],
    u: Sequence[float],
    reliability: dict[tuple[int, int], float],
    kappa: float,
    lam: float,
) -> tuple[float, list[tuple[int, int, float, float]]]:
    weight, forest = _forest_on(set(members), _gain_edges(reliability, kappa, lam))
    value = sum(u[v] for v in sorted(members)) - kappa * len(members) + weight
    return value, [(a, b, -neg, reliability[(a, b)]) for neg, a, b in forest]


# -------------------------------------------------------------------- stage 1


def _local_search(
    u: Sequence[float], ordered: Sequence[_Edge], start: Sequence[int]
) -> tuple[list[int], int]:
    """Best-improvement 1-swap local search at fixed cardinality."""
    n = len(u)
    neighbour_mask = [0] * n
    incident: list[list[tuple[int, _Edge]]] = [[] for _ in range(n)]
    for edge in ordered:
        _, a, b = edge
        neighbour_mask[a] |= 1 << b
        neighbour_mask[b] |= 1 << a
        incident[a].append((b, edge))
        incident[b].append((a, edge))

    selected = set(start)
    swaps = 0
    while True:
        smask = 0
        for v in selected:
            smask |= 1 << v
        inside = [e for e in ordered if e[1] in selected and e[2] in selected]
        w_s = _kruskal(inside)[0]
        outside = [y for y in range(n) if not (smask >> y) & 1]
        improving: list[tuple[float, int, int]] = []
        for x in sorted(selected):
            sx = smask & ~(1 << x)
            w_x, f_x, parent = _kruskal(e for e in inside if e[1] != x and e[2] != x)
            base = w_x - w_s - u[x]
            for y in outside:
                if not neighbour_mask[y] & sx:
                    d = base + u[y]
                else:
                    d = base + u[y] + _added_weight(incident[y], sx, w_x, f_x, parent)
                if d > TIE_TOLERANCE:
                    improving.append((d, x, y))
        if not improving:
            return sorted(selected), swaps
        threshold = max(t[0] for t in improving) - TIE_TOLERANCE
        _, x, y = next(t for t in improving if t[0] >= threshold)
        selected.remove(x)
        selected.add(y)
        swaps += 1


def _added_weight(
    incident: list[tuple[int, _Edge]],
    mask: int,
    weight: float,
    forest: list[_Edge],
    parent: dict[int, int],
) -> float:
    """Weight the forest of ``mask`` gains when a new node with these edges joins.

    The new forest is Kruskal over ``forest`` plus the new node's edges into
    ``mask`` (cycle property). When those edges reach distinct trees there is no
    cycle at all and every one of them is kept.
    """
    new = [e for z, e in incident if (mask >> z) & 1]
    if len(new) == 1:
        return -new[0][0]
    roots = set()
    for z, _ in incident:
        if (mask >> z) & 1:
            roots.add(_root(parent, z))
    if len(roots) == len(new):
        return -sum(e[0] for e in new)
    return _kruskal(sorted(forest + new))[0] - weight


# -------------------------------------------------------------------- stage 2


def _refine(
    u: Sequence[float], ordered: Sequence[_Edge], proposal: Sequence[int], kappa: float
) -> list[int]:
    """Best non-empty subset of ``proposal`` (sorted by rank), with tie rules."""
    size = len(proposal)
    position = {v: p for p, v in enumerate(proposal)}
    lower_mask = [0] * size
    lower: list[list[tuple[int, _Edge]]] = [[] for _ in range(size)]
    for edge in ordered:
        pa = position.get(edge[1])
        pb = position.get(edge[2])
        if pa is None or pb is None:
            continue
        if pa < pb:
            pa, pb = pb, pa
        lower_mask[pa] |= 1 << pb
        lower[pa].append((pb, edge))
    single = [dict(edges) for edges in lower]
    step = [u[v] - kappa for v in proposal]

    total = 1 << size
    value = [0.0] * total
    weight = [0.0] * total
    forest: list[tuple[_Edge, ...]] = [()] * total
    for mask in range(1, total):
        h = mask.bit_length() - 1
        prev = mask ^ (1 << h)
        m = lower_mask[h] & prev
        if not m:
            forest[mask] = forest[prev]
            weight[mask] = weight[prev]
            value[mask] = value[prev] + step[h]
        elif not m & (m - 1):
            edge = single[h][m.bit_length() - 1]
            forest[mask] = (*forest[prev], edge)
            weight[mask] = weight[prev] - edge[0]
            value[mask] = value[prev] + step[h] - edge[0]
        else:
            new = [e for q, e in lower[h] if (prev >> q) & 1]
            w, f, _ = _kruskal(sorted(forest[prev] + tuple(new)))
            forest[mask] = tuple(f)
            weight[mask] = w
            value[mask] = value[prev] + step[h] + (w - weight[prev])

    value[0] = -math.inf  # subsets are non-empty
    threshold = max(value) - TIE_TOLERANCE
    tied = [m for m in range(1, total) if value[m] >= threshold]
    best = min(
        tied,
        key=lambda m: (
            m.bit_count(),
            [p for p in range(size) if (m >> p) & 1],
        ),
    )
    return [proposal[p] for p in range(size) if (best >> p) & 1]


# --------------------------------------------------------------------- output


def _reading_order(
    members: Sequence[int],
    forest: Sequence[tuple[int, int, float, float]],
    u: Sequence[float],
) -> list[list[int]]:
    def key(v: int) -> tuple[float, int]:
        return (-u[v], v)

    adjacency: dict[int, list[int]] = {v: [] for v in members}
    for a, b, _, _ in forest:
        adjacency[a].append(b)
        adjacency[b].append(a)
    seen: set[int] = set()
    components: list[list[int]] = []
    for start in sorted(members, key=key):
        if start in seen:
            continue
        seen.add(start)
        component = [start]
        queue = deque([start])
        while queue:
            v = queue.popleft()
            for w in sorted(adjacency[v], key=key):
                if w not in seen:
                    seen.add(w)
                    component.append(w)
                    queue.append(w)
        components.append(component)
    return components


def solve_forest(
    utilities: Sequence[float],
    edges: Sequence[tuple[int, int, float]],
    *,
    k: int = 10,
    kappa_prop: float = 0.2,
    kappa: float = 0.12,
    lam: float = 0.1,
) -> ForestSolution:
    """Select evidence memories as a forest (GraphMemix, two stages).

    Args:
        utilities: Utility of each candidate, in candidate order.
        edges: Candidate relations ``(i, j, reliability)``, ``0 < r <= 1``.
        k: Proposal size ``K`` (the proposal has ``min(k, n)`` nodes).
        kappa_prop: Component cost of stage 1.
        kappa: Component cost of stage 2 (and of ``objective``).
        lam: Weight of the edge costs ``-ln r``.

    Returns:
        The selection, its forest and the proposal; see ``ForestSolution``.
        Without candidates the solution is empty with objective 0.

    Raises:
        ValueError: On a non-finite utility, a bad relation (out-of-range or
            equal endpoints, reliability outside ``(0, 1]``; the message names
            it), or bad parameters (``k < 1``, ``min(k, n) > MAX_PROPOSAL``,
            non-finite costs, ``lam < 0``).
    """
    u = _check_utilities(utilities)
    reliability = _check_edges(edges, len(u))
    k = _check_parameters(k, kappa_prop, kappa, lam)
    n = len(u)
    if n == 0:
        return ForestSolution()
    size = min(k, n)
    if size > MAX_PROPOSAL:
        raise ValueError(
            f"proposal size min(k, n) = {size} exceeds {MAX_PROPOSAL} "
            f"(stage 2 scores 2**{size} subsets)"
        )

    def rank_key(v: int) -> tuple[float, int]:
        return (-u[v], v)

    start = sorted(range(n), key=rank_key)[:size]
    chosen, swaps = _local_search(u, _gain_edges(reliability, kappa_prop, lam), start)
    proposal = sorted(chosen, key=rank_key)
    proposal_objective, _ = _objective(proposal, u, reliability, kappa_prop, lam)

    members = _refine(u, _gain_edges(reliability, kappa, lam), proposal, kappa)
    value, forest = _objective(members, u, reliability, kappa, lam)
    components = _reading_order(members, forest, u)
    return ForestSolution(
        nodes=[v for component in components for v in component],
        edges=forest,
        objective=value,
        proposal=proposal,
        proposal_objective=proposal_objective,
        swaps=swaps,
        components=components,
    )
