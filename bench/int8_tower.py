"""What int8 could give self-play: the residual tower of a network (its 3x3 convolutions, what
costs nearly all of a forward pass) in float32, bfloat16 and int8 (PyTorch's quantized
convolutions on the oneDNN engine, which uses AVX-512 VNNI or AMX-INT8 where the CPU has them),
on one thread, positions per second at self-play's batch. Also how far int8's tower output is
from float32's (relative to its size), with scales calibrated on the same kind of input.

    /usr/bin/python3 bench/int8_tower.py [--blocks 4] [--filters 48] [--size 9] [--batch 48]

A measurement of the ceiling before building an int8 path in the C++ evaluator: if the tower does
not run much faster in int8 here, neither will self-play."""
import argparse
import time

import torch


def tower_weights(blocks, filters, seed):
    g = torch.Generator().manual_seed(seed)
    fan_in = filters * 9
    return [(torch.randn(filters, filters, 3, 3, generator=g) * (2.0 / fan_in) ** 0.5,
             torch.randn(filters, generator=g) * 0.1) for _ in range(2 * blocks)]


def tower_float(x, weights):
    h = x
    for i in range(0, len(weights), 2):
        y = torch.relu(torch.conv2d(h, weights[i][0], weights[i][1], padding=1))
        h = torch.relu(h + torch.conv2d(y, weights[i + 1][0], weights[i + 1][1], padding=1))
    return h


class Block(torch.nn.Module):
    def __init__(self, first, second):
        super().__init__()
        self.first = torch.nn.Conv2d(first[0].shape[1], first[0].shape[0], 3, padding=1)
        self.second = torch.nn.Conv2d(second[0].shape[1], second[0].shape[0], 3, padding=1)
        for conv, (w, b) in ((self.first, first), (self.second, second)):
            conv.weight.data.copy_(w)
            conv.bias.data.copy_(b)

    def forward(self, h):
        return torch.relu(h + self.second(torch.relu(self.first(h))))


class Tower(torch.nn.Module):
    def __init__(self, weights):
        super().__init__()
        self.blocks = torch.nn.Sequential(*[Block(weights[i], weights[i + 1]) for i in range(0, len(weights), 2)])

    def forward(self, x):
        return self.blocks(x)


def frozen_tower(weights, dtype):
    """The tower as the C++ evaluator runs it: scripted, frozen, optimize_for_inference (oneDNN's
    fused convolutions), weights in `dtype`."""
    module = Tower(weights).to(dtype).eval()
    return torch.jit.optimize_for_inference(torch.jit.freeze(torch.jit.script(module)))


class Int8Tower:
    """The same tower with int8 weights (per output channel) and uint8 activations whose scales
    come from one float32 pass over `calibration`."""

    def __init__(self, weights, calibration):
        # Per block: the input's scale (uint8 from 0), the first convolution's after its ReLU
        # (uint8), the second's before the sum (signed: int8's range in uint8, zero point 128).
        self.scales = []
        h = calibration
        for i in range(0, len(weights), 2):
            y = torch.relu(torch.conv2d(h, weights[i][0], weights[i][1], padding=1))
            c = torch.conv2d(y, weights[i + 1][0], weights[i + 1][1], padding=1)
            self.scales.append((h.max().item() / 255.0, y.max().item() / 255.0, c.abs().max().item() / 127.0))
            h = torch.relu(h + c)
        self.out_scale = h.max().item() / 255.0
        self.packed = []
        for w, b in weights:
            wscale = (w.abs().amax(dim=(1, 2, 3)) / 127.0).clamp(min=1e-8)
            qw = torch.quantize_per_channel(w, wscale, torch.zeros(w.shape[0], dtype=torch.long), 0, torch.qint8)
            self.packed.append(torch.ops.quantized.conv2d_prepack(qw, b, [1, 1], [1, 1], [1, 1], 1))

    def __call__(self, x):
        h = torch.quantize_per_tensor(x, self.scales[0][0], 0, torch.quint8)
        for block, (_, y_scale, c_scale) in enumerate(self.scales):
            y = torch.ops.quantized.conv2d_relu(h, self.packed[2 * block], y_scale, 0)
            c = torch.ops.quantized.conv2d(y, self.packed[2 * block + 1], c_scale, 128)
            next_scale = self.scales[block + 1][0] if block + 1 < len(self.scales) else self.out_scale
            h = torch.ops.quantized.add_relu(h, c, next_scale, 0)
        return torch.dequantize(h)


def rate(fn, x, seconds):
    with torch.inference_mode():
        fn(x)
        best = float("inf")
        for _ in range(3):
            n, start = 0, time.perf_counter()
            while time.perf_counter() - start < seconds / 3:
                fn(x)
                n += 1
            best = min(best, (time.perf_counter() - start) / n)
    return x.shape[0] / best


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--blocks", type=int, default=4)
    parser.add_argument("--filters", type=int, default=48)
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--batch", type=int, default=48)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.backends.quantized.engine = "onednn" if "onednn" in torch.backends.quantized.supported_engines else "fbgemm"
    weights = tower_weights(args.blocks, args.filters, 1)
    # The tower's input as the stem gives it: non-negative (after a ReLU), about unit size.
    g = torch.Generator().manual_seed(2)
    x = torch.relu(torch.randn(args.batch, args.filters, args.size, args.size, generator=g))
    calibration = torch.relu(torch.randn(256, args.filters, args.size, args.size, generator=g))
    x_cl = x.contiguous(memory_format=torch.channels_last)
    int8 = Int8Tower(weights, calibration)
    with torch.inference_mode():
        want = tower_float(x, weights)
        got = int8(x_cl)
    error = ((got - want).norm() / want.norm()).item()
    fp32 = rate(frozen_tower(weights, torch.float32), x_cl, args.seconds)
    bf16 = rate(frozen_tower(weights, torch.bfloat16), x_cl.to(torch.bfloat16), args.seconds)
    q = rate(int8, x_cl, args.seconds)
    print(f"tower {args.blocks} x {args.filters}, {args.size}x{args.size}, batch {args.batch}, one thread, "
          f"torch {torch.__version__}, quantized engine {torch.backends.quantized.engine}")
    print(f"  fp32 {fp32:.0f} positions/s, bf16 {bf16:.0f} ({bf16 / fp32:.2f}x), int8 {q:.0f} ({q / fp32:.2f}x)")
    print(f"  int8 output against fp32: relative error {error:.4f}")


if __name__ == "__main__":
    main()
