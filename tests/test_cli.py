import json

import pytest

from langgraph_adamm.cli import main
from tools.datasets.synthetic_history import generate


def test_ingest_then_tables(database, tmp_path, capsys):
    hist, _ = generate(days=20).write(tmp_path)
    db = database("m")
    assert main(["ingest", str(hist), "--db", db, "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "user: synth" in out and "failures: 0" in out and "discovered" in out
    assert "rounds indexed" in out and "retrieval: 0 rounds" not in out
    assert main(["tables", "--db", db, "--json"]) == 0
    tables = json.loads(capsys.readouterr().out)["synth"]
    assert {t["table"] for t in tables} >= {"sleep_log"}
    assert all(t["rows"] > 0 for t in tables)
    assert main(["tables", "--db", db]) == 0
    assert "sleep_log" in capsys.readouterr().out
    assert main(["ingest", str(hist), "--db", db, "--quiet"]) == 0
    assert "0 new" in capsys.readouterr().out


def test_bad_input_is_reported_and_the_rest_ingested(database, tmp_path, capsys):
    lines = [
        '{"session_id": "S1", "user": "a: 1, b: 2"}',
        "{oops",
        '{"user": "no session"}',
    ]
    p = tmp_path / "h.jsonl"
    p.write_text("\n".join(lines))
    db = database("m")
    assert main(["ingest", str(p), "--db", db, "--quiet", "--no-retrieval"]) == 0
    out = capsys.readouterr().out
    assert "1 new" in out and "input problems: 2" in out and "line 2" in out
    assert "retrieval: 0 rounds indexed" in out
    assert main(["ingest", str(p), "--db", db, "--strict", "--quiet"]) == 2
    assert "line 2" in capsys.readouterr().err


def test_errors_exit_2(tmp_path, capsys):
    assert (
        main(["ingest", str(tmp_path / "none.json"), "--db", str(tmp_path / "m.db")])
        == 2
    )
    assert "no such history file" in capsys.readouterr().err
    assert main(["tables", "--db", str(tmp_path / "absent.duckdb")]) == 2
    hist, _ = generate(days=2).write(tmp_path)
    assert main(["ingest", str(hist), "--db", "/nonexistent/dir/m.db", "--quiet"]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_demo(tmp_path, capsys):
    assert main(["demo", "--db", str(tmp_path / "demo.duckdb")]) == 0
    out = capsys.readouterr().out
    assert "sleep_log" in out and "compute(" in out
    assert "12 of 12 answers match the expected values" in out


def test_ask_json_and_questions_file(database, tmp_path, capsys):
    data = generate(seed=5, days=20)
    hist, questions = data.write(tmp_path)
    db = database("m")
    assert main(["ingest", str(hist), "--db", db, "--quiet", "--no-retrieval"]) == 0
    capsys.readouterr()
    first = data.questions[0]
    assert (
        main(
            [
                "ask",
                first["question"],
                "--db",
                db,
                "--json",
                "--question-time",
                first["question_time"],
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert set(out) >= {
        "question",
        "answer",
        "value",
        "unit",
        "evidence",
        "plan",
        "steps",
    }
    assert out["value"] == pytest.approx(first["gold"]["value"])
    assert {"tool", "arguments", "summary"} <= set(out["steps"][0])
    assert main(["ask", "--questions", str(questions), "--db", db, "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [x["question_id"] for x in lines] == [
        q["question_id"] for q in data.questions
    ]
    assert main(["ask", "what was my average deep sleep?", "--db", db]) == 0
    assert "average deep sleep" in capsys.readouterr().out


def test_ask_bad_input_still_prints_json(database, tmp_path, capsys):
    db = database("m")
    assert main(["ask", "hello", "--db", db, "--json"]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    # no file yet; a server database exists but holds nothing
    assert "no memory database" in error or "is empty" in error
    hist, _ = generate(days=5).write(tmp_path)
    assert main(["ingest", str(hist), "--db", db, "--quiet", "--no-retrieval"]) == 0
    capsys.readouterr()
    for question in ["", "zzz qqq", "how many unicorns did I ride in 1999?"]:
        assert main(["ask", question, "--db", db, "--json", "--no-retrieval"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert isinstance(out["answer"], str) and out["answer"]
    assert main(["ask", "x", "--db", db, "--json", "--user-id", "nobody"]) == 0
    assert "nobody" in json.loads(capsys.readouterr().out)["answer"]
    assert main(["ask", "--db", db]) == 2


def write_history(tmp_path, rounds):
    """A one-session history file of user "u"."""
    hist = tmp_path / "h.json"
    session = {"session_id": "S1", "date": "2026-03-01", "rounds": rounds}
    hist.write_text(json.dumps({"user_id": "u", "sessions": [session]}))
    return hist


def test_tables_report_values_that_did_not_fit(database, tmp_path, capsys):
    rounds = [{"user": f"Sleep: {v} h, mood: ok"} for v in (7, 7.5, 8, 6.5)]
    rounds.append({"user": "Sleep: 4500, mood: ok"})
    hist = write_history(tmp_path, rounds)
    db = database("m")
    assert main(["ingest", str(hist), "--db", db, "--quiet", "--no-retrieval"]) == 0
    capsys.readouterr()
    assert main(["tables", "--db", db, "--user-id", "u"]) == 0
    out = capsys.readouterr().out
    assert "1 value(s) did not fit and are NULL (rounds S1:5)" in out
    assert main(["tables", "--db", db, "--json"]) == 0
    (table,) = json.loads(capsys.readouterr().out)["u"]
    sleep = next(c for c in table["columns"] if c["name"] == "sleep")
    assert sleep["uncast"]["round_ids"] == ["S1:5"]


def test_a_second_process_waits_for_the_writer(tmp_path, capsys):
    import subprocess
    import sys
    import time

    rounds = [{"user": f"Sleep: {7 + i % 2} h, Score: {80 + i}"} for i in range(6)]
    hist = write_history(tmp_path, rounds)
    db = str(tmp_path / "m.duckdb")
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import duckdb, sys, time\n"
            f"con = duckdb.connect({db!r})\n"
            "print('ready', flush=True)\n"
            "time.sleep(2.0)\n"
            "con.close()\n",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        args = ["ingest", str(hist), "--db", db, "--quiet", "--no-retrieval"]
        assert main(args) == 2
        err = capsys.readouterr().err
        assert f"in use by PID {holder.pid}" in err and "--wait" in err
        start = time.monotonic()
        assert main([*args, "--wait", "30"]) == 0
        assert holder.poll() is not None  # it finished first
        assert time.monotonic() - start < 30
        assert "6 new" in capsys.readouterr().out
    finally:
        holder.kill()
        holder.wait()


def test_ingest_from_stdin_with_a_json_report(database, tmp_path):
    import subprocess
    import sys

    rounds = [
        {"session_id": "S1", "user": f"Sleep: {7 + i % 2} h, Score: {80 + i}"}
        for i in range(5)
    ]
    data = "\n".join(json.dumps(r) for r in rounds)
    db = database("m")
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "langgraph_adamm.cli",
            "ingest",
            "-",
            "--db",
            db,
            "--quiet",
            "--no-retrieval",
            "--json",
        ],
        input=data,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["rounds_new"] == 5 and report["problems"] == []
    assert "Traceback" not in out.stderr


def test_wrong_paths_fail_before_any_model_loads(tmp_path, capsys):
    assert main(["eval", "mem-gallery", str(tmp_path / "nope")]) == 2
    assert (
        main(["convert", "mem-gallery", str(tmp_path / "nope"), str(tmp_path / "out")])
        == 2
    )
    assert not (tmp_path / "out").exists()
    assert (
        main(["ingest", str(tmp_path / "absent.json"), "--db", str(tmp_path / "m.db")])
        == 2
    )
    err = capsys.readouterr().err
    assert err.count("adamm: error:") == 3 and "no such" in err


def test_read_only_commands_leave_other_databases_alone(tmp_path, capsys):
    import duckdb

    other = str(tmp_path / "other.duckdb")
    con = duckdb.connect(other)
    con.execute("CREATE TABLE t (x INTEGER)")
    con.close()
    assert main(["tables", "--db", other]) == 2
    assert "not a langgraph_adamm memory database" in capsys.readouterr().err
    con = duckdb.connect(other)
    names = [
        r[0]
        for r in con.execute(
            "SELECT table_name FROM information_schema.tables"
        ).fetchall()
    ]
    con.close()
    assert names == ["t"]  # nothing was created


def test_empty_results_say_so(database, tmp_path, capsys):
    db = database("m")
    from langgraph_adamm import Memory

    Memory(db, user_id="u", retrieval=False).close()  # an empty adamm memory
    assert main(["tables", "--db", db]) == 0
    assert "holds no rounds yet" in capsys.readouterr().out
    hist, _ = generate(days=3).write(tmp_path)
    assert main(["ingest", str(hist), "--db", db, "--quiet", "--no-retrieval"]) == 0
    capsys.readouterr()
    assert main(["tables", "--db", db, "--user-id", "nobody"]) == 0
    assert "no rounds of user 'nobody'" in capsys.readouterr().out


def test_version_and_argument_errors(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out.startswith("adamm 0.")
    for bad in ("0", "-1", "x"):
        with pytest.raises(SystemExit) as done:
            main(["ingest", "h.json", "--db", "m.db", "--batch-size", bad])
        assert done.value.code == 2
        assert "--batch-size" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["ingest", "absent.json", "--db", "m.duckdb"],
        ["ingest", "h.json", "--db", "m.duckdb", "--batch-size", "-1"],
        ["tables", "--db", "other.duckdb"],
        ["tables", "--db", "absent.duckdb"],
        ["convert", "mem-gallery", "nope", "out"],
        ["eval", "mem-gallery", "nope"],
        ["ask", "how much did I sleep?", "--db", "absent.duckdb"],
    ],
)
def test_the_command_line_never_shows_a_traceback(tmp_path, argv):
    import subprocess
    import sys

    import duckdb

    con = duckdb.connect(str(tmp_path / "other.duckdb"))
    con.execute("CREATE TABLE t (x INTEGER)")
    con.close()
    (tmp_path / "h.json").write_text("{}")
    out = subprocess.run(
        [sys.executable, "-m", "langgraph_adamm.cli", *argv],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr
    assert "error:" in out.stderr
    assert not (tmp_path / "out").exists()
