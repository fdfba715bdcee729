"""The loaded papers in memory, and finding the ones a question names."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from functools import lru_cache

from rag.coined import CoinedNames
from rag.series import SeriesParts
from rag.spelling import plain_spelling
from rag.terms import dictionary_words
from store.paper import Paper
from store.tokens import is_common_acronym

# Longest run of words joined when matching a name ("pipe fsdp" -> "pipefsdp").
MAX_NAME_WORDS = 5
MIN_ALIAS_CHARS = 3
# A name of several words this long is still found with one letter wrong, added or missing ("Patch Rebith Inversion").
MIN_FUZZY_CHARS = 12
_WORD = re.compile(r"[A-Za-z0-9]+")
# A quoted span: 'Upper bound for the stability of Boolean networks', “...”; an apostrophe inside a word does not end it.
_QUOTED = re.compile(r"(?:^|(?<=[\s(]))['‘\"“](.+?)['’\"”](?=[\s?.,!:;)]|$)")
# A quoted title names a paper from this many words ("'Gaia's faintest stars'"), not a quoted phrase ("'zero-shot'").
QUOTED_TITLE_WORDS = 3
# A name's hyphenated tail that can be dropped: a size or version ("1K", "8B", "v2") or a generic word ("Bench").
_SIZE_OR_VERSION = re.compile(r"^(?:v?\d+(?:\.\d+)?[A-Za-z]{0,2}|[A-Za-z]\d+(?:\.\d+)?|bench(?:mark)?|net|data(?:set)?)$", re.I)
_ACRONYM_IN_PARENS = re.compile(r"\(([A-Za-z][A-Za-z0-9\-]{1,15})\)")
# A name hyphened to a word that makes it a modifier ("LoRA-adapted CLIP", "GRPO-based training") refers to the
# technique the paper is named for, not to the paper.
_USED_AS_MODIFIER = re.compile(r"-(?:[a-z]+ed|based|like|style|free|driven|aware|guided|powered|specific|only|wise)\b")
# A paper cited by its first author: "Hastings et al.", or "Diósi's comment" (a possessive of a name no dictionary has).
_AUTHOR_CITED = re.compile(r"\b(?P<surname>[A-Z][^\W\d_]+)(?:(?P<et_al>\s+et\s+al\b\.?)|['\u2019]s\b)")
# Authors cited together: "Sharma & Lesgourgues", "Pan/Huterer et al.", "Grishin, Romero-Shaw & Trani", "Guha and Park",
# "Ammari–Qiu" (an en dash joins co-authors).
_SURNAME = r"[A-Z][^\W\d_A-Z]+(?:[A-Z][^\W\d_A-Z]+)?(?:-[A-Z][^\W\d_A-Z]+)?"  # "Romero-Shaw", "McDonald"; not "SGD"
_AUTHORS_CITED = re.compile(rf"\b{_SURNAME}(?:\s*(?:,|&|/|\band\b|\u2013)\s*{_SURNAME})+")
# A surname standing alone, no part of a longer hyphenated word ("Danchin", "Ferrari-Lederman").
_SURNAME_ALONE = re.compile(rf"(?<![\w-]){_SURNAME}(?![\w-])")
# One author by the full name: "Olesia Dmytruk's two cavity papers", "Nan Sheng had two formal DFT papers".
# Overlapping ("Compare Olesia Dmytruk": "Olesia Dmytruk").
_FULL_NAME = re.compile(rf"(?=\b([A-Z][^\W\d_]+(?:\s+[A-Z]\.)*\s+{_SURNAME})\b)")
# Two words typed in any case, for a full name asked of a comparison ("shun xu posted two VOA papers").
_FULL_NAME_ANY_CASE = re.compile(r"(?=(?<![\w-])([^\W\d_]+(?:\s+[^\W\d_]\.)*\s+[^\W\d_]+(?:-[^\W\d_]+)?)(?![\w-]))")


def surname_key(name: str) -> str:
    """An author's surname as typed in any question: the last word of the name, lower case, accents dropped
    ("Krstić" and "Krstic" alike)."""
    last = name.split()[-1] if name.split() else ""
    return plain_spelling(last).strip(".,")


def full_name_key(name: str) -> str:
    """An author's full name as typed in any question: its words, lower case, accents dropped."""
    return " ".join(plain_spelling(name).split())


def full_name_keys(name: str) -> set[str]:
    """The ways an author's full name is typed: all of it, and for a name of three words or more ("Fatemeh Zahra
    Majidi", "Jan van Dijk") its first and last words and its last two (an asker drops the middle or the first)."""
    words = full_name_key(name).split()
    return {" ".join(words)} | ({f"{words[0]} {words[-1]}", " ".join(words[-2:])} if len(words) > 2 else set())


# Where only a name can stand, a name spelled like a word ("PURGE", "PROVE") names its paper typed in lower case too:
# alone after "tldr" or "what is", or beside "vs" ("purge vs prove, which ...?").
_NAME_SLOT = re.compile(r"^\W*(?:tl;?dr|what\s+is|what's|summari[sz]e|describe)\W+(?P<alone>[\w-]+)\W*$"
                        r"|(?P<left>[\w-]+)\s+(?:vs\.?|versus)\s+(?P<right>[\w-]+)", re.I)
# A name made of ordinary words ("Graph Neural Networks") names its paper only while at most this many abstracts
# use the phrase; used by more, it is a topic ("... with graph neural networks?"), not a pointer to one paper. So is
# a one-word name that many abstracts write: the verb "prune" is not the paper PRUNE, nor the technique LoRA the
# dataset paper named LoRA; only a spelling of it, not in lower case, that few abstracts write names the paper.
MAX_PHRASE_PAPERS = 3


def normalise(text: str) -> str:
    """Case-, hyphen- and space-insensitive form of a name."""
    return "".join(_WORD.findall(text)).lower()


@lru_cache(maxsize=1)
def _common_words() -> frozenset[str]:
    # The bundled tokenizer's whole-word vocabulary is a ready list of ordinary English words.
    import json

    from store.embed import TOKENIZER_PATH

    vocab = json.loads(TOKENIZER_PATH.read_text())["model"]["vocab"]
    return frozenset(w for w in vocab if w.isalpha() and w.islower())


def _is_word_like(norm: str) -> bool:
    """An ordinary English word or an inflection of one ("refine", "largest", "masking")."""
    forms = {norm} | {norm + end for end in ("s", "d", "ed", "es", "ing", "r", "er")}
    for end in ("s", "es", "ed", "d", "ing", "er", "ers"):
        stem = norm[: -len(end)]
        if norm.endswith(end) and len(stem) >= 4:
            forms |= {stem, stem + "e"}
    return not forms.isdisjoint(_common_words())


def _is_coined(word: str) -> bool:
    """A made-up name (PipeFSDP, ViDiC-1K, P4P), not an ordinary word."""
    inner_caps = any(c.isupper() for c in word[1:])
    return inner_caps or any(c.isdigit() for c in word) or normalise(word) not in _common_words()


def is_plain_phrase(name: str) -> bool:
    """Several words, each an ordinary English word ("Graph Neural Networks", "Phase-Adaptive Fusion")."""
    words = [w for w in re.split(r"[\s\-]+", name) if w]
    return len(words) > 1 and all(w.isalpha() and _is_word_like(w.lower()) for w in words)


def name_aliases(paper: Paper) -> set[tuple[str, bool]]:
    """Aliases of the paper's name as (normalised form, case-sensitive?) pairs."""
    aliases: set[tuple[str, bool]] = set()
    name = paper.name
    candidates = [name, _ACRONYM_IN_PARENS.sub("", name).strip()]
    # an acronym has two capitals or a digit: "Multi-A(rmed)/B(andit) Testing" has none ("andit" would match "and
    # it"), nor has "Guarantees for (Regularized) Wasserstein ..." (a question saying "regularized" names no paper)
    candidates += [a for a in _ACRONYM_IN_PARENS.findall(name)
                   if sum(c.isupper() for c in a) >= 2 or any(c.isdigit() for c in a)]
    prefix, _, rest = name.partition("-")
    if rest and " " not in name and _SIZE_OR_VERSION.match(rest) and not is_common_acronym(prefix):
        # "ViDiC-1K" is also called "ViDiC"; but "LLaVA-Med" is not "LLaVA", nor "LLM-Pruner" "LLM".
        candidates.append(prefix)
    for cand in candidates:
        norm = normalise(cand)
        if len(norm) < MIN_ALIAS_CHARS or len(cand.split()) > MAX_NAME_WORDS:
            continue
        if " " in cand.strip():
            # A multi-word name only counts when it is a proper noun phrase ("Phase-Adaptive Fusion").
            if all(w[:1].isupper() for w in cand.split()):
                aliases.add((norm, False))
            continue
        if is_common_acronym(cand):
            continue  # "URL", "GAN": a question using them rarely means this one paper
        if _is_word_like(norm):
            # Spelled like a word ("AND", "REFINE", "LargeST"): only the exact spelling names the paper.
            if cand.isalnum():
                aliases.add((cand, True))
        elif _is_coined(cand):
            aliases.add((norm, False))
        elif cand.isupper():
            aliases.add((cand, True))  # PROVE must not match "prove"
    return aliases


def _deletions(text: str) -> set[str]:
    """``text`` with one letter (not its first) left out, every way."""
    return {text[:i] + text[i + 1:] for i in range(1, len(text))}


class PaperCatalog:
    """All loaded papers by id, with a name index tolerant of case, hyphens and spacing."""

    def __init__(self, papers: Iterable[Paper] = ()):
        self.papers: dict[str, Paper] = {}
        self._by_alias: dict[str, set[str]] = defaultdict(set)
        self._by_exact: dict[str, set[str]] = defaultdict(set)
        self._by_exact_lower: dict[str, set[str]] = defaultdict(set)  # the same, for a name slot (_NAME_SLOT)
        self._plain: set[str] = set()  # aliases that are phrases of ordinary words
        self._short_forms: dict[tuple[str, str], str] = {}  # (paper id, acronym) -> the long form the name gives
        self._phrase_papers: dict[str, int] = {}
        self._word_papers: dict[tuple[str, bool], int] = {}
        self._normalised_texts: list[str] = []
        self._lower_texts: dict[str, str] = {}
        self._by_deletion: dict[str, set[str]] = {}  # long multi-word names by each one-letter deletion (lazy)
        self._by_first_author: dict[str, set[str]] = defaultdict(set)  # surname, lower case
        self._by_author: dict[str, set[str]] = defaultdict(set)  # any author's surname (surname_key)
        self._by_full_name: dict[str, set[str]] = defaultdict(set)  # any author's full name (full_name_key)
        self._series: SeriesParts | None = None  # lazy
        self._coined: CoinedNames | None = None  # lazy
        self.add(papers)

    def add(self, papers: Iterable[Paper]) -> None:
        for paper in papers:
            self.papers[paper.paper_id] = paper
            if paper.authors:
                self._by_first_author[paper.authors[0].split()[-1].lower()].add(paper.paper_id)
            for author in paper.authors:
                self._by_author[surname_key(author)].add(paper.paper_id)
                for key in full_name_keys(author):
                    self._by_full_name[key].add(paper.paper_id)
            for alias, exact in name_aliases(paper):
                (self._by_exact if exact else self._by_alias)[alias].add(paper.paper_id)
                if exact:
                    self._by_exact_lower[alias.lower()].add(paper.paper_id)
            name = _ACRONYM_IN_PARENS.sub("", paper.name).strip()
            if is_plain_phrase(name):
                self._plain.add(normalise(name))
                for acronym in _ACRONYM_IN_PARENS.findall(paper.name):
                    self._short_forms[paper.paper_id, acronym.lower()] = normalise(name)
        self._phrase_papers.clear()
        self._word_papers.clear()
        self._normalised_texts.clear()
        self._lower_texts.clear()
        self._by_deletion.clear()
        self._series = None
        self._coined = None

    def __len__(self) -> int:
        return len(self.papers)

    def __contains__(self, paper_id: str) -> bool:
        return paper_id in self.papers

    def get(self, paper_id: str) -> Paper | None:
        return self.papers.get(paper_id)

    def lower_texts(self) -> dict[str, str]:
        """Each paper's title and abstract in lower case, by id: made once, searched by every question (a designation
        may be in the title alone: "... of the IMBH Candidate SDSS J144850.08+160803.1")."""
        if not self._lower_texts:
            self._lower_texts = {pid: f"{p.title}\n{p.text}".lower() for pid, p in self.papers.items()}
        return self._lower_texts

    def writes_any(self, stems: tuple[str, ...]) -> bool:
        """Whether some loaded paper's title or abstract writes a word starting with one of the stems."""
        patterns = [re.compile(rf"(?<![a-z]){re.escape(stem.lower())}") for stem in stems if stem]
        return any(p.search(text) for p in patterns for text in self.lower_texts().values())

    def named_in(self, question: str) -> list[str]:
        """Ids of papers whose name appears in the question, in order of appearance."""
        return list(dict.fromkeys(pid for _, _, pid in self.mentions(question)))

    def mentions(self, text: str) -> list[tuple[int, int, str]]:
        """Where papers are named in the text: (start char, end char, paper id), in order."""
        words = list(_WORD.finditer(text))
        found: dict[str, tuple[int, int]] = {}
        for start in range(len(words)):
            for size in range(min(MAX_NAME_WORDS, len(words) - start), 0, -1):
                span = [m.group() for m in words[start : start + size]]
                alias = "".join(span).lower()
                hits = self._by_alias.get(alias, set()) if self._names_a_paper(alias) else set()
                if size == 1:
                    if hits and not self._names_one_paper(span[0]):
                        hits = set()
                    # a name spelled as its paper spells it, unless many abstracts write it so: "ALMA", the name of
                    # one ALMA survey, is the telescope a dozen other papers used
                    if (exact := self._by_exact.get(span[0], set())) and \
                            self._papers_writing(span[0], exact=True) <= MAX_PHRASE_PAPERS:
                        hits = hits | exact
                    # "SMC" of "Sequential Monte Carlo (SMC)" is as much a field's term as the words it stands for
                    hits = {pid for pid in hits if self._names_a_paper(self._short_forms.get((pid, alias), alias))}
                elif not hits and len(alias) >= MIN_FUZZY_CHARS:
                    hits = self._one_edit_from(alias)
                end = words[start + size - 1].end()
                if hits and _USED_AS_MODIFIER.match(text, end):
                    continue
                for pid in hits:
                    found.setdefault(pid, (words[start].start(), end))
        for quote in _QUOTED.finditer(text):  # a title quoted in full or shortened: 'Gaia's faintest stars'
            for pid in self.titled(quote.group(1)):
                found.setdefault(pid, quote.span(1))
        for cited in _AUTHOR_CITED.finditer(text):  # "Hastings et al.", "Diósi's comment": its first author's paper
            papers = self._by_first_author.get(cited.group("surname").lower(), set())
            if len(papers) == 1 and (cited.group("et_al") or cited.group("surname").lower() not in dictionary_words()):
                found.setdefault(next(iter(papers)), cited.span())
        for start, end, papers in self.cited_authors(text):  # "Sharma & Lesgourgues": the one paper both wrote
            if len(papers) == 1:
                found.setdefault(next(iter(papers)), (start, end))
        if self._series is None:
            self._series = SeriesParts(self.papers.values())
        if self._coined is None:
            self._coined = CoinedNames(self.papers.values(), lambda name: self._papers_writing(name, exact=True))
        # "part III ... beyond part II" of a series; "LAPS", a name one abstract coins for its own work
        for start, end, pid in self._series.named(text) + self._coined.named(text):
            found.setdefault(pid, (start, end))
        for slot in _NAME_SLOT.finditer(text):
            for group in ("alone", "left", "right"):
                for pid in self._by_exact_lower.get((slot.group(group) or "").lower(), ()):
                    found.setdefault(pid, slot.span(group))
        # papers named at one place in the order of their ids: the same on every run, whatever the order of a set
        return sorted(((a, b, pid) for pid, (a, b) in found.items()), key=lambda m: (m[0], -m[1], m[2]))

    def cited_authors(self, text: str, any_case: bool = False) -> list[tuple[int, int, frozenset[str]]]:
        """Where the text cites papers by their authors, and the papers: two or more surnames together ("Sharma &
        Lesgourgues") cite the papers all of them wrote; an author's full name ("Olesia Dmytruk's two cavity papers")
        that author's papers, typed in lower case too with ``any_case``; "Dorsett et al." the papers of that first
        author. Surnames no loaded paper's authors share cite nothing."""
        full_name = _FULL_NAME_ANY_CASE if any_case else _FULL_NAME
        cited = [(m.start(1), m.end(1), frozenset(papers)) for m in full_name.finditer(text)
                 if (papers := self._by_full_name.get(full_name_key(m.group(1))))]
        for group in _AUTHORS_CITED.finditer(text):
            surnames = re.findall(_SURNAME, group.group())
            papers = set.intersection(*(self._by_author.get(surname_key(name), set()) for name in surnames))
            inside = [n for n, (a, b, _) in enumerate(cited) if a <= group.start() < b]
            if not papers:
                continue
            if not inside:
                cited.append((group.start(), group.end(), frozenset(papers)))
            elif group.end() > cited[inside[0]][1]:
                # "Agnoletto, Da Silva, Nardulli and Resende": the full name "Da Silva" opens the list, which goes on
                start, _, named = cited[inside[0]]
                cited[inside[0]] = (start, group.end(), named & frozenset(papers) or named)
        for first in _AUTHOR_CITED.finditer(text):
            if first.group("et_al") and not any(a <= first.start() < b for a, b, _ in cited):
                if papers := self._by_first_author.get(first.group("surname").lower(), set()):
                    cited.append((first.start(), first.end(), frozenset(papers)))
        return cited

    def surnamed(self, text: str) -> list[frozenset[str]]:
        """The papers of each author a comparison names by the surname alone ("Danchin posted two ... papers"): a
        capitalised word no dictionary has that is a loaded paper's author's surname; two surnames a hyphen joins
        ("the two Ferrari-Lederman preprints"), where no author has that double surname, cite the papers both wrote.
        Only a comparison reads them so: in a lookup "the Wang-Yau mass" names a quantity, not a paper."""
        cited = []
        for m in _SURNAME_ALONE.finditer(text):
            names = m.group().split("-") if surname_key(m.group()) not in self._by_author else [m.group()]
            if len(names) > 1 or names[0].lower() not in dictionary_words():  # a pair of co-authors is no word
                papers = set.intersection(*(self._by_author.get(surname_key(name), set()) for name in names))
                cited += [frozenset(papers)] if papers else []
        return cited

    def by_surnames_written(self, text: str) -> set[str]:
        """The papers of every author whose surname the text writes capitalised, alone or hyphen-joined to others'
        ("Wheeler's paper", "the Bouin-Dolbeault-Mellet one"): whose a described paper may be, dictionary word or not."""
        words = {part for word in re.findall(r"(?<![\w-])[A-Z][\w-]*", text) for part in [word, *word.split("-")]}
        return set().union(*(self._by_author.get(surname_key(word), set()) for word in words))

    def titled(self, quoted: str) -> list[str]:
        """The one paper whose title is, starts with or holds the quoted words (at least QUOTED_TITLE_WORDS), if one."""
        words = _WORD.findall(quoted.lower())
        if len(words) < QUOTED_TITLE_WORDS:
            return []
        key = f" {' '.join(words)} "
        hits = [pid for pid, paper in self.papers.items() if key in f" {' '.join(_WORD.findall(paper.title.lower()))} "]
        return hits if len(hits) == 1 else []

    def without_name(self, text: str, paper_id: str) -> str:
        """The text with the paper's name cut out: what it asks of that paper ("How much faster is Patch Rebirth
        Inversion than dense inversion?" -> "How much faster is than dense inversion?")."""
        name = self.papers[paper_id].name  # as a follow-up's rewrite writes it, though not every name is an alias
        text = re.sub(re.escape(name), " ", text, flags=re.I)
        for start, end, pid in reversed(self.mentions(text)):
            if pid == paper_id:
                text = text[:start] + text[end:]
        return " ".join(text.split())

    def _one_edit_from(self, text: str) -> set[str]:
        """Papers whose multi-word name is one letter from ``text`` (substituted, added or missing: symmetric
        deletions), never in its first letter."""
        if not self._by_deletion:
            for paper in self.papers.values():
                name = _ACRONYM_IN_PARENS.sub("", paper.name).strip()
                alias = normalise(name)
                words = name.split()
                if len(words) > 1 and len(alias) >= MIN_FUZZY_CHARS and all(w[:1].isupper() for w in words):
                    for variant in {alias} | _deletions(alias):
                        self._by_deletion.setdefault(variant, set()).add(alias)
        aliases = set().union(*(self._by_deletion.get(v, set()) for v in {text} | _deletions(text)))
        return set().union(*(self._by_alias.get(a, set()) for a in aliases if self._names_a_paper(a)))

    def _names_one_paper(self, word: str) -> bool:
        """Does a one-word name, as the question spells it, point to its paper rather than a word or technique many
        abstracts write ("prune", "LoRA", "SVRG")?"""
        if self._papers_writing(word.lower(), exact=False) <= MAX_PHRASE_PAPERS:
            return True
        return not word.islower() and self._papers_writing(word, exact=True) <= MAX_PHRASE_PAPERS

    def _papers_writing(self, word: str, exact: bool) -> int:
        """How many abstracts write the word whole (in exactly that case when ``exact``)."""
        if (word, exact) not in self._word_papers:
            pattern = re.compile(rf"(?<!\w){re.escape(word)}(?!\w)")
            texts = (p.text for p in self.papers.values()) if exact else self.lower_texts().values()
            self._word_papers[word, exact] = sum(1 for text in texts if word in text and pattern.search(text))
        return self._word_papers[word, exact]

    def _names_a_paper(self, alias: str) -> bool:
        if alias not in self._plain:
            return True
        if alias not in self._phrase_papers:
            if not self._normalised_texts:
                self._normalised_texts = [normalise(p.text) for p in self.papers.values()]
            self._phrase_papers[alias] = sum(alias in text for text in self._normalised_texts)
        return self._phrase_papers[alias] <= MAX_PHRASE_PAPERS
