"""The field's acronyms and units and what they stand for (rag/acronyms.tsv, rag/units.tsv), for papers that write
only the short form; and everyday phrases for the field's terms (rag/plain_terms.tsv), for askers outside it."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

ACRONYMS_PATH = Path(__file__).with_name("acronyms.tsv")
UNITS_PATH = Path(__file__).with_name("units.tsv")
PLAIN_TERMS_PATH = Path(__file__).with_name("plain_terms.tsv")


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


@lru_cache(maxsize=1)
def plain_terms() -> list[tuple[re.Pattern, str]]:
    """Everyday phrases for the field's terms (rag/plain_terms.tsv): a pattern finding the phrase, and the term
    ("graphics chips" -> "GPUs")."""
    rows = [line.split("\t") for line in PLAIN_TERMS_PATH.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]
    return [(re.compile(rf"(?<![\w-])(?:{phrase})(?![\w-])", re.IGNORECASE), term) for phrase, term in rows]
