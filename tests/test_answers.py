"""Answers researchers trust: comparisons, lists, follow-ups, "not stated", refusals and name routing, on the real
seed store (and a slice of the shared NeurIPS corpus as distractors)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.conftest import SHARED_CORPUS

PIPEFSDP, PICKMOMENT, PHYSVISTA, PHYPROBE = "PipeFSDP", "PickMoment", "PhysVista", "PhyProbe"
UNIFIED_4D = "Unified generative-predictive framework for 4D scene understanding"
# Distractors for the CI-sized tests at scale: enough for the rules that need a large corpus (GAP_MIN_PAPERS), few
# enough to embed in about three minutes.
DISTRACTORS = 2000


def _names(papers) -> list[str]:
    return [p.name for p in papers]


def _cited(answer) -> list[str]:
    return [c.paper.name for c in answer.citations]


def _assert_quotes_verbatim(answer) -> None:
    """Every citation carries the abstract sentence it rests on, word for word."""
    assert answer.citations
    for c in answer.citations:
        assert c.quote, f"citation [{c.n}] has no quote"
        assert c.quote in c.paper.text, f"quote of [{c.n}] is not from {c.paper.name}'s abstract"
        assert f"[{c.n}]" in answer.text


def _table_rows(text: str) -> list[str]:
    lines = [line for line in text.splitlines() if line.startswith("|")]
    return lines[2:]  # header and separator


# ---- comparisons ----
def test_comparison_has_a_cited_row_per_paper(seed_chat):
    answer = seed_chat.ask("How do PhysVista and PhyProbe differ in what they evaluate?")
    assert answer.kind == "comparison" and not answer.refused
    rows = _table_rows(answer.text)
    assert len(rows) == 2
    numbers = {c.paper.name: c.n for c in answer.citations}
    for name, row in zip([PHYSVISTA, PHYPROBE], rows):
        assert row.startswith(f"| **{name}** [{numbers[name]}]")
        cells = [cell.strip() for cell in row.strip("|").split("|")][1:]
        assert len(cells) == 4
        for cell in cells:  # every stated cell is cited to its own paper
            assert cell == "not stated" or cell.endswith(f"[{numbers[name]}]")
    assert [r["paper"] for r in answer.table] == [PHYSVISTA, PHYPROBE]
    assert "**How they differ:**" in answer.text
    # what they have in common is said by meaning, first: the nearest statement of each, quoted from its abstract
    assert answer.text.startswith("**Closest common ground:**"), answer.text
    common = answer.text.split("\n")[0]
    for name, quote in re.findall(r"\*\*([^*]+)\*\*: “([^”]+?)(?: …)?” \[\d\]", common):
        assert quote in next(c.paper.text for c in answer.citations if c.paper.name == name), quote
    _assert_quotes_verbatim(answer)
    for row in answer.table:  # each cell's source sentence is in that paper's abstract
        paper = next(c.paper for c in answer.citations if c.n == row["n"])
        assert all(q in paper.text for q in row["quotes"].values())


def test_table_cells_are_whole_clauses(seed_chat):
    """A cell is a sentence or the clause of "Experiments on X show that Y" its aspect wants, never a fragment: the
    hyper-connections paper's result is what its experiments "show", not what follows "validate"."""
    answer = seed_chat.ask("Compare the hyper-connections paper with the axial attention predictor paper")
    rows = {row["paper"]: row for row in answer.table}
    assert rows["Transformers with hyper-connections"]["results"].startswith("Unstable regimes yield stronger")
    # "Marion et al. [2025] to 2D structured data" is one sentence: no cell starts at "[2025]".
    assert not any(row[a].startswith("[") for row in answer.table for a in ("problem", "approach", "data", "results"))
    # "Across three visual tasks, we show that ...": the data part ends before its subject, not at "we".
    answer = seed_chat.ask("Contrast the paper tracing how visual information is routed in VLMs with JRS-Rem")
    assert not any(re.search(r"\b(?:we|they)\W*$", row[a]) for row in answer.table for a in ("data", "results")), (
        answer.table)
    # "We propose Layout-as-Policy (LaP), which casts the planning stage as ...": the name alone says nothing.
    answer = seed_chat.ask("How does PERIA compare with Layout-as-Policy?")
    rows = {row["paper"]: row for row in answer.table}
    assert "policy learning problem" in rows["Layout-as-Policy (LaP)"]["approach"], answer.table


def test_a_misspelt_comparison_word_still_compares(seed_chat):
    answer = seed_chat.ask("how are PatchKV and PipeFSDP diffrent?")
    assert answer.kind == "comparison" and _cited(answer) == ["PatchKV", PIPEFSDP], answer.text


def test_papers_described_as_one_and_the_other_are_compared(seed_chat):
    answer = seed_chat.ask("two approaches to help VLMs with dense visual stuff: one plugs a module into the vision "
                           "encoder for tables and charts, the other gives the model tools for spatial reasoning. how "
                           "are they different in how they're trained?")
    assert answer.kind == "comparison"
    assert _cited(answer) == ["Patch-for-Patch (P4P)", "PERception-Interaction-reason Agent (PERIA)"], answer.text


def test_papers_described_as_one_and_another_are_compared(seed_chat):
    answer = seed_chat.ask("One paper removes spurious object-background associations in large VLMs through unlearning, "
                           "another explains image-triggered jailbreaks as a shift in representation space. Does each "
                           "fix its problem at training time or at inference time?")
    assert answer.kind == "comparison" and _cited(answer) == ["PURGE", "JRS-Rem"], answer.text


@pytest.mark.parametrize("question, compared", [
    ("Is it true that the theoretical paper on chain-of-thought out-of-distribution generalization and PatchKV both "
     "include GSM8K in their experiments?", {"PatchKV", "CoT as compositional OOD generalization"}),
    ("Is it true that both the bifurcation analysis of Transformers with hyper-connections and the non-asymptotic study "
     "of the 'curse of unrolling' check their theory with experiments on pretrained language models?",
     {"Transformers with hyper-connections", "Curse of unrolling"}),
    # PURGE and PROVE are spelled like words: typed in lower case they name their papers only where nothing else fits
    ("our captioner hallucinates objects. purge vs prove, which is more aimed at background shortcuts?",
     {"PURGE", "PROVE"}),
    ("our robot arm misses on contact-heavy steps. should i try phase-adaptive fusion or the scene-graph thing that "
     "predicts physical-state predicates from one image?",
     {"Phase-Adaptive Fusion (PAF)", "Predicting physical-state scene graphs from a single image"}),
])
def test_two_papers_set_side_by_side_are_compared(seed_chat, question, compared):
    """"Is it true that X and Y both ...", "x vs y, which ...", "should I try X or Y?": two sides (GSM8K is PatchKV's
    benchmark, not a paper that is missing)."""
    answer = seed_chat.ask(question)
    assert answer.kind == "comparison" and set(_cited(answer)) == compared, answer.text
    assert "not among the loaded papers" not in answer.text


def test_what_a_paper_is_keeps_its_whole_list(seed_chat):
    """"PURGE, a framework for constructing, benchmarking, and mitigating ...": the list's last item stays (was cut
    at ", and")."""
    answer = seed_chat.ask("PURGE or JRS-Rem: which one is applied at inference time rather than by retraining?")
    assert "**PURGE** is a framework for constructing, benchmarking, and mitigating" in answer.text, answer.text


def test_what_a_paper_is_keeps_its_decimal_numbers(seed_chat):
    """"a benchmark built from 16.1 million real-user prompts": the synthesis read "built from 16" (cut at the point)."""
    answer = seed_chat.ask("ViDiC-1K and VI-Bench both test models on videos. How do their tasks and scoring setups "
                           "differ?")
    assert "**VI-Bench** is a benchmark built from 16.1 million" in answer.text, answer.text


def test_a_position_papers_approach_is_its_argument(seed_chat):
    """A position paper proposes no method: what it argues is its approach (was "not stated", and "is not described
    in a single sentence" in the synthesis)."""
    answer = seed_chat.ask("Compare the contextual memorization paper with the position paper on generalization in "
                           "diffusion models")
    rows = {row["paper"]: row for row in answer.table}
    assert rows["Understanding generalization in diffusion models"]["approach"].startswith("This position paper argues")
    assert "not described in a single sentence" not in answer.text


def test_a_benchmark_leading_a_result_fills_the_data_cell(seed_chat):
    """"On the Seeing Through Fog benchmark, PhysDNet outperforms ...": the benchmark is PhysDNet's data, the rest its
    result (the data cell said "not stated")."""
    answer = seed_chat.ask("Compare the efficiency gains reported by Patch Rebirth Inversion and PhysDNet.")
    physdnet = next(row for row in answer.table if row["paper"] == "PhysDNet")
    assert physdnet["data"] == "On the Seeing Through Fog benchmark", physdnet
    assert physdnet["results"].startswith("PhysDNet outperforms competitors by 1.67 dB"), physdnet


def test_datasets_named_in_a_result_fill_the_data_cell(seed_chat):
    """"PickMoment achieves state-of-the-art performance ... on GoPro and HIDE ...": the synthesis said its abstract
    does not state its data."""
    answer = seed_chat.ask("Which is faster, PhysDNet or PickMoment?")
    pickmoment = next(row for row in answer.table if row["paper"] == "PickMoment")
    assert pickmoment["data"].startswith("on GoPro and HIDE"), pickmoment
    assert "does not state its data" not in answer.text, answer.text


def test_a_data_cell_is_never_a_sentence_about_prior_work(seed_chat):
    answer = seed_chat.ask("How do PhysVista and PhyProbe differ in what they evaluate?")
    phyprobe = next(row for row in answer.table if row["paper"] == PHYPROBE)
    assert not phyprobe["data"].startswith("Existing approaches"), phyprobe["data"]


def test_three_way_comparison_finds_a_paper_described_not_named(seed_chat):
    answer = seed_chat.ask(
        "How do LaP, UniCon3R and the unified generative-predictive 4D scene framework differ in what they "
        "reconstruct from visual input?"
    )
    assert answer.kind == "comparison"
    assert _cited(answer) == ["Layout-as-Policy (LaP)", "UniCon3R", UNIFIED_4D]
    assert len(_table_rows(answer.text)) == 3
    _assert_quotes_verbatim(answer)


def test_comparison_of_two_described_papers(seed_chat):
    answer = seed_chat.ask(
        "How do the contextual-memorization paper on LLMs and the position paper on diffusion-model "
        "generalization differ in how they view memorization?"
    )
    assert answer.kind == "comparison"
    assert _cited(answer) == ["Contextual memorization", "Understanding generalization in diffusion models"]


@pytest.mark.parametrize("question, kind, described", [
    ("Compare the hyper-connections bifurcation paper and the axial-attention theory paper in terms of what they prove.",
     "comparison", ["hyper-connections bifurcation paper", "axial-attention theory paper"]),
    ("Compare the convergence analysis of surrogate-gradient SNN training with the predictive coding versus backprop "
     "study: what does each one analyze?", "comparison",
     ["convergence analysis of surrogate-gradient SNN training", "predictive coding versus backprop study"]),
    ("KV-cache weight patching vs pipelined FSDP training: which saves more memory?", "comparison",
     ["KV-cache weight patching", "pipelined FSDP training"]),
    ("What do PAF and the scene-graph prediction paper have in common?", "comparison", ["scene-graph prediction paper"]),
    # A choice between two described papers; a year range before "which papers" scopes a list.
    ("Between the Olympiad-level physics benchmark and the multiscale pathology benchmark, which one is bigger?",
     "comparison", ["Olympiad-level physics benchmark", "multiscale pathology benchmark"]),
    ("Between 2015 and 2018, which papers studied GANs?", "which", []),
    # "submissions" are papers; "List every one that does" makes "Does any paper ...?" a list
    ("Which submissions claim a non-asymptotic analysis or guarantee?", "which", []),
    ("Does any paper here study memorization of training data? List every one that does.", "which", []),
    # "in-distribution versus out-of-distribution" sets two settings side by side, not two papers
    ("Which backbone does PERIA start from, and how large are its gains over that backbone in-distribution versus "
     "out-of-distribution?", "lookup", []),
    ("show me everything related to biology or medicine", "which", []),
    # two papers described as "one ..., the other ...", none named
    ("two papers: one recovers any moment of the exposure, the other removes fog with lidar. how do they differ?",
     "comparison", ["recovers any moment of the exposure", "removes fog with lidar"]),
    # A polite lead and a dash end a side; "the other" refers back to a side, it describes none.
    ("Can you contrast the dehazing paper with the motion deblurring one - what inputs does each take?", "comparison",
     ["dehazing paper", "motion deblurring one"]),
    ("PURGE vs the VLM jailbreak defense paper - one does unlearning and the other works at inference time?",
     "comparison", ["VLM jailbreak defense paper"]),
    ("the motion deblurring paper or the fog removal one: which is more geared toward low-power hardware?",
     "comparison", ["motion deblurring paper", "fog removal one"]),
    # "the paper comparing X with Y" describes a side: its "comparing" and "with" split nothing.
    ("Contrast the paper comparing predictive coding with backprop and the one on convergence of spiking network "
     "training: what does each prove?", "comparison",
     ["paper comparing predictive coding with backprop", "one on convergence of spiking network training"]),
    ("How does the dehazing paper compare with the deblurring one?", "comparison", ["dehazing paper", "deblurring one"]),
    # "Comparing X and Y: ...", "Between X and Y, does either ...?", "compare how X and Y ..."
    ("compare how the llm memorization paper and the position paper on diffusion generalization differ", "comparison",
     ["llm memorization paper", "position paper on diffusion generalization"]),
    ("papers where the model uses a shortcut instead of looking at the image?", "which", []),
    # "the one that models blur ...": one paper described ("models" a verb), though "both" follows; "one for X and one
    # for Y" sets two papers side by side
    ("Could you summarize the one that models blur as an average over the exposure, so one network handles both "
     "deblurring and blur-to-video?", "lookup", []),
    ("Two papers discuss memorization versus generalization, one for language models and one for diffusion models. "
     "How do they differ?", "comparison",
     ["Two papers discuss memorization versus generalization for language models",
      "Two papers discuss memorization versus generalization for diffusion models"]),
    ("Comparing the video-difference benchmark and the prompt-inversion benchmark: how big is each one?", "comparison",
     ["video-difference benchmark", "prompt-inversion benchmark"]),
    ("Between the contextual memorization paper and the position paper on diffusion model generalization, does either "
     "give a training recipe?", "comparison",
     ["contextual memorization paper", "position paper on diffusion model generalization"]),
    # "differ from" joins two sides as "compare with" does.
    ("how does the jailbreak defense paper differ from PURGE?", "comparison", ["jailbreak defense paper"]),
    ("In what ways does the dehazing paper differ from the deblurring one?", "comparison",
     ["dehazing paper", "deblurring one"]),
    ("Does PipeFSDP evaluate both dense and sparse LLMs?", "lookup", []),
    ("How does PipeFSDP differ from TorchTitan?", "lookup", []),
    ("Compare the size of PhysElite and PathView-Bench and how well the evaluated models did on each.",
     "comparison", []),
    ("Which papers are about image restoration?", "which", []),
    ("How many papers study physical reasoning?", "which", []),
    ("Papers about image deblurring?", "which", []),
    ("Any work on KV cache compression?", "which", []),
    ("Do any papers evaluate on LIBERO?", "which", []),
    ("Is there work on removing motion blur from photos?", "lookup", []),
    ("How many problems does PhysElite contain?", "lookup", []),
    ("Which benchmarks does PickMoment report results on?", "lookup", []),
    # Lists asked for as "work", "every paper", "any papers" or by the kind of paper; "Which paper studies" is one.
    ("list work that recovers 3D scene structure from a single image", "which", []),
    ("list every paper whose main contribution is a robot manipulation component", "which", []),
    ("any papers dealing with memorization in generative models", "which", []),
    ("Are there any new benchmarks that test how well multimodal models understand videos?", "which", []),
    ("Which paper studies how memorization in language models depends on context?", "lookup", []),
    ("Which paper benchmarks vision-language models on physics problems?", "lookup", []),
    # "list all the <kind>s" asks for papers of that kind; "list the datasets PhysElite uses" asks about one paper
    ("list all the video benchmarks for multimodal LLMs", "which", []),
    ("list the datasets PhysElite uses", "lookup", []),
    # "list all the <kind> ones" too; "list all the ones you mentioned" lists nothing new
    ("list all the biomedical ones (pathology, cells, genes etc)", "which", []),
    ("show me every robotics one", "which", []),
    # "Anything on ...?" lists the papers of a broad field; on a narrower topic it looks for the one paper
    ("Is anything in this batch about robots?", "which", []),
    ("I want to get into robot manipulation. which of the papers focus on that?", "which", []),
    # "relate to" sets two papers side by side as "compare with" does
    ("How does PatchKV relate to the pipeline training framework?", "comparison", ["pipeline training framework"]),
    ("Anything on biologically inspired or brain-like neural networks and learning rules?", "which", []),
    ("any work deploying spiking neural networks on neuromorphic chips for keyword spotting?", "lookup", []),
    # the baselines a paper is measured against are no side of a comparison
    ("Does PipeFSDP compare against a specific existing system, and by how much does it improve on it?", "lookup", []),
    ("can you list all the ones you mentioned?", "lookup", []),
    # a side described by what its paper claims; a lead before a colon is no side
    ("How does PURGE's mitigation compare with the paper claiming VLMs do notice a harmful request but an attached "
     "image pushes them past refusing?", "comparison",
     ["paper claiming VLMs do notice a harmful request but an attached image pushes them past refusing"]),
    ("Three theory papers caught my eye: the convergence analysis for spiking nets trained with surrogate gradients, "
     "the one on why unrolled derivatives go off track early on, and the predictive coding vs backprop one. What does "
     "each actually show?", "comparison",
     ["convergence analysis for spiking nets trained with surrogate gradients",
      "one on why unrolled derivatives go off track early on", "predictive coding vs backprop one"]),
    # a lead-in before a dash or a comma is no side either; two papers asked what they share are compared
    ("Which reports the larger speed-up factor — the FSDP-plus-pipeline training framework or the sparse-patch "
     "model inversion method?", "comparison",
     ["FSDP-plus-pipeline training framework", "sparse-patch model inversion method"]),
    ("Which reports the larger factor, the pipeline training framework or the model inversion method?", "comparison",
     ["pipeline training framework", "model inversion method"]),
    ("Do the long-context cache compensation work and the theory paper on reasoning out of distribution share a "
     "benchmark?", "comparison",
     ["long-context cache compensation work", "theory paper on reasoning out of distribution"]),
    # ", versus" after a named paper sets a described one beside it
    ("I'm torn between PROVE, versus the video reasoning method that turns a judge model's scores into token-level "
     "self-distillation. How do they differ?", "comparison",
     ["video reasoning method that turns a judge model's scores into token-level self-distillation"]),
    # a "vs" inside a described side's clause is no second side
    ("how does JRS-Rem differ from the framework that splits data by object evidence vs background cues and then "
     "unlearns the spurious associations?", "comparison", ["framework that splits data by object evidence vs background "
                                                           "cues"]),
    # with two papers named, a bare "X versus Y" in the question about them is no third side
    ("Compare ViDiC-1K, VI-Bench and PhyProbe: which of them are benchmarks versus learned evaluators?", "comparison",
     []),
    # "differences in ..." inside a side describes it; "differ" after it asks the question
    ("Between the benchmark for spotting fine-grained differences in video pairs and the one for recovering the "
     "generation prompt from an AI-made video, which contains more human-checked videos?", "comparison",
     ["benchmark for spotting fine-grained differences in video pairs",
      "one for recovering the generation prompt from an AI-made video"]),
    # nor is the "vs" inside a described side's bracket
    ("The paper on how visual info flows inside VLMs (direct vs text-mediated routes) and the one explaining "
     "image-induced jailbreaks: how do they differ?", "comparison",
     ["paper on how visual info flows inside VLMs", "one explaining image-induced jailbreaks"]),
])
def test_question_kinds_and_compared_sides(seed_chat, question, kind, described):
    from rag.intent import classify

    intent = classify(question, seed_chat.catalog)
    assert intent.kind.value == kind
    assert intent.described == described


# ---- "which papers ..." ----
def test_a_list_of_papers_using_a_named_model_family_names_every_one_with_the_sentence_using_it(seed_chat):
    """"Qwen" names a model family ("Qwen3-8B", "Qwen2.5-VL"): every paper using it is listed, however loosely the
    rest of its abstract matches, with the sentence that uses it. An acronym the abstracts spell out ("LLMs") is a
    topic instead: "LLMs for planning" does not list every paper using LLMs."""
    users = {p.name for p in seed_chat.catalog.papers.values() if re.search(r"\bQwen", p.text)}
    assert len(users) >= 3
    answer = seed_chat.ask("any papers that run experiments with Qwen models? list them pls")
    assert answer.kind == "which" and set(_cited(answer)) == users, answer.text
    for c in answer.citations:
        line = rf"^\d+\. \*\*{re.escape(c.paper.name)}\*\*: .*\bQwen.* \[{c.n}\]$"
        assert re.search(line, answer.text, re.M), answer.text
    llm_users = [p for p in seed_chat.catalog.papers.values() if re.search(r"\bLLMs?\b", p.text)]
    assert len(_cited(seed_chat.ask("Which papers use LLMs for planning?"))) < len(llm_users)
    from rag.find import model_names

    # A name inside the sentence is a tool; an adjective made of one ("Gaussian") describes a method, and an
    # all-capital acronym ("DNA") is as often a topic.
    names = model_names("Which papers use Gaussian processes with Mistral or Qwen3-VL on DNA?")
    assert names == ["Qwen3-VL", "Mistral"]


@pytest.mark.parametrize("question, gold", [
    ("Which papers evaluate or score the physical realism of AI-generated videos?", {PHYSVISTA, PHYPROBE}),
    ("Which papers estimate 3D or 4D scene geometry or layout from images or video?",
     {"Layout-as-Policy (LaP)", "UniCon3R", UNIFIED_4D}),
    # PhysVista matches almost word for word; the list must not stop there.
    ("Which papers propose benchmarks for physical reasoning in VLMs?", {PHYSVISTA, "PhysElite"}),
    # The kind of paper asked for is part of the topic: "benchmark" between "List the" and "papers".
    ("List the benchmark papers about physics.", {PHYSVISTA, "PhysElite"}),
    # Papers asked for by their kind: a list, not one paper ("Which datasets does the deblurring paper use?" is).
    ("Which benchmarks evaluate MLLMs?", {"PhysElite", "PathView-Bench"}),
    # "biology or medicine": a pathology benchmark that never says "biology" answers it.
    ("Which papers build benchmarks in biology or medicine?", {"PathView-Bench"}),
    # A name only one abstract uses points at that paper, however loosely the rest of the sentence matches.
    ("Do any papers evaluate on LIBERO?", {"Phase-Adaptive Fusion (PAF)"}),
    # A well-known acronym few abstracts use names them, in a hyphenated variant too ("Sync-GRPO").
    ("Which papers use GRPO?", {"Sync-R1"}),
    ("Give me papers on efficient LLM inference", {"PatchKV"}),
    ("Summarize the papers about video", {"VI-Bench", "ViDiC-1K", "VISD", "V1-DVS", "UniCon3R"}),
    # "LLM" is the abstract's "LLMs"; "list" asks, it is not the topic.
    ("List papers about LLM reasoning", {"CoT as compositional OOD generalization"}),
    # An "or" joins whole phrases: the V1 paper never mentions spiking neural networks.
    ("Which papers are about spiking neural networks or the visual cortex?",
     {"Unified convergence analysis framework for SG and LocalZO direct SNN training", "V1-DVS"}),
    # Lists asked for without "which papers": "I need everything on ...", "What work is there on ...".
    ("I need everything on recovering 3D or 4D scene structure from monocular images or video. Which papers fit?",
     {"Layout-as-Policy (LaP)", "UniCon3R", UNIFIED_4D}),
    ("What work is there on judging whether AI-generated videos respect real-world physics?", {PHYSVISTA}),
    # a model family: every paper using a Qwen model, whatever its version
    ("Which papers report experiments with Qwen-family models?",
     {PIPEFSDP, "PERception-Interaction-reason Agent (PERIA)", "Patch-for-Patch (P4P)", "PURGE"}),
    ("Which submissions report experiments with Qwen3-family models, either as backbones or as baselines?",
     {PIPEFSDP, "PERception-Interaction-reason Agent (PERIA)", "PURGE"}),
    # typed as into a search box: a model's name in lower case, "X papers ..." without a verb
    ("all work using qwen models", {PIPEFSDP, "PERception-Interaction-reason Agent (PERIA)", "Patch-for-Patch (P4P)",
                                    "PURGE"}),
    ("memorization papers llm diffusion", {"Contextual memorization", "Understanding generalization in diffusion models"}),
    # examples in brackets: a paper needs only one of them
    ("which papers handle image degradations (blur, haze, noise)?", {"PhysDNet", "PickMoment"}),
    # a broad field, which a sentence rarely names: papers writing its narrower terms ("pathology", "single-cell",
    # "robotic manipulation", "cortical", "spiking", "preference-based optimization")
    ("list the papers that work with biological or medical data", {"PathView-Bench", "PerturbReason"}),
    ("Which papers target robot manipulation, either planning or control policies?",
     {"Phase-Adaptive Fusion (PAF)", "Predicting physical-state scene graphs from a single image"}),
    ("Which submissions draw on neuroscience or brain-inspired computation?",
     {"Target alignment", "V1-DVS", "Unified convergence analysis framework for SG and LocalZO direct SNN training"}),
    ("Which papers use reinforcement learning?",
     {"VISD", "Sync-R1", "Layout-as-Policy (LaP)", "PERception-Interaction-reason Agent (PERIA)"}),
    ("Which papers try to cut computation cost for training or inference?",
     {PIPEFSDP, "PhysDNet", "PatchKV", "Patch Rebirth Inversion (PRI)"}),
    # the list asked after a lead-in naming the field
    ("For the robotics track: which submissions belong there?",
     {"Phase-Adaptive Fusion (PAF)", "Predicting physical-state scene graphs from a single image"}),
    # the list is asked after a statement
    ("I work with Qwen models myself. Which papers run experiments with Qwen models?",
     {PIPEFSDP, "PERception-Interaction-reason Agent (PERIA)", "Patch-for-Patch (P4P)", "PURGE"}),
])
def test_which_papers_lists_every_relevant_paper(seed_chat, question, gold):
    answer = seed_chat.ask(question)
    assert answer.kind == "which"
    assert gold <= set(_cited(answer))
    match = re.match(r"Found (\d+) papers?:", answer.text)
    assert match and int(match.group(1)) == len(answer.citations)
    for c in answer.citations:  # one cited line per paper, saying why it matches
        assert re.search(rf"^\d+\. \*\*{re.escape(c.paper.name)}\*\*: .+ \[{c.n}\]$", answer.text, re.M)
    _assert_quotes_verbatim(answer)


@pytest.mark.parametrize("question", [
    "which papers introduce new benchmarks that evaluate models on videos?",
    "List the benchmark papers about physics.",
])
def test_a_list_of_new_benchmarks_lists_only_papers_that_bring_one(seed_chat, question):
    """Papers tested on video benchmarks (VISD, UniCon3R) or scoring physics (PhyProbe) bring no benchmark of their
    own: a list of papers introducing benchmarks leaves them out, and each paper listed introduces one."""
    answer = seed_chat.ask(question)
    cited = set(_cited(answer))
    assert answer.kind == "which" and PHYSVISTA in cited, answer.text
    assert not cited & {"VISD", "UniCon3R", PHYPROBE, "V1-DVS"}, answer.text
    for c in answer.citations:
        sentences = [t for t, _ in seed_chat.store.sentences([c.paper.paper_id])[c.paper.paper_id]]
        assert any(re.search(r"\b(?:introduc|present)\w*\b.*(?:benchmark|Bench)", t) for t in sentences), c.paper.name


@pytest.mark.parametrize("question", [
    "I'm collecting new video benchmarks for testing VLMs/MLLMs. which papers propose one?",
    "which papers release a benchmark for video understanding in vlms/mllms?",
    "Which papers introduce new benchmarks built around videos?",
])
def test_a_list_of_new_video_benchmarks_finds_each_one_however_it_is_worded(seed_chat, question):
    """ViDiC-1K's benchmark is "1,000 curated video pairs" and PhysVista's one "to evaluate physical intelligence in
    VLMs": no sentence of theirs is near the question, yet each brings a benchmark and writes of video."""
    answer = seed_chat.ask(question)
    assert answer.kind == "which", answer.text
    assert set(_cited(answer)) == {"VI-Bench", "ViDiC-1K", PHYSVISTA}, answer.text
    # each is listed with the sentence bringing its benchmark, not a results sentence
    for c in answer.citations:
        assert re.search(r"\bintroduc\w*\b.*(?:benchmark|Bench)", c.quote), c.quote
    # asked next, a list of another kind is a new search, not a question about "the benchmark" just listed
    physics = seed_chat.ask("List the benchmark papers about physics.", history=[(question, answer.text)])
    assert physics.kind == "which" and PHYSVISTA in _cited(physics) and "VI-Bench" not in _cited(physics), physics.text


def test_a_list_no_paper_clears_is_answered_by_the_one_paper_that_answers_it(seed_chat):
    """No paper clears the list cut-off for "reinforcement learning to play Atari games" (the RL papers never mention
    Atari), but one paper answers it as a lookup would: it is given, said to be the best single answer rather than a
    list; an off-topic list is still refused."""
    answer = seed_chat.ask("Which papers use reinforcement learning to play Atari games?")
    assert not answer.refused and answer.text.startswith("No set of papers clears"), answer.text
    assert _cited(answer) == ["Generative optimization"] and "Atari" in answer.text, answer.text
    assert seed_chat.ask("Which papers forecast river floods from rainfall measurements?").refused


def test_a_list_leaves_out_the_paper_it_excludes(seed_chat):
    answer = seed_chat.ask("Do any papers other than PURGE use a CLIP model?")
    assert answer.kind == "which" and _cited(answer) == ["Predicting physical-state scene graphs from a single image"], (
        answer.text)


def test_a_list_of_a_broad_field_lists_only_papers_in_it(seed_chat):
    """"the efficiency of LLM training or inference": papers on LLMs that say nothing of throughput, memory or speed
    (contextual memorization, PerturbReason's reference LLM, chain-of-thought theory) were listed for "LLM"."""
    answer = seed_chat.ask("Which papers concern the efficiency of large language model training or inference?")
    assert answer.kind == "which" and set(_cited(answer)) == {"PatchKV", PIPEFSDP}, answer.text


def test_a_list_leaves_out_papers_using_only_the_model_it_rules_out(seed_chat):
    """P4P runs Qwen2.5-VL only: asked for Qwen3 models "(not Qwen2.5)", it is not listed; the three using Qwen3 are."""
    answer = seed_chat.ask("Which papers run experiments with Qwen3-generation models (not Qwen2.5)?")
    assert answer.kind == "which", answer.text
    assert set(_cited(answer)) == {"PURGE", "PERception-Interaction-reason Agent (PERIA)", PIPEFSDP}, answer.text


def test_a_list_includes_each_paper_writing_an_example_the_asker_gives(seed_chat):
    """"e.g. spiking networks or predictive coding": the predictive-coding paper scores under the list's cut-off (its
    sentences are about cortical learning, not "learning paradigms"), yet it writes one of the examples."""
    answer = seed_chat.ask("Which papers study learning paradigms other than standard backprop-trained ANNs, e.g. "
                           "spiking networks or predictive coding?")
    assert answer.kind == "which", answer.text
    assert {"Target alignment", "Unified convergence analysis framework for SG and LocalZO direct SNN training"} <= set(
        _cited(answer)), answer.text


# ---- follow-ups ----
def test_follow_up_pronoun_resolves_to_the_paper_of_the_previous_turn(seed_chat):
    first = seed_chat.ask("What does PipeFSDP do?")
    answer = seed_chat.ask("Which models and cluster sizes did they evaluate it on?",
                           history=[("What does PipeFSDP do?", first.text)])
    assert PIPEFSDP in answer.rewritten
    assert _cited(answer)[0] == PIPEFSDP
    assert "Llama3" in answer.text
    _assert_quotes_verbatim(answer)


def test_follow_up_ordinal_follows_the_order_of_the_previous_answer(seed_chat):
    history = [("Which papers introduce video understanding benchmarks?",
                "ViDiC-1K, which tests describing differences between video pairs, and VI-Bench, which tests "
                "recovering the generation prompt from AIGC videos.")]
    answer = seed_chat.ask("What about the second one? How was it built?", history=history)
    assert _cited(answer)[0] == "VI-Bench"


def test_follow_up_ordinal_counts_papers_an_answer_describes_without_naming_them(seed_chat):
    history = [("any theory papers on attention mechanisms?",
                "Two stand out: one analyzes token dynamics in Transformers with hyper-connections using bifurcation "
                "theory, and another studies axial attention as used in time series foundation models.")]
    answer = seed_chat.ask("the second one - do they actually prove gradient descent converges?", history=history)
    assert _cited(answer)[0] == "Analytically tractable axial attention-type predictor", answer.text
    first = seed_chat.ask("what does the first one find?", history=history)
    assert _cited(first)[0] == "Transformers with hyper-connections", first.text


def test_a_descriptive_name_does_not_draw_the_quotes_to_sentences_repeating_it(seed_chat):
    """The words of "Phase-Adaptive Fusion" alone would pull "Operating entirely in the forward pass, PAF features
    ..." into the answer; both quotes should be about the shortcut asked for."""
    answer = seed_chat.ask("What is the 'state-dominant shortcut' that Phase-Adaptive Fusion (PAF) tries to break in "
                           "VLA policies?")
    quotes = re.findall(r"([^.]*?\.)\s*\[1\]", answer.text)
    assert len(quotes) == 2 and all("shortcut" in q for q in quotes), answer.text


def test_follow_up_ordinal_counts_the_papers_of_hand_written_turns(seed_chat):
    """One paper per turn, each only described: "the first one" is the first turn's paper, not the first of the
    last turn's one."""
    history = [("is there theory on how chain-of-thought generalizes?",
                "One paper models CoT as composing in-distribution atomic steps with a shared single-step predictor, "
                "and bounds the out-of-distribution risk by the sum of subtask risks."),
               ("anything on the stability of hyper-connected transformers?",
                "Another paper takes a continuous-depth limit of hyper-connected Transformers and finds pitchfork and "
                "Hopf-type instabilities.")]
    first = seed_chat.ask("for the first one, what benchmarks back up the theory?", history=history)
    assert _cited(first) == ["CoT as compositional OOD generalization"], first.text
    assert "GSM8K" in first.text
    second = seed_chat.ask("and the second one, what do they validate on?", history=history)
    assert _cited(second) == ["Transformers with hyper-connections"], second.text


def test_an_answer_announcing_its_papers_is_not_searched_as_one(seed_chat):
    """"Two stand out." describes no paper: among thousands, a search for it finds one anyway (a ranking paper at 8.4k),
    which then counted as "the first one"."""
    from rag.followup import _described_papers

    searched = []
    answer = ("Two stand out. One uses causal patching to show that VLMs route visual information through a direct "
              "pathway. The other shows that adding an image shifts representations into a jailbreak state.")
    _described_papers(answer, seed_chat.catalog, lambda text: searched.append(text) or [])
    assert len(searched) == 2 and not any(text.startswith("Two stand out") for text in searched), searched


def test_follow_up_ordinal_written_in_digits(seed_chat):
    """"the 2nd one" after a numbered answer on two papers is the second, not both."""
    history = [("papers w/ theory on llm generalization?",
                "Two relevant ones: (1) a paper analyzing chain-of-thought as compositional out-of-distribution "
                "generalization; (2) a paper proposing 'contextual memorization' to separate rote memorization from "
                "learning in LLMs.")]
    answer = seed_chat.ask("the 2nd one, what testbed they use for experiments?", history=history)
    assert _cited(answer) == ["Contextual memorization"] and "formal languages" in answer.text, answer.text


def test_follow_up_ordinal_counts_a_named_and_a_described_paper(seed_chat):
    """"First, PAF, .... Second, a method that ...": the second one is the paper described, though only the first is
    named."""
    history = [("Which papers adapt vision-language models for robot manipulation?",
                "First, Phase-Adaptive Fusion (PAF), a plug-in for vision-language-action policies that boosts visual "
                "tokens during alignment-heavy phases. Second, a method that predicts physical-state scene graphs from "
                "an image and a goal, using a LoRA-adapted frozen CLIP encoder and a Latent Graph Reasoning Transformer.")]
    answer = seed_chat.ask("What ablation gains does the second one report?", history=history)
    assert _cited(answer) == ["Predicting physical-state scene graphs from a single image"], answer.text
    assert "+0.426" in answer.text, answer.text
    first = seed_chat.ask("which benchmarks does the first one use?", history=history)
    assert _cited(first)[0] == "Phase-Adaptive Fusion (PAF)", first.text


def test_the_other_one_is_the_paper_of_a_pair_the_last_turn_was_not_about(seed_chat):
    history = [("any video benchmarks about spotting differences between clips or recovering the prompt behind a "
                "generated video?", "Yes: one has 1,000 video pairs with checklist items for describing similarities "
                "and differences; another asks models to reconstruct the prompt that produced an AI-generated video."),
               ("how many models does the first one test?", "16 multimodal LLMs.")]
    answer = seed_chat.ask("and the other one?", history=history)
    assert answer.rewritten == "how many models does VI-Bench test?", answer.rewritten
    assert _cited(answer) == ["VI-Bench"] and "18" in answer.text, answer.text


def test_the_other_one_after_an_answer_on_two_papers_is_the_second(seed_chat):
    """A hand-written answer naming one paper, then "There's also ..." describing another: "the other one" is that
    second paper, not the one named."""
    history = [("Is there anything for 4D reconstruction of people in scenes from video?",
                "UniCon3R does feed-forward online human-scene 4D reconstruction from monocular video and uses inferred "
                "contact to fix floating bodies. There's also a unified generative-predictive model that jointly "
                "generates RGB video together with depth and camera pose.")]
    answer = seed_chat.ask("And the other one, can it handle inputs where only some of the modalities are available?",
                           history=history)
    assert _cited(answer) == ["Unified generative-predictive framework for 4D scene understanding"], answer.text
    assert "arbitrary subsets of inputs" in answer.text, answer.text


def test_follow_up_names_an_earlier_paper_by_what_it_is_about(seed_chat):
    """"the KV cache one" is the paper of the conversation about KV caches, though the last turn was about another
    (the lead-in is dropped: the question is the clause after it); a description no paper of the conversation fits
    leaves "it" to the latest paper."""
    history = [("what's out there on KV cache compression?",
                "PatchKV pairs a compressed KV cache with a weight patch computed once per context."),
               ("and on faster large-scale LLM training?",
                "PipeFSDP combines FSDP with pipeline parallelism and cuts pipeline bubbles.")]
    answer = seed_chat.ask("Going back to the KV cache one, does it need any training?", history=history)
    assert answer.rewritten == "Does PatchKV need any training?", answer.rewritten
    assert _cited(answer)[0] == "PatchKV" and "training-free" in answer.text, answer.text
    unfitting = seed_chat.ask("Going back to the dehazing one, does it need any training?", history=history)
    assert _cited(unfitting)[0] == PIPEFSDP, unfitting.text


def test_follow_up_comparison_against_the_paper_in_focus(seed_chat):
    history = [("Is there a benchmark for physical intelligence in VLMs?",
                "Yes. PhysVista evaluates physical state perception, dynamics reasoning and plausibility assessment.")]
    answer = seed_chat.ask("And how does it compare to PhyProbe?", history=history)
    assert answer.kind == "comparison"
    assert _cited(answer) == [PHYSVISTA, PHYPROBE]


def test_follow_up_counts_papers_by_position_and_skips_refusals(seed_chat):
    history = [("Which papers are about video?", seed_chat.ask("Which papers are about video?").text)]
    listed = [c.paper.name for c in seed_chat.ask("Which papers are about video?").citations]
    first_two = seed_chat.ask("Compare the first two", history=history)
    assert first_two.kind == "comparison" and _cited(first_two) == listed[:2], first_two.text
    refused = "Is there a paper on elevator scheduling?"
    history.append((refused, seed_chat.ask(refused).text))
    # "the second one" is the list's second paper, not the second of the papers the refusal calls closest.
    assert _cited(seed_chat.ask("Tell me more about the second one", history=history)) == [listed[1]]


def test_elliptical_follow_up_asks_the_previous_question_of_the_next_paper_in_the_list(seed_chat):
    """A list, a question about its first paper, then "and the second one?": the second counts in the list (not
    in the one-paper turn before it) and the question is the previous one, about that paper; "both of them" are the
    list's two."""
    listing = "Which papers work on image restoration?"
    history = [(listing, seed_chat.ask(listing).text)]
    listed = _cited(seed_chat.ask(listing))
    assert len(listed) >= 2
    first = "What datasets does the first one report results on?"
    history.append((first, seed_chat.ask(first, history=history).text))
    answer = seed_chat.ask("and the second one?", history=history)
    assert answer.rewritten == f"What datasets does {listed[1]} report results on?", answer.rewritten
    assert not answer.refused and _cited(answer)[0] == listed[1]
    both = seed_chat.ask("How do both of them differ?", history=history)
    assert both.kind == "comparison" and _cited(both)[:2] == listed[:2], both.text
    # A question of its own is not elliptical: "What is it?" asks what the paper in focus is.
    what = seed_chat.ask("What is it?", history=[("How much memory does PatchKV save?", "PatchKV saves ...")])
    assert what.rewritten == "What is PatchKV?"


def test_a_follow_up_asking_each_paper_its_own_thing_by_ordinal(seed_chat):
    """"the first one ..., and the second one ...": both ordinals are resolved (only the first was), and each paper
    is answered on its own part of the question: PhysDNet on how fast it runs, PickMoment on its datasets."""
    history = [("Are there papers on image restoration?",
                "Yes: PickMoment for motion deblurring, and PhysDNet for dehazing with NIR images and LiDAR depth.")]
    answer = seed_chat.ask("What datasets does the first one use, and how fast does the second one run?", history=history)
    assert answer.kind == "comparison" and _cited(answer) == [PICKMOMENT, "PhysDNet"], answer.text
    on_the_question = answer.text.split("**On the question:**")[1]
    assert "GoPro and HIDE" in on_the_question and "29/45/99 FPS" in on_the_question, on_the_question


def test_a_follow_up_pointing_at_an_earlier_answer_is_about_that_answers_papers(seed_chat):
    """"the two papers from your first answer" after a second turn on another paper: the first turn's two papers
    (was: "first" read as an ordinal, so PipeFSDP alone)."""
    history = [("Any papers on making LLM training or inference cheaper?",
                "PipeFSDP speeds up training by combining FSDP with pipeline parallelism, and PatchKV compensates KV "
                "cache compression for long-context inference."),
               ("And lightweight modules for vision encoders?", "P4P is a plug-in module for patch-based encoders.")]
    answer = seed_chat.ask("How do the two papers from your first answer differ in what they make efficient?",
                           history=history)
    assert answer.kind == "comparison" and _cited(answer) == [PIPEFSDP, "PatchKV"], answer.text
    both = seed_chat.ask("Can you compare both papers you mentioned first?", history=history)
    assert both.kind == "comparison" and _cited(both) == [PIPEFSDP, "PatchKV"], both.text


def test_both_papers_of_an_answer_naming_one_and_describing_another(seed_chat):
    """"One paper uses causal patching .... JRS-Rem ...": both are compared, and no third paper is searched for the
    rewritten question's wording."""
    history = [("Is there interpretability work on how VLMs process images?",
                "One paper uses causal patching to trace how visual information flows and finds two pathways. JRS-Rem "
                "analyzes the representation space to explain why adding an image causes jailbreaks.")]
    answer = seed_chat.ask("Can you compare the main findings of both papers?", history=history)
    assert answer.kind == "comparison", answer.text
    assert _cited(answer) == ["How visual information is routed in vision-language models", "JRS-Rem"], answer.text


def test_a_follow_up_describing_two_earlier_papers_is_about_both(seed_chat):
    history = [("Any benchmarks for multimodal models in pathology or physics?",
                "PathView-Bench tests multiscale pathology images, and PhysElite has Olympiad-level physics problems.")]
    answer = seed_chat.ask("How many MLLMs did the pathology benchmark test, and is it the same number as the physics "
                           "one?", history=history)
    assert answer.kind == "comparison" and _cited(answer) == ["PathView-Bench", "PhysElite"], answer.text


def test_a_terse_follow_up_that_finds_nothing_alone_is_asked_of_the_paper_in_focus(seed_chat):
    """"judge scores which dimensions?" names nothing and refers back to nothing; on its own it is refused. After
    a turn on VISD it is about VISD, and the answer says it read it so."""
    history = [("video reasoning rl self-distillation",
                "VISD: a structured self-distillation framework for VideoLLMs that uses a video-aware judge.")]
    answer = seed_chat.ask("judge scores which dimensions?", history=history)
    assert not answer.refused and _cited(answer) == ["VISD"], answer.text
    assert answer.text.startswith("Read as a question about VISD") and "logical consistency" in answer.text
    assert seed_chat.ask("judge scores which dimensions?").refused


def test_a_terse_follow_up_is_asked_of_the_paper_in_focus_before_it_is_searched_alone(seed_chat):
    """"ablation contributions?" after a turn on the scene-graph paper finds another paper on its own; in the
    conversation it is about the scene-graph paper. "which datasets?" is no list of dataset papers there."""
    history = [("physical state scene graphs manipulation predicates",
                "A paper predicting physical-state scene graphs from one image plus a language goal, using a "
                "LoRA-adapted frozen CLIP encoder and a Latent Graph Reasoning Transformer.")]
    answer = seed_chat.ask("ablation contributions?", history=history)
    assert _cited(answer) == ["Predicting physical-state scene graphs from a single image"], answer.text
    assert answer.text.startswith("Read as a question about Predicting physical-state scene graphs")
    patchkv = [("What is PatchKV?", seed_chat.ask("What is PatchKV?").text)]
    datasets = seed_chat.ask("which datasets?", history=patchkv)
    assert datasets.kind == "lookup" and _cited(datasets) == ["PatchKV"] and "SCBench" in datasets.text
    assert _cited(seed_chat.ask("main idea?", history=patchkv)) == ["PatchKV"]


@pytest.mark.parametrize("question", [
    "what about speech recognition for low-resource languages?",
    "and is there anything on protein folding with diffusion models?",
    "any paper on federated learning?",
])
def test_a_follow_up_on_a_new_topic_is_not_answered_from_the_paper_in_focus(seed_chat, question):
    """No pronoun, no name: a topic PatchKV never touches is refused, not read as a question about PatchKV."""
    history = [("What is PatchKV?", seed_chat.ask("What is PatchKV?").text)]
    answer = seed_chat.ask(question, history=history)
    assert answer.refused and not answer.citations, answer.text


@pytest.mark.parametrize("question", [
    "any other paper on kv cache compression?",  # its words are all PatchKV's, but it asks for other papers
    "video benchmarks?",  # "benchmarks" may be asked of any paper, "video" is no word of PatchKV's
])
def test_a_terse_follow_up_asking_for_other_papers_is_searched_on_its_own(seed_chat, question):
    history = [("What is PatchKV?", seed_chat.ask("What is PatchKV?").text)]
    answer = seed_chat.ask(question, history=history)
    assert not answer.text.startswith("Read as a question about"), answer.text


def test_follow_up_that_compares_the_paper_in_focus_with_a_named_one(seed_chat):
    history = [("What does PipeFSDP improve?", seed_chat.ask("What does PipeFSDP improve?").text)]
    answer = seed_chat.ask("And how does that compare with PatchKV?", history=history)
    assert answer.kind == "comparison" and _cited(answer) == [PIPEFSDP, "PatchKV"], answer.text
    # A relative "that" is no reference: the question stands alone.
    assert not seed_chat.ask("Is there a benchmark that compares video pairs?", history=history).rewritten


@pytest.mark.parametrize("question, unloaded, paper", [
    ("Compare PatchKV and FlashAttention", "FlashAttention", "PatchKV"),
    ("Which is better, PhyProbe or VideoScore?", "VideoScore", PHYPROBE),
])
def test_a_comparison_with_a_paper_not_loaded_says_so(seed_chat, question, unloaded, paper):
    answer = seed_chat.ask(question)
    assert answer.text.startswith(f"“{unloaded}” is not among the loaded papers"), answer.text
    assert _cited(answer) == [paper]


def test_a_well_known_acronym_beside_a_compared_paper_is_no_missing_paper(seed_chat):
    answer = seed_chat.ask("What does Patch Rebirth Inversion do differently from sparse model inversion for ViTs?")
    assert "not among the loaded papers" not in answer.text and _cited(answer)[0] == "Patch Rebirth Inversion (PRI)"


def test_the_baseline_a_paper_measures_against_is_no_missing_paper(seed_chat):
    """PipeFSDP's abstract reports its gains over TorchTitan: asking by how much is a lookup, not a comparison with a
    paper that is not loaded."""
    answer = seed_chat.ask("By how much does PipeFSDP improve Model FLOPs Utilization and memory consumption compared "
                           "with TorchTitan?")
    assert "not among the loaded papers" not in answer.text and _cited(answer) == [PIPEFSDP], answer.text
    assert "1.28×" in answer.text


def test_a_group_of_papers_named_by_topic_is_compared(seed_chat):
    answer = seed_chat.ask("Compare the papers about memorization")
    assert answer.kind == "comparison" and len(answer.table) >= 2
    assert {"Contextual memorization", "Understanding generalization in diffusion models"} <= set(_cited(answer))
    alone = seed_chat.ask("How do the papers on KV cache compression differ?")
    assert alone.text.startswith("Only one loaded paper is about “KV cache compression”.") and _cited(alone) == ["PatchKV"]


def test_a_lower_case_word_name_alone_names_its_paper(seed_chat):
    answer = seed_chat.ask("tldr purge?")
    assert not answer.refused and _cited(answer) == ["PURGE"], answer.text
    assert "we introduce PURGE" in answer.text.split(" [1]")[0], answer.text
    # elsewhere the word is a word: "prove" asks for proofs, not for PROVE
    assert "PROVE" not in _cited(seed_chat.ask("Which papers prove convergence of evolutionary algorithms?"))


def test_a_choice_between_two_papers_is_a_comparison(seed_chat):
    answer = seed_chat.ask("Which is more theoretical, the hyper-connections paper or PhysDNet?")
    assert answer.kind == "comparison"
    assert set(_cited(answer)) == {"Transformers with hyper-connections", "PhysDNet"}, answer.text
    # A dehazing network and a theory of transformers share no topic: no statement of one is near one of the other.
    assert "common ground" not in answer.text and "In common" not in answer.text, answer.text
    assert ". [" not in answer.text.split("**How they differ:**")[1].split("\n")[0]


def test_how_compared_papers_differ_says_what_each_paper_brings(seed_chat):
    """Without a "ViDiC-1K, a ..." sentence, the one introducing it says what it is, not its judging protocol; and
    the contextual-memorization paper is its measure, not the training scheme it adds "finally"."""
    answer = seed_chat.ask("How do ViDiC-1K and the contextual memorization paper differ?")
    differ = answer.text.split("**How they differ:**")[1].split("\n")[0]
    assert "we introduce the ViDiC task and its corresponding ViDiC-1K benchmark" in differ, differ
    assert "we propose contextual memorization, a new measure" in differ, differ


@pytest.mark.parametrize("question, said", [
    ("What problem does VISD solve?", "remains challenging due to sparse sequence-level rewards"),
    ("What did the curse of unrolling paper find?", "truncating early iterations of the derivative computation"),
    ("How does PURGE work?", "The framework consists of two components"),
    ("What are the main contributions of VISD?", "we propose VISD, a structured self-distillation framework"),
    ("What is the main result of PipeFSDP?", "outperforms the Torchtitan system by up to 1.28×"),
    ("Summarize PhysVista", "we introduce PhysVista, a benchmark"),
    ("How many video pairs are in ViDiC-1K?", "ViDiC-1K comprises 1,000 curated video pairs"),
    # What a paper is: what it proposes, then what it found.
    ("What is PatchKV?", "We propose PatchKV, a training-free framework"),
    # Otherwise the sentence that answers best comes first, not the abstract's opening.
    ("How much memory does PipeFSDP save?", "1.87× in memory consumption"),
    ("Describe UniCon3R.", "We introduce UniCon3R, a unified feed-forward framework"),
    # a closing question asking for a figure is answered by the sentence giving one
    ("The paper on hidden design choices in LLM-driven generative optimization says adoption is low. What statistic "
     "do they give for that?", "only 9% of surveyed agents used any automated optimization"),
    # "according to the authors" asks what they claim, not who they are
    ("How much faster is Patch Rebirth Inversion than dense inversion and than sparse model inversion, according to "
     "the authors?", "up to 10× faster inversion"),
])
def test_an_answer_about_one_paper_leads_with_the_part_of_the_abstract_asked_for(seed_chat, question, said):
    answer = seed_chat.ask(question)
    first_quote = answer.text.split(" [1]")[0]
    assert said in first_quote and len(answer.citations) == 1, answer.text


def test_release_notes_are_never_quoted_as_an_answer(seed_chat):
    answer = seed_chat.ask("What is the motivation behind UniCon3R?")
    assert _cited(answer) == ["UniCon3R"] and "will be released" not in answer.text, answer.text


def test_follow_ups_count_the_papers_of_earlier_turns(seed_chat):
    """One paper per turn: "the two", "they ... differ" and "the first one" mean the papers of the last turns."""
    history = []
    for question in ("What is PatchKV?", "And PipeFSDP?"):
        history.append((question, seed_chat.ask(question, history=history).text))
    both = seed_chat.ask("Which of the two saves more memory?", history=history)
    assert both.kind == "comparison" and _cited(both) == ["PatchKV", PIPEFSDP], both.text
    differ = seed_chat.ask("How do they differ?", history=history)
    assert differ.kind == "comparison" and _cited(differ) == ["PatchKV", PIPEFSDP]
    assert _cited(seed_chat.ask("Tell me more about the first one", history=history)) == ["PatchKV"]
    which_one = seed_chat.ask("which one is about training?", history=history)
    assert which_one.rewritten == "which of PatchKV and PipeFSDP is about training?", which_one.rewritten
    assert which_one.kind == "comparison" and _cited(which_one) == ["PatchKV", PIPEFSDP], which_one.text


# ---- details an abstract does not give ----
def test_not_stated_says_so_cites_the_paper_and_invents_no_number(seed_chat):
    answer = seed_chat.ask("How many GPU hours did it take to train PERIA-8B?")
    assert answer.kind == "not_stated" and not answer.refused
    assert "does not state" in answer.text
    peria = answer.citations[0].paper
    assert "PERIA" in peria.name and len(answer.citations) == 1
    for number in re.findall(r"\d+(?:\.\d+)?", re.sub(r"\[\d+\]", "", answer.text)):
        assert number in peria.text, f"{number} is not in the abstract"
    _assert_quotes_verbatim(answer)


def test_a_comparison_says_which_paper_gives_no_figure_asked_for(seed_chat):
    """PatchKV says memory is the bottleneck but gives no figure for what it saves; PipeFSDP gives 1.87×."""
    answer = seed_chat.ask("Compare the memory savings of PatchKV and PipeFSDP")
    assert answer.kind == "comparison" and set(_cited(answer)) == {"PatchKV", PIPEFSDP}
    assert "The abstract of **PatchKV** does not state the memory savings" in answer.text, answer.text
    assert "PipeFSDP** does not state" not in answer.text and "1.87×" in answer.text


def test_a_speed_up_is_answered_with_its_factor_or_said_missing(seed_chat):
    """PRI states "10× faster"; PatchKV only says per-query cost is unchanged and VISD that it "accelerates convergence",
    so neither states how much faster (both were answered with an unrelated benchmark sentence)."""
    pri = seed_chat.ask("How many times faster than SMI is Patch Rebirth Inversion?")
    assert pri.kind != "not_stated" and "2× faster than SMI" in pri.text, pri.text
    for name, question in (("PatchKV", "how much faster is PatchKV?"), ("VISD", "What speedup does VISD report?")):
        answer = seed_chat.ask(question)
        assert answer.kind == "not_stated" and _cited(answer) == [name], answer.text
        assert f"The abstract of **{name}** does not state the speed-up figure" in answer.text, answer.text


def test_each_of_two_details_asked_together_is_said_missing(seed_chat):
    """"how many GPUs and how many hours": two numbers, neither in the abstract (the first once read "and" as the
    thing counted and answered with a description)."""
    answer = seed_chat.ask("In the framework that uses partition-aware unlearning to strip spurious object-background "
                           "shortcuts out of large vision-language models, how many GPUs and how many hours did the "
                           "unlearning step take?")
    assert answer.kind == "not_stated" and _cited(answer) == ["PURGE"], answer.text
    assert "number of GPUs" in answer.text and "number of hours" in answer.text


def test_a_count_written_without_the_counted_word_is_stated(seed_chat):
    """ViDiC-1K's "experiments on 16 representative MLLMs" counts models, PhysElite's "bilingual" counts languages
    (both were answered "not stated"), PathView-Bench's "23 public ... datasets" its source collections; a benchmark
    that says nothing of languages still does not state it."""
    answer = seed_chat.ask("How many models does ViDiC-1K evaluate?")
    assert answer.kind != "not_stated" and "16 representative MLLMs" in answer.text, answer.text
    languages = seed_chat.ask("How many languages does PhysElite cover?")
    assert languages.kind != "not_stated" and "bilingual" in languages.text, languages.text
    assert seed_chat.ask("How many languages does PathView-Bench cover?").kind == "not_stated"
    # "source collections" are the "23 public pathology imaging datasets" it is built from
    sources = seed_chat.ask("How many public source collections was PathView-Bench assembled from?")
    assert sources.kind != "not_stated" and "23 public pathology imaging datasets" in sources.text, sources.text


@pytest.mark.parametrize("question, said", [
    ("How many real people took part in building VisualMem's benchmark?", "does not state the number of real people"),
    # a named component the abstract only describes ("a frozen pretrained spatio-temporal encoder")
    ("Which pretrained video encoder does PhyProbe build on?", "does not state the encoder"),
    # "fixed-function NPUs" names no chip
    ("Which NPU chip does PhysDNet run on?", "does not state the hardware model"),
    # "even the strongest model reaches only 33.7%" names no model; VISD names no base model
    ("Which model was the best one on PhysElite, the one that got 33.7%?", "does not state the best model"),
    ("What base videoLLM did VISD fine-tune?", "does not state the backbone model"),
    # "16 representative MLLMs" names none, nor does "an LLM-as-a-Judge protocol"
    ("Which models does ViDiC-1K evaluate?", "does not state the models evaluated"),
    ("How many synthesized tool-use trajectories were used to train PERIA?",
     "does not state the number of synthesized tool-use trajectories"),
    ("How many frames per second does UniCon3R run at?", "does not state the number of frames per second"),
])
def test_a_missing_count_is_named_as_asked(seed_chat, question, said):
    """What "how many" counts is said back whole (was "the number of tool-use", "the number of frames")."""
    answer = seed_chat.ask(question)
    assert answer.kind == "not_stated" and said in answer.text, answer.text


def test_the_closing_question_of_a_description_is_answered_first(seed_chat):
    """A description, then the real question: the sentence answering that question leads ("NPUs" is read as the
    neural processing units the asker calls "embedded neural accelerators"); a closing "Which one was it?" asks
    only for the paper."""
    answer = seed_chat.ask("Hi! I'm looking for a lightweight fog-removal network that combines near-infrared camera "
                           "images with sparse lidar depth. Could you tell me how fast it runs on embedded neural "
                           "accelerators and at roughly what power draw?")
    assert answer.text.startswith("**PhysDNet**: PhysDNet further demonstrates compatibility with fixed-function NPUs"), (
        answer.text)
    which = seed_chat.ask("I remember a fog-removal network that fuses near-infrared images with lidar. Which one was it?")
    assert _cited(which) == ["PhysDNet"] and "NPUs" not in which.text.split(" [1]")[0], which.text


def test_a_closing_how_much_question_is_answered_by_a_number(seed_chat):
    """"How long were the contexts they tested?": the sentence giving the length ("up to 170k tokens") leads, not the
    scene-setting one that says "long-context" without a number."""
    answer = seed_chat.ask("I'm hitting KV-cache memory limits on long-context serving. Is there a no-training fix that "
                           "pushes some of the context into the weights instead? How long were the contexts they tested?")
    assert _cited(answer) == ["PatchKV"] and "170k tokens" in answer.citations[0].quote, answer.text


def test_the_closing_question_names_the_thing_whose_sentence_leads(seed_chat):
    """"Which training losses": the sentence listing the losses leads, though "loss" is not "losses" letter for
    letter and another sentence shares the description's words."""
    answer = seed_chat.ask("There's a deblurring paper that models a blurry photo as the average of sharp frames over "
                           "the exposure window, so you can query any sub-interval of time. Which training losses does it "
                           "use?")
    assert _cited(answer) == ["PickMoment"] and "an additivity loss" in answer.text.split(" [1]")[0], answer.text


def test_an_everyday_acronym_compound_points_to_no_paper(seed_chat):
    """"AI-generated" is English, not a made-up name: PhysVista using it does not make it the benchmark described."""
    answer = seed_chat.ask("that benchmark about recovering the text prompt behind an AI-generated video - how many "
                           "user prompts was it built from, and what's the top model's score?")
    assert _cited(answer) == ["VI-Bench"] and "16.1 million" in answer.text, answer.text


def test_the_question_after_a_dash_is_answered_first(seed_chat):
    answer = seed_chat.ask("Remind me of the fix proposed in that graph neural network calibration paper which says GNNs "
                           "are usually under-confident - what simple change do they make to the training?")
    assert "reducing the weight decay" in answer.text.split(" [1]")[0], answer.text


def test_the_question_after_a_comma_is_answered_first(seed_chat):
    answer = seed_chat.ask("For my related work on evolutionary multi-objective optimization: the runtime analysis of the "
                           "decomposition-based algorithm where subproblems swap solutions with their neighbours, what "
                           "bound does it prove once the exchange radius is at least 1, and how does that compare to no "
                           "exchange?")
    assert re.search(r"Θ\(n\^2\)|O\(n\^2 log n\)", answer.text.split(" [1]")[0]), answer.text


def test_a_number_in_the_question_asks_for_the_sentence_with_one(seed_chat):
    """"... with a communication radius of at least 1": the bound for r ≥ 1 leads, not the sentence announcing the
    analysis."""
    answer = seed_chat.ask("What runtime guarantee does the mathematical runtime analysis of the MOEA/D on the OMM "
                           "benchmark prove when solutions are exchanged among subproblems with a communication radius "
                           "of at least 1?")
    assert "Θ(n^2)" in answer.text.split(" [1]")[0], answer.text


def test_a_word_in_the_description_is_no_detail_asked_for(seed_chat):
    """The optimizer is how the asker remembers the paper; the question is the runtime bound, which the abstract
    gives."""
    answer = seed_chat.ask("I vaguely remember a theory paper proving that a decomposition-based evolutionary "
                           "multi-objective optimizer gets faster when neighbouring subproblems share their solutions. "
                           "What runtime bound did they prove, and how does it compare with no sharing?")
    assert answer.kind == "lookup" and "Θ(n^2)" in answer.text, answer.text


def test_things_an_abstract_only_counts_are_not_named_from_it(seed_chat):
    """"on three model architectures" counts them without naming them: the answer says so, instead of quoting the
    sentence as if its benchmark names were the architectures; "four strong baselines—linear patch embedding, ..."
    names them."""
    architectures = seed_chat.ask("Which three model architectures was PatchKV evaluated on?")
    assert architectures.kind == "not_stated", architectures.text
    assert "does not state the names of the three model architectures" in architectures.text
    baselines = seed_chat.ask("Which four baselines does V1-DVS outperform?")
    assert baselines.kind != "not_stated" and "linear patch embedding" in baselines.text, baselines.text


@pytest.mark.parametrize("question", [
    "How many problems does PhysElite contain and what accuracy does the best MLLM reach on it?",
    "How many problems does the Olympiad-level bilingual physics benchmark contain, and what is the best answer "
    "accuracy any model reaches on it?",
])
def test_a_score_and_a_count_asked_together_are_both_answered(seed_chat, question):
    answer = seed_chat.ask(question)
    assert answer.kind != "not_stated" and "11,586" in answer.text and "33.7%" in answer.text, answer.text


def test_a_count_of_annotations_is_stated_by_what_was_annotated(seed_chat):
    """"1,000 curated video pairs annotated with 3,720 ... checklist items" gives both counts asked for."""
    answer = seed_chat.ask("How many video pairs and how many checklist annotations are in the benchmark for describing "
                           "fine-grained differences between two videos?")
    assert answer.kind != "not_stated" and "3,720" in answer.text, answer.text


def test_failures_of_earlier_methods_a_paper_fixes_are_no_question_of_its_own_limitations(seed_chat):
    answer = seed_chat.ask("What failure modes of earlier feed-forward methods is UniCon3R trying to fix?")
    assert answer.kind != "not_stated" and "bodies float above the ground" in answer.text, answer.text
    assert seed_chat.ask("What are the failure modes of UniCon3R?").kind == "not_stated"


def test_a_detail_asked_of_each_compared_paper_is_quoted_or_said_missing(seed_chat):
    each = seed_chat.ask("Could you compare PhysElite, PathView-Bench and ViDiC-1K in terms of how many models each "
                         "one evaluated?")
    on_question = each.text.split("**On the question:**")[1]
    assert each.kind == "comparison"
    assert all(n in on_question for n in ("18 open-source", "Evaluating 18", "16 representative")), on_question
    gpus = seed_chat.ask("How many GPUs did PipeFSDP and PatchKV use?")
    assert gpus.kind == "comparison" and "64-GPU clusters" in gpus.text.split("**On the question:**")[1], gpus.text
    assert "The abstract of **PatchKV** does not state the number of GPUs" in gpus.text, gpus.text


def test_a_model_size_in_a_models_name_is_stated(seed_chat):
    answer = seed_chat.ask("How many parameters does PERIA have?")
    assert answer.kind == "lookup" and "PERIA-8B" in answer.text.split(" [1]")[0], answer.text


def test_a_stated_detail_is_answered_not_declared_missing(seed_chat):
    answer = seed_chat.ask("How many problems does PhysElite contain and what accuracy does the best MLLM reach on it?")
    assert answer.kind == "lookup"
    assert _cited(answer)[0] == "PhysElite"
    assert "11,586" in answer.text and "33.7%" in answer.text, answer.text


@pytest.mark.parametrize("question, opening", [
    ("what is perturbreason about?", "We introduce PerturbReason, a knowledge"),
    ("What is PhyProbe?", "To this end, we introduce PhyProbe, an evaluator"),
    ("Tell me about ViDiC-1K", "we introduce the ViDiC task and its corresponding ViDiC-1K benchmark"),
])
def test_asked_what_a_paper_is_the_answer_opens_with_the_sentence_introducing_it(seed_chat, question, opening):
    """Not with its reference probe ("we present PerturbRM") or its training objective, which the question's few words
    happened to sit closer to."""
    answer = seed_chat.ask(question)
    first = answer.text.split(" [1]")[0]
    assert answer.kind == "lookup" and opening in first, answer.text


def test_a_gain_in_points_is_a_percentage_the_abstract_states(seed_chat):
    answer = seed_chat.ask("peria-8b, how many points does it gain over the plain qwen3-8b base?")
    assert answer.kind == "lookup" and "by 10.0%" in answer.text, answer.text


@pytest.mark.parametrize("question, what", [
    ("p4p - how much extra vram and latency does it add at inference?", "memory overhead or latency"),
    ("What's PatchKV's latency overhead?", "latency"),
])
def test_what_a_method_costs_at_inference_is_said_not_stated(seed_chat, question, what):
    answer = seed_chat.ask(question)
    assert answer.kind == "not_stated" and f"does not state the {what}" in answer.text, answer.text


def test_a_frame_rate_answers_a_latency_question(seed_chat):
    answer = seed_chat.ask("What is the latency of PhysDNet?")
    assert answer.kind == "lookup" and "29/45/99 FPS" in answer.text.split(" [1]")[0], answer.text


def test_a_count_of_either_of_two_slashed_names_is_stated(seed_chat):
    """"How many VLMs/MLLMs": ViDiC-1K's "16 representative MLLMs" gives it (it was declared missing for "VLMs")."""
    answer = seed_chat.ask("How many VLMs/MLLMs does ViDiC-1K evaluate?")
    assert answer.kind == "lookup" and "16 representative MLLMs" in answer.text, answer.text
    answer = seed_chat.ask("how many conversations/ users are in the visualmem benchmark")
    assert answer.kind == "not_stated" and "number of conversations/users" in answer.text, answer.text


def test_a_named_descent_method_answers_which_optimizer(seed_chat):
    """"Projected Gradient Descent converges globally" names the optimizer, though no Adam or SGD is written."""
    answer = seed_chat.ask("Which optimizer does the axial attention predictor paper prove converges globally?")
    assert answer.kind == "lookup" and "Projected Gradient Descent" in answer.text, answer.text


def test_the_sentence_giving_an_asked_for_detail_is_quoted(seed_chat):
    # "GoPro and HIDE" names the datasets without saying "datasets": the answer must quote that sentence.
    answer = seed_chat.ask("What datasets does PickMoment evaluate on?")
    assert answer.kind == "lookup" and _cited(answer) == [PICKMOMENT]
    assert "GoPro" in answer.text and "HIDE" in answer.text, answer.text
    # asked in the singular, of the paper in focus: the same sentence; of a paper naming none, "not stated"
    history = [("Which papers handle image degradations (blur, haze, noise)?", "PhysDNet [1] and PickMoment [2]")]
    singular = seed_chat.ask("what dataset did the second one use?", history=history)
    assert _cited(singular) == [PICKMOMENT] and "GoPro" in singular.text, singular.text
    assert seed_chat.ask("What dataset did PhyProbe use?").kind == "not_stated"


@pytest.mark.parametrize("question, closest", [
    ("What models does PhysElite benchmark?", "We benchmark 18 open-source and closed-source MLLMs"),
    ("What license will the PhysElite dataset be released under?", "dataset will be publicly available"),
])
def test_a_missing_detail_quotes_the_sentence_that_comes_closest(seed_chat, question, closest):
    answer = seed_chat.ask(question)
    assert answer.kind == "not_stated" and closest in answer.text.split("The closest it comes:")[1], answer.text


def test_prior_work_limits_are_not_given_as_the_papers_own(seed_chat):
    """PhyProbe's abstract lists what existing evaluators get wrong, never its own limits."""
    answer = seed_chat.ask("What are the limitations of PhyProbe?")
    assert answer.kind == "not_stated" and "Existing approaches" not in answer.text, answer.text


@pytest.mark.parametrize("question, what", [
    ("Who are the authors of PhyProbe?", "the authors"),
    ("Is the code for ViDiC-1K released?", "the code's availability"),
    ("Is PickMoment open source?", "the code's availability"),
    # "the PROVE authors use": what they did, not who they are.
    ("What batch size did the PROVE authors use?", "the batch size"),
    ("What are the limitations of PhyProbe?", "the limitations"),
    ("What is the model size of PhysDNet?", "the model size"),
    # A score is stated only with its number: ViDiC-1K reports "significant limitations", no accuracy.
    ("What accuracy does the best MLLM reach on ViDiC-1K?", "the accuracy"),
    # "5.2x lower compute" is no training budget; "WebVid-10M" is a dataset, not a model size.
    ("How many GPU-hours did it take to train PhysDNet?", "the training compute"),
    ("How many parameters does the V1-DVS front end have compared with a plain patch embedding?", "the model size"),
    # "AIGC video generation" and "Inversion Score" name no generator.
    ("Which text-to-video generators produced the human-verified AIGC videos in VI-Bench?", "the generators"),
])
def test_details_neither_abstract_nor_record_gives_are_declared_missing(seed_chat, question, what):
    answer = seed_chat.ask(question)
    assert answer.kind == "not_stated" and f"does not state {what} [" in answer.text, answer.text
    assert len(answer.citations) == 1


@pytest.mark.parametrize("question, name", [
    ("There's a data-free knowledge transfer paper that reconstructs images from a pretrained vision transformer. An "
     "earlier approach threw away unimportant patches, but these authors argue that's backwards. Which paper?",
     "Patch Rebirth Inversion (PRI)"),
    ("I remember a paper arguing that LLM-driven optimization of agents breaks down because of hidden setup choices, "
     "like which initial version you begin with and how many run logs you feed into each update. Which one was it?",
     "Generative optimization"),
])
def test_a_detail_the_question_describes_is_not_asked_for(seed_chat, question, name):
    """"these authors argue", "how many run logs you feed": the asker describes the paper; they ask which it is."""
    answer = seed_chat.ask(question)
    assert answer.kind == "lookup" and _cited(answer)[0] == name, answer.text


def test_named_generators_are_a_stated_detail():
    """The sentence naming the generators beside the word answers "which generators"."""
    from rag.detail_answer import detail_support
    from rag.details import asked_details
    from store.paper import Paper

    sentences = [("We release a benchmark of 900 clips.", None),
                 ("All clips were generated by Sora, Kling and Veo-3 from real prompts.", None)]
    paper = Paper("p", "ClipBench", "ClipBench", "", " ".join(t for t, _ in sentences), "f.txt", 0)
    (detail,) = asked_details("Which text-to-video generators produced the clips in ClipBench?")
    assert detail_support(detail, paper, sentences) == sentences[1][0]


def test_a_count_of_a_species_written_with_its_genus_initial_is_a_count():
    """"How many A. gracilipes ants": ants are counted (a stated count answers, else "not stated")."""
    from rag.detail_answer import detail_support
    from rag.details import asked_details
    from store.paper import Paper

    (detail,) = asked_details("How many A. gracilipes ants were tracked in the lab experiments?")
    assert detail.wants_number and detail.terms == ("ant",)
    sentences = [("We track ants in the lab and fit an active Brownian model.", None),
                 ("The model reproduces the observed turning statistics.", None)]
    paper = Paper("p", "Ant motion", "Ant motion", "", " ".join(t for t, _ in sentences), "f.txt", 0)
    assert detail_support(detail, paper, sentences) is None
    counted = sentences + [("In total, 48 ants were filmed over two weeks.", None)]
    assert detail_support(detail, paper, counted) == counted[2][0]


@pytest.mark.parametrize("question, name, unmentioned", [
    ("Does PhyProbe use V-JEPA as its frozen spatio-temporal encoder?", PHYPROBE, "V-JEPA"),
    ("Is it true that the contextual memorization paper ran its natural-language validation on the Pythia model suite?",
     "Contextual memorization", "Pythia"),
    # a choice of names offered, none of them the abstract's
    ("which specific frozen video encoder does PhyProbe use as its backbone, V-JEPA or VideoMAE or something else?",
     PHYPROBE, "V-JEPA"),
])
def test_a_claim_naming_what_the_abstract_never_mentions_is_not_confirmed(seed_chat, question, name, unmentioned):
    answer = seed_chat.ask(question)
    assert answer.kind == "not_stated" and _cited(answer) == [name], answer.text
    assert f"does not state the use of “{unmentioned}”" in answer.text, answer.text
    if name == PHYPROBE:  # the closest it comes is the sentence on its encoder
        assert "frozen pretrained spatio-temporal encoder" in answer.text.partition("The closest it comes:")[2]
    # a claim the abstract does name is checked against its sentence, not declared missing
    stated = seed_chat.ask("Is it true that PipeFSDP was evaluated on Qwen3-MoE?")
    assert stated.kind == "lookup" and "Qwen3-MoE" in stated.text, stated.text


@pytest.mark.parametrize("question, given, claimed, paper", [
    ("There is a bilingual benchmark of Olympiad-level physics problems. Is it true that it has about 15,000 problems? "
     "And what accuracy does the best model reach?", "11,586 Olympiad-tier problems", "about 15,000 problems",
     "PhysElite"),
    ("Is it true that PipeFSDP beats TorchTitan by as much as 1.87x in Model FLOPs Utilization?",
     "1.28× in Model FLOPs Utilization", "1.87x in Model FLOPs", "PipeFSDP"),
    ("Is it correct that the video pairs in ViDiC-1K are annotated along five comparison dimensions?",
     "seven dimensions", "five comparison dimensions", "ViDiC-1K"),
])
def test_a_number_claimed_otherwise_is_said_not_as_claimed(seed_chat, question, given, claimed, paper):
    """A yes/no check of a number the abstract gives otherwise: the answer says so first, citing the paper, and quotes
    the sentence with the abstract's number first."""
    answer = seed_chat.ask(question)
    assert answer.kind == "lookup" and _cited(answer)[0] == paper, answer.text
    assert answer.text.startswith(f"Not as claimed: the abstract gives “{given}”, not “{claimed}” [1]."), answer.text
    assert given.split()[0] in answer.citations[0].quote, answer.citations[0].quote


@pytest.mark.parametrize("question", [
    "Is it true that PhysElite evaluates 18 MLLMs?",
    "Is it true that PhysElite has about 11,000 problems?",  # a hedged claim within 10% agrees
    "Is it true that PhysElite has over 10,000 problems?",  # a bound, not an amount
    # 10x is the abstract's figure against dense inversion (2x against SMI): too subtle to call, so not called
    "Is it true that Patch Rebirth Inversion runs about 10 times faster than Sparse Model Inversion?",
])
def test_a_number_the_abstract_gives_is_not_disputed(seed_chat, question):
    answer = seed_chat.ask(question)
    assert not answer.refused and "Not as claimed" not in answer.text, answer.text


def test_a_claim_closing_a_question_is_checked_too(seed_chat):
    """"Which model does VISD use as its judge, is it GPT-4o?": the abstract names no judge model, so GPT-4o is not
    confirmed by quoting the judge sentence."""
    answer = seed_chat.ask("Which model does VISD use as its video-aware judge, is it GPT-4o or an open model?")
    assert answer.kind == "not_stated" and _cited(answer) == ["VISD"], answer.text
    assert "does not state the judge model or use of “GPT-4o”" in answer.text, answer.text
    # "an LLM-as-a-Judge protocol" names no judge model
    vidic = seed_chat.ask("Which specific LLM is used as the judge in ViDiC-1K's evaluation?")
    assert vidic.kind == "not_stated" and "does not state the judge model" in vidic.text, vidic.text


def test_names_of_things_a_question_counts_before_asking_are_not_taken_from_other_names(seed_chat):
    """"PatchKV was evaluated on three model architectures. Which specific models were they?": its abstract counts them
    without naming them; the benchmarks named beside the count (SCBench, SQuAD) are no answer."""
    answer = seed_chat.ask("PatchKV was evaluated on three model architectures. Which specific models were they?")
    assert answer.kind == "not_stated" and _cited(answer) == ["PatchKV"], answer.text
    assert "does not state the names of the three model architectures" in answer.text, answer.text


def test_a_running_time_the_abstract_never_gives_is_said_missing(seed_chat):
    """PatchKV's abstract says its patch is computed once at context-loading time, never how long that takes; PhysDNet's
    gives its frame rates, which answer how long a frame takes."""
    answer = seed_chat.ask("How long does PatchKV take to compute the weight patch for a 170k-token context?")
    assert answer.kind == "not_stated" and "does not state the running time" in answer.text, answer.text
    assert _cited(answer) == ["PatchKV"], answer.text
    stated = seed_chat.ask("How long does PhysDNet take to run on an NPU?")
    assert stated.kind == "lookup" and "29/45/99 FPS" in stated.text, stated.text


def test_a_count_given_in_its_unit_symbol_is_stated(seed_chat):
    """"how many frames per second": PhysDNet writes "29/45/99 FPS", which gives them."""
    answer = seed_chat.ask("How many frames per second does PhysDNet run at?")
    assert answer.kind == "lookup" and "29/45/99 FPS" in answer.citations[0].quote, answer.text


def test_a_sum_of_money_the_abstract_never_gives_is_said_missing(seed_chat):
    """PhysElite's abstract counts its problems and models, never what building it cost: no figure is quoted as the
    cost."""
    answer = seed_chat.ask("How much money did it cost to put together PhysElite?")
    assert answer.kind == "not_stated" and "does not state the monetary cost" in answer.text, answer.text
    assert _cited(answer) == ["PhysElite"], answer.text


def test_models_evaluated_are_quoted_from_the_evaluation_not_the_setting(seed_chat):
    """"on which models?": PipeFSDP's first sentence names PyTorch and LLMs while setting the scene; the sentence on
    its evaluation ("dense and sparse LLMs (Llama3, Qwen3, and Qwen3-MoE)") answers."""
    answer = seed_chat.ask("What gains did PipeFSDP report, and on which models?")
    assert answer.citations[0].quote.startswith("Empirical evaluations on both dense and sparse LLMs"), answer.text


def test_whether_a_backbone_is_frozen_is_no_question_of_its_name(seed_chat):
    """"Do both keep their backbone frozen?" asks how they train, not which backbone: no "does not state the backbone
    model" though PhyProbe says its encoder is frozen."""
    answer = seed_chat.ask("Do PROVE and PhyProbe keep their backbone frozen, or do they update it?")
    assert answer.kind == "comparison" and _cited(answer) == ["PROVE", PHYPROBE], answer.text
    assert "does not state" not in answer.text.split("**On the question:**")[-1], answer.text


# ---- refusals ----
@pytest.mark.parametrize("question", [
    "What's a good hydration ratio for a sourdough loaf?",
    "Which paper combines federated learning with differential privacy?",
])
def test_off_topic_questions_are_refused(seed_chat, question):
    answer = seed_chat.ask(question)
    assert answer.refused and not answer.citations
    assert answer.text.startswith("The loaded papers do not cover this question.")


def _assert_facet_unmet(chat, question: str, facet: str, closest: str, answered_by: str) -> None:
    """The nearest paper does the method but not for what the question applies it to: the answer says which part of
    the question no paper covers and names that paper as the closest; asked without that facet, it answers."""
    answer = chat.ask(question)
    assert answer.refused and not answer.citations, answer.text
    assert f"never mention “{facet}”" in answer.text and closest in answer.text.split("The closest papers are")[1]
    answer = chat.ask(answered_by)
    assert not answer.refused and _cited(answer)[0] == closest, answer.text


def test_a_paper_lacking_a_facet_of_the_question_does_not_answer_it(seed_chat):
    _assert_facet_unmet(seed_chat, "Is there anything on calibrating the confidence of speech recognition models?",
                        "speech", "Graph calibration method",
                        "Is there anything on calibrating the confidence of graph neural networks?")


@pytest.mark.parametrize("question, kind, closest, answered_by", [
    ("Which paper compresses the KV cache of speech recognition models?", "speech or audio", "PatchKV",
     "Which paper compresses the KV cache of large language models?"),
    ("Is there a benchmark for evaluating multimodal LLMs on chemistry olympiad problems?", "molecules or chemistry",
     "PhysElite", "Is there a benchmark for evaluating multimodal LLMs on physics olympiad problems?"),
    ("Is there a lightweight dehazing method for satellite images?", "satellite or aerial imagery", "PhysDNet",
     "Is there a lightweight dehazing method for camera images?"),
])
def test_a_paper_on_other_data_than_the_question_asks_of_does_not_answer_it(seed_chat, question, kind, closest,
                                                                          answered_by):
    """PatchKV compresses the KV cache of text LLMs and PhysElite is a physics benchmark: however close their
    wording, neither answers a question confined to speech or to chemistry; the refusal says what kind of data the
    nearest papers are not on and names them."""
    answer = seed_chat.ask(question)
    assert answer.refused and not answer.citations, answer.text
    assert f"not on {kind}" in answer.text and closest in answer.text.split("The closest papers are")[1], answer.text
    answer = seed_chat.ask(answered_by)
    assert not answer.refused and _cited(answer)[0] == closest, answer.text


def test_a_paper_naming_another_version_of_what_the_question_asks_of_does_not_answer_it(seed_chat):
    """The MOEA/D runtime paper names NSGA-II: it is no runtime analysis of NSGA-III, and the refusal says why."""
    answer = seed_chat.ask("Any runtime analysis of NSGA-III on many-objective benchmarks with more than three "
                           "objectives?")
    assert answer.refused and "write of NSGA-II, not NSGA-III" in answer.text, answer.text
    answer = seed_chat.ask("Any runtime analysis of MOEA/D on the OneMinMax benchmark?")
    assert _cited(answer) == ["How the mutation-based MOEA/D solves the classic OMM benchmark"], answer.text


def test_a_list_lists_only_papers_on_the_data_it_asks_for(seed_chat):
    listing = seed_chat.ask("Which papers compress the KV cache of speech recognition models?")
    assert listing.refused and "not on speech or audio" in listing.text, listing.text
    listing = seed_chat.ask("Which papers compress the KV cache of LLMs?")
    assert not listing.refused and _cited(listing) == ["PatchKV"], listing.text


@pytest.mark.parametrize("question, on_other_data, answered_by", [
    # "Qwen" names the papers using it; none of them is on speech
    ("Which papers run Qwen models on speech?", "Which papers run Qwen models?", "PipeFSDP"),
    # the SNN convergence paper is the only one using "spiking", and it is on no event-camera data
    ("Which papers deploy spiking neural networks on neuromorphic chips for event-camera object tracking?",
     "Which papers train spiking neural networks?", "Unified convergence analysis framework for SG and LocalZO direct "
                                                    "SNN training"),
])
def test_a_list_of_the_users_of_a_name_keeps_only_those_on_the_data_it_asks_for(seed_chat, question, on_other_data,
                                                                                answered_by):
    listing = seed_chat.ask(question)
    assert listing.refused and not listing.citations, listing.text
    listing = seed_chat.ask(on_other_data)
    assert not listing.refused and answered_by in _cited(listing), listing.text


def test_a_list_that_finds_nothing_names_the_papers_nearest_its_topic(seed_chat):
    near = seed_chat.ask("Which papers segment organs in CT scans?")
    assert near.refused and "The closest papers are: PathView-Bench" in near.text, near.text
    far = seed_chat.ask("Which papers estimate the calorie content of a meal from a photo?")
    assert far.refused and "closest" not in far.text, far.text


def test_a_refusal_names_only_papers_near_the_question(seed_chat):
    far = seed_chat.ask("Is there a paper on robot grasping with tactile sensors?")
    assert far.refused and "closest" not in far.text, far.text
    near = seed_chat.ask("Which benchmark tests whether VLMs can read the time on analog clocks?")
    assert near.refused and "The closest papers are" in near.text, near.text
    named = [p for p in seed_chat.catalog.papers.values() if p.name in near.text.split("The closest papers are")[1]]
    assert named and all(re.search(r"vision-language|VLM", p.text) for p in named), [p.name for p in named]


def test_question_paraphrasing_the_whole_abstract_is_answered(seed_chat):
    # No single sentence of VisualMem's abstract says this; the abstract as a whole does.
    answer = seed_chat.ask("Which paper gives a multimodal assistant a memory of the images a user has shared?")
    assert not answer.refused and _cited(answer)[0] == "VisualMem"


def test_long_two_part_question_about_a_described_paper_is_answered(seed_chat):
    """Its sentences match the question only loosely, but one paper stands clear of the rest: no refusal."""
    answer = seed_chat.ask("Why is predictive coding argued to learn more efficiently than backprop, "
                           "and in which kinds of networks is the gap largest?")
    assert not answer.refused
    assert answer.citations[0].paper.name == "Target alignment"
    assert "deep, narrow and pre-trained" in answer.text


# ---- names ----
@pytest.mark.parametrize("question, name", [
    ("pipe fsdp: how does it choose the FSDP and pipeline-parallel degrees for a given cluster?", PIPEFSDP),
    ("Physvista - what are the three stages of its loop?", PHYSVISTA),
    ("pick-moment deblurring: which datasets does it report results on?", PICKMOMENT),
    ("vidic 1k: across which dimensions are its checklist items organized?", "ViDiC-1K"),
    ("What is OR-GIGPO and what is it used to train?", "PERception-Interaction-reason Agent (PERIA)"),
])
def test_sloppily_named_paper_is_answered_first(seed_chat, question, name):
    answer = seed_chat.ask(question)
    assert _cited(answer)[0] == name
    assert answer.papers[0].name == name


def test_answer_quotes_the_sentence_that_answers_in_the_abstracts_own_terms(seed_chat):
    # The abstract says "PC" and "BP" after defining them; the question spells them out.
    answer = seed_chat.ask("Why is predictive coding argued to learn more efficiently than backprop, and in which "
                           "kinds of networks is the gap largest?")
    assert "especially pronounced in deep, narrow and pre-trained networks" in answer.text
    # A how-much question is answered by the sentence that gives the number.
    comparison = seed_chat.ask("Compare the memory savings of PatchKV and PipeFSDP")
    on_question = comparison.text.split("**On the question:**")[1]
    assert "1.87× in memory consumption" in on_question


def test_every_answer_kind_quotes_its_citations(seed_chat):
    for question in ("What is PatchKV?", "Compare the memory savings claimed by PipeFSDP and PatchKV.",
                     "Which papers are about memorization of training data?",
                     "What license will the PhysElite dataset be released under?"):
        _assert_quotes_verbatim(seed_chat.ask(question))


# ---- among distractors ----
# NeurIPS papers on nearly what two seed papers do (unrolled differentiation, runtime analysis of MOEA/D), added to
# the distractors: a description of a seed paper must still find it, not its twin.
NEAR_TWINS = ("One-step differentiation of iterative algorithms", "Rigorous Runtime Analysis of MOEA/D")
# And a paper one facet away from an off-topic question ("4-bit quantization ... of vision-language models").
NEAR_TOPICS = ("QuIP: 2-Bit Quantization of Large Language Models",)
ADDED = len(NEAR_TWINS) + len(NEAR_TOPICS)  # all from 2023


def _shared_records(limit: int) -> list[str]:
    with SHARED_CORPUS.open(encoding="utf-8") as f:
        lines = f.readlines()
    added = [line for line in lines[limit:] if json.loads(line).get("title", "").startswith(NEAR_TWINS + NEAR_TOPICS)]
    return lines[:limit] + added


@pytest.fixture(scope="module")
def crowded_store(seed_store_dir, tmp_path_factory) -> Path:
    """The seed store, the first DISTRACTORS records of the shared NeurIPS corpus, the NEAR_TWINS and NEAR_TOPICS."""
    if not SHARED_CORPUS.is_file():
        pytest.skip(f"shared corpus not found at {SHARED_CORPUS}")
    from rag import PaperChat

    root = tmp_path_factory.mktemp("crowded")
    shutil.copytree(seed_store_dir, root / "store")
    extra = root / "distractors.jsonl"
    extra.write_text("".join(_shared_records(DISTRACTORS)), encoding="utf-8")
    report = PaperChat(store_dir=root / "store").ingest([extra])
    assert report.added + report.unchanged == DISTRACTORS + ADDED
    return root / "store"


def test_a_follow_up_skips_the_names_an_earlier_answer_says_a_paper_works_with(crowded_store):
    """"adapted with LoRA": a distractor is a dataset named LoRA, but the answer describes the scene-graph paper, which
    uses the technique; "the scene-graph paper from before" is that paper."""
    from rag import PaperChat

    history = [("Anything on robot manipulation with vision-language models?",
                "PAF is a lightweight plug-in that stops VLA policies from relying too much on proprioceptive state. "
                "Another paper predicts physical-state scene graphs from an image and a goal, using a frozen CLIP ViT "
                "adapted with LoRA.")]
    answer = PaperChat(store_dir=crowded_store).ask("And the scene-graph paper from before, what μ-F1 did it get?",
                                                    history=history)
    assert _cited(answer)[0] == "Predicting physical-state scene graphs from a single image", answer.text


def test_described_sides_of_a_comparison_are_taken_from_one_batch(crowded_store):
    """A 2023 NeurIPS paper "Enhancing Motion Deblurring ..." scores a little above PickMoment for "the motion
    deblurring one"; compared with PhysDNet (2026), the 2026 deblurring paper is meant."""
    from rag import PaperChat

    answer = PaperChat(store_dir=crowded_store).ask(
        "Can you contrast the dehazing paper with the motion deblurring one - what inputs does each take?")
    assert answer.kind == "comparison"
    assert set(_cited(answer)) == {"PhysDNet", "PickMoment"}, answer.text


def test_papers_an_earlier_answer_describes_are_found_over_their_near_twins(crowded_store):
    """The history describes two seed papers without naming them; NeurIPS papers on nearly the same (one-step
    differentiation of iterative algorithms, a runtime analysis of MOEA/D) were taken for them."""
    from rag import PaperChat

    history = [("any theory papers about optimization algorithms?",
                "Two are relevant. One analyzes differentiating through iterative algorithms (unrolling), explains why "
                "the derivative iterates first move away from the true Jacobian, and shows that truncating the early "
                "iterations helps and also saves memory. The other is a runtime analysis of a decomposition-based "
                "multi-objective evolutionary algorithm, studying whether exchanging solutions between subproblems "
                "speeds it up.")]
    answer = PaperChat(store_dir=crowded_store).ask("how do they differ?", history=history)
    assert _cited(answer) == ["Curse of unrolling", "How the mutation-based MOEA/D solves the classic OMM benchmark"], (
        answer.text)


def test_a_question_in_everyday_words_is_answered_among_distractors(crowded_store):
    """"low-power chips" are the "NPUs" PhysDNet runs on: a paper saying the field's term says the asker's words, so
    the word "chips", which no nearby abstract uses, does not refuse it."""
    from rag import PaperChat

    answer = PaperChat(store_dir=crowded_store).ask(
        "fog removal with a near-infrared camera and lidar that runs on low-power chips?")
    assert not answer.refused and _cited(answer)[0] == "PhysDNet", answer.text


@pytest.mark.parametrize("question", [
    "How much faster is the new trick for recreating images from an already-trained model when you no longer have the "
    "original training pictures?",
    "Is there a paper on reconstructing training images from a pretrained vision transformer cheaply?",
    "Looking for a faster way to synthesize images from a pretrained vision transformer for data-free distillation, one "
    "that doesn't just throw away the patches that look unimportant.",
])
def test_images_recreated_from_a_trained_model_are_model_inversion(crowded_store, question):
    """Among 2,000 distractors these found no paper, or one on visual pretraining: what the asker describes is model
    inversion, PRI's term, which its abstract writes and theirs do not."""
    from rag import PaperChat

    answer = PaperChat(store_dir=crowded_store).ask(question)
    assert not answer.refused and _cited(answer) == ["Patch Rebirth Inversion (PRI)"], answer.text


def test_a_term_two_papers_use_answers_with_the_one_the_rest_of_the_question_fits(crowded_store):
    """"MOEA/D" is in the seed paper's name and in a NeurIPS runtime analysis of it; only the seed paper studies
    exchanging solutions between subproblems, so only it is cited."""
    from rag import PaperChat

    answer = PaperChat(store_dir=crowded_store).ask(
        "What runtime bound do the MOEA/D authors prove when subproblems exchange solutions with a radius of at least "
        "one, and how does it compare to no exchange?")
    assert _cited(answer) == ["How the mutation-based MOEA/D solves the classic OMM benchmark"], answer.text


def test_years_in_the_question_filter_the_papers(crowded_store):
    """The crowded store holds the 2026 seeds and 2,000 NeurIPS 2023 papers, several on KV-cache compression."""
    from rag import PaperChat

    chat = PaperChat(store_dir=crowded_store)
    of_2023 = chat.ask("Which 2023 papers study KV cache compression?")
    assert of_2023.kind == "which" and of_2023.citations, of_2023.text
    assert {c.paper.year for c in of_2023.citations} == {2023}
    of_2026 = chat.ask("Which papers since 2024 study KV cache compression?")
    assert _cited(of_2026) == ["PatchKV"], of_2026.text
    none = chat.ask("Which papers before 2010 study KV cache compression?")
    assert none.refused and "No loaded paper is from before 2010." in none.text
    count = chat.ask("How many papers from 2023 are there?")
    assert count.text.startswith(f"{DISTRACTORS + ADDED:,} of the loaded papers are from 2023"), count.text


def test_a_list_counts_the_papers_a_scan_of_every_paper_finds(crowded_store, monkeypatch):
    """"Found N papers" over a crowded store: N is what scoring every stored sentence finds, not only those of the
    papers nearest the question (300 nearest sentences counted 87 of 163 papers on graph neural networks)."""
    import rag.listing
    from rag import PaperChat

    chat = PaperChat(store_dir=crowded_store)
    question = "Which papers are about graph neural networks?"

    def found() -> int:
        answer = chat.ask(question)
        match = re.match(r"Found (\d+) papers above the relevance cut-off", answer.text)
        assert match, answer.text
        return int(match.group(1))

    counted = found()
    monkeypatch.setattr(rag.listing, "LISTING_SENTENCES", chat.store.chunk_count())
    assert counted >= 0.95 * found()


def test_the_years_asked_for_are_searched_not_only_filtered_after(crowded_store):
    """The nearest sentences of the years a question asks for, however many papers of other years are nearer."""
    from rag import PaperChat, PaperFilters

    chat = PaperChat(store_dir=crowded_store)
    vector = chat.question_vec("graph neural networks")
    nearest = chat.retriever.nearest_papers(vector, 100, PaperFilters(year_min=2024))
    assert nearest and {chat.catalog.papers[pid].year for pid in nearest} == {2026}
    assert 2023 in {chat.catalog.papers[pid].year for pid in chat.retriever.nearest_papers(vector, 100)}


def test_how_many_papers_are_loaded(seed_chat):
    answer = seed_chat.ask("How many papers are loaded?")
    assert answer.text == "38 papers are loaded: NeurIPS 2026 (38)." and not answer.refused


def test_authors_and_venue_come_from_the_record(crowded_store):
    """The shared corpus lists authors, venue and year; asked for, they are given from the record, cited."""
    from rag import PaperChat

    chat = PaperChat(store_dir=crowded_store)
    paper = next(p for p in chat.papers() if p.authors and p.year and re.fullmatch(r"[A-Z][a-z]+[A-Z]\w+", p.name))
    authors = chat.ask(f"Who are the authors of {paper.name}?")
    assert authors.kind == "lookup" and authors.citations[0].paper.paper_id == paper.paper_id
    assert all(name in authors.text for name in paper.authors), authors.text
    published = chat.ask(f"When was {paper.name} published?")
    assert str(paper.year) in published.text and published.citations[0].paper.paper_id == paper.paper_id


@pytest.mark.parametrize("question, name", [
    ("what does pipe-fsdp improve over torchtitan?", PIPEFSDP),
    ("How is Phyprobe trained to output a violation score?", PHYPROBE),
    ("PATCHKV - how is the context-specific weight patch computed?", "PatchKV"),
    ("Sync R1: what is Dynamic Group Scaling for?", "Sync-R1"),
    # one letter wrong in a long name
    ("How much faster is Patch Rebith Inversion than dense model inversion?", "Patch Rebirth Inversion (PRI)"),
])
def test_named_paper_routes_first_among_distractors(crowded_store, question, name):
    from rag import PaperChat

    chat = PaperChat(store_dir=crowded_store)
    assert len(chat.papers()) == 38 + DISTRACTORS + ADDED
    answer = chat.ask(question)
    assert answer.papers[0].name == name and _cited(answer)[0] == name


def test_topic_absent_from_a_large_corpus_is_refused_naming_the_missing_word(crowded_store):
    """The near-topic questions a 38-paper corpus never faces: the method is everywhere, the topic nowhere."""
    from rag import PaperChat

    chat = PaperChat(store_dir=crowded_store)
    for question, word in (("Is there work on retrosynthesis planning with large language models?", "retrosynthesis"),
                           ("Which papers do lip reading from video?", "lip")):
        answer = chat.ask(question)
        assert answer.refused and not answer.citations, answer.text
        assert f"“{word}”" in answer.text and "The closest papers are" in answer.text


def test_a_paper_lacking_a_facet_of_the_question_does_not_answer_it_among_distractors(crowded_store):
    """QuIP quantizes LLMs after training, to 2 bits: near "4-bit post-training quantization for vision-language
    models", but not about them."""
    from rag import PaperChat

    chat = PaperChat(store_dir=crowded_store)
    _assert_facet_unmet(chat, "Which paper proposes 4-bit post-training quantization for vision-language models?",
                        "vision", "QuIP", "Which paper proposes 2-bit post-training quantization for large language models?")


def test_rare_word_the_answering_paper_uses_does_not_block_the_answer(crowded_store):
    from rag import PaperChat

    chat = PaperChat(store_dir=crowded_store)
    answer = chat.ask("Is there a paper on combining sharded data parallelism with pipelining for LLM pretraining?")
    assert not answer.refused and _cited(answer)[0] == PIPEFSDP
    listing = chat.ask("Which papers reduce hallucinations or jailbreaks in vision-language models?")
    # PURGE never says "jailbreak", a word only JRS-Rem and a few distractors use: either alternative will do.
    assert not listing.refused and "PURGE" in _cited(listing)


def test_rare_word_the_answering_paper_says_differently_does_not_block_the_answer(crowded_store):
    """'fragile' is rare among the distractors and absent from the paper, which says 'brittle'."""
    from rag import PaperChat

    chat = PaperChat(store_dir=crowded_store)
    answer = chat.ask("Which paper studies why optimizing code and prompts with LLM feedback is fragile?")
    assert not answer.refused and _cited(answer)[0] == "Generative optimization"


def test_word_by_word_match_connects_a_paraphrase(seed_chat):
    """Each content word of the question matched to its closest token of an abstract, both read in context: "hard
    physics competition problems with figures" is closest to PhysElite's "Olympiad-level physics" and diagrams; a
    question of function words alone matches nothing."""
    papers = {p.paper_id: p for p in seed_chat.papers()}
    sentences = {pid: [text for text, _ in rows] for pid, rows in seed_chat.store.sentences(list(papers)).items()}
    recall = seed_chat.token_matcher.recall("a dataset of hard physics competition problems with figures", sentences)
    assert papers[max(recall, key=recall.get)].name == "PhysElite"
    assert all(0 < r <= 1 for r in recall.values())
    assert set(seed_chat.token_matcher.recall("Which of these is it?", sentences).values()) == {0.0}
    # The asker's own words ("you", "lets", "know") are matched to nothing: they would only level the scores.
    assert set(seed_chat.token_matcher.recall("Do you know one that lets us do it?", sentences).values()) == {0.0}


def test_a_word_the_question_hardly_rests_on_is_phrasing(seed_chat):
    """Removing "instant" or "unsure" barely moves the question's vector: the asker's phrasing, which the paper need
    not use. Removing "elevator" or "smart" (contracts) moves it: the topic, which the paper must have."""
    from rag.relevance import essential_words

    embed = seed_chat.embed_texts
    for question, word, essential in (
        ("Which paper turns a motion-blurred image into a sharp frame from any instant of the exposure?", "instant",
         False),
        ("Which paper fixes GNNs being too unsure of their predictions by changing the weight decay?", "unsure", False),
        ("Is there a paper on reinforcement learning for elevator scheduling?", "elevator", True),
        ("Is there work on finding vulnerabilities in smart contracts with graph neural networks?", "smart", True),
    ):
        assert essential_words(question, [word], embed) == ([word] if essential else []), word


@pytest.mark.parametrize("question, name", [
    ("Which paper turns a motion-blurred image into a sharp frame from any instant of the exposure?", "PickMoment"),
    ("Which paper fixes GNNs being too unsure of their predictions by changing the weight decay?",
     "Graph calibration method"),
])
def test_a_rare_word_of_phrasing_does_not_block_the_answer(crowded_store, question, name):
    """"instant" and "unsure" are rare among the distractors and absent from the paper: phrasing, not a topic the
    paper lacks; a topic word the corpus lacks still refuses ("elevator")."""
    from rag import PaperChat

    chat = PaperChat(store_dir=crowded_store)
    answer = chat.ask(question)
    assert not answer.refused and _cited(answer)[0] == name, answer.text
    assert chat.ask("Is there a paper on reinforcement learning for elevator scheduling?").refused


@pytest.mark.parametrize("question, name", [
    ("Is there a way to get a sharp frame for any moment while the shutter was open from one blurred photo?",
     "PickMoment"),
    ("Any benchmark for spotting the subtle differences between two similar videos?", "ViDiC-1K"),
    ("Which GNN calibration method does not bolt on an extra calibration module?", "Graph calibration method"),
    ("infrared + lidar fog removal for cheap edge chips", "PhysDNet"),
    ("Which paper keeps reconstructed people from floating above the floor?", "UniCon3R"),
])
def test_everyday_wording_of_a_topic_the_paper_has_is_no_gap(crowded_store, question, name):
    """"the shutter was open" is the exposure, "bolt on" adds, "edge chips" are edge devices, "above the floor" is
    above the ground: words no abstract, or not the paper's, uses for what the paper does say (all five refused)."""
    from rag import PaperChat

    answer = PaperChat(store_dir=crowded_store).ask(question)
    assert not answer.refused and _cited(answer)[0] == name, answer.text


@pytest.mark.parametrize("question, name", [
    ("Which paper stops robot policies from ignoring the camera because the joint states are an easier shortcut?",
     "Phase-Adaptive Fusion (PAF)"),
    ("Is there a paper about a learned probe that scores whether a generated video breaks physics?", PHYPROBE),
    ("Which paper reconstructs people and the scene together using the contact between them?", "UniCon3R"),
    # PhysDNet writes only "NIR" and "LiDAR": it is matched in its own words, and "scanner", which no abstract
    # uses, is what "LiDAR" stands for, not an absent topic.
    ("Is there a model that removes haze by fusing near-infrared images with laser-scanner depth on edge hardware?",
     "PhysDNet"),
    # "vision-language-action policies" fills the retrieved ten with others; "proprioception", a word almost no
    # abstract uses, points to it
    ("Is there a method that keeps vision-language-action policies from relying too much on proprioception?",
     "Phase-Adaptive Fusion (PAF)"),
])
def test_a_paraphrase_finds_its_paper_among_distractors(crowded_store, question, name):
    """Questions in the asker's own words, close to no one sentence of the abstract: matched word by word in context,
    the paper stands out from 2,000 distractors (whole-sentence similarity alone refused the first three; the
    acronyms' long forms were needed for the fourth)."""
    from rag import PaperChat

    answer = PaperChat(store_dir=crowded_store).ask(question)
    assert not answer.refused and _cited(answer)[0] == name, answer.text


@pytest.mark.parametrize("question, name", [
    ("Is there a paper that proves convergence for directly training spiking neural networks, given that spikes stay "
     "all-or-nothing when the network runs but the gradient is computed through a smoothed or randomly perturbed "
     "approximation?", "Unified convergence analysis framework for SG and LocalZO direct SNN training"),
    ("I half-remember a paper on distilling a vision transformer without its original training data by reconstructing "
     "inputs from the model, which argued that throwing away patches early in the process is a mistake. Which was it?",
     "Patch Rebirth Inversion (PRI)"),
])
def test_a_long_question_is_not_refused_for_one_word_of_its_wording(crowded_store, question, name):
    """"all-or-nothing", "throwing away": a rare word the paper does not use, in a question that describes the paper
    at length, is the asker's wording, not a topic missing from the corpus."""
    from rag import PaperChat

    answer = PaperChat(store_dir=crowded_store).ask(question)
    assert not answer.refused and _cited(answer)[0] == name, answer.text


@pytest.mark.parametrize("question, name", [
    ("I need something for cleaning up foggy camera images on a low-power embedded board, ideally fusing a "
     "near-infrared camera with a lidar. Anything like that?", "PhysDNet"),
    ("We fine-tune a big pretrained robot policy and it basically ignores the camera and leans on joint readings, so "
     "it misses fine alignment right when it's about to grasp. Is there some plug-in fix for that?",
     "Phase-Adaptive Fusion (PAF)"),
])
def test_a_paraphrase_standing_clear_of_thousands_of_papers_is_answered(crowded_store, question, name):
    """In everyday words the question matches its paper only loosely, but no other of the 2,000 comes close."""
    from rag import PaperChat

    answer = PaperChat(store_dir=crowded_store).ask(question)
    assert not answer.refused and _cited(answer)[0] == name, answer.text


def test_a_lookup_saying_different_is_no_group_comparison(crowded_store):
    """"across different image tiles" describes the paper sought; it does not ask to compare "the paper about
    multimodal models" as a group."""
    from rag import PaperChat

    answer = PaperChat(store_dir=crowded_store).ask(
        "I'm trying to find the paper about multimodal models losing the thread when a table row or chart axis gets "
        "chopped across different image tiles. They propose a small plug-in for the vision encoder.")
    assert "| Paper |" not in answer.text and _cited(answer)[0] == "Patch-for-Patch (P4P)", answer.text


def test_paper_far_ahead_of_all_others_answers_despite_a_rare_word_it_says_differently(crowded_store):
    """PhysDNet says "NIR", never "infrared": one rare word does not veto a paper this far ahead of every other."""
    from rag import PaperChat

    chat = PaperChat(store_dir=crowded_store)
    answer = chat.ask("Is there a lightweight dehazing network that uses near-infrared images and lidar depth?")
    assert not answer.refused and _cited(answer)[0] == "PhysDNet", answer.text


def test_paper_well_ahead_answers_with_half_of_the_rare_words(crowded_store):
    """PathView-Bench says "organs" for "tissue" and "fields of view" for "zoom levels": half the rare words is enough
    for a paper that leads the others clearly; "sheet music", whose only rare word no near paper uses, is refused."""
    from rag import PaperChat

    chat = PaperChat(store_dir=crowded_store)
    answer = chat.ask("Is there a pathology benchmark that checks if multimodal LLMs understand tissue images at "
                      "different zoom levels?")
    assert not answer.refused and _cited(answer)[0] == "PathView-Bench", answer.text
    assert chat.ask("Which paper benchmarks vision-language models on reading sheet music?").refused


def test_question_acronym_matches_an_abstract_that_spells_it_out(crowded_store):
    from rag import PaperChat

    chat = PaperChat(store_dir=crowded_store)
    answer = chat.ask("Which paper helps multimodal LLMs read tables and charts that are split across several image patches?")
    assert not answer.refused and _cited(answer)[0] == "Patch-for-Patch (P4P)", answer.text


def test_everyday_phrases_are_searched_in_the_fields_terms(seed_chat):
    glossary = seed_chat.glossary
    assert glossary.in_field_terms("trained on many graphics chips") == "trained on many GPUs"
    assert glossary.in_field_terms("from one photo") == "from one image"  # singular stays singular
    assert glossary.in_field_terms("mist-obscured scenes and laser range scans") == "haze scenes and LiDAR"
    assert glossary.in_field_terms("a tissue-slide microscopy suite") == "a pathology image pathology suite"
    # the longer phrase first: "the brain's" alone would read as "biologically inspired"
    assert (glossary.in_field_terms("a video system modeled on the brain's first visual processing area")
            == "a video system modeled on primary visual cortex")
    # a phrase some abstract uses is the corpus's own word: left alone
    from rag.glossary import AcronymGlossary

    own_words = AcronymGlossary(["We train a brain-inspired network on 64 graphics cards."])
    question = "a brain-inspired model on graphics cards"
    assert own_words.in_field_terms(question) == question
    assert glossary.in_field_terms("a brain-inspired model") == "a biologically inspired model"


@pytest.mark.parametrize("question, name", [
    ("Which paper makes training giant chatbot models on lots of graphics chips faster, and by how much?", PIPEFSDP),
    ("Is there a collection of physics competition problems with diagrams for grading AI? How big is it?",
     "PhysElite"),
    ("I want something that clears up foggy pictures on cheap low-power gadgets. How fast does it run?", "PhysDNet"),
    ("Which paper checks whether picture-reading AI can be talked into harmful answers once a photo is added?",
     "JRS-Rem"),
    ("Is there a test for AI where it has to spot the differences between two videos?", "ViDiC-1K"),
    ("Once I prune the attention cache hard on long docs, answers fall apart. Who folds the document into a small "
     "weight update to make up for it?", "PatchKV"),
    ("Any paper that rebuilds people and their surroundings from one video, using body contact so nobody floats "
     "above the floor?", "UniCon3R"),
])
def test_a_question_in_everyday_words_finds_its_paper(seed_chat, question, name):
    """Asked as someone outside the field would ask (all five were refused): "chatbot models" are large language
    models, "graphics chips" GPUs, "a test for AI" a benchmark."""
    answer = seed_chat.ask(question)
    assert not answer.refused and _cited(answer) == [name], answer.text


def test_catalog_names_no_distractor_for_ordinary_words():
    """Over the whole shared corpus: a question's everyday words ("and", "find", "largest", "URL", "LLM-driven")
    never count as naming a distractor whose name is spelled like them."""
    if not SHARED_CORPUS.is_file():
        pytest.skip(f"shared corpus not found at {SHARED_CORPUS}")
    from rag.catalog import PaperCatalog
    from store.parse import parse_jsonl

    records = parse_jsonl(SHARED_CORPUS.read_text(encoding="utf-8"), SHARED_CORPUS).papers
    catalog = PaperCatalog(records)
    for question in ("What does PipeFSDP improve, and how fast does it run?",
                     "Which GPU model and what GitHub URL does it use?",
                     "According to the study on why LLM-driven optimization is brittle, what did they find?",
                     "In which kinds of networks is the gap largest, and do they differ?",
                     "What actions can the planner take to refine a 3D layout?",
                     # a distractor is named "Graph Neural Networks": a topic, used by a hundred abstracts
                     "Is there work on finding vulnerabilities in smart contracts with graph neural networks?",
                     # one is named "LoRA": hyphened to "adapted" it is the technique
                     "In the scene-graph paper, what learning rate do they use for the LoRA-adapted CLIP?",
                     # "Multi-A(rmed)/B(andit) Testing": lower-case brackets hold no acronym ("andit" ~ "and it")
                     "It pairs FSDP with pipeline parallelism, and it beats TorchTitan.",
                     # "... Guarantees for (Regularized) Wasserstein ...": a bracketed word is no acronym
                     "Is there a simple fix that just changes how the last layer is regularized?"):
        assert catalog.named_in(question) == [], [catalog.papers[p].name for p in catalog.named_in(question)]


def test_question_file_gold_keys_exist(seed_chat):
    """bench/questions.jsonl names its gold papers by keys the seed store has."""
    keys = {p.key for p in seed_chat.papers()}
    path = Path(__file__).resolve().parent.parent / "bench" / "questions.jsonl"
    for line in path.read_text(encoding="utf-8").splitlines():
        assert set(json.loads(line)["gold"]) <= keys


# ---- with an LLM (a real OpenAI-compatible server on loopback) ----
@pytest.fixture
def llm_chat(seed_store_dir, tmp_path):
    from rag import PaperChat
    from tests.openai_server import FakeOpenAI

    shutil.copytree(seed_store_dir, tmp_path / "store")
    with FakeOpenAI() as server:
        chat = PaperChat(store_dir=tmp_path / "store", llm_backend="openai-compatible",
                         llm_base_url=server.base_url, llm_max_retries=0)
        yield chat, server


def test_llm_comparison_uses_the_comparison_prompt_and_keeps_the_offline_table(llm_chat):
    from tests.openai_server import Reply

    chat, server = llm_chat
    server.script([Reply(text="PhysVista is a benchmark that evaluates physical intelligence in VLMs [1]. "
                              "PhyProbe is an evaluator that scores the physical consistency of generated videos [2].")])
    answer = chat.ask("How do PhysVista and PhyProbe differ in what they evaluate?")
    prompt = server.requests[-1]["messages"][-1]["content"]
    assert prompt.startswith("You compare scientific papers")
    assert answer.kind == "comparison" and answer.backend == "openai-compatible"
    assert len(_table_rows(answer.text)) == 2
    assert "PhyProbe is an evaluator" in answer.text and "**In common:**" not in answer.text
    _assert_quotes_verbatim(answer)


def test_llm_condenses_a_follow_up_before_answering(llm_chat):
    from tests.openai_server import Reply

    chat, server = llm_chat
    server.script([Reply(text="Which models and cluster sizes was PipeFSDP evaluated on?"),
                   Reply(text="PipeFSDP was evaluated on Llama3, Qwen3 and Qwen3-MoE across 32-GPU and 64-GPU "
                              "clusters [1].")])
    answer = chat.ask("Which models and cluster sizes did they evaluate it on?",
                      history=[("What does PipeFSDP do?", "**PipeFSDP**: a training framework for FSDP with PP [1]")])
    assert server.requests[0]["messages"][-1]["content"].startswith("Rewrite the follow-up question")
    assert answer.rewritten == "Which models and cluster sizes was PipeFSDP evaluated on?"
    assert _cited(answer) == [PIPEFSDP]
    _assert_quotes_verbatim(answer)


@pytest.mark.parametrize("question, stated", [
    ("Which mixing-length parameter did the stellar models use?", "We adopt a mixing length parameter of 1.8."),
    ("What thick-disc scale height do they fit?", "The thick disc scale height is h_z = 0.64 kpc."),
])
def test_a_hyphenated_detail_is_found_spelled_with_a_space(question, stated):
    """An abstract may spell the asker's "mixing-length" as "mixing length": the detail is stated either way (in a
    corpus outside machine learning, whose tables do not apply)."""
    from rag.acronyms import tables_apply
    from rag.detail_answer import detail_support
    from rag.details import asked_details
    from store.paper import Paper

    sentences = [("We compute gravity-darkening exponents for stellar models.", None), (stated, None)]
    paper = Paper("p", "Exponents", "Exponents", "", " ".join(t for t, _ in sentences), "f.txt", 0)
    with tables_apply(False):
        details = asked_details(question)
    assert details and all(detail_support(d, paper, sentences) == stated for d in details)
