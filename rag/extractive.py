"""The offline answerer: picks the abstract sentences that answer the question, cites each; lists, refusals,
and "the abstract does not state it"."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from rag.acronyms import field_acronyms
from rag.retrieve import PaperHit
from rag.terms import content_words, snowball_stem
from rag.types import Answer, Citation
from store.acronyms import defined_acronyms
from store.paper import Paper

# Weight of question-word overlap next to embedding similarity when ranking sentences.
LEXICAL_WEIGHT = 0.25
# Words match on this many leading letters when counting question words in a sentence.
PREFIX_LETTERS = 6
# A paper joins the answer when its relevance is within this margin of the best one.
SECOND_PAPER_MARGIN = 0.08
# A question asking how much ("memory savings", "by how much", "speedup") is best answered by a sentence giving a
# number: such sentences gain AMOUNT_BONUS when the answer's sentences are picked (0.1 was too little once sentence
# vectors spelled out acronyms: "TorchTitan with FSDP and PP ... peak memory" then edged out "1.87× in memory").
_AMOUNT_ASK = re.compile(r"\b(?:how (?:much|many|fast|large|big|long|quickly)|by how|savings?|speed-?ups?|faster|slower"
                         r"|reduc\w+|improve\w*|gains?|accuracy|percent\w*|longest|largest|biggest|highest|lowest"
                         r"|smallest|fastest|maximum|minimum|power|watts?|latency|throughput)\b", re.I)
AMOUNT_BONUS = 0.15
# A number in a text.
_QUANTITY = re.compile(r"(?<![A-Za-z\-])\d+(?:[.,]\d+)*(?![A-Za-z])")
# The thing a question asks for by name ("Which training losses does it use?", "What runtime bound did they prove?"):
# when few of the abstract's sentences name it, those gain HEAD_BONUS as the answer's sentences are picked (a word
# most sentences use, "models" or "VLMs", singles out none).
_AUXILIARY = r"(?:do|does|did|is|are|was|were|has|have|had|can|could|will|would)\b"
_ASKED_HEAD = re.compile(rf"(?:^|[.?!,;:\u2013\u2014-]\s*)\W*(?:which|what)\s+"
                         rf"(?:kinds?\s+of\s+|types?\s+of\s+|sorts?\s+of\s+)?(?:(?!{_AUXILIARY})[\w-]+\s+){{0,2}}?"
                         rf"(?!{_AUXILIARY})(?P<head>[a-z][\w-]*)\s+{_AUXILIARY}", re.I)
HEAD_BONUS = 0.1
# Asked-for things too general to single out a sentence ("Which models did they test?"; an acronym, "VLMs", likewise).
_GENERIC_HEADS = frozenset("model models method methods approach approaches paper papers work one ones thing things"
                           .split())
# A refusal names the papers whose best sentence is at least this similar to the question as the closest ones: "KV
# cache compression for speech models" is near PatchKV (0.57); "robot grasping with tactile sensors" is near none of
# the seeds (0.29 at best), and naming a physics benchmark there would only mislead.
NEAR_RELEVANCE = 0.35


# Sentences that state nothing of the paper's content: links, "code and data will be released".
_RELEASE = re.compile(r"\bwill be (?:made )?(?:publicly |freely )?(?:available|released|open-sourced)\b"
                      r"|\breleased? upon (?:acceptance|publication)\b", re.I)
_BOILERPLATE = re.compile(r"https?://|\bcode (?:and [\w-]+ )?(?:is|are|will be) (?:publicly )?(?:available|released)", re.I)


def states_nothing(sentence: str) -> bool:
    """A link or release note ("Source code and models will be released upon acceptance.")."""
    return bool(_BOILERPLATE.search(sentence) or _RELEASE.search(sentence))


def _prefix(word: str) -> str:
    """A crude stem: "clusters", "cluster" and "evaluations", "evaluate" share their first letters."""
    return word[:PREFIX_LETTERS] if len(word) > PREFIX_LETTERS else word


def _stem_prefix(word: str) -> str:
    """A finer match key for picking quotes: the first letters of the word's stem, so "losses" meets "loss" and
    "trained" meets "training" (relevance cut-offs were calibrated on ``_prefix``, so papers are scored on that)."""
    return snowball_stem(word)[:PREFIX_LETTERS]


@dataclass
class ScoredSentence:
    index: int
    text: str
    score: float


def rank_sentences(question_vec: np.ndarray, question: str, sentences: list[tuple[str, object]],
                   ignore: set[str] = frozenset(), answering: bool = False) -> list[ScoredSentence]:
    """Sentences of one paper, best answer to the question first. ``answering``: picking what an answer quotes, not
    scoring the paper; a sentence with a number answers a how-much question best, and an acronym the abstract
    defined stands for its long form ("learning in PC is more efficient than BP" is about predictive coding)."""
    key = _stem_prefix if answering else _prefix
    q_words = {key(w) for w in content_words(question) - ignore}
    # how much, or a claim of an amount to check ("Is it true that it has about 15,000 problems?")
    wants_amount = answering and (_AMOUNT_ASK.search(question) or _QUANTITY.search(question)) is not None
    heads = {key(m.group("head").lower()) for m in _ASKED_HEAD.finditer(question) if answering
             and not re.search(r"[A-Z]{2}", m.group("head")) and m.group("head").lower() not in _GENERIC_HEADS}
    heads -= {key(w) for w in ignore}
    # the abstract's own definitions first, then the field's ("NPUs": neural processing units)
    abstract = " ".join(t for t, _ in sentences) if answering else ""
    defined = {**{a: forms[0] for a, forms in field_acronyms().items() if a in abstract},
               **defined_acronyms(abstract)} if answering else {}
    acronyms = {re.compile(rf"\b{re.escape(a)}s?\b"): content_words(long) for a, long in defined.items()}
    own_words = [content_words(text) for text, _ in sentences]
    naming_head = [bool(heads & {key(w) for w in words}) for words in own_words]
    if sum(naming_head) > max(1, len(sentences) // 3):
        naming_head = [False] * len(sentences)
    scored = []
    for i, (text, vector) in enumerate(sentences):
        cosine = float(np.dot(question_vec, np.asarray(vector, dtype=np.float32)))
        words = own_words[i].union(*(long for a, long in acronyms.items() if a.search(text)))
        if answering:  # "training-free" says "training" too (a stem of the whole word would not)
            words |= {part for w in words if "-" in w for part in w.split("-") if len(part) > 1}
        overlap = len(q_words & {key(w) for w in words}) / len(q_words) if q_words else 0.0
        amount = AMOUNT_BONUS if wants_amount and _QUANTITY.search(text) else 0.0
        scored.append(ScoredSentence(i, text, cosine + LEXICAL_WEIGHT * overlap + amount + HEAD_BONUS * naming_head[i]))
    return sorted(scored, key=lambda s: s.score, reverse=True)


class CitationBuilder:
    """Numbers papers in order of first citation and keeps one Citation per number."""

    def __init__(self) -> None:
        self.citations: list[Citation] = []
        self._numbers: dict[str, int] = {}

    def cite(self, paper: Paper, quote: str) -> int:
        if paper.paper_id not in self._numbers:
            self._numbers[paper.paper_id] = len(self._numbers) + 1
            self.citations.append(Citation(self._numbers[paper.paper_id], paper, quote))
        return self._numbers[paper.paper_id]


REFUSAL_LEAD = "The loaded papers do not cover this question."


def refusal(hits: list[PaperHit], reason: str = "", closest: list[Paper] | None = None) -> Answer:
    """The answer when no loaded paper covers the question (``reason``: how we know, one sentence), naming the
    ``closest`` papers, by default those near it (best sentence at NEAR_RELEVANCE or more)."""
    if closest is None:
        closest = [h.paper for h in hits if h.relevance >= NEAR_RELEVANCE]
    closest = closest[:3]
    text = REFUSAL_LEAD + (f" {reason}" if reason else "")
    if closest:
        text += " The closest papers are: " + "; ".join(f"{p.name} ({p.title})" if p.title != p.name else p.name for p in closest) + "."
    return Answer(text=text, papers=[h.paper for h in hits], refused=True, kind="refusal")


def collection_answer(papers: list[Paper], years: str = "", shown: int = 8, names: int = 0) -> Answer:
    """How many papers are loaded (``years``: of those years, in words), by venue and year (most first), and the
    first ``names`` of them by name."""
    groups = Counter(record_detail(p, "venue_year") or "no venue or year" for p in papers)
    parts = [f"{label} ({count:,})" for label, count in groups.most_common(shown)]
    if len(groups) > shown:
        parts.append(f"{len(groups) - shown} more groups")
    text = (f"{len(papers):,} of the loaded papers are from {years}" if years
            else f"{len(papers):,} {'paper is' if len(papers) == 1 else 'papers are'} loaded")
    text += ": " + ", ".join(parts) + "." if papers else "."
    if names and papers:
        more = f"; and {len(papers) - names:,} more" if len(papers) > names else ""
        text += "\n\nThey include " + "; ".join(p.name for p in papers[:names]) + more + "."
    return Answer(text=text, papers=papers[:names], kind="which")


def select_papers(hits: list[PaperHit], min_relevance: float, limit: int = 3) -> list[PaperHit]:
    """The papers an answer rests on: those named, else the best and any close behind it."""
    named = [h for h in hits if h.named]
    if named:
        return named[:limit]
    relevant = [h for h in hits if h.relevance >= min_relevance]
    if not relevant:
        return []
    top = relevant[0].relevance
    return [h for h in relevant if h.relevance >= top - SECOND_PAPER_MARGIN][:limit]


def extractive_answer(
    question: str, question_vecs: Mapping[str, np.ndarray], chosen: list[PaperHit],
    sentences: dict[str, list[tuple[str, object]]], all_hits: list[PaperHit], quote_first: Sequence[str] = (),
) -> Answer:
    """Two best sentences of the main paper, best first (after any of its ``quote_first``: the sentences giving
    asked-for details or parts), one of each other chosen paper, each cited; ``question_vecs``: the question's vector
    as asked of each chosen paper."""
    cites = CitationBuilder()
    paragraphs = []
    for rank, hit in enumerate(chosen):
        paper = hit.paper
        ranked = rank_sentences(question_vecs[paper.paper_id], question, sentences.get(paper.paper_id, []),
                                ignore=content_words(paper.name), answering=True)
        if rank == 0 and quote_first:
            ranked = [s for s in ranked if s.text in quote_first] + [s for s in ranked if s.text not in quote_first]
        ranked = [s for s in ranked if s.text in quote_first or not states_nothing(s.text)] or ranked
        order = list(quote_first)  # asked-for parts in the order asked (a paper's approach, then its results)
        picked = sorted(ranked[: max(2, len(order) + 1) if rank == 0 else 1],
                        key=lambda s: order.index(s.text) if s.text in order else len(order))
        if not picked:
            continue
        n = cites.cite(paper, ranked[0].text)
        texts = with_antecedents([s.text for s in picked], [text for text, _ in sentences.get(paper.paper_id, [])])
        body = " ".join(f"{text} [{n}]" for text in texts)
        paragraphs.append(f"**{paper.name}**: {body}")
    return Answer(text="\n\n".join(paragraphs), citations=cites.citations, papers=[h.paper for h in all_hits])


# A sentence opening on what the one before it said ("This is asymptotically faster than ...", "These results ...");
# not "It" or "They": after the paper's name in bold, the paper is what they stand for.
_BACK_REFERENCE = re.compile(r"^(?:This|These|Those|Such)\b")


def with_antecedents(quoted: list[str], abstract: list[str]) -> list[str]:
    """The quoted sentences, each opening on what the sentence before it said preceded by that sentence (once), so
    that a quoted "This" has its antecedent."""
    out: list[str] = []
    for text in quoted:
        at = abstract.index(text) if text in abstract else -1
        if at > 0 and _BACK_REFERENCE.match(text) and abstract[at - 1] not in out and abstract[at - 1] not in quoted:
            out.append(abstract[at - 1])
        out.append(text)
    return out


# A clause this short says no more than "We propose Layout-as-Policy (LaP)": it stays with the clause after it.
MIN_CLAUSE_WORDS = 6


def shorten(sentence: str, cue: re.Pattern | None = None, max_words: int = 28) -> str:
    """The sentence itself when short, else its clause with the most cue words, cut at a word boundary."""
    if len(sentence.split()) <= max_words:
        return sentence
    pieces = re.split(r"(;\s+|,\s+(?:while|whereas|which|and thus|thereby)\s+|\s+[—–]\s+)", sentence)
    while len(pieces) > 2 and len(pieces[0].split()) < MIN_CLAUSE_WORDS:
        pieces[:3] = ["".join(pieces[:3])]  # "We propose LaP, which casts ...": one clause
    clauses = [c.strip() for c in pieces[::2] if c.strip()]
    best = clauses[0]
    if cue is not None and len(clauses) > 1:  # a later clause only when it says more of what is asked
        best = max(clauses, key=lambda c: len(cue.findall(c)) + (1 if c is clauses[0] else 0))
    words = best.split()
    return best if len(words) <= max_words else " ".join(words[:max_words]).rstrip(",;:") + " …"


def states_amount(text: str) -> bool:
    """The text gives a number ("up to 170k tokens", "1.87×"), not only a name with digits in it ("GSM8K")."""
    return _QUANTITY.search(text) is not None


def record_detail(paper: Paper, record: str) -> str | None:
    """What the paper's record (not its abstract) gives for a detail: its authors, or its venue and year."""
    if record == "authors":
        return ", ".join(paper.authors) or None
    return " ".join(str(x) for x in (paper.venue, paper.year) if x) or None
