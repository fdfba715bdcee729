"""How a name is typed: lower case, without accents or LaTeX, Greek letters spelled out ("Pólya", "P\\'olya" and
"Polya" alike), so a name matches however an abstract, a record or an asker writes it."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# Subscript digits as LaTeX-resolved abstracts write them ("H₂" for "H2").
_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")
# LaTeX markup left in an abstract ("Li$_{0.95}$FeAs", "\\mu SR"): dropped, so the name reads as typed; so are its
# commands ("$\\mathrm{b\\bar{b}WW}$" is "bbWW", "$\\rm H_2$" is "H2"), but a Greek letter's, which is its name.
_LATEX_MARKUP = re.compile(r"[$_^{}\\]")
_LATEX_COMMAND = re.compile(r"\\([A-Za-z]+)(\s*)")
# An accent typed in LaTeX: "Alfv\\'en", "Erd\\H{o}s", "\\v{S}", "Schr\\"odinger". The letter stays, the accent goes.
_LATEX_ACCENT = re.compile(r"\\(?:[`'^\"~=.]\s*|[uvHckr](?=\{))\{?(\\?[A-Za-z])\}?")
# Letters LaTeX writes as commands ("\\o" for "ø", "\\ss" for "ß") and Unicode letters no accent-stripping reaches: each
# as typed in ASCII.
_LATIN_LETTERS = {"i": "i", "j": "j", "o": "o", "O": "O", "l": "l", "L": "L", "ss": "ss", "ae": "ae", "AE": "AE",
                  "oe": "oe", "aa": "a", "AA": "A"}
_UNACCENTED = str.maketrans({"ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "ß": "ss", "æ": "ae", "Æ": "AE", "œ": "oe",
                             "đ": "d", "Đ": "D", "ı": "i"})


@lru_cache(maxsize=1 << 12)
def _letter_name(char: str) -> str:
    """A Greek letter spelled as typed in ASCII ("μ": "mu", "Δ": "delta", "µ": "mu"); an accented letter without its
    accent ("é": "e", "ő": "o", "ø": "o"); any other character as is."""
    name = unicodedata.name(char, "")
    if name.startswith("GREEK") and "LETTER" in name:
        return name.split()[-1].lower()
    if name == "MICRO SIGN":
        return "mu"
    bare = "".join(c for c in unicodedata.normalize("NFD", char) if not unicodedata.combining(c))
    return bare.translate(_UNACCENTED) if bare.isalpha() else char


@lru_cache(maxsize=1 << 10)
def _greek_letter(command: str) -> str:
    """The Greek letter a LaTeX command writes, as ``_letter_name`` spells it ("alpha" for "\\alpha", "epsilon" for
    "\\varepsilon"); "" for any other command."""
    letter = command.removeprefix("var").upper().replace("LAMBDA", "LAMDA")  # as Unicode names it
    try:
        return _letter_name(unicodedata.lookup(f"GREEK SMALL LETTER {letter}"))
    except KeyError:
        return ""


def _command_read(match: re.Match) -> str:
    """A LaTeX command as read: its Greek letter, with the space after it, or the Latin letter it writes ("\\o"); any
    other, with its space, dropped."""
    if latin := _LATIN_LETTERS.get(match.group(1)):
        return latin  # the space only ends the command: "\\o ksendal" is "oksendal"
    letter = _greek_letter(match.group(1))
    return letter + match.group(2) if letter else ""


def plain_spelling(text: str) -> str:
    """Lower case, subscripts as digits, Greek letters spelled out, accents and LaTeX markup dropped: "μSR" and "muSR",
    "Hα" and "Halpha", "Li$_{0.95}$FeAs" and "Li0.95FeAs", "$\\mathrm{b\\bar{b}WW}$" and "bbWW", "Pólya", "P\\'olya"
    and "Polya" read alike."""
    text = _LATEX_ACCENT.sub(r"\1", text)
    text = _LATEX_COMMAND.sub(_command_read, text)
    text = _LATEX_MARKUP.sub("", text).translate(_SUBSCRIPTS)
    return "".join(_letter_name(c) if ord(c) > 127 else c for c in text).lower()
