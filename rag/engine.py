"""The answer engine: plan -> retrieve -> judge -> write, one stage per module.

``PaperChatEngine.from_settings(chat)`` composes the stages for the configured backend: the offline planner or the
LLM one; the offline writers, or the LLM writing lookups, lists, details and comparisons from numbered sources (the
offline answer stays the fallback). A question about the collection as a whole is answered before this engine, by
rag.collection.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence

import numpy as np

from rag.asked import ONE_PAPER_ASK, asks_collection_size, asks_for_collection
from rag.collection import theme_papers
from rag.comparing import ComparisonWriter
from rag.extractive import collection_answer, refusal
from rag.find import PaperFinder
from rag.followup import History
from rag.intent import Intent, QuestionKind
from rag.judge import ASPECT_WORDS, PaperJudge
from rag.list_answer import WHICH_MAX_PAPERS
from rag.listing import ListWriter
from rag.lookup import LookupWriter
from rag.plan import LLMPlanner, OfflinePlanner, QuestionPlan
from rag.relevance import topic_words
from rag.retrieve import PaperFilters
from rag.terms import mentions_term, stems
from rag.types import Answer
from store.paper import Paper


# A follow-up finding no paper of its own is asked of the conversation's paper when that paper writes this share of
# its topic words.
ON_PAPER_SHARE = 0.5

class PaperChatEngine:
    """Answers one question about papers: ``stream()`` yields text pieces, then the Answer."""

    def __init__(self, chat, planner: OfflinePlanner):
        self.chat = chat
        self.planner = planner
        self.find = PaperFinder(chat)
        self.judge = PaperJudge(chat)
        self.lookups = LookupWriter(chat, self.find, self.judge)
        self.lists = ListWriter(chat, self.find, self.judge)
        self.comparisons = ComparisonWriter(chat, self.find, self.judge, self.lists, self.lookup)

    @classmethod
    def from_settings(cls, chat) -> "PaperChatEngine":
        """The engine for ``chat``'s settings: with an LLM configured, the LLM condenses follow-ups and writes the
        answers; offline, rules plan and extracts answer."""
        return cls(chat, LLMPlanner(chat) if chat.has_llm else OfflinePlanner(chat))

    def stream(self, question: str, history: History = (), k: int | None = None,
               filters: PaperFilters | None = None) -> Iterator[str | Answer]:
        plan = self.planner.plan(question, history, filters)
        answer = yield from self.answer(plan, k)
        # "the review of models (2020-2025)": years a loaded abstract writes may be its topic, not when papers came out
        if answer.refused and plan.years_asked and self.planner.years_written(plan.filters):
            plan.filters, plan.no_paper_in_years = plan.without_years, False
            answer = yield from self.answer(plan, k)
        if plan.rewritten:
            answer.rewritten = plan.question
        yield from self.finished(answer)

    def stream_comparison(self, paper_ids: Sequence[str], question: str, k: int | None = None
                          ) -> Iterator[str | Answer]:
        """A comparison of the papers with these ids, written for ``question``, however it is worded."""
        answer = yield from self.comparisons.write(question, list(paper_ids), k, None)
        yield from self.finished(answer)

    @staticmethod
    def finished(answer: Answer) -> Iterator[str | Answer]:
        """The answer's text (unless the LLM streamed it as it wrote), then the answer."""
        if answer.backend == "extractive" or answer.notice or answer.refused:
            yield answer.text
        yield answer

    def answer(self, plan: QuestionPlan, k: int | None) -> Generator[str, None, Answer]:
        """The answer the plan's kind calls for: a comparison, a list, or a lookup."""
        question, intent, filters = plan.question, plan.intent, plan.filters
        if plan.no_paper_in_years:
            return refusal([], reason=f"No loaded paper is from {filters.describe_years()}.")
        if intent.kind is QuestionKind.COMPARISON:
            return (yield from self.comparisons.compare(question, intent, plan.pinned, k, filters))
        if intent.kind is QuestionKind.WHICH and asks_for_collection(question):
            papers = [p for p in self.chat.catalog.papers.values() if not filters or filters.admits(p)]
            names = 0 if asks_collection_size(question) else WHICH_MAX_PAPERS
            return collection_answer(papers, filters.describe_years() if filters else "", names=names)
        if intent.kind is QuestionKind.WHICH and (theme := self.lists.theme_named(question)):
            return theme_papers(self.chat, theme)  # "Which papers are about <a theme's label>?", as the overview names it
        if intent.kind is QuestionKind.WHICH:
            answer = yield from self.lists.listing(question, k, filters)
            if answer.refused and not self.chat.has_llm:  # no set clears the list's cut-off; one may still answer it
                found = yield from self.lookup(question, intent, plan.pinned, k, filters)
                if not found.refused:
                    answer = found
                    answer.lead_with("No set of papers clears the list's relevance cut-off; the one that answers best:")
            return answer
        pair, closest = [], False
        if intent.sets_side_by_side and not plan.pinned and plan.focus is None:
            # "Dorsett et al.'s DoS taxonomy paper vs their Denial of Wallet review": the authors' two papers
            pair = self.comparisons.authored_pair(question, filters)
            pair, closest = (pair, False) if pair else self.comparisons.second_topic_pair(question, intent, filters)
        if not pair and intent.sets_side_by_side and len(plan.pinned) < 2 and plan.focus is None \
                and not ONE_PAPER_ASK.search(question):
            pair = self.comparisons.complementary_pair(question, plan.pinned, filters)
            if not pair and len(plan.pinned) == 1:
                pair = self.comparisons.named_and_nearest(question, plan.pinned[0], filters)
        if not pair and not intent.sets_side_by_side and len(plan.pinned) < 2 and plan.focus is None:
            pair = self.comparisons.sides_found_decisively(question, intent, plan.pinned, filters)
        unloaded = self.lookups.unloaded_sides(question, plan.pinned)
        if unloaded and plan.focus is None and not plan.rewritten:  # a follow-up's rewrite names its earlier papers
            pair = self.comparisons.named_and_written(plan.pinned, unloaded, filters) or pair
        if len(pair) == 2:
            answer = yield from self.comparisons.write(question, pair, k, filters, intent.details)
            if closest:
                answer.hedged = True
                answer.lead_with("No loaded paper surely fits the question; the two nearest to it are compared.")
            return answer
        answer = yield from self.lookup(question, intent, plan.pinned, k, filters)
        if answer.refused and plan.conversation_paper is not None and self.on_paper(question, plan.conversation_paper):
            # "how big was the volume-limited sample?" right after a paper: found in no other paper, asked of that one
            plan.focus = plan.conversation_paper
            answer = yield from self.lookup(question, intent, [plan.focus.paper_id], k, filters)
        if plan.focus is not None and not answer.refused:
            answer.lead_with(f"Read as a question about {plan.focus.name}, the paper the conversation is on:")
        if unloaded and not answer.refused:
            names = " and ".join(f"“{name}”" for name in unloaded)
            answer.lead_with(f"{names} {'is' if len(unloaded) == 1 else 'are'} not among the loaded papers, so only "
                             f"{self.chat.catalog.papers[plan.pinned[0]].name} is described here.")
        return answer

    def on_paper(self, question: str, paper: Paper) -> bool:
        """Whether the question is on the paper: it writes at least half of the question's topic words (asking and
        aspect words aside), and one of its sentences is ``min_relevance`` near it. A new topic ("what about speech
        recognition for low-resource languages?" after PatchKV) is not read as a question about that paper."""
        words = [w for w in topic_words(question) if w not in ASPECT_WORDS]
        own = stems(paper.text)
        if words and sum(mentions_term(w, own) for w in words) < ON_PAPER_SHARE * len(words):
            return False
        sentences = self.chat.store.sentences([paper.paper_id]).get(paper.paper_id, [])
        vectors = np.asarray([v for _, v in sentences], dtype=np.float32)
        return bool(len(vectors)) and float(np.max(vectors @ self.chat.question_vec(question))) >= \
            self.chat.settings.retrieval.min_relevance

    def lookup(self, question: str, intent: Intent, pinned: list[str], k: int | None,
               filters: PaperFilters | None) -> Generator[str, None, Answer]:
        """One paper (or a few): retrieve the candidates, judge which answer, write the answer from those."""
        found = self.find.for_lookup(question, pinned, k, filters)
        verdict = self.judge.choose(question, intent, found)
        if not verdict.pair:
            return (yield from self.lookups.write(question, intent, verdict))
        # the names the question gives are written by two papers, each writing some the other never does
        first, second = (hit.paper for hit in verdict.pair)
        answer = yield from self.comparisons.write(question, [first.paper_id, second.paper_id], k, filters,
                                                   intent.details)
        if (intent.kind is not QuestionKind.COMPARISON and not intent.sets_side_by_side) or pinned:
            # asked as of one paper, or of the paper it names: none is all it asks
            answer.hedged = True
            answer.lead_with(f"**{first.name}** never mentions “{verdict.unwritten[0]}”, which **{second.name}** "
                             "writes: the question is read as on both, compared.")
        return answer
