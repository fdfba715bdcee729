"""Give each paper the short name a reader would use ("PipeFSDP") and a title when it has none."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from store.acronyms import long_form_of
from store.tokens import (
    FUNCTION_WORDS,
    TOKEN_STRIP,
    core_token,
    is_coined,
    split_sentences,
    strip_lead,
)

MAX_TITLE = 120
MAX_TEXT = 4000  # names are introduced early; capping keeps pathological inputs linear
_MAX_OBJECT = 300  # chars of a sentence read after "we propose"
_MAX_MATCHES = 25
_MAX_NAME = 90
_MAX_WORDS = 11  # a descriptive name longer than this is cut back to _CUT_WORDS
_CUT_WORDS = 8

_BAD_START = frozenset(
    "this these those it they them that such several many some two three four five six multiple "
    "various both each any all how-to whether".split()
)
_GENERIC = frozenset(
    "method approach model framework system technique algorithm architecture solution scheme "
    "strategy analysis study idea paper work tool procedure module pipeline".split()
)

_PROPOSE_VERBS = (r"propos|introduc|present|develop|design|build|built|releas|construct|creat|"
                  r"contribut|devis|curat|establish|open-sourc")
_PROPOSE_RE = re.compile(
    r"\b(?P<subj>[Ww]e|[Tt]his (?:paper|work|study|article|report)|[Oo]ur (?:paper|work|study)|[Aa]nd)"
    r"(?:\s+(?:also|further|first|then|newly|additionally|thus|hereby|therefore|hence|here|now|finally"
    r"|instead|next|subsequently|specifically|formally|carefully|systematically))*"
    rf"\s+(?:{_PROPOSE_VERBS})(?:e|es|ed|s|ing)?\b"
    r"(?:\s+and\s+(?:analy[sz]e|evaluate|study|test|implement|validate|apply|train|release|open-source"
    r"|benchmark|deploy)s?\b)?\s*"
)
_STUDY_RE = re.compile(
    r"\b(?:[Ww]e|[Tt]his (?:paper|work|study)|[Tt]his position paper)"
    r"(?:\s+(?:also|further|first|then|here|now|formally|systematically|theoretically|empirically))*"
    r"\s+(?:study|studies|investigate|investigates|examine|examines|analy[sz]e|analy[sz]es|explore|"
    r"explores|formulate|formulates|characteri[sz]e|characteri[sz]es|revisit|revisits|consider|considers"
    r"|address|addresses|tackle|tackles)\b\s*"
)
_ARGUE_RE = re.compile(
    r"\b(?:[Ww]e|[Tt]his (?:position )?(?:paper|work))\s+(?:argue|argues|posit|posits|contend|contends"
    r"|claim|claims)\s+that\s+"
)
_QUESTION_BEFORE = re.compile(r"\b(?:can|could|should|would|how|do|shall|if|whether)\s+$", re.I)
_CALLED_RE = re.compile(
    r"\b(?:called|named|dubbed|termed|coined|known as|referred to as|we term|we call|we name|we dub)"
    r"\s+"
)
_OUR_RE = re.compile(
    r"\b[Oo]ur\s+(?:proposed\s+|new\s+)?(?:(?:method|model|framework|approach|system|benchmark|dataset"
    r"|agent|algorithm|architecture|tool)\s+)?"
)
_CLAUSE_END = re.compile(
    r"\s(?:that|which|where|whereby|who|whose|when|while|whereas|because|by|using|so that|in order to"
    r"|thereby|thus|to address|to tackle|to solve|to mitigate)\b"
    r"|\sand\s+(?=\w+ly\s|(?:analy[sz]e|show|prove|demonstrate|derive|evaluate|use|apply|provide|propose"
    r"|introduce|present|validate|establish|study|investigate|find|obtain|develop|design|train|achieve"
    r"|conduct|perform|compare|extend)\b)|[,;:!?]|\.(?:\s|$)|\s[–—-]{1,2}\s|\s\("
    r"|\s[–—]|[–—]\s"
)
_VERBISH = frozenset(
    "is are was were be has have had remains remain requires require uses use offers offer provides "
    "provide can could should must will would may might needs need calls call lies lie does do "
    "achieves achieve enables enable allows allow relies rely depends depend suffers suffer "
    "struggles struggle faces face poses pose plays play shows show demonstrates demonstrate "
    "continues continue becomes become involves involve aims aim seeks seek".split()
)


def _first(matches: Iterator[re.Match[str]]) -> Iterator[re.Match[str]]:
    """At most _MAX_MATCHES matches: a real abstract never has more; garbage might have thousands."""
    return itertools.islice(matches, _MAX_MATCHES)


def _count(text: str, name: str) -> int:
    """How often ``name`` occurs as a whole token (ViDiC does not count inside ViDiC-1K)."""
    return len(re.findall(rf"(?<![\w\-]){re.escape(name)}(?![\w\-]|\+)", text))


def _object(text: str, start: int) -> str:
    """The rest of the sentence that begins at ``start``."""
    rest = text[start : start + _MAX_OBJECT]
    m = re.search(r"\.(?:\s|$)", rest)
    return rest[: m.start()] if m else rest


def _coined_in(obj: str) -> list[str]:
    """Coined names an object phrase introduces: its head and any 'and its X' coordinate."""
    found: list[str] = []
    named = re.search(r"\b(?:called|named|dubbed|termed|coined)\s+(\S+)", obj)
    if named and is_coined(named.group(1)):
        found.append(core_token(named.group(1)))
    clause = re.split(r"[,;:]|\s(?:that|which|where|to|for|with|on|in|from|via|by)\s", obj, maxsplit=1)[0]
    for conjunct in re.split(r"\s(?:and|as well as)\s", clause):
        words = strip_lead(conjunct).split()
        words = [w for w in words if w.lower() not in ("its", "corresponding", "accompanying", "associated")]
        for word in words[:3]:
            if is_coined(word):
                found.append(core_token(word))
                break
    return found


def _describe(phrase: str) -> str | None:
    """Turn a noun phrase into a short descriptive name, or None if it says nothing."""
    phrase = re.sub(r"^(?:the|this|these) (?:question|questions|problem|problems|phenomenon|issue|"
                    r"setting|task)s? (?:for|in|on|of)\s+", "", phrase.strip(), flags=re.I)
    phrase = re.sub(r"^(?:the |a )?(?:\w+ )?(?:problem|task|question|challenge|issue)s? of\s+", "", phrase, flags=re.I)
    if phrase.split()[:1] and phrase.split()[0].lower() in _BAD_START:
        return None  # "this brittleness", "three factors": refers back, names nothing
    phrase = strip_lead(phrase)
    phrase = _drop_generic_head(phrase)
    cut = _CLAUSE_END.search(phrase)
    if cut:
        phrase = phrase[: cut.start()]
    words = [w for w in phrase.split() if w.strip(TOKEN_STRIP)]
    if len(words) > _MAX_WORDS:
        words = words[:_CUT_WORDS]
    while words and words[-1].lower().strip(TOKEN_STRIP) in FUNCTION_WORDS:
        words.pop()
    if not words:
        return None
    first = words[0].lower().strip(TOKEN_STRIP)
    if first in _BAD_START or first in FUNCTION_WORDS and first not in ("how", "why", "when", "what"):
        return None
    if len(words) == 1 and first in _GENERIC or sum(c.isalpha() for c in "".join(words)) < 4:
        return None
    if all(w.lower().strip(TOKEN_STRIP) in _GENERIC | FUNCTION_WORDS | {"our", "we"} for w in words):
        return None
    name = " ".join(words).strip(TOKEN_STRIP.replace("(", "").replace(")", "") + " ")
    name = name.strip()
    if name.count("(") != name.count(")"):
        name = name.replace("(", "").replace(")", "")
    return name[:1].upper() + name[1:] if name else None


_GENERIC_HEAD = re.compile(
    r"^(?:approach|method|framework|technique|algorithm|way|means|procedure|strategy|scheme|tool)(?:e?s)?"
    r"\s+(for|to|of)\s+(\S+)(.*)$", re.I | re.S)


def _drop_generic_head(phrase: str) -> str:
    """'method to enhance X' -> 'enhancing X'; 'approach for X' -> 'X' (the generic noun adds nothing)."""
    m = _GENERIC_HEAD.match(phrase)
    if not m:
        return phrase
    prep, word, rest = m.groups()
    if prep.lower() == "to":
        if word.lower() in FUNCTION_WORDS or not word.isalpha():
            return phrase
        word = gerund(word) if not word.endswith("ing") else word
    return f"{word}{rest}"


def gerund(verb: str) -> str:
    """predicts -> predicting, uses -> using, applies -> applying (third person or base form)."""
    v = verb.lower()
    if v.endswith("ing"):
        return v
    if v.endswith("ies"):
        base = v[:-3] + "y"
    elif v.endswith(("sses", "shes", "ches", "xes", "zes")):
        base = v[:-2]
    elif v.endswith("s") and not v.endswith("ss"):
        base = v[:-1]
    else:
        base = v
    if base.endswith("ie"):
        return base[:-2] + "ying"
    if base.endswith("e") and not base.endswith(("ee", "ye", "oe")):
        return base[:-1] + "ing"
    return base + "ing"


def _relative_clause(obj: str) -> str | None:
    """'our method, which predicts X' -> 'Predicting X' for contributions that have no name."""
    m = re.match(r"(?:our|a|an|the)\s+(?:\w+\s+){0,2}?(?:method|approach|model|framework|system|"
                 r"technique|algorithm|architecture|pipeline),?\s+(?:which|that)\s+([a-z]+s)\s+(.+)", obj)
    if not m:
        return None
    return _describe(f"{gerund(m.group(1))} {m.group(2)}")


def _first_subject(sentence: str) -> str | None:
    """The subject of a sentence: the words before its first verb-like word."""
    words = sentence.split()
    for i, w in enumerate(words[:10]):
        if i and w.lower().strip(TOKEN_STRIP) in _VERBISH:
            return _describe(" ".join(words[:i]))
    return None


def _introduced(text: str) -> list[tuple[str, int]]:
    """Coined names the abstract introduces ('we propose X', 'called X'), with their positions."""
    found: list[tuple[str, int]] = []
    for m in _first(_PROPOSE_RE.finditer(text)):
        if _QUESTION_BEFORE.search(text, max(0, m.start() - 12), m.start()):
            continue  # "can we design X?" asks, it does not contribute
        obj = _object(text, m.end())
        long = long_form_of(obj)
        found.extend((n, m.start()) for n in ([long] if long else _coined_in(obj)))
    for m in _first(_CALLED_RE.finditer(text)):
        words = _object(text, m.end()).split()
        if words and is_coined(words[0]):
            found.append((core_token(words[0]), m.start()))
    return found


def _descriptions(text: str) -> Iterator[str]:
    """Descriptive names, best first: what 'we propose', what is 'called', what 'we study', the topic."""
    for m in _first(_PROPOSE_RE.finditer(text)):
        if m.group("subj").lower() == "and" or _QUESTION_BEFORE.search(text, max(0, m.start() - 12), m.start()):
            continue  # "and introduce artifacts" is too often not a contribution
        obj = _object(text, m.end())
        if long_form_of(obj) or _coined_in(obj):
            continue
        desc = _describe(obj) or _relative_clause(obj)
        if desc and not desc.lower().startswith(("our ", "a ", "an ")):
            yield desc
    for m in _first(_CALLED_RE.finditer(text)):
        if desc := _describe(_object(text, m.end()).strip("\"“”'‘’")):
            yield desc
    studied: list[tuple[int, str]] = []
    for regex in (_STUDY_RE, _ARGUE_RE):
        for m in _first(regex.finditer(text)):
            obj = _object(text, m.end())
            if regex is _ARGUE_RE:
                words = obj.split()
                stop = next((i for i, w in enumerate(words) if i and w.lower() in _VERBISH), None)
                obj = " ".join(words[:stop]) if stop else ""
            if desc := _describe(obj):
                studied.append((m.start(), desc))
    yield from (desc for _, desc in sorted(studied))
    sentences = split_sentences(text)
    if sentences and (subject := _key_phrase(sentences[0])):
        yield subject


def _key_phrase(sentence: str) -> str | None:
    """The main noun phrase of a sentence, skipping 'In this paper, we show that ...'."""
    rest = re.sub(r"^(?:In this (?:paper|work|note|article)|Here|Recently|In recent years|Over the past"
                  r"(?: few)? (?:years|decades?))[, ]+", "", sentence.strip(), flags=re.I)
    rest = re.sub(r"^(?:we|this (?:paper|work))\s+\w+\s+(?:that\s+|how\s+|whether\s+)?", "", rest, flags=re.I)
    return _first_subject(rest) or _describe(rest)


def _weak_coined(text: str) -> list[str]:
    """Coined names the abstract only hints at: 'Our X achieves', 'X, a benchmark ...'."""
    found = []
    for m in _first(_OUR_RE.finditer(text)):
        word = text[m.end():].split(maxsplit=1)[:1]
        if word and is_coined(word[0]):
            found.append(core_token(word[0]))
    for sentence in split_sentences(text):
        m = re.match(r"(\S+),\s+(?:a|an)\s", sentence)
        if m and is_coined(m.group(1)):
            found.append(core_token(m.group(1)))
    return found


def _best_coined(text: str, strong: list[tuple[str, int]]) -> str | None:
    """The introduced name mentioned most (the first one gets a head start)."""
    if not strong:
        return None
    first = min(strong, key=lambda c: c[1])[0]
    scores: dict[str, tuple[float, int]] = {}
    for name, pos in strong:
        short = re.sub(r".*\(([^()]+)\)$", r"\1", name)
        score = _count(text, short) + (1.5 if name == first else 0.0)
        if name not in scores or scores[name][0] < score:
            scores[name] = (score, -pos)
    return max(scores, key=lambda n: scores[n])


_BREAK_WORDS = frozenset("for with in on via by using from under through towards toward without and".split())


def _short_title(title: str) -> str:
    """A title cut to a handful of words, before a preposition when possible."""
    words = title.split()
    if len(words) <= _MAX_WORDS - 1:
        return title.strip().rstrip(".")
    words = words[:_CUT_WORDS]
    breaks = [i for i, w in enumerate(words) if i >= 3 and w.lower() in _BREAK_WORDS]
    if breaks:
        words = words[: breaks[-1]]
    while len(words) > 1 and words[-1].lower().strip(TOKEN_STRIP) in FUNCTION_WORDS:
        words.pop()
    return " ".join(words).rstrip(",;:")


def _title_prefix(title: str) -> str | None:
    """'PixelDiT: Pixel Diffusion Transformers' -> 'PixelDiT' when the part before ':' is short."""
    m = re.match(r"(.{2,80}?)(?::(?:\s|(?=[A-Z]))|\s[–—-]\s)", title)
    if not m:
        return None
    prefix = m.group(1).strip()
    if len(prefix.split()) > 6 or not re.search(r"[A-Za-z]", prefix) or "\\" in prefix:
        return None
    return prefix


def derive_name(clean_abstract: str, title: str | None = None) -> str:
    """The short name a reader would call the paper by; never empty."""
    text = " ".join((clean_abstract or "")[:MAX_TEXT].split())
    title = " ".join((title or "")[:MAX_TEXT].split()) or None
    name = _name(text, title).strip()
    if not re.search(r"\w", name):
        name = title or " ".join(text.split()[:6]) or "Untitled paper"
    name = clip(name, _MAX_NAME)
    return name if re.search(r"\w", name) else "Untitled paper"


def _name(text: str, title: str | None) -> str:
    try:
        if title:
            if prefix := _title_prefix(title):
                return prefix
            coined = _best_coined(text, _introduced(text))
            return coined if coined and _count(title, coined.split(" (")[0]) else _short_title(title)
        coined = _best_coined(text, _introduced(text)) or next(iter(_weak_coined(text)), None)
        if coined:
            return coined
        if described := next(_descriptions(text), None):
            return described
    except Exception:  # noqa: BLE001 - a name is cosmetic; ingestion must go on
        pass
    if title:
        return title[:MAX_TITLE]
    words = text.split()[:6]
    return " ".join(words).strip(TOKEN_STRIP + " ") or "Untitled paper"


def clip(text: str, limit: int = MAX_TITLE) -> str:
    text = text.strip().rstrip(",;:")
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0]
    words = cut.split()
    while len(words) > 1 and words[-1].lower().strip(TOKEN_STRIP) in FUNCTION_WORDS:
        words.pop()
    return " ".join(words).rstrip(",;:") + "…"


