"""Members of a list beyond its score cut-off: papers of a broad field the question names ("biomedical"), papers writing an example the asker gives, papers bringing a new resource of the kind asked."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import TypeVar

from rag.acronyms import broad_fields
from rag.relevance import EXAMPLE_CUE, ITEM_SEPARATOR, alternative_groups
from rag.terms import (
    CASED_WORD,
    TermStats,
    mentions_term,
    question_terms,
    snowball_stem,
    stems,
)

T = TypeVar("T")


# Words of a list's topic that name no subject ("work with", "draw on", "aimed at", "apply machine learning to", "which
# submissions belong in the health track?").
_TOPIC_FILLER = frozenset("""draw draws take takes aim aims aimed target targets focus focused examining studying angle
    batch data field area related everything inspiration train trained training apply applies machine learning work
    working track tracks pool session category triage triaging belong belongs there fit fits""".split())


# Examples a topic gives of itself ("biomedical data, like tissue slides or cells"): one of them is enough.
_EXAMPLES = re.compile(rf"{EXAMPLE_CUE}(?!\w)[^()?]*", re.I)


_CODED = re.compile(r"[A-Z].*[A-Z]|\d")  # "GRPO", "LiDAR", "Qwen3": an acronym or coined name


_EXAMPLES_END = re.compile(r"[;:]|\b(?:from|for|with|at|in|on|to|into|by|that|which|where|when|while|whose)\b", re.I)


def broad_field_members(topic: str, candidates: list[T], text_of: Callable[[T], str], stats: TermStats) -> list[T]:
    """The candidates belonging to each broad field a list's topic names outside brackets (rag/broad_fields.tsv:
    "biomedical data", "robots"): those whose text writes the field's narrower terms and, counting the field's own
    words as said, at least half of the topic's words. A word no loaded abstract uses is not counted ("robot arms"
    asks for robot papers)."""
    fields = _fields_named(topic)
    if not fields:
        return []
    examples = {w for group in alternative_groups(topic) for phrase in group for w in phrase}
    rest, named = _EXAMPLES.sub(" ", topic), 0
    for broad, _ in fields:
        rest, count = broad.subn(" ", rest)
        named += count
    others = [t for t in question_terms(rest) if t not in _TOPIC_FILLER and t not in examples
              and all(stats.stem_df.get(snowball_stem(part), 0) > 0 for part in t.split("-"))]
    members = []
    for candidate in candidates:
        text = text_of(candidate)
        if all(narrow.search(text) for _, narrow in fields):
            own = stems(text)
            if 2 * (named + sum(mentions_term(t, own) for t in others)) >= named + len(others):
                members.append(candidate)
    return members


def in_broad_fields(topic: str, listed: list[T], text_of: Callable[[T], str]) -> list[T]:
    """Of the papers a list found, those in each broad field its topic names (writing the field's word or its
    narrower terms): "the efficiency of LLM training or inference" lists no paper on LLMs that says nothing of
    throughput, memory or speed. All of them when the topic names no field."""
    fields = _fields_named(topic)
    return [x for x in listed if all(broad.search(text_of(x)) or narrow.search(text_of(x)) for broad, narrow in fields)]


def _fields_named(topic: str) -> list[tuple[re.Pattern, re.Pattern]]:
    """The broad fields (rag/broad_fields.tsv) a list's topic names outside brackets."""
    unbracketed = re.sub(r"\([^)]*\)", " ", topic)
    return [(broad, narrow) for broad, narrow in broad_fields() if broad.search(unbracketed)]


def example_members(topic: str, candidates: list[T], text_of: Callable[[T], str]) -> list[T]:
    """The candidates writing one of the examples a list's topic gives of itself ("e.g. spiking networks or predictive
    coding", "(GRPO, PPO)"), its words in order, up to two words apart ("spiking neural networks"): a phrase of two
    words or more, or a one-word acronym or coined name. One common word alone says too little ("cells"; a benchmark
    "preventing model hallucination" in its judging is no fix for hallucinations)."""
    match = re.search(rf"(?<![\w-]){_EXAMPLES.pattern}", topic, re.I)
    if not match:
        return []
    # the examples end where the topic goes on ("such as geometry or layouts, from a single image")
    examples = _EXAMPLES_END.split(re.sub(EXAMPLE_CUE, " ", match.group(), count=1, flags=re.I))[0]
    phrases = [[w for w in CASED_WORD.findall(item) if w.lower() in terms]
               for item in ITEM_SEPARATOR.split(examples) for terms in [set(question_terms(item))]]
    up_to_two_words_apart = r"(?:\W+[\w-]+){0,2}?\W+"
    patterns = [re.compile(r"(?<!\w)" + up_to_two_words_apart.join(rf"{re.escape(_word_start(w.lower()))}[\w-]*"
                                                                   for w in phrase), re.I)
                for phrase in phrases if len(phrase) > 1 or (phrase and _CODED.search(phrase[0]))]
    return [c for c in candidates if any(p.search(text_of(c)) for p in patterns)]


# The words naming what an asked-for benchmark or dataset is of: "video" in "new video benchmarks", "a benchmark for
# video understanding", "benchmarks built around videos" or "benchmarks that test models on video inputs".
_RESOURCE_KIND = (
    re.compile(r"((?:[\w-]+\s+){1,2})(?:benchmarks?|datasets?)\b", re.I),
    re.compile(r"\b(?:benchmarks?|datasets?)\s+(?:(?:built|centered|centred|focused)\s+(?:around|on)|for|of|on|about"
               r"|covering)\s+(?:(?:the|a|an)\s+)?([\w-]+)", re.I),
    re.compile(r"\b(?:benchmarks?|datasets?)\s+that\s+(?:test|evaluat|assess)\w*\s+[^.?;]{0,40}?\bon\s+([\w-]+)", re.I),
)


# Words around the kind that name none: the ask's verbs, and the models tested ("benchmarks for MLLMs").
_RESOURCE_FILLER = re.compile(r"(?:new|novel|recent|large-scale|public|open|existing|own|their|its|any|all|the|an?|one"
                              r"|(?:introduc|propos|releas|buil|creat|mak|construct|curat|present|contribut|collect|test"
                              r"|evaluat|assess|measur|prob)\w*|models?|\w*lms?)$")


def resource_members(topic: str, candidates: list[T], text_of: Callable[[T], str],
                     brings_resource: Callable[[T], bool]) -> list[T]:
    """The candidates bringing a benchmark or dataset of the kind a list asks for, their abstract using the words that
    kind is named by ("new video benchmarks": every paper introducing a benchmark and writing of video), however far
    that sentence is from the question's wording ("1,000 curated video pairs")."""
    named = " ".join(m.group(1) for pattern in _RESOURCE_KIND for m in pattern.finditer(topic))
    content = set(question_terms(named))
    kind = [w.lower() for w in named.split() if w.lower() in content and not _RESOURCE_FILLER.match(w.lower())]
    if not kind:
        return []
    return [c for c in candidates if all(mentions_term(w, stems(text_of(c))) for w in kind) and brings_resource(c)]


def _word_start(word: str) -> str:
    """The letters a word's other forms start with: its stem's, at least four ("networks", "coding" -> "codi")."""
    return word[:max(4, len(os.path.commonprefix([word, snowball_stem(word)])))]
