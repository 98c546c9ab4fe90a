// page_backend.js: the static page's stand-in for `quax serve`. app.js (the same file as the
// server's page) asks window.QuaxBackend instead of fetch when it is there: request() answers
// the /api calls with the engine compiled to WebAssembly (quax_engine.js: the C++ rules, search
// and game views), and openStream() stands in for the analysis EventSource. The network runs
// in ONNX Runtime Web (ort/), on the leaves the C++ search hands out batch by batch.
'use strict';

(function () {
  const MODELS_URL = 'models/models.json';
  const REPORT_EVERY_MS = 150;  // the analysis panel's refresh, as the server's stream

  class BackendError extends Error {
    constructor(status, message) {
      super(message);
      this.status = status;
    }
  }

  let engine = null;
  let models = [];             // models.json
  const sessions = new Map();  // "name|size|network" -> Promise<ort.InferenceSession>
  // The network's number format: 'fp32' (the native engine's float32 outputs within 1e-4) or
  // 'int8' (the tower's convolutions in 8-bit integers, `quax export --onnx-int8`, within int8's
  // rounding of float32). ONNX Runtime Web's fused int8 convolutions beat its float32 ones:
  // 1.6-1.9x on one thread, 1.24-1.40x on two at hex 11 (docs/benchmarks-log.md, "The static
  // page"), so the page plays int8 unless ?network=fp32 in its address, or
  // QuaxBackend.setNetwork, says otherwise.
  const NETWORK_ASKED = new URLSearchParams(location.search).get('network');
  let network = 'int8';

  function setLoading(text, isError) {
    const line = document.getElementById('message');
    if (!line) return;
    line.textContent = text || '';
    line.className = `message${isError ? ' error' : ''}`;
  }

  // Registers the service worker (sw.js: offline play, and the COOP/COEP headers that a plain
  // static host does not send). A page it does not control yet is not cross-origin isolated, so
  // ONNX Runtime would run on one thread: the first visit waits for the worker to take the page
  // (at most ISOLATE_WAIT_MS) and reloads once; a tab that reloaded already goes on as it is.
  // Resolves true when the page is about to reload.
  const ISOLATE_WAIT_MS = 15000;
  const RELOADED = 'quax-isolation-reload';
  async function registerWorker() {
    if (!('serviceWorker' in navigator) || !self.isSecureContext) return false;
    try {
      await navigator.serviceWorker.register('sw.js');
    } catch (error) {
      return false;  // no offline play, one thread: the page still plays
    }
    if (self.crossOriginIsolated || sessionStorage.getItem(RELOADED)) return false;
    const controlled = navigator.serviceWorker.controller ? Promise.resolve(true) : new Promise((resolve) => {
      navigator.serviceWorker.addEventListener('controllerchange', () => resolve(true), { once: true });
      setTimeout(() => resolve(false), ISOLATE_WAIT_MS);
    });
    if (!(await controlled)) return false;
    sessionStorage.setItem(RELOADED, '1');
    location.reload();
    return true;
  }

  // ONNX Runtime's WebAssembly, shipped gzip-compressed (scripts/build_site.sh): unpacked here,
  // unless the host already did (a server that sends .gz files with Content-Encoding: gzip).
  const ORT_WASM = 'ort/ort-wasm-simd-threaded.wasm.gz';
  async function ortBinary() {
    let packed;
    try {
      const response = await fetch(ORT_WASM);
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
      packed = new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      throw new Error(`cannot read ONNX Runtime's WebAssembly (${ORT_WASM}): ${error.message}`);
    }
    if (packed[0] === 0x00 && packed[1] === 0x61 && packed[2] === 0x73 && packed[3] === 0x6d) return packed.buffer;
    if (packed[0] !== 0x1f || packed[1] !== 0x8b) throw new Error(`${ORT_WASM} is neither gzip nor WebAssembly`);
    if (typeof DecompressionStream !== 'function')
      throw new Error('this browser cannot unpack ONNX Runtime (no DecompressionStream): use a current browser');
    const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream('gzip'));
    return new Response(stream).arrayBuffer();
  }

  async function loadEngine() {
    if (await registerWorker()) await new Promise(() => {});  // the page reloads
    if (typeof QuaxEngine !== 'function') throw new Error('the engine (quax_engine.js) did not load');
    if (typeof ort === 'undefined') throw new Error('ONNX Runtime Web (ort/ort.wasm.min.js) did not load');
    ort.env.wasm.wasmPaths = new URL('ort/', document.baseURI).href;
    ort.env.wasm.wasmBinary = await ortBinary();
    // Threads need a cross-origin isolated page (COOP and COEP headers); SIMD is in the binary.
    ort.env.wasm.numThreads = self.crossOriginIsolated ? Math.min(4, navigator.hardwareConcurrency || 1) : 1;
    network = NETWORK_ASKED === 'fp32' ? 'fp32' : 'int8';
    const module = await QuaxEngine();
    let list;
    try {
      const response = await fetch(MODELS_URL);
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
      list = await response.json();
    } catch (error) {
      throw new Error(`cannot read the list of models (${MODELS_URL}): ${error.message}`);
    }
    const error = module.setModels(JSON.stringify(list));
    if (error) throw new Error(error);
    models = list;
    engine = module;
    return module;
  }

  let ready = null;
  function whenReady() {
    if (!ready) {
      ready = loadEngine().catch((error) => {
        setLoading(`the engine did not start: ${error.message}`, true);
        throw new BackendError(0, `the engine did not start: ${error.message}`);
      });
    }
    return ready;
  }

  function modelNamed(name) {
    return models.find((m) => m.name === name) || null;
  }

  // A session whose runs go one after another: an analysis stream that is being closed may
  // still be waiting for its last batch when the engine's search starts on the same model.
  function serialized(session) {
    let chain = Promise.resolve();
    return {
      run(feeds) {
        const result = chain.then(() => session.run(feeds));
        chain = result.catch(() => {});
        return result;
      },
    };
  }

  // The ONNX Runtime session of `name` at board size `size` (its files are per size) in the
  // page's number format (a model without int8 files runs in float32).
  function sessionFor(name, size) {
    const key = `${name}|${size}|${network}`;
    if (!sessions.has(key)) {
      const model = modelNamed(name);
      const files = model && (network === 'int8' && model.files_int8 ? model.files_int8 : model.files);
      const file = files ? files[String(size)] : null;
      const made = (async () => {
        if (!file) throw new Error(`${name} has no network for size ${size} in this page`);
        try {
          return serialized(await ort.InferenceSession.create(`models/${file}`, { executionProviders: ['wasm'] }));
        } catch (error) {
          throw new Error(`the model ${name} (models/${file}) failed to load: ${String(error.message || error).split('\n')[0]}`);
        }
      })();
      made.catch(() => sessions.delete(key));
      sessions.set(key, made);
    }
    return sessions.get(key);
  }

  function check(value) {
    const error = engine.lastError();
    if (error) throw new BackendError(409, error);
    return value;
  }

  // Runs search `h` to its end: each batch of leaves through the network, backed up in C++.
  // `onBatch(h)` after each batch may return false to stop. Returns the simulations done.
  async function runSearch(h, session, size, onBatch) {
    const actions = check(engine.searchActions(h));
    const planeFloats = check(engine.searchPlaneFloats(h));
    const channels = planeFloats / (size * size);
    while (!check(engine.searchDone(h))) {
      const n = check(engine.searchCollect(h));
      if (n > 0) {
        const at = engine.searchPlanes(h) / 4;
        const planes = engine.HEAPF32.slice(at, at + n * planeFloats);
        const out = await session.run({ planes: new ort.Tensor('float32', planes, [n, channels, size, size]) });
        if (out.policy.data.length !== n * actions || out.value.data.length !== n)
          throw new BackendError(500, `the network gave ${out.policy.dims} and ${out.value.dims} for ${n} positions of ${actions} actions`);
        engine.HEAPF32.set(out.policy.data, engine.searchLogits(h) / 4);  // HEAPF32 again: memory may have grown
        engine.HEAPF32.set(out.value.data, engine.searchValues(h) / 4);
        check(engine.searchDeliver(h, n));
      }
      if (onBatch && onBatch(h) === false) break;
    }
    return engine.searchSimulations(h);
  }

  function answer(text) {
    const data = JSON.parse(text);
    if (data.status >= 400) throw new BackendError(data.status, data.body && data.body.error ? data.body.error : `${data.status}`);
    return data.body;
  }

  // The engine's whole turn at game `id`, as POST /api/games/<id>/engine.
  async function engineTurn(id) {
    let view = answer(engine.request('GET', `/api/games/${id}`, ''));
    if (!view.engine_to_move) throw new BackendError(409, view.winner != null ? 'the game is over' : "it is not the engine's turn");
    while (view.engine_to_move && view.winner == null) {
      const session = await sessionFor(engine.engineModel(id), view.size);
      const seconds = JSON.parse(engine.engineSettings(id)).seconds;
      const h = check(engine.searchStart(id, 'engine', 0));
      try {
        // A timed engine: the clock ends its search (at least one simulation), as natively.
        const deadline = performance.now() + 1000 * seconds;
        await runSearch(h, session, view.size,
          seconds > 0 ? () => performance.now() < deadline || engine.searchSimulations(h) === 0 : null);
        view = answer(engine.searchPlay(h));
      } finally {
        engine.searchFree(h);
      }
    }
    return view;
  }

  async function request(method, path, body) {
    await whenReady();
    const match = /^\/api\/games\/([0-9]+)\/engine$/.exec(path);
    try {
      if (method === 'POST' && match) return await engineTurn(Number(match[1]));
      return answer(engine.request(method, path, body === undefined ? '' : JSON.stringify(body)));
    } catch (error) {
      if (error instanceof BackendError) throw error;
      throw new BackendError(500, error.message || String(error));
    }
  }

  // The model an analysis of game `view` uses: the one asked for, the game's engine's, else the
  // newest model of the variant's rules with a network at this size.
  function analysisModel(view, asked) {
    if (asked) return asked;
    const own = engine.engineModel(Number(view.id));
    if (own) return own;
    const plays = new Map(answer(engine.request('GET', '/api/players', '')).models.map((m) => [m.name, m.plays]));
    const candidates = models.filter((m) => (plays.get(m.name) || []).includes(view.variant) && m.files && m.files[String(view.size)]);
    candidates.sort((a, b) => (b.variant === view.variant) - (a.variant === view.variant) || (b.step || 0) - (a.step || 0));
    if (!candidates.length) throw new Error(`no model of this page plays ${view.variant} at size ${view.size}`);
    return candidates[0].name;
  }

  // An EventSource of /api/games/<id>/analysis?sims=N[&model=M]: onmessage({data}) with the
  // server's events, close() stops the search.
  function openStream(url) {
    const stream = { onmessage: null, onerror: null, closed: false, close() { this.closed = true; } };
    const emit = (event) => {
      if (!stream.closed && stream.onmessage) stream.onmessage({ data: JSON.stringify(event) });
    };
    (async () => {
      await whenReady();
      const parsed = new URL(url, document.baseURI);
      const id = Number(/\/api\/games\/([0-9]+)\/analysis$/.exec(parsed.pathname)[1]);
      const sims = Math.max(1, Math.min(100000, Number(parsed.searchParams.get('sims')) || 200));
      const view = answer(engine.request('GET', `/api/games/${id}`, ''));
      const name = analysisModel(view, parsed.searchParams.get('model'));
      const session = await sessionFor(name, view.size);
      const h = check(engine.searchStart(id, 'analysis', sims));
      let last = performance.now();
      try {
        await runSearch(h, session, view.size, () => {
          if (stream.closed) return false;
          if (performance.now() - last >= REPORT_EVERY_MS) {
            last = performance.now();
            emit(JSON.parse(engine.searchReport(h)));
          }
          return true;
        });
        if (!stream.closed) emit(JSON.parse(engine.searchReport(h)));
      } finally {
        engine.searchFree(h);
      }
    })().catch((error) => emit({ error: error.message || String(error) }));
    return stream;
  }

  // For the tests and the benchmark: the network's outputs at the position of game `id`
  // (policy logits in the network frame, value for the player to move), and the move of a model
  // player of `sims` simulations there (board frame) with the time it took.
  async function evaluate(id, name) {
    await whenReady();
    const view = answer(engine.request('GET', `/api/games/${id}`, ''));
    const session = await sessionFor(name, view.size);
    const h = check(engine.searchStart(id, 'analysis', 1));
    try {
      const planeFloats = engine.searchPlaneFloats(h);
      const n = check(engine.searchCollect(h));
      if (n !== 1) throw new Error(`the root alone was expected, ${n} leaves came`);
      const at = engine.searchPlanes(h) / 4;
      const planes = engine.HEAPF32.slice(at, at + planeFloats);
      const out = await session.run({ planes: new ort.Tensor('float32', planes, [1, planeFloats / (view.size * view.size), view.size, view.size]) });
      return { policy: Array.from(out.policy.data), value: out.value.data[0] };
    } finally {
      engine.searchFree(h);
    }
  }

  async function playerMove(id, name, sims) {
    await whenReady();
    const view = answer(engine.request('GET', `/api/games/${id}`, ''));
    const session = await sessionFor(name, view.size);
    const h = check(engine.searchStart(id, 'player', sims));
    try {
      const start = performance.now();
      const done = await runSearch(h, session, view.size);
      const seconds = (performance.now() - start) / 1000;
      return { action: check(engine.searchChoice(h)), simulations: done, seconds };
    } finally {
      engine.searchFree(h);
    }
  }

  // The search settings of a game's engine (its level's simulations and temperature), for tests.
  async function engineSettings(id) {
    await whenReady();
    return JSON.parse(engine.engineSettings(Number(id)));
  }

  // The network's number format from now on: 'int8' or 'fp32' (for the tests and the benchmark;
  // after the engine is ready, which picks the default).
  function setNetwork(format) {
    if (format !== 'int8' && format !== 'fp32') throw new Error(`network: 'int8' or 'fp32', not '${format}'`);
    network = format;
  }

  window.QuaxBackend = {
    request, openStream, evaluate, playerMove, engineSettings, setNetwork, network: () => network,
    ready: () => whenReady().then(() => true),
  };

  // The tabs of a server's files (training runs, balance reports, results files) are not here.
  document.addEventListener('DOMContentLoaded', () => {
    document.body.dataset.static = '1';
    for (const id of ['tab-runs', 'tab-balance']) {
      const tab = document.getElementById(id);
      if (tab) tab.hidden = true;
    }
    const results = document.getElementById('results-path');
    if (results) {  // the results file is a server's file: its heading, field and table go
      const row = results.parentElement;
      if (row.previousElementSibling && row.previousElementSibling.tagName === 'H3') row.previousElementSibling.hidden = true;
      if (row.nextElementSibling) row.nextElementSibling.hidden = true;
      row.hidden = true;
    }
    setLoading('loading the engine…');
    whenReady().then(() => {
      const line = document.getElementById('message');
      if (line && line.textContent === 'loading the engine…') setLoading('');
    }, () => {});
  });
})();
