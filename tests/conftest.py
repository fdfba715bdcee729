"""Shared fixtures: isolated settings, a seed store built once per session, real servers."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

# Tests never touch the network and never read the developer's own store or .env.
os.environ["ANONYMIZED_TELEMETRY"] = "False"
os.environ["GRADIO_ANALYTICS_ENABLED"] = "False"
os.environ["HF_HUB_OFFLINE"] = "1"
for var in list(os.environ):
    if var.startswith("PAPERCHAT_") or var in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
        del os.environ[var]

REPO = Path(__file__).resolve().parent.parent
SEEDS = REPO / "data"
SEED_FILES = sorted(SEEDS.glob("*.txt"))
SHARED_CORPUS = REPO.parent / "shared" / "corpora" / "neurips-abstracts.jsonl"


def ingested_field(tmp_path_factory, name: str):
    """A fresh store holding exactly the arXiv abstracts of tests/data/NAME (another field's papers)."""
    from rag import PaperChat

    corpus = REPO / "tests" / "data" / name / "abstracts.jsonl"
    chat = PaperChat(store_dir=tmp_path_factory.mktemp(f"{name}-store"), store_bundled_corpus=False)
    assert chat.ingest([corpus]).added == sum(1 for _ in corpus.open())
    return chat


def cited_ids(answer) -> set[str]:
    """The arXiv ids of the papers an answer cites."""
    return {c.paper.url.rsplit("/", 1)[-1] for c in answer.citations}


@pytest.fixture(scope="session")
def mathqa_chat(tmp_path_factory):
    """The math.QA papers of tests/data/mathqa, shared by the files that ask them."""
    return ingested_field(tmp_path_factory, "mathqa")


@pytest.fixture(scope="session")
def astroim_chat(tmp_path_factory):
    """The astro-ph.IM papers of tests/data/astroim, shared by the files that ask them."""
    return ingested_field(tmp_path_factory, "astroim")


@pytest.fixture(autouse=True)
def _isolated_cwd(tmp_path, monkeypatch):
    """Run each test in its own directory so no stray .env is picked up."""
    monkeypatch.chdir(tmp_path)


@pytest.fixture(scope="session")
def seed_store_dir(tmp_path_factory) -> Path:
    """A store holding the bundled seed corpus as the user's own papers (ingested, so a later ingest adds to them
    rather than replacing a demo), built once (embedding is the slow part)."""
    from rag import PaperChat

    path = tmp_path_factory.mktemp("seed-store")
    chat = PaperChat(store_dir=path)
    chat.ingest(SEED_FILES)
    assert len(chat.papers()) == 38
    chat.retriever  # builds and persists BM25 too
    del chat
    return path


@pytest.fixture
def seed_chat(seed_store_dir, tmp_path):
    """A PaperChat on a private copy of the seed store (safe to ingest into)."""
    from rag import PaperChat

    store = tmp_path / "store"
    shutil.copytree(seed_store_dir, store)
    return PaperChat(store_dir=store)


@pytest.fixture
def empty_chat(tmp_path):
    """A PaperChat on an empty store that does not load the bundled corpus."""
    from rag import PaperChat

    return PaperChat(store_dir=tmp_path / "empty-store", store_bundled_corpus=False)


@pytest.fixture
def server():
    """A real OpenAI-compatible HTTP server on loopback (tests/openai_server.py), scripted by the test."""
    from tests.openai_server import FakeOpenAI

    with FakeOpenAI() as fake:
        yield fake


@pytest.fixture
def llm_chat(seed_store_dir, tmp_path, server):
    """A PaperChat on a copy of the seed store, answering with the LLM of ``server``."""
    from rag import PaperChat

    store = tmp_path / "llm-store"
    shutil.copytree(seed_store_dir, store)
    return PaperChat(store_dir=store, llm_backend="openai-compatible", llm_base_url=server.base_url,
                     llm_model="local-test-model", llm_max_retries=2, llm_timeout=3)


# ---- the web app in headless Chromium (tests/test_ui_*.py) ----
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
WAIT = 60_000  # ms; answers take a second or two, but CI machines are busy


@pytest.fixture(scope="module")
def app_url(seed_store_dir, tmp_path_factory):
    """The app served on a copy of the seed store, one per test module."""
    from rag import PaperChat
    from tests.ui_server import running_app

    store = tmp_path_factory.mktemp("ui") / "store"
    shutil.copytree(seed_store_dir, store)
    with running_app(PaperChat(store_dir=store)) as url:
        yield url


@pytest.fixture(scope="module")
def page(app_url):
    """One browser page on the app for a test module; fails the module on any JavaScript error."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=WAIT)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1400, "height": 950})
        context.set_default_timeout(WAIT)
        pg = context.new_page()
        errors: list[str] = []
        pg.on("pageerror", lambda exc: errors.append(str(exc)))
        pg.goto(app_url)
        pg.wait_for_selector("#pc-chatbot")
        yield pg
        browser.close()
        assert not errors, f"JavaScript errors in the page: {errors}"
