"""The sides of a comparison as a physicist writes them: a decimal inside a side's description ("at 13.6 TeV") does
not end it."""

from rag.sides import described_sides


def test_a_decimal_point_does_not_end_a_side():
    assert described_sides("How does the CMS dilepton search at 13.6 TeV compare with the ATLAS ttHH search?",
                           []) == ["CMS dilepton search at 13.6 TeV", "ATLAS ttHH search"]
    # a full stop still ends one
    assert described_sides("Compare the CMS search at 13 TeV. How does it differ from the ATLAS search?", []) == [
        "CMS search at 13 TeV", "ATLAS search"]
