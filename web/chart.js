// chart.js: a tiny SVG line chart for the Runs page of `quax serve` (no library): a figure
// per chart with a caption, axes with "nice" ticks, one polyline per series and a legend.
// Pure drawing, like board.js; app.js decides what to plot.
'use strict';

(function (global) {
  function chartFigure(container, id) {
    let figure = container.querySelector(`figure[data-chart="${id}"]`);
    if (!figure) {
      figure = document.createElement('figure');
      figure.className = 'chart';
      figure.dataset.chart = id;
      figure.append(document.createElement('figcaption'),
        document.createElementNS('http://www.w3.org/2000/svg', 'svg'),
        Object.assign(document.createElement('div'), { className: 'legend' }));
      container.appendChild(figure);
    }
    return figure;
  }

  // "Nice" tick values (1, 2 or 5 times a power of ten) covering [lo, hi].
  function niceTicks(lo, hi, count) {
    const span = hi - lo;
    const rough = span / Math.max(1, count);
    const power = Math.pow(10, Math.floor(Math.log10(rough)));
    const step = [1, 2, 5, 10].map((m) => m * power).find((s) => span / s <= count) || 10 * power;
    const ticks = [];
    for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) ticks.push(Math.abs(t) < step * 1e-9 ? 0 : t);
    return { ticks, step };
  }

  function formatTick(value, step) {
    if (Math.abs(value) >= 10000) return `${+(value / 1000).toFixed(step >= 1000 ? 0 : 1)}k`;
    const decimals = Math.max(0, Math.min(6, -Math.floor(Math.log10(step))));
    return value.toFixed(decimals);
  }

  // A tiny line chart: {title, xLabel, series: [{name, color, points: [[x, y]], tips?,
  // intervals?: [[lo, hi] or null per point]}], levels?: [{y, label, color}], yRange?: [lo, hi]
  // (a span the y axis always covers, e.g. [0, 1] for a score), empty?: the text shown without
  // data} into the figure's svg (a 360 x 200 viewBox that scales). Each dot carries its values
  // as data-x and data-y, each interval its bounds as data-lo and data-hi (the tests read them).
  function drawChart(figure, chart) {
    const W = 360;
    const H = 200;
    const M = { left: 48, right: 12, top: 10, bottom: 32 };
    const svg = figure.querySelector('svg');
    const ns = 'http://www.w3.org/2000/svg';
    const add = (parent, name, attributes, text) => {
      const element = document.createElementNS(ns, name);
      for (const [k, v] of Object.entries(attributes)) element.setAttribute(k, String(v));
      if (text != null) element.textContent = text;
      parent.appendChild(element);
      return element;
    };
    figure.querySelector('figcaption').textContent = chart.title;
    svg.textContent = '';
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    const legend = figure.querySelector('.legend');
    legend.textContent = '';

    const xs = [];
    const ys = [];
    for (const s of chart.series) for (const [x, y] of s.points) { xs.push(x); ys.push(y); }
    if (xs.length === 0) {
      add(svg, 'text', { class: 'no-data', x: W / 2, y: H / 2, 'text-anchor': 'middle' }, chart.empty || 'no data yet');
      return;
    }
    for (const level of chart.levels || []) ys.push(level.y);
    for (const s of chart.series) for (const interval of s.intervals || []) if (interval) ys.push(...interval);
    if (chart.yRange) ys.push(...chart.yRange);
    let [x0, x1] = [Math.min(...xs), Math.max(...xs)];
    let [y0, y1] = [Math.min(...ys), Math.max(...ys)];
    if (x0 === x1) { x0 -= 1; x1 += 1; }
    if (y0 === y1) { const pad = Math.abs(y0) * 0.1 || 1; y0 -= pad; y1 += pad; }
    const yPad = (y1 - y0) * 0.05;
    y0 -= yPad;
    y1 += yPad;
    const px = (x) => M.left + ((x - x0) / (x1 - x0)) * (W - M.left - M.right);
    const py = (y) => H - M.bottom - ((y - y0) / (y1 - y0)) * (H - M.top - M.bottom);
    const r1 = (v) => Math.round(v * 10) / 10;

    const yTicks = niceTicks(y0, y1, 5);
    for (const t of yTicks.ticks) {
      add(svg, 'line', { class: 'grid-line', x1: M.left, x2: W - M.right, y1: r1(py(t)), y2: r1(py(t)) });
      add(svg, 'text', { class: 'tick-label', x: M.left - 4, y: r1(py(t)) + 3, 'text-anchor': 'end' }, formatTick(t, yTicks.step));
    }
    const xTicks = niceTicks(x0, x1, 5);
    for (const t of xTicks.ticks) {
      add(svg, 'text', { class: 'tick-label', x: r1(px(t)), y: H - M.bottom + 12, 'text-anchor': 'middle' }, formatTick(t, xTicks.step));
    }
    add(svg, 'line', { class: 'axis-line', x1: M.left, x2: M.left, y1: M.top, y2: H - M.bottom });
    add(svg, 'line', { class: 'axis-line', x1: M.left, x2: W - M.right, y1: H - M.bottom, y2: H - M.bottom });
    add(svg, 'text', { class: 'axis-label', x: (M.left + W - M.right) / 2, y: H - 4, 'text-anchor': 'middle' }, chart.xLabel);

    for (const level of chart.levels || []) {
      const y = r1(py(level.y));
      add(svg, 'line', { class: 'baseline', x1: M.left, x2: W - M.right, y1: y, y2: y, stroke: level.color });
      add(svg, 'text', { class: 'baseline-label', x: W - M.right - 2, y: y - 2, 'text-anchor': 'end' }, level.label);
    }
    for (const s of chart.series) {
      if (s.points.length === 0) continue;
      // A result's uncertainty (a gating match of a few games) as a vertical bar under its dot.
      (s.intervals || []).forEach((interval, i) => {
        if (!interval || !s.points[i]) return;
        const x = r1(px(s.points[i][0]));
        add(svg, 'line', {
          class: 'interval', stroke: s.color, x1: x, x2: x, y1: r1(py(interval[0])), y2: r1(py(interval[1])),
          'data-x': s.points[i][0], 'data-lo': interval[0], 'data-hi': interval[1],
        });
      });
      add(svg, 'polyline', {
        class: 'series', stroke: s.color,
        points: s.points.map(([x, y]) => `${r1(px(x))},${r1(py(y))}`).join(' '),
      });
      // Dots where there are few points (a ladder), each with its numbers as a tooltip.
      if (s.points.length <= 60) {
        s.points.forEach(([x, y], i) => {
          const dot = add(svg, 'circle', { class: 'point', cx: r1(px(x)), cy: r1(py(y)), r: 2.2, fill: s.color, 'data-x': x, 'data-y': y });
          add(dot, 'title', {}, s.tips ? s.tips[i] : `${x}: ${y}`);
        });
      }
      const item = document.createElement('span');
      const swatch = document.createElement('span');
      swatch.className = 'swatch';
      swatch.style.background = s.color;
      const last = s.points[s.points.length - 1][1];
      item.append(swatch, `${s.name}: ${Math.abs(last) >= 100 ? last.toFixed(0) : +last.toPrecision(3)}`);
      legend.appendChild(item);
    }
  }

  global.Chart = { chartFigure, drawChart };
})(window);
