"""The unit a question asks a quantity in ("in µeV", "(ppm)"), in any field, and what a number in it looks like."""

from __future__ import annotations

import re

# A unit symbol, in any field: an SI unit with its prefix ("µeV", "kHz", "nm"), parts per million, an astronomer's
# ("kpc", "Myr", "mJy", "km/s/kpc"), a percentage.
_UNIT = (r"(?:[pnuµμmcdkMGT]?(?:eV|Hz|m|s|g|W|J|V|Pa|bar|mol|Gy|Sv|dB|Wb|T)|ppm|ppb|ppt|AU|au|[kM]?pc|[MG]yr|yr"
         r"|mag|[mµμ]?Jy|km/s(?:/kpc)?|°C|K|%|[MLR]sun)")
# The unit a question asks a quantity in: "(ppm)", "(in um)", "in µeV" before the question's end or its verb. A
# one-letter unit only in brackets: "in A. baumannii" is no ampere; and not a plural mark: "distance(s)".
_ASKED_UNIT = re.compile(rf"(?<!\w)\(\s*(?:in\s+)?(?P<bracketed>{_UNIT})\s*\)"
                         rf"|\bin\s+(?P<after_in>(?=\S\S){_UNIT})(?=\s*[?,;)]|\s*$|\s+(?:is|was|are|were|did|do|does)\b)")


# A unit asked in words ("in attoseconds", "what accuracy in metres", "(in microseconds)"): its SI prefix and base;
_PREFIX_WORDS = {"atto": "a", "femto": "f", "pico": "p", "nano": "n", "micro": "µμu", "milli": "m", "centi": "c",
                 "kilo": "k", "mega": "M", "giga": "G", "tera": "T"}
_UNIT_WORDS = {"second": "s", "meter": "m", "metre": "m", "kelvin": "K", "hertz": "Hz", "electronvolt": "eV",
               "tesla": "T", "watt": "W", "joule": "J", "gram": "g", "parsec": "pc", "percent": "%"}
# read where a symbol is, before the question's end or its verb ("in seconds of data" asks for no unit).
_ASKED_UNIT_WORD = re.compile(rf"\bin\s+(?P<word>(?:{'|'.join(_PREFIX_WORDS)})?(?P<base>{'|'.join(_UNIT_WORDS)})s?)\b"
                              r"(?=\s*[?,;)]|\s*$|\s+(?:is|was|are|were|did|do|does)\b)", re.I)


def asked_unit(question: str) -> str:
    """The unit the question asks a quantity in ("how large in µeV is the coupling?": "µeV"; "how short, in
    attoseconds?": "attoseconds"), or ""."""
    if match := _ASKED_UNIT.search(question):
        return match.group("bracketed") or match.group("after_in")
    return match.group("word") if (match := _ASKED_UNIT_WORD.search(question)) else ""


def measured_in(name: str, question: str) -> bool:
    """Whether a name of the question is the unit of one of its numbers ("at 1 MeV", "150-300 Msun"): a unit, not a
    thing a paper must write."""
    return re.fullmatch(_UNIT, name) is not None and re.search(rf"\d\s*{re.escape(name)}(?!\w)", question) is not None


def amount_in(unit: str) -> str:
    """A pattern for a number in the unit at any scale ("in Hz": "20 Hz", "1.2 mHz"), its micro as typed or in LaTeX
    ("µeV", "μeV", "ueV", "$\\mu$eV"); a unit asked in words, by its symbol or its words ("in attoseconds": "250 as",
    "0.25 fs", "250 attoseconds")."""
    if word := _ASKED_UNIT_WORD.fullmatch(f"in {unit}"):
        symbol = _UNIT_WORDS[word.group("base").lower()]
        spellings = "|".join(w for w, s in _UNIT_WORDS.items() if s == symbol)  # "metres" or "meters"
        return (rf"\d\s*(?:\\,|~)?\s*(?:(?i:(?:{'|'.join(_PREFIX_WORDS)})?(?:{spellings})s?)\b"
                rf"|(?:[{''.join(_PREFIX_WORDS.values())}]|\$?\\mu\$?\s*)?{re.escape(symbol)}(?![A-Za-z]))")
    base = unit[1:] if unit[0] in _SI_PREFIXES and unit[1:] in _BASE_UNITS else unit
    return rf"\d\s*(?:\\,|~)?\s*(?:[{_SI_PREFIXES}]|\$?\\mu\$?\s*)?{re.escape(base)}(?![A-Za-z])"


_SI_PREFIXES = "pnuµμmcdkMGT"
_BASE_UNITS = frozenset("eV Hz m s g W J V Pa bar mol Gy Sv Wb T pc yr Jy".split())


# What a number of a length, a duration or a temperature is written in, in any field: "20 nm", "3.2 kpc", "10 min",
# "4 Gyr", "two weeks" aside (a number in words is no amount here), "300 K".
_LENGTH = r"(?:[pnuµμmck]?m|Å|au|AU|[kMG]?pc|ly|light[- ]years?)"
_DURATION = r"(?:[mµμn]?s|sec(?:onds?)?|min(?:utes?)?|h|hrs?|hours?|days?|weeks?|months?|years?|[kMG]?yrs?|[kMG]a)"
_TEMPERATURE = r"(?:[mµμ]?K|°\s?[CF]|kelvin)"
_DIMENSION_UNITS = {"length": _LENGTH, "duration": rf"(?:{_DURATION}|{_LENGTH})", "time": _DURATION,
                    "temperature": _TEMPERATURE}
# The dimension "how far/old/thick ..." asks for ("how big/large/high" measures anything: a sample, a splitting, an
# efficiency; "how long", a duration or a length).
_MEASURE_DIMENSIONS = {"long": "duration", "far": "length", "old": "time", "deep": "length", "wide": "length",
                       "thick": "length", "thin": "length", "hot": "temperature", "cold": "temperature"}


def amount_measured(measure: str) -> str:
    """A pattern for a number in a unit of what "how MEASURE" asks ("far": "20 nm", "1.5 kpc"), or "" for a measure
    without one unit family ("big", "bright", "strong")."""
    units = _DIMENSION_UNITS.get(_MEASURE_DIMENSIONS.get(measure, ""))
    return rf"\d\s*(?:\\,|~|\$?\\mu\$?\s*)?(?:{units})(?![A-Za-z])" if units else ""
