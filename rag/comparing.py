"""Comparisons: the compared papers found (named, described sides, or a group), then a table of aspects and a
synthesis; with an LLM, the LLM writes the synthesis from the papers, the table stays."""

from __future__ import annotations

import re
from functools import cache
from collections.abc import Callable, Generator, Iterator, Sequence

import numpy as np

from rag.compare import compare_papers
from rag.details import asked_details
from rag.find import PaperFinder
from rag.llm_write import synthesize_comparison
from rag.intent import Intent
from rag.judge import ASPECT_WORDS, CLEAR_MARGIN, DECISIVE_MARGIN, PaperJudge
from rag.list_answer import WHICH_MIN_RELEVANCE
from rag.listing import ListWriter
from rag.relevance import topic_words
from rag.retrieve import PaperFilters
from rag.sides import COUNTED_GROUP, GROUP_COUNTS
from rag.sides import asked_of_each, described_sides, names_a_paper
from rag.retrieve import PaperHit
from rag.terms import content_words, mentions_term, stems
from rag.types import Answer, DetailAsk
from store.paper import Paper

# Papers a comparison table holds at most.
MAX_COMPARED = 5
# Hits retrieved per described side of a comparison; a side is a short description, so the paper chosen for
# it must cover its words (a higher coverage weight than for questions).
SIDE_K = 10
SIDE_COVERAGE_WEIGHT = 0.5
# A side described, not named, may fit several papers nearly as well (within this much of its best): of those, it is
# the one nearest to the whole question too, in a corpus on one topic ("the neutron scattering paper" with "magnetic
# order in La3Ni2O7" is not the neutron study of LaNiO2's lattice); the side's and the question's scores are added.
CLOSE_CALL_MARGIN = 0.15
# Papers compared in one question are of one batch, the one being read: of a side's close calls, one this many years
# older than the newest compared paper is not meant ("the dehazing paper and the motion deblurring one" among 8,000
# older NeurIPS abstracts: PickMoment of 2026, 0.15 below a 2023 deblurring paper).
OTHER_BATCH_YEARS = 2
# A side found surely by no paper is compared through the paper best for the whole question (besides the other side's)
# when that paper is among the side's first SIDE_AGREE candidates.
SIDE_AGREE = 3
# A question worded as a comparison but read as a lookup ("MoS2 vs NbSe2 HHG theory paper compared with the MoS2 film one",
# "Both look at small-signal stability of DFIG wind systems - what is each paper's angle?") compares the lookup's paper
# with the best other paper for the question when it counts two papers, or when that other paper is nearly as near the
# question as the first: at least PAIR_SCORE_RATIO of its score, and PAIR_MIN_SCORE. Fitted on the lookups worded as
# comparisons of the seeds and the seen other-field sets (147 questions, 19 of them comparisons, all at 0.91 or more): a
# single paper sought with "both" or "differences" in its description stands alone, its runner-up at 0.87 or less.
# The two must also stand PAIR_STANDS_OUT above the next paper: among 8,400 NeurIPS abstracts a lookup's runner-up is
# often as near as the first, with many more just behind it (21 of the seeds' 63 such lookups paired without it, 2 with
# it; the seen sets' comparisons lose one of 19). Two papers compared without a name (two described sides, "the two
# ... papers") are the two standing so above the rest, whatever the sides found.
PAIR_SCORE_RATIO = 0.88
PAIR_MIN_SCORE = 1.35
PAIR_STANDS_OUT = 0.15


class ComparisonWriter:
    """Answers a question setting papers side by side."""

    def __init__(self, chat, find: PaperFinder, judge: PaperJudge, lists: ListWriter,
                 lookup: Callable[..., Generator[str, None, Answer]]):
        self.chat, self.find, self.judge, self.lists = chat, find, judge, lists
        self.lookup = lookup  # a side left alone is looked up (engine.lookup)

    # ---- comparisons ----

    def compared_papers(self, question: str, intent: Intent, pinned: list[str],
                        filters: PaperFilters | None) -> tuple[list[str], int, dict[str, str]]:
        """Ids of the compared papers: the two standing out for the whole question when two are compared, none named
        and no side found decisively; else named or referred-to ones, then the best paper for each described side, or
        the first MAX_COMPARED a list of the compared group gives ("Compare the video benchmarks"); how many
        papers that group has (0 for no group); and the papers only closest to their side's description, by side."""
        count = GROUP_COUNTS.get(m.group().lower(), 0) if (m := COUNTED_GROUP.search(question)) else 0
        their_pair = [] if pinned else self.authored_pair(question, filters)
        if len(their_pair) == 2 and (len(intent.described) != 2 or count):  # "Zhumekenov et al. have two papers"
            return self.described_among_theirs(question, intent, filters) or their_pair, 0, {}
        # two papers counted, none named: the two nearest to the whole question, when they stand out, are the pair;
        # the group read from the wording ("the two Kitaev-chain papers - the 'optimal Majoranas' one vs ...",
        # "Two NEO papers: ... How do the methods differ?") is less sure than the whole question
        if intent.group and count == 2 and not pinned and len(pair := self.standing_pair(question, filters)) == 2:
            return pair, 0, {}
        if intent.group and not intent.described:
            listed, scored, _, _ = self.lists.listed_papers(f"Which papers are about {intent.group}?", None, filters)
            found = max(len(listed), sum(x.score >= WHICH_MIN_RELEVANCE for x in scored))  # as a list would count
            ids = [x.hit.paper.paper_id for x in listed]
            # "the two quasi-periodic eruption papers": the asker counted them; the best ones make up the count
            ids += [x.hit.paper.paper_id for x in scored if x.hit.paper.paper_id not in ids][:max(0, count - len(ids))]
            return ids[:MAX_COMPARED], max(found, len(ids)), {}
        ids = list(pinned)

        @cache
        def asked(taken: frozenset[str] = frozenset()) -> list[tuple[float, PaperHit]]:
            """The whole question's candidates but ``taken``, rescored (once per ``taken``)."""
            return self.nearest_to_question(question, taken, filters)

        found: dict[int, tuple[str, list[Paper]]] = {}  # each described side's paper, and its candidates near the best
        candidates = {}  # each described side's rescored candidates; a side naming a paper takes it at once
        for n, side in enumerate(intent.described):
            side = self.chat.glossary.in_field_terms(side)
            hits = [h for h in self.chat.retrieve_hits(side, SIDE_K, filters) if h.paper.paper_id not in ids]
            # a side naming its authors ("Wheeler's isoperimetric paper") is one of theirs, when one is a candidate
            authored = self.chat.catalog.by_surnames_written(side)
            theirs = [h for h in hits if h.paper.paper_id in authored]
            hits = theirs or hits
            named = [h for h in hits if h.named] or theirs[:1] * (len(theirs) == 1)  # "the one on strain (Leonov)"
            if named:
                found[n] = (named[0].paper.paper_id, [])
            else:
                candidates[n] = self.judge.rescore(side, hits, SIDE_COVERAGE_WEIGHT)
        # so are two described sides, unless each finds its paper decisively, or both the same one where the asker
        # counted no two papers ("the P300 study of re-referenced vs common-average EEG" describes one paper): "... vs
        # around high-z radio galaxies" reads a part of the question alone
        decisive = all(n in found or self.judge.lead(candidates[n]) >= DECISIVE_MARGIN
                       for n in range(len(intent.described)))
        # the papers sides found decisively; a side is decisive too once those are set aside ("three planets around
        # HD 28471, the other re-examines HD208487 - is the long-period signal a planet in both": the HD 28471 paper
        # is the first side's)
        kept = {scored[0][1].paper.paper_id for scored in candidates.values()
                if self.judge.lead(scored) >= DECISIVE_MARGIN}
        decisive_once_taken = all(n in found or self.judge.lead(candidates[n]) >= DECISIVE_MARGIN or self.judge.lead(
            [(score, h) for score, h in candidates[n] if h.paper.paper_id not in kept]) >= DECISIVE_MARGIN
            for n in range(len(intent.described)))
        firsts = {scored[0][1].paper.paper_id for scored in candidates.values() if scored}
        sides_found = firsts | {pid for pid, _ in found.values()}
        # two described sides: the papers of the authors the question cites, unless each side describes another paper
        # decisively ("the Wigner crystal paper (Huang, Das Sarma) and the HBT interferometer proposal", "He et al's
        # ring-core fibers vs Li et al's OAM multiplexing" cite one side's authors each)
        if len(their_pair) == 2 and (not decisive or len(sides_found) < 2 or sides_found <= set(their_pair)):
            return self.described_among_theirs(question, intent, filters) or their_pair, 0, {}
        one_described = len(candidates) == 2 and len(firsts) == 1 and count != 2
        # nor may the pair standing out for the whole question undo a side that found its paper decisively
        if not pinned and len(intent.described) == 2 and not decisive_once_taken and not one_described and \
                len(pair := self.standing_pair(question, filters)) == 2 and kept <= set(pair):
            return pair, 0, {}
        # the surest side picks first: "the GOODS-N AGN clustering paper" takes its paper before "the GOODS-N broad
        # Hα emitter census" can, which then finds its own among the rest
        one_paper = set()  # sides describing a paper another side took: "the study of socially anxious vs non-anxious ..."
        for n in sorted(candidates, key=lambda n: -candidates[n][0][0] if candidates[n] else 0.0):
            taken = set(ids) | {pid for pid, _ in found.values()}
            scored = [(score, h) for score, h in candidates[n] if h.paper.paper_id not in taken]
            # its best paper is taken, well ahead (decisively, for a side saying it is a paper: "the orbital-selective
            # t-J model paper" and "the one deriving a two-orbital t-J model"); unless the asker counted the papers
            # ("had two formal DFT papers")
            ahead = DECISIVE_MARGIN if names_a_paper(intent.described[n]) else CLEAR_MARGIN
            if scored and candidates[n][0][1].paper.paper_id in taken and not count and \
                    candidates[n][0][0] - scored[0][0] >= ahead:
                one_paper.add(n)
            elif self.judge.answerable(scored, margin=0.0):
                found[n] = (scored[0][1].paper.paper_id, [(s, h.paper) for s, h in scored if s >= scored[0][0] - CLOSE_CALL_MARGIN])
        # The asker compares two papers: when one side finds none surely, its closest paper is compared, said to be
        # only that, rather than the comparison collapsing to a lookup. Closest is the paper best for the whole
        # question besides the other side's, when the side says it is a paper ("the ATCA high-res follow-up paper",
        # "the SEAMBH paper XII") or that paper is among the side's first candidates too ("the GOODS-N broad Halpha
        # emitter census"); a side that is a concept ("compared with a plain patch embedding") finds no paper.
        closest: dict[str, str] = {}
        unfound = [n for n in candidates if n not in found and n not in one_paper]
        if len(ids) + len(found) == 1 and len(unfound) == 1:
            taken = set(ids) | {pid for pid, _ in found.values()}
            side = [h for _, h in candidates[unfound[0]] if h.paper.paper_id not in taken]
            best = next((h for _, h in asked(frozenset(taken))), None)
            agrees = best is not None and best.paper.paper_id in {h.paper.paper_id for h in side[:SIDE_AGREE]}
            if best is not None and (agrees or names_a_paper(intent.described[unfound[0]])) \
                    and best.relevance >= self.judge.min_rel:
                found[unfound[0]] = (best.paper.paper_id, [])
                closest[best.paper.paper_id] = intent.described[unfound[0]]
        close_calls: list[tuple[int, list[tuple[float, Paper]]]] = []  # a described side's index, its near-best candidates
        for n in sorted(found):  # in the question's order
            ids.append(found[n][0])
            if found[n][1]:
                close_calls.append((len(ids) - 1, found[n][1]))
        if close_calls:
            # of a side's near-equal candidates, the one also nearest to the whole question: "what do the pump-probe
            # study and the neutron scattering paper each say about magnetic order in La3Ni2O7" is not the neutron
            # study of LaNiO2's lattice
            whole = {h.paper.paper_id: score for score, h in asked()}
            floor = min(whole.values(), default=0.0)
            newest = max((y for y in (self.chat.catalog.papers[pid].year for pid in ids) if y is not None), default=0)
            for index, close in close_calls:
                free = [(score, p) for score, p in close if p.paper_id == ids[index] or p.paper_id not in ids]
                # "the dehazing paper and the motion deblurring one": one batch, not a paper years older
                free = [(score, p) for score, p in free if (p.year or newest) > newest - OTHER_BATCH_YEARS] or free
                ids[index] = max(free, key=lambda sp: sp[0] + whole.get(sp[1].paper_id, floor))[1].paper_id
        return ids[:MAX_COMPARED], 0, closest

    def compare(self, question: str, intent: Intent, pinned: list[str], k: int | None,
                filters: PaperFilters | None) -> Iterator[str]:
        ids, in_group, closest = self.compared_papers(question, intent, pinned, filters)
        if len(ids) < 2 and (pair := self.complementary_pair(question, ids, filters)):
            ids, in_group = pair, 0  # "the vortex imaging works on CaSb2 (SQUID) and on NbN (NV)": read as one group
        if len(ids) < 2:
            answer = yield from self.lookup(question, intent, ids, k, filters)
            if in_group and not answer.refused:
                answer.lead_with(f"Only one loaded paper is about “{intent.group}”.")
            return answer
        answer = yield from self.write(question, ids, k, filters, intent.details)
        for pid, side in closest.items():
            answer.hedged = True
            answer.lead_with(f"No loaded paper is surely “{side}”; the closest, "
                             f"**{self.chat.catalog.papers[pid].name}**, is compared.")
        if in_group > len(ids):
            answer.lead_with(f"The {len(ids)} papers most about “{intent.group}” of the {in_group} found are compared.")
        return answer

    def nearest_to_question(self, question: str, taken: frozenset[str],
                            filters: PaperFilters | None) -> list[tuple[float, PaperHit]]:
        """The candidates for the whole question but those ``taken``, rescored best first (without the taken ones:
        the other side's paper would set the bar)."""
        query = self.chat.glossary.for_search(question)
        hits = [h for h in self.chat.retrieve_hits(query, 2 * SIDE_K, filters) if h.paper.paper_id not in taken]
        return self.judge.rescore(query, hits)

    def standing_pair(self, question: str, filters: PaperFilters | None) -> list[str]:
        """The two papers nearest to the whole question, when both are relevant and they stand PAIR_STANDS_OUT above
        the third; else none."""
        scored = self.nearest_to_question(question, frozenset(), filters)
        if len(scored) < 2 or scored[1][1].relevance < self.judge.min_rel:
            return []
        third = scored[2][0] if len(scored) > 2 else 0.0
        return [h.paper.paper_id for _, h in scored[:2]] if scored[1][0] - third >= PAIR_STANDS_OUT else []

    def complementary_pair(self, question: str, pinned: list[str], filters: PaperFilters | None) -> list[str]:
        """For a question setting papers side by side whose wording gave one paper or none: the two papers standing out
        for the whole question (``standing_pair``), holding any pinned one, when each writes a word of the question
        the other does not ("bixplot vs the 'unifying boxplots' multiple-testing paper"); else none. One paper sought
        by a description of two parts is nearest for both; its runner-up adds none of its own."""
        pair = self.standing_pair(question, filters)
        if len(pair) < 2 or not set(pinned) <= set(pair):
            return []
        written = self.words_each_writes(question, pair)
        return pair if written[0] - written[1] and written[1] - written[0] else []

    def words_each_writes(self, question: str, pair: list[str]) -> list[set[str]]:
        """The question's topic words (aspect words aside) each paper of the pair writes; its authors' names are its
        words too: "furusho et al on ... vs Kawamura's dimorphic transportation paper"."""
        words = [w for w in topic_words(question) if w not in ASPECT_WORDS]
        said = [" ".join([self.chat.catalog.papers[pid].text, *self.chat.catalog.papers[pid].authors]) for pid in pair]
        return [{w for w in words if mentions_term(w, stems(text))} for text in said]

    def named_and_nearest(self, question: str, named: str, filters: PaperFilters | None) -> list[str]:
        """For a question setting the one paper it names beside another it only describes ("AMIGO and dorito ... what
        does each do?"): the named paper and the paper nearest to the rest of the question, when that one is relevant
        and stands PAIR_STANDS_OUT above the next; else none."""
        rest = question
        for start, end, pid in reversed(self.chat.catalog.mentions(question)):
            if pid == named:
                rest = f"{rest[:start]} {rest[end:]}"
        scored = self.nearest_to_question(rest, frozenset({named}), filters)
        if not scored or scored[0][1].relevance < self.judge.min_rel:
            return []
        second = scored[1][0] if len(scored) > 1 else 0.0
        pair = [named, scored[0][1].paper.paper_id]
        # the other paper writes a word of the question the named one never does: "how does its speed compare?"
        # sets FBApro beside no paper
        written = self.words_each_writes(rest, pair)
        return pair if written[1] - written[0] and scored[0][0] - second >= PAIR_STANDS_OUT else []

    def sides_found_decisively(self, question: str, intent: Intent, pinned: list[str],
                               filters: PaperFilters | None) -> list[str]:
        """For a question that sets two papers side by side in no words a comparison cue knows ("X and Y: how do
        they treat the server?", "which structures does X preserve, and which Y?"): the two papers its two sides (a
        named paper counts as one) each find decisively, when they are two; else none. A side holding the detail
        asked ("what is the value of the critical exponent nu they get") is that detail, not a paper."""
        sides = described_sides(question, self.chat.catalog.mentions(question))
        asked = [content_words(d.phrase) for d in intent.details if not d.record]
        if len(pinned) + len(sides) != 2 or any(words <= content_words(side) for side in sides for words in asked):
            return []
        ids = list(pinned)
        for side in sides:
            side = self.chat.glossary.in_field_terms(side)
            hits = [h for h in self.chat.retrieve_hits(side, SIDE_K, filters) if h.paper.paper_id not in pinned]
            scored = self.judge.rescore(side, hits, SIDE_COVERAGE_WEIGHT)
            if not self.judge.answerable(scored) or self.judge.lead(scored) < DECISIVE_MARGIN:
                return []
            ids.append(scored[0][1].paper.paper_id)
        return ids if len(set(ids)) == 2 else []  # two descriptions of one paper ("the X and Y paper") are a lookup

    def described_among_theirs(self, question: str, intent: Intent, filters: PaperFilters | None) -> list[str]:
        """Two described sides' papers among the more than two the cited authors wrote, each side finding a different
        one ("Jie Li has two 2020 papers ... - the derived-discrete algebras over the reals one and the piecewise
        hereditary one"); else none."""
        if len(intent.described) != 2:
            return []
        for ids in self.cited_authors_papers(question, filters):
            if len(ids) > 2:
                picked = []
                for side in intent.described:
                    hits = [h for h in self.chat.retrieve_hits(side, SIDE_K, filters) if h.paper.paper_id in ids]
                    scored = self.judge.rescore(side, hits, SIDE_COVERAGE_WEIGHT)
                    picked += [scored[0][1].paper.paper_id] if scored else []
                return picked if len(set(picked)) == 2 else []
        return []

    def cited_authors_papers(self, question: str, filters: PaperFilters | None) -> list[list[str]]:
        """The papers of each group of authors the question cites (rag.catalog), within the filters."""
        catalog = self.chat.catalog
        cited = [papers for _, _, papers in catalog.cited_authors(question, any_case=True)] or catalog.surnamed(question)
        return [sorted(pid for pid in papers if not filters or filters.admits(catalog.papers[pid])) for papers in cited]

    def authored_pair(self, question: str, filters: PaperFilters | None) -> list[str]:
        """The two papers of the authors the question cites (rag.catalog: "Inventar et al. had two ICRC proceedings ...
        how do they differ?", "Danchin posted two ... papers"), when those authors wrote two of the loaded papers, or
        the two of theirs nearest the whole question when they wrote more ("Jie Li wrote one paper on X and another
        on Y"); else none."""
        for ids in self.cited_authors_papers(question, filters):
            if len(ids) > 2:
                nearest = [h.paper.paper_id for _, h in self.nearest_to_question(question, frozenset(), filters)]
                near = [pid for pid in nearest if pid in ids]
                # "compare Majidi's two papers": the two are the author's, whatever the question's topic finds;
                # "Li et al.'s MPS-HEOM paper vs the 2D IR-Raman one" sets one of theirs beside another's
                counted = COUNTED_GROUP.search(question) is not None
                ids = (near + [pid for pid in self.led_and_nearest(question, ids) if pid not in near])[:2] \
                    if counted else near[:2]
            if len(ids) == 2:
                return ids
        return []

    def led_and_nearest(self, question: str, ids: list[str]) -> list[str]:
        """The papers ``ids`` by the cited authors, for a question counting two of theirs that its topic does not find
        ("compare Majidi's two papers", where Majidi wrote three): those a cited author leads (first author) first,
        then each by its sentence nearest the question."""
        led = {pid for pid in ids if (authors := self.chat.catalog.papers[pid].authors)
               and re.search(rf"(?<!\w){re.escape(authors[0].split()[-1])}(?!\w)", question, re.I)}
        vec = self.chat.question_vec(question)
        sentences = self.chat.store.sentences(ids)

        def nearness(pid: str) -> float:
            vectors = np.asarray([v for _, v in sentences.get(pid, [])], dtype=np.float32)
            return float(np.max(vectors @ vec)) if len(vectors) else 0.0
        return sorted(ids, key=lambda pid: (pid not in led, -nearness(pid)))

    def named_and_written(self, pinned: list[str], unloaded: list[str], filters: PaperFilters | None) -> list[str]:
        """The one paper a comparison names and the one other paper writing a name set beside it that is no paper's
        name ("NodeShield vs Petra": the paper presenting Petra under another title); else none."""
        for name in unloaded:
            users = [pid for pid in self.find.mentioned(name, filters, everyday=True) if pid not in pinned]
            if len(users) == 1:
                return [*pinned, users[0]]
        return []

    def second_topic_pair(self, question: str, intent: Intent,
                          filters: PaperFilters | None) -> tuple[list[str], bool]:
        """The lookup's paper and the best other paper for the question, when the question counts two papers ("two
        Sb2Se3 photonic switch papers - one on Si, one on SiN") or the two stand out, nearly as near the question as
        each other (see PAIR_SCORE_RATIO), else none; and whether they are only the closest: a question counting two
        papers that no paper answers surely compares the two nearest to it."""
        counted = (m := COUNTED_GROUP.search(question)) is not None and GROUP_COUNTS[m.group().lower()] == 2
        verdict = self.judge.choose(question, intent, self.find.for_lookup(question, [], None, filters))
        if not verdict.chosen and not counted:
            return [], False
        scored = self.nearest_to_question(question, frozenset(), filters)  # both papers on one scale
        if not verdict.chosen:
            nearest = [h.paper.paper_id for _, h in scored[:2] if h.relevance >= self.judge.min_rel]
            return (nearest, True) if counted and len(nearest) == 2 else ([], False)
        first = verdict.chosen[0].paper
        own = next((score for score, h in scored if h.paper.paper_id == first.paper_id), None)
        others = [(score, h) for score, h in scored if h.paper.paper_id != first.paper_id]
        score, best = others[0] if others else (0.0, None)
        if best is None or best.relevance < self.judge.min_rel:
            return [], False
        third = others[1][0] if len(others) > 1 else 0.0
        if not counted and (own is None or score < max(PAIR_MIN_SCORE, PAIR_SCORE_RATIO * own)
                            or score - third < PAIR_STANDS_OUT):
            return [], False
        return [first.paper_id, best.paper.paper_id], False

    def write(self, question: str, ids: list[str], k: int | None, filters: PaperFilters | None,
                        details: Sequence[DetailAsk] = ()) -> Iterator[str]:
        hits = self.find.hits(question, k, filters, ids)
        papers = [self.chat.catalog.papers[pid] for pid in ids]
        sentences = self.chat.store.sentences(ids)
        # where each paper is named: by a name the catalog knows, or by its full name (a follow-up's rewrite)
        named_at = self.chat.catalog.mentions(question) + [
            (at, at + len(p.name), p.paper_id) for p in papers if (at := question.lower().find(p.name.lower())) >= 0]
        parts = asked_of_each(question, named_at)
        asked = {pid: (part, self.chat.question_vec(part), asked_details(part)) for pid, part in parts.items()
                 if pid in ids} if set(ids) <= parts.keys() else {}
        comparison = compare_papers(question, self.chat.question_vec(question), papers, sentences,
                                    self.chat.aspect_classifier, details, asked)
        answer = Answer(
            text=comparison.text(), citations=comparison.cites.citations,
            papers=papers + [h.paper for h in hits if h.paper.paper_id not in ids],
            kind="comparison", table=[row.to_dict() for row in comparison.rows],
        )
        if not self.chat.has_llm:
            return answer
        return (yield from synthesize_comparison(self.chat, question, papers, sentences, answer,
                                                 comparison.table_markdown()))
