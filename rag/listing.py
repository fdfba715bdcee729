""""Which papers ...?": the papers of a topic, found (a wide dense pool, named users, rare words), judged
(a cut-off on the listing score, broad fields, the topic's gaps), and written as a cited list or by the LLM."""

from __future__ import annotations

import re
from collections.abc import Iterator

from rag.asked import asks_for_new_resources, listing_topic, without_excluded
from rag.extractive import refusal
from rag.find import PaperFinder, ruled_out_names
from rag.judge import PaperJudge
from rag.list_answer import (
    WHICH_ANCHOR_WEIGHT,
    WHICH_BROAD_MIN,
    WHICH_COVERAGE_WEIGHT,
    WHICH_MAX_PAPERS,
    WHICH_NEAR,
    ListedPaper,
    introduces_resource,
    listing_answer,
    listing_cutoff,
    resource_sentence,
    score_for_listing,
)
from rag.list_members import (
    broad_field_members,
    example_members,
    in_broad_fields,
    resource_members,
)
from rag.llm_write import LIST_CANDIDATES, write_with_llm
from rag.relevance import alternative_groups, anchor_share, anchor_terms, topic_coverage
from rag.retrieve import PaperFilters, PaperHit
from rag.terms import question_terms
from rag.types import Answer
from store.paper import Paper


# Candidate papers scored for a "which papers" list: the fused top LISTING_POOL, plus the papers of the
# LISTING_SENTENCES nearest sentences to the question and to its topic. Among 8k papers, 300 sentences left out
# papers on the topic that a list must count ("image restoration": PhysDNet); 1000 finds most (which-list recall@5
# 0.77 -> 0.85 at 8.4k, 2000: 0.87 at 1.6 s a list).
LISTING_POOL = 30
LISTING_SENTENCES = 1000


class ListWriter:
    """Answers a question asking for the papers of a topic."""

    def __init__(self, chat, find: PaperFinder, judge: PaperJudge):
        self.chat, self.find, self.judge = chat, find, judge

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
        queries = [(searched, self.chat.question_vec(searched)), (topic, self.chat.question_vec(topic))]
        hits = self.chat.retrieve_hits(searched, max(k or 0, LISTING_POOL), filters)
        # A made-up term, or an acronym, only a paper or two use ("Which papers evaluate on LIBERO?", "use GRPO?")
        # names those papers.
        users = self.find.name_users(question, filters)
        mentioned = list(dict.fromkeys(self.find.mentioned(question, filters, everyday=True) + list(users)))
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
        listed, gap = self.judge.without_gaps(question, listed, lambda item: item.hit.paper)
        if listed:
            listed, gap = self.judge.on_asked_data(question, listed, lambda item: item.hit.paper)
        for name in ruled_out_names(question):  # "(not Qwen2.5)": a paper listed for using it is not wanted
            ruled_out = re.compile(rf"(?<!\w){re.escape(name)}", re.IGNORECASE)
            listed = [x for x in listed if x.hit.paper.paper_id in users or not ruled_out.search(x.hit.paper.text)]
        if new_resources:  # "Which papers introduce new video benchmarks?", not ones tested on one
            brought = {x.hit.paper.paper_id: resource_sentence(sentences[x.hit.paper.paper_id]) for x in listed}
            listed = [x for x in listed if brought[x.hit.paper.paper_id]]
            for x in listed:  # each listed with the sentence bringing its benchmark, not a results sentence
                x.sentence = brought[x.hit.paper.paper_id]
        named = [x for x in scored if x.hit.paper.paper_id in mentioned and x not in listed]
        named, _ = self.judge.on_asked_data(question, named, lambda item: item.hit.paper)  # on other data, a user is no answer
        for x in listed + named:  # a paper listed for using a name is listed with the sentence using it
            name = users.get(x.hit.paper.paper_id)
            if name and not name.search(x.sentence):
                x.sentence = next((text for text, _ in sentences[x.hit.paper.paper_id] if name.search(text)), x.sentence)
        return sorted(listed + named, key=lambda x: x.score, reverse=True), scored, hits, gap

    def theme_named(self, question: str):
        """The theme whose label a list question asks about, among themes already made (an overview made them)."""
        themes = self.chat.ready_themes()
        return themes.find(listing_topic(question)) if themes else None
