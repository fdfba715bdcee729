"""`paperchat eval` on a small question file prints the metrics (and the stock LlamaIndex baseline)."""

from __future__ import annotations

import json
import shutil

from click.testing import CliRunner

QUESTIONS = [
    {"id": "a", "kind": "lookup", "question": "What does PipeFSDP improve over TorchTitan?",
     "gold": ["000_2c065e5f55ea4de2.txt#0"]},
    {"id": "b", "kind": "comparison", "question": "How do PhysVista and PhyProbe differ in what they evaluate?",
     "gold": ["000_2c065e5f55ea4de2.txt#2", "000_2c065e5f55ea4de2.txt#6"]},
    {"id": "c", "kind": "offtopic", "question": "Who won the 2018 FIFA World Cup?", "gold": [], "refuse": True},
    {"id": "d", "kind": "not_stated", "question": "What license will the PhysElite dataset be released under?",
     "gold": ["000_2c065e5f55ea4de2.txt#4"], "not_stated": True},
]


def _run(seed_store_dir, tmp_path, *args):
    from ui.cli import main

    store = tmp_path / "store"
    shutil.copytree(seed_store_dir, store)
    questions = tmp_path / "questions.jsonl"
    questions.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS), encoding="utf-8")
    return CliRunner().invoke(main, ["--store-dir", str(store), "eval", str(questions), *args])


def test_eval_prints_the_metrics(seed_store_dir, tmp_path):
    result = _run(seed_store_dir, tmp_path, "--baseline")
    assert result.exit_code == 0, result.output
    out = result.output
    for metric in ("recall@1", "recall@5", "recall@10", "all-gold@5", "citation precision", "cited recall",
                   "refusal accuracy", "false refusals", "not-stated accuracy"):
        assert metric in out
    assert "Baseline (LlamaIndex" in out
    paperchat = out.split("Baseline")[0]
    assert "recall@5               1.000" in paperchat
    assert "refusal accuracy       1.000" in paperchat
    assert "citation precision     1.000" in paperchat
    for kind in ("lookup", "comparison", "offtopic", "not_stated"):
        assert f"\n  {kind}" in out


def test_eval_json_has_per_question_results(seed_store_dir, tmp_path):
    result = _run(seed_store_dir, tmp_path, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)["paperchat"]
    assert [r["id"] for r in report["results"]] == ["a", "b", "c", "d"]
    assert report["results"][2]["refused"] is True
    assert report["results"][3]["answer_kind"] == "not_stated"
    assert report["metrics"]["all-gold@5"] == 1.0
    assert report["metrics"]["cited recall"] == 1.0  # every gold paper of the answered questions is cited


def test_eval_names_a_bad_question_file(seed_store_dir, tmp_path):
    from ui.cli import main

    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x"}\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["--store-dir", str(seed_store_dir), "eval", str(bad)])
    assert result.exit_code == 1
    assert "bad.jsonl:1" in result.output


DISTRACTORS = [
    {"id": "dx-restore", "title": "DeblurFormer: All-in-One Image Restoration with Degradation Prompts",
     "abstract": "Image restoration recovers a clean image from a degraded one. We propose DeblurFormer, a single "
                 "transformer that removes blur, noise and rain from images, guided by learned degradation prompts. "
                 "DeblurFormer sets a new state of the art on image deblurring, denoising and deraining benchmarks."},
    {"id": "dx-fedpriv", "title": "Private Federated Averaging with Client-Level Differential Privacy",
     "abstract": "Federated learning trains a shared model on data held by many clients. We combine federated "
                 "averaging with client-level differential privacy, adding calibrated Gaussian noise to clipped "
                 "client updates, and prove privacy guarantees while keeping accuracy close to non-private training."},
]
OPEN_QUESTIONS = [
    {"id": "w", "kind": "which", "question": "Which papers are about image restoration?", "open": True,
     "gold": ["000_2c065e5f55ea4de2.txt#1", "000_2c065e5f55ea4de2.txt#5"]},
    {"id": "o", "kind": "offtopic", "question": "Which paper combines federated learning with differential privacy?",
     "gold": [], "refuse": True, "open": True},
    {"id": "f", "kind": "offtopic", "question": "Who won the 2018 FIFA World Cup?", "gold": [], "refuse": True},
    # Judged papers are those of the files some gold names: this question brings in the second seed file.
    {"id": "v", "kind": "lookup", "question": "What does VI-Bench evaluate?", "gold": ["004_6d684e3fc3d0bfef.txt#2"]},
]


def test_open_questions_are_scored_on_judged_papers_only(seed_store_dir, tmp_path):
    """Distractors nobody labelled may rightly answer an open question: they drop out of its scores."""
    from rag import PaperChat
    from rag.evaluate import evaluate, load_questions

    questions_file = tmp_path / "open.jsonl"
    questions_file.write_text("".join(json.dumps(q) + "\n" for q in OPEN_QUESTIONS), encoding="utf-8")
    questions = load_questions(questions_file)
    shutil.copytree(seed_store_dir, tmp_path / "store")
    chat = PaperChat(store_dir=tmp_path / "store")

    seeds_only = {r.question.id: r for r in evaluate(chat, questions).results}
    assert seeds_only["o"].scored_refusal and seeds_only["o"].refused  # seeds alone: a topic to refuse

    distractors = tmp_path / "distractors.jsonl"
    distractors.write_text("".join(json.dumps(d) + "\n" for d in DISTRACTORS), encoding="utf-8")
    assert chat.ingest([distractors]).added == 2
    report = evaluate(chat, questions)
    results = {r.question.id: r for r in report.results}
    which = results["w"]
    assert which.unjudged >= 1  # DeblurFormer was listed, and is not held against the answer
    assert all(key.startswith("000_") or key.startswith("004_") for key in which.ranking + which.cited)
    assert not results["o"].scored_refusal and results["f"].scored_refusal
    metrics = report.metrics()
    assert metrics["refusal accuracy"] == 1.0  # FIFA only: the federated question now has a real answer
    assert metrics["citation precision"] == 1.0
    assert "open refusal questions unscored" in report.format()
