"""With an LLM configured, the LLM judges the candidates: no offline check refuses, lists or declares a detail
unstated before the LLM has seen the papers. Against a real OpenAI-compatible server on loopback."""

from __future__ import annotations

import re

from prompts import CANNOT_ANSWER_PHRASE
from tests.openai_server import Reply
from ui.render import sources_html

OFF_CORPUS = "How do I bake sourdough bread with a stiff starter?"


def sources_sent(body: dict) -> list[str]:
    """The names of the numbered sources in a request's prompt, in order."""
    return re.findall(r"^\[\d+\] (.+?)(?: \(|$)", body["messages"][-1]["content"], re.M)


def quote_source(n: int):
    """A scripted model answering only from what it is sent: source [n]'s first sentence, cited."""
    def reply(body: dict) -> str:
        prompt = body["messages"][-1]["content"]
        abstract = re.search(rf"^\[{n}\] .*?^Abstract: (.+?)$", prompt, re.M | re.S).group(1)
        return re.split(r"(?<=\.)\s+", abstract)[0] + f" [{n}]"
    return reply


def following_the_rule(rule: str, says: str):
    """A scripted model that obeys the prompt's rule containing ``rule``: it opens with the words that rule asks for,
    then ``says`` and source [1]'s first sentence, cited."""
    def reply(body: dict) -> str:
        prompt = body["messages"][-1]["content"]
        opening = re.search(rf"^- [^\n]*{rule}[^\n]*begin your answer with \"([^\"]+)\"", prompt, re.M).group(1)
        return f"{opening} {says}{quote_source(1)(body)}"
    return reply


def test_a_question_the_offline_checks_refuse_reaches_the_llm_with_candidates(llm_chat, server, seed_chat):
    assert seed_chat.ask(OFF_CORPUS).refused  # offline: refused before any answer is written
    server.script([Reply(text=CANNOT_ANSWER_PHRASE)])
    answer = llm_chat.ask(OFF_CORPUS)
    assert len(server.completion_requests) == 1 and len(sources_sent(server.completion_requests[0])) >= 5
    assert answer.refused and answer.backend == "openai-compatible"  # the LLM's verdict, not the rules'

    server.script([Reply(text_fn=quote_source(1))])
    answer = llm_chat.ask(OFF_CORPUS)  # a model that thinks source [1] answers is believed, its quote checked
    assert not answer.refused and answer.citations and answer.citations[0].quote in answer.citations[0].paper.text


def test_a_which_papers_list_is_written_by_the_llm_from_the_candidates(llm_chat, server):
    def list_two(body: dict) -> str:
        names = sources_sent(body)
        return f"Two fit.\n- {names[0]}: {quote_source(1)(body)}\n- {names[1]}: {quote_source(2)(body)}"

    server.script([Reply(text_fn=list_two)])
    answer = llm_chat.ask("Which papers propose benchmarks for video understanding?")
    (request,) = server.completion_requests
    prompt = request["messages"][-1]["content"]
    assert "which of the loaded scientific papers fit" in prompt  # prompts/list.txt
    names = sources_sent(request)
    assert {"ViDiC-1K", "VI-Bench"} <= set(names[:8])
    assert answer.kind == "which" and answer.backend == "openai-compatible"
    assert [c.paper.name for c in answer.citations] == names[:2]


def test_a_detail_the_abstract_lacks_is_left_to_the_llm_with_the_offline_answer_as_fallback(llm_chat, server,
                                                                                           seed_chat):
    question = "How many GPUs did PickMoment use?"
    offline = seed_chat.ask(question)
    assert offline.kind == "not_stated"
    server.script([Reply(text_fn=lambda body: f"{quote_source(1)(body)} Its abstract does not state the number "
                                              "of GPUs [1].")])
    answer = llm_chat.ask(question)
    assert sources_sent(server.completion_requests[0])[0] == "PickMoment"
    assert answer.backend == "openai-compatible" and "does not state" in answer.text
    assert answer.kind == "lookup"  # said in passing, not in the prompt's words: no verdict is read into it

    server.script([Reply(text_fn=following_the_rule("does not state a detail", "the number of GPUs. "))])
    answer = llm_chat.ask(question)
    assert answer.backend == "openai-compatible" and not answer.notice  # the LLM's verdict, not the fallback's
    assert answer.kind == "not_stated" and answer.to_dict()["kind"] == "not_stated" and not answer.hedged
    assert answer.citations[0].paper.name == "PickMoment"

    server.script([Reply(status=503)])
    fallback = llm_chat.ask(question)
    assert fallback.text == offline.text and "HTTP 503" in fallback.notice


def test_a_near_miss_the_llm_answers_with_the_closest_paper_is_marked_hedged(llm_chat, server):
    question = "Which benchmark tests whether video models understand the pharmacokinetics of insulin in rats?"
    server.script([Reply(text_fn=following_the_rule("another drug", "source [1], which is not about insulin. "))])
    answer = llm_chat.ask(question)
    assert answer.hedged and answer.to_dict()["hedged"] and not answer.refused and answer.citations
    assert "Closest match only" in sources_html(answer)  # the sources panel says what the answer is

    server.script([Reply(text_fn=quote_source(1))])
    assert not llm_chat.ask(question).hedged  # an answer that claims a match is not turned into a hedge
