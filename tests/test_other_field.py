"""PaperChat on papers of another field (real arXiv astrophysics abstracts, tests/data/other_field): the comparison
table's columns fit any empirical abstract, and papers are found by their titles."""

import json
from pathlib import Path

import pytest

from rag import PaperChat

ASTRO = Path(__file__).parent / "data" / "other_field" / "abstracts.jsonl"
ML_COLUMNS = ("benchmarks", "Results / claims")


@pytest.fixture(scope="module")
def astro_chat(tmp_path_factory):
    records = [json.loads(line) for line in ASTRO.open()][:12]
    corpus = tmp_path_factory.mktemp("astro") / "astro.jsonl"
    corpus.write_text("".join(json.dumps(r) + "\n" for r in records))
    chat = PaperChat(store_dir=tmp_path_factory.mktemp("astro-store"), store_bundled_corpus=False)
    assert chat.ingest([corpus]).added == 12
    return chat, records


def test_a_comparison_of_astrophysics_papers_has_field_neutral_columns(astro_chat):
    chat, _ = astro_chat
    papers = chat.papers()[:2]
    answer = chat.compare([p.paper_id for p in papers])
    header = next(line for line in answer.text.splitlines() if line.startswith("| Paper |"))
    assert header == "| Paper | Question / aim | Method / design | Data / sample | Findings |"
    assert not any(word in answer.text for word in ML_COLUMNS)


def test_astrophysics_papers_are_found_by_title(astro_chat):
    chat, records = astro_chat
    for record in records[:6]:
        answer = chat.ask(f"What does the paper '{record['title']}' find?")
        assert not answer.refused
        assert answer.citations[0].paper.url == record["url"], record["title"]
