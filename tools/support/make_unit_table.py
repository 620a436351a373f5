"""Write ``langgraph_adamm/data/unit_names.json`` from the project's pint registry.

    python tools/support/make_unit_table.py [--out PATH]

``langgraph_adamm.analytic.units`` answers from this table what it would
otherwise build pint's registry for: whether a word of letters can be a unit
name at all, and the dimension of a canonical symbol. The table records what
pint's single-name parser (``parse_unit_name``: every prefix the word starts
with, every plural suffix it ends with, the rest looked up among the unit
names) consults in the installed pint, the dimension pint gives each
canonical symbol, the dimension of each unit name as written, and the
canonical symbol of each name and its plural (so that "month", "in" or
"cups" needs no registry either). Rerun it after upgrading pint or changing
the project's unit definitions; ``tests/test_units.py`` fails until the
committed file matches.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from langgraph_adamm.analytic import units

OUT = Path(units.__file__).resolve().parent.parent / "data" / units.UNIT_TABLE


def unit_table() -> dict[str, Any]:
    """The table's content, from a freshly built registry.

    Fresh, because a registry in use has grown the prefixed names it has parsed
    (``kilometer``), which parsing finds through the prefixes anyway.
    """
    import pint

    reg = units.registry.__wrapped__()
    case_sensitive = bool(reg.case_sensitive)
    # The keys parse_unit_name looks names up in: every unit's name, symbol and
    # aliases as written, or lowered when the registry ignores case.
    names = set(reg._units) if case_sensitive else set(reg._units_casei)
    # get_name answers "dimensionless" before it parses anything.
    names.add("dimensionless")
    symbols = set(units._ALIASES.values())
    symbols |= {line.split(" = ")[0] for line in units._DEFINITIONS}
    symbols.discard("%")  # dimension() answers "[percent]" itself
    return {
        "pint_version": pint.__version__,
        "definitions": list(units._DEFINITIONS),
        "pint_names": dict(units._PINT_NAMES),
        "case_sensitive": case_sensitive,
        "prefixes": sorted(reg._prefixes),
        "suffixes": sorted(reg._suffixes),
        "names": sorted(names),
        "dimensions": {s: units.pint_dimension(s) for s in sorted(symbols)},
        "name_units": {
            w: units.pint_canonical(w) or ""
            for w in sorted({n + x for n in reg._units for x in reg._suffixes})
            if w.isascii() and w.isalpha() and len(w) <= 16
        },
        "name_dimensions": {
            s: units.pint_dimension(s)
            for s in sorted(set(reg._units) - symbols - {"%"})
        },
    }


def render(table: dict[str, Any]) -> str:
    """The file's text: one entry a line, so that a pint upgrade reads as a diff."""
    return json.dumps(table, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    args.out.write_text(render(unit_table()), encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
