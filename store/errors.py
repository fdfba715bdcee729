"""Typed errors whose message is meant for the user (no traceback needed)."""

from __future__ import annotations

from pathlib import Path


class PaperChatError(Exception):
    """Base of every error PaperChat shows to a user."""


class IngestError(PaperChatError):
    """A record (or a whole file) that could not be read; names the file and line."""

    def __init__(self, path: str | Path, line: int | None, reason: str):
        self.path, self.line, self.reason = str(path), line, reason
        where = f"{self.path}:{line}" if line is not None else self.path
        super().__init__(f"{where}: {reason}")


class EmbedderMismatch(PaperChatError):
    """The store was built by another embedding model or dimension."""


class LLMUnavailable(PaperChatError):
    """The configured LLM could not produce a usable answer."""
