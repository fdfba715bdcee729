"""What a question asks besides its kind: the years, the topic of a list, its coined terms, papers it rules out."""

from __future__ import annotations

import re

from rag.catalog import PaperCatalog
from rag.intent import NEED_ALL_ASK, WORK_THERE_ASK
from rag.terms import dictionary_words
from store.tokens import is_common_acronym

_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9\-/.]*[A-Za-z0-9]")


def coined_terms(question: str, mentions: list[tuple[int, int, str]] = (), everyday: bool = False) -> list[str]:
    """Made-up terms in the question that name no paper ("OR-GIGPO", "PerturbRM"): an abstract using one is
    almost surely the one asked about. ``everyday``: well-known acronyms too ("GRPO")."""
    out = []
    for match in _TOKEN.finditer(question):
        word = match.group()
        if any(a <= match.start() < b for a, b, _ in mentions) or (not everyday and is_common_acronym(word)):
            continue
        parts = word.split("-")
        if not everyday and len(parts) > 1 and all((p.isalpha() and p.islower()) or is_common_acronym(p) for p in parts):
            continue  # "AI-generated", "LLM-based": an everyday acronym in an English compound
        letters = [c for c in word if c.isalpha()]
        inner_caps = any(c.isupper() for c in word[1:]) and not word.isupper()
        all_caps = len(letters) >= 3 and all(c.isupper() for c in letters)
        mixed_digits = bool(letters) and any(c.isdigit() for c in word) and word[0].isalpha()
        designation = re.fullmatch(r"\d{4}[a-z]{2,4}", word) is not None  # "SN 2024uwq", "AT 2019dsg"
        if inner_caps or all_caps or mixed_digits or designation:
            out.append(word)
    return out


# A claim put to the papers anywhere in the question ("... physics problems. Is it true that it has about 15,000
# problems?"): its numbers are the claim, which rag.claims checks, not the topic's setting.
CLAIM_ASKED = re.compile(r"\b(?:is\s+it\s+(?:true|correct|right|the\s+case)|can\s+you\s+confirm)\b", re.I)
# A yes/no check of a claim: "Is it true that ...", "Does X use Y?", "Can you confirm ...", or one closing a question
# ("Which model does VISD use as its judge, is it GPT-4o?").
CLAIM_CHECK = re.compile(rf"^\W*(?:{CLAIM_ASKED.pattern}"
                          r"|(?:is|are|was|were|does|do|did|has|have|had)\s+(?!there\b|any|anyone|anybody|some))"
                          r"|[,;]\s+(?:is|was|does|did)\s+(?:it|that|this)\s+(?!true\b)",
                          re.I)  # not a search: "Is there a benchmark ...?", "Do any papers ...?"


# A question asking for one paper ("Which paper stops ... when you recover both ...", "Is there a study ..."): however
# it sets things side by side, it seeks one.
ONE_PAPER_ASK = re.compile(r"\b(?:which|what|is\s+there\s+an?|looking\s+for\s+an?|any)\s+(?:single\s+|one\s+)?"
                           r"(?:paper|study|work|article|preprint)\b(?!s)", re.I)
# A catalogue designation, letters then a number: "IC 1613", "NGC 628", "SGR 1935".
_CATALOG_NUMBER = re.compile(r"(?<![\w-])[A-Z]{1,4}\s\d{2,}(?:[+-]\d+)?[A-Za-z]?(?![\w-])")


# A capitalised word after a lower-case one or a comma: a name, not a sentence's first word ("Qwen-family" too).
_MID_SENTENCE_CAPITALISED = re.compile(r"(?<=[a-z0-9,] )([A-Z][a-z]+)\b(?![-'](?!(?:family|series|based|style|like)\b))")


# An adjective made of a name: "Gaussian", "Euclidean"; or of a place: "Australian".
NAME_ADJECTIVE_ENDINGS = ("ian", "ean")


def capitalised_words(question: str) -> list[str]:
    """The capitalised words inside the question's sentences ("Qwen", "Manhattan", "Learning")."""
    return [m.group(1) for m in _MID_SENTENCE_CAPITALISED.finditer(question)]


def capitalised_names(question: str) -> list[str]:
    """Capitalised words inside a sentence that are no English word ("Qwen", "Perseus"); an adjective made of a name
    ("Gaussian", "Bayesian", "Euclidean") describes a method instead."""
    return [w for w in capitalised_words(question)
            if w.lower() not in dictionary_words() and not w.endswith(NAME_ADJECTIVE_ENDINGS)]


def proper_names(question: str, checked_of_named: bool = True) -> list[str]:
    """What the question names, in any field: coined terms and acronyms ("M81", "NICER", "SF-36", "GPT-4"), a
    number's own name ("SN 2024uwq"), and capitalised words no dictionary has ("Perseus", "Qwen"). Such a name is not
    paraphrased: a paper that never writes it is about another object, instrument, drug or model. A yes/no check of a
    paper the question names (``checked_of_named``) has none: "Does PhyProbe use V-JEPA?" checks a detail."""
    if checked_of_named and CLAIM_CHECK.search(question):
        return []
    names = coined_terms(question, everyday=True)
    names += _CATALOG_NUMBER.findall(question)
    names += capitalised_names(question)
    return list(dict.fromkeys(n for n in names if not is_common_acronym(n) and not _english_compound(n)))


def _english_compound(name: str) -> bool:
    """ "AI-made", "Chinese-English": every part an English word or an everyday acronym."""
    parts = name.split("-")
    return len(parts) > 1 and all(p.lower() in dictionary_words() or is_common_acronym(p) for p in parts)


# Years a question restricts to: "2023 papers", "papers from 2015", "since 2020", "before 2010", "between 2015 and
# 2017". A bare number ("2048 GPUs") is not a year.
_YEAR = r"(?:19[5-9]|20\d)\d"


# A number the question states as part of its topic ("at 13.6 TeV", "the nu = 12/5 edge", "D=7", "aged 12-17",
# "28nm"): near misses swap one ("a 10 TeV muon collider" asked of a 3 TeV study). Not one in a name ("M31",
# "SPT-100"), a power ("10^4", "1e4": abstracts write them in LaTeX), an ordinal ("2nd") or a dimension ("3D", "6d").
_STATED_NUMBER = re.compile(r"(?<![A-Za-z\d.^])(?<![A-Za-z]-)\d+(?:[./]\d+)?(?![\d^]|e\d|(?:st|nd|rd|th|[dD])\b)")


# The small numbers as words ("3": "three-dimensional").
NUMBER_WORDS = "zero one two three four five six seven eight nine ten eleven twelve".split()
# A number word from three up that a hyphen joins to a word states the topic's setting as a digit would: "the
# eight-vertex model" (asked of the six-vertex one), "five-loop splitting functions", "rank-three Higgs bundles". Not
# a dimension ("three-dimensional"), as for digits; nor one or two, which questions use in paraphrase as often: on the
# seen sets "two-peaked", "two-link arm", "leave-one-out", asked of abstracts writing neither the word nor the digit,
# hedged four more answerable lookups and no near miss.
_SETTING_WORDS = "|".join(NUMBER_WORDS[3:])
_STATED_NUMBER_WORD = re.compile(rf"\b[a-z]+-({_SETTING_WORDS})\b|\b({_SETTING_WORDS})-(?!dimension)[a-z]", re.I)


# What marks a number as the asker's approximation ("from ~18 to ~7 min", "about 430 MeV"): an abstract's "7.1" or
# "432" states it.
_APPROXIMATELY = re.compile(r"(?:[~≈∼]|\b(?:about|around|roughly|approximately|approx\.?|nearly|near|circa|some))\s*$",
                            re.I)


def stated_numbers(question: str) -> list[str]:
    """The numbers the question states, in digits or as a word joined to another ("eight-vertex": "eight"), years
    aside (those filter papers by date); one the asker approximates with a leading "~" ("~7")."""
    words = [(m.group(1) or m.group(2)).lower() for m in _STATED_NUMBER_WORD.finditer(question)]
    digits = [("~" if _APPROXIMATELY.search(question[:m.start()]) and "/" not in m.group() else "") + m.group()
              for m in _STATED_NUMBER.finditer(question)]
    return [n for n in dict.fromkeys(digits + words) if not re.fullmatch(_YEAR, n.lstrip("~"))]


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
    rf"|{WORK_THERE_ASK}|{NEED_ALL_ASK}"
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
