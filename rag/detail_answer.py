"""The offline answer to a detail (a dose, the GPUs, a dataset): the sentence stating it, or a plain 'not stated' with the nearest sentence."""

from __future__ import annotations

import re

import numpy as np

from rag.acronyms import units_named
from rag.focus import SHARE_WORDS
from rag.extractive import (
    CitationBuilder,
    rank_sentences,
    record_detail,
    states_amount,
    states_nothing,
)
from rag.spelling import plain_spelling
from rag.retrieve import PaperHit
from rag.terms import content_words, singular_stem
from rag.types import Answer, DetailAsk
from store.paper import Paper
from store.tokens import is_common_acronym

# (not a method's pattern: "an LLM-as-a-Judge protocol")
_PROPER = re.compile(r"\b(?!\w+-as-an?-)(?:[A-Za-z]*[A-Z][A-Za-z]*\d[\w.\-]*|[A-Z][a-z]+[A-Z][\w\-]*|[A-Z]{2,}[\w\-]*"
                     r"|[a-z]+[A-Z][\w\-]*|(?<=\bon )[A-Z][a-z]{2,}\w*|(?<=\band )[A-Z][a-z]{2,}\w*)")


def detail_support(detail: DetailAsk, paper: Paper, sentences: list[tuple[str, object]]) -> str | None:
    """The abstract sentence that gives the asked-for detail, or None when the abstract does not state it.

    A sentence supports it when it looks like the answer (a GPU model, an optimizer, a URL), or when it has one
    of the detail's terms and, for a quantity, a number; for a named thing (backbone, dataset), a proper name
    other than the paper's own ("on GoPro and HIDE" names datasets without the word).
    """
    if detail.record:
        return record_detail(paper, detail.record)
    if detail.shape:
        return next((text for text, _ in sentences if re.search(detail.shape, text) and not (
            detail.shape_beside_term and not any(_has_term(text.lower(), term) for term in detail.terms))), None)
    own = {w.lower() for w in re.findall(r"[\w\-]+", paper.name)}
    supporting = []
    for text, _ in sentences:
        names = [m.group() for m in _PROPER.finditer(text)
                 if m.group().lower() not in own and not is_common_acronym(m.group().rstrip("s"))]
        # "99 FPS" gives a number of frames; "$H_0=76$" an H0, as typed
        low = " ".join([text, *units_named(text), plain_spelling(text)]).lower()
        if detail.wants_number and any(term in _COUNTED_AS and _COUNTED_AS[term].search(text) for term in detail.terms):
            return text
        has_term = (all if detail.all_terms else any)(_has_term(low, term) for term in detail.terms)
        if not has_term and not (detail.wants_name and _names_evaluation(text, names)):
            continue
        if detail.wants_number and not states_amount(text):
            continue
        if detail.companions and not any(_has_term(low, word) for word in detail.companions):
            continue  # "the case b=1" is not "the axion coupling b"
        if detail.number_beside_term and not any(_number_beside(low, term) for term in detail.terms):
            continue  # "the mass spectra of ... pentaquarks with strangeness S=0" gives no mass
        counted = {singular_stem(w.lower()) for w in detail.phrase.split()[2:] if len(w) > 2} | set(detail.terms)
        units = " ".join(units_named(text)).lower()  # "99 FPS" counts frames per second
        if detail.counted and not any(_counts(low, term) or term in units for term in counted):
            continue  # "NGC 628", "Type 2 Diabetes": a number, but no count of the asked things
        if detail.wants_name and not names:
            continue
        supporting.append(text)
    # a named thing is best given where the paper reports its own evaluation, not where it sets the scene ("It is now
    # common practice to use PyTorch's FSDP to train LLMs" names no model PipeFSDP was evaluated on)
    if detail.wants_name:
        return next((text for text in supporting if _EVALUATION.search(text)), supporting[0] if supporting else None)
    return supporting[0] if supporting else None


_EVALUATION = re.compile(r"\b(?:evaluat\w*|experiments?|benchmark(?:s|ed|ing)?|tested|outperform\w*|results)\b", re.I)


def _names_evaluation(text: str, names: list[str]) -> bool:
    """'... on GoPro and HIDE', '... across Qwen2.5-VL and InternVL': things evaluated on, by name."""
    return any(re.search(rf"\b(?:on|across|over|using|with)\s+(?:the\s+)?{re.escape(n)}", text) for n in names)


# Counts written without the counted word or without a numeral: "16 representative MLLMs" counts models (an acronym
# ending in M(s) after a number: LLM, VLM, MLLM, SSM); "bilingual" counts languages.
_COUNTED_AS = {
    "model": re.compile(r"\b\d[\d,.]*\s+(?:\S+\s+){0,6}?[A-Z]{1,4}Ms?\b"),
    "language": re.compile(r"\b(?:mono|bi|tri)-?lingual\b", re.I),
    # "how many points does it gain": a gain in percentage points, written as a percentage
    "point": re.compile(r"\b(?:by|of|gains?|improves?|\+)\s*\d[\d.]*\s*(?:%|percentage points|points|pp)", re.I),
    # "what fraction": a percentage
    **dict.fromkeys(SHARE_WORDS, re.compile(r"\d[\d.]*\s*(?:\\?%|percent\b|per\s+cent\b)", re.I)),
}


_COUNT = r"(?:\d[\d,.]*\s*[kKmM]?|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozens?|hundreds?|thousands?|millions?)"


# Words a count does not reach across: "35 total spontaneous episodes from patients" counts episodes, not patients.
_COUNT_BREAK = r"(?!(?:from|of|in|at|with|by|for|to|on|and|or|among|across|per|than|within)\b)"


def _counts(low_text: str, term: str) -> bool:
    """Whether the text counts the term: a number up to six words before it, none of them a preposition or a
    conjunction ("398 disc galaxies", "eight old GCs" aside), or just after it ("patients (n = 248)")."""
    return re.search(rf"\b{_COUNT}[\s-]+(?:{_COUNT_BREAK}[\w,-]+\s+){{0,6}}?{_spelled(term)}"
                     rf"|{_spelled(term)}\w*\s*[(:,]?\s*(?:n\s*=\s*|of\s+)?\d", low_text) is not None


def _number_beside(low_text: str, term: str) -> bool:
    """Whether a number stands within six words after the term or four before it, and is no part of a compound
    ("a 1-parameter family")."""
    number = r"(?<![a-z\-])\d[\d.,]*(?!-?[a-z])"
    word = rf"(?<![a-z]){_spelled(term)}{'s?' if len(term) <= 3 else '[a-z]*'}(?![a-z])"  # "b" is no "by"
    near = rf"{word}\W+(?:\S+\s+){{0,5}}?\S*?{number}|{number}\S*\s+(?:\S+\s+){{0,3}}?{word}"
    return re.search(near, low_text) is not None


def _has_term(low_text: str, term: str) -> bool:
    if len(term) <= 3:  # "lr", "gpu", "run": whole words only
        return re.search(rf"\b{re.escape(term)}s?\b", low_text) is not None
    return term in low_text or ("-" in term and re.search(_spelled(term), low_text) is not None)


def _spelled(term: str) -> str:
    """A pattern for the term as abstracts spell it, a hyphen or not: "mixing-length" is "mixing length"."""
    return re.escape(term).replace(r"\-", r"[-\s]?")


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
