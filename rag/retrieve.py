"""Hybrid retrieval at paper level: dense sentences (Chroma) + BM25, fused by reciprocal rank."""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from llama_index.core import VectorStoreIndex
from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode
from llama_index.core.vector_stores import (
    FilterOperator,
    MetadataFilter,
    MetadataFilters,
    VectorStoreQuery,
)
from llama_index.retrievers.bm25 import BM25Retriever
from llama_index.vector_stores.chroma import ChromaVectorStore

from rag.catalog import PaperCatalog
from store.chroma import PaperStore
from store.paper import Paper

RRF_K = 60  # the constant of Cormack et al.; LlamaIndex's QueryFusionRetriever uses it too
# A named paper outranks every unnamed one: it is what the question asks about.
NAMED_BONUS = 1.0


@dataclass(frozen=True)
class PaperFilters:
    """Restrict retrieval to some years or venues (None = any)."""

    year_min: int | None = None
    year_max: int | None = None
    venues: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return self.year_min is not None or self.year_max is not None or bool(self.venues)

    def admits(self, paper: Paper) -> bool:
        if self.year_min is not None and (paper.year is None or paper.year < self.year_min):
            return False
        if self.year_max is not None and (paper.year is None or paper.year > self.year_max):
            return False
        return not self.venues or (paper.venue or "") in self.venues

    def describe_years(self) -> str:
        """The years admitted, in words: "2023", "2015 to 2017", "2020 on", "before 2010"."""
        if self.year_min is not None and self.year_max is not None:
            return str(self.year_min) if self.year_min == self.year_max else f"{self.year_min} to {self.year_max}"
        if self.year_min is not None:
            return f"{self.year_min} on"
        return f"before {self.year_max + 1}" if self.year_max is not None else "any year"

    def to_metadata_filters(self) -> MetadataFilters | None:
        parts = []
        if self.year_min is not None:
            parts.append(MetadataFilter(key="year", value=self.year_min, operator=FilterOperator.GTE))
        if self.year_max is not None:
            parts.append(MetadataFilter(key="year", value=self.year_max, operator=FilterOperator.LTE))
        if self.venues:
            parts.append(MetadataFilter(key="venue", value=list(self.venues), operator=FilterOperator.IN))
        return MetadataFilters(filters=parts) if parts else None


@dataclass
class PaperHit:
    """A retrieved paper with the evidence that found it."""

    paper: Paper
    relevance: float = 0.0  # cosine of the best-matching sentence to the question
    fused: float = 0.0  # reciprocal-rank fusion score (+ bonus when named)
    named: bool = False
    sentences: dict[int, float] = field(default_factory=dict)  # sentence index -> dense cosine


def _best_per_paper(nodes: list[NodeWithScore]) -> dict[str, float]:
    best: dict[str, float] = {}
    for hit in nodes:
        pid = hit.node.metadata["paper_id"]
        best[pid] = max(best.get(pid, -math.inf), hit.score or 0.0)
    return best


class HybridRetriever:
    """Dense + BM25 retrieval over sentence nodes, aggregated to papers, named papers first."""

    def __init__(
        self, store: PaperStore, embedder: BaseEmbedding, catalog: PaperCatalog,
        bm25: BM25Retriever | None, candidates: int = 40,
    ):
        self.store, self.embedder, self.catalog, self.bm25 = store, embedder, catalog, bm25
        self.candidates = candidates
        self._lexical_worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bm25")
        # Nodes reach Chroma already chunked and embedded (store/ingest.py). Naming the transformations
        # keeps LlamaIndex from building its default SentenceSplitter, which loads tiktoken (~1 s).
        self._index = VectorStoreIndex.from_vector_store(
            ChromaVectorStore(chroma_collection=store.chunks), embed_model=embedder, transformations=[embedder]
        )

    def retrieve(self, question: str, k: int = 10, filters: PaperFilters | None = None) -> list[PaperHit]:
        """The k papers that best answer the question, best first."""
        filters = filters or PaperFilters()
        # BM25 runs in another thread while the question is embedded (onnxruntime leaves the GIL):
        # ~3 ms of ~25 at 8k papers.
        lexical_future = self._lexical_worker.submit(self._lexical, question, filters)
        named = [pid for pid in self.catalog.named_in(question) if filters.admits(self.catalog.papers[pid])]
        dense = self._dense(question, filters)
        lexical = lexical_future.result()

        hits: dict[str, PaperHit] = {}
        for ranking in (_best_per_paper(dense), _best_per_paper(lexical)):
            for rank, pid in enumerate(sorted(ranking, key=ranking.get, reverse=True)):
                if pid in self.catalog:
                    hit = hits.setdefault(pid, PaperHit(self.catalog.papers[pid]))
                    hit.fused += 1.0 / (RRF_K + rank + 1)
        for node in dense:
            hit = hits.get(node.node.metadata["paper_id"])
            if hit is not None:
                cosine = 1.0 + math.log(max(node.score or 1e-9, 1e-9))  # Chroma wrapper gives exp(-distance)
                hit.sentences[int(node.node.metadata.get("sentence", 0))] = cosine
                hit.relevance = max(hit.relevance, cosine)
        for pid in named:
            hit = hits.setdefault(pid, PaperHit(self.catalog.papers[pid]))
            hit.named, hit.fused = True, hit.fused + NAMED_BONUS
        ranked = sorted(hits.values(), key=lambda h: h.fused, reverse=True)[:k]
        for hit in ranked:
            hit.paper = hit.paper.with_score(round(hit.relevance, 4))
        return ranked

    def nearest_papers(self, vector: np.ndarray, sentences: int, filters: PaperFilters | None = None) -> list[str]:
        """Ids of the papers of the ``sentences`` sentences nearest ``vector``, nearest first; the filters apply in
        the search, so a year's papers are not crowded out by other years'."""
        query = VectorStoreQuery(query_embedding=vector.tolist(), similarity_top_k=sentences,
                                 filters=(filters or PaperFilters()).to_metadata_filters())
        found = self._index.vector_store.query(query)
        return list(dict.fromkeys(node.metadata["paper_id"] for node in found.nodes))

    def _dense(self, question: str, filters: PaperFilters) -> list[NodeWithScore]:
        retriever = self._index.as_retriever(
            similarity_top_k=self.candidates, filters=filters.to_metadata_filters()
        )
        return retriever.retrieve(QueryBundle(question))

    def _lexical(self, question: str, filters: PaperFilters) -> list[NodeWithScore]:
        if self.bm25 is None:
            return []
        nodes = [n for n in self.bm25.retrieve(question) if (n.score or 0) > 0]
        if filters:
            nodes = [n for n in nodes if filters.admits(self.catalog.papers.get(n.node.metadata["paper_id"]))]
        return nodes


def paper_node(paper: Paper) -> TextNode:
    """A LlamaIndex node for a whole paper, carrying the paper's metadata."""
    return TextNode(
        id_=paper.paper_id,
        text=paper.text,
        metadata={
            "paper_id": paper.paper_id, "name": paper.name, "title": paper.title, "source": paper.source,
            "ordinal": paper.ordinal, "year": paper.year, "venue": paper.venue,
            "authors": list(paper.authors), "url": paper.url, "score": paper.score,
        },
    )


class PaperRetriever(BaseRetriever):
    """LlamaIndex face of HybridRetriever: one node per paper, score = relevance."""

    def __init__(self, hybrid: HybridRetriever, k: int = 10, **kwargs: Any):
        super().__init__(**kwargs)
        self._hybrid, self._k = hybrid, k

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        nodes = []
        for hit in self._hybrid.retrieve(query_bundle.query_str, self._k):
            node = paper_node(hit.paper)
            node.metadata["relevance"] = hit.relevance  # the judge's starting point (rag.postprocess)
            nodes.append(NodeWithScore(node=node, score=hit.paper.score))
        return nodes
