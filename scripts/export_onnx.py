#!/usr/bin/env python3
"""A model file of quax (TorchScript with its description) written as an ONNX model: what
`quax export --onnx` runs (compiled into the program) with Debian's PyTorch and python3-onnx.

    export_onnx.py <model.pt> <out.onnx> <board size> <opset>

The ONNX graph: input "planes" [batch, C, N, N] float32, outputs "policy" [batch, A] (logits)
and "value" [batch]; the batch axis is dynamic, the board size fixed (the policy's actions
depend on it). The description goes into the model's metadata as "quax.json", extended with
"onnx": {"size", "opset", "inputs", "outputs"}. Writes <out.onnx> atomically. On an error:
one line on stderr, exit 1.
"""
import json
import os
import sys
import warnings


def fail(message):
    lines = message.splitlines()
    sys.stderr.write((lines[0] if lines else "failed") + "\n")
    sys.exit(1)


def main():
    if len(sys.argv) != 5:
        fail("usage: export_onnx.py <model.pt> <out.onnx> <board size> <opset>")
    source, out, size, opset = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
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
        description["onnx"] = {"size": size, "opset": opset, "inputs": {"planes": ["batch", len(description["planes"]),
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
