import json
import os
from pathlib import Path

NOTEBOOK = (
    Path(__file__).resolve().parent.parent / "notebooks" / "analytic_memory.ipynb"
)


def test_notebook_runs_top_to_bottom(tmp_path, capsys):
    cells = json.loads(NOTEBOOK.read_text())["cells"]
    code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    cwd = os.getcwd()
    os.chdir(tmp_path)  # the notebook writes its data next to where it runs
    try:
        namespace: dict = {}
        import sys

        sys.path.insert(0, str(NOTEBOOK.parent.parent))
        for src in code:
            exec(compile(src, str(NOTEBOOK), "exec"), namespace)  # noqa: S102
    finally:
        os.chdir(cwd)
    out = capsys.readouterr().out
    assert "Unknown table 'slep_log'" in out and "Did you mean" in out
    assert "ground truth" in out
    assert "located" in out  # the retrieval cells ran
