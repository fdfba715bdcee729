"""The field's acronyms and what they stand for (rag/acronyms.tsv), for papers that write only the acronym."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

ACRONYMS_PATH = Path(__file__).with_name("acronyms.tsv")


@lru_cache(maxsize=1)
def field_acronyms() -> dict[str, tuple[str, ...]]:
    """The field's acronyms (rag/acronyms.tsv): acronym -> its long forms, the usual one first."""
    table = {}
    for line in ACRONYMS_PATH.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            acronym, forms = line.split("\t")
            table[acronym] = tuple(forms.split("|"))
    return table
