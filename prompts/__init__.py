"""Prompt templates live here as text files; ``load_prompt(name)`` reads ``name.txt``."""

from __future__ import annotations

import string
from pathlib import Path

from llama_index.core.prompts import PromptTemplate

PROMPTS_DIR = Path(__file__).parent
# Shared by the prompts, the code that detects it, and the tests.
CANNOT_ANSWER_PHRASE = "The loaded papers do not cover this question."
# How an LLM answer opens when the paper asked about is found but its abstract lacks the detail asked for.
NOT_STATED_PHRASE = "Not stated in the abstract:"
# How an answer opens when no paper is about exactly what is asked and it gives the closest one (offline too).
CLOSEST_PHRASE = "No loaded paper is surely about this"
# Verdicts a user's own prompt may leave out: its answers are then plain lookups.
_OPTIONAL = {"not_stated", "closest"}


class PromptError(ValueError):
    """A prompt override that lacks the placeholders the code fills."""


def _placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


def load_prompt(name: str, user_dir: Path | None = None) -> PromptTemplate:
    """The template ``name`` from ``user_dir`` if it has one, else the bundled one."""
    default = (PROMPTS_DIR / f"{name}.txt").read_text(encoding="utf-8")
    override = user_dir / f"{name}.txt" if user_dir else None
    text = default
    if override and override.is_file():
        text = override.read_text(encoding="utf-8")
        missing = _placeholders(default) - _placeholders(text) - _OPTIONAL
        if missing:
            raise PromptError(f"{override}: missing placeholders {sorted(missing)}")
    for placeholder, phrase in (("{cannot_answer}", CANNOT_ANSWER_PHRASE), ("{not_stated}", NOT_STATED_PHRASE),
                                ("{closest}", CLOSEST_PHRASE)):
        text = text.replace(placeholder, phrase)
    return PromptTemplate(text)
