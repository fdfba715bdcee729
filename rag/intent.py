"""What a question asks for: a comparison, a list of papers, or one paper; and any specific detail it wants."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum

from rag.acronyms import broad_fields
from rag.catalog import PaperCatalog
from rag.details import asked_details, asking_sentences
from rag.types import DetailAsk
from rag.sides import COMPARE_CUE, COUNTED_GROUP, compared_group, described_sides


class QuestionKind(str, Enum):
    LOOKUP = "lookup"  # about one paper (named or described)
    COMPARISON = "comparison"  # two or more papers side by side
    WHICH = "which"  # every paper that matches a description


# Misspellings of the words that say what kind of question it is ("how are they diffrent"): read as meant.
_KIND_WORD_TYPOS = {
    "diffrent": "different", "diferent": "different", "differnt": "different", "diffrence": "difference",
    "diference": "difference", "differnce": "difference", "diffrences": "differences", "diferences": "differences",
    "comparision": "comparison", "comapre": "compare", "compair": "compare", "similiar": "similar",
    "similarites": "similarities", "betwen": "between", "beween": "between", "wich": "which", "whcih": "which",
}
_KIND_WORD_TYPO = re.compile(rf"\b(?:{'|'.join(_KIND_WORD_TYPOS)})\b", re.I)


def without_kind_typos(question: str) -> str:
    """The question with misspelt comparison and list words corrected ("diffrent" -> "different")."""
    return _KIND_WORD_TYPO.sub(lambda m: _KIND_WORD_TYPOS[m.group().lower()], question)


# "What work is there on X?", "I need everything on X": lists, asked without the word "papers".
WORK_THERE_ASK = r"what\s+(?:other\s+)?(?:work|research|literature)\s+(?:is\s+there|exists|do\s+you\s+have)"
NEED_ALL_ASK = (r"(?:i\s+(?:need|want)|give\s+me|show\s+me)\s+(?:everything|anything|all\s+(?:the\s+)?(?:work|research))"
             r"\s+(?:on|about|related\s+to|regarding|concerning)")
WHICH_QUESTION = re.compile(
    # after a leading phrase that sets the scope: "Between 2015 and 2018, which papers ..."
    r"^\W*(?:(?:in|since|from|between|before|after|during|among|for)\b[^,?]{0,40},\s*)?"
    r"(?:(?:which|what|how many)\s+(?:(?!(?:paper|work|study|article)\b)\w+\s+){0,2}(?:papers|works|studies|articles"
    r"|submissions|publications|preprints)\b"
    # a search-box query: "biomedical papers pathology cells genes", "papers: spiking nets convergence"
    r"|(?:(?!(?:which|what|how|the|this|that|these|those|your|my|our|their|two|three|four|five|both|\d+)\b)[\w-]+\s+)"
    r"{0,3}papers\b(?!\s*['’])"
    r"(?=\s*:|\s+(?!(?:do|does|did|is|are|was|were|have|has|about|on|that|which|who|of|for|by|in|with|use|using)\b)"
    r"[\w-]+\s+[\w-]+[^?]*$)"
    r"|(?:list|find|show|name|give|recommend|suggest|summari[sz]e|overview)\b.*\b(?:papers|works|studies)\b"
    r"|(?:list|find|show|name|give)\s+(?:me\s+)?(?:the\s+|all\s+(?:the\s+)?)?(?:work\s+(?:on|about|that|which|using|with|in"
    r"|for)|(?:every|each)\s+(?:paper|work|study))\b"
    r"|any\s+(?:papers|works|studies)\b"
    r"|(?:list|find|show)\s+(?:me\s+)?(?:everything|anything|all)\s+(?:on|about|related\s+to|relating\s+to|regarding"
    r"|concerning|to\s+do\s+with)\b"
    r"|(?:are there|do you have|is there any)\s+(?:any\s+)?(?:\w+\s+){0,2}(?:papers|works|studies)\b"
    r"|(?:do|does|did)\s+any\s+(?:\w+\s+)?(?:papers|works|studies)\b"
    r"|(?:(?:any|all)\s+(?:the\s+)?)?(?:papers|works|studies|work)\s+(?:on|about|using|that|with|in|where|whose)\b"
    rf"|{WORK_THERE_ASK}|{NEED_ALL_ASK})"
    r"|\b(?:all|any)\s+(?:the\s+)?(?:papers|works|studies)\s+(?:that|which|on|about)\b"
    # a description, then "Which papers fit?"
    r"|(?:^|[.!?]\s+)which\s+(?:papers|ones|works|studies)\s+(?:fit|match|qualify|apply|are\s+relevant)\W*$"
    # "Does any paper here study X? List every one that does."
    r"|(?:^|[.!?]\s+)(?:please\s+)?(?:list|name)\s+(?:every|each|all)\s+(?:one|of\s+them|such\s+papers?)\b"
    r"|(?:^|[.!?]\s+)(?:please\s+)?(?:list|name)\s+them\s+all\b"
    # "list all the biomedical ones"
    r"|(?:list|name|show)\s+(?:me\s+)?(?:(?:all|every)\s+(?:of\s+)?(?:the\s+)?(?:(?!the\b)[\w-]+\s+){1,3}?ones"
    r"|every\s+(?:(?!the\b)[\w-]+\s+){1,3}?one)\b",
    re.I,
)


@dataclass
class Intent:
    kind: QuestionKind
    named: list[str] = field(default_factory=list)  # paper ids named in the question, in order
    described: list[str] = field(default_factory=list)  # sub-queries for papers described, not named
    details: list[DetailAsk] = field(default_factory=list)
    aspects: list[str] = field(default_factory=list)  # of the paper's abstract: "problem", "approach", "results"
    group: str = ""  # a comparison of the papers on a topic ("Compare the video benchmarks"): that topic
    # worded as a comparison ("vs", "differ", "the two ... papers") though its wording gave fewer than two papers
    sets_side_by_side: bool = False


# "Which benchmarks evaluate MLLMs?": papers of a kind, asked for by the kind; "Which datasets does the deblurring
# paper use?" is not.
_KIND_LIST = re.compile(
    r"^\W*(?:which|what|(?:are there|do you have|do you know)(?:\s+any)?"
    r"|(?:list|show|find|name|give)\s+(?:me\s+)?(?:all\s+|every\s+)?(?:of\s+)?(?:the\s+)?)\s*(?:(?!(?:paper|work|study)\b)\w+\s+)?"
    r"(?:benchmarks|datasets|methods|frameworks|approaches|architectures|algorithms"
    r"|techniques|evaluators|agents)\b(?!\s+(?:does|did|do|is|are|was|were|has|have)\s+(?:the|this|that|it|they)\b)",
    re.I,
)


# "Anything on ...?", "Is anything here about ...?": a list when it names a broad field ("robots", "biomedical data"),
# which many papers may belong to; otherwise a search for the one paper on a topic.
_ANYTHING = re.compile(r"^\W*(?:(?:is|are)\s+(?:there\s+)?)?(?:anything|any\s+(?:work|research))\b", re.I)


def _asks_for_a_field(question: str) -> bool:
    return bool(_ANYTHING.search(question)) and any(broad.search(question) for broad, _ in broad_fields())


def classify(question: str, catalog: PaperCatalog) -> Intent:
    """The kind of the question, the papers it names or describes, and the details it asks for (a bare "what X" that no
    loaded abstract writes asks for the finding: rag.focus.asked_focus)."""
    mentions = catalog.mentions(question)
    named = list(dict.fromkeys(pid for _, _, pid in mentions))
    details = asked_details(question, catalog.writes_any)
    asked = asking_sentences(question)  # "I'm using Qwen models myself. Which papers use Qwen models?"
    after_lead = question.rpartition(": ")[2]  # "For the health track: which submissions belong there?"
    # "I want to get into X. which of the papers focus on that?": a list asked after a statement, typed in lower case
    last = re.split(r"(?<=[.!])\s+", question.strip())[-1]
    described = described_sides(question, mentions) if COMPARE_CUE.search(question) or len(named) >= 2 else []
    # a list's lead setting two papers side by side is a comparison: "HHG papers: reducing CEP dependence by polarization
    # gating vs ultrafast dynamics in monolayer MoS2"; a side that asks for papers itself is no paper ("any papers here
    # on memorization vs generalization": a list on a topic)
    papers_set_side_by_side = len(named) + len(described) >= 2 and not any(map(WHICH_QUESTION.search, described))
    if ((any(WHICH_QUESTION.search(text) for text in (question, asked, after_lead, last)) and len(named) < 2) or (
            (_KIND_LIST.search(question) or _asks_for_a_field(question)) and not named)) and \
            not papers_set_side_by_side:
        return Intent(QuestionKind.WHICH, named, details=details)
    group = compared_group(question) if COMPARE_CUE.search(question) and not named else ""
    if group and COUNTED_GROUP.search(question):  # "the two reverberation-mapping papers": a group the asker counted,
        # and perhaps each of them described ("... - the 2024 mean-field one or the Monte Carlo study?")
        return Intent(QuestionKind.COMPARISON, described=described if len(described) == 2 else [], group=group)
    if len(named) + len(described) >= 2:
        return Intent(QuestionKind.COMPARISON, named, described, details)
    if group:
        return Intent(QuestionKind.COMPARISON, group=group)
    return Intent(QuestionKind.LOOKUP, named, details=details, aspects=asked_aspects(question),
                  sets_side_by_side=bool(COMPARE_CUE.search(question) or COUNTED_GROUP.search(question)))


# What part of an abstract a question about one paper asks for (the aspects of a comparison table).
_ASPECT_ASKS = (
    ("problem", r"\bwhat (?:\w+\s+){0,2}(?:problems?|challenges?|issues?|gaps?)\b|\bmotivat\w*\b|\bwhy\b[^?]*\b(?:needed"
                r"|necessary|matters?|important)\b"),
    ("approach", r"\bhow (?:does|do|did|is|are|was|were)\b[^?]*\b(?:works?|built|designed|trained|computed|implemented"
                 r"|constructed|achieved?|solved?|do(?:es)? (?:it|this|that))\b|\b(?:key|main|core|central|basic) idea\b"
                 r"|\bwhat (?:\w+\s+)?(?:method|technique|approach|architecture|mechanism)\b|\bcontributions?\b"
                 r"|\bsummar(?:y|i[sz]e)\b|\boverview\b|\bwhat does\b[^?]*\bpropose\b"),
    ("results", r"\b(?:main |key )?(?:results?|findings?)\b|\bwhat did\b[^?]*\b(?:find|show|discover|conclude)\b"
                r"|\bhow (?:well|good)\b|\bconclu\w+\b|\bsummar(?:y|i[sz]e)\b|\boverview\b|\bachiev\w*\b"
                r"|\bspeed-?ups?\b|\bhow (?:does|do|did)\b[^?]*\bperform\b"),
)


# "What is PatchKV?", "Tell me about PhysVista", "Describe UniCon3R.": a short question asking what a paper is.
_DESCRIBE_ASK = re.compile(r"^\W*(?:what(?:'s|\s+is|\s+are)|tell\s+me\s+(?:more\s+)?about|describe|explain|introduce)"
                           r"\s+(?:\S+\s*){1,6}$", re.I)


def asked_aspects(question: str) -> list[str]:
    """The aspects of a paper a question asks for ("What problem does VISD solve?": problem), in table order; what a
    paper is ("What is PatchKV?"): its approach and results."""
    asked = [aspect for aspect, pattern in _ASPECT_ASKS if re.search(pattern, question, re.I)]
    return asked or (["approach", "results"] if _DESCRIBE_ASK.match(question.strip()) else [])


