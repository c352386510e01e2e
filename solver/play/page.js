// The play page (docs/play.md): the board, its controls, the solution player and window.loyd.
// The engine (loyd's library in WebAssembly) runs in two Web Workers built from the page's own
// text (worker.js): "search" holds the tables and runs searches, "quick" reads boards and draws
// scrambles, so the page answers while a search runs. Cancel ends the search worker and starts
// a new one, which loads the same tables again (the user's from the files they picked).
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var OFFSET = { U: [-1, 0], D: [1, 0], L: [0, -1], R: [0, 1] };
  var OPPOSITE = { U: "D", D: "U", L: "R", R: "L" };
  var OPTION_NAMES = { goal: "goal", size: "size", heuristic: "heuristic", algorithm: "algorithm", metric: "metric",
                       nodeLimit: "node-limit", timeLimit: "time-limit", notation: "notation", runs: "runs",
                       lookups: "lookups", pdb: "pdb" };
  var CLI_NAMES = Object.keys(OPTION_NAMES).map(function (k) { return OPTION_NAMES[k]; });  // "node-limit" works too
  var BASE_DELAY = 420;
  var body = document.body;

  function errorOf(x) { return x instanceof Error ? x : new Error(String(x && x.message || x)); }
  function quiet(p) { p.catch(function () {}); return p; }  // handled elsewhere, never "unhandled"
  function fmt(n) { return Number(n).toLocaleString("en-US"); }

  // ---------------------------------------------------------------- engine workers
  var workerURL = URL.createObjectURL(new Blob([$("loyd-worker").textContent], { type: "text/javascript" }));
  var wasmText = $("loyd-wasm").textContent;
  var embeddedSets = Array.prototype.map.call(document.querySelectorAll("script.loyd-set"), function (s) {
    var name = s.dataset.set;
    return { name: name, manifest: s.textContent, tables: Array.prototype.filter.call(
      document.querySelectorAll("script.loyd-table"), function (t) { return t.dataset.set === name; })
      .map(function (t) { return { file: t.dataset.file, data: t.textContent }; }) };
  });
  var uploads = [];  // the user's sets, as blobs, given again to a restarted search worker

  function Engine(name, withTables) {
    this.name = name;
    this.withTables = withTables;
    this.queue = [];
    this.current = null;
    this.nextId = 1;
    this.readyInfo = null;
    this.dead = null;      // why the engine cannot start here: every request rejects with it
    this.failures = 0;     // failed starts in a row
    this.start();
  }
  Engine.prototype.start = function () {
    var self = this;
    this.ready = false;
    this.worker = new Worker(workerURL, { name: "loyd-" + this.name });
    this.worker.onmessage = function (e) { self.onMessage(e.data); };
    this.worker.onerror = function (e) { e.preventDefault(); self.fail("the engine stopped: " + (e.message || "error")); };
    this.worker.onmessageerror = function () { self.fail("the engine sent an unreadable message"); };
    var sent = this.withTables ? uploads.map(function (u) { return u.files; }) : [];
    Promise.all(sent.map(function (files) {
      return Promise.all(files.map(function (f) {
        return f.blob.arrayBuffer().then(function (b) { return { name: f.name, buffer: b }; });
      }));
    })).then(function (buffers) {
      self.worker.postMessage({ op: "init", wasm: wasmText, sets: self.withTables ? embeddedSets : [], uploads: buffers });
    }, function (err) { self.fail("the loaded tables could not be read again: " + errorOf(err).message); });
  };
  Engine.prototype.onMessage = function (m) {
    if (m.op === "ready") {
      this.ready = !m.error;
      this.readyInfo = m;
      if (m.error) return this.fail(m.error);
      this.failures = 0;
      engineReady(this, m);
      return this.pump();
    }
    var job = this.current;
    if (!job || job.id !== m.id) return;
    this.current = null;
    if (m.error !== undefined) {
      var err = new Error(m.error);
      err.kind = m.kind;
      job.reject(err);
    } else {
      job.resolve(m.ok);
    }
    if (m.broken) this.restart();
    else this.pump();
  };
  // The worker stopped or could not start: a running request fails; a worker that fails to
  // start twice in a row is given up (this browser cannot run the engine), so no request waits.
  Engine.prototype.fail = function (why) {
    if (this.current) { this.current.reject(new Error(why)); this.current = null; }
    if (this.ready) return this.restart();
    if (++this.failures < 2) return this.restart();
    this.dead = why;
    try { this.worker.terminate(); } catch (e) { /* already gone */ }
    this.queue.forEach(function (j) { j.reject(new Error(why)); });
    this.queue = [];
    engineReady(this, { error: why });
  };
  Engine.prototype.pump = function () {
    if (!this.ready || this.current || !this.queue.length) return;
    this.current = this.queue.shift();
    this.current.id = this.nextId++;
    var msg = this.current.msg;
    msg.id = this.current.id;
    this.worker.postMessage(msg, msg.transfer || []);
  };
  Engine.prototype.request = function (msg) {
    var self = this;
    return new Promise(function (resolve, reject) {
      if (self.dead) return reject(new Error(self.dead));
      self.queue.push({ msg: msg, resolve: resolve, reject: reject });
      self.pump();
    });
  };
  Engine.prototype.call = function (fn, args) { return this.request({ op: "call", fn: fn, args: args }); };
  Engine.prototype.busy = function () { return !!this.current || this.queue.length > 0; };
  // Ends the worker (and whatever it is doing) and starts a new one; `why` rejects every request.
  Engine.prototype.restart = function (why) {
    try { this.worker.terminate(); } catch (e) { /* already gone */ }
    var jobs = (this.current ? [this.current] : []).concat(why ? this.queue : []);
    this.current = null;
    if (why) this.queue = [];
    jobs.forEach(function (j) {
      var err = new Error(why || "the engine was restarted");
      err.kind = why ? "cancelled" : "internal";
      j.reject(err);
    });
    this.start();
  };

  var searchEngine = new Engine("search", true);
  var quickEngine = new Engine("quick", false);
  var readyResolve, readyReject, readyDone = false;
  var ready = quiet(new Promise(function (resolve, reject) { readyResolve = resolve; readyReject = reject; }));

  function engineReady(engine, m) {
    if (m.error) {
      showMessage(m.error);
      if (!readyDone) { readyDone = true; readyReject(new Error(m.error)); }
      return;
    }
    if (engine === searchEngine) {
      st.sets = m.sets;
      drawSets();
      if (m.notes && m.notes.length) showMessage(m.notes.join("; "));
    }
    if (!readyDone && searchEngine.ready && quickEngine.ready) {
      readyDone = true;
      body.dataset.state = "ready";
      setStatus("Ready: " + st.sets.length + " table sets in the page. Play, shuffle, or press Solve.");
      readyResolve({ version: m.version, sets: st.sets, seconds: performance.now() / 1000 });
    }
  }

  // Options in the command line's names, as "name=value" lines; refuses what it cannot pass.
  function optionLines(options) {
    if (options === undefined || options === null) return "";
    if (typeof options !== "object") throw new Error("options must be an object, e.g. {heuristic: 'pdb'}");
    return Object.keys(options).map(function (k) {
      var name = Object.prototype.hasOwnProperty.call(OPTION_NAMES, k) ? OPTION_NAMES[k] : CLI_NAMES.indexOf(k) >= 0 ? k : null;
      if (!name) throw new Error("unknown option '" + k + "' (options: " + Object.keys(OPTION_NAMES).join(", ") + ")");
      var v = options[k];
      if (v === undefined || v === null) return "";
      if (name === "runs") v = v === true || v === "true" ? "true" : v === false || v === "false" ? "false" : String(v);
      else if (name === "node-limit" && typeof v === "number" && !(Number.isSafeInteger(v) && v >= 1))
        throw new Error("nodeLimit must be a whole number from 1 to 2^53-1 (or a string of digits up to 2^64-1)");
      v = String(v);
      if (/[\n\r]/.test(v)) throw new Error("option " + k + " holds a line break");
      return name + "=" + v;
    }).filter(Boolean).join("\n");
  }
  function boardText(text) {
    if (typeof text !== "string") throw new Error("the board must be text, e.g. '8 2 0/4 6 1/3 7 5'");
    if (/[\n\r]/.test(text)) throw new Error("the board must be one line");
    return text;
  }

  // ---------------------------------------------------------------- the position
  var st = {
    w: 3, h: 3, goalName: "blank-last", goal: [], tiles: [], history: "", sets: [],
    replay: null, busy: false, hint: null, labels: "numbers", image: null, overlay: false,
    notation: "blank", size: 0, els: [], runs: []
  };

  function goalTiles(w, h, name) {
    var n = w * h, g = [];
    for (var i = 0; i < n; i++) g.push(name === "blank-first" ? i : (i + 1) % n);
    return g;
  }
  function blankCell() { return st.tiles.indexOf(0); }
  function neighbor(cell, d) {
    var r = Math.floor(cell / st.w) + OFFSET[d][0], c = cell % st.w + OFFSET[d][1];
    return r < 0 || r >= st.h || c < 0 || c >= st.w ? -1 : r * st.w + c;
  }
  function rowsText(tiles, w) {
    var rows = [];
    for (var r = 0; r < tiles.length / w; r++) rows.push(tiles.slice(r * w, r * w + w).join(" "));
    return rows.join("/");
  }
  function isSolved() { return st.tiles.every(function (t, i) { return t === st.goal[i]; }); }
  function goalOption() { return st.goalName; }
  function runsOf(moves) {
    var n = 0;
    for (var i = 0; i < moves.length; i++) if (i === 0 || moves[i] !== moves[i - 1]) n++;
    return n;
  }

  // A new position: `tiles` on a w x h board with the goal named `goalName`.
  function setPosition(w, h, goalName, tiles, goal) {
    stopReplay(false);
    clearHint();
    st.w = w; st.h = h; st.goalName = goalName;
    st.goal = goal || goalTiles(w, h, goalName);
    st.tiles = tiles.slice();
    st.history = "";
    syncSizeControls();
    layout(true);
    updateCounters();
  }

  // Moves the blank along `moves` (blank letters) and draws; returns false at the first move
  // that leaves the board (nothing after it is applied).
  function applyMoves(moves, record) {
    for (var i = 0; i < moves.length; i++) {
      var b = blankCell(), n = neighbor(b, moves[i]);
      if (n < 0) return false;
      st.tiles[b] = st.tiles[n];
      st.tiles[n] = 0;
      if (record) st.history += moves[i];
    }
    return true;
  }
  function play(moves) {
    if (!moves || st.busy) return false;
    if (st.replay) stopReplay(true);
    clearHint();
    var ok = applyMoves(moves, true);
    draw();
    updateCounters();
    if (isSolved() && st.history.length) {
      setStatus("Solved in " + plural(st.history.length, "move") + " (" + plural(runsOf(st.history), "multi-tile move") + ").");
    }
    return ok;
  }
  function plural(n, word) { return fmt(n) + " " + word + (n === 1 ? "" : "s"); }
  function updateCounters() {
    $("moves-stm").textContent = fmt(st.history.length);
    $("moves-mtm").textContent = fmt(runsOf(st.history));
    var solved = isSolved();
    $("solved-badge").hidden = !solved;
    body.dataset.solved = String(solved);
    body.dataset.moves = String(st.history.length);
    body.dataset.board = rowsText(st.tiles, st.w);
  }

  // The blank moves that slide the tile on `cell` (and those between it and the blank) toward
  // the blank: "" when it is not in the blank's row or column.
  function movesToward(cell) {
    var b = blankCell();
    if (cell === b || cell < 0) return "";
    var br = Math.floor(b / st.w), bc = b % st.w, r = Math.floor(cell / st.w), c = cell % st.w;
    if (r === br) return (c > bc ? "R" : "L").repeat(Math.abs(c - bc));
    if (c === bc) return (r > br ? "D" : "U").repeat(Math.abs(r - br));
    return "";
  }

  // ---------------------------------------------------------------- drawing
  function tileSize() {
    var room = Math.max(200, $("board-wrap").clientWidth - 12);
    return Math.max(30, Math.min(96, Math.floor(Math.min(room / st.w, 460 / st.h))));
  }
  function label(t) {
    if (st.labels === "letters") return String.fromCharCode(64 + t);
    return String(t);
  }
  function tileName(t) { return st.labels === "letters" ? "tile " + label(t) : "tile " + t; }
  function layout(force) {
    var size = tileSize();
    if (size === st.size && !force && st.els.length === st.w * st.h) return draw();
    st.size = size;
    var board = $("board");
    board.classList.add("instant");
    board.textContent = "";
    board.style.setProperty("--size", size + "px");
    board.style.width = st.w * size + "px";
    board.style.height = st.h * size + "px";
    board.dataset.width = st.w;
    board.dataset.height = st.h;
    st.els = [];
    for (var t = 1; t < st.w * st.h; t++) st.els[t] = makeTile(t, size);
    draw();
    void board.offsetWidth;
    board.classList.remove("instant");
  }
  function makeTile(t, size) {
    var el = document.createElement("button");
    el.type = "button";
    el.className = "tile";
    el.dataset.tile = t;
    el.tabIndex = -1;
    if (st.labels === "image" && st.image) {
      el.classList.add("image");
      el.appendChild(tileCanvas(t, size));
    }
    if (st.labels !== "image" || !st.image || st.overlay) {
      var s = document.createElement("span");
      s.className = "num";
      s.textContent = label(t);
      el.appendChild(s);
    }
    el.addEventListener("click", function () { onTileClick(t); });
    $("board").appendChild(el);
    return el;
  }
  // The part of the picture tile `t` shows on its goal cell (the picture cropped to the board).
  function tileCanvas(t, size) {
    var img = st.image, cell = st.goal.indexOf(t), r = Math.floor(cell / st.w), c = cell % st.w;
    var scale = Math.max(st.w / img.width, st.h / img.height);  // board units per pixel
    var pw = 1 / scale, ox = (img.width - st.w * pw) / 2, oy = (img.height - st.h * pw) / 2;
    var cv = document.createElement("canvas"), px = Math.max(16, Math.round((size - 6) * (window.devicePixelRatio || 1)));
    cv.width = cv.height = px;
    cv.getContext("2d").drawImage(img, ox + c * pw, oy + r * pw, pw, pw, 0, 0, px, px);
    return cv;
  }
  function draw() {
    var b = blankCell(), focusCell = -1;
    st.tiles.forEach(function (t, cell) {
      if (!t) return;
      var el = st.els[t];
      if (!el) return;
      var r = Math.floor(cell / st.w), c = cell % st.w;
      el.style.transform = "translate(" + c * st.size + "px," + r * st.size + "px)";
      el.dataset.cell = cell;
      el.classList.toggle("home", st.goal[cell] === t);
      var moves = movesToward(cell);
      el.setAttribute("aria-label", tileName(t) + ", row " + (r + 1) + ", column " + (c + 1) +
        (moves ? ", slides " + { U: "down", D: "up", L: "right", R: "left" }[moves[0]] : ""));
      el.setAttribute("aria-disabled", String(!moves));
      if (moves && focusCell < 0) focusCell = cell;
    });
    // One tab stop on the board: the focused tile if it can still slide, else a movable one.
    var focused = document.activeElement && document.activeElement.classList && document.activeElement.classList.contains("tile");
    st.els.forEach(function (el) { if (el) el.tabIndex = -1; });
    var keep = focused && movesToward(Number(document.activeElement.dataset.cell)) ? document.activeElement : null;
    var target = keep || (focusCell >= 0 ? st.els[st.tiles[focusCell]] : null);
    if (target) target.tabIndex = 0;
    if (focused && !keep && target) target.focus();
    $("board").dataset.blank = b;
  }
  function onTileClick(t) {
    if (st.busy) return setStatus("A search is running: wait for it, or press Cancel.");
    var moves = movesToward(st.tiles.indexOf(t));
    if (!moves) return setStatus(tileName(t) + " is not in the blank's row or column.");
    play(moves);
  }

  // ---------------------------------------------------------------- messages
  function setStatus(text) { $("status").textContent = text; }
  function showMessage(text, kind) {
    var m = $("message");
    m.textContent = text;
    m.dataset.kind = kind || "error";
    m.hidden = false;
  }
  function clearMessage() { $("message").hidden = true; $("message").textContent = ""; }

  // ---------------------------------------------------------------- size and goal controls
  function fillSizeControls() {
    ["width", "height"].forEach(function (id) {
      for (var v = 2; v <= 12; v++) {
        var o = document.createElement("option");
        o.value = o.textContent = String(v);
        $(id).appendChild(o);
      }
    });
  }
  function syncSizeControls() {
    $("width").value = String(st.w);
    $("height").value = String(st.h);
    var g = $("goal");
    var custom = g.querySelector('option[data-custom]');
    if (st.goalName !== "blank-last" && st.goalName !== "blank-first") {
      if (!custom) { custom = document.createElement("option"); custom.dataset.custom = "1"; g.appendChild(custom); }
      custom.value = st.goalName;
      custom.textContent = "goal " + st.goalName;
    } else if (custom) {
      custom.remove();
    }
    g.value = st.goalName;
  }
  function onSizeChange() {
    var w = Number($("width").value), h = Number($("height").value);
    if (w * h > 25) {
      showMessage("A board of " + w + " \u00d7 " + h + " has " + w * h + " cells; loyd solves boards of at most 25 cells.");
      return syncSizeControls();
    }
    clearMessage();
    var goalName = $("goal").value;
    if (goalName !== "blank-last" && goalName !== "blank-first") goalName = "blank-last";
    setPosition(w, h, goalName, goalTiles(w, h, goalName));
    setStatus(w + " \u00d7 " + h + ", solved. Shuffle, or type a board.");
  }
  function onGoalChange() {
    var goalName = $("goal").value;
    if (goalName === "blank-last" || goalName === "blank-first") {
      st.goalName = goalName;
      st.goal = goalTiles(st.w, st.h, goalName);
      clearHint();
      stopReplay(false);
      layout(true);
      updateCounters();
      syncSizeControls();
    }
  }

  // ---------------------------------------------------------------- shuffles and typed boards
  function randomSeed() {
    var a = new Uint32Array(2);
    crypto.getRandomValues(a);
    return (BigInt(a[0]) << 32n | BigInt(a[1])).toString();
  }
  function shuffle(seed) {
    var opts = "size=" + st.w + "x" + st.h + "\ngoal=" + goalOption();
    seed = seed === undefined ? randomSeed() : String(seed);
    return quickEngine.call("loyd_scramble", [opts, seed]).then(function (r) {
      setPosition(r.width, r.height, st.goalName, r.tiles, st.goal);
      $("scramble-seed").textContent = "Scramble seed " + r.seed + ": the same position as solver scramble --size " +
        r.width + "x" + r.height + " --goal " + st.goalName + " --seed " + r.seed + ".";
      setStatus("Shuffled: a uniformly random solvable position.");
      return r.rows;
    });
  }
  function shuffleByMoves(n) {
    if (!(Number.isInteger(n) && n >= 1 && n <= 100000))
      return showMessage("Random moves: a whole number from 1 to 100,000.");
    clearMessage();
    var moves = "", last = "", r = new Uint32Array(1);
    while (moves.length < n) {
      var choices = ["U", "D", "L", "R"].filter(function (d) { return d !== OPPOSITE[last] && neighbor(blankCell(), d) >= 0; });
      crypto.getRandomValues(r);
      var d = choices[r[0] % choices.length];
      applyMoves(d, false);
      moves += d;
      last = d;
    }
    setPosition(st.w, st.h, st.goalName, st.tiles, st.goal);
    $("scramble-seed").textContent = "";
    setStatus("Shuffled by " + plural(n, "random move") + " (no move undoes the one before).");
  }
  // Says when the board read (loyd_board's answer) cannot reach its goal; else clears the message.
  function noteSolvable(r) {
    if (!r.solvable)
      showMessage("This position cannot reach the goal: its permutation has the other parity (like Sam Loyd's 14-15 puzzle). " +
                  "Solve will say so; swap two tiles in the text to make it solvable.");
    else clearMessage();
  }
  // Reads `text` with the CLI's formats (its rows give the size; else the current size) and
  // starts from it; resolves to the board in rows, rejects with the CLI's message.
  function setBoardText(text) {
    var body = text.replace(/^[^:]*:/, "");  // after a label, as the command line reads it
    var flat = body.indexOf("/") < 0;
    var opts = "goal=" + goalOption() + (flat && body.trim().split(/[\s,]+/).length === st.w * st.h ? "\nsize=" + st.w + "x" + st.h : "");
    return quickEngine.call("loyd_board", [text, opts]).then(function (r) {
      var goalName = st.goalName;
      if (r.width !== st.w || r.height !== st.h) {
        if (goalName !== "blank-last" && goalName !== "blank-first") goalName = "blank-last";
      }
      setPosition(r.width, r.height, goalName, r.tiles, r.goal);
      noteSolvable(r);
      setStatus("Starting from " + r.rows + ".");
      return r.rows;
    });
  }

  // ---------------------------------------------------------------- searches
  function searchOptions(extra) {
    var o = { goal: goalOption(), algorithm: $("algorithm").value, metric: $("metric").value };
    if ($("heuristic").value) o.heuristic = $("heuristic").value;
    var limit = $("node-limit").value.trim();
    if (limit) o.nodeLimit = limit;
    return Object.assign(o, extra || {});
  }
  function runSearch(text, options) {
    return new Promise(function (resolve) { resolve(optionLines(options)); }).then(function (lines) {
      return searchEngine.call("loyd_solve", [boardText(text), lines]);
    });
  }
  function setBusy(on, what) {
    st.busy = on;
    body.dataset.busy = String(on);
    $("btn-cancel").hidden = !on;
    // (tables too: picked during a search, they would wait behind it, and a Cancel would drop them)
    ["btn-solve", "btn-hint", "btn-compare", "btn-shuffle", "btn-shuffle-moves", "btn-set-board", "btn-reset",
     "tables-file"].forEach(function (id) { $(id).disabled = on; });
    if (on) setStatus(what + "\u2026 (Cancel or Esc stops it)");
  }
  function heuristicText(r) { return r.heuristic.replace(/^pdb:/, "PDB "); }
  function addRun(r, algorithm) {
    var tr = document.createElement("tr");
    var cells = [heuristicText(r), algorithm === "astar" ? "A*" : "IDA*", r.heuristic_start === null ? "\u2013" : r.heuristic_start,
                 r.length === null ? "\u2013" : r.length, fmt(r.nodes_generated), r.seconds.toFixed(3) + " s",
                 r.status === "limit" ? "limit (\u2265 " + r.lower_bound + ")" : r.status];
    cells.forEach(function (c) { var td = document.createElement("td"); td.textContent = String(c); tr.appendChild(td); });
    tr.dataset.status = r.status;
    $("runs").tBodies[0].insertBefore(tr, $("runs").tBodies[0].firstChild);
  }
  function describe(r, algorithm) {
    if (r.status === "solved")
      return "Optimal: " + plural(r.length, r.metric === "mtm" ? "multi-tile move" : "move") + ", found with " + heuristicText(r) +
        " (" + r.heuristic_start + " at the start) after " + plural(r.nodes_generated, "node") + " in " + r.seconds.toFixed(3) + " s.";
    if (r.status === "unsolvable") return "This position cannot reach the goal (permutation parity): no search needed.";
    var why = r.error === "out of memory" ? "ran out of memory" : "reached the " + r.error;
    var what = r.error !== "out of memory" ? "Raise the node limit or pick a stronger heuristic."
      : algorithm === "astar" ? "Pick IDA* (it keeps no nodes in memory) or a stronger heuristic."
      : "Close other tabs or pick another heuristic.";
    return "Stopped: the search " + why + " after " + plural(r.nodes_generated, "node") + " (" + heuristicText(r) +
      "). No solution is shorter than " + r.lower_bound + " moves. " + what;
  }
  function solveHere() {
    if (st.busy) return;
    clearMessage();
    clearHint();
    if (st.replay) stopReplay(true);
    var text = rowsText(st.tiles, st.w), key = positionKey(), options = searchOptions();
    setBusy(true, "Searching with " + ($("heuristic").selectedOptions[0].textContent));
    return runSearch(text, options).then(function (r) {
      setBusy(false);
      addRun(r, options.algorithm);
      if (!samePosition(key)) {
        setStatus(describe(r, options.algorithm) + " The board or its goal changed during the search: its solution is not shown.");
        return r;
      }
      setStatus(describe(r, options.algorithm));
      if (r.status === "solved") startReplay(text, expandRuns(r.moves));
      return r;
    }, function (err) {
      if (err.kind === "cancelled") return;
      setBusy(false);
      showMessage(err.message);
      setStatus("No search result.");
    });
  }
  // The position a search is asked about: the board shown and its goal.
  function positionKey() { return rowsText(st.tiles, st.w) + " to " + st.goal.join(" "); }
  // True while the board shown and its goal are still those of `key` (positionKey()).
  function samePosition(key) { return !st.replay && positionKey() === key; }
  function expandRuns(moves) {
    return String(moves || "").replace(/([UDLR])(\d+)/g, function (m, d, n) { return d.repeat(Number(n)); });
  }
  // Every heuristic that applies, one after another, with the same algorithm and limit.
  function compare() {
    if (st.busy) return;
    clearMessage();
    var text = rowsText(st.tiles, st.w), mtm = $("metric").value === "mtm";
    var list = ["pdb", "walking-distance", "linear-conflict", "manhattan", "misplaced"].filter(function (h) {
      return !(mtm && (h === "linear-conflict" || h === "misplaced"));
    });
    setBusy(true, "Comparing heuristics");
    var done = 0;
    return list.reduce(function (p, h) {
      return p.then(function () {
        if (!st.busy) return;
        setStatus("Comparing heuristics: " + h + "\u2026 (" + done + " done; Cancel stops)");
        var options = searchOptions({ heuristic: h });
        return runSearch(text, options).then(function (r) { done++; addRun(r, options.algorithm); },
          function (err) { if (h !== "pdb" || !/no pattern databases/.test(err.message)) throw err; });
      });
    }, Promise.resolve()).then(function () {
      setBusy(false);
      setStatus("Compared " + done + " heuristics: the stronger the heuristic (a higher value at the start, never above the optimum), the fewer nodes.");
    }, function (err) {
      if (err.kind === "cancelled") return;
      setBusy(false);
      showMessage(err.message);
    });
  }
  function hint() {
    if (st.busy) return Promise.resolve(null);
    clearMessage();
    if (isSolved()) {
      setStatus("The board is solved: no hint needed.");
      return Promise.resolve(null);
    }
    if (st.replay) stopReplay(true);  // the hint is for the position the player shows
    var text = rowsText(st.tiles, st.w), key = positionKey(), options = searchOptions({ metric: "stm" });
    if (!$("heuristic").value || $("heuristic").value === "pdb") delete options.heuristic;
    setBusy(true, "Looking for the next move of an optimal solution");
    return runSearch(text, options).then(function (r) {
      setBusy(false);
      if (r.status !== "solved") {
        setStatus(describe(r, options.algorithm));
        return null;
      }
      if (!samePosition(key)) {
        setStatus("The board or its goal changed while the hint was searched; press Hint again.");
        return null;
      }
      var d = r.moves[0], tile = st.tiles[neighbor(blankCell(), d)];
      st.hint = { tile: tile, move: d, length: r.length };
      st.els[tile].classList.add("hinted");
      var txt = "Hint: slide " + tileName(tile) + " " + { U: "down", D: "up", L: "right", R: "left" }[d] +
        " (" + OPPOSITE[d] + " in tile notation, " + d + " in blank notation); then " + plural(r.length - 1, "move") + " to the goal.";
      $("hint-text").textContent = txt;
      $("hint-text").hidden = false;
      setStatus(txt);
      return { move: d, tile: tile, length: r.length };
    }, function (err) {
      if (err.kind === "cancelled") return null;
      setBusy(false);
      showMessage(err.message);
      return null;
    });
  }
  function clearHint() {
    if (st.hint && st.els[st.hint.tile]) st.els[st.hint.tile].classList.remove("hinted");
    st.hint = null;
    $("hint-text").hidden = true;
  }
  function cancel() {
    if (!searchEngine.busy()) return false;
    st.busy = false;  // stops a comparison between two searches too
    searchEngine.restart("the search was cancelled");
    setBusy(false);
    setStatus("Cancelled. The engine restarts with the same tables.");
    return true;
  }

  // ---------------------------------------------------------------- the solution player
  function startReplay(startText, moves) {
    var positions = [st.tiles.slice()], tiles = st.tiles.slice(), b = tiles.indexOf(0);
    for (var i = 0; i < moves.length; i++) {
      var r = Math.floor(b / st.w) + OFFSET[moves[i]][0], c = b % st.w + OFFSET[moves[i]][1], n = r * st.w + c;
      tiles[b] = tiles[n]; tiles[n] = 0; b = n;
      positions.push(tiles.slice());
    }
    st.replay = { start: st.tiles.slice(), moves: moves, positions: positions, step: 0, timer: null };
    $("replay").hidden = false;
    body.dataset.replay = "true";
    $("slider").max = moves.length;
    $("move-total").textContent = moves.length;
    drawMoveList();
    go(0);
  }
  function go(k) {
    var rp = st.replay;
    if (!rp) return;
    k = Math.max(0, Math.min(rp.moves.length, k));
    rp.step = k;
    st.tiles = rp.positions[k].slice();
    draw();
    var left = rp.moves.length - k;
    $("moves-left").textContent = left;
    $("moves-left-text").textContent = left === 1 ? "move left" : "moves left";
    $("step").textContent = k;
    $("slider").value = k;
    $("btn-first").disabled = $("btn-back").disabled = k === 0;
    $("btn-forward").disabled = $("btn-last").disabled = k === rp.moves.length;
    body.dataset.step = k;
    markMoves();
    updateCounters();
  }
  // Leaves the player: `keep` keeps the position shown (its moves count as played), else the
  // position the solution started from comes back.
  function stopReplay(keep) {
    var rp = st.replay;
    if (!rp) return;
    pause();
    st.replay = null;
    st.tiles = keep ? rp.positions[rp.step].slice() : rp.start.slice();
    if (keep) st.history += rp.moves.slice(0, rp.step);
    $("replay").hidden = true;
    body.dataset.replay = "false";
    draw();
    updateCounters();
  }
  function drawMoveList() {
    var list = $("move-list"), rp = st.replay;
    list.textContent = "";
    $("notation-blank").setAttribute("aria-pressed", String(st.notation === "blank"));
    $("notation-tile").setAttribute("aria-pressed", String(st.notation === "tile"));
    rp.runs = [];
    for (var i = 0; i < rp.moves.length;) {
      var j = i;
      while (j < rp.moves.length && rp.moves[j] === rp.moves[i]) j++;
      rp.runs.push({ from: i, count: j - i, dir: rp.moves[i] });
      i = j;
    }
    rp.runEls = rp.runs.map(function (run) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "move";
      b.dataset.from = run.from;
      b.dataset.count = run.count;
      b.textContent = (st.notation === "tile" ? OPPOSITE[run.dir] : run.dir) + (run.count > 1 ? run.count : "");
      b.addEventListener("click", function () { pause(); go(run.from + run.count); });
      list.appendChild(b);
      return b;
    });
    if (!rp.runs.length) list.textContent = "none: the position is the goal";
  }
  function setNotation(n) {
    st.notation = n;
    if (!st.replay) return;
    drawMoveList();
    markMoves();
  }
  function markMoves() {
    var rp = st.replay, k = rp.step;
    rp.runs.forEach(function (run, j) {
      var end = run.from + run.count, cur = run.from < k && k <= end;
      rp.runEls[j].classList.toggle("done", end <= k && !cur);
      rp.runEls[j].classList.toggle("current", cur);
    });
  }
  function delay() { return BASE_DELAY / (parseFloat($("speed").value) || 1); }
  function setPlaying(on) {
    body.dataset.playing = String(on);
    $("btn-play").classList.toggle("playing", on);
    $("btn-play").setAttribute("aria-label", on ? "Pause" : "Play");
  }
  function pause() {
    if (st.replay && st.replay.timer !== null) clearTimeout(st.replay.timer);
    if (st.replay) st.replay.timer = null;
    setPlaying(false);
  }
  function tick() {
    var rp = st.replay;
    if (!rp) return;
    go(rp.step + 1);
    if (rp.step >= rp.moves.length) pause();
    else rp.timer = setTimeout(tick, delay());
  }
  function togglePlay() {
    var rp = st.replay;
    if (!rp) return;
    if (rp.timer !== null) return pause();
    if (!rp.moves.length) return;
    if (rp.step >= rp.moves.length) go(0);
    setPlaying(true);
    rp.timer = setTimeout(tick, Math.min(250, delay()));
  }

  // ---------------------------------------------------------------- tiles: numbers, letters, image
  function onTilesChange() {
    st.labels = $("tiles").value;
    if (st.labels === "image" && !st.image) setStatus("Pick an image file to split into tiles.");
    layout(true);
  }
  function onImage() {
    var f = $("image-file").files[0];
    if (!f) return;
    createImageBitmap(f).then(function (img) {
      st.image = img;
      st.labels = "image";
      $("tiles").value = "image";
      layout(true);
      setStatus("Tiles cut from " + f.name + ".");
    }, function () {
      showMessage(f.name + ": not an image this browser can read.");
    });
  }

  // ---------------------------------------------------------------- table sets
  function drawSets() {
    var ul = $("sets");
    ul.textContent = "";
    st.sets.forEach(function (s) {
      var li = document.createElement("li");
      li.dataset.set = s.name;
      li.textContent = s.name + " \u2014 " + s.board + ", " + s.tables.length + (s.tables.length === 1 ? " table, " : " tables, ") +
        fmt(s.entries) + " entries" + (s.metric === "mtm" ? ", multi-tile metric" : "") + (s.embedded ? " (in the page)" : " (loaded)");
      ul.appendChild(li);
    });
  }
  // One upload: ArrayBuffers, typed arrays, Blobs or Files (their names are kept).
  function loadTables(items) {
    return new Promise(function (resolve) {
      var list = Array.isArray(items) ? items : [items];
      if (!list.length) throw new Error("no table file given (pick the .pdb files of a set)");
      resolve(Promise.all(list.map(function (x, i) {
        if (x instanceof Blob) return { name: x.name || "table " + (i + 1), blob: x };
        if (x instanceof ArrayBuffer || ArrayBuffer.isView(x)) return { name: "table " + (i + 1), blob: new Blob([x]) };
        throw new Error("item " + (i + 1) + " is not an ArrayBuffer, a typed array or a file");
      })));
    }).then(function (files) {
      return Promise.all(files.map(function (f) { return f.blob.arrayBuffer(); })).then(function (buffers) {
        var payload = files.map(function (f, i) { return { name: f.name, buffer: buffers[i] }; });
        return searchEngine.request({ op: "upload", files: payload, transfer: buffers }).then(function (set) {
          uploads = uploads.filter(function (u) { return u.name !== set.name; });
          uploads.push({ name: set.name, files: files });
          return searchEngine.call("loyd_sets", []).then(function (sets) {
            st.sets = sets;
            drawSets();
            return set;
          });
        });
      });
    });
  }
  // Loading is a job as a search is (Cancel or Esc stops it; nothing else runs meanwhile).
  function onTablesFile() {
    var files = Array.prototype.slice.call($("tables-file").files);
    if (!files.length || st.busy) return;
    clearMessage();
    setBusy(true, "Loading and checking " + plural(files.length, "file"));
    loadTables(files).then(function (set) {
      setBusy(false);
      setStatus("Loaded " + set.name + ": " + set.board + ", " + fmt(set.entries) + " entries, every checksum checked.");
      showMessage("Loaded the table set " + set.name + ".", "info");
    }, function (err) {
      if (err.kind === "cancelled") return;
      setBusy(false);
      showMessage("Tables not loaded: " + err.message);
      setStatus("Tables not loaded.");
    }).then(function () { $("tables-file").value = ""; });
  }

  // ---------------------------------------------------------------- input: keys and swipes
  var KEY_MOVES = { ArrowLeft: "R", ArrowRight: "L", ArrowUp: "D", ArrowDown: "U" };  // the tile slides the arrow's way
  function onKey(e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
    var tag = e.target && e.target.tagName, field = tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA";
    // Esc stops the page's search or table load from a field too (there it leaves a script's alone).
    if (e.key === "Escape") { if ((st.busy || !field) && cancel()) e.preventDefault(); return; }
    if (field) return;
    if (KEY_MOVES[e.key]) {
      e.preventDefault();
      if (st.busy) return setStatus("A search is running: wait for it, or press Cancel.");
      if (!play(KEY_MOVES[e.key])) setStatus("No tile can slide that way.");
      return;
    }
    if (tag === "BUTTON" && (e.key === " " || e.key === "Enter")) return;
    var k = e.key.toLowerCase();
    if (k === "[" && st.replay) { pause(); go(st.replay.step - 1); }
    else if (k === "]" && st.replay) { pause(); go(st.replay.step + 1); }
    else if (k === "p" && st.replay) togglePlay();
    else if (k === "s") solveHere();
    else if (k === "h") hint();
    else return;
    e.preventDefault();
  }
  function onSwipe() {
    var start = null, board = $("board");
    // A touch swipe is followed by no click: the flag a swipe sets is cleared by the next press,
    // or its tap would be swallowed.
    board.addEventListener("pointerdown", function (e) { start = { x: e.clientX, y: e.clientY }; swiped = false; });
    board.addEventListener("pointerup", function (e) {
      if (!start) return;
      var dx = e.clientX - start.x, dy = e.clientY - start.y;
      start = null;
      if (Math.max(Math.abs(dx), Math.abs(dy)) < 24) return;  // a tap: the tile's click
      var tileDir = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "ArrowRight" : "ArrowLeft") : (dy > 0 ? "ArrowDown" : "ArrowUp");
      swiped = true;
      if (!st.busy) play(KEY_MOVES[tileDir]);
    });
    board.addEventListener("click", function (e) {
      if (swiped) { swiped = false; if (e.detail !== 0) e.stopPropagation(); }  // (0: Enter or Space on a tile)
    }, true);
  }
  var swiped = false;

  // ---------------------------------------------------------------- the script interface
  window.loyd = Object.freeze({
    ready: ready,
    setBoard: function (text) {
      return ready.then(function () { return setBoardText(boardText(text)); });
    },
    board: function () { return rowsText(st.replay ? st.replay.positions[st.replay.step] : st.tiles, st.w); },
    solve: function (text, options) {
      return ready.then(function () { return runSearch(text, options); });
    },
    loadTables: function (buffers) {
      return ready.then(function () { return loadTables(buffers); }).then(function (set) { return set.name; });
    },
    sets: function () { return ready.then(function () { return st.sets.slice(); }); },
    shuffle: function (seed) {
      return ready.then(function () {
        if (seed !== undefined && !/^\d+$/.test(String(seed))) throw new Error("the seed must be a whole number 0 to 2^64-1");
        return shuffle(seed);
      });
    },
    hint: function () { return ready.then(function () { return hint(); }); },
    cancel: function () { return cancel(); }
  });

  // ---------------------------------------------------------------- start
  function startPosition() {
    var start = {};
    try { start = JSON.parse($("loyd-start").textContent) || {}; } catch (e) { start = {}; }
    var p = new URLSearchParams(location.hash.replace(/^#/, ""));
    if (p.get("board")) start.board = p.get("board");
    if (p.get("goal")) start.goal = p.get("goal");
    if (p.get("size")) start.size = p.get("size");
    return start;
  }
  function begin() {
    var start = startPosition(), m = /^(\d+)x(\d+)$/.exec(start.size || ""), notes = [];
    // Every note on the start shows, after the board's own (the warning of one that cannot reach its goal).
    var note = function () {
      var board = $("message").hidden ? [] : [$("message").textContent];
      if (notes.length || board.length) showMessage(board.concat(notes).join(" "));
    };
    if (m && Number(m[1]) >= 2 && Number(m[2]) >= 2 && Number(m[1]) * Number(m[2]) <= 25) { st.w = Number(m[1]); st.h = Number(m[2]); }
    else if (start.size) notes.push("The page's start position: bad size '" + start.size + "' (W x H with 2 \u2264 W, H and W\u00b7H \u2264 25, such as 4x4).");
    if (start.goal === "blank-first" || start.goal === "blank-last") st.goalName = start.goal;
    setPosition(st.w, st.h, st.goalName, goalTiles(st.w, st.h, st.goalName));
    if (!start.board && !(start.goal && start.goal !== "blank-last" && start.goal !== "blank-first")) return note();
    quiet(ready.then(function () {
      if (start.goal && start.goal !== "blank-last" && start.goal !== "blank-first") {
        return quickEngine.call("loyd_board", [start.goal, "goal=" + start.goal]).then(function (g) {
          if (!g.numbered) throw new Error("the play page plays numbered tiles: give the goal in numbers, blank-last or blank-first");
          var b = start.board || g.rows;
          return quickEngine.call("loyd_board", [b, "goal=" + start.goal]).then(function (r) {
            setPosition(r.width, r.height, start.goal, r.tiles, r.goal);
            noteSolvable(r);
            note();
          });
        });
      }
      return setBoardText(start.board).then(function () {
        if (m && (st.w !== Number(m[1]) || st.h !== Number(m[2])))
          notes.push("The page's start position: the board is " + st.w + "x" + st.h + ", so size=" + start.size + " was not used.");
        note();
      });
    }).catch(function (err) {
      showMessage(notes.concat("The page's start position: " + errorOf(err).message).join(" "));
    }));
  }
  function wire() {
    fillSizeControls();
    $("width").addEventListener("change", onSizeChange);
    $("height").addEventListener("change", onSizeChange);
    $("goal").addEventListener("change", onGoalChange);
    $("btn-shuffle").addEventListener("click", function () {
      quiet(shuffle().catch(function (err) { showMessage(errorOf(err).message); }));
    });
    $("btn-shuffle-moves").addEventListener("click", function () { shuffleByMoves(Number($("shuffle-moves").value)); });
    $("btn-reset").addEventListener("click", function () {
      setPosition(st.w, st.h, st.goalName, st.goal.slice(), st.goal);
      setStatus("Back to the goal.");
    });
    $("btn-set-board").addEventListener("click", function () {
      quiet(setBoardText($("board-text").value).catch(function (err) { showMessage(errorOf(err).message); }));
    });
    $("board-text").addEventListener("keydown", function (e) { if (e.key === "Enter") $("btn-set-board").click(); });
    $("btn-solve").addEventListener("click", solveHere);
    $("btn-hint").addEventListener("click", hint);
    $("btn-compare").addEventListener("click", compare);
    $("btn-cancel").addEventListener("click", cancel);
    $("btn-first").addEventListener("click", function () { pause(); go(0); });
    $("btn-back").addEventListener("click", function () { if (st.replay) { pause(); go(st.replay.step - 1); } });
    $("btn-forward").addEventListener("click", function () { if (st.replay) { pause(); go(st.replay.step + 1); } });
    $("btn-last").addEventListener("click", function () { if (st.replay) { pause(); go(st.replay.moves.length); } });
    $("btn-play").addEventListener("click", togglePlay);
    $("slider").addEventListener("input", function () { pause(); go(Number($("slider").value)); });
    $("notation-blank").addEventListener("click", function () { setNotation("blank"); });
    $("notation-tile").addEventListener("click", function () { setNotation("tile"); });
    $("tiles").addEventListener("change", onTilesChange);
    $("image-file").addEventListener("change", onImage);
    $("overlay").addEventListener("change", function () { st.overlay = $("overlay").checked; layout(true); });
    $("tables-file").addEventListener("change", onTablesFile);
    document.addEventListener("keydown", onKey);
    window.addEventListener("resize", function () { layout(false); });
    onSwipe();
  }
  wire();
  begin();
})();
