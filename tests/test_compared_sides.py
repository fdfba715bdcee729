"""The sides of a comparison as a physicist writes them: a decimal inside a side's description ("at 13.6 TeV") does
not end it; a lead-in before "A vs B" is no part of A; "what does each say" asks of two papers; "X papers: A vs B"
compares A and B, though its lead reads like a search for a list."""

import pytest

from rag.sides import COMPARE_CUE, described_sides
from tests.conftest import cited_ids, ingested_field


def test_a_decimal_point_does_not_end_a_side():
    assert described_sides("How does the CMS dilepton search at 13.6 TeV compare with the ATLAS ttHH search?",
                           []) == ["CMS dilepton search at 13.6 TeV", "ATLAS ttHH search"]
    # a full stop still ends one
    assert described_sides("Compare the CMS search at 13 TeV. How does it differ from the ATLAS search?", []) == [
        "CMS search at 13 TeV", "ATLAS search"]


def test_a_symbol_s_bracket_does_not_end_a_side():
    # "f(Q)": a bracket opened inside a word is part of a symbol, not an aside
    assert described_sides("f(Q) gravity with CPL/BA parametrizations vs the generalized mass-to-horizon entropy "
                           "cosmology: which one prefers LCDM?", []) == ["f(Q) gravity with CPL/BA parametrizations",
                                                                        "generalized mass-to-horizon entropy cosmology"]
    # an aside still ends one
    assert described_sides("Compare the MgB2 films paper (textured) with the NbN vortex study", []) == [
        "MgB2 films paper", "NbN vortex study"]


def test_a_side_may_open_with_whose_paper_it_is():
    assert described_sides("compare Wheeler's isoperimetric paper with the small-volume one", []) == [
        "Wheeler's isoperimetric paper", "small-volume one"]
    assert described_sides("How does the CMS bbWW search compare with ATLAS's first ttHH search?", []) == [
        "CMS bbWW search", "ATLAS's first ttHH search"]


def test_a_side_set_against_vs_starts_after_the_lead_in():
    # "topic: A vs B" (a colon or a spaced dash before the first side): the first side is A, however it starts
    assert described_sides("kaon decays: NA62 charged-mode branching ratio vs the KOTO neutral-mode search", []) == [
        "NA62 charged-mode branching ratio", "KOTO neutral-mode search"]
    assert described_sides("trilayer nickelates - the ARPES map of the Fermi surface vs the optical conductivity "
                           "study, do they agree?", []) == ["ARPES map of the Fermi surface", "optical conductivity study"]


@pytest.mark.parametrize("question", [
    "what do the ultrafast reflectivity study and the muon spin rotation paper each say about the spin order?",
    "the PLD dome paper and the inverse transition one, what does each report about field-induced superconductivity?",
])
def test_a_question_asking_each_of_two_papers_compares_them(question):
    assert COMPARE_CUE.search(question)


@pytest.mark.parametrize("question", [
    "the Uranus probe workshop and the terraforming one: what were they each trying to achieve?",
    "one says derivatives don't help, the other gets acceleration: do these contradict each other?",
    "the two lithium papers: do they agree on whether the problem is stellar?",
    "the review on multiple stable states and the paper on hidden higher-order interactions. how do they relate?",
    "the paravortex paper and the glue one: how are these two related?",
])
def test_a_question_asking_whether_two_papers_agree_or_what_each_does_compares_them(question):
    assert COMPARE_CUE.search(question)


@pytest.mark.parametrize("question", [
    "What raw contrast has the coronagraph achieved on sky so far?",  # an image's contrast, no contrasting
    "How many SDSS galaxies were in each cluster's sample?",  # each of a paper's things, not of two papers
])
def test_a_contrast_measured_or_each_of_a_paper_s_things_sets_no_papers_side_by_side(question):
    assert not COMPARE_CUE.search(question)


def test_a_paper_named_beside_one_described_is_compared_with_it(astroim_chat):
    # "PLACID" names one paper; the other is described ("the Kola adaptive optics simulations"), in no title
    answer = astroim_chat.ask("PLACID and the Kola adaptive optics simulations: what were they each built for?")
    assert answer.kind == "comparison", answer.text
    assert {c.paper.url[-10:] for c in answer.citations} == {"2510.23339", "2511.17488"}


def test_a_paper_named_with_a_comparison_word_but_no_other_paper_stays_one_paper(astroim_chat):
    answer = astroim_chat.ask("How does its speed compare, for CUBE2?")
    assert answer.kind != "comparison", answer.text
    assert {c.paper.url[-10:] for c in answer.citations} == {"2512.12629"}


def test_one_paper_and_another_are_two_sides():
    assert described_sides("I remember one paper on prior choice for Gaussian process hyperparameters and another on "
                           "Fisher scoring for Matern smoothness. Do they agree on maximum likelihood?", []) == [
        "paper on prior choice for Gaussian process hyperparameters", "on Fisher scoring for Matern smoothness"]


def test_an_aside_inside_a_side_stays_with_it():
    # a comma inside the brackets splits no side, and an aside closing a side leaves it set against "vs"
    assert described_sides("long-lived particle searches: disappearing track (charginos, staus) vs displaced "
                           "vertex + MET. how do the signatures differ?", []) == [
        "disappearing track", "displaced vertex + MET"]
    # an aside naming the authors is part of the side: their paper is the one meant
    assert described_sides("the doping paper on orbital renormalizations vs the later one on epitaxial strain "
                           "(Leonov). what does each find?", []) == [
        "doping paper on orbital renormalizations", "later one on epitaxial strain (Leonov)"]


def test_et_al_ends_no_side():
    assert described_sides("Kriner et al. on band filling vs Liu et al.'s anisotropic transport in La3Ni2O7 crystals - "
                           "what does each measure?", []) == [
        "Kriner et al. on band filling", "Liu et al.'s anisotropic transport in La3Ni2O7 crystals"]


@pytest.mark.parametrize("question, expected", [
    ("camera papers: the upgraded Schwarzschild-Couder prototype camera module vs the JWST interferometer image "
     "reconstruction", {"2512.12529", "2510.10924"}),
    ("spectroscopy papers: Majidi's time-domain study of young stars vs the Spitzer IRS mapping archive",
     {"2512.12453", "2512.12434"}),
])
def test_two_sides_after_a_list_s_lead_are_compared(astroim_chat, question, expected):
    # "X papers: A vs B" is typed like a search for a list, but sets two papers side by side (real astro-ph.IM papers)
    answer = astroim_chat.ask(question)
    assert answer.kind == "comparison", answer.text
    assert {c.paper.url[-10:] for c in answer.citations} == expected


def test_a_paper_named_after_compare_with_is_no_described_side_too():
    # "Xu and Yang" name their one paper, which the words before them describe ("compare with" is read as a split,
    # and the named place must stay where it was in the question)
    question = "how does the sub-GeV limit from LZ compare with the puffy dark matter paper by Xu and Yang?"
    at = question.index("Xu and Yang")
    assert not any("puffy" in side for side in described_sides(question, [(at, at + len("Xu and Yang"), "xu-yang")]))


def test_a_list_on_a_topic_written_with_vs_stays_a_list(seed_chat):
    # "memorization vs generalization" is the topic asked about, not two papers: "any papers here on memorization" asks
    # for papers itself
    answer = seed_chat.ask("any papers here on memorization vs generalization in generative models (LLMs or diffusion)?")
    assert answer.kind == "which", answer.text


@pytest.mark.parametrize("question, sides", [
    # a paper called what any field calls one, described by whose it is
    ("Mei-Ling Zhou's review of dark matter halos and subhalos versus her group's N-body paper on tidal streams - what "
     "does each cover?", ["Mei-Ling Zhou's review of dark matter halos and subhalos",
                          "her group's N-body paper on tidal streams"]),
    ("difference between the okafor essay on background independence and their thesis on affine gauge gravity?",
     ["okafor essay on background independence", "their thesis on affine gauge gravity"]),
])
def test_a_review_essay_or_thesis_described_by_whose_it_is_is_a_side(question, sides):
    assert described_sides(question, []) == sides


def test_a_description_set_against_another_by_vs_needs_no_paper_word():
    # "Pedro Gil's ... optimization" says no "paper", but "vs" sets it beside the other side
    assert described_sides("Pedro Gil's stochastic single-stage stellarator optimization vs the EPOS buildable "
                           "stellarator design - what does each optimize?", []) == [
        "Pedro Gil's stochastic single-stage stellarator optimization", "EPOS buildable stellarator design"]


@pytest.fixture(scope="module")
def supcon_chat(tmp_path_factory):
    return ingested_field(tmp_path_factory, "supcon")


# each side says only what its paper does or is on; what both are about is said before them
def test_one_and_the_other_are_found_with_what_is_said_of_both(astroim_chat):
    answer = astroim_chat.ask("Two papers imaged the dusty WR binary WR 137 with the NIRISS aperture masking "
                              "interferometer. One uses a regularised max-likelihood framework, the other borrows radio "
                              "techniques (self-cal + CLEAN). How do their approaches differ?")
    assert answer.kind == "comparison", answer.text
    assert cited_ids(answer) == {"2510.10924", "2510.13502"}


def test_one_and_one_more_are_found_with_the_topic_said_first(supcon_chat):
    answer = supcon_chat.ask("there are two review articles on RP nickelates, one focusing on thin films and one on "
                             "strong-coupling Hund's-rule-assisted pairing. what does each emphasize?")
    assert answer.kind == "comparison", answer.text
    assert cited_ids(answer) == {"2604.18385", "2604.20613"}


def test_words_joined_to_a_named_paper_by_and_before_vs_stay_with_it():
    # "Krijt et al." is named: "pebble drift" is the rest of that side, and the one set against it is described
    question = "Krijt et al.'s water and pebble drift vs the MINDS very low-mass star disk with C2H2. how does each tie spectra to gaps?"
    assert described_sides(question, [(0, 12, "krijt")]) == ["MINDS very low-mass star disk with C2H2"]


def test_one_paper_described_and_the_other_named_leaves_one_described_side():
    question = ("Two smart grid papers: one secures CAN networks with a single dedicated node, the other is AmphiKey, a "
                "hybrid key encapsulation. How do they handle overhead?")
    start = question.index("AmphiKey")
    [side] = described_sides(question, [(start, start + len("AmphiKey"), "amphikey")])
    assert side.endswith("secures CAN networks with a single dedicated node"), side


def test_a_described_paper_before_a_lead_in_stays_the_side_set_against_vs():
    # "her star cluster modelling paper" is the side; "one star vs many" after the colon asks about the two
    assert described_sides("Smith's Wolf-Rayet wind paper vs her star cluster modelling paper: one star vs many, which "
                           "fits the gamma rays better?", []) == ["Smith's Wolf-Rayet wind paper",
                                                                  "her star cluster modelling paper"]


def test_sides_described_among_the_many_papers_of_the_cited_authors_find_theirs(supcon_chat):
    # Kuznetsov and Trofimov wrote four of the loaded papers: each side finds its own among them
    answer = supcon_chat.ask("Kuznetsov & Trofimov on aluminium wires: the negative nonlocal voltage paper vs the one "
                             "on critical temperatures of wide and narrow structures - what does each find?")
    assert answer.kind == "comparison", answer.text
    assert cited_ids(answer) == {"2604.26814", "2604.27822"}, answer.text
