"""Themes and trends on a store: the first computation, a later process reading the snapshot, and the answers a
user sees.

    python bench/themes_bench.py STORE_DIR        (e.g. a store of the seeds + the shared 8,434 NeurIPS abstracts)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from rag import PaperChat
from rag.snapshot import SNAPSHOT_DIR


def main() -> None:
    store = Path(sys.argv[1]).expanduser()
    for old in (store / SNAPSHOT_DIR).glob("themes-*.pkl"):
        old.unlink()  # time the first computation
    chat = PaperChat(store_dir=store)
    papers = len(chat.catalog.papers)
    start = time.perf_counter()
    themes = chat.themes
    first = time.perf_counter() - start
    start = time.perf_counter()
    later = PaperChat(store_dir=store)
    later.themes, later.trends()
    again = time.perf_counter() - start
    print(f"{papers:,} papers: {len(themes.themes)} themes; first computation {first:.1f} s; "
          f"a new process reading the snapshot, with per-year counts: {again:.2f} s")
    for question in ("What are the main themes of these papers?", "How did the topics change over the years?"):
        start = time.perf_counter()
        answer = later.ask(question)
        print(f"\n== {question} ({answer.kind}, {time.perf_counter() - start:.2f} s)\n{answer.text}")


if __name__ == "__main__":
    main()
