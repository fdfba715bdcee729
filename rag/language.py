"""The language a question is asked in (py3langid's bundled model), what an offline answer tells a non-English
asker, and the English search question an LLM makes of it."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path

from store.errors import LLMUnavailable

OFFLINE_NOTICES = Path(__file__).with_name("offline_english.tsv")
# Languages told apart: the widely used ones (a wider set mistakes short English questions, "hi", for Afrikaans).
LANGUAGES = ("en", "zh", "ja", "ko", "fr", "es", "de", "it", "pt", "ru", "nl", "pl", "tr", "uk", "sv", "ar", "fa",
             "hi", "vi", "id")
# A question is taken for non-English from this probability on: none of the 1,261 questions of
# bench/questions.jsonl or the 200 of bench/collection_messages.jsonl (all English) reaches it (the highest, "ablation
# contributions?" as French, is 0.53), while "Что такое PatchKV?" scores 0.82 and longer questions 0.93 to 1.0.
MIN_PROBABILITY = 0.8
NAMES = {"en": "English", "zh": "Chinese", "ja": "Japanese", "ko": "Korean", "fr": "French", "es": "Spanish",
         "de": "German", "it": "Italian", "pt": "Portuguese", "ru": "Russian", "nl": "Dutch", "pl": "Polish",
         "tr": "Turkish", "uk": "Ukrainian", "sv": "Swedish", "ar": "Arabic", "fa": "Persian", "hi": "Hindi",
         "vi": "Vietnamese", "id": "Indonesian"}
LLM_HOW = "--llm openai-compatible --base-url URL --model NAME"


@cache
def _identifier():
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    identifier.set_languages(list(LANGUAGES))
    return identifier


def question_language(question: str) -> str:
    """The ISO 639-1 code of the question's language; "en" unless another is clearly more likely."""
    if not question.strip():
        return "en"
    language, probability = _identifier().classify(question)
    return language if language != "en" and probability >= MIN_PROBABILITY else "en"


@cache
def _notices() -> dict[str, str]:
    rows = (line.split("\t", 1) for line in OFFLINE_NOTICES.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#"))
    return {code: text.strip().replace("{llm}", f"`{LLM_HOW}`") for code, text in rows}


def offline_notice(language: str) -> str:
    """One sentence, in the asker's language where we have it, saying that offline answers need English."""
    return _notices().get(language, _notices()["en"])


def english_question(llm, settings, question: str) -> str:
    """The question in English, written by the LLM with prompts/translate.txt (raises LLMUnavailable)."""
    from prompts import load_prompt
    from rag.generate import one_line_reply

    return one_line_reply(llm, load_prompt("translate", settings.llm.prompts_dir).format(question=question),
                          "translation")


def translated_answer(llm, settings, text: str, language: str) -> str:
    """The answer text in ``language``, written by the LLM with prompts/translate_answer.txt; raises LLMUnavailable
    unless every [n] citation of the English text is kept, so the citations checked on it still hold."""
    from prompts import load_prompt
    from rag.cite import MARKER
    from rag.generate import llm_reply

    prompt = load_prompt("translate_answer", settings.llm.prompts_dir).format(language=language, answer=text)
    reply = llm_reply(llm, prompt)
    if not reply or sorted(MARKER.findall(reply)) != sorted(MARKER.findall(text)):
        raise LLMUnavailable("the LLM's translation did not keep the citations")
    return reply


def stream_other_language(chat, question: str, language: str, history, k, filters) -> Iterator:
    """``chat.stream`` (a PaperChat's) for a question in another language. With an LLM: asked in English, answered
    and checked in English, then translated to the asker's language keeping every checked [n]. Offline: answered
    only for the papers it names (never as a follow-up), with a sentence saying that offline answers need English."""
    from rag.engine import PaperChatEngine
    from rag.types import Answer

    notice = ""
    if chat.has_llm:
        try:
            english = english_question(chat.llm, chat.settings, question)
        except LLMUnavailable as exc:
            notice = f"Offline answer shown: {exc}."
        else:
            answer = None
            for answer in chat.stream_english(english, history, k, filters):
                pass
            answer.rewritten = english
            try:
                answer.text = translated_answer(chat.llm, chat.settings, answer.text, NAMES[language])
            except LLMUnavailable as exc:
                answer.notice = answer.notice or f"Answer shown in English: {exc}."
            yield answer.text
            yield answer
            return
    answer = None
    if chat.catalog.named_in(question):  # "PatchKV 是什么？": the paper it names is answered about
        for answer in PaperChatEngine.from_settings(chat).stream(question, (), k, filters):
            pass
    if isinstance(answer, Answer) and not answer.refused:
        answer.lead_with(offline_notice(language))
    else:
        answer = Answer(text=offline_notice(language), kind="language")
    answer.notice = answer.notice or notice
    yield answer.text
    yield answer
