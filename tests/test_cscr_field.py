"""PaperChat on security papers (real arXiv cs.CR abstracts, tests/data/cscr): a comparison naming one paper by its
name and another by a name only that other paper's abstract writes compares the two; so does one setting the two
papers of one author side by side, whichever way the records spell the name, and "one ..., the other is NAME"."""

import pytest

from tests.conftest import ingested_field


@pytest.fixture(scope="module")
def cscr_chat(tmp_path_factory):
    return ingested_field(tmp_path_factory, "cscr")


@pytest.mark.parametrize("question, pair", [
    # "Petra" is written in the abstract of "Trustworthy and Confidential SBOM Exchange", not in its title
    ("NodeShield vs Petra: both build on SBOMs -- contrast what they use the SBOM for.", {"2508.13750", "2509.13217"}),
    # "NADGO" is the acronym of "Adaptive t Design Dummy-Gate Obfuscation ..."
    ("compare MaestroCut and NADGO (both Punch & Guha, quantum computing) -- what problem does each tackle?",
     {"2509.00811", "2509.00812"}),
])
def test_a_name_only_an_abstract_writes_is_its_paper_in_a_comparison(cscr_chat, question, pair):
    answer = cscr_chat.ask(question)
    assert answer.kind == "comparison" and not answer.hedged, answer.text
    assert {c.paper.url[-10:] for c in answer.citations} == pair
    assert "not among the loaded papers" not in answer.text


def test_a_name_no_abstract_writes_pairs_no_paper(cscr_chat):
    """No abstract writes "Dependabot": no other paper is compared as if it were, and the answer says so."""
    answer = cscr_chat.ask("How does NodeShield compare with Dependabot?")
    assert answer.kind != "comparison" and "“Dependabot”" in answer.text, answer.text


def test_two_papers_of_one_author_set_side_by_side_are_compared(cscr_chat):
    # Dorsett is the first author of two loaded papers, neither named by its title
    answer = cscr_chat.ask("Dorsett et al.'s DoS taxonomy paper vs their Denial of Wallet review -- what does each "
                           "contribute?")
    assert answer.kind == "comparison" and not answer.hedged, answer.text
    assert len({c.paper.paper_id for c in answer.citations}) == 2
    assert all("Dorsett" in " ".join(c.paper.authors) for c in answer.citations), answer.text


def test_a_word_no_abstract_writes_asks_for_the_finding_not_a_detail(cscr_chat):
    # "what happened" names nothing an abstract could state; the paper's findings answer it
    answer = cscr_chat.ask("Has anyone looked at how an anonymity network other than Tor holds up when you take out "
                           "its most central (highest-degree) peers? What happened to connectivity / path length?")
    assert answer.kind == "lookup" and "does not state" not in answer.text, answer.text
    assert "I2P" in answer.citations[0].paper.title


def test_an_author_whose_records_spell_the_name_differently_has_both_papers(cscr_chat):
    """One record writes "Anna Pätschke", the other "Anna P\\"atschke" (LaTeX): both are hers, as typed in ASCII."""
    answer = cscr_chat.ask("How do Anna Patschke's two papers differ?")
    assert answer.kind == "comparison", answer.text
    assert {c.paper.url[-10:] for c in answer.citations} == {"2509.13048", "2509.18909"}


def test_an_author_typed_in_lower_case_has_both_papers(cscr_chat):
    """A name typed as people chat ("anna patschke") cites her two papers as the capitalised one does."""
    answer = cscr_chat.ask("anna patschke posted two papers here, how do they differ?")
    assert answer.kind == "comparison", answer.text
    assert {c.paper.url[-10:] for c in answer.citations} == {"2509.13048", "2509.18909"}


def test_the_measure_a_how_question_asks_is_no_missing_topic(cscr_chat):
    """"How long" asks for a duration: no abstract writing "long" is needed, and the paper is not merely the closest."""
    answer = cscr_chat.ask("A software-only Rowhammer attack forged hash-based signatures on commodity desktops. How "
                           "long did the forgery take?")
    assert not answer.hedged and not answer.refused, answer.text


def test_a_paper_named_beside_one_described_as_one_and_the_other_is_compared_with_it(cscr_chat):
    # "a hybrid post-quantum key encapsulation" says what AmphiKey is: no side of its own
    answer = cscr_chat.ask("Two smart grid security papers: one protects CAN networks with one dedicated node, the other "
                           "is AmphiKey, a hybrid post-quantum key encapsulation. How much overhead does each add?")
    assert answer.kind == "comparison", answer.text
    assert {c.paper.url[-10:] for c in answer.citations} == {"2508.12181", "2509.01701"}, answer.text
