// board.js: draws a board Layout and a GameView (the JSON API of `quax serve`) into an
// <svg>. Pure drawing: no fetch, no state of its own beyond a cache of layout indexes.
// app.js owns the clicks (one delegated listener on the svg reads `data-action`).
//
// Layers, bottom to top:
//   marks        quadhex's shading of every other quarter, under the cells: empty cells are a
//                little transparent, so the tint shows on empty cells only and never on stones
//   cells        cells, then stymie's squares (data-action, class cell|square, legal, data-player)
//   goals        the edges each player connects, on top of the cells' outer outlines
//   links        one <g class="link"> per link; a legal one also holds wide transparent
//                `.hit` lines, the click targets, so a thin diagonal is easy to click
//   heat         analysis overlays (class heat, data-heat, data-for); no pointer events
//   sides        the sides of a quadrant board's sub-games as lines, and a disc in the winner's
//                colour on each sub-game won; above the heat map, which would hide anything
//                drawn under it, and thin, so that stones still read through them
//   overlay      winning chain rings, last-move dots, the engine's best move; no pointer events
//   frame        torus wrap marks and coordinates
'use strict';

(function (global) {
  const SVG_NS = 'http://www.w3.org/2000/svg';
  const EXTRA_MARGIN = 0.25;  // board units beyond the layout's own margin, for the wrap arrows
  const HIT_WIDTH = 0.34;     // board units: the width of a link's click target

  // ---- small helpers -------------------------------------------------------------------

  function svgElement(parent, name, attributes) {
    const element = parent.ownerDocument.createElementNS(SVG_NS, name);
    for (const [key, value] of Object.entries(attributes || {})) {
      if (value !== undefined && value !== null) element.setAttribute(key, String(value));
    }
    parent.appendChild(element);
    return element;
  }

  function removeChildren(element) {
    while (element.firstChild) element.removeChild(element.firstChild);
  }

  function pointsAttribute(polygon) {
    return polygon.map(([x, y]) => `${round(x)},${round(y)}`).join(' ');
  }

  // Four decimals keep the markup short without visible error at any zoom.
  function round(value) {
    return Math.round(value * 10000) / 10000;
  }

  function boundsOfPoints(points) {
    const bounds = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
    for (const [x, y] of points) {
      bounds.minX = Math.min(bounds.minX, x);
      bounds.maxX = Math.max(bounds.maxX, x);
      bounds.minY = Math.min(bounds.minY, y);
      bounds.maxY = Math.max(bounds.maxY, y);
    }
    return bounds;
  }

  function itemPoints(item) {
    if (item.kind === 'link') return (item.segments || []).flat();
    return item.polygon || [];
  }

  // Where to put a dot or a ring on an item: the server's centre when given, else the middle
  // of the polygon's bounds or of the link's first segment.
  function itemCenter(item) {
    if (item.kind === 'link' && item.segments && item.segments.length > 0) {
      // A torus link drawn as two halves: its centre may be off the board, so use the
      // middle of the first half instead.
      if (item.segments.length > 1 || !item.center) return midpoint(item.segments[0]);
    }
    if (item.center) return item.center;
    const b = boundsOfPoints(itemPoints(item));
    return [(b.minX + b.maxX) / 2, (b.minY + b.maxY) / 2];
  }

  function midpoint([[x1, y1], [x2, y2]]) {
    return [(x1 + x2) / 2, (y1 + y2) / 2];
  }

  // The size of an item, for scaling rings and dots: the smaller side of a polygon's bounds.
  function itemSize(item, unit) {
    if (item.kind === 'link' || !item.polygon) return unit;
    const b = boundsOfPoints(item.polygon);
    return Math.min(b.maxX - b.minX, b.maxY - b.minY);
  }

  // Per layout object: action -> item, the bounds of all items and a typical cell size.
  // A layout is the same for every position of a game, and app.js keeps the object of the
  // current view, so this is computed about once per game.
  const indexCache = new WeakMap();

  function layoutIndex(layout) {
    let index = indexCache.get(layout);
    if (index) return index;
    const byAction = new Map();
    const allPoints = [];
    const cellSizes = [];
    for (const item of layout.items || []) {
      byAction.set(item.action, item);
      const points = itemPoints(item);
      allPoints.push(...points);
      if (item.kind === 'cell' && item.polygon) {
        const b = boundsOfPoints(item.polygon);
        cellSizes.push(Math.min(b.maxX - b.minX, b.maxY - b.minY));
      }
    }
    cellSizes.sort((a, b) => a - b);
    const unit = cellSizes.length ? cellSizes[Math.floor(cellSizes.length / 2)] : 1;
    const bounds = allPoints.length
      ? boundsOfPoints(allPoints)
      : { minX: 0, minY: 0, maxX: layout.width || 1, maxY: layout.height || 1 };
    index = { byAction, bounds, unit };
    indexCache.set(layout, index);
    return index;
  }

  // The layout's width x height already holds a margin for the coordinates; a little more
  // leaves room for the torus arrows, and the bounds of the items guard against a layout
  // whose width or height is missing.
  function viewBoxOf(layout, index) {
    const b = index.bounds;
    const minX = Math.min(0, b.minX) - EXTRA_MARGIN;
    const minY = Math.min(0, b.minY) - EXTRA_MARGIN;
    const maxX = Math.max(layout.width || 0, b.maxX) + EXTRA_MARGIN;
    const maxY = Math.max(layout.height || 0, b.maxY) + EXTRA_MARGIN;
    return [minX, minY, maxX - minX, maxY - minY].map(round).join(' ');
  }

  function layer(svg, name) {
    return svg.querySelector(`g.layer-${name}`);
  }

  // ---- the board -----------------------------------------------------------------------

  // Draws the whole board for one position. options.interactive turns on the hover
  // previews (the human may move now); clicks are app.js's business either way.
  function drawBoard(svg, layout, view, options) {
    const opts = options || {};
    const index = layoutIndex(layout);
    removeChildren(svg);
    const viewBox = viewBoxOf(layout, index);
    svg.setAttribute('viewBox', viewBox);
    // Lets CSS size the board from its width alone (width: 100%; height: auto).
    const [, , boxWidth, boxHeight] = viewBox.split(' ');
    svg.style.aspectRatio = `${boxWidth} / ${boxHeight}`;
    svg.dataset.toMove = view.to_move || '';
    svg.classList.toggle('interactive', Boolean(opts.interactive));
    svg.classList.toggle('over', view.winner != null);

    const layers = {};
    for (const name of ['marks', 'cells', 'goals', 'links', 'heat', 'sides', 'overlay', 'frame']) {
      layers[name] = svgElement(svg, 'g', { class: `layer-${name}` });
    }

    const owner = new Map((view.occupied || []).map((o) => [o.action, o.player]));
    const legal = new Set(view.legal || []);
    const chain = new Set(view.chain || []);

    for (const mark of layout.marks || []) {
      svgElement(layers.marks, 'polygon', { class: `mark mark-${mark.kind}`, points: pointsAttribute(mark.polygon) });
    }

    // Octagons before stymie's squares, so the small squares sit on top of the octagons' corners.
    const polygons = (layout.items || []).filter((item) => item.kind !== 'link' && item.polygon);
    polygons.sort((a, b) => (a.kind === 'square') - (b.kind === 'square'));
    for (const item of polygons) {
      drawCell(layers.cells, item, owner.get(item.action), legal.has(item.action), chain.has(item.action));
    }

    for (const goal of layout.goals || []) {
      for (const segment of goal.segments || []) drawGoalSegment(layers.goals, goal.player, segment);
    }

    for (const item of layout.items || []) {
      if (item.kind === 'link') drawLink(layers.links, item, owner.get(item.action), legal.has(item.action));
    }

    drawGames(layers.sides, layout, view, index);
    drawChainAndLast(layers.overlay, index, view, owner);
    if (layout.wrap) drawWrapMarks(layers.frame, index);
    drawCoordinates(layers.frame, layout, index);
  }

  function drawCell(parent, item, player, isLegal, onChain) {
    const classes = ['item', item.kind];
    if (isLegal) classes.push('legal');
    if (player) classes.push('stone', player === 'black' || player === 'white' ? player : 'other');
    if (onChain) classes.push('chain');
    const polygon = svgElement(parent, 'polygon', {
      class: classes.join(' '),
      points: pointsAttribute(item.polygon),
      'data-action': item.action,
      'data-label': item.label,
      'data-player': player,
    });
    // A native tooltip with the cell's name: cheap, and no coordinate reading needed.
    svgElement(polygon, 'title').textContent = item.label;
  }

  function drawGoalSegment(parent, player, [[x1, y1], [x2, y2]]) {
    const line = { x1: round(x1), y1: round(y1), x2: round(x2), y2: round(y2) };
    // White is drawn white: a dark line underneath gives it an outline on the light board.
    if (player === 'white') svgElement(parent, 'line', { class: 'goal goal-outline', ...line });
    svgElement(parent, 'line', { class: `goal goal-${player}`, ...line });
  }

  function drawLink(parent, item, player, isLegal) {
    const classes = ['item', 'link'];
    if (isLegal) classes.push('legal');
    if (player) classes.push(player === 'black' || player === 'white' ? player : 'other');
    const group = svgElement(parent, 'g', {
      class: classes.join(' '),
      'data-action': item.action,
      'data-label': item.label,
      'data-player': player,
    });
    for (const [[x1, y1], [x2, y2]] of item.segments || []) {
      const line = { x1: round(x1), y1: round(y1), x2: round(x2), y2: round(y2) };
      svgElement(group, 'line', { class: 'link-outline', ...line });
      svgElement(group, 'line', { class: 'link-line', ...line });
    }
    if (!isLegal) return;
    // The click targets come last in the group so that they are above its own lines; one per
    // segment, each carrying the action, so a click on either half of a torus link works.
    for (const [[x1, y1], [x2, y2]] of item.segments || []) {
      const hit = svgElement(group, 'line', {
        class: 'hit', 'data-action': item.action,
        x1: round(x1), y1: round(y1), x2: round(x2), y2: round(y2), 'stroke-width': HIT_WIDTH,
      });
      svgElement(hit, 'title').textContent = item.label;
    }
  }

  // The sub-games of a quadrant board (layout.games, the whole board first): their sides,
  // the finer split first so that the coarser lines lie on top where they coincide; then a
  // disc on each sub-game won (view.points.winners, same order), the coarser ones first and
  // larger, so that quady2's disc of a quadrant and that of its centre sub-game, which share
  // a centre, both show. The whole board's result is in the points line under the board.
  function drawGames(parent, layout, view, index) {
    const games = (layout.games || []).map((game, i) => ({ ...game, index: i })).filter((game) => game.level > 0);
    if (games.length === 0) return;
    const u = index.unit;
    const finerFirst = games.slice().sort((a, b) => b.level - a.level);
    const lineWidth = (game) => (game.level > 1 ? 0.045 : 0.07) * u;
    const lineOf = ([[x1, y1], [x2, y2]]) => ({ x1: round(x1), y1: round(y1), x2: round(x2), y2: round(y2) });
    // Every light edge under every line, so that no edge cuts a line where two sides meet.
    const edges = svgElement(parent, 'g', { class: 'game-side-edges' });
    for (const game of finerFirst) {
      for (const segment of game.sides || []) {
        svgElement(edges, 'line', { class: 'side-outline', ...lineOf(segment), 'stroke-width': round(2.4 * lineWidth(game)) });
      }
    }
    for (const game of finerFirst) {
      const group = svgElement(parent, 'g', { class: `game-side level-${game.level}`, 'data-game': game.index });
      for (const segment of game.sides || []) {
        svgElement(group, 'line', { class: 'side-line', ...lineOf(segment), 'stroke-width': round(lineWidth(game)) });
      }
    }
    const winners = (view.points && view.points.winners) || [];
    for (const game of games.slice().sort((a, b) => a.level - b.level)) {
      const winner = winners[game.index];
      if (winner !== 'black' && winner !== 'white') continue;
      const [x, y] = game.center;
      const disc = svgElement(parent, 'circle', {
        class: `game-point ${winner}`, 'data-game': game.index, 'data-winner': winner,
        cx: round(x), cy: round(y), r: round((game.level > 1 ? 0.2 : 0.32) * u), 'stroke-width': round(0.08 * u),
      });
      svgElement(disc, 'title').textContent = `a point for ${winner}`;
    }
  }

  function drawChainAndLast(parent, index, view, owner) {
    for (const action of view.chain || []) {
      const item = index.byAction.get(action);
      if (!item) continue;
      const [x, y] = itemCenter(item);
      svgElement(parent, 'circle', {
        class: 'chain-ring', 'data-for': action,
        cx: round(x), cy: round(y), r: round(0.36 * itemSize(item, index.unit)),
        'stroke-width': round(0.09 * index.unit),
      });
    }
    // Extras (swap, end, ...) are in `last` too but have no place on the board.
    for (const action of view.last || []) {
      const item = index.byAction.get(action);
      if (!item) continue;
      const [x, y] = itemCenter(item);
      const player = owner.get(action);
      svgElement(parent, 'circle', {
        class: `last-dot on-${player || 'empty'}`, 'data-for': action,
        cx: round(x), cy: round(y), r: round((item.kind === 'link' ? 0.09 : 0.12) * index.unit),
      });
    }
  }

  // Torax: a dashed frame and three arrows pointing out of every edge, saying "this edge
  // continues on the opposite one".
  function drawWrapMarks(parent, index) {
    const b = index.bounds;
    const u = index.unit;
    const gap = 0.08 * u;
    svgElement(parent, 'rect', {
      class: 'wrap wrap-frame',
      x: round(b.minX - gap), y: round(b.minY - gap),
      width: round(b.maxX - b.minX + 2 * gap), height: round(b.maxY - b.minY + 2 * gap),
      'stroke-width': round(0.05 * u), 'stroke-dasharray': `${round(0.25 * u)} ${round(0.15 * u)}`,
    });
    const cx = (b.minX + b.maxX) / 2;
    const cy = (b.minY + b.maxY) / 2;
    // Outside the coordinates (which sit about half a cell off the south and west edges).
    const d = 0.72 * u;       // distance of an arrow's base from the board
    const len = 0.28 * u;     // arrow length
    const half = 0.18 * u;    // half the arrow's base
    const arrows = [
      // [base centre x, y, unit vector out of the board]
      [cx, b.minY - d, 0, -1], [cx, b.maxY + d, 0, 1],
      [b.minX - d, cy, -1, 0], [b.maxX + d, cy, 1, 0],
    ];
    for (const [x, y, dx, dy] of arrows) {
      const tip = [x + dx * len, y + dy * len];
      const left = [x - dy * half, y + dx * half];
      const right = [x + dy * half, y - dx * half];
      svgElement(parent, 'polygon', { class: 'wrap wrap-arrow', points: pointsAttribute([tip, left, right]) });
    }
    for (const [x, y, dx, dy] of arrows) {
      // A second, smaller arrow on either side of the middle one along long edges, so the
      // marks read as "the whole edge wraps" rather than "one cell".
      for (const shift of [-0.3, 0.3]) {
        const along = dx === 0 ? (b.maxX - b.minX) * shift : (b.maxY - b.minY) * shift;
        const bx = x + (dx === 0 ? along : 0);
        const by = y + (dy === 0 ? along : 0);
        const tip = [bx + dx * len * 0.7, by + dy * len * 0.7];
        const left = [bx - dy * half * 0.7, by + dx * half * 0.7];
        const right = [bx + dy * half * 0.7, by - dx * half * 0.7];
        svgElement(parent, 'polygon', { class: 'wrap wrap-arrow', points: pointsAttribute([tip, left, right]) });
      }
    }
  }

  function drawCoordinates(parent, layout, index) {
    const fontSize = round(0.42 * index.unit);
    for (const label of layout.coordinates || []) {
      const text = svgElement(parent, 'text', {
        class: 'coordinate', x: round(label.x), y: round(label.y), 'font-size': fontSize,
        'text-anchor': 'middle', 'dominant-baseline': 'central',
      });
      text.textContent = label.text;
    }
  }

  // ---- analysis overlays ---------------------------------------------------------------

  // Fills each action of `prior` ([[action, p], ...]) with an orange overlay whose opacity
  // grows with p, relative to the largest p: a policy is spread over many moves, so an
  // absolute scale would leave most boards nearly blank.
  function drawHeat(svg, layout, prior) {
    const parent = layer(svg, 'heat');
    if (!parent) return;
    removeChildren(parent);
    if (!prior || prior.length === 0) return;
    const index = layoutIndex(layout);
    const maxP = Math.max(...prior.map(([, p]) => p), 1e-9);
    for (const [action, p] of prior) {
      const item = index.byAction.get(action);
      if (!item) continue;  // extras (swap, pass, ...) have no place on the board
      const opacity = round(0.08 + 0.8 * Math.sqrt(Math.max(0, p) / maxP));
      const common = { class: 'heat', 'data-heat': String(p), 'data-for': action };
      if (item.kind === 'link') {
        const group = svgElement(parent, 'g', { ...common, 'stroke-opacity': opacity });
        for (const [[x1, y1], [x2, y2]] of item.segments || []) {
          svgElement(group, 'line', {
            x1: round(x1), y1: round(y1), x2: round(x2), y2: round(y2), 'stroke-width': round(0.22 * index.unit),
          });
        }
      } else {
        svgElement(parent, 'polygon', { ...common, points: pointsAttribute(item.polygon), 'fill-opacity': opacity });
      }
    }
  }

  // Marks the engine's chosen action (a ring, or a thick line for a link). `final` false
  // while the search is still running: the mark is then drawn dashed.
  function drawBest(svg, layout, action, final) {
    const parent = layer(svg, 'overlay');
    if (!parent) return;
    for (const old of parent.querySelectorAll('.best')) old.remove();
    if (action == null) return;
    const index = layoutIndex(layout);
    const item = index.byAction.get(action);
    if (!item) return;
    const classes = `best${final ? '' : ' searching'}`;
    if (item.kind === 'link') {
      const group = svgElement(parent, 'g', { class: classes, 'data-for': action });
      for (const [[x1, y1], [x2, y2]] of item.segments || []) {
        svgElement(group, 'line', {
          x1: round(x1), y1: round(y1), x2: round(x2), y2: round(y2), 'stroke-width': round(0.16 * index.unit),
        });
      }
    } else {
      const [x, y] = itemCenter(item);
      svgElement(parent, 'circle', {
        class: classes, 'data-for': action,
        cx: round(x), cy: round(y), r: round(0.3 * itemSize(item, index.unit)),
        'stroke-width': round(0.1 * index.unit),
      });
    }
  }

  function clearAnalysis(svg) {
    const heat = layer(svg, 'heat');
    if (heat) removeChildren(heat);
    drawBest(svg, null, null, true);
  }

  function clearBoard(svg) {
    removeChildren(svg);
    svg.removeAttribute('viewBox');
    svg.style.aspectRatio = '';
    svg.classList.remove('interactive', 'over');
  }

  const Board = { drawBoard, drawHeat, drawBest, clearAnalysis, clearBoard, itemCenter };
  global.Board = Board;
  if (typeof module !== 'undefined' && module.exports) module.exports = Board;  // for a Node check
})(typeof window !== 'undefined' ? window : globalThis);
