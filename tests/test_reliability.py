"""Nothing lost: hostile corpus files end to end, parser properties, store integrity (doctor, reindex)."""

from __future__ import annotations

import codecs
import csv
import io
import json
import time
import zlib
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from llama_index.core.base.embeddings.base import BaseEmbedding

from rag import PaperChat
from store.chroma import PaperStore, open_client
from store.doctor import check_store, reindex_store
from store.errors import EmbedderMismatch
from store.ingest import ingest_files
from store.parse import (
    MAX_ABSTRACT_CHARS,
    SUPPORTED_SUFFIXES,
    decode_bytes,
    parse_bytes,
    parse_csv,
    parse_json,
    parse_jsonl,
    parse_seed_text,
    parse_tsv,
)
from ui.cli import main as cli

TOPICS = [
    "graph neural networks for molecule property prediction", "sparse attention for long document retrieval",
    "diffusion models for protein structure design", "reinforcement learning for warehouse robot routing",
    "federated learning under label noise in hospitals", "speech recognition for low resource languages",
    "contrastive pretraining of tabular data encoders", "causal discovery from irregular time series",
    "neural radiance fields for outdoor city scenes", "quantised transformers on microcontrollers",
    "active learning for satellite crop mapping", "symbolic regression with transformer priors",
    "uncertainty calibration for medical image segmentation", "curriculum learning for theorem proving agents",
    "privacy auditing of large language model fine tuning", "optimal transport for domain adaptation in audio",
    "weather forecasting with graph transformers", "code generation with execution feedback loops",
    "multi agent negotiation with language models", "event camera optical flow estimation",
]


def abstract(i: int) -> str:
    """A distinct one-sentence abstract (one chunk: keeps embedding time small)."""
    return f"We study {TOPICS[i % len(TOPICS)]} and report consistent gains on benchmark suite number {i}."


def texts(chat: PaperChat) -> set[str]:
    return {" ".join(p.abstract.split()) for p in chat.papers()}


@pytest.fixture(scope="module")
def corpus_chat(tmp_path_factory):
    """One store that every hostile file is ingested into, in turn (each file brings new good records)."""
    return PaperChat(store_dir=tmp_path_factory.mktemp("hostile-store"), store_bundled_corpus=False)


def ingest(chat: PaperChat, path: Path, data: bytes):
    path.write_bytes(data)
    report = chat.ingest([path])
    health = check_store(chat.settings.store, chat.embedder)
    assert health.ok, [f.message for f in health.findings]  # never half-written
    return report


def reasons(report) -> list[tuple[int | None, str]]:
    return [(e.line, e.reason) for e in report.rejected]


# ---------------------------------------------------------------- hostile files, end to end


def test_empty_binary_and_unknown_files_are_named_and_skipped(corpus_chat, tmp_path):
    cases = {
        "empty.txt": b"",
        "blank.jsonl": b"   \n\t\n",
        "blob.txt": bytes(range(256)) * 8,
        "image.json": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(200),
        "paper.pdf": b"%PDF-1.4 " + abstract(0).encode(),
        "noext": abstract(0).encode(),
    }
    expected = {"empty.txt": "empty file", "blank.jsonl": "empty file", "blob.txt": "binary file",
                "image.json": "binary file", "paper.pdf": "unsupported file type '.pdf'",
                "noext": "unsupported file type '(no extension)'"}
    for name, data in cases.items():
        report = ingest(corpus_chat, tmp_path / name, data)
        assert report.added == 0
        assert [(e.path, e.line) for e in report.rejected] == [(str(tmp_path / name), None)]
        assert expected[name] in report.rejected[0].reason, report.rejected[0]


def test_latin1_utf16_and_mixed_newlines_keep_every_good_record(corpus_chat, tmp_path):
    good = [abstract(1) + " Café naïveté.", abstract(2)]
    latin1 = ("Workshop 2024 Papers\n\n" + good[0] + "\n\n$x$\n\n" + good[1] + "\n").encode("latin-1")
    report = ingest(corpus_chat, tmp_path / "latin1.txt", latin1)
    assert report.added == 2 and reasons(report) == [(5, "abstract has fewer than 20 letters once LaTeX/markup is removed")]
    assert {good[0], good[1]} <= texts(corpus_chat)  # é decoded, not mojibake

    good = [abstract(3) + " Über straße.", abstract(4)]
    lines = [json.dumps({"abstract": good[0]}, ensure_ascii=False), "{broken", json.dumps({"abstract": good[1]})]
    utf16 = codecs.BOM_UTF16_LE + "\r\n".join(lines).encode("utf-16-le")
    report = ingest(corpus_chat, tmp_path / "utf16.jsonl", utf16)
    assert report.added == 2 and [r[0] for r in reasons(report)] == [2]
    assert "invalid JSON" in report.rejected[0].reason and set(good) <= texts(corpus_chat)

    good = [abstract(5), abstract(6), abstract(7)]
    mixed = (json.dumps({"abstract": good[0]}) + "\r\n" + "[1, 2]\r" + json.dumps({"abstract": good[1]}) + "\n\n"
             + '{"abstract": 7}\r\n' + json.dumps({"abstract": good[2]}) + "\r").encode()
    report = ingest(corpus_chat, tmp_path / "mixed.jsonl", mixed)
    assert report.added == 3 and reasons(report) == [
        (2, "expected a JSON object, got list"), (5, "field 'abstract' must be text, got int")]


def test_five_megabyte_abstract_is_rejected_quickly_and_neighbours_kept(corpus_chat, tmp_path):
    huge = "This sentence belongs to an abstract that never ends about scaling laws. " * 70_000
    assert len(huge) > 5_000_000
    good = [abstract(8), abstract(9)]
    start = time.monotonic()
    report = ingest(corpus_chat, tmp_path / "huge.txt", f"{good[0]}\n\n{huge}\n\n{good[1]}\n".encode())
    assert time.monotonic() - start < 60  # parsing + embedding the whole thing would take many minutes
    assert report.added == 2 and len(report.rejected) == 1
    error = report.rejected[0]
    assert error.line == 3 and f"over the {MAX_ABSTRACT_CHARS:,} limit" in error.reason
    assert set(good) <= texts(corpus_chat)

    good = [abstract(0) + " In JSONL.", abstract(1) + " In CSV."]
    report = ingest(corpus_chat, tmp_path / "huge.jsonl", "\n".join(json.dumps({"abstract": a}) for a in
                                                                   (good[0], huge)).encode())
    assert report.added == 1 and reasons(report) == [(2, f"abstract is {len(huge):,} characters, over the "
                                                         f"{MAX_ABSTRACT_CHARS:,} limit (a whole paper?)")]
    report = ingest(corpus_chat, tmp_path / "huge.csv", f'abstract\n"{huge}"\n"{good[1]}"\n'.encode())
    assert report.added == 1 and report.rejected[0].line == 2 and "field larger than field limit" in report.rejected[0].reason


def test_thousands_of_duplicates_store_one_paper(corpus_chat, tmp_path):
    good = [abstract(10), abstract(11)]
    lines = [json.dumps({"abstract": good[0]})] * 3000 + [json.dumps({"abstract": good[1]})]
    report = ingest(corpus_chat, tmp_path / "dups.jsonl", "\n".join(lines).encode())
    assert report.added == 2 and len(report.rejected) == 2999
    assert report.rejected[0].line == 2 and report.rejected[-1].line == 3000
    assert all(e.reason == "duplicate of line 1" for e in report.rejected)
    again = corpus_chat.ingest([tmp_path / "dups.jsonl"])  # idempotent
    assert (again.added, again.updated, again.unchanged) == (0, 0, 2)


def test_json_of_the_wrong_shape(corpus_chat, tmp_path):
    for name, value, why in [
        ("dict.json", {"items": [{"abstract": abstract(0)}]}, 'expected a JSON list of records or {"papers": [...]}'),
        ("scalar.json", 42, "expected a JSON list"),
        ("empty.json", [], "no records found"),
    ]:
        report = ingest(corpus_chat, tmp_path / name, json.dumps(value).encode())
        assert report.added == 0 and report.rejected[0].line is None and why in report.rejected[0].reason
    report = ingest(corpus_chat, tmp_path / "truncated.json", b'[{"abstract": "cut off')
    assert report.rejected[0].line == 1 and "invalid JSON" in report.rejected[0].reason

    good = [abstract(12), abstract(13)]
    value = {"papers": [{"abstract": good[0], "year": "2024"}, "text", {"title": "no abstract"},
                        {"abstract": good[1], "authors": ["A. Author"]}, {"abstract": "x", "year": "soon"}]}
    report = ingest(corpus_chat, tmp_path / "mixed.json", json.dumps(value).encode())
    assert report.added == 2 and [e.line for e in report.rejected] == [2, 3, 5]
    assert report.rejected[0].reason == "record 2: expected a JSON object, got str"
    assert set(good) <= texts(corpus_chat)


def test_csv_with_missing_extra_columns_and_embedded_newlines(corpus_chat, tmp_path):
    good = [abstract(14), abstract(15).replace(" and ", "\nand "), abstract(16)]
    rows = ('title,abstract,year\r\n'
            f'First,"{good[0]}",2024\r\n'
            'Too many,"Some abstract text that is long enough to pass the check.",2024,extra\r\n'
            f'"Spans, lines","{good[1]}",2023\n'
            'Only a title\n'
            f'Third,"{good[2]}",\n')
    report = ingest(corpus_chat, tmp_path / "table.csv", rows.encode())
    assert report.added == 3
    assert reasons(report) == [(3, "row has 4 fields but the header has 3"), (6, "missing or empty 'abstract'")]
    assert {" ".join(g.split()) for g in good} <= texts(corpus_chat)

    report = ingest(corpus_chat, tmp_path / "noabstract.csv", b"title,summary\nA,B\n")
    assert report.added == 0 and "no 'abstract' column" in report.rejected[0].reason


def test_latex_only_and_whitespace_only_abstracts(corpus_chat, tmp_path):
    good = abstract(17)
    lines = [json.dumps({"abstract": "$\\mathbb{E}[x] = \\int_0^1 f(t)\\,dt$ \\cite{ref} \\ref{eq:1}"}),
             json.dumps({"abstract": " \t\n\u00a0 "}), json.dumps({"abstract": good}),
             json.dumps({"abstract": "\\begin{equation} a^2 + b^2 = c^2 \\end{equation}"})]
    report = ingest(corpus_chat, tmp_path / "latex.jsonl", "\n".join(lines).encode())
    assert report.added == 1 and good in texts(corpus_chat)
    assert [e.line for e in report.rejected] == [1, 2, 4]
    assert "LaTeX" in report.rejected[0].reason and "empty" in report.rejected[1].reason


def test_cli_names_file_line_and_reason(corpus_chat, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"abstract": abstract(18)}) + "\n{oops\n")
    result = CliRunner().invoke(cli, ["--store-dir", str(corpus_chat.settings.store.dir), "ingest", str(bad)],
                                env={"PAPERCHAT_STORE__BUNDLED_CORPUS": "false"})
    assert result.exit_code == 0, result.output
    assert f"rejected {bad}:2: invalid JSON" in result.output and "1 added" in result.output


# ---------------------------------------------------------------- parser properties (hypothesis)

PROPERTY = settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck))
RECOVERY = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
WORDS = ("model data learning graph neural robust sparse training benchmark attention protein "
         "naïve café über señal kernel policy agent vision language tokens").split()
good_abstracts = st.lists(st.sampled_from(WORDS), min_size=8, max_size=20).map(lambda w: " ".join(w).capitalize() + ".")
unique_goods = st.lists(good_abstracts, min_size=0, max_size=6, unique_by=lambda a: " ".join(a.split()))
PATH = "corpus/input"


def check_result(result, path: str, n_lines: int | None = None) -> None:
    """Invariants every parse result keeps, whatever the input."""
    ids = [p.paper_id for p in result.papers]
    assert len(ids) == len(set(ids))
    for paper in result.papers:
        assert sum(map(str.isalpha, paper.text)) >= 20 and len(paper.abstract) <= MAX_ABSTRACT_CHARS
        assert paper.name and paper.title
    for error in result.rejected:
        assert error.path == path and error.reason
        if error.line is not None and n_lines is not None:
            assert 1 <= error.line <= n_lines


# Pieces of every format (cheap to draw: generating whole abstracts costs more than parsing them).
FRAGMENTS = ['{', '}', '[', ']', '"abstract"', '"papers"', '"title"', ':', ',', '"', '\t', '\n', '\n\n', '\r\n', '\r',
             '\\', 'null', '1', '2024', '$\\alpha$', '\\cite{x}', '\ufeff', '\x00', 'abstract', '<b>', 'é',
             abstract(0), abstract(1), json.dumps({"abstract": abstract(2)}), json.dumps(abstract(3))]
junk_text = st.one_of(
    st.text(),
    st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=4)), max_size=25).map("".join),
)


@PROPERTY
@given(junk_text)
def test_seed_text_parser_never_raises(text):
    check_result(parse_seed_text(text, PATH), PATH, text.count("\n") + 1)


@PROPERTY
@given(junk_text)
def test_jsonl_parser_never_raises(text):
    check_result(parse_jsonl(text, PATH), PATH, text.count("\n") + 1)


@PROPERTY
@given(junk_text)
def test_json_parser_never_raises(text):
    check_result(parse_json(text, PATH), PATH)


@PROPERTY
@given(junk_text)
def test_csv_parser_never_raises(text):
    check_result(parse_csv("title,abstract\n" + text, PATH), PATH, text.count("\n") + text.count("\r") + 2)


@PROPERTY
@given(junk_text)
def test_tsv_parser_never_raises(text):
    check_result(parse_tsv("abstract\tyear\n" + text, PATH), PATH, text.count("\n") + text.count("\r") + 2)


@PROPERTY
@given(st.binary(max_size=2000), st.sampled_from(SUPPORTED_SUFFIXES + (".pdf", "", ".JSONL")))
def test_parse_bytes_never_raises(data, suffix):
    path = PATH + suffix
    result = parse_bytes(data, path)
    check_result(result, path)
    if not result.papers:
        assert result.rejected  # nothing ingested always says why


@PROPERTY
@given(st.text(), st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "utf-32"]),
       st.sampled_from(["\n", "\r\n", "\r"]))
def test_decode_round_trips_any_encoding_and_newline(text, encoding, newline):
    text = text.replace("\r", "").lstrip("\ufeff\x00")  # a leading BOM is a BOM; NUL+BOM is ambiguous
    assert decode_bytes(text.replace("\n", newline).encode(encoding)) == text


encodings = st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "latin-1"])
newlines = st.sampled_from(["\n", "\r\n", "\r"])


@RECOVERY
@given(st.data(), unique_goods, encodings, newlines)
def test_jsonl_keeps_every_good_line_and_names_every_bad_one(data, goods, encoding, newline):
    bad_lines = ['{"abstract": ', "[1, 2]", "42", '{"title": "x"}', '{"abstract": 5}', '{"abstract": "  "}',
                 '{"abstract": "$\\\\alpha$"}', "# comment"]
    items = [("good", g) for g in goods] + [("bad", b) for b in data.draw(st.lists(st.sampled_from(bad_lines), max_size=5))]
    items = data.draw(st.permutations(items))
    assume(items)
    lines = [json.dumps({"abstract": v}, ensure_ascii=False) if kind == "good" else v for kind, v in items]
    result = parse_bytes(newline.join(lines).encode(encoding), PATH + ".jsonl")
    assert [p.abstract for p in result.papers] == [v for kind, v in items if kind == "good"]
    assert [e.line for e in result.rejected] == [i for i, (kind, _) in enumerate(items, 1) if kind == "bad"]


@RECOVERY
@given(st.data(), unique_goods, encodings, newlines)
def test_seed_text_keeps_every_good_paragraph(data, goods, encoding, newline):
    bad = data.draw(st.lists(st.sampled_from(["$x^2$", "Too short.", "\\cite{a} \\ref{b}", "12 34 56 78"]), max_size=4))
    items = data.draw(st.permutations([("good", g) for g in goods] + [("bad", b) for b in bad]))
    assume(items)
    text = "Proceedings of Things 2024\n\n" + "\n\n".join(v for _, v in items)
    result = parse_bytes(text.replace("\n", newline).encode(encoding), PATH + ".txt")
    assert [p.abstract for p in result.papers] == [v for kind, v in items if kind == "good"]
    assert [e.line for e in result.rejected] == [3 + 2 * i for i, (kind, _) in enumerate(items) if kind == "bad"]
    assert all(p.year == 2024 for p in result.papers)


@RECOVERY
@given(st.data(), unique_goods, st.sampled_from([",", "\t"]), encodings)
def test_csv_keeps_every_good_row_with_embedded_newlines(data, goods, delimiter, encoding):
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\r\n")
    writer.writerow(["title", "abstract", "year"])
    expected_bad, expected_good = [], []
    rows = [("good", g) for g in goods] + [("bad", b) for b in data.draw(st.lists(st.sampled_from(["extra", "short"]), max_size=4))]
    assume(rows)
    for kind, value in data.draw(st.permutations(rows)):
        line = out.getvalue().count("\n") + 1  # where this row starts
        if kind == "good":
            value = value.replace(" ", data.draw(st.sampled_from([" ", "\n", ", ", '" '])), 1)
            cells = ["T", value, "2020"]
            expected_good.append(value)
        else:
            cells = ["T", "An abstract with plenty of letters in it.", "2020", "x"] if value == "extra" else ["T"]
            expected_bad.append(line)
        writer.writerow(cells)
    result = parse_bytes(out.getvalue().encode(encoding), PATH + (".csv" if delimiter == "," else ".tsv"))
    assert [p.abstract for p in result.papers] == expected_good
    assert [e.line for e in result.rejected] == expected_bad


@RECOVERY
@given(st.data(), unique_goods)
def test_json_keeps_every_good_record(data, goods):
    bad = data.draw(st.lists(st.sampled_from([1, "s", None, [], {"title": "t"}, {"abstract": ["x"]}]), max_size=4))
    items = data.draw(st.permutations([("good", {"abstract": g}) for g in goods] + [("bad", b) for b in bad]))
    value = [v for _, v in items]
    wrapped = data.draw(st.booleans())
    result = parse_json(json.dumps({"papers": value} if wrapped else value), PATH)
    if not items:
        assert result.rejected and not result.papers
        return
    assert [p.abstract for p in result.papers] == [v["abstract"] for kind, v in items if kind == "good"]
    assert [e.line for e in result.rejected] == [i for i, (kind, _) in enumerate(items, 1) if kind == "bad"]


# ---------------------------------------------------------------- store integrity


class HashEmbedding(BaseEmbedding):
    """A fast stand-in for "another embedding model": hashed bag of words, 64 dims."""

    def __init__(self, **kwargs):
        super().__init__(model_name="test-hash-64", **kwargs)

    def _vec(self, text: str) -> list[float]:
        v = np.zeros(64, dtype=np.float32)
        for word in text.lower().split():
            v[zlib.crc32(word.encode()) % 64] += 1.0
        return (v / max(np.linalg.norm(v), 1e-9)).tolist()

    def _get_text_embedding(self, text):
        return self._vec(text)

    def _get_query_embedding(self, query):
        return self._vec(query)

    async def _aget_query_embedding(self, query):
        return self._vec(query)


def small_corpus(path: Path, n: int = 5) -> Path:
    path.write_text("\n".join(json.dumps({"id": f"paper-{i}", "abstract": abstract(i) + " The method also transfers to three related tasks without any retraining."})
                              for i in range(n)))
    return path


@pytest.fixture
def hash_store(tmp_path):
    """A store built with HashEmbedding, i.e. not the configured MiniLM."""
    chat = PaperChat(store_dir=tmp_path / "store", store_bundled_corpus=False)
    embedder = HashEmbedding()
    store = PaperStore(open_client(chat.settings.store), chat.settings.store.collection, embedder.model_name, 64)
    ingest_files([small_corpus(tmp_path / "five.jsonl")], store, embedder)
    return chat.settings, store, embedder


def problems(report) -> dict[str, str]:
    return {f.check: f.message for f in report.findings if f.problem}


def test_doctor_finds_orphans_missing_and_partial_chunks_and_reindex_repairs(hash_store):
    settings, store, embedder = hash_store
    report = check_store(settings.store, embedder)
    assert report.ok and (report.papers, report.chunks) == (5, 10), report.findings
    store.chunks.upsert(ids=["ghost:0"], documents=["left by a killed run"], embeddings=[embedder._vec("x")],
                        metadatas=[{"paper_id": "ghost", "sentence": 0}])
    store.chunks.delete(ids=["paper-1:1"])
    store.chunks.delete(where={"paper_id": "paper-2"})
    report = check_store(settings.store, embedder)
    assert not report.ok and "1 chunk(s) belong to no registered paper: ghost:0" in problems(report)["orphans"]
    messages = " ".join(f.message for f in report.findings if f.problem)
    assert "1 registered paper(s) have no chunks: paper-2" in messages
    assert "paper-1 (1 chunks, 2 sentences)" in messages

    reindex_store(settings.store, embedder)
    report = check_store(settings.store, embedder)
    assert report.ok and (report.papers, report.chunks) == (5, 10), report.findings


def test_other_embedder_gives_clear_error_and_reindex_is_the_way_out(hash_store):
    settings, _, _ = hash_store
    store_dir = str(settings.store.dir)
    env = {"PAPERCHAT_STORE__BUNDLED_CORPUS": "false"}
    with pytest.raises(EmbedderMismatch, match="paperchat reindex"):
        PaperChat(settings).store
    runner = CliRunner()
    asked = runner.invoke(cli, ["--store-dir", store_dir, "ask", "What about graph neural networks?"], env=env)
    assert asked.exit_code == 1 and "test-hash-64 (64 dims)" in asked.output and "paperchat reindex" in asked.output
    assert "Traceback" not in asked.output
    listed = runner.invoke(cli, ["--store-dir", store_dir, "papers"], env=env)
    assert listed.exit_code == 1 and "paperchat reindex" in listed.output

    doctor = runner.invoke(cli, ["--store-dir", store_dir, "doctor"], env=env)
    assert doctor.exit_code == 1 and "PROBLEM [embedder]" in doctor.output

    rebuilt = runner.invoke(cli, ["--store-dir", store_dir, "reindex"], env=env)
    assert rebuilt.exit_code == 0 and "5 added" in rebuilt.output, rebuilt.output
    doctor = runner.invoke(cli, ["--store-dir", store_dir, "doctor", "--json"], env=env)
    assert doctor.exit_code == 0 and json.loads(doctor.stdout)["papers"] == 5, doctor.output
    asked = runner.invoke(cli, ["--store-dir", store_dir, "ask", "--json", "Which work studies graph neural networks for molecules?"], env=env)
    assert asked.exit_code == 0 and json.loads(asked.stdout)["citations"], asked.output


def test_reindex_killed_part_way_resumes_without_losing_papers(hash_store, monkeypatch):
    settings, _, embedder = hash_store
    import store.doctor as doctor

    def crash(*args, **kwargs):
        raise KeyboardInterrupt("killed after the old collections were dropped")

    monkeypatch.setattr(doctor, "ingest_papers", crash)
    with pytest.raises(KeyboardInterrupt):
        reindex_store(settings.store, embedder)
    assert (settings.store.dir / "papers-reindex.jsonl").exists()  # the registry copy survives
    monkeypatch.undo()
    report = reindex_store(settings.store, embedder)
    assert report.added == 5 and not (settings.store.dir / "papers-reindex.jsonl").exists()
    assert check_store(settings.store, embedder).ok


def test_doctor_checks_bm25_against_chroma(corpus_chat, tmp_path):
    ingest(corpus_chat, tmp_path / "one.jsonl", json.dumps({"abstract": abstract(19)}).encode())
    corpus_chat._reload()
    corpus_chat.retriever  # builds and saves BM25 for the current store state
    report = check_store(corpus_chat.settings.store, corpus_chat.embedder)
    bm25 = [f for f in report.findings if f.check == "bm25"]
    assert report.ok and bm25 and "agrees with Chroma" in bm25[0].message, report.findings
