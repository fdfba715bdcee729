"""onnxruntime settings for the MiniLM encoder: intra-op threads x busy-wait spinning x tokens per call.

    python bench/encoder_bench.py --limit 100        # sentences of a 100-paper sample, 3 rounds
    python bench/encoder_bench.py --threads 1,2 --budgets 256,384,1024,4096 --rounds 5

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
    parser.add_argument("--budgets", default="384,2048", help="Comma-separated padded tokens per ONNX call "
                        "(store.embed.TOKEN_BUDGET; 2048 is about 64 sentences, the old fixed batch).")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    quiet_libraries()

    from store import embed

    _, texts = chunk_texts(write_subset(args.limit))
    configs = [(t, spin, b) for t in map(int, args.threads.split(",")) for spin in (True, False)
               for b in map(int, args.budgets.split(","))]
    encoders = {c: embed.MiniLMEmbedding(threads=c[0], allow_spinning=c[1], batch_size=4096) for c in configs}
    for enc in encoders.values():
        enc.encode(texts[:16])
    print(f"{len(texts)} sentences, {len(configs)} configurations x {args.rounds} rounds; {machine()}", flush=True)
    rates: dict[tuple, list[float]] = {c: [] for c in configs}
    for rnd in range(args.rounds):
        for config, enc in encoders.items():
            embed.TOKEN_BUDGET = config[2]
            start = time.perf_counter()
            enc.encode(texts)
            rates[config].append(len(texts) / (time.perf_counter() - start))
            print(f"  round {rnd + 1} threads={config[0]} spin={config[1]} tokens/call={config[2]}: "
                  f"{rates[config][-1]:.1f}/s ({machine()})", flush=True)
    rows = [[t, "on" if spin else "off", b, f"{max(r):.1f}", f"{statistics.median(r):.1f}"]
            for (t, spin, b), r in rates.items()]
    print_table("Encoder throughput (sentences/s)", ["intra-op threads", "spinning", "tokens per call", "best", "median"], rows)


if __name__ == "__main__":
    main()
