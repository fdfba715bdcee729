"""Fit the calibrated decision of a lookup (rag/answerable.py) and pick its thresholds on the dev split.

    python bench/answerable_model.py HARD_STORE SEED_STORE --refit     # fit, thresholds; written if better on dev
    python bench/answerable_model.py HARD_STORE SEED_STORE             # dev figures of the shipped model

Labelled questions (none from the held-out test split):
- bench/random_paper_questions.jsonl, train and dev: lookups and details about random NeurIPS papers written blind by
  helpers; each also asked again with its paper left out of the candidates (a near miss: the paper is not loaded),
  and its off-corpus questions;
- 400 random NeurIPS papers asked for by title (the authors' words), 300 train and 100 dev, each also left out;
- bench/questions.jsonl (our own wording; train only), at 8.4k papers and on the 38 seeds alone;
- the other fields' questions (bench/other_field_eval.py, written blind over arXiv abstracts of 35 sets in physics,
  astronomy, biology, statistics, mathematics and engineering): their lookups, each also left out, and their near
  misses; OTHER_FIELD_DEV pick the thresholds, the rest train. A set is added only after its held-out first score.
A row's label is whether the best candidate is the paper asked for. The model is a logistic regression over
rag.answerable.signals; the two thresholds minimise, on dev: answerable questions refused + near misses and off-corpus
questions answered without a hedge (by the model or by a gate) + half the answerable questions hedged (ties: fewer
hedges of unanswerable ones).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from rag import PaperChat  # noqa: E402
from rag.answerable import MODEL_PATH, AnswerableModel, answerable_model  # noqa: E402
from rag.engine import PaperChatEngine  # noqa: E402
from rag.intent import QuestionKind  # noqa: E402

sys.path.insert(0, str(REPO / "bench"))
from other_field_eval import SETS  # noqa: E402

SOURCE = "neurips-abstracts.jsonl"
# The other fields' sets the model learns from (bench/other_field_eval.py): each already scored once as held out, so
# none a change is still to be scored on. About a third of them pick the thresholds (dev).
OTHER_FIELD_DEV = ("astro-test", "qbio2", "optics", "grqc", "hepph", "statme", "astroim", "plasma", "cscr", "popbio")
OTHER_FIELD_TRAIN = ("astro-dev", "qbio", "astro-test2", "astro-test3", "condmat", "qbio3", "qbio4", "condmat2", "hep",
                     "quantph", "eesssy", "planets", "chemph", "eesp", "astrohe", "hepth", "astroco", "astrosr",
                     "supcon", "heplat", "mathna", "hepex", "statap", "astroga", "meshall")
OTHER_FIELDS = {name: (*SETS[name], "dev" if name in OTHER_FIELD_DEV else "train")
                for name in OTHER_FIELD_TRAIN + OTHER_FIELD_DEV}
OTHER_FIELD_KINDS = ("described", "titled", "detail", "not_stated", "offtopic")
ROWS = Path("/tmp/paperchat-answerable-rows.jsonl")
ANSWERABLE_KINDS = ("lookup", "describe", "not_stated")


def judged(engine: PaperChatEngine, question: str, gold: str | None, leave_out: bool) -> dict | None:
    """The judge's signals on a question naming no paper (or pinning papers by a term only they use), the gates'
    choice and whether they hedge it, and the best candidate; None when the question names its paper (the model
    does not decide those), a left out paper was pinned by its term, no candidate was scored, or it is no lookup."""
    plan = engine.planner.plan(question)
    if plan.kind is not QuestionKind.LOOKUP or plan.pinned:
        return None
    found = engine.find.for_lookup(plan.question, [], None, plan.filters)
    if found.pinned and (leave_out or not found.by_term):
        return None
    if leave_out:
        found.hits = [h for h in found.hits if h.paper.paper_id != gold]
    verdict = engine.judge.choose(plan.question, plan.intent, found)
    if not verdict.signals:  # no candidate was scored: nothing for the model to decide
        return None
    best = verdict.hits[0].paper.paper_id if verdict.hits else None
    return {"signals": verdict.signals, "gates_chose": [h.paper.paper_id for h in verdict.chosen], "best": best,
            "gates_hedged": verdict.hedged}


def collect(hard: Path, seeds: Path, splits: tuple[str, ...] = ("train", "dev")) -> list[dict]:
    """Judged rows of the labelled questions of ``splits`` (the held-out test split only with --score-test)."""
    rows = []
    for store in (hard,) if splits == ("test",) else (hard, seeds):
        chat = PaperChat(store_dir=store, retrieval_calibrated=False)
        engine = PaperChatEngine.from_settings(chat)
        by_key = {p.key: p.paper_id for p in chat.catalog.papers.values()}
        asked = []  # (question, gold id or None, split, group)
        if store == hard:
            for r in map(json.loads, (REPO / "bench" / "random_paper_questions.jsonl").open()):
                if r["split"] in splits:
                    gold = by_key.get(f"{SOURCE}#{r['gold_line'] - 1}") if r.get("gold_line") else None
                    asked.append((r["question"], gold, r["split"], "answerable" if gold else "offcorpus"))
            test_titles = set(random.Random(0).sample(sorted(k for k in by_key if k.startswith(SOURCE)), 500))
            keys = [k for k in sorted(by_key) if k.startswith(SOURCE) and k not in test_titles]
            titles = {p.key: p.title for p in chat.catalog.papers.values()}
            for i, key in enumerate(random.Random(1).sample(keys, 400)):
                if splits != ("test",):
                    asked.append((titles[key], by_key[key], "train" if i < 300 else "dev", "answerable"))
        for r in map(json.loads, (REPO / "bench" / "questions.jsonl").open() if splits != ("test",) else ()):
            if r.get("history"):
                continue
            if r["kind"] in ANSWERABLE_KINDS and len(r["gold"]) == 1:
                asked.append((r["question"], by_key.get(r["gold"][0]), "train", "answerable"))
            elif r.get("refuse"):
                asked.append((r["question"], None, "train", "offcorpus"))
        rows += judged_rows(engine, asked, store.name)
    for name, (corpus, questions, store, split) in OTHER_FIELDS.items():
        if "train" not in splits:
            continue
        chat = PaperChat(store_dir=Path(store), store_bundled_corpus=False, retrieval_calibrated=False)
        if not chat.papers():
            chat.ingest([corpus])
        by_line = {p.key: p.paper_id for p in chat.papers()}
        ids = {json.loads(line)["id"]: by_line[f"{corpus.name}#{i}"] for i, line in enumerate(corpus.open())}
        asked = [(r["question"], ids[r["gold"][0]] if r["gold"] else None, split,
                  "answerable" if r["gold"] else "nearmiss")
                 for r in map(json.loads, questions.open()) if r["kind"] in OTHER_FIELD_KINDS]
        with chat.field_tables():
            rows += judged_rows(PaperChatEngine.from_settings(chat), asked, name)
    return rows


def judged_rows(engine: PaperChatEngine, asked: list[tuple[str, str | None, str, str]], name: str) -> list[dict]:
    """The judged rows of (question, gold id or None, split, group), each answerable one also with its paper left
    out (a near miss)."""
    rows = []
    for n, (question, gold, split, group) in enumerate(asked):
        for leave_out in ((False, True) if gold else (False,)):
            row = judged(engine, question, gold, leave_out)
            if row is None:
                continue
            row.update(question=question, gold=gold, split=split, store=name,
                       group="nearmiss" if leave_out else group,
                       label=int(bool(gold) and not leave_out and row["best"] == gold))
            rows.append(row)
        if n % 100 == 0:
            print(f"{name}: {n}/{len(asked)}", file=sys.stderr, flush=True)
    return rows


def outcomes(rows: list[dict], p: np.ndarray, answer_min: float, hedge_min: float) -> dict[str, float]:
    """Rates on ``rows`` of the decision with these thresholds."""
    answerable = [(r, q) for r, q in zip(rows, p) if r["group"] == "answerable"]
    unanswerable = [(r, q) for r, q in zip(rows, p) if r["group"] != "answerable"]

    def decision(r: dict, q: float) -> str:  # as rag.verdict.Verdict.decide, then a gate's hedge (a facet, a name)
        if r["gates_chose"]:
            return "answer" if q >= answer_min and not r["gates_hedged"] else "hedge"
        return "hedge" if q >= hedge_min else "refuse"

    def cited(r: dict, d: str) -> str | None:
        return (r["gates_chose"][:1] or [r["best"]])[0] if d != "refuse" else None

    dec_a = [(r, decision(r, q)) for r, q in answerable]
    dec_u = [decision(r, q) for r, q in unanswerable]
    n_a, n_u = max(len(dec_a), 1), max(len(dec_u), 1)
    return {
        "refused": sum(d == "refuse" for _, d in dec_a) / n_a,
        "hedged": sum(d == "hedge" for _, d in dec_a) / n_a,
        "gold_cited": sum(cited(r, d) == r["gold"] for r, d in dec_a) / n_a,
        "unanswerable_answered": sum(d == "answer" for d in dec_u) / n_u,
        "unanswerable_hedged": sum(d == "hedge" for d in dec_u) / n_u,
    }


def cost(o: dict[str, float]) -> float:
    return o["refused"] + o["unanswerable_answered"] + 0.5 * o["hedged"]


def fit(rows: list[dict]) -> AnswerableModel:
    from sklearn.linear_model import LogisticRegression

    names = tuple(sorted(rows[0]["signals"]))
    train = [r for r in rows if r["split"] == "train"]
    x = np.asarray([[r["signals"][n] for n in names] for r in train])
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    clf = LogisticRegression(C=1.0, max_iter=1000).fit((x - mean) / scale, [r["label"] for r in train])
    model = AnswerableModel(names, tuple(mean), tuple(scale), tuple(clf.coef_[0]), float(clf.intercept_[0]), 0.5, 0.5)
    dev = [r for r in rows if r["split"] == "dev"]
    p = np.asarray([model.probability(r["signals"]) for r in dev])
    grid = [round(t, 2) for t in np.arange(0.05, 0.96, 0.05)]
    # ties go to the thresholds hedging fewest unanswerable questions: a flat refusal says more than a hedge there
    best = min(((a, h) for a in grid for h in grid if h <= a),
               key=lambda t: (round(cost(o := outcomes(dev, p, *t)), 6), o["unanswerable_hedged"]))
    return AnswerableModel(names, tuple(mean), tuple(scale), tuple(clf.coef_[0]), float(clf.intercept_[0]), *best)


def dev_cost(rows: list[dict], model: AnswerableModel) -> float:
    dev = [r for r in rows if r["split"] == "dev"]
    return cost(outcomes(dev, np.asarray([model.probability(r["signals"]) for r in dev]), model.answer_min,
                         model.hedge_min))


def report(rows: list[dict], model: AnswerableModel, split: str) -> None:
    part = [r for r in rows if r["split"] == split]
    p = np.asarray([model.probability(r["signals"]) for r in part])
    gates_only = outcomes(part, np.ones(len(part)), 0.0, 2.0)  # the gates alone: their choice or a refusal
    calibrated = outcomes(part, p, model.answer_min, model.hedge_min)
    groups = {g: sum(r["group"] == g for r in part) for g in ("answerable", "nearmiss", "offcorpus")}
    print(f"{split}: {groups}  thresholds answer {model.answer_min} / hedge {model.hedge_min}")
    for name, o in (("gates alone", gates_only), ("calibrated", calibrated)):
        print(f"  {name:12s} " + "  ".join(f"{k} {v:.3f}" for k, v in o.items()))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("hard_store", type=Path)
    parser.add_argument("seed_store", type=Path)
    parser.add_argument("--refit", action="store_true",
                        help="Fit; write rag/answerable_model.json if it decides dev better than the shipped model.")
    parser.add_argument("--recollect", action="store_true", help=f"Judge the questions again (else reuse {ROWS}).")
    parser.add_argument("--score-test", action="store_true",
                        help="Score the shipped model once on the held-out test split (never fitted on).")
    args = parser.parse_args()
    if args.score_test:
        report(collect(args.hard_store, args.seed_store, ("test",)), answerable_model(), "test")
        return
    if args.recollect or not ROWS.exists():
        rows = collect(args.hard_store, args.seed_store)
        ROWS.write_text("".join(json.dumps(r) + "\n" for r in rows))
    rows = [json.loads(line) for line in ROWS.open()]
    model = answerable_model()
    if args.refit:
        # a refit replaces the shipped model only when it decides the dev questions better: the likelihood it is
        # fitted on is not the decision's cost, and a refit on more questions has come out worse
        refit = fit(rows)
        shipped, new = (dev_cost(rows, m) if m else float("inf") for m in (model, refit))
        print(f"dev cost: shipped {shipped:.4f}, refit {new:.4f}")
        if new < shipped:
            MODEL_PATH.write_text(refit.to_json() + "\n")
            print(f"wrote {MODEL_PATH}")
            model = refit
    report(rows, model, "train")
    report(rows, model, "dev")


if __name__ == "__main__":
    main()
