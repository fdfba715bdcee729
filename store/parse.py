"""Read abstract files (seed text, JSONL, JSON, CSV/TSV) into Papers, collecting bad records as errors."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from store.errors import IngestError
from store.latex import clean_latex
from store.naming import derive_name
from store.paper import Paper
from store.titles import derive_title

MIN_LETTERS = 20  # fewer letters than this after cleaning is not an abstract
# Longer than this is a whole paper or a broken file, not an abstract (real ones stay under ~3,500):
# rejecting it keeps one bad record from costing minutes of parsing and embedding.
MAX_ABSTRACT_CHARS = 20_000
_HEADER_STOPWORDS = frozenset(
    "papers paper abstracts abstract accepted list of the at in proceedings conference track main "
    "collection corpus selected all and".split()
)


@dataclass
class ParseResult:
    """Papers read from one file plus the records (or whole file) that were rejected."""

    papers: list[Paper] = field(default_factory=list)
    rejected: list[IngestError] = field(default_factory=list)


@dataclass
class _Record:
    """One raw record before validation: where it starts and its fields."""

    line: int
    fields: dict[str, Any]
    error: str | None = None  # set when the record could not even be read (broken JSON, bad row)


class _Reject(Exception):
    """A record failed validation; the message is the user-facing reason."""


# ---------------------------------------------------------------- decoding


def decode_bytes(data: bytes) -> str:
    """Decode UTF-8 (BOM or not), UTF-16/32 with BOM, else latin-1; newlines normalised to \\n."""
    if data.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        text = data.decode("utf-32", errors="replace")
    elif data.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = data.decode("utf-16", errors="replace")
    elif data.startswith(b"\xef\xbb\xbf"):
        text = data[3:].decode("utf-8", errors="replace")
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("latin-1")  # never fails: every byte is a code point
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _looks_binary(data: bytes) -> bool:
    """NUL bytes (outside UTF-16/32 text) or many control characters mean this is not a text file."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")):
        return False
    sample = data[:8192]
    if b"\x00" in sample:
        return True
    controls = sum(1 for b in sample if b < 32 and b not in (9, 10, 12, 13))
    return bool(sample) and controls / len(sample) > 0.05


# ---------------------------------------------------------------- building papers


def _normalise(text: str) -> str:
    return " ".join(text.split())


def _content_id(raw_abstract: str) -> str:
    return "p-" + hashlib.sha1(_normalise(raw_abstract).encode("utf-8")).hexdigest()[:16]


def _text_field(fields: dict[str, Any], key: str) -> str | None:
    value = fields.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise _Reject(f"field '{key}' must be text, got {type(value).__name__}")
    value = str(value).strip()
    return value or None


def _year(fields: dict[str, Any]) -> int | None:
    value = fields.get("year")
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise _Reject("field 'year' must be an integer, got bool")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*\d{1,4}(?:\.0+)?\s*", value):
        return int(float(value))
    raise _Reject(f"field 'year' must be an integer, got {value!r:.40}")


def _authors(fields: dict[str, Any]) -> tuple[str, ...]:
    value = fields.get("authors")
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        return tuple(a.strip() for a in value.split(";") if a.strip())
    if isinstance(value, (list, tuple)):
        if not all(isinstance(a, str) for a in value):
            raise _Reject("field 'authors' must be a list of strings")
        return tuple(a.strip() for a in value if a.strip())
    raise _Reject(f"field 'authors' must be a list or a ';'-separated string, got {type(value).__name__}")


def _paper(fields: dict[str, Any], source: str, ordinal: int, defaults: dict[str, Any]) -> Paper:
    """Validate one record and build its Paper; raises _Reject with a reason."""
    raw = fields.get("abstract")
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        raise _Reject("missing or empty 'abstract'")
    if not isinstance(raw, str):
        raise _Reject(f"field 'abstract' must be text, got {type(raw).__name__}")
    if len(raw) > MAX_ABSTRACT_CHARS:
        raise _Reject(f"abstract is {len(raw):,} characters, over the {MAX_ABSTRACT_CHARS:,} limit (a whole paper?)")
    text = clean_latex(raw)
    if sum(map(str.isalpha, text[: MIN_LETTERS * 20])) < MIN_LETTERS and sum(map(str.isalpha, text)) < MIN_LETTERS:
        raise _Reject(f"abstract has fewer than {MIN_LETTERS} letters once LaTeX/markup is removed")
    raw_title = _text_field(fields, "title")
    title = clean_latex(raw_title) if raw_title else None
    name = derive_name(text, title)
    year = _year(fields)
    return Paper(
        paper_id=_text_field(fields, "id") or _content_id(raw),
        name=name,
        title=title or derive_title(text, name),
        abstract=raw,
        text=text,
        source=source,
        ordinal=ordinal,
        year=year if year is not None else defaults.get("year"),
        venue=_text_field(fields, "venue") or defaults.get("venue"),
        authors=_authors(fields),
        url=_text_field(fields, "url"),
    )


def _build(records: list[_Record], path: str | Path, unit: str = "line",
           defaults: dict[str, Any] | None = None) -> ParseResult:
    """Turn raw records into Papers: validation, de-duplication, stable ordinals."""
    result = ParseResult()
    source = Path(path).name
    seen_text: dict[str, int] = {}
    seen_id: dict[str, int] = {}
    for ordinal, record in enumerate(records):
        try:
            if record.error:
                raise _Reject(record.error)
            raw = record.fields.get("abstract")
            if isinstance(raw, str) and _normalise(raw) in seen_text:  # cheap check before cleaning
                raise _Reject(f"duplicate of {unit} {seen_text[_normalise(raw)]}")
            paper = _paper(record.fields, source, ordinal, defaults or {})
            key = _normalise(paper.abstract)
            if key in seen_text:
                raise _Reject(f"duplicate of {unit} {seen_text[key]}")
            if paper.paper_id in seen_id:
                raise _Reject(f"duplicate id {paper.paper_id!r} (first at {unit} {seen_id[paper.paper_id]})")
        except _Reject as why:
            result.rejected.append(IngestError(path, record.line, _where(unit, record.line) + str(why)))
            continue
        seen_text[key] = record.line
        seen_id[paper.paper_id] = record.line
        result.papers.append(paper)
    return result


def _where(unit: str, line: int) -> str:
    # Line numbers are in IngestError already; JSON record indexes need saying what they count.
    return f"record {line}: " if unit == "record" else ""


def _no_records(path: str | Path, what: str = "no abstracts found") -> ParseResult:
    return ParseResult(rejected=[IngestError(path, None, what)])


# ---------------------------------------------------------------- formats


def _header(paragraph: str) -> dict[str, Any] | None:
    """Venue/year from a collection header like 'NeurIPS 2026 Papers'; None if it reads like an abstract."""
    line = paragraph.strip()
    words = line.split()
    if "\n" in line or len(line) > 120 or len(words) > 12 or re.search(r"[.!?]\s+[A-Z]|\.$", line):
        return None
    year_match = re.search(r"\b(19\d\d|20\d\d)\b", line)
    kept = [w for w in re.split(r"\s+", re.sub(r"\b(19|20)\d\d\b", " ", line))
            if w and w.lower().strip(":,-–—()[]") not in _HEADER_STOPWORDS
            and re.search(r"[A-Za-z]", w) and not re.search(r"[\u3000-\u9fff\uac00-\ud7af]", w)]
    venue = " ".join(w.strip(":,-–—()[]") for w in kept).strip() or None
    return {"venue": venue, "year": int(year_match.group(1)) if year_match else None}


def parse_seed_text(text: str, path: str | Path) -> ParseResult:
    """Parse the seed format: an optional header line, then abstracts separated by blank lines."""
    paragraphs: list[tuple[int, str]] = []
    start, lines = None, []
    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip():
            start = start or number
            lines.append(line.rstrip())
        elif lines:
            paragraphs.append((start or number, "\n".join(lines)))
            start, lines = None, []
    if lines:
        paragraphs.append((start or 1, "\n".join(lines)))
    if not paragraphs:
        return _no_records(path, "empty file")
    defaults = _header(paragraphs[0][1])
    if defaults is not None:
        paragraphs = paragraphs[1:]
    if not paragraphs:
        return _no_records(path)
    records = [_Record(line, {"abstract": body}) for line, body in paragraphs]
    return _build(records, path, defaults=defaults)


def parse_jsonl(text: str, path: str | Path) -> ParseResult:
    """Parse one JSON object per line; blank lines are skipped, broken lines rejected."""
    records: list[_Record] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip():
            records.append(_json_record(number, line))
    if not records:
        return _no_records(path)
    return _build(records, path)


def _json_record(number: int, line: str) -> _Record:
    try:
        value = json.loads(line)
    except (ValueError, RecursionError) as exc:
        return _Record(number, {}, f"invalid JSON: {exc}"[:200])
    if not isinstance(value, dict):
        return _Record(number, {}, f"expected a JSON object, got {type(value).__name__}")
    return _Record(number, value)


def parse_json(text: str, path: str | Path) -> ParseResult:
    """Parse a JSON list of records, or an object holding them under "papers"."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as exc:
        line = getattr(exc, "lineno", None)
        return ParseResult(rejected=[IngestError(path, line, f"invalid JSON: {getattr(exc, 'msg', exc)}")])
    if isinstance(value, dict):
        if "papers" in value:
            value = value["papers"]
        elif "abstract" in value:
            value = [value]  # a single record is a list of one
    if not isinstance(value, list):
        return _no_records(path, 'expected a JSON list of records or {"papers": [...]}')
    if not value:
        return _no_records(path, "no records found")
    records = [
        _Record(i, item) if isinstance(item, dict)
        else _Record(i, {}, f"expected a JSON object, got {type(item).__name__}")
        for i, item in enumerate(value, start=1)
    ]
    return _build(records, path, unit="record")


def parse_csv(text: str, path: str | Path, delimiter: str = ",") -> ParseResult:
    """Parse CSV/TSV with a header row; quoted fields may span lines."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        header = next(reader)
    except StopIteration:
        return _no_records(path, "empty file")
    except csv.Error as exc:
        return _no_records(path, f"unreadable CSV header: {exc}")
    columns = [h.strip().lstrip("\ufeff").lower() for h in header]
    if "abstract" not in columns:
        return _no_records(path, f"no 'abstract' column (found: {', '.join(columns)[:120] or 'nothing'})")
    records: list[_Record] = []
    while True:
        start = reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            records.append(_Record(start, {}, f"unreadable CSV row: {exc}"))
            if reader.line_num < start:
                break  # no progress: stop rather than loop
            continue
        if not any(cell.strip() for cell in row):
            continue
        error = f"row has {len(row)} fields but the header has {len(columns)}" if len(row) > len(columns) else None
        records.append(_Record(start, dict(zip(columns, row)), error))
    if not records:
        return _no_records(path)
    return _build(records, path)


def parse_tsv(text: str, path: str | Path) -> ParseResult:
    """Parse tab-separated values with a header row."""
    return parse_csv(text, path, delimiter="\t")


_PARSERS: dict[str, Callable[[str, str | Path], ParseResult]] = {
    ".txt": parse_seed_text,
    ".md": parse_seed_text,
    ".jsonl": parse_jsonl,
    ".ndjson": parse_jsonl,
    ".json": parse_json,
    ".csv": parse_csv,
    ".tsv": parse_tsv,
}
SUPPORTED_SUFFIXES = tuple(_PARSERS)


def parse_bytes(data: bytes, path: str | Path) -> ParseResult:
    """Parse file contents already in memory (e.g. an upload); ``path`` names it and picks the format."""
    suffix = Path(path).suffix.lower()
    parser = _PARSERS.get(suffix)
    if parser is None:
        kinds = ", ".join(SUPPORTED_SUFFIXES)
        return _no_records(path, f"unsupported file type {suffix or '(no extension)'!r}; use one of {kinds}")
    if not data.strip():
        return _no_records(path, "empty file")
    if _looks_binary(data):
        return _no_records(path, "binary file, not text")
    text = decode_bytes(data)
    if not text.strip():
        return _no_records(path, "empty file")
    try:
        return parser(text, path)
    except Exception as exc:  # noqa: BLE001 - one bad file must not stop an ingest run
        return _no_records(path, f"could not parse file: {type(exc).__name__}: {exc}"[:300])


def parse_file(path: str | Path) -> ParseResult:
    """Read and parse one file, choosing the format from its suffix; never raises."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        return _no_records(path, f"cannot read file: {exc.strerror or exc}")
    return parse_bytes(data, path)
