"""The PaperChat web app served on a free loopback port, for the browser and API tests."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from tests.servers import free_port

# A new paper to upload through the UI (not in the seeds).
KELP_RECORD = {
    "title": "KelpSeg: segmenting kelp forests in satellite images",
    "abstract": "KelpSeg segments kelp forests in multispectral satellite images with a lightweight U-Net and a "
                "new labelled dataset of 4,000 coastal scenes from three continents.",
    "year": 2024, "venue": "CVPR",
}


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
