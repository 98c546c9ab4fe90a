#!/usr/bin/env python3
"""A model file of quax (TorchScript with its description) written as an ONNX model: what
`quax export --onnx` runs (compiled into the program) with Debian's PyTorch and python3-onnx.

    export_onnx.py <model.pt> <out.onnx> <board size> <opset> [fp32|int8]

The ONNX graph: input "planes" [batch, C, N, N] float32, outputs "policy" [batch, A] (logits)
and "value" [batch]; the batch axis is dynamic, the board size fixed (the policy's actions
depend on it). The description goes into the model's metadata as "quax.json", extended with
"onnx": {"size", "opset", "precision", "inputs", "outputs"}. Writes <out.onnx> atomically. On
an error: one line on stderr, exit 1.

int8 computes each convolution in 8-bit integers (quantize_convolutions below); everything else,
the inputs and the outputs stay float32.
"""
import json
import os
import sys
import warnings


def fail(message):
    lines = message.splitlines()
    sys.stderr.write((lines[0] if lines else "failed") + "\n")
    sys.exit(1)


def quantize_convolutions(graph):
    """Rewrites the tower's convolutions of `graph` to run in 8-bit integers, dynamically
    quantized. The first convolution (on the input planes) and the heads' 1x1 convolutions stay
    float32: they cost little of the arithmetic, and rounding them moved the value most
    (hex-11.pt on 64 random positions: the first alone by up to 0.09, the value head's by up to
    0.07, each tower convolution's by 0.01-0.08).

    The kernel is rounded once, here, to 8 bits per output channel (scale = the channel's
    largest |weight| / 127, stored as uint8 with zero point 128: ONNX Runtime's ConvInteger
    takes one zero point per kernel); the input is rounded at run time by DynamicQuantizeLinear
    to uint8 over its own range (the whole batch's), so no calibration data is needed.
    ConvInteger accumulates in int32; the result times the two scales, plus the bias, is the
    float32 output. ONNX Runtime pads ConvInteger's input with the input's zero point, the
    encoding of 0.0, so the padding means what it means in float32 (measured: the rounding
    error at the board's edge is the inside's)."""
    import numpy
    from onnx import TensorProto, helper, numpy_helper
    constants = {i.name: i for i in graph.initializer}
    inputs = {i.name for i in graph.input}
    nodes, added = [], []
    for node in graph.node:
        constant = node.op_type == "Conv" and node.input[1] in constants
        kernel = numpy_helper.to_array(constants[node.input[1]]) if constant else None
        if kernel is None or node.input[0] in inputs or kernel[0, 0].size == 1:
            nodes.append(node)
            continue
        kernel = kernel.astype(numpy.float32)
        channels = kernel.shape[0]
        scale = numpy.abs(kernel.reshape(channels, -1)).max(axis=1) / 127.0
        scale[scale == 0] = 1.0  # an all-zero channel: any scale gives zeros
        shape = (channels,) + (1,) * (kernel.ndim - 1)
        per_channel = shape[:1] + shape[2:]  # broadcast over an output [batch, channels, rows, columns]
        q = (numpy.round(kernel / scale.reshape(shape)) + 128).clip(1, 255).astype(numpy.uint8)
        p = "int8/" + (node.name or node.input[1])
        added += [numpy_helper.from_array(q, p + "/kernel"),
                  numpy_helper.from_array(numpy.array(128, numpy.uint8), p + "/kernel_zero"),
                  numpy_helper.from_array(scale.reshape(per_channel).astype(numpy.float32), p + "/kernel_scale")]
        nodes += [helper.make_node("DynamicQuantizeLinear", [node.input[0]], [p + "/x", p + "/x_scale", p + "/x_zero"]),
                  helper.make_node("ConvInteger", [p + "/x", p + "/kernel", p + "/x_zero", p + "/kernel_zero"],
                                   [p + "/sum"], **{a.name: helper.get_attribute_value(a) for a in node.attribute}),
                  helper.make_node("Cast", [p + "/sum"], [p + "/sum_float"], to=TensorProto.FLOAT),
                  helper.make_node("Mul", [p + "/x_scale", p + "/kernel_scale"], [p + "/scale"])]
        if len(node.input) > 2 and node.input[2]:
            bias = numpy_helper.to_array(constants[node.input[2]]).astype(numpy.float32)
            added.append(numpy_helper.from_array(bias.reshape(per_channel), p + "/bias"))
            nodes += [helper.make_node("Mul", [p + "/sum_float", p + "/scale"], [p + "/scaled"]),
                      helper.make_node("Add", [p + "/scaled", p + "/bias"], [node.output[0]])]
        else:
            nodes.append(helper.make_node("Mul", [p + "/sum_float", p + "/scale"], [node.output[0]]))
    del graph.node[:]
    graph.node.extend(nodes)
    graph.initializer.extend(added)
    used = {name for node in graph.node for name in node.input}
    kept = [i for i in graph.initializer if i.name in used]
    del graph.initializer[:]
    graph.initializer.extend(kept)


def main():
    if len(sys.argv) not in (5, 6) or (len(sys.argv) == 6 and sys.argv[5] not in ("fp32", "int8")):
        fail("usage: export_onnx.py <model.pt> <out.onnx> <board size> <opset> [fp32|int8]")
    source, out, size, opset = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    precision = sys.argv[5] if len(sys.argv) == 6 else "fp32"
    try:
        import onnx
        import torch
    except ImportError as e:
        fail("ONNX export needs Debian's python3-torch and python3-onnx for /usr/bin/python3 (%s)" % e)
    extra = {"quax.json": ""}
    model = torch.jit.load(source, map_location="cpu", _extra_files=extra)
    model.eval()
    description = json.loads(extra["quax.json"])
    planes = torch.zeros(2, len(description["planes"]), size, size)
    temporary = out + ".tmp%d" % os.getpid()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "no signature found for ScriptMethod": a TorchScript module's
            torch.onnx.export(model, (planes,), temporary, opset_version=opset, input_names=["planes"],
                              output_names=["policy", "value"],
                              dynamic_axes={"planes": {0: "batch"}, "policy": {0: "batch"}, "value": {0: "batch"}})
        graph = onnx.load(temporary)
        if precision == "int8":
            quantize_convolutions(graph.graph)
        description["onnx"] = {"size": size, "opset": opset, "precision": precision, "inputs": {"planes": ["batch", len(description["planes"]),
                                                                                  size, size]},
                               "outputs": {"policy": ["batch", "num_actions at this size"], "value": ["batch"]}}
        entry = graph.metadata_props.add()
        entry.key, entry.value = "quax.json", json.dumps(description)
        graph.producer_name = "quax export --onnx"
        onnx.checker.check_model(graph)
        onnx.save(graph, temporary)
        os.replace(temporary, out)
    except Exception as e:  # one line for the program to report
        if os.path.exists(temporary):
            os.remove(temporary)
        fail("%s: %s" % (type(e).__name__, e))


if __name__ == "__main__":
    main()
