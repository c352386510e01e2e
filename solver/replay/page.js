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
