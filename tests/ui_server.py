"""The PaperChat web app served on a free loopback port, for the browser and API tests."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator
from typing import Any


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def running_app(chat: Any) -> Iterator[str]:
    """Serve ``chat`` with the real launch path (theme, assets, queue) in this process; yields the URL."""
    from ui.web import launch

    port = free_port()
    app = launch(chat, port=port, prevent_thread_lock=True, quiet=True)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        app.close()
