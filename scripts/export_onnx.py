#!/usr/bin/env python3
"""A model file of quax (TorchScript with its description) written as an ONNX model: what
`quax export --onnx` runs (compiled into the program) with Debian's PyTorch and python3-onnx.

    export_onnx.py <model.pt> <out.onnx> <board size> <opset> [fp32 | int8 <calibration.json>]

The ONNX graph: input "planes" [batch, C, N, N] float32, outputs "policy" [batch, A] (logits)
and "value" [batch]; the batch axis is dynamic, the board size fixed (the policy's actions
depend on it). The description goes into the model's metadata as "quax.json", extended with
"onnx": {"size", "opset", "precision", "inputs", "outputs"}. Writes <out.onnx> atomically. On
an error: one line on stderr, exit 1.

int8 computes the tower's convolutions in 8-bit integers (quantize_convolutions below), with
activation scales measured on the positions of <calibration.json>; everything else, the inputs
and the outputs stay float32.
"""
import json
import os
import sys
import warnings


def fail(message):
    lines = message.splitlines()
    sys.stderr.write((lines[0] if lines else "failed") + "\n")
    sys.exit(1)


def run_graph(graph, planes):
    """Every tensor of `graph` (an exported network) on `planes` [B, C, N, N], computed with
    torch: name -> tensor. The calibration's view inside the network; calibration_values checks
    its outputs against the model's own. It evaluates the operators the shipped networks are
    made of and refuses any other."""
    import torch
    from onnx import helper, numpy_helper
    values = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in graph.initializer}
    values[graph.input[0].name] = planes
    for node in graph.node:
        a = {x.name: helper.get_attribute_value(x) for x in node.attribute}
        x = [values[i] if i else None for i in node.input]
        op = node.op_type
        if op == "Conv":
            pads = a.get("pads", [0, 0, 0, 0])
            if pads[:2] != pads[2:]:
                raise ValueError(f"calibration: Conv {node.name} has uneven padding {pads}")
            y = torch.nn.functional.conv2d(x[0], x[1], x[2] if len(x) > 2 else None, stride=a.get("strides", [1, 1]),
                                           padding=pads[:2], dilation=a.get("dilations", [1, 1]), groups=a.get("group", 1))
        elif op == "Relu":
            y = torch.relu(x[0])
        elif op == "Tanh":
            y = torch.tanh(x[0])
        elif op == "Add":
            y = x[0] + x[1]
        elif op == "Constant":
            y = torch.from_numpy(numpy_helper.to_array(a["value"]).copy())
        elif op == "Flatten":
            y = torch.flatten(x[0], a.get("axis", 1)) if a.get("axis", 1) > 0 else x[0].reshape(1, -1)
        elif op == "Concat":
            y = torch.cat(x, a["axis"])
        elif op == "Gemm":
            left = x[0].t() if a.get("transA", 0) else x[0]
            right = x[1].t() if a.get("transB", 0) else x[1]
            y = a.get("alpha", 1.0) * (left @ right) + (a.get("beta", 1.0) * x[2] if len(x) > 2 and x[2] is not None else 0)
        elif op in ("ReduceMean", "ReduceMax"):
            axes = a.get("axes") or [int(v) for v in x[1].tolist()]
            keep = bool(a.get("keepdims", 1))
            y = x[0].mean(dim=axes, keepdim=keep) if op == "ReduceMean" else x[0].amax(dim=axes, keepdim=keep)
        elif op == "MaxPool":
            pads = a.get("pads", [0, 0, 0, 0])
            y = torch.nn.functional.max_pool2d(x[0], a["kernel_shape"], a.get("strides", a["kernel_shape"]), pads[:2])
        elif op in ("Squeeze", "Unsqueeze"):
            axes = a.get("axes") or [int(v) for v in x[1].tolist()]
            y = x[0]
            if op == "Squeeze":
                for axis in sorted((d % y.dim() for d in axes), reverse=True):
                    y = y.squeeze(axis)
            else:
                for axis in sorted(axes):
                    y = y.unsqueeze(axis)
        elif op == "Slice":  # torax's padding across the seam; steps are positive there
            y = x[0]
            axes = x[3].tolist() if len(x) > 3 and x[3] is not None else list(range(len(x[1])))
            steps = x[4].tolist() if len(x) > 4 and x[4] is not None else [1] * len(axes)
            for start, stop, axis, step in zip(x[1].tolist(), x[2].tolist(), axes, steps):
                if step <= 0:
                    raise ValueError(f"calibration: Slice {node.name} with step {step}")
                y = y[(slice(None),) * (axis % y.dim()) + (slice(start, stop, step),)]
        else:
            raise ValueError(f"calibration: the ONNX operator {op} is not evaluated (scripts/export_onnx.py run_graph)")
        values[node.output[0]] = y
    return values


def tower_convolutions(graph):
    """The convolutions computed in int8: the tower's (a kernel wider than 1x1 on an inner
    tensor). The first convolution (on the input planes) and the heads' 1x1 convolutions stay
    float32: they cost little of the arithmetic, and rounding them moved the value most
    (hex-11.pt on 64 random positions: the first alone by up to 0.09, the value head's by up to
    0.07, each tower convolution's by 0.01-0.08)."""
    from onnx import numpy_helper
    constants = {i.name: i for i in graph.initializer}
    inputs = {i.name for i in graph.input}
    return [n for n in graph.node if n.op_type == "Conv" and n.input[1] in constants and n.input[0] not in inputs
            and numpy_helper.to_array(constants[n.input[1]])[0, 0].size > 1]


def quantize_convolutions(graph, values):
    """Rewrites the tower's convolutions of `graph` to run in 8-bit integers, in ONNX's QDQ form:
    each one's input and weights pass through DequantizeLinear, and its output (after its Relu
    when one follows) through QuantizeLinear and DequantizeLinear, so that ONNX Runtime fuses it
    into one QLinearConv (measured in the static page: 1.6-1.9x float32's speed on one thread,
    about 1.3x on two; ConvInteger, the dynamic form used before, gave 1.4x on one and lost on
    two).

    The kernel is rounded once, here, to int8 per output channel (scale = the channel's largest
    |weight| / 127, zero point 0). Each activation gets one scale for all positions, from
    `values` (run_graph on the calibration positions): its largest |value| / 255 as uint8 where
    it is never negative (a Relu's output: the quantizer's clamp at zero does the Relu's work),
    else / 127 as int8. A value beyond the calibration's largest
    saturates, so the calibration positions must span the game (random games of every length).
    The zero point is the encoding of 0.0, so a convolution's zero padding means what it means in
    float32. Biases stay float32; ONNX Runtime rounds them to int32 at its input scales."""
    import numpy
    from onnx import helper, numpy_helper
    constants = {i.name: i for i in graph.initializer}
    tower = tower_convolutions(graph)
    consumers = {}
    for node in graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    rounded = set()  # the activations given a Quantize/Dequantize pair
    for node in tower:
        rounded.add(node.input[0])
        after = consumers.get(node.output[0], [])
        rounded.add(after[0].output[0] if len(after) == 1 and after[0].op_type == "Relu" else node.output[0])
    outputs = {o.name for o in graph.output}
    if rounded & outputs:
        raise ValueError(f"int8: a network output would be rounded ({sorted(rounded & outputs)})")
    tower_outputs = {n.output[0] for n in tower}
    nodes, added, renamed = [], [], {}
    for node in graph.node:
        for i, name in enumerate(node.input):
            node.input[i] = renamed.get(name, name)
        if node.output[0] in tower_outputs:
            kernel = numpy_helper.to_array(constants[node.input[1]]).astype(numpy.float32)
            channels = kernel.shape[0]
            scale = numpy.abs(kernel.reshape(channels, -1)).max(axis=1) / 127.0
            scale[scale == 0] = 1.0  # an all-zero channel: any scale gives zeros
            q = numpy.round(kernel / scale.reshape((channels,) + (1,) * (kernel.ndim - 1))).clip(-127, 127)
            p = "int8/" + node.input[1]
            added += [numpy_helper.from_array(q.astype(numpy.int8), p + "/kernel"),
                      numpy_helper.from_array(scale.astype(numpy.float32), p + "/kernel_scale"),
                      numpy_helper.from_array(numpy.zeros(channels, numpy.int8), p + "/kernel_zero")]
            nodes.append(helper.make_node("DequantizeLinear", [p + "/kernel", p + "/kernel_scale", p + "/kernel_zero"],
                                          [p + "/kernel_float"], axis=0))
            node.input[1] = p + "/kernel_float"
        nodes.append(node)
        for name in node.output:
            if name not in rounded:
                continue
            v = values[name]
            unsigned = bool(v.min() >= 0)
            largest = float(v.abs().max())
            scale = (largest if largest > 0 else 1.0) / (255.0 if unsigned else 127.0)
            p = "int8/" + name
            added += [numpy_helper.from_array(numpy.array(scale, numpy.float32), p + "/scale"),
                      numpy_helper.from_array(numpy.array(0, numpy.uint8 if unsigned else numpy.int8), p + "/zero")]
            nodes += [helper.make_node("QuantizeLinear", [name, p + "/scale", p + "/zero"], [p + "/int8"]),
                      helper.make_node("DequantizeLinear", [p + "/int8", p + "/scale", p + "/zero"], [p + "/rounded"])]
            renamed[name] = p + "/rounded"
    del graph.node[:]
    graph.node.extend(nodes)
    graph.initializer.extend(added)
    used = {name for node in graph.node for name in node.input}
    kept = [i for i in graph.initializer if i.name in used]
    del graph.initializer[:]
    graph.initializer.extend(kept)


def calibration_values(graph, model, path, size):
    """run_graph on the calibration positions of `path` (JSON {planes_shape, planes}: `quax
    export` writes random positions of the model's game there), after checking that its outputs
    are the model's own: a graph the evaluation gets wrong would calibrate wrong scales."""
    import torch
    with open(path) as f:
        calibration = json.load(f)
    shape = calibration["planes_shape"]
    if len(shape) != 4 or shape[2] != size or shape[3] != size:
        raise ValueError(f"calibration positions of shape {shape}, not [B, C, {size}, {size}]")
    planes = torch.tensor(calibration["planes"], dtype=torch.float32).reshape(shape)
    values = run_graph(graph, planes)
    with torch.no_grad():
        policy, value = model(planes)
    gap = max(float((values[graph.output[0].name] - policy).abs().max()),
              float((values[graph.output[1].name].reshape(-1) - value.reshape(-1)).abs().max()))
    if not gap <= 1e-3:
        raise ValueError(f"calibration: the graph evaluated differs from the model by {gap:.3g}")
    return values


def main():
    usage = "usage: export_onnx.py <model.pt> <out.onnx> <board size> <opset> [fp32 | int8 <calibration.json>]"
    if not (len(sys.argv) == 5 or (len(sys.argv) == 6 and sys.argv[5] == "fp32")
            or (len(sys.argv) == 7 and sys.argv[5] == "int8")):
        fail(usage)
    source, out, size, opset = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    precision = sys.argv[5] if len(sys.argv) >= 6 else "fp32"
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
            quantize_convolutions(graph.graph, calibration_values(graph.graph, model, sys.argv[6], size))
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
