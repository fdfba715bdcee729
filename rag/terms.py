"""Words of questions and abstracts, one way for all of rag/: content words, stems, prefix keys, document frequencies."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

from bm25s.stopwords import STOPWORDS_EN
from Stemmer import Stemmer

from store.embed import TOKENIZER_PATH

_CONTENT_WORD = re.compile(r"[a-z0-9]+(?:[-.][a-z0-9]+)*")


# Contractions: a negated auxiliary ("don't", "isn't") says nothing of the topic; a clitic ("model's", "we're") is
# cut from its word.
_NEGATED_AUXILIARY = re.compile(r"\b[a-z]+n['’]t\b")


_CLITIC = re.compile(r"['’](?:s|re|ve|ll|d|m)\b")


# Latin abbreviations ("e.g.", "i.e.", "et al.") join the stopwords: they say nothing of the topic.
_STOP = frozenset(STOPWORDS_EN) | {"paper", "papers", "does", "do", "what", "which", "how", "use", "used", "propose",
                                   "proposed", "e.g", "i.e", "etc", "cf", "vs", "et", "al", "viz"}


@lru_cache(maxsize=1 << 16)  # abstract sentences are scored again for every question that reaches them
def content_words(text: str) -> frozenset[str]:
    """Lower-cased words of a text that carry meaning (no stopwords, no "don't", "model's" -> "model")."""
    text = _CLITIC.sub("", _NEGATED_AUXILIARY.sub(" ", text.lower()))
    return frozenset(w for w in _CONTENT_WORD.findall(text) if w not in _STOP and len(w) > 1)


_snowball = Stemmer("english").stemWord


@lru_cache(maxsize=1 << 18)  # a corpus has far fewer distinct words than words
def snowball_stem(word: str) -> str:
    """Snowball stem, spelled one way for British and American English ("quantisation" ~ "quantization")."""
    return _snowball(word).replace("z", "s").replace("our", "or")


def singular_stem(word: str) -> str:
    """Crude singular stem: "problems" -> "problem", "studies" -> "stud", "annotations" -> "annotat" (as in
    "annotated")."""
    if re.search(r"\w{3}ations?$", word):
        return word[:word.rindex("ation") + 2]
    for end in ("ies", "es", "s"):
        if word.endswith(end) and len(word) - len(end) >= 3:
            return word[: -len(end)] if end != "es" or word[-3] in "sxz" else word[:-1]
    return word


# Question words that say what kind of answer is wanted, not what it is about.
ASKING_WORDS = frozenset(
    """paper papers work works study studies submission submissions publication publications preprint preprints
    which what propose proposes proposed introduce introduces introduced new
    method methods approach approaches model models use uses used using there here any good does show shows result
    results based report reports reported make makes give gives kind kinds way ways particular own topic central
    research about many much how why when where who whose whom tell remember know explain describe describes find
    found claim claims claimed actually also each both other one ones either compare compared differ different
    difference versus better best whether has have had having its from than over more most can could would should
    may might must into through during under via within yet just only very too some such same others another
    anything something someone anyone anybody somebody list lists summarize summarise summary overview involve
    involves involving deal deals dealing concern concerns regarding
    really truly basically even still exactly specifically mainly simply somehow maybe
    perhaps possibly lot lots sort thing things stuff cite cited citing tldr did done doing get gets got say says said saying argue argues argued mention mentions mentioned
    you your yours we our ours me my mine us them their theirs he him his she her hers let lets
    want wants wanted need needs needed looking seek seeking recall recalled""".split()
)


_WORD = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


CASED_WORD = re.compile(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*")


# A question word matches an abstract word sharing this many leading letters ("restore" ~ "restoration").
PREFIX = 5


def prefix_key(word: str) -> str:
    """What a word is matched on: its first PREFIX letters, an acronym's plural as its singular ("LLMs" ~ "LLM"; a
    word with vowels keeps its "s": "codes" is not "code")."""
    if 2 < len(word) <= PREFIX + 1 and word.endswith("s") and not any(c in "aeiouy" for c in word[:-1]):
        word = word[:-1]
    return word[:PREFIX]


class TermStats:
    """Document frequencies of words over the loaded papers (rare words weigh more), and how the papers case each
    word inside a sentence (a place or a person is written capitalised there: "Germany", "Hubble")."""

    def __init__(self, texts: Iterable[str]):
        self.df: Counter[str] = Counter()
        self.stem_df: Counter[str] = Counter()  # by Snowball stem: exact enough to tell "contract" from "control"
        self.capitalised: Counter[str] = Counter()  # lower-cased word: times written capitalised inside a sentence
        self.lower_case: Counter[str] = Counter()  # and in lower case there
        self.n = 0
        for text in texts:
            words = _words(text)
            self.df.update({prefix_key(w) for w in words})
            self.stem_df.update({snowball_stem(w) for w in words})
            for word in _INSIDE_SENTENCE.findall(text):
                (self.capitalised if word[0].isupper() else self.lower_case)[word.lower()] += 1
            self.n += 1

    def idf(self, word: str) -> float:
        return math.log((self.n + 1) / (self.df.get(prefix_key(word), 0) + 1)) + 0.1

    def written_as_name(self, word: str) -> bool:
        """Whether the papers write the word capitalised inside a sentence at least as often as in lower case, or
        never write it: "Manhattan" or "Australian" is a name, where "Learning" in a title-cased question is not."""
        word = word.lower()
        return self.capitalised[word] >= self.lower_case[word]

    def writes(self, word: str) -> bool:
        """Whether the papers write the word inside a sentence, in any case."""
        return bool(self.capitalised[word.lower()] or self.lower_case[word.lower()])


# A word after a lower-case word, a digit or a comma: inside a sentence, where capitals mark names.
_INSIDE_SENTENCE = re.compile(r"(?<=[a-z0-9,;:] )([A-Za-z][a-z]+)\b")


_CAMEL_PART = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


def coined_parts(text: str) -> set[str]:
    """The lower-cased parts of the coined names in a text ("PhyProbe": "phy", "probe"; "PatchKV": "patch", "kv")."""
    return {part.lower() for w in CASED_WORD.findall(text) if w[1:] != w[1:].lower()
            for part in _CAMEL_PART.findall(w)}


@lru_cache(maxsize=1 << 14)  # a list scores the same abstracts question after question
def word_prefixes(text: str) -> frozenset[str]:
    """The prefix keys of a text's words (see ``_words``)."""
    return frozenset(prefix_key(w) for w in _words(text))


def _words(text: str) -> set[str]:
    """Lower-cased words, with the parts of hyphenated words and of coined names ("PhyProbe": "phy", "probe")."""
    words = set(_WORD.findall(text.lower()))
    return words | coined_parts(text) | {part for w in words if "-" in w for part in w.split("-") if part}


def question_terms(question: str, ignore: Iterable[str] = ()) -> list[str]:
    """The words saying what the question is about (no stopwords, no asking words, no paper names)."""
    skip = ASKING_WORDS | {w.lower() for w in ignore}
    return [w for w in content_words(question) if w not in skip and len(w) > 2 and not w.isdigit()]


def stems(text: str) -> set[str]:
    """The stems of a text's words, for ``mentions_term``."""
    return {snowball_stem(w) for w in _words(text)}


def base_stem(stem: str) -> str:
    """The stem of the noun an adjective doubling its last consonant comes from ("foggi" -> "fog", "sunni" -> "sun"):
    too short for the prefix match of ``mentions_term``."""
    doubled = len(stem) >= 4 and stem.endswith("i") and stem[-2] == stem[-3] and stem[-2] in "bdgmnptz"
    return stem[:-2] if doubled else stem


def mentions_term(term: str, text_stems: set[str]) -> bool:
    """The text uses the word, a shorter form of it ("blurry" ~ "blur", "cheaply" ~ "cheap", "foggy" ~ "fog"), or the
    word is a clipped form of one the text uses ("backprop" ~ "backpropagation")."""
    stem = snowball_stem(term)
    return stem in text_stems or base_stem(stem) in text_stems or any(
        (len(s) >= 4 and stem.startswith(s)) or (len(stem) >= CLIPPED_MIN_LETTERS and s.startswith(stem))
        for s in text_stems)


def one_edit_away(word: str) -> set[str]:
    """Every string one typo from the word: a letter dropped, changed, added, or two swapped."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    return ({a + b[1:] for a, b in splits if b} | {a + c + b[1:] for a, b in splits if b for c in letters}
            | {a + c + b for a, b in splits for c in letters} | {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1})


@lru_cache(maxsize=1)
def dictionary_words() -> frozenset[str]:
    """The whole words of the bundled MiniLM tokenizer's vocabulary: some 20,000 common English words."""
    vocab = json.loads(TOKENIZER_PATH.read_text(encoding="utf-8"))["model"]["vocab"]
    return frozenset(w for w in vocab if w.isalpha())


# Endings and beginnings an English word takes without becoming another: "cheaply", "rebuilds", "underconfident".
_INFLECTIONS = re.compile(r"(?:s|es|ed|d|ing|ly|er|ers|y|ies)$")
_PREFIXES = re.compile(r"^(?:re|un|under|over|de|mis|pre|non|self)")


def is_english(word: str) -> bool:
    """Whether a lower-case word is an English word, inflected, prefixed, or two of them run together ("blowup",
    "chatbots"), rather than a term of art or a name ("dengue", "glioblastoma", "falciparum")."""
    words = dictionary_words()
    if word in words:
        return True
    bare = _PREFIXES.sub("", word)
    for form in {word, bare}:
        for cut in (form, _INFLECTIONS.sub("", form)):
            if len(cut) >= 3 and (cut in words or cut + "e" in words or (len(cut) > 3 and cut[-1] == cut[-2]
                                                                          and cut[:-1] in words)):
                return True
    return any(word[:i] in words and (word[i:] in words or _INFLECTIONS.sub("", word[i:]) in words)
               for i in range(3, len(word) - 1))


# A question word this long may be a clipped form of an abstract's word ("backprop" ~ "backpropagation").
CLIPPED_MIN_LETTERS = 6


def phrase_key(phrase: str) -> str:
    """One spelling of a long form ("Large Language Models", "large-language model" -> "large language model")."""
    return re.sub(r"[\s/-]+", " ", phrase.lower()).rstrip("s")


# An acronym as a question types it, without its plural "s" ("PEM", "CTLs"): three to six capitals.
TYPED_ACRONYM = re.compile(r"(?<![\w-])([A-Z]{3,6})s?(?![\w-])")


def spells_initials(acronym: str, low_text: str) -> bool:
    """Whether a lower-cased text writes words whose initials spell the acronym ("cosmic microwave background" for
    "CMB"): a paper spelling an acronym out says it without writing it."""
    return re.search(r"\b" + r"[\w]*[\s-]+".join(re.escape(c) for c in acronym.lower()) + r"\w*", low_text) is not None
