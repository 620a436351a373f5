"""Structural rules of the package, checked on its source (no import of it).

- Engine differences live in ``langgraph_adamm/storage/``: elsewhere no branch on
  an engine's name (``x.engine == ...``, ``!=``, ``engine in (...)``), no
  ``is_postgres_url(...)`` call except where ``ENGINE_TEST_ALLOWED`` says why,
  and no import of an engine's own modules (``storage.duckdb_engine``,
  ``storage.postgres_engine``: what the package ``storage`` exports is the
  interface).
- A module over ``MAX_LINES`` lines says why it stays one module: its docstring
  has a paragraph that starts with ``ONE_MODULE_MARKER`` ("One module because").
- No ``*Mixin`` classes in ``analytic/`` or ``retrieval/``: services are composed
  over explicit state.

Each failure names the offending ``file:line``.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "langgraph_adamm"
STORAGE = PACKAGE / "storage"
MAX_LINES = 600
ONE_MODULE_MARKER = "One module because"
ENGINE_INTERNAL = ("duckdb_engine", "postgres_engine")
"""The packages under ``storage/`` that belong to one engine."""
ENGINE_TEST_ALLOWED = {
    # `--db` takes a file or a connection string: the command line asks which,
    # to resolve a file against the working directory and say "no such file".
    ("langgraph_adamm/cli.py", "is_postgres_url"),
}
"""(module, what) pairs allowed to test an engine outside storage/, and why."""


def _modules(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def _name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _package_of(path: Path) -> list[str]:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return parts if parts[-1] == "__init__" else parts[:-1]


def _imported_modules(path: Path, tree: ast.AST) -> list[tuple[int, list[str]]]:
    """(line, absolute module names) of each import; names imported included."""
    found: list[tuple[int, list[str]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.append((node.lineno, [alias.name for alias in node.names]))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = _package_of(path)
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            names = [f"{module}.{alias.name}" for alias in node.names]
            found.append((node.lineno, [module, *names]))
    return found


def _engine_internal(module: str) -> bool:
    prefix = "langgraph_adamm.storage."
    if not module.startswith(prefix):
        return False
    return module[len(prefix) :].split(".")[0].startswith(ENGINE_INTERNAL)


def _is_engine(node: ast.expr) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "engine") or (
        isinstance(node, ast.Name) and node.id == "engine"
    )


def engine_tests(name: str, source: str, path: Path | None = None) -> list[str]:
    """Each engine-name branch, engine test or engine-internal import in a module."""
    tree = ast.parse(source)
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            ops = (ast.Eq, ast.NotEq, ast.In, ast.NotIn)
            if any(_is_engine(s) for s in sides) and any(
                isinstance(op, ops) for op in node.ops
            ):
                problems.append(
                    f"{name}:{node.lineno}: branches on an engine's name "
                    f"({ast.unparse(node)}); give the engines a method or attribute "
                    "in storage/ instead"
                )
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else None
            called = func.id if isinstance(func, ast.Name) else called
            if called == "is_postgres_url" and (name, called) not in (
                ENGINE_TEST_ALLOWED
            ):
                problems.append(
                    f"{name}:{node.lineno}: tests the engine ({ast.unparse(node)}) "
                    "outside storage/"
                )
    if path is not None:
        for line, modules in _imported_modules(path, tree):
            internal = [m for m in modules if _engine_internal(m)]
            if internal:
                problems.append(
                    f"{name}:{line}: imports {internal[0]}, an engine's own module, "
                    "outside storage/"
                )
    return problems


def one_module_reason(source: str) -> bool:
    """Whether the module docstring has a paragraph giving ONE_MODULE_MARKER."""
    doc = ast.get_docstring(ast.parse(source)) or ""
    return any(
        paragraph.strip().startswith(ONE_MODULE_MARKER)
        for paragraph in doc.split("\n\n")
    )


def mixin_classes(name: str, source: str) -> list[str]:
    return [
        f"{name}:{node.lineno}: class {node.name}; compose the service over "
        "explicit state instead of a mixin"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ClassDef) and node.name.endswith("Mixin")
    ]


def test_no_engine_tests_outside_storage() -> None:
    problems = []
    for path in _modules(PACKAGE):
        if STORAGE in path.parents:
            continue
        problems += engine_tests(_name(path), path.read_text("utf-8"), path)
    assert not problems, "\n".join(problems)


def test_long_modules_say_why_they_stay_one() -> None:
    problems = []
    for path in _modules(PACKAGE):
        source = path.read_text("utf-8")
        lines = len(source.splitlines())
        if lines > MAX_LINES and not one_module_reason(source):
            problems.append(
                f"{_name(path)}:1: {lines} lines (over {MAX_LINES}), and its "
                f"docstring gives no paragraph starting '{ONE_MODULE_MARKER}'"
            )
    assert not problems, "\n".join(problems)


def test_no_mixins_in_analytic_or_retrieval() -> None:
    problems = []
    for folder in ("analytic", "retrieval"):
        for path in _modules(PACKAGE / folder):
            problems += mixin_classes(_name(path), path.read_text("utf-8"))
    assert not problems, "\n".join(problems)


def test_the_checks_find_what_they_look_for() -> None:
    source = (
        "from langgraph_adamm.storage.postgres_engine import pgvector\n"
        "from ..storage.duckdb_engine.compact import compact\n"
        "from langgraph_adamm.storage.dialect import is_postgres_url\n"
        "if db.engine == 'postgres':\n"
        "    pass\n"
        "ok = engine in ('duckdb',)\n"
        "url = is_postgres_url(path)\n"
        "class ForgetMixin:\n"
        "    pass\n"
    )
    where = PACKAGE / "analytic" / "example.py"
    found = engine_tests("x.py", source, where)
    assert [p.split(": ")[0] for p in found] == ["x.py:4", "x.py:6", "x.py:7"] + [
        "x.py:1",
        "x.py:2",
    ]
    assert "langgraph_adamm.storage.postgres_engine" in found[3]
    assert "langgraph_adamm.storage.duckdb_engine.compact" in found[4]
    assert engine_tests("langgraph_adamm/cli.py", "is_postgres_url(db)\n") == []
    assert mixin_classes("x.py", source) == [
        "x.py:8: class ForgetMixin; compose the service over explicit state "
        "instead of a mixin"
    ]
    reason = '"""Tables.\n\nOne module because the steps share one cursor.\n"""\n'
    assert one_module_reason(reason)
    assert not one_module_reason('"""Tables, one module because."""\n')
