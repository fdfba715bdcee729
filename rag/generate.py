"""LLM answers over an OpenAI or OpenAI-compatible API: numbered sources in, streamed cited text out."""

from __future__ import annotations

import logging
from collections.abc import Generator, Iterator, Sequence

from llama_index.core.llms import LLM, ChatMessage

from prompts import load_prompt
from rag.settings import Settings
from store.errors import LLMUnavailable
from store.paper import Paper

log = logging.getLogger(__name__)
# Rough characters per token, to trim sources to the model's window without a tokenizer round-trip.
CHARS_PER_TOKEN = 4


def build_llm(settings: Settings) -> LLM | None:
    """The LLM the settings name, or None for the extractive backend. Only the configured host is called."""
    cfg = settings.llm
    if cfg.backend == "extractive":
        return None
    common = dict(
        model=cfg.model, temperature=cfg.temperature, max_tokens=cfg.max_tokens, timeout=cfg.timeout,
        max_retries=cfg.max_retries,
    )
    if cfg.backend == "openai":
        from llama_index.llms.openai import OpenAI

        key = settings.openai_api_key()
        if not key:
            raise LLMUnavailable("The openai backend needs OPENAI_API_KEY (or PAPERCHAT_LLM__API_KEY).")
        return OpenAI(api_key=key, api_base=settings.openai_base_url() or "https://api.openai.com/v1", **common)
    from llama_index.llms.openai_like import OpenAILike

    base_url = cfg.base_url
    if not base_url:
        raise LLMUnavailable("The openai-compatible backend needs a base URL (PAPERCHAT_LLM__BASE_URL).")
    return OpenAILike(
        api_base=base_url, api_key=cfg.api_key or "not-needed", is_chat_model=True,
        context_window=cfg.context_window, **common,
    )


def format_sources(papers: Sequence[Paper], budget_chars: int) -> tuple[str, list[Paper]]:
    """Numbered source blocks, best first, as many as fit in ``budget_chars``."""
    blocks, kept = [], []
    used = 0
    for paper in papers:
        where = ", ".join(str(x) for x in (paper.venue, paper.year) if x)
        block = f"[{len(kept) + 1}] {paper.name}" + (f" ({where})" if where else "")
        if paper.title and paper.title != paper.name:
            block += f"\nTitle: {paper.title}"
        block += f"\nAbstract: {paper.text}"
        if kept and used + len(block) > budget_chars:
            break
        blocks.append(block[:budget_chars])
        kept.append(paper)
        used += len(block)
    return "\n\n".join(blocks), kept


def stream_llm_answer(
    llm: LLM, settings: Settings, question: str, papers: Sequence[Paper], prompt_name: str = "answer",
) -> tuple[list[Paper], Iterator[str]]:
    """The sources actually sent, and a stream of answer text deltas. Raises LLMUnavailable on failure."""
    template = load_prompt(prompt_name, settings.llm.prompts_dir)
    budget = (settings.llm.context_window - settings.llm.max_tokens) * CHARS_PER_TOKEN
    budget -= len(template.template) + len(question)
    sources_text, sources = format_sources(papers, max(budget, 2000))
    prompt = template.format(sources=sources_text, question=question)

    def deltas() -> Iterator[str]:
        try:
            for chunk in llm.stream_chat([ChatMessage(role="user", content=prompt)]):
                if chunk.delta:
                    yield chunk.delta
        except Exception as exc:  # any transport/API error: the caller falls back
            raise LLMUnavailable(describe_llm_error(exc)) from exc

    return sources, deltas()


def relay(deltas: Iterator[str]) -> Generator[str, None, str]:
    """Yield each answer delta on, and return the whole answer text, stripped."""
    pieces = []
    for delta in deltas:
        pieces.append(delta)
        yield delta
    return "".join(pieces).strip()


def describe_llm_error(exc: BaseException) -> str:
    """One readable line for an LLM failure (shown in the fallback notice)."""
    import openai

    if isinstance(exc, openai.APITimeoutError):
        return "the LLM service timed out"
    if isinstance(exc, openai.RateLimitError):
        return "the LLM service is rate-limiting requests (429)"
    if isinstance(exc, openai.APIConnectionError):
        return "the LLM service could not be reached"
    if isinstance(exc, openai.APIStatusError):
        return f"the LLM service returned HTTP {exc.status_code}"
    return f"the LLM service failed ({type(exc).__name__}: {str(exc)[:120]})"


def llm_reply(llm: LLM, prompt: str) -> str:
    """The LLM's whole reply to ``prompt``, stripped; raises LLMUnavailable on any failure."""
    try:
        return (llm.chat([ChatMessage(role="user", content=prompt)]).message.content or "").strip()
    except Exception as exc:  # any transport/API error: the caller keeps its offline answer
        raise LLMUnavailable(describe_llm_error(exc)) from exc


def one_line_reply(llm: LLM, prompt: str, what: str) -> str:
    """The first line of the LLM's reply to ``prompt`` (a rewrite, a translation); raises LLMUnavailable on any
    failure or an empty reply (``what`` names it in the message)."""
    reply = llm_reply(llm, prompt).strip('"')
    if not reply:
        raise LLMUnavailable(f"the LLM returned an empty {what}")
    return reply.splitlines()[0].strip()


def writes_verdict(text: str, phrase: str) -> bool:
    """Whether an LLM answer writes one of the prompts' verdict phrases (``CANNOT_ANSWER_PHRASE`` ...), in any case."""
    return phrase.lower().rstrip(".:") in text.lower()
