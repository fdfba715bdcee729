"""Plan: what a question asks, before any paper is judged. A ``Planner`` turns a question and the conversation into
a ``QuestionPlan``: the standalone question, its kind, the papers it names or refers back to, and the years it asks
for. The offline planner rewrites follow-ups by rules; the LLM planner has the LLM condense them."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, cached_property

from rag.asked import asked_years
from rag.find import RESCORE_POOL
from rag.followup import (
    History,
    Resolution,
    condense_with_llm,
    papers_in_focus,
    resolve_followup,
)
from rag.intent import Intent, QuestionKind, classify, without_kind_typos
from rag.judge import ASPECT_WORDS, PaperJudge
from rag.retrieve import PaperFilters
from rag.terms import content_words, question_terms
from store.errors import LLMUnavailable
from store.paper import Paper

log = logging.getLogger(__name__)
# A follow-up this short is asked of the paper in focus ("ablation contributions?"), unless it asks for other papers
# or has a word that is neither that paper's nor one of ASPECT_WORDS: "video benchmarks?" or "what about speech
# recognition for low-resource languages?" after PatchKV is a new topic.
ELLIPTICAL_TERMS = 4
_OTHER_PAPERS_ASK = re.compile(r"\b(?:any|another|other|some)\s+(?:papers?|works?|stud(?:y|ies)|methods?)\b"
                               r"|\b(?:is|are)\s+there\b|\banything\s+(?:on|about|related|regarding|for)\b", re.I)


@dataclass
class QuestionPlan:
    """What one question asks: the standalone ``question`` (a follow-up rewritten), its ``intent`` (kind, papers
    named or described, details and aspects asked), the ids of the papers it is about (``pinned``), the paper the
    conversation is on when a short follow-up is read as about it (``focus``) or when the question alone finds no
    paper (``conversation_paper``), and the ``filters`` with the years it asks for. ``no_paper_in_years``: no loaded paper is from the years asked."""

    question: str
    intent: Intent
    pinned: list[str]
    filters: PaperFilters | None = None
    focus: Paper | None = None
    conversation_paper: Paper | None = None  # the one paper the last turns were on, when the question names none
    rewritten: bool = False
    no_paper_in_years: bool = False
    without_years: PaperFilters | None = None  # the filters before the question's years narrowed them
    years_asked: bool = False  # the question's years narrowed ``filters``

    @property
    def kind(self) -> QuestionKind:
        return self.intent.kind


class OfflinePlanner:
    """Plans by rules: follow-ups resolved against the papers of earlier turns (rag.followup), the kind read from the
    question's wording (rag.intent)."""

    def __init__(self, chat):
        self.chat = chat
        self.min_rel = chat.settings.retrieval.min_relevance

    @cached_property
    def judge(self) -> PaperJudge:
        return PaperJudge(self.chat)

    def plan(self, question: str, history: History = (), filters: PaperFilters | None = None) -> QuestionPlan:
        find = self.finder(filters)  # one cache for the whole plan: the same answer parts are looked up once
        resolution = self.resolve(without_kind_typos(question), history, find)
        asked = self.with_asked_years(resolution.question, filters)
        without_years, years_asked = filters, asked is not filters
        if asked is not filters:  # the years the question asks for narrow the papers found from here on
            find, filters = self.finder(asked), asked
        intent = classify(resolution.question, self.chat.catalog)
        plan = QuestionPlan(resolution.question, intent, [], filters, rewritten=resolution.rewritten,
                            without_years=without_years, years_asked=years_asked)
        plan.no_paper_in_years = bool(filters) and not any(filters.admits(p) for p in self.chat.catalog.papers.values())
        plan.pinned = list(dict.fromkeys([p.paper_id for p in resolution.papers] + intent.named))
        if history and not plan.pinned and intent.kind is not QuestionKind.COMPARISON:
            plan.focus = self.elliptical_focus(resolution.question, history, find)
            focus, listing = papers_in_focus(history, self.chat.catalog, find)
            plan.conversation_paper = focus[0] if len(focus) == 1 and not listing else None
            if plan.focus is not None:  # "which datasets?", "ablation contributions?": of the paper being discussed
                plan.pinned, intent.kind = [plan.focus.paper_id], QuestionKind.LOOKUP
        if len(resolution.papers) > 1:  # "compare both papers": the rewrite names them; no side is left to find
            intent.described = []
        if intent.kind is QuestionKind.WHICH and resolution.papers:
            intent.kind = QuestionKind.LOOKUP  # "which benchmarks did they use": about the papers in focus
        if intent.kind is QuestionKind.LOOKUP and len(plan.pinned) >= 2:
            intent.kind = QuestionKind.COMPARISON  # "how do both of them ...": two papers in focus
        return plan

    def resolve(self, question: str, history: History, find: Callable[[str], list[Paper]]) -> Resolution:
        """The standalone question: a follow-up rewritten to name the papers it refers to (``find``: the papers a
        part of an earlier answer describes)."""
        if not history:
            return Resolution(question)
        return resolve_followup(question, history, self.chat.catalog, find)

    def finder(self, filters: PaperFilters | None) -> Callable[[str], list[Paper]]:
        """The papers a part of a hand-written answer describes, best first."""
        @cache  # resolving one follow-up may look up the same part of a hand-written answer more than once
        def find(text: str) -> list[Paper]:
            # rescored as a question is: among thousands of papers a description has near-twins
            text = self.chat.glossary.for_search(text)
            scored = self.judge.rescore(text, self.chat.retrieve_hits(text, RESCORE_POOL, filters))
            return [h.paper for _, h in scored if h.relevance >= self.min_rel][:3]

        return find

    @staticmethod
    def with_asked_years(question: str, filters: PaperFilters | None) -> PaperFilters | None:
        """The filters, restricted to the years the question asks for ("Which 2023 papers ...", "since 2020") unless
        the caller set years already."""
        year_min, year_max = asked_years(question)
        if (year_min is None and year_max is None) or (filters and (filters.year_min or filters.year_max)):
            return filters
        return PaperFilters(year_min, year_max, filters.venues if filters else ())

    def years_written(self, asked: PaperFilters) -> bool:
        """Whether a loaded abstract writes the years a question asks for, which may then be what it is about rather
        than when papers came out ("we searched Scopus and PubMed (2020-2025)")."""
        years = [str(y) for y in (asked.year_min, asked.year_max) if y is not None]
        return any(all(re.search(rf"(?<!\d){y}(?!\d)", p.text) for y in years) for p in self.chat.catalog.papers.values())

    def elliptical_focus(self, question: str, history: History, find: Callable[[str], list[Paper]]) -> Paper | None:
        """For a short follow-up that names no paper and asks for no other topic ("ablation contributions?", "judge
        scores which dimensions?", "and the runtime?"): the one paper the conversation is on, else None."""
        terms = question_terms(question)
        if len(terms) > ELLIPTICAL_TERMS or _OTHER_PAPERS_ASK.search(question):
            return None
        focus, listing = papers_in_focus(history, self.chat.catalog, find)
        if not focus or listing:
            return None
        own = {w[:4] for w in content_words(focus[0].text)}
        on_it = all(w in ASPECT_WORDS or w[:4] in own for w in terms)
        return focus[0] if on_it else None


class LLMPlanner(OfflinePlanner):
    """The offline plan, with a follow-up condensed by the LLM into a standalone question (prompts/condense.txt).
    The offline rewrite stays when the LLM fails or drops a paper the rules resolved."""

    def resolve(self, question: str, history: History, find: Callable[[str], list[Paper]]) -> Resolution:
        resolution = super().resolve(question, history, find)
        if not history or (not resolution.rewritten and self.chat.catalog.named_in(question)):
            return resolution  # names its paper: stands alone
        try:
            focus, _ = papers_in_focus(history, self.chat.catalog, find)
            if not focus:
                return resolution
            rewritten = condense_with_llm(self.chat.llm, self.chat.settings, question, history, focus)
        except LLMUnavailable as exc:
            log.warning("LLM rewrite failed, keeping the offline rewrite: %s", exc)
            return resolution
        # Keep the offline rewrite when the LLM's drops a paper it resolved (a guess we can check).
        lost = [p for p in resolution.papers if p.name.lower() not in rewritten.lower()
                and p.paper_id not in self.chat.catalog.named_in(rewritten)]
        if lost or rewritten.strip() == question.strip():
            return resolution
        papers = resolution.papers or [p for p in focus if p.name.lower() in rewritten.lower()]
        return Resolution(rewritten, papers)
