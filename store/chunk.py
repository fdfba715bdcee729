"""Split papers into sentence nodes that carry their paper's metadata."""

from __future__ import annotations

import logging
import re
from functools import lru_cache
from typing import Callable

from llama_index.core.schema import (
    MetadataMode,
    NodeRelationship,
    RelatedNodeInfo,
    TextNode,
)

from store.acronyms import defined_acronyms
from store.paper import Paper

log = logging.getLogger(__name__)
# Where a sentence ends when Punkt cannot say: after . ! or ? and before a capital.
_PUNCTUATION_BREAK = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
# A piece starting like this continues the sentence before it: Punkt ends sentences at "et al." and "i.e.".
_CONTINUES = re.compile(r"[a-z\[]")
# Fragments shorter than this ("(Sec. 3)", "Code: url") are glued to the next sentence.
MIN_SENTENCE_CHARS = 40
# Metadata embedded with every sentence, so a lone sentence still says which paper it is from
# (the name only: every extra token costs ingest time on a CPU).
EMBED_METADATA_KEYS = ("name",)
# Paper fields only the registry record keeps: every metadata key is a row Chroma writes per sentence.
REGISTRY_ONLY_KEYS = ("authors", "url")
# How sentences are turned into embedded text; part of each paper's content hash, so a change re-embeds on ingest.
# 2: acronyms the abstract defines are spelled out in every sentence that uses them.
# 3: a piece starting in lower case or "[" is not a sentence of its own ("Marion et al. [2025] ...").
EMBEDDING_RECIPE = 3


@lru_cache(maxsize=1)
def _sentence_splitter() -> Callable[[str], list[str]]:
    from llama_index.core.node_parser.text.utils import split_by_sentence_tokenizer

    return split_by_sentence_tokenizer()


def _split_with_punkt(text: str) -> list[str]:
    """Punkt's sentences. NLTK >= 3.10 runs each regex under a 5 s wall-clock limit, which Punkt's own fixed patterns
    can hit on a busy machine (another thread holding the GIL while it writes to Chroma): a timeout is retried, then
    the text is split at sentence punctuation rather than failing the ingest."""
    for attempt in range(2):
        try:
            return _sentence_splitter()(text)
        except TimeoutError:  # the retry succeeds (31 of 31 at 8.4k papers): worth a warning only when it fails too
            log.debug("sentence splitter timed out (attempt %d) on %r...", attempt + 1, text[:60])
    log.warning("sentence splitter timed out twice on %r...; splitting it at punctuation", text[:60])
    return _PUNCTUATION_BREAK.split(text)


def split_sentences(text: str) -> list[str]:
    """Sentences of a clean abstract, tiny fragments merged into their neighbour."""
    merged: list[str] = []
    carry = ""
    for piece in _split_with_punkt(text):
        piece = (carry + " " + piece.strip()).strip() if carry else piece.strip()
        if len(piece) < MIN_SENTENCE_CHARS:
            carry = piece
            continue
        if merged and _CONTINUES.match(piece):  # "Marion et al. | [2025] extend ...": one sentence, not two
            merged[-1] = f"{merged[-1]} {piece}"
        else:
            merged.append(piece)
        carry = ""
    if carry:
        if merged:
            merged[-1] = f"{merged[-1]} {carry}"
        else:
            merged.append(carry)
    return merged


def paper_metadata(paper: Paper, content_hash: str) -> dict[str, str | int | float]:
    """Flat metadata (Chroma rejects lists and None) describing a paper."""
    return {
        "paper_id": paper.paper_id,
        "name": paper.name,
        "title": paper.title,
        "source": paper.source,
        "ordinal": paper.ordinal,
        "year": paper.year if paper.year is not None else -1,
        "venue": paper.venue or "",
        "authors": "; ".join(paper.authors),
        "url": paper.url or "",
        "content_hash": content_hash,
    }


def chunk_id(paper_id: str, sentence: int) -> str:
    """The id of a paper's sentence chunk (PaperStore.sentences looks chunks up by it)."""
    return f"{paper_id}:{sentence}"


def chunk_paper(paper: Paper, content_hash: str) -> list[TextNode]:
    """One node per sentence of the paper's clean text, ids ``paper_id:i``."""
    meta = {k: v for k, v in paper_metadata(paper, content_hash).items() if k not in REGISTRY_ONLY_KEYS}
    nodes = []
    for i, sentence in enumerate(split_sentences(paper.text)):
        node = TextNode(
            id_=chunk_id(paper.paper_id, i),
            text=sentence,
            metadata={**meta, "sentence": i},
            excluded_embed_metadata_keys=[k for k in meta if k not in EMBED_METADATA_KEYS] + ["sentence"],
            excluded_llm_metadata_keys=list(meta) + ["sentence"],
            metadata_template="{value}",
            text_template="{metadata_str}\n{content}",
        )
        node.relationships[NodeRelationship.SOURCE] = RelatedNodeInfo(node_id=paper.paper_id)
        nodes.append(node)
    return nodes


def expand_acronyms(sentence: str, acronyms: dict[str, str]) -> str:
    """The sentence with each acronym its abstract defined spelled out where used: "learning in PC is more efficient"
    -> "learning in Predictive Coding (PC) is more efficient". A lone sentence then embeds with its meaning."""
    for acronym, long_form in acronyms.items():
        if long_form.lower() in sentence.lower():
            continue  # the definition itself, or already spelled out
        sentence = re.sub(rf"(?<![\w-]){re.escape(acronym)}s?(?![\w-])", lambda m: f"{long_form} ({m.group(0)})", sentence)
    return sentence


def embedding_texts(paper: Paper, nodes: list[TextNode]) -> list[str]:
    """What is embedded for each of a paper's sentence nodes: its name and the sentence, acronyms spelled out. The
    stored text stays the abstract's own sentence (quotes and highlights match the abstract)."""
    acronyms = defined_acronyms(paper.text)
    return [n.model_copy(update={"text": expand_acronyms(n.text, acronyms)}).get_content(MetadataMode.EMBED)
            for n in nodes]
