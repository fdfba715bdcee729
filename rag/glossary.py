"""The loaded corpus's own acronyms and their long forms, and the everyday words for its terms: questions and abstracts read in each other's words."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from functools import cached_property, lru_cache

from rag.acronyms import field_acronyms, tables_in_use, units_named
from rag.relevance import plain_phrases
from rag.terms import CASED_WORD, dictionary_words, phrase_key
from store.acronyms import defined_acronyms

# An acronym is spelled out only when at least this share of the abstracts defining it agree on what it stands for
# ("RL": reinforcement learning 176 of 177; "PC": predictive coding 2 of 5 is ambiguous).
ACRONYM_AGREEMENT = 0.6


# Characters before "(ACRONYM)" that can hold its long form.
DEFINITION_REACH = 120


class AcronymGlossary:
    """What the acronyms of a corpus stand for, as its abstracts define them ("LLMs" -> "Large Language Models"),
    looked up on demand: only abstracts that write "(ACRONYM)" are parsed; the field's usual acronyms
    (``field_acronyms``) fill in those the corpus leaves undefined ("NIR" -> "near-infrared")."""

    def __init__(self, texts: Iterable[str]):
        self.texts = list(texts)
        self._long_forms: dict[str, str | None] = {}  # per instance: a reload drops it with the old texts
        self._all_forms: dict[str, tuple[str, ...]] = {}
        self._used: dict[str, bool] = {}  # everyday phrases: does some abstract use it

    def long_form(self, acronym: str) -> str | None:
        """The long form most abstracts give the acronym, when they mostly agree."""
        if acronym not in self._long_forms:
            self._long_forms[acronym] = self._majority_long_form(acronym)
        return self._long_forms[acronym]

    def long_forms(self, acronym: str) -> tuple[str, ...]:
        """What the acronym stands for: the corpus's own long form when its abstracts agree on one ("PC": the field
        has no single meaning for it), else the field's, with their other spellings ("backprop" for "BP")."""
        if acronym not in self._all_forms:
            singular = acronym if acronym in field_acronyms() else acronym[:-1] if acronym.endswith("s") else acronym
            field = field_acronyms().get(singular, ())
            own = self.long_form(acronym)
            if own and phrase_key(own) not in {phrase_key(f) for f in field}:
                field = (own,)
            self._all_forms[acronym] = field or ((own,) if own else ())
        return self._all_forms[acronym]

    def with_long_forms(self, text: str) -> str:
        """The text followed by the long forms of the field acronyms it uses ("fuses NIR imagery" also says
        "near-infrared") and the names of the units it measures in ("<4W": "watt"), for matching a question's words
        against it."""
        words = {part for w in CASED_WORD.findall(text) for part in w.split("-")}
        known = field_acronyms()
        forms = [f for w in sorted(words) if (w in known or (w.endswith("s") and w[:-1] in known))
                 and not re.search(rf"\({re.escape(w.rstrip('s'))}s?\)", text)  # defined there, maybe otherwise
                 for f in self.long_forms(w)]
        forms += units_named(text)
        return f"{text} ({'; '.join(forms)})" if forms else text

    def in_own_words(self, question: str, text: str) -> str:
        """The question with each long form it spells out put as the acronym where the text writes only the acronym
        ("a near-infrared camera" -> "a NIR camera" for an abstract on "NIR imagery"): each paper is matched in its
        own words, and the idea still counts once."""
        for acronym, written, forms in _field_patterns(tables_in_use()):
            found = next(((form, m) for form, pattern in forms if (m := pattern.search(question))), None)
            if found is None or not written.search(text) or any(pattern.search(text) for _, pattern in forms):
                continue
            form, match = found
            if form in self.long_forms(acronym):  # the corpus means the same by it
                plural = "s" if len(match.group()) > len(form) else ""
                question = f"{question[:match.start()]}{acronym}{plural}{question[match.end():]}"
        return question

    def _majority_long_form(self, acronym: str) -> str | None:
        singular = acronym[:-1] if acronym.endswith("s") else acronym
        marks = (f"({singular})", f"({singular}s)")
        forms: Counter[str] = Counter()
        written: dict[str, Counter[str]] = {}
        for text in self.texts:
            at = max(text.find(marks[0]), text.find(marks[1]))
            if at >= 0:  # parse only the definition's neighbourhood: a long form has at most 8 words
                long_form = defined_acronyms(text[max(0, at - DEFINITION_REACH):at + len(singular) + 3]).get(singular)
                if long_form:
                    key = phrase_key(long_form)
                    forms[key] += 1
                    written.setdefault(key, Counter())[long_form] += 1
        if not forms:
            return None
        key, count = forms.most_common(1)[0]
        if count < ACRONYM_AGREEMENT * sum(forms.values()):
            return None
        return written[key].most_common(1)[0][0]  # as most abstracts write it

    def for_search(self, question: str) -> str:
        """The question as searched: its acronyms spelled out, and its everyday phrases in the field's terms ("giant
        chatbot models trained on graphics chips" -> "large language models trained on GPUs")."""
        return self.spell_out(self.in_field_terms(question))

    def in_field_terms(self, question: str) -> str:
        """The question with each everyday phrase for a field term put as that term ("graphics chips" -> "GPUs"),
        unless some abstract uses the phrase itself ("brain-inspired")."""
        for phrase, term in plain_phrases(question):
            if self._uses(phrase.lower()):
                continue
            singular, _, plural = term.partition("|")
            term = plural if plural and phrase.lower().endswith("s") else singular  # "one photo": "one image"
            question = question.replace(phrase, term, 1)
        return question

    def _uses(self, phrase: str) -> bool:
        """Whether some abstract uses the (lower-case) phrase; each phrase searched for once."""
        if phrase not in self._used:
            self._used[phrase] = re.search(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])", self._lower_texts) is not None
        return self._used[phrase]

    @cached_property
    def _lower_texts(self) -> str:
        return "\n".join(self.texts).lower()

    def spell_out(self, question: str) -> str:
        """The question with the long form after each acronym it uses ("multimodal LLMs" -> "multimodal LLMs (Large
        Language Models)"), so it matches abstracts that spell them out; unchanged when there is none."""
        for written in dict.fromkeys(CASED_WORD.findall(question)):
            acronym = written if sum(c.isupper() for c in written) >= 2 else self._typed_lower(written)
            if not acronym:
                continue
            long_form = next(iter(self.long_forms(acronym)), None)
            if long_form and acronym not in field_acronyms() and acronym[:-1] in field_acronyms():
                long_form += "s"  # "VLMs": "vision-language models"
            if long_form and long_form.lower() not in question.lower():
                question = re.sub(rf"(?<![\w-]){re.escape(written)}(?![\w-])", f"{written} ({long_form})", question, count=1)
        return question

    def spelled_out(self, word: str) -> tuple[str, ...]:
        """What a question word typed as an acronym stands for ("llms": "Large Language Models"); () for others."""
        acronym = self._typed_lower(word)
        return self.long_forms(acronym[:-1] if acronym.endswith("s") else acronym) if acronym else ()

    def _typed_lower(self, word: str) -> str | None:
        """The acronym a word typed in lower case stands for ("gnn" -> "GNN", "vlms" -> "VLMs"), when the corpus
        defines it and the word is no English word ("map", "art")."""
        if not (word.isalnum() and word.islower() and 2 <= len(word) <= 6) or word in dictionary_words():
            return None
        for acronym in (word.upper(), word[:-1].upper() + "s" if word.endswith("s") else ""):
            if acronym and self.long_forms(acronym.rstrip("s") if acronym.endswith("s") else acronym):
                return acronym
        return None


@lru_cache(maxsize=2)
def _field_patterns(tables_apply: bool) -> list[tuple[str, re.Pattern, list[tuple[str, re.Pattern]]]]:
    """Each field acronym, a pattern finding it in a text, and patterns finding its long forms, hyphens or spaces
    between their words, singular or plural; none where the field tables do not apply (``tables_apply``, the cache's
    key: patterns built for another field's corpus must not stay for an ML one)."""
    def phrase(form: str) -> re.Pattern:
        words = r"[\s-]+".join(re.escape(w) for w in re.split(r"[\s-]+", form))
        return re.compile(rf"(?<![\w-]){words}s?(?![\w-])", re.IGNORECASE)

    return [(acronym, re.compile(rf"(?<![\w]){re.escape(acronym)}s?(?![\w])"), [(f, phrase(f)) for f in forms])
            for acronym, forms in (field_acronyms().items() if tables_apply else ())]
