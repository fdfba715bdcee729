"""Is a paper about what the question asks? Coverage of the question's terms, weighted by how rare each term is."""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

from rag.acronyms import field_acronyms, modalities, plain_terms
from rag.terms import (
    ASKING_WORDS,
    CASED_WORD,
    TermStats,
    base_stem,
    content_words,
    dictionary_words,
    one_edit_away,
    phrase_key,
    prefix_key,
    question_terms,
    snowball_stem,
    word_prefixes,
)

# A question word that at most ANCHOR_MAX_DF papers, and at most ANCHOR_MAX_SHARE of them, use ("GRPO" among 8k
# NeurIPS abstracts) pins down what the asker means; in a 38-paper corpus no word is rare in that sense.
ANCHOR_MAX_DF = 5
ANCHOR_MAX_SHARE = 0.001
# In a corpus of at least GAP_MIN_PAPERS abstracts, a question word that no abstract uses in any form
# ("retrosynthesis") names a topic the corpus does not hold, and a word at most GAP_RARE_SHARE of them use ("lip",
# "crop") must appear in the papers that answer: "lip reading from video" is not answered by a video paper. In a
# smaller corpus an unused word is as often a paraphrase ("photos" for "images"). Calibrated on
# bench/questions.jsonl with the 8,434 NeurIPS distractors.
GAP_MIN_PAPERS = 2000
GAP_RARE_SHARE = 0.0015
# How many words beside an "or" or a slash are read as the alternative a kind of data is offered against ("a single
# image or monocular video").
ALTERNATIVE_WORDS = 3
# A word of an abstract means nearly the same as a question word at this MiniLM cosine ("fragile" ~ "brittle" 0.72;
# "lip" ~ "head" 0.41 is not).
SYNONYM_MIN = 0.6
# A question word whose removal moves the question's vector less than this share of what removing one of its words
# does on average is the asker's phrasing, not a facet of the topic ("from any instant of the exposure", "GNNs too
# unsure of their predictions": 0.39, 0.28); topic words score 0.55 to 12 ("elevator scheduling" 1.54, "smart
# contracts" 0.57, "tai chi" 10). Measured on the rare and absent words of bench/questions.jsonl at 8.4k papers.
SALIENCE_MIN = 0.45
# A question word the answering paper never uses, and whose removal brings the question this much closer to the paper
# (its best sentence's similarity plus its whole abstract's), is a facet of the question the paper lacks: "quantum" in
# "neural decoders for quantum error correction codes" asked of an LDPC-decoding paper (0.23), "vision" in "4-bit
# quantization for vision-language models" of one on LLMs (0.16). The asker's own wording of a paper's topic moved it
# at most 0.074 ("looking") on bench/questions.jsonl, seeds alone and at 8.4k papers; "speech" in "the KV cache of
# speech recognition models", asked of an LLM KV-cache paper, moves it 0.086 and is missed.
FACET_SHIFT = 0.09
# Words this long that are one typo from a corpus word are taken for that word, not for an absent topic.
TYPO_MIN_LETTERS = 7
# Words that end the phrases an "or" joins ("images or video from ...", "representations or information flow inside").
_PHRASE_END = frozenset("""in on from for with of to by that which who and or as at into via using than inside across
    between among within under over about without beyond toward towards through such like where when while""".split())


def anchor_terms(question: str, stats: TermStats) -> list[str]:
    """The question's acronyms and coined names ("GRPO") that almost no loaded paper uses, yet some do. Only words
    written with capitals count: a rare lowercase word ("crop") too often means something else in the one paper
    that has it."""
    words = {part for word in CASED_WORD.findall(question) for part in word.split("-")
             if sum(c.isupper() for c in part) >= 2}
    limit = min(ANCHOR_MAX_DF, ANCHOR_MAX_SHARE * stats.n)
    return sorted(w.lower() for w in words if 0 < stats.df.get(prefix_key(w.lower()), 0) <= limit)


def anchor_share(anchors: list[str], text: str) -> float:
    """Share of the anchor words the text contains (0 when there are none)."""
    if not anchors:
        return 0.0
    prefixes = word_prefixes(text)
    return sum(prefix_key(a) in prefixes for a in anchors) / len(anchors)


def topic_coverage(terms: list[str], text: str, stats: TermStats, alternatives: list[list[list[str]]] = ()) -> float:
    """Share of the question's terms (weighted by rarity) that the text contains; a hyphenated term counts when
    all its parts are there ("text-to-music" needs both "text" and "music"); the phrases of one ``alternatives``
    group count once, by the phrase the text covers best ("spiking neural networks or the visual cortex")."""
    if not terms:
        return 1.0
    prefixes = word_prefixes(text)

    def weight_and_hit(term: str) -> tuple[float, bool]:
        parts = [p for p in term.split("-") if len(p) > 2 and p in content_words(p)] or [term]
        return max(stats.idf(p) for p in parts), all(prefix_key(p) in prefixes for p in parts)

    in_groups = {w for group in alternatives for phrase in group for w in phrase}
    total = covered = 0.0
    for term in terms:
        if term not in in_groups:
            weight, hit = weight_and_hit(term)
            total += weight
            covered += weight if hit else 0.0
    for group in alternatives:
        phrases = [[weight_and_hit(w) for w in phrase if w in terms] for phrase in group]
        phrases = [p for p in phrases if p]
        if phrases:  # as much as its heaviest phrase, covered as far as the text covers its best-covered one
            weight = max(sum(w for w, _ in p) for p in phrases)
            total += weight
            covered += weight * max(sum(w for w, hit in p if hit) / sum(w for w, _ in p) for p in phrases)
    return covered / total if total else 1.0


class WordVectors:
    """MiniLM vectors of single words, each embedded once: the synonym checks ask about the same words again."""

    def __init__(self, embed: Callable[[list[str]], np.ndarray]):
        self.embed = embed
        self._vectors: dict[str, np.ndarray] = {}

    def of(self, words: list[str]) -> np.ndarray:
        """One row per word; the words not seen before embedded in one batch."""
        new = [w for w in dict.fromkeys(words) if w not in self._vectors]
        if new:
            self._vectors.update(zip(new, np.asarray(self.embed(new), dtype=np.float32)))
        return np.asarray([self._vectors[w] for w in words], dtype=np.float32)

    def without_synonym(self, words: list[str], text: str) -> list[str]:
        """The words for which the text has no word of nearly the same meaning (cosine SYNONYM_MIN or more; a
        word the text uses is its own synonym)."""
        vocab = sorted(w for w in content_words(text) if w.isalpha() and len(w) > 2)
        if not words or not vocab:
            return list(words)
        nearest = (self.of(words) @ self.of(vocab).T).max(axis=1)
        return [w for w, sim in zip(words, nearest) if sim < SYNONYM_MIN]


# Examples given as a list, of which a paper needs only one: "(pathology, cells, genes etc)", "such as detection,
# segmentation and tracking", "images, video or audio".
# Where a question starts giving examples ("such as", "e.g.", "like").
EXAMPLE_CUE = r"\b(?:such\s+as|like|e\.g\.?|for\s+example|for\s+instance|including)"
_ENUMERATION = re.compile(
    r"\((?P<bracketed>[^()]*,[^()]*)\)"
    rf"|{EXAMPLE_CUE}\s+"
    r"(?P<examples>[\w-]+(?:\s+[\w-]+){0,2}(?:\s*,\s*[\w-]+(?:\s+[\w-]+){0,2})+)"
    r"|(?P<listed>[\w-]+(?:\s+[\w-]+){0,2}(?:\s*,\s*[\w-]+(?:\s+[\w-]+){0,2})+),?\s+etc\b\.?"
    r"|(?P<ored>[\w-]+(?:\s*,\s*[\w-]+)+,?\s+or\s+[\w-]+)",
    re.I,
)
ITEM_SEPARATOR = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+|\s*\betc\b\.?", re.I)
# "speech/audio", "3d/4d": the two words alone are the alternatives ("MOEA/D" and "w/" are no such pair); with spaces
# round it, a slash joins phrases, as "or" does ("brain inspired / biologically plausible").
_SLASHED = re.compile(r"\b([\w-]{2,})/([\w-]{2,})\b")
_SPACED_SLASH = re.compile(r"\s+/\s+")
_PHRASE_TOKEN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*|[(),;:|]")


def _enumerations_marked(question: str) -> str:
    """The question with each enumeration and slashed pair written "( a | b | c )"."""
    def marked(match: re.Match) -> str:
        name = next(n for n in ("bracketed", "examples", "listed", "ored") if match.group(n))
        items = [i for i in ITEM_SEPARATOR.split(match.group(name)) if i.strip()]
        start, end = match.start(name) - match.start(), match.end(name) - match.start()
        return f"{match.group()[:start]} ( {' | '.join(items)} ) {match.group()[end:]}"

    return _ENUMERATION.sub(marked, _SLASHED.sub(r" ( \1 | \2 ) ", question))


def _enumerated(question: str) -> list[list[list[str]]]:
    groups, items = [], [[]]
    for token in _PHRASE_TOKEN.findall(_enumerations_marked(question).lower()):
        if token == "(":
            items = [[]]
        elif token == "|":
            items.append([])
        elif token == ")":
            phrases = [[w for w in item if w not in ("the", "a", "an")] for item in items]
            if len(phrases) > 1 and all(phrases):
                groups.append(phrases)
            items = [[]]
        elif token.isalnum() or "-" in token:
            items[-1].append(token)
    return groups


def alternative_groups(question: str) -> list[list[list[str]]]:
    """Phrases an "or" joins, as alternatives a paper needs only one of: the words before it back to the start of
    its phrase, and the words after it to the end of the next ("biology or medicine", "spiking neural networks or
    the visual cortex"; "a or b or c" is one group); and the items of an enumeration or a slashed pair ("pathology,
    cells, genes etc", "speech/audio")."""
    enumerated = _enumerated(question)
    listed = {w for group in enumerated for phrase in group for w in phrase}
    text = _SLASHED.sub(r"\1 \2", _SPACED_SLASH.sub(" or ", question)).lower()
    tokens = [t for t in _PHRASE_TOKEN.findall(text) if t != "|"]
    tokens = [t for i, t in enumerate(tokens) if not (t == "," and tokens[i + 1 : i + 2] == ["or"])]  # "X, or Y"
    groups: list[list[list[str]]] = []
    for i, token in enumerate(tokens):
        if token != "or" or i == 0:
            continue
        before = []
        for word in reversed(tokens[:i]):
            if word in _PHRASE_END or word in ASKING_WORDS or word not in content_words(word):
                break
            before.insert(0, word)
        after = []
        for word in tokens[i + 1:]:
            if word in _PHRASE_END or not word[0].isalnum():
                break
            if word not in ("the", "a", "an"):
                after.append(word)
        if not before or not after or listed & {*before, *after}:  # an enumeration's "or"
            continue
        opened_by_or = i - len(before) > 0 and tokens[i - len(before) - 1] == "or"
        if groups and groups[-1][-1] == before and opened_by_or:  # "a or b or c"
            groups[-1].append(after)
        else:
            groups.append([before, after])
    return enumerated + groups


def _gap_words(question: str, stats: TermStats) -> list[str]:
    return topic_words(question) if stats.n >= GAP_MIN_PAPERS else []


# The measure a "how ..." question asks ("how long did the forgery take", "how big is the gap"): the asking, not the topic.
_HOW_MEASURE = re.compile(r"\bhow\s+(long|far|old|large|big|small|massive|bright|hot|cold|deep|wide|thick|thin|fast|slow"
                          r"|high|low|strong|weak|close|often|quickly|early|late|heavy|tall|short|good|well|accurate)\b", re.I)


def topic_words(question: str) -> list[str]:
    """The question's words that may name part of its topic: no asking words, numbers, words of one alternative
    ("spiking neural networks or the visual cortex": either will do), or the measure a "how ..." asks."""
    skip = {w for group in alternative_groups(question) for phrase in group for w in phrase}
    skip |= {m.group(1).lower() for m in _HOW_MEASURE.finditer(question)}
    words = {p for t in question_terms(question) for p in t.split("-") if len(p) > 2 and not any(c.isdigit() for c in p)}
    return sorted(w for w in words if w not in skip and w in content_words(w) and w not in ASKING_WORDS)


def absent_terms(question: str, stats: TermStats, any_size: bool = False) -> list[str]:
    """Question words no loaded abstract uses in any form, in a corpus large enough for that to mean something (or
    of any size, ``any_size``). A long word one typo from a word the corpus uses ("hallucinaton") is a typo, not an
    absent topic, unless it is a common English word itself ("reactor" is not a typo of "refactor")."""
    known = stats.stem_df
    return [w for w in (topic_words(question) if any_size else _gap_words(question, stats))
            if snowball_stem(w) not in known and base_stem(snowball_stem(w)) not in known
            and (len(w) < TYPO_MIN_LETTERS or w in dictionary_words()
                 or not any(snowball_stem(v) in known for v in one_edit_away(w)))]


def essential_words(question: str, words: list[str], embed: Callable[[list[str]], np.ndarray]) -> list[str]:
    """The words the question's meaning rests on: removing one moves the question's vector at least SALIENCE_MIN
    times as far as removing one of its terms does on average (one batch of len(terms) + 1 short texts)."""
    if not words:
        return []
    terms = list(dict.fromkeys(question_terms(question)))
    probed = list(dict.fromkeys(terms + list(words)))
    vectors = np.asarray(embed([question] + [_without_word(question, w) for w in probed]), dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    shift = dict(zip(probed, 1.0 - vectors[1:] @ vectors[0]))
    typical = float(np.mean([shift[t] for t in terms])) if terms else 0.0
    return [w for w in words if typical <= 0 or shift[w] >= SALIENCE_MIN * typical]


def unmet_facets(question: str, unsaid: list[list[str]], sentence_vectors: list[np.ndarray],
                 embed: Callable[[list[str]], np.ndarray]) -> list[list[str]]:
    """For each paper, of the question words it never uses (``unsaid``), those naming a facet of the question it
    lacks: dropping one brings the question at least FACET_SHIFT closer to the paper's sentences ("quantum" in
    "neural decoders for quantum error correction codes", asked of a paper on decoding LDPC codes). One batch: the
    question, and the question without each word."""
    words = list(dict.fromkeys(w for paper_words in unsaid for w in paper_words))
    if not words:
        return [[] for _ in unsaid]
    vectors = np.asarray(embed([question] + [_without_word(question, w) for w in words]), dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    row = {w: i + 1 for i, w in enumerate(words)}
    facets = []
    for paper_words, paper_vectors in zip(unsaid, sentence_vectors):
        if not paper_words or not len(paper_vectors):
            facets.append([])
            continue
        sentences = paper_vectors / np.linalg.norm(paper_vectors, axis=1, keepdims=True)
        gist = sentences.mean(axis=0)
        gist /= np.linalg.norm(gist) or 1.0
        closeness = (vectors @ sentences.T).max(axis=1) + vectors @ gist  # best sentence + whole abstract
        facets.append([w for w in paper_words if closeness[row[w]] - closeness[0] >= FACET_SHIFT])
    return facets


def unmet_modalities(question: str, text: str) -> list[str]:
    """The kinds of data the question confines its topic to (rag/modalities.tsv) that the text never writes of:
    ["speech or audio"] for "Which paper compresses the KV cache of speech recognition models?" asked of a KV-cache
    paper on text LLMs. A kind offered as one alternative ("from a single image or monocular video") confines
    nothing."""
    return [name for name, asked, written in modalities()
            if any(not _offered_as_alternative(question, mention, asked) for mention in asked.finditer(question))
            and not written.search(text)]


# A versioned name: a family of at least two letters and its version, digits ("GPT-4", "YOLOv8", "Llama 3") or a roman
# numeral after a hyphen ("NSGA-III").
_VERSIONED_NAME = re.compile(r"(?<![\w-])([A-Z][A-Za-z]+)(?:[- ]?(v?\d+(?:\.\d+)*)|-(I{2,3}|IV|VI{0,3}))(?![\w.])")


def other_versions(question: str, text: str) -> list[tuple[str, str]]:
    """(asked, written) for each versioned name of the question the text never writes while it writes the same family
    in another version: ("NSGA-III", "NSGA-II") for a runtime analysis of NSGA-III asked of a paper that names only
    NSGA-II. A version the text extends counts as written ("GPT-4" in "GPT-4o")."""
    out = []
    for asked in _VERSIONED_NAME.finditer(question):
        family, version = asked.group(1), asked.group(2) or asked.group(3)
        written = [m for m in _VERSIONED_NAME.finditer(text) if m.group(1).lower() == family.lower()]
        versions = [(m.group(2) or m.group(3)).lower().lstrip("v") for m in written]
        if written and not any(v.startswith(version.lower().lstrip("v")) for v in versions):
            out.append((asked.group(0), written[0].group(0)))
    return out


def _offered_as_alternative(question: str, mention: re.Match, kind: re.Pattern) -> bool:
    """Is the mention joined by "or" or a slash to a phrase of up to ALTERNATIVE_WORDS words not of the same kind
    ("speech or images": yes; "speech/audio": no)?"""
    before = re.findall(r"[\w-]+|/", question[: mention.start()])[-ALTERNATIVE_WORDS - 1:]
    after = re.findall(r"[\w-]+|/", question[mention.end():])[: ALTERNATIVE_WORDS + 1]
    joined_before = [i for i, t in enumerate(before) if t.lower() in ("or", "/")]
    joined_after = [i for i, t in enumerate(after) if t.lower() in ("or", "/")]
    others = ([" ".join(before[: joined_before[-1]])] if joined_before else []) + (
        [" ".join(after[joined_after[0] + 1:])] if joined_after else [])
    return any(other and not kind.search(other) for other in others)


def _without_word(text: str, word: str) -> str:
    """The text with every word starting with ``word`` removed ("instant" also takes "instantly")."""
    return re.sub(rf"(?<![A-Za-z0-9]){re.escape(word)}\w*", "", text, flags=re.IGNORECASE)


def rare_terms(question: str, stats: TermStats) -> list[str]:
    """Question words so rare in a large corpus that a paper answering the question must use them."""
    limit = GAP_RARE_SHARE * stats.n
    return [w for w in _gap_words(question, stats) if 0 < stats.stem_df.get(snowball_stem(w), 0) <= limit]


def defines_otherwise(acronym: str, text: str) -> bool:
    """Does the text define the acronym ("... (CTR)") without writing what the field means by it (rag/acronyms.tsv):
    Med-UniC's "Cross-lingual Text Alignment Regularization (CTR)", where an asker's "ctr prediction" is
    click-through rate?"""
    field = field_acronyms().get(acronym)
    if not field or not re.search(rf"\({re.escape(acronym)}s?\)", text):
        return False
    written = phrase_key(text)
    return not any(phrase_key(form) in written for form in field)


def plain_phrases(question: str) -> list[tuple[str, str]]:
    """The everyday phrases of the question that stand for a field term, each with that term: [("graphics chips",
    "GPUs")]."""
    return [(match.group(), term) for pattern, term in plain_terms() if (match := pattern.search(question))]


def says_plainly(question: str, text: str) -> str:
    """The everyday phrases of the question whose field term the text uses ("graphics chips" for a text on GPUs),
    joined: what the text says in the asker's words."""
    key = phrase_key(text)
    return " ".join(phrase for phrase, term in plain_phrases(question) if phrase_key(term.split("|")[0]) in key)


