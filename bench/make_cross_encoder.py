"""Build BERT cross-encoder ONNX models for omegad's rerank stage (needs torch; the daemon does not).

The daemon scores (query, passage) pairs with an ONNX Runtime session and the ``tokenizers``
library; torch is only needed here, to build and export models. Subcommands:

``tiny --out tests/data/tiny_reranker``
    The small committed TEST model: ``BertForSequenceClassification`` with 2 layers, hidden
    64, 4 heads, intermediate 256 and the bert-base-uncased vocabulary (30522 word pieces),
    ``torch.manual_seed(1234)``, trained for a few hundred CPU steps as a toy relevance model
    on ``bench/data/retrieval/dev`` (a query with one of its relevant memories -> 1, with a
    random other memory -> 0), so that its logits spread widely and a 1e-4 parity test means
    something. Writes ``model.onnx`` (fp32, opset 17, weights inside the one file),
    ``tokenizer.json``, ``expected.json`` (token ids and torch logits of fixed pairs),
    ``manifest.json`` and ``README.md``. Fails loudly if transformers' tokenizer and the
    ``tokenizers`` library (which the daemon uses) disagree on any pair, or if onnxruntime
    and torch disagree by more than 1e-5.

``full --out DIR [--int8]``
    A RANDOM-WEIGHT model of the exact cross-encoder/ms-marco-MiniLM-L-6-v2 shape (6 layers,
    hidden 384, 12 heads, intermediate 1536, vocab 30522, 512 positions, 1 label), fixed
    seed, for speed and size benchmarks only (its scores mean nothing). Writes ``model.onnx``
    (fp32, opset 17), with ``--int8`` also ``model_int8.onnx``
    (``quantize_dynamic(per_channel=True, reduce_range=False, weight_type=QuantType.QInt8)``),
    ``tokenizer.json`` and ``manifest.json``. Importable: ``build_full(out_dir, int8)``.

``verify --dir tests/data/tiny_reranker``
    Checks a built tiny model with onnxruntime + tokenizers + numpy only (no torch): token ids
    equal the recorded ones, logits of each pair alone and of padded batches (one per
    max_length) lie within 1e-4 of the recorded ones, and zeroing token_type_ids changes them
    by more than 1e-3. Runs in the daemon's venv.

Both models use the tokenizer of all-MiniLM-L6-v2 that ``omegad models fetch`` puts in
``~/.cache/omegad/models/all-MiniLM-L6-v2/tokenizer.json`` (bert-base-uncased WordPiece, the
vocabulary of the real ms-marco cross-encoder; its pair template gives type id 1 to the second
segment), with its baked-in padding and truncation removed. No model hub is contacted: the
configs are written out by hand and weights are random or trained here.

Setup (once; a venv of its own, never the daemon's)::

    python3 -m venv .torchvenv
    .torchvenv/bin/pip install torch==2.13.0 transformers onnx onnxruntime tokenizers numpy

Run from the repository root::

    .torchvenv/bin/python bench/make_cross_encoder.py tiny --out tests/data/tiny_reranker
    .torchvenv/bin/python bench/make_cross_encoder.py full --out /tmp/ms_marco_shape --int8
    .venv/bin/python bench/make_cross_encoder.py verify --dir tests/data/tiny_reranker

``tiny`` takes about a minute on 2 cores (about 40 s of it training) and is deterministic
(same seeds, ``torch.set_num_threads(2)``: rebuilding gave byte-identical files); ``full --int8``
takes about 15 s. Built with torch 2.13.0+cpu, transformers 5.24.0, onnx 1.23.2, onnxruntime
1.32.0, tokenizers 0.23.3.

Notes:

* The export uses torch's TorchScript-based exporter (``dynamo=False``, deprecated but working
  in torch 2.13): the default dynamo exporter needs the ``onnxscript`` package, which the venv
  above does not have. onnxruntime matches torch within ~1e-6 on every case.
* Attention is built with ``attn_implementation="eager"`` (plain MatMul + Softmax). The export
  is traced on a padded batch, so the attention mask is part of the graph.
* The tiny model's training adds a small penalty on the pooler's pre-tanh activations: without
  it, most irrelevant pairs saturate the tanh and collapse onto one logit (-3.709 +- 0.01), which
  would make those cases insensitive to errors in the daemon's inputs.

torch, transformers and onnx are imported inside the functions, so importing this module
without them works (``build_full`` then raises ``MissingDependency`` naming the pip command).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
DEV_DIR = REPO / "bench" / "data" / "retrieval" / "dev"
DEFAULT_TOKENIZER = Path.home() / ".cache" / "omegad" / "models" / "all-MiniLM-L6-v2" / "tokenizer.json"

PIP_COMMAND = (
    "python3 -m venv .torchvenv && "
    ".torchvenv/bin/pip install torch==2.13.0 transformers onnx onnxruntime tokenizers numpy"
)

OPSET = 17
INPUT_NAMES = ["input_ids", "attention_mask", "token_type_ids"]
OUTPUT_NAME = "logits"

TINY_SEED = 1234
TINY_SHAPE = dict(
    vocab_size=30522,
    hidden_size=64,
    num_hidden_layers=2,
    num_attention_heads=4,
    intermediate_size=256,
    max_position_embeddings=512,
    type_vocab_size=2,
    num_labels=1,
)
TINY_MODEL_ID = "omegad/tiny-test-cross-encoder"
TINY_DESCRIPTION = "omegad tiny test cross-encoder (2 layers, hidden 64, trained on bench dev set)"
TINY_TRAIN = dict(
    steps=400,
    batch_pos=16,
    batch_neg=16,
    lr=1e-3,
    weight_decay=0.01,
    warmup=20,
    max_length=128,
    label_smoothing=0.0,
    pooler_penalty=0.02,
)

FULL_SEED = 20240601
FULL_SHAPE = dict(
    vocab_size=30522,
    hidden_size=384,
    num_hidden_layers=6,
    num_attention_heads=12,
    intermediate_size=1536,
    max_position_embeddings=512,
    type_vocab_size=2,
    num_labels=1,
)
FULL_MODEL_ID = "random/ms-marco-MiniLM-L-6-v2-shape"


class MissingDependency(RuntimeError):
    """torch / transformers / onnx is not importable in this interpreter."""


def _need_torch() -> tuple[Any, Any]:
    try:
        import onnx  # noqa: F401  (torch.onnx.export needs it)
        import torch
        import transformers
    except ImportError as exc:
        raise MissingDependency(
            f"{exc.name or exc} is not installed in {sys.executable}. This script needs torch, transformers "
            f"and onnx (the daemon does not). Create a separate venv with:\n    {PIP_COMMAND}\n"
            f"and run it with .torchvenv/bin/python."
        ) from None
    return torch, transformers


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _write_json(path: Path, doc: Any) -> None:
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


# -- tokenizer ---------------------------------------------------------------------------------


def write_clean_tokenizer(src: Path, dst: Path) -> None:
    """Copy the bert-base-uncased WordPiece tokenizer without its baked-in padding/truncation."""
    from tokenizers import Tokenizer

    if not src.is_file():
        raise FileNotFoundError(
            f"{src} not found: it is the all-MiniLM-L6-v2 tokenizer that `omegad models fetch` downloads; "
            "pass --tokenizer PATH to use another copy"
        )
    tok = Tokenizer.from_file(str(src))
    tok.no_padding()
    tok.no_truncation()
    doc = json.loads(tok.to_str())
    model = doc.get("model", {})
    vocab = model.get("vocab", {})
    problems = []
    if model.get("type") != "WordPiece" or len(vocab) != 30522:
        problems.append(f"model {model.get('type')} with {len(vocab)} entries (want WordPiece, 30522)")
    if (vocab.get("[PAD]"), vocab.get("[CLS]"), vocab.get("[SEP]")) != (0, 101, 102):
        problems.append("[PAD]/[CLS]/[SEP] are not 0/101/102")
    if not (doc.get("normalizer") or {}).get("lowercase"):
        problems.append("normalizer does not lowercase")
    pair = (doc.get("post_processor") or {}).get("pair") or []
    type_ids = [next(iter(p.values())).get("type_id") for p in pair]
    if type_ids != [0, 0, 0, 1, 1]:
        problems.append(f"pair template type ids {type_ids} (want [0, 0, 0, 1, 1])")
    if problems:
        raise ValueError(f"{src} is not the bert-base-uncased tokenizer expected: " + "; ".join(problems))
    dst.parent.mkdir(parents=True, exist_ok=True)
    tok.save(str(dst), pretty=False)


_daemon_tokenizers: dict[tuple[Path, int], Any] = {}


def _daemon_encode(tokenizer_path: Path, query: str, passage: str, max_length: int) -> tuple[list[int], list[int]]:
    """Tokenize as the daemon does: `tokenizers` with longest_first truncation, no padding."""
    from tokenizers import Tokenizer

    tok = _daemon_tokenizers.get((tokenizer_path, max_length))
    if tok is None:
        tok = Tokenizer.from_file(str(tokenizer_path))
        tok.no_padding()
        tok.enable_truncation(max_length=max_length, strategy="longest_first")
        _daemon_tokenizers[(tokenizer_path, max_length)] = tok
    enc = tok.encode(query, passage)
    return list(enc.ids), list(enc.type_ids)


def _hf_tokenizer(tokenizer_path: Path) -> Any:
    from transformers import BertTokenizerFast

    tok = BertTokenizerFast(tokenizer_file=str(tokenizer_path))
    assert (tok.cls_token_id, tok.sep_token_id, tok.pad_token_id) == (101, 102, 0), "special tokens"
    return tok


def _hf_encode(hf_tok: Any, query: str, passage: str, max_length: int) -> tuple[list[int], list[int]]:
    enc = hf_tok(query, passage, truncation="longest_first", max_length=max_length)
    return list(enc["input_ids"]), list(enc["token_type_ids"])


def _check_same_tokens(hf_tok: Any, tokenizer_path: Path, query: str, passage: str, max_length: int) -> None:
    a = _hf_encode(hf_tok, query, passage, max_length)
    b = _daemon_encode(tokenizer_path, query, passage, max_length)
    if a != b:
        raise AssertionError(
            "transformers and tokenizers disagree on\n"
            f"  query={query!r}\n  passage={passage!r}\n  max_length={max_length}\n"
            f"  transformers: ids={a[0]} types={a[1]}\n  tokenizers:   ids={b[0]} types={b[1]}"
        )


# -- model + export ----------------------------------------------------------------------------


def _new_model(shape: dict[str, int], seed: int) -> Any:
    torch, _ = _need_torch()
    from transformers import BertConfig, BertForSequenceClassification

    config = BertConfig(**shape, attn_implementation="eager")
    torch.manual_seed(seed)
    model = BertForSequenceClassification(config)
    return model.eval()


def _logits_wrapper(model: Any) -> Any:
    torch, _ = _need_torch()

    class Logits(torch.nn.Module):
        def __init__(self, inner: Any) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            out = self.inner(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids)
            return out.logits

    return Logits(model).eval()


def export_onnx(model: Any, path: Path) -> None:
    """Export to one self-contained fp32 ONNX file (opset 17, dynamic batch and sequence)."""
    torch, _ = _need_torch()
    import warnings

    import onnx

    wrapper = _logits_wrapper(model)
    # Trace on a padded batch with both segments, so that the mask and segment paths are
    # traced as data flow (transformers skips the mask when it is all ones and not tracing).
    ids = torch.tensor([[101, 2054, 2003, 1037, 102, 7668, 2182, 102], [101, 2129, 102, 2023, 102, 0, 0, 0]])
    mask = (ids != 0).long()
    types = torch.tensor([[0, 0, 0, 0, 0, 1, 1, 1], [0, 0, 0, 1, 1, 0, 0, 0]])
    axes = {name: {0: "batch", 1: "sequence"} for name in INPUT_NAMES}
    axes[OUTPUT_NAME] = {0: "batch"}
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        path.unlink()
    before = {p.name for p in path.parent.iterdir()}
    with warnings.catch_warnings():
        # The TorchScript exporter is deprecated in favour of dynamo (which needs onnxscript);
        # the tracer's "tensor to Python boolean" warning concerns a shape comparison only.
        warnings.simplefilter("ignore")
        with torch.no_grad():
            torch.onnx.export(
                wrapper,
                (ids, mask, types),
                str(path),
                input_names=INPUT_NAMES,
                output_names=[OUTPUT_NAME],
                opset_version=OPSET,
                dynamic_axes=axes,
                do_constant_folding=True,
                dynamo=False,
            )
    # The exporter puts the module back in the training mode it found; a wrapper left in
    # training mode (nn.Module's default) would switch dropout on in `model` after export.
    model.eval()
    proto = onnx.load(str(path))
    onnx.checker.check_model(proto)
    got_inputs = [(i.name, i.type.tensor_type.elem_type) for i in proto.graph.input]
    want_inputs = [(n, onnx.TensorProto.INT64) for n in INPUT_NAMES]
    if got_inputs != want_inputs:
        raise AssertionError(f"ONNX inputs {got_inputs}, want {want_inputs}")
    outs = proto.graph.output
    dims = [d.dim_param or d.dim_value for d in outs[0].type.tensor_type.shape.dim]
    if len(outs) != 1 or outs[0].name != OUTPUT_NAME or dims != ["batch", 1]:
        raise AssertionError(f"ONNX output {outs[0].name} {dims}, want logits ['batch', 1]")
    external = [t.name for t in proto.graph.initializer if t.data_location == onnx.TensorProto.EXTERNAL]
    new_files = sorted({p.name for p in path.parent.iterdir()} - before - {path.name})
    if external or new_files:
        raise AssertionError(f"the export of {path} left external data: {new_files or external[:3]}")


def _ort_session(path: Path, threads: int = 2) -> Any:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def _pad_batch(pairs: list[tuple[list[int], list[int]]]) -> dict[str, Any]:
    import numpy as np

    width = max(len(ids) for ids, _ in pairs)
    ids = np.zeros((len(pairs), width), dtype=np.int64)
    mask = np.zeros_like(ids)
    types = np.zeros_like(ids)
    for row, (i, t) in enumerate(pairs):
        ids[row, : len(i)] = i
        mask[row, : len(i)] = 1
        types[row, : len(t)] = t
    return {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}


def _torch_logit(model: Any, ids: list[int], types: list[int]) -> float:
    torch, _ = _need_torch()
    with torch.no_grad():
        t_ids = torch.tensor([ids], dtype=torch.long)
        out = model(
            input_ids=t_ids,
            attention_mask=torch.ones_like(t_ids),
            token_type_ids=torch.tensor([types], dtype=torch.long),
        ).logits
    return float(out[0, 0])


# -- tiny test model ---------------------------------------------------------------------------


def _load_dev() -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    corpus = {}
    with (DEV_DIR / "corpus.jsonl").open(encoding="utf-8") as f:
        for line in f:
            if line.strip():
                doc = json.loads(line)
                corpus[doc["id"]] = doc
    with (DEV_DIR / "queries.jsonl").open(encoding="utf-8") as f:
        queries = [json.loads(line) for line in f if line.strip()]
    return corpus, queries


def _train_tiny(model: Any, hf_tok: Any, corpus: dict[str, dict[str, Any]], queries: list[dict[str, Any]]) -> None:
    torch, _ = _need_torch()
    cfg = TINY_TRAIN
    rng = random.Random(TINY_SEED)
    ids = sorted(corpus)
    positives = [(q["text"], corpus[d]["text"]) for q in queries for d, g in sorted(q["relevant"].items()) if g >= 2]
    relevant = {q["text"]: set(q["relevant"]) for q in queries}

    def negative(query: str) -> str:
        while True:
            d = rng.choice(ids)
            if d not in relevant[query]:
                return corpus[d]["text"]

    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg["lr"], weight_decay=cfg["weight_decay"])
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda step: min(1.0, (step + 1) / cfg["warmup"]) * max(0.1, 1 - step / cfg["steps"])
    )
    loss_fn = torch.nn.BCEWithLogitsLoss()
    # Keep the pooler's tanh out of saturation, so that logits vary smoothly with the input
    # instead of many negatives collapsing onto one value (which would hide errors in a test).
    pooled: list[Any] = []
    hook = model.bert.pooler.dense.register_forward_hook(lambda _m, _i, out: pooled.append(out))
    model.train()
    start = time.perf_counter()
    for step in range(cfg["steps"]):
        pos = [positives[rng.randrange(len(positives))] for _ in range(cfg["batch_pos"])]
        neg_q = [rng.choice(queries)["text"] for _ in range(cfg["batch_neg"])]
        neg = [(q, negative(q)) for q in neg_q]
        pairs = pos + neg
        smooth = cfg["label_smoothing"]
        labels = torch.tensor([1.0 - smooth] * len(pos) + [smooth] * len(neg))
        batch = hf_tok(
            [q for q, _ in pairs],
            [p for _, p in pairs],
            truncation="longest_first",
            max_length=cfg["max_length"],
            padding=True,
            return_tensors="pt",
        )
        logits = model(
            input_ids=batch["input_ids"],
            attention_mask=batch["attention_mask"],
            token_type_ids=batch["token_type_ids"],
        ).logits[:, 0]
        loss = loss_fn(logits, labels)
        if cfg["pooler_penalty"]:
            loss = loss + cfg["pooler_penalty"] * pooled[-1].pow(2).mean()
        pooled.clear()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        schedule.step()
        if step % 50 == 0 or step == cfg["steps"] - 1:
            print(f"  step {step:4d}  loss {loss.item():.4f}  {time.perf_counter() - start:6.1f}s", flush=True)
    hook.remove()
    model.eval()


LONG_QUERY = (
    "we keep getting intermittent failures in the nightly deploy pipeline where the image tag that argo "
    "writes back to the gitops repository does not match the digest pushed by ci, and the rollout then "
    "stalls until someone manually bumps the tag in the production overlay; who owns that process?"
)


def _tiny_cases(corpus: dict[str, dict[str, Any]], queries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The fixed (query, passage, max_length) cases of expected.json, chosen deterministically."""
    rng = random.Random(TINY_SEED + 1)
    by_qid = {q["qid"]: q for q in queries}
    ids = sorted(corpus)
    cases: list[dict[str, Any]] = []

    def best(q: dict[str, Any]) -> str:
        return corpus[max(sorted(q["relevant"]), key=lambda d: q["relevant"][d])]["text"]

    def other(q: dict[str, Any]) -> str:
        choices = [d for d in ids if d not in q["relevant"]]
        return corpus[rng.choice(choices)]["text"]

    # ordinary short pairs, max_length 512: 4 queries x (relevant, random) + 4 odd ones
    for qid in ("dq-001", "dq-004", "dq-007", "dq-003"):
        q = by_qid[qid]
        cases.append({"name": f"short-{qid}-relevant", "query": q["text"], "passage": best(q), "max_length": 512})
        cases.append({"name": f"short-{qid}-random", "query": q["text"], "passage": other(q), "max_length": 512})
    cases.append(
        {
            "name": "short-unicode",
            "query": "café naïve — 日本語",
            "passage": "The café's naïve façade — 日本語のテキスト, Ünïcödé and emoji 🚀 too.",
            "max_length": 512,
        }
    )
    cases.append(
        {
            "name": "short-unicode-query",
            "query": "Größe der Datenbank? ¿dónde está?",
            "passage": "Postgres runs on RDS db.r6g.large; backups are kept for 14 days.",
            "max_length": 512,
        }
    )
    cases.append(
        {
            "name": "short-one-word-passage",
            "query": by_qid["dq-002"]["text"],
            "passage": "kubernetes",
            "max_length": 512,
        }
    )
    cases.append({"name": "short-one-word-both", "query": "billing", "passage": "invoice", "max_length": 512})

    # long passages (200+ words), not truncated at 512
    def long_passage(q: dict[str, Any] | None, namespace: str, min_words: int, first: bool = False) -> str:
        """Memories of one namespace joined until `min_words`; q's best memory in the middle
        (or `first`, where truncation keeps it)."""
        pool = [d for d in ids if corpus[d]["namespace"] == namespace and (q is None or d not in q["relevant"])]
        rng.shuffle(pool)
        parts: list[str] = []
        while len(" ".join(parts).split()) < min_words:
            parts.append(corpus[pool.pop()]["text"])
        if q is not None:
            parts.insert(0 if first else len(parts) // 2, best(q))
        return " ".join(parts)

    for qid, relevant_inside in (("dq-002", True), ("dq-006", True), ("dq-001", False), ("dq-003", False)):
        q = by_qid[qid]
        passage = long_passage(q if relevant_inside else None, q["namespace"], 220)
        kind = "with-relevant" if relevant_inside else "without-relevant"
        cases.append(
            {"name": f"long-{qid}-{kind}", "query": q["text"], "passage": passage, "max_length": 512, "_check": "long"}
        )

    # long passages truncated at 32 and 64, the relevant memory kept (first) or cut off (middle)
    truncated = (
        ("dq-004", 32, True),
        ("dq-008", 32, False),
        ("dq-005", 64, True),
        ("dq-007", 64, False),
        ("dq-001", 64, True),
        ("dq-006", 32, False),
    )
    for qid, m, first in truncated:
        q = by_qid[qid]
        passage = long_passage(q, q["namespace"], 200, first=first)
        cases.append(
            {
                "name": f"truncated-{m}-{qid}-relevant-{'first' if first else 'middle'}",
                "query": q["text"],
                "passage": passage,
                "max_length": m,
                "_check": "truncated",
            }
        )

    # the query is longer than the passage and gets truncated by longest_first
    cases.append(
        {
            "name": "truncated-32-long-query",
            "query": LONG_QUERY,
            "passage": "Argo CD Image Updater bumps the staging tags.",
            "max_length": 32,
            "_check": "query-truncated",
        }
    )
    return cases


def build_tiny(out_dir: Path, tokenizer_src: Path = DEFAULT_TOKENIZER) -> None:
    """Build, train, export and record the tiny test cross-encoder in `out_dir`."""
    torch, transformers = _need_torch()
    import numpy as np

    torch.set_num_threads(2)
    random.seed(TINY_SEED)
    np.random.seed(TINY_SEED)
    out_dir.mkdir(parents=True, exist_ok=True)
    tok_path = out_dir / "tokenizer.json"
    write_clean_tokenizer(tokenizer_src, tok_path)
    hf_tok = _hf_tokenizer(tok_path)
    corpus, queries = _load_dev()

    # 1. the two tokenizers must agree (the daemon uses `tokenizers` directly)
    checked = 0
    for q in queries:
        for d in sorted(corpus):
            if d in q["relevant"] or d.endswith("7"):
                for m in (16, 128):
                    _check_same_tokens(hf_tok, tok_path, q["text"], corpus[d]["text"], m)
                    checked += 1
    cases = _tiny_cases(corpus, queries)
    for case in cases:
        _check_same_tokens(hf_tok, tok_path, case["query"], case["passage"], case["max_length"])
        checked += 1
    print(f"tokenizers agree on {checked} pairs")

    # 2. train
    model = _new_model(TINY_SHAPE, TINY_SEED)
    print(f"training {sum(p.numel() for p in model.parameters()):,} parameters: {TINY_TRAIN}")
    t0 = time.perf_counter()
    _train_tiny(model, hf_tok, corpus, queries)
    print(f"trained in {time.perf_counter() - t0:.1f}s")

    # 3. expected outputs (torch, eval, fp32, one unpadded pair at a time)
    records = []
    for case in cases:
        ids, types = _hf_encode(hf_tok, case["query"], case["passage"], case["max_length"])
        m = case["max_length"]
        check = case.pop("_check", None)
        if check == "long":
            full_len = len(_hf_encode(hf_tok, case["query"], case["passage"], 100_000)[0])
            assert len(ids) == full_len < m and len(case["passage"].split()) >= 200, (case["name"], len(ids))
        elif check == "truncated":
            assert len(ids) == m, (case["name"], len(ids), m)
        elif check == "query-truncated":
            q_only = hf_tok(case["query"])["input_ids"]
            p_only = hf_tok(case["passage"])["input_ids"]
            n_q = types.index(1) - 2  # [CLS] q [SEP] p [SEP]
            assert len(ids) == m and len(p_only) < len(q_only), case["name"]
            assert n_q < len(q_only) - 2 and ids[n_q + 2 : -1] == p_only[1:-1], case["name"]
        else:
            assert len(ids) < m, case["name"]
        records.append({**case, "input_ids": ids, "token_type_ids": types, "logit": _torch_logit(model, ids, types)})

    for r in records:
        print(f"  {r['logit']:+8.4f}  {len(r['input_ids']):3d}/{r['max_length']:<3d}  {r['name']}")
    logits = np.array([r["logit"] for r in records])
    print(f"logits: min {logits.min():.3f} max {logits.max():.3f} mean {logits.mean():.3f} std {logits.std():.3f}")
    if not (logits.std() > 1.5 and logits.min() < 0 < logits.max()):
        raise AssertionError(f"logits do not spread enough (std {logits.std():.3f}, want > 1.5 with both signs)")
    by_name = {r["name"]: r["logit"] for r in records}
    wins = [
        by_name[n] > by_name[n.replace("-relevant", "-random")]
        for n in by_name
        if n.startswith("short-") and n.endswith("-relevant")
    ]
    print(
        f"relevant above random in {sum(wins)}/{len(wins)} short pairs; "
        f"long with/without relevant: {[round(r['logit'], 2) for r in records if r['name'].startswith('long-')]}"
    )

    # 4. export and check onnxruntime against torch
    onnx_path = out_dir / "model.onnx"
    export_onnx(model, onnx_path)
    session = _ort_session(onnx_path)
    worst = 0.0
    for r in records:
        got = session.run([OUTPUT_NAME], _pad_batch([(r["input_ids"], r["token_type_ids"])]))[0]
        worst = max(worst, abs(float(got[0, 0]) - r["logit"]))
    for m in sorted({r["max_length"] for r in records}):
        group = [r for r in records if r["max_length"] == m]
        got = session.run([OUTPUT_NAME], _pad_batch([(r["input_ids"], r["token_type_ids"]) for r in group]))[0]
        worst = max(worst, float(np.abs(got[:, 0] - np.array([r["logit"] for r in group])).max()))
    print(f"onnxruntime vs torch: max abs diff {worst:.2e}")
    if worst > 1e-5:
        raise AssertionError(f"onnxruntime and torch disagree by {worst:.2e} (> 1e-5)")

    _write_json(
        out_dir / "expected.json",
        {
            "model": TINY_DESCRIPTION,
            "torch": torch.__version__,
            "transformers": transformers.__version__,
            "cases": records,
        },
    )
    _write_json(
        out_dir / "manifest.json",
        {
            "model_id": TINY_MODEL_ID,
            "variant": "fp32",
            "files": {"model.onnx": _sha256(onnx_path), "tokenizer.json": _sha256(tok_path)},
            "built_by": "bench/make_cross_encoder.py tiny",
        },
    )
    (out_dir / "README.md").write_text(TINY_README, encoding="utf-8")
    for p in sorted(out_dir.iterdir()):
        print(f"  {p.stat().st_size:>10,}  {p}")


TINY_README = """\
# Tiny test cross-encoder

A small BERT cross-encoder (`BertForSequenceClassification`, 2 layers, hidden 64, 4 heads,
intermediate 256, bert-base-uncased vocabulary of 30522 word pieces, one output logit) for the
tests of omegad's rerank stage. It is not a useful reranker: it was trained for a few hundred
CPU steps on `bench/data/retrieval/dev` (a query with a relevant memory -> 1, with a random
memory -> 0) only so that its logits spread widely and a parity test means something.

- `model.onnx`: fp32, opset 17, weights inside the file; inputs `input_ids`, `attention_mask`,
  `token_type_ids` (int64, dynamic batch and sequence), output `logits` (batch, 1).
- `tokenizer.json`: the all-MiniLM-L6-v2 (bert-base-uncased WordPiece) tokenizer without padding
  or truncation; the second segment of a pair gets type id 1.
- `expected.json`: fixed (query, passage, max_length) cases with the token ids and the logit that
  torch computed (eval mode, fp32, one unpadded pair at a time). Tokenize with
  `tokenizers.Tokenizer.from_file`, `no_padding()`,
  `enable_truncation(max_length=M, strategy="longest_first")`, `encode(query, passage)`.
- `manifest.json`: model id and sha256 of the files.

Built by `.torchvenv/bin/python bench/make_cross_encoder.py tiny --out tests/data/tiny_reranker`
(see the docstring of that script for the venv with torch). The tests need no torch: only
onnxruntime, tokenizers and numpy. `python bench/make_cross_encoder.py verify --dir
tests/data/tiny_reranker` checks the files with those alone.
"""


# -- full-size random model --------------------------------------------------------------------


def build_full(out_dir: Path, int8: bool, tokenizer_src: Path = DEFAULT_TOKENIZER) -> None:
    """Random-weight model of the cross-encoder/ms-marco-MiniLM-L-6-v2 shape, for benchmarks only.

    Writes `model.onnx` (fp32, opset 17), with `int8` also `model_int8.onnx`, plus
    `tokenizer.json` and `manifest.json`. Raises `MissingDependency` without torch/transformers.
    """
    torch, transformers = _need_torch()
    import numpy as np

    torch.set_num_threads(min(2, os.cpu_count() or 1))
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    tok_path = out_dir / "tokenizer.json"
    write_clean_tokenizer(tokenizer_src, tok_path)
    model = _new_model(FULL_SHAPE, FULL_SEED)
    onnx_path = out_dir / "model.onnx"
    t0 = time.perf_counter()
    export_onnx(model, onnx_path)
    print(f"exported {onnx_path} ({onnx_path.stat().st_size:,} bytes) in {time.perf_counter() - t0:.1f}s")

    # quick parity check on two pairs, padded together
    pairs = [
        _daemon_encode(
            tok_path,
            "how are secrets mounted into pods?",
            "External Secrets syncs from AWS Secrets Manager into Kubernetes secrets mounted as env vars.",
            512,
        ),
        _daemon_encode(tok_path, "billing", "invoice", 512),
    ]
    feed = _pad_batch(pairs)
    with torch.no_grad():
        want = model(**{k: torch.from_numpy(v) for k, v in feed.items()}).logits.numpy()
    got = _ort_session(onnx_path).run([OUTPUT_NAME], feed)[0]
    diff = float(np.abs(got - want).max())
    print(f"onnxruntime vs torch (fp32): max abs diff {diff:.2e}")
    if diff > 1e-4:
        raise AssertionError(f"fp32 export disagrees with torch by {diff:.2e}")

    files = {"model.onnx": _sha256(onnx_path)}
    quantization = {"model.onnx": "none (fp32)"}
    int8_path = out_dir / "model_int8.onnx"
    if int8:
        from onnxruntime.quantization import QuantType, quantize_dynamic

        t0 = time.perf_counter()
        quantize_dynamic(
            str(onnx_path),
            str(int8_path),
            per_channel=True,
            reduce_range=False,
            weight_type=QuantType.QInt8,
        )
        got8 = _ort_session(int8_path).run([OUTPUT_NAME], feed)[0]
        print(
            f"quantized {int8_path} ({int8_path.stat().st_size:,} bytes) in {time.perf_counter() - t0:.1f}s; "
            f"int8 vs fp32 max abs diff {float(np.abs(got8 - got).max()):.2e} (random weights)"
        )
        files["model_int8.onnx"] = _sha256(int8_path)
        quantization["model_int8.onnx"] = "int8 (dynamic, per-channel QInt8 weights)"
    elif int8_path.exists():
        int8_path.unlink()  # do not leave a stale int8 file that the daemon would prefer
    files["tokenizer.json"] = _sha256(tok_path)
    _write_json(
        out_dir / "manifest.json",
        {
            "model_id": FULL_MODEL_ID,
            "variant": "fp32",
            "files": files,
            "quantization": quantization,
            "note": "random weights, for benchmarks only",
            "shape": FULL_SHAPE,
            "seed": FULL_SEED,
            "built_by": f"bench/make_cross_encoder.py full{' --int8' if int8 else ''}",
            "torch": torch.__version__,
            "transformers": transformers.__version__,
        },
    )


# -- verification without torch ----------------------------------------------------------------


def verify_tiny(directory: Path) -> dict[str, float]:
    """Check a tiny model directory with onnxruntime + tokenizers + numpy only; return the numbers."""
    import numpy as np

    expected = json.loads((directory / "expected.json").read_text(encoding="utf-8"))
    cases = expected["cases"]
    tok_path = directory / "tokenizer.json"
    session = _ort_session(directory / "model.onnx")
    recorded = np.array([c["logit"] for c in cases])
    for c in cases:
        got = _daemon_encode(tok_path, c["query"], c["passage"], c["max_length"])
        if got != (c["input_ids"], c["token_type_ids"]):
            raise AssertionError(f"{c['name']}: token ids differ from expected.json")
    single = np.array(
        [session.run([OUTPUT_NAME], _pad_batch([(c["input_ids"], c["token_type_ids"])]))[0][0, 0] for c in cases]
    )
    batched = np.zeros(len(cases))
    zero_types = np.zeros(len(cases))
    for m in sorted({c["max_length"] for c in cases}):
        rows = [i for i, c in enumerate(cases) if c["max_length"] == m]
        feed = _pad_batch([(cases[i]["input_ids"], cases[i]["token_type_ids"]) for i in rows])
        batched[rows] = session.run([OUTPUT_NAME], feed)[0][:, 0]
        feed["token_type_ids"] = np.zeros_like(feed["token_type_ids"])
        zero_types[rows] = session.run([OUTPUT_NAME], feed)[0][:, 0]
    numbers = {
        "cases": len(cases),
        "single_max_abs_diff": float(np.abs(single - recorded).max()),
        "batched_max_abs_diff": float(np.abs(batched - recorded).max()),
        "zero_token_types_max_abs_diff": float(np.abs(zero_types - recorded).max()),
        "logit_min": float(recorded.min()),
        "logit_max": float(recorded.max()),
        "logit_std": float(recorded.std()),
    }
    for k, v in numbers.items():
        print(f"  {k:32s} {v:.3g}" if isinstance(v, float) else f"  {k:32s} {v}")
    if max(numbers["single_max_abs_diff"], numbers["batched_max_abs_diff"]) >= 1e-4:
        raise AssertionError("onnxruntime logits differ from expected.json by >= 1e-4")
    if numbers["zero_token_types_max_abs_diff"] <= 1e-3:
        raise AssertionError("logits do not depend on token_type_ids: the parity test would not see them")
    print("ok")
    return numbers


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("tiny", help="build the small committed test model")
    p.add_argument("--out", type=Path, default=REPO / "tests" / "data" / "tiny_reranker")
    p.add_argument("--tokenizer", type=Path, default=DEFAULT_TOKENIZER)
    p = sub.add_parser("full", help="build a random-weight model of the ms-marco-MiniLM-L-6-v2 shape")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--int8", action="store_true", help="also write model_int8.onnx")
    p.add_argument("--tokenizer", type=Path, default=DEFAULT_TOKENIZER)
    p = sub.add_parser("verify", help="check a tiny model with onnxruntime + tokenizers + numpy only")
    p.add_argument("--dir", type=Path, default=REPO / "tests" / "data" / "tiny_reranker")
    args = parser.parse_args(argv)
    try:
        if args.command == "tiny":
            build_tiny(args.out, args.tokenizer)
        elif args.command == "full":
            build_full(args.out, args.int8, args.tokenizer)
        else:
            verify_tiny(args.dir)
    except MissingDependency as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
