"""Comparisons whose sides are only partly read (multiple zeta values, tests/data/mathqa): the pair standing out for the
whole question is told apart by an author's name."""

def test_an_author_s_name_tells_the_pair_apart(mathqa_chat):
    # "ecalle and brown" splits the first side; "furusho" is written by no abstract, only by the author list of the
    # paper it means, so the two papers nearest the whole question each write a word of it the other does not
    answer = mathqa_chat.ask("furusho et al on the ecalle and brown solutions of double shuffle vs Kawamura's "
                             "dimorphic transportation paper: how do they differ?")
    assert answer.kind == "comparison", answer.text
    assert {c.paper.url[-10:] for c in answer.citations} == {"2601.17424", "2601.03828"}
