"""What a question asks for: a comparison, a list of papers, or one paper; and any specific detail it wants."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum

from rag.acronyms import broad_fields
from rag.catalog import PaperCatalog
from store.naming import _is_common as _is_everyday_acronym


class QuestionKind(str, Enum):
    LOOKUP = "lookup"  # about one paper (named or described)
    COMPARISON = "comparison"  # two or more papers side by side
    WHICH = "which"  # every paper that matches a description


# A described side of at most SHORT_SIDE_WORDS words is searched for with the SIDE_CONTEXT_WORDS words before it.
SHORT_SIDE_WORDS = 3
SIDE_CONTEXT_WORDS = 12
# Two papers described as "one ..., the other ..." (or "another ...").
_ONE_THE_OTHER = re.compile(r"\bone\s+(?P<one>[^?.;:]+?)(?:[,;.]\s*(?:and\s+|while\s+|whereas\s+)?"
                            r"(?:the other|another|a second|the second)|,?\s+and\s+one)\s+(?P<other>[^?.;:,]+)", re.I)
COMPARE_CUE = re.compile(
    r"\b(?:compar\w*|differ\w*|versus|vs\.?|both|unlike|contrast\w*|similarit\w*|in common|each (?:one|of them|paper)"
    r"|relates?\s+to)\b"
    # a choice between papers: "Which is more theoretical, the hyper-connections paper or PhysDNet?"
    r"|^\W*which(?:\s+one|\s+of\s+(?:them|the\s+two|these\s+two))?\s+(?:is|was|has|does|did|uses?|needs?|came)\b"
    r"[^?]*\bor\b"
    # or asked as what to try: "should I try phase-adaptive fusion or the scene-graph thing?"
    r"|\bshould\s+(?:i|we)\s+(?:try|use|pick|choose|go\s+with|adopt|start\s+with)\b[^?]*\bor\b"
    # or set after a lead-in: "Which reports the larger factor, the training framework or the inversion method?"
    r"|^\W*which(?:\s+one)?\s+\w+\b[^?]*(?:[,:]|\s[-\u2013\u2014]+)\s*the\s[^?]*\bor\s+the\b"
    # the choice asked after the papers: "the deblurring paper or the fog removal one: which is faster?"
    r"|\bor\b[^?:]*(?::|\s[-\u2013\u2014]+)\s*which(?:\s+one)?\s+(?:is|was|has|does|did|uses?|needs?|came)\b"
    # "one plugs a module into the vision encoder, the other gives the model tools": two papers set side by side
    rf"|{_ONE_THE_OTHER.pattern}"
    # a question about what two papers share: "Do the cache compensation work and the theory paper share a benchmark?"
    r"|^\W*(?:do|are|were)\s+(?:the|these|those)\b[^?]*\band\b[^?]*\b(?:share|have\s+in\s+common|agree"
    r"|overlap|(?:use|rely\s+on|evaluate\s+on|test\s+on)\s+the\s+same)\b"
    # "Between the physics benchmark and the pathology one, which is bigger?"
    # or "..., does either give a training recipe?"
    r"|^\W*between\s+(?!(?:19|20)\d\d\b)[^?]*\band\b[^?]*,\s*(?:which|(?:does|do|did|is|are|has|have|can)\s+either)\b",
    re.I,
)
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
_WORK_THERE = r"what\s+(?:other\s+)?(?:work|research|literature)\s+(?:is\s+there|exists|do\s+you\s+have)"
_NEED_ALL = (r"(?:i\s+(?:need|want)|give\s+me|show\s+me)\s+(?:everything|anything|all\s+(?:the\s+)?(?:work|research))"
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
    rf"|{_WORK_THERE}|{_NEED_ALL})"
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
# Where the list of compared papers is split into sides.
_SIDE_SEPARATOR = re.compile(r"\s*[,;]\s*(?:and\s+|or\s+|vs\.?\s+|versus\s+)?|\s+(?:and|vs\.?|versus|or|against)\s+"
                             r"|\s+between\s+", re.I)
_COMPARE_WITH = re.compile(r"\b(compar\w*|contrast\w*|differ\w*|relates?)\s+(?:it\s+|them\s+)?"
                           r"(?:to|with|against|from)\s+", re.I)
_COMPARE_THEN_WITH = re.compile(r"\b((?:compar|contrast)\w*\b.*?)\s+(?:with|against)\s+", re.I)
_VERSUS = re.compile(r"\s(?:vs\.?|versus)\s", re.I)
# A side ends where the question about it starts ("... differ", not "spotting fine-grained differences in video pairs").
_AFTER_PAPER_NOUN = r"(?<!paper)(?<!\bone)(?<!work)(?<!study)"
_SIDE_END = re.compile(
    rf"{_AFTER_PAPER_NOUN}\s+comparing\b"  # "the paper comparing X with Y" describes a paper
    r"|\s+(?:compar(?!ing)\w*|differ(?!ences?\s+(?:in|of|among|across)\b)\w*|both|each|all|in terms of|in what"
    r"|in how|regarding|with respect to|do|does|did|are|is|relate|stack up|deal|use|rely|have|has|share"
    r"|look(?:s|ed)?\s+at)\b"
    r"|[:?.!(]|\s[-\u2013\u2014]+\s"  # or a dash
    rf"|{_AFTER_PAPER_NOUN}(?<!that)(?<!which)\s+claim\w*\b",  # so does "the paper claiming ..."
    re.I,
)
_SIDE_LEAD = re.compile(
    r"^\W*(?:(?:how|what|where|in what ways?)\s+(?:do|does|did|are|is)\s+"
    r"|(?:compar(?:e|ing)|contrast(?:ing)?)\s+(?:how\s+|what\s+)?|and\s+"
    # a claim checked of both: "Is it true that both X and Y ...", "Can you confirm that ..."
    r"|is\s+it\s+(?:true|correct|right|the\s+case)\s+that\s+|(?:can\s+you\s+)?confirm\s+(?:that\s+)?|both\s+"
    r"|(?:can|could|would|will)\s+you\s+(?:please\s+)?|please\s+"
    r"|(?:the\s+)?differences?\s+between\s+|between\s+"
    # two subjects: "Do the cache work and the theory paper share ...?" (not "Does the training-framework one ...")
    r"|(?:do|are|were)\s+(?=(?:the|these|those)\s))+",
    re.I,
)
_AUXILIARIES = frozenset("is are do does did has have".split())
# A clause the description embeds: "the paper tracing how ...", "the paper claiming VLMs do notice ...".
_EMBEDDED_QUESTION = re.compile(r"\w\s+(?:how|what|why|whether|where|when|claiming|showing|arguing|finding|suggesting"
                                r"|proving|demonstrating)\s+\w+", re.I)
# Nouns that make a phrase a description of a paper ("the position paper on ...", "the 4D framework").
_PAPER_NOUN = re.compile(
    r"\b(?:paper|work|study|studies|method|approach|framework|benchmark|dataset|model|analysis|system|architecture"
    r"|algorithm|technique|survey|theory|evaluator|planner|agent|defen[cs]e|attack|metric|encoder|network|one"
    r"|proposal|pipeline|policy|module|formulation|reformulation|paradigm|thing|tool|trick)s?\b",
    re.I,
)
# Where a lead-in ends and the sides start: a colon, a dash, or a comma before "the ..." ("Which reports the larger
# factor, the training framework or the inversion method?").
_LEAD_IN = re.compile(r":|\s[\u2014\u2013]+\s|\s--\s|,\s+(?=(?:the|a|an|this|that)\s)", re.I)
_DESCRIPTION_START = re.compile(r"^(?:the|a|an|that|this|those|these|work|paper|papers|study)\b", re.I)
# "the other (one)", "the latter": a reference to a side already given, not a description of another.
_BACK_REFERENCE = re.compile(r"^(?:the\s+)?(?:other|latter|former|rest)\b", re.I)
# "compare against a specific existing system", "the prior state-of-the-art method": the baselines a paper is measured
# against, not another paper of the collection.
_PRIOR_WORK = re.compile(r"^(?:(?:an?|the|any|some)\s+)?(?:(?:specific|particular|single|given|strong)\s+)?"
                         r"(?:existing|prior|previous|earlier|baseline|standard|conventional|established"
                         r"|state-of-the-art|sota|competing)\b", re.I)


@dataclass(frozen=True)
class DetailAsk:
    """A specific detail the question wants ("batch size", "which GPU"): what to look for in an abstract."""

    phrase: str
    terms: tuple[str, ...]  # word stems; a supporting sentence contains one
    wants_number: bool  # a quantity: the sentence must also hold a number
    wants_name: bool  # a named thing (dataset, backbone): the sentence must hold a proper name
    shape: str = ""  # when set, what the answer itself looks like ("A100", "Adam", a URL): a sentence must match it
    record: str = ""  # when set, the field of the paper's record that answers it ("authors", "venue_year")


@dataclass
class Intent:
    kind: QuestionKind
    named: list[str] = field(default_factory=list)  # paper ids named in the question, in order
    described: list[str] = field(default_factory=list)  # sub-queries for papers described, not named
    details: list[DetailAsk] = field(default_factory=list)
    aspects: list[str] = field(default_factory=list)  # of the paper's abstract: "problem", "approach", "results"
    group: str = ""  # a comparison of the papers on a topic ("Compare the video benchmarks"): that topic


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
    """The kind of the question, the papers it names or describes, and the details it asks for."""
    mentions = catalog.mentions(question)
    named = list(dict.fromkeys(pid for _, _, pid in mentions))
    details = asked_details(question)
    asked = asking_sentences(question)  # "I'm using Qwen models myself. Which papers use Qwen models?"
    after_lead = question.rpartition(": ")[2]  # "For the health track: which submissions belong there?"
    # "I want to get into X. which of the papers focus on that?": a list asked after a statement, typed in lower case
    last = re.split(r"(?<=[.!])\s+", question.strip())[-1]
    if (any(WHICH_QUESTION.search(text) for text in (question, asked, after_lead, last)) and len(named) < 2) or (
            (_KIND_LIST.search(question) or _asks_for_a_field(question)) and not named):
        return Intent(QuestionKind.WHICH, named, details=details)
    described = described_sides(question, mentions) if COMPARE_CUE.search(question) or len(named) >= 2 else []
    if len(named) + len(described) >= 2:
        return Intent(QuestionKind.COMPARISON, named, described, details)
    group = compared_group(question) if COMPARE_CUE.search(question) and not named else ""
    if group:
        return Intent(QuestionKind.COMPARISON, group=group)
    return Intent(QuestionKind.LOOKUP, named, details=details, aspects=asked_aspects(question))


# "Compare the video benchmarks", "How do the papers on KV cache compression differ?": the papers of a topic, compared.
_GROUP = re.compile(
    # (not "the one that models blur as ...": "models" there is a verb)
    r"\b(?:the|these|those|all(?:\s+the)?)\s+(?P<kind>(?:(?!(?:one|ones|that|which|who|it|they)\b)[\w-]+\s+){0,4}?)"
    r"(?:papers|benchmarks|methods|approaches"
    r"|frameworks|models|works|studies|datasets|evaluators|agents)\b(?:\s+(?:on|about|for|in|that|which)\s+(?P<about>[^?.!]+))?",
    re.I,
)


def compared_group(question: str) -> str:
    """The topic of the papers a comparison asks about as a group ("Compare the video benchmarks": "video
    benchmarks"), or "" when it compares no group."""
    match = _GROUP.search(question)
    if not match or _ONE_PAPER.search(match.group("kind")):  # "the paper about multimodal models": one paper, sought
        return ""
    kind = match.group(0).split()[-1] if not match.group("about") else ""
    about = _SIDE_END.split(match.group("about") or "")[0]
    words = (match.group("kind") + " " + about + " " + kind).split()
    if all(w.lower() in _GROUP_FILLER for w in words):  # "these two papers": a follow-up's, not a topic
        return ""
    return " ".join(w for w in words if w.lower() not in ("two", "three"))


_GROUP_FILLER = frozenset("papers works studies two three both other".split())
_ONE_PAPER = re.compile(r"\b(?:paper|article|study|work)\b", re.I)


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


# Where a question asking something different of each paper moves on to the next one: "What datasets does PickMoment
# use, and how fast does PhysDNet run?"
_CLAUSE_BREAK = re.compile(r"[;?]\s+|,\s*(?:and|but|while|whereas)\s+|\s+and\s+(?=(?:for|what|how|which|does|did|is|are"
                           r"|was|were|who|when|where|why)\b)", re.I)


def asked_of_each(question: str, mentions: list[tuple[int, int, str]]) -> dict[str, str]:
    """The part of the question asked of each paper, its name left out (every sentence of that paper has it), when it
    asks each its own thing in a clause naming that paper alone ("for PickMoment what did they validate it on, and
    for PhysDNet how fast does it run?"); else empty."""
    breaks = list(_CLAUSE_BREAK.finditer(question))
    starts = [0] + [m.end() for m in breaks]
    ends = [m.start() for m in breaks] + [len(question)]
    asked: dict[str, str] = {}
    for start, end in zip(starts, ends):
        spans = sorted((a, min(b, end)) for a, b, _ in mentions if start <= a < end)
        named = {pid for a, _, pid in mentions if start <= a < end}
        if len(named) > 1:
            return {}
        if named:
            pid = named.pop()
            if pid in asked:
                return {}
            pieces, at = [], start
            for a, b in spans:
                pieces.append(question[at:max(a, at)])
                at = max(at, b)
            asked[pid] = " ".join(" ".join(pieces + [question[at:end]]).split())
    return asked if len(asked) > 1 else {}


def described_sides(question: str, mentions: list[tuple[int, int, str]]) -> list[str]:
    """The compared papers the question describes instead of naming, one sub-query each.

    "How do LaP and the unified generative-predictive 4D framework differ?" -> ["unified generative-predictive
    4D framework"]: the question is split on and/vs/commas; a piece counts when, cut where its question
    starts, it reads as a description of a paper (a noun like paper/framework/study) and names none.
    """
    # "one plugs a module into ..., the other gives the model tools": the two descriptions, when no paper is named
    if not mentions and (pair := _ONE_THE_OTHER.search(question)):
        sides = [pair.group("one").strip(), pair.group("other").strip()]
        # "Two papers discuss memorization vs generalization, one for language models and one for diffusion models":
        # sides this short are found with what the question says of both
        context = " ".join(_said_of_both(question[:pair.start()]).split()[-SIDE_CONTEXT_WORDS:])
        if context and min(len(side.split()) for side in sides) <= SHORT_SIDE_WORDS:
            sides = [f"{context} {side}" for side in sides]
        return sides
    text = _COMPARE_WITH.sub(r"\1 ; ", question)
    with_split = _COMPARE_THEN_WITH.sub(lambda m: m.group(1) + " ; ", text, count=1)
    if with_split == text:
        return _sides(text, mentions)
    # "Compare X with Y" splits at "with", unless that "with" is inside a side: "Contrast the paper comparing
    # predictive coding with backprop and the one on ...". The reading finding more sides wins.
    return max(_sides(with_split, mentions), _sides(text, mentions), key=len)


# A clause that asks rather than states ("How do their approaches differ (").
_QUESTION_START = re.compile(r"\W*(?:how|what|which|why|where|when|who|do|does|did|is|are|can|could|would)\b", re.I)


def _said_of_both(before: str) -> str:
    """What a question says of two papers before setting them side by side as "one ..., the other ...": its
    statements, not its asks ("Could the same reviewer take them?") or a question clause opening the pair ("How do
    their approaches differ (")."""
    sentences = re.split(r"(?<=[.?!])\s+", before.strip(" ,;:("))
    *whole, last = sentences
    kept = [s for s in whole if not s.endswith("?")]
    if not (kept and _QUESTION_START.match(last)):
        kept.append(last)
    return " ".join(kept).strip(" ,;:(")


def _side_end(piece: str) -> re.Match | None:
    """Where the question about a side starts; an auxiliary inside a clause the side's description embeds ("the
    paper tracing how visual information is routed in VLMs") is not that start."""
    for cut in _SIDE_END.finditer(piece):
        if not (cut.group().strip().lower() in _AUXILIARIES and _EMBEDDED_QUESTION.search(piece[:cut.start()])):
            return cut
    return None


def _sides(text: str, mentions: list[tuple[int, int, str]]) -> list[str]:
    """The described sides of a question already split at the "with" of "Compare X with Y" (when it has one)."""
    named_spans = [(a, b) for a, b, _ in mentions]
    pieces, pos = [], 0
    for sep in _SIDE_SEPARATOR.finditer(text):
        pieces.append((pos, sep.start(), sep.group()))
        pos = sep.end()
    pieces.append((pos, len(text), ""))
    sides, carry, before, in_clause = [], "", "", False
    for start, end, sep in pieces:
        piece, before_versus = text[start:end], before
        # "X vs Y": the words just before "vs" and those just after it ("... gains in-distribution versus
        # out-of-distribution" is no side when a question starts between "gains" and "vs")
        versus_after, versus_before = bool(_VERSUS.search(f" {sep} ")), bool(_VERSUS.search(f" {before} "))
        before = sep
        if any(a < end and b > start for a, b in named_spans):
            carry = ""
            continue
        piece = _SIDE_LEAD.sub("", carry + piece)
        lead_in = next((m for m in reversed(list(_LEAD_IN.finditer(piece)))
                        if _DESCRIPTION_START.search(piece[m.end():].strip())), None)
        if lead_in and not _DESCRIPTION_START.search(piece[:lead_in.start()].strip()):
            # "Three papers caught my eye: the convergence analysis ..., the one on ...", "which reports the larger
            # factor — the training framework or the inversion method?"
            piece = piece[lead_in.end():]
        cut = _side_end(piece)
        ended, bracket_open = cut is not None, piece.count("(") > piece.count(")")
        piece = (piece[: cut.start()] if cut else piece).strip(" '\"")
        described = (_PAPER_NOUN.search(piece) and _DESCRIPTION_START.search(piece)
                     and not _BACK_REFERENCE.search(piece) and not _PRIOR_WORK.search(piece))
        adjacent = versus_before or (versus_after and not ended)
        # "X vs Y" needs no "the ... paper"; but after two papers named, "which are benchmarks versus learned
        # evaluators?" sets no third beside them
        named_before = {pid for _, b, pid in mentions if b <= start}
        bare = adjacent and not carry and not _DESCRIPTION_START.search(piece) and len(named_before) < 2
        if bare and versus_before and sides and in_clause:
            # "the framework that splits data by object evidence vs background cues": "vs" inside a side's clause
            sides[-1] = f"{sides[-1]}{before_versus}{piece}"
            in_clause = False
            continue
        in_clause = False
        if len(piece.split()) >= 2 and (described or bare):
            sides.append(re.sub(r"^(?:the|a|an|that|this)\s+", "", piece, flags=re.I))
            # its clause, or its bracket, goes on: "the paper on how visual info flows (direct vs text-mediated)"
            in_clause = bracket_open or (not ended and _RELATIVE_CLAUSE.search(piece) is not None)
            carry = ""
        elif not ended:
            carry = piece + sep  # "the predictive coding versus backprop study": one side, not two
        else:
            carry = ""
    return sides


# A described side going on in a clause of its own ("the framework that splits data by ...").
_RELATIVE_CLAUSE = re.compile(r"\b(?:that|which|who|where)\s+\w+", re.I)


# ---- specific details ----
# (pattern on the question, phrase, stems to find in a sentence, wants a number, wants a name, answer shape); with a
# shape, the stems only mark the sentence that comes closest when none matches it.
_GPU_SHAPE = r"\b(?:[AHVLTP]\d{2,4}|RTX\s?\d{3,4}\w*|TPU\s?v?\d*|MI\d{3}|Ascend\s?\d*\w*|Gaudi\d?|Titan\s?\w+)\b"
# A name inside a sentence: "Sora", "Veo-3", "MuJoCo", "CogVideoX" after a lower-case word (not a sentence's first word).
_CASED_NAME = r"(?<=[a-z,(] )(?:[A-Z][a-z]+[\w.-]*|[A-Z][\w.-]*\d[\w.-]*|[A-Z][a-z]*[A-Z][\w.-]*[a-z][\w.-]*)"
# A model family's name ("GPT-4o", "Qwen2.5-VL-7B", "Claude 3", "Llama-3").
_MODEL_NAME = (r"\b(?:GPT-?[\w.]+|Claude(?:[\s-][\d.]+)?[\w.-]*|Gemini[\w.-]*|Qwen[\w.-]*|L[Ll]a[Mm][Aa][\w.-]*"
               r"|Mistral[\w.-]*|DeepSeek[\w.-]*|InternVL[\w.-]*|LLaVA[\w.-]*|o[134](?:-mini)?)\b")
_DETAILS: tuple[tuple[str, str, tuple[str, ...], bool, bool, str], ...] = (
    # An abstract rarely owns up to limits: only a sentence on the paper's own (not prior work's) answers.
    # Not those of prior work ("What failure modes of earlier methods does it fix?")
    (r"^(?!.*\b(?:fix|address|overcome|remed|tackl|mitigat|solv|resolv)\w*\b)"
     r".*?(?:\blimitations?|\bweakness(?:es)?|\bdrawbacks?|\bshortcomings?|\bfailure (?:cases|modes))\b"
     r"(?!\s+(?:of|in)\s+(?:[\w-]+\s+){0,2}?(?:existing|prior|previous|current|other|earlier|past|older|baseline"
     r"|conventional|standard))", "limitations",
     ("limit", "fail", "drawback", "weakness"), False, False,
     r"\b(?:a|one|the main|its|our)\s+limitations?\b|\bfuture work\b|\blimitations? of (?:our|this|the proposed)\b"
     r"|\b(?:our|this) (?:method|approach|model|framework)\s+(?:\w+\s+){0,3}(?:cannot|fails?|is limited)\b"),
    (r"\bcode\b[^?]*\b(?:released|available|open[- ]sourced?|public\w*|shared)\b"
     r"|\b(?:release|open[- ]source|share)\w*\b[^?]*\bcode\b|\bopen[- ]sourced?\W*$|\bgithub\b|\bsource code\b",
     "code's availability",
     ("code", "available", "release", "open-source"), False, False,
     r"https?://|github\.com|\b(?:code|implementation)s?\b[^.]*\b(?:available|released|open-sourced|public)\b"),
    (r"\bgpu[- ]?hours?\b|\bcompute budget\b|\bhow long\b.*\btrain", "training compute",
     ("gpu hour", "gpu-hour", "hour", "day"), True, False, ""),  # not "compute": "at 5.2x lower compute" is no budget
    # how long the method itself takes to run ("How long does PatchKV take to compute the patch?"): a time with its unit
    # (not "runtime": a theory paper's runtime is a bound, "Θ(n^2)")
    (r"\bhow long\s+(?:does|did|do|would|will)\b[^?]*\b(?:take|run|last)\b|\bwall[- ]?clock\b|\bhow much time\b",
     "running time", ("second", "minute", "hour", "fps"), True, False,
     r"\b\d[\d.,]*\s*(?:ms|milli-?seconds?|seconds?|sec|minutes?|mins?|hours?|hrs?|days?|weeks?|fps|FPS)\b"
     r"|[ΘΟOΩ]\([^)]*\bn\b"),
    (r"\b(?:which|what)\s+(?:kind of\s+|type of\s+)?gpus?\b|\bgpu model\b", "GPU type",
     ("gpu", "tpu", "cluster", "hardware"), False, False, _GPU_SHAPE),
    # "physdnet which npu chip", "What hardware does it run on?": a named chip or board answers it, not "NPUs"
    (r"\b(?:which|what)\s+(?:kind of\s+|type of\s+|specific\s+)?(?:[\w-]+\s+)?(?:npus?|chips?|accelerators?|hardware"
     r"|boards?)\b", "hardware model", ("npu", "chip", "accelerator", "hardware", "board", "device"), False, False,
     rf"{_GPU_SHAPE}|\b(?:Jetson|Snapdragon|Hexagon|Edge\s?TPU|Coral|Myriad|Kirin|Raspberry\s+Pi|Apple\s+M\d)\w*"),
    # "Compare the memory savings of PatchKV and PipeFSDP": a figure for memory ("1.87× in memory consumption"), not a
    # sentence saying memory is the bottleneck; "skipping early iterations also saves memory" asks for no figure
    (r"\b(?:what|which|compare|how much|how big|how large|report\w*)\b[^?.]*\bmemory\s+(?:savings?|reductions?"
     r"|footprint|usage|consumption|overhead)\b|\bhow much memory\b", "memory savings", ("memory",), True, False, ""),
    # what a method costs at inference ("how much extra vram and latency does it add?"): a figure, or said not stated
    (r"\bhow much\s+(?:extra\s+|additional\s+|more\s+)?(?:vram|gpu memory)\b|\b(?:vram|memory)\s+overhead\b",
     "memory overhead", ("memory", "vram"), True, False, ""),
    (r"\b(?:how much|what(?:'s|\s+is|\s+are)?(?:\s+the|\s+its)?)\s+(?:extra\s+|additional\s+|more\s+)?"
     r"(?:[\w-]+\s+and\s+)?latency\b|\blatency\s+(?:overhead|cost|penalty)\b", "latency",
     ("latency", "millisecond"), True, False,
     r"\b\d[\d.,/]*\s*(?:ms|milli-?seconds?|FPS|fps)\b|\blatency\b[^.]*\b\d[\d.,]*\s*(?:×|x\b|%)"),
    # "How much faster is PatchKV?": a factor or a percentage ("up to 10× faster", "at 5.2x lower compute"), not a
    # sentence that only calls the method efficient
    (r"\bhow (?:much|many times) (?:faster|quicker)\b|\b(?:what|which|how (?:big|large|much))\s+(?:[\w-]+\s+){0,2}?"
     r"speed-?ups?\b|\bspeed-?up (?:factor|figure)\b", "speed-up figure",
     ("faster", "speed", "accelerat", "efficien", "inference cost", "latency", "throughput"), True, False,
     r"\b\d[\d.,]*\s*(?:×|x\b|times\b)|\bspeed-?ups? of \d|\b\d[\d.,]*\s*%\s*(?:faster|speed|less time|lower latency"
     r"|higher throughput)"),
    (r"\blearning[- ]rate\b", "learning rate", ("learning rate", "learning-rate", "lr"), True, False, ""),
    # a named optimizer, or a named descent method ("Projected Gradient Descent converges globally")
    (r"\boptimi[sz]er\b", "optimizer", ("optimi",), False, False,
     r"\b(?:Adam\w*|SGD|LAMB|Adafactor|RMSprop|Lion|Muon|L-?BFGS|AdaGrad)\b"
     r"|\b(?i:(?:projected|stochastic|natural|mirror|proximal|accelerated|conjugate|coordinate)\s+)?"
     r"(?i:gradient\s+descent|newton's\s+method)\b"),
    (r"\bbatch[- ]size\b", "batch size", ("batch size", "batch-size", "batch"), True, False, ""),
    (r"\b(?:training|rl|optimi[sz]ation|gradient)\s+steps\b|\bhow many (?:\w+\s+)?(?:steps|epochs|iterations)\b",
     "number of training steps", ("step", "epoch", "iteration"), True, False, ""),
    (r"\blicen[cs]e\b", "license", ("licen", "available", "release"), False, False,
     r"\b(?:CC[- ]BY[\w\-.]*|MIT licen\w+|Apache|GPL|BSD|licen[cs]ed)\b"),
    (r"\b(?:github|url|link|repository|repo)\b|\bwhere\b.*\bcode\b", "code location",
     ("code", "available", "release"), False, False,
     r"https?://|github\.com|www\.|\.(?:io|org|com)/"),
    (r"\bannotators?\b|\braters?\b|\bcrowd[- ]?workers?\b", "number of annotators",
     ("annotator", "rater", "worker", "expert"), True, False, ""),
    # "Which LLM does ViDiC-1K use as its judge?": a model's name in a sentence on the judge ("judged by GPT-4o"), not
    # "an LLM-as-a-Judge protocol"
    (r"\b(?:which|what)\s+(?:specific\s+|exact\s+)?(?:[\w-]+\s+)?(?:llm|model|vlm|mllm)\b[^?]*"
     r"\b(?:judge|grader|evaluator)|\bjudge\s+(?:llm|model|vlm|mllm)\s+(?:which|what)\b"
     r"|\b(?:which|what)\s+judge\s+(?:llm|model|vlm|mllm)\b",
     "judge model", ("judge", "grader", "evaluator"), False, True,
     rf"(?i:judg|grad|evaluat)\w*\W+(?:[\w-]+\W+){{0,8}}?{_MODEL_NAME}|{_MODEL_NAME}\W+(?:[\w-]+\W+){{0,8}}?"
     r"(?i:judg|grad|evaluat)"),
    # "Which model was the best one on PhysElite?": a model's name beside "best"/"strongest", not "even the strongest
    # model reaches only 33.7%"
    (r"\b(?:which|what)\s+(?:[\w-]+\s+)?(?:model|llm|vlm|mllm|system)\s+(?:was|is|did|does|got|achieved|performed"
     r"|scored|came)\b[^?]*\b(?:best|top|strongest|highest)\b|\b(?:which|what)\s+(?:was|is)\s+the\s+(?:best|top"
     r"|strongest)(?:[\s-]+(?:performing|scoring))?\s+(?:model|llm|vlm|mllm|system)\b", "best model",
     ("best", "strongest", "top", "highest"), False, True,
     rf"(?i:best|strongest|top|highest|leading)\W+(?:[\w-]+\W+){{0,6}}?{_MODEL_NAME}"
     rf"|{_MODEL_NAME}\W+(?:[\w-]+\W+){{0,6}}?(?i:best|strongest|top|highest|outperform)"),
    # which backbone, not whether it is kept frozen ("Do both keep their backbone frozen, or update it?")
    (r"^(?!.*\b(?:frozen|freez\w*|unfrozen|updat\w*)\b).*?(?:\bbackbone\b|\bbase\s+[\w-]*(?:model|llm|vlm|lm)s?\b"
     r"|\bfine-?tunes?\b.*\bmodel\b)",
     "backbone model",
     ("backbone", "base model", "built on", "fine-tun", "initializ"), False, True, ""),
    (r"\b(?:which|what) (?:specific\s+)?(?:\w+\s+)?(?:models|llms|vlms|lvlms|mllms|networks|architectures)\b",
     "models evaluated",
     ("model", "llm", "vlm", "lvlm", "mllm", "network"), False, True, ""),
    # "Which text-to-video generators produced the videos?": answered only by a name beside such a word ("videos
    # generated by Sora and Kling"), not by any capitalised word of the abstract
    # "Which pretrained spatio-temporal encoder does PhyProbe use?": likewise a name beside "encoder"
    (r"\b(?:which|what)\s+(?:[\w-]+\s+){0,2}(?:generators|simulators|engines|solvers|encoders?|tokenizers?)\b",
     "{asked}", ("generat", "simulat", "engine", "solver", "encoder", "tokenizer"), False, True,
     rf"(?i:\b(?:generat|simulat|engine|solver|encoder|tokenizer)\w*)\W+(?:[\w-]+\W+){{0,6}}?{_CASED_NAME}"
     rf"|{_CASED_NAME}\W+(?:[\w-]+\W+){{0,6}}?(?i:(?:generators?|simulators?|engines?|solvers?|encoders?|tokenizers?)\b)"),
    # the singular only as asked of a paper ("What dataset did it use?"), not for one ("Which benchmark tests ...?")
    (r"\b(?:which|what) (?:\w+\s+)?(?:datasets|benchmarks)\b"
     r"|\b(?:which|what) (?:\w+\s+)?(?:dataset|benchmark)\s+(?:did|does|do|was|were|is|are)\b", "datasets",
     ("dataset", "benchmark", "corpus", "data"), False, True, ""),
    # "How much money did it cost to put together?": a sum of money, stated only with its currency.
    (r"\bhow much (?:money|did (?:it|they|this|that) (?:cost|spend))\b"
     r"|\b(?:cost|budget|spen[dt]|price)\w*\b[^?]*\b(?:dollars?|usd|euros?|money)\b", "monetary cost",
     ("cost", "dollar", "usd", "euro", "budget", "spen"), True, False,
     r"[$€£]\s?\d|\b\d[\d,.]*\s?[kKmM]?\s?(?:USD|dollars?|euros?)\b"),
    (r"\bparameters?\b.*\bhow many\b|\bhow many parameters\b|\bmodel size\b", "model size",
     ("parameter", "param", "billion", "million"), True, False,
     # "1.3B parameters", "a 7-billion-parameter model", or a size in a model's name ("PERIA-8B"; "WebVid-10M" is
     # a dataset's)
     r"\b\d+(?:\.\d+)?[\s-]?(?:[BMK]|billion|million)[\s-]+param\w*|\b[A-Z][\w.]*-\d+(?:\.\d+)?B\b"),
    (r"\bseeds?\b|\bhow many runs\b", "number of random seeds", ("seed", "run"), True, False, ""),
    # "What accuracy does the best MLLM reach?": a score, stated only with its number.
    (r"\b(?:what|which|how much|how high)\s+(?:\w+\s+){0,4}(?:accuracy|score|f1|auc|success rate|error rate|bleu|psnr"
     r"|ssim)\b", "{asked}", ("accura", "score", "f1", "auc", "success rate", "error rate", "bleu", "psnr", "ssim"),
     True, False, ""),
)


# What "how many" counts, up to three words (a lookahead: "how many GPUs and how many hours" asks twice).
_HOW_MANY = re.compile(r"\bhow many\s+(?=((?:[a-z0-9-]+(?:/\s*[a-z0-9-]+)*\s+){0,2}[a-z0-9-]+(?:/\s*[a-z0-9-]+)*))",
                       re.I)
_SUBJECTS = frozenset("you we they i one".split())
_SENTENCE_START = re.compile(r"(?:^|[.?!:;]\s*)\W*$")
# Words that end what "how many" counts ("how many GPUs did", "how many layers in", "how many GPUs and how many hours",
# "how many models each one evaluated").
_COUNTED_END = frozenset("""do does did is are was were be been have has had can could will would in of on for to and or
    each every per the a an it its their this that these those with at by from as than used took take takes taking
    participated contributed joined helped worked annotated labeled labelled rated needed went got made""".split())
# What an asker may call the datasets a benchmark is built from ("how many public source collections ...?": "Built from
# 23 public pathology imaging datasets").
_DATASET_WORDS = frozenset("collection source corpus corpora database repositor".split())
_FILLER = frozenset("different distinct total unique separate individual other more of".split())


# Details a paper's record gives, never its abstract: (pattern on the question, phrase, record field).
_RECORD_DETAILS = (
    # Asked for by who they are ("Who are the authors of X?", "X's authors?", "who wrote X"), not by what they did
    # ("the PROVE authors use", "these authors argue that ...").
    (r"\b(?:who|what|which)\s+(?:are|were|is)\s+(?:the\s+|its\s+|their\s+)?(?:[\w'’-]+\s+){0,3}?authors?\b"
     r"|\bauthors?\s+(?:of|behind)\b|\b(?:list|name|give|show)\s+(?:me\s+)?(?:the\s+|its\s+)?authors?\b"
     r"|(?<!according to the )(?<!according to its )\bauthors?(?:'\s+names)?\s*\?"
     r"|\bwho (?:wrote|authored|proposed|introduced|developed|created|made)\b"
     r"|\bwritten by\b|\bby whom\b", "authors", "authors"),
    (r"\b(?:when|what year|which year)\b[^?]*\b(?:published|released|appear\w*|come out|presented)\b"
     r"|\b(?:which|what) (?:venue|conference|journal)\b|\bwhere (?:was|is) [^?]*\bpublished\b", "venue and year",
     "venue_year"),
)


# "Which three model architectures was it evaluated on?": the names of things the abstract may only count.
_WHICH_COUNTED = re.compile(r"\bwhich\s+(two|three|four|five|six|seven|eight|nine|ten|\d+)\s+((?:[a-z-]+\s+){0,2}?[a-z-]+)"
                            r"(?=\s+(?:do|does|did|was|were|is|are|has|have|had)\b)", re.I)
# A count stated before the question asking for the names: "PatchKV was evaluated on three model architectures. Which
# specific models were they?"
_STATED_COUNT = re.compile(
    r"(?<![\d,.])\b(two|three|four|five|six|seven|eight|nine|ten|\d+)\s+((?:[a-z-]+\s+){0,2}[a-z-]+)\b", re.I)
_WHICH_WERE_THEY = re.compile(
    r"[.!]\s+which\s+(?:specific\s+|exact\s+)?([a-z-]+)\s+(?:were|are)\s+(?:they|these|those)\b", re.I)


def _count_then_which(question: str) -> tuple[str, str] | None:
    """The count and the counted things when a statement counts what the question then asks to name: "... on three
    model architectures. Which specific models were they?" -> ("three", "model architectures")."""
    ask = _WHICH_WERE_THEY.search(question)
    if not ask:
        return None
    asked = _stem(ask.group(1).lower())
    for count in _STATED_COUNT.finditer(question[:ask.start() + 1]):
        words = count.group(2).split()
        for end in range(len(words), 0, -1):  # "three model architectures": up to the word asked for, or all of them
            if asked in {_stem(w.lower()) for w in words[:end]}:
                return count.group(1), " ".join(words[:end])
    return None
# A name right after the counted word ("architectures Llama-3, Qwen2 and Mistral"), or a list it introduces
# ("baselines—linear patch embedding, ...", "baselines such as VideoScore").
_NAME_AFTER = (r"(?:\s*[\u2014:(]|\s+[-\u2013]\s|,?\s+(?:such as|including|namely|like|e\.g\.)\s"
               r"|\W+(?:[a-z]+\W+){{0,3}}?(?!{own}\b)(?:[A-Z][A-Za-z]*\d[\w.-]*|[A-Z][a-z]+[A-Z][\w-]*|[A-Z]{{2,}}[\w-]*"
               r"|[A-Z][a-z]+\b))")


# Where a statement ends and the next sentence starts ("I remember a paper on X. What bound did it prove?").
_STATEMENT_END = re.compile(r"(?<=[a-z0-9)][.!])\s+(?=[A-Z])")


def asking_sentences(question: str) -> str:
    """The sentences of a question that ask (end in "?"), when others only describe: "I vaguely remember a paper
    proving that an evolutionary optimizer gets faster. What runtime bound did they prove?" asks for no optimizer."""
    sentences = _STATEMENT_END.split(question.strip())
    asking = [s for s in sentences if s.rstrip().endswith("?")]
    return " ".join(asking) if asking and len(asking) < len(sentences) else question


def asked_details(question: str) -> list[DetailAsk]:
    """The specific details (numbers, settings, named resources, authors and venue) a question asks for, if any."""
    whole, question = question, asking_sentences(question)
    found, counted = [], []  # counted: where a specific pattern asks for a number
    for pattern, phrase, terms, number, name, shape in _DETAILS:
        if match := re.search(pattern, question, re.I):  # "{asked}": the asker's word for it ("accuracy", "PSNR")
            found.append(DetailAsk(phrase.format(asked=match.group().split()[-1]), terms, number, name, shape))
            if number:
                counted.append(match.span())
    for pattern, phrase, record in _RECORD_DETAILS:
        if re.search(pattern, question, re.I):
            found.append(DetailAsk(phrase, (), False, False, record=record))
    counted_things = [(m.group(1), m.group(2), question[m.end():]) for m in _WHICH_COUNTED.finditer(question)]
    if said_count := _count_then_which(whole):  # "... on three model architectures. Which models were they?"
        counted_things.append((*said_count, whole))
    for count, things, after in counted_things:
        stem = _stem(things.split()[-1].lower())
        if any(stem in d.terms for d in found) and not said_count:
            continue  # "which three datasets": the datasets detail finds them by name
        # the names of the counted ones, not any name ("models evaluated" is asked as "model architectures")
        found = [d for d in found if not {_stem(w.lower()) for w in things.split()} & set(d.terms)]
        own = "|".join(re.escape(w) for w in re.findall(r"[A-Z][\w-]*", after)) or "$^"
        found.append(DetailAsk(f"names of the {count} {things}", (stem,), False, True,
                               rf"(?i:\b{re.escape(stem)})\w*{_NAME_AFTER.format(own=own)}"))
    # "how many GPU hours": already asked for by a specific pattern; "how many GPUs and how many hours": two details
    for match in _HOW_MANY.finditer(question):
        if any(a < match.end(1) and match.start() < b for a, b in counted):
            continue
        counted_words = re.sub(r"/\s+", "/", match.group(1)).split()  # "conversations/ users": one of two
        tokens = counted_words + question[match.end(1):].split()
        words, subject, end = [], None, len(tokens)
        for i, word in enumerate(tokens[:len(counted_words) + 1]):
            if word.lower() in _COUNTED_END or word.lower() in _SUBJECTS:
                subject, end = word.lower() in _SUBJECTS, i
                break
            if i < len(counted_words) and word.lower() not in _FILLER:
                words.append(word)  # the asker's casing is kept for the answer ("GPUs")
        if subject and not _SENTENCE_START.search(question[:match.start()]):
            continue  # "decisions like how many run logs you feed back": describes the paper, asks nothing
        if words:
            counted_as = " ".join(words)  # "synthesized tool-use trajectories"
            if tokens[end:end + 1] == ["per"] and len(tokens) > end + 1:
                counted_as += f" per {tokens[end + 1].strip('?.,!')}"  # a rate: "frames per second"
            # "how many VLMs/MLLMs": a count of either
            stems = tuple(_stem(word.lower()) for word in words[-1].split("/") if word)
            terms = stems + ("dataset",) if set(stems) & _DATASET_WORDS else stems
            found.append(DetailAsk(f"number of {counted_as}", terms, True, False))
    return found


def _stem(word: str) -> str:
    """Crude singular stem: "problems" -> "problem", "studies" -> "stud", "annotations" -> "annotat" (as in
    "annotated")."""
    if re.search(r"\w{3}ations?$", word):
        return word[:word.rindex("ation") + 2]
    for end in ("ies", "es", "s"):
        if word.endswith(end) and len(word) - len(end) >= 3:
            return word[: -len(end)] if end != "es" or word[-3] in "sxz" else word[:-1]
    return word


_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9\-/.]*[A-Za-z0-9]")


def coined_terms(question: str, mentions: list[tuple[int, int, str]] = (), everyday: bool = False) -> list[str]:
    """Made-up terms in the question that name no paper ("OR-GIGPO", "PerturbRM"): an abstract using one is
    almost surely the one asked about. ``everyday``: well-known acronyms too ("GRPO")."""
    out = []
    for match in _TOKEN.finditer(question):
        word = match.group()
        if any(a <= match.start() < b for a, b, _ in mentions) or (not everyday and _is_everyday_acronym(word)):
            continue
        parts = word.split("-")
        if not everyday and len(parts) > 1 and all((p.isalpha() and p.islower()) or _is_everyday_acronym(p) for p in parts):
            continue  # "AI-generated", "LLM-based": an everyday acronym in an English compound
        letters = [c for c in word if c.isalpha()]
        inner_caps = any(c.isupper() for c in word[1:]) and not word.isupper()
        all_caps = len(letters) >= 3 and all(c.isupper() for c in letters)
        mixed_digits = bool(letters) and any(c.isdigit() for c in word) and word[0].isalpha()
        if inner_caps or all_caps or mixed_digits:
            out.append(word)
    return out


# Years a question restricts to: "2023 papers", "papers from 2015", "since 2020", "before 2010", "between 2015 and
# 2017". A bare number ("2048 GPUs") is not a year.
_YEAR = r"(?:19[5-9]|20\d)\d"
_YEAR_RANGE = re.compile(rf"\b(?:between|from)\s+(?P<a>{_YEAR})\s+(?:and|to|until)\s+(?P<b>{_YEAR})\b"
                         rf"|\b(?P<c>{_YEAR})\s*[-–]\s*(?P<d>{_YEAR})\b", re.I)
_YEAR_SINCE = re.compile(rf"\b(?:since|from)\s+(?P<a>{_YEAR})\s+on(?:wards?)?\b|\bsince\s+(?P<b>{_YEAR})\b"
                         rf"|\b(?P<c>{_YEAR})\s+(?:or|and)\s+(?:later|after)\b", re.I)
_YEAR_AFTER = re.compile(rf"\bafter\s+(?P<a>{_YEAR})\b", re.I)
_YEAR_UNTIL = re.compile(rf"\b(?:until|up to)\s+(?P<a>{_YEAR})\b|\b(?P<b>{_YEAR})\s+(?:or|and)\s+(?:earlier|before)\b",
                         re.I)
_YEAR_BEFORE = re.compile(rf"\b(?:before|prior to)\s+(?P<a>{_YEAR})\b", re.I)
_YEAR_EXACT = re.compile(rf"\b(?:in|of|from)\s+(?P<a>{_YEAR})\b|\b(?P<b>{_YEAR})(?:'s)?\s+(?:\w+\s+)?(?:papers?|works?"
                         r"|stud(?:y|ies)|abstracts|publications)\b", re.I)


def _year_in(match: re.Match) -> int:
    return int(next(y for y in match.groups() if y))


def asked_years(question: str) -> tuple[int | None, int | None]:
    """The (first, last) publication years a question restricts to; (None, None) when it names none."""
    if m := _YEAR_RANGE.search(question):
        years = sorted(int(y) for y in m.groups() if y)
        return years[0], years[-1]
    for pattern, first, last in ((_YEAR_SINCE, 0, None), (_YEAR_AFTER, 1, None), (_YEAR_UNTIL, None, 0),
                                 (_YEAR_BEFORE, None, -1), (_YEAR_EXACT, 0, 0)):
        if m := pattern.search(question):
            year = _year_in(m)
            return (None if first is None else year + first), (None if last is None else year + last)
    return None, None


_LIST_LEAD = re.compile(
    r"^\W*(?:(?:which|what|how many)\s+(?P<which_kind>(?:\w+\s+){0,2}?)(?:papers|works|studies|articles)"
    r"|(?:are there|is there|do you have)\s+"
    r"(?:any\s+)?(?:papers|works|studies|work|paper)(?:\s+here)?|(?:list|find|show|give|recommend|suggest|summari[sz]e)\s+"
    r"(?:me\s+)?(?:an?\s+overview\s+of\s+)?(?:all\s+|some\s+|any\s+|every\s+)?(?:the\s+)?"
    r"(?P<list_kind>(?:\w+\s+){0,2}?)"
    r"(?:papers|works|studies|everything|anything|all|(?:every|each)\s+(?:paper|work|study)|work|ones?)"
    r"|(?:do|does|did)\s+any\s+(?:papers|works|studies)"
    rf"|{_WORK_THERE}|{_NEED_ALL}"
    r"|(?:any\s+)?(?:papers|works|studies|work))\s*"
    r"(?:(?:are|is|that|which|do|does|where|whose\s+(?:main\s+)?(?:contribution|focus|topic)\s+is(?:\s+an?)?)\s+)?"
    r"(?:(?:mainly|mostly|primarily|chiefly|largely|specifically|directly)\s+)?"  # "are mainly about X": X
    r"(?:(?:about|on|related\s+to|relating\s+to|regarding|concerning|to\s+do\s+with)\s+)?",
    re.I,
)


# A "how many papers ..." whose topic is only these words asks about the collection itself ("How many papers are
# loaded?", "... do you have?", "... are in the corpus?").
_COLLECTION_WORDS = frozenset("""loaded available indexed stored there here total altogether in the this your my corpus
    collection store library database you we i have has do does are is can see currently now all of from since before
    after between and to until published were was been released appeared presented accepted""".split())


def asks_for_collection(question: str) -> bool:
    """Does a "which papers" question ask for the loaded papers themselves ("Which papers were published in 2026?",
    "How many papers are loaded?") rather than for those about something?"""
    lead = _LIST_LEAD.match(question)
    if not lead or _asked_kind(lead):  # "Which benchmark papers are loaded?" asks for some of them
        return False
    return all(w in _COLLECTION_WORDS for w in re.findall(r"[a-z]+", question[lead.end():].lower()))


def asks_collection_size(question: str) -> bool:
    """Does the question ask how many papers are loaded, rather than how many are about something?"""
    return bool(re.match(r"^\W*how many\s+(?:papers|works|abstracts|studies|articles)\b", question, re.I)
                and asks_for_collection(question))


# Words between "Which"/"List the" and "papers" that say nothing of the topic ("Which 2023 papers", "What kinds of").
_KIND_FILLER = frozenset("""the all some any of me recent new other good relevant interesting main key kind kinds type
    types sort sorts""".split())


# How far after "other than" the papers left out may be named ("other than PURGE and PatchKV").
_EXCLUDED_REACH = 60
_EXCLUDED = re.compile(r"\b(?:other than|besides|apart from|aside from|except(?:\s+for)?|excluding|not counting)\s+"
                       r"(?P<part>[^,?;.]+)", re.I)


def without_excluded(question: str, catalog: PaperCatalog) -> tuple[str, list[str]]:
    """The papers a list question leaves out, and the question without them: "Do any papers other than PURGE use a
    CLIP model?" -> ("Do any papers use a CLIP model?", [PURGE's id])."""
    match = _EXCLUDED.search(question)
    if not match:
        return question, []
    start = match.start("part")
    named = [(a, b, pid) for a, b, pid in catalog.mentions(question) if start <= a < start + _EXCLUDED_REACH]
    if not named:
        return question, []
    end = max(b for _, b, _ in named)
    return " ".join((question[: match.start()] + question[end:]).split()), list(dict.fromkeys(p for _, _, p in named))


# A list of the papers that bring a benchmark or dataset of their own: "Which papers introduce new benchmarks ...?",
# "list the benchmark papers", "Which benchmarks test ...?" (not "report results on robot manipulation benchmarks").
_NEW_RESOURCE_ASK = re.compile(
    r"\b(?:introduc\w*|build\w*|buil[dt]|propos\w*|creat\w*|mak(?:e|es|ing)|construct\w*|releas\w*|curat\w*"
    r"|present\w*|contribut\w*)\s+(?:[\w-]+\s+){0,3}?(?:benchmarks?|datasets?)\b"
    r"|\bnew\s+(?:[\w-]+\s+){0,2}?(?:benchmarks?|datasets?)\b|\b(?:benchmark|dataset)\s+papers\b"
    r"|^\W*(?:which|what|list|show|name)\s+(?:me\s+)?(?:all\s+)?(?:the\s+)?(?:[\w-]+\s+){0,3}?(?:benchmarks|datasets)\b",
    re.I,
)


def asks_for_new_resources(question: str) -> bool:
    """The list asks for papers that bring their own benchmark or dataset, not for papers merely evaluated on one."""
    return _NEW_RESOURCE_ASK.search(question) is not None


def listing_topic(question: str) -> str:
    """What a "which papers ..." question is about: "Which papers are about image restoration?" -> "image restoration";
    the kind of paper asked for stays ("List the benchmark papers about physics" -> "physics benchmark")."""
    # "X. Which papers fit?", "X. which papers propose one?", "X? Please list all of them.": X
    question = _WHICH_FIT.sub("", question)
    lead = _LIST_LEAD.match(question)
    if not lead:
        return question.strip().rstrip("?.! ") or question
    rest = _PUBLISHED_WHEN.sub(" ", question[lead.end():])  # years filter the papers; they are no topic
    return " ".join([rest.strip().rstrip("?.! "), *_asked_kind(lead)]).strip() or question


_WHICH_FIT = re.compile(r"(?<=[.!?])\s+(?:which\s+(?:papers|ones|works|studies)\s+(?:fit|match|qualify|apply"
                        r"|are\s+relevant|(?:\w+\s+){1,2}(?:one|ones|any|it|them|this|that|such\s+\w+))"
                        r"|(?:please\s+)?(?:list|name)\s+(?:them\s+all|all\s+of\s+them|every\s+one"
                        r"|each\s+one)(?:\s+that\s+does)?)\W*$", re.I)
_PUBLISHED_WHEN = re.compile(
    rf"\b(?:(?:that\s+)?(?:were|was|are|is|got)\s+)?(?:published|released|presented|accepted|appeared)\b"
    rf"(?:\s+(?:in|at|from|since|before|after|during|between)\b)?|(?:\b(?:in|from|since|before|after)\s+)?\b{_YEAR}\b",
    re.I,
)


def _asked_kind(lead: re.Match) -> list[str]:
    """The words of a list lead that say what kind of paper is asked for ("benchmark" in "List the benchmark papers")."""
    return [w for w in (lead.group("which_kind") or lead.group("list_kind") or "").split()
            if w.lower() not in _KIND_FILLER and not w.isdigit()]
