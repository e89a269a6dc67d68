/* The live logger's engine in a worker of its own (static/js/logger.js starts it): the
 * browser's Python (Pyodide, static/vendor/pyodide/) with tracker/engine/ from its zip, so
 * its start and every step run off the page's thread and a tap is never kept waiting.
 * Messages: {id, fn: "load", pyodide, engine} first, then {id, fn: "step" | "replay" | "next",
 * args} (tracker/engine/screen.py's phone_step, phone_replay and phone_next_hand: JSON
 * strings in and out); each
 * is answered {id, result} or {id, error}. */
let ready = null;

async function boot(base, zip) {
  const { loadPyodide } = await import(base + "pyodide.mjs");
  const py = await loadPyodide({ indexURL: base });
  const response = await fetch(zip);
  if (!response.ok) throw new Error("the engine is not there: " + response.status);
  py.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: "/engine" });
  py.runPython("import sys\nif '/engine' not in sys.path: sys.path.insert(0, '/engine')");
  const screen = py.pyimport("tracker.engine.screen");
  return { step: screen.phone_step, replay: screen.phone_replay, next: screen.phone_next_hand };
}

self.onmessage = async (event) => {
  const { id, fn, args } = event.data;
  try {
    if (fn === "load") {
      ready = ready || boot(event.data.pyodide, event.data.engine);
      await ready;
      self.postMessage({ id, result: "ready" });
      return;
    }
    const engine = await ready;
    self.postMessage({ id, result: engine[fn](...args) });
  } catch (error) {
    self.postMessage({ id, error: String((error && error.message) || error) });
  }
};
