"""An acronym the asker types that a paper spells out without writing it counts as said by that paper: real eess.SY
abstracts (tests/data/eesssy), where the air-supply paper writes "proton exchange membrane" and never "PEM"."""

import pytest

from tests.conftest import cited_ids, ingested_field

AIR_SUPPLY = "2604.11433"  # "Air supply control for proton exchange membrane fuel cells without explicit modeling"


@pytest.fixture(scope="module")
def eesssy_chat(tmp_path_factory):
    return ingested_field(tmp_path_factory, "eesssy")


@pytest.mark.parametrize("question", [
    "Is there a paper on model-free control of PEM fuel cells? What did it find?",
    "how robust was the model-free PEM air supply controller to parameter variations?",
])
def test_an_acronym_the_papers_spell_out_finds_its_paper_unhedged(eesssy_chat, question):
    answer = eesssy_chat.ask(question)
    assert not answer.refused and not answer.hedged, answer.text
    assert AIR_SUPPLY in cited_ids(answer), answer.text


def test_an_acronym_no_paper_spells_out_is_still_a_gap(eesssy_chat):
    # solid oxide fuel cells: the air-supply paper is on proton exchange membrane ones
    answer = eesssy_chat.ask("Is there a paper on model-free air supply control of SOFC stacks? What did it find?")
    assert answer.refused or answer.hedged, answer.text
