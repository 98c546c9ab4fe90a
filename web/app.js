// app.js: the single-page front end of `quax serve`, talking to its JSON API (/api/...).
// Tabs Play, Replay and Runs; Play and Replay share the board, the move controls and the
// analysis panel, and each keeps its own game.
//
// Requests that change what the page shows run one after another through `runAction`, which
// also keeps `document.body.dataset.busy` at "1" from the click until the last response of
// the action (a human move and all the engine turns that follow it), so that a test can
// click and then wait for busy "0". The analysis stream (EventSource) is not counted as busy.
'use strict';

(function () {
  const $ = (id) => document.getElementById(id);

  const state = {
    tab: 'play',
    variants: [],                              // GET /api/variants
    players: { baselines: [], models: [] },    // GET /api/players
    views: { play: null, replay: null },       // the GameView each tab shows
    results: [],                               // games of the loaded arena results file
    pending: 0,                                // actions queued or running
    queue: Promise.resolve(),                  // runAction's chain
    analysis: {
      source: null,        // the open EventSource, if any
      key: null,           // the position it is about (analysisKey)
      settings: null,      // sims and model it was opened with
      lastEvent: null,     // the latest event for `key`
      doneFor: null,       // key + settings of a search that ran to its end
      wantBest: false,     // "Show engine move" was asked for this position
      timer: null,         // a pending (re)start
    },
    runs: { loaded: false, current: null, timer: null },
    balance: { loaded: false, shown: [] },   // shown: the report names on the page, in order
  };

  const REFRESH_RUN_MS = 10000;
  const ANALYSIS_START_DELAY_MS = 200;  // lets quick steps through a game settle first

  // ---- talking to the server ---------------------------------------------------------------

  class ApiError extends Error {
    constructor(status, message) {
      super(message);
      this.status = status;
    }
  }

  // One JSON request. A 4xx/5xx answer throws an ApiError carrying the server's `error` line.
  async function api(method, path, body) {
    // The static page (site/web/page_backend.js): the engine in WebAssembly answers instead.
    if (window.QuaxBackend) {
      try {
        return await window.QuaxBackend.request(method, path, body);
      } catch (error) {
        throw new ApiError(error.status || 0, error.message || String(error));
      }
    }
    const init = { method, headers: { Accept: 'application/json' } };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch (error) {
      throw new ApiError(0, `cannot reach the server (${error.message})`);
    }
    const text = await response.text();
    let data = null;
    if (text) {
      try {
        data = JSON.parse(text);
      } catch (error) {
        if (response.ok) throw new ApiError(response.status, `${method} ${path}: the answer is not JSON`);
      }
    }
    if (!response.ok) {
      const reason = data && data.error ? data.error : `${response.status} ${response.statusText}`;
      throw new ApiError(response.status, reason);
    }
    return data;
  }

  function setBusy(delta) {
    state.pending += delta;
    document.body.dataset.busy = state.pending > 0 ? '1' : '0';
  }

  // Queues `task` after the running actions. busy goes to "1" synchronously, inside the click
  // handler, so it is already set when a test's click returns.
  function runAction(task) {
    setBusy(+1);
    const run = state.queue
      .then(() => task())
      .catch(showError)
      .finally(() => {
        setBusy(-1);
        if (state.pending === 0) scheduleAnalysis();
      });
    state.queue = run;
    return run;
  }

  // ---- the message line ----------------------------------------------------------------------

  function showMessage(text, kind) {
    const line = $('message');
    line.textContent = text || '';
    line.className = `message${kind === 'error' ? ' error' : ''}`;
  }

  function clearMessage() {
    showMessage('');
  }

  function showError(error) {
    let text = error && error.message ? error.message : String(error);
    if (error && error.status === 404 && /game/i.test(text)) text += ' (the server may have dropped it: start a new one)';
    showMessage(text, 'error');
  }

  // ---- catalogue: variants and players -------------------------------------------------------

  function variantNamed(name) {
    return state.variants.find((v) => v.name === name) || null;
  }

  // The triangles (y, quady, quady2) are named by their side, like the server's own lines
  // ("quady side 15"); squares and rhombuses N×N. /api/variants gives no shape, so the names
  // stand here, unless a `shape` field says otherwise.
  const TRIANGLE_VARIANTS = new Set(['y', 'quady', 'quady2']);

  function sizeText(variantName, n) {
    const variant = variantNamed(variantName);
    const triangle = variant && variant.shape ? variant.shape === 'triangle' : TRIANGLE_VARIANTS.has(variantName);
    return triangle ? `side ${n}` : `${n}×${n}`;
  }

  function sizesOf(variant) {
    if (variant.sizes && variant.sizes.length) return variant.sizes;
    const sizes = [];
    for (let n = variant.min_size; n <= variant.max_size; n += 1) sizes.push(n);
    return sizes;
  }

  function fillOptions(select, options, selected) {
    select.textContent = '';
    for (const { value, text } of options) {
      const option = document.createElement('option');
      option.value = String(value);
      option.textContent = text;
      select.appendChild(option);
    }
    if (selected !== undefined && options.some((o) => String(o.value) === String(selected))) {
      select.value = String(selected);
    }
  }

  // Fills a variant select and, on change, its size select and swap checkbox.
  function wireVariantControls(variantSelect, sizeSelect, swapBox, onChange) {
    fillOptions(variantSelect, state.variants.map((v) => ({ value: v.name, text: v.name })));
    const update = () => {
      const variant = variantNamed(variantSelect.value);
      if (!variant) return;
      fillOptions(sizeSelect, sizesOf(variant).map((n) => ({ value: n, text: sizeText(variant.name, n) })), variant.default_size);
      swapBox.checked = Boolean(variant.swap);  // the variant's default pie rule
      if (onChange) onChange();
    };
    variantSelect.addEventListener('change', update);
    update();
  }

  function modelsOf(variantName) {
    // Its own variant's models and those of the same rules (link plays quax's).
    return (state.players.models || []).filter((m) => (m.plays || [m.variant]).includes(variantName));
  }

  function isModel(path) {
    return (state.players.models || []).some((m) => m.path === path);
  }

  function describeModel(model) {
    const sizes = (model.sizes || []).map((n) => sizeText(model.variant, n)).join(', ');
    const parts = [model.name || model.path];
    if (sizes) parts.push(sizes);
    if (model.step != null) parts.push(`step ${model.step}`);
    return parts.join(' · ');
  }

  // The opponent select: "none", the baselines, then the models of the chosen variant (those
  // trained at the chosen size first). Keeps the current choice when it is still offered.
  function fillOpponents() {
    const select = $('opponent');
    const previous = select.value;
    const variant = $('variant').value;
    const size = Number($('size').value);
    select.textContent = '';
    const add = (parent, value, text) => {
      const option = document.createElement('option');
      option.value = value;
      option.textContent = text;
      parent.appendChild(option);
    };
    add(select, 'none', 'none (two humans)');
    const baselines = document.createElement('optgroup');
    baselines.label = 'Baselines';
    for (const name of state.players.baselines || []) add(baselines, name, name);
    select.appendChild(baselines);
    const models = modelsOf(variant).slice();
    models.sort((a, b) => ((b.variant === variant) - (a.variant === variant)) ||
      ((b.sizes || []).includes(size) - (a.sizes || []).includes(size)) || (b.step || 0) - (a.step || 0));
    if (models.length) {
      const group = document.createElement('optgroup');
      group.label = `Models (${variant})`;
      for (const model of models) add(group, model.path, describeModel(model));
      select.appendChild(group);
    }
    const offered = Array.from(select.options).map((o) => o.value);
    if (offered.includes(previous)) {
      select.value = previous;
    } else if (models.length && (models[0].sizes || []).includes(size)) {
      select.value = models[0].path;
    } else {
      const baseline = (state.players.baselines || []).find((b) => b !== 'random');
      select.value = baseline || (state.players.baselines || [])[0] || 'none';
    }
    updateModelOptions();
  }

  // The level and, for a custom level, simulations and seconds per move apply to a model
  // opponent only.
  function updateModelOptions() {
    const model = isModel($('opponent').value);
    const custom = $('level').value === '0';
    for (const element of document.querySelectorAll('.model-only')) element.hidden = !model;
    for (const element of document.querySelectorAll('.custom-only')) element.hidden = !model || !custom;
  }

  // The model's levels by name (GET /api/players), strongest first, then "custom": the
  // simulations and seconds of the fields below.
  function fillLevels() {
    const levels = (state.players.levels || []).slice().sort((a, b) => b.level - a.level);
    fillOptions($('level'), levels.map((l) => ({ value: l.level, text: `${l.level} · ${l.name}` }))
      .concat([{ value: 0, text: 'custom (simulations or seconds)' }]), levels.length ? levels[0].level : 0);
  }

  function fillAnalysisModels(variantName) {
    const select = $('analysis-model');
    if (select.dataset.variant === variantName) return;
    const previous = select.value;
    fillOptions(select, [{ value: '', text: 'default (the game\'s model)' }]
      .concat(modelsOf(variantName).map((m) => ({ value: m.path, text: describeModel(m) }))), previous);
    select.dataset.variant = variantName;
  }

  async function loadCatalogue() {
    try {
      state.variants = await api('GET', '/api/variants');
    } catch (error) {
      showError(new Error(`cannot load the variants: ${error.message}`));
      state.variants = [];
    }
    try {
      state.players = await api('GET', '/api/players');
    } catch (error) {
      showError(new Error(`cannot load the players: ${error.message}`));
    }
    state.players.baselines = state.players.baselines || [];
    state.players.models = state.players.models || [];
    fillLevels();
    wireVariantControls($('variant'), $('size'), $('swap'), fillOpponents);
    $('size').addEventListener('change', fillOpponents);
    wireVariantControls($('replay-variant'), $('replay-size'), $('replay-swap'));
    fillAnalysisModels($('variant').value);
  }

  // ---- games -------------------------------------------------------------------------------

  // The tab whose game the board shows ("runs" and "balance" show none).
  function currentMode() {
    return state.tab === 'replay' ? 'replay' : 'play';
  }

  function boardShowing() {
    return state.tab === 'play' || state.tab === 'replay';
  }

  function humanMayMove(view) {
    return Boolean(view) && view.winner == null && view.to_move != null && !view.engine_to_move;
  }

  function gamePath(view, action) {
    return `/api/games/${encodeURIComponent(view.id)}${action ? `/${action}` : ''}`;
  }

  // Stores a tab's game and redraws if the tab is showing.
  function showView(mode, view) {
    state.views[mode] = view;
    if (mode === currentMode() && boardShowing()) render();
  }

  // Forgets a replaced game on the server (it keeps a bounded number anyway). Not an action:
  // nothing waits for it, and a failure does not matter.
  function dropGame(view) {
    if (view && window.QuaxBackend) window.QuaxBackend.request('DELETE', gamePath(view)).catch(() => {});
    else if (view) fetch(gamePath(view), { method: 'DELETE' }).catch(() => {});
  }

  function newGame() {
    runAction(async () => {
      clearMessage();
      const opponent = $('opponent').value;
      const body = {
        variant: $('variant').value,
        size: Number($('size').value),
        swap: $('swap').checked,
        opponent,
        human: $('human').value,
        // The API lists both fields for every opponent; they only mean something for a model.
        sims: positiveInteger($('sims').value, 200),
        seconds: Math.max(0, Number($('seconds').value) || 0),
        level: Number($('level').value) || 0,
      };
      const previous = state.views.play;
      const view = await api('POST', '/api/games', body);
      showView('play', view);
      if (previous && previous.id !== view.id) dropGame(previous);
      await engineTurns('play');
    });
  }

  function positiveInteger(text, fallback) {
    const n = Math.floor(Number(text));
    return Number.isFinite(n) && n >= 1 ? n : fallback;
  }

  // The engine plays while it is its turn (one request per engine turn; a turn of several
  // actions, e.g. stymie or quikquax, is one request). Stops if a turn changes nothing, so a
  // confused server cannot spin the page forever.
  async function engineTurns(mode) {
    let view = state.views[mode];
    while (view && view.engine_to_move && view.winner == null) {
      stopStream();  // the engine and an analysis of the same position would share the CPU
      setThinking(true);
      let next;
      try {
        next = await api('POST', gamePath(view, 'engine'));
      } finally {
        setThinking(false);
      }
      const moved = next.ply !== view.ply || next.plies !== view.plies;
      showView(mode, next);
      if (!moved) throw new Error('the engine did not move');
      view = next;
    }
  }

  function setThinking(on) {
    $('thinking').textContent = on ? 'engine thinking…' : '';
  }

  // A click on a legal cell, link, square or extra. The check runs when the action's turn
  // in the queue comes, against the view of that moment.
  function playAction(action) {
    const mode = currentMode();
    runAction(async () => {
      const view = state.views[mode];
      if (!humanMayMove(view)) return;
      clearMessage();
      const next = await api('POST', gamePath(view, 'play'), { action });
      showView(mode, next);
      await engineTurns(mode);
    });
  }

  function engineMove() {
    const mode = currentMode();
    runAction(async () => {
      clearMessage();
      await engineTurns(mode);
    });
  }

  function undo() {
    const mode = currentMode();
    runAction(async () => {
      const view = state.views[mode];
      if (!view) return;
      clearMessage();
      showView(mode, await api('POST', gamePath(view, 'undo')));
    });
  }

  // Goes to the ply `target(view)` returns (history kept). No engine move follows: the user is
  // looking through the game; "Engine move" plays on from there.
  function gotoPly(target) {
    const mode = currentMode();
    runAction(async () => {
      const view = state.views[mode];
      if (!view) return;
      const ply = Math.max(0, Math.min(view.plies, target(view)));
      if (ply === view.ply) return;
      clearMessage();
      showView(mode, await api('POST', gamePath(view, 'goto'), { ply }));
    });
  }

  // ---- drawing a game ----------------------------------------------------------------------

  const EXTRA_LABELS = { swap: 'Swap', pass: 'Pass', end: 'End turn', adopt: 'Adopt' };

  function capitalized(word) {
    return word ? word[0].toUpperCase() + word.slice(1) : '';
  }

  function render() {
    const view = state.views[currentMode()];
    const svg = $('board');
    $('board-placeholder').hidden = Boolean(view);
    if (!view) {
      Board.clearBoard(svg);
      $('board-placeholder').textContent = currentMode() === 'replay'
        ? 'Replay a record, or pick a game of a results file.' : 'Start a new game.';
      for (const id of ['game-title', 'status', 'move-help', 'winner', 'points', 'record', 'extras', 'ply-counter']) $(id).textContent = '';
      $('winner').dataset.winner = '';
      renderNavigation(null);
      delete document.body.dataset.game;
      document.body.dataset.ply = '';
      analysisPositionChanged(null);
      return;
    }
    Board.drawBoard(svg, view.layout, view, { interactive: humanMayMove(view) });
    renderTitle(view);
    // Once the game is over the server's status is the result, which #winner already says.
    $('status').textContent = view.winner == null ? (view.status || '') : '';
    $('move-help').textContent = view.move_help || '';  // the game's own words on the moves at this position
    renderWinner(view);
    renderPoints(view);
    renderExtras(view);
    renderNavigation(view);
    renderRecord(view);
    fillAnalysisModels(view.variant);
    analysisPositionChanged(view);
    document.body.dataset.game = view.id;
    document.body.dataset.ply = String(view.ply);
  }

  function renderTitle(view) {
    const parts = [view.title || `${view.variant} ${sizeText(view.variant, view.size)}`];
    if (view.opponent && view.opponent !== 'none' && view.human !== 'both') {
      // A model opponent reads "<path>:sims=200", "<path>:time=2" or "<path>:level=3": show
      // the model's name, and a level by its name.
      const model = (state.players.models || []).find((m) => view.opponent === m.path || view.opponent.startsWith(`${m.path}:`));
      let opponent = model ? model.name + view.opponent.slice(model.path.length) : view.opponent;
      const level = /:level=(\d+)$/.exec(opponent);
      const named = level && (state.players.levels || []).find((l) => l.level === Number(level[1]));
      if (named) opponent = `${opponent.slice(0, level.index)} · level ${named.level} (${named.name})`;
      parts.push(`you: ${view.human} · opponent: ${opponent}`);
    }
    $('game-title').textContent = parts.join(' — ');
  }

  function renderWinner(view) {
    const winner = $('winner');
    winner.dataset.winner = view.winner || '';
    if (view.winner == null) winner.textContent = '';
    else if (view.winner === 'draw') winner.textContent = 'Draw';
    else winner.textContent = `${capitalized(view.winner)} wins`;
  }

  // The quadrant boards' score, as the terminal's diagram writes it ("points (3 of 5 win):
  // black 2, white 1; whole board: open"); the board marks which sub-games scored.
  function renderPoints(view) {
    const points = $('points');
    points.textContent = view.points ? capitalized(view.points.text) : '';
    points.dataset.black = view.points ? String(view.points.black) : '';
    points.dataset.white = view.points ? String(view.points.white) : '';
  }

  function renderExtras(view) {
    const box = $('extras');
    box.textContent = '';
    const mayMove = humanMayMove(view);
    for (const extra of view.extras || []) {
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.extra = extra.name;
      button.dataset.action = String(extra.action);
      button.textContent = EXTRA_LABELS[extra.name] || capitalized(extra.name);
      button.disabled = !(extra.legal && mayMove);
      button.addEventListener('click', () => playAction(extra.action));
      box.appendChild(button);
    }
    $('undo').disabled = view.ply === 0;
    $('engine-move').disabled = !(view.engine_to_move && view.winner == null);
    $('engine-move').hidden = !view.opponent || view.opponent === 'none' || view.human === 'both';
  }

  function renderNavigation(view) {
    const ply = view ? view.ply : 0;
    const plies = view ? view.plies : 0;
    $('first').disabled = !view || ply === 0;
    $('prev').disabled = !view || ply === 0;
    $('next').disabled = !view || ply >= plies;
    $('last').disabled = !view || ply >= plies;
    $('ply-counter').textContent = view ? `ply ${ply} of ${plies}` : '';
  }

  // The whole history, one clickable entry per ply (data-ply = the position after that ply);
  // the plies after the cursor are greyed: still there, and dropped by the next move.
  function renderRecord(view) {
    const record = $('record');
    record.textContent = '';
    const entry = (ply, classes) => {
      const span = document.createElement('span');
      span.className = ['ply', ...classes, ply === view.ply ? 'current' : '', ply > view.ply ? 'future' : '']
        .filter(Boolean).join(' ');
      span.dataset.ply = String(ply);
      span.tabIndex = 0;
      record.appendChild(span);
      return span;
    };
    entry(0, ['start']).textContent = 'start';
    (view.history || []).forEach((move, i) => {
      const span = entry(i + 1, [move.player || '']);
      span.dataset.action = String(move.action);
      const number = document.createElement('span');
      number.className = 'ply-number';
      number.textContent = `${i + 1}.`;
      span.append(number, document.createTextNode(move.move));
    });
    // Keep the current move in sight by scrolling the record box only, never the page.
    const current = record.querySelector('.ply.current');
    if (current) {
      const top = current.offsetTop;
      const bottom = top + current.offsetHeight;
      if (top < record.scrollTop) record.scrollTop = top;
      else if (bottom > record.scrollTop + record.clientHeight) record.scrollTop = bottom - record.clientHeight;
    }
  }

  // ---- analysis ------------------------------------------------------------------------------

  // What identifies a position: the game, the cursor and the moves up to it.
  function analysisKey(view) {
    return view ? `${view.id}|${view.ply}|${view.record}` : null;
  }

  function analysisSettings() {
    return { sims: positiveInteger($('analysis-sims').value, 400), model: $('analysis-model').value };
  }

  function settingsKey(settings) {
    return `${settings.sims}|${settings.model}`;
  }

  function setAnalysisState(name) {
    document.body.dataset.analysis = name;
  }

  function stopStream() {
    const a = state.analysis;
    if (a.source) {
      a.source.close();
      a.source = null;
    }
    clearTimeout(a.timer);
    a.timer = null;
  }

  // Called by every render: a new position closes the stream and clears the panel; the same
  // position (a redraw) puts the latest overlays back on the fresh board.
  function analysisPositionChanged(view) {
    const a = state.analysis;
    const key = analysisKey(view);
    if (key === a.key) {
      if (a.lastEvent && view) drawAnalysisOnBoard(view, a.lastEvent);
      return;
    }
    stopStream();
    a.key = key;
    a.lastEvent = null;
    a.doneFor = null;
    a.wantBest = false;
    clearAnalysisPanel();
    setAnalysisState('off');
    scheduleAnalysis();
  }

  function scheduleAnalysis() {
    const a = state.analysis;
    clearTimeout(a.timer);
    a.timer = setTimeout(startAnalysisIfWanted, ANALYSIS_START_DELAY_MS);
  }

  // Opens the stream when the toggle is on or the engine's move was asked for, nothing is in
  // flight (the engine and the analysis would fight over the machine) and the search for this
  // position and these settings has not already finished.
  function startAnalysisIfWanted() {
    const a = state.analysis;
    a.timer = null;
    if (state.pending > 0 || !boardShowing()) return;  // runAction reschedules when idle
    const view = state.views[currentMode()];
    const wanted = $('analyze').checked || a.wantBest;
    if (!view || !wanted || a.source) return;
    if (view.winner != null) {
      $('analysis-info').textContent = 'the game is over';
      return;
    }
    const settings = analysisSettings();
    if (a.doneFor === `${a.key}|${settingsKey(settings)}` && a.lastEvent) {
      drawAnalysisOnBoard(view, a.lastEvent);
      return;
    }
    let url = `${gamePath(view, 'analysis')}?sims=${settings.sims}`;
    if (settings.model) url += `&model=${encodeURIComponent(settings.model)}`;
    const source = window.QuaxBackend ? window.QuaxBackend.openStream(url) : new EventSource(url);
    const key = a.key;
    let events = 0;
    a.source = source;
    a.settings = settings;
    setAnalysisState('running');
    $('analysis-info').textContent = 'starting…';
    source.onmessage = (message) => {
      if (a.source !== source || a.key !== key) return;
      let event;
      try {
        event = JSON.parse(message.data);
      } catch (error) {
        return;  // a keep-alive or a line we do not know
      }
      events += 1;
      if (event.error) {  // the search failed on the server (a model that cannot play this board)
        stopStream();
        setAnalysisState('error');
        showMessage(`analysis: ${event.error}`, 'error');
        return;
      }
      if (!(event.best >= 0)) event.best = null;  // -1: no move was searched
      a.lastEvent = event;
      const shown = state.views[currentMode()];
      if (shown && analysisKey(shown) === key) renderAnalysis(shown, event);
      if (event.done) {
        // Close before the server hangs up, or EventSource would reconnect and search again.
        stopStream();
        a.doneFor = `${key}|${settingsKey(settings)}`;
        setAnalysisState('done');
      }
    };
    source.onerror = () => {
      if (a.source !== source) return;
      stopStream();
      if (events === 0) {
        setAnalysisState('error');
        $('analysis-info').textContent = '';
        explainStreamFailure(url).then((reason) => {
          if (a.key === key) showMessage(`analysis: ${reason || 'the stream broke off'}`, 'error');
        });
      } else {
        setAnalysisState('stopped');
        $('analysis-info').textContent += ' (stopped)';
      }
    };
  }

  // EventSource hides the status and body of a refused stream (400: no model for this variant,
  // 503: too many analyses, 404: the game is gone), so ask once more with fetch to read the
  // server's error line, and hang up at once if the stream is accepted this time.
  async function explainStreamFailure(url) {
    const controller = new AbortController();
    try {
      const response = await fetch(url, { signal: controller.signal, headers: { Accept: 'application/json' } });
      if (response.ok) return null;
      const data = await response.json().catch(() => null);
      return data && data.error ? data.error : `${response.status} ${response.statusText}`;
    } catch (error) {
      return `cannot reach the server (${error.message})`;
    } finally {
      controller.abort();
    }
  }

  function clearAnalysisPanel() {
    Board.clearAnalysis($('board'));
    $('top-moves').tBodies[0].textContent = '';
    $('value').textContent = '';
    $('value-label').textContent = '';
    $('analysis-info').textContent = '';
    $('best-move').textContent = '';
    const bar = $('value-bar');
    bar.style.width = '50%';
    bar.className = 'value-bar';
  }

  function formatSigned(x, digits) {
    return `${x > 0 ? '+' : ''}${x.toFixed(digits)}`;
  }

  function renderAnalysis(view, event) {
    drawAnalysisOnBoard(view, event);
    const value = Number(event.value);
    if (Number.isFinite(value)) {
      $('value').textContent = formatSigned(value, 2);
      const bar = $('value-bar');
      bar.style.width = `${Math.max(0, Math.min(100, (value + 1) * 50))}%`;
      bar.className = `value-bar ${value >= 0 ? 'positive' : 'negative'}`;
      $('value-label').textContent = view.to_move ? `for ${view.to_move} (to move)` : 'for the player to move';
    }
    $('analysis-info').textContent = `${event.simulations || 0} simulations${event.done ? ', done' : '…'}`;
    const body = $('top-moves').tBodies[0];
    body.textContent = '';
    for (const move of event.top || []) {
      const row = body.insertRow();
      row.dataset.action = String(move.action);
      if (move.action === event.best) row.className = 'best-row';
      row.insertCell().textContent = move.move;
      row.insertCell().textContent = String(move.visits);
      row.insertCell().textContent = Number.isFinite(Number(move.q)) ? formatSigned(Number(move.q), 2) : '';
      row.insertCell().textContent = Number.isFinite(Number(move.prior)) ? `${(100 * move.prior).toFixed(1)}%` : '';
    }
    if (state.analysis.wantBest) {
      const best = (event.top || []).find((m) => m.action === event.best);
      $('best-move').textContent = event.best == null ? ''
        : `engine move: ${best ? best.move : event.best}${event.done ? '' : ' (searching)'}`;
    }
  }

  function drawAnalysisOnBoard(view, event) {
    const svg = $('board');
    if ($('analyze').checked) Board.drawHeat(svg, view.layout, event.prior);
    else Board.drawHeat(svg, view.layout, null);
    if (state.analysis.wantBest) Board.drawBest(svg, view.layout, event.best, Boolean(event.done));
  }

  function analyzeToggled() {
    const a = state.analysis;
    if ($('analyze').checked) {
      scheduleAnalysis();
      return;
    }
    // Off: stop the search unless the engine's move is still being looked for.
    if (!(a.wantBest && a.source)) {
      stopStream();
      if (document.body.dataset.analysis === 'running') setAnalysisState('stopped');
    }
    Board.drawHeat($('board'), null, null);
  }

  function showBest() {
    const a = state.analysis;
    const view = state.views[currentMode()];
    if (!view) return;
    a.wantBest = true;
    if (a.lastEvent && (a.lastEvent.done || a.source)) renderAnalysis(view, a.lastEvent);
    scheduleAnalysis();
  }

  // New simulations or model: search again with them.
  function analysisSettingsChanged() {
    const a = state.analysis;
    if (a.source && a.settings && settingsKey(a.settings) === settingsKey(analysisSettings())) return;
    stopStream();
    scheduleAnalysis();
  }

  // ---- replay ------------------------------------------------------------------------------

  function replay(body) {
    runAction(async () => {
      clearMessage();
      const previous = state.views.replay;
      const view = await api('POST', '/api/replay', body);
      showView('replay', view);
      if (previous && previous.id !== view.id) dropGame(previous);
    });
  }

  function replayFromForm() {
    replay({
      variant: $('replay-variant').value,
      size: Number($('replay-size').value),
      swap: $('replay-swap').checked,
      record: $('replay-record').value.trim(),
    });
  }

  function loadResults() {
    const path = $('results-path').value.trim();
    if (!path) {
      showMessage('give the path of an arena results file', 'error');
      return;
    }
    runAction(async () => {
      clearMessage();
      // The replay form's variant, size and swap go along as hints for files whose lines do
      // not say which game they hold; the games listed carry their own.
      const query = new URLSearchParams({
        path, variant: $('replay-variant').value, size: $('replay-size').value, swap: String($('replay-swap').checked),
      });
      const data = await api('GET', `/api/results?${query}`);
      state.results = (data && data.games) || [];
      renderResults();
      if (state.results.length === 0) showMessage('no games in that file');
    });
  }

  function renderResults() {
    const body = $('results-list').tBodies[0];
    body.textContent = '';
    state.results.forEach((game, i) => {
      const row = body.insertRow();
      row.dataset.index = String(game.index != null ? game.index : i);
      row.dataset.position = String(i);
      const moves = numeric(game.moves) ? game.moves : (game.record || '').split(/[\s,]+/).filter(Boolean).length;
      for (const text of [row.dataset.index, game.black, game.white, game.winner || '', String(moves)]) {
        row.insertCell().textContent = text == null ? '' : String(text);
      }
      row.title = game.record || '';
      row.addEventListener('click', () => {
        for (const other of body.rows) other.classList.toggle('selected', other === row);
        replay({
          variant: game.variant || $('replay-variant').value,
          size: Number(game.size || $('replay-size').value),
          swap: game.swap != null ? Boolean(game.swap) : $('replay-swap').checked,
          record: game.record || '',
        });
      });
    });
  }

  // ---- runs ----------------------------------------------------------------------------------

  function loadRunList() {
    runAction(async () => {
      const runs = (await api('GET', '/api/runs')) || [];
      const select = $('runs-select');
      const previous = select.value;
      fillOptions(select, runs.map((r) => ({ value: r.name, text: r.name })), previous);
      state.runs.loaded = true;
      if (runs.length === 0) {
        $('run-summary').textContent = 'no runs (start the server with --runs <directory>)';
        $('run-charts').textContent = '';
        return;
      }
      await loadRun(select.value);
    });
  }

  async function loadRun(name) {
    if (!name) return;
    const run = await api('GET', `/api/runs/${encodeURIComponent(name)}`);
    state.runs.current = name;
    renderRun(run);
  }

  function refreshRun() {
    const name = $('runs-select').value;
    if (!name || state.pending > 0) return;  // never stack refreshes behind a slow one
    runAction(() => loadRun(name));
  }

  function updateRunPolling() {
    clearInterval(state.runs.timer);
    state.runs.timer = null;
    if ($('runs-refresh').checked) {
      state.runs.timer = setInterval(() => {
        if (state.tab === 'runs') refreshRun();
      }, REFRESH_RUN_MS);
    }
  }

  // The ladder: `{"11x11": [...], "": [...]}` per the README, or a bare list (an older form of
  // the same document); entries name the player as `player` (ladder.json) or `model`.
  function laddersOf(run) {
    const ladder = run.ladder;
    if (!ladder) return {};
    if (Array.isArray(ladder)) return { '': ladder };
    return ladder;
  }

  function numeric(value) {
    return typeof value === 'number' && Number.isFinite(value);
  }

  function pointsOf(records, xKey, yKey, xScale) {
    const points = [];
    for (const record of records) {
      if (numeric(record[xKey]) && numeric(record[yKey])) points.push([record[xKey] * (xScale || 1), record[yKey]]);
    }
    points.sort((a, b) => a[0] - b[0]);
    return points;
  }

  const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf'];

  function renderRun(run) {
    const metrics = run.metrics || [];
    const learn = metrics.filter((m) => m.kind === 'learn');
    const selfplay = metrics.filter((m) => m.kind === 'selfplay');
    const gating = metrics.filter((m) => m.kind === 'gating' && numeric(gatingScore(m)));
    const ladders = laddersOf(run);

    const charts = [
      { id: 'loss', title: 'loss', xLabel: 'step', series: [{ name: 'loss', points: pointsOf(learn, 'step', 'loss') }] },
      { id: 'policy_entropy', title: 'policy entropy', xLabel: 'step', series: [{ name: 'policy entropy', points: pointsOf(learn, 'step', 'policy_entropy') }] },
      { id: 'value_accuracy', title: 'value accuracy', xLabel: 'step', series: [{ name: 'value accuracy', points: pointsOf(learn, 'step', 'value_accuracy') }] },
      { id: 'samples_per_s', title: 'samples per second (learner)', xLabel: 'step', series: [{ name: 'samples/s', points: pointsOf(learn, 'step', 'samples_per_s') }] },
      { id: 'positions_per_s', title: 'self-play positions per second', xLabel: 'time (min)', series: [{ name: 'positions/s', points: pointsOf(selfplay, 'time_s', 'positions_per_s', 1 / 60) }] },
      { id: 'evals_per_s', title: 'self-play evaluations per second', xLabel: 'time (min)', series: [{ name: 'evals/s', points: pointsOf(selfplay, 'time_s', 'evals_per_s', 1 / 60) }] },
      gatingChart(gating),
      eloChart(ladders, gating),
    ];
    const container = $('run-charts');
    for (const chart of charts) {
      chart.series.forEach((s, i) => { s.color = s.color || PALETTE[i % PALETTE.length]; });
      Chart.drawChart(Chart.chartFigure(container, chart.id), chart);
    }

    const lastLearn = learn.length ? learn[learn.length - 1] : null;
    const parts = [`${run.name}: ${learn.length} learn and ${selfplay.length} self-play records`];
    if (lastLearn && numeric(lastLearn.step)) parts.push(`last step ${lastLearn.step}`);
    if (lastLearn && numeric(lastLearn.time_s)) parts.push(`${(lastLearn.time_s / 60).toFixed(1)} min`);
    const ladderKeys = Object.keys(ladders);
    if (ladderKeys.length) parts.push(`ladders: ${ladderKeys.map((k) => k || 'ladder.json').join(', ')}`);
    if (gating.length) {
      const last = gating[gating.length - 1];
      const counts = numeric(last.wins) && numeric(last.losses)
        ? ` ${last.wins}-${last.losses}${numeric(last.draws) && last.draws ? `-${last.draws}` : ''}` : '';
      parts.push(`${gating.length} gating records, the last${counts} against ${opponentName(last.opponent)} (score ${gatingScore(last).toFixed(2)})`);
    }
    parts.push(`updated ${new Date().toLocaleTimeString()}`);
    $('run-summary').textContent = parts.join(' · ');
  }

  // Elo against step: one line per ladder file; the baselines (no step) as dashed levels.
  // A run without a ladder (a short one) has only its gating games to tell its strength:
  // then the panel shows their Elo difference against the opponent instead of "no data".
  function eloChart(ladders, gating) {
    const series = [];
    const levels = [];
    Object.keys(ladders).sort().forEach((key, i) => {
      const color = PALETTE[i % PALETTE.length];
      const name = key || 'ladder';
      const entries = Array.isArray(ladders[key]) ? ladders[key] : [];
      const models = entries.filter((e) => e.kind !== 'baseline' && numeric(e.step) && numeric(e.elo));
      series.push({
        name, color,
        points: models.map((e) => [e.step, e.elo]).sort((a, b) => a[0] - b[0]),
        tips: models.map((e) => `${e.player || e.model || ''}: ${e.elo.toFixed(0)}${numeric(e.ci95) ? ` ± ${e.ci95.toFixed(0)}` : ''}`),
      });
      for (const e of entries) {
        if ((e.kind === 'baseline' || !numeric(e.step)) && numeric(e.elo)) {
          levels.push({ y: e.elo, label: `${e.player || e.model || 'baseline'}${key ? ` (${key})` : ''}`, color });
        }
      }
    });
    if (series.some((s) => s.points.length > 0) || gating.length === 0) {
      return { id: 'elo', title: 'ladder Elo', xLabel: 'step', series, levels };
    }
    const withStep = gating.filter((g) => numeric(g.step));
    const fallback = gatingSeries(withStep, (g) => g.step, gatingElo, (g) => {
      const interval = gatingInterval(g);
      return interval && interval.map(eloOfScore);
    });
    const opponents = fallback.map((s) => s.opponent).join(', ');
    return {
      id: 'elo', title: 'Elo against the gating opponent (no ladder yet)', xLabel: 'step', series: fallback,
      levels: fallback.length ? [{ y: 0, label: `${opponents} = 0`, color: '#8b8577' }] : [],
    };
  }

  // Gating records (train/gating.cpp): each gated model's colour-balanced games against the
  // previous model or a baseline, from the new model's side: `score`, `wins`, `losses`,
  // `draws` of `games`, `elo_diff` (clamped at +-800), `step`, `time_s`, `opponent`.
  function gatingScore(g) {
    if (numeric(g.score)) return g.score;
    const games = gatingGames(g);
    return games ? (g.wins + 0.5 * (numeric(g.draws) ? g.draws : 0)) / games : null;
  }

  function gatingGames(g) {
    if (numeric(g.games) && g.games > 0) return g.games;
    const total = [g.wins, g.losses, g.draws].filter(numeric).reduce((a, b) => a + b, 0);
    return numeric(g.wins) && numeric(g.losses) && total > 0 ? total : null;
  }

  // The 95% Wilson interval of the score over its games (draws count half): a match of a few
  // games tells little, and one won 10-0 is not a certain 1. null without the counts.
  function gatingInterval(g) {
    const n = gatingGames(g);
    const p = gatingScore(g);
    if (!n || !numeric(p)) return null;
    const z = 1.96;
    const denominator = 1 + (z * z) / n;
    const centre = (p + (z * z) / (2 * n)) / denominator;
    const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denominator;
    return [Math.max(0, centre - half), Math.min(1, centre + half)];
  }

  // As train/gating.cpp: a perfect score has no finite Elo difference, so it stops at +-800.
  function eloOfScore(score) {
    const s = Math.min(Math.max(score, 1e-6), 1 - 1e-6);
    return Math.min(800, Math.max(-800, -400 * Math.log10(1 / s - 1)));
  }

  function gatingElo(g) {
    return numeric(g.elo_diff) ? g.elo_diff : eloOfScore(gatingScore(g));
  }

  function opponentName(opponent) {
    return opponent === 'previous' ? 'the previous model' : (opponent || 'the opponent');
  }

  // One series per opponent: points [x(g), y(g)], intervals, and each record's numbers as tips.
  function gatingSeries(gating, x, y, interval) {
    const byOpponent = new Map();
    for (const g of gating) {
      const key = g.opponent || '';
      if (!byOpponent.has(key)) byOpponent.set(key, []);
      byOpponent.get(key).push(g);
    }
    return Array.from(byOpponent, ([opponent, records], i) => {
      const sorted = records.slice().sort((a, b) => x(a) - x(b));
      return {
        name: `vs ${opponentName(opponent)}`, opponent: opponentName(opponent), color: PALETTE[i % PALETTE.length],
        points: sorted.map((g) => [x(g), y(g)]),
        intervals: sorted.map(interval),
        tips: sorted.map((g) => {
          const games = gatingGames(g);
          const counts = games && numeric(g.wins) && numeric(g.losses)
            ? `${g.wins} won, ${g.losses} lost${numeric(g.draws) && g.draws ? `, ${g.draws} drawn` : ''} of ${games}, ` : '';
          const when = [numeric(g.step) ? `step ${g.step}` : '', numeric(g.time_s) ? `${(g.time_s / 60).toFixed(1)} min` : '']
            .filter(Boolean).join(', ');
          return `${when}: ${counts}score ${gatingScore(g).toFixed(3)}, Elo ${gatingElo(g) >= 0 ? '+' : ''}${gatingElo(g).toFixed(0)}`;
        }),
      };
    });
  }

  // The gating score against training time (the run's clock, which every record shares), or
  // against the step where a record lacks the time; 0.5 is an even match.
  function gatingChart(gating) {
    const byTime = gating.length > 0 && gating.every((g) => numeric(g.time_s));
    const usable = byTime ? gating : gating.filter((g) => numeric(g.step));
    const series = gatingSeries(usable, byTime ? (g) => g.time_s / 60 : (g) => g.step, gatingScore, gatingInterval);
    return {
      id: 'gating', title: 'gating score of each new model (95% interval)', xLabel: byTime ? 'time (min)' : 'step',
      series, levels: series.length ? [{ y: 0.5, label: 'even', color: '#8b8577' }] : [], yRange: [0, 1],
      empty: 'no gating games yet (gating.games in the config)',
    };
  }

  // ---- balance reports -----------------------------------------------------------------------

  // The ticked reports, in the list's order.
  function tickedReports() {
    return Array.from(document.querySelectorAll('#balance-list input:checked')).map((box) => box.value);
  }

  function loadBalanceList() {
    runAction(async () => {
      const answer = (await api('GET', '/api/balance')) || { reports: [], dirs: [] };
      const previous = new Set(tickedReports());
      const list = $('balance-list');
      list.textContent = '';
      for (const report of answer.reports) {
        const label = document.createElement('label');
        label.className = 'check';
        const box = document.createElement('input');
        box.type = 'checkbox';
        box.value = report.name;
        box.title = report.path;
        box.checked = previous.has(report.name);
        label.append(box, ` ${report.name}`);
        list.appendChild(label);
      }
      state.balance.loaded = true;
      if (answer.reports.length === 0) {
        $('balance-summary').textContent =
          `no reports in ${answer.dirs.join(', ') || 'no directory'} (write one with quax balance --out DIR, serve it with --balance DIR)`;
        await showReports([]);
        return;
      }
      $('balance-summary').textContent = `${answer.reports.length} report${answer.reports.length === 1 ? '' : 's'}`;
      // The first report is shown when none was ticked: the tab is never empty with reports at hand.
      if (tickedReports().length === 0) list.querySelector('input').checked = true;
      await showReports(tickedReports());
    });
  }

  // The figures of `names` side by side (one column each), their opening maps, and each
  // report's text.
  async function showReports(names) {
    const table = $('balance-table');
    const maps = $('balance-maps');
    const texts = $('balance-texts');
    table.tHead.textContent = '';
    table.tBodies[0].textContent = '';
    maps.textContent = '';
    texts.textContent = '';
    state.balance.shown = [];
    if (names.length === 0) return;
    const query = names.map(encodeURIComponent).join(',');
    const [compared, ...reports] = await Promise.all([
      api('GET', `/api/balance-compare?reports=${query}`),
      ...names.map((name) => api('GET', `/api/balance/${encodeURIComponent(name)}`)),
    ]);
    for (const [figure, cells] of compared.rows) {
      const row = document.createElement('tr');
      const head = document.createElement('th');
      head.scope = 'row';
      head.textContent = figure;
      row.appendChild(head);
      for (const cell of cells) {
        const td = document.createElement(figure === 'report' ? 'th' : 'td');
        td.textContent = cell;
        row.appendChild(td);
      }
      (figure === 'report' ? table.tHead : table.tBodies[0]).appendChild(row);
    }
    for (const report of reports) {
      const figure = document.createElement('figure');
      const image = document.createElement('img');
      image.alt = `opening map of ${report.name}`;
      image.src = `/api/balance/${encodeURIComponent(report.name)}/openings.svg`;
      const caption = document.createElement('figcaption');
      caption.textContent = report.name;
      figure.append(caption, image);
      maps.appendChild(figure);

      const details = document.createElement('details');
      details.dataset.report = report.name;
      const summary = document.createElement('summary');
      summary.textContent = `${report.name}: the whole report (${report.path})`;
      const pre = document.createElement('pre');
      pre.className = 'balance-text';
      pre.textContent = report.text;
      details.append(summary, pre);
      texts.appendChild(details);
    }
    state.balance.shown = names;
  }

  // ---- tabs and wiring -----------------------------------------------------------------------

  function selectTab(name) {
    state.tab = name;
    document.body.dataset.tab = name;
    for (const tab of document.querySelectorAll('.tab')) tab.setAttribute('aria-selected', String(tab.dataset.tab === name));
    $('game-area').hidden = name === 'runs' || name === 'balance';
    $('runs-area').hidden = name !== 'runs';
    $('balance-area').hidden = name !== 'balance';
    $('panel-play').hidden = name !== 'play';
    $('panel-replay').hidden = name !== 'replay';
    if (name === 'runs' || name === 'balance') {
      stopStream();
      state.analysis.key = null;  // the board is not showing: the next render starts afresh
      setAnalysisState('off');
      if (name === 'runs' && !state.runs.loaded) loadRunList();
      if (name === 'balance' && !state.balance.loaded) loadBalanceList();
    } else {
      render();
    }
  }

  function isTyping(target) {
    return target && (/^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || target.isContentEditable);
  }

  function onKey(event) {
    if (!boardShowing() || isTyping(event.target) || event.altKey || event.ctrlKey || event.metaKey) return;
    const moves = {
      ArrowLeft: (v) => v.ply - 1,
      ArrowRight: (v) => v.ply + 1,
      Home: () => 0,
      End: (v) => v.plies,
    };
    const target = moves[event.key];
    if (!target || !state.views[currentMode()]) return;
    event.preventDefault();
    gotoPly(target);
  }

  function wire() {
    for (const tab of document.querySelectorAll('.tab')) tab.addEventListener('click', () => selectTab(tab.dataset.tab));

    $('new-game').addEventListener('click', newGame);
    $('opponent').addEventListener('change', updateModelOptions);
    $('level').addEventListener('change', updateModelOptions);

    // One listener for the whole board: a legal cell, square, or a link's hit line.
    $('board').addEventListener('click', (event) => {
      const target = event.target.closest('[data-action]');
      if (!target) return;
      if (!target.classList.contains('legal') && !target.classList.contains('hit')) return;
      playAction(Number(target.dataset.action));
    });

    $('undo').addEventListener('click', undo);
    $('engine-move').addEventListener('click', engineMove);
    $('first').addEventListener('click', () => gotoPly(() => 0));
    $('prev').addEventListener('click', () => gotoPly((v) => v.ply - 1));
    $('next').addEventListener('click', () => gotoPly((v) => v.ply + 1));
    $('last').addEventListener('click', () => gotoPly((v) => v.plies));
    const recordClick = (event) => {
      const entry = event.target.closest('.ply[data-ply]');
      if (entry) gotoPly(() => Number(entry.dataset.ply));
    };
    $('record').addEventListener('click', recordClick);
    $('record').addEventListener('keydown', (event) => {
      if (event.key === 'Enter') recordClick(event);
    });
    document.addEventListener('keydown', onKey);

    $('analyze').addEventListener('change', analyzeToggled);
    $('analysis-sims').addEventListener('change', analysisSettingsChanged);
    $('analysis-model').addEventListener('change', analysisSettingsChanged);
    $('show-best').addEventListener('click', showBest);
    // The search runs on the server until the client hangs up: hang up when leaving.
    window.addEventListener('pagehide', stopStream);
    window.addEventListener('beforeunload', stopStream);

    $('replay-load').addEventListener('click', replayFromForm);
    $('results-load').addEventListener('click', loadResults);
    $('results-path').addEventListener('keydown', (event) => {
      if (event.key === 'Enter') loadResults();
    });

    $('runs-select').addEventListener('change', () => runAction(() => loadRun($('runs-select').value)));
    $('runs-reload').addEventListener('click', loadRunList);
    $('runs-refresh').addEventListener('change', updateRunPolling);

    $('balance-list').addEventListener('change', () => runAction(() => showReports(tickedReports())));
    $('balance-reload').addEventListener('click', loadBalanceList);
  }

  function init() {
    wire();
    selectTab('play');
    // The markup's data-busy="1" stands until the catalogue has loaded.
    runAction(loadCatalogue);
  }

  init();
})();
