"""PaperChat on papers of another field (real arXiv astrophysics abstracts, tests/data/other_field): the comparison
table's columns fit any empirical abstract, papers are found by their titles, the ML rule tables stay out of it, a
detail the abstract lacks is said not stated, a question naming another object is hedged, a counted group is
compared whole, and an ordinal of time is no paper reference."""

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rag import PaperChat

ASTRO = Path(__file__).parent / "data" / "other_field" / "abstracts.jsonl"
ML_COLUMNS = ("benchmarks", "Results / claims")


@pytest.fixture(scope="module")
def astro_chat(tmp_path_factory):
    records = [json.loads(line) for line in ASTRO.open()]
    chat = PaperChat(store_dir=tmp_path_factory.mktemp("astro-store"), store_bundled_corpus=False)
    assert chat.ingest([ASTRO]).added == len(records) == 117
    return chat, records


def by_arxiv(chat, arxiv_id):
    return next(p.paper_id for p in chat.papers() if p.url.endswith(arxiv_id))


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


def test_the_ml_rule_tables_leave_another_fields_papers_alone(astro_chat, seed_chat):
    from rag.acronyms import modalities, plain_terms, tables_apply

    chat, _ = astro_chat
    assert seed_chat.in_tables_field and not chat.in_tables_field
    with tables_apply(chat.in_tables_field):
        assert modalities() == [] and plain_terms() == []
    # the kind-of-data rule would read "time series" as ML's sequential data and refuse the blazar campaign
    answer = chat.ask("Which paper follows the optical polarization time series of the blazar BL Lacertae?")
    assert not answer.refused and "not on time series" not in answer.text
    assert answer.citations[0].paper.paper_id == by_arxiv(chat, "2505.01832")


def test_a_detail_the_abstract_lacks_is_said_not_stated_and_a_stated_one_quoted(astro_chat):
    chat, _ = astro_chat
    hydra = by_arxiv(chat, "2505.01494")
    missing = chat.ask("How long was the XRISM exposure on Hydra-A?")
    assert missing.kind == "not_stated" and missing.citations[0].paper.paper_id == hydra
    stated = chat.ask("What 1D velocity dispersion did XRISM Resolve measure for the hot atmosphere around Hydra-A?")
    assert stated.kind != "not_stated" and "164" in stated.text and stated.citations[0].paper.paper_id == hydra


def test_a_question_naming_another_object_is_hedged_or_refused(astro_chat):
    chat, _ = astro_chat
    for question in ("Which paper presents NICER pulse-profile modelling of the radius of PSR J0740+6620?",
                     "Is there a paper measuring tip-of-the-red-giant-branch distances with Hubble ACS for dwarf "
                     "galaxies in the M81 group?"):
        answer = chat.ask(question)
        assert answer.refused or answer.hedged, question
    named_right = chat.ask("Which paper reports XRISM Resolve observations of Hydra-A?")
    assert not named_right.hedged and named_right.citations[0].paper.paper_id == by_arxiv(chat, "2505.01494")


@pytest.mark.parametrize("question, pair", [
    ("Compare the two quasi-periodic eruption papers: what mechanism and which sources does each consider?",
     ("2505.02832", "2505.02596")),
    # a count leads the group, its topic after it
    ("Both papers on reverberation mapping of PG quasars at Calar Alto - how do their samples differ?",
     ("2505.01992", "2505.01993")),
])
def test_a_counted_group_is_compared_whole(astro_chat, question, pair):
    chat, _ = astro_chat
    answer = chat.ask(question)
    assert answer.kind == "comparison"
    assert {by_arxiv(chat, arxiv_id) for arxiv_id in pair} <= {c.paper.paper_id for c in answer.citations}


def test_an_ordinal_of_time_is_no_paper_reference(astro_chat):
    from rag.followup import resolve_followup

    chat, _ = astro_chat
    first, second, third = chat.papers()[:3]
    listing = f"Found 3 papers:\n1. **{first.name}**: ...\n2. **{second.name}**: ...\n3. **{third.name}**: ..."
    history = [("Which papers monitor a source over several years?", listing)]
    assert resolve_followup("by how much did it change in the 3rd year?", history, chat.catalog).question.count(
        third.name) == 0
    assert third.name in resolve_followup("what does the 3rd one find?", history, chat.catalog).question


def test_a_follow_up_no_other_paper_answers_is_asked_of_the_paper_in_the_conversation(astro_chat):
    chat, records = astro_chat
    bars = next(r for r in records if r["id"] == "2505.01421")
    history = [("Is there a JWST study of how the bar fraction evolves to high redshift?",
                f"'{bars['title']}' uses citizen-science classifications of CEERS images.")]
    answer = chat.ask("how big was the volume-limited sample?", history=history)
    assert not answer.refused and answer.citations[0].paper.paper_id == by_arxiv(chat, "2505.01421")
    assert chat.ask("and which drugs lower blood pressure in rats?", history=history).refused


def test_papers_quoted_by_title_are_compared(astro_chat):
    chat, records = astro_chat
    first, second = records[10], records[20]
    answer = chat.ask(f"How do '{first['title']}' and '{second['title']}' differ?")
    cited = {c.paper.paper_id for c in answer.citations}
    assert answer.kind == "comparison" and {by_arxiv(chat, first["id"]), by_arxiv(chat, second["id"])} <= cited


@pytest.mark.parametrize("question, pair", [
    # a side described as a paper finds none surely: its closest is compared
    ("MeerKAT galactic plane protostars: what's the difference between the ATCA high-res follow-up paper and the "
     "L-band non-thermal emission paper?", ("2505.01677", "2505.01683")),
    # no side is parsed from "one with ..., one with ...": the lookup's paper and the best other one are compared
    ("two papers on massive protostar radio emission: one with ATCA at high resolution, one with MeerKAT at L-band. "
     "how do their detection rates differ?", ("2505.01677", "2505.01683")),
    # "SEAMBH paper XII" finds no paper by its own words: the paper best for the whole question besides the other
    # side's is compared
    ("how do the SEAMBH paper XII and paper XIV Calar Alto PG quasar results differ?", ("2505.01992", "2505.01993")),
    # no side is parsed: the two papers standing out, nearly as near the whole question as each other, are compared
    ("How do the two Calar Alto reverberation-mapping campaigns of PG quasars (MAHA XII and XIV) differ in their lags?",
     ("2505.01992", "2505.01993")),
])
def test_a_comparison_whose_wording_finds_one_paper_surely_still_compares_two(astro_chat, question, pair):
    chat, _ = astro_chat
    answer = chat.ask(question)
    cited = {c.paper.paper_id for c in answer.citations}
    assert answer.kind == "comparison"
    assert {by_arxiv(chat, arxiv_id) for arxiv_id in pair} <= cited


def test_one_paper_sought_with_both_in_its_description_is_no_comparison(astro_chat):
    chat, _ = astro_chat
    answer = chat.ask("Is there a paper that both measures HI-selected dark sources and low surface brightness galaxies?")
    assert answer.kind != "comparison" and [c.paper.url[-10:] for c in answer.citations][:1] == ["2505.04299"]


def test_a_designation_only_the_title_writes_pins_its_paper(astro_chat):
    chat, _ = astro_chat
    # "SDSS" is common; "J144850.08+160803.1" is in that paper's title alone (its abstract says "J1448+16")
    answer = chat.ask("What black hole mass do they get for SDSS J144850.08+160803.1?")
    assert not answer.refused and not answer.hedged
    assert answer.citations[0].paper.paper_id == by_arxiv(chat, "2505.03890")


def test_a_name_typed_in_ascii_is_the_name_written_in_greek_or_latex(astro_chat):
    from rag.names import NameCheck

    chat, _ = astro_chat
    emitters = chat.catalog.papers[by_arxiv(chat, "2505.02895")]  # "Broad H$α$ Emitters in the GOODS-N Field"
    assert NameCheck(chat).unwritten("broad Halpha emitters in GOODS-N?", [emitters]) == [[]]
    assert NameCheck(chat).unwritten("broad Hbeta emitters in COSMOS?", [emitters]) != [[]]


def test_a_name_written_with_latex_commands_reads_as_typed():
    from rag.spelling import plain_spelling

    # a font or accent command inside a name is markup ("b\\bar{b}WW" is "bbWW"); a Greek letter's is its letter
    assert plain_spelling(r"$\mathrm{b\bar{b}WW}$") == plain_spelling("bbWW")
    assert plain_spelling(r"M$_{\rm BH}$") == plain_spelling("MBH")
    assert plain_spelling(r"$\Lambda$CDM") == plain_spelling("ΛCDM")
    assert plain_spelling(r"H$\alpha$") == plain_spelling("Halpha") != plain_spelling("Hbeta")


def test_a_name_reads_alike_with_or_without_its_accents():
    from rag.spelling import plain_spelling

    # an asker types "Polya" or "Kahler"; abstracts write the accent, in Unicode or in LaTeX
    for accented, typed in (("Pólya-Gamma", "Polya-Gamma"), ("Kähler", "Kahler"), (r"Alfv\'en", "Alfven"),
                            (r"Erd\H{o}s", "Erdos"), (r'Schr\"{o}dinger', "Schrodinger"), ("Łukasiewicz", "Lukasiewicz"),
                            (r"\o ksendal", "oksendal"), ("Gauß", "Gauss"), (r"\v{S}ilhav\'y", "Silhavy")):
        assert plain_spelling(accented) == plain_spelling(typed), accented
    assert plain_spelling("Néel") != plain_spelling("Noel")
    assert plain_spelling(r"\alpha particles") == "alpha particles"  # a Greek letter's command keeps its space


def test_an_approximate_number_is_stated_by_the_abstracts_more_precise_one(astro_chat):
    chat, _ = astro_chat
    # the asker's "about 7 minutes" is the abstract's "~ 7.1 minutes", not a number it never writes
    answer = chat.ask("Which paper explains the QPE source whose period shrank from about 18 to about 7 minutes within "
                      "two years, using Kozai-Lidov cycles induced by a distant third star?")
    assert answer.citations[0].paper.paper_id == by_arxiv(chat, "2505.02832"), answer.text
    assert "never mention" not in answer.text, answer.text


def test_names_two_papers_write_between_them_ask_of_both_but_a_detail_asks_of_one(astro_chat):
    chat, _ = astro_chat
    # the GOODS-N paper never writes "HSC", the HSC paper never writes "GOODS-N": the question is on both
    answer = chat.ask("Do low-luminosity AGN in GOODS-N and SDSS quasars seen with HSC live in similar environments?")
    assert {c.paper.paper_id for c in answer.citations} == {by_arxiv(chat, "2505.02896"), by_arxiv(chat, "2505.04259")}
    assert answer.hedged and "never mentions “HSC”" in answer.text, answer.text
    # a detail asked of one paper is that paper's to state, whoever else writes its name
    answer = chat.ask("Which CO-to-H2 conversion factor was assumed in the ALMA CO survey of 41 type 1 quasars at z~2?")
    assert answer.kind == "not_stated", answer.text
    assert answer.citations[0].paper.paper_id == by_arxiv(chat, "2505.03884")


def test_a_numbered_name_is_not_written_by_a_longer_number(astro_chat):
    from rag.names import NameCheck

    chat, _ = astro_chat
    dwarfs = chat.catalog.papers[by_arxiv(chat, "2505.04475")]  # "And VI and And XXIII's dark matter density"
    assert NameCheck(chat).unwritten("dark matter density of Andromeda XXIII at 150 pc?", [dwarfs]) == [[]]
    assert NameCheck(chat).unwritten("dark matter density of Andromeda XXI at 150 pc?", [dwarfs]) == [["XXI"]]
    answer = chat.ask("What dark matter density at 150 pc does GravSphere find for And XXI?")
    assert answer.refused or answer.hedged
    # a paper named by its title is hedged too when it never writes the object asked about
    named = chat.ask("Mass Modeling the Andromeda Dwarf Galaxies: what did they find for And XXI?")
    assert named.hedged and named.citations[0].paper.paper_id == dwarfs.paper_id
    assert not chat.ask("Mass Modeling the Andromeda Dwarf Galaxies: what did they find for And XXIII?").hedged


def test_asking_another_fields_corpus_first_leaves_the_ml_tables_whole_for_an_ml_corpus(astro_chat, seed_chat):
    chat, _ = astro_chat
    chat.ask("Which paper fuses a near-infrared camera with radio maps?")  # the ML tables are off for this corpus
    physdnet = next(p for p in seed_chat.papers() if p.name == "PhysDNet")
    with seed_chat.field_tables():
        heard = seed_chat.glossary.in_own_words("fusing a near-infrared camera with a lidar", physdnet.text)
    assert "NIR camera" in heard  # PhysDNet writes only "NIR": the question is matched in its words


def test_a_quantity_asked_in_a_unit_is_stated_only_as_a_number_in_that_unit(astro_chat):
    chat, _ = astro_chat
    hydra = by_arxiv(chat, "2505.01494")
    stated = chat.ask("How far (in kpc) from the cluster center do Hydra-A's radio jets reach?")
    assert stated.kind != "not_stated" and "225 kpc" in stated.text
    # the abstract speaks of the cooling timescale, with a percentage, but gives no time in Myr
    missing = chat.ask("What is the cooling time of Hydra-A's atmosphere in Myr?")
    assert missing.kind == "not_stated" and not missing.hedged, missing.text
    assert missing.citations[0].paper.paper_id == hydra


def test_how_far_or_how_old_is_answered_only_by_a_length_or_a_time(astro_chat):
    """"How old": an age the abstract gives in Gyr answers, whatever other numbers its sentences hold; "how far": a
    group whose abstract gives ages and counts but no distance is said not stated."""
    chat, _ = astro_chat
    old = chat.ask("How old are the twin bulge globular clusters whose parameters were revisited?")
    assert old.kind != "not_stated" and "11+-0.5 Gyr" in old.text, old.text
    far = chat.ask("How far is the young moving group ASCC 127 in the Cepheus Flare from us?")
    assert far.kind == "not_stated" and far.citations[0].paper.url.endswith("2505.00407"), far.text


def test_the_unit_a_question_asks_in_is_read_in_any_field():
    from rag.details import asked_unit

    assert asked_unit("what nitrogen concentrations (ppm) did the NV ensembles have?") == "ppm"
    assert asked_unit("how large in µeV is the spin-valley coupling?") == "µeV"
    assert asked_unit("what were the true bar pattern speeds in km/s/kpc?") == "km/s/kpc"
    assert asked_unit("what distance(s) do they propose?") == ""  # a plural mark
    assert asked_unit("how many samples held carbapenem-resistant A. baumannii?") == ""
    assert asked_unit("which papers model dengue in Brazil?") == ""


@pytest.mark.parametrize("question, stated, unstated", [
    # a unit asked in words is stated by a number in it, by symbol or in words, at any scale ("40 cm" in metres)
    ("How short were the isolated pulses, in attoseconds?", ["pulses as short as 170 as", "pulses of 0.25 fs"],
     ["pulses of a few cycles at 150 eV"]),
    ("what localization accuracy in metres did the fibre setup reach?",
     ["an accuracy of 2.5 m", "within 3 meters", "to 40 cm"], ["a precise localization along the fibre"]),
    ("what latency overhead (in microseconds) did the node add?", ["adding 12 μs", "only 40 microseconds", "2 ms"],
     ["a latency overhead small enough for 100 nodes"]),
])
def test_a_unit_asked_in_words_wants_a_number_in_it(question, stated, unstated):
    from rag.units import amount_in, asked_unit

    unit = asked_unit(question)
    assert all(re.search(amount_in(unit), text) for text in stated)
    assert not any(re.search(amount_in(unit), text) for text in unstated)


def test_a_unit_word_inside_the_question_asks_no_unit():
    from rag.units import asked_unit

    assert asked_unit("what did they conclude in seconds of data from the first run?") == ""
    assert asked_unit("did the signal decay in years of monitoring?") == ""


def test_a_name_the_question_asks_to_be_told_is_no_topic_the_paper_must_write(astro_chat):
    # "which IMF": the IMF is the detail asked, not a topic PANCAKE's abstract lacks; saying it lacks it is the answer
    chat, _ = astro_chat
    answer = chat.ask("Which IMF does PANCAKE assume when it fits CMDs?")
    assert answer.kind == "not_stated" and not answer.hedged, answer.text
    assert answer.citations[0].paper.name == "PANCAKE"


def test_the_words_a_detail_question_offers_as_its_answer_and_its_units_are_read_as_such():
    from rag.focus import answer_words
    from rag.units import measured_in

    assert answer_words("which IMF does pancake assume by default?") == {"IMF"}
    assert {"GRI", "CRECK"} <= answer_words("Which mechanism (GRI, ABF, CRECK...) did the shock tube paper use?")
    assert {"SDR", "radio", "hardware"} <= answer_words("which SDR / radio hardware did they run it on?")
    assert "NIRCam" not in answer_words("Which NIRCam filters were used for the M81 dwarfs?")  # whose filters
    assert measured_in("MeV", "What angular resolution did the calibration give at 1 MeV?")
    assert measured_in("Msun", "which code computed the 150-300 Msun tracks?")
    assert not measured_in("YR4", "how big a crater would 2024 YR4 make?")  # an asteroid's name


_QUESTION_WORDS = st.sampled_from("what which and is the k sigma(r) O(N) IMF / ? , models (GRI, ABF) did how long "
                                   "was of value at 1 MeV".split())


@settings(max_examples=300, deadline=None)
@given(st.lists(_QUESTION_WORDS, max_size=12).map(" ".join))
def test_reading_what_a_question_asks_never_fails(question):
    from rag.focus import answer_words, asked_focus

    assert isinstance(asked_focus(question), list) and isinstance(answer_words(question), set)
    assert asked_focus("which models and ?") == []  # nothing after "and"
