"""A name one abstract coins ("... late adjusted parallel sampler (LAPS)", "Sparse NUTS (SNUTS)") and no other abstract
writes names that paper, as its title would (real stat.CO abstracts, tests/data/statco); a name several abstracts write
("NUTS"), an instrument a paper uses ("IXPE"), a method others spell out ("PIMD") or one written in lower case
("finite element method (FEM)") names none, nor does the acronym of a term several abstracts write ("SMC")."""

import pytest

from tests.conftest import cited_ids, ingested_field

LAPS, SNUTS = "2601.16696", "2603.02437"


@pytest.fixture(scope="module")
def statco_chat(tmp_path_factory):
    return ingested_field(tmp_path_factory, "statco")


def test_two_coined_names_are_two_papers_compared(statco_chat):
    answer = statco_chat.ask("How do LAPS and SNUTS each speed up sampling?")
    assert answer.kind == "comparison", answer.text
    assert {LAPS, SNUTS} <= cited_ids(answer)


def test_a_coined_name_is_its_paper(statco_chat):
    answer = statco_chat.ask("What does SNUTS precondition?")
    assert not answer.refused and not answer.hedged, answer.text
    assert answer.citations[0].paper.url.endswith(SNUTS), answer.text


def test_a_name_several_abstracts_write_names_no_paper(statco_chat):
    assert statco_chat.catalog.mentions("Is NUTS still the default sampler?") == []


def test_an_acronym_the_paper_only_uses_or_others_spell_out_names_no_paper():
    from rag.catalog import PaperCatalog
    from store.paper import Paper

    def paper(paper_id, text):
        title = f"a study of case {paper_id}"  # no name of its own
        return Paper(paper_id=paper_id, name=title, title=title, abstract=text, text=text, source="t", ordinal=0)

    catalog = PaperCatalog([
        paper("tatb", "We present path integral molecular dynamics (PIMD) simulations of TATB."),
        paper("blazar", "Observed with the Imaging X-ray Polarimetry Explorer (IXPE), the blazar is polarized."),
        paper("water", "A symmetrized path-integral molecular dynamics method gives tunnelling splittings."),
        paper("laps", "We introduce the Late Adjusted Parallel Sampler (LAPS), which runs many chains."),
        paper("fem", "We present a full-vector finite element method (FEM) mode solver for waveguides."),
    ])
    assert catalog.mentions("How does the symmetrized PIMD method get splittings?") == []
    assert catalog.mentions("What polarization degree did IXPE measure?") == []  # an instrument the paper used
    assert catalog.mentions("Any FEM simulations of waveguides?") == []  # a method, lower case: not named as a name
    assert [pid for *_, pid in catalog.mentions("How many chains does LAPS run?")] == ["laps"]


def test_an_acronym_of_a_term_many_abstracts_write_names_no_paper(statco_chat):
    # one paper is named "Sequential Monte Carlo (SMC)" after the algorithm it introduces; other abstracts write
    # "sequential Monte Carlo" too, so "SMC" is the field's term, and a side described with it finds its own paper
    answer = statco_chat.ask("Polynomial mixing of simulated tempering versus an SMC sampler converging to multimodal "
                             "Gibbs measures: how do their complexity guarantees differ?")
    assert answer.kind == "comparison", answer.text
    assert {"2511.00708", "2511.22564"} <= cited_ids(answer), answer.text
