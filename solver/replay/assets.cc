#include "solver/replay/assets.h"

namespace loyd::solver {

// Colours: a warm paper background, blue tiles that turn green on their goal cell, an orange
// accent for the current move and the tile that just moved; a dark variant follows the system.
const std::string_view kPageStyle = R"css(
:root {
  --bg: #f3f0e8; --panel: #fffdf8; --ink: #1d2330; --muted: #6b7180; --line: #e0d9ca;
  --well: #d6cdb9; --tile: #2f4b7c; --tile-ink: #fff; --home: #2e7a58; --goal: #8d95a5;
  --accent: #df7a2b; --accent-soft: #fbe9d9; --slide: 150ms;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #15181e; --panel: #1d222a; --ink: #e9e6df; --muted: #9aa1ad; --line: #2d333d;
    --well: #2a303a; --tile: #3b5d96; --home: #2d8660; --goal: #58606f; --accent-soft: #3a2a1c;
  }
}
* { box-sizing: border-box; }
html, body { margin: 0; }
body {
  background: var(--bg); color: var(--ink);
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
    "Liberation Sans", "DejaVu Sans", sans-serif;
}
.app { display: flex; min-height: 100vh; }
.instances {
  flex: none; width: 220px; max-height: 100vh; overflow: auto; position: sticky; top: 0;
  padding: 20px 10px; background: var(--panel); border-right: 1px solid var(--line);
}
.instances .caption { margin: 4px 10px 10px; }
.instances[hidden] { display: none; }
.instance {
  display: block; width: 100%; margin: 0 0 2px; padding: 7px 10px; border: 0; border-radius: 8px;
  background: none; color: inherit; font: inherit; text-align: left; cursor: pointer;
}
.instance:hover { background: rgba(128, 128, 128, .12); }
.instance.active { background: var(--tile); color: #fff; }
.instance-name { display: block; font-weight: 600; overflow: hidden; text-overflow: ellipsis;
  white-space: nowrap; }
.instance-info { display: block; font-size: 12px; opacity: .72; }
.main { flex: 1; min-width: 0; padding: 22px 32px 28px; }
.head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 6px 14px; margin: 0 0 22px; }
.brand { font-size: 12px; font-weight: 700; letter-spacing: .12em; text-transform: uppercase;
  color: var(--accent); }
h1 { margin: 0; font-size: 22px; font-weight: 650; overflow-wrap: anywhere; }
.meta { color: var(--muted); }
.caption { margin: 0 0 8px; font-size: 12px; font-weight: 600; letter-spacing: .08em;
  text-transform: uppercase; color: var(--muted); }
.stage { display: flex; flex-wrap: wrap; align-items: flex-start; gap: 28px 36px; }
.board {
  position: relative; box-sizing: content-box; padding: 6px; border-radius: 12px;
  background: var(--well); box-shadow: inset 0 2px 6px rgba(0, 0, 0, .16);
}
.tile {
  position: absolute; left: 6px; top: 6px; margin: 3px; padding: 0 3px;
  width: calc(var(--size) - 6px); height: calc(var(--size) - 6px);
  line-height: calc(var(--size) - 6px); text-align: center; white-space: nowrap;
  overflow: hidden; text-overflow: ellipsis; border-radius: 8px;
  background: var(--tile); color: var(--tile-ink); font-weight: 700;
  font-variant-numeric: tabular-nums; user-select: none;
  box-shadow: 0 2px 0 rgba(0, 0, 0, .22), inset 0 1px 0 rgba(255, 255, 255, .16);
  transition: transform var(--slide) ease-out, background-color .25s;
}
.tile.home { background: var(--home); }
.tile.moved { box-shadow: 0 0 0 3px var(--accent), 0 2px 0 rgba(0, 0, 0, .22); }
.board.instant .tile { transition: none; }
.board.small { padding: 4px; border-radius: 9px; }
.board.small .tile {
  left: 4px; top: 4px; margin: 2px; width: calc(var(--size) - 4px); height: calc(var(--size) - 4px);
  line-height: calc(var(--size) - 4px); padding: 0 2px; border-radius: 5px;
  background: var(--goal); box-shadow: none;
}
.side { display: flex; flex-direction: column; gap: 16px; flex: 1; min-width: 280px; max-width: 470px; }
.count { display: flex; align-items: baseline; gap: 10px; flex-wrap: wrap; }
#moves-left { font-size: 42px; font-weight: 750; line-height: 1; font-variant-numeric: tabular-nums; }
.count-text { font-size: 16px; font-weight: 600; }
.progress { color: var(--muted); font-variant-numeric: tabular-nums; }
.solved {
  align-self: center; padding: 2px 9px; border-radius: 999px; background: var(--home); color: #fff;
  font-size: 12px; font-weight: 700; letter-spacing: .04em;
}
.solved[hidden] { display: none; }
.controls { display: flex; align-items: center; gap: 6px; flex-wrap: wrap; }
.btn {
  display: inline-flex; align-items: center; justify-content: center; width: 40px; height: 40px;
  padding: 0; border: 1px solid var(--line); border-radius: 10px; background: var(--panel);
  color: var(--ink); cursor: pointer;
}
.btn:hover:not(:disabled) { border-color: var(--muted); }
.btn:disabled { opacity: .35; cursor: default; }
.btn svg { width: 18px; height: 18px; fill: currentColor; }
.btn.primary { width: 54px; border-color: var(--accent); background: var(--accent); color: #fff; }
.btn .icon-pause, .btn.playing .icon-play { display: none; }
.btn.playing .icon-pause { display: block; }
.scrub { display: flex; align-items: center; gap: 12px; }
select {
  height: 32px; padding: 0 6px; border: 1px solid var(--line); border-radius: 8px;
  background: var(--panel); color: var(--ink); font: inherit; font-size: 14px;
}
#slider { flex: 1; min-width: 0; margin: 0; accent-color: var(--accent); }
.moves-head { display: flex; align-items: center; justify-content: space-between; margin: 0 0 8px; }
.moves-head .caption { margin: 0; }
.notation { display: inline-flex; border: 1px solid var(--line); border-radius: 8px; overflow: hidden; }
.notation button {
  padding: 3px 10px; border: 0; background: none; color: var(--muted); font: inherit;
  font-size: 13px; cursor: pointer;
}
.notation button[aria-pressed="true"] { background: var(--ink); color: var(--bg); }
.move-list {
  position: relative; display: flex; flex-wrap: wrap; gap: 4px; max-height: 150px; overflow: auto;
  padding: 2px;
}
.move {
  position: relative; min-width: 34px; height: 30px; padding: 0 7px; overflow: hidden;
  border: 1px solid var(--line); border-radius: 7px; background: var(--panel); color: var(--ink);
  font: 600 14px/28px ui-monospace, "DejaVu Sans Mono", "Liberation Mono", monospace; cursor: pointer;
}
.move.done { border-color: transparent; background: rgba(128, 128, 128, .1); color: var(--muted); }
.move.current { border-color: var(--accent); background: var(--accent-soft); color: var(--ink); }
.move.current::after {
  content: ""; position: absolute; left: 0; bottom: 0; height: 3px;
  width: calc(var(--part, 1) * 100%); background: var(--accent);
}
.empty { color: var(--muted); }
.hint { display: flex; flex-wrap: wrap; gap: 4px 14px; margin: 0; font-size: 12px; color: var(--muted); }
.hint span { white-space: nowrap; }
kbd {
  padding: 0 4px; border: 1px solid var(--line); border-radius: 4px; background: var(--panel);
  font: 11px ui-monospace, "DejaVu Sans Mono", monospace;
}
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
.noscript { padding: 24px 32px; }
@media (prefers-reduced-motion: reduce) { .tile { transition: none; } }
@media (max-width: 760px) {
  .app { flex-direction: column; }
  .instances { position: static; width: auto; max-height: 32vh; border-right: 0;
    border-bottom: 1px solid var(--line); }
  .main { padding: 16px; }
}
)css";

// Icons are inline SVG paths (24 x 24), so nothing depends on the fonts installed.
const std::string_view kPageBody = R"html(<div class="app">
<nav id="instances" class="instances" aria-label="Instances" hidden><h2 class="caption" id="instances-caption">Instances</h2></nav>
<main class="main">
<header class="head"><span class="brand">loyd replay</span><h1 id="instance-label"></h1><span id="instance-meta" class="meta"></span></header>
<div class="stage">
<div id="board" class="board" role="img" aria-label="Board"></div>
<div class="side">
<section><h2 class="caption">Goal</h2><div id="goal" class="board small" role="img" aria-label="Goal"></div></section>
<div class="count"><span id="moves-left">0</span><span class="count-text" id="moves-left-text">moves left</span><span id="solved" class="solved" hidden>GOAL REACHED</span></div>
<div class="progress">move <span id="step">0</span> of <span id="move-total">0</span></div>
<div class="controls">
<button type="button" class="btn" id="btn-first" title="First (Home)" aria-label="First"><svg viewBox="0 0 24 24"><path d="M5 5h2.5v14H5zM19 5v14L8.5 12z"/></svg></button>
<button type="button" class="btn" id="btn-back" title="Step back (Left)" aria-label="Step back"><svg viewBox="0 0 24 24"><path d="M15.6 4.6 17 6l-6 6 6 6-1.4 1.4L8.2 12z"/></svg></button>
<button type="button" class="btn primary" id="btn-play" title="Play / Pause (Space)" aria-label="Play"><svg class="icon-play" viewBox="0 0 24 24"><path d="M7 4.5v15L19.5 12z"/></svg><svg class="icon-pause" viewBox="0 0 24 24"><path d="M6 5h4v14H6zM14 5h4v14h-4z"/></svg></button>
<button type="button" class="btn" id="btn-forward" title="Step forward (Right)" aria-label="Step forward"><svg viewBox="0 0 24 24"><path d="M8.4 4.6 7 6l6 6-6 6 1.4 1.4 7.4-7.4z"/></svg></button>
<button type="button" class="btn" id="btn-last" title="Last (End)" aria-label="Last"><svg viewBox="0 0 24 24"><path d="M16.5 5H19v14h-2.5zM5 5v14l10.5-7z"/></svg></button>
</div>
<div class="scrub"><input type="range" id="slider" min="0" max="0" value="0" step="1" aria-label="Moves played"><select id="speed" aria-label="Speed" title="Speed"><option value="0.5">0.5&#215;</option><option value="1" selected>1&#215;</option><option value="2">2&#215;</option><option value="4">4&#215;</option></select></div>
<section>
<div class="moves-head"><h2 class="caption">Moves</h2><div class="notation" role="group" aria-label="Notation"><button type="button" id="notation-blank" title="letters name the direction the blank moves">blank</button><button type="button" id="notation-tile" title="letters name the direction the moved tile slides">tile</button></div></div>
<div id="move-list" class="move-list"></div>
</section>
<p class="hint" id="hint"><span><kbd>&#8592;</kbd> <kbd>&#8594;</kbd> step</span> <span><kbd>Space</kbd> play</span> <span><kbd>Home</kbd> <kbd>End</kbd></span></p>
</div>
</div>
</main>
</div>
)html";

// The player. Positions are precomputed per instance (at most 25 cells per move); tiles are
// created once per instance and slide by CSS transforms, each carrying its cell in data-cell.
const std::string_view kPageScript = R"js(
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("loyd-data").textContent);
  var OFFSET = { U: [-1, 0], D: [1, 0], L: [0, -1], R: [0, 1] };
  var OPPOSITE = { U: "D", D: "U", L: "R", R: "L" };
  var BASE_DELAY = 450;  // ms per move at 1x
  var body = document.body;
  function $(id) { return document.getElementById(id); }
  var ui = {
    stage: document.querySelector(".stage"), board: $("board"), goal: $("goal"), left: $("moves-left"), leftText: $("moves-left-text"),
    step: $("step"), total: $("move-total"), label: $("instance-label"), meta: $("instance-meta"),
    list: $("move-list"), slider: $("slider"), play: $("btn-play"), first: $("btn-first"),
    back: $("btn-back"), forward: $("btn-forward"), last: $("btn-last"), speed: $("speed"),
    instances: $("instances"), caption: $("instances-caption"), blank: $("notation-blank"),
    tile: $("notation-tile"), solved: $("solved"), hint: $("hint")
  };
  var st = { index: 0, inst: null, path: null, step: 0, timer: null, size: 0, tiles: [], runEls: [],
             notation: data.notation === "tile" ? "tile" : "blank" };

  // Every position of an instance: cells[k][c] is the tile (its start cell) on cell c after k
  // moves, -1 for the blank; moved[k] is the tile move k slid; runs group repeated letters.
  function replay(inst) {
    var w = inst.width, ids = inst.start.map(function (l, i) { return l === null ? -1 : i; });
    var blank = ids.indexOf(-1), cells = [ids.slice()], moved = [-1], runs = [];
    for (var k = 0; k < inst.moves.length; k++) {
      var d = inst.moves.charAt(k), next = blank + OFFSET[d][0] * w + OFFSET[d][1];
      moved.push(ids[next]);
      ids[blank] = ids[next];
      ids[next] = -1;
      blank = next;
      cells.push(ids.slice());
      var run = runs[runs.length - 1];
      if (run && run.dir === d) run.count++;
      else runs.push({ dir: d, from: k, count: 1 });
    }
    return { cells: cells, moved: moved, runs: runs };
  }

  function plural(n, one, many) { return n + " " + (n === 1 ? one : many); }
  function sizeText(inst) { return inst.width + " \u00d7 " + inst.height; }

  // Tiles of at most 88 px, on a board at most 640 px wide (or the room there is) and 440 high.
  function tileSize(inst) {
    var room = Math.min(640, Math.max(200, ui.stage.clientWidth));
    return Math.max(22, Math.min(88, Math.floor(Math.min(room / inst.width, 440 / inst.height))));
  }
  function fontSize(label, size) {
    var n = Array.from(label).length;
    var f = n <= 1 ? 0.5 : n === 2 ? 0.44 : n === 3 ? 0.35 : n === 4 ? 0.28 : 0.23;
    return Math.max(9, Math.round(size * f));
  }
  // One .tile per labelled cell, indexed by cell (null for the blank).
  function drawBoard(el, inst, labels, size) {
    el.textContent = "";
    el.dataset.width = inst.width;
    el.dataset.height = inst.height;
    el.style.setProperty("--size", size + "px");
    el.style.width = inst.width * size + "px";
    el.style.height = inst.height * size + "px";
    return labels.map(function (label) {
      if (label === null) return null;
      var t = document.createElement("div");
      t.className = "tile";
      t.textContent = label;
      t.title = label;
      t.style.fontSize = fontSize(label, size) + "px";
      el.appendChild(t);
      return t;
    });
  }
  function place(tile, cell, width, size) {
    var r = Math.floor(cell / width), c = cell % width;
    tile.style.transform = "translate(" + c * size + "px," + r * size + "px)";
    tile.dataset.cell = cell;
  }

  function drawMoves() {
    ui.list.textContent = "";
    ui.blank.setAttribute("aria-pressed", String(st.notation === "blank"));
    ui.tile.setAttribute("aria-pressed", String(st.notation === "tile"));
    st.runEls = st.path.runs.map(function (run) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "move";
      b.dataset.from = run.from;
      b.dataset.count = run.count;
      b.textContent = (st.notation === "tile" ? OPPOSITE[run.dir] : run.dir) + (run.count > 1 ? run.count : "");
      b.title = run.count > 1 ? "moves " + (run.from + 1) + "\u2013" + (run.from + run.count)
                              : "move " + (run.from + 1);
      b.addEventListener("click", function () { stop(); go(run.from + run.count); });
      ui.list.appendChild(b);
      return b;
    });
    if (!st.runEls.length) {
      var p = document.createElement("span");
      p.className = "empty";
      p.textContent = "none: the start is the goal";
      ui.list.appendChild(p);
    }
  }
  function markMoves() {
    var k = st.step, current = null;
    st.path.runs.forEach(function (run, j) {
      var el = st.runEls[j], end = run.from + run.count, cur = run.from < k && k <= end;
      el.classList.toggle("done", end <= k && !cur);
      el.classList.toggle("current", cur);
      if (cur) {
        el.style.setProperty("--part", String((k - run.from) / run.count));
        current = el;
      }
    });
    if (current) {  // keep the current move in view inside the list, not the page
      var top = current.offsetTop, list = ui.list;
      if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight)
        list.scrollTop = top - list.clientHeight / 2;
    } else if (k === 0) {
      ui.list.scrollTop = 0;
    }
  }

  function go(k) {
    var n = st.inst.moves.length;
    k = Math.max(0, Math.min(n, k));
    st.step = k;
    var cells = st.path.cells[k], moved = st.path.moved[k], inst = st.inst;
    cells.forEach(function (id, c) {
      if (id < 0) return;
      var t = st.tiles[id];
      place(t, c, inst.width, st.size);
      t.classList.toggle("home", inst.start[id] === inst.goal[c]);
      t.classList.toggle("moved", id === moved);
    });
    ui.left.textContent = n - k;
    ui.leftText.textContent = n - k === 1 ? "move left" : "moves left";
    ui.step.textContent = k;
    ui.slider.value = k;
    ui.first.disabled = ui.back.disabled = k === 0;
    ui.forward.disabled = ui.last.disabled = k === n;
    ui.solved.hidden = k !== n;
    body.dataset.step = k;
    markMoves();
  }

  function delay() { return BASE_DELAY / (parseFloat(ui.speed.value) || 1); }
  function setPlaying(on) {
    body.dataset.playing = String(on);
    ui.play.classList.toggle("playing", on);
    ui.play.setAttribute("aria-label", on ? "Pause" : "Play");
  }
  function stop() {
    if (st.timer !== null) clearTimeout(st.timer);
    st.timer = null;
    setPlaying(false);
  }
  function tick() {
    go(st.step + 1);
    if (st.step >= st.inst.moves.length) stop();
    else st.timer = setTimeout(tick, delay());
  }
  function play() {
    if (!st.inst.moves.length) return;
    if (st.step >= st.inst.moves.length) go(0);  // play again from the start
    setPlaying(true);
    st.timer = setTimeout(tick, Math.min(250, delay()));
  }
  function toggle() { if (st.timer !== null) stop(); else play(); }

  // Draws the boards for the window's width; keeps the step (and a running playback).
  function layout(force) {
    var inst = st.inst, size = tileSize(inst);
    if (size === st.size && !force) return;
    st.size = size;
    ui.board.classList.add("instant");
    st.tiles = drawBoard(ui.board, inst, inst.start, size);
    var goalSize = Math.max(18, Math.round(size * 0.5));
    drawBoard(ui.goal, inst, inst.goal, goalSize).forEach(function (t, c) {
      if (t) place(t, c, inst.width, goalSize);
    });
    go(st.step);
    void ui.board.offsetWidth;  // lay the tiles out in place before slides are animated again
    ui.board.classList.remove("instant");
  }

  function select(i, k) {
    stop();
    st.index = i;
    st.inst = data.instances[i];
    st.path = replay(st.inst);
    st.step = Math.max(0, Math.min(st.inst.moves.length, k));
    var inst = st.inst, n = inst.moves.length;
    ui.label.textContent = inst.label;
    ui.meta.textContent = sizeText(inst) + " \u00b7 " + plural(n, "move", "moves");
    ui.total.textContent = n;
    ui.slider.max = n;
    body.dataset.instance = i;
    Array.prototype.forEach.call(ui.instances.querySelectorAll(".instance"), function (b) {
      var on = Number(b.dataset.index) === i;
      b.classList.toggle("active", on);
      if (on) b.setAttribute("aria-current", "true"); else b.removeAttribute("aria-current");
    });
    drawMoves();
    layout(true);
  }

  function listInstances() {
    var count = data.instances.length;
    ui.instances.hidden = count < 2;
    if (count < 2) return;
    ui.caption.textContent = plural(count, "instance", "instances");
    var keys = document.createElement("span");
    ["\u2191", "\u2193"].forEach(function (a) {
      var kbd = document.createElement("kbd");
      kbd.textContent = a;
      keys.appendChild(kbd);
      keys.appendChild(document.createTextNode(" "));
    });
    keys.appendChild(document.createTextNode("instance"));
    ui.hint.appendChild(document.createTextNode(" "));
    ui.hint.appendChild(keys);
    data.instances.forEach(function (inst, i) {
      var b = document.createElement("button"), name = document.createElement("span");
      var info = document.createElement("span");
      b.type = "button";
      b.className = "instance";
      b.dataset.index = i;
      name.className = "instance-name";
      name.textContent = inst.label;
      name.title = inst.label;
      info.className = "instance-info";
      info.textContent = sizeText(inst) + " \u00b7 " + plural(inst.moves.length, "move", "moves");
      b.appendChild(name);
      b.appendChild(info);
      b.addEventListener("click", function () { select(i, 0); });
      ui.instances.appendChild(b);
    });
  }

  function onKey(e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
    var tag = e.target && e.target.tagName, count = data.instances.length;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;  // their own keys
    if ((e.key === " " || e.key === "Enter") && tag === "BUTTON") return;   // a click
    switch (e.key) {
      case "ArrowRight": stop(); go(st.step + 1); break;
      case "ArrowLeft": stop(); go(st.step - 1); break;
      case "Home": stop(); go(0); break;
      case "End": stop(); go(st.inst.moves.length); break;
      case " ": toggle(); break;
      case "ArrowDown": if (count < 2) return; select(Math.min(count - 1, st.index + 1), 0); break;
      case "ArrowUp": if (count < 2) return; select(Math.max(0, st.index - 1), 0); break;
      default: return;
    }
    e.preventDefault();
  }

  // "#instance=2&step=5": instance 2 (1-based) after its 5th move.
  function fromHash() {
    var p = new URLSearchParams(location.hash.replace(/^#/, ""));
    var i = parseInt(p.get("instance"), 10), k = parseInt(p.get("step"), 10);
    select(i >= 1 && i <= data.instances.length ? i - 1 : 0, k >= 0 ? k : 0);
  }

  ui.first.addEventListener("click", function () { stop(); go(0); });
  ui.back.addEventListener("click", function () { stop(); go(st.step - 1); });
  ui.forward.addEventListener("click", function () { stop(); go(st.step + 1); });
  ui.last.addEventListener("click", function () { stop(); go(st.inst.moves.length); });
  ui.play.addEventListener("click", toggle);
  ui.slider.addEventListener("input", function () { stop(); go(Number(ui.slider.value)); });
  ui.speed.addEventListener("change", function () {
    document.documentElement.style.setProperty("--slide", Math.min(150, delay() * 0.6) + "ms");
  });
  ui.blank.addEventListener("click", function () { st.notation = "blank"; drawMoves(); markMoves(); });
  ui.tile.addEventListener("click", function () { st.notation = "tile"; drawMoves(); markMoves(); });
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", fromHash);
  window.addEventListener("resize", function () { layout(false); });
  listInstances();
  fromHash();
})();
)js";

}  // namespace loyd::solver
