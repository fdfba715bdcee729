"""Make a realistic 100k-abstract JSONL from the real NeurIPS corpus, for scale benchmarks.

    python bench/make_100k.py                                  # -> /tmp/paperchat-bench/neurips-100k.jsonl
    python bench/make_100k.py --n 20000 --out /tmp/neurips-20k.jsonl

The real papers are kept; the rest are synthetic: each recombines sentences of real abstracts of the
same year, position by position (an opening sentence opens, a closing one closes), with the sentence
count of a real abstract, a title stitched from two real titles of that year (a third get a coined
name, "Quorvex: ..."), authors drawn from that year, and a new id. Records are shuffled, so any
prefix of the file is a realistic mix: scale_bench.py ingests prefixes.
"""

from __future__ import annotations

import argparse
import json
import random
import re
from collections import defaultdict
from pathlib import Path

from harness import CORPUS, WORK_DIR, read_records

DEFAULT_OUT = WORK_DIR / "neurips-100k.jsonl"
NAMED_SHARE = 0.35  # real NeurIPS titles: about a third start with "Name: ..."
_SYLLABLES = ("ar", "bel", "cor", "da", "el", "fen", "gra", "hel", "io", "jun", "ka", "lum", "mor", "nex",
              "or", "pra", "quo", "rin", "sol", "tav", "ul", "vex", "wen", "xa", "yor", "zet")
_SUFFIXES = ("", "", "", "Net", "Former", "Flow", "GPT", "Bench", "-X", "-2", "++", "Diff", "RL")
# Sentence boundaries of a raw abstract (LaTeX kept; good enough to recombine whole sentences).
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z$\\(])")


def sentences(abstract: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(abstract) if len(s.strip()) > 20]


class NameMaker:
    """Unique coined names: 2-3 syllables, capitalised, plus a common suffix."""

    def __init__(self, rng: random.Random, taken: set[str]):
        self.rng, self.taken = rng, {t.lower() for t in taken}

    def __call__(self) -> str:
        while True:
            parts = [self.rng.choice(_SYLLABLES) for _ in range(self.rng.choice((2, 2, 3)))]
            name = "".join(parts).capitalize() + self.rng.choice(_SUFFIXES)
            if name.lower() not in self.taken:
                self.taken.add(name.lower())
                return name


def split_title(title: str) -> tuple[str, str]:
    """('Name', 'rest') for 'Name: rest', else ('', title)."""
    head, sep, rest = title.partition(": ")
    return (head, rest) if sep and len(head.split()) <= 4 else ("", title)


def synthetic(rng: random.Random, year_papers: list[dict], year_sentences: list[list[str]],
              new_name: NameMaker, index: int) -> dict:
    template = rng.choice(year_sentences)
    k = max(3, min(len(template), 12))
    picked = []
    for pos in range(k):
        donor = rng.choice(year_sentences)
        rel = 0 if pos == 0 else (len(donor) - 1 if pos == k - 1 else rng.randrange(1, max(2, len(donor) - 1)))
        picked.append(donor[min(rel, len(donor) - 1)])
    left, right = rng.choice(year_papers), rng.choice(year_papers)
    _, left_rest = split_title(left["title"])
    _, right_rest = split_title(right["title"])
    lw, rw = left_rest.split(), right_rest.split()
    body = " ".join(lw[: max(2, len(lw) // 2)] + rw[len(rw) // 2 :])
    title = f"{new_name()}: {body}" if rng.random() < NAMED_SHARE else body
    authors = sorted({a for p in rng.sample(year_papers, 3) for a in p.get("authors", [])[:2]})
    year = left["year"]
    return {"id": f"synth{year}-{index:06d}", "title": title, "abstract": " ".join(picked),
            "authors": authors[: rng.randint(1, 6)], "year": year, "venue": "NeurIPS", "url": None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=100_000, help="Records in the output (real ones included).")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    real = read_records(args.corpus)
    by_year: dict[int, list[dict]] = defaultdict(list)
    for rec in real:
        by_year[rec["year"]].append(rec)
    split = {y: [s for s in (sentences(p["abstract"]) for p in ps) if len(s) >= 2] for y, ps in by_year.items()}
    years = sorted(by_year)
    weights = [len(by_year[y]) for y in years]
    new_name = NameMaker(rng, {split_title(r["title"])[0] for r in real})

    records = list(real)[: args.n]
    for i in range(args.n - len(records)):
        year = rng.choices(years, weights)[0]
        records.append(synthetic(rng, by_year[year], split[year], new_name, i))
    rng.shuffle(records)

    args.out.parent.mkdir(parents=True, exist_ok=True)
    tmp = args.out.with_suffix(".tmp")
    with tmp.open("w", encoding="utf-8") as out:
        for rec in records:
            out.write(json.dumps(rec, ensure_ascii=False) + "\n")
    tmp.rename(args.out)
    size = args.out.stat().st_size / 1e6
    print(f"wrote {len(records)} records ({len(records) - len(real[: args.n])} synthetic) to {args.out}, {size:.0f} MB")


if __name__ == "__main__":
    main()
