"""The web app in headless Debian Chromium (Playwright): chat, sources, comparison, browser, map, upload, XSS.

One server and one browser page serve the whole module (starting them is the slow part); each test
opens the tab it needs. Screenshots go to the test's tmp dir; the chat one also to docs/screenshot.png
when UPDATE_SCREENSHOT=1.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from tests.conftest import CHROMIUM, REPO
from tests.ui_server import KELP_RECORD

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium: run .ci/browser-deps.sh "
                                                     "(apt-get install chromium chromium-driver)"),
]

XSS_RECORD = {
    "title": "ZebraNet: detecting zebra crossings from dashcam video",
    "abstract": "We present ZebraNet, a detector of zebra crossings in dashcam video. "
                "<script>window.__pwned=1</script> It runs in real time on embedded hardware and "
                "<img src=x onerror=\"window.__pwned=1\"> improves recall by 12 points over prior detectors.",
    "year": 2025, "venue": "ICRA",
}


@pytest.fixture(scope="module")
def fake_llm():
    from tests.openai_server import FakeOpenAI

    with FakeOpenAI() as server:
        yield server


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("screenshots")


def open_tab(page, name: str) -> None:
    page.get_by_role("tab", name=name).click()


def ask(page, question: str) -> None:
    open_tab(page, "Chat")
    page.fill("#pc-question textarea", question)
    page.click("#pc-send")


def bot_messages(page):
    return page.locator('#pc-chatbot [data-testid="bot"]')


def wait_for_answer(page, count: int) -> str:
    """Wait until the chat holds ``count`` finished answers; returns the last one's text."""
    from playwright.sync_api import expect

    expect(bot_messages(page)).to_have_count(count)
    expect(bot_messages(page).last).not_to_contain_text("▍")
    return bot_messages(page).last.inner_text()


def test_chat_answer_cites_and_opens_the_source(page, shots):
    from playwright.sync_api import expect

    expect(page.locator("#pc-corpus-count")).to_contain_text("38 papers")
    # the first-load examples: a lookup, a comparison, a "which papers"
    examples = page.locator("#pc-chatbot").get_by_text(re.compile("^(What does|How do|Which papers)"))
    expect(examples).to_have_count(3)
    page.screenshot(path=shots / "chat-empty.png")

    ask(page, "What does PipeFSDP improve over TorchTitan?")
    answer = wait_for_answer(page, 1)
    assert "[1]" in answer and "PipeFSDP" in answer

    # the citation chip opens the cited paper's card; its supporting sentence is highlighted
    page.locator('#pc-chatbot a[href="#source-1"]').first.click()
    card = page.locator("#source-1")
    expect(card).to_be_in_viewport()
    expect(card.locator(".pc-name")).to_have_text("PipeFSDP")
    expect(card).to_contain_text("NeurIPS · 2026")
    expect(card).to_contain_text("relevance")
    mark = card.locator("mark").first
    expect(mark).to_be_visible()
    assert mark.inner_text().strip() in card.locator(".pc-abstract").inner_text()
    # retrieved but uncited papers are listed below, collapsed, only from the relevance floor on: here none is
    expect(page.locator("#pc-sources details.pc-more")).to_have_count(0)
    page.screenshot(path=shots / "chat.png")
    if os.environ.get("UPDATE_SCREENSHOT"):  # refresh the README's picture on demand only
        (REPO / "docs").mkdir(exist_ok=True)
        shutil.copyfile(shots / "chat.png", REPO / "docs" / "screenshot.png")


def test_follow_up_and_clear(page):
    from playwright.sync_api import expect

    page.locator("#pc-chatbot").get_by_role("button", name="Clear").click()
    expect(bot_messages(page)).to_have_count(0)
    ask(page, "What does PipeFSDP improve over TorchTitan?")
    wait_for_answer(page, 1)
    ask(page, "How does it choose the FSDP and PP degrees?")
    follow_up = wait_for_answer(page, 2)
    assert "[1]" in follow_up and "PipeFSDP" in follow_up
    expect(page.locator('#pc-chatbot [data-testid="user"]')).to_have_count(2)

    page.locator("#pc-chatbot").get_by_role("button", name="Clear").click()
    expect(bot_messages(page)).to_have_count(0)
    expect(page.locator("#pc-sources")).to_contain_text("Ask a question")


def test_long_question_is_refused_with_a_message(page):
    ask(page, "Why? " * 500)
    text = wait_for_answer(page, 1)
    assert "limited to 2,000" in text
    page.locator("#pc-chatbot").get_by_role("button", name="Clear").click()


def test_llm_backend_streams_and_falls_back_readably(page, fake_llm, shots):
    from playwright.sync_api import expect

    from tests.openai_server import Reply

    open_tab(page, "Corpus & settings")
    page.get_by_label("OpenAI-compatible server (URL + model)").check()
    page.get_by_role("textbox", name="Base URL").fill(fake_llm.base_url)
    page.get_by_role("textbox", name="Model").fill("fake-model")
    expect(page.locator("#pc-settings-status")).to_contain_text(fake_llm.base_url)

    fake_llm.script([Reply(text="PipeFSDP alleviates pipeline bubbles and resource contention, outperforming "
                                "TorchTitan by up to 1.28x in MFU [1].", chunk_delay=0.1)])
    ask(page, "What does PipeFSDP improve over TorchTitan?")
    expect(bot_messages(page).last).to_contain_text(re.compile(r"PipeFSDP alleviates.*▍"))  # words so far + cursor
    answer = wait_for_answer(page, 1)
    assert "alleviates pipeline bubbles" in answer and "[1]" in answer and "Offline" not in answer
    assert fake_llm.requests[-1]["model"] == "fake-model"

    # retry replaces the last answer with a fresh one
    fake_llm.script([Reply(text="PipeFSDP cuts the peak memory footprint of TorchTitan-style training [1].")])
    page.locator("#pc-chatbot").get_by_role("button", name="Retry").last.click()
    expect(bot_messages(page).last).to_contain_text("cuts the peak memory")
    assert wait_for_answer(page, 1).count("PipeFSDP") >= 1
    expect(page.locator('#pc-chatbot [data-testid="user"]')).to_have_count(1)

    fake_llm.script([Reply(status=401)])  # a bad key: the offline answer, with a readable notice
    ask(page, "What does PipeFSDP improve over TorchTitan?")
    answer = wait_for_answer(page, 2)
    assert "Offline answer shown" in answer and "[1]" in answer
    assert "Traceback" not in page.content()
    page.screenshot(path=shots / "llm-fallback.png")

    open_tab(page, "Corpus & settings")
    page.get_by_label("Extractive (offline, quotes the abstracts)").check()
    expect(page.locator("#pc-settings-status")).to_contain_text("Extractive")
    open_tab(page, "Chat")
    page.locator("#pc-chatbot").get_by_role("button", name="Clear").click()


def test_comparison_from_the_picker(page, shots):
    from playwright.sync_api import expect

    open_tab(page, "Compare")
    picker = page.locator("#pc-picker input")
    for name in ("PhysVista", "PhyProbe"):
        picker.click()
        picker.fill(name)
        page.get_by_role("option", name=name, exact=True).click()
    page.click("#pc-compare")
    result = page.locator("#pc-comparison")
    expect(result.locator('a[href="#cmp-source-1"]').first).to_be_visible()
    expect(result).to_contain_text("PhysVista")
    expect(result).to_contain_text("PhyProbe")
    expect(page.locator("#pc-compare-sources .pc-source")).to_have_count(2)
    page.screenshot(path=shots / "compare.png")


def test_paper_browser_filters_and_asks(page, shots):
    from playwright.sync_api import expect

    open_tab(page, "Papers")
    table = page.locator("#pc-table")
    expect(table).to_contain_text("PipeFSDP")
    page.fill("#pc-search textarea", "PhysVista")
    expect(table).not_to_contain_text("PipeFSDP")
    table.get_by_test_id("cell-0-0").click()
    expect(page.locator("#pc-detail")).to_contain_text("physical plausibility assessment")
    page.screenshot(path=shots / "papers.png")
    page.click("#pc-ask-about")
    expect(page.locator("#pc-question textarea")).to_have_value(re.compile("PhysVista"))
    expect(page.locator("#pc-chatbot")).to_be_visible()
    page.fill("#pc-question textarea", "")


def test_corpus_map_lights_up_retrieved_papers(page, shots):
    from playwright.sync_api import expect

    ask(page, "Which papers propose benchmarks for physical reasoning in VLMs?")
    wait_for_answer(page, 1)
    head = page.locator("#pc-sources .pc-sources-head").inner_text()
    retrieved = int(re.search(r"(\d+) retrieved", head).group(1))
    open_tab(page, "Map")
    points = page.locator('#pc-map [aria-roledescription="point"]')
    expect(points).to_have_count(38)
    cited = int(re.search(r"(\d+) cited", head).group(1))
    lit = page.locator('#pc-map [aria-roledescription="point"][aria-label*="retrieved for your last question"]')
    expect(lit).to_have_count(retrieved - cited)  # the cited ones are styled apart
    assert lit.first.get_attribute("stroke") == "#e8590c"  # coloured on this first visit, not only on a second
    expect(page.locator('#pc-map [aria-roledescription="point"][aria-label*="cited in your last answer"]')
           ).to_have_count(cited)
    lit.first.hover(force=True)
    tooltip = page.locator("#vg-tooltip-element")
    expect(tooltip).to_be_visible()
    name = re.search(r"name: ([^;]+)", lit.first.get_attribute("aria-label")).group(1)
    expect(tooltip).to_contain_text(name)
    page.screenshot(path=shots / "map.png")
    open_tab(page, "Chat")
    page.locator("#pc-chatbot").get_by_role("button", name="Clear").click()


def test_upload_grows_the_corpus_and_reports_bad_lines(page, tmp_path, shots):
    from playwright.sync_api import expect

    upload = tmp_path / "new papers.jsonl"
    upload.write_text("\n".join([json.dumps(XSS_RECORD), json.dumps(KELP_RECORD),
                                 json.dumps({"title": "no abstract", "abstract": ""}), "not json"]) + "\n")
    open_tab(page, "Corpus & settings")
    page.locator("#pc-upload input[type=file]").set_input_files(str(upload))
    report = page.locator("#pc-ingest-report .pc-report")
    expect(report).to_contain_text("2 added")
    rows = report.locator(".pc-rejected tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("3")
    expect(rows.nth(0)).to_contain_text("missing or empty 'abstract'")
    expect(rows.nth(1)).to_contain_text("invalid JSON")
    expect(page.locator("#pc-corpus-count")).to_contain_text("40 papers")
    page.screenshot(path=shots / "corpus.png")

    # a venue filter applies to retrieval
    page.get_by_label("Venues (none = all)").click()
    page.get_by_role("option", name="ICRA", exact=True).click()
    expect(page.locator("#pc-chat-status")).to_contain_text("venues ICRA")
    ask(page, "Which papers detect objects in video?")
    wait_for_answer(page, 1)
    expect(page.locator("#pc-sources .pc-sources-head")).to_contain_text("1 retrieved")
    page.reload()  # a new session: the filter was this session's only
    expect(page.locator("#pc-chat-status")).not_to_contain_text("venues")
    expect(page.locator("#pc-corpus-count")).to_contain_text("40 papers")


def test_html_in_abstracts_renders_as_inert_text(page, shots):
    from playwright.sync_api import expect

    ask(page, "How does ZebraNet detect zebra crossings?")
    answer = wait_for_answer(page, 1)
    card = page.locator("#source-1")
    expect(card.locator(".pc-name")).to_have_text("ZebraNet")
    expect(card).to_contain_text("<script>window.__pwned=1</script>")
    expect(card).to_contain_text('<img src=x onerror="window.__pwned=1">')
    assert "<img src=x" in answer or "<script>" in answer  # the answer quotes it, as text
    open_tab(page, "Papers")
    page.fill("#pc-search textarea", "ZebraNet")
    expect(page.locator("#pc-table")).not_to_contain_text("PipeFSDP")
    page.locator("#pc-table").get_by_test_id("cell-0-0").click()
    expect(page.locator("#pc-detail")).to_contain_text("<script>window.__pwned=1</script>")
    page.screenshot(path=shots / "xss.png")
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert page.locator('img[src="x"]').count() == 0
    assert page.locator("script:has-text('__pwned')").count() == 0
