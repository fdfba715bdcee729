"""Write a lookup: the answer from the papers the judge chose, quoting the sentences that answer, a detail the
abstract lacks declared not stated; with an LLM, the LLM writes it from numbered sources."""

from __future__ import annotations

import re
from collections.abc import Generator, Sequence

from rag.asked import CLAIM_CHECK, coined_terms
from rag.claims import NumberMismatch, check_claimed_numbers
from rag.compare import introducing_sentence
from rag.detail_answer import detail_answer, detail_support
from rag.extractive import rank_sentences, refusal, states_amount
from rag.find import PaperFinder, model_names
from rag.focus import guessed_after_ask, offered_examples, writes_name
from rag.intent import Intent
from rag.judge import PaperJudge
from rag.verdict import Verdict
from rag.llm_write import sources_for, write_with_llm
from rag.retrieve import PaperHit
from rag.sides import COMPARE_CUE
from rag.stated import NOT_STATED_BELOW, asked_detail, stated_reader
from rag.terms import content_words, dictionary_words, question_terms
from rag.types import Answer, DetailAsk
from store.paper import Paper
from store.tokens import is_common_acronym


# A closing question about the paper's content ("... how fast does it run?"), not a bare "Has anyone done that?".
_CONTENT_ASK = re.compile(r"\b(?:how|what|whats|what's|which|when|where|why|does|do|did|is|are|was|were)\b", re.I)
# A closing question asking for an amount ("How long were the contexts they tested?", "how many GPUs?").
_AMOUNT_QUESTION = re.compile(r"^\W*(?:and\s+)?(?:by\s+)?how\s+(?:much|many|long|big|large|fast|quickly|often)\b"
                              r"|^\W*(?:and\s+)?(?:what|which)\s+(?:\w+\s+)?(?:statistics?|figures?|numbers?|percentages?"
                              r"|fractions?|proportions?|shares?|rates?)\b", re.I)
# A choice of names offered ("which encoder does PhyProbe use, V-JEPA or VideoMAE or something else?").
_NAMES_OFFERED = re.compile(r"[,(:]\s*(?:e\.g\.\s*|like\s+)?[A-Z][\w.-]*\s+or\s+[A-Z][\w.-]*|\bor\s+something\s+else\b")
# What introduces a baseline a result is measured against: "improve over TorchTitan", "compared with SMI".
_BASELINE_LEAD = r"\b(?:compared\s+(?:with|to)|relative\s+to|over|than|against)"
# Words of chat, not of the topic, that question_terms keeps ("tell", "show", "let" are asking words already):
# "Could you point me to it", "I'm curious".
_CHAT_WORDS = frozenset("point help like please thanks thank wondering curious roughly".split())
# Asking what a paper is, not how it works: "What is X (about)?", "What does X do?", "Tell me about X", "Summarize X".
_WHAT_IT_IS = re.compile(r"^\W*(?:tl;?dr\b|what(?:'s|\s+is|\s+are)\b|what\s+(?:does|do)\b.*\bdo\W*$"
                         r"|tell\s+(?:me\s+)?(?:more\s+)?about\b"
                         r"|(?:give\s+(?:me\s+)?)?(?:an?\s+)?(?:overview|summary|summari[sz]e|describe)\b)", re.I)


def stated_given_guesses(detail: DetailAsk, paper: Paper, sentences: list[tuple[str, object]], question: str,
                         guesses: Sequence[str]) -> str | None:
    """The sentence stating a detail, the asker's guesses at it deciding first: none written ("which filters (e.g. B,
    V, R, I?)" of an abstract naming no filter), a sentence only mentioning filters does not state which; a guess
    closing the question that the abstract writes ("which instrument ...? FORS2?") is answered by the sentence writing
    it (a bracket may name the subject instead: "the five extensions (MinerBlock, AdGuard...)")."""
    if detail.record or not guesses:
        return detail_support(detail, paper, sentences)
    said = f"{paper.title} {paper.text}"
    if not any(writes_name(said, name) for name in guesses):
        return None
    closing = [name for name in guessed_after_ask(question) if writes_name(said, name)]
    return detail_support(detail, paper, sentences) or next(
        (text for text, _ in sentences if any(writes_name(text, name) for name in closing)), None)


class LookupWriter:
    """Writes the answer to a question about one paper (or a few)."""

    def __init__(self, chat, find: PaperFinder, judge: PaperJudge):
        self.chat, self.find, self.judge = chat, find, judge

    def write(self, question: str, intent: Intent, verdict: Verdict) -> Generator[str, None, Answer]:
        """The answer to the judge's verdict; a hedged one leads with what it is: the closest paper, not a match.
        With an LLM, the LLM reads the closest papers of a hedged verdict itself and says whether any answers."""
        hedged = verdict.hedged and not self.chat.has_llm
        chosen = [] if verdict.hedged and self.chat.has_llm else verdict.chosen
        answer = yield from self.write_from(question, intent, chosen, verdict.hits, verdict.gap)
        answer.probability = verdict.probability
        if hedged and not answer.refused:
            answer.hedge(chosen[0].paper, verdict.gap)
        return answer

    def write_from(self, question: str, intent: Intent, chosen: list[PaperHit], hits: list[PaperHit],
                   gap: str = "") -> Generator[str, None, Answer]:
        """The answer from the papers the judge chose (a refusal stating ``gap`` when it chose none): the sentences
        answering the question quoted and cited, a detail the abstract lacks declared not stated, or, with an LLM,
        the LLM's answer from the candidates (it, not the offline judge, decides which answer)."""
        if not chosen and self.chat.has_llm:  # the LLM, not the offline checks, judges the candidates
            return (yield from write_with_llm(self.chat, question, sources_for([], hits), hits,
                                              offline=lambda: refusal(hits, reason=gap)))
        if not chosen:
            return refusal(hits, reason=gap)
        hits = chosen + [h for h in hits if h not in chosen]
        # the examples offered of the thing asked say what it is when the wording named no detail ("which density
        # model (NRLMSISE-00? Jacchia?)"), and whether a detail read is stated when it named one (stated_given_guesses)
        examples = offered_examples(question)
        main = chosen[0]
        intent.details += self.unmentioned_names(question, main.paper, [] if intent.details else examples)
        # offline, the stated reader judges whether the abstract answers at all (an LLM reads the abstract itself)
        unanswered = not self.chat.has_llm and stated_reader().score(question, main.paper) < NOT_STATED_BELOW
        if intent.details:
            sentences = self.chat.store.sentences([main.paper.paper_id])[main.paper.paper_id]
            found = [(d, stated_given_guesses(d, main.paper, sentences, question, examples)) for d in intent.details]
            if unanswered:
                # a sentence sharing only a word with the thing asked does not state it; one holding the answer's own
                # form (a number, a name, a pattern, a guess the asker offered) still does
                found = [(d, s if s and (d.record or d.shape or d.wants_number or d.wants_name
                                         or any(writes_name(s, name) for name in examples)) else None)
                         for d, s in found]
            missing = [d for d, s in found if s is None]
            stated = [(d, s) for d, s in found if s is not None]
            def not_stated() -> Answer:
                return detail_answer(question, self.chat.question_vec(question, main.paper), main, sentences, missing,
                                     stated, hits)

            # the record's fields (authors, year) are ours to say; a gap in the abstract too, offline
            if any(d.record for d in intent.details) or (missing and not self.chat.has_llm):
                return not_stated()
            quote_first = [s for _, s in stated]  # an LLM reads them in the abstract; an extract must quote them
        elif unanswered:
            sentences = self.chat.store.sentences([main.paper.paper_id])[main.paper.paper_id]
            return detail_answer(question, self.chat.question_vec(question, main.paper), main, sentences,
                                 [asked_detail(question)], [], hits)
        elif intent.aspects and not self.chat.has_llm:
            # "What problem does VISD solve?": the sentence stating the problem, as the comparison table would pick it.
            paper = main.paper
            own = self.chat.store.sentences([paper.paper_id])[paper.paper_id]
            cells = self.chat.aspect_classifier.assign(own, paper.name)
            quote_first = list(dict.fromkeys(self.introduction(question, paper)
                                             + [cells[a].quote for a in intent.aspects if cells[a].quote]))
        else:
            quote_first = self.closing_ask(question, main.paper) or self.introduction(question, main.paper)
        mismatch = self.number_claimed_otherwise(question, main.paper)
        if mismatch:  # "Is it true that it has about 15,000 problems?": the sentence giving 11,586 leads
            quote_first = [mismatch.sentence] + [q for q in quote_first if q != mismatch.sentence]
        if self.chat.has_llm:
            offline = not_stated if intent.details and missing else (
                lambda: self.chat.write_extractive(question, chosen, hits, quote_first))
            answer = yield from write_with_llm(self.chat, question, sources_for(chosen, hits), hits, offline=offline)
        else:
            answer = self.chat.write_extractive(question, chosen, hits, quote_first)
        if mismatch and not answer.refused:
            cited = [c.n for c in answer.citations if c.paper.paper_id == main.paper.paper_id]
            answer.lead_with(mismatch.say(f" [{cited[0]}]" if cited else ""))
        return answer

    def number_claimed_otherwise(self, question: str, paper: Paper) -> NumberMismatch | None:
        """For a yes/no check of a number ("Is it true that PhysElite has about 15,000 problems?"), where the paper's
        abstract gives another number for the same thing."""
        if not any(CLAIM_CHECK.search(part) for part in re.split(r"(?<=[.!?])\s+", question.strip())):
            return None
        own = self.chat.store.sentences([paper.paper_id])[paper.paper_id]
        return check_claimed_numbers(question, [text for text, _ in own])

    def closing_ask(self, question: str, paper: Paper) -> list[str]:
        """For a description followed by a question ("I'm looking for a fog-removal network ... Could you tell me how
        fast it runs and at what power draw?"): the sentence of the paper that best answers the closing question,
        quoted first; none when that question asks only which paper it is ("Which one was it?")."""
        # "... paper - what change do they make?", "..., what bound does it prove?"
        parts = re.split(r"(?<=[.!?])\s+|\s[-\u2013\u2014]+\s|,\s+(?=(?:what|how)\b)", question.strip(), flags=re.I)
        ask = parts[-1]
        if len(parts) < 2 or not ask.endswith("?") or not _CONTENT_ASK.search(ask):
            return []
        amount = _AMOUNT_QUESTION.search(ask)  # "What statistic do they give?": only a number answers it
        if not amount and len([w for w in question_terms(ask, ignore=content_words(paper.name))
                               if w not in _CHAT_WORDS]) < 2:
            return []
        own = self.chat.store.sentences([paper.paper_id])[paper.paper_id]
        ranked = rank_sentences(self.chat.question_vec(ask), ask, own, ignore=content_words(paper.name), answering=True)
        if amount:  # "How long were the contexts they tested?"
            ranked = [s for s in ranked if states_amount(s.text)] or ranked
        return [ranked[0].text] if ranked else []

    def introduction(self, question: str, paper: Paper) -> list[str]:
        """For a question asking only what a paper it names is ("What is PhyProbe?", "Tell me about ViDiC-1K",
        "Summarize VISD"): the sentence bringing the paper in, quoted first; none for any other question."""
        asked = self.chat.catalog.without_name(question, paper.paper_id)
        if asked == question.strip() or question_terms(asked) or not _WHAT_IT_IS.search(asked):
            return []
        own = self.chat.store.sentences([paper.paper_id])[paper.paper_id]
        return [sentence] if (sentence := introducing_sentence(paper, own)) else []

    def unmentioned_names(self, question: str, paper: Paper, examples: Sequence[str] = ()) -> list[DetailAsk]:
        """For a claim checked of one paper ("Does PhyProbe use V-JEPA as its encoder?", "Is it true that it ran on
        Pythia?"), or a choice of names offered ("V-JEPA or VideoMAE?", the ``examples`` of "which pose model (e.g.
        MediaPipe, OpenPose)") none of which it writes: the models, datasets or tools it names that the paper's
        abstract never mentions, each a detail the abstract does not state (the answer says so instead of quoting the
        encoder sentence as if it agreed)."""
        offered = _NAMES_OFFERED.search(question) or examples
        if not (CLAIM_CHECK.search(question) or offered):
            return []
        # the paper's title and its authors say which paper is meant ("did Grieninger et al. get ..."), not what it uses
        text = f"{paper.title} {' '.join(paper.authors)} {paper.text}".lower()
        own = {w.lower() for w in re.findall(r"[\w-]+", paper.name)}
        near = tuple(w for w in content_words(question) if len(w) > 4)  # what the closest sentence should touch
        words = dictionary_words()
        names = [name for name in model_names(question) if name.lower() not in own
                 and not self.chat.catalog.named_in(name)
                 # an English compound ("AI-generated", "Chinese-English") names no model or dataset
                 and not all(part.lower() in words or is_common_acronym(part) for part in name.split("-"))]
        names += [name for name in examples if name not in names and not self.chat.catalog.named_in(name)]
        said = f"{paper.title} {paper.text}"

        def written(name: str) -> bool:  # an example as the paper's word ("B" filter, no "b", no author "B. Lee")
            return writes_name(said, name) if name in examples else name.lower() in text
        if offered and not CLAIM_CHECK.search(question) and any(map(written, examples or names)):
            return []  # one of the names offered is the paper's: its sentence answers the choice
        return [DetailAsk(f"use of “{name}”", near, False, False, shape=rf"(?i:(?<!\w){re.escape(name)}(?!\w))")
                for name in names if not written(name)]

    def unloaded_sides(self, question: str, pinned: list[str]) -> list[str]:
        """The names a comparison sets against the one paper it names that are no loaded paper's ("Compare PatchKV
        and FlashAttention"): the answer says so instead of describing PatchKV as if that were the comparison."""
        if len(pinned) != 1 or not COMPARE_CUE.search(question):
            return []
        # a well-known acronym is what the papers work on ("... sparse model inversion for ViTs"), not a paper; nor is
        # the baseline the paper itself measures against ("How much does PipeFSDP improve over TorchTitan?")
        own = self.chat.catalog.lower_texts()[pinned[0]]
        return [term for term in coined_terms(question, self.chat.catalog.mentions(question))
                if not self.chat.catalog.named_in(term)
                and not (term.lower() in own and re.search(rf"{_BASELINE_LEAD}\s+(?:the\s+)?{re.escape(term)}\b", question, re.I))]
