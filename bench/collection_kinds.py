"""Tells questions about the whole collection (themes, trends, help) from questions about papers: scores and refits
rag/collection_kinds.py.

    python bench/collection_kinds.py [--split dev|test] [--min-probability P] [--sweep]
    python bench/collection_kinds.py --refit       # fit rag/collection_kinds.json again

Scored on bench/collection_messages.jsonl: 200 messages written blind by a helper who saw neither code nor data
(help / overview / trends / papers; the "papers" ones are hard negatives, such as "summarize all the papers about
large language models"), split dev and test. Tune on dev; score test once per finished change. The fit reads the
rows of rag/collection_questions.tsv and, as "papers", bench/questions.jsonl; --cv gives the false alarms on the
latter with 5-fold cross-validation.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import numpy as np

from rag.collection_kinds import MIN_PROBABILITY, MODEL_FILE, CollectionKinds, load_examples
from store.embed import MiniLMEmbedding

BENCH = Path(__file__).parent
# Inverse regularisation strength of the fit, picked on the dev split (1, 4, 16, 64 tried).
C = 16.0


def fit(vectors: np.ndarray, kinds: list[str]):
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(C=C, class_weight="balanced", max_iter=3000).fit(vectors, kinds)


def training_set(embed) -> tuple[np.ndarray, list[str], list[str]]:
    examples = load_examples()
    bench = [json.loads(line)["question"] for line in (BENCH / "questions.jsonl").open()]
    texts = [q for _, q in examples] + bench
    return embed(texts), [k for k, _ in examples] + ["papers"] * len(bench), texts


def refit(embed) -> None:
    vectors, kinds, _ = training_set(embed)
    model = fit(vectors, kinds)
    MODEL_FILE.write_text(json.dumps({
        "classes": list(model.classes_), "coef": np.round(model.coef_, 6).tolist(),
        "intercept": np.round(model.intercept_, 6).tolist(),
        "fitted_on": f"{len(kinds)} questions: rag/collection_questions.tsv + bench/questions.jsonl as papers",
        "encoder": "all-MiniLM-L6-v2 (bundled int8)", "C": C,
    }))
    print(f"wrote {MODEL_FILE} ({len(kinds)} questions)")


def cross_validated_alarms(embed) -> None:
    from sklearn.model_selection import KFold

    vectors, kinds, texts = training_set(embed)
    papers = np.flatnonzero(np.asarray(kinds) == "papers")
    others = np.flatnonzero(np.asarray(kinds) != "papers")
    alarms = []
    for train, held in KFold(5, shuffle=True, random_state=0).split(papers):
        keep = np.concatenate([others, papers[train]])
        model = fit(vectors[keep], [kinds[i] for i in keep])
        for i, row in zip(papers[held], model.predict_proba(vectors[papers[held]])):
            best = model.classes_[row.argmax()]
            if best != "papers" and row.max() >= MIN_PROBABILITY:
                alarms.append(texts[i])
    print(f"5-fold cross-validated false alarms on bench/questions.jsonl: {len(alarms)}/{len(papers)}")
    for text in alarms:
        print(f"  {text}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--split", default="dev", choices=["dev", "test"])
    parser.add_argument("--min-probability", type=float, default=MIN_PROBABILITY)
    parser.add_argument("--sweep", action="store_true", help="Figures for minimum probabilities 0.3-0.8.")
    parser.add_argument("--refit", action="store_true", help="Fit rag/collection_kinds.json again.")
    parser.add_argument("--cv", action="store_true", help="Cross-validated false alarms on bench/questions.jsonl.")
    args = parser.parse_args()
    encoder = MiniLMEmbedding()

    def embed(texts: list[str]) -> np.ndarray:
        return np.asarray(encoder.get_text_embedding_batch(texts), dtype=np.float32)

    if args.refit:
        return refit(embed)
    if args.cv:
        return cross_validated_alarms(embed)
    messages = [json.loads(line) for line in (BENCH / "collection_messages.jsonl").open()]
    messages = [m for m in messages if m["split"] == args.split]
    for p in (np.arange(0.3, 0.81, 0.1) if args.sweep else [args.min_probability]):
        decided = CollectionKinds(embed, min_probability=p).kinds([m["text"] for m in messages])
        right, total, wrong = Counter(), Counter(), []
        for message, kind in zip(messages, decided):
            got = kind.value if kind else "papers"
            total[message["kind"]] += 1
            right[message["kind"]] += got == message["kind"]
            if got != message["kind"]:
                wrong.append(f"  {message['kind']} taken for {got}: {message['text']}")
        per_kind = "  ".join(f"{k} {right[k]}/{total[k]}" for k in ("help", "overview", "trends", "papers"))
        print(f"min probability {p:.2f} [{args.split}] {per_kind}  all {sum(right.values())}/{len(messages)}")
        if not args.sweep:
            print("\n".join(wrong))


if __name__ == "__main__":
    main()
