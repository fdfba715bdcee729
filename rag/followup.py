"""Follow-up questions: find the papers earlier turns were about and rewrite "it" / "the second one" as their names."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rag.catalog import PaperCatalog
from rag.extractive import REFUSAL_LEAD
from rag.intent import WHICH_QUESTION
from rag.sides import COMPARE_CUE
from rag.terms import content_words, mentions_term, stems
from rag.types import Answer
from store.paper import Paper

History = Sequence[tuple[str, "str | Answer"]]  # earlier turns: the Answer objects, or their text

_BOLD = re.compile(r"\*\*(.+?)\*\*")
# The noun a reference to one paper may use: "the second one", "this method", "the other benchmark".
_REFERENT = r"(?:one|paper|work|method|benchmark|study|model|approach|framework|dataset)"
# An ordinal of time or sequence is no paper ("the 3rd year", "after the second dose"): a written-out ordinal before
# such a noun, or a numeral one before any word but a referent.
_SEQUENCE_NOUN = (r"(?:year|month|week|day|hour|dose|visit|trimester|quarter|cycle|round|wave|phase|stage|grade|line"
                  r"|generation|time|session|trial|infusion|injection|decade|author|epoch|step|layer|iteration)s?")
_ORDINAL = re.compile(rf"\b(?:the\s+)?(?:(first|second|third|fourth|fifth|last|former|latter)(?!\s+{_SEQUENCE_NOUN}\b)|"
                      rf"(1st|2nd|3rd|4th|5th)(?=\s+{_REFERENT}\b|\s*(?:[^\w\s]|$)))(?:\s+{_REFERENT})?\b", re.I)
_ORDINAL_INDEX = {"first": 0, "second": 1, "third": 2, "fourth": 3, "fifth": 4, "former": 0, "last": -1, "latter": -1,
                  "1st": 0, "2nd": 1, "3rd": 2, "4th": 3, "5th": 4}
# "Compare the first two", "the last three papers": several papers by position.
_ORDINAL_GROUP = re.compile(
    r"\b(?:the\s+)?(first|top|last)\s+(two|three|2|3)\b(?:\s+(?:ones|papers|works|methods|benchmarks|results))?", re.I)
_COUNT = {"two": 2, "three": 3, "2": 2, "3": 3}
_SINGULAR = re.compile(
    # (not "the benchmark papers": a kind of paper, as a list asks for)
    rf"\b(?:this|that|the)\s+{_REFERENT}\b(?![\s-]+(?:papers|works|studies|ones)\b)|\bits\b|\bit\b"
    # "how does that compare with PatchKV?": a base-form verb after it, so never a relative "that" ("a method that
    # compares")
    r"|\b(?:this|that)\b(?=\s+(?:compare|differ|relate|fare|stack up)\b)",
    re.I,
)
# "the other one": of two papers, the one the conversation is not on.
_OTHER = re.compile(rf"\bthe\s+other(?:\s+{_REFERENT})?(?=\s*[?.!,]|\s*$|\s+{_REFERENT}\b)", re.I)
# "the KV cache one", "the dehazing paper": an earlier paper by what it is about.
_DESCRIBED = re.compile(rf"\bthe\s+((?:[\w-]+\s+){{1,3}}?){_REFERENT}\b(?!\s+(?:that|which|who|on|about|of|for|with)\b)",
                        re.I)
# What leads up to such a reference when the question proper follows it ("Going back to the KV cache one, ...").
_LEAD_IN = re.compile(r"^\W*(?:(?:ok|okay|so|and|now)\W+)*(?:(?:going|coming)\s+back\s+to|back\s+to|returning\s+to"
                      r"|regarding|about|as\s+for|on|for)\s+$", re.I)
_NOT_DESCRIPTIVE = frozenset("first second third fourth fifth last former latter other same previous earlier next new "
                             "above following whole single".split())
_PLURAL = re.compile(r"\b(?:both(?: of them)?|the two|these(?: two)?(?: papers)?|those(?: two)?(?: papers)?|them"
                     r"|(?<=which )one)\b", re.I)  # "which one is about training?": which of the papers discussed
_THEY = re.compile(r"\b(?:they|their|them)\b", re.I)
_LIST_ANSWER = re.compile(r"^Found \d+ papers|^\|\s*Paper\s*\|", re.M)
# What is left of an elliptical follow-up once its reference is taken out ("and the second one?", "what about it?",
# "same for the first one?"): it asks the previous question again, about another paper.
_ELLIPSIS = re.compile(r"^\W*(?:(?:and|ok|okay|so|now)\W+)*(?:(?:what|how)\s+about|same\s+for|for|about)?\W*"
                       r"(?:then|too|please)?\W*$", re.I)
_MAX_PLURAL = 3
# A hand-written answer that describes several papers ("Two stand out: one ..., and another ...") is read part by part.
_SEVERAL = re.compile(r"\b(?:another|the other|the second|the latter)\b"
                      r"|\b(?:two|three|both)\b(?=[^.]*\b(?:papers?|works?|stand out|of them|studies)\b)"
                      r"|(?:^|[.;:]\s+)(?:second(?:ly)?|next|then)\s*,"  # "First, PAF, .... Second, a method ..."
                      r"|\bthere(?:'s|\s+is|\s+are)\s+also\b"  # "... There's also a unified 4D model ..."
                      r"|(?:^|[.;:]\s+)one\s+(?:paper|study|work|method|approach)\b", re.I)  # "One paper uses ... X ..."
_PARTS = re.compile(r"(?<=[.;:])\s+|,?\s+(?:and|while|whereas)\s+(?=(?:another|the other|the second|one|a second)\b)"
                    r"|,\s+(?=(?:another|the other|the second)\b)", re.I)
_PART_MIN_WORDS = 3
# A part that only announces the papers to come ("Two stand out.", "Three relevant ones:"): it describes none.
_ANNOUNCEMENT = re.compile(r"^\W*(?:two|three|four|both|several|a few)\b[^.:;]{0,40}?\b(?:stand out|of them|relevant"
                           r"(?:\s+ones?)?|papers?|works?|studies|candidates?|options?)\W*$", re.I)
# Turns looked back over for the papers of "the two" when the last turn was about one paper.
DISCUSSED_TURNS = 3
# Which earlier answer a reference is to: "the two papers from your first answer", "both papers you mentioned first".
_TURN_POINTER = re.compile(
    r",?\s*\b(?:(?:from|in|of)\s+(?:your|the)\s+(?P<which>first|second|third|previous|last|latest|earlier)\s+"
    r"(?:answer|reply|response|message)"
    r"|(?:that\s+)?you\s+(?:mentioned|listed|named|gave|cited|brought\s+up)\s+(?P<when>first|at\s+first|initially"
    r"|earlier|before|at\s+the\s+(?:start|beginning)))\b", re.I)
_TURN_INDEX = {"first": 0, "second": 1, "third": 2, "at first": 0, "initially": 0, "at the start": 0,
               "at the beginning": 0, "previous": -1, "last": -1, "latest": -1, "earlier": -2, "before": -2}


@dataclass
class Resolution:
    """The standalone form of a question, and the earlier papers it refers to (empty when it stands alone)."""

    question: str
    papers: list[Paper] = field(default_factory=list)

    @property
    def rewritten(self) -> bool:
        return bool(self.papers)


def turn_text(answer: str | Answer) -> str:
    """An earlier turn's answer as text: history may hold the ``Answer`` objects themselves or their text."""
    return answer.text if isinstance(answer, Answer) else answer


def papers_in_focus(history: History, catalog: PaperCatalog,
                    find: Callable[[str], list[Paper]] | None = None) -> tuple[list[Paper], bool]:
    """Papers of the latest turn that had any, in order of first appearance in its answer, and whether that
    answer listed several papers (a which-list or a comparison) rather than answering about one.

    With ``find``, for a hand-written history that names no paper: a turn describing several papers lists those
    found for its parts, a follow-up turn ("how many models does the first one test?") is about the paper it resolves
    to, and otherwise the papers are retrieved for the last turn's text.
    """
    for turn in range(len(history) - 1, -1, -1):
        question, answer = history[turn]
        ordered, listing = _turn_papers(question, answer, catalog, find)
        if ordered:
            return ordered, listing
        if find is not None and turn and _refers_back(question):  # "how many models does the first one test?"
            earlier = resolve_followup(question, history[:turn], catalog, find)
            if earlier.papers:
                return earlier.papers, False
    if find is not None:
        question, answer = history[-1]
        return find(f"{question} {turn_text(answer)}")[:1], False
    return [], False


def _described_papers(answer: str, catalog: PaperCatalog, find: Callable[[str], list[Paper]]) -> list[Paper]:
    """The papers an answer describes one after another ("one analyzes token dynamics ..., and another studies axial
    attention"; "First, PAF, a plug-in .... Second, a method that predicts scene graphs ..."): for each part, the paper
    it names, or else the paper found for it, in order."""
    papers: dict[str, Paper] = {}
    # papers shown together come from one batch: "PAF ... Another paper predicts scene graphs ..." means the scene-graph
    # paper of PAF's year, not an older near-twin that a search finds first
    years = {p.year for p in _papers_in_text(_without_tools(answer, catalog), catalog) if p.year is not None}
    for part in _PARTS.split(answer):
        announces = part.rstrip().endswith(":") or _ANNOUNCEMENT.match(part)  # "Two stand out:"
        if len(content_words(part)) >= _PART_MIN_WORDS and not announces:
            found = _papers_in_text(_without_tools(part, catalog), catalog) or find(part)
            for paper in ([p for p in found if p.year in years] or found)[:1]:
                papers.setdefault(paper.paper_id, paper)
    return list(papers.values())


# A name a described paper works with, not its own: "a frozen CLIP ViT adapted with LoRA", "evaluated on LIBERO".
_TOOL_LEAD = re.compile(r"\b(?:with|using|via|on|over|through)\s+(?:the\s+|a\s+)?$", re.I)


def _without_tools(part: str, catalog: PaperCatalog) -> str:
    """An answer with the names of what its papers work with blanked out."""
    for start, end, _ in reversed(catalog.mentions(part)):
        if _TOOL_LEAD.search(part[:start]):
            part = part[:start] + " " * (end - start) + part[end:]
    return part


def _turn_papers(question: str, answer: str | Answer, catalog: PaperCatalog,
                 find: Callable[[str], list[Paper]] | None = None) -> tuple[list[Paper], bool]:
    """The papers of one turn, in order of first appearance in its answer, and whether the answer listed several;
    none for a refusal (the closest papers it names are not what the conversation is about). An earlier ``Answer``
    gives its cited papers; a text is read for the papers it names. With ``find``, an answer naming no paper but
    describing several one after another (a hand-written history) lists those found."""
    if isinstance(answer, Answer):
        cited = [] if answer.refused else list({c.paper.paper_id: c.paper for c in answer.citations}.values())
        return cited, answer.kind in ("which", "comparison") or len(cited) > 1
    if answer.lstrip().startswith(REFUSAL_LEAD):
        return [], False
    in_answer = _papers_in_text(_without_tools(answer, catalog), catalog)
    in_question = [catalog.papers[pid] for pid in catalog.named_in(question)]
    if len(in_answer) < 2 and not in_question and find is not None and _SEVERAL.search(answer):
        described = _described_papers(answer, catalog, find)  # some papers named, the others only described
        if len(described) > 1:
            return described, True
        if not in_answer:
            return [], False
    ordered = list({p.paper_id: p for p in in_answer + in_question}.values())
    listing = bool(_LIST_ANSWER.search(answer)) or (len(in_answer) > 1 and not in_question)
    if in_question and not listing:  # the paper the user asked about leads
        ordered = in_question + [p for p in ordered if p not in in_question]
    return ordered, listing


def _papers_of_turn(question: str, answer: str, catalog: PaperCatalog,
                    find: Callable[[str], list[Paper]] | None) -> list[Paper]:
    """The papers of one turn; with ``find``, for a hand-written turn naming none, the paper found for its text (not
    for a follow-up turn: "how many models does the first one test? 16 multimodal LLMs." describes no paper)."""
    papers, _ = _turn_papers(question, answer, catalog, find)
    if (not papers and find is not None and not turn_text(answer).lstrip().startswith(REFUSAL_LEAD)
            and not _refers_back(question)):
        papers = find(f"{question} {turn_text(answer)}")[:1]
    return papers


def papers_discussed(history: History, catalog: PaperCatalog, turns: int = DISCUSSED_TURNS,
                     find: Callable[[str], list[Paper]] | None = None) -> list[Paper]:
    """The papers the last ``turns`` turns were about, one per turn (its lead paper), oldest first: what "the two"
    and "the first one" mean after "What is PatchKV?" then "And PipeFSDP?" (with ``find``, also after turns that
    only describe their paper)."""
    leads: list[Paper] = []
    for question, answer in history[-turns:]:
        ordered = _papers_of_turn(question, answer, catalog, find)
        if ordered:
            leads = [p for p in leads if p.paper_id != ordered[0].paper_id] + [ordered[0]]  # latest mention counts
    return leads


def latest_listing(history: History, catalog: PaperCatalog, turns: int = DISCUSSED_TURNS,
                   find: Callable[[str], list[Paper]] | None = None) -> list[Paper]:
    """The papers of the most recent of the last ``turns`` turns whose answer listed several: what "the second one"
    counts in after a list and a question about its first paper."""
    for question, answer in reversed(history[-turns:]):
        ordered, listing = _turn_papers(question, answer, catalog, find)
        if listing and len(ordered) > 1:
            return ordered
    return []


def _papers_in_text(text: str, catalog: PaperCatalog) -> list[Paper]:
    """Papers an answer shows: bold names (exact) first-come, then any other catalog name it mentions."""
    found: dict[str, tuple[int, Paper]] = {}
    for match in _BOLD.finditer(text):
        name = match.group(1).strip()
        same = [p for p in catalog.papers.values() if p.name == name]
        if len(same) > 1:  # several papers share the name: the one whose abstract the answer quotes
            context = content_words(text[match.end() : match.end() + 600])
            same.sort(key=lambda p: len(content_words(p.text) & context), reverse=True)
        if same:
            found.setdefault(same[0].paper_id, (match.start(), same[0]))
    for start, _, pid in catalog.mentions(_BOLD.sub(lambda m: " " * len(m.group()), text)):
        found.setdefault(pid, (start, catalog.papers[pid]))
    return [paper for _, paper in sorted(found.values(), key=lambda x: x[0])]


def resolve_followup(question: str, history: History, catalog: PaperCatalog,
                     find: Callable[[str], list[Paper]] | None = None) -> Resolution:
    """Rewrite references to earlier papers ("it", "the second one", "both") with their names.

    A pronoun is only resolved when the question names no paper before it ("How does PipeFSDP work and
    what does it improve?" stands alone); ordinals always refer to the previous answer's order.
    """
    if not history:
        return Resolution(question)
    if pointer := _TURN_POINTER.search(question):  # the conversation up to the answer pointed at
        said = " ".join((pointer.group("which") or pointer.group("when")).lower().split())
        turn = _TURN_INDEX[said]
        history = history[:turn % len(history) + 1] if -len(history) <= turn < len(history) else history
        question = question[:pointer.start()] + question[pointer.end():]
    if not _refers_back(question):
        return Resolution(question)
    focus, listing = papers_in_focus(history, catalog, find)
    if not focus:
        return Resolution(question)
    mentions = catalog.mentions(question)
    first_named = mentions[0][0] if mentions else len(question)
    # After one paper per turn ("What is PatchKV?", "And PipeFSDP?"), "the first one" and "the two" count turns; after
    # a list and a question about one of its papers, they count in the list.
    sequence, in_list = _counted_papers(history, catalog, focus, find)

    described = _described_reference(question, history, catalog, find)
    if described is not None:
        match, paper = described
        after = question[match.end():].lstrip()
        pronoun = _SINGULAR.search(after)
        if _LEAD_IN.match(question[:match.start()]) and after.startswith(",") and pronoun:
            # "Going back to the KV cache one, does it need training?": "Does PatchKV need training?"
            name = paper.name + "'s" if pronoun.group().lower() == "its" else paper.name
            asked = _replace(after, pronoun, name).lstrip(", ")
            return Resolution(asked[:1].upper() + asked[1:], [paper])
        # "How many MLLMs did the pathology benchmark test, and is it the same as the physics one?": two papers
        rest = question[match.end():]
        second = _described_reference(rest, history, catalog, find)
        if second is not None and second[1] != paper:
            rest = _replace(rest, second[0], second[1].name)
            return Resolution(_replace(question[:match.end()], match, paper.name) + rest, [paper, second[1]])
        return Resolution(_replace(question, match, paper.name), [paper])

    other = _OTHER.search(question)
    # after one paper, "the other one" is the paper before it; after an answer on two, the second of them
    rest = [p for p in sequence if p not in focus] if len(focus) == 1 else focus[1:] if len(focus) == 2 else []
    if other and other.start() < first_named and rest:
        rewritten = _ask_again(question, other, rest[0].name, history, catalog)
        return Resolution(rewritten or _replace(question, other, rest[0].name), [rest[0]])

    group = _ORDINAL_GROUP.search(question)
    if group and group.start() < first_named and len(sequence) > 1:
        count = _COUNT[group.group(2).lower()]
        papers = sequence[-count:] if group.group(1).lower() == "last" else sequence[:count]
        return Resolution(_replace(question, group, _join_names(papers)), papers)

    ordinal = _ORDINAL.search(question)
    if ordinal and ordinal.start() < first_named + 1:
        index = _ORDINAL_INDEX[(ordinal.group(1) or ordinal.group(2)).lower()]
        if index < len(sequence):
            paper = sequence[index]
            # "for the first one what did they validate it on, and for the second what bound do they prove?": each
            # ordinal names its paper
            more = [(m, sequence[i]) for m in list(_ORDINAL.finditer(question))[1:]
                    if (i := _ORDINAL_INDEX[(m.group(1) or m.group(2)).lower()]) < len(sequence) and sequence[i] != paper]
            if more:
                for match, other_paper in reversed(more):
                    question = _replace(question, match, other_paper.name)
                return Resolution(_replace(question, ordinal, paper.name), [paper, *(p for _, p in more)])
            rewritten = _ask_again(question, ordinal, paper.name, history, catalog)
            return Resolution(rewritten or _replace(question, ordinal, paper.name), [paper])

    plural = _PLURAL.search(question)
    if plural and plural.start() < first_named and len(sequence) > 1:
        papers = sequence[:_MAX_PLURAL] if in_list else sequence[-_MAX_PLURAL:]
        names = ("of " if plural.group().lower() == "one" else "") + _join_names(papers)
        return Resolution(_replace(question, plural, names), papers)

    singular = _SINGULAR.search(question)
    if singular and singular.start() < first_named:
        paper = focus[0]
        name = paper.name + "'s" if singular.group().lower() == "its" else paper.name
        rewritten = _ask_again(question, singular, name, history, catalog)
        return Resolution(rewritten or _replace(question, singular, name), [paper])

    they = _THEY.search(question)
    if they and they.start() < first_named and not WHICH_QUESTION.search(question):
        if listing and len(focus) > 1:
            papers = focus[:_MAX_PLURAL]
        elif COMPARE_CUE.search(question) and len(sequence) > 1:  # "How do they differ?" after one paper per turn
            papers = sequence[-_MAX_PLURAL:]
        else:
            papers = focus[:1]
        return Resolution(f"{_join_names(papers)}: {question}", papers)
    return Resolution(question)


def _described_reference(question: str, history: History, catalog: PaperCatalog,
                         find: Callable[[str], list[Paper]] | None) -> tuple[re.Match, Paper] | None:
    """ "the KV cache one": the reference, and the one paper of the conversation whose abstract has every content word
    of its description (None when no paper or several do)."""
    match = _DESCRIBED.search(question)
    if match is None or catalog.named_in(question):
        return None
    words = [w for w in content_words(match.group(1)) if w not in _NOT_DESCRIPTIVE and len(w) > 1]
    if not words:
        return None
    earlier: dict[str, Paper] = {}
    for turn_question, answer in history:
        earlier.update((p.paper_id, p) for p in _papers_of_turn(turn_question, answer, catalog, find))
    fitting = [p for p in earlier.values() if all(mentions_term(w, stems(p.text)) for w in words)]
    return (match, fitting[0]) if len(fitting) == 1 else None


def _counted_papers(history: History, catalog: PaperCatalog, focus: list[Paper],
                    find: Callable[[str], list[Paper]] | None = None) -> tuple[list[Paper], bool]:
    """What ordinals and "the two" count in, and whether it is a list's order (else one paper per turn, oldest
    first): the latest turn's papers when it has several, else the papers of the last turns when they are several,
    else the latest list's."""
    if len(focus) > 1:
        return focus, True
    discussed = papers_discussed(history, catalog, find=find)
    if len(discussed) > 1:
        return discussed, False
    listed = latest_listing(history, catalog, find=find)
    return (listed, True) if listed else (discussed or focus, False)


def _refers_back(question: str) -> bool:
    return any(r.search(question) for r in (_ORDINAL_GROUP, _ORDINAL, _OTHER, _DESCRIBED, _PLURAL, _SINGULAR, _THEY))


def _replace(question: str, match: re.Match, name: str) -> str:
    return question[: match.start()] + name + question[match.end() :]


def _ask_again(question: str, match: re.Match, name: str, history: History, catalog: PaperCatalog) -> str | None:
    """For an elliptical follow-up ("and the second one?"), the previous question about the named paper ("What
    datasets does PhysDNet report results on?"); None when the question has words of its own, or the previous one
    refers to its paper in no way we can replace."""
    if not _ELLIPSIS.match(question[: match.start()] + question[match.end() :]):
        return None
    previous = history[-1][0]
    base = name.removesuffix("'s")
    reference = next((m for m in (r.search(previous) for r in (_ORDINAL, _SINGULAR)) if m), None)
    if reference is not None:
        own = base + "'s" if reference.group().lower() == "its" else base
        return previous[: reference.start()] + own + previous[reference.end() :]
    named = catalog.mentions(previous)
    if named:
        start, end, _ = named[0]
        return previous[:start] + base + previous[end:]
    return None


def _join_names(papers: list[Paper]) -> str:
    names = [p.name for p in papers]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def condense_with_llm(llm, settings, question: str, history: History, focus: list[Paper]) -> str:
    """The standalone question written by the LLM with prompts/condense.txt (raises LLMUnavailable)."""
    from prompts import load_prompt
    from rag.generate import one_line_reply

    template = load_prompt("condense", settings.llm.prompts_dir)
    turns = "\n".join(f"User: {q}\nAssistant: {turn_text(a)[:1200]}" for q, a in history[-3:])
    prompt = template.format(history=turns, papers="; ".join(p.name for p in focus), question=question)
    return one_line_reply(llm, prompt, "rewrite")
