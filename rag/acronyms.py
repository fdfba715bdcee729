"""The field's acronyms and units and what they stand for (rag/acronyms.tsv, rag/units.tsv), for papers that write
only the short form; and everyday phrases for the field's terms (rag/plain_terms.tsv), for askers outside it.

The acronym, plain-term, broad-field and kind-of-data tables were written for machine-learning abstracts. They apply
only while a question about a corpus in their field is answered (``tables_apply``, set per question by the caller
from ``in_tables_field``): a clinician's or an astronomer's papers never meet "benchmarks" or "time series" rules."""

from __future__ import annotations

import re
from collections.abc import Iterable
from contextlib import contextmanager
from contextvars import ContextVar
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


# A corpus is in the tables' field when at least TABLES_FIELD_MIN_SHARE of its abstracts write one of the acronyms or
# long forms of rag/acronyms.tsv: 0.38 of the 8,434 NeurIPS abstracts and 0.42 of a blind sample of 100 of them do,
# 0.077 of 117 arXiv astrophysics abstracts ("Markov chain Monte Carlo", "near-infrared").
TABLES_FIELD_MIN_SHARE = 0.2
_TABLES_APPLY: ContextVar[bool] = ContextVar("tables_apply", default=True)


def in_tables_field(abstracts: Iterable[str]) -> bool:
    """Whether a corpus speaks the tables' language: enough of its abstracts use an acronym or long form of them."""
    texts = list(abstracts)
    if not texts:
        return True
    table = _read_table(ACRONYMS_PATH)
    short = re.compile(r"(?<![\w-])(?:%s)s?(?![\w-])" % "|".join(sorted(map(re.escape, table), key=len, reverse=True)))
    long_forms = {form for forms in table.values() for form in forms}
    long = re.compile(r"(?<![\w-])(?:%s)s?(?![\w-])" % "|".join(sorted(map(re.escape, long_forms), key=len, reverse=True)),
                      re.IGNORECASE)
    return sum(bool(short.search(t) or long.search(t)) for t in texts) >= TABLES_FIELD_MIN_SHARE * len(texts)


@contextmanager
def tables_apply(applies: bool):
    """Within the block, the field tables apply (``applies``) or are empty."""
    token = _TABLES_APPLY.set(applies)
    try:
        yield
    finally:
        try:
            _TABLES_APPLY.reset(token)
        except ValueError:  # a streamed answer closed from another thread's context: that context never saw the set
            pass


def tables_in_use() -> bool:
    """Whether the field tables apply to the corpus being asked about now."""
    return _TABLES_APPLY.get()


def field_acronyms() -> dict[str, tuple[str, ...]]:
    """The field's acronyms (rag/acronyms.tsv): acronym -> its long forms, the usual one first."""
    return _field_acronyms() if _TABLES_APPLY.get() else {}


@lru_cache(maxsize=1)
def _field_acronyms() -> dict[str, tuple[str, ...]]:
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


def plain_terms() -> list[tuple[re.Pattern, str]]:
    """Everyday phrases for the field's terms (rag/plain_terms.tsv): a pattern finding the phrase, and the term
    ("graphics chips" -> "GPUs")."""
    return _plain_terms() if _TABLES_APPLY.get() else []


@lru_cache(maxsize=1)
def _plain_terms() -> list[tuple[re.Pattern, str]]:
    return [(_whole_words(phrase), term) for phrase, term in _rows(PLAIN_TERMS_PATH)]


def broad_fields() -> list[tuple[re.Pattern, re.Pattern]]:
    """Broad fields (rag/broad_fields.tsv): a pattern finding the broad word in a question, and one finding the
    field's narrower terms in an abstract ("biomedical" -> "pathology", "single-cell", ...)."""
    return _broad_fields() if _TABLES_APPLY.get() else []


@lru_cache(maxsize=1)
def _broad_fields() -> list[tuple[re.Pattern, re.Pattern]]:
    return [(_whole_words(broad), _whole_words(narrow)) for broad, narrow in _rows(BROAD_FIELDS_PATH)]


def modalities() -> list[tuple[str, re.Pattern, re.Pattern]]:
    """Kinds of data (rag/modalities.tsv): the kind's name, a pattern finding it in a question, and one finding it
    in an abstract ("speech recognition" -> "speech", "spoken", "audio", ...)."""
    return _modalities() if _TABLES_APPLY.get() else []


@lru_cache(maxsize=1)
def _modalities() -> list[tuple[str, re.Pattern, re.Pattern]]:
    return [(name, _whole_words(asked), _whole_words(written)) for name, asked, written in _rows(MODALITIES_PATH)]


def _rows(path: Path) -> list[list[str]]:
    """The tab-separated rows of a table, comments and blank lines left out."""
    return [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


def _whole_words(pattern: str) -> re.Pattern:
    return re.compile(rf"(?<![\w-])(?:{pattern})(?![\w-])", re.IGNORECASE)
