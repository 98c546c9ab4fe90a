// board.js: draws a board Layout and a GameView (the JSON API of `quax serve`) into an
// <svg>. Pure drawing: no fetch, no state of its own beyond a cache of layout indexes.
// app.js owns the clicks (one delegated listener on the svg reads `data-action`).
//
// Layers, bottom to top:
//   marks        quadhex's shading of every other quarter, under the cells: empty cells are a
//                little transparent, so the tint shows on empty cells only and never on stones
//   cells        cells, then stymie's squares (data-action, class cell|square, legal, data-player)
//   goals        the edges each player connects: on a square board's straight outer edge, just
//                outside the hexagons' zigzag on the rhombus (clearedGoals)
//   links        one <g class="link"> per link; a legal one also holds wide transparent
//                `.hit` lines, the click targets, so a thin diagonal is easy to click
//   heat         analysis overlays (class heat, data-heat, data-for); no pointer events
//   sides        the sides of a quadrant board's sub-games as lines, and a disc in the winner's
//                colour on each sub-game won; above the heat map, which would hide anything
//                drawn under it, and thin, so that stones still read through them
//   overlay      winning chain rings, last-move dots, the engine's best move; no pointer events
//   frame        torus wrap marks and coordinates (the triangle's column letters at both ends of
//                each column line, triangleColumnLabels)
'use strict';

(function (global) {
  const SVG_NS = 'http://www.w3.org/2000/svg';
  const EXTRA_MARGIN = 0.25;  // board units beyond the layout's own margin, for the wrap arrows
  const HIT_WIDTH = 0.34;     // board units: the width of a link's click target
  // Board units between a goal bar's centre line and the outermost corner of the cells beside
  // it: half the widest bar stroke (.goal-outline, 0.17 in style.css) and half a highlighted
  // cell's outline (.chain, 0.08), so that neither covers the other.
  const GOAL_CLEARANCE = 0.13;
  const LABEL_OFFSET = 0.95;  // cell steps from a line's end cell to its label, as the server's
  // Board units from a goal bar's centre line to the centre of a coordinate beside it: half the
  // bar's stroke and the half extent of a two-digit label (0.42 high) across a slanted bar.
  const LABEL_CLEARANCE = 0.45;

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

    // The same for every position of a game: fitted once per layout.
    if (!index.fitted) {
      const goals = clearedGoals(layout, index);
      index.fitted = { goals, labels: coordinateLabels(layout, index, goals) };
    }
    for (const goal of index.fitted.goals) {
      for (const segment of goal.segments) drawGoalSegment(layers.goals, goal.player, segment);
    }

    for (const item of layout.items || []) {
      if (item.kind === 'link') drawLink(layers.links, item, owner.get(item.action), legal.has(item.action));
    }

    drawGames(layers.sides, layout, view, index);
    drawChainAndLast(layers.overlay, index, view, owner);
    if (layout.wrap) drawWrapMarks(layers.frame, index);
    drawCoordinates(layers.frame, index.fitted.labels, index);
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

  function drawCoordinates(parent, labels, index) {
    const fontSize = round(0.42 * index.unit);
    for (const label of labels) {
      const text = svgElement(parent, 'text', {
        class: 'coordinate', x: round(label.x), y: round(label.y), 'font-size': fontSize,
        'text-anchor': 'middle', 'dominant-baseline': 'central',
      });
      text.textContent = label.text;
    }
  }

  // ---- goal bars and coordinates, fitted to the cells ----------------------------------

  function cellItems(layout) {
    return (layout.items || []).filter((item) => item.kind === 'cell' && item.polygon && item.polygon.length);
  }

  // The layout's goal bars, each segment moved outward (away from the board's middle) where
  // it would cut into the cells beside it. The server draws the rhombus' bars a fixed distance
  // from the outer cells' centres, which on the slanted west and east sides runs through the
  // hexagons' corners (and their strokes overlap the corners on the north and south rows).
  // A bar along the cells' straight outer edge (square boards, where the edge is the goal) stays
  // where it is. Returns [{player, segments}].
  function clearedGoals(layout, index) {
    const cells = cellItems(layout);
    const b = index.bounds;
    const middle = [(b.minX + b.maxX) / 2, (b.minY + b.maxY) / 2];
    return (layout.goals || []).map((goal) => {
      const segments = [];
      for (const segment of goal.segments || []) {
        const [[x1, y1], [x2, y2]] = segment;
        const length = Math.hypot(x2 - x1, y2 - y1);
        if (!(length > 0)) { segments.push(segment); continue; }
        const ux = (x2 - x1) / length;
        const uy = (y2 - y1) / length;
        let nx = -uy;
        let ny = ux;
        if ((middle[0] - x1) * nx + (middle[1] - y1) * ny > 0) { nx = -nx; ny = -ny; }  // outward
        // How far beyond the bar's line the cells beside it reach (those whose extent along
        // the bar overlaps it, with the clearance at either end).
        let reach = -Infinity;
        for (const cell of cells) {
          const along = cell.polygon.map(([x, y]) => (x - x1) * ux + (y - y1) * uy);
          if (Math.max(...along) < -GOAL_CLEARANCE || Math.min(...along) > length + GOAL_CLEARANCE) continue;
          for (const [x, y] of cell.polygon) reach = Math.max(reach, (x - x1) * nx + (y - y1) * ny);
        }
        const onStraightEdge = Math.abs(reach) < 1e-6;
        const move = reach === -Infinity || onStraightEdge ? 0 : Math.max(0, reach + GOAL_CLEARANCE);
        segments.push([[x1 + move * nx, y1 + move * ny], [x2 + move * nx, y2 + move * ny]]);
      }
      return { player: goal.player, segments };
    });
  }

  // The coordinates to draw: the layout's, with the triangle's column letters replaced by
  // triangleColumnLabels, and any label nearer than LABEL_CLEARANCE to a goal bar beside it
  // (on the rhombus, where clearedGoals moved the bars out towards them) pushed out along its
  // own row or column, away from its nearest cell, so that it stays on that line.
  function coordinateLabels(layout, index, goals) {
    const cells = cellItems(layout);
    const triangle = triangleColumnLabels(cells);
    const labels = (layout.coordinates || [])
      .filter((label) => !(triangle && /^[a-z]+$/.test(label.text)))
      .map((label) => ({ text: label.text, x: label.x, y: label.y }));
    if (triangle) labels.push(...triangle);
    const b = index.bounds;
    const middle = [(b.minX + b.maxX) / 2, (b.minY + b.maxY) / 2];
    const bars = goals.flatMap((goal) => goal.segments);
    if (bars.length === 0 || cells.length === 0) return labels;
    return labels.map((label) => {
      const nearest = cells.reduce((best, cell) => {
        const [cx, cy] = itemCenter(cell);
        const d = Math.hypot(cx - label.x, cy - label.y);
        return d < best.d ? { at: [cx, cy], d } : best;
      }, { at: null, d: Infinity });
      if (!nearest.at || !(nearest.d > 0)) return label;
      const ax = (label.x - nearest.at[0]) / nearest.d;  // the label's way out
      const ay = (label.y - nearest.at[1]) / nearest.d;
      let push = 0;
      for (const [[x1, y1], [x2, y2]] of bars) {
        const length = Math.hypot(x2 - x1, y2 - y1);
        if (!(length > 0)) continue;
        let [nx, ny] = [-(y2 - y1) / length, (x2 - x1) / length];
        if ((middle[0] - x1) * nx + (middle[1] - y1) * ny > 0) { nx = -nx; ny = -ny; }  // outward
        const along = ((label.x - x1) * (x2 - x1) + (label.y - y1) * (y2 - y1)) / length;
        const beyond = (label.x - x1) * nx + (label.y - y1) * ny;
        const facing = ax * nx + ay * ny;
        // Beside this bar: within its length, on the board's side of the bar's outer clearance,
        // and leaving the board across it.
        if (along < 0 || along > length || beyond >= LABEL_CLEARANCE - 1e-9 || facing < 0.3) continue;
        push = Math.max(push, (LABEL_CLEARANCE - beyond) / facing);
      }
      return push > 0 ? { text: label.text, x: label.x + push * ax, y: label.y + push * ay } : label;
    });
  }

  // The triangle (y, quady, quady2): cell (r, c) is named by its row r from the apex and its
  // column c from the left within its row, so column c is the line of cells (r, c), r >= c,
  // running from (c, c) on the right side down-left to (N, c) on the base. A letter under the
  // base cell alone sits under the lines of other columns higher up (on side 15, h8 is above
  // the base's k and l), so each letter goes on its own line, just beyond both of its ends.
  // Read off the cells' names and centres: the board is a triangle when its columns differ in
  // length (a square and a rhombus have N cells in every column). null for any other board.
  function triangleColumnLabels(cells) {
    const columns = new Map();
    for (const cell of cells) {
      const name = /^([a-z]+)([0-9]+)$/.exec(cell.label || '');
      if (!name || cell.polygon.length !== 6) return null;
      if (!columns.has(name[1])) columns.set(name[1], []);
      columns.get(name[1]).push({ row: Number(name[2]), center: itemCenter(cell) });
    }
    if (new Set(Array.from(columns.values(), (column) => column.length)).size < 2) return null;
    // One step down a column (every column is parallel); the corner's column has one cell.
    let step = null;
    for (const column of columns.values()) {
      column.sort((p, q) => p.row - q.row);
      if (!step && column.length >= 2) {
        const [first, last] = [column[0], column[column.length - 1]];
        const rows = last.row - first.row;
        step = [(last.center[0] - first.center[0]) / rows, (last.center[1] - first.center[1]) / rows];
      }
    }
    if (!step) return null;
    const labels = [];
    for (const [letter, column] of columns) {
      const [top, base] = [column[0].center, column[column.length - 1].center];
      labels.push({ text: letter, x: base[0] + LABEL_OFFSET * step[0], y: base[1] + LABEL_OFFSET * step[1] });
      labels.push({ text: letter, x: top[0] - LABEL_OFFSET * step[0], y: top[1] - LABEL_OFFSET * step[1] });
    }
    return labels;
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
