"""Prompt templates live here as text files; ``load_prompt(name)`` reads ``name.txt``."""

from __future__ import annotations

import string
from pathlib import Path

from llama_index.core.prompts import PromptTemplate

PROMPTS_DIR = Path(__file__).parent
# Shared by the prompts, the code that detects it, and the tests.
CANNOT_ANSWER_PHRASE = "The loaded papers do not cover this question."


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
        missing = _placeholders(default) - _placeholders(text)
        if missing:
            raise PromptError(f"{override}: missing placeholders {sorted(missing)}")
    return PromptTemplate(text.replace("{cannot_answer}", CANNOT_ANSWER_PHRASE))
