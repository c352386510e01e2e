// The play page's engine worker (docs/play.md). The page builds this worker from its own text:
// the engine's emscripten glue (createLoydEngine), then this file. It owns one instance of the
// WebAssembly engine (solver/play/engine.cc) and answers one request at a time, so a long
// search never freezes the page; the page cancels a search by ending the worker and starting
// another.
//
// Messages in: {op:"init", wasm: base64, sets: [{name, manifest, tables: [{file, data: base64
// of gzip}]}], uploads: [[{name, buffer}]]}, then {id, op:"call", fn, args: [strings]} and
// {id, op:"upload", files: [{name, buffer}]}. Messages out: {op:"ready", version, sets, notes}
// or {op:"ready", error}, and {id, ok} or {id, error, kind} per request. Nothing thrown here
// escapes: every failure becomes a message.
"use strict";
var engine = null;
var uploads = 0;

self.addEventListener("unhandledrejection", function (e) { e.preventDefault(); });

// The longest text a call takes, in UTF-8 bytes, as the engine says (loyd_max_text: the command
// line's longest input line). The glue copies each text onto the engine's stack (4 MiB), so a
// longer one is refused here.
var MAX_TEXT = 0;
var encoder = new TextEncoder();

function call(fn, args) {
  for (var i = 0; i < args.length; i++) {
    var text = String(args[i]);
    if (text.length > MAX_TEXT / 3 && encoder.encode(text).length > MAX_TEXT)
      return { error: (i === 0 && fn !== "loyd_scramble" ? "the text" : "the options") + " is longer than " + MAX_TEXT + " bytes", kind: "format" };
  }
  return JSON.parse(engine.ccall(fn, "string", args.map(function () { return "string"; }), args));
}

function fromBase64(text) {
  var bin = atob(text), out = new Uint8Array(bin.length);
  for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function gunzip(bytes) {
  if (typeof DecompressionStream !== "function")
    return Promise.reject(new Error("this browser cannot decompress the page's tables (no DecompressionStream)"));
  var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).arrayBuffer().then(function (b) { return new Uint8Array(b); });
}

// A file name the engine's file system takes: the last part of the name, no control characters.
function fileName(name, i, used) {
  var base = String(name || "").split(/[\\/]/).pop().replace(/[\u0000-\u001f\u007f]/g, "?");
  if (!base || base === "." || base === "..") base = "table-" + (i + 1);
  var n = base, k = 2;
  while (used[n]) n = base + " (" + k++ + ")";
  used[n] = true;
  return n;
}

// Writes one embedded set (gzip tables) and loads it; returns its description or throws.
function loadEmbedded(set) {
  var dir = "/tables/" + set.name;
  engine.FS.mkdirTree(dir);
  engine.FS.writeFile(dir + "/manifest.txt", set.manifest);
  return Promise.all(set.tables.map(function (t) {
    return Promise.resolve().then(function () { return gunzip(fromBase64(t.data)); }).then(function (bytes) {
      engine.FS.writeFile(dir + "/" + t.file, bytes, { canOwn: true });
    }, function (err) {
      throw new Error(set.name + ": " + t.file + ": the page's copy of this table is damaged (" +
                      String(err && err.message || err) + "); the set is not used");
    });
  })).then(function () {
    var r = call("loyd_load_embedded", [dir]);
    if (r.error) throw new Error(set.name + ": " + r.error);
    return r.ok;
  });
}

// Writes the files of one upload into a folder of their own and loads the set they make.
function loadUpload(files) {
  var dir = "/upload-" + ++uploads, used = {};
  engine.FS.mkdirTree(dir);
  files.forEach(function (f, i) {
    engine.FS.writeFile(dir + "/" + fileName(f.name, i, used), new Uint8Array(f.buffer), { canOwn: true });
  });
  var r = call("loyd_load_upload", [dir]);
  if (r.error) r.error = r.error.split(dir + "/").join("");
  return r;
}

function init(m) {
  var notes = [];
  createLoydEngine({ wasmBinary: fromBase64(m.wasm), print: function () {}, printErr: function () {} })
    .then(function (e) {
      MAX_TEXT = e.ccall("loyd_max_text", "number", [], []);
      engine = e;  // only once MAX_TEXT is known: no call is made before
      return m.sets.reduce(function (p, set) {
        return p.then(function () { return loadEmbedded(set); })
          .catch(function (err) { notes.push(String(err && err.message || err)); });
      }, Promise.resolve());
    })
    .then(function () {
      (m.uploads || []).forEach(function (files) {
        var r = loadUpload(files);
        if (r.error) notes.push(r.error);
      });
      postMessage({ op: "ready", version: call("loyd_version", []).ok, sets: call("loyd_sets", []).ok, notes: notes });
    })
    .catch(function (err) {
      postMessage({ op: "ready", error: "the engine did not start: " + String(err && err.message || err) });
    });
}

function answer(m) {
  try {
    if (!engine) return postMessage({ id: m.id, error: "the engine is not ready", kind: "internal" });
    var r = m.op === "upload" ? loadUpload(m.files) : call(m.fn, m.args);
    postMessage(r.error ? { id: m.id, error: r.error, kind: r.kind } : { id: m.id, ok: r.ok });
  } catch (err) {
    // A trap in the engine (e.g. memory exhausted inside the runtime): this instance is not
    // to be trusted any more; the page starts a new worker.
    postMessage({ id: m.id, error: "the engine failed: " + String(err && err.message || err), kind: "internal", broken: true });
  }
}

self.onmessage = function (e) {
  var m = e.data || {};
  if (m.op === "init") init(m);
  else answer(m);
};
