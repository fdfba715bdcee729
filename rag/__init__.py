"""Retrieval and answering over the paper store: ``from rag import PaperChat``."""

from rag.chat import PaperChat
from rag.retrieve import PaperFilters
from rag.types import Answer, Citation
from store.paper import Paper

__all__ = ["PaperChat", "PaperFilters", "Answer", "Citation", "Paper"]
