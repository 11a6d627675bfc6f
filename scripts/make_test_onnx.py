#!/usr/bin/python3
"""Writes the small ONNX models the ONNX import tests read (tests/models/data/*.onnx).

Run with Debian's python3-onnx: /usr/bin/python3 scripts/make_test_onnx.py [OUT_DIR]
The files are committed; the tests themselves need no Python. Weights are zeros (only shapes
matter to the importer) and opset 17 is used (Debian's onnx 1.12). Shapes are stated here and
repeated in tests/models/onnx_test.cpp, which derives the expected flops from them by hand.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

FLOAT = TensorProto.FLOAT
OPSET = [helper.make_opsetid("", 17)]


def weight(name, *shape):
    return helper.make_tensor(name, FLOAT, shape, np.zeros(shape, np.float32).ravel().tolist())


def ints(name, *values):
    return helper.make_tensor(name, TensorProto.INT64, [len(values)], list(values))


def save(out, name, graph, opsets=OPSET, check=True):
    model = helper.make_model(graph, opset_imports=opsets, producer_name="placesim make_test_onnx.py")
    if check:
        onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, name))


def mlp(batch):
    """x[batch,64] -> Gemm(W1[64,128], b1) -> Relu -> MatMul(W2[128,10]) -> Add(b2) -> y[batch,10]."""
    nodes = [
        helper.make_node("Gemm", ["x", "W1", "b1"], ["h"], name="fc1"),
        helper.make_node("Relu", ["h"], ["a"], name="relu"),
        helper.make_node("MatMul", ["a", "W2"], ["z"], name="fc2"),
        helper.make_node("Add", ["z", "b2"], ["y"], name="bias2"),
    ]
    return helper.make_graph(
        nodes, "mlp",
        [helper.make_tensor_value_info("x", FLOAT, [batch, 64])],
        [helper.make_tensor_value_info("y", FLOAT, [batch, 10])],
        [weight("W1", 64, 128), weight("b1", 128), weight("W2", 128, 10), weight("b2", 10)])


def branch():
    """x[1,8,16,16] -> Relu r0 -> {Conv3x3 c3 -> Relu r3, Conv1x1 c1} -> Add -> Relu out."""
    nodes = [
        helper.make_node("Relu", ["x"], ["t0"], name="r0"),
        helper.make_node("Conv", ["t0", "K3", "B3"], ["t3"], name="c3", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["t3"], ["u3"], name="r3"),
        helper.make_node("Conv", ["t0", "K1"], ["t1"], name="c1", kernel_shape=[1, 1]),
        helper.make_node("Add", ["u3", "t1"], ["s"], name="add"),
        helper.make_node("Relu", ["s"], ["y"], name="out"),
    ]
    return helper.make_graph(
        nodes, "branch",
        [helper.make_tensor_value_info("x", FLOAT, [1, 8, 16, 16])],
        [helper.make_tensor_value_info("y", FLOAT, [1, 8, 16, 16])],
        [weight("K3", 8, 8, 3, 3), weight("B3", 8), weight("K1", 8, 8, 1, 1)])


def lstm():
    """ONNX LSTM: X[T=5,B=2,I=16], hidden 32, one direction; W[1,128,16], R[1,128,32], B[1,256]."""
    node = helper.make_node("LSTM", ["X", "W", "R", "B"], ["Y", "Y_h", "Y_c"], name="lstm", hidden_size=32)
    return helper.make_graph(
        [node], "lstm",
        [helper.make_tensor_value_info("X", FLOAT, [5, 2, 16])],
        [helper.make_tensor_value_info("Y", FLOAT, [5, 1, 2, 32])],
        [weight("W", 1, 128, 16), weight("R", 1, 128, 32), weight("B", 1, 256)])


def transformer_block():
    """Pre-LN block, batch 1, S=16 tokens, d=32, 4 heads of 8, FFN 128 (ReLU)."""
    n = helper.make_node
    nodes = [
        n("LayerNormalization", ["x", "g1", "be1"], ["ln1"], name="ln1", axis=-1),
        n("MatMul", ["ln1", "Wq"], ["q0"], name="q"), n("Add", ["q0", "bq"], ["q1"], name="q_bias"),
        n("MatMul", ["ln1", "Wk"], ["k0"], name="k"), n("Add", ["k0", "bk"], ["k1"], name="k_bias"),
        n("MatMul", ["ln1", "Wv"], ["v0"], name="v"), n("Add", ["v0", "bv"], ["v1"], name="v_bias"),
        n("Reshape", ["q1", "heads"], ["q2"], name="q_split"),
        n("Reshape", ["k1", "heads"], ["k2"], name="k_split"),
        n("Reshape", ["v1", "heads"], ["v2"], name="v_split"),
        n("Transpose", ["q2"], ["q3"], name="q_t", perm=[0, 2, 1, 3]),
        n("Transpose", ["k2"], ["k3"], name="k_t", perm=[0, 2, 3, 1]),
        n("Transpose", ["v2"], ["v3"], name="v_t", perm=[0, 2, 1, 3]),
        n("MatMul", ["q3", "k3"], ["s0"], name="scores"),
        n("Div", ["s0", "sqrt_dh"], ["s1"], name="scale"),
        n("Softmax", ["s1"], ["p"], name="softmax", axis=-1),
        n("MatMul", ["p", "v3"], ["c0"], name="context"),
        n("Transpose", ["c0"], ["c1"], name="c_t", perm=[0, 2, 1, 3]),
        n("Reshape", ["c1", "merged"], ["c2"], name="c_merge"),
        n("MatMul", ["c2", "Wo"], ["o0"], name="o"), n("Add", ["o0", "bo"], ["o1"], name="o_bias"),
        n("Add", ["x", "o1"], ["r1"], name="residual1"),
        n("LayerNormalization", ["r1", "g2", "be2"], ["ln2"], name="ln2", axis=-1),
        n("MatMul", ["ln2", "W1"], ["f0"], name="ffn1"), n("Add", ["f0", "b1"], ["f1"], name="ffn1_bias"),
        n("Relu", ["f1"], ["f2"], name="relu"),
        n("MatMul", ["f2", "W2"], ["f3"], name="ffn2"), n("Add", ["f3", "b2"], ["f4"], name="ffn2_bias"),
        n("Add", ["r1", "f4"], ["y"], name="residual2"),
    ]
    inits = [weight("g1", 32), weight("be1", 32), weight("g2", 32), weight("be2", 32),
             weight("Wq", 32, 32), weight("bq", 32), weight("Wk", 32, 32), weight("bk", 32),
             weight("Wv", 32, 32), weight("bv", 32), weight("Wo", 32, 32), weight("bo", 32),
             weight("W1", 32, 128), weight("b1", 128), weight("W2", 128, 32), weight("b2", 32),
             ints("heads", 1, 16, 4, 8), ints("merged", 1, 16, 32),
             helper.make_tensor("sqrt_dh", FLOAT, [], [8 ** 0.5])]
    return helper.make_graph(
        nodes, "transformer_block",
        [helper.make_tensor_value_info("x", FLOAT, [1, 16, 32])],
        [helper.make_tensor_value_info("y", FLOAT, [1, 16, 32])], inits)


def unsupported():
    """x[4,8] -> CumSum -> CumSum -> Relu: CumSum has ONNX shape inference but no placesim cost."""
    nodes = [
        helper.make_node("CumSum", ["x", "axis"], ["a"], name="cs1"),
        helper.make_node("CumSum", ["a", "axis"], ["b"], name="cs2"),
        helper.make_node("Relu", ["b"], ["y"], name="relu"),
    ]
    return helper.make_graph(
        nodes, "unsupported",
        [helper.make_tensor_value_info("x", FLOAT, [4, 8])],
        [helper.make_tensor_value_info("y", FLOAT, [4, 8])],
        [helper.make_tensor("axis", TensorProto.INT64, [], [1])])


def no_shape():
    """x[4,8] -> com.example.Mystery (no schema, so no inferred shape) -> Relu."""
    nodes = [
        helper.make_node("Mystery", ["x"], ["m"], name="mystery", domain="com.example"),
        helper.make_node("Relu", ["m"], ["y"], name="relu"),
    ]
    return helper.make_graph(
        nodes, "no_shape",
        [helper.make_tensor_value_info("x", FLOAT, [4, 8])],
        [helper.make_tensor_value_info("y", FLOAT, None)], [])


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "tests", "models", "data")
    os.makedirs(out, exist_ok=True)
    save(out, "mlp.onnx", mlp(4))
    save(out, "mlp_dynamic.onnx", mlp("batch"))
    save(out, "branch.onnx", branch())
    save(out, "lstm.onnx", lstm())
    save(out, "transformer_block.onnx", transformer_block())
    save(out, "unsupported.onnx", unsupported())
    save(out, "no_shape.onnx", no_shape(), OPSET + [helper.make_opsetid("com.example", 1)], check=False)
    with open(os.path.join(out, "not_a_model.onnx"), "w") as f:
        f.write("this is not an ONNX model\n")


if __name__ == "__main__":
    main()
