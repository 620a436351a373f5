"""Every Python block of README.md runs, in order, and prints what the README shows.

The blocks run in one namespace (a later block may use names an earlier one
defined) in a temporary working directory. Markers are HTML comments on the line
before a fence:

- ``<!-- readme-test: skip (REASON) -->`` before a python block: not run (it needs
  a model or the network); it must still compile, and it is reported as skipped
  with its reason.
- ``<!-- readme-test: output -->`` before a text block: what the python block
  above it prints, compared exactly (``...`` matches anything, as in doctest).
"""

from __future__ import annotations

import contextlib
import doctest
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"

FENCE = re.compile(r"^```(\w*)\s*$")
MARKER = re.compile(
    r"^<!--\s*readme-test:\s*(?P<kind>skip|output)\b(?P<rest>.*)-->\s*$"
)


@dataclass
class Block:
    line: int
    """README line of the first line of code (1-based)."""
    source: str
    skip: str | None = None
    outputs: list[tuple[int, str]] = field(default_factory=list)
    """(README line, expected text) of the output blocks that follow it."""


def readme_blocks(text: str) -> list[Block]:
    """The python blocks of a markdown text, in order, with their markers."""
    blocks: list[Block] = []
    lines = text.splitlines()
    marker: tuple[str, str, int] | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        found = MARKER.match(line.strip())
        if found:
            if marker is not None:
                raise ValueError(f"README.md:{marker[2]}: marker not before a fence")
            marker = (found["kind"], found["rest"].strip(), i + 1)
            i += 1
            continue
        fence = FENCE.match(line)
        if not fence:
            if marker is not None and line.strip():
                raise ValueError(f"README.md:{marker[2]}: marker not before a fence")
            i += 1
            continue
        end = i + 1
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        if end == len(lines):
            raise ValueError(f"README.md:{i + 1}: unclosed code fence")
        body = "\n".join(lines[i + 1 : end]) + "\n"
        lang = fence.group(1)
        if marker is not None:
            kind, rest, at = marker
            if kind == "skip":
                reason = rest.strip("() ")
                if lang != "python" or not reason:
                    raise ValueError(
                        f"README.md:{at}: a skip marker goes before a python "
                        "block and gives its reason: skip (REASON)"
                    )
            elif not blocks or lang != "text":
                raise ValueError(
                    f"README.md:{at}: an output marker goes before a text block "
                    "that follows a python block"
                )
        if lang == "python":
            skip = marker[1].strip("() ") if marker else None
            blocks.append(Block(i + 2, body, skip))
        elif marker is not None and marker[0] == "output":
            blocks[-1].outputs.append((i + 2, body))
        marker = None
        i = end + 1
    if marker is not None:
        raise ValueError(f"README.md:{marker[2]}: marker not before a fence")
    return blocks


def _output_matches(want: str, got: str) -> bool:
    checker = doctest.OutputChecker()
    return checker.check_output(want, got, doctest.ELLIPSIS)


BLOCKS = readme_blocks(README.read_text(encoding="utf-8"))
SKIPPED = [b for b in BLOCKS if b.skip]


def test_readme_has_blocks_to_run() -> None:
    run = [b for b in BLOCKS if not b.skip]
    assert run, "no runnable python block found in README.md"
    assert any(b.outputs for b in run), "no README output is checked"


def test_markers_are_parsed() -> None:
    text = (
        "<!-- readme-test: skip (needs a key) -->\n```python\nx = 1\n```\n\n"
        "```python\nprint(2)\n```\n<!-- readme-test: output -->\n```text\n2\n```\n"
        "```bash\nls\n```\n"
    )
    a, b = readme_blocks(text)
    assert (a.line, a.source, a.skip, a.outputs) == (3, "x = 1\n", "needs a key", [])
    assert (b.line, b.skip, b.outputs) == (7, None, [(11, "2\n")])
    with pytest.raises(ValueError, match="marker not before a fence"):
        readme_blocks("<!-- readme-test: skip (x) -->\ntext\n```python\n```\n")
    with pytest.raises(ValueError, match="gives its reason"):
        readme_blocks("<!-- readme-test: skip -->\n```python\nx\n```\n")
    assert _output_matches("1.27... h\n", "1.2714 h\n")
    assert not _output_matches("28\n", "29\n")


@pytest.mark.slow
def test_readme_python_blocks_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from langgraph_adamm.retrieval.encoders import retrieval_available

    if not retrieval_available():
        pytest.skip("the README runs with retrieval memory: install [retrieval]")
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": "__readme__"}
    ran = 0
    for block in BLOCKS:
        if block.skip:
            continue
        # pad so that tracebacks give README.md line numbers
        code = compile("\n" * (block.line - 1) + block.source, str(README), "exec")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(code, namespace)  # the README's own code
        ran += 1
        for line, want in block.outputs:
            got = out.getvalue()
            assert _output_matches(want, got), (
                f"README.md:{line}: the block at line {block.line} printed\n{got}\n"
                f"but the README shows\n{want}"
            )
    assert ran == len(BLOCKS) - len(SKIPPED) > 0


@pytest.mark.parametrize("block", SKIPPED, ids=[f"README.md:{b.line}" for b in SKIPPED])
def test_readme_skipped_blocks(block: Block) -> None:
    compile("\n" * (block.line - 1) + block.source, str(README), "exec")
    pytest.skip(f"README.md:{block.line}: {block.skip}")
