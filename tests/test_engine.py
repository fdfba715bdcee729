"""The engine's parts as a Python user meets them: comparing papers by id, history holding earlier answers, the
retriever and the relevance judge in a LlamaIndex pipeline, the judge's gates switched in settings."""

import pytest

from rag import PaperChat

OFF_ITS_DATA = "KV-cache compression for speech recognition models"  # PatchKV compresses a text LLM's cache


def _cited(answer) -> list[str]:
    return list(dict.fromkeys(c.paper.paper_id for c in answer.citations))


def test_compare_takes_paper_ids_whatever_their_names(seed_chat):
    """The picker's papers are compared by id: two long descriptive names, which no question parser could split back
    into two sides, each get a row and a citation."""
    longest = sorted(seed_chat.papers(), key=lambda p: -len(p.name))[:2]
    ids = [p.paper_id for p in longest]
    assert all(len(p.name.split()) >= 6 for p in longest)
    answer = seed_chat.compare(ids)
    assert answer.kind == "comparison" and not answer.refused
    assert sorted(_cited(answer)) == sorted(ids)
    assert [row["paper"] for row in answer.table] == [p.name for p in longest]
    with pytest.raises(ValueError, match="unknown: nope"):
        seed_chat.compare([ids[0], "nope"])


def test_history_may_hold_the_earlier_answers(seed_chat):
    """A follow-up after an Answer object is about the paper that answer cited, as after its text."""
    first = seed_chat.ask("What is PhyProbe?")
    phyprobe = _cited(first)[0]
    assert seed_chat.catalog.papers[phyprobe].name == "PhyProbe"
    after_object = seed_chat.ask("What data does it use?", history=[("What is PhyProbe?", first)])
    after_text = seed_chat.ask("What data does it use?", history=[("What is PhyProbe?", first.text)])
    assert _cited(after_object)[:1] == [phyprobe] == _cited(after_text)[:1]


def test_retriever_and_judge_compose_in_a_llamaindex_pipeline(seed_chat):
    """``as_retriever()`` and ``as_postprocessor()`` are LlamaIndex parts: the judge keeps the papers that answer a
    description and none for a question on another kind of data, saying why."""
    retriever, judge = seed_chat.as_retriever(k=10), seed_chat.as_postprocessor()
    question = "a benchmark testing whether vision-language models understand physics"
    nodes = retriever.retrieve(question)
    assert len(nodes) == 10 and all("paper_id" in n.node.metadata for n in nodes)
    kept = judge.postprocess_nodes(nodes, query_str=question)
    assert kept and {n.node.metadata["name"] for n in kept} <= {"PhysVista", "PhysElite", "PhyProbe"}
    assert all(n.node.metadata["judge_score"] > 0 for n in kept)

    off = judge.postprocess_nodes(retriever.retrieve(OFF_ITS_DATA), query_str=OFF_ITS_DATA)
    assert off == [] and "speech" in judge.last_reason


def test_the_judge_gates_are_settings(seed_store_dir):
    """Each offline gate can be switched off: without the kind-of-data gate, the KV-cache question it refuses is
    answered from PatchKV."""
    gated = PaperChat(store_dir=seed_store_dir)
    ungated = PaperChat(store_dir=seed_store_dir, retrieval_gates=["gaps", "facets", "versions"])
    assert gated.ask(OFF_ITS_DATA).refused
    answer = ungated.ask(OFF_ITS_DATA)
    assert not answer.refused
    assert ungated.catalog.papers[_cited(answer)[0]].name == "PatchKV"


def test_a_quoted_this_comes_with_its_antecedent(seed_chat):
    """"This is asymptotically faster than the known bound ..." is quoted after the sentence giving the paper's own
    bound, not alone."""
    answer = seed_chat.ask("what bound did they get for MOEA/D on OneMinMax?")
    text = answer.text
    assert "This is asymptotically faster" in text
    assert "Θ(n^2)" in text and text.index("Θ(n^2)") < text.index("This is asymptotically faster")


def test_a_question_asking_for_one_paper_gets_one_paper(seed_chat):
    """"Which paper ... both the humans and the scene": one paper is asked for, though two stand near the question."""
    answer = seed_chat.ask("Which paper stops reconstructed people from hovering above the floor or sinking into "
                           "furniture when you recover both the humans and the scene from a single video?")
    assert answer.kind != "comparison", answer.text
    assert [seed_chat.catalog.papers[pid].name for pid in _cited(answer)] == ["UniCon3R"]
