"""The field's acronyms and units and what they stand for (rag/acronyms.tsv, rag/units.tsv), for papers that write
only the short form; and everyday phrases for the field's terms (rag/plain_terms.tsv), for askers outside it."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

ACRONYMS_PATH = Path(__file__).with_name("acronyms.tsv")
UNITS_PATH = Path(__file__).with_name("units.tsv")
PLAIN_TERMS_PATH = Path(__file__).with_name("plain_terms.tsv")
BROAD_FIELDS_PATH = Path(__file__).with_name("broad_fields.tsv")
MODALITIES_PATH = Path(__file__).with_name("modalities.tsv")


def _read_table(path: Path) -> dict[str, tuple[str, ...]]:
    """A short-form table: short form -> its long forms, the usual one first."""
    table = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            short, forms = line.split("\t")
            table[short] = tuple(forms.split("|"))
    return table


@lru_cache(maxsize=1)
def field_acronyms() -> dict[str, tuple[str, ...]]:
    """The field's acronyms (rag/acronyms.tsv): acronym -> its long forms, the usual one first."""
    return _read_table(ACRONYMS_PATH)


@lru_cache(maxsize=1)
def unit_names() -> dict[str, tuple[str, ...]]:
    """Unit symbols written after numbers (rag/units.tsv): symbol -> its names ("W" -> "watt")."""
    return _read_table(UNITS_PATH)


_AFTER_NUMBER = re.compile(r"(?<=\d)\s?([A-Za-z]+)\b")  # a unit symbol: "1.67 dB", "<4W"


def units_named(text: str) -> list[str]:
    """The names of the units the text measures in ("29/45/99 FPS at <4W": "frames per second", "watt")."""
    units = unit_names()
    return [name for unit in sorted(set(_AFTER_NUMBER.findall(text)) & units.keys()) for name in units[unit]]


@lru_cache(maxsize=1)
def plain_terms() -> list[tuple[re.Pattern, str]]:
    """Everyday phrases for the field's terms (rag/plain_terms.tsv): a pattern finding the phrase, and the term
    ("graphics chips" -> "GPUs")."""
    return [(_whole_words(phrase), term) for phrase, term in _rows(PLAIN_TERMS_PATH)]


@lru_cache(maxsize=1)
def broad_fields() -> list[tuple[re.Pattern, re.Pattern]]:
    """Broad fields (rag/broad_fields.tsv): a pattern finding the broad word in a question, and one finding the
    field's narrower terms in an abstract ("biomedical" -> "pathology", "single-cell", ...)."""
    return [(_whole_words(broad), _whole_words(narrow)) for broad, narrow in _rows(BROAD_FIELDS_PATH)]


@lru_cache(maxsize=1)
def modalities() -> list[tuple[str, re.Pattern, re.Pattern]]:
    """Kinds of data (rag/modalities.tsv): the kind's name, a pattern finding it in a question, and one finding it
    in an abstract ("speech recognition" -> "speech", "spoken", "audio", ...)."""
    return [(name, _whole_words(asked), _whole_words(written)) for name, asked, written in _rows(MODALITIES_PATH)]


def _rows(path: Path) -> list[list[str]]:
    """The tab-separated rows of a table, comments and blank lines left out."""
    return [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


def _whole_words(pattern: str) -> re.Pattern:
    return re.compile(rf"(?<![\w-])(?:{pattern})(?![\w-])", re.IGNORECASE)
