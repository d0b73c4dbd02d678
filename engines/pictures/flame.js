// flame.js - draws a flame graph from the page's tb-data JSON as SVG: frame
// width by value, tooltip, click to zoom, search with the matched share,
// reset; colours by kind, FlameGraph's warm colours, or by growth (--diff).
// Names are only ever set as text (textContent, setAttribute), never as markup.
(function () {
  'use strict';
  var SVGNS = 'http://www.w3.org/2000/svg';
  var H = 16;
  var d = JSON.parse(document.getElementById('tb-data').textContent);
  var W = d.width > 0 ? d.width : 1200;
  var nodes = [];
  var maxDepth = 0;
  var maxDelta = 0;
  var zoomed = null;
  var matched = null;

  function nameOf(a) {
    return a[0] < 0 ? '(' + (-a[0]) + ' frames merged)' : d.names[a[0]];
  }

  // The tree as objects, depth first (parents before children).
  function build(a, parent, depth) {
    var n = { id: nodes.length, name: nameOf(a), kind: d.kinds[a[1]] || 'user', v: a[2],
              b: d.diff ? a[4] : 0, kids: [], parent: parent, depth: depth };
    nodes.push(n);
    if (depth > maxDepth) maxDepth = depth;
    for (var i = 0; i < a[3].length; i++) n.kids.push(build(a[3][i], n, depth + 1));
    return n;
  }
  var root = build(d.root, null, 0);
  var total = root.v;
  var btotal = root.b;

  function delta(n) {
    var after = total ? n.v / total : 0, before = btotal ? n.b / btotal : 0;
    return after - before;
  }
  if (d.diff) nodes.forEach(function (n) { maxDelta = Math.max(maxDelta, Math.abs(delta(n))); });

  function hash(s) {
    var h = 0;
    for (var i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) >>> 0;
    return (h % 1000) / 1000;
  }
  function rgb(r, g, b) { return 'rgb(' + Math.round(r) + ',' + Math.round(g) + ',' + Math.round(b) + ')'; }
  var palettes = {
    root: [200, 200, 200, 0, 0, 0], comm: [120, 140, 200, 40, 40, 40],
    user: [200, 50, 50, 55, 60, 40], kernel: [205, 115, 0, 50, 60, 20],
    inline: [50, 180, 180, 50, 50, 50], jit: [50, 200, 50, 50, 50, 50],
    merged: [170, 170, 170, 20, 20, 20]
  };
  function colour(n) {
    var v = hash(n.name);
    if (d.diff) {
      var x = delta(n), i = maxDelta ? Math.min(1, Math.abs(x) / maxDelta) : 0;
      if (x > 0) return rgb(255, 255 * (1 - i), 255 * (1 - i));
      if (x < 0) return rgb(255 * (1 - i), 255 * (1 - i), 255);
      return rgb(255, 255, 255);
    }
    if (d.colors === 'hot' && n.kind !== 'root') return rgb(205 + 50 * v, 230 * v, 55 * v);
    var p = palettes[n.kind] || palettes.user;
    return rgb(p[0] + p[3] * v, p[1] + p[4] * v, p[2] + p[5] * v);
  }

  function pct(v, of) { return of ? (100 * v / of).toFixed(2) + '%' : '0.00%'; }
  function count(v) { return String(v).replace(/\B(?=(\d{3})+(?!\d))/g, ','); }
  function unit() { return d.unit === 'us' ? 'us' : 'samples'; }
  function describe(n) {
    var s = n.name + ' (' + count(n.v) + ' ' + unit() + ', ' + pct(n.v, total);
    if (d.diff) {
      var x = 100 * delta(n);
      s += '; before ' + pct(n.b, btotal) + ', ' + (x >= 0 ? '+' : '') + x.toFixed(2) + '%';
    }
    return s + ')';
  }

  function el(tag, attrs, parent) {
    var e = document.createElementNS(SVGNS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function html(tag, id, parent) {
    var e = document.createElement(tag);
    if (id) e.id = id;
    parent.appendChild(e);
    return e;
  }

  // The page: title, search, matched share, reset, the picture, the details line.
  var head = html('div', 'tb-head', document.body);
  var search = html('input', 'tb-search', head);
  search.type = 'search';
  search.placeholder = 'search (regular expression)';
  html('div', 'tb-title', head).textContent = d.title;
  var matchedLabel = html('div', 'tb-matched', head);
  var reset = html('button', 'tb-reset', head);
  reset.textContent = 'Reset zoom';
  var svg = el('svg', { width: W, height: (maxDepth + 1) * H + 2, id: 'tb-svg' });
  document.body.appendChild(svg);
  var details = html('div', 'tb-details', document.body);

  function y(depth) { return d.inverted ? depth * H : maxDepth * H - depth * H; }

  function frame(n, x, w, cls) {
    var g = el('g', { 'class': cls, 'data-id': n.id, 'data-name': n.name, 'data-value': n.v,
                      'data-kind': n.kind }, svg);
    if (d.diff) {
      var x2 = delta(n);
      g.setAttribute('data-delta', x2);
      g.setAttribute('class', cls + (x2 > 0 ? ' grown' : x2 < 0 ? ' shrunk' : ' same'));
    }
    el('title', {}, g).textContent = describe(n);
    var isMatch = matched && matched[n.id];
    el('rect', { x: x, y: y(n.depth), width: Math.max(w, 0), height: H - 1, rx: 2, ry: 2,
                 fill: isMatch ? 'rgb(230,0,230)' : colour(n) }, g);
    var chars = Math.floor((w - 6) / 7);
    if (chars >= 3) {
      el('text', { x: x + 3, y: y(n.depth) + H - 4 }, g).textContent =
        n.name.length > chars ? n.name.slice(0, chars - 2) + '..' : n.name;
    }
    g.addEventListener('click', function () { zoom(n); });
    g.addEventListener('mouseover', function () { details.textContent = describe(n); });
    g.addEventListener('mouseout', function () { details.textContent = ' '; });
  }

  // Draw @z's subtree across the whole width, its ancestors greyed above it.
  function draw(z) {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    for (var a = z.parent; a; a = a.parent) frame(a, 0, W, 'frame anc');
    var scale = z.v ? W / z.v : 0;
    var stack = [[z, 0]];
    while (stack.length) {
      var top = stack.pop(), n = top[0], x = top[1];
      frame(n, x, n.v * scale, n === z || !n.parent ? 'frame' : 'frame');
      var cx = x;
      for (var i = 0; i < n.kids.length; i++) {
        stack.push([n.kids[i], cx]);
        cx += n.kids[i].v * scale;
      }
    }
  }

  function zoom(n) {
    zoomed = n;
    draw(n);
  }

  // Frames whose name matches @text (a regular expression, else the text
  // itself); the share counts each matched subtree once.
  function find(text) {
    var re = null;
    matched = null;
    if (text) {
      try { re = new RegExp(text); } catch (e) {
        re = new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      }
      matched = {};
      var sum = 0;
      nodes.forEach(function (n) {
        if (!n.parent || !re.test(n.name)) return;
        matched[n.id] = true;
        for (var a = n.parent; a; a = a.parent) if (matched[a.id]) return;
        sum += n.v;
      });
      matchedLabel.textContent = 'Matched: ' + pct(sum, total);
    } else {
      matchedLabel.textContent = '';
    }
    draw(zoomed || root);
  }

  search.addEventListener('keydown', function (e) { if (e.key === 'Enter') find(search.value); });
  search.addEventListener('search', function () { find(search.value); });
  reset.addEventListener('click', function () {
    search.value = '';
    matched = null;
    matchedLabel.textContent = '';
    zoom(root);
  });
  window.tbFlame = { nodes: nodes, root: root, width: W, zoom: zoom, find: find };
  zoom(root);
})();
