"""A paper's title when its record has none: the sentence or appositive that says what the named thing is, clipped."""

from __future__ import annotations

import re

from store.naming import MAX_TEXT, clip, gerund
from store.tokens import split_sentences

_APPOSITIVE_END = re.compile(
    r"\s(?:that|which|where|whereby|whose|who|to address|to tackle|thereby)\b|;|\.(?:\s|$)"
    r"|,\s(?=(?:which|that|where|and|while|but|thus|thereby|allowing|enabling|making|achieving|"
    r"designed|built|trained|featuring|consisting|combining|using|leveraging|where|with)\b)"
)


# A short appositive ("a continuous-time reformulation") reads better with its that-clause.
_APPOSITIVE_END_LONG = re.compile(r";|\.(?:\s|$)|,\s")


_SHORT_APPOSITIVE = 6


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
            return f"{m.group(1) or ''}{gerund(m.group(2))} {clause}".strip()
    return None


def _subject_sentence(text: str, name: str) -> str | None:
    """A sentence that opens with the name and a verb: 'ViDiC-1K comprises 1,000 curated ...'."""
    for sentence in split_sentences(text):
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
    sentences = split_sentences(text)
    if not sentences:
        return ""
    first = sentences[0].rstrip(".")
    for piece in re.split(r"[,;:]\s", first):
        if len(piece.split()) >= 4:
            return piece.strip()
    return first


def derive_title(clean_abstract: str, name: str) -> str:
    """A readable title for a paper that has none, e.g. 'PipeFSDP: an efficient training framework ...'."""
    text = " ".join((clean_abstract or "")[:MAX_TEXT].split())
    name = " ".join((name or "")[:MAX_TEXT].split()) or "Untitled paper"
    title = _title(text, name)
    return title if re.search(r"\w", title) else clip(name) or "Untitled paper"


def _title(text: str, name: str) -> str:
    try:
        if " " not in name and (expansion := _expansion(text, name)):
            return clip(f"{name}: {expansion}")
        if described := _appositive(text, name) or _relative(text, name):
            return clip(f"{name}: {described}")
        if sentence := _subject_sentence(text, name):
            return clip(sentence)
        clause = _first_clause(text)
        if not clause:
            return clip(name)
        if name.lower() in clause.lower():
            return clip(clause)
        return clip(f"{name}: {clause}")
    except Exception:  # noqa: BLE001 - a title is cosmetic; ingestion must go on
        return clip(name)
