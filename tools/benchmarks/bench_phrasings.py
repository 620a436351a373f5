"""The rule extractor's exact rate on the phrasing corpus, per family.

    python tools/benchmarks/bench_phrasings.py [--family F ...] [--show] [--corpus DIR]

An entry counts when every pair it states is read with its value in the stated
unit's dimension and nothing else is read (the scoring of
``tests/test_phrasings.py``). The corpus and the scoring always come from this
checkout; the extractor comes from wherever ``langgraph_adamm`` imports from, so
an older revision is measured with ``PYTHONPATH=/path/to/old/checkout``.
``--corpus`` scores another folder of families in the same format (the
held-out entries in ``tools/datasets/heldout/phrasings/``). Entries with a ``heading``
are also scored for the heading the extractor reads (where the extractor has
``record_heading``).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _load_scoring() -> types.ModuleType:
    """``tests/test_phrasings.py`` of this checkout, whatever sys.path says."""
    package = types.ModuleType("tests")
    package.__path__ = [str(ROOT / "tests")]
    sys.modules["tests"] = package
    for name in ("phrasings", "test_phrasings"):
        spec = importlib.util.spec_from_file_location(
            f"tests.{name}", ROOT / "tests" / f"{name}.py"
        )
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[f"tests.{name}"] = module
        spec.loader.exec_module(module)
    return sys.modules["tests.test_phrasings"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", nargs="*", help="only these families")
    parser.add_argument("--show", action="store_true", help="print each miss")
    parser.add_argument("--corpus", type=Path, help="another folder of families")
    args = parser.parse_args(argv)
    scoring = _load_scoring()
    if args.corpus is not None:
        sys.modules["tests.phrasings"].CORPUS_DIR = args.corpus  # type: ignore[attr-defined]
    import langgraph_adamm

    print(f"extractor: {Path(langgraph_adamm.__file__).parent}")
    total = exact = 0
    headings = right = 0
    print("| family | exact | entries |")
    print("|---|---:|---:|")
    for family in args.family or scoring.families():
        entries = scoring.load_corpus(family)
        good = 0
        for entry in entries:
            misses, noise = scoring.score(entry)
            if not misses and not noise:
                good += 1
            if "heading" in entry:
                got = read_heading(entry)
                if got is not False:
                    headings += 1
                    right += got == entry["heading"]
                    if args.show and got != entry["heading"]:
                        print(
                            f"  {entry['id']}: heading {got!r},"
                            f" want {entry['heading']!r}"
                        )
            elif args.show:
                print(
                    f"  {entry['id']}: {entry['text'][:70]!r}"
                    f" miss={misses} noise={noise}"
                )
        total += len(entries)
        exact += good
        print(f"| {family} | {good} | {len(entries)} |")
    print(f"| **all** | **{exact}/{total} = {100 * exact / max(total, 1):.1f}%** | |")
    if headings:
        print(f"headings read as written: {right}/{headings}")
    return 0


def read_heading(entry: dict) -> str | None | bool:
    """The heading the extractor reads from an entry; False without the function."""
    try:
        from langgraph_adamm.analytic.extraction.rule_extractor import (
            field_starts,
            record_heading,
        )
    except ImportError:
        return False
    from langgraph_adamm.analytic.extraction import RuleExtractor
    from langgraph_adamm.history import ImageRef, Round

    source, text = entry.get("source", "user"), entry["text"]
    if source in ("user", "assistant"):
        rnd = Round("r1", "s1", **{source: text})
        texts = {source: text}
    else:
        rnd = Round("r1", "s1", images=(ImageRef("r1:img", **{source: text}),))
        texts = {f"r1:img/{source}": text}
    return record_heading(field_starts(RuleExtractor().extract(rnd)), texts)


if __name__ == "__main__":
    raise SystemExit(main())
