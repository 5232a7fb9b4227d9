"""The embedding model's speed by text length, as the daemon runs it, next to the arithmetic floor.

    python bench/bench_embed.py [--rounds 3] [--threads 2] [--json]

For the model as shipped, its fused form and the fused form with 8-bit matrices
(`omegad.models.fuse`; built into a temporary cache here), in alternating rounds within one run:

* single-text latency (median ms) for texts of 1 to 254 word pieces (+ [CLS]/[SEP]);
* batch throughput (texts/s) for 64 texts of ~30 word pieces, padded to the longest;
* the cosine of each form's sentence vectors to the shipped model's (min over all texts);
* the cost per text of 256 memory-like texts (10-40 words, `bench_store_query.memory_texts`)
  embedded in one call with each `embedding.batch_size` from 1 to 64 (texts sorted by length,
  padded per run), as shipped and fused: what the default batch size is chosen from.

The floor beside them: the model's multiply-adds for that many tokens (6 layers of hidden 384,
intermediate 1536: 2·n·384·(4·384 + 2·1536) + 4·n²·384 per layer) divided by the rate this
CPU reaches on one large float32 matrix product in ONNX Runtime with the same threads. No
network; uses the model `omegad models fetch` put in the cache.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from omegad.config import load_config
from omegad.models.files import resolve_embedding
from omegad.recall.embed import Embedder

LENGTHS = (1, 6, 14, 30, 62, 126, 254)
HIDDEN, INNER, LAYERS = 384, 1536, 6


def model_flops(tokens: int) -> float:
    per_layer = 2 * tokens * HIDDEN * (4 * HIDDEN + 2 * INNER) + 4 * tokens * tokens * HIDDEN
    return float(LAYERS * per_layer)


def matmul_rate(threads: int) -> float:
    """FLOP/s of one [512 x 384] x [384 x 1536] float32 product in ONNX Runtime."""
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper

    w = np.random.default_rng(0).standard_normal((HIDDEN, INNER)).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"])],
        "mm",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [None, HIDDEN])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, INNER])],
        [numpy_helper.from_array(w, "w")],
    )
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    session = ort.InferenceSession(helper.make_model(graph).SerializeToString(), options)
    x = np.random.default_rng(1).standard_normal((512, HIDDEN)).astype(np.float32)
    times = []
    for _ in range(30):
        t0 = time.perf_counter()
        session.run(None, {"x": x})
        times.append(time.perf_counter() - t0)
    return 2 * 512 * HIDDEN * INNER / statistics.median(times)


def texts_of(tokens: int, embedder: Embedder, rng: np.random.Generator) -> list[str]:
    words = [
        "memory",
        "daemon",
        "stores",
        "decisions",
        "lessons",
        "errors",
        "agents",
        "query",
        "socket",
        "frames",
        "vectors",
        "index",
    ]
    out = []
    for _ in range(10):
        text = " ".join(rng.choice(words, tokens))
        while embedder.count_tokens([text])[0] - 2 > tokens:
            text = text.rsplit(" ", 1)[0]
        out.append(text)
    return out


def measure(embedder: Embedder, by_length: dict[int, list[str]], batch: list[str]) -> dict[str, Any]:
    single = {}
    for n, texts in by_length.items():
        times = []
        for _ in range(3):
            for t in texts:
                t0 = time.perf_counter()
                embedder.embed([t])
                times.append(time.perf_counter() - t0)
        single[n] = statistics.median(times) * 1000
    runs = []
    for _ in range(3):
        t0 = time.perf_counter()
        embedder.embed(batch)
        runs.append(time.perf_counter() - t0)
    return {"single_ms": single, "batch_texts_per_s": len(batch) / statistics.median(runs)}


def batch_sizes(files: Any, threads: int) -> dict[str, dict[int, float]]:
    from bench_store_query import memory_texts

    texts = memory_texts(256, 11)
    out: dict[str, dict[int, float]] = {}
    with tempfile.TemporaryDirectory() as cache:
        for name, fused_dir in (("shipped", None), ("fused", Path(cache))):
            row = {}
            for size in (1, 2, 4, 8, 16, 32, 64):
                embedder = Embedder(files, threads=threads, batch_size=size, fused_dir=fused_dir)
                times = []
                for _ in range(3):
                    t0 = time.perf_counter()
                    embedder.embed(texts)
                    times.append(time.perf_counter() - t0)
                row[size] = statistics.median(times) * 1000 / len(texts)
            out[name] = row
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    files = resolve_embedding(None, load_config(env={}).model_cache_dir)
    with tempfile.TemporaryDirectory() as cache:
        forms = {
            "shipped": Embedder(files, threads=args.threads),
            "fused": Embedder(files, threads=args.threads, fused_dir=Path(cache)),
            "fused 8-bit": Embedder(files, threads=args.threads, fused_dir=Path(cache), weights8=True),
        }
    rng = np.random.default_rng(7)
    ref = forms["shipped"]
    by_length = {n: texts_of(n, ref, rng) for n in LENGTHS}
    batch = [t for n in (14, 30, 62) for t in by_length[n]] * 3
    batch = batch[:64]
    every = [t for texts in by_length.values() for t in texts]
    rate = matmul_rate(args.threads)
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in forms}
    for _ in range(args.rounds):
        for name, embedder in forms.items():
            results[name].append(measure(embedder, by_length, batch))
    report: dict[str, Any] = {"matmul_gflops": rate / 1e9, "forms": {}}
    base = ref.embed(every)
    batch_tokens = sum(c for c in ref.count_tokens(batch)) / len(batch)
    for name, embedder in forms.items():
        rounds = results[name]
        cos = float((embedder.embed(every) * base).sum(axis=1).min())
        report["forms"][name] = {
            "graph": embedder.graph,
            "single_ms": {n: statistics.median(r["single_ms"][n] for r in rounds) for n in LENGTHS},
            "batch_texts_per_s": statistics.median(r["batch_texts_per_s"] for r in rounds),
            "min_cosine_to_shipped": cos,
        }
    report["floor_ms"] = {n: model_flops(n + 2) / rate * 1000 for n in LENGTHS}
    report["ms_per_text_by_batch_size"] = batch_sizes(files, args.threads)
    report["batch_floor_texts_per_s"] = rate / model_flops(int(batch_tokens))
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"matrix product rate: {rate / 1e9:.1f} GFLOP/s ({args.threads} threads); {args.rounds} alternating rounds")
    header = "word pieces".ljust(28) + "".join(f"{n:>8}" for n in LENGTHS) + "   batch/s  min cos"
    print(header)
    for name, row in report["forms"].items():
        cells = "".join(f"{row['single_ms'][n]:8.2f}" for n in LENGTHS)
        print(f"{name:<28}{cells}{row['batch_texts_per_s']:10.0f}  {row['min_cosine_to_shipped']:.6f}")
    print("ms per text of 256 memories (10-40 words) by batch size:")
    for name, row in report["ms_per_text_by_batch_size"].items():
        print(f"  {name:<10}" + "  ".join(f"{b}: {ms:.2f}" for b, ms in row.items()))
    floor = "".join(f"{report['floor_ms'][n]:8.2f}" for n in LENGTHS)
    print(f"{'arithmetic floor':<28}{floor}{report['batch_floor_texts_per_s']:10.0f}")
    shipped = report["forms"]["shipped"]
    for name in ("fused", "fused 8-bit"):
        form = report["forms"][name]
        ratios = "".join(f"{form['single_ms'][n] / shipped['single_ms'][n]:8.2f}" for n in LENGTHS)
        speed = shipped["batch_texts_per_s"] / form["batch_texts_per_s"]
        print(f"{'ratio ' + name + ' / shipped':<28}{ratios}{speed:10.2f}  (batch: time ratio)")


if __name__ == "__main__":
    main()
