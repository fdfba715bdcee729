"""PaperChat on another field: 117 arXiv astrophysics abstracts (tests/data/other_field, CC0 metadata) and 71
questions written blind over them by a helper who saw the abstracts only (bench/other_field_questions.jsonl).

    python bench/other_field_eval.py [--store /tmp/paperchat-astro-store] [--failures]

Per kind: described / titled / detail / follow-up lookups (the gold paper cited, refused), not-stated details (said
not stated), comparisons (both papers cited), lists (recall and precision of the cited papers), off-corpus near
misses (answered as a hit, hedged, refused).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from rag import PaperChat  # noqa: E402

CORPUS = REPO / "tests" / "data" / "other_field" / "abstracts.jsonl"
QUESTIONS = REPO / "bench" / "other_field_questions.jsonl"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--store", type=Path, default=Path("/tmp/paperchat-astro-store"))
    parser.add_argument("--failures", action="store_true")
    args = parser.parse_args()
    chat = PaperChat(store_dir=args.store, store_bundled_corpus=False)
    if not chat.papers():
        chat.ingest([CORPUS])
    by_arxiv = {p.key: p.paper_id for p in chat.papers()}
    ids = {json.loads(line)["id"]: f"{CORPUS.name}#{i}" for i, line in enumerate(CORPUS.open())}
    scores: dict[str, list[float]] = defaultdict(list)
    failures = []
    for row in map(json.loads, QUESTIONS.open()):
        gold = {by_arxiv[ids[g]] for g in row["gold"]}
        history = [tuple(turn) for turn in row.get("history", [])]
        answer = chat.ask(row["question"], history=history)
        cited = {c.paper.paper_id for c in answer.citations}
        kind = row["kind"]
        if kind == "offtopic":
            ok = answer.refused or answer.hedged
            scores["offtopic answered as a hit"].append(float(not ok))
            scores["offtopic hedged"].append(float(answer.hedged))
        elif kind == "list":
            scores["list recall"].append(len(gold & cited) / len(gold))
            scores["list precision"].append(len(gold & cited) / len(cited) if cited else 0.0)
            ok = gold <= cited
        elif kind == "compare":
            ok = gold <= cited
            scores["compare both cited"].append(float(ok))
        elif kind == "not_stated":
            ok = answer.kind == "not_stated" and gold <= cited
            scores["not-stated said"].append(float(ok))
        else:
            ok = bool(gold & cited)
            scores[f"{kind} cited"].append(float(ok))
            scores[f"{kind} refused"].append(float(answer.refused))
        if not ok:
            failures.append(f"  {row['id']} {kind} refused={answer.refused} hedged={answer.hedged}: {row['question']}")
    print(f"{len(chat.papers())} papers, {sum(1 for _ in QUESTIONS.open())} questions")
    for name, values in scores.items():
        print(f"  {name:28s} {sum(values) / len(values):.3f}  (n={len(values)})")
    if args.failures:
        print("\n".join(failures))


if __name__ == "__main__":
    main()
