"""Whether a paper's abstract states what a question asks of it: a cross-encoder reading question and abstract together.

The model is all-MiniLM-L6-v2 (the weights the embedder uses) fine-tuned as a cross-encoder on questions written blind
over arXiv papers of 34 of the 46 seen sets (never the held-out ones): each asked of the paper it is about, labelled
answerable by the abstract or not stated in it (``bench/stated_model.py`` trains and exports it; docs/answering.md
has its scores). It ships in this package as an int8 ONNX file, so it needs no download.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from rag.details import asking_sentences
from rag.terms import question_terms
from rag.types import DetailAsk
from store.embed import TOKENIZER_PATH
from store.paper import Paper

MODEL_PATH = Path(__file__).parent / "models" / "stated-minilm-int8.onnx"
# The question, then the title and abstract, as in training (all-MiniLM-L6-v2's tokenizer, the embedder's); a long
# abstract is cut at its end.
MAX_TOKENS = 320
# Below this logit (even odds) the abstract is taken not to state what is asked. Chosen on the logits this model gives
# the questions of the 12 seen sets it was not trained on (docs/answering.md).
NOT_STATED_BELOW = 0.0


class StatedReader:
    """Scores how plainly a paper's abstract answers a question: a logit, positive when it answers it."""

    def __init__(self, model_path: Path = MODEL_PATH, tokenizer_path: Path = TOKENIZER_PATH):
        import onnxruntime as ort
        from tokenizers import Tokenizer

        options = ort.SessionOptions()
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._session = ort.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])
        self._tokenizer = Tokenizer.from_file(str(tokenizer_path))
        self._tokenizer.enable_truncation(MAX_TOKENS, strategy="only_second")
        self._tokenizer.no_padding()

    def score(self, question: str, paper: Paper) -> float:
        """The logit that the abstract of ``paper`` states what ``question`` asks."""
        encoding = self._tokenizer.encode(question, f"{paper.title}. {paper.text}")
        inputs = {name: np.asarray([values], dtype=np.int64) for name, values in (
            ("input_ids", encoding.ids), ("attention_mask", encoding.attention_mask),
            ("token_type_ids", encoding.type_ids))}
        (logit,) = self._session.run(["logit"], inputs)
        return float(logit[0])


@lru_cache(maxsize=1)
def stated_reader() -> StatedReader:
    """The bundled reader, loaded once per process, at the first offline lookup (0.7 s here)."""
    return StatedReader()


def asked_detail(question: str) -> DetailAsk:
    """What the question asks, as a detail to declare not stated when no phrase of it was read as one: its asking
    sentences, quoted ("the answer to “what packet loss rate did the 5G experiments see?”")."""
    ask = asking_sentences(question).strip()
    return DetailAsk(f"answer to “{ask}”", tuple(question_terms(ask)), False, False)
