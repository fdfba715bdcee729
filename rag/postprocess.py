"""The offline relevance judge as a LlamaIndex node postprocessor, for pipelines built from PaperChat's parts:

    engine = RetrieverQueryEngine.from_args(chat.as_retriever(), llm=my_llm,
                                            node_postprocessors=[chat.as_postprocessor()])
"""

from __future__ import annotations

from typing import Any

from llama_index.core.postprocessor.types import BaseNodePostprocessor
from llama_index.core.schema import NodeWithScore, QueryBundle

from rag.find import Candidates
from rag.intent import classify
from rag.judge import PaperJudge
from rag.retrieve import PaperHit


class JudgePostprocessor(BaseNodePostprocessor):
    """Keeps the paper nodes that answer the query, best first (``PaperJudge.choose``: rescoring, then the gates
    enabled in ``settings.retrieval.gates``). Each kept node's metadata gets ``judge_score``; when none answers,
    nothing is returned and ``last_reason`` says why in one sentence."""

    chat: Any
    last_reason: str = ""

    @classmethod
    def class_name(cls) -> str:
        return "PaperChatJudge"

    def _postprocess_nodes(self, nodes: list[NodeWithScore], query_bundle: QueryBundle | None = None
                           ) -> list[NodeWithScore]:
        if query_bundle is None or not nodes:
            return nodes
        question = query_bundle.query_str
        by_id = {n.node.metadata["paper_id"]: n for n in nodes if n.node.metadata.get("paper_id") in self.chat.catalog.papers}
        hits = [PaperHit(self.chat.catalog.papers[pid], relevance=float(n.node.metadata.get("relevance") or 0.0))
                for pid, n in by_id.items()]
        judge = PaperJudge(self.chat)
        with self.chat.field_tables():
            found = Candidates(hits, self.chat.glossary.for_search(question))
            verdict = judge.choose(question, classify(question, self.chat.catalog), found)
        self.last_reason = verdict.gap
        kept = []
        for hit in verdict.chosen:
            node = by_id[hit.paper.paper_id]
            node.node.metadata["judge_score"] = hit.relevance
            node.node.metadata["judge_hedged"] = verdict.hedged  # the closest paper, not a match
            kept.append(node)
        return kept
