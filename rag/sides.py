"""The papers a comparison question sets side by side: the sides it describes, the group it compares, the part asked of each."""

from __future__ import annotations

import re

from rag.terms import question_terms

# A side described as "one ..., the other ..." is searched for with the SIDE_CONTEXT_WORDS words said of both before it.
SIDE_CONTEXT_WORDS = 12


# Two papers described as "one ..., the other ..." (or "another ...").
_ONE_THE_OTHER = re.compile(r"\bone\s+(?P<one>[^?.;:]+?)(?:(?:[,;.]\s*|\s+(?=and\s))(?:and\s+|while\s+|whereas\s+)?"
                            r"(?:the other|another|a second|the second)|,?\s+and\s+one)\s+(?P<other>[^?.;:,]+)", re.I)


COMPARE_CUE = re.compile(
    r"\b(?:compar\w*|differ\w*|versus|vs\.?|both|unlike|similarit\w*|in common|relates?\s+to"
    r"|(?:dis)?agree\w*|contradict\w*|each other|(?:they|these|those|two|both)\s+(?:\w+\s+)?relate[sd]?)\b"
    # contrasting, not an image's contrast ("what raw contrast has PLACID achieved"): "contrast the two", "how do
    # they contrast?", "contrast with", "contrasted two ..."
    r"|\bcontrast(?:s|ed|ing)?\b(?=\s*(?:with|the|them|their|these|those|what|how|two|[?.!,;:]|$))"
    # what is asked of each of them, not of each of a paper's things ("each cluster's sample"): "what does each
    # report", "what do the X study and the Y paper each say", "what were they each trying to achieve", "what's each
    # about?", "what each contributes"
    r"|\b(?:does|do|did|they|these|those)\s+each\b|\beach(?:\s+(?:one|paper|of\s+(?:them|the\s+two)))?"
    r"(?=\s*[?.!,;]|\s*$|\s+(?:is|was|does|did|do|about|say|said|report|find|found|use|[a-z]+s)\b)"
    # which paper is which: "which one is a concrete theory and which is conceptual?"
    r"|\bwhich(?:\s+(?:one|paper)\s+\w+|\s+(?:is|was|does|did|has|uses?))\b[^?]*\b(?:and|while|whereas)\s+which\b"
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
    # or a dash or an aside; not a decimal point ("at 13.6 TeV"), "et al." or a symbol ("f(Q)")
    r"|[:?!]|\s\(|(?<!\bet al)\.(?!\d)|\s[-\u2013\u2014]+\s"
    rf"|{_AFTER_PAPER_NOUN}(?<!that)(?<!which)\s+claim\w*\b",  # so does "the paper claiming ..."
    re.I,
)


_SIDE_LEAD = re.compile(
    r"^\W*(?:(?:how|what|where|in what ways?)\s+(?:do|does|did|are|is)\s+"
    r"|(?:compar(?:e|ing)|contrast(?:ing)?)\s+(?:how\s+|what\s+)?|and\s+"
    # a claim checked of both: "Is it true that both X and Y ...", "Can you confirm that ..."
    r"|is\s+it\s+(?:true|correct|right|the\s+case)\s+that\s+|(?:can\s+you\s+)?confirm\s+(?:that\s+)?|both\s+"
    r"|(?:can|could|would|will)\s+you\s+(?:please\s+)?|please\s+"
    r"|(?:what(?:'s|\s+is|\s+are)\s+)?(?:the\s+)?(?:main\s+|key\s+)?differences?\s+(?:in\s+\w+\s+)?between\s+"
    r"|between\s+"
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
    r"|proposal|pipeline|policy|module|formulation|reformulation|paradigm|thing|tool|trick"
    # what any field calls a paper: "Ding's review of ...", "the Tjandra & Singh essay on ..."
    r"|review|essay|article|note|thesis|preprint|letter)s?\b",
    re.I,
)


# Where a lead-in ends and the sides start: a colon, a dash, or a comma before "the ..." ("Which reports the larger
# factor, the training framework or the inversion method?").
_LEAD_IN = re.compile(r":|\s[\u2014\u2013]+\s|\s-{1,2}\s|,\s+(?=(?:the|a|an|this|that)\s)", re.I)


_DESCRIPTION_START = re.compile(r"^(?:(?i:the|a|an|that|this|those|these|work|paper|papers|study)\b"
                                # or whose it is: "Wheeler's isoperimetric paper", "ATLAS's first ttHH search"
                                r"|[A-Z][\w-]*['\u2019]s\s)")
# A paper described by whose it is, with a word saying it is a paper: "Heng-Tong Ding's review of ...", "his group's
# HISQ paper" (without that word, such a phrase is a side only set against another by "vs").
_OWNED_PAPER_START = re.compile(r"^(?:(?:[A-Z][\w.-]*\s+){1,2}[A-Z][\w-]*['\u2019]s|(?i:his|her|their))\s")


# "the other (one)", "the latter": a reference to a side already given, not a description of another.
_BACK_REFERENCE = re.compile(r"^(?:the\s+)?(?:other|latter|former|rest)\b", re.I)


# "compare against a specific existing system", "the prior state-of-the-art method": the baselines a paper is measured
# against, not another paper of the collection.
_PRIOR_WORK = re.compile(r"^(?:(?:an?|the|any|some)\s+)?(?:(?:specific|particular|single|given|strong)\s+)?"
                         r"(?:existing|prior|previous|earlier|baseline|standard|conventional|established"
                         r"|state-of-the-art|sota|competing)\b", re.I)


# "Compare the video benchmarks", "How do the papers on KV cache compression differ?": the papers of a topic, compared.
_GROUP = re.compile(
    # (not "the one that models blur as ...": "models" there is a verb)
    # a count stands for "the" before papers only: "both HSCC papers on ...", not "both approaches"
    r"\b(?:the|these|those|all(?:\s+the)?|(?:two|three|both)(?=(?:\s+[\w-]+){0,7}?\s+(?:papers|studies|works)\b))\s+"
    r"(?P<kind>(?:(?!(?:one|ones|that|which|who|it|they)\b)[\w-]+\s+){0,7}?)"
    r"(?:papers|benchmarks|methods|approaches"
    r"|frameworks|models|works|studies|datasets|evaluators|agents)\b(?:\s+(?:on|about|for|in|that|which)\s+(?P<about>[^?.!]+))?",
    re.I,
)


# "the two ... papers", "both ... studies": how many papers the asker says the compared group has.
COUNTED_GROUP = re.compile(r"\b(?:two|three|four|five|both)\b(?=(?:\s+[^\s?.,;:]+){0,7}?\s+(?:papers|studies|works"
                           r"|articles)\b)", re.I)
GROUP_COUNTS = {"two": 2, "both": 2, "three": 3, "four": 4, "five": 5}


def compared_group(question: str) -> str:
    """The topic of the papers a comparison asks about as a group ("Compare the video benchmarks": "video
    benchmarks"), or "" when it compares no group."""
    # a count leads a group only with its topic after it: "two papers on X", not "two theory papers: the one ..."
    match = next((m for m in _GROUP.finditer(question)
                  if m.group("about") or m.group().split()[0].lower() not in GROUP_COUNTS), None)
    if not match or _ONE_PAPER.search(match.group("kind")):  # "the paper about multimodal models": one paper, sought
        return ""
    kind = match.group(0).split()[-1] if not match.group("about") else ""
    about = _SIDE_END.split(match.group("about") or "")[0]
    words = (match.group("kind") + " " + about + " " + kind).split()
    if all(w.lower() in _GROUP_FILLER for w in words):
        return ""
    return " ".join(w for w in words if w.lower() not in ("two", "three"))


# Words no group is about: "these two papers" (a follow-up's), "how do the methods compare" (the papers' methods).
_GROUP_FILLER = frozenset("""papers works studies two three both other benchmarks methods approaches frameworks models
    datasets evaluators agents""".split())


_ONE_PAPER = re.compile(r"\b(?:paper|article|study|work)\b", re.I)


def names_a_paper(side: str) -> bool:
    """Whether a described side says it is a paper ("the ATCA follow-up paper"), not a concept ("a plain patch
    embedding")."""
    return _ONE_PAPER.search(side) is not None


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
    # "one plugs a module into ..., the other gives the model tools": the two descriptions, but one naming its paper
    # ("one secures CAN networks ..., the other is AmphiKey")
    pair = _ONE_THE_OTHER.search(question)
    sides = [pair.group(half).strip() for half in ("one", "other")
             if not any(a < pair.end(half) and b > pair.start(half) for a, b, _ in mentions)] if pair else []
    if len(sides) == 2 - bool(mentions):
        # each side is found with what the question says of both: "Two papers discuss memorization vs generalization,
        # one for language models and one for diffusion models", "Two papers imaged WR 137 with the NIRISS aperture
        # masking interferometer. One uses a regularised max-likelihood framework, the other ..."
        context = " ".join(_said_of_both(question[:pair.start()]).split()[-SIDE_CONTEXT_WORDS:])
        if any(w not in GROUP_COUNTS for w in question_terms(context)):  # a topic, not "I remember", "two papers:"
            sides = [f"{context} {side}" for side in sides]
        return sides
    text = _COMPARE_WITH.sub(lambda m: _split_at(m.group(1), m.group()), question)
    with_split = _COMPARE_THEN_WITH.sub(lambda m: _split_at(m.group(1), m.group()), text, count=1)
    # "Compare X with Y" splits at "with", unless that "with" is inside a side: "Contrast the paper comparing
    # predictive coding with backprop and the one on ...". The reading finding more sides wins.
    sides = _sides(text, mentions) if with_split == text else \
        max(_sides(with_split, mentions), _sides(text, mentions), key=len)
    return [" ".join(side.split()) for side in sides]  # without the split's padding


def _split_at(kept: str, replaced: str) -> str:
    """``kept`` then a side separator, as long as ``replaced``: the mentions' places in the question stay right."""
    return f"{kept} ; ".ljust(len(replaced))


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


# An aside naming whose paper a side is: "(Leonov)", "(Bhattacharya et al. 2025)", "(Kriener & Liu)".
_AUTHORS_ASIDE = re.compile(r"\s\((?:[A-Z][\w'\u2019-]+(?:\s+et\s+al\.?)?(?:\s*(?:,|and|&)\s*|\s+(?=\d))?)+(?:\d{4})?\)")


def _side_end(piece: str) -> re.Match | None:
    """Where the question about a side starts; an auxiliary inside a clause the side's description embeds ("the
    paper tracing how visual information is routed in VLMs") is not that start, nor an aside naming its authors."""
    for cut in _SIDE_END.finditer(piece):
        if cut.group().strip() == "(" and _AUTHORS_ASIDE.match(piece, cut.start()):
            continue
        if not (cut.group().strip().lower() in _AUXILIARIES and _EMBEDDED_QUESTION.search(piece[:cut.start()])):
            return cut
    return None


def _sides(text: str, mentions: list[tuple[int, int, str]]) -> list[str]:
    """The described sides of a question already split at the "with" of "Compare X with Y" (when it has one); when
    that finds too few, sides described by their subject alone ("the z=6 metal-poor Lyα emitter candidate", "the
    cohort of 500 smokers"): each must still find its paper before it is compared."""
    sides = _described(text, mentions, _PAPER_NOUN)
    if len(sides) + len({pid for *_, pid in mentions}) < 2:
        sides = _described(text, mentions, _ANY_SUBJECT)
    return sides


# Any phrase of three or more words opening with "the", "a", "this" ... ("the z=6 metal-poor emitter candidate") or
# with whose it is ("ATLAS's first ttHH search").
_ANY_SUBJECT = re.compile(r"^(?:(?i:the|a|an|this|that)|[A-Z][\w-]*['\u2019]s)\s+\S+\s+\S+")


def _described(text: str, mentions: list[tuple[int, int, str]], paper_noun: re.Pattern) -> list[str]:
    """The sides described with a phrase ``paper_noun`` finds."""
    named_spans = [(a, b) for a, b, _ in mentions]
    pieces, pos = [], 0
    for sep in _SIDE_SEPARATOR.finditer(text):
        if text.count("(", 0, sep.start()) > text.count(")", 0, sep.start()):
            continue  # "disappearing track (charginos, tau sleptons) vs displaced vertex": a side's aside goes on
        pieces.append((pos, sep.start(), sep.group()))
        pos = sep.end()
    pieces.append((pos, len(text), ""))
    sides, carry, before, in_clause, side_just_read, named_just_read = [], "", "", False, False, False
    for start, end, sep in pieces:
        piece, before_versus = text[start:end], before
        # "X vs Y": the words just before "vs" and those just after it ("... gains in-distribution versus
        # out-of-distribution" is no side when a question starts between "gains" and "vs")
        versus_after, versus_before = bool(_VERSUS.search(f" {sep} ")), bool(_VERSUS.search(f" {before} "))
        before = sep
        if any(a < end and b > start for a, b in named_spans):
            carry, side_just_read, named_just_read = "", False, True
            continue
        if named_just_read and versus_after and before_versus.strip().lower() == "and" \
                and not _DESCRIPTION_START.search(piece.strip()):
            # "Krijt et al.'s water and pebble drift vs the MINDS ... disk": the "and" goes on the named side
            named_just_read = False
            continue
        named_just_read = False
        if versus_after and sides and side_just_read and not carry and len(piece.split()) == 1 \
                and before_versus.strip().lower() == "and":
            # "Ding's review of lattice QCD at finite T and density versus his group's HISQ paper": the "and" is the
            # first side's, the word before "versus" ends it
            sides[-1] = f"{sides[-1]} and {piece.strip()}"
            continue
        side_just_read = False
        piece = _SIDE_LEAD.sub("", carry + piece)
        lead_in = next((m for m in reversed(list(_LEAD_IN.finditer(piece)))
                        if _DESCRIPTION_START.search(_SIDE_LEAD.sub("", piece[m.end():].strip()))), None)
        if lead_in and not _DESCRIPTION_START.search(piece[:lead_in.start()].strip()):
            # "Three papers caught my eye: the convergence analysis ..., the one on ...", "which reports the larger
            # factor — the training framework or the inversion method?", "... SSA — how does the hybrid simulator"
            piece = _SIDE_LEAD.sub("", piece[lead_in.end():].strip())
        elif versus_after and (leads := list(_LEAD_IN.finditer(piece))) and not _a_paper_described(
                piece[:leads[-1].start()].strip(), paper_noun):
            # "boosted Higgs: ATLAS H->bb in one large-R jet vs CMS high-pT H->WW": the side set against "vs" is what
            # follows the lead-in, however it starts; unless a paper is described before it ("... vs his stellar
            # cluster modelling paper: single star vs cluster, how ...")
            piece = piece[leads[-1].end():].strip()
        cut = _side_end(piece)
        # an aside closing the piece ends no side: "disappearing track (charginos, tau sleptons) vs displaced vertex"
        closing_aside = cut is not None and cut.group().strip() == "(" and re.fullmatch(r"\s\([^()]*\)\W*", piece[cut.start():])
        ended, bracket_open = cut is not None and not closing_aside, piece.count("(") > piece.count(")")
        piece = (piece[: cut.start()] if cut else piece).strip(" '\"")
        described = _a_paper_described(piece, paper_noun)
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
            side_just_read = True
            # its clause, or its bracket, goes on: "the paper on how visual info flows (direct vs text-mediated)"
            in_clause = bracket_open or (not ended and _RELATIVE_CLAUSE.search(piece) is not None)
            carry = ""
        elif not ended:
            carry = piece + sep  # "the predictive coding versus backprop study": one side, not two
        else:
            carry = ""
    return sides


def _a_paper_described(piece: str, paper_noun: re.Pattern) -> bool:
    """Whether the piece describes a paper: a phrase ``paper_noun`` finds, opening as a description or with whose paper
    it is, not a reference back to a side or to prior work."""
    return bool(paper_noun.search(piece) and (_DESCRIPTION_START.search(piece) or _OWNED_PAPER_START.search(piece))
                and not _BACK_REFERENCE.search(piece) and not _PRIOR_WORK.search(piece))


# A described side going on in a clause of its own ("the framework that splits data by ...").
_RELATIVE_CLAUSE = re.compile(r"\b(?:that|which|who|where)\s+\w+", re.I)
