"""The offline answerer: picks the abstract sentences that answer the question, cites each; lists, refusals,
and "the abstract does not state it"."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from rag.acronyms import field_acronyms, units_named
from rag.details import DetailAsk
from rag.retrieve import PaperHit
from rag.terms import content_words, snowball_stem
from rag.types import Answer, Citation
from store.naming import defined_acronyms, is_common_acronym
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
        body = " ".join(f"{s.text} [{n}]" for s in picked)
        paragraphs.append(f"**{paper.name}**: {body}")
    return Answer(text="\n\n".join(paragraphs), citations=cites.citations, papers=[h.paper for h in all_hits])


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


# ---- details an abstract may not give ----
_QUANTITY = re.compile(r"(?<![A-Za-z\-])\d+(?:[.,]\d+)*(?![A-Za-z])")
# (not a method's pattern: "an LLM-as-a-Judge protocol")
_PROPER = re.compile(r"\b(?!\w+-as-an?-)(?:[A-Za-z]*[A-Z][A-Za-z]*\d[\w.\-]*|[A-Z][a-z]+[A-Z][\w\-]*|[A-Z]{2,}[\w\-]*"
                     r"|[a-z]+[A-Z][\w\-]*|(?<=\bon )[A-Z][a-z]{2,}\w*|(?<=\band )[A-Z][a-z]{2,}\w*)")


def states_amount(text: str) -> bool:
    """The text gives a number ("up to 170k tokens", "1.87×"), not only a name with digits in it ("GSM8K")."""
    return _QUANTITY.search(text) is not None


def detail_support(detail: DetailAsk, paper: Paper, sentences: list[tuple[str, object]]) -> str | None:
    """The abstract sentence that gives the asked-for detail, or None when the abstract does not state it.

    A sentence supports it when it looks like the answer (a GPU model, an optimizer, a URL), or when it has one
    of the detail's terms and, for a quantity, a number; for a named thing (backbone, dataset), a proper name
    other than the paper's own ("on GoPro and HIDE" names datasets without the word).
    """
    if detail.record:
        return record_detail(paper, detail.record)
    if detail.shape:
        return next((text for text, _ in sentences if re.search(detail.shape, text)), None)
    own = {w.lower() for w in re.findall(r"[\w\-]+", paper.name)}
    supporting = []
    for text, _ in sentences:
        names = [m.group() for m in _PROPER.finditer(text)
                 if m.group().lower() not in own and not is_common_acronym(m.group().rstrip("s"))]
        low = " ".join([text, *units_named(text)]).lower()  # "99 FPS" gives a number of frames
        if detail.wants_number and any(term in _COUNTED_AS and _COUNTED_AS[term].search(text) for term in detail.terms):
            return text
        has_term = any(_has_term(low, term) for term in detail.terms)
        if not has_term and not (detail.wants_name and _names_evaluation(text, names)):
            continue
        if detail.wants_number and not _QUANTITY.search(text):
            continue
        if detail.wants_name and not names:
            continue
        supporting.append(text)
    # a named thing is best given where the paper reports its own evaluation, not where it sets the scene ("It is now
    # common practice to use PyTorch's FSDP to train LLMs" names no model PipeFSDP was evaluated on)
    if detail.wants_name:
        return next((text for text in supporting if _EVALUATION.search(text)), supporting[0] if supporting else None)
    return supporting[0] if supporting else None


def record_detail(paper: Paper, record: str) -> str | None:
    """What the paper's record (not its abstract) gives for a detail: its authors, or its venue and year."""
    if record == "authors":
        return ", ".join(paper.authors) or None
    return " ".join(str(x) for x in (paper.venue, paper.year) if x) or None


_EVALUATION = re.compile(r"\b(?:evaluat\w*|experiments?|benchmark(?:s|ed|ing)?|tested|outperform\w*|results)\b", re.I)


def _names_evaluation(text: str, names: list[str]) -> bool:
    """'... on GoPro and HIDE', '... across Qwen2.5-VL and InternVL': things evaluated on, by name."""
    return any(re.search(rf"\b(?:on|across|over|using|with)\s+(?:the\s+)?{re.escape(n)}", text) for n in names)


# Counts written without the counted word or without a numeral: "16 representative MLLMs" counts models (an acronym
# ending in M(s) after a number: LLM, VLM, MLLM, SSM); "bilingual" counts languages.
_COUNTED_AS = {
    "model": re.compile(r"\b\d[\d,.]*\s+(?:\S+\s+){0,3}[A-Z]{1,4}Ms?\b"),
    "language": re.compile(r"\b(?:mono|bi|tri)-?lingual\b", re.I),
    # "how many points does it gain": a gain in percentage points, written as a percentage
    "point": re.compile(r"\b(?:by|of|gains?|improves?|\+)\s*\d[\d.]*\s*(?:%|percentage points|points|pp)", re.I),
}


def _has_term(low_text: str, term: str) -> bool:
    if len(term) <= 3:  # "lr", "gpu", "run": whole words only
        return re.search(rf"\b{re.escape(term)}s?\b", low_text) is not None
    return term in low_text


_PRIOR_WORK = re.compile(r"^\W*(?:however,?\s+)?(?:existing|prior|previous|current|conventional|traditional)\b"
                         r"|\bexisting (?:\w+\s+)?(?:approaches|methods|systems|works?|benchmarks|models)\b", re.I)


def detail_answer(
    question: str, question_vec: np.ndarray, hit: PaperHit, sentences: list[tuple[str, object]],
    missing: list[DetailAsk], stated: list[tuple[DetailAsk, str]], all_hits: list[PaperHit],
) -> Answer:
    """The asked-for details of one paper: plainly which its abstract (or record) does not state, then what it
    does say of each, cited."""
    paper = hit.paper
    ranked = rank_sentences(question_vec, question, sentences, ignore=content_words(paper.name), answering=True)
    # The closest it comes: the best sentence touching what is missing ("18 ... MLLMs" for the models evaluated),
    # on the paper's own work, not prior work's ("Existing approaches ... fail to generalize" for its limitations).
    own_work = [s for s in ranked if not _PRIOR_WORK.search(s.text)] or ranked
    # the one touching most of it first ("frozen ... encoder", not only "videos")
    touched = {id(s): len({t for d in missing for t in d.terms if _has_term(s.text.lower(), t)}) for s in own_work}
    touching = sorted((s for s in own_work if touched[id(s)]), key=lambda s: -touched[id(s)])
    saying = [s for s in own_work if not states_nothing(s.text)] or own_work  # a release note only if it touches
    closest = (touching or saying)[0].text if ranked else paper.text
    cites = CitationBuilder()
    n = cites.cite(paper, next((s for d, s in stated if not d.record), closest))
    parts = []
    if missing:
        phrases = [d.phrase for d in missing]
        what = phrases[0] if len(phrases) == 1 else ", ".join(phrases[:-1]) + " or " + phrases[-1]
        source = "abstract" if not all(d.record for d in missing) else "abstract or loaded record"
        parts.append(f"The {source} of **{paper.name}** does not state the {what} [{n}]; it gives no such detail, "
                     "so none is reported here.")
    for detail, said in stated:
        if detail.record:
            parts.append(f"The record of **{paper.name}** gives the {detail.phrase}: {said} [{n}].")
        else:
            parts.append(f"On the {detail.phrase}, **{paper.name}** says: {said} [{n}]")
    if not stated and not all(d.record for d in missing):
        parts.append(f"The closest it comes: {closest} [{n}]")
    return Answer(text="\n\n".join(parts), citations=cites.citations,
                  papers=[hit.paper] + [h.paper for h in all_hits if h.paper.paper_id != paper.paper_id],
                  kind="not_stated" if missing else "lookup")


# ---- "which papers ..." ----
# A paper is listed when its score (best sentence + WHICH_COVERAGE_WEIGHT * topic coverage + WHICH_ANCHOR_WEIGHT *
# share of the question's rare words it uses) reaches WHICH_MIN_RELEVANCE and it comes before the largest drop in
# score (calibrated on bench/questions.jsonl with the seeds alone and with 768, 1,792 and 8,434 NeurIPS distractors).
WHICH_MIN_RELEVANCE = 0.7
# A list that finds no paper names the candidates scoring at least this as the closest: "papers that work with
# biological or medical data" is near PathView-Bench (0.52), "papers estimating the calories of a meal" near none (0.38).
WHICH_NEAR = 0.5
# A paper of a broad field a list names ("biomedical data": one writing "pathology") is listed when it scores this
# much on the list's topic: PerturbReason scores 0.37-0.49 on "biomedical data"; at 0.15 PROVE, writing "self-play",
# was listed for "reinforcement learning to play Atari games".
WHICH_BROAD_MIN = 0.3
WHICH_COVERAGE_WEIGHT = 0.3
WHICH_ANCHOR_WEIGHT = 0.3
WHICH_MAX_PAPERS = 12
# Once the best paper reaches the floor, papers up to WHICH_TAIL under it are listed when the natural break comes after
# them: "recovering 3D or 4D scene structure from monocular images or video" lists UniCon3R 0.89, LaP 0.76 and the 4D
# framework 0.70, then drops to 0.50 (seeds: two more lists complete, no paper wrongly listed; at 8.4k two more gold
# papers listed, one wrongly).
WHICH_TAIL = 0.05
# When every candidate is above the floor, the last one counts as dropping this far below it.
WHICH_FLOOR_GAP = 0.2
# The list is never cut between two papers scoring this much: a paper matching the question almost word for word
# makes the drop after it the largest, though the next paper is plainly on the topic too.
WHICH_SURE = 0.85


@dataclass
class ListedPaper:
    hit: PaperHit
    score: float
    sentence: str


def score_for_listing(queries: list[tuple[str, np.ndarray]], hits: list[PaperHit],
                      sentences: dict[str, list[tuple[str, object]]],
                      bonus: Callable[[Paper], float] | None = None) -> list[ListedPaper]:
    """Every candidate paper scored by its best sentence against any of the queries (the question, and its topic
    without "Which papers ..."), over all its sentences, plus ``bonus(paper)`` (topic coverage, rare terms)."""
    out = []
    for hit in hits:
        own = sentences.get(hit.paper.paper_id, [])
        own = [s for s in own if not states_nothing(s[0])] or own  # a release note is no reason to list a paper
        best = None
        for text, vec in queries:
            ranked = rank_sentences(vec, text, own, ignore=content_words(hit.paper.name))
            if ranked and (best is None or ranked[0].score > best.score):
                best = ranked[0]
        if best is not None:
            out.append(ListedPaper(hit, best.score + (bonus(hit.paper) if bonus else 0.0), best.text))
    return sorted(out, key=lambda x: x.score, reverse=True)


# A sentence in which a paper brings a benchmark or dataset of its own ("we introduce VI-Bench, a benchmark built from
# ...", "we present PhysElite, a large-scale bilingual multimodal benchmark", "we introduce UnifyBench++").
_INTRODUCES_RESOURCE = re.compile(
    r"\b(?:introduc|propos|present|construct|curat|releas|buil[dt]|develop|creat|contribut)\w*"
    r"\b[^.;]{0,120}?(?:\b(?:benchmark|dataset|corpus)s?\b|\b\w*Bench\w*)", re.I)


def resource_sentence(sentences: list[tuple[str, object]]) -> str | None:
    """The first of the paper's sentences bringing a benchmark or dataset of its own (not "experiments on various
    benchmarks"), if any."""
    return next((text for text, _ in sentences if _INTRODUCES_RESOURCE.search(text)), None)


def introduces_resource(sentences: list[tuple[str, object]]) -> bool:
    """One of the paper's sentences brings a benchmark or dataset of its own."""
    return resource_sentence(sentences) is not None


def listing_cutoff(scored: list[ListedPaper], min_score: float = WHICH_MIN_RELEVANCE,
                   limit: int = WHICH_MAX_PAPERS) -> list[ListedPaper]:
    """The papers that match well enough to list: when the best reaches an absolute floor, those above it (less
    WHICH_TAIL), cut at the largest drop in score (the natural break between the papers on the topic and the rest; the
    drop to the first paper under the floor counts too), but not before a paper scoring WHICH_SURE or more."""
    if not scored or scored[0].score < min_score:
        return []
    min_score -= WHICH_TAIL
    above = [x for x in scored if x.score >= min_score][:limit]
    after = scored[len(above)].score if len(scored) > len(above) else min_score - WHICH_FLOOR_GAP
    scores = [x.score for x in above] + [min(after, min_score)]
    drops = [scores[i] - scores[i + 1] for i in range(len(above))]
    cut = max((i for i in range(len(above)) if scores[i + 1] < WHICH_SURE), key=drops.__getitem__)
    return above[: cut + 1]


def listing_answer(listed: list[ListedPaper], scored: list[ListedPaper], limit: int = WHICH_MAX_PAPERS) -> Answer:
    """'Found N papers:' and one cited line per paper on why it matches; a list cut at ``limit`` says how many more
    candidates cleared the relevance floor."""
    cites = CitationBuilder()
    lines = []
    for i, item in enumerate(listed, 1):
        n = cites.cite(item.hit.paper, item.sentence)
        lines.append(f"{i}. **{item.hit.paper.name}**: {shorten(item.sentence, None, 40)} [{n}]")
    count = f"Found {len(listed)} paper{'s' if len(listed) != 1 else ''}:"
    above_floor = sum(x.score >= WHICH_MIN_RELEVANCE for x in scored)
    if len(listed) >= limit and above_floor > len(listed):
        count = (f"Found {above_floor} papers above the relevance cut-off; the {len(listed)} strongest "
                 "(ask a narrower question, or filter by year, for the rest):")
    listed_ids = {x.hit.paper.paper_id for x in listed}
    papers = [x.hit.paper for x in listed] + [x.hit.paper for x in scored if x.hit.paper.paper_id not in listed_ids]
    return Answer(text=count + "\n\n" + "\n".join(lines), citations=cites.citations, papers=papers, kind="which")
