"""Questions in other languages: offline, never read as a follow-up, answered for the papers they name, with one
sentence in the asker's language saying that offline answers need English; with an LLM, searched in English and
answered in the asker's language with the citations checked on the English answer."""

from __future__ import annotations

import json
import re

import pytest

from rag.language import offline_notice, question_language
from tests.conftest import REPO
from tests.openai_server import Reply

CHINESE_LIST = "哪些论文是关于视频理解的？"  # which papers are about video understanding?
FRENCH_LIST = "Quels articles parlent de la compréhension vidéo ?"


def test_every_english_benchmark_question_is_read_as_english():
    questions = [json.loads(line)["question"] for line in (REPO / "bench" / "questions.jsonl").open()]
    questions += [json.loads(line)["text"] for line in (REPO / "bench" / "collection_messages.jsonl").open()]
    assert [q for q in questions if question_language(q) != "en"] == []
    assert [question_language(q) for q in (CHINESE_LIST, FRENCH_LIST, "Welche Arbeiten behandeln Videos?",
                                           "PatchKV の貢献は何ですか？")] == ["zh", "fr", "de", "ja"]


@pytest.mark.parametrize("question,language", [(CHINESE_LIST, "zh"), (FRENCH_LIST, "fr")])
def test_offline_a_foreign_question_says_english_is_needed_fresh_and_after_a_paper_turn(seed_chat, question, language):
    earlier = seed_chat.ask("What is PatchKV?")
    for history in ((), [("What is PatchKV?", earlier.text)]):
        answer = seed_chat.ask(question, history=history)
        assert answer.text == offline_notice(language) and answer.kind == "language"
        assert "--llm openai-compatible" in answer.text and not answer.refused
        assert "PatchKV" not in answer.text  # not taken for a follow-up about the paper discussed


def test_offline_a_foreign_question_naming_a_paper_is_answered_about_it(seed_chat):
    answer = seed_chat.ask("PatchKV 是什么？")
    assert answer.text.startswith(offline_notice("zh"))
    assert [c.paper.name for c in answer.citations] == ["PatchKV"]
    assert answer.citations[0].quote in answer.citations[0].paper.text


def scripted(body: dict) -> str:
    """A model that translates the one question it knows, lists the first two sources it is sent, and translates
    an answer into Chinese by keeping its citations (a stand-in for a real translation)."""
    prompt = body["messages"][-1]["content"]
    if prompt.startswith("Translate the question"):
        return "Which papers are about video understanding?"
    if prompt.startswith("Translate the answer"):
        english = prompt.split("Answer:\n", 1)[1].rsplit("\n\nTranslation:", 1)[0]
        return "关于视频理解的论文：" + " ".join(re.findall(r"\[\d+\]", english))
    names = re.findall(r"^\[(\d+)\] (.+?)(?: \(|$)", prompt, re.M)
    lines = []
    for n, name in names[:2]:
        abstract = re.search(rf"^\[{n}\] .*?^Abstract: (.+?)$", prompt, re.M | re.S).group(1)
        first = re.split(r"(?<=[.])\s+", abstract)[0]
        lines.append(f"- {name}: {first} [{n}]")
    return "Two fit.\n" + "\n".join(lines)


def test_with_an_llm_a_chinese_question_is_searched_in_english_and_answered_in_chinese(llm_chat, server):
    server.script([Reply(text_fn=scripted)])
    answer = llm_chat.ask(CHINESE_LIST)
    prompts = [r["messages"][-1]["content"] for r in server.completion_requests]
    assert prompts[0].startswith("Translate the question") and CHINESE_LIST in prompts[0]
    assert "Which papers are about video understanding?" in prompts[1]  # the list is searched in English
    sources = re.findall(r"^\[\d+\] (.+?)(?: \(|$)", prompts[1], re.M)
    assert {"ViDiC-1K", "VI-Bench"} <= set(sources[:8])
    assert prompts[2].startswith("Translate the answer below into Chinese")
    assert answer.text.startswith("关于视频理解的论文") and answer.backend == "openai-compatible"
    assert [f"[{c.n}]" for c in answer.citations] == re.findall(r"\[\d+\]", answer.text)
    assert all(c.quote in c.paper.text for c in answer.citations)  # checked on the English answer
    assert answer.rewritten == "Which papers are about video understanding?"


def test_a_translation_that_drops_citations_leaves_the_checked_english_answer(llm_chat, server):
    def drops_markers(body: dict) -> str:
        prompt = body["messages"][-1]["content"]
        return "没有引用的翻译" if prompt.startswith("Translate the answer") else scripted(body)

    server.script([Reply(text_fn=drops_markers)])
    answer = llm_chat.ask(CHINESE_LIST)
    assert answer.text.startswith("Two fit.") and "did not keep the citations" in answer.notice
