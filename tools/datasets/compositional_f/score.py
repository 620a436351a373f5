#!/usr/bin/env python3
"""Score `adamm ask --questions FILE --json` answers against compositional set F.

Usage:
  python3 tools/datasets/compositional_f/score.py ANSWERS.jsonl [ANSWERS.jsonl ...]
          [--questions tools/datasets/compositional_f/questions.jsonl] [--json] [--per-question] [--by-family]

The outcomes and matching rules are those of sets F to L, in
`tools/datasets/compositional_scoring.py`. Standard library only.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from compositional_scoring import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main("F", Path(__file__).resolve().parent))
