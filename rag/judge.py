"""Judge relevance: which candidate papers answer the question. The candidates are rescored on their best
sentence, whole abstract, topic coverage and word-by-word match; then gates refuse what the score alone would let
through (a rare word of the question no candidate uses, a facet, a kind of data, a version). Each gate says why."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TypeVar

import numpy as np

from rag.answerable import answerable_model, signals
from rag.focus import answer_words, asked_focus
from rag.types import DetailAsk
from rag.find import RESCORE_POOL, Candidates, model_names
from rag.intent import Intent, QuestionKind
from rag.names import NameCheck
from rag.relevance import (
    GAP_MIN_PAPERS,
    absent_terms,
    alternative_groups,
    essential_words,
    other_versions,
    rare_terms,
    says_plainly,
    topic_coverage,
    topic_words,
    unmet_facets,
    unmet_modalities,
)
from rag.retrieve import PaperHit
from rag.terms import TYPED_ACRONYM, mentions_term, question_terms, spells_initials, stems
from rag.verdict import Verdict
from store.paper import Paper

T = TypeVar("T")

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
# A second paper is cited for an unnamed question only when it scores this close to the best.
CITE_MARGIN = 0.05
# A question of LONG_QUESTION content words or more describes its paper at length: one of its rare words missing from
# the paper, or one word no abstract uses, is the asker's wording ("so the bound doesn't blow up", "all-or-nothing
# spikes", "the memory blowup"), not another topic; the questions the rare-word rule is for name their topic in a few
# words ("lip reading from video").
LONG_QUESTION = 12
# What a follow-up may ask of any paper without naming a topic ("which datasets?", "and the runtime?", "main idea?").
ASPECT_WORDS = frozenset("""data dataset datasets benchmark benchmarks runtime speed speedup latency memory compute cost
    efficiency overhead complexity inference hardware requirement requirements implementation hyperparameter
    hyperparameters limitation limitations ablation ablations contribution contributions result results accuracy
    baseline baselines metric metrics code training parameter parameters score scores dimension dimensions
    experiment experiments evaluation performance improvement improvements gain gains finding findings assumption
    assumptions proof theorem bound bounds guarantee guarantees novelty size error errors setup setting settings
    architecture loss losses objective main key idea ideas takeaway takeaways summary motivation problem goal task
    tasks input inputs output outputs robustness scalability scaling percent percentage""".split())
# At most this many named (or referred-to) papers are answered about; more papers using a coined term means
# the term is common.
MAX_NAMED = 3

# Standing CLEAR_MARGIN clear of thousands of abstracts (GAP_MIN_PAPERS or more) tells more than standing clear of 38:
# there a paper does from LARGE_CORPUS_CLEAR_MIN, and the question's rare words and facets are still checked against
# it. Long paraphrases of one paper score 1.09 to 1.27 at 8.4k papers ("cleaning up foggy camera images on a
# low-power embedded board ..."); off-topic questions clearing the rest by as much score below 0.9, or miss words.
LARGE_CORPUS_CLEAR_MIN = 1.05
# A paper scoring ANSWERABLE or more and this far above every other candidate answers a long question even when its
# rare words are missing from it: they are the asker's phrasing ("grabbing any chunk of the exposure"); in a short
# question a rare word names the topic ("reading sheet music" is not answered by a music-audio benchmark far ahead).
# One leading by CLEAR_MARGIN answers when it uses, or has a near-synonym for, half of the rare words: in "tissue
# slides at several zoom levels" PathView-Bench has "organs" for "tissue" but nothing for "zoom" ("fields of view").
DECISIVE_MARGIN = 0.25
# A question naming what its paper never writes may be on two papers: of that paper and this many more candidates,
# the two writing every name between them (PaperJudge.find_pair).
PAIR_CANDIDATES = 10


class PaperJudge:
    """Scores candidate papers against a question and keeps those that answer it, saying why when none does."""

    def __init__(self, chat):
        self.chat = chat
        self.settings = chat.settings
        self.min_rel = chat.settings.retrieval.min_relevance
        self.names = NameCheck(chat)

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
        vectors_of = {text: self.chat.question_vec(text) for text in set(asked.values())}
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
        """What the paper says, its title and abstract, its acronyms also spelled out ("NIR": "near-infrared"): a
        title may hold the words a question describes it by ("Notes on Images and Communication")."""
        return self.chat.glossary.with_long_forms(f"{paper.title}\n{paper.text}")

    def said_to(self, question: str, paper: Paper) -> str:
        """What the paper says, also in the question's everyday words for its terms ("graphics chips": a paper on GPUs
        says it) and acronyms (a paper on "proton exchange membrane fuel cells" says "PEM"), and who wrote it:
        "Danchin's 1D compressible Navier-Stokes paper" describes it by an author its abstract never names."""
        text = self.said(paper)
        # an acronym of the question whose initials the paper spells out ("PEM": "proton exchange membrane"), as the
        # name check reads it (rag.names)
        low = text.lower()
        spelled = [a for a in dict.fromkeys(TYPED_ACRONYM.findall(question)) if spells_initials(a, low)]
        return f"{text} {says_plainly(question, text)} {' '.join(paper.authors)} {' '.join(spelled)}"

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

    def with_every_facet(self, question: str, answers: list[PaperHit], details: list[DetailAsk],
                         essential_only: bool = False) -> tuple[list[PaperHit], str]:
        """The answers lacking no facet of the question's topic (relevance.unmet_facets), and, when all lack one, that
        facet in one sentence: QuIP, on quantizing LLMs, does not answer "4-bit quantization for vision-language models".
        The details asked for ("which GPUs", "on Pythia?") are no facet: saying an abstract lacks them is the answer's
        job. ``essential_only``: only facets the question's meaning rests on (relevance.essential_words) count, and
        not the thing a what/which question asks for ("What statistic do they give?")."""
        asked = [term for d in [*details, *(asked_focus(question) if essential_only else [])] for term in d.terms if term]
        names = {part.lower() for name in model_names(question) for part in name.split("-")}
        words = [w for w in topic_words(question)
                 if w not in ASPECT_WORDS and w not in names and not any(w.startswith(t) for t in asked)]
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
        if essential_only and any(unmet):
            essential = set(essential_words(question, sorted({w for facets in unmet for w in facets}),
                                            self.chat.embed_texts))
            unmet = [[w for w in facets if w in essential] for facets in unmet]
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

    def choose(self, question: str, intent: Intent, found: Candidates) -> Verdict:
        """Which papers answer a lookup. Papers the question names answer it. Otherwise the rescored candidates pass
        each gate in turn (the score and its lead, the topic's rare words, its facets, its kind of data, the versions
        it names), and the calibrated model (rag.answerable), reading the score and the gates' verdicts, decides
        between an answer, a hedged answer from the closest paper, and a refusal."""
        verdict = self.verdict(question, intent, found)
        named = found.pinned and not found.by_term
        # a detail asked of a named paper is answered by saying what its abstract does not state ("A100 or H100?")
        if "names" in self.chat.settings.retrieval.gates and verdict.chosen and not (named and intent.details):
            answers = answer_words(question) if intent.details else ()
            self.hedge_other_names(question, verdict, named=named, answers=answers)
            # a detail asked of one paper ("what CO-to-H2 factor did they assume?") is that paper's to state or not;
            # a paper named beside a name only another paper writes ("the Usutu virus model for Germany and the M-SDT
            # dengue model") is one of two; an LLM reads the candidates itself
            side_by_side = intent.kind is QuestionKind.COMPARISON or intent.sets_side_by_side
            if verdict.hedged and (side_by_side or not intent.details) and not self.chat.has_llm:
                self.find_pair(question, verdict, answers)
        return verdict

    def hedge_other_names(self, question: str, verdict: Verdict, named: bool = False,
                          answers: Collection[str] = ()) -> None:
        """Keeps the chosen papers writing every name and term of art the question rests on (rag.names), or, when
        none does, hedges the best: asked of "XRISM spectroscopy of the Perseus cluster", the XRISM paper on Hydra-A
        is only the closest, whatever its score; so is a cholera model asked about dengue. Papers the question
        names (``named``) all stay, hedged when none writes the other name: "ultrafast magneto-pressure spectroscopy
        on La3Ni2O7", asked of the paper by that title on Pr4Ni3O10. The ``answers`` a detail question offers are no
        such name (rag.focus.answer_words)."""
        unwritten = self.names.unwritten(question, [hit.paper for hit in verdict.chosen], named, answers)
        if all(unwritten):
            verdict.chosen, verdict.hedged = verdict.chosen[:1], True
            verdict.gap = verdict.gap or f"The papers nearest to it never mention “{unwritten[0][0]}”."
        elif not named:
            verdict.chosen = [hit for hit, missing in zip(verdict.chosen, unwritten) if not missing]

    def find_pair(self, question: str, verdict: Verdict, answers: Collection[str]) -> None:
        """Sets the verdict's pair when its paper leaves a name of the question (rag.names) unwritten: of that paper
        and the next PAIR_CANDIDATES candidates, the two nearest the top of the ranking that write every name between
        them. The question is then on two papers ("the CSST emulator extension and the COLA-based emulator"), not on
        one lacking a name."""
        best = verdict.chosen[0]
        hits = [best] + [hit for hit in verdict.hits if hit.paper.paper_id != best.paper.paper_id][:PAIR_CANDIDATES]
        lacking = [set(missing) for missing in self.names.unwritten(question, [h.paper for h in hits], False, answers)]
        if not lacking[0]:
            return
        pairs = [(i, j) for j in range(len(hits)) for i in range(j) if not lacking[i] & lacking[j]]
        if pairs:
            i, j = min(pairs, key=lambda pair: (sum(pair), pair))
            i, j = (i, j) if lacking[i] else (j, i)  # the one lacking a name first
            verdict.pair, verdict.unwritten = [hits[i], hits[j]], sorted(lacking[i])

    def verdict(self, question: str, intent: Intent, found: Candidates) -> Verdict:
        """The papers named, or the rescored candidates through the gates and the calibrated decision."""
        hits = found.hits
        if found.pinned:
            chosen = [h for h in hits if h.named][:MAX_NAMED]
            if not found.by_term:
                return Verdict(chosen, hits)
            # a coined term only a few papers use pins them: "NIR" in "the fog-removal one fusing NIR with ..."; of
            # those, the ones the rest of the question fits answer, and the calibrated decision weighs the rest of
            # the question ("omega-3 ... in Hispanic adults", asked of an omega-3 study of another population)
            scored = self.rescore(self.chat.glossary.for_search(question), chosen)
            chosen = [h for score, h in scored if score >= scored[0][0] - DECISIVE_MARGIN]
            chosen, lacking = self.facets_or_closest(question, chosen, intent)
            return self.decided(Verdict(chosen, hits), question, scored, "", by_term=True).hedged_for(lacking)
        scored = self.rescore(found.query, hits)
        hits = [h for _, h in scored] + hits[len(scored):]  # a refusal names the closest by this score
        # a list's one best paper (no set clearing its cut-off) keeps the stricter floor: it asks for a kind of paper
        large = self.chat.term_stats.n >= GAP_MIN_PAPERS and intent.kind is not QuestionKind.WHICH
        chosen, gap = self.answerable(scored, clear_min=LARGE_CORPUS_CLEAR_MIN if large else CLEAR_MIN), ""
        refused_by = "" if chosen else "score"
        lead, gates = self.lead(scored), self.chat.settings.retrieval.gates
        if "gaps" in gates and (lead < DECISIVE_MARGIN or len(question_terms(question)) < LONG_QUESTION):
            chosen, gap = self.without_gaps(question, chosen, lambda h: h.paper, half_will_do=lead >= CLEAR_MARGIN)
            refused_by = refused_by or ("" if chosen else "gaps")
        lacking = ""
        if lead >= DECISIVE_MARGIN:  # a clear leader lacking a facet is only the closest paper, not a refusal
            chosen, lacking = self.facets_or_closest(question, chosen, intent)
        for gate, check in (("facets", lambda c: self.with_every_facet(question, c, intent.details)),
                            ("data", lambda c: self.on_asked_data(question, c, lambda h: h.paper)),
                            ("versions", lambda c: self.of_the_asked_versions(question, c))):
            if gate in gates and chosen and (gate != "facets" or lead < DECISIVE_MARGIN):
                chosen, gap = check(chosen)
                refused_by = refused_by or ("" if chosen else gate)
        return self.decided(Verdict(chosen, hits, gap), question, scored, refused_by).hedged_for(lacking)

    def facets_or_closest(self, question: str, chosen: list[PaperHit], intent: Intent) -> tuple[list[PaperHit], str]:
        """The chosen papers lacking no facet of the question (``with_every_facet``), or, when all lack one, all of
        them and that facet, to hedge on: "skull shape in bats" asked of a bird-skull study that leads every other
        paper by far, or of a paper pinned by a term only it uses."""
        if "facets" not in self.chat.settings.retrieval.gates or not chosen:
            return chosen, ""
        kept, lacking = self.with_every_facet(question, chosen, intent.details, essential_only=True)
        return kept or chosen, lacking

    def decided(self, verdict: Verdict, question: str, scored: list[tuple[float, PaperHit]], refused_by: str,
                by_term: bool = False) -> Verdict:
        """The verdict with its signals, decided by the calibrated model when it is on."""
        if not scored:
            return verdict
        verdict.signals = signals(question, scored, refused_by, self.chat.term_stats.n, by_term)
        if self.chat.settings.retrieval.calibrated:
            verdict.decide(answerable_model(), scored[0][1])
        return verdict


def _nearest(sentences: list[tuple[str, list[float]]], similarity: np.ndarray | None, count: int | None) -> list[str]:
    """The texts of the ``count`` sentences most similar to the question (all when None), in the abstract's order."""
    if count is None or similarity is None or len(sentences) <= count:
        return [text for text, _ in sentences]
    return [sentences[i][0] for i in sorted(np.argsort(-similarity)[:count])]
