"""What every bench script shares: the corpus subset, title questions, percentiles, tables, load and RSS."""

from __future__ import annotations

import json
import os
import random
import re
import resource
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # `python bench/NAME.py` from a checkout, installed or not

CORPUS = REPO.parent / "shared" / "corpora" / "neurips-abstracts.jsonl"
WORK_DIR = Path(os.environ.get("PAPERCHAT_BENCH_DIR", "/tmp/paperchat-bench"))

QUESTION_TEMPLATES = (
    "What does {title} propose?",
    "What is the main contribution of the paper \"{title}\"?",
    "Summarize {title}.",
    "Which problem does {title} address, and how?",
    "How does the method in {lower} work?",
    "what are the results of {lower}",
    "Explain the approach of the paper on {tail}.",
    "What is new in the work on {tail}?",
)


def read_records(path: Path, limit: int | None = None) -> list[dict]:
    """JSONL records; with ``limit``, an evenly spaced sample (every year represented), in file order."""
    with path.open(encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
    if limit is None or limit >= len(records):
        return records
    step = len(records) / limit
    return [records[int(i * step)] for i in range(limit)]


def write_subset(limit: int | None, corpus: Path = CORPUS, dest_dir: Path = WORK_DIR) -> Path:
    """The corpus (or a ``limit``-paper sample of it) as a JSONL file under ``dest_dir``; reused if present."""
    if limit is None:
        return corpus
    dest = dest_dir / f"{corpus.stem}-{limit}.jsonl"
    if not dest.exists():
        dest_dir.mkdir(parents=True, exist_ok=True)
        tmp = dest.with_suffix(".tmp")
        with tmp.open("w", encoding="utf-8") as out:
            for rec in read_records(corpus, limit):
                out.write(json.dumps(rec, ensure_ascii=False) + "\n")
        tmp.rename(dest)
    return dest


def _plain(title: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[${}\\]", "", title)).strip()


def title_questions(records: list[dict], n: int = 200, seed: int = 0) -> list[tuple[str, str]]:
    """``n`` (question, gold paper id) pairs from titles: "What does <title> propose?" and paraphrases."""
    rng = random.Random(seed)
    picked = rng.sample(records, min(n, len(records)))
    out = []
    for i, rec in enumerate(picked):
        title = _plain(rec["title"])
        tail = title.split(":", 1)[1].strip() if ":" in title else title
        template = QUESTION_TEMPLATES[i % len(QUESTION_TEMPLATES)]
        out.append((template.format(title=title, lower=title.lower(), tail=tail.lower()), rec["id"]))
    return out


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (0-100) by linear interpolation."""
    if not values:
        return float("nan")
    xs = sorted(values)
    pos = (len(xs) - 1) * p / 100
    lo = int(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def summary_ms(seconds: list[float]) -> str:
    """'p50 / p95 ms' of a list of durations in seconds."""
    ms = [s * 1000 for s in seconds]
    return f"{percentile(ms, 50):.1f} / {percentile(ms, 95):.1f}"


def mean(values: list[float]) -> float:
    return statistics.fmean(values) if values else float("nan")


def load_average() -> str:
    """The 1/5/15-minute load (this machine has 2 cores: above ~2 the figures are inflated)."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def machine() -> str:
    return f"{os.cpu_count()} cores, load {load_average()}"


def peak_rss_mb() -> float:
    """This process's peak resident set size in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def process_rss_mb(pid: int) -> tuple[float, float]:
    """(current, peak) RSS in MB of another process, from /proc."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    kb = lambda key: float(fields.get(key, "0 kB").split()[0])  # noqa: E731
    return kb("VmRSS") / 1024, kb("VmHWM") / 1024


def dir_size_mb(path: Path) -> float:
    """Bytes on disk under ``path`` (allocated blocks, as `du` counts), in MB."""
    total = 0
    for p in path.rglob("*"):
        try:
            if p.is_file() and not p.is_symlink():
                total += p.stat().st_blocks * 512
        except FileNotFoundError:  # a file removed while we walk (Chroma compaction)
            pass
    return total / 1e6


def print_table(title: str, headers: list[str], rows: list[list[object]]) -> None:
    """A GitHub-markdown table, so the output pastes into the README."""
    cells = [[str(c) for c in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) for i, h in enumerate(headers)]
    print(f"\n{title}\n")
    print("| " + " | ".join(h.ljust(w) for h, w in zip(headers, widths)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in cells:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(row, widths)) + " |")
    print(f"\n({machine()})", flush=True)


def quiet_libraries() -> None:
    """No telemetry, no progress bars, no offline-model lookups while benchmarking."""
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TQDM_DISABLE", "1")
    overridden = sorted(v for v in os.environ if v.startswith("PAPERCHAT_") and v != "PAPERCHAT_BENCH_DIR")
    if overridden:
        print(f"note: settings from the environment apply: {', '.join(overridden)}", file=sys.stderr)


def timed(fn, questions: list[tuple[str, str]], reset) -> tuple[list[float], int]:
    """Durations of ``fn(question)`` and how often the gold paper was among its results."""
    durations, found = [], 0
    for question, gold in questions:
        reset()
        start = time.perf_counter()
        paper_ids = fn(question)
        durations.append(time.perf_counter() - start)
        found += gold in paper_ids
    return durations, found


def startup_seconds(chat) -> tuple[float, float]:
    """Seconds to load the catalog, then the retriever (BM25): what a new process pays before its first answer."""
    start = time.perf_counter()
    chat.catalog
    catalog_s = time.perf_counter() - start
    start = time.perf_counter()
    chat.retriever
    return catalog_s, time.perf_counter() - start
