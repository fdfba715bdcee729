"""Retrieve: the candidate papers of a question beyond the hybrid search (rag.retrieve): the papers it names
or pins by a coined term, papers using a model or dataset it names, papers using a rare word of it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rag.asked import capitalised_names, coined_terms
from rag.list_answer import WHICH_MAX_PAPERS
from rag.spelling import plain_spelling
from rag.relevance import GAP_MIN_PAPERS, defines_otherwise
from rag.retrieve import PaperFilters, PaperHit
from rag.terms import ASKING_WORDS, dictionary_words, question_terms, snowball_stem


# A question word of at least RARE_WORD_MIN_LETTERS that at most RARE_WORD_SHARE of a large corpus's papers use points
# to them: up to RARE_WORD_PAPERS of them are rescored with the retrieved ones.
RARE_WORD_MIN_LETTERS = 6
RARE_WORD_SHARE = 0.001
RARE_WORD_PAPERS = 3
MAX_MENTIONED = 2
# Words ruling out what follows: "Qwen3 models (not Qwen2.5)".
_RULED_OUT = r"\b(?:not|except|excluding|other than|besides|apart from|rather than|instead of|but not)"

# Candidates rescored on all their sentences.
RESCORE_POOL = 10


@dataclass
class Candidates:
    """The papers retrieved for a lookup, best first. ``pinned``: the question names them (or a coined term only
    they use, ``by_term``), and they lead the hits; ``query``: the text searched (acronyms spelled out)."""

    hits: list[PaperHit]
    query: str
    pinned: bool = False
    by_term: bool = False

class PaperFinder:
    """Finds the candidate papers of a question; knows nothing of whether they answer it."""

    def __init__(self, chat):
        self.chat = chat
        self.settings = chat.settings
        self.min_rel = chat.settings.retrieval.min_relevance
        self._plain: tuple[dict[str, str], dict[str, str]] = ({}, {})  # the catalog's lower texts, and them plain

    # ---- retrieval ----

    def hits(self, query: str, k: int | None, filters: PaperFilters | None, pinned: Sequence[str] = ()) -> list[PaperHit]:
        """Retrieved papers with the pinned ones (named, or referred to earlier) first, marked named."""
        hits = self.chat.retrieve_hits(query, k, filters)
        if not pinned:
            return hits
        by_id = {h.paper.paper_id: h for h in hits}
        front = []
        for pid in pinned:
            hit = by_id.get(pid) or PaperHit(self.chat.catalog.papers[pid])
            hit.named = True
            front.append(hit)
        return front + [h for h in hits if h.paper.paper_id not in set(pinned)]

    def mentioned(self, question: str, filters: PaperFilters | None, everyday: bool = False) -> list[str]:
        """Papers whose abstract uses a made-up term of the question ("What is OR-GIGPO?"), when only a few do;
        ``everyday``: a well-known acronym too ("Which papers use GRPO?")."""
        ruled_out = {name.lower() for name in ruled_out_names(question)}
        coined = [t for t in coined_terms(question, everyday=everyday) if t.lower() not in ruled_out]
        if not coined:
            return []
        terms = [t.lower() for t in coined]
        users: dict[str, list[str]] = {t: [] for t in terms}
        # A hyphenated variant counts ("GRPO" in "Sync-GRPO"), a longer word does not ("GRPOs" aside); so does an
        # acronym's long form as the corpus defines it: every paper on "gravitational waves" uses "GWs", so "GWs"
        # points to none of them
        written = {t.lower(): re.compile("|".join(rf"(?<!\w){re.escape(form)}s?(?!\w)" for form in self.written_forms(t)))
                   for t in coined}
        # so does the term as LaTeX or a hyphen writes it: "large-N" as "Large $N$", "QED" as "QED$_3$"
        spelled = {t.lower(): spelled_pattern(self.written_forms(t)) for t in coined}
        plain = self.plain_texts()
        for paper_id, text in self.chat.catalog.lower_texts().items():
            for t in terms:
                if len(users[t]) <= MAX_MENTIONED and (written[t].search(text) or spelled[t].search(plain[paper_id])):
                    if filters is None or filters.admits(self.chat.catalog.papers[paper_id]):
                        users[t].append(paper_id)
        # a common term ("SDSS") points to no paper, and leaves the rare one ("J144850.08") pointing to its own
        found = list(dict.fromkeys(pid for t in terms if len(users[t]) <= MAX_MENTIONED for pid in users[t]))
        return found if len(found) <= MAX_MENTIONED else []

    def plain_texts(self) -> dict[str, str]:
        """The catalog's lower-case texts in ``plain_spelling``, hyphens as spaces, by id; made once per catalog."""
        texts = self.chat.catalog.lower_texts()
        if self._plain[0] is not texts:
            self._plain = (texts, {pid: plain_spelling(text).replace("-", " ") for pid, text in texts.items()})
        return self._plain[1]

    def written_forms(self, term: str) -> list[str]:
        """A coined term of a question as abstracts may write it, in lower case: itself, and for an acronym the long
        forms the corpus gives it, singular ("GWs": "gravitational wave")."""
        long_forms = [form.lower() for form in self.chat.glossary.long_forms(term)]
        return list(dict.fromkeys([term.lower()] + [form.removesuffix("s") for form in long_forms]))

    def name_users(self, question: str, filters: PaperFilters | None) -> dict[str, re.Pattern]:
        """Papers using a model, dataset or tool a list question names ("run experiments with Qwen models", "use
        LLaMA"), up to WHICH_MAX_PAPERS for each name, a version written after it included ("Qwen" in "Qwen3-8B"); by
        id, with the name as found in their text. An acronym the abstracts spell out ("LLMs") names a topic, not a
        tool: ``mentioned`` pins it only when rare."""
        found: dict[str, re.Pattern] = {}
        for name in model_names(question) + self.typed_lower(question):
            if self.chat.glossary.long_form(name):
                continue
            pattern = re.compile(rf"(?<!\w){re.escape(name)}(?:[\d.]*\d)?s?(?!\w)", re.IGNORECASE)
            # a paper using the letters for something else is no user ("ctr prediction" and Med-UniC's "CTR")
            users = [p.paper_id for p in self.chat.catalog.papers.values()
                     if pattern.search(p.text) and (filters is None or filters.admits(p))
                     and not defines_otherwise(name, p.text)]
            if len(users) <= WHICH_MAX_PAPERS:
                found.update({pid: pattern for pid in users if pid not in found})
        return found

    def typed_lower(self, question: str) -> list[str]:
        """Names typed in lower case ("all work using qwen models"): words no dictionary has that the abstracts
        write, and only ever capitalised ("Qwen3-8B", "Qwen2.5-VL")."""
        names, catalog = [], self.chat.catalog
        for word in dict.fromkeys(re.findall(r"(?<![\w-])[a-z][a-z\d]{2,}(?![\w-])", question)):
            if word in dictionary_words() or word in ASKING_WORDS:
                continue
            pattern = re.compile(rf"(?<![\w-]){word}", re.IGNORECASE)
            written = {m.group() for pid, text in catalog.lower_texts().items() if word in text
                       for m in pattern.finditer(catalog.papers[pid].text)}
            if written and all(not w.islower() for w in written):
                names.append(min(written))
        return names

    def with_rare_word_users(self, question: str, hits: list[PaperHit], filters: PaperFilters | None) -> list[PaperHit]:
        """The hits with the papers using a word of the question that almost no paper uses ("proprioception") put
        into the rescored pool: among thousands of abstracts the question's common words ("vision-language-action
        policies") fill the retrieved ten with others. Only in a large corpus, where such a word is rare."""
        stats = self.chat.term_stats
        if stats.n < GAP_MIN_PAPERS:
            return hits
        limit = RARE_WORD_SHARE * stats.n
        rare = sorted((stats.stem_df[stem], stem) for w in question_terms(question) if len(w) >= RARE_WORD_MIN_LETTERS
                      for stem in [snowball_stem(w)] if 0 < stats.stem_df[stem] <= limit)
        known = {h.paper.paper_id for h in hits}
        added: list[PaperHit] = []
        for _, stem in rare:
            pattern = re.compile(rf"(?<![\w-]){re.escape(stem)}")
            for pid, text in self.chat.catalog.lower_texts().items():
                if len(added) == RARE_WORD_PAPERS:
                    break
                paper = self.chat.catalog.papers[pid]
                if (pid not in known and stem in text and pattern.search(text)
                        and (filters is None or filters.admits(paper))):
                    added.append(PaperHit(paper))
                    known.add(pid)
        if not added:
            return hits
        keep = RESCORE_POOL - len(added)
        return hits[:keep] + added + hits[keep:]


    def for_lookup(self, question: str, pinned: list[str], k: int | None, filters: PaperFilters | None) -> Candidates:
        """The candidates of a lookup: the pinned papers first (or those a coined term of the question names), else
        the hybrid search's hits for the question with its acronyms spelled out, and the few papers using a rare
        word of it."""
        by_term = not pinned
        if by_term:
            pinned = self.mentioned(question, filters)
        if pinned:
            return Candidates(self.hits(question, k, filters, pinned), question, pinned=True, by_term=by_term)
        query = self.chat.glossary.for_search(question)  # "multimodal LLMs" also finds "large language models"
        return Candidates(self.with_rare_word_users(question, self.hits(query, k, filters), filters), query)


def spelled_pattern(forms: list[str]) -> re.Pattern:
    """The forms of a term as ``PaperFinder.plain_texts`` spell them, a plural or a subscript after them allowed
    ("qed" in "qed3"), but no longer word, nor a longer number after a form ending in a digit."""
    spelled = []
    for form in forms:
        plain = plain_spelling(form).replace("-", " ")
        if not plain.strip():  # a form of markup alone would match anywhere
            continue
        after = r"(?![\w])" if plain[-1:].isdigit() else r"s?(?![a-z])"
        spelled.append(r"(?<![a-z0-9])" + r"\s?".join(re.escape(word) for word in plain.split()) + after)
    return re.compile("|".join(spelled) or r"(?!)")


def model_names(question: str) -> list[str]:
    """Terms that may name a model, dataset or tool: the coined terms ("Qwen3-VL", "LLaMA", "GSM8K"), and
    capitalised words inside a sentence that are no English word ("Qwen", "Mistral"); an adjective made of a name
    ("Gaussian", "Bayesian", "Euclidean") describes a method instead."""
    capitalised = capitalised_names(question)
    # An all-capital acronym ("DNA", "CLIP") is as often a topic as a tool: ``mentioned`` pins it only when rare.
    coined = [t for t in coined_terms(question, everyday=True) if not (t.isupper() and t.isalpha())]
    coined = [re.sub(r"-(?:family|series|generation|based|style|like|class|sized?)$", "", t, flags=re.I) for t in coined]
    ruled_out = ruled_out_names(question)
    return [name for name in dict.fromkeys(coined + capitalised) if name not in ruled_out]


def ruled_out_names(question: str) -> list[str]:
    """The names the question rules out: "Qwen2.5" in "Qwen3 models (not Qwen2.5)"."""
    return [m.group(1) for m in re.finditer(rf"{_RULED_OUT}\s+(?:the\s+|any\s+)?([A-Z][\w.-]*\d[\w.-]*|[A-Z][a-z]*[A-Z][\w.-]*)",
                                            question)]
