"""PaperChat: the Python API over store and rag (ingest, retrieve, ask, query engine)."""

from __future__ import annotations

import copy
import logging
from collections.abc import Iterator, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from rag.acronyms import in_tables_field, tables_apply
from rag.catalog import PaperCatalog
from rag.extractive import extractive_answer
from rag.followup import History
from rag.generate import build_llm
from rag.retrieve import HybridRetriever, PaperFilters, PaperHit
from rag.settings import Settings
from rag.terms import question_terms
from rag.types import Answer
from store.chroma import PaperStore, open_client
from store.embed import MiniLMEmbedding, build_embedder, embedder_dimension
from store.embed_cache import EmbeddingCache
from store.embed_cache import embed_texts as cached_embeddings
from store.ingest import IngestReport, ProgressFn, ingest_files, remove_papers
from store.paper import Paper
from store.settings import BUNDLED_CORPUS_DIR

log = logging.getLogger(__name__)
# A question asked of a paper it names is matched to that paper's sentences without the name when at least this many
# words of its own are left.
MIN_ASKED_TERMS = 2
# A paper name of this many content words describes the paper ("CoT as compositional OOD generalization").
DESCRIPTIVE_NAME_TERMS = 2


def _bundled_sources() -> set[str]:
    """File names of the bundled corpus: a paper's ``source``."""
    return {path.name for path in BUNDLED_CORPUS_DIR.iterdir()} if BUNDLED_CORPUS_DIR.is_dir() else set()


def build_settings(settings: Settings | None = None, **overrides: Any) -> Settings:
    """Settings from env/.env with keyword overrides: ``store_dir=``, ``llm_backend=``, ``top_k=``..."""
    nested: dict[str, dict[str, Any]] = {}
    sections = {name: model.annotation.model_fields for name, model in Settings.model_fields.items()}
    for key, value in overrides.items():
        section, _, field = key.partition("_")
        if section in sections and field in sections[section]:
            nested.setdefault(section, {})[field] = value
            continue
        owners = [s for s, fields in sections.items() if key in fields]
        if len(owners) != 1:
            raise TypeError(f"Unknown PaperChat setting: {key}")
        nested.setdefault(owners[0], {})[key] = value
    if settings is None:
        return Settings(**nested)
    merged = settings.model_dump()
    for section, values in nested.items():
        merged[section].update(values)
    return Settings(**merged)


class PaperChat:
    """Question answering over a paper collection; works offline with no API key.

    ``PaperChat(store_dir="...")`` opens (and on first use fills) a local store;
    keyword arguments override settings (``llm_backend="openai-compatible"``, ``llm_base_url=...``).
    """

    def __init__(self, settings: Settings | None = None, **overrides: Any):
        self.settings = build_settings(settings, **overrides)

    # ---- parts, built on first use ----
    @cached_property
    def embedder(self):
        return build_embedder(self.settings.embedding)

    @cached_property
    def embed_cache(self) -> EmbeddingCache | None:
        if not self.settings.store.embed_cache:
            return None
        return EmbeddingCache(self.settings.store.dir / "embed-cache")

    def _open_store(self) -> PaperStore:
        return PaperStore(
            open_client(self.settings.store), self.settings.store.collection,
            embed_model=self.embedder.model_name, dimension=embedder_dimension(self.embedder),
        )

    @cached_property
    def store(self) -> PaperStore:
        """The paper store; an empty one read from (ask, ui) gets the bundled corpus as a demo, which the user's
        first ingest replaces."""
        store = self._open_store()
        if store.paper_count() == 0 and self.settings.store.bundled_corpus and BUNDLED_CORPUS_DIR.is_dir():
            log.warning("Empty store: loading the bundled demo corpus from %s (your first `paperchat ingest` "
                        "replaces it)", BUNDLED_CORPUS_DIR)
            store.mark_demo(True)  # first: a demo half-loaded by a killed run is still replaced
            ingest_files([BUNDLED_CORPUS_DIR], store, self.embedder, progress=self._demo_progress,
                         cache=self.embed_cache)
        return store

    @cached_property
    def catalog(self) -> PaperCatalog:
        from rag import catalog as catalog_code
        from rag.snapshot import SNAPSHOT_DIR, load_or_build
        from store import chroma, paper

        return load_or_build(
            "catalog", self.store, self.settings.store.dir / SNAPSHOT_DIR,
            lambda: PaperCatalog(p for p, _ in self.store.iter_papers()), (catalog_code, chroma, paper),
        )

    @cached_property
    def retriever(self) -> HybridRetriever:
        from rag.lexical import load_bm25

        bm25 = load_bm25(self.store, self.settings.store.dir / "bm25", self.settings.retrieval.candidates)
        return HybridRetriever(self.store, self.embedder, self.catalog, bm25, self.settings.retrieval.candidates)

    def _reload(self) -> None:
        for name in ("catalog", "retriever", "term_stats", "glossary", "themes", "kept_themes", "in_tables_field"):
            self.__dict__.pop(name, None)

    # ---- public API ----
    def ingest(self, paths: Sequence[str | Path], progress: ProgressFn | None = None) -> IngestReport:
        """Add papers from txt/jsonl/json/csv files; returns what was added, updated and rejected.

        The store then holds what the user loaded: an empty store gets no demo corpus first, and one holding
        only the demo corpus loses it once any paper of the user's is stored."""
        if "store" not in self.__dict__:
            self.store = self._open_store()  # no demo corpus on the way to the user's own
        report = ingest_files(paths, self.store, self.embedder, progress=progress, cache=self.embed_cache)
        if self.store.holds_demo() and (report.added or report.updated or report.unchanged):
            bundled = {p.paper_id for p, _ in self.store.iter_papers() if p.source in _bundled_sources()}
            loaded_now = set(report.paper_ids)
            demo_only = sorted(bundled - loaded_now)
            remove_papers(self.store, demo_only)
            self.store.mark_demo(False)
            report.removed = len(demo_only)
        if report.changed:
            self._reload()
        return report

    def remove(self, selectors: Sequence[str]) -> list[Paper]:
        """Remove the papers that a selector names: a source file name, a paper id, or ``source#ordinal``."""
        wanted = set(selectors)
        gone = [p for p in self.papers() if {p.source, p.paper_id, p.key} & wanted]
        remove_papers(self.store, [p.paper_id for p in gone])
        if gone:
            self._reload()
        return gone

    @staticmethod
    def _demo_progress(done: int, total: int, message: str) -> None:
        if total and done == 0:
            log.warning("Embedding the %d demo papers (once; later starts reuse them)", total)

    def papers(self) -> list[Paper]:
        """Every loaded paper, in source/ordinal order."""
        return sorted(self.catalog.papers.values(), key=lambda p: (p.source, p.ordinal))

    def retrieve(self, question: str, k: int | None = None, filters: PaperFilters | None = None) -> list[Paper]:
        """The papers that best match the question, best first, each with ``.score``."""
        return [h.paper for h in self.retrieve_hits(question, k, filters)]

    def retrieve_hits(self, question: str, k: int | None = None, filters: PaperFilters | None = None) -> list[PaperHit]:
        return self.retriever.retrieve(question, k or self.settings.retrieval.top_k, filters)

    def ask(self, question: str, history: History = (), k: int | None = None,
            filters: PaperFilters | None = None) -> Answer:
        """A cited answer to the question (``history``: earlier (question, answer) turns)."""
        answer = None
        for answer in self.stream(question, history, k, filters):
            pass
        assert isinstance(answer, Answer)
        return answer

    def stream(self, question: str, history: History = (), k: int | None = None,
               filters: PaperFilters | None = None) -> Iterator[str | Answer]:
        """Yields text pieces as they are written, then the final Answer.

        Questions about the collection as a whole (themes, trends, "what can you do?") get the themes or a help
        reply. Follow-ups are rewritten against ``history`` first; then comparisons get a table, "which papers"
        questions a list, details an abstract lacks a plain "not stated", and the rest a cited lookup.
        """
        from rag.language import question_language, stream_other_language

        language = question_language(question)
        if language != "en":
            yield from stream_other_language(self, question, language, history, k, filters)
            return
        yield from self.stream_english(question, history, k, filters)

    def stream_english(self, question: str, history: History = (), k: int | None = None,
                       filters: PaperFilters | None = None) -> Iterator[str | Answer]:
        """``stream`` for a question known to be in English."""
        from rag.collection import about_collection
        from rag.engine import PaperChatEngine
        from rag.suggest import next_questions

        with self.field_tables():
            about = about_collection(self, question)
            if about is not None:  # "what are the main themes?", "hi": the collection, not some papers, is asked about
                yield about.text
                yield about
                return
            for piece in PaperChatEngine.from_settings(self).stream(question, history, k, filters):
                if isinstance(piece, Answer):
                    piece.suggestions = next_questions(piece, self.catalog.papers, self.ready_themes())
                yield piece

    @cached_property
    def aspect_classifier(self):
        from rag.compare import AspectClassifier

        return AspectClassifier(self.embed_texts)

    @cached_property
    def term_stats(self):
        from rag import relevance, terms
        from rag.snapshot import SNAPSHOT_DIR, load_or_build

        return load_or_build(
            "term-stats", self.store, self.settings.store.dir / SNAPSHOT_DIR,
            lambda: relevance.TermStats(p.text for p in self.catalog.papers.values()), (relevance, terms),
        )

    @cached_property
    def in_tables_field(self) -> bool:
        """Whether the loaded papers are in the field of the ML rule tables (rag.acronyms.in_tables_field)."""
        return in_tables_field(p.text for p in self.catalog.papers.values())

    def field_tables(self):
        """A block in which the field rule tables apply only if the loaded papers are in their field."""
        return tables_apply(self.in_tables_field)

    @cached_property
    def glossary(self):
        from rag.glossary import AcronymGlossary

        return AcronymGlossary(p.text for p in self.catalog.papers.values())

    @property
    def has_llm(self) -> bool:
        """Whether answers are written by an LLM (any backend but the offline ``extractive``)."""
        return self.settings.llm.backend != "extractive"

    def write_extractive(self, question: str, chosen: list[PaperHit], hits: list[PaperHit],
                         quote_first: Sequence[str] = ()) -> Answer:
        """The offline answer: the chosen papers' sentences that answer the question, quoted and cited."""
        sentences = self.store.sentences([h.paper.paper_id for h in chosen])
        plain = self.question_vec(question)  # embedded once, whatever the number of papers
        vectors = {h.paper.paper_id: self.question_vec(question, h.paper, plain) for h in chosen}
        return extractive_answer(question, vectors, chosen, sentences, hits, quote_first)

    def question_vec(self, question: str, paper: Paper | None = None, plain: np.ndarray | None = None) -> np.ndarray:
        """The question's vector; asked of a paper it names by a descriptive name, the mean of it with and without
        the name, whose words alone draw it to the sentences repeating them rather than those answering ("what's the
        diagnostic quantity the convergence analysis framework for SNN training proposes?": of the 24 seed answers
        this changes on bench/questions.jsonl, read one by one, 11 quote a better sentence and 3 a worse one; without
        the name alone, 11 better and 6 worse of 31). A coined name ("PhysDNet") stays: it draws the question to the
        paper's own claims. ``plain``: the question's own vector, when it is embedded already."""
        vec = np.asarray(self.embedder.get_query_embedding(question), dtype=np.float32) if plain is None else plain
        if paper is None or len(question_terms(paper.name)) < DESCRIPTIVE_NAME_TERMS:
            return vec
        asked = self.catalog.without_name(question, paper.paper_id)
        if asked == question or len(question_terms(asked)) < MIN_ASKED_TERMS:  # "What is X about?": the name is all
            return vec
        mixed = vec + np.asarray(self.embedder.get_query_embedding(asked), dtype=np.float32)
        return mixed / (np.linalg.norm(mixed) or 1.0)

    @cached_property
    def word_vectors(self):
        from rag.relevance import WordVectors

        return WordVectors(lambda words: cached_embeddings(self.embedder, words, self.embed_cache))

    @cached_property
    def bundled_encoder(self) -> MiniLMEmbedding:
        """The bundled MiniLM, whatever the store's embedder: the thresholds of the word-by-word match and of the
        collection-question kinds are calibrated on it."""
        if isinstance(self.embedder, MiniLMEmbedding):
            return self.embedder
        return MiniLMEmbedding(threads=self.settings.embedding.threads)

    @cached_property
    def token_matcher(self):
        from rag.token_match import TokenMatcher

        return TokenMatcher(self.bundled_encoder)

    @cached_property
    def collection_kinds(self):
        from rag.collection_kinds import CollectionKinds

        encoder = self.bundled_encoder  # query vectors: cached, so the search reuses the question's vector
        return CollectionKinds(lambda texts: np.asarray([encoder.get_query_embedding(t) for t in texts],
                                                        dtype=np.float32))

    def ready_themes(self):
        """The themes when they cost nothing more: computed in this process or kept by an earlier one; else None.
        Answers to questions about papers use them only then: a first computation takes ~25 s at 8k papers."""
        return self.__dict__.get("themes") or self.kept_themes

    @cached_property
    def kept_themes(self):
        """The themes an earlier process kept for this store generation, looked for once (None when there are none)."""
        from rag import snapshot
        from rag import themes as themes_code
        from store import chroma, paper

        return snapshot.load("themes", self.store, self.settings.store.dir / snapshot.SNAPSHOT_DIR,
                             (themes_code, chroma, paper))

    @cached_property
    def themes(self):
        """The loaded papers' themes (rag.themes), computed once per store generation and kept as a snapshot."""
        from rag import themes as themes_code
        from rag.snapshot import SNAPSHOT_DIR, load_or_build
        from store import chroma, paper

        def build():
            ids, vectors = [], []
            for stored, vector in self.store.iter_papers(include_vectors=True):
                ids.append(stored.paper_id)
                vectors.append(vector)
            if not ids:
                return themes_code.ThemeMap()
            papers = [self.catalog.papers[pid] for pid in ids]
            texts = [p.text if p.title in p.text else f"{p.title}. {p.text}" for p in papers]
            return themes_code.build_themes(ids, np.asarray(vectors, dtype=np.float32).reshape(len(ids), -1), texts)

        return load_or_build("themes", self.store, self.settings.store.dir / SNAPSHOT_DIR, build,
                             (themes_code, chroma, paper))

    def trends(self):
        """How each theme's share of the papers changed over the years (None when the papers span under two)."""
        from rag.trends import theme_trends

        return theme_trends(self.themes, {pid: p.year for pid, p in self.catalog.papers.items()})

    def embed_texts(self, texts: list[str]) -> np.ndarray:
        """Vectors of texts with the store's embedder (rows)."""
        return np.asarray(self.embedder.get_text_embedding_batch(texts), dtype=np.float32)

    @cached_property
    def llm(self):
        return build_llm(self.settings)

    def paper_map(self) -> dict[str, tuple[float, float]]:
        """Each paper's 2-D position (PCA of its vector); computed once per ingest, cached in the store dir."""
        from store.projection import project_papers

        return project_papers(self.store, self.settings.store.dir)

    def with_llm(self, **llm: Any) -> "PaperChat":
        """A PaperChat answering with other LLM settings (``backend=``, ``model=``, ``base_url=``...).

        It shares this one's store, catalog and retriever, so it is cheap to make per request.
        """
        self.retriever  # build the shared parts once, here, not in each copy
        twin = copy.copy(self)
        twin.settings = build_settings(self.settings, **{f"llm_{key}": value for key, value in llm.items()})
        twin.__dict__.pop("llm", None)
        return twin

    def compare(self, paper_ids: Sequence[str], question: str = "", k: int | None = None) -> Answer:
        """A cited comparison of the papers with these ids (two to five): a synthesis, then a table of aspects."""
        from rag.engine import PaperChatEngine

        unknown = [pid for pid in paper_ids if pid not in self.catalog.papers]
        if unknown or not 2 <= len(paper_ids) <= 5:
            raise ValueError(f"compare takes 2 to 5 loaded paper ids; unknown: {', '.join(unknown) or 'none'}")
        names = [self.catalog.papers[pid].name for pid in paper_ids]
        question = question or f"Compare {', '.join(names[:-1])} and {names[-1]}: how do they differ?"
        with self.field_tables():
            *_, answer = PaperChatEngine.from_settings(self).stream_comparison(paper_ids, question, k)
        return answer

    def as_retriever(self, k: int | None = None):
        """A LlamaIndex retriever: one node per paper, best first, its metadata the paper's record."""
        from rag.retrieve import PaperRetriever

        return PaperRetriever(self.retriever, k or self.settings.retrieval.top_k)

    def as_postprocessor(self):
        """A LlamaIndex node postprocessor keeping the retrieved papers that answer the query (the offline judge)."""
        from rag.postprocess import JudgePostprocessor

        return JudgePostprocessor(chat=self)

    def as_query_engine(self, k: int | None = None):
        """A LlamaIndex query engine over this PaperChat; source_nodes carry paper metadata."""
        from rag.query_engine import PaperChatQueryEngine

        return PaperChatQueryEngine(chat=self, k=k or self.settings.retrieval.top_k)
