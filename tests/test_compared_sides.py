"""The sides of a comparison as a physicist writes them: a decimal inside a side's description ("at 13.6 TeV") does
not end it."""

from rag.sides import described_sides


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
