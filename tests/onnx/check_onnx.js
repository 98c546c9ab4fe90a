// Runs ONNX models of `quax export --onnx` in ONNX Runtime (onnxruntime-node, not LibTorch) on
// the reference positions `quax export --reference` wrote, and compares the policy logits and
// values with LibTorch's: the largest difference must be at most 1e-4. The batch axis is
// dynamic: the positions are run as one batch and the first one alone.
//   node check_onnx.js <model.onnx> <reference.json> [<model.onnx> <reference.json> ...]
// Prints a line per model; exit 1 at the first that differs or does not run.
const fs = require('fs');
const ort = require('onnxruntime-node');

const kTolerance = 1e-4;

async function check(modelPath, referencePath) {
  const ref = JSON.parse(fs.readFileSync(referencePath, 'utf8'));
  const [b, c, n, n2] = ref.planes_shape;
  const session = await ort.InferenceSession.create(modelPath);
  const planes = new ort.Tensor('float32', Float32Array.from(ref.planes), [b, c, n, n2]);
  const out = await session.run({planes});
  const a = ref.policy_shape[1];
  if (out.policy.dims.join() !== [b, a].join() || out.value.dims.join() !== [b].join())
    throw new Error(`output shapes ${out.policy.dims} and ${out.value.dims}, expected [${b}, ${a}] and [${b}]`);
  let diff = 0;
  for (let i = 0; i < b * a; ++i) diff = Math.max(diff, Math.abs(out.policy.data[i] - ref.policy[i]));
  for (let i = 0; i < b; ++i) diff = Math.max(diff, Math.abs(out.value.data[i] - ref.value[i]));
  if (!(diff <= kTolerance)) throw new Error(`outputs differ from LibTorch's by ${diff} (at most ${kTolerance})`);
  // One position alone gives what it gave inside the batch.
  const one = await session.run({planes: new ort.Tensor('float32', Float32Array.from(ref.planes.slice(0, c * n * n2)),
                                                        [1, c, n, n2])});
  let alone = Math.abs(one.value.data[0] - out.value.data[0]);
  for (let i = 0; i < a; ++i) alone = Math.max(alone, Math.abs(one.policy.data[i] - out.policy.data[i]));
  if (!(alone <= kTolerance)) throw new Error(`a position alone differs from itself in a batch by ${alone}`);
  return `ok: ${modelPath}: ${b} positions of ${n}x${n2}, ${a} actions, max abs diff ${diff.toExponential(2)}`;
}

(async () => {
  const args = process.argv.slice(2);
  if (args.length < 2 || args.length % 2) {
    console.error('usage: node check_onnx.js <model.onnx> <reference.json> [...]');
    process.exit(2);
  }
  for (let i = 0; i < args.length; i += 2) {
    try {
      console.log(await check(args[i], args[i + 1]));
    } catch (e) {
      console.log(`FAIL: ${args[i]}: ${e.message.split('\n')[0]}`);
      process.exit(1);
    }
  }
})();
