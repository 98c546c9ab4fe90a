#!/usr/bin/env python3
"""Checks an exported quax model from Python alone (no quax code): it loads with
torch.jit.load, carries its description, and gives the checkpoint's outputs.

Usage: check_export.py <model.pt> <reference.json> [<model.pt> <reference.json> ...]
  reference.json: written by `quax export ... --reference FILE` (planes of random positions
  and the checkpoint's policy logits and values on them). Several pairs are checked in turn
  (one Python start for all), each printing its line.
Exit status: 0 = all checks passed, 1 = a check failed, 77 = PyTorch is not installed
(the CLI test reports that as skipped).
"""
import json
import sys

try:
    import torch
except ImportError:
    print("SKIP: PyTorch is not importable by " + sys.executable + " (install python3-torch)")
    sys.exit(77)


def fail(message):
    print("FAIL: %s: %s" % (current, message))
    sys.exit(1)


def main():
    if len(sys.argv) < 3 or len(sys.argv) % 2 != 1:
        print(__doc__)
        sys.exit(2)
    for i in range(1, len(sys.argv), 2):
        check(sys.argv[i], sys.argv[i + 1])


current = ""  # the model file being checked, for fail()

# How far Python's outputs may be from the engine's. The engine runs its convolutions
# channels-last and Python contiguous: float32 sums in another order, measured up to 1.4e-5 on
# crossway-19 (logits up to 8.7) on an AVX2-only EPYC. The faults this guards against are far
# larger (a module left in training mode moved a value by 0.84).
LIMIT = 1e-4


def check(model_path, reference_path):
    global current
    current = model_path
    extra = {"quax.json": ""}
    model = torch.jit.load(model_path, map_location="cpu", _extra_files=extra)
    desc = json.loads(extra["quax.json"])
    for key in ["format_version", "variant", "size", "planes", "action_layout", "plane_shape", "net", "step",
                "num_actions"]:
        if key not in desc:
            fail("description lacks '%s'" % key)
    with open(reference_path) as f:
        ref = json.load(f)
    b, c, n, n2 = ref["planes_shape"]
    if (c, n, n2) != (len(desc["planes"]), desc["size"], desc["size"]):
        fail("reference planes %s do not fit the description (%d planes, size %d)"
             % (ref["planes_shape"], len(desc["planes"]), desc["size"]))
    if desc["plane_shape"] != [c, n, n]:
        fail("plane_shape %s, where the planes are %s" % (desc["plane_shape"], [c, n, n]))
    # Loaded as a user loads it: no .eval(). A module saved in training mode normalizes by the
    # batch's statistics (and overwrites its running ones): wrong values, checked below.
    if model.training:
        fail("the module was saved in training mode (a user's forward() would use the batch's statistics)")
    planes = torch.tensor(ref["planes"], dtype=torch.float32).reshape(b, c, n, n)
    with torch.no_grad():
        policy, value = model(planes)
    a = desc["num_actions"]
    if tuple(policy.shape) != (b, a) or tuple(value.shape) != (b,):
        fail("output shapes %s, %s; expected (%d, %d), (%d,)" % (tuple(policy.shape), tuple(value.shape), b, a, b))
    want_policy = torch.tensor(ref["policy"], dtype=torch.float32).reshape(b, a)
    want_value = torch.tensor(ref["value"], dtype=torch.float32)
    diff = max((policy - want_policy).abs().max().item(), (value - want_value).abs().max().item())
    if not diff < LIMIT:
        fail("outputs differ from the checkpoint's by %g (limit %g)" % (diff, LIMIT))
    # A second call must give the same answer (the module is in eval mode, no batch statistics).
    with torch.no_grad():
        policy2, _ = model(planes[:1])
    if not (policy2[0] - policy[0]).abs().max().item() < LIMIT:
        fail("the output of a position depends on the rest of the batch (module left in training mode?)")
    layout = desc["action_layout"]
    print("ok: %s: %s %dx%d step %d, %d positions, %d actions (%s), max abs diff %.3g"
          % (model_path, desc["variant"], desc["size"], desc["size"], desc["step"], b, a,
             ", ".join(p["name"] for p in layout["spatial_planes"] + layout.get("extra_actions", [])), diff))


if __name__ == "__main__":
    main()
