"""Files uploaded in the app: size cap, a safe name, and a copy kept under ``<store dir>/uploads``."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from store.errors import PaperChatError

ALLOWED_SUFFIXES = (".txt", ".jsonl", ".json", ".csv", ".tsv")
MAX_NAME_CHARS = 100
MAX_SUFFIX_CHARS = 10


class UploadRejected(PaperChatError):
    """An uploaded file that is not ingested (too big, wrong type); the message says why."""


def safe_filename(name: str) -> str:
    """The basename of ``name`` reduced to letters, digits, ``._-``; never empty, hidden or a path."""
    base = re.split(r"[\\/]", name or "")[-1]
    stem, _, suffix = base.rpartition(".")
    if not stem:  # no dot, or a dotfile like ".bashrc": all stem
        stem, suffix = base, ""
    # The suffix is cleaned on its own, so "名前.jsonl" keeps ".jsonl" (and stays an allowed type).
    suffix = re.sub(r"[^A-Za-z0-9]+", "", suffix)[:MAX_SUFFIX_CHARS].lower()
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", stem).strip("._")[: MAX_NAME_CHARS - len(suffix) - 1] or "upload"
    return f"{stem}.{suffix}" if suffix else stem


def stage_upload(path: str | Path, uploads_dir: Path, max_mb: float, original_name: str | None = None) -> Path:
    """Check an uploaded temp file and copy it to ``uploads_dir/<safe name>``; returns the copy.

    Raises:
        UploadRejected: the file is too large or not a txt/jsonl/json/csv/tsv file.
    """
    src = Path(path)
    name = safe_filename(original_name or src.name)
    if not name.lower().endswith(ALLOWED_SUFFIXES):
        raise UploadRejected(f"{name}: only {', '.join(ALLOWED_SUFFIXES)} files can be added.")
    size = src.stat().st_size
    if size > max_mb * 1024 * 1024:
        raise UploadRejected(f"{name}: {size / 1024 / 1024:.1f} MB is over the {max_mb:g} MB upload limit.")
    uploads_dir.mkdir(parents=True, exist_ok=True)
    dest = (uploads_dir / name).resolve()
    if dest.parent != uploads_dir.resolve():  # cannot happen with a safe name; checked anyway
        raise UploadRejected(f"{name}: not a valid file name.")
    shutil.copyfile(src, dest)
    return dest
