"""Routes a question to the answer it needs: follow-up resolution, then comparison, list, not-stated or lookup."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from typing import TYPE_CHECKING, TypeVar

import numpy as np

from rag.asked import (
    asked_years,
    asks_collection_size,
    asks_for_collection,
    asks_for_new_resources,
    coined_terms,
    listing_topic,
    without_excluded,
)
from rag.cite import verify_citations
from rag.claims import NumberMismatch, check_claimed_numbers
from rag.collection import theme_papers
from rag.compare import compare_papers, introducing_sentence
from rag.details import DetailAsk, asked_details
from rag.extractive import (
    WHICH_ANCHOR_WEIGHT,
    WHICH_BROAD_MIN,
    WHICH_COVERAGE_WEIGHT,
    WHICH_MAX_PAPERS,
    WHICH_MIN_RELEVANCE,
    WHICH_NEAR,
    ListedPaper,
    collection_answer,
    detail_answer,
    detail_support,
    introduces_resource,
    listing_answer,
    listing_cutoff,
    rank_sentences,
    refusal,
    resource_sentence,
    score_for_listing,
    states_amount,
)
from rag.followup import (
    Resolution,
    condense_with_llm,
    papers_in_focus,
    resolve_followup,
)
from rag.generate import relay, stream_llm_answer
from rag.intent import Intent, QuestionKind, classify, without_kind_typos
from rag.llm_write import LIST_CANDIDATES, sources_for, write_with_llm
from rag.relevance import (
    GAP_MIN_PAPERS,
    absent_terms,
    alternative_groups,
    anchor_share,
    anchor_terms,
    broad_field_members,
    defines_otherwise,
    essential_words,
    example_members,
    in_broad_fields,
    other_versions,
    rare_terms,
    resource_members,
    says_plainly,
    topic_coverage,
    topic_words,
    unmet_facets,
    unmet_modalities,
)
from rag.retrieve import PaperFilters, PaperHit
from rag.sides import COMPARE_CUE, asked_of_each
from rag.terms import (
    ASKING_WORDS,
    content_words,
    dictionary_words,
    mentions_term,
    question_terms,
    snowball_stem,
    stems,
)
from rag.types import Answer, Citation
from store.errors import LLMUnavailable
from store.naming import is_common_acronym
from store.paper import Paper

if TYPE_CHECKING:
    from rag.chat import PaperChat

log = logging.getLogger(__name__)
History = Sequence[tuple[str, str]]
T = TypeVar("T")

# Papers a comparison table holds at most.
MAX_COMPARED = 5
# Candidate papers scored for a "which papers" list: the fused top LISTING_POOL, plus the papers of the
# LISTING_SENTENCES nearest sentences to the question and to its topic. Among 8k papers, 300 sentences left out
# papers on the topic that a list must count ("image restoration": PhysDNet); 1000 finds most (which-list recall@5
# 0.77 -> 0.85 at 8.4k, 2000: 0.87 at 1.6 s a list).
LISTING_POOL = 30
LISTING_SENTENCES = 1000
# Hits retrieved per described side of a comparison; a side is a short description, so the paper chosen for
# it must cover its words (a higher coverage weight than for questions).
SIDE_K = 10
SIDE_COVERAGE_WEIGHT = 0.5
# A paper answers an unnamed question when its best sentence's similarity + GIST_WEIGHT * the similarity of the whole
# abstract (the mean of its sentence vectors) + COVERAGE_WEIGHT * topic coverage + TOKEN_WEIGHT * its word-by-word
# match (rag.token_match, computed for the TOKEN_POOL best by the rest) reaches ANSWERABLE (calibrated on
# bench/questions.jsonl, seeds alone and with distractors: off-topic questions score below, real ones above). The
# gist catches a question that paraphrases the abstract as a whole ("a memory of the images a user has shared")
# rather than one sentence of it; the word-by-word match one that paraphrases its terms ("hard physics competition
# problems with figures" for "Olympiad problems with diagrams"): among 8,000 distractors it puts the gold paper first
# for 71 of 73 such questions, against 62 without it.
COVERAGE_WEIGHT = 0.3
GIST_WEIGHT = 0.4
TOKEN_WEIGHT = 1.0
TOKEN_POOL = 5
# A short question is matched against its TOKEN_SENTENCES nearest sentences of each paper, a long one against all of
# them: off-topic questions then find fewer stray words to match (refusal accuracy 0.90 -> 0.94 at 8.4k, no answer
# lost), and the match costs ~40% less.
TOKEN_SENTENCES = 4
# A candidate this far below the leader on the other signals cannot catch up on the word-by-word match (its spread
# between candidates is rarely half that): it is not matched, halving the cost of a clear question (same answers on
# all of bench/questions.jsonl at 0.2 and 0.3).
TOKEN_GAP = 0.3
ANSWERABLE = 1.5
# Below ANSWERABLE, a paper still answers when it stands clear of every other candidate: at least CLEAR_MIN, and
# CLEAR_MARGIN above the runner-up. A long two-part question matches its paper's sentences only loosely (MiniLM
# cosines near 0.45), while off-topic questions spread their best scores over several near-equal papers.
CLEAR_MIN = 1.28
CLEAR_MARGIN = 0.1
# Standing CLEAR_MARGIN clear of thousands of abstracts (GAP_MIN_PAPERS or more) tells more than standing clear of 38:
# there a paper does from LARGE_CORPUS_CLEAR_MIN, and the question's rare words and facets are still checked against
# it. Long paraphrases of one paper score 1.09 to 1.27 at 8.4k papers ("cleaning up foggy camera images on a
# low-power embedded board ..."); off-topic questions clearing the rest by as much score below 0.9, or miss words.
LARGE_CORPUS_CLEAR_MIN = 1.05
# A second paper is cited for an unnamed question only when it scores this close to the best.
CITE_MARGIN = 0.05
# A paper scoring ANSWERABLE or more and this far above every other candidate answers a long question even when its
# rare words are missing from it: they are the asker's phrasing ("grabbing any chunk of the exposure"); in a short
# question a rare word names the topic ("reading sheet music" is not answered by a music-audio benchmark far ahead).
# One leading by CLEAR_MARGIN answers when it uses, or has a near-synonym for, half of the rare words: in "tissue
# slides at several zoom levels" PathView-Bench has "organs" for "tissue" but nothing for "zoom" ("fields of view").
DECISIVE_MARGIN = 0.25
# A question of LONG_QUESTION content words or more describes its paper at length: one of its rare words missing from
# the paper, or one word no abstract uses, is the asker's wording ("so the bound doesn't blow up", "all-or-nothing
# spikes", "the memory blowup"), not another topic; the questions the rare-word rule is for name their topic in a few
# words ("lip reading from video").
LONG_QUESTION = 12
# A follow-up this short is asked of the paper in focus ("ablation contributions?"), unless it asks for other papers
# or has a word that is neither that paper's nor one of _ASPECT_WORDS: "video benchmarks?" or "what about speech
# recognition for low-resource languages?" after PatchKV is a new topic.
ELLIPTICAL_TERMS = 4
# What a follow-up may ask of any paper without naming a topic ("which datasets?", "and the runtime?", "main idea?").
_ASPECT_WORDS = frozenset("""data dataset datasets benchmark benchmarks runtime speed speedup latency memory compute cost
    efficiency overhead complexity inference hardware requirement requirements implementation hyperparameter
    hyperparameters limitation limitations ablation ablations contribution contributions result results accuracy
    baseline baselines metric metrics code training parameter parameters score scores dimension dimensions
    experiment experiments evaluation performance improvement improvements gain gains finding findings assumption
    assumptions proof theorem bound bounds guarantee guarantees novelty size error errors setup setting settings
    architecture loss losses objective main key idea ideas takeaway takeaways summary motivation problem goal task
    tasks input inputs output outputs robustness scalability scaling percent percentage""".split())
_OTHER_PAPERS_ASK = re.compile(r"\b(?:any|another|other|some)\s+(?:papers?|works?|stud(?:y|ies)|methods?)\b"
                               r"|\b(?:is|are)\s+there\b|\banything\s+(?:on|about|related|regarding|for)\b", re.I)
# Candidates rescored on all their sentences.
RESCORE_POOL = 10
# A question word of at least RARE_WORD_MIN_LETTERS that at most RARE_WORD_SHARE of a large corpus's papers use points
# to them: up to RARE_WORD_PAPERS of them are rescored with the retrieved ones.
RARE_WORD_MIN_LETTERS = 6
RARE_WORD_SHARE = 0.001
RARE_WORD_PAPERS = 3
# A side described, not named, whose best paper is older than the newest of the compared papers is taken for a paper
# of that year scoring at most this much below: the papers compared in one question are most often of one batch, the
# one being read ("the dehazing paper and the motion deblurring one" among 8,000 older NeurIPS abstracts: PhysDNet,
# and PickMoment 0.15 below a 2023 deblurring paper). The newest sets the year: a side resolved to an older paper
# is the likelier mistake, and moving a right side to the year of a wrong one would lose both.
SAME_YEAR_MARGIN = 0.15
# At most this many named (or referred-to) papers are answered about; more papers using a coined term means
# the term is common.
MAX_NAMED = 3
MAX_MENTIONED = 2
# A closing question about the paper's content ("... how fast does it run?"), not a bare "Has anyone done that?".
_CONTENT_ASK = re.compile(r"\b(?:how|what|whats|what's|which|when|where|why|does|do|did|is|are|was|were)\b", re.I)
# A closing question asking for an amount ("How long were the contexts they tested?", "how many GPUs?").
_AMOUNT_QUESTION = re.compile(r"^\W*(?:and\s+)?(?:by\s+)?how\s+(?:much|many|long|big|large|fast|quickly|often)\b"
                              r"|^\W*(?:and\s+)?(?:what|which)\s+(?:\w+\s+)?(?:statistics?|figures?|numbers?|percentages?"
                              r"|fractions?|proportions?|shares?|rates?)\b", re.I)
# A yes/no check of a claim: "Is it true that ...", "Does X use Y?", "Can you confirm ...", or one closing a question
# ("Which model does VISD use as its judge, is it GPT-4o?").
_CLAIM_CHECK = re.compile(r"^\W*(?:is\s+it\s+(?:true|correct|right|the\s+case)\b|can\s+you\s+confirm\b"
                          r"|(?:is|are|was|were|does|do|did|has|have|had)\s+(?!there\b|any|anyone|anybody|some))"
                          r"|[,;]\s+(?:is|was|does|did)\s+(?:it|that|this)\s+(?!true\b)",
                          re.I)  # not a search: "Is there a benchmark ...?", "Do any papers ...?"
# A choice of names offered ("which encoder does PhyProbe use, V-JEPA or VideoMAE or something else?").
_NAMES_OFFERED = re.compile(r"[,(:]\s*(?:e\.g\.\s*|like\s+)?[A-Z][\w.-]*\s+or\s+[A-Z][\w.-]*|\bor\s+something\s+else\b")
# What introduces a baseline a result is measured against: "improve over TorchTitan", "compared with SMI".
_BASELINE_LEAD = r"\b(?:compared\s+(?:with|to)|relative\s+to|over|than|against)"
# Words of chat, not of the topic, that question_terms keeps ("tell", "show", "let" are asking words already):
# "Could you point me to it", "I'm curious".
_CHAT_WORDS = frozenset("point help like please thanks thank wondering curious roughly".split())
# A capitalised word after a lower-case one or a comma: a name, not a sentence's first word ("Qwen-family" too).
_MID_SENTENCE_CAPITALISED = re.compile(r"(?<=[a-z0-9,] )([A-Z][a-z]+)\b(?![-'](?!(?:family|series|based|style|like)\b))")
# Asking what a paper is, not how it works: "What is X (about)?", "What does X do?", "Tell me about X", "Summarize X".
_WHAT_IT_IS = re.compile(r"^\W*(?:tl;?dr\b|what(?:'s|\s+is|\s+are)\b|what\s+(?:does|do)\b.*\bdo\W*$"
                         r"|tell\s+(?:me\s+)?(?:more\s+)?about\b"
                         r"|(?:give\s+(?:me\s+)?)?(?:an?\s+)?(?:overview|summary|summari[sz]e|describe)\b)", re.I)
# Words ruling out what follows: "Qwen3 models (not Qwen2.5)".
_RULED_OUT = r"\b(?:not|except|excluding|other than|besides|apart from|rather than|instead of|but not)"


class QuestionRouter:
    """Answers one question for a PaperChat, by kind; ``stream()`` yields text pieces then the Answer."""

    def __init__(self, chat: "PaperChat"):
        self.chat = chat
        self.settings = chat.settings
        self.min_rel = chat.settings.retrieval.min_relevance

    # ---- entry ----
    def stream(self, question: str, history: History, k: int | None,
               filters: PaperFilters | None) -> Iterator[str | Answer]:
        resolution = self.resolve(without_kind_typos(question), history, filters)
        filters = self.with_asked_years(resolution.question, filters)
        if filters and not any(filters.admits(p) for p in self.chat.catalog.papers.values()):
            answer = refusal([], reason=f"No loaded paper is from {filters.describe_years()}.")
            yield answer.text
            yield answer
            return
        intent = classify(resolution.question, self.chat.catalog)
        pinned = list(dict.fromkeys([p.paper_id for p in resolution.papers] + intent.named))
        focus = None
        if history and not pinned and intent.kind is not QuestionKind.COMPARISON:
            focus = self.elliptical_focus(resolution.question, history, filters)
            if focus is not None:  # "which datasets?", "ablation contributions?": of the paper being discussed
                pinned, intent.kind = [focus.paper_id], QuestionKind.LOOKUP
        if len(resolution.papers) > 1:  # "compare both papers": the rewrite names them; no side is left to find
            intent.described = []
        if intent.kind is QuestionKind.WHICH and resolution.papers:
            intent.kind = QuestionKind.LOOKUP  # "which benchmarks did they use": about the papers in focus
        if intent.kind is QuestionKind.LOOKUP and len(pinned) >= 2:
            intent.kind = QuestionKind.COMPARISON  # "how do both of them ...": two papers in focus
        if intent.kind is QuestionKind.COMPARISON:
            answer = yield from self.compare(resolution.question, intent, pinned, k, filters)
        elif intent.kind is QuestionKind.WHICH and asks_for_collection(resolution.question):
            papers = [p for p in self.chat.catalog.papers.values() if not filters or filters.admits(p)]
            names = 0 if asks_collection_size(resolution.question) else WHICH_MAX_PAPERS
            answer = collection_answer(papers, filters.describe_years() if filters else "", names=names)
        elif intent.kind is QuestionKind.WHICH and (theme := self.theme_named(resolution.question)):
            answer = theme_papers(self.chat, theme)  # "Which papers are about <a theme's label>?", as the overview names it
        elif intent.kind is QuestionKind.WHICH:
            answer = yield from self.listing(resolution.question, k, filters)
            if answer.refused and not self.chat.has_llm:  # no set clears the list's cut-off; one may still answer it
                found = yield from self.lookup(resolution.question, intent, pinned, k, filters)
                if not found.refused:
                    answer = found
                    answer.lead_with("No set of papers clears the list's relevance cut-off; the one that answers best:")
        else:
            answer = yield from self.lookup(resolution.question, intent, pinned, k, filters)
            if focus is not None and not answer.refused:
                answer.lead_with(f"Read as a question about {focus.name}, the paper the conversation is on:")
            unloaded = self.unloaded_sides(resolution.question, pinned)
            if unloaded and not answer.refused:
                names = " and ".join(f"“{name}”" for name in unloaded)
                answer.lead_with(f"{names} {'is' if len(unloaded) == 1 else 'are'} not among the loaded papers, so only "
                                 f"{self.chat.catalog.papers[pinned[0]].name} is described here.")
        if resolution.rewritten:
            answer.rewritten = resolution.question
        if answer.backend == "extractive" or answer.notice or answer.refused:
            yield answer.text
        yield answer

    def theme_named(self, question: str):
        """The theme whose label a list question asks about, among themes already made (an overview made them)."""
        themes = self.chat.ready_themes()
        return themes.find(listing_topic(question)) if themes else None

    @staticmethod
    def with_asked_years(question: str, filters: PaperFilters | None) -> PaperFilters | None:
        """The filters, restricted to the years the question asks for ("Which 2023 papers ...", "since 2020") unless
        the caller set years already."""
        year_min, year_max = asked_years(question)
        if (year_min is None and year_max is None) or (filters and (filters.year_min or filters.year_max)):
            return filters
        return PaperFilters(year_min, year_max, filters.venues if filters else ())

    # ---- follow-ups ----
    def resolve(self, question: str, history: History, filters: PaperFilters | None) -> Resolution:
        """The standalone question (offline rewrite; the LLM's condense prompt when one is configured)."""
        if not history:
            return Resolution(question)
        find = self.finder(filters)
        resolution = resolve_followup(question, history, self.chat.catalog, find)
        if self.settings.llm.backend == "extractive":
            return resolution
        if not resolution.rewritten and self.chat.catalog.named_in(question):
            return resolution  # names its paper: stands alone
        try:
            focus, _ = papers_in_focus(history, self.chat.catalog, find)
            if not focus:
                return resolution
            rewritten = condense_with_llm(self.chat.llm, self.settings, question, history, focus)
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

    def finder(self, filters: PaperFilters | None) -> Callable[[str], list[Paper]]:
        """The papers a part of a hand-written answer describes, best first."""
        @cache  # resolving one follow-up may look up the same part of a hand-written answer more than once
        def find(text: str) -> list[Paper]:
            # rescored as a question is: among thousands of papers a description has near-twins
            text = self.chat.glossary.for_search(text)
            scored = self.rescore(text, self.chat.retrieve_hits(text, RESCORE_POOL, filters))
            return [h.paper for _, h in scored if h.relevance >= self.min_rel][:3]

        return find

    # ---- retrieval ----
    def hits(self, query: str, k: int | None, filters: PaperFilters | None, pinned: Sequence[str] = ()) -> list[PaperHit]:
        """Retrieved papers with the pinned ones (named, or referred to earlier) first, marked named."""
        hits = self.chat.retrieve_hits(query, k, filters)
        if not pinned:
            return hits
        by_id = {h.paper.paper_id: h for h in hits}
        front = []
        for pid in pinned:
            hit = by_id.get(pid) or PaperHit(self.chat.catalog.papers[pid])
            hit.named = True
            front.append(hit)
        return front + [h for h in hits if h.paper.paper_id not in set(pinned)]

    def _query_vec(self, text: str) -> np.ndarray:
        return np.asarray(self.chat.embedder.get_query_embedding(text), dtype=np.float32)

    # ---- one paper (or a few): the lookup, or "its abstract does not state it" ----
    def lookup(self, question: str, intent: Intent, pinned: list[str], k: int | None,
               filters: PaperFilters | None) -> Iterator[str]:
        by_term = not pinned
        if by_term:
            pinned = self.mentioned(question, filters)
        if pinned:
            hits = self.hits(question, k, filters, pinned)
            chosen, gap = [h for h in hits if h.named][:MAX_NAMED], ""
            if by_term and len(chosen) > 1:  # "the fog-removal one fusing NIR with ...": of the papers writing "NIR",
                scored = self.rescore(self.chat.glossary.for_search(question), chosen)  # those the rest fits
                chosen = [h for score, h in scored if score >= scored[0][0] - DECISIVE_MARGIN]
        else:
            # "multimodal LLMs" also finds "large language models"
            query = self.chat.glossary.for_search(question)
            hits = self.with_rare_word_users(question, self.hits(query, k, filters), filters)
            scored = self.rescore(query, hits)
            hits = [h for _, h in scored] + hits[len(scored):]  # a refusal names the closest by this score
            # a list's one best paper (no set clearing its cut-off) keeps the stricter floor: it asks for a kind of paper
            large = self.chat.term_stats.n >= GAP_MIN_PAPERS and intent.kind is not QuestionKind.WHICH
            chosen, gap = self.answerable(scored, clear_min=LARGE_CORPUS_CLEAR_MIN if large else CLEAR_MIN), ""
            lead = self.lead(scored)
            if lead < DECISIVE_MARGIN or len(question_terms(question)) < LONG_QUESTION:
                chosen, gap = self.without_gaps(question, chosen, lambda h: h.paper, half_will_do=lead >= CLEAR_MARGIN)
            if lead < DECISIVE_MARGIN and chosen:
                chosen, gap = self.with_every_facet(question, chosen, intent.details)
            if chosen:
                chosen, gap = self.on_asked_data(question, chosen, lambda h: h.paper)
            if chosen:
                chosen, gap = self.of_the_asked_versions(question, chosen)
        if not chosen and self.chat.has_llm:  # the LLM, not the offline checks, judges the candidates
            return (yield from write_with_llm(self.chat, question, sources_for([], hits), hits,
                                              offline=lambda: refusal(hits, reason=gap)))
        if not chosen:
            return refusal(hits, reason=gap)
        hits = chosen + [h for h in hits if h not in chosen]
        intent.details += self.unmentioned_names(question, chosen[0].paper)
        if intent.details:
            main = chosen[0]
            sentences = self.chat.store.sentences([main.paper.paper_id])[main.paper.paper_id]
            found = [(d, detail_support(d, main.paper, sentences)) for d in intent.details]
            missing = [d for d, s in found if s is None]
            stated = [(d, s) for d, s in found if s is not None]
            def not_stated() -> Answer:
                return detail_answer(question, self.chat.question_vec(question, main.paper), main, sentences, missing,
                                     stated, hits)

            # the record's fields (authors, year) are ours to say; a gap in the abstract too, offline
            if any(d.record for d in intent.details) or (missing and not self.chat.has_llm):
                return not_stated()
            quote_first = [s for _, s in stated]  # an LLM reads them in the abstract; an extract must quote them
        elif intent.aspects and not self.chat.has_llm:
            # "What problem does VISD solve?": the sentence stating the problem, as the comparison table would pick it.
            main = chosen[0].paper
            own = self.chat.store.sentences([main.paper_id])[main.paper_id]
            cells = self.chat.aspect_classifier.assign(own, main.name)
            quote_first = list(dict.fromkeys(self.introduction(question, main)
                                             + [cells[a].quote for a in intent.aspects if cells[a].quote]))
        else:
            quote_first = self.closing_ask(question, chosen[0].paper) or self.introduction(question, chosen[0].paper)
        mismatch = self.number_claimed_otherwise(question, chosen[0].paper)
        if mismatch:  # "Is it true that it has about 15,000 problems?": the sentence giving 11,586 leads
            quote_first = [mismatch.sentence] + [q for q in quote_first if q != mismatch.sentence]
        if self.chat.has_llm:
            offline = not_stated if intent.details and missing else (
                lambda: self.chat.write_extractive(question, chosen, hits, quote_first))
            answer = yield from write_with_llm(self.chat, question, sources_for(chosen, hits), hits, offline=offline)
        else:
            answer = self.chat.write_extractive(question, chosen, hits, quote_first)
        if mismatch and not answer.refused:
            cited = [c.n for c in answer.citations if c.paper.paper_id == chosen[0].paper.paper_id]
            answer.lead_with(mismatch.say(f" [{cited[0]}]" if cited else ""))
        return answer

    def elliptical_focus(self, question: str, history: History, filters: PaperFilters | None) -> Paper | None:
        """For a short follow-up that names no paper and asks for no other topic ("ablation contributions?", "judge
        scores which dimensions?", "and the runtime?"): the one paper the conversation is on, else None."""
        terms = question_terms(question)
        if len(terms) > ELLIPTICAL_TERMS or _OTHER_PAPERS_ASK.search(question):
            return None
        focus, listing = papers_in_focus(history, self.chat.catalog, self.finder(filters))
        if not focus or listing:
            return None
        own = {w[:4] for w in content_words(focus[0].text)}
        on_it = all(w in _ASPECT_WORDS or w[:4] in own for w in terms)
        return focus[0] if on_it else None

    def number_claimed_otherwise(self, question: str, paper: Paper) -> NumberMismatch | None:
        """For a yes/no check of a number ("Is it true that PhysElite has about 15,000 problems?"), where the paper's
        abstract gives another number for the same thing."""
        if not any(_CLAIM_CHECK.search(part) for part in re.split(r"(?<=[.!?])\s+", question.strip())):
            return None
        own = self.chat.store.sentences([paper.paper_id])[paper.paper_id]
        return check_claimed_numbers(question, [text for text, _ in own])

    def closing_ask(self, question: str, paper: Paper) -> list[str]:
        """For a description followed by a question ("I'm looking for a fog-removal network ... Could you tell me how
        fast it runs and at what power draw?"): the sentence of the paper that best answers the closing question,
        quoted first; none when that question asks only which paper it is ("Which one was it?")."""
        # "... paper - what change do they make?", "..., what bound does it prove?"
        parts = re.split(r"(?<=[.!?])\s+|\s[-\u2013\u2014]+\s|,\s+(?=(?:what|how)\b)", question.strip(), flags=re.I)
        ask = parts[-1]
        if len(parts) < 2 or not ask.endswith("?") or not _CONTENT_ASK.search(ask):
            return []
        amount = _AMOUNT_QUESTION.search(ask)  # "What statistic do they give?": only a number answers it
        if not amount and len([w for w in question_terms(ask, ignore=content_words(paper.name))
                               if w not in _CHAT_WORDS]) < 2:
            return []
        own = self.chat.store.sentences([paper.paper_id])[paper.paper_id]
        ranked = rank_sentences(self._query_vec(ask), ask, own, ignore=content_words(paper.name), answering=True)
        if amount:  # "How long were the contexts they tested?"
            ranked = [s for s in ranked if states_amount(s.text)] or ranked
        return [ranked[0].text] if ranked else []

    def introduction(self, question: str, paper: Paper) -> list[str]:
        """For a question asking only what a paper it names is ("What is PhyProbe?", "Tell me about ViDiC-1K",
        "Summarize VISD"): the sentence bringing the paper in, quoted first; none for any other question."""
        asked = self.chat.catalog.without_name(question, paper.paper_id)
        if asked == question.strip() or question_terms(asked) or not _WHAT_IT_IS.search(asked):
            return []
        own = self.chat.store.sentences([paper.paper_id])[paper.paper_id]
        return [sentence] if (sentence := introducing_sentence(paper, own)) else []

    def unmentioned_names(self, question: str, paper: Paper) -> list[DetailAsk]:
        """For a claim checked of one paper ("Does PhyProbe use V-JEPA as its encoder?", "Is it true that it ran on
        Pythia?"), or a choice of names offered ("V-JEPA or VideoMAE?") none of which it writes: the models, datasets
        or tools it names that the paper's abstract never mentions, each a detail the abstract does not state (the
        answer says so instead of quoting the encoder sentence as if it agreed)."""
        offered = _NAMES_OFFERED.search(question)
        if not (_CLAIM_CHECK.search(question) or offered):
            return []
        text = paper.text.lower()
        own = {w.lower() for w in re.findall(r"[\w-]+", paper.name)}
        near = tuple(w for w in content_words(question) if len(w) > 4)  # what the closest sentence should touch
        words = dictionary_words()
        names = [name for name in _model_names(question) if name.lower() not in own
                 and not self.chat.catalog.named_in(name)
                 # an English compound ("AI-generated", "Chinese-English") names no model or dataset
                 and not all(part.lower() in words or is_common_acronym(part) for part in name.split("-"))]
        if offered and not _CLAIM_CHECK.search(question) and any(name.lower() in text for name in names):
            return []  # one of the names offered is the paper's: its sentence answers the choice
        return [DetailAsk(f"use of “{name}”", near, False, False, shape=rf"(?i:(?<!\w){re.escape(name)}(?!\w))")
                for name in names if name.lower() not in text]

    def unloaded_sides(self, question: str, pinned: list[str]) -> list[str]:
        """The names a comparison sets against the one paper it names that are no loaded paper's ("Compare PatchKV
        and FlashAttention"): the answer says so instead of describing PatchKV as if that were the comparison."""
        if len(pinned) != 1 or not COMPARE_CUE.search(question):
            return []
        # a well-known acronym is what the papers work on ("... sparse model inversion for ViTs"), not a paper; nor is
        # the baseline the paper itself measures against ("How much does PipeFSDP improve over TorchTitan?")
        own = self.chat.catalog.lower_texts()[pinned[0]]
        return [term for term in coined_terms(question, self.chat.catalog.mentions(question))
                if not self.chat.catalog.named_in(term)
                and not (term.lower() in own and re.search(rf"{_BASELINE_LEAD}\s+(?:the\s+)?{re.escape(term)}\b", question, re.I))]

    def mentioned(self, question: str, filters: PaperFilters | None, everyday: bool = False) -> list[str]:
        """Papers whose abstract uses a made-up term of the question ("What is OR-GIGPO?"), when only a few do;
        ``everyday``: a well-known acronym too ("Which papers use GRPO?")."""
        ruled_out = {name.lower() for name in _ruled_out_names(question)}
        terms = [t.lower() for t in coined_terms(question, everyday=everyday) if t.lower() not in ruled_out]
        if not terms:
            return []
        found = []
        for paper_id, text in self.chat.catalog.lower_texts().items():
            # A hyphenated variant counts ("GRPO" in "Sync-GRPO"), a longer word does not ("GRPOs" aside).
            if any(t in text and re.search(rf"(?<!\w){re.escape(t)}s?(?!\w)", text) for t in terms):
                if filters is None or filters.admits(self.chat.catalog.papers[paper_id]):
                    found.append(paper_id)
                    if len(found) > MAX_MENTIONED:
                        return []  # a common term after all: not a pointer to one paper
        return found

    def name_users(self, question: str, filters: PaperFilters | None) -> dict[str, re.Pattern]:
        """Papers using a model, dataset or tool a list question names ("run experiments with Qwen models", "use
        LLaMA"), up to WHICH_MAX_PAPERS for each name, a version written after it included ("Qwen" in "Qwen3-8B"); by
        id, with the name as found in their text. An acronym the abstracts spell out ("LLMs") names a topic, not a
        tool: ``mentioned`` pins it only when rare."""
        found: dict[str, re.Pattern] = {}
        for name in _model_names(question) + self.typed_lower(question):
            if self.chat.glossary.long_form(name):
                continue
            pattern = re.compile(rf"(?<!\w){re.escape(name)}(?:[\d.]*\d)?s?(?!\w)", re.IGNORECASE)
            # a paper using the letters for something else is no user ("ctr prediction" and Med-UniC's "CTR")
            users = [p.paper_id for p in self.chat.catalog.papers.values()
                     if pattern.search(p.text) and (filters is None or filters.admits(p))
                     and not defines_otherwise(name, p.text)]
            if len(users) <= WHICH_MAX_PAPERS:
                found.update({pid: pattern for pid in users if pid not in found})
        return found

    def typed_lower(self, question: str) -> list[str]:
        """Names typed in lower case ("all work using qwen models"): words no dictionary has that the abstracts
        write, and only ever capitalised ("Qwen3-8B", "Qwen2.5-VL")."""
        names, catalog = [], self.chat.catalog
        for word in dict.fromkeys(re.findall(r"(?<![\w-])[a-z][a-z\d]{2,}(?![\w-])", question)):
            if word in dictionary_words() or word in ASKING_WORDS:
                continue
            pattern = re.compile(rf"(?<![\w-]){word}", re.IGNORECASE)
            written = {m.group() for pid, text in catalog.lower_texts().items() if word in text
                       for m in pattern.finditer(catalog.papers[pid].text)}
            if written and all(not w.islower() for w in written):
                names.append(min(written))
        return names

    def with_rare_word_users(self, question: str, hits: list[PaperHit], filters: PaperFilters | None) -> list[PaperHit]:
        """The hits with the papers using a word of the question that almost no paper uses ("proprioception") put
        into the rescored pool: among thousands of abstracts the question's common words ("vision-language-action
        policies") fill the retrieved ten with others. Only in a large corpus, where such a word is rare."""
        stats = self.chat.term_stats
        if stats.n < GAP_MIN_PAPERS:
            return hits
        limit = RARE_WORD_SHARE * stats.n
        rare = sorted((stats.stem_df[stem], stem) for w in question_terms(question) if len(w) >= RARE_WORD_MIN_LETTERS
                      for stem in [snowball_stem(w)] if 0 < stats.stem_df[stem] <= limit)
        known = {h.paper.paper_id for h in hits}
        added: list[PaperHit] = []
        for _, stem in rare:
            pattern = re.compile(rf"(?<![\w-]){re.escape(stem)}")
            for pid, text in self.chat.catalog.lower_texts().items():
                if len(added) == RARE_WORD_PAPERS:
                    break
                paper = self.chat.catalog.papers[pid]
                if (pid not in known and stem in text and pattern.search(text)
                        and (filters is None or filters.admits(paper))):
                    added.append(PaperHit(paper))
                    known.add(pid)
        if not added:
            return hits
        keep = RESCORE_POOL - len(added)
        return hits[:keep] + added + hits[keep:]

    def rescore(self, question: str, hits: list[PaperHit],
                coverage_weight: float = COVERAGE_WEIGHT) -> list[tuple[float, PaperHit]]:
        """The first RESCORE_POOL candidates, best first, each scored on its best sentence, its whole abstract
        (GIST_WEIGHT) and how much of the question's topic (rare terms weighing more) it covers (coverage_weight);
        the TOKEN_POOL best of them within TOKEN_GAP of the first also on their word-by-word match (TOKEN_WEIGHT)."""
        pool = hits[:RESCORE_POOL]
        if not pool:
            return []
        # each paper hears the question in its own words: "near-infrared" as "NIR" where that is all it writes
        asked = {h.paper.paper_id: self.chat.glossary.in_own_words(question, h.paper.text) for h in pool}
        vectors_of = {text: self._query_vec(text) for text in set(asked.values())}
        sentences = self.chat.store.sentences([h.paper.paper_id for h in pool])
        terms, stats = question_terms(question), self.chat.term_stats
        alternatives = alternative_groups(question)
        scored, nearness = [], {}  # nearness: each paper's sentences' similarities to the question
        for hit in pool:
            question_vec = vectors_of[asked[hit.paper.paper_id]]
            vectors = np.asarray([v for _, v in sentences.get(hit.paper.paper_id, [])], dtype=np.float32)
            gist = 0.0
            if len(vectors):
                nearness[hit.paper.paper_id] = vectors @ question_vec
                hit.relevance = max(hit.relevance, float(np.max(nearness[hit.paper.paper_id])))
                mean = vectors.mean(axis=0)
                gist = float(mean @ question_vec / (np.linalg.norm(mean) or 1.0))
            coverage = topic_coverage(terms, self.said(hit.paper), stats, alternatives)
            scored.append((hit.relevance + GIST_WEIGHT * gist + coverage_weight * coverage, hit))
        scored.sort(key=lambda x: x[0], reverse=True)
        reach = None if len(terms) >= LONG_QUESTION else TOKEN_SENTENCES
        leaders = [h.paper.paper_id for score, h in scored[:TOKEN_POOL] if score >= scored[0][0] - TOKEN_GAP]
        match = {}
        for text in dict.fromkeys(asked[pid] for pid in leaders):
            match.update(self.chat.token_matcher.recall(text, {
                pid: _nearest(sentences.get(pid, []), nearness.get(pid), reach) for pid in leaders if asked[pid] == text}))
        # The rest get the leaders' lowest match: on the same scale, and still below every leader.
        floor = min(match.values())
        scored = [(score + TOKEN_WEIGHT * match.get(h.paper.paper_id, floor), h) for score, h in scored]
        return sorted(scored, key=lambda x: x[0], reverse=True)

    def said(self, paper: Paper) -> str:
        """What the paper's abstract says, its acronyms also spelled out ("NIR": "near-infrared")."""
        return self.chat.glossary.with_long_forms(paper.text)

    def said_to(self, question: str, paper: Paper) -> str:
        """What the paper says, also in the question's everyday words for its terms ("graphics chips": a paper on GPUs
        says it)."""
        text = self.said(paper)
        return f"{text} {says_plainly(question, text)}"

    def answerable(self, scored: list[tuple[float, PaperHit]], margin: float = CITE_MARGIN,
                   clear_min: float = CLEAR_MIN) -> list[PaperHit]:
        """For a question naming no paper: the rescored candidates that answer it, best first, or none (then we
        refuse): those at ANSWERABLE or more and within ``margin`` of the best, or one standing clear of the rest
        from ``clear_min``."""
        if not scored:
            return []
        top = scored[0][0]
        runner_up = scored[1][0] if len(scored) > 1 else 0.0
        clear_winner = top >= clear_min and top - runner_up >= CLEAR_MARGIN
        if (top < ANSWERABLE and not clear_winner) or scored[0][1].relevance < self.min_rel:
            return []
        return [h for score, h in scored if score >= min(top, max(ANSWERABLE, top - margin))][:MAX_NAMED]

    @staticmethod
    def lead(scored: list[tuple[float, PaperHit]]) -> float:
        """How far the best candidate is above the runner-up when it scores ANSWERABLE (0 when it does not)."""
        if not scored or scored[0][0] < ANSWERABLE:
            return 0.0
        return scored[0][0] - (scored[1][0] if len(scored) > 1 else 0.0)

    def without_gaps(self, question: str, answers: list[T], paper_of: Callable[[T], Paper],
                     half_will_do: bool = False) -> tuple[list[T], str]:
        """The answers that leave no gap in the question's topic, and, when none does, the gap in one sentence.

        In a large corpus, a question word no abstract uses means the topic is absent; a rare one must appear in
        each paper that answers ("lip reading from video" is not answered by a paper on video alone), or a word of
        nearly the same meaning must; with ``half_will_do``, half of the rare words are enough; in a long question, one
        more word may be missing, or absent from the corpus. Words the question's meaning hardly rests on are not
        checked (relevance.essential_words).
        """
        if not answers:
            return [], ""
        long_question = len(question_terms(question)) >= LONG_QUESTION
        absent = absent_terms(question, self.chat.term_stats)
        rare = rare_terms(question, self.chat.term_stats)

        texts = [self.said_to(question, paper_of(a)) for a in answers]
        own = [stems(text) for text in texts]
        # a word an acronym's long form says is not absent ("scanner": a paper writing "LiDAR" says it)
        spelled_out = set().union(*(stems(text[len(paper_of(a).text):]) for a, text in zip(answers, texts)))
        absent = [w for w in absent if not stems(w) <= spelled_out]
        unsaid = [(a, [w for w in rare if not mentions_term(w, said)]) for a, said in zip(answers, own)]
        gaps = list(dict.fromkeys(absent + [w for _, missing in unsaid for w in missing]))
        # A word the question hardly rests on is phrasing, not a missing topic. A long question may miss one word
        # anyway: it is probed only for more (probing its 12 to 36 words costs 0.2 to 0.7 s), and a word no abstract
        # uses counts against it however lightly it weighs ("dental X-rays ... of teeth").
        if len(gaps) > long_question:
            essential = set(essential_words(question, gaps, self.chat.embed_texts))
            absent = [w for w in absent if w in essential or long_question]
            unsaid = [(a, [w for w in missing if w in essential]) for a, missing in unsaid]
        if len(absent) > long_question:
            return [], f"No loaded paper mentions “{absent[0]}”."
        allowed = (len(rare) // 2 if half_will_do else 0) + long_question - len(absent)
        synonyms = self.chat.word_vectors
        kept = [a for (a, missing), text in zip(unsaid, texts)
                if len(missing) <= allowed or len(synonyms.without_synonym(missing, text)) <= allowed]
        if kept:
            return kept, ""
        return [], f"The papers nearest to it never mention “{unsaid[0][1][0]}”."

    def with_every_facet(self, question: str, answers: list[PaperHit], details: list[DetailAsk]
                         ) -> tuple[list[PaperHit], str]:
        """The answers lacking no facet of the question's topic (relevance.unmet_facets), and, when all lack one, that
        facet in one sentence: QuIP, on quantizing LLMs, does not answer "4-bit quantization for vision-language models".
        The details asked for ("which GPUs", "on Pythia?") are no facet: saying an abstract lacks them is the answer's
        job."""
        asked = [term for d in details for term in d.terms if term]
        names = {part.lower() for name in _model_names(question) for part in name.split("-")}
        words = [w for w in topic_words(question)
                 if w not in _ASPECT_WORDS and w not in names and not any(w.startswith(t) for t in asked)]
        papers = [a.paper for a in answers]
        sentences = self.chat.store.sentences([paper.paper_id for paper in papers])
        unsaid, vectors = [], []
        for paper in papers:
            text = self.said_to(question, paper)
            own = stems(text)
            missing = [w for w in words if not mentions_term(w, own) and not any(
                all(mentions_term(part, own) for part in question_terms(form))
                for form in self.chat.glossary.spelled_out(w))]  # "LLMs": a paper on "large language models"
            unsaid.append(self.chat.word_vectors.without_synonym(missing, text) if missing else [])
            vectors.append(np.asarray([v for _, v in sentences.get(paper.paper_id, [])], dtype=np.float32))
        unmet = unmet_facets(question, unsaid, vectors, self.chat.embed_texts)
        kept = [answer for answer, facets in zip(answers, unmet) if not facets]
        if kept:
            return kept, ""
        lacking = next(facets for facets in unmet if facets)
        return [], f"The papers nearest to it never mention “{lacking[0]}”."

    def on_asked_data(self, question: str, answers: list[T], paper_of: Callable[[T], Paper]) -> tuple[list[T], str]:
        """The answers on every kind of data the question confines its topic to (relevance.unmet_modalities), and,
        when none is, that kind in one sentence: a KV-cache paper on text LLMs does not answer "KV-cache compression
        for speech recognition models", however near its wording; nor does a lead make it so."""
        unmet = [unmet_modalities(question, self.said_to(question, paper_of(answer))) for answer in answers]
        kept = [answer for answer, kinds in zip(answers, unmet) if not kinds]
        if kept or not answers:
            return kept, ""
        return [], f"The papers nearest to it are not on {unmet[0][0]}."

    def of_the_asked_versions(self, question: str, answers: list[PaperHit]) -> tuple[list[PaperHit], str]:
        """The answers writing every versioned name the question asks of in that version, or at least not in another
        (relevance.other_versions), and, when none does, the mismatch in one sentence: a runtime analysis of MOEA/D
        that names NSGA-II does not answer "Any runtime analysis of NSGA-III?"."""
        mismatched = [other_versions(question, answer.paper.text) for answer in answers]
        kept = [answer for answer, pairs in zip(answers, mismatched) if not pairs]
        if kept:
            return kept, ""
        asked, written = mismatched[0][0]
        return [], f"The papers nearest to it write of {written}, not {asked}."

    # ---- "which papers ..." ----
    def listing(self, question: str, k: int | None, filters: PaperFilters | None) -> Iterator[str]:
        # "Do any papers other than PURGE use CLIP?": papers using CLIP, PURGE left out
        question, excluded = without_excluded(question, self.chat.catalog)
        listed, scored, hits, gap = self.listed_papers(question, k, filters)
        listed = [x for x in listed if x.hit.paper.paper_id not in excluded]
        scored = [x for x in scored if x.hit.paper.paper_id not in excluded]

        def offline() -> Answer:
            if not listed:  # the closest named are those nearest to the list's topic, not to the question's wording
                return refusal(hits, reason=gap, closest=[x.hit.paper for x in scored if x.score >= WHICH_NEAR])
            return listing_answer(listed, scored)

        if not self.chat.has_llm:
            return offline()
        # the LLM picks from the papers the offline list keeps and the next best scored ones
        candidates = [x.hit.paper for x in listed] + [x.hit.paper for x in scored if x not in listed]
        return (yield from write_with_llm(self.chat, question, candidates[:max(LIST_CANDIDATES, len(listed))],
                                          [x.hit for x in scored], offline, prompt_name="list", kind="which"))

    def listed_papers(self, question: str, k: int | None, filters: PaperFilters | None
                      ) -> tuple[list[ListedPaper], list[ListedPaper], list[PaperHit], str]:
        """The papers a "which papers" question lists, best first; every candidate scored; the candidates; and,
        when none is listed, the gap in the question's topic."""
        topic = self.chat.glossary.in_field_terms(listing_topic(question))
        searched = self.chat.glossary.in_field_terms(question)
        queries = [(searched, self._query_vec(searched)), (topic, self._query_vec(topic))]
        hits = self.chat.retrieve_hits(searched, max(k or 0, LISTING_POOL), filters)
        # A made-up term, or an acronym, only a paper or two use ("Which papers evaluate on LIBERO?", "use GRPO?")
        # names those papers.
        users = self.name_users(question, filters)
        mentioned = list(dict.fromkeys(self.mentioned(question, filters, everyday=True) + list(users)))
        known = {h.paper.paper_id for h in hits}
        hits += [PaperHit(self.chat.catalog.papers[pid]) for pid in mentioned if pid not in known]
        known.update(mentioned)
        for _, vec in queries:  # a wider dense pool: a list must not miss a paper the fusion cut
            for pid in self.chat.retriever.nearest_papers(vec, LISTING_SENTENCES, filters):
                paper = self.chat.catalog.get(pid)
                if pid not in known and paper is not None:
                    hits.append(PaperHit(paper))
                    known.add(pid)
        sentences = self.chat.store.sentences(list(known))
        terms, stats = question_terms(question), self.chat.term_stats
        anchors = anchor_terms(question, stats)
        alternatives = alternative_groups(question)

        def bonus(paper: Paper) -> float:
            return (WHICH_COVERAGE_WEIGHT * topic_coverage(terms, paper.text, stats, alternatives)
                    + WHICH_ANCHOR_WEIGHT * anchor_share(anchors, paper.text))

        scored = score_for_listing(queries, hits, sentences, bonus)
        listed = listing_cutoff(scored)
        # a sentence rarely says "biomedical": papers writing "pathology" or "single-cell" are listed all the same
        candidates = [x for x in scored if x.score >= WHICH_BROAD_MIN and x not in listed]
        listed += broad_field_members(listing_topic(question), candidates, lambda x: x.hit.paper.text, stats)
        # "e.g. spiking networks or predictive coding": a paper writing one of the examples the asker gives is wanted
        listed += example_members(listing_topic(question), [x for x in candidates if x not in listed],
                                  lambda x: x.hit.paper.text)
        new_resources = asks_for_new_resources(question)
        if new_resources:  # "new video benchmarks": each paper bringing one, however it words it
            listed += resource_members(listing_topic(question), [x for x in candidates if x not in listed],
                                       lambda x: x.hit.paper.text,
                                       lambda x: introduces_resource(sentences[x.hit.paper.paper_id]))
        listed = in_broad_fields(listing_topic(question), listed, lambda x: x.hit.paper.text)
        listed = sorted(listed, key=lambda x: x.score, reverse=True)[:WHICH_MAX_PAPERS]
        listed, gap = self.without_gaps(question, listed, lambda item: item.hit.paper)
        if listed:
            listed, gap = self.on_asked_data(question, listed, lambda item: item.hit.paper)
        for name in _ruled_out_names(question):  # "(not Qwen2.5)": a paper listed for using it is not wanted
            ruled_out = re.compile(rf"(?<!\w){re.escape(name)}", re.IGNORECASE)
            listed = [x for x in listed if x.hit.paper.paper_id in users or not ruled_out.search(x.hit.paper.text)]
        if new_resources:  # "Which papers introduce new video benchmarks?", not ones tested on one
            brought = {x.hit.paper.paper_id: resource_sentence(sentences[x.hit.paper.paper_id]) for x in listed}
            listed = [x for x in listed if brought[x.hit.paper.paper_id]]
            for x in listed:  # each listed with the sentence bringing its benchmark, not a results sentence
                x.sentence = brought[x.hit.paper.paper_id]
        named = [x for x in scored if x.hit.paper.paper_id in mentioned and x not in listed]
        named, _ = self.on_asked_data(question, named, lambda item: item.hit.paper)  # on other data, a user is no answer
        for x in listed + named:  # a paper listed for using a name is listed with the sentence using it
            name = users.get(x.hit.paper.paper_id)
            if name and not name.search(x.sentence):
                x.sentence = next((text for text, _ in sentences[x.hit.paper.paper_id] if name.search(text)), x.sentence)
        return sorted(listed + named, key=lambda x: x.score, reverse=True), scored, hits, gap

    # ---- comparisons ----
    def compared_papers(self, question: str, intent: Intent, pinned: list[str],
                        filters: PaperFilters | None) -> tuple[list[str], int]:
        """Ids of the compared papers: named or referred-to ones, then the best paper for each described side, or
        the first MAX_COMPARED a list of the compared group gives ("Compare the video benchmarks"); and how many
        papers that group has (0 for no group)."""
        if intent.group:
            listed, scored, _, _ = self.listed_papers(f"Which papers are about {intent.group}?", None, filters)
            found = max(len(listed), sum(x.score >= WHICH_MIN_RELEVANCE for x in scored))  # as a list would count
            return [x.hit.paper.paper_id for x in listed][:MAX_COMPARED], found
        ids = list(pinned)
        close_calls: list[tuple[int, list[Paper]]] = []  # a described side's index, and its candidates near the best
        for side in intent.described:
            side = self.chat.glossary.in_field_terms(side)
            hits = [h for h in self.chat.retrieve_hits(side, SIDE_K, filters) if h.paper.paper_id not in ids]
            named = [h for h in hits if h.named]
            if named:
                ids.append(named[0].paper.paper_id)
                continue
            scored = self.rescore(side, hits, SIDE_COVERAGE_WEIGHT)
            if self.answerable(scored, margin=0.0):
                ids.append(scored[0][1].paper.paper_id)
                close_calls.append((len(ids) - 1, [h.paper for s, h in scored if s >= scored[0][0] - SAME_YEAR_MARGIN]))
        # "the dehazing paper and the motion deblurring one": one batch, the newest of the papers found
        newest = max((y for y in (self.chat.catalog.papers[pid].year for pid in ids) if y is not None), default=None)
        for index, close in close_calls:
            if newest is not None and self.chat.catalog.papers[ids[index]].year != newest:
                ids[index] = next((p.paper_id for p in close if p.year == newest and p.paper_id not in ids), ids[index])
        return ids[:MAX_COMPARED], 0

    def compare(self, question: str, intent: Intent, pinned: list[str], k: int | None,
                filters: PaperFilters | None) -> Iterator[str]:
        ids, in_group = self.compared_papers(question, intent, pinned, filters)
        if len(ids) < 2:
            answer = yield from self.lookup(question, intent, ids, k, filters)
            if in_group and not answer.refused:
                answer.lead_with(f"Only one loaded paper is about “{intent.group}”.")
            return answer
        answer = yield from self._compare_papers(question, ids, k, filters, intent.details)
        if in_group > len(ids):
            answer.lead_with(f"The {len(ids)} papers most about “{intent.group}” of the {in_group} found are compared.")
        return answer

    def _compare_papers(self, question: str, ids: list[str], k: int | None, filters: PaperFilters | None,
                        details: Sequence[DetailAsk] = ()) -> Iterator[str]:
        hits = self.hits(question, k, filters, ids)
        papers = [self.chat.catalog.papers[pid] for pid in ids]
        sentences = self.chat.store.sentences(ids)
        # where each paper is named: by a name the catalog knows, or by its full name (a follow-up's rewrite)
        named_at = self.chat.catalog.mentions(question) + [
            (at, at + len(p.name), p.paper_id) for p in papers if (at := question.lower().find(p.name.lower())) >= 0]
        parts = asked_of_each(question, named_at)
        asked = {pid: (part, self._query_vec(part), asked_details(part)) for pid, part in parts.items()
                 if pid in ids} if set(ids) <= parts.keys() else {}
        comparison = compare_papers(question, self._query_vec(question), papers, sentences,
                                    self.chat.aspect_classifier, details, asked)
        answer = Answer(
            text=comparison.text(), citations=comparison.cites.citations,
            papers=papers + [h.paper for h in hits if h.paper.paper_id not in ids],
            kind="comparison", table=[row.to_dict() for row in comparison.rows],
        )
        if self.settings.llm.backend == "extractive":
            return answer
        table = comparison.table_markdown() + "\n\n"
        yield table
        try:
            sources, deltas = stream_llm_answer(self.chat.llm, self.settings, question, papers, prompt_name="comparison")
            text = yield from relay(deltas)
            if not text:
                raise LLMUnavailable("the LLM returned an empty comparison")
            text, checked = verify_citations(text, sources, self.chat.embed_texts, sentences)
        except LLMUnavailable as exc:
            log.warning("LLM comparison failed, showing the offline synthesis: %s", exc)
            answer.notice = f"Offline synthesis shown: {exc}."
            return answer
        quotes = {c.paper.paper_id: c.quote for c in checked if c.quote}
        answer.text = text + "\n\n" + table.strip()  # the synthesis first, as offline
        answer.citations = [Citation(c.n, c.paper, quotes.get(c.paper.paper_id) or c.quote) for c in answer.citations]
        answer.backend = self.settings.llm.backend
        return answer


def _model_names(question: str) -> list[str]:
    """Terms that may name a model, dataset or tool: the coined terms ("Qwen3-VL", "LLaMA", "GSM8K"), and
    capitalised words inside a sentence that are no English word ("Qwen", "Mistral"); an adjective made of a name
    ("Gaussian", "Bayesian", "Euclidean") describes a method instead."""
    capitalised = [m.group(1) for m in _MID_SENTENCE_CAPITALISED.finditer(question)
                   if m.group(1).lower() not in dictionary_words() and not m.group(1).endswith(("ian", "ean"))]
    # An all-capital acronym ("DNA", "CLIP") is as often a topic as a tool: ``mentioned`` pins it only when rare.
    coined = [t for t in coined_terms(question, everyday=True) if not (t.isupper() and t.isalpha())]
    coined = [re.sub(r"-(?:family|series|generation|based|style|like|class|sized?)$", "", t, flags=re.I) for t in coined]
    ruled_out = _ruled_out_names(question)
    return [name for name in dict.fromkeys(coined + capitalised) if name not in ruled_out]


def _ruled_out_names(question: str) -> list[str]:
    """The names the question rules out: "Qwen2.5" in "Qwen3 models (not Qwen2.5)"."""
    return [m.group(1) for m in re.finditer(rf"{_RULED_OUT}\s+(?:the\s+|any\s+)?([A-Z][\w.-]*\d[\w.-]*|[A-Z][a-z]*[A-Z][\w.-]*)",
                                            question)]


def _nearest(sentences: list[tuple[str, list[float]]], similarity: np.ndarray | None, count: int | None) -> list[str]:
    """The texts of the ``count`` sentences most similar to the question (all when None), in the abstract's order."""
    if count is None or similarity is None or len(sentences) <= count:
        return [text for text, _ in sentences]
    return [sentences[i][0] for i in sorted(np.argsort(-similarity)[:count])]
