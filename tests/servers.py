"""Server processes for tests: a free loopback port, start and wait until ready, stop afterwards."""

from __future__ import annotations

import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def answers(url: str) -> bool:
    """True when a GET of ``url`` returns 200."""
    try:
        with urllib.request.urlopen(url, timeout=2) as resp:
            return resp.status == 200
    except OSError:
        return False


@contextmanager
def serving(cmd: list[str], log: Path, ready_url: str, timeout: float, **popen) -> Iterator[subprocess.Popen]:
    """Run ``cmd`` (output to ``log``) until ``ready_url`` answers, yield the process, then stop it."""
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, **popen)
    try:
        deadline = time.monotonic() + timeout
        while not answers(ready_url):
            if proc.poll() is not None or time.monotonic() > deadline:
                state = f"exited with {proc.returncode}" if proc.poll() is not None else f"not ready after {timeout:.0f} s"
                raise RuntimeError(f"{Path(cmd[0]).name} {state}:\n{log.read_text(errors='replace')[-3000:]}")
            time.sleep(0.2)
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
