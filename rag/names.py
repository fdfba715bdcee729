"""The names and terms of art a question rests on, and whether a paper writes them: a paper that never writes
"M81", "Perseus" or "dengue" is about another object, cluster or disease, however near its wording."""

from __future__ import annotations

import re
from collections.abc import Collection

from rag.asked import (
    CLAIM_ASKED,
    CLAIM_CHECK,
    NAME_ADJECTIVE_ENDINGS,
    NUMBER_WORDS,
    capitalised_words,
    proper_names,
    stated_numbers,
)
from rag.focus import offered_examples
from rag.relevance import absent_terms, essential_words
from rag.spelling import plain_spelling
from rag.terms import dictionary_words, is_english, one_edit_away, spells_initials
from rag.units import asked_unit, measured_in
from store.paper import Paper

# A term of art no longer than this may be an acronym typed in lower case ("npu", "gpus"), not an absent topic.
UNHEARD_MIN_LETTERS = 4
# A name at least this share of the loaded papers write is the field's common vocabulary ("JWST", "Gaia", "SDSS" in
# an astronomy corpus), which a question uses to set the scene, not to tell one paper from another.
COMMON_NAME_SHARE = 0.05
class NameCheck:
    """Which of the question's names and unheard terms of art each paper leaves unwritten."""

    def __init__(self, chat):
        self.chat = chat

    def unwritten(self, question: str, papers: list[Paper], named: bool = True,
                  answers: Collection[str] = ()) -> list[list[str]]:
        """For each paper, the names (rag.asked.proper_names), unheard terms of art and stated numbers
        (rag.asked.stated_numbers: "at 13.6 TeV", "the nu = 12/5 edge") of the question it never writes, nor spells
        out; the corpus's common names, units, the ``answers`` a detail question offers (rag.focus.answer_words:
        "which IMF", "(GRI, ABF, CRECK...)") and the examples of an answer offered (rag.focus.offered_examples) aside.
        A yes/no check's names are a detail of the papers the question names (``named``), and the topic of papers it
        does not ("Did SABRE South's data confirm the DAMA/LIBRA signal?", asked of the DAMA/LIBRA paper alone)."""
        unit = asked_unit(question)  # "in Myr": a unit the answer is in, no name
        names = [n for n in proper_names(question, named) + self.corpus_names(question, named)
                 if not self.common(n) and n != unit and not measured_in(n, question)
                 and not any(n in (word, *re.split(r"[_()]", word)) for word in answers)]  # "sigma" of "sigma_8"
        names += self.unheard_terms(question, named)
        # nor are the names offered as examples of the answer ("which laser system, e.g. OMEGA EP or PHELIX?")
        offered = {word.lower() for name in offered_examples(question) for word in (name, *name.split())}
        names = [name for name in names if name.lower() not in offered]
        numbers = [] if named and CLAIM_CHECK.search(question) or CLAIM_ASKED.search(question) else [
            n for n in stated_numbers(question) if not any(n in word for word in answers)]
        if not names and not numbers:
            return [[] for _ in papers]
        texts = [self.searchable(paper) for paper in papers]
        return [[n for n in names if not self.writes(text, n)] + [n for n in numbers if not _number_written(text, n)]
                for text in texts]

    def corpus_names(self, question: str, named: bool = True) -> list[str]:
        """The question's capitalised English words that the loaded papers write as names (TermStats.written_as_name):
        "Manhattan", "Geneva", "Australian" where no paper writes them. An adjective made of a name that the papers use
        ("Gaussian") is the field's method word; a word of two letters is a unit or an element ("Hz", "Mg")."""
        if named and CLAIM_CHECK.search(question):
            return []
        stats = self.chat.term_stats
        return [w for w in capitalised_words(question) if len(w) > 2 and w.lower() in dictionary_words()
                and stats.written_as_name(w) and not (w.endswith(NAME_ADJECTIVE_ENDINGS) and stats.writes(w))]

    def unheard_terms(self, question: str, named: bool = True) -> list[str]:
        """The terms of art the question rests on that no loaded abstract uses, at any corpus size: "dengue" asked of
        a cholera model, "glioblastoma" of a brain-metastases dataset. An English word no abstract uses may be the
        asker's paraphrase ("blurry", "underconfident"); a term of art (rag.terms.is_english) is not; a yes/no
        check's terms are the not-stated path's."""
        if named and CLAIM_CHECK.search(question):
            return []
        absent = [w for w in absent_terms(question, self.chat.term_stats, any_size=True)
                  if len(w) > UNHEARD_MIN_LETTERS and not is_english(w)]
        return essential_words(question, absent, self.chat.embed_texts) if absent else []

    def common(self, name: str) -> bool:
        """Whether COMMON_NAME_SHARE of the loaded papers write the name."""
        pattern = re.compile(rf"(?<![\w-]){re.escape(name.lower())}(?![\w-])")
        texts = self.chat.catalog.lower_texts()
        return sum(1 for text in texts.values() if pattern.search(text)) >= COMMON_NAME_SHARE * max(len(texts), 1)

    def searchable(self, paper: Paper) -> str:
        """The paper's title, authors and abstract, acronyms spelled out, in ``plain_spelling``: "the
        Pope-Rohrer-Whiting paper" names a paper by its authors."""
        authors = " ".join(paper.authors)
        return plain_spelling(f"{paper.title} {authors} {self.chat.glossary.with_long_forms(paper.text)}")

    def writes(self, text: str, name: str) -> bool:
        """Whether a paper's ``searchable`` text writes the name (spaced or not: "21cm"), as the words its
        letters stand for ("CMB": "cosmic microwave background"), or one typo from it ("PipeFSP"); of a compound,
        its parts that are names ("LLM" of "LLM-driven"); of a plural acronym, its singular."""
        pieces = [p for p in re.split(r"[-/]", name) if p]
        parts = [p for p in pieces if p.lower() not in dictionary_words()]
        if len(pieces) > 1 and parts:  # "B7-H3/CD276" written "CD276/B7-H3"
            return all(self.writes(text, part) for part in parts)
        if re.fullmatch(r"[A-Z]{2,}s", name):  # "CTLs": "CTL"
            name = name[:-1]
        low = plain_spelling(name)
        forms = self.chat.glossary.spelled_out(name) or self.chat.glossary.long_forms(name)
        if _written(low, text) or any(form.lower() in text for form in forms):
            return True
        if name.isupper() and name.isalpha() and 2 <= len(name) <= 6 and spells_initials(low, text):
            return True  # its initials: "cosmic microwave background"
        return len(name) >= 6 and bool(one_edit_away(low) & set(re.findall(r"[\w+./-]+", text)))


def _written(name: str, text: str) -> bool:
    """Whether the text writes the name, spaces inside it or not ("21cm": "21 cm"), but not as the start of a longer
    number: "XXI" is not written by "And XXIII", nor "M3" by "M31"."""
    spaced = r"\s?".join(re.escape(c) for c in name if not c.isspace())
    longer = r"(?![ivxlc])" if re.fullmatch(r"[ivxlc]+", name) else r"(?!\d)" if name[-1:].isdigit() else ""
    return re.search(spaced + longer, text) is not None


def _number_written(text: str, number: str) -> bool:
    """Whether the text writes the number, not as part of a longer one ("13" is not written by "13.6" or "130"), or,
    from zero to twelve, as a word; a number stated as a word ("eight") is written as that word or its digits; an
    approximate one ("~7", "~430") by any number it rounds from to as many significant digits ("7.1", "432")."""
    if number.startswith("~"):
        number = number[1:]
        digits = len(number.replace(".", "").strip("0")) or 1
        if any(_rounded(float(x), digits) == float(number) for x in re.findall(r"(?<![\d.])\d+(?:\.\d+)?", text)):
            return True
    if number in NUMBER_WORDS:
        number = str(NUMBER_WORDS.index(number))
    if re.search(rf"(?<![\d.]){re.escape(number)}(?!\d|\.\d)", text):
        return True
    return number.isdigit() and int(number) < len(NUMBER_WORDS) and re.search(
        rf"\b{NUMBER_WORDS[int(number)]}\b", text) is not None


def _rounded(x: float, digits: int) -> float:
    """x to this many significant digits."""
    return float(f"{x:.{digits}g}") if x else 0.0
