"""Exact-value rate on the everyday generator, with direct operator calls.

For each seed, an everyday history (tools/datasets/everyday_history.py: every phrasing
family, mixed units, undated sessions) is ingested offline with the rule
extractor, and each of its checks is answered with the Compute or Rank call a
correct planner makes (tools/datasets/everyday_checks.py). A check counts as exact when
it reproduces the generated value within its stated relative tolerance (1e-9).
This measures extraction, typing, units and row membership, not the planner.

    python tools/benchmarks/bench_exact.py --seeds 1000-1019
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from langgraph_adamm import Memory  # noqa: E402
from langgraph_adamm.history import history_from_dict  # noqa: E402
from tools.datasets.everyday_checks import answer, matches  # noqa: E402
from tools.datasets.everyday_history import generate_everyday  # noqa: E402


def seeds_arg(text: str) -> list[int]:
    """``1000-1019`` or ``1,2,3``."""
    out: list[int] = []
    for part in text.split(","):
        if "-" in part:
            lo, hi = part.split("-")
            out.extend(range(int(lo), int(hi) + 1))
        else:
            out.append(int(part))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=seeds_arg, default=seeds_arg("1000-1019"))
    parser.add_argument("--days", type=int, default=60)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    total = exact = 0
    by_op: Counter[str] = Counter()
    by_op_exact: Counter[str] = Counter()
    misses: list[str] = []
    rounds = 0
    for seed in args.seeds:
        data = generate_everyday(days=args.days, seed=seed)
        with Memory(":memory:", user_id=data.history["user_id"], retrieval=False) as m:
            report = m.ingest(history_from_dict(data.history))
            rounds += report.rounds_processed
            for check in data.checks:
                try:
                    got = answer(m, check)
                except Exception as exc:  # noqa: BLE001 - counted as a miss
                    got = f"error: {exc}"
                ok = matches(got, check)
                total += 1
                exact += ok
                by_op[check["operator"]] += 1
                by_op_exact[check["operator"]] += ok
                if not ok:
                    misses.append(
                        f"seed {seed} {check['check_id']} {check['description']}: "
                        f"got {got!r}, want {check['value']!r}"
                    )
    summary = {
        "seeds": f"{args.seeds[0]}-{args.seeds[-1]} ({len(args.seeds)})",
        "rounds": rounds,
        "checks": total,
        "exact": exact,
        "rate": exact / total if total else 0.0,
        "by_operator": {
            op: f"{by_op_exact[op]}/{n}" for op, n in sorted(by_op.items())
        },
        "misses": misses,
    }
    if args.json:
        print(json.dumps(summary, indent=1))
        return
    print(
        f"seeds {summary['seeds']}: {rounds} rounds, {exact}/{total} checks exact "
        f"({100 * summary['rate']:.1f}%)"
    )
    print(
        "by operator: "
        + ", ".join(f"{k} {v}" for k, v in summary["by_operator"].items())
    )
    for line in misses[:20]:
        print("  miss:", line)


if __name__ == "__main__":
    main()
