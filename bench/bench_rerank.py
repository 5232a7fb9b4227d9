"""Benchmark of the cross-encoder rerank stage.

Uses a random-weight model of the exact cross-encoder/ms-marco-MiniLM-L-6-v2 shape (6 layers,
hidden 384, 12 heads, intermediate 1536, vocab 30522, one logit): the real weights cannot be
downloaded on the development machines, and speed depends on the shape, not the weights. The
model is built on demand by ``bench/make_cross_encoder.py full`` (needs torch + transformers:
pass ``--builder-python`` of a venv that has them) into ``~/.cache/omegad/bench/ms-marco-shape``
and quantized as ``omegad models fetch reranker --quantize`` would (needs ``onnx``).

Parts, all measured in one run (medians; the machine is shared and noisy, so compare ratios;
between 1 and 2, the float file as shipped against its fused form, ``reranker.fused``,
alternating on the same pairs, with the largest logit difference between them):

1. **stage vs raw ONNX Runtime**: the daemon's rerank stage (`Reranker.rerank`: cache lookup,
   tokenization, length-sorted batches, the shared batcher's thread hop, boost) against
   ``session.run`` alone on the identical, pre-tokenized feeds, for 20 pairs of memory-like
   texts; plus what fixed padding to 128 and one unsorted batch would cost instead.
2. **query latency at N memories** (default 10k) through a real daemon, rerank on vs off
   (``rerank=false``), alternating on the same distinct queries.
3. **throughput with 8 concurrent client processes**, rerank on vs off, and how many queries
   each ONNX run served (cross-request batching).

    python bench/bench_rerank.py [--quick] [--builder-python /path/to/torch/venv/bin/python]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import numpy as np
from bench_store_query import BenchDaemon, fill_items, memory_texts, query_texts, run_procs, summary

REPO = Path(__file__).resolve().parent.parent
DEFAULT_MODEL = Path.home() / ".cache" / "omegad" / "bench" / "ms-marco-shape"


def log(msg: str) -> None:
    print(f"[bench_rerank] {msg}", file=sys.stderr, flush=True)


def ensure_model(directory: Path, builder_python: str) -> None:
    """Build the fp32 model with torch (``make_cross_encoder.py full``), then quantize it the
    way ``omegad models fetch reranker --quantize`` does (`omegad.models.fetch.quantize_per_channel`)."""
    from omegad.models.fetch import quantize_per_channel

    if not (directory / "model.onnx").is_file():
        log(f"building the random-weight ms-marco-shape model into {directory} with {builder_python}")
        cmd = [builder_python, str(REPO / "bench" / "make_cross_encoder.py"), "full", "--out", str(directory)]
        if subprocess.run(cmd).returncode != 0:
            raise SystemExit(
                "could not build the benchmark model; it needs torch and transformers, e.g.\n"
                "  python3 -m venv .torchvenv && .torchvenv/bin/pip install torch==2.13.0 transformers onnx\n"
                "  python bench/bench_rerank.py --builder-python .torchvenv/bin/python"
            )
    if not (directory / "model_int8.onnx").is_file():
        log("quantizing: 8-bit per-channel weights (omegad.models.fetch.quantize_per_channel)")
        label = quantize_per_channel(directory / "model.onnx", directory / "model_int8.onnx")
        manifest_path = directory / "manifest.json"
        manifest = json.loads(manifest_path.read_text()) if manifest_path.is_file() else {}
        manifest.setdefault("quantization", {})["model_int8.onnx"] = label
        manifest_path.write_text(json.dumps(manifest, indent=2) + "\n")


# -- 1. stage vs raw onnxruntime ----------------------------------------------------------------


def _candidates(texts: list[str], tag: str) -> list[Any]:
    from omegad.recall.pipeline import Candidate
    from omegad.storage.rows import Row

    vec = np.zeros(384, dtype=np.float32)
    return [
        Candidate(
            row=Row(f"{tag}-{i}", t, "fact", [], "ns", {}, 0, 0, 1, vec),
            score=1.0 - i * 0.01,
        )
        for i, t in enumerate(texts)
    ]


def stage_vs_raw(model_dir: Path, onnx_name: str, reps: int, threads: int) -> dict[str, Any]:
    from omegad.config import load_config
    from omegad.models.files import read_reranker_dir
    from omegad.recall.crossencoder import CrossEncoder
    from omegad.recall.rerank import Reranker

    files = read_reranker_dir(model_dir)
    files = type(files)(files.directory, model_dir / onnx_name, files.tokenizer, files.model_id, onnx_name)
    config = load_config(env={"HOME": str(Path.home())}).with_overrides(
        reranker_model_dir=model_dir, reranker_threads=threads
    )
    texts = memory_texts(20 * 4, seed=77)
    queries = query_texts(reps + 5, seed=78)
    result: dict[str, Any] = {"file": onnx_name, "threads": threads, "pairs": 20}

    async def main() -> None:
        reranker = Reranker(config)
        encoder = await anyio.to_thread.run_sync(
            lambda: CrossEncoder(files, threads=threads, max_tokens=config.reranker_max_tokens)
        )
        reranker.encoder = encoder
        reranker.state = "ready"
        stage: list[float] = []
        raw: list[float] = []
        fixed128: list[float] = []
        unsorted: list[float] = []
        tokens: list[int] = []
        async with anyio.create_task_group() as tg:
            await tg.start(reranker.run)
            for k, q in enumerate(queries):
                batch = texts[(k % 4) * 20 : (k % 4) * 20 + 20]
                cands = _candidates(batch, f"r{k}")
                reranker.cache.clear()
                s = time.perf_counter()
                detail = await reranker.rerank(q, cands)
                t_stage = (time.perf_counter() - s) * 1000
                assert detail.get("scored") == 20, detail
                # identical feeds, built the way CrossEncoder.score builds them
                pairs = [(q, t) for t in batch]
                enc = encoder.tokenizer.encode_batch(pairs)
                order = sorted(range(20), key=lambda i: len(enc[i].ids))
                feeds = [
                    encoder.feeds([enc[i] for i in order[j : j + encoder.batch_size]])
                    for j in range(0, 20, encoder.batch_size)
                ]
                s = time.perf_counter()
                for f in feeds:
                    encoder.session.run(None, f)
                t_raw = (time.perf_counter() - s) * 1000
                # what fixed padding to 128 would cost
                f128 = encoder.feeds(enc)
                pad = 128 - f128["input_ids"].shape[1]
                if pad > 0:
                    f128 = {name: np.pad(a, ((0, 0), (0, pad))) for name, a in f128.items()}
                s = time.perf_counter()
                encoder.session.run(None, f128)
                t128 = (time.perf_counter() - s) * 1000
                # one unsorted batch padded to the longest (no length sorting; same here, 20 < batch)
                s = time.perf_counter()
                encoder.session.run(None, encoder.feeds(enc))
                t_uns = (time.perf_counter() - s) * 1000
                if k >= 5:  # warm-up
                    stage.append(t_stage)
                    raw.append(t_raw)
                    fixed128.append(t128)
                    unsorted.append(t_uns)
                    tokens.append(sum(len(e.ids) for e in enc))
            reranker.close()
            tg.cancel_scope.cancel()
        result.update(
            stage_ms=summary(stage),
            raw_ort_ms=summary(raw),
            ratio=round(statistics.median(stage) / statistics.median(raw), 3),
            ratio_per_rep_median=round(statistics.median(a / b for a, b in zip(stage, raw, strict=True)), 3),
            fixed_pad_128_ms=summary(fixed128),
            one_batch_ms=summary(unsorted),
            tokens_per_pair=round(statistics.mean(tokens) / 20, 1),
        )

    anyio.run(main)
    return result


def fused_vs_shipped(model_dir: Path, reps: int, threads: int) -> dict[str, Any]:
    """20 pairs scored by the float file as shipped and by its fused form (what
    ``reranker.fused`` loads), alternating on the same questions; and the largest logit
    difference between the two over every pair scored."""
    import tempfile

    from omegad.models.files import read_reranker_dir
    from omegad.recall.crossencoder import CrossEncoder

    files = read_reranker_dir(model_dir)
    files = type(files)(files.directory, model_dir / "model.onnx", files.tokenizer, files.model_id, "model.onnx")
    texts = memory_texts(20 * 4, seed=77)
    queries = query_texts(reps + 5, seed=78)
    with tempfile.TemporaryDirectory() as cache:
        shipped = CrossEncoder(files, threads=threads, max_tokens=256)
        fused = CrossEncoder(files, threads=threads, max_tokens=256, fused_dir=Path(cache))
        times: dict[str, list[float]] = {"shipped": [], "fused": []}
        worst = 0.0
        for k, q in enumerate(queries):
            pairs = [(q, t) for t in texts[(k % 4) * 20 : (k % 4) * 20 + 20]]
            logits = {}
            for name, enc in (
                (("shipped", shipped), ("fused", fused)) if k % 2 else (("fused", fused), ("shipped", shipped))
            ):
                s = time.perf_counter()
                logits[name] = enc.score(pairs)[0]
                if k >= 5:
                    times[name].append((time.perf_counter() - s) * 1000)
            worst = max(worst, float(np.abs(logits["fused"] - logits["shipped"]).max()))
        graph = fused.graph
    return {
        "graph": graph,
        "shipped_ms": summary(times["shipped"]),
        "fused_ms": summary(times["fused"]),
        "ratio": round(statistics.median(times["fused"]) / statistics.median(times["shipped"]), 3),
        "max_logit_diff": worst,
    }


# -- 2 and 3: through the daemon --------------------------------------------------------------


def daemon_part(model_dir: Path, memories: int, queries: int, per_proc: int) -> dict[str, Any]:
    config = f'[reranker]\nmodel_dir = "{model_dir}"\n'
    res: dict[str, Any] = {"memories": memories}
    with BenchDaemon(config) as d, d.client(timeout=1800) as c:
        deadline = time.monotonic() + 120
        while c.hello()["reranker"]["state"] != "ready":
            if time.monotonic() > deadline:
                raise RuntimeError(f"reranker not ready: {c.hello()['reranker']}")
            time.sleep(0.1)
        res["reranker"] = c.hello()["reranker"]
        texts = memory_texts(memories, seed=11)
        log(f"filling {memories} memories")
        for start in range(0, memories, 500):
            items = fill_items(texts[start : start + 500], start)
            for it in items:
                it["namespace"] = "bench"
            c.store_batch(items)
        c.flush()
        qs = query_texts(queries + 10, seed=12)
        for q in qs[:10]:
            c.query(q, namespace="bench", limit=10)
            c.query(q, namespace="bench", limit=10, rerank=False)
        log(f"{queries} queries, rerank on/off alternating")
        on: list[float] = []
        off: list[float] = []
        stage: list[float] = []
        tokens: list[int] = []
        for q in qs[10:]:
            s = time.perf_counter()
            reply = c.query(q, namespace="bench", limit=10, explain=True)
            on.append((time.perf_counter() - s) * 1000)
            st = next(x for x in reply["trace"] if x["stage"] == "rerank")
            assert "skipped" not in st, st
            stage.append(st["ms"])
            tokens.append(st["tokens"])
            s = time.perf_counter()
            c.query(q, namespace="bench", limit=10, rerank=False)
            off.append((time.perf_counter() - s) * 1000)
        res["query_on_ms"] = summary(on)
        res["query_off_ms"] = summary(off)
        res["rerank_stage_ms"] = summary(stage)
        res["tokens_per_query"] = round(statistics.mean(tokens), 1)
        res["p50_ratio_on_off"] = round(statistics.median(on) / statistics.median(off), 2)

        tq = query_texts(16 * per_proc + 8, seed=13)
        for label, rerank in (("off", False), ("on", True)):
            before = c.stats()["models"]["reranker"]
            offset = 0 if rerank else 8 * per_proc
            payloads = [
                [
                    {"text": q, "namespace": "bench", "rerank": rerank}
                    for q in tq[offset + k * per_proc : offset + (k + 1) * per_proc]
                ]
                for k in range(8)
            ]
            log(f"8 client processes x {per_proc} queries, rerank {label}")
            r = run_procs("query", d.socket, payloads)
            after = c.stats()["models"]["reranker"]
            if rerank:
                calls = after["batches"] - before["batches"]
                q = after["queries"] - before["queries"]
                r["model_calls"] = calls
                r["onnx_runs"] = after["onnx_runs"] - before["onnx_runs"]
                r["queries_per_model_call"] = round(q / calls, 2) if calls else None
            res[f"throughput_8_{label}"] = r
        res["stats"] = c.stats()["models"]["reranker"]
    return res


def render(r: dict[str, Any]) -> str:
    lines = ["| measure | value |", "|---|---|"]
    for s in r["stage"]:
        lines.append(
            f"| stage vs raw ORT, 20 pairs, {s['file']} ({s['tokens_per_pair']} tokens/pair) | "
            f"stage {s['stage_ms']['median']:.1f} ms vs raw {s['raw_ort_ms']['median']:.1f} ms → ratio {s['ratio']} "
            f"(per-rep median {s['ratio_per_rep_median']}) |"
        )
        lines.append(
            f"| same batch padded to 128 / one batch, {s['file']} | "
            f"{s['fixed_pad_128_ms']['median']:.1f} ms / {s['one_batch_ms']['median']:.1f} ms |"
        )
    f = r.get("fused")
    if f:
        lines.append(
            f"| 20 pairs, float file as shipped / fused ({f['graph']}) | {f['shipped_ms']['median']:.1f} ms / "
            f"{f['fused_ms']['median']:.1f} ms → ratio {f['ratio']}, largest logit difference {f['max_logit_diff']:.2e} |"
        )
    d = r.get("daemon")
    if d:
        lines.append(
            f"| query at {d['memories']} memories, rerank on | p50 {d['query_on_ms']['median']:.1f} ms, "
            f"p95 {d['query_on_ms']['p95']:.1f} ms (stage p50 {d['rerank_stage_ms']['median']:.1f} ms, "
            f"{d['tokens_per_query']} tokens) |"
        )
        lines.append(
            f"| query at {d['memories']} memories, rerank off | p50 {d['query_off_ms']['median']:.1f} ms, "
            f"p95 {d['query_off_ms']['p95']:.1f} ms (on/off p50 ratio {d['p50_ratio_on_off']}) |"
        )
        for label in ("off", "on"):
            t = d[f"throughput_8_{label}"]
            extra = ""
            if label == "on":
                extra = (
                    f", {t['model_calls']} shared model calls ({t['queries_per_model_call']} queries each), "
                    f"{t['onnx_runs']} ONNX runs"
                )
            lines.append(
                f"| 8 client processes, rerank {label} | {t['per_s']:.1f} queries/s, p50 "
                f"{t['latency_ms']['median']:.0f} ms, p95 {t['latency_ms']['p95']:.0f} ms{extra} |"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    p.add_argument("--model-dir", type=Path, default=DEFAULT_MODEL)
    p.add_argument("--builder-python", default=os.environ.get("OMEGAD_TORCH_PYTHON", sys.executable))
    p.add_argument("--memories", type=int, default=None)
    p.add_argument("--json", type=Path, default=None, help="also write the raw results here")
    p.add_argument("--skip-daemon", action="store_true")
    args = p.parse_args(argv)
    ensure_model(args.model_dir, args.builder_python)
    reps = 15 if args.quick else 60
    memories = args.memories or (1_000 if args.quick else 10_000)
    results: dict[str, Any] = {"stage": []}
    for name in ("model_int8.onnx", "model.onnx"):
        log(f"stage vs raw onnxruntime: {name}, {reps} reps")
        results["stage"].append(stage_vs_raw(args.model_dir, name, reps, threads=2))
    log(f"fused vs shipped float file, {reps} reps")
    results["fused"] = fused_vs_shipped(args.model_dir, reps, threads=2)
    if not args.skip_daemon:
        results["daemon"] = daemon_part(
            args.model_dir, memories, queries=30 if args.quick else 150, per_proc=5 if args.quick else 20
        )
    print(render(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
