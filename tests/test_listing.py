"""'Which papers' lists: rare acronyms pin the topic in a large corpus; a capped list says how many more matched."""

from __future__ import annotations

from rag.list_answer import WHICH_MAX_PAPERS, ListedPaper, listing_answer
from rag.relevance import anchor_share, anchor_terms
from rag.retrieve import PaperHit
from rag.terms import TermStats
from store.paper import Paper

QUESTION = "Which papers introduce a variant of group relative policy optimization (GRPO) for crop yield?"


def _corpus(n: int) -> list[str]:
    texts = [f"We study policy optimization for control task {i} with a new group of baselines." for i in range(n)]
    texts[0] = "We introduce Sync-GRPO, a reinforcement learning method with an ensemble reward."
    texts[1] = "Trackers crop the search region around the target before matching."
    return texts


def test_rare_acronym_is_an_anchor_in_a_large_corpus():
    stats = TermStats(_corpus(2000))
    assert anchor_terms(QUESTION, stats) == ["grpo"]  # "crop" is as rare, but lowercase: not an anchor
    assert anchor_share(["grpo"], _corpus(2000)[0]) == 1.0
    assert anchor_share(["grpo"], _corpus(2000)[2]) == 0.0


def test_no_anchor_in_a_small_corpus_or_for_a_common_acronym():
    assert anchor_terms(QUESTION, TermStats(_corpus(38))) == []  # one paper of 38 is not rare
    common = _corpus(2000)
    common[2:10] = ["GRPO again, in another paper."] * 8
    assert anchor_terms(QUESTION, TermStats(common)) == []


def _listed(i: int, score: float) -> ListedPaper:
    paper = Paper(paper_id=f"p{i}", name=f"Paper{i}", title=f"Paper{i}", abstract="x", text="x",
                  source="s.jsonl", ordinal=i)
    return ListedPaper(PaperHit(paper), score, f"Sentence {i} on the topic.")


def test_a_capped_list_says_how_many_cleared_the_cut_off():
    scored = [_listed(i, 0.95 - 0.005 * i) for i in range(20)]
    answer = listing_answer(scored[:WHICH_MAX_PAPERS], scored)
    assert answer.text.startswith(f"Found 20 papers above the relevance cut-off; the {WHICH_MAX_PAPERS} strongest")
    assert len(answer.citations) == WHICH_MAX_PAPERS
    short = listing_answer(scored[:3], scored[:3])
    assert short.text.startswith("Found 3 papers:")


def test_years_a_question_asks_for():
    from rag.asked import asked_years

    assert asked_years("Which 2023 papers study KV cache compression?") == (2023, 2023)
    assert asked_years("Which papers from 2015 use LSTMs?") == (2015, 2015)
    assert asked_years("papers since 2020 on RL") == (2020, None)
    assert asked_years("What was published before 2010 on kernels?") == (None, 2009)
    assert asked_years("papers between 2015 and 2017 about GANs") == (2015, 2017)
    assert asked_years("work in 2016-2018 on attention") == (2016, 2018)
    assert asked_years("Which paper trained on 2048 GPUs?") == (None, None)  # a count, not a year


def test_how_many_papers_asks_about_the_collection_only_without_a_topic():
    from rag.asked import asks_collection_size

    assert asks_collection_size("How many papers are loaded?")
    assert asks_collection_size("How many papers do you have?")
    assert asks_collection_size("How many papers from 2023 are there?")
    assert not asks_collection_size("How many papers study KV caches?")
    assert not asks_collection_size("How many problems does PhysElite contain?")


def test_which_papers_without_a_topic_lists_the_collection(seed_chat):
    """"Which papers were published in 2026?" asks for the loaded papers themselves: counted and named."""
    answer = seed_chat.ask("Which papers were published in 2026?")
    assert not answer.refused and answer.text.startswith("38 of the loaded papers are from 2026"), answer.text
    assert "They include PipeFSDP; PickMoment;" in answer.text and "and 26 more." in answer.text
    assert not seed_chat.ask("Show me all papers").refused


def test_a_compared_group_is_the_topic_of_its_papers():
    from rag.sides import compared_group

    assert compared_group("Compare the video benchmarks") == "video benchmarks"
    assert compared_group("How do the papers on KV cache compression differ?") == "KV cache compression"
    assert compared_group("How do these two papers differ?") == ""  # a follow-up's papers, not a topic
    assert compared_group("How does PhysVista compare to PhyProbe?") == ""
    # a count leads a group of papers only, with its topic after it
    assert compared_group("Two papers on topology identification: signed graphs vs open MAS - how do the methods "
                          "differ?") == "topology identification"
    assert compared_group("the wind farm paper with two kinds of MPC: what score did both approaches get?") == ""
    assert compared_group("Three theory papers caught my eye: the convergence one and the unrolling one") == ""
