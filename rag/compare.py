"""Comparison answers: a table of aim / method / data / findings per paper, plus a cited synthesis. The aspects fit any
empirical abstract (an ML paper's problem and benchmarks, a cohort study's objective and patients, a survey's
observations), and so do their cue words and prototype sentences."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from rag.detail_answer import detail_support
from rag.types import DetailAsk
from rag.extractive import CitationBuilder, rank_sentences, shorten, states_nothing
from rag.terms import content_words
from store.paper import Paper

ASPECTS = ("problem", "approach", "data", "results")
ASPECT_HEADERS = {"problem": "Question / aim", "approach": "Method / design", "data": "Data / sample",
                  "results": "Findings"}
NOT_STATED = "not stated"
# A cell longer than this many words is cut to its most telling clause.
MAX_CELL_WORDS = 22

_CUES: dict[str, re.Pattern] = {
    "problem": re.compile(
        r"\b(?:however|challeng\w*|problem\w*|limitation\w*|remain\w*|lack\w*|struggl\w*|fail\w*|suffer\w*|existing"
        r"|despite|bottleneck\w*|difficult\w*|issue\w*|gap|hinder\w*|costly|expensive|inefficien\w*|unclear"
        r"|poorly understood|open question|important|crucial|critical|key|widely|common practice|increasingly)\b",
        re.I),
    "approach": re.compile(
        r"\b(?:we (?:propose|introduce|present|design|develop|build|formulate|train|use|adopt|leverage|cast|model|derive)"
        r"|(?:we|paper|work)\s+argues?|propos\w*|introduc\w*|framework|method|approach|architecture|module|algorithm|mechanism|pipeline"
        r"|consists? of|based on|leverag\w*|specifically|our key|novel|we (?:first|then)|trained|objective|loss)\b",
        re.I),
    "data": re.compile(
        r"\b(?:datasets?|benchmarks?|corpus|corpora|data|images|videos|samples|examples|annotat\w*|curated|collected"
        r"|comprises?|contains?|consisting|tasks|questions|problems|pairs|prompts|scenes|environments|simulat\w*"
        r"|real-world|suites?|testbeds?|evaluated on|tested on|experiments (?:on|across)|evaluations? (?:on|across)"
        r"|clusters?|participants|patients|subjects|cohorts?|enrolled|recruited|observations?|observed|survey\w*"
        r"|measurements?|catalogues?|catalogs?|archival|spectra|sample of)\b",
        re.I),
    "results": re.compile(
        r"\b(?:outperform\w*|achiev\w*|improv\w*|state-of-the-art|sota|results?|demonstrat\w*|show(?:s|n)?|reveal\w*"
        r"|find|finds|found|gains?|faster|speedup|reduc\w*|accuracy|prove[sn]?|establish\w*|surpass\w*|competitive"
        r"|significantly|up to|consistently|superior|effective\w*|associated with|correlat\w*|detect\w*|estimat\w*"
        r"|increas\w*|decreas\w*|higher|lower|confirm\w*)\b|\d+(?:\.\d+)?\s*(?:%|×|x\b)|\$?\\?times",
        re.I),
}
_NUMBER = re.compile(r"\d")
# "Experiments on X show that Y": X is the data, Y the result.
_FINDING_VERB = re.compile(r",?\s+(?:and\s+)?(?:demonstrate|show|reveal|indicate|confirm|verify|validate|suggest|find)s?"
                           r"(?:\s+that)?\s+", re.I)
_LEADING_DATA = re.compile(r"^((?:On|Across|Over|Using)\s+[^,]{3,120}?\b(?:benchmarks?|datasets?|tasks|suites?|corpus|corpora)"
                           r"\b[^,]{0,40}),\s+(.+)$")
# Datasets or benchmarks named where a result is reported: "on GoPro and HIDE", "across LIBERO", "on CIFAR-10" (a
# name with an inner capital or digit, or in capitals).
_EVALUATED_ON = re.compile(r"\b(?:on|across|over)\s+(?:the\s+)?(?:[A-Z][a-z]*[A-Z0-9][\w.-]*|[A-Z]{3,}\b)")
_TRAILING_SUBJECT = re.compile(r"[,\s]+(?:we|they|it|this|these|our (?:results|experiments|findings))$", re.I)
_CONTRIBUTION = re.compile(r"\b(?:we|this (?:paper|work))\s+(?:\w+\s+)?(?:propose|introduce|present|develop|design|formulate"
                           r"|build|construct|curate|study|analy[sz]e|investigate|derive|extend)s?\b", re.I)
# Generic sentences of each aspect; their embeddings are the aspect prototypes.
_PROTOTYPES = {
    "problem": [
        "However, existing methods suffer from a key limitation that remains unsolved.",
        "This problem is challenging and poorly understood, and current approaches fail to address it.",
        "The aim of this study was to determine what causes the effect, which remains unknown.",
    ],
    "approach": [
        "We propose a novel framework that combines two modules to solve this.",
        "Our method trains a model with a new objective and architecture.",
        "We conducted a study and analysed the measurements with a statistical model.",
    ],
    "data": [
        "We construct a benchmark dataset of annotated samples collected from many sources.",
        "Experiments are conducted on standard datasets, benchmarks and tasks.",
        "We observed a sample of participants or objects selected from a larger survey.",
    ],
    "results": [
        "Our method outperforms state-of-the-art baselines by a large margin.",
        "Experiments show significant improvements, and we prove the error bound decreases.",
        "The measured quantity was significantly higher and was associated with the outcome.",
    ],
}
# Weights of cue words, sentence position and prototype similarity in an aspect score.
CUE_WEIGHT, POSITION_WEIGHT, PROTOTYPE_WEIGHT = 0.25, 0.3, 1.0
# An aspect cell is "not stated" when its best sentence scores below this.
MIN_ASPECT_SCORE = {"problem": 0.45, "approach": 0.45, "data": 0.55, "results": 0.5}


@dataclass
class Cell:
    text: str  # shortened sentence or clause, or NOT_STATED
    quote: str = ""  # the full abstract sentence it comes from


@dataclass
class Row:
    paper: Paper
    n: int
    cells: dict[str, Cell] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"paper": self.paper.name, "paper_id": self.paper.paper_id, "n": self.n,
                **{a: self.cells[a].text for a in ASPECTS},
                "quotes": {a: self.cells[a].quote for a in ASPECTS if self.cells[a].quote}}


class AspectClassifier:
    """Scores abstract sentences for each aspect: cue words + position in the abstract + prototype similarity."""

    def __init__(self, embed: Callable[[list[str]], np.ndarray]):
        texts = [t for a in ASPECTS for t in _PROTOTYPES[a]]
        vectors = np.asarray(embed(texts), dtype=np.float32)
        self.prototypes, i = {}, 0
        for aspect in ASPECTS:
            k = len(_PROTOTYPES[aspect])
            self.prototypes[aspect] = vectors[i : i + k]
            i += k

    def scores(self, sentences: list[tuple[str, object]], name: str = "") -> np.ndarray:
        """A (sentences x aspects) score matrix; ``name`` is the paper's, whose mention marks its approach."""
        n = len(sentences)
        out = np.zeros((n, len(ASPECTS)), dtype=np.float32)
        for i, (text, vector) in enumerate(sentences):
            vec = np.asarray(vector, dtype=np.float32)
            where = i / max(n - 1, 1)  # 0 = first sentence, 1 = last
            for j, aspect in enumerate(ASPECTS):
                cues = min(len(_CUES[aspect].findall(text)), 3)
                proto = float(np.max(self.prototypes[aspect] @ vec))
                out[i, j] = CUE_WEIGHT * cues + POSITION_WEIGHT * _position_prior(aspect, where) + PROTOTYPE_WEIGHT * proto
                if aspect in ("data", "results") and _NUMBER.search(text):
                    out[i, j] += 0.15 if aspect == "data" else 0.1  # "contains 11,586 problems", "up to 1.87x"
                if states_nothing(text):
                    out[i, j] -= 0.5  # "code and data will be released" states no aspect
                if aspect != "problem" and "?" in text:
                    out[i, j] -= 0.4  # "Related questions include: can an LLM avoid memorization?" asks, states nothing
                if aspect == "approach" and (_CONTRIBUTION.search(text) or (name and name in text)):
                    out[i, j] += 0.4
                if aspect in ("data", "results") and cues == 0:
                    out[i, j] -= 0.3  # no dataset / result words: not where those are stated
        return out

    def assign(self, sentences: list[tuple[str, object]], name: str = "") -> dict[str, Cell]:
        """The best sentence for each aspect (greedy by score, each sentence used once, except that data and
        results may share one: "Experiments on X show Y"), or NOT_STATED."""
        cells = {a: Cell(NOT_STATED) for a in ASPECTS}
        if not sentences:
            return cells
        matrix = self.scores(sentences, name)
        pairs = sorted(((matrix[i, j], i, j) for i in range(len(sentences)) for j in range(len(ASPECTS))), reverse=True)
        used: dict[int, str] = {}
        done = set()
        for score, i, j in pairs:
            aspect = ASPECTS[j]
            if aspect in done or score < MIN_ASPECT_SCORE[aspect]:
                continue
            if i in used and ({used[i], aspect} != {"data", "results"} or not _splits(sentences[i][0])):
                continue
            if aspect in ("data", "results") and ASPECTS[int(np.argmax(matrix[i]))] == "problem":
                continue  # "Existing approaches rely on ... annotations": prior work's data, not the paper's
            text = sentences[i][0]
            cells[aspect] = Cell(shorten(_part_for(aspect, text), _CUES[aspect], MAX_CELL_WORDS), text)
            used.setdefault(i, aspect)
            done.add(aspect)
        result = cells["results"].quote
        if cells["data"].text == NOT_STATED and (named := _EVALUATED_ON.search(result)):
            # "PickMoment achieves state-of-the-art performance ... on GoPro and HIDE ...": the data named in a result
            cells["data"] = Cell(shorten(result[named.start():], _CUES["data"], MAX_CELL_WORDS), result)
        return cells


def _part_for(aspect: str, sentence: str) -> str:
    """The part of "Experiments on X show that Y" an aspect wants: X for data, Y for results; else the sentence."""
    if aspect not in ("data", "results"):
        return sentence
    splits = list(_FINDING_VERB.finditer(sentence))
    # "... models validate our theory and show that Y": the verb introducing a "that" clause is the finding's.
    split = next((m for m in splits if m.group().rstrip().endswith("that")), splits[0] if splits else None)
    if split is None:
        # "On the Seeing Through Fog benchmark, PhysDNet outperforms ...": the data leads, the result follows
        lead = _LEADING_DATA.match(sentence)
        if lead and len(lead.group(2).split()) >= 4:
            return lead.group(1) if aspect == "data" else lead.group(2)
        return sentence
    before, after = sentence[: split.start()].strip(), sentence[split.end() :].strip()
    before = _TRAILING_SUBJECT.sub("", before)  # "Across three visual tasks, we | show that ...": the data part ends before "we"
    if aspect == "data" and _CUES["data"].search(before) and len(before.split()) >= 4:
        return before
    if aspect == "results" and len(after.split()) >= 4:
        return after[:1].upper() + after[1:]
    return sentence


def _splits(sentence: str) -> bool:
    """Does "Experiments on X show that Y" give a data part and a results part of its own?"""
    return _part_for("data", sentence) != sentence and _part_for("results", sentence) != sentence


def _position_prior(aspect: str, where: float) -> float:
    if aspect == "problem":
        return 1.0 - where
    if aspect == "approach":
        return 1.0 - abs(where - 0.35) * 2
    if aspect == "data":
        return 1.0 - abs(where - 0.65) * 2
    return where


# ---- synthesis ----
# Two statements are common ground from this cosine on (all-MiniLM-L6-v2): the best sentence pair of two seed papers
# in different themes (rag.themes, among the 8.4k NeurIPS abstracts) reaches it for 10% of the 486 such pairs, of
# two in one theme for 45% of 217 (PhysVista / PhyProbe 0.67, PRI / P4P 0.46; PhysDNet / hyper-connections 0.37).
COMMON_GROUND_MIN = 0.46


def closest_statements(rows: list["Row"], sentences: Mapping[str, list[tuple[str, object]]]) -> list[str]:
    """What the papers have most in common, by meaning: for the first paper, its sentence nearest on average to the
    others' nearest sentences, and for each other paper its sentence nearest to that one (one per row, in order);
    none when even these are below COMMON_GROUND_MIN."""
    vectors = [np.asarray([v for _, v in sentences.get(r.paper.paper_id, [])], dtype=np.float32) for r in rows]
    texts = [[t for t, _ in sentences.get(r.paper.paper_id, [])] for r in rows]
    if any(len(v) == 0 for v in vectors):
        return []
    first = vectors[0]
    score = np.mean([(first @ other.T).max(axis=1) for other in vectors[1:]], axis=0)
    anchor = int(score.argmax())
    if score[anchor] < COMMON_GROUND_MIN:
        return []
    return [texts[0][anchor]] + [t[int((v @ first[anchor]).argmax())] for t, v in zip(texts[1:], vectors[1:])]


@dataclass
class Comparison:
    rows: list[Row]
    synthesis: str
    cites: CitationBuilder

    def table_markdown(self) -> str:
        header = "| Paper | " + " | ".join(ASPECT_HEADERS[a] for a in ASPECTS) + " |"
        lines = [header, "|" + "---|" * (len(ASPECTS) + 1)]
        for row in self.rows:
            cells = [_cell(row.cells[a], row.n) for a in ASPECTS]
            lines.append(f"| **{_escape(row.paper.name)}** [{row.n}] | " + " | ".join(cells) + " |")
        return "\n".join(lines)

    def text(self, synthesis: str | None = None) -> str:
        """The synthesis first (what a reader wants), then the table behind it."""
        return (self.synthesis if synthesis is None else synthesis) + "\n\n" + self.table_markdown()


def _escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _cell(cell: Cell, n: int) -> str:
    return NOT_STATED if cell.text == NOT_STATED else f"{_escape(cell.text)} [{n}]"


def compare_papers(
    question: str, question_vec: np.ndarray, papers: list[Paper], sentences: dict[str, list[tuple[str, object]]],
    classifier: AspectClassifier, details: Sequence[DetailAsk] = (),
    asked: Mapping[str, tuple[str, np.ndarray, Sequence[DetailAsk]]] = {},
) -> Comparison:
    """The comparison table (one row per paper, in the given order) and an offline, cited synthesis; ``details``
    asked of each paper ("how many models each one evaluated") are answered from the sentence stating them. A paper
    with its own part of the question in ``asked`` (paper id -> that part, its vector and details) is answered on it."""
    cites = CitationBuilder()
    rows, focus, unstated = [], [], []
    other_names = set().union(*(content_words(p.name) for p in papers))
    for paper in papers:
        own = sentences.get(paper.paper_id, [])
        own_question, own_vec, own_details = asked.get(paper.paper_id, (question, question_vec, details))
        ranked = [r for r in rank_sentences(own_vec, own_question, own, ignore=other_names, answering=True)
                  if not states_nothing(r.text)]
        support = [(d.phrase, detail_support(d, paper, own)) for d in own_details]
        stated = [text for _, text in support if text]
        best = stated[0] if stated else ranked[0].text if ranked else (own[0][0] if own else paper.text)
        n = cites.cite(paper, best)
        rows.append(Row(paper, n, classifier.assign(own, paper.name)))
        focus.append(best)
        unstated += [(rows[-1], phrase) for phrase, text in support if not text]
    return Comparison(rows, _synthesis(rows, focus, sentences, unstated), cites)


_LEAD_IN = re.compile(r"^(?:in particular|specifically|concretely|to this end|here|in this (?:work|paper)"
                      r"|to address (?:this|these|that)[^,]*),\s+", re.I)


def what_it_is(row: Row, sentences: list[tuple[str, object]]) -> str:
    """What the paper contributes, in the abstract's words, after its name: "PhysVista, a benchmark designed to ..."
    -> " is a benchmark designed to ...", else its approach sentence (": we derive ...")."""
    name = re.escape(row.paper.name)
    for text, _ in sentences:
        match = re.search(rf"{name}\s*(?:\([^)]*\))?,\s+((?:an?|the)\s+[^;]+)", text)
        phrase = _appositive(match.group(1)) if match else ""
        if len(phrase.split()) >= 3:
            return " is " + shorten(phrase, None, MAX_CELL_WORDS)
    # else the sentence bringing it in ("we introduce the ViDiC task and its ViDiC-1K benchmark"), what it does, or
    # failing that what it finds or addresses
    introduced = introducing_sentence(row.paper, sentences)
    if introduced:
        return ": " + shorten(_LEAD_IN.sub("", introduced), None, MAX_CELL_WORDS).rstrip(". ")
    cell = next((row.cells[a] for a in ("approach", "results", "problem") if row.cells[a].text != NOT_STATED), None)
    if cell is None:
        return " is not described in a single sentence"
    return ": " + _LEAD_IN.sub("", cell.text).rstrip(". ")


def introducing_sentence(paper: Paper, sentences: list[tuple[str, object]]) -> str | None:
    """The sentence bringing the paper in by its name ("We introduce PerturbReason, a knowledge-grounded benchmark
    ..."), the first that says what the paper is; None when no sentence does."""
    name = re.compile(rf"(?<!\w){re.escape(paper.name)}(?!\w)", re.I)
    return next((text for text, _ in sentences if name.search(text) and _CONTRIBUTION.search(text)), None)


def _appositive(text: str) -> str:
    """The noun phrase after "PURGE, ...": up to the clause that follows it, a list's "..., and" kept ("a framework
    for constructing, benchmarking, and mitigating ...")."""
    for stop in re.finditer(r"\.(?!\d)|;|,\s+(?:which|that|and|while)\b", text):  # not "16.1 million"
        if stop.group().endswith("and") and "," in text[: stop.start()]:
            continue
        return text[: stop.start()]
    return text


def _synthesis(rows: list[Row], focus: list[str], sentences: dict[str, list[tuple[str, object]]],
               unstated: Sequence[tuple[Row, str]] = ()) -> str:
    parts = []
    closest = closest_statements(rows, sentences)
    if closest:  # quoted, not summed up: a shared method or stance is worded differently in each abstract
        quoted = " — ".join(f"**{r.paper.name}**: “{shorten(text, None, 30)}” [{r.n}]" for r, text in zip(rows, closest))
        parts.append(f"**Closest common ground:** {quoted}")
    missing = [(r, a) for r in rows for a in ("data", "results") if r.cells[a].text == NOT_STATED]
    for row, aspect in missing:
        parts.append(f"The abstract of **{row.paper.name}** does not state its {ASPECT_HEADERS[aspect].lower()} [{row.n}].")
    kinds = [f"**{r.paper.name}**{what_it_is(r, sentences.get(r.paper.paper_id, []))} [{r.n}]" for r in rows]
    parts.append("**How they differ:** " + "; ".join(kinds) + ".")
    answers = [f"**{r.paper.name}**: {shorten(text, None, 40)} [{r.n}]" for r, text in zip(rows, focus)]
    parts.append("**On the question:** " + " ".join(answers))
    parts += [f"The abstract of **{row.paper.name}** does not state the {phrase} [{row.n}]." for row, phrase in unstated]
    return "\n\n".join(parts)


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
