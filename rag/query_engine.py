"""PaperChat as a LlamaIndex query engine, for pipelines that compose engines."""

from __future__ import annotations

from typing import Any

from llama_index.core.base.response.schema import Response
from llama_index.core.query_engine import CustomQueryEngine
from llama_index.core.schema import NodeWithScore

from rag.retrieve import paper_node


class PaperChatQueryEngine(CustomQueryEngine):
    """``query(q)`` returns the cited answer; ``source_nodes`` are the retrieved papers (cited ones marked)."""

    chat: Any
    k: int = 10

    def custom_query(self, query_str: str) -> Response:
        answer = self.chat.ask(query_str, k=self.k)
        cited = {c.paper.paper_id: c.n for c in answer.citations}
        nodes = []
        for paper in answer.papers:
            node = paper_node(paper)
            if paper.paper_id in cited:
                node.metadata["citation"] = cited[paper.paper_id]
            nodes.append(NodeWithScore(node=node, score=paper.score))
        return Response(
            response=answer.text, source_nodes=nodes,
            metadata={"refused": answer.refused, "backend": answer.backend, "notice": answer.notice},
        )
