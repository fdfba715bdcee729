"""Give each paper the short name a reader would use ("PipeFSDP") and a title when it has none."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

MAX_TITLE = 120
_MAX_TEXT = 4000  # names are introduced early; capping keeps pathological inputs linear
_MAX_OBJECT = 300  # chars of a sentence read after "we propose"
_MAX_MATCHES = 25
_MAX_NAME = 90
_MAX_WORDS = 11  # a descriptive name longer than this is cut back to _CUT_WORDS
_CUT_WORDS = 8

# Acronyms that are everyday vocabulary in abstracts, not the name of the paper's contribution.
_COMMON = frozenset(
    """
    ai ml dl rl nlp cv llm vlm mllm lvlm lmm slm gpu cpu tpu api sota cnn rnn gnn gan vae mlp sgd ode
    pde sde kl mdp pomdp qa vqa ood id iid us uk eu vit gpt bert clip rlhf dpo ppo grpo moe nerf cot
    rag kv flops mfu f1 auc roc mse mae psnr ssim fid iou map bleu rouge nas svm pca ica em mcmc
    hmm crf lstm gru ssm bo gp gps rkhs ntk pac ucb td dqn sac ppl lm lms nn dnn ann snn imu rgb
    rgbd lidar mri ct ecg eeg fmri dna rna url html json csv pdf ii iii iv xai gans
    """.split()
)
_FUNCTION = frozenset(
    "a an the of for and or in on with to via by from at as into onto over under its their our "
    "this these that which is are be".split()
)
_DETERMINERS = ("a", "an", "the", "our", "one", "some", "this", "its", "their")
_EVALUATIVE = ("novel", "new", "simple", "principled", "general", "generic", "straightforward",
               "first", "unique", "powerful", "innovative", "elegant", "first-ever", "brand-new")
_YET = re.compile(r"^(?:simple|novel|effective|efficient|general|lightweight|practical)"
                  r"(?:,? (?:yet|but|and) (?:highly )?(?:effective|efficient|powerful|general|scalable))\s+",
                  re.I)
_BAD_START = frozenset(
    "this these those it they them that such several many some two three four five six multiple "
    "various both each any all how-to whether".split()
)
_GENERIC = frozenset(
    "method approach model framework system technique algorithm architecture solution scheme "
    "strategy analysis study idea paper work tool procedure module pipeline".split()
)
_ABBREVIATIONS = ("e.g.", "i.e.", "et al.", "etc.", "vs.", "cf.", "Fig.", "Eq.", "approx.", "resp.",
                  "w.r.t.", "a.k.a.", "i.i.d.", "Dr.", "Inc.", "No.", "Sec.", "al.")
_DOT = "\u2024"  # stands in for abbreviation dots while splitting sentences

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
_TOKEN_STRIP = ".,;:!?\"'“”‘’()[]{}<>*"


def _first(matches: Iterator[re.Match[str]]) -> Iterator[re.Match[str]]:
    """At most _MAX_MATCHES matches: a real abstract never has more; garbage might have thousands."""
    return itertools.islice(matches, _MAX_MATCHES)


def _sentences(text: str) -> list[str]:
    """Split into sentences without breaking on e.g./et al./decimals."""
    protected = text
    for abbr in _ABBREVIATIONS:
        protected = protected.replace(abbr, abbr.replace(".", _DOT))
    parts = re.split(r"(?<=[.!?])\s+(?=[A-Z0-9\"“(\[$*\\])", protected)
    return [p.replace(_DOT, ".").strip() for p in parts if p.strip()]


def _core(token: str) -> str:
    """A token without surrounding punctuation or a possessive ending."""
    core = token.strip(_TOKEN_STRIP)
    core = re.sub(r"['’]s$", "", core)
    return core.strip(_TOKEN_STRIP)


def is_common_acronym(core: str) -> bool:
    low = core.lower()
    return low in _COMMON or (low.endswith("s") and low[:-1] in _COMMON)


def _part_is_coined(part: str) -> bool:
    letters = [c for c in part if c.isalpha()]
    if not letters:
        return False
    upper = sum(c.isupper() for c in letters)
    pairs = list(zip(part, part[1:]))
    if any(a.islower() and b.isupper() for a, b in pairs) or re.search(r"[A-Z]{2}[a-z]", part):
        return True  # CamelCase (Unicode too): PhysVista, ViDiC, LoRA, CaféNet
    if upper >= 2 and upper >= len(letters) - 1:
        return True  # ALLCAPS (allowing a plural s): VISD, PROVE
    return bool(re.search(r"\d", part)) and part[:1].isalpha()  # R1, V1, Qwen3


def _is_coined(token: str) -> bool:
    """Does this token look like a made-up name (CamelCase, ALLCAPS, digits, capitalised hyphen parts)?"""
    core = _core(token)
    if len(core) < 2 or not re.search(r"[A-Za-z].*[A-Za-z]|[A-Za-z]\d|\d[A-Za-z]", core):
        return False
    if "\\" in core or is_common_acronym(core):
        return False
    parts = [p for p in re.split(r"[-/]", core) if p]
    if not parts:
        return False
    last = parts[-1]
    if last.isalpha() and last.islower() and len(parts) > 1:
        return False  # LoRA-based, LLM-guided: a modifier, not a name
    if all(is_common_acronym(p) or not _part_is_coined(p) for p in parts):
        return False
    return core[:1].isalnum()


def _count(text: str, name: str) -> int:
    """How often ``name`` occurs as a whole token (ViDiC does not count inside ViDiC-1K)."""
    return len(re.findall(rf"(?<![\w\-]){re.escape(name)}(?![\w\-]|\+)", text))


def _strip_lead(phrase: str) -> str:
    """Drop determiners and praise ("a novel", "the", "simple yet effective") from a noun phrase."""
    words = phrase.split()
    changed = True
    while words and changed:
        changed = False
        m = _YET.match(" ".join(words) + " ")
        if m:
            words, changed = (" ".join(words) + " ")[m.end():].split(), True
            continue
        low = words[0].lower().strip(_TOKEN_STRIP)
        if low in _DETERMINERS or low in _EVALUATIVE:
            words, changed = words[1:], True
    return " ".join(words)


def _long_form(obj: str) -> str | None:
    """``Long Name (ACR)`` or ``ACR (Long Name)`` at the start of an object phrase."""
    head = _strip_lead(obj)
    m = re.match(r"([^()]{2,120}?)\s*\(([^()]{1,120})\)", head)
    if not m or re.search(r"[,;.:]\s", m.group(1)):
        return None
    outside, inside = m.group(1).strip(), m.group(2).strip()
    out_words, in_words = outside.split(), inside.split()
    if len(in_words) == 1 and _is_coined(inside) or (len(in_words) == 1 and inside.isupper() and len(inside) >= 2):
        if is_common_acronym(inside):
            return None
        if _looks_like_long_name(out_words, inside):
            if len(out_words) == 1 and "-" not in outside:
                return _core(inside)  # V1DynamicVisionSystem (V1-DVS): the short form is what people say
            return f"{outside} ({_core(inside)})"
        if spelled := _initials_match(out_words, inside):
            long = " ".join(spelled)
            return f"{long[:1].upper()}{long[1:]} ({_core(inside)})"
    if len(out_words) == 1 and _is_coined(outside) and len(in_words) >= 2 and in_words[0][:1].isupper():
        return _core(outside)  # PROVE (Perturb-and-Repair ...)
    return None


def _initials_match(words: list[str], acronym: str) -> list[str] | None:
    """The trailing words whose initials spell the acronym: 'evolving connectivity (EC)'."""
    letters = [c.lower() for c in acronym if c.isalpha()]
    parts: list[tuple[int, str]] = []  # (word index, initial) for every hyphen part
    for i, word in enumerate(words):
        for piece in re.split(r"[-/]", word):
            if piece[:1].isalpha():
                parts.append((i, piece[0].lower()))
    if not letters or len(letters) > len(parts):
        return None
    tail = parts[-len(letters):]
    split_word = len(parts) > len(letters) and tail[0][0] == parts[-len(letters) - 1][0]  # "Co-Training (T)"
    if [c for _, c in tail] != letters or (tail[0][0] > 0 and split_word):
        return None
    return words[tail[0][0]:]


_DEFINITION = re.compile(r"((?:[\w\-/]+\s+){1,8})\(([A-Za-z][A-Za-z0-9\-]{1,10}?)s?\)")


def defined_acronyms(text: str) -> dict[str, str]:
    """The acronyms a text defines, with their long forms: 'Predictive Coding (PC)' -> {'PC': 'Predictive Coding'}."""
    found = {}
    for match in _DEFINITION.finditer(text):
        acronym = match.group(2)
        long_form = _initials_match(match.group(1).split(), acronym) if sum(c.isupper() for c in acronym) >= 2 else None
        if long_form:
            found.setdefault(acronym, " ".join(long_form))
    return found


def _looks_like_long_name(words: list[str], acronym: str) -> bool:
    if not words or len(words) > 8 or not words[0][:1].isupper():
        return False
    for w in words:
        if w[:1].isupper() or w[:1].isdigit() or w.lower() in _FUNCTION:
            continue
        return False
    return words[0][:1].lower() == acronym[:1].lower()


def _object(text: str, start: int) -> str:
    """The rest of the sentence that begins at ``start``."""
    rest = text[start : start + _MAX_OBJECT]
    m = re.search(r"\.(?:\s|$)", rest)
    return rest[: m.start()] if m else rest


def _coined_in(obj: str) -> list[str]:
    """Coined names an object phrase introduces: its head and any 'and its X' coordinate."""
    found: list[str] = []
    named = re.search(r"\b(?:called|named|dubbed|termed|coined)\s+(\S+)", obj)
    if named and _is_coined(named.group(1)):
        found.append(_core(named.group(1)))
    clause = re.split(r"[,;:]|\s(?:that|which|where|to|for|with|on|in|from|via|by)\s", obj, maxsplit=1)[0]
    for conjunct in re.split(r"\s(?:and|as well as)\s", clause):
        words = _strip_lead(conjunct).split()
        words = [w for w in words if w.lower() not in ("its", "corresponding", "accompanying", "associated")]
        for word in words[:3]:
            if _is_coined(word):
                found.append(_core(word))
                break
    return found


def _describe(phrase: str) -> str | None:
    """Turn a noun phrase into a short descriptive name, or None if it says nothing."""
    phrase = re.sub(r"^(?:the|this|these) (?:question|questions|problem|problems|phenomenon|issue|"
                    r"setting|task)s? (?:for|in|on|of)\s+", "", phrase.strip(), flags=re.I)
    phrase = re.sub(r"^(?:the |a )?(?:\w+ )?(?:problem|task|question|challenge|issue)s? of\s+", "", phrase, flags=re.I)
    if phrase.split()[:1] and phrase.split()[0].lower() in _BAD_START:
        return None  # "this brittleness", "three factors": refers back, names nothing
    phrase = _strip_lead(phrase)
    phrase = _drop_generic_head(phrase)
    cut = _CLAUSE_END.search(phrase)
    if cut:
        phrase = phrase[: cut.start()]
    words = [w for w in phrase.split() if w.strip(_TOKEN_STRIP)]
    if len(words) > _MAX_WORDS:
        words = words[:_CUT_WORDS]
    while words and words[-1].lower().strip(_TOKEN_STRIP) in _FUNCTION:
        words.pop()
    if not words:
        return None
    first = words[0].lower().strip(_TOKEN_STRIP)
    if first in _BAD_START or first in _FUNCTION and first not in ("how", "why", "when", "what"):
        return None
    if len(words) == 1 and first in _GENERIC or sum(c.isalpha() for c in "".join(words)) < 4:
        return None
    if all(w.lower().strip(_TOKEN_STRIP) in _GENERIC | _FUNCTION | {"our", "we"} for w in words):
        return None
    name = " ".join(words).strip(_TOKEN_STRIP.replace("(", "").replace(")", "") + " ")
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
        if word.lower() in _FUNCTION or not word.isalpha():
            return phrase
        word = _gerund(word) if not word.endswith("ing") else word
    return f"{word}{rest}"


def _gerund(verb: str) -> str:
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
    return _describe(f"{_gerund(m.group(1))} {m.group(2)}")


def _first_subject(sentence: str) -> str | None:
    """The subject of a sentence: the words before its first verb-like word."""
    words = sentence.split()
    for i, w in enumerate(words[:10]):
        if i and w.lower().strip(_TOKEN_STRIP) in _VERBISH:
            return _describe(" ".join(words[:i]))
    return None


def _introduced(text: str) -> list[tuple[str, int]]:
    """Coined names the abstract introduces ('we propose X', 'called X'), with their positions."""
    found: list[tuple[str, int]] = []
    for m in _first(_PROPOSE_RE.finditer(text)):
        if _QUESTION_BEFORE.search(text, max(0, m.start() - 12), m.start()):
            continue  # "can we design X?" asks, it does not contribute
        obj = _object(text, m.end())
        long = _long_form(obj)
        found.extend((n, m.start()) for n in ([long] if long else _coined_in(obj)))
    for m in _first(_CALLED_RE.finditer(text)):
        words = _object(text, m.end()).split()
        if words and _is_coined(words[0]):
            found.append((_core(words[0]), m.start()))
    return found


def _descriptions(text: str) -> Iterator[str]:
    """Descriptive names, best first: what 'we propose', what is 'called', what 'we study', the topic."""
    for m in _first(_PROPOSE_RE.finditer(text)):
        if m.group("subj").lower() == "and" or _QUESTION_BEFORE.search(text, max(0, m.start() - 12), m.start()):
            continue  # "and introduce artifacts" is too often not a contribution
        obj = _object(text, m.end())
        if _long_form(obj) or _coined_in(obj):
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
    sentences = _sentences(text)
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
        if word and _is_coined(word[0]):
            found.append(_core(word[0]))
    for sentence in _sentences(text):
        m = re.match(r"(\S+),\s+(?:a|an)\s", sentence)
        if m and _is_coined(m.group(1)):
            found.append(_core(m.group(1)))
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
    while len(words) > 1 and words[-1].lower().strip(_TOKEN_STRIP) in _FUNCTION:
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
    text = " ".join((clean_abstract or "")[:_MAX_TEXT].split())
    title = " ".join((title or "")[:_MAX_TEXT].split()) or None
    name = _name(text, title).strip()
    if not re.search(r"\w", name):
        name = title or " ".join(text.split()[:6]) or "Untitled paper"
    name = _clip(name, _MAX_NAME)
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
    return " ".join(words).strip(_TOKEN_STRIP + " ") or "Untitled paper"


_APPOSITIVE_END = re.compile(
    r"\s(?:that|which|where|whereby|whose|who|to address|to tackle|thereby)\b|;|\.(?:\s|$)"
    r"|,\s(?=(?:which|that|where|and|while|but|thus|thereby|allowing|enabling|making|achieving|"
    r"designed|built|trained|featuring|consisting|combining|using|leveraging|where|with)\b)"
)
# A short appositive ("a continuous-time reformulation") reads better with its that-clause.
_APPOSITIVE_END_LONG = re.compile(r";|\.(?:\s|$)|,\s")
_SHORT_APPOSITIVE = 6


def _clip(text: str, limit: int = MAX_TITLE) -> str:
    text = text.strip().rstrip(",;:")
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0]
    words = cut.split()
    while len(words) > 1 and words[-1].lower().strip(_TOKEN_STRIP) in _FUNCTION:
        words.pop()
    return " ".join(words).rstrip(",;:") + "…"


def _name_forms(name: str) -> list[str]:
    """The name as written, plus the acronym of a 'Long Name (ACR)' name."""
    forms = [name]
    if name.endswith(")") and "(" in name:
        forms.append(name.rsplit("(", 1)[1].rstrip(")"))
    return forms


def _case(form: str) -> int:
    """Descriptive names were capitalised by us; coined names must match exactly."""
    return re.I if " " in form or form[:1].isupper() and form[1:].islower() else 0


def _appositive(text: str, name: str) -> str | None:
    """The 'a/an ...' phrase right after the name: 'PipeFSDP, an efficient training framework ...'."""
    for form in _name_forms(name):
        pattern = rf"(?<![\w\-]){re.escape(form)}\)?(?:\s*\([^()]*\))?,\s+((?:a|an)\s.+)"
        m = re.search(pattern, text, flags=_case(form))
        if not m:
            continue
        phrase = m.group(1)
        end = _APPOSITIVE_END.search(phrase)
        short = phrase[: end.start()] if end else phrase
        if len(short.split()) < _SHORT_APPOSITIVE:
            end = _APPOSITIVE_END_LONG.search(phrase)
            short = phrase[: end.start()] if end else phrase
        if len(short.split()) >= 2:
            return short.strip().rstrip(",")
    return None


def _relative(text: str, name: str) -> str | None:
    """'LaP, which casts X' -> 'casting X' (the contribution described by its verb)."""
    for form in _name_forms(name):
        pattern = (rf"(?<![\w\-]){re.escape(form)}\)?(?:\s*\([^()]*\))?,?\s+(?:which|that)\s+"
                   r"(\w+ly\s+)?([a-z]+s)\s+([^;.]+)")
        m = re.search(pattern, text, flags=_case(form))
        if m:
            clause = re.split(r"[,:]\s|\s(?:that|which|while|thereby)\s", m.group(3))[0]
            return f"{m.group(1) or ''}{_gerund(m.group(2))} {clause}".strip()
    return None


def _subject_sentence(text: str, name: str) -> str | None:
    """A sentence that opens with the name and a verb: 'ViDiC-1K comprises 1,000 curated ...'."""
    for sentence in _sentences(text):
        if re.match(rf"{re.escape(name)}\s+[a-z]+s\b", sentence):
            return re.split(r"[;:]\s|,\s(?:which|while|and)\s", sentence.rstrip("."))[0]
    return None


def _expansion(text: str, name: str) -> str | None:
    """'PROVE (Perturb-and-Repair Optimization ...)' -> the expansion, for acronym names."""
    m = re.search(rf"(?<![\w\-]){re.escape(name)}\s*\(([^()]{{8,100}})\)", text)
    if m and len(m.group(1).split()) >= 2 and m.group(1)[:1].isupper():
        return m.group(1).strip()
    return None


def _first_clause(text: str) -> str:
    sentences = _sentences(text)
    if not sentences:
        return ""
    first = sentences[0].rstrip(".")
    for piece in re.split(r"[,;:]\s", first):
        if len(piece.split()) >= 4:
            return piece.strip()
    return first


def derive_title(clean_abstract: str, name: str) -> str:
    """A readable title for a paper that has none, e.g. 'PipeFSDP: an efficient training framework ...'."""
    text = " ".join((clean_abstract or "")[:_MAX_TEXT].split())
    name = " ".join((name or "")[:_MAX_TEXT].split()) or "Untitled paper"
    title = _title(text, name)
    return title if re.search(r"\w", title) else _clip(name) or "Untitled paper"


def _title(text: str, name: str) -> str:
    try:
        if " " not in name and (expansion := _expansion(text, name)):
            return _clip(f"{name}: {expansion}")
        if described := _appositive(text, name) or _relative(text, name):
            return _clip(f"{name}: {described}")
        if sentence := _subject_sentence(text, name):
            return _clip(sentence)
        clause = _first_clause(text)
        if not clause:
            return _clip(name)
        if name.lower() in clause.lower():
            return _clip(clause)
        return _clip(f"{name}: {clause}")
    except Exception:  # noqa: BLE001 - a title is cosmetic; ingestion must go on
        return _clip(name)
