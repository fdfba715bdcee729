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

    def find(self, label: str) -> Theme | None:
        """The theme whose label (or its leading term) is ``label``, ignoring case and punctuation."""
        wanted = _folded(label)
        return next((t for t in self.themes if wanted in (_folded(t.label), _folded(t.terms[0]))), None)


def _folded(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


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


def class_tfidf(texts_by_class: Sequence[Sequence[str]]) -> tuple[np.ndarray, list[str]]:
    """Class-based TF-IDF (Grootendorst, 2022): each class's term frequencies, weighted by log(1 + A / f_t), where
    A is the mean number of words per class and f_t the term's frequency over all classes. Rows are classes."""
    from sklearn.feature_extraction.text import CountVectorizer, ENGLISH_STOP_WORDS

    stop = sorted(ENGLISH_STOP_WORDS | ACADEMIC_FILLER)
    vectorizer = CountVectorizer(stop_words=stop, ngram_range=(1, 2), min_df=2, token_pattern=_TOKEN, lowercase=True)
    docs = [" \n ".join(texts) for texts in texts_by_class]
    try:
        counts = vectorizer.fit_transform(docs).toarray().astype(np.float64)
    except ValueError:  # no term occurs twice (tiny classes): single words then
        vectorizer.set_params(min_df=1, ngram_range=(1, 1))
        counts = vectorizer.fit_transform(docs).toarray().astype(np.float64)
    tf = counts / np.maximum(counts.sum(axis=1, keepdims=True), 1.0)
    mean_words = counts.sum() / max(len(docs), 1)
    idf = np.log1p(mean_words / np.maximum(counts.sum(axis=0), 1.0))
    spread = np.log1p(len(docs) / np.maximum((counts > 0).sum(axis=0), 1.0))  # found in every class: no mark of one
    return tf * idf * spread, list(vectorizer.get_feature_names_out())


def _surface_forms(texts: Sequence[str]) -> dict[str, str]:
    """Each lower-cased word's most frequent spelling in the texts ("mllms" -> "MLLMs")."""
    forms: dict[str, Counter] = {}
    for text in texts:
        for word in re.findall(_TOKEN, text):
            forms.setdefault(word.lower(), Counter())[word] += 1
    return {low: counts.most_common(1)[0][0] for low, counts in forms.items()}


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
    scores, terms = class_tfidf([[texts[i] for i in m] for m in ranked])
    forms = _surface_forms(texts)
    themes = []
    for words, m in zip(label_terms(scores, terms), ranked):
        shown = [" ".join(forms.get(w, w) for w in term.split()) for term in words] or [f"theme {len(themes) + 1}"]
        themes.append(Theme(label=", ".join(shown), terms=tuple(shown), paper_ids=tuple(paper_ids[i] for i in m)))
    theme_of = {pid: index for index, theme in enumerate(themes) for pid in theme.paper_ids}
    return ThemeMap(themes=tuple(themes), theme_of=theme_of)
