// Runs ONNX models of `quax export --onnx` in ONNX Runtime (onnxruntime-node, not LibTorch) on
// the reference positions `quax export --reference` wrote, and compares the policy logits and
// values with LibTorch's: the largest difference must be at most 1e-4. The batch axis is
// dynamic: the positions are run as one batch and the first one alone.
// With --int8 (files of `quax export --onnx-int8`) the outputs are held to int8's rounding of
// LibTorch's float32 (docs/MODELS.md): move probabilities within kInt8Probability, values within
// kInt8Value and on average within kInt8MeanValue, the most likely move the same in at least
// kInt8SameTop of the positions, and never float32's own outputs (a file that silently kept
// float32 convolutions would give them). Measured over 64 positions of each of hex-11, quax-11,
// crossway-19, y-15 and quadrex-19 (activation scales fixed in the file, 2026-11-29):
// probabilities 0.02-0.10 apart at most, values 0.11-0.24 at most and 0.013-0.034 on average, the
// most likely move the same in 94-100%. (Inputs rounded at run time, the files before, gave
// 0.03-0.06, 0.08-0.17, 0.008-0.017 and 97-100%, but at a batch's range, so that a position's
// outputs depended on the other positions of its batch.) Activation scales half as large as
// they should be (values beyond them saturate) miss: probabilities 0.20 apart on hex-11.
//   node check_onnx.js [--int8] <model.onnx> <reference.json> [<model.onnx> <reference.json> ...]
// Prints a line per model; exit 1 at the first that differs or does not run.
const fs = require('fs');
const ort = require('onnxruntime-node');

const kTolerance = 1e-4;
const kInt8Probability = 0.12, kInt8Value = 0.3, kInt8MeanValue = 0.045, kInt8SameTop = 0.9;

function softmax(logits, from, count) {
  let top = -Infinity;
  for (let i = 0; i < count; ++i) top = Math.max(top, logits[from + i]);
  const p = new Float64Array(count);
  let sum = 0;
  for (let i = 0; i < count; ++i) sum += (p[i] = Math.exp(logits[from + i] - top));
  return p.map((x) => x / sum);
}

function argmax(values) {
  let best = 0;
  for (let i = 1; i < values.length; ++i) if (values[i] > values[best]) best = i;
  return best;
}

// The int8 comparison of `b` positions: {probability, value, meanValue, sameTop, logit}: the
// largest probability and value differences, the mean value difference, the share of
// positions with the same most likely move, the largest logit difference.
function int8Gaps(out, ref, b, a) {
  const gaps = {probability: 0, value: 0, meanValue: 0, sameTop: 0, logit: 0};
  for (let p = 0; p < b; ++p) {
    const mine = softmax(out.policy.data, p * a, a), theirs = softmax(ref.policy, p * a, a);
    for (let i = 0; i < a; ++i) {
      gaps.probability = Math.max(gaps.probability, Math.abs(mine[i] - theirs[i]));
      gaps.logit = Math.max(gaps.logit, Math.abs(out.policy.data[p * a + i] - ref.policy[p * a + i]));
    }
    gaps.sameTop += (argmax(mine) === argmax(theirs)) / b;
    const value = Math.abs(out.value.data[p] - ref.value[p]);
    gaps.value = Math.max(gaps.value, value);
    gaps.meanValue += value / b;
  }
  return gaps;
}

// Throws unless `gaps` are within int8's bars.
function checkInt8(gaps, what) {
  if (!(gaps.probability <= kInt8Probability))
    throw new Error(`${what}: int8 probabilities differ from LibTorch's by ${gaps.probability} (at most ${kInt8Probability})`);
  if (!(gaps.value <= kInt8Value && gaps.meanValue <= kInt8MeanValue))
    throw new Error(`${what}: int8 values differ from LibTorch's by ${gaps.value}, ${gaps.meanValue} on average ` +
                    `(at most ${kInt8Value}, ${kInt8MeanValue})`);
}

async function check(modelPath, referencePath, int8) {
  const ref = JSON.parse(fs.readFileSync(referencePath, 'utf8'));
  const [b, c, n, n2] = ref.planes_shape;
  const session = await ort.InferenceSession.create(modelPath);
  const planes = new ort.Tensor('float32', Float32Array.from(ref.planes), [b, c, n, n2]);
  const out = await session.run({planes});
  const a = ref.policy_shape[1];
  if (out.policy.dims.join() !== [b, a].join() || out.value.dims.join() !== [b].join())
    throw new Error(`output shapes ${out.policy.dims} and ${out.value.dims}, expected [${b}, ${a}] and [${b}]`);
  let diff = 0, summary = '';
  if (int8) {
    const gaps = int8Gaps(out, ref, b, a);
    checkInt8(gaps, `${b} positions`);
    if (!(gaps.sameTop >= kInt8SameTop))
      throw new Error(`the most likely move is LibTorch's in ${(100 * gaps.sameTop).toFixed(0)}% of the positions (at least ${100 * kInt8SameTop}%)`);
    if (!(gaps.logit > kTolerance)) throw new Error(`int8 outputs equal float32's within ${kTolerance}: not int8`);
    diff = gaps.probability;
    summary = `, int8: values within ${gaps.value.toFixed(3)} (${gaps.meanValue.toFixed(4)} on average), ` +
              `the same most likely move in ${(100 * gaps.sameTop).toFixed(0)}%`;
  } else {
    for (let i = 0; i < b * a; ++i) diff = Math.max(diff, Math.abs(out.policy.data[i] - ref.policy[i]));
    for (let i = 0; i < b; ++i) diff = Math.max(diff, Math.abs(out.value.data[i] - ref.value[i]));
    if (!(diff <= kTolerance)) throw new Error(`outputs differ from LibTorch's by ${diff} (at most ${kTolerance})`);
  }
  // One position alone gives what it gave inside the batch.
  const one = await session.run({planes: new ort.Tensor('float32', Float32Array.from(ref.planes.slice(0, c * n * n2)),
                                                        [1, c, n, n2])});
  let alone = Math.abs(one.value.data[0] - out.value.data[0]);
  for (let i = 0; i < a; ++i) alone = Math.max(alone, Math.abs(one.policy.data[i] - out.policy.data[i]));
  // int8 too: its scales are fixed in the file, so a position is rounded the same in any batch.
  if (!(alone <= kTolerance)) throw new Error(`a position alone differs from itself in a batch by ${alone}`);
  return `ok: ${modelPath}: ${b} positions of ${n}x${n2}, ${a} actions, max abs diff ${diff.toExponential(2)}${summary}`;
}

(async () => {
  let args = process.argv.slice(2);
  const int8 = args[0] === '--int8';
  if (int8) args = args.slice(1);
  if (args.length < 2 || args.length % 2) {
    console.error('usage: node check_onnx.js [--int8] <model.onnx> <reference.json> [...]');
    process.exit(2);
  }
  for (let i = 0; i < args.length; i += 2) {
    try {
      console.log(await check(args[i], args[i + 1], int8));
    } catch (e) {
      console.log(`FAIL: ${args[i]}: ${e.message.split('\n')[0]}`);
      process.exit(1);
    }
  }
})();
