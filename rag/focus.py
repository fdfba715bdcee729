"""The thing a what/which question asks of a paper in any field ("What redshift is the host at?", "above what critical
value of the coupling b"), when no specific detail pattern (rag.details) knows it."""

from __future__ import annotations

import re
from collections.abc import Callable

from rag.terms import ASKING_WORDS, dictionary_words, singular_stem
from rag.types import DetailAsk
from rag.units import amount_measured

# Verbs that follow the asked thing in a question ("what scale height comes out", "how many candidates came out",
# "which gene ended up most synergistic"): the thing asked ends before them.
VERBS_AFTER_SUBJECT = frozenset("""come comes came go goes went get gets got give gives gave make makes made take takes
    took see sees saw show shows turn turns end ends happen happens lead leads led look looks seem seems stay stays
    remain remains appear appears become becomes became keep keeps kept like""".split())


# The verbs of a yes/no question whether a paper reports a thing: "did they report / quote / name ...".
REPORT_VERB = r"(?:report|give|gave|quote|state|specif|mention|provide|disclose|name)\w*"
# The thing a "what/which" question asks for, in any field ("What redshift is the host at?", "Which NIRCam filters
# were used?", "what's the host galaxy and distance of SN 2024uwq?") or the quantity "how long/far/old ..." measures
# ("How long was the XRISM exposure?", "HERMES survey - what resolving power"): up to four words after the question
# word (and "is the", "was its", "was each"), ending where the sentence goes on (a verb, a preposition, a pronoun) or
# at "and" / "or" (then two things are asked); or the thing a yes/no question asks whether a paper reports.
_FOCUS_START = re.compile(r"(?:(?:^|[.?!:;,\u2013\u2014-]\s+|\b(?:and|but|so|then)\s+)"
                          # a preposition may lead: "at what temperature were ... done?", "in which year"
                          r"(?P<preposition>(?:at|in|on|to|for|from|with|by|over|under|into|within|above|below|beyond"
                          r"|around|across|after|before|during|through)\s+)?"
                          # "whats" as typed in a hurry
                          r"(?:(?P<asks>what|which)(?P<copula>['’]s|(?<=what)s|\s+(?:is|are|was|were))?"
                          r"|how\s+(?P<measure>long|far|old|large|big|massive|bright|hot|cold|deep|wide|thick|thin|fast"
                          r"|high|strong)"
                          r"\s+(?:is|are|was|were))"
                          # a yes/no question whether a paper reports the thing: "did they report the Tc of the films",
                          # "X et al. - do they name the laser facility", "does the X paper say which model they used"
                          r"|(?:^|[.?!,:;\u2013\u2014-]\s+)\W*(?:do|does|did|has|have|had)\s+"
                          r"(?!(?:any|anyone|anybody|some|someone|there)\b)(?:[^?.;]|(?<=\bal)\.)*?"
                          r"\b(?P<reports>" + REPORT_VERB
                          + r"(?:\s+(?:what|which))?|(?:say|tell)\s+(?:us\s+)?(?:what|which))"
                          # "is there a value for the jet transport coefficient", "any figure on the endurance"
                          r"|(?:^|[.?!,:;\u2013\u2014-]\s+)\W*(?P<valued>(?:is|are)\s+there|any)"
                          r"(?=\s+(?:an?\s+)?(?:\w+\s+)?(?:value|figure|number|estimate)s?\s+(?:of|for|on)\b))"
                          r"\s+(?:(?:the|its|their|his|her|a|an|each|every|any)\s+)?(?=[\w-])",
                          re.I)
# What "how long/far/old ..." measures, for the answer's words.
_MEASURED_AS = {"long": "length", "far": "distance", "old": "age", "large": "size", "big": "size", "massive": "mass",
                "bright": "brightness", "hot": "temperature", "cold": "temperature", "deep": "depth", "wide": "width",
                "thick": "thickness", "thin": "thickness", "fast": "speed",
                "high": "height", "strong": "strength"}
_FOCUS_END = frozenset("""do does did is are was were be been being has have had can could will would should may might
    of for in on at to by from with as than over under during across between within that which who whom whose when where
    while if it its they them their this
    these those there he she we you i used use uses using measured found reported adopted assumed given derived
    obtained chosen applied observed seen needed made taken shown was such including""".split()) | VERBS_AFTER_SUBJECT
# Words naming no detail but the whole paper or a part of its story ("Which study ...", "What kind of ...", "What
# problem ..."): those questions are lookups, or aspects (rag.intent.asked_aspects).
_NOT_A_DETAIL = ASKING_WORDS | frozenset("""article articles abstract one ones kind type sort way thing things part role
    idea ideas problem problems question questions goal goals aim aims purpose finding findings conclusion
    conclusions contribution contributions evidence mechanism mechanisms reason reasons explanation technique
    techniques framework frameworks architecture architectures main key overall general novelty difference
    differences takeaway takeaways summary point points motivation limitation limitations advantage advantages ways
    extent respect respects sense""".split())


# What a question asking for a value names before the thing valued ("what value of q", "what range of masses"), and
# the thing: up to four words after "of (the)".
_VALUE_WORDS = frozenset("value range estimate bound limit".split())
# A yes/no question asks a value also as "a number / figure for X" ("do they give a number for the binding energies");
# "what number of layers" asks a count.
_REPORTED_VALUE_WORDS = _VALUE_WORDS | {"number", "figure"}
# Words saying a thing asked for is a definite one, not what it is.
_VAGUE = frozenset("specific particular actual exact concrete explicit numerical numeric precise".split())
_OF_THING = re.compile(r"\s+(?P<preposition>of|for|on)\s+(?:the\s+|a\s+|an\s+|their\s+|its\s+)?"
                       r"(?P<thing>(?:[\w-]+\s+){0,3}?[\w-]+)"
                       r"(?=\s+(?:do|does|did|is|are|was|were|can|could|would|will|they|in|for|at|from|that|when|of"
                       r"|with|on|to)\b|\s+[a-z]+ed\b|\W*$|\s*[?,;])", re.I)  # "the PQ scale needed for"
# Things asked for that are numbers in any field: "what masses", "what temperature", "what diffusion coefficient" (not
# "what size" or "what rate": "the size of the effect", "H2 evolution" may be said in words; nor a bare "what value").
_QUANTITIES = frozenset("""mass temperature distance length age depth width thickness speed height coefficient
    constant exponent""".split())


def _is_quantity(word: str) -> bool:
    return any(word.lower() in (q, f"{q}s", f"{q}es") for q in _QUANTITIES)
# Words asking for a part of a whole, given as a number ("30 percent", "62.5%") more often than by the word.
SHARE_WORDS = frozenset("percentage percent fraction share proportion".split())
# Ways of typing a word: "season(s)" for one or more; "country's" for whose; "%" for a percentage.
_PERCENT_WORD = re.compile(r"(?<=\s)%(?=\s)")
_PLURAL_MARK = re.compile(r"\(s\)(?=\W*$)")
_POSSESSIVE = re.compile(r"([\w-]+)['\u2019]s")


# A symbol asked for, as quantitative fields write one: "what k", "the best-fit n", "what H0", "sigma(r)", "alpha_s(m_Z)".
# Its value is a number.
_GREEK = "alpha|beta|gamma|delta|epsilon|eta|theta|kappa|lambda|mu|nu|xi|rho|sigma|tau|phi|chi|psi|omega"
_SYMBOL = re.compile(rf"(?P<base>(?:[A-Za-z]|{_GREEK})(?:\d|_\{{?\w+\}}?)?)(?:\([^()\s]*\))?")


def asked_focus(question: str, written: Callable[[tuple[str, ...]], bool] | None = None) -> list[DetailAsk]:
    """The things a what/which question asks of a paper, when no specific detail pattern knows them: each a detail
    whose head word (with its other lower-case words) a supporting sentence must hold; "how long/far/..." wants a
    number. Names in the phrase ("NIRCam") say whose thing it is, not what it is. With ``written`` (whether some
    loaded abstract writes a word of these stems), a bare "what X" whose X no abstract writes ("what's the verdict",
    "what loophole", "what happened") is the asker's word for the finding, no detail; "which city's", "on what
    hardware" and a number asked for still ask one. A yes/no question whether a paper reports a thing ("did they
    quote the saturation length?", "is there a value for X?") asks for it as "what" does."""
    found = []
    question = _PERCENT_WORD.sub("percentage", question)  # "what % of the samples"
    for match in _FOCUS_START.finditer(question):
        reported = match.group("reports") or match.group("valued")  # a yes/no question whether it is reported
        words = []
        cut = False  # whether the phrase was cut at four words, not ended where the sentence goes on
        for token in question[match.end():].split():
            token = _PLURAL_MARK.sub("", token)  # "season(s)"
            word = token.strip("?.,!;:()\"'")
            plain_word = re.fullmatch(r"[\w-]+(?:/[\w-]+)*", word) is not None
            if not plain_word and len(words) < 4 and (symbol := _SYMBOL.fullmatch(token.rstrip("?.,!;:"))):
                words.append(symbol.group())  # "what sigma(r) do they forecast", "which O(N) models"
                if symbol.group() != token:
                    break
                continue
            if (owner := _POSSESSIVE.fullmatch(word)) and not words:
                words.append(owner.group(1))  # "which country's data": the country is asked
                break
            if word.lower() in _VAGUE and not words and reported:
                continue  # "did they name a specific material": a material (a "what exact X" still reads literally)
            if word.lower() in ("the", "a", "an"):  # the word before an article is a verb or a preposition, no thing
                words = words[:-1]  # asked: "which scalar meson enters the loops", "what caused the dips"
                break
            if not word or word.lower() in _FOCUS_END or not plain_word or len(words) == 4 \
                    or token[0] in "([":  # "the MgB2 films (textured vs single crystal)": an aside starts
                cut = len(words) == 4
                break
            if words and word.islower() and word.endswith("ed") and len(word) > 4:
                break  # a verb after the thing asked: "which host property correlated most"
            words.append(word)
            if token != word and not token.endswith("-"):
                break  # "?" or "," ends the phrase
        parts, current = [], []
        for word in words:
            if word.lower() in ("and", "or"):
                parts.append(current)
                current = []
            else:
                current.append(word)
        parts.append(current)
        for part in parts:
            if part and part is parts[-1] and not cut and (symbol := _SYMBOL.fullmatch(part[-1])) \
                    and part[-1].lower() not in _FOCUS_END:
                base = re.sub(r"[_{}]", "", symbol.group("base")).lower()  # as abstracts' LaTeX reads plain: "H_0"
                found.append(DetailAsk(" ".join(part), (base,), True, False, number_beside_term=True))
                continue
            common = [w for w in part if w.islower()]
            if part is parts[-1] and part and not part[-1].islower() and part[-1][0].isalpha() \
                    and (match["asks"] or "").lower() == "which" and not match["copula"]:
                # "which IMF does": one of a kind the name names ("what Tc" may be a "critical temperature")
                common.append(part[-1].lower())
            if not common or any(w in _NOT_A_DETAIL for w in common):
                continue
            head = common[-1]
            # "what fraction", "what masses": a number, not the word
            wants_number = not (match.group("asks") or reported) or head in SHARE_WORDS or _is_quantity(head)
            if head in ("size", "number", "count", "amount") and len(common) > 1:  # "sample size": a number of samples
                common, wants_number = common[:-1], True
            phrase = " ".join(part)  # "how long was each session": the length of each session
            # "what critical value of the axion coupling b": the coupling's value, a number ("which bound on X" asks for
            # the bound; "is there a bound on X" for X's value)
            rest, companions = question[match.end():], ()
            of = _OF_THING.match(rest, rest.find(head) + len(head))
            if head.lower().rstrip("s") in (_REPORTED_VALUE_WORDS if reported else _VALUE_WORDS) and of and (
                    reported or of.group("preposition") == "of"):
                # the thing's head word, in any case ("H0"), with one of its other words: "the transverse BAO angular
                # scale" is "the transverse BAO scale"; "the axion coupling b" is not "the case b=1"
                *others, last = of.group("thing").lower().split()
                common, companions = [last], tuple(singular_stem(w) for w in others if w not in ("of", "the"))
                head, wants_number, phrase = last, True, f"{phrase} of {of.group('thing')}"
            elif head.lower().rstrip("s") in _REPORTED_VALUE_WORDS and reported and len(common) > 1:
                # "do they quote the diffraction efficiency value": the efficiency's, a number
                common, head, wants_number = common[:-1], common[-2], True
            elif head.lower().rstrip("s") in _REPORTED_VALUE_WORDS and reported:
                continue  # "do they quote a value in MeV": of no thing named (a unit may say what)
            alternatives = head.split("/")  # "which instrument/telescope": either
            terms = tuple(singular_stem(w) for w in alternatives) if len(alternatives) > 1 else (
                (singular_stem(head),) if len(common) == 1 else tuple(singular_stem(w) for w in common))
            shape = ""
            if match.group("measure"):  # "how thick were the films": a length answers, "thick" is no facet of the topic
                measure = match.group("measure").lower()
                phrase = f"{_MEASURED_AS[measure]} of the {phrase}"
                if shape := amount_measured(measure):
                    terms += (singular_stem(measure),)
            if written and (match.group("asks") or "").lower() == "what" and not match.group("preposition") \
                    and not wants_number and not written(terms):
                continue
            found.append(DetailAsk(phrase, terms, wants_number, False, shape,
                                   all_terms=len(common) > 1 and not shape and len(alternatives) == 1,
                                   shape_beside_term=bool(shape), number_beside_term=wants_number and not shape,
                                   companions=companions))
    return found


# A bracketed aside or a word, as a question's tokens: "mechanism (GRI, ABF, CRECK...) did".
_ASIDE_OR_WORD = re.compile(r"\([^()]*\)|[^\s()]+")


def answer_words(question: str) -> set[str]:
    """The words a what/which question offers as its answer or asks to be told, not the paper's topic: the thing
    asked ("which IMF does pancake assume"), its alternatives ("which SDR / radio hardware") and the candidates in a
    bracket after it ("which mechanism (GRI, ABF, CRECK...)", "what luminosity (log L/Lsun)"). A word before the
    thing says whose it is ("which NIRCam filters") and stays the topic's."""
    offered: set[str] = set()
    for match in _FOCUS_START.finditer(question):
        tokens, words = _ASIDE_OR_WORD.findall(question[match.end():]), []
        for token in tokens[:8]:
            if token.startswith("("):
                offered.update(re.findall(r"[^\s,;?!.()]+(?:\.\d+)?", token))
                break
            word = token.strip("?.,!;:\"'")
            if not word or word.lower() in _FOCUS_END or len(words) > 4:
                break
            words.append(word)
            if word != token:
                break
        joined = " ".join(words).replace(" / ", "/").split()
        offered.update(part for word in joined[-1:] + [w for w in joined if "/" in w] for part in word.split("/"))
    return offered | {part for word in offered for part in word.split("/")}


# Examples the asker offers of what they ask for: after "e.g." or "such as" ("(e.g. MediaPipe, OpenPose)", "such as
# JUNO"), or a bracket of guesses or of a list left open ("(NRLMSISE-00? Jacchia?)", "(GRI, ABF, CRECK...)",
# "(SPT-100?)"); not a bracket of authors ("(Kunz, Mikhaliuk, Shnir)").
_EXAMPLES_LEAD = re.compile(r"\b(?:e\.g\.?|such\s+as|for\s+example)\s*,?\s*([^()?;]+)", re.I)
_BRACKET = re.compile(r"\(([^()]*)\)")
_GUESSED = re.compile(r"\w\s*\?")
# A name among them: words with a capital ("CaF2", "1T-TaS2", "Hatano-Nelson", "OMEGA", "Simons Observatory").
_NAME_WORD = r"(?<![\w-])(?=[\w.+-]*[A-Z])[A-Za-z0-9][\w.+-]*(?<![.-])"
_OFFERED_NAME = re.compile(rf"{_NAME_WORD}(?:\s+{_NAME_WORD})*")
# A bracket likening the answer to names: "(like T7 and T8)", not "(like LCOE but per neutron)".
_LIKE_NAMES = re.compile(rf"(?i:like)\s+{_NAME_WORD}(?:\s*(?:,|and|or)\s*{_NAME_WORD})*\s*\??")


def offered_examples(question: str) -> list[str]:
    """The names the asker offers as examples of what they ask for ("which pose estimation model (e.g. MediaPipe,
    OpenPose)": ["MediaPipe", "OpenPose"]; "which wearable device ...? empatica?": ["empatica"]); the answer says which
    of them the abstract writes, if any."""
    spans = _EXAMPLES_LEAD.findall(question) + [inside for inside in _BRACKET.findall(question)
                                                 if _GUESSED.search(inside) or _left_open(inside)
                                                 or _LIKE_NAMES.fullmatch(inside)]
    named = [name for span in spans for part in span.split("/") for name in _OFFERED_NAME.findall(part)]
    return list(dict.fromkeys(named + guessed_after_ask(question)))


# Words of an ask, not of a guess at its answer ("? and T*?", "- whats the benefit?").
_ASK_WORD = re.compile(r"\b(?:what|whats|which|how|who|whom|where|when|why|whether|did|do|does|is|are|was|were|can"
                       r"|could|would|will|should|has|have|had|any|they|it|its|their|them|i|you|we|me|please|thanks?"
                       r"|and|also|but|or)\b", re.I)
_GUESS_ITEM = re.compile(r"\s*(?:,|/|\bor\b|\?|\.{3}|\u2026|\betc\b\.?)\s*", re.I)
_VAGUE_GUESS = re.compile(r"^(?:something|anything|some|other|others|else|another)\b", re.I)


def guessed_after_ask(question: str) -> list[str]:
    """The guesses a question closes with after its "?" ("which wearable ...? empatica?", "...? acetone? ethanol?",
    "...? benzene, toluene...?"): each a few words, none asking, one at least a name (not "? main focus?")."""
    ask, mark, tail = _BRACKET.sub(" ", question).strip().partition("?")  # not a "?" of "(SPT-100?)"
    if not mark or not tail.strip() or not tail.rstrip().endswith("?") or not _ASK_WORD.search(ask):
        return []
    items = [re.sub(r"^(?:(?:a|an|the|like|maybe|perhaps|probably|say)\s+)+", "", item.strip(" .'\""), flags=re.I)
             for item in _GUESS_ITEM.split(tail.strip()[:-1]) if item.strip(" .'\"")]
    if any(_ASK_WORD.search(item) or len(item.split()) > 4 for item in items):
        return []
    # a thing's name, not words of a further ask ("? main focus?"): a capital, a digit or a word no dictionary has
    words = dictionary_words()
    if not any(w[1:] != w[1:].lower() or any(c.isdigit() for c in w) or w.lower() not in words
               for item in items for w in re.findall(r"[\w-]+", item)):  # "Only in simulations" is no name
        return []
    return [item for item in items if not _VAGUE_GUESS.match(item)]


def writes_name(text: str, name: str) -> bool:
    """Whether the text writes the name as a word; a short one in its case ("B" is no "b"), not a number's start ("T8"
    of "T8.9")."""
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-]|\.\d)", text, 0 if len(name) < 4 else re.I) is not None


def _left_open(listed: str) -> bool:
    """Whether a bracket lists things and leaves the list open: a comma, then an ellipsis ("GRI, ABF, CRECK...")."""
    comma = listed.find(",")
    return comma >= 0 and max(listed.rfind("..."), listed.rfind("\u2026")) > comma
