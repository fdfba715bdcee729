"""Checks a number a question claims against the numbers an abstract gives for the same thing.

"Is it true that PhysElite has about 15,000 problems?": the abstract's "11,586 Olympiad-tier problems" is the
same thing with another number, so the answer says so before quoting it. Only a clear mismatch is reported: when
the claimed number appears beside the claimed thing anywhere in the abstract, or a hedged claim ("about",
"roughly") is within CLOSE_ENOUGH of it, nothing is said and the quotes speak for themselves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rag.terms import content_words, snowball_stem

# A hedged claim ("about 15,000", "roughly five times") agrees with a number this close to it (relative).
CLOSE_ENOUGH = 0.1
# The thing a number counts is among the next THING_WORDS words after it ("11,586 Olympiad-tier problems", "1.28× in
# Model FLOPs Utilization"); the claimed thing is the first CLAIMED_WORDS content words after the claimed number.
THING_WORDS = 4
CLAIMED_WORDS = 3
_NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
                 "eleven": 11, "twelve": 12, "twenty": 20, "hundred": 100}
# A number, as digits or a word, with its "×", "x", "%" or "times"; not part of a name ("GSM8K", "Qwen3-8B", "170k").
_NUMBER = re.compile(rf"(?<![\w.])(\d+(?:,\d{{3}})*(?:\.\d+)?|{'|'.join(_NUMBER_WORDS)})(?:\s*(?:×|x|%|times)(?!\w))?"
                     r"(?![A-Za-z])", re.I)
_HEDGE = re.compile(r"\b(?:about|around|roughly|approximately|nearly|almost|~)\s*$", re.I)
# A bound, not an amount ("over 10,000 problems", "at least 1"): not checked.
_BOUND = re.compile(r"\b(?:over|above|under|below|more than|less than|fewer than|at least|at most|up to|beyond)\s*$",
                    re.I)
_WORD = re.compile(r"[A-Za-z][\w-]*")
# Words after a number that say how it compares, not what it counts.
_RELATION_WORDS = frozenset("times less lower more higher faster slower than up to as much".split())


@dataclass(frozen=True)
class NumberMismatch:
    """The abstract gives ``given`` ("11,586 Olympiad-tier problems") where the question claims ``claimed``."""

    claimed: str
    given: str
    sentence: str

    def say(self, citation: str = "") -> str:
        return f"Not as claimed: the abstract gives “{self.given}”, not “{self.claimed}”{citation}."


def _value(token: str) -> float:
    token = token.lower().replace(",", "")
    return float(_NUMBER_WORDS[token]) if token in _NUMBER_WORDS else float(token)


def _things_after(text: str, end: int, words: int) -> list[str]:
    """The stems of the content words following a number, up to the next number."""
    following = text[end:]
    cut = _NUMBER.search(following)
    following = following[: cut.start()] if cut else following
    found = [w for w in _WORD.findall(following)[:words] if w.lower() in content_words(w)]
    return [_key(w) for w in found if w.lower() not in _RELATION_WORDS]


def _key(word: str) -> str:
    """One form for a word and its plural ("GPUs" ~ "GPU", "problems" ~ "problem")."""
    stem = snowball_stem(word.lower())
    return stem[:-1] if stem.endswith("s") and len(stem) > 3 else stem


def check_claimed_numbers(question: str, sentences: list[str]) -> NumberMismatch | None:
    """The first claimed number the abstract contradicts: it gives another number for the same thing, and never the
    claimed one (or, for a hedged claim, one CLOSE_ENOUGH to it) beside that thing."""
    given = [(_value(m.group(1)), m.group(), set(_things_after(text, m.end(), THING_WORDS)), text, m.start())
             for text in sentences for m in _NUMBER.finditer(text)]
    for claim in _NUMBER.finditer(question):
        things = set(_things_after(question, claim.end(), CLAIMED_WORDS + 2)[:CLAIMED_WORDS])
        if not things or _BOUND.search(question[: claim.start()]):
            continue
        value, hedged = _value(claim.group(1)), bool(_HEDGE.search(question[: claim.start()]))
        same_thing = [g for g in given if g[2] & things]
        tolerance = CLOSE_ENOUGH * value if hedged else 1e-9
        if not same_thing or any(abs(g[0] - value) <= tolerance for g in same_thing):
            continue
        # the number said of most of the claimed thing: "10.0% on in-distribution benchmarks", not "13 benchmarks"
        _, _, _, text, start = max(same_thing, key=lambda g: len(g[2] & things))
        words = re.split(r"[,;:]\s|\s\(", text[start:])[0].split()[: THING_WORDS + 1]  # "11,586 ...", not "11"
        # up to the last word naming the claimed thing: "32-GPU and 64-GPU", not "... clusters demonstrate"
        last = max((i for i, w in enumerate(words) if {_key(part) for part in re.findall(r"[A-Za-z]+", w)} & things),
                   default=0)
        phrase = " ".join(words[: last + 1]).rstrip(".")
        hedge = _HEDGE.search(question[: claim.start()])
        claimed = re.split(r"[?!;]|[.,]\s", question[hedge.start() if hedge else claim.start():])[0]
        claimed = " ".join(claimed.split()[: 1 + CLAIMED_WORDS + bool(hedge)]).rstrip(".")
        return NumberMismatch(claimed, phrase, text)
    return None
