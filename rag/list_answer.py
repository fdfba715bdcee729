"""The offline list: each candidate paper scored for a 'which papers' question, the cut-off that keeps the listed ones, and the cited list."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from rag.extractive import CitationBuilder, rank_sentences, shorten, states_nothing
from rag.retrieve import PaperHit
from rag.terms import content_words
from rag.types import Answer
from store.paper import Paper

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
