// eudify view: draws the sentences of a View (see src/api/view/mod.rs for the JSON) as SVG,
// lazily, each one when it scrolls near the screen; in a page, with a side panel (scores,
// errors per rule, filters, the edge clicked) and keyboard navigation. Vanilla JS, no build
// step: the page must open from file:// with nothing fetched. Every text is set with
// textContent or setAttribute, never parsed as HTML, so nothing in a treebank can inject markup.
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var LEVEL = 20, PAD = 10, WORD_GAP = 16, LABEL_FONT = "11px sans-serif",
    FORM_FONT = "14px sans-serif";
  var measurer = document.createElement("canvas").getContext("2d");

  function textWidth(text, font) {
    measurer.font = font;
    return measurer.measureText(text).width;
  }

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    for (var k in attrs) node.setAttribute(k, attrs[k]);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function svg(tag, attrs, text) {
    var node = document.createElementNS(SVG, tag);
    for (var k in attrs) node.setAttribute(k, attrs[k]);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function isEmptyNode(id) { return id.indexOf(".") >= 0; }

  // The JSON keeps words and edges as arrays (see ViewWord and ViewEdge in mod.rs): a word is
  // [id, form, lemma, upos], an edge [head, dep, label, origin, gold, phenomenon, rule, was].
  var GOLD = 4, PHENOMENON = 5, RULE = 6;
  var ORIGINS = { c: "copy", a: "added", r: "relabelled" };
  var STATUSES = { c: "correct", w: "wrong", m: "missing" };
  function edgeObject(e) {
    return { head: e[0], dep: e[1], label: e[2], origin: ORIGINS[e[3]], gold: STATUSES[e[GOLD]],
      phenomenon: e[PHENOMENON] || undefined, rule: e[RULE] === null ? undefined : e[RULE],
      was: e[7] };
  }
  // Where an id goes among the words: 8 → [8, 0], 8.1 → [8, 1].
  function idKey(id) {
    var parts = id.split(".");
    return [parseInt(parts[0], 10), parts.length > 1 ? parseInt(parts[1], 10) : 0];
  }
  function wordObject(w) { return { id: w[0], form: w[1], lemma: w[2], upos: w[3] }; }
  // The words, with gold's empty nodes that the output lacks placed among them by id.
  function wordsWithGoldNodes(s) {
    var words = s.words.map(wordObject);
    (s.gold_nodes || []).forEach(function (w) {
      var node = wordObject(w), key = idKey(node.id), at = words.length;
      for (var i = 0; i < words.length; i++) {
        var k = idKey(words[i].id);
        if (k[0] > key[0] || (k[0] === key[0] && k[1] > key[1])) { at = i; break; }
      }
      node.goldOnly = true;
      words.splice(at, 0, node);
    });
    return words;
  }
  // A sentence with its words and edges as objects, made when it is drawn.
  function expand(s) {
    if (!s.expanded) {
      s.expanded = { sent_id: s.sent_id, line: s.line, text: s.text, matches: s.matches,
        words: wordsWithGoldNodes(s),
        basic: s.basic.map(edgeObject), enhanced: s.enhanced.map(edgeObject),
        missing: s.missing.map(edgeObject) };
    }
    return s.expanded;
  }

  // Arc heights: an edge sits one level above every edge nested inside its span.
  function assignLevels(edges) {
    var placed = [];
    edges.slice().sort(function (a, b) {
      return (a.hi - a.lo) - (b.hi - b.lo) || a.lo - b.lo;
    }).forEach(function (e) {
      var level = 1;
      for (var i = 0; i < placed.length; i++) {
        var p = placed[i];
        if (p.lo >= e.lo && p.hi <= e.hi && p.level >= level) level = p.level + 1;
      }
      e.level = level;
      placed.push(e);
    });
    return placed.reduce(function (m, e) { return Math.max(m, e.level); }, 0);
  }

  // Draws one sentence: the basic tree above the words, the enhanced graph (and gold's
  // missing edges) below.
  function drawSentence(view, s, matched) {
    var index = {};
    s.words.forEach(function (w, i) { index[w.id] = i; });
    var labels = s.words.map(function (w) {
      return isEmptyNode(w.id) ? "E" + w.id : w.form;
    });
    var widths = s.words.map(function (w, i) {
      return Math.max(textWidth(labels[i], FORM_FONT), textWidth(w.upos, LABEL_FONT)) + 4;
    });
    var centers = [], x = PAD;
    widths.forEach(function (w) { centers.push(x + w / 2); x += w + WORD_GAP; });
    function prepare(list, layer) {
      return list.filter(function (e) {
        return e.dep in index && (e.head === "0" || e.head in index);
      }).map(function (e) {
        var d = index[e.dep], h = e.head === "0" ? -1 : index[e.head];
        return { edge: e, layer: layer, d: d, h: h,
          lo: h < 0 ? d : Math.min(d, h), hi: h < 0 ? d : Math.max(d, h),
          width: textWidth(e.label, LABEL_FONT) };
      });
    }
    var above = prepare(s.basic, "basic");
    var below = prepare(s.enhanced, "enhanced").concat(prepare(s.missing || [], "gold-missing"));
    // Words move apart until every label fits over its span: long sentences scroll sideways
    // instead of overlapping labels.
    above.concat(below).filter(function (e) { return e.h >= 0; })
      .sort(function (a, b) { return (a.hi - a.lo) - (b.hi - b.lo); })
      .forEach(function (e) {
        var short = e.width + 12 - (centers[e.hi] - centers[e.lo]) / Math.max(1, e.hi - e.lo);
        if (e.hi - e.lo === 1 && short > 0) {
          for (var i = e.hi; i < centers.length; i++) centers[i] += short;
        }
      });
    var width = (centers.length ? centers[centers.length - 1] + widths[widths.length - 1] / 2 : 0) + PAD;
    var topLevels = assignLevels(above.filter(function (e) { return e.h >= 0; }));
    var bottomLevels = assignLevels(below.filter(function (e) { return e.h >= 0; }));
    // Room for the arcs, and for a root arrow when there are none.
    var wordsTop = Math.max(topLevels, 1.5) * LEVEL + 14;
    var wordsBottom = wordsTop + 34;
    var height = wordsBottom + Math.max(bottomLevels, 1.5) * LEVEL + 14;
    var root = svg("svg", { width: Math.ceil(width), height: height, class: "graph" });
    s.words.forEach(function (w, i) {
      var g = svg("g", { class: "word" + (isEmptyNode(w.id) ? " empty" : "") +
        (w.goldOnly ? " gold-only" : "") + (matched[w.id] ? " matched" : ""), "data-id": w.id });
      if (w.goldOnly) g.setAttribute("data-gold", "missing");
      var title = svg("title", {}, (w.goldOnly ? "gold's empty node, missing from the output: " : "") +
        w.id + " " + w.form + " (" + w.lemma + ", " + w.upos + ")");
      g.appendChild(title);
      if (matched[w.id]) {
        g.appendChild(svg("rect", { x: centers[i] - widths[i] / 2 - 2, y: wordsTop,
          width: widths[i] + 4, height: 32, rx: 3, class: "match" }));
      }
      g.appendChild(svg("text", { x: centers[i], y: wordsTop + 15, class: "form" }, labels[i]));
      g.appendChild(svg("text", { x: centers[i], y: wordsTop + 28, class: "upos" },
        matched[w.id] ? w.upos + " " + matched[w.id] : w.upos));
      root.appendChild(g);
    });
    above.forEach(function (e) { root.appendChild(drawEdge(view, e, centers, wordsTop, -1)); });
    below.forEach(function (e) { root.appendChild(drawEdge(view, e, centers, wordsBottom, 1)); });
    return root;
  }

  // One edge as an arc from its head to its dependent (direction -1: above the words, +1:
  // below), or, from the root, a vertical arrow.
  function drawEdge(view, e, centers, base, direction) {
    var edge = e.edge;
    var cls = "edge " + e.layer;
    if (edge.origin) cls += " " + edge.origin;
    if (edge.gold) cls += " " + edge.gold;
    var g = svg("g", { class: cls, "data-layer": e.layer, "data-head": edge.head,
      "data-dep": edge.dep, "data-label": edge.label });
    if (edge.rule !== undefined) g.setAttribute("data-rule", view.rules[edge.rule].name);
    if (edge.origin) g.setAttribute("data-origin", edge.origin);
    if (edge.gold) g.setAttribute("data-gold", edge.gold);
    var xd = centers[e.d], path, lx, ly;
    if (e.h < 0) {
      var yTop = base + direction * (LEVEL * 1.5);
      path = "M" + xd + " " + yTop + " L" + xd + " " + base;
      lx = xd; ly = yTop + direction * 4;
    } else {
      // A cubic curve whose two control points are at height c peaks at 0.75 c: the label
      // sits on the peak, one level per nesting.
      var peak = e.level * LEVEL, control = base + direction * peak / 0.75;
      var xh = centers[e.h] + (e.h < e.d ? 3 : -3);
      xd += e.h < e.d ? -3 : 3;
      path = "M" + xh + " " + base + " C" + xh + " " + control + " " + xd + " " + control + " " + xd + " " + base;
      lx = (xh + xd) / 2; ly = base + direction * peak + (direction < 0 ? 4 : 0);
    }
    g.appendChild(svg("path", { d: path, class: "arc", "marker-end": "url(#" + view.marker + ")" }));
    g.appendChild(svg("rect", { x: lx - e.width / 2 - 2, y: ly - 8, width: e.width + 4, height: 12,
      class: "label-bg" }));
    g.appendChild(svg("text", { x: lx, y: ly + 2, class: "label" }, edge.label));
    return g;
  }

  function formatScore(x) { return x === null || x === undefined ? "" : x.toFixed(1); }

  // What an edge is, for the details box: its words, where it comes from, the rule's source.
  function describeEdge(view, s, g) {
    var box = document.createDocumentFragment();
    var form = function (id) {
      if (id === "0") return "ROOT";
      var w = s.words.filter(function (w) { return w.id === id; })[0];
      return w ? (isEmptyNode(id) ? "E" + id : w.form) + " (" + id + ")" : id;
    };
    var layer = g.getAttribute("data-layer");
    box.appendChild(el("p", { class: "edge-title" }, form(g.getAttribute("data-head")) + " \u2192 " +
      form(g.getAttribute("data-dep")) + " : " + g.getAttribute("data-label")));
    var list = layer === "basic" ? s.basic : layer === "enhanced" ? s.enhanced : s.missing;
    var edge = list.filter(function (e) {
      return e.head === g.getAttribute("data-head") && e.dep === g.getAttribute("data-dep") &&
        e.label === g.getAttribute("data-label");
    })[0] || {};
    var what = layer === "basic" ? "basic tree" : layer === "gold-missing" ? "gold edge missing from the output"
      : edge.origin === "added" ? "added by a rule"
      : edge.origin === "relabelled" ? "relabelled by a rule (was " + edge.was + ")"
      : edge.origin === "copy" ? "copy of the basic edge" : "enhanced edge (the file's DEPS)";
    box.appendChild(el("p", {}, what + (edge.gold && layer !== "gold-missing" ? "; gold: " + edge.gold : "") +
      (edge.phenomenon ? "; phenomenon " + edge.phenomenon : "")));
    if (edge.rule !== undefined) {
      var rule = view.rules[edge.rule];
      box.appendChild(el("p", { class: "rule-name" }, "rule " + rule.name + " (phase " + rule.phase + ")"));
      box.appendChild(el("p", { class: "rule-location" }, rule.file + ":" + rule.line));
      box.appendChild(el("pre", { class: "rule-source" }, rule.source));
    }
    return box;
  }

  // The sentences of a view. Only those near the screen exist: the list holds the sentences
  // that pass the filters, and grows a batch at a time as the reader scrolls down to its end;
  // each sentence's SVG is drawn when it comes near the screen. Thousands of sentences then
  // cost no more to open than a few dozen.
  var BATCH = 40;
  function sentenceList(view, root, onEdge) {
    var list = el("div", { class: "sentences" });
    var end = el("div", { class: "end" });
    var order = [], sections = [];
    var near = { rootMargin: "800px 0px" };
    var drawer = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) { if (entry.isIntersecting) draw(entry.target); });
    }, near);
    var grower = new IntersectionObserver(function (entries) {
      if (entries.some(function (e) { return e.isIntersecting; })) grow(sections.length + BATCH);
    }, near);
    function draw(section) {
      if (section.drawn) return;
      section.drawn = true;
      drawer.unobserve(section);
      var s = expand(view.sentences[section.index]), matched = {};
      (s.matches || []).forEach(function (m) {
        m.forEach(function (pair) { matched[pair[1]] = (matched[pair[1]] ? matched[pair[1]] + "," : "") + pair[0]; });
      });
      var holder = section.querySelector(".drawing");
      holder.appendChild(drawSentence(view, s, matched));
      holder.classList.add("drawn");
    }
    function make(i) {
      var s = view.sentences[i];
      var section = el("section", { class: "sentence", "data-sent-id": s.sent_id || "",
        "data-index": i, "data-line": s.line, tabindex: "-1" });
      section.index = i;
      var header = el("div", { class: "head" });
      header.appendChild(el("span", { class: "sent-id" }, s.sent_id || "(no sent_id)"));
      header.appendChild(el("span", { class: "line" }, view.name + ":" + s.line));
      if (s.elas !== undefined && s.elas !== null) {
        header.appendChild(el("span", { class: "elas" + (s.elas < 100 ? " low" : "") },
          "ELAS " + formatScore(s.elas)));
      }
      var wrong = s.enhanced.filter(function (e) { return e[GOLD] === "w"; }).length;
      if (wrong || s.missing.length) {
        header.appendChild(el("span", { class: "errors" }, wrong + " wrong, " + s.missing.length + " missing"));
      }
      if (s.matches.length) {
        header.appendChild(el("span", { class: "matches" }, s.matches.length + " match" + (s.matches.length > 1 ? "es" : "")));
      }
      if (s.runaway) header.appendChild(el("span", { class: "runaway" }, "rules stopped: " + s.runaway));
      section.appendChild(header);
      section.appendChild(el("p", { class: "text" }, s.text));
      section.appendChild(el("div", { class: "drawing" }));
      return section;
    }
    // Makes the first `count` sentences of the filtered list exist.
    function grow(count) {
      var batch = document.createDocumentFragment();
      while (sections.length < Math.min(count, order.length)) {
        var section = make(order[sections.length]);
        sections.push(section);
        batch.appendChild(section);
        drawer.observe(section);
      }
      list.insertBefore(batch, end);
      end.textContent = sections.length < order.length ? "\u2026" : "";
    }
    function show(keep) {
      drawer.disconnect();
      sections.forEach(function (section) { section.remove(); });
      sections = [];
      order = [];
      view.sentences.forEach(function (s, i) { if (keep(s)) order.push(i); });
      grow(BATCH);
      return order.length;
    }
    // The k-th sentence of the filtered list, made if need be (keyboard navigation).
    function at(k) {
      if (k < 0 || k >= order.length) return null;
      if (k >= sections.length) grow(k + BATCH);
      return sections[k];
    }
    list.appendChild(end);
    grower.observe(end);
    list.addEventListener("click", function (event) {
      var g = event.target.closest ? event.target.closest("g.edge") : null;
      if (!g) return;
      var section = g.closest("section.sentence");
      var old = root.querySelector("g.edge.selected");
      if (old) old.classList.remove("selected");
      g.classList.add("selected");
      onEdge(describeEdge(view, expand(view.sentences[section.index]), g), section);
    });
    return { element: list, show: show, draw: draw, at: at };
  }

  function arrowDefs(view, root) {
    view.marker = root.id + "-arrow";
    var defs = svg("svg", { width: 0, height: 0, class: "defs" });
    var marker = svg("marker", { id: view.marker, viewBox: "0 0 10 10", refX: 9, refY: 5,
      markerWidth: 6, markerHeight: 6, orient: "auto-start-reverse" });
    marker.appendChild(svg("path", { d: "M0 0 L10 5 L0 10 z", class: "arrow" }));
    defs.appendChild(marker);
    return defs;
  }

  // Only the sentences (a notebook's output cell): a details line under them.
  function renderFragment(root, view) {
    root.textContent = "";
    root.appendChild(arrowDefs(view, root));
    var details = el("div", { class: "details" });
    var list = sentenceList(view, root, function (box) {
      details.textContent = "";
      details.appendChild(box);
    });
    root.appendChild(list.element);
    root.appendChild(details);
    list.show(function () { return true; });
    return list;
  }

  function table(headers, rows, onRow) {
    var t = el("table", {}), tr = el("tr", {});
    headers.forEach(function (h) { tr.appendChild(el("th", {}, h)); });
    t.appendChild(tr);
    rows.forEach(function (row) {
      var r = el("tr", {});
      row.cells.forEach(function (c) { r.appendChild(el("td", {}, String(c))); });
      if (onRow) { r.className = "clickable"; r.addEventListener("click", function () { onRow(row); }); }
      t.appendChild(r);
    });
    return t;
  }

  // The whole page: the side panel and the sentences. Drawing a new view into the same root
  // (a live server's update) replaces the old one.
  function renderPage(root, view) {
    root.textContent = "";
    if (root.eudifyKeys) document.removeEventListener("keydown", root.eudifyKeys);
    root.appendChild(arrowDefs(view, root));
    var panel = el("aside", { class: "panel" });
    var main = el("main", {});
    panel.appendChild(el("h1", {}, view.name));
    panel.appendChild(el("p", { class: "what" }, view.profile ? "rules of profile " + view.profile :
      "the file's own DEPS"));
    if (view.gold) panel.appendChild(el("p", { class: "what" }, "compared with " + view.gold));
    var details = el("div", { class: "details" }, "Click an edge to see where it comes from.");
    var list = sentenceList(view, root, function (box) {
      details.textContent = "";
      details.appendChild(box);
    });
    // Filters.
    var filters = el("div", { class: "filters" });
    var search = el("input", { type: "search", id: "filter-text", placeholder: "text or sent_id" });
    var ruleSelect = el("select", { id: "filter-rule" });
    ruleSelect.appendChild(el("option", { value: "" }, "any rule"));
    view.rules.map(function (r, i) { return [r.name, i]; }).sort().forEach(function (p) {
      ruleSelect.appendChild(el("option", { value: String(p[1]) }, p[0]));
    });
    var phenomenonSelect = el("select", { id: "filter-phenomenon" });
    phenomenonSelect.appendChild(el("option", { value: "" }, "any phenomenon"));
    var phenomena = view.scores ? view.scores.phenomena : [];
    phenomena.forEach(function (p) {
      phenomenonSelect.appendChild(el("option", { value: p.code }, p.code + " " + p.name));
    });
    if (!phenomena.length) {
      "BCLPSXRGE".split("").forEach(function (c) {
        phenomenonSelect.appendChild(el("option", { value: c }, c));
      });
    }
    var errorsOnly = el("input", { type: "checkbox", id: "filter-errors" });
    var matchesOnly = el("input", { type: "checkbox", id: "filter-matches" });
    var count = el("p", { class: "count", id: "shown-count" });
    filters.appendChild(search);
    filters.appendChild(ruleSelect);
    filters.appendChild(phenomenonSelect);
    var l1 = el("label", {}); l1.appendChild(errorsOnly); l1.appendChild(document.createTextNode(" errors only"));
    if (view.gold) filters.appendChild(l1);
    var l2 = el("label", {}); l2.appendChild(matchesOnly); l2.appendChild(document.createTextNode(" search matches only"));
    if (view.search) filters.appendChild(l2);
    filters.appendChild(count);
    function apply() {
      var text = search.value.toLowerCase(), rule = ruleSelect.value, phen = phenomenonSelect.value;
      var errors = errorsOnly.checked, matches = matchesOnly.checked;
      var ruleIndex = rule === "" ? -1 : Number(rule);
      var shown = list.show(function (s) {
        if (text && s.text.toLowerCase().indexOf(text) < 0 &&
          (s.sent_id || "").toLowerCase().indexOf(text) < 0) return false;
        if (matches && !(s.matches && s.matches.length)) return false;
        var edges = s.enhanced.concat(s.missing);
        var bad = function (e) { return e[GOLD] === "w" || e[GOLD] === "m"; };
        if (errors && !edges.some(bad) && !(s.elas !== undefined && s.elas !== null && s.elas < 100)) return false;
        if (ruleIndex >= 0 && !s.enhanced.some(function (e) {
          return e[RULE] === ruleIndex && (!errors || bad(e));
        })) return false;
        if (phen && !edges.some(function (e) {
          return e[PHENOMENON] === phen && (!errors || bad(e));
        })) return false;
        return true;
      });
      count.textContent = shown + " of " + view.sentences.length + " sentences";
    }
    [search, ruleSelect, phenomenonSelect, errorsOnly, matchesOnly].forEach(function (input) {
      input.addEventListener("input", apply);
      input.addEventListener("change", apply);
    });
    var legend = el("p", { class: "legend" });
    [["added", "added by a rule"], ["relabelled", "relabelled"], ["wrong", "not in gold"],
      ["missing", "gold, missing (dashed; a red word: gold's empty node)"]].forEach(function (item) {
      if ((item[0] === "added" || item[0] === "relabelled") && !view.profile) return;
      if ((item[0] === "wrong" || item[0] === "missing") && !view.gold) return;
      legend.appendChild(el("span", { class: item[0] }, item[1]));
    });
    panel.appendChild(el("p", { class: "what" }, "basic tree above the words, enhanced graph below"));
    panel.appendChild(legend);
    panel.appendChild(el("h2", {}, "Filters"));
    panel.appendChild(filters);
    panel.appendChild(el("h2", {}, "Edge"));
    panel.appendChild(details);
    if (view.search) {
      panel.appendChild(el("p", { class: "what" }, "search: " + view.search.matches + " matches in " +
        view.search.sentences + " sentences"));
    }
    if (view.scores) {
      var sc = view.scores;
      panel.appendChild(el("h2", {}, "ELAS " + formatScore(sc.elas.f1)));
      panel.appendChild(el("p", { class: "what" }, "P " + formatScore(sc.elas.precision) + ", R " +
        formatScore(sc.elas.recall) + " (" + sc.elas.correct + " of " + sc.elas.gold + " gold edges)"));
      if (sc.rules.length) {
        panel.appendChild(el("h3", {}, "Errors per rule"));
        panel.appendChild(table(["rule", "made", "wrong", "removed"], sc.rules.map(function (r) {
          return { rule: r.rule, cells: [r.rule === undefined || r.rule === null ? "basic copy" : view.rules[r.rule].name,
            r.produced, r.wrong, r.removed] };
        }), function (row) {
          ruleSelect.value = row.rule === undefined || row.rule === null ? "" : String(row.rule);
          errorsOnly.checked = true;
          apply();
        }));
      }
      panel.appendChild(el("h3", {}, "Per phenomenon"));
      panel.appendChild(table(["", "phenomenon", "gold", "P", "R"], sc.phenomena.map(function (p) {
        return { code: p.code, cells: [p.code, p.name, p.gold, formatScore(p.precision), formatScore(p.recall)] };
      }), function (row) {
        phenomenonSelect.value = row.code;
        apply();
      }));
    }
    panel.appendChild(el("p", { class: "keys" }, "j / k or \u2193 / \u2191: next / previous sentence"));
    main.appendChild(list.element);
    root.appendChild(panel);
    root.appendChild(main);
    apply();
    // Keyboard navigation over the sentences shown.
    var current = -1, currentSection = null;
    root.eudifyKeys = function (event) {
      var tag = event.target && event.target.tagName;
      if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || event.ctrlKey || event.metaKey || event.altKey) return;
      var step = event.key === "j" || event.key === "ArrowDown" ? 1 : event.key === "k" || event.key === "ArrowUp" ? -1 : 0;
      if (!step) return;
      event.preventDefault();
      if (currentSection && !currentSection.isConnected) current = -1;
      var section = list.at(current + step);
      if (!section) return;
      if (currentSection) currentSection.classList.remove("current");
      current += step;
      currentSection = section;
      section.classList.add("current");
      list.draw(section);
      section.focus({ preventScroll: true });
      section.scrollIntoView({ block: "nearest" });
    };
    document.addEventListener("keydown", root.eudifyKeys);
    return list;
  }

  // The view in element `id + "-data"`: JSON, gzip-compressed, in base64 (View::page_html).
  function unpack(id) {
    var text = atob(document.getElementById(id + "-data").textContent.trim());
    var bytes = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text().then(JSON.parse);
  }

  // Draws the view of element `id` as a page or as a notebook's fragment.
  function start(kind, id) {
    var root = document.getElementById(id);
    return unpack(id).then(function (view) {
      (kind === "page" ? renderPage : renderFragment)(root, view);
    }).catch(function (error) {
      root.textContent = "eudify view: cannot draw this page (" + error + ")";
      throw error;
    });
  }

  window.eudifyView = { start: start, unpack: unpack, renderPage: renderPage, renderFragment: renderFragment };
})();
