"""onnxruntime settings for the MiniLM encoder: intra-op threads x busy-wait spinning x batch size.

    python bench/encoder_bench.py --limit 100        # sentences of a 100-paper sample, 3 rounds
    python bench/encoder_bench.py --threads 1,2 --batch-sizes 32,64,128 --rounds 5

Configurations run interleaved (round-robin), so a burst of load from elsewhere hits all of them;
the table keeps each configuration's best and median round.
"""

from __future__ import annotations

import argparse
import statistics
import time

from harness import machine, print_table, quiet_libraries, write_subset
from ingest_bench import chunk_texts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, default=100, help="Papers whose sentences are encoded.")
    parser.add_argument("--threads", default="1,2", help="Comma-separated intra-op thread counts.")
    parser.add_argument("--batch-sizes", default="32,64,128", help="Comma-separated texts per ONNX call.")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    quiet_libraries()

    from store.embed import MiniLMEmbedding

    _, texts = chunk_texts(write_subset(args.limit))
    configs = [(t, spin, b) for t in map(int, args.threads.split(",")) for spin in (True, False)
               for b in map(int, args.batch_sizes.split(","))]
    encoders = {c: MiniLMEmbedding(threads=c[0], allow_spinning=c[1], batch_size=c[2]) for c in configs}
    for enc in encoders.values():
        enc.encode(texts[:16])
    print(f"{len(texts)} sentences, {len(configs)} configurations x {args.rounds} rounds; {machine()}", flush=True)
    rates: dict[tuple, list[float]] = {c: [] for c in configs}
    for rnd in range(args.rounds):
        for config, enc in encoders.items():
            start = time.perf_counter()
            enc.encode(texts)
            rates[config].append(len(texts) / (time.perf_counter() - start))
            print(f"  round {rnd + 1} threads={config[0]} spin={config[1]} batch={config[2]}: "
                  f"{rates[config][-1]:.1f}/s ({machine()})", flush=True)
    rows = [[t, "on" if spin else "off", b, f"{max(r):.1f}", f"{statistics.median(r):.1f}"]
            for (t, spin, b), r in rates.items()]
    print_table("Encoder throughput (sentences/s)", ["intra-op threads", "spinning", "batch", "best", "median"], rows)


if __name__ == "__main__":
    main()
