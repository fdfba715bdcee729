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
    for metric in ("recall@1", "recall@5", "recall@10", "all-gold@5", "citation precision",
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


def test_eval_names_a_bad_question_file(seed_store_dir, tmp_path):
    from ui.cli import main

    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x"}\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["--store-dir", str(seed_store_dir), "eval", str(bad)])
    assert result.exit_code == 1
    assert "bad.jsonl:1" in result.output
