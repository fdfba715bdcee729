"""Gaps in a question's topic, judged on the real shared NeurIPS corpus (parsed, not embedded): a word no abstract
uses means the topic is absent; a rare word must be in the answering paper; small corpora and alternatives are
left alone; a paper named with ordinary words is a topic once many abstracts use the phrase."""

from __future__ import annotations

import pytest

from rag.catalog import PaperCatalog
from rag.glossary import AcronymGlossary
from rag.relevance import GAP_MIN_PAPERS, absent_terms, rare_terms
from rag.terms import TermStats, mentions_term, question_terms, stems
from store.parse import parse_file, parse_jsonl
from tests.conftest import SEED_FILES, SHARED_CORPUS


@pytest.fixture(scope="module")
def corpus():
    if not SHARED_CORPUS.is_file():
        pytest.skip(f"shared corpus not found at {SHARED_CORPUS}")
    papers = parse_jsonl(SHARED_CORPUS.read_text(encoding="utf-8"), SHARED_CORPUS).papers
    seeds = [p for path in SEED_FILES for p in parse_file(path).papers]
    return papers + seeds, seeds


@pytest.fixture(scope="module")
def stats(corpus):
    return TermStats(p.text for p in corpus[0])


def test_a_word_no_abstract_uses_is_an_absent_topic(stats):
    assert stats.n > GAP_MIN_PAPERS
    assert absent_terms("Is there work on retrosynthesis planning with large language models?", stats) == [
        "retrosynthesis"]
    assert absent_terms("Which papers generate poetry with language models?", stats) == ["poetry"]
    # British and American spellings are one word; a word every corpus has is never absent.
    assert absent_terms("Which papers use quantisation to shrink the KV cache?", stats) == []
    assert absent_terms("Which papers optimise memory usage when training large language models?", stats) == []


def test_a_rare_word_must_be_in_the_answering_paper(stats):
    assert rare_terms("Which papers do lip reading from video?", stats) == ["lip"]
    assert rare_terms("Which papers predict crop yield from satellite imagery?", stats) == ["crop"]
    assert rare_terms("Which papers reduce GPU memory when training large language models?", stats) == []
    video_only = stems("We distill egocentric video features from head motion and IMU readings.")
    assert not mentions_term("lip", video_only)
    assert mentions_term("blurry", stems("Motion blur arises from integration over the exposure."))
    assert mentions_term("cheaply", stems("Inverting a model cheaply is hard."))
    # An adjective doubling the noun's last consonant is the noun: "foggy" is in "Seeing Through Fog"; not so "carry".
    assert mentions_term("foggy", stems("On the Seeing Through Fog benchmark, it wins."))
    assert absent_terms("cleaning up foggy camera images on an embedded board", stats) == []
    assert not mentions_term("carry", stems("A car drives by."))
    # A clipped word is the long one ("backprop"); a short word is not the start of a longer one ("spot").
    assert mentions_term("backprop", stems("We compare Predictive Coding to Backpropagation (BP)."))
    assert not mentions_term("spot", stems("A spotlight on attention maps."))


def test_contractions_and_hedges_are_not_topic_words(stats):
    # "don't" once left "don", and "really" counted as a rare topic word: each vetoed the paper that answers.
    question = "Is there a position paper on why diffusion models don't just copy, and really generalize?"
    assert rare_terms(question, stats) == [] and absent_terms(question, stats) == []
    assert set(question_terms("The network's outputs aren't calibrated")) == {"network", "outputs", "calibrated"}
    # Who is asked about is no topic: "anyone" is rare in abstracts, and was a word the answering paper lacked.
    assert "anyone" not in question_terms("Has anyone turned motion blur into video?")
    # Nor what the asker will do with the papers: "cite" was the word a video-benchmark list lacked.
    assert set(question_terms("Which papers should I cite for new video benchmarks?")) == {"video", "benchmarks"}


def test_an_acronym_matches_its_plural(stats):
    from rag.relevance import topic_coverage

    cot = "Chain-of-Thought (CoT) reasoning substantially improves Large Language Models (LLMs)."
    assert topic_coverage(question_terms("List papers about LLM reasoning"), cot, stats) == 1.0
    assert topic_coverage(["llms"], "An LLM-as-a-judge protocol.", stats) == 1.0
    assert topic_coverage(["codes"], "A code generation model.", stats) == 0.0  # a word with vowels keeps its "s"


def test_alternatives_joined_by_or_are_not_each_required(stats):
    question = "Which papers reduce hallucinations or safety jailbreaks in large vision-language models?"
    assert rare_terms(question, stats) == [] and absent_terms(question, stats) == []


def test_no_gaps_in_a_small_corpus(corpus):
    seeds = TermStats(p.text for p in corpus[1])
    assert seeds.n < GAP_MIN_PAPERS
    # "photos" is in no seed abstract, yet PickMoment answers this: 38 papers say too little to rule anything out.
    assert absent_terms("Is there work on removing motion blur from photos?", seeds) == []
    assert rare_terms("Is there work on removing motion blur from photos?", seeds) == []


def test_a_name_of_ordinary_words_names_its_paper_only_while_rare(corpus):
    catalog = PaperCatalog(corpus[0])
    generic = [catalog.papers[p].name for p in catalog.named_in("Which papers train graph neural networks on molecules?")]
    assert generic == []  # a distractor is named "Graph Neural Networks"
    named = [catalog.papers[p].name for p in catalog.named_in("What shortcut does Phase-Adaptive Fusion break?")]
    assert named == ["Phase-Adaptive Fusion (PAF)"]


def test_a_one_word_name_many_abstracts_write_is_a_word_not_a_paper(corpus):
    """Distractors are named PRUNE (a network embedding) and LoRA (a logical-reasoning dataset): the verb "prune" and
    the fine-tuning technique LoRA, which many abstracts write, name neither; "PRUNE" in capitals, which no other
    abstract writes, still names its paper."""
    catalog = PaperCatalog(corpus[0])
    for question in ("Looking for a robot policy that learns to prune grapevines in a vineyard from a few demonstrations.",
                     "Has anyone fine-tuned an LLM with LoRA to pull fields out of shipping paperwork?"):
        assert catalog.named_in(question) == [], [catalog.papers[p].name for p in catalog.named_in(question)]
    assert [catalog.papers[p].name for p in catalog.named_in("What is PRUNE?")] == ["PRUNE"]


def test_a_kind_of_data_the_question_confines_it_to_must_be_in_the_paper():
    from rag.relevance import unmet_modalities

    text_llm = "We compress the KV cache of large language models and recover accuracy on long-context tasks."
    assert unmet_modalities("Which paper compresses the KV cache of speech recognition models?", text_llm) == [
        "speech or audio"]
    assert unmet_modalities("Which paper compresses the KV cache of LLMs?", text_llm) == []
    assert unmet_modalities("Any KV-cache compression for speech/audio models?", text_llm) == ["speech or audio"]
    assert unmet_modalities("Any KV-cache compression for speech recognition or language models?", text_llm) == []
    assert unmet_modalities("KV-cache compression for spoken dialogue?", text_llm + " We test on speech.") == []
    layout = "We estimate 3D scene layouts from a single image."
    assert unmet_modalities("Which papers recover 3D scene structure from a single image or monocular video?",
                            layout) == []
    assert unmet_modalities("Which papers recover 3D scene structure from monocular video?", layout) == ["video"]


def test_or_joins_alternatives_a_paper_needs_only_one_of(stats):
    from rag.relevance import alternative_groups, topic_coverage
    from rag.terms import question_terms

    question = "Which papers build benchmarks in biology or medicine?"
    assert alternative_groups(question) == [[["biology"], ["medicine"]]]
    pathology = "We build a benchmark of medical pathology images for multimodal models."
    terms = question_terms(question)
    either = topic_coverage(terms, pathology, stats, alternative_groups(question))
    both = topic_coverage(terms, pathology, stats)
    assert either == 1.0 and both < 0.75  # "medicine" (medical) alone answers "biology or medicine"
    assert alternative_groups("Which papers estimate 3D scene layout from images or video?") == [[["images"], ["video"]]]
    # An alternative of several words is covered only as a whole, and needs nothing of the other one.
    question = "Which papers are about spiking neural networks or the visual cortex?"
    assert alternative_groups(question) == [[["spiking", "neural", "networks"], ["visual", "cortex"]]]
    terms, groups = question_terms(question), alternative_groups(question)
    v1 = "We revisit the video front end from the principles of the primary visual cortex (area V1)."
    gnn = "Graph neural networks are often miscalibrated."
    assert topic_coverage(terms, v1, stats, groups) == 1.0
    assert topic_coverage(terms, gnn, stats, groups) < 0.5


def test_examples_listed_are_alternatives_too():
    from rag.relevance import alternative_groups

    assert alternative_groups("list all the biomedical ones (pathology, cells, genes etc)") == [
        [["pathology"], ["cells"], ["genes"]]]
    assert alternative_groups("vision tasks such as detection, segmentation and tracking") == [
        [["detection"], ["segmentation"], ["tracking"]]]
    assert alternative_groups("papers on images, video or audio") == [[["images"], ["video"], ["audio"]]]
    assert alternative_groups("brain inspired / biologically plausible learning") == [
        [["brain", "inspired"], ["biologically", "plausible", "learning"]]]
    assert alternative_groups("papers w/ llms on scene reconstruction") == []  # "w/" is "with"
    assert alternative_groups("Compare PURGE, PROVE and VISD") == []


def test_a_paper_writing_an_example_of_the_topic_is_a_member():
    from rag.list_members import example_members

    texts = ["Predictive Coding (PC) is an account of cortical learning.", "Spiking neural networks are efficient.",
             "We train with GRPO.", "Cells in an LSTM.", "We study coding theory."]
    topic = "learning paradigms other than backprop, e.g. spiking networks or predictive coding"
    assert example_members(topic, texts, str) == texts[:2]  # every word of one example, in any order
    assert example_members("models trained with RL (e.g. GRPO, PPO)", texts, str) == [texts[2]]
    # an everyday word alone ("cells", "hallucinations") says too little; no examples, no members
    assert example_members("biomedical data, like cells", texts, str) == []
    assert example_members("fixes for VLM failures like hallucinations", ["We prevent model hallucination."], str) == []
    assert example_members("brain-like learning rules", texts, str) == []


def test_a_paper_bringing_a_resource_of_the_kind_asked_for_is_a_member():
    from rag.list_members import resource_members

    texts = ["We introduce a benchmark of 1,000 video pairs.", "We evaluate on video benchmarks.",
             "We present a benchmark of physics problems.", "We introduce a new video generator."]
    brings = lambda text: "benchmark" in text and text.startswith(("We introduce", "We present"))  # noqa: E731
    for topic in ["new video benchmarks for VLMs", "a benchmark for video understanding",
                  "benchmarks built around videos", "benchmarks that test models on video inputs"]:
        assert resource_members(topic, texts, str, brings) == texts[:1], topic
    # the verbs and words of the ask name no kind: no members
    assert resource_members("papers introducing new benchmarks", texts, str, brings) == []


def test_a_typo_is_not_an_absent_topic(stats):
    assert absent_terms("Which papers reduce hallucinaton in vision-language models?", stats) == []
    assert absent_terms("Which papers study retrosynthesis?", stats) == ["retrosynthesis"]
    # One letter from "refactor", which a few abstracts use, but a common word of its own: the topic is absent.
    assert absent_terms("Which paper uses reinforcement learning to tune a chemical reactor?", stats) == ["reactor"]


def test_acronyms_are_spelled_out_as_the_corpus_defines_them(corpus):
    glossary = AcronymGlossary(p.text for p in corpus[0])
    assert glossary.spell_out("Which paper helps multimodal LLMs read charts?").lower() == (
        "which paper helps multimodal llms (large language models) read charts?")
    assert "reinforcement learning" in glossary.spell_out("Is RL used to train VLMs?").lower()
    # Abstracts disagree on "PC" (predictive coding, principal components, ...): left as asked.
    assert glossary.spell_out("Does PC learn faster?") == "Does PC learn faster?"
    # Already spelled out, or never defined: unchanged.
    assert glossary.spell_out("Do large language models (LLMs) plan?") == "Do large language models (LLMs) plan?"
    assert glossary.spell_out("What is XQZW?") == "What is XQZW?"
    # Typed in lower case ("underconfident gnn", "which vlms use rl"): read as the acronym, unless an English word.
    assert "gnn (graph neural network" in glossary.spell_out("does weight decay fix an underconfident gnn?").lower()
    assert "reinforcement learning" in glossary.spell_out("which vlms use rl?").lower()
    assert glossary.spell_out("a map of the art") == "a map of the art"


def test_the_field_acronyms_fill_in_what_the_corpus_leaves_undefined(corpus):
    seeds = AcronymGlossary(p.text for p in corpus[1])
    physdnet = next(p.text for p in corpus[1] if "PhysDNet" in p.text)
    # PhysDNet writes only "NIR" and "LiDAR": a question saying "near-infrared" reaches it in its own words.
    assert "near-infrared" in seeds.with_long_forms(physdnet) and "near-infrared" not in physdnet
    assert seeds.in_own_words("Which model fuses a near-infrared camera with a laser scanner?", physdnet) == (
        "Which model fuses a NIR camera with a LiDAR?")
    # A paper spelling the term out, or not using the acronym, hears the question as asked.
    other = next(p.text for p in corpus[1] if "NIR" not in p.text)
    assert seeds.in_own_words("Which model fuses a near-infrared camera?", other) == "Which model fuses a near-infrared camera?"
    # Where the corpus's own abstracts mostly mean something else by an acronym, theirs wins ("BP": belief propagation).
    large = AcronymGlossary(p.text for p in corpus[0])
    assert large.long_forms("BP") == ("belief propagation",)
    assert "backpropagation" in seeds.long_forms("BP")
    assert large.in_own_words("Is backpropagation biologically plausible?", "We compare PC with BP.") == (
        "Is backpropagation biologically plausible?")


def test_units_after_numbers_say_their_names(corpus, stats):
    """PhysDNet writes "1.67 dB" and "<4W": a question asking in decibels and watts finds the words there, though no
    abstract spells them out; a lone "W" (a weight matrix) is no unit."""
    seeds = AcronymGlossary(p.text for p in corpus[1])
    physdnet = next(p.text for p in corpus[1] if "PhysDNet" in p.text)
    question = "Which dehazing network gains over a decibel while running under four watts?"
    assert set(absent_terms(question, stats)) == {"decibel", "watts"}
    said = stems(seeds.with_long_forms(physdnet))
    assert mentions_term("decibel", said) and mentions_term("watts", said)
    assert "watt" not in seeds.with_long_forms("We learn a low-rank matrix W of rank 4 in 3 steps.")


def test_latin_abbreviations_are_not_topic_words():
    assert set(question_terms("Which papers work with biomedical data, e.g. cells or tissue images?")) == {
        "biomedical", "data", "cells", "tissue", "images"}


def test_a_paper_defining_a_field_acronym_otherwise_is_no_user_of_it():
    """"ctr prediction" asks about click-through rate: a paper naming its regulariser "CTR" does not use it."""
    from rag.relevance import defines_otherwise

    assert defines_otherwise("CTR", "We propose Cross-lingual Text Alignment Regularization (CTR) for medical VLP.")
    assert not defines_otherwise("CTR", "We predict the click-through rate (CTR) of ads.")
    assert not defines_otherwise("CTR", "CTR prediction is central to ads ranking.")  # used, not defined
    assert not defines_otherwise("XYZ", "A new regulariser (XYZ).")  # no meaning in the field to differ from
