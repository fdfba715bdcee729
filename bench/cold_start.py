"""`paperchat ask` cold start: process start to printed answer, CPU time and peak RSS of the child.

    python bench/cold_start.py --limit 1000   # on the store query_bench.py built (built now if missing)
    python bench/cold_start.py                # on the full 8,434-paper store
    python bench/cold_start.py --importtime   # also: the slowest imports of `paperchat ask`

Each run is a new process (`paperchat --store-dir DIR ask QUESTION`). CPU seconds (user + sys of the
child) barely move with load from other processes, wall seconds do: both are shown.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from harness import WORK_DIR, machine, print_table, quiet_libraries, read_records, title_questions, write_subset

PAPERCHAT = Path(sys.executable).parent / "paperchat"


def spawn_and_measure(cmd: list[str]) -> tuple[float, float, float, str]:
    """(wall s, cpu s, peak RSS MB, stdout) of one child process, reaped here so its own rusage is read."""
    start = time.perf_counter()
    read_fd, write_fd = os.pipe()
    err_read, err_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.dup2(write_fd, 1)
        os.dup2(err_write, 2)
        os.close(read_fd)
        os.close(err_read)
        os.execv(cmd[0], cmd)
    os.close(write_fd)
    os.close(err_write)
    with os.fdopen(read_fd) as out_f, os.fdopen(err_read) as err_f:
        out = out_f.read()
        err = err_f.read()
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{err[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, out


def slowest_imports(store_dir: Path, question: str, top: int = 15) -> list[tuple[float, str]]:
    """Cumulative import time (ms) of the heaviest top-level modules `paperchat ask` loads."""
    code = "import sys; from ui.cli import main; sys.argv[0] = 'paperchat'; main()"
    proc = subprocess.run([sys.executable, "-X", "importtime", "-c", code, "--store-dir", str(store_dir),
                           "ask", question], capture_output=True, text=True)
    top_level = []
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and line.count("|") == 2:
            _, cumulative, name = line.split("|")
            if cumulative.strip().isdigit() and len(name) - len(name.lstrip()) == 1:  # not nested
                top_level.append((int(cumulative) / 1000, name.strip()))
    return sorted(top_level, reverse=True)[:top]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, help="Papers in the store (as for query_bench.py); default all.")
    parser.add_argument("--store-dir", type=Path, help="Default: /tmp/paperchat-bench/store-LIMIT.")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--importtime", action="store_true", help="List the slowest imports too.")
    args = parser.parse_args()
    quiet_libraries()

    corpus = write_subset(args.limit)
    store_dir = args.store_dir or WORK_DIR / f"store-{args.limit or 'all'}"
    if not store_dir.exists():
        from query_bench import open_chat

        open_chat(store_dir, corpus)
    questions = [q for q, _ in title_questions(read_records(corpus), args.runs + 1, seed=2)]
    base = [str(PAPERCHAT), "--store-dir", str(store_dir)]

    rows = []
    first = spawn_and_measure(base + ["ask", questions[0]])  # the first run also warms the page cache
    rows.append(["first run (cold page cache)", f"{first[0]:.2f}", f"{first[1]:.2f}", f"{first[2]:.0f}"])
    runs = [spawn_and_measure(base + ["ask", q]) for q in questions[1:]]
    for i, (wall, cpu, rss, _) in enumerate(runs, 1):
        print(f"  run {i}: {wall:.2f} s wall, {cpu:.2f} s cpu, {rss:.0f} MB ({machine()})", flush=True)
    rows.append([f"median of {len(runs)} warm runs", f"{statistics.median(r[0] for r in runs):.2f}",
                 f"{statistics.median(r[1] for r in runs):.2f}", f"{max(r[2] for r in runs):.0f}"])
    baseline = spawn_and_measure([sys.executable, "-c", "import ui.cli"])
    rows.append(["python + `import ui.cli` only", f"{baseline[0]:.2f}", f"{baseline[1]:.2f}", f"{baseline[2]:.0f}"])
    print_table(f"`paperchat ask` cold start ({store_dir})", ["run", "wall s", "cpu s", "peak RSS MB"], rows)
    print("answer of the first run:\n" + first[3][:600])
    if args.importtime:
        print("\nslowest top-level imports of `paperchat ask` (cumulative ms):")
        for ms, name in slowest_imports(store_dir, questions[0]):
            print(f"  {ms:8.0f}  {name}")


if __name__ == "__main__":
    main()
