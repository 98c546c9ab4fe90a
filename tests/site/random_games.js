// The page's engine (WebAssembly) plays random games of every variant at two sizes and writes,
// per game, what its rules say at every position: legal actions, player to move, position key,
// a checksum of the network planes, and the outcome (check_rules.py compares them with the
// native engine's through the Python module).
//   node random_games.js <quax_engine.js> <games per variant and size> <seed> > games.jsonl
'use strict';
const path = require('path');

function rng(seed) {  // a small deterministic generator (mulberry32)
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

(async () => {
  const [enginePath, perSize = '3', seedText = '1'] = process.argv.slice(2);
  const QuaxEngine = require(path.resolve(enginePath));
  // Node's fetch cannot read a file path: the wasm is handed over as bytes.
  const engine = await QuaxEngine({ wasmBinary: require('fs').readFileSync(enginePath.replace(/\.js$/, '.wasm')) });
  const call = (method, p, body) => {
    const answer = JSON.parse(engine.request(method, p, body === undefined ? '' : JSON.stringify(body)));
    if (answer.status >= 400) throw new Error(`${method} ${p}: ${answer.body.error}`);
    return answer.body;
  };
  const random = rng(Number(seedText));
  const variants = call('GET', '/api/variants');
  let games = 0;
  for (const v of variants) {
    const sizes = [...new Set([v.sizes[0], v.default_size])];
    for (const size of sizes) {
      for (let g = 0; g < Number(perSize); ++g) {
        // The other pie rule too, where the variant allows it.
        let swap = g % 2 === 0 ? v.swap : !v.swap;
        let created = JSON.parse(engine.request('POST', '/api/games', JSON.stringify({ variant: v.name, size, swap, human: 'both' })));
        if (created.status >= 400) {
          swap = v.swap;
          created = { body: call('POST', '/api/games', { variant: v.name, size, swap, human: 'both' }) };
        }
        let view = created.body;
        const actions = [];
        while (view.winner == null && actions.length < 2000) {
          const a = view.legal[Math.floor(random() * view.legal.length)];
          actions.push(a);
          view = call('POST', `/api/games/${view.id}/play`, { action: a });
        }
        const trace = JSON.parse(engine.trace(v.name, size, swap, JSON.stringify(actions)));
        if (trace.error) throw new Error(`${v.name} ${size}: ${trace.error}`);
        if (trace.outcome !== view.winner) throw new Error(`${v.name} ${size}: the view's winner ${view.winner}, the trace's ${trace.outcome}`);
        process.stdout.write(JSON.stringify({ variant: v.name, size, swap, actions, record: view.record, ...trace }) + '\n');
        games += 1;
      }
    }
  }
  process.stderr.write(`${games} games\n`);
})().catch((e) => {
  console.error(`FAIL: ${e.message}`);
  process.exit(1);
});
