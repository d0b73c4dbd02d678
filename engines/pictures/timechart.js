// timechart.js - draws the page's tb-data timechart (tc_html.c) as SVG: a
// lane per CPU (the task running there), a bar per task (running, runnable,
// blocked), a time axis, wake-up arrows on demand, zoom (buttons, wheel) and
// pan (drag, buttons). Each lane is drawn per pixel: one rect per run of
// pixels of one dominant state or task, found with prefix sums and binary
// search, so a redraw costs O(lanes x width log n), not O(events).
// Names are only ever set as text (textContent, setAttribute), never as markup.
(function () {
  'use strict';
  var SVGNS = 'http://www.w3.org/2000/svg';
  var d = JSON.parse(document.getElementById('tb-data').textContent);
  var W = d.width > 0 ? d.width : 1200;
  var LABEL = 200, AXIS = 24, CPU_H = 18, TASK_H = 14, GAP = 12, PAD = 10;
  var MAX_ARROWS = 3000, MIN_SPAN = 100;
  var STATES = d.states || ['running', 'runnable', 'blocked'];
  var total = Math.max(d.duration || 0, 1);
  var view = [0, total];

  function el(tag, attrs, parent) {
    var e = document.createElementNS(SVGNS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function html(tag, id, parent, text) {
    var e = document.createElement(tag);
    if (id) e.id = id;
    if (text !== undefined) e.textContent = text;
    parent.appendChild(e);
    return e;
  }
  function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); }

  // Times: ns since the first event, shown in the unit that suits @step.
  function fmt(t, step) {
    var units = [[1e9, 's'], [1e6, 'ms'], [1e3, 'us'], [1, 'ns']];
    step = step || Math.abs(t) || 1;
    for (var i = 0; i < units.length; i++) {
      if (step >= units[i][0] || i === units.length - 1) {
        var digits = Math.max(0, Math.min(6, Math.ceil(-Math.log10(step / units[i][0]) + 1e-9)));
        return (t / units[i][0]).toFixed(digits) + ' ' + units[i][1];
      }
    }
  }

  // A lane's intervals as typed arrays with prefix sums (cum[k][i]: the
  // time of kind k in the intervals before i).
  function lane(flat, stride, kindOf, nkinds) {
    var n = Math.floor(flat.length / stride), L = {
      n: n, start: new Float64Array(n), end: new Float64Array(n), kind: new Int32Array(n),
      arg: new Int32Array(n), cum: []
    };
    for (var k = 0; k < nkinds; k++) L.cum.push(new Float64Array(n + 1));
    for (var i = 0; i < n; i++) {
      var s = flat[i * stride], dur = flat[i * stride + 1];
      L.start[i] = s;
      L.end[i] = s + dur;
      L.kind[i] = kindOf(flat, i * stride);
      L.arg[i] = flat[i * stride + stride - 1];
      for (k = 0; k < nkinds; k++) L.cum[k][i + 1] = L.cum[k][i] + (L.kind[i] === k ? dur : 0);
    }
    return L;
  }
  // The first interval ending after @t, searching from @lo.
  function after(L, t, lo) {
    var hi = L.n;
    lo = lo || 0;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (L.end[mid] <= t) lo = mid + 1; else hi = mid;
    }
    return lo;
  }
  // The time of kind @k before @t (@i: after(L, t)).
  function upto(L, k, t, i) {
    var c = L.cum[k][i];
    if (i < L.n && L.start[i] < t && L.kind[i] === k) c += t - L.start[i];
    return c;
  }

  var cpus = (d.cpus || []).map(function (c) {
    return { cpu: c.cpu, L: lane(c.spans, 3, function () { return 0; }, 1) };
  });
  var tasks = (d.tasks || []).map(function (t) {
    return { pid: t.pid, comm: t.comm,
             L: lane(t.spans, 4, function (a, o) { return a[o + 2]; }, STATES.length) };
  });
  var byPid = {};
  tasks.forEach(function (t) { byPid[t.pid] = t; });
  var wk = d.wakeups || [];
  var nWake = Math.floor(wk.length / 5);

  function taskName(pid) {
    var t = byPid[pid];
    return (t ? t.comm : pid ? '?' : 'idle') + ' (' + pid + ')';
  }
  function colour(pid) {
    var h = (pid * 137.508) % 360;
    return 'hsl(' + h.toFixed(1) + ',55%,62%)';
  }

  // The page: the title, the controls, the legend, the view, the picture.
  var head = html('div', 'tc-head', document.body);
  html('div', 'tc-title', head, d.title);
  var controls = html('div', 'tc-controls', document.body);
  function button(id, text, fn) {
    var b = html('button', id, controls, text);
    b.type = 'button';
    b.addEventListener('click', fn);
    return b;
  }
  button('tc-zoom-in', 'Zoom in', function () { zoom(0.5); });
  button('tc-zoom-out', 'Zoom out', function () { zoom(2); });
  button('tc-left', '\u25c0 Pan', function () { pan(-0.25); });
  button('tc-right', 'Pan \u25b6', function () { pan(0.25); });
  button('tc-reset', 'Reset', function () { setView(0, total); });
  var lab = html('label', 'tc-arrows-label', controls);
  var box = html('input', 'tc-arrows', lab);
  box.type = 'checkbox';
  box.checked = !!d.arrows;
  lab.appendChild(document.createTextNode(' wake-ups'));
  box.addEventListener('change', function () { drawArrows(); });
  var legend = html('span', 'tc-legend', controls);
  STATES.forEach(function (s) {
    var item = html('span', null, legend);
    item.className = 'item';
    html('span', null, item).className = 'sw ' + s;
    item.appendChild(document.createTextNode(s));
  });
  var info = html('div', 'tc-view', document.body);
  var dropped = d.dropped || {};
  if (dropped.spans || dropped.wakeups || dropped.tasks || dropped.cpus) {
    html('div', 'tc-dropped', document.body,
         'Too large: left out ' + (dropped.spans || 0) + ' intervals, ' +
         (dropped.wakeups || 0) + ' wake-ups, ' + (dropped.tasks || 0) + ' tasks, ' +
         (dropped.cpus || 0) + ' events of CPUs out of range');
  }

  // Lanes: the CPUs, then the tasks, each a group with its label.
  var rows = [], y = AXIS;
  var height = AXIS + cpus.length * CPU_H + GAP + tasks.length * TASK_H + PAD;
  var wrap = html('div', 'tc-wrap', document.body);
  var svg = el('svg', { id: 'tc-svg', width: LABEL + W + PAD, height: height });
  wrap.appendChild(svg);
  var defs = el('defs', {}, svg);
  var marker = el('marker', { id: 'tc-head', viewBox: '0 0 6 6', refX: 6, refY: 3,
                              markerWidth: 6, markerHeight: 6, orient: 'auto' }, defs);
  el('path', { d: 'M0,0 L6,3 L0,6 z', 'class': 'wakehead' }, marker);
  var stripes = el('g', { id: 'tc-stripes' }, svg);
  var grid = el('g', { id: 'tc-grid' }, svg);
  var axis = el('g', { id: 'tc-axis' }, svg);
  var lanesG = el('g', { id: 'tc-lanes' }, svg);
  var arrowsG = el('g', { id: 'tc-arrow-layer' }, svg);

  function row(kind, obj, h, text) {
    var g = el('g', { 'class': 'lane ' + kind }, lanesG);
    if (kind === 'cpu') g.setAttribute('data-cpu', obj.cpu);
    else g.setAttribute('data-pid', obj.pid);
    var t = el('text', { 'class': 'label', x: 4, y: y + h - 4 }, g);
    t.textContent = text;
    if (rows.length % 2) el('rect', { x: 0, y: y, width: LABEL + W, height: h, 'class': 'stripe' }, stripes);
    var r = { kind: kind, obj: obj, y: y, h: h, g: el('g', { 'class': 'bars' }, g) };
    obj.row = r;
    rows.push(r);
    y += h;
  }
  cpus.forEach(function (c) { row('cpu', c, CPU_H, 'CPU ' + c.cpu); });
  y += GAP;
  tasks.forEach(function (t) { row('task', t, TASK_H, t.comm + ' (' + t.pid + ')'); });

  function px(t) { return LABEL + (t - view[0]) * W / (view[1] - view[0]); }

  // One rect of a run of pixels [p0, p1) of lane @r.
  function rect(r, p0, p1, state, fill, tip) {
    var e = el('rect', { x: LABEL + p0, y: r.y + 1, width: p1 - p0, height: r.h - 2,
                         'data-state': state, 'class': r.kind === 'cpu' ? 'on-cpu' : state }, r.g);
    if (fill) e.setAttribute('fill', fill);
    el('title', {}, e).textContent = tip;
    return e;
  }
  // The tooltip of a run [a, b) in lane @L of kind @k: the one interval
  // itself when the run is one, else the run and the time of @k in it.
  function tip(L, k, a, b, ia, ib, what) {
    var first = ia, last = ib;
    if (last > 0 && (last >= L.n || L.start[last] >= b)) last--;
    if (first === last && first < L.n) {
      return what + '\nstart ' + fmt(L.start[first], 1e3) + ', duration ' +
        fmt(L.end[first] - L.start[first]);
    }
    return what + ' (' + (last - first + 1) + ' intervals merged)\nfrom ' + fmt(a, 1e3) +
      ', for ' + fmt(b - a) + '; ' + fmt(upto(L, k, b, ib) - upto(L, k, a, ia)) + ' of it';
  }

  // A lane drawn per pixel: each pixel's dominant kind (by time, from the
  // prefix sums), runs of one kind merged into one rect.
  function drawLane(r) {
    clear(r.g);
    var L = r.obj.L, dt = (view[1] - view[0]) / W, cpu = r.kind === 'cpu';
    var i = after(L, view[0]), run = null, k;
    if (i >= L.n) return;
    for (var p = 0; p <= W; p++) {
      var a = view[0] + p * dt, b = a + dt, cur = null, j = i;
      if (p < W && i < L.n && L.start[i] < b) {
        j = after(L, b, i);
        if (cpu) {
          if (upto(L, 0, b, j) - upto(L, 0, a, i) > 0) {
            var m = after(L, (a + b) / 2, i);
            if (m >= L.n || L.start[m] >= b) m = i;
            cur = L.arg[m];
          }
        } else {
          var best = 0;
          for (k = 0; k < STATES.length; k++) {
            var c = upto(L, k, b, j) - upto(L, k, a, i);
            if (c > best) { best = c; cur = k; }
          }
        }
      }
      if (run && run.v !== cur) {
        var ta = view[0] + run.p * dt, tb = view[0] + p * dt;
        if (cpu) {
          rect(r, run.p, p, 'running', colour(run.v),
               tip(L, 0, ta, tb, run.i, i, taskName(run.v) + ' on CPU ' + r.obj.cpu));
        } else {
          rect(r, run.p, p, STATES[run.v], null,
               tip(L, run.v, ta, tb, run.i, i, r.obj.comm + ' (' + r.obj.pid + '): ' + STATES[run.v]));
        }
        run = null;
      }
      if (cur !== null && !run) run = { v: cur, p: p, i: i };
      i = j;
      if (i >= L.n && !run) break;
    }
  }

  // Ticks of 1, 2 or 5 times a power of ten, about every 100 pixels.
  function drawAxis() {
    clear(axis);
    clear(grid);
    var span = view[1] - view[0], raw = span / Math.max(1, W / 100);
    var p10 = Math.pow(10, Math.floor(Math.log10(raw))), step = p10;
    [1, 2, 5, 10].some(function (f) { step = f * p10; return step >= raw; });
    for (var t = Math.ceil(view[0] / step) * step; t <= view[1]; t += step) {
      var x = px(t);
      el('line', { x1: x, y1: AXIS - 4, x2: x, y2: height - PAD, 'class': 'grid' }, grid);
      el('text', { x: x, y: AXIS - 8, 'class': 'tick' }, axis).textContent = fmt(t, step);
    }
    el('line', { x1: LABEL, y1: AXIS - 4, x2: LABEL + W, y2: AXIS - 4, 'class': 'axis' }, axis);
  }

  // Wake-ups in view, from the waker's lane (its task, else its CPU) to
  // the wakee's bar; one per pixel and wakee, MAX_ARROWS at most.
  function drawArrows() {
    clear(arrowsG);
    if (!box.checked) return;
    var lo = 0, hi = nWake, seen = {}, n = 0;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (wk[mid * 5] < view[0]) lo = mid + 1; else hi = mid;
    }
    for (var i = lo; i < nWake && wk[i * 5] <= view[1] && n < MAX_ARROWS; i++) {
      var o = i * 5, t = wk[o], waker = wk[o + 1], wcpu = wk[o + 2], wakee = wk[o + 3];
      var to = byPid[wakee], from = waker && byPid[waker] ? byPid[waker].row : null;
      if (!from) from = cpus[wcpu] ? cpus[wcpu].row : null;
      if (!to || !from) continue;
      var x = Math.round(px(t)), key = x + ':' + wakee;
      if (seen[key]) continue;
      seen[key] = 1;
      var y1 = from.y + from.h / 2, y2 = to.row.y + to.row.h / 2;
      if (y1 === y2) continue;
      var g = el('g', { 'class': 'wake' }, arrowsG);
      el('line', { x1: x, y1: y1, x2: x, y2: y2 + (y2 > y1 ? -2 : 2), 'marker-end': 'url(#tc-head)' }, g);
      el('title', {}, g).textContent = 'wake-up at ' + fmt(t, 1e3) + ': ' + taskName(waker) +
        ' woke ' + taskName(wakee) + (wk[o + 4] >= 0 ? ' (to CPU ' + wk[o + 4] + ')' : '');
      n++;
    }
  }

  function draw() {
    drawAxis();
    rows.forEach(drawLane);
    drawArrows();
    info.textContent = 'View ' + fmt(view[0], view[1] - view[0]) + ' to ' +
      fmt(view[1], view[1] - view[0]) + ' (' + fmt(view[1] - view[0]) + ' of ' + fmt(total) + ')';
  }

  var pending = false;
  function redraw() {
    if (pending) return;
    pending = true;
    window.requestAnimationFrame(function () { pending = false; draw(); });
  }

  function setView(t0, t1, later) {
    t0 = +t0; t1 = +t1;
    if (!(t1 - t0 >= MIN_SPAN)) {
      var c = (t0 + t1) / 2;
      t0 = c - MIN_SPAN / 2; t1 = c + MIN_SPAN / 2;
    }
    var span = Math.min(t1 - t0, total);
    t0 = Math.max(0, Math.min(t0, total - span));
    view = [t0, t0 + span];
    if (later) redraw(); else draw();
  }
  // Zoom by @f (0.5: in) around time @at (the middle by default).
  function zoom(f, at, later) {
    if (at === undefined) at = (view[0] + view[1]) / 2;
    setView(at - (at - view[0]) * f, at + (view[1] - at) * f, later);
  }
  function pan(frac, later) {
    var s = (view[1] - view[0]) * frac;
    setView(view[0] + s, view[1] + s, later);
  }
  function timeAt(clientX) {
    var x = clientX - svg.getBoundingClientRect().left - LABEL;
    return view[0] + Math.max(0, Math.min(W, x)) * (view[1] - view[0]) / W;
  }

  svg.addEventListener('wheel', function (e) {
    e.preventDefault();
    zoom(e.deltaY < 0 ? 0.8 : 1.25, timeAt(e.clientX), true);
  }, { passive: false });
  var drag = null;
  svg.addEventListener('mousedown', function (e) {
    if (e.button !== 0) return;
    drag = { x: e.clientX, view: view.slice() };
    svg.classList.add('dragging');
    e.preventDefault();
  });
  window.addEventListener('mousemove', function (e) {
    if (!drag) return;
    var dt = (e.clientX - drag.x) * (drag.view[1] - drag.view[0]) / W;
    setView(drag.view[0] - dt, drag.view[1] - dt, true);
  });
  window.addEventListener('mouseup', function () {
    drag = null;
    svg.classList.remove('dragging');
  });
  window.addEventListener('keydown', function (e) {
    if (e.target && e.target.tagName === 'INPUT' && e.target.type !== 'checkbox') return;
    if (e.key === '+' || e.key === '=') zoom(0.5);
    else if (e.key === '-') zoom(2);
    else if (e.key === 'ArrowLeft') pan(-0.25);
    else if (e.key === 'ArrowRight') pan(0.25);
  });

  window.tbTimechart = {
    data: d, width: W, label: LABEL,
    view: function () { return view.slice(); },
    setView: function (t0, t1) { setView(t0, t1); return view.slice(); },
    zoom: function (f, at) { zoom(f, at); return view.slice(); },
    pan: function (frac) { pan(frac); return view.slice(); },
    setArrows: function (on) { box.checked = !!on; drawArrows(); return arrowsG.childNodes.length; },
    arrowCount: function () { return arrowsG.querySelectorAll('g.wake').length; },
    ticks: function () {
      return Array.prototype.map.call(axis.querySelectorAll('text.tick'),
                                      function (e) { return e.textContent; });
    },
    redraw: draw
  };
  draw();
})();
