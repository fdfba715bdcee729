"""Reading abstract files: seed text, JSONL, JSON, CSV/TSV; LaTeX cleaning; paper names and titles."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from store.acronyms import defined_acronyms
from store.errors import IngestError
from store.latex import clean_latex
from store.naming import derive_name
from store.parse import (
    ParseResult,
    parse_bytes,
    parse_csv,
    parse_file,
    parse_json,
    parse_jsonl,
    parse_seed_text,
)
from store.titles import derive_title

REPO = Path(__file__).resolve().parent.parent
SEED_FILES = sorted((REPO / "data").glob("*.txt"))
SHARED_CORPUS = REPO.parent / "shared" / "corpora" / "neurips-abstracts.jsonl"

# What a human reader calls each named seed paper, by (file prefix, position in the file).
SEED_NAMES = {
    ("000", 0): "PipeFSDP",
    ("000", 1): "PickMoment",
    ("000", 2): "PhysVista",
    ("000", 4): "PhysElite",
    ("000", 5): "PhysDNet",
    ("000", 6): "PhyProbe",
    ("000", 7): "Phase-Adaptive Fusion (PAF)",
    ("000", 8): "PerturbReason",
    ("000", 9): "PROVE",
    ("000", 10): "VisualMem",
    ("000", 11): "Layout-as-Policy (LaP)",
    ("000", 12): "PERception-Interaction-reason Agent (PERIA)",
    ("000", 14): "PathView-Bench",
    ("000", 15): "PatchKV",
    ("000", 16): "Patch-for-Patch (P4P)",
    ("000", 17): "Patch Rebirth Inversion (PRI)",
    ("000", 18): "PURGE",
    ("004", 0): "ViDiC-1K",
    ("004", 1): "VISD",
    ("004", 2): "VI-Bench",
    ("004", 3): "V1-DVS",
    ("004", 5): "UniCon3R",
    ("004", 6): "Sync-R1",
    ("004", 17): "JRS-Rem",
}
# Papers that coin no name get a short description of their contribution or topic.
SEED_DESCRIPTIONS = {
    ("000", 3): "scene graphs",
    ("004", 4): "generative-predictive framework",
    ("004", 8): "contextual memorization",
    ("004", 10): "curse of unrolling",
    ("004", 13): "generative optimization",
    ("004", 14): "generalization in diffusion models",
    ("004", 16): "graph calibration",
    ("004", 18): "target alignment",
}
FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _seed_papers():
    return {f.name[:3]: parse_file(f).papers for f in SEED_FILES}


def _seed_abstracts() -> list[str]:
    paragraphs = []
    for f in SEED_FILES:
        paragraphs += [p for p in f.read_text(encoding="utf-8").split("\n\n") if p.strip()][1:]
    return paragraphs


SEED_ABSTRACTS = _seed_abstracts()
# Short real abstracts (two sentences each) keep the property tests fast.
GOOD = [". ".join(a.split(". ")[:2]) + "." for a in SEED_ABSTRACTS]


# ---------------------------------------------------------------- seed corpus


@pytest.mark.parametrize("path", SEED_FILES, ids=lambda p: p.name)
def test_seed_file_parses_to_19_neurips_2026_papers(path):
    result = parse_file(path)
    assert result.rejected == []
    assert len(result.papers) == 19
    assert {(p.venue, p.year) for p in result.papers} == {("NeurIPS", 2026)}
    assert [p.ordinal for p in result.papers] == list(range(19))
    assert {p.source for p in result.papers} == {path.name}
    for paper in result.papers:
        assert paper.paper_id.startswith("p-") and len(paper.paper_id) == 18
        assert "\\" not in paper.name and "\\" not in paper.text and "$" not in paper.text
        assert paper.name.strip() and paper.title.strip() and len(paper.title) <= 121
        assert paper.abstract.strip() in path.read_text(encoding="utf-8")


def test_seed_papers_get_the_names_a_reader_would_use():
    papers = _seed_papers()
    got = {key: papers[key[0]][key[1]].name for key in SEED_NAMES}
    assert got == SEED_NAMES


def test_seed_papers_without_a_coined_name_get_a_short_description():
    papers = _seed_papers()
    for (prefix, ordinal), words in SEED_DESCRIPTIONS.items():
        name = papers[prefix][ordinal].name
        assert words in name.lower(), name
    for paper in papers["000"] + papers["004"]:
        assert len(paper.name) <= 90 and not paper.name.lower().startswith(("we ", "our ", "this "))


def test_seed_titles_read_like_titles():
    papers = _seed_papers()
    assert papers["000"][0].title == "PipeFSDP: an efficient training framework for FSDP combined with PP"
    assert papers["000"][9].title == "PROVE: Perturb-and-Repair Optimization for Vision-Language Evaluation"
    assert papers["004"][5].title.startswith("UniCon3R: a unified feed-forward framework")
    assert all(p.title.startswith(p.name) or p.name.lower() in p.title.lower() for p in papers["000"])


def test_unresolved_ours_macro_never_becomes_the_name():
    paper = _seed_papers()["000"][3]
    assert "ours" not in paper.name.lower() and "\\" not in paper.name
    assert "our method" in paper.text and "LGRT" in paper.text


def test_header_that_reads_like_an_abstract_is_an_abstract(tmp_path):
    path = tmp_path / "plain.txt"
    path.write_text(SEED_ABSTRACTS[0] + "\n\n" + SEED_ABSTRACTS[1] + "\n", encoding="utf-8")
    result = parse_file(path)
    assert len(result.papers) == 2 and result.papers[0].name == "PipeFSDP"
    assert result.papers[0].venue is None and result.papers[0].year is None


def test_seed_text_errors_name_the_paragraph_line(tmp_path):
    text = "ICLR 2025 Accepted Papers\n\n" + SEED_ABSTRACTS[0] + "\n\n$\\alpha$ \\textbf{}\n\n" + SEED_ABSTRACTS[2]
    text += "\n\n" + SEED_ABSTRACTS[0].replace(" ", "  ") + "\n"
    result = parse_seed_text(text, tmp_path / "iclr.txt")
    assert [p.name for p in result.papers] == ["PipeFSDP", "PhysVista"]
    assert {(p.venue, p.year) for p in result.papers} == {("ICLR", 2025)}
    assert [p.ordinal for p in result.papers] == [0, 2]
    assert [e.line for e in result.rejected] == [5, 9]
    assert "fewer than 20 letters" in result.rejected[0].reason
    assert result.rejected[1].reason == "duplicate of line 3"
    assert str(result.rejected[1]).startswith(str(tmp_path / "iclr.txt") + ":9:")


def test_content_hash_id_ignores_whitespace(tmp_path):
    one = parse_seed_text(SEED_ABSTRACTS[0], "a.txt").papers[0]
    two = parse_seed_text(SEED_ABSTRACTS[0].replace(" ", " \n  "), "b.txt").papers[0]
    assert one.paper_id == two.paper_id
    assert one.key == "a.txt#0"


# ---------------------------------------------------------------- LaTeX


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        (r"\textbf{Bold} and \textit{it} and \textsc{Sc} and \emph{em} and \texttt{tt}", "Bold and it and Sc and em and tt"),
        (r"\textbf{\textit{\emph{nested}}} words", "nested words"),
        (r"$\mathrm{A}\mathbf{B}\mathbb{R}\mathcal{O}\text{ x}$", "ABRO x"),
        (r"up to 1.28$\times$ faster, 3\times more", "up to 1.28× faster, 3× more"),
        (r"$\sim$5 and $\approx$ 3, $a \leq b \le c$, $x \geq y \ge z$, $\pm 1$", "~5 and ≈ 3, a ≤ b ≤ c, x ≥ y ≥ z, ± 1"),
        (r"$A \rightarrow B \to C$", "A → B → C"),
        (r"$\alpha$, $\beta$-VAE, $\Omega(n)$", "α, β-VAE, Ω(n)"),
        (r"99\% \& R\_1", "99% & R_1"),
        ("a~b", "a b"),
        ("2020--2024 and wait---now", "2020–2024 and wait—now"),
        (r"CO$_2$ and $10^{5}$ and $n^2$", "CO2 and 10^5 and n^2"),
        (r"$\mathcal{O}(\sqrt{T/n})$", "O(√(T/n))"),
        (r"as shown~\cite{smith2020,doe} and in \ref{fig:1}\footnote{a note}.", "as shown and in."),
        (r"code at \url{https://x.org/a_b}", "code at https://x.org/a_b"),
        (r"\unknownmacro{kept} text", "kept text"),
        (r"We present \ours, and \ours{} wins.", "We present our method, and our method wins."),
        (r"\newcommand{\method}{FooNet} We propose \method, a net.", "We propose FooNet, a net."),
        (r"$\mu$-F1$\,{=}\,0.651$", "μ-F1 = 0.651"),
        ("  lots \n of\t\tspace  ", "lots of space"),
        (r"na\"ive caf\'e \c{c}a", "naïve café ça"),
        ("*PERception Agent* (**PERIA**)", "PERception Agent (PERIA)"),
        ("costs $5 per run", "costs $5 per run"),
        (r"\textbf{unbalanced {brace", "unbalanced brace"),
        (r"}} stray $ \end{x}", "stray $"),
    ],
)
def test_clean_latex(raw, clean):
    assert clean_latex(raw) == clean


@given(st.text(max_size=400))
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_clean_latex_and_naming_never_raise(text):
    clean = clean_latex(text)
    assert isinstance(clean, str) and "\n" not in clean
    name = derive_name(clean)
    assert name.strip() and derive_title(clean, name).strip()
    assert derive_name(clean, text[:50]).strip()
    assert all(a in clean for a in defined_acronyms(clean))


# ---------------------------------------------------------------- naming


@pytest.mark.parametrize(
    ("abstract", "title", "name"),
    [
        ("We study pixels.", "PixelDiT: Pixel Diffusion Transformers", "PixelDiT"),
        ("We study pixels.", r"Phased LSTM: Accelerating Recurrent Network Training", "Phased LSTM"),
        ("Graphs are everywhere. We propose GraphX, a model.", "Learning on Graphs with GraphX", "GraphX"),
        ("Graphs are everywhere. We propose GraphX, a model.", "Learning on Graphs", "Learning on Graphs"),
        ("In this paper we introduce a new framework called DeepFoo for bar.", None, "DeepFoo"),
        ("This paper presents Smooth Sparse Coding (SSC), a method for images.", None, "Smooth Sparse Coding (SSC)"),
        ("We propose the evolving connectivity (EC) framework, an inference-only method.", None,
         "Evolving connectivity (EC)"),
        ("", None, "Untitled paper"),
    ],
)
def test_derive_name(abstract, title, name):
    assert derive_name(clean_latex(abstract), title) == name


def test_defined_acronyms_pair_each_with_its_long_form():
    text = ("Predictive Coding (PC) is an account of learning. Spiking Neural Networks (SNNs) are efficient. "
            "Backpropagation (BP) is the baseline. We use a new model (NEW) here.")
    assert defined_acronyms(text) == {"PC": "Predictive Coding", "SNN": "Spiking Neural Networks"}


def test_derive_title_falls_back_to_name_and_first_clause():
    text = "Graphs are everywhere in science, and hard to learn. We study them."
    assert derive_title(text, "Graph learning") == "Graph learning: Graphs are everywhere in science"
    assert derive_title("", "X") == "X"


@pytest.mark.skipif(not SHARED_CORPUS.exists(), reason="shared NeurIPS corpus not present")
def test_titled_records_take_their_name_from_the_title(tmp_path):
    with SHARED_CORPUS.open(encoding="utf-8") as f:
        lines = [next(f) for _ in range(300)]
    path = tmp_path / "sample.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    result = parse_file(path)
    assert len(result.papers) + len(result.rejected) == 300 and len(result.papers) >= 295
    for paper in result.papers:
        assert "\\" not in paper.name and "$" not in paper.title and paper.name
        assert paper.venue == "NeurIPS" and paper.authors and paper.paper_id.startswith("nips")
        head = paper.title.split(": ")[0]
        if ": " in paper.title and len(head.split()) <= 3:
            assert paper.name == head


# ---------------------------------------------------------------- JSONL / JSON / CSV


def _record(i: int, **extra) -> dict:
    return {"id": f"good-{i}", "abstract": SEED_ABSTRACTS[i], **extra}


def test_jsonl_keeps_good_records_and_reports_bad_lines(tmp_path):
    lines = [
        json.dumps(_record(0, title="PipeFSDP: Fast FSDP", authors=["A. One", "B. Two"], year=2025, venue="ICML")),
        "{broken json",
        json.dumps({"title": "no abstract"}),
        "",
        json.dumps(_record(1, authors=7)),
        json.dumps(_record(2, year="soon")),
        "[1, 2]",
        json.dumps({"abstract": SEED_ABSTRACTS[3], "year": "2024", "authors": "X Y; Z W", "url": "http://u"}),
        json.dumps({"abstract": "   "}),
    ]
    path = tmp_path / "batch.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = parse_file(path)
    first, second = result.papers
    assert (first.paper_id, first.name, first.title) == ("good-0", "PipeFSDP", "PipeFSDP: Fast FSDP")
    assert first.authors == ("A. One", "B. Two") and (first.year, first.venue) == (2025, "ICML")
    assert second.paper_id.startswith("p-") and second.year == 2024 and second.authors == ("X Y", "Z W")
    assert second.url == "http://u" and second.source == "batch.jsonl"
    assert [first.ordinal, second.ordinal] == [0, 6]
    assert [e.line for e in result.rejected] == [2, 3, 5, 6, 7, 9]
    reasons = [e.reason for e in result.rejected]
    assert reasons[0].startswith("invalid JSON") and "abstract" in reasons[1] and "authors" in reasons[2]
    assert "year" in reasons[3] and "JSON object" in reasons[4] and "abstract" in reasons[5]
    assert all(isinstance(e, IngestError) and e.path == str(path) for e in result.rejected)
    assert str(result.rejected[0]).startswith(f"{path}:2: ")


def test_json_list_reports_record_numbers(tmp_path):
    records = [_record(0), "not a record", {"title": "T"}, _record(1, id=42), _record(0, id="other")]
    path = tmp_path / "list.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    result = parse_file(path)
    assert [p.paper_id for p in result.papers] == ["good-0", "42"]
    assert [e.line for e in result.rejected] == [2, 3, 5]
    assert [e.reason.split(":")[0] for e in result.rejected] == ["record 2", "record 3", "record 5"]
    assert result.rejected[2].reason == "record 5: duplicate of record 1"


def test_json_papers_object_and_broken_json(tmp_path):
    wrapped = parse_json(json.dumps({"papers": [_record(4)]}), tmp_path / "w.json")
    assert [p.name for p in wrapped.papers] == ["PhysElite"] and not wrapped.rejected
    broken = parse_json('[\n{"abstract": "x"},\n oops]', tmp_path / "b.json")
    assert broken.papers == [] and broken.rejected[0].line == 3 and "invalid JSON" in broken.rejected[0].reason
    shaped = parse_json("42", "n.json")
    assert "expected a JSON list" in shaped.rejected[0].reason


def test_csv_with_embedded_newlines_and_bad_rows(tmp_path):
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["id", "Title", "abstract", "authors", "year"])
    writer.writerow(["c1", "", SEED_ABSTRACTS[5].replace(". ", ".\n", 2), "Ann Lee; Bo Li", "2023"])
    writer.writerow(["c2", "t", "", "", ""])
    writer.writerow(["c3", "t", SEED_ABSTRACTS[6], "", "20x3"])
    writer.writerow(["c4", "t", SEED_ABSTRACTS[7], "", "", "extra"])
    writer.writerow(["c5", "PAF: Phase-Adaptive Fusion", SEED_ABSTRACTS[7], "", "2026"])
    path = tmp_path / "table.csv"
    path.write_text(buffer.getvalue(), encoding="utf-8")
    result = parse_file(path)
    assert [p.paper_id for p in result.papers] == ["c1", "c5"]
    c1, c5 = result.papers
    assert c1.name == "PhysDNet" and c1.authors == ("Ann Lee", "Bo Li") and c1.year == 2023
    assert "\n" in c1.abstract and c5.name == "PAF" and c5.ordinal == 4
    assert [e.line for e in result.rejected] == [5, 6, 7]
    assert "year" in result.rejected[1].reason and "fields" in result.rejected[2].reason


def test_tsv_and_missing_abstract_column(tmp_path):
    tsv = tmp_path / "t.tsv"
    tsv.write_text("abstract\ttitle\n" + SEED_ABSTRACTS[8] + "\tPerturbReason: a benchmark\n", encoding="utf-8")
    assert [p.name for p in parse_file(tsv).papers] == ["PerturbReason"]
    result = parse_csv("title,summary\nA,B\n", tmp_path / "x.csv")
    assert result.papers == [] and len(result.rejected) == 1
    assert "no 'abstract' column" in result.rejected[0].reason and result.rejected[0].line is None


# ---------------------------------------------------------------- files and encodings


def test_latin1_utf16_and_crlf_files(tmp_path):
    abstract = "We propose CaféNet, a network for résumé parsing. It works well on naïve data."
    latin = tmp_path / "latin.txt"
    latin.write_bytes(("Venue 2024\n\n" + abstract + "\n").encode("latin-1"))
    utf16 = tmp_path / "wide.txt"
    utf16.write_bytes(("Venue 2024\r\n\r\n" + abstract + "\r\n").encode("utf-16"))
    crlf = tmp_path / "crlf.jsonl"
    crlf.write_bytes(b"\xef\xbb\xbf" + (json.dumps({"abstract": abstract}) + "\r\n{bad\r\n").encode("utf-8"))
    cr = tmp_path / "old-mac.txt"
    cr.write_bytes(("Venue 2024\r\r" + abstract + "\r").encode("utf-8"))
    for path in (latin, utf16, cr):
        result = parse_file(path)
        assert not result.rejected, path
        (paper,) = result.papers
        assert paper.text == abstract and paper.name == "CaféNet" and (paper.venue, paper.year) == ("Venue", 2024)
    result = parse_file(crlf)
    assert result.papers[0].text == abstract and [e.line for e in result.rejected] == [2]


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("paper.pdf", b"%PDF-1.7", "unsupported file type '.pdf'"),
        ("README", b"text", "unsupported file type"),
        ("blob.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary file"),
        ("empty.jsonl", b"", "empty file"),
        ("blank.csv", b"  \n\n ", "empty file"),
        ("header-only.txt", b"NeurIPS 2026 Papers\n", "no abstracts found"),
        ("empty-list.json", b"[]", "no records found"),
    ],
)
def test_whole_file_problems_are_one_error_naming_the_file(tmp_path, name, content, reason):
    path = tmp_path / name
    path.write_bytes(content)
    result = parse_file(path)
    assert result.papers == [] and len(result.rejected) == 1
    assert reason in result.rejected[0].reason and result.rejected[0].path == str(path)


def test_missing_file_is_an_error_not_an_exception(tmp_path):
    result = parse_file(tmp_path / "nope.jsonl")
    assert result.papers == [] and "cannot read file" in result.rejected[0].reason


# ---------------------------------------------------------------- properties: garbage never hides good records

good_indexes = st.lists(st.integers(0, len(GOOD) - 1), min_size=1, max_size=3, unique=True)
garbage_text = st.one_of(
    st.text(max_size=120),
    st.sampled_from(["$$", "{{{", "\\textbf{", "}}", "\\ours", "\x00\x01", "é" * 30, "\\" * 7, "$\\alpha$"]),
)


def _good(i: int) -> dict:
    return {"id": f"good-{i}", "abstract": GOOD[i], "year": 2024}


def _interleave(draw, good: list, garbage) -> list[tuple[bool, object]]:
    items = [(True, g) for g in good] + [(False, draw(garbage)) for _ in range(draw(st.integers(0, 4)))]
    return draw(st.permutations(items))


def _assert_survive(result: ParseResult, good: list[int]) -> None:
    assert isinstance(result, ParseResult)
    texts = {" ".join(p.abstract.split()) for p in result.papers}
    for i in good:
        assert " ".join(GOOD[i].split()) in texts
    assert all(isinstance(e, IngestError) for e in result.rejected)


@FAST
@given(st.data(), good_indexes)
def test_seed_text_garbage_never_hides_good_abstracts(data, good):
    garbage = garbage_text.map(lambda s: s.replace("\r", "").replace("\n", " "))
    items = _interleave(data.draw, good, garbage)
    text = "\n\n".join(GOOD[v] if ok else v for ok, v in items)
    _assert_survive(parse_seed_text(text, "fuzz.txt"), good)


@FAST
@given(st.data(), good_indexes)
def test_jsonl_garbage_never_hides_good_records(data, good):
    json_garbage = st.dictionaries(st.sampled_from(["abstract", "title", "year", "authors", "id", "x"]),
                                   st.one_of(st.none(), st.integers(), st.text(max_size=30), st.lists(st.integers())))
    garbage = st.one_of(garbage_text.map(lambda s: s.replace("\r", " ").replace("\n", " ")), json_garbage.map(json.dumps))
    items = _interleave(data.draw, good, garbage)
    text = "\n".join(json.dumps(_good(v)) if ok else v for ok, v in items)
    _assert_survive(parse_jsonl(text, "fuzz.jsonl"), good)


@FAST
@given(st.data(), good_indexes)
def test_json_garbage_never_hides_good_records(data, good):
    scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=10))
    keys = st.sampled_from(["abstract", "title", "year", "authors", "id", "venue", "url", "x"])
    values = st.one_of(scalars, st.lists(scalars, max_size=3), st.dictionaries(keys, scalars, max_size=4))
    items = _interleave(data.draw, good, values)
    records = [_good(v) if ok else v for ok, v in items]
    _assert_survive(parse_json(json.dumps(records), "fuzz.json"), good)


@FAST
@given(st.data(), good_indexes)
def test_csv_garbage_never_hides_good_rows(data, good):
    garbage = st.lists(garbage_text, min_size=0, max_size=6)
    items = _interleave(data.draw, good, garbage)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["id", "abstract", "year", "authors"])
    for ok, v in items:
        writer.writerow([f"good-{v}", GOOD[v], "2024", "A; B"] if ok else v)
    _assert_survive(parse_csv(buffer.getvalue(), "fuzz.csv"), good)


@FAST
@given(st.binary(max_size=300), st.sampled_from([".txt", ".md", ".jsonl", ".json", ".csv", ".tsv", ".bin", ""]))
def test_parse_bytes_never_raises(data, suffix):
    result = parse_bytes(data, f"upload{suffix}")
    assert isinstance(result, ParseResult) and (result.papers or result.rejected)
