"""The eval: run a question file through PaperChat (or a stock LlamaIndex baseline) and score the answers.

A question file is JSON lines: ``{"id", "kind", "question", "gold": ["FILE#ORDINAL", ...], "history": [[q, a], ...],
"refuse": bool, "not_stated": bool}``; gold papers are named by ``Paper.key``.
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
            ))
        except (ValueError, KeyError, TypeError) as exc:
            raise EvalFileError(f"{path}:{number}: not a question record ({exc})") from exc
    return out


@dataclass
class QuestionResult:
    question: EvalQuestion
    ranking: list[str]  # paper keys, cited first, then the rest of answer.papers
    cited: list[str]
    refused: bool = False
    answer_kind: str = ""
    seconds: float = 0.0

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
        """recall@k, all-gold@5, citation precision, refusal accuracy, false refusals, not-stated accuracy."""
        rs = self.results if results is None else results
        with_gold = [r for r in rs if r.question.gold]
        multi = [r for r in with_gold if len(r.question.gold) > 1]
        out: dict[str, float | int | None] = {"questions": len(rs)}
        for k in RECALL_AT:
            out[f"recall@{k}"] = _mean(r.recall(k) for r in with_gold)
        out[f"all-gold@{ALL_GOLD_AT}"] = _mean(float(bool(r.all_gold(ALL_GOLD_AT))) for r in multi)
        if self.baseline:
            return out
        answered = [r for r in rs if not r.refused and not r.question.refuse]
        cited = sum(len(r.cited) for r in answered)
        out["citation precision"] = (
            sum(len(set(r.cited) & set(r.question.gold)) for r in answered) / cited if cited else None
        )
        offtopic = [r for r in rs if r.question.refuse]
        ontopic = [r for r in rs if not r.question.refuse]
        out["refusal accuracy"] = _mean(float(r.refused) for r in offtopic)
        out["false refusals"] = _mean(float(r.refused) for r in ontopic)
        stated = [r for r in ontopic if r.question.not_stated]
        out["not-stated accuracy"] = _mean(float(r.answer_kind == "not_stated") for r in stated)
        out["false not-stated"] = _mean(float(r.answer_kind == "not_stated") for r in ontopic if not r.question.not_stated)
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
            wrong_refusal = r.refused != r.question.refuse
            stray = not self.baseline and not r.refused and set(r.cited) - set(r.question.gold)
            if missed or (not self.baseline and wrong_refusal) or stray:
                bad.append(r)
        return bad

    def format(self, title: str = "") -> str:
        """A plain-text report: overall metrics, then one line per kind."""
        lines = [title] if title else []
        lines += [f"  {name:<22} {_fmt(value)}" for name, value in self.metrics().items()]
        columns = ["questions", "recall@1", "recall@5", "recall@10", f"all-gold@{ALL_GOLD_AT}"]
        if not self.baseline:
            columns += ["citation precision", "refusal accuracy", "false refusals", "not-stated accuracy"]
        short = {"questions": "n", "citation precision": "cit.prec", "refusal accuracy": "refusal",
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
                         "answer_kind": r.answer_kind, "seconds": round(r.seconds, 3)} for r in self.results],
        }


def _mean(values: Iterable[float | None]) -> float | None:
    vals = [v for v in values if v is not None]
    return sum(vals) / len(vals) if vals else None


def _fmt(value: float | int | None) -> str:
    if value is None:
        return "-"
    return str(value) if isinstance(value, int) else f"{value:.3f}"


ProgressFn = Callable[[int, int, EvalQuestion], None]


def evaluate(chat, questions: list[EvalQuestion], progress: ProgressFn | None = None) -> EvalReport:
    """Ask every question (with its history) and score the answers."""
    report = EvalReport()
    for i, q in enumerate(questions):
        if progress:
            progress(i, len(questions), q)
        start = time.perf_counter()
        answer = chat.ask(q.question, history=list(q.history))
        seconds = time.perf_counter() - start
        cited = list(dict.fromkeys(c.paper.key for c in answer.citations))
        ranking = list(dict.fromkeys(cited + [p.key for p in answer.papers]))
        report.results.append(QuestionResult(q, ranking, cited, answer.refused, answer.kind, seconds))
    return report


def evaluate_baseline(chat, questions: list[EvalQuestion], k: int = 10,
                      progress: ProgressFn | None = None) -> EvalReport:
    """Stock LlamaIndex on the same store and embedder: VectorStoreIndex over the ChromaVectorStore, top-k sentences,
    papers ranked by their first retrieved sentence. It has no refusal, so only recall is scored."""
    from llama_index.core import VectorStoreIndex
    from llama_index.vector_stores.chroma import ChromaVectorStore

    index = VectorStoreIndex.from_vector_store(ChromaVectorStore(chroma_collection=chat.store.chunks),
                                               embed_model=chat.embedder)
    retriever = index.as_retriever(similarity_top_k=k)
    report = EvalReport(baseline=True)
    for i, q in enumerate(questions):
        if progress:
            progress(i, len(questions), q)
        start = time.perf_counter()
        nodes = retriever.retrieve(q.question)
        keys = [f"{n.node.metadata.get('source')}#{n.node.metadata.get('ordinal')}" for n in nodes]
        ranking = list(dict.fromkeys(keys))
        report.results.append(QuestionResult(q, ranking, [], seconds=time.perf_counter() - start))
    return report
