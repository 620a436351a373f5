"""Every Python block of README.md runs, in order, and prints what the README shows.

The blocks run in one namespace (a later block may use names an earlier one
defined) in a temporary working directory. Markers are HTML comments on the line
before a fence:

- ``<!-- readme-test: skip (REASON) -->`` before a python block: left out of the
  run in order (it needs a model, a server or the network). Its imports must
  resolve and its calls of the package's functions bind their signatures; a block
  that builds a memory with a model runs on its own, offline (a dummy key, every
  socket connection refused), and must build it with the chat model it names.
- ``<!-- readme-test: output -->`` before a text block: what the python block
  above it prints, compared exactly (``...`` matches anything, as in doctest).
"""

from __future__ import annotations

import ast
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


def _api_problems(block: Block) -> list[str]:
    """What in a block names no real API: imports that do not resolve, calls of
    the package's functions and classes that do not bind their signatures."""
    import importlib
    import inspect

    from langgraph_adamm import Memory

    tree = ast.parse(block.source)
    known: dict[str, object] = {"Memory": Memory}  # earlier blocks import it
    problems: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            module = importlib.import_module(node.module)
            for alias in node.names:
                if not hasattr(module, alias.name):
                    problems.append(
                        f"README.md:{block.line + node.lineno - 1}: "
                        f"{node.module} has no {alias.name}"
                    )
                else:
                    known[alias.asname or alias.name] = getattr(module, alias.name)
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        target = known.get(node.func.id)
        if not str(getattr(target, "__module__", "")).startswith("langgraph_adamm"):
            continue
        if any(isinstance(a, ast.Starred) for a in node.args) or any(
            k.arg is None for k in node.keywords
        ):
            continue
        try:
            inspect.signature(target).bind(  # type: ignore[arg-type]
                *node.args, **{str(k.arg): k.value for k in node.keywords}
            )
        except TypeError as exc:
            problems.append(
                f"README.md:{block.line + node.lineno - 1}: {node.func.id}(): {exc}"
            )
    return problems


@pytest.mark.parametrize("block", SKIPPED, ids=[f"README.md:{b.line}" for b in SKIPPED])
def test_readme_skipped_blocks_name_real_api(block: Block) -> None:
    assert _api_problems(block) == []


def test_api_problems_are_found() -> None:
    bad = Block(
        5,
        "from langgraph_adamm import Memory, NoSuchThing\n"
        'memory = Memory("m.duckdb", user="alice")\n',
    )
    problems = _api_problems(bad)
    assert problems[0] == "README.md:5: langgraph_adamm has no NoSuchThing"
    assert problems[1].startswith("README.md:6: Memory(): ")
    assert len(problems) == 2


BUILDS_WITH_A_MODEL = [
    b for b in SKIPPED if re.search(r"Memory\([^)]*model=", b.source)
]


def test_some_skipped_blocks_build_with_a_model() -> None:
    assert BUILDS_WITH_A_MODEL, "no README block builds a memory with a model"


@pytest.mark.parametrize(
    "block",
    BUILDS_WITH_A_MODEL,
    ids=[f"README.md:{b.line}" for b in BUILDS_WITH_A_MODEL],
)
def test_readme_model_blocks_build_offline(
    block: Block, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A block that names a hosted or local model builds its memory offline.

    Building a memory with a chat model connects nowhere (the model is first
    called by an ingestion or a question), so the block runs with a dummy key and
    every socket connection refused; the memory it leaves holds the ChatOpenAI
    model the block names.
    """
    import socket

    from langchain_openai import ChatOpenAI

    from langgraph_adamm import Memory

    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError(f"README.md:{block.line}: the block tried to connect")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-readme-test")
    monkeypatch.chdir(tmp_path)
    # earlier README blocks import Memory; this one runs on its own
    namespace: dict[str, object] = {"__name__": "__readme__", "Memory": Memory}
    code = compile("\n" * (block.line - 1) + block.source, str(README), "exec")
    exec(code, namespace)  # the README's own code
    memory = namespace.get("memory")
    assert isinstance(memory, Memory), f"README.md:{block.line}: no memory built"
    try:
        chat = memory.chat_model
        assert isinstance(chat, ChatOpenAI), f"README.md:{block.line}: {chat!r}"
        assert chat.model_name and chat.model_name in block.source, (
            f"README.md:{block.line}: the memory's model is {chat.model_name!r}, "
            "not the one the block names"
        )
        llm = memory.queries.llm  # the graphs' default model
        assert llm is not None and llm.model is chat
    finally:
        memory.close()
