"""The eval: run a question file through PaperChat (or a stock LlamaIndex baseline) and score the answers.

A question file is JSON lines: ``{"id", "kind", "question", "gold": ["FILE#ORDINAL", ...], "history": [[q, a], ...],
"refuse": bool, "not_stated": bool, "open": bool}``; gold papers are named by ``Paper.key``.

The judged papers are those of the files some gold key names (the labelled corpus). An open question ("which
papers are about image restoration?", or a topic absent from the labelled corpus only) may also be answered by
papers of other files added as distractors, which nobody labelled. Such questions are scored on condensed lists
(Sakai, SIGIR 2007): unjudged papers are dropped from the ranking and the citations before recall and
precision are computed, and an open refusal question counts only while the store holds judged papers alone.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from store.errors import PaperChatError

RECALL_AT = (1, 5, 10)
# all-gold@k is reported at this k for questions with several gold papers (comparisons, "which" lists).
ALL_GOLD_AT = 5


class EvalFileError(PaperChatError):
    """A question file that cannot be read."""


@dataclass(frozen=True)
class EvalQuestion:
    id: str
    kind: str
    question: str
    gold: tuple[str, ...] = ()
    history: tuple[tuple[str, str], ...] = ()
    refuse: bool = False
    not_stated: bool = False
    open: bool = False


def load_questions(path: str | Path) -> list[EvalQuestion]:
    """Questions from a JSON-lines file. Raises EvalFileError naming the file and line."""
    out = []
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise EvalFileError(f"Could not read question file {path}: {exc.strerror or exc}") from exc
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
            out.append(EvalQuestion(
                id=str(raw.get("id", f"line{number}")), kind=str(raw.get("kind", "lookup")), question=raw["question"],
                gold=tuple(raw.get("gold", ())), history=tuple((str(q), str(a)) for q, a in raw.get("history", ())),
                refuse=bool(raw.get("refuse", False)), not_stated=bool(raw.get("not_stated", False)),
                open=bool(raw.get("open", False)),
            ))
        except (ValueError, KeyError, TypeError) as exc:
            raise EvalFileError(f"{path}:{number}: not a question record ({exc})") from exc
    return out


def source_of(key: str) -> str:
    """The file part of a paper key ``FILE#ORDINAL``."""
    return key.rpartition("#")[0]


def judged_sources(questions: Iterable[EvalQuestion]) -> frozenset[str]:
    """The files whose papers the question set labels: those its gold keys name."""
    return frozenset(source_of(key) for q in questions for key in q.gold)


@dataclass
class QuestionResult:
    question: EvalQuestion
    ranking: list[str]  # paper keys, cited first, then the rest of answer.papers
    cited: list[str]
    refused: bool = False
    answer_kind: str = ""
    seconds: float = 0.0
    unjudged: int = 0  # papers of unlabelled files dropped from an open question's ranking
    scored_refusal: bool = True  # False for an open refusal question asked of a store with unlabelled papers

    def recall(self, k: int) -> float | None:
        gold = set(self.question.gold)
        return len(gold & set(self.ranking[:k])) / len(gold) if gold else None

    def all_gold(self, k: int) -> bool | None:
        gold = set(self.question.gold)
        return gold <= set(self.ranking[:k]) if gold else None


@dataclass
class EvalReport:
    results: list[QuestionResult] = field(default_factory=list)
    baseline: bool = False

    def metrics(self, results: list[QuestionResult] | None = None) -> dict[str, float | int | None]:
        """recall@k, all-gold@5, citation precision, cited recall, refusal accuracy, false refusals, not-stated
        accuracy."""
        rs = self.results if results is None else results
        with_gold = [r for r in rs if r.question.gold]
        multi = [r for r in with_gold if len(r.question.gold) > 1]
        out: dict[str, float | int | None] = {"questions": len(rs)}
        for k in RECALL_AT:
            out[f"recall@{k}"] = _mean(r.recall(k) for r in with_gold)
        out[f"all-gold@{ALL_GOLD_AT}"] = _mean(float(bool(r.all_gold(ALL_GOLD_AT))) for r in multi)
        if self.baseline:
            return out
        answered = [r for r in rs if not r.refused and not r.question.refuse and r.scored_refusal]
        cited = sum(len(r.cited) for r in answered)
        out["citation precision"] = (
            sum(len(set(r.cited) & set(r.question.gold)) for r in answered) / cited if cited else None
        )
        # what a reader sees: the share of the gold papers the answer itself cites (recall@k also counts the papers
        # retrieved behind it), a refusal citing none
        out["cited recall"] = _mean(len(set(r.cited) & set(r.question.gold)) / len(r.question.gold)
                                    for r in with_gold if r.scored_refusal)
        offtopic = [r for r in rs if r.question.refuse and r.scored_refusal]
        ontopic = [r for r in rs if not r.question.refuse]
        # an off-topic question is declined by a refusal or by a hedge (the closest paper, said to be only that)
        out["refusal accuracy"] = _mean(float(r.refused or "hedged" in r.answer_kind.split()) for r in offtopic)
        out["false refusals"] = _mean(float(r.refused) for r in ontopic)
        out["hedged (off-topic)"] = _mean(float("hedged" in r.answer_kind.split()) for r in offtopic)
        out["hedged (on-topic)"] = _mean(float("hedged" in r.answer_kind.split()) for r in ontopic)
        stated = [r for r in ontopic if r.question.not_stated]
        out["not-stated accuracy"] = _mean(float(r.answer_kind.startswith("not_stated")) for r in stated)
        out["false not-stated"] = _mean(float(r.answer_kind.startswith("not_stated")) for r in ontopic
                                       if not r.question.not_stated)
        out["seconds/question"] = _mean(r.seconds for r in rs)
        return out

    def by_kind(self) -> dict[str, dict[str, float | int | None]]:
        kinds = dict.fromkeys(r.question.kind for r in self.results)
        return {kind: self.metrics([r for r in self.results if r.question.kind == kind]) for kind in kinds}

    def failures(self) -> list[QuestionResult]:
        """Questions with a gold paper missing from the top 5, a wrong refusal, or a non-gold citation."""
        bad = []
        for r in self.results:
            missed = r.question.gold and (r.recall(ALL_GOLD_AT) or 0) < 1
            wrong_refusal = r.scored_refusal and r.refused != r.question.refuse
            stray = not self.baseline and not r.refused and r.scored_refusal and set(r.cited) - set(r.question.gold)
            if missed or (not self.baseline and wrong_refusal) or stray:
                bad.append(r)
        return bad

    def format(self, title: str = "") -> str:
        """A plain-text report: overall metrics, then one line per kind."""
        lines = [title] if title else []
        lines += [f"  {name:<22} {_fmt(value)}" for name, value in self.metrics().items()]
        condensed = [r for r in self.results if r.unjudged]
        unscored = [r for r in self.results if not r.scored_refusal]
        if condensed or unscored:
            lines.append(f"  ({len(condensed)} open questions scored on condensed lists, {sum(r.unjudged for r in condensed)} "
                         f"unlabelled papers dropped; {len(unscored)} open refusal questions unscored: the store "
                         "holds unlabelled papers that may answer them)")
        columns = ["questions", "recall@1", "recall@5", "recall@10", f"all-gold@{ALL_GOLD_AT}"]
        if not self.baseline:
            columns += ["citation precision", "cited recall", "refusal accuracy", "false refusals", "not-stated accuracy"]
        short = {"questions": "n", "citation precision": "cit.prec", "cited recall": "cit.rec", "refusal accuracy": "refusal",
                 "false refusals": "false-ref", "not-stated accuracy": "not-stated", f"all-gold@{ALL_GOLD_AT}": "all-gold@5"}
        lines.append("")
        lines.append(f"  {'kind':<12}" + "".join(f"{short.get(c, c):>11}" for c in columns))
        for kind, metrics in self.by_kind().items():
            lines.append(f"  {kind:<12}" + "".join(f"{_fmt(metrics.get(c)):>11}" for c in columns))
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {
            "baseline": self.baseline, "metrics": self.metrics(), "by_kind": self.by_kind(),
            "results": [{"id": r.question.id, "kind": r.question.kind, "gold": list(r.question.gold),
                         "ranking": r.ranking[:10], "cited": r.cited, "refused": r.refused,
                         "answer_kind": r.answer_kind, "seconds": round(r.seconds, 3), "unjudged": r.unjudged,
                         "scored_refusal": r.scored_refusal} for r in self.results],
        }


def _mean(values: Iterable[float | None]) -> float | None:
    vals = [v for v in values if v is not None]
    return sum(vals) / len(vals) if vals else None


def _fmt(value: float | int | None) -> str:
    if value is None:
        return "-"
    return str(value) if isinstance(value, int) else f"{value:.3f}"


ProgressFn = Callable[[int, int, EvalQuestion], None]


def _result(q: EvalQuestion, ranking: list[str], cited: list[str], judged: frozenset[str], store_unjudged: bool,
            **answer) -> QuestionResult:
    """A scored result; an open question's lists condensed to judged papers."""
    if not q.open:
        return QuestionResult(q, ranking, cited, **answer)
    kept = [key for key in ranking if source_of(key) in judged]
    return QuestionResult(q, kept, [key for key in cited if source_of(key) in judged], unjudged=len(ranking) - len(kept),
                          scored_refusal=not (q.refuse and store_unjudged), **answer)


def _store_has_unjudged(chat, judged: frozenset[str]) -> bool:
    return any(source_of(p.key) not in judged for p in chat.papers())


def _score_each(chat, questions: list[EvalQuestion], ask: Callable[[EvalQuestion], tuple[list[str], list[str], bool, str]],
                progress: ProgressFn | None, baseline: bool = False) -> EvalReport:
    """Time ``ask(question) -> (ranking, cited, refused, answer kind)`` on every question and score it."""
    report = EvalReport(baseline=baseline)
    judged = judged_sources(questions)
    store_unjudged = _store_has_unjudged(chat, judged)
    for i, q in enumerate(questions):
        if progress:
            progress(i, len(questions), q)
        start = time.perf_counter()
        ranking, cited, refused, kind = ask(q)
        report.results.append(_result(q, ranking, cited, judged, store_unjudged, refused=refused, answer_kind=kind,
                                      seconds=time.perf_counter() - start))
    return report


def evaluate(chat, questions: list[EvalQuestion], progress: ProgressFn | None = None) -> EvalReport:
    """Ask every question (with its history) and score the answers."""
    def ask(q: EvalQuestion) -> tuple[list[str], list[str], bool, str]:
        answer = chat.ask(q.question, history=list(q.history))
        cited = list(dict.fromkeys(c.paper.key for c in answer.citations))
        kind = f"{answer.kind} hedged" if answer.hedged else answer.kind  # hedged: the closest paper, said to be so
        return list(dict.fromkeys(cited + [p.key for p in answer.papers])), cited, answer.refused, kind

    return _score_each(chat, questions, ask, progress)


def evaluate_baseline(chat, questions: list[EvalQuestion], k: int = 10,
                      progress: ProgressFn | None = None) -> EvalReport:
    """Stock LlamaIndex on the same store and embedder: VectorStoreIndex over the ChromaVectorStore, top-k sentences,
    papers ranked by their first retrieved sentence. It has no refusal, so only recall is scored."""
    from llama_index.core import VectorStoreIndex
    from llama_index.vector_stores.chroma import ChromaVectorStore

    index = VectorStoreIndex.from_vector_store(ChromaVectorStore(chroma_collection=chat.store.chunks),
                                               embed_model=chat.embedder)
    retriever = index.as_retriever(similarity_top_k=k)

    def ask(q: EvalQuestion) -> tuple[list[str], list[str], bool, str]:
        nodes = retriever.retrieve(q.question)
        keys = [f"{n.node.metadata.get('source')}#{n.node.metadata.get('ordinal')}" for n in nodes]
        return list(dict.fromkeys(keys)), [], False, ""

    return _score_each(chat, questions, ask, progress, baseline=True)
