"""Held-out questions about randomly drawn papers, scored on both backends.

    python bench/heldout_eval.py STORE_DIR [--questions bench/random_paper_questions.jsonl] [--split train|dev|test|all]

With --titles N, N random papers of the shared corpus are asked for by their own title instead. The questions
(bench/random_paper_questions.jsonl) were written by helpers who saw randomly drawn abstracts of the shared NeurIPS
corpus, one at a time, and neither the code nor bench/questions.jsonl: a lookup in everyday words for each of 300
papers, a detail question for about a third, and 40 off-corpus questions (h001-h150 in one batch of 100 papers, split
dev/test; h151-h438 in two batches of 100 more, split train/dev/test by paper). Gold is the paper's place in the shared corpus
(``neurips-abstracts.jsonl#N``), so STORE_DIR must hold that corpus (bench/run_eval.sh builds one). Tune on dev; score
test once per finished change.

Offline: recall@5 of PaperChat.retrieve, the gold paper cited, answerable questions refused, off-corpus ones answered.
LLM: the same questions through the LLM backend against a scripted OpenAI-compatible server on loopback that answers
only from the sources it is sent (it quotes source [1]); the figure is the share of answerable questions whose gold
paper reached the LLM among its sources.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # the scripted server lives with the tests

from rag import PaperChat  # noqa: E402
from tests.openai_server import FakeOpenAI, Reply  # noqa: E402

SOURCE = "neurips-abstracts.jsonl"


def quote_first_source(body: dict) -> str:
    prompt = body["messages"][-1]["content"]
    found = re.search(r"^\[1\] .*?^Abstract: (.+?)$", prompt, re.M | re.S)
    return (re.split(r"(?<=\.)\s+", found.group(1))[0] + " [1]") if found else "No sources."


def prompt_of(body: dict) -> str:
    return body["messages"][-1]["content"]


def load(path: Path, split: str) -> list[dict]:
    rows = [json.loads(line) for line in path.open()]
    return [r for r in rows if split == "all" or r["split"] == split]


def title_questions(chat: PaperChat, count: int, seed: int = 0) -> list[dict]:
    """``count`` random papers of the shared corpus asked for by their title (the authors' words, not ours)."""
    import random

    keys = sorted(p.key for p in chat.catalog.papers.values() if p.source == SOURCE)
    picked = random.Random(seed).sample(keys, min(count, len(keys)))
    by_key = {p.key: p for p in chat.catalog.papers.values()}
    return [{"id": f"t{i:03d}", "kind": "title", "question": by_key[key].title,
             "gold_line": int(key.rsplit("#", 1)[1]) + 1, "split": "test"} for i, key in enumerate(picked)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("store", type=Path)
    parser.add_argument("--questions", type=Path, default=REPO / "bench" / "random_paper_questions.jsonl")
    parser.add_argument("--split", default="dev", choices=["train", "dev", "test", "all"])
    parser.add_argument("--failures", action="store_true", help="List the questions each backend got wrong.")
    parser.add_argument("--titles", type=int, default=0, help="Ask for this many random papers by title instead.")
    args = parser.parse_args()
    chat = PaperChat(store_dir=args.store)
    rows = title_questions(chat, args.titles) if args.titles else load(args.questions, args.split)
    by_key = {p.key: p for p in chat.catalog.papers.values()}

    def gold_of(row: dict):
        return by_key.get(f"{SOURCE}#{row['gold_line'] - 1}") if row.get("gold_line") else None

    missing = [r["id"] for r in rows if r.get("gold_line") and gold_of(r) is None]
    if missing:
        sys.exit(f"{len(missing)} gold papers are not in {args.store} (ingest {SOURCE}): {missing[:5]}")
    answerable = [r for r in rows if r.get("gold_line")]
    offtopic = [r for r in rows if not r.get("gold_line")]

    # ---- offline ----
    start = time.perf_counter()
    recall5 = cited = refused = hedged = 0
    wrong: list[str] = []
    for row in answerable:
        gold = gold_of(row).paper_id
        top = [p.paper_id for p in chat.retrieve(row["question"], k=5)]
        answer = chat.ask(row["question"])
        recall5 += gold in top
        cited += any(c.paper.paper_id == gold for c in answer.citations)
        refused += answer.refused
        hedged += answer.hedged
        if not any(c.paper.paper_id == gold for c in answer.citations):
            wrong.append(f"  offline {row['id']} {row['kind']} refused={answer.refused}: {row['question']}")
    off_answers = [chat.ask(r["question"]) for r in offtopic]
    answered_off = sum(not a.refused and not a.hedged for a in off_answers)
    hedged_off = sum(a.hedged for a in off_answers)
    offtopic_line = (f"  off-corpus answered {answered_off}/{len(offtopic)} (hedged {hedged_off})"
                     if offtopic else "")
    seconds = time.perf_counter() - start
    n = len(answerable)
    name = f"{args.titles} random titles" if args.titles else f"{args.questions.name} [{args.split}]"
    print(f"{name} on {len(chat.catalog):,} papers: {n} answerable, "
          f"{len(offtopic)} off-corpus")
    print(f"offline: recall@5 {recall5 / n:.3f}  gold cited {cited / n:.3f}  refused {refused / n:.3f}"
          f"  hedged {hedged / n:.3f}"
          f"{offtopic_line}  ({seconds / len(rows):.2f} s/question)")

    # ---- LLM backend, scripted server ----
    with FakeOpenAI() as server:
        server.script([Reply(text_fn=quote_first_source)])
        llm = PaperChat(store_dir=args.store, llm_backend="openai-compatible", llm_base_url=server.base_url,
                        llm_model="scripted", llm_max_retries=0)
        reached = called = 0
        for row in answerable:
            before = len(server.completion_requests)
            llm.ask(row["question"])
            requests = server.completion_requests[before:]
            called += bool(requests)
            title = gold_of(row).title
            hit = any(f"Title: {title}\n" in prompt_of(r) or f"] {title}" in prompt_of(r) for r in requests)
            reached += hit
            if not hit:
                wrong.append(f"  llm {row['id']} {row['kind']} called={bool(requests)}: {row['question']}")
    print(f"llm (scripted server): reached the LLM {called / n:.3f}  with the gold paper among its sources "
          f"{reached / n:.3f}")
    if args.failures:
        print("\n".join(wrong))


if __name__ == "__main__":
    main()
