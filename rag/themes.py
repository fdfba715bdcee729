"""Themes of the loaded papers: k-means over their paper vectors, each cluster labelled by its class-based
TF-IDF terms (the BERTopic way), from the abstracts' own words so that any field gets its own labels."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

# Themes an overview offers: at least MIN_THEMES (when there are papers enough), at most MAX_THEMES, and no theme
# expected to hold fewer than MIN_THEME_PAPERS papers (38 papers: 4 to 7 themes).
MIN_THEMES = 4
MAX_THEMES = 16
MIN_THEME_PAPERS = 5
# Silhouette scores are estimated on at most this many papers: exact at a few hundred, sampled at 8k.
SILHOUETTE_SAMPLE = 2000
# Terms a label is made of; candidate terms read per theme.
LABEL_TERMS = 3
CANDIDATE_TERMS = 12
# Words any abstract uses whatever its field: no theme is told apart by them.
ACADEMIC_FILLER = frozenset("""paper papers propose proposed proposes approach approaches method methods result results
    show shows shown study studies based using use used new novel also however work works present presents introduce
    introduced introduces demonstrate demonstrates provide provides achieve achieves significantly existing recent
    different various specific effective efficient improve improved improves performance state art stateofthe
    framework problem problems task tasks""".split())
_TOKEN = r"(?u)\b[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*\b"


@dataclass(frozen=True)
class Theme:
    """A group of papers close in meaning; ``paper_ids`` are its members, most central first."""

    label: str
    terms: tuple[str, ...]
    paper_ids: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.paper_ids)


@dataclass(frozen=True)
class ThemeMap:
    """The loaded papers' themes, largest first, with each paper's theme."""

    themes: tuple[Theme, ...] = ()
    theme_of: dict[str, int] = field(default_factory=dict)  # paper_id -> index in ``themes``

    def find(self, text: str) -> Theme | None:
        """The theme whose whole label ``text`` holds ("in the theme “visual, video, physical”"), ignoring case and
        punctuation."""
        padded = f" {_folded(text)} "
        return next((t for t in self.themes if f" {_folded(t.label)} " in padded), None)


def _folded(text: str) -> str:
    """Lower-cased words and digits, one space apart: "Visual, video" -> "visual video"."""
    return " ".join("".join(c if c.isalnum() else " " for c in text.lower()).split())


def choose_theme_count(vectors: np.ndarray, seed: int = 0) -> int:
    """The number of clusters, within the bounds above, whose k-means partition has the best silhouette."""
    from sklearn.cluster import KMeans
    from sklearn.metrics import silhouette_score

    n = len(vectors)
    top = min(MAX_THEMES, n // MIN_THEME_PAPERS)
    if top <= MIN_THEMES:
        return max(1, min(MIN_THEMES, n))
    best, best_k = -2.0, MIN_THEMES
    for k in range(MIN_THEMES, top + 1):
        labels = KMeans(n_clusters=k, n_init=4, random_state=seed).fit_predict(vectors)
        score = silhouette_score(vectors, labels, sample_size=min(n, SILHOUETTE_SAMPLE), random_state=seed)
        if score > best:
            best, best_k = score, k
    return best_k


class TermCounter:
    """Counts each text's words and two-word phrases by stem ("models" and "model" are one term), stop words and
    ACADEMIC_FILLER left out, a phrase only of words standing side by side; remembers each term's most frequent
    spelling."""

    def __init__(self) -> None:
        from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

        from rag.terms import snowball_stem

        self._stop = ENGLISH_STOP_WORDS | ACADEMIC_FILLER
        self._stem = snowball_stem
        self._spellings: dict[str, Counter] = {}

    def __call__(self, text: str) -> list[str]:
        terms: list[str] = []
        previous: tuple[str, str] | None = None
        for match in re.finditer(_TOKEN, text):
            word = match.group()
            low = word.lower()
            if low in self._stop or len(low) < 2:
                previous = None
                continue
            stem = self._stem(low)
            terms.append(stem)
            self._spellings.setdefault(stem, Counter())[word] += 1
            if previous is not None:
                phrase = f"{previous[0]} {stem}"
                terms.append(phrase)
                self._spellings.setdefault(phrase, Counter())[f"{previous[1]} {word}"] += 1
            previous = (stem, word)
        return terms

    def spelling(self, term: str, texts: Sequence[str]) -> str:
        """The term's most frequent spelling among those ``texts`` use."""
        joined = "\n".join(texts)
        for written, _ in (self._spellings.get(term) or Counter()).most_common():
            if re.search(rf"(?<![\w-]){re.escape(written)}(?![\w-])", joined):
                return written
        return term


def class_tfidf(texts: Sequence[str], classes: np.ndarray, counter: TermCounter) -> tuple[np.ndarray, list[str]]:
    """Class-based TF-IDF (Grootendorst, 2022) with a document-frequency factor: a class's term frequency, times
    log(1 + A / f_t) (A: mean words per class, f_t: the term's frequency over all classes), times log(N / df_t) (N
    papers, df_t of them using the term), so that words most papers use ("model", "patients") name no theme.
    ``classes``: each text's class index. Rows of the result are classes."""
    from scipy import sparse
    from sklearn.feature_extraction.text import CountVectorizer

    vectorizer = CountVectorizer(analyzer=counter, min_df=2 if len(texts) > 2 else 1)
    try:
        docs = vectorizer.fit_transform(texts)
    except ValueError:  # no term used twice
        return np.zeros((int(classes.max()) + 1, 0)), []
    membership = sparse.csr_matrix((np.ones(len(texts)), (classes, np.arange(len(texts)))))
    counts = np.asarray((membership @ docs).todense(), dtype=np.float64)
    tf = counts / np.maximum(counts.sum(axis=1, keepdims=True), 1.0)
    mean_words = counts.sum() / max(len(counts), 1)
    idf = np.log1p(mean_words / np.maximum(counts.sum(axis=0), 1.0))
    rarity = np.log(len(texts) / np.maximum(np.asarray((docs > 0).sum(axis=0)).ravel(), 1.0))
    return tf * idf * rarity, list(vectorizer.get_feature_names_out())


def label_terms(scores: np.ndarray, terms: list[str]) -> list[list[str]]:
    """Up to LABEL_TERMS distinctive terms per class: a term inside one already taken (or taking one in) is
    skipped, and a class does not lead with another's leading term, so no two labels are alike."""
    order = np.argsort(-scores, axis=1)[:, :CANDIDATE_TERMS]
    picked: list[list[str]] = []
    leads: set[str] = set()
    for row, candidates in enumerate(order):
        chosen: list[str] = []
        for col in candidates:
            term = terms[col]
            if scores[row, col] <= 0 or (not chosen and term in leads):
                continue
            words = set(term.split())
            if any(words <= set(c.split()) or set(c.split()) <= words for c in chosen):
                continue
            chosen.append(term)
            if len(chosen) == LABEL_TERMS:
                break
        if chosen:
            leads.add(chosen[0])
        picked.append(chosen)
    return picked


def build_themes(paper_ids: Sequence[str], vectors: np.ndarray, texts: Sequence[str], seed: int = 0) -> ThemeMap:
    """Cluster the papers by their vectors (rows of ``vectors``, one per id) and label each cluster from ``texts``."""
    from sklearn.cluster import KMeans

    if len(paper_ids) == 0:
        return ThemeMap()
    unit = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    k = choose_theme_count(unit, seed)
    model = KMeans(n_clusters=k, n_init=10, random_state=seed).fit(unit)
    members = [np.flatnonzero(model.labels_ == c) for c in range(k)]
    members = [m for m in members if len(m)]
    members.sort(key=len, reverse=True)
    centrality = [unit[m] @ (unit[m].mean(axis=0)) for m in members]
    ranked = [m[np.argsort(-c)] for m, c in zip(members, centrality)]
    classes = np.empty(len(paper_ids), dtype=np.int64)
    for index, m in enumerate(ranked):
        classes[m] = index
    counter = TermCounter()
    scores, terms = class_tfidf(texts, classes, counter)
    themes = []
    for words, m in zip(label_terms(scores, terms), ranked):
        shown = [counter.spelling(term, [texts[i] for i in m]) for term in words] or [f"theme {len(themes) + 1}"]
        themes.append(Theme(label=", ".join(shown), terms=tuple(shown), paper_ids=tuple(paper_ids[i] for i in m)))
    theme_of = {pid: index for index, theme in enumerate(themes) for pid in theme.paper_ids}
    return ThemeMap(themes=tuple(themes), theme_of=theme_of)
