"""Acronyms an abstract defines ("... Sparse Model Inversion (SMI)") and their long forms."""

from __future__ import annotations

import re

from store.tokens import (
    FUNCTION_WORDS,
    core_token,
    is_coined,
    is_common_acronym,
    strip_lead,
)


def long_form_of(obj: str) -> str | None:
    """``Long Name (ACR)`` or ``ACR (Long Name)`` at the start of an object phrase."""
    head = strip_lead(obj)
    m = re.match(r"([^()]{2,120}?)\s*\(([^()]{1,120})\)", head)
    if not m or re.search(r"[,;.:]\s", m.group(1)):
        return None
    outside, inside = m.group(1).strip(), m.group(2).strip()
    out_words, in_words = outside.split(), inside.split()
    if len(in_words) == 1 and is_coined(inside) or (len(in_words) == 1 and inside.isupper() and len(inside) >= 2):
        if is_common_acronym(inside):
            return None
        if _looks_like_long_name(out_words, inside):
            if len(out_words) == 1 and "-" not in outside:
                return core_token(inside)  # V1DynamicVisionSystem (V1-DVS): the short form is what people say
            return f"{outside} ({core_token(inside)})"
        if spelled := _initials_match(out_words, inside):
            long = " ".join(spelled)
            return f"{long[:1].upper()}{long[1:]} ({core_token(inside)})"
    if len(out_words) == 1 and is_coined(outside) and len(in_words) >= 2 and in_words[0][:1].isupper():
        return core_token(outside)  # PROVE (Perturb-and-Repair ...)
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
        if w[:1].isupper() or w[:1].isdigit() or w.lower() in FUNCTION_WORDS:
            continue
        return False
    return words[0][:1].lower() == acronym[:1].lower()
