// The live loop of `eudify view --serve` (cli/src/serve.rs): shows what changed since the last
// version and any build error, waits for the next version with a long poll, and reloads the page
// when its drawing changed, scrolled where it was. Text is only ever set as text, never as HTML.
(function () {
  "use strict";
  var status = JSON.parse(document.getElementById("eudify-live-status").textContent);
  var pageVersion = status.page_version;
  var scrollKey = "eudify-live-scroll";
  var dismissed = false;
  var panel = document.createElement("aside");
  panel.id = "eudify-live";
  document.body.appendChild(panel);

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function edgeText(sign, e) {
    var rule = e.rule ? " (" + e.rule + ")" : " (basic copy)";
    var gold = e.gold === true ? ", in gold" : e.gold === false ? ", not in gold" : "";
    return sign + " " + e.head + " → " + e.dep + " " + e.label + rule + gold;
  }

  function showSentence(c) {
    var target = null;
    if (c.sent_id !== null) {
      target = document.querySelector('[data-sent-id="' + CSS.escape(c.sent_id) + '"]');
    }
    if (!target) target = document.querySelectorAll("[data-sent-id]")[c.index] || null;
    if (target) target.scrollIntoView({ block: "center" });
  }

  function changesBox(c, ms) {
    var box = el("section", "eudify-live-changes");
    box.id = "eudify-live-changes";
    var close = el("button", "eudify-live-close", "×");
    close.title = "Hide until the next version";
    close.onclick = function () { dismissed = true; render(status); };
    box.appendChild(close);
    var line = "Since the last version: +" + c.gained + " / −" + c.lost + " edges in " +
      c.sentences.length + " sentence" + (c.sentences.length === 1 ? "" : "s");
    if (c.elas_before !== null && c.elas_after !== null) {
      line += " · ELAS " + c.elas_before.toFixed(2) + " → " + c.elas_after.toFixed(2);
    }
    if (c.sentences_added || c.sentences_removed) {
      line += " · sentences +" + c.sentences_added + " / −" + c.sentences_removed;
    }
    line += " · built in " + ms + " ms";
    box.appendChild(el("p", "eudify-live-summary", line));
    if (c.by_rule.length) {
      var rules = el("ul", "eudify-live-rules");
      c.by_rule.forEach(function (r) {
        var text = (r.rule || "basic copy") + ": +" + r.gained + " −" + r.lost;
        if (r.gained_correct !== null) {
          text += " (in gold: +" + r.gained_correct + " −" + r.lost_correct + ")";
        }
        rules.appendChild(el("li", null, text));
      });
      box.appendChild(rules);
    }
    var list = el("ol", "eudify-live-sentences");
    c.sentences.slice(0, 100).forEach(function (s) {
      var item = el("li");
      var link = el("a", null, s.sent_id !== null ? s.sent_id : "sentence " + (s.index + 1));
      link.href = "#";
      link.onclick = function (event) { event.preventDefault(); showSentence(s); };
      item.appendChild(link);
      var edges = el("ul");
      s.gained.forEach(function (e) { edges.appendChild(el("li", "eudify-live-gained", edgeText("+", e))); });
      s.lost.forEach(function (e) { edges.appendChild(el("li", "eudify-live-lost", edgeText("−", e))); });
      item.appendChild(edges);
      list.appendChild(item);
    });
    box.appendChild(list);
    return box;
  }

  function render(s) {
    panel.textContent = "";
    if (s.error) {
      var box = el("section", "eudify-live-error");
      box.id = "eudify-live-error";
      box.appendChild(el("p", "eudify-live-summary",
        "The files as saved do not build; the page shows the last version that did:"));
      box.appendChild(el("pre", null, s.error));
      panel.appendChild(box);
    }
    if (s.changes && !dismissed) panel.appendChild(changesBox(s.changes, s.build_ms));
    if (s.lost) panel.appendChild(el("p", "eudify-live-lost-server", "The server does not answer; trying again…"));
    panel.hidden = !panel.firstChild;
  }

  // The scroll positions of the window and of every scrolled element, each element named by
  // its tag and its place among the elements of that tag (the page's parts have no ids).
  function scrolled() {
    var inner = [];
    document.querySelectorAll("*").forEach(function (node) {
      if (node.scrollTop || node.scrollLeft) {
        var same = document.getElementsByTagName(node.tagName);
        inner.push([node.tagName, Array.prototype.indexOf.call(same, node), node.scrollLeft, node.scrollTop]);
      }
    });
    return { x: window.scrollX, y: window.scrollY, inner: inner };
  }

  function restore() {
    var saved = sessionStorage.getItem(scrollKey);
    if (!saved) return;
    var s = JSON.parse(saved);
    window.scrollTo(s.x, s.y);
    s.inner.forEach(function (place) {
      var node = document.getElementsByTagName(place[0])[place[1]];
      if (node) { node.scrollLeft = place[2]; node.scrollTop = place[3]; }
    });
  }

  function wait() {
    fetch("/live/wait?after=" + status.version, { cache: "no-store" })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      })
      .then(function (next) {
        if (next.page_version !== pageVersion) {
          sessionStorage.setItem(scrollKey, JSON.stringify(scrolled()));
          location.reload();
          return;
        }
        if (next.version !== status.version) dismissed = false;
        status = next;
        render(status);
        wait();
      })
      .catch(function () {
        status.lost = true;
        render(status);
        status.lost = false;
        setTimeout(wait, 1000);
      });
  }

  render(status);
  restore();
  // Drawings made as the page loads can move what was scrolled to: once more when it is loaded.
  window.addEventListener("load", function () { restore(); sessionStorage.removeItem(scrollKey); });
  wait();
})();
