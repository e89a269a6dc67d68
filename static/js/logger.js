/* The live logger's outbox (templates/tracker/live.html; docs/recording.md "The outbox").
 *
 * Every tap on the logger's forms becomes a change with a client id (a UUID) and the draft
 * version it was made on, kept first in IndexedDB (so it survives a reload and a closed
 * browser), then sent to /tournaments/<id>/live/outbox/, which applies each exactly once and
 * answers the state: the page draws it in place, with no reload. The outbox is sent when the
 * page opens, when the network comes back (`online`), when the page is shown again
 * (`visibilitychange`) and on a timer while anything waits: no Background Sync (iPhones have
 * none). A banner says "offline: N steps waiting", then "all saved". When another screen
 * moved the hand meanwhile the page shows both and asks which to keep.
 * With the browser's Python (static/vendor/pyodide/, `make vendor`) the page also runs the
 * engine itself (/engine-<digest>.zip, tracker/engine/screen.py): a tap is applied on the
 * phone, the next buttons are drawn at once, and the tap's events go to the outbox, so a
 * hand is logged with the network gone; the server applies them again and checks them.
 * A hand recorded on the phone offline is followed by the next one, dealt there by the same
 * engine (phone_next_hand: stacks, dealer, seats, stakes; on a dealer's choice night the
 * game chosen among the night's, checked by the engine) and started with a client id of
 * its own (op "start"): its changes name that start until the server, which deals the
 * hand itself and refuses a start that does not hold, answers with its draft. With the
 * network there, the night is asked again first (/live/night/: the stacks after a rebuy
 * or an add-on recorded on another screen).
 * Without this file the forms post as they always did. */
(function () {
  "use strict";

  var DB_NAME = "homegame";
  var STORE = "outbox";
  var RETRY_MS = 10000;

  var root = document.querySelector("[data-live-draft]");
  if (!root || !window.indexedDB || !window.fetch) return;
  var banner = document.querySelector("[data-outbox-banner]");
  var url = root.getAttribute("data-outbox-url");
  var resolveUrl = root.getAttribute("data-resolve-url");
  var nightUrl = root.getAttribute("data-night-url");
  var liveUrl = window.location.pathname;
  var sending = false;
  var again = false;  // a tap came while a batch was on its way: send once more after it
  var timer = null;
  var dbPromise = null;
  var token = csrf();  // kept: the phone's own drawing of the next steps has no token fields
  var engine = null;  // the engine's functions, once the browser's Python has loaded it
  var localSteps = null;  // the hand's steps after the changes waiting in the outbox
  var replaying = Promise.resolve();  // the replay after a server answer: a tap waits for it
  var lastHtml = null;  // the server's last drawing, if the replay over it fails

  function uuid() {
    if (window.crypto && window.crypto.randomUUID) return window.crypto.randomUUID();
    var b = new Uint8Array(16);
    window.crypto.getRandomValues(b);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map.call(b, function (x) { return (x + 0x100).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  /* The hand on the page: its draft id, or the client id of its start while the phone
   * alone knows it (started offline, not answered yet). */
  function draftKey() {
    var d = root.getAttribute("data-draft") || "";
    return /^[0-9]+$/.test(d) ? Number(d) : d;
  }
  function keyOf(change) {
    if (change.draft !== null && change.draft !== undefined) return change.draft;
    return change.op === "start" ? change.id : change.start;
  }
  function local() { return typeof draftKey() === "string"; }

  /* --- IndexedDB: the changes not yet answered, in the order they were made ---------- */
  function db() {
    if (!dbPromise) {
      dbPromise = new Promise(function (resolve, reject) {
        var req = window.indexedDB.open(DB_NAME, 1);
        req.onupgradeneeded = function () {
          var store = req.result.createObjectStore(STORE, { keyPath: "seq", autoIncrement: true });
          store.createIndex("url", "url");
        };
        req.onsuccess = function () { resolve(req.result); };
        req.onerror = function () { reject(req.error); };
      });
    }
    return dbPromise;
  }
  function tx(mode, work) {
    return db().then(function (d) {
      return new Promise(function (resolve, reject) {
        var t = d.transaction(STORE, mode);
        var out = work(t.objectStore(STORE));
        t.oncomplete = function () { resolve(out && out.result !== undefined ? out.result : out); };
        t.onerror = function () { reject(t.error); };
      });
    });
  }
  function pending() {
    return tx("readonly", function (store) { return store.index("url").getAll(url); });
  }
  function add(change) {
    return tx("readwrite", function (store) { store.add(change); });
  }
  /* The hands the server started for the phone's starts: their changes name the draft now. */
  function rebind(started) {
    if (!Object.keys(started).length) return Promise.resolve();
    if (started[draftKey()]) root.setAttribute("data-draft", String(started[draftKey()]));
    return pending().then(function (items) {
      return tx("readwrite", function (store) {
        items.forEach(function (item) {
          var key = keyOf(item.change);
          if (typeof key === "string" && started[key] && item.change.op !== "start") {
            item.change.draft = started[key];
            store.put(item);
          }
        });
      });
    });
  }
  function remove(ids) {
    var gone = {};
    ids.forEach(function (id) { gone[id] = true; });
    return pending().then(function (items) {
      return tx("readwrite", function (store) {
        items.forEach(function (item) { if (gone[item.change.id]) store.delete(item.seq); });
      });
    });
  }

  /* --- the banner ------------------------------------------------------------------- */
  function say(text, kind) {
    if (!banner) return;
    banner.textContent = text;
    banner.hidden = !text;
    banner.className = "outbox-banner" + (kind ? " is-" + kind : "");
  }
  function steps(n) { return n + (n === 1 ? " step" : " steps"); }
  function showWaiting(items, why) {
    if (!items.length) { say("all saved", "saved"); return; }
    say((why || (navigator.onLine ? "saving" : "offline")) + ": " + steps(items.length) + " waiting", "waiting");
    hold();
  }
  /* While a step waits for its answer the buttons drawn before it are not the next ones:
   * they are disabled until the answer draws the next step. */
  function hold() {
    if (engine) return;  // the phone draws the next step itself
    root.querySelectorAll(".live-next button, .live-next input, .live-tools button").forEach(function (el) {
      el.disabled = true;
    });
  }

  /* --- drawing the answer ----------------------------------------------------------- */
  var leaving = false;
  function leave(address) {  // the hand is recorded (or discarded): on to its page
    leaving = true;
    say("all saved", "saved");
    root.setAttribute("data-sync", "leaving");
    window.location.assign(address);
  }
  function draw(state, left) {
    if (!state) { leave(liveUrl); return; }
    lastHtml = state.html;
    root.setAttribute("data-draft", String(state.draft));
    root.setAttribute("data-version", String(state.version));
    if (engine && mineOf(left || []).length && jsonOf("phone-setup")) {
      // Steps still wait: only the server's steps are taken; the engine draws the page
      // with the waiting ones replayed over them (never the server's older buttons).
      var fresh = document.createElement("template");
      fresh.innerHTML = state.html;
      ["phone-setup", "phone-steps"].forEach(function (id) {
        var old = document.getElementById(id);
        var now = fresh.content.getElementById(id);
        if (old && now) old.textContent = now.textContent;
      });
    } else {
      root.innerHTML = state.html;
    }
    return rendered(left || []);
  }
  function rendered(left) {
    if (!engine || !mineOf(left).length) remember();
    return (engine ? catchUp(left) : Promise.resolve()).then(shown);
  }
  function shown() {
    root.dispatchEvent(new CustomEvent("homegame:rendered", { bubbles: true }));
    if (window.location.hash !== "#prompt") window.history.replaceState(null, "", liveUrl + "#prompt");
    var prompt = document.getElementById("prompt");
    if (prompt && prompt.scrollIntoView) prompt.scrollIntoView({ block: "start" });
  }

  function csrf() {
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : token;
  }
  function post(address, body) {
    return window.fetch(address, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf(), Accept: "application/json" },
      body: JSON.stringify(body),
    }).then(function (response) {
      return response.json().then(function (data) { return { status: response.status, data: data }; },
        function () { return { status: response.status, data: null }; });
    });
  }

  /* --- sending ---------------------------------------------------------------------- */
  function settle(items, answer) {
    var data = answer.data || {};
    var done = [];
    var refused = [];
    var started = {};  // the phone's start -> the server's draft
    var finished = {};  // hand key -> the recorded hand's address
    var changes = {};
    var startRefused = null;
    items.forEach(function (item) { changes[item.change.id] = item.change; });
    (data.results || []).forEach(function (r) {
      var change = changes[r.id];
      if (r.status === "applied" || r.status === "already" || r.status === "dropped") done.push(r.id);
      if (r.status === "refused") {
        done.push(r.id);
        var why = r.error ? r.error.message : "refused";
        if (change && change.op === "start") startRefused = { key: change.id, number: change.hand.number, why: why };
        else if (!(r.error && r.error.code === "start_refused")) refused.push(why);
      }
      if (change && change.op === "start" && r.draft) started[change.id] = r.draft;
      if (change && r.hand_url) finished[keyOf(change)] = r.hand_url;
    });
    Object.keys(finished).forEach(function (key) {
      if (started[key]) finished[started[key]] = finished[key];
    });
    return rebind(started).then(function () { return remove(done); }).then(pending).then(function (left) {
      if (answer.status === 409 && data.conflicts) { conflict(data, left); return; }
      if (answer.status >= 400 && !data.results) {
        say((data.error && data.error.message) || "the server refused the steps", "error");
        return;
      }
      if (startRefused && startRefused.key === draftKey()) { notStarted(startRefused, left); return; }
      if (local()) { showWaiting(left); return; }  // the phone is on a hand the server has not
      if (finished[draftKey()] && !mineOf(left).length) { leave(finished[draftKey()]); return; }
      return Promise.resolve(draw(data.state, left)).then(function () {
        if (refused.length) say("not saved: " + refused.join("; "), "error");
        else showWaiting(left);
      });
    });
  }
  /* A hand started on this phone that the server does not deal: said, with its steps in
   * sight; nothing more is logged into it. */
  function notStarted(refusal, left) {
    var box = document.createElement("section");
    box.className = "form-summary live-refused";
    box.setAttribute("role", "alert");
    box.setAttribute("data-testid", "start-refused");
    var h = document.createElement("h2");
    h.textContent = "Hand " + refusal.number + " (started on this phone) was not recorded";
    var p = document.createElement("p");
    p.textContent = refusal.why + ". Its steps below were not saved.";
    var a = document.createElement("a");
    a.href = liveUrl;
    a.className = "button big primary";
    a.textContent = "Go on from the server's hand";
    box.appendChild(h);
    box.appendChild(p);
    box.appendChild(a);
    root.querySelectorAll(".live-next button, .live-next input, .live-tools button").forEach(function (el) {
      el.disabled = true;
    });
    root.insertBefore(box, root.firstChild);
    say("not saved: " + refusal.why, "error");
    if (left.length) showWaiting(left);
  }
  function flush() {
    if (sending) { again = true; return Promise.resolve(); }
    sending = true;
    root.setAttribute("data-sync", "busy");
    return pending().then(function (items) {
      if (!items.length) return null;
      showWaiting(items);
      var changes = items.map(function (item) { return item.change; });
      return post(url, { changes: changes }).then(function (answer) { return settle(items, answer); },
        function () { return pending().then(function (left) { showWaiting(left, "offline"); }); });
    }).then(function () {
      sending = false;
      if (again) { again = false; return flush(); }
      if (leaving) return;
      root.setAttribute("data-sync", "idle");
      return pending().then(function (left) {
        window.clearTimeout(timer);
        if (left.length) timer = window.setTimeout(flush, RETRY_MS);
      });
    }, function () {
      sending = false;
      if (!leaving) root.setAttribute("data-sync", "idle");
    });
  }

  /* --- a conflict: both versions, and the choice ------------------------------------ */
  function conflict(data, left) {
    var first = data.conflicts[0];
    var mine = left.filter(function (item) { return keyOf(item.change) === first.draft && item.change.op !== "start"; })
      .map(function (item) { return item.change; });
    dismiss();  // asked again (a retry): one box
    var box = document.createElement("section");
    box.className = "form-summary live-conflict";
    box.setAttribute("role", "alert");
    box.setAttribute("data-testid", "live-conflict");
    var h = document.createElement("h2");
    h.textContent = data.error.message;
    box.appendChild(h);
    var open = first.server && first.server.status === "open";
    var theirs = open && first.server.log ? first.server.log : [];
    var here = first.draft === draftKey()
      ? Array.prototype.map.call(root.querySelectorAll("[data-testid=live-log] li"), function (li) { return li.textContent; })
      : null;
    var same = 0;
    while (here && same < theirs.length && same < here.length && theirs[same] === here[same]) same += 1;
    function version(title, lines, testid, none) {
      var part = document.createElement("div");
      part.className = "conflict-version";
      part.setAttribute("data-testid", testid);
      var h3 = document.createElement("h3");
      h3.textContent = title;
      part.appendChild(h3);
      var shownLines = lines === null ? [] : lines.slice(same);
      if (!shownLines.length) {
        var p = document.createElement("p");
        p.textContent = none;
        part.appendChild(p);
      } else {
        var ol = document.createElement("ol");
        ol.className = "actions";
        ol.start = same + 1;  // numbered as in the hand's log
        shownLines.forEach(function (line) {
          var li = document.createElement("li");
          li.textContent = line;
          ol.appendChild(li);
        });
        part.appendChild(ol);
      }
      box.appendChild(part);
    }
    if (same) {
      var common = document.createElement("p");
      common.textContent = "Both have the first " + steps(same) + "; then:";
      box.appendChild(common);
    }
    version("The other screen (version " + first.server_version + ")", theirs, "conflict-theirs",
      open ? "nothing more" : "hand " + first.number + " was " + (first.server && first.server.status) + " there");
    version("This phone: " + steps(mine.length) + " made on version " + first.base, here, "conflict-mine",
      here === null ? steps(mine.length) + " waiting" : "nothing more");
    var choices = open ? [["mine", "Keep mine"], ["theirs", "Keep theirs"]] : [["theirs", "Keep theirs"]];
    choices.forEach(function (pair) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "button big" + (pair[0] === "theirs" ? " primary" : "");
      b.textContent = pair[1];
      b.addEventListener("click", function () { resolve(pair[0], first, mine); });
      box.appendChild(b);
    });
    root.insertBefore(box, root.firstChild);
    say("hand " + first.number + " changed on another screen: choose which to keep", "error");
  }
  function resolve(keep, first, mine) {
    root.setAttribute("data-sync", "busy");
    post(resolveUrl, { draft: first.draft, keep: keep, server_version: first.server_version, changes: mine })
      .then(function (answer) {
        if (answer.status === 409 && answer.data && answer.data.error && answer.data.error.code === "stale_draft") {
          return flush();  // it moved again: ask anew
        }
        dismiss();
        return settle([], answer);
      }, function () { say("offline: choose again when the network is back", "error"); })
      .then(function () {
        if (leaving) return;
        root.setAttribute("data-sync", "idle");
        return flush();  // the changes of later hands, waiting on this one
      });
  }
  function dismiss() {
    var old = root.querySelector("[data-testid=live-conflict]");
    if (old) old.remove();
  }


  /* --- the engine on the phone (tracker/engine/screen.py in the browser's Python) ------ */
  function jsonOf(id) {
    var el = document.getElementById(id);
    return el ? el.textContent : null;
  }
  function loadEngine() {
    var base = root.getAttribute("data-pyodide-url");
    var zip = root.getAttribute("data-engine-url");
    var script = root.getAttribute("data-engine-worker");
    if (!base || !zip || !script || !window.Worker || !window.WebAssembly) return Promise.resolve(null);
    var started = performance.now();
    root.setAttribute("data-engine", "loading");
    var worker;
    try {
      worker = new Worker(script, { type: "module" });
    } catch (error) {
      root.setAttribute("data-engine", "none");
      return Promise.resolve(null);
    }
    var asked = 0;
    var waiting = {};
    worker.onmessage = function (e) {
      var call = waiting[e.data.id];
      delete waiting[e.data.id];
      if (!call) return;
      if (e.data.error !== undefined) call.reject(new Error(e.data.error));
      else call.resolve(e.data.result);
    };
    function ask(message) {
      asked += 1;
      message.id = asked;
      return new Promise(function (resolve, reject) {
        waiting[asked] = { resolve: resolve, reject: reject };
        worker.postMessage(message);
      });
    }
    return ask({ fn: "load", pyodide: base, engine: zip }).then(function () {
      engine = {
        step: function (a, b, c) { return ask({ fn: "step", args: [a, b, c] }); },
        next: function (a, b, c, d) { return ask({ fn: "next", args: [a, b, c, d] }); },
        replay: function (a, b, c) { return ask({ fn: "replay", args: [a, b, c] }); },
      };
      root.setAttribute("data-engine-ms", String(Math.round(performance.now() - started)));
      root.setAttribute("data-engine", "ready");
      return engine;
    }).catch(function (error) {  // the server draws every step, as without the engine
      root.setAttribute("data-engine", "none");
      if (window.console) window.console.warn("the live logger's engine did not load:", error.message);
      worker.terminate();
      return null;
    });
  }
  function mineOf(items) {
    var key = draftKey();
    return items.filter(function (item) { return keyOf(item.change) === key && item.change.op !== "start"; })
      .map(function (item) { return item.change; });
  }
  /* The steps the server drew, then the changes still waiting, replayed by the engine: the
   * page shows where the hand stands on this phone. */
  function catchUp(left) {
    var setup = jsonOf("phone-setup");
    var steps = jsonOf("phone-steps");
    if (!setup || !steps) { localSteps = null; return Promise.resolve(false); }
    var stale = false;
    var known = lastKnown();  // the server's last answer, newer than a page from the cache
    if (known && known.draft === Number(root.getAttribute("data-draft")) &&
        known.version > Number(root.getAttribute("data-version"))) {
      steps = JSON.stringify(known.steps);
      root.setAttribute("data-version", String(known.version));
      stale = true;
    } else if (known && known.setup && known.draft > Number(root.getAttribute("data-draft"))) {
      // The cached page is of an earlier hand: the server's last answer was of this one.
      enter(known.draft, known.setup, known.steps, null);
      root.setAttribute("data-version", String(known.version));
      setup = JSON.stringify(known.setup);
      steps = JSON.stringify(known.steps);
      stale = true;
    }
    var waiting = mineOf(left);
    var starts = left.filter(function (item) { return item.change.op === "start" && item.change.id !== draftKey(); });
    if (!waiting.length && !stale && !starts.length) { localSteps = JSON.parse(steps); remember(); return Promise.resolve(false); }
    localSteps = null;  // until the replay answers; a tap waits for it (replaying)
    var done = engine.replay(setup, steps, JSON.stringify(waiting)).then(function (text) {
      var answer = JSON.parse(text);
      localSteps = answer.steps;
      if (starts.length) return resume(starts[starts.length - 1].change, left).then(function () { return true; });
      paint(answer.screen, setup);
      if (waiting.some(function (c) { return c.op === "finish"; })) recordedHere();
      return true;
    }).catch(function (error) {  // the server's drawing stands
      if (window.console) window.console.warn("the waiting steps do not replay here:", error.message);
      if (lastHtml) root.innerHTML = lastHtml;
      return true;
    });
    replaying = done;
    return done;
  }
  /* After a reload: the last hand started on this phone, where the phone left it. */
  function resume(start, left) {
    var setup = JSON.stringify(start.hand);
    var waiting = left.filter(function (item) { return keyOf(item.change) === start.id && item.change.op !== "start"; })
      .map(function (item) { return item.change; });
    return engine.replay(setup, "[]", JSON.stringify(waiting)).then(function (text) {
      var answer = JSON.parse(text);
      enter(start.id, start.hand, answer.steps, answer.screen);
      if (waiting.some(function (c) { return c.op === "finish"; })) recordedHere();
    });
  }
  /* The page turns to a hand the phone started (its setup, its steps so far). */
  function enter(key, hand, stepsNow, screenNow) {
    root.setAttribute("data-draft", String(key));
    root.setAttribute("data-version", "0");
    document.getElementById("phone-setup").textContent = JSON.stringify(hand);
    var head = root.querySelector(".live-head");
    if (head) {
      head.querySelector("h1").textContent = hand.title;
      head.querySelector("p").textContent = hand.stakes_line;
    }
    document.title = hand.title + " (live)";
    localSteps = stepsNow;
    if (screenNow) paint(screenNow, JSON.stringify(hand));
  }
  /* The night as the server has it now (the stacks after a rebuy or an add-on recorded on
   * another screen), when the network is there and the server knows the hand on the page:
   * the next hand is dealt from it. Offline, or refused, the page's night stays. */
  function refreshNight() {
    var key = draftKey();
    if (!nightUrl || !navigator.onLine || typeof key !== "number") return Promise.resolve();
    return fetch(nightUrl + "?draft=" + key, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (text) {
        var el = document.getElementById("phone-night");
        if (text && el) el.textContent = text;
      }, function () { /* offline after all: the page's night */ });
  }
  /* The game the start form offers for the next hand on a dealer's choice night (the
   * night's games, their announcements the house rules): the engine checks the choice. */
  function chosenGame() {
    var select = document.getElementById("next-game");
    if (!select) return null;
    var house = select.value.indexOf("game:") === 0;  // a house game, by its slug
    return house ? { game: select.value.slice(5) } : { variant: select.value, options: null };
  }
  /* "Start hand N+1" on the phone: the engine deals it from this hand's result. */
  function startNext() {
    var started = performance.now();
    var chosen = chosenGame();
    return refreshNight().then(function () { return dealNext(started, chosen); });
  }
  function dealNext(started, chosen) {
    var night = jsonOf("phone-night");
    var setup = jsonOf("phone-setup");
    if (!engine || !night || !setup || localSteps === null) return Promise.resolve();
    return engine.next(night, setup, JSON.stringify(localSteps), JSON.stringify(chosen)).then(function (text) {
      var answer = JSON.parse(text);
      if (answer.over) { refuse(answer.over); return; }
      if (answer.error) { refuse(answer.error.message); startAgain(); return; }
      var change = { id: uuid(), draft: null, base: 0, op: "start", hand: answer.setup, form: {} };
      return add({ url: url, change: change }).then(function () {
        enter(change.id, answer.setup, [], answer.screen);
        root.setAttribute("data-draw-ms", String(Math.round(performance.now() - started)));
        shown();
        flush();
      });
    }, function (error) { refuse(error.message); startAgain(); });
  }
  function startAgain() {
    var button = root.querySelector("[data-start-next]");
    if (button) button.disabled = false;
  }
  /* The server's last answer for this logger (its draft, version and steps), kept so that
   * a reload offline starts from it rather than from the page the worker cached. */
  var KNOWN = "homegame:live:" + url;
  function lastKnown() {
    try { return JSON.parse(window.localStorage.getItem(KNOWN) || "null"); } catch (e) { return null; }
  }
  function remember() {
    var steps = jsonOf("phone-steps");
    if (!steps || local()) return;
    var draft = Number(root.getAttribute("data-draft"));
    var version = Number(root.getAttribute("data-version"));
    var known = lastKnown();
    if (known && known.draft === draft && known.version >= version) return;  // not older
    try {
      window.localStorage.setItem(KNOWN, JSON.stringify({
        draft: draft, version: version, steps: JSON.parse(steps), setup: JSON.parse(jsonOf("phone-setup") || "null"),
      }));
    } catch (e) { /* storage full or off: a reload offline starts from the cached page */ }
  }
  var CONTROL = { check_around: true, undo: true };
  /* A tap applied on the phone: the change for the outbox, or null (refused: said why). */
  function tapHere(fields, started) {
    // A tap made while the replay after a server answer runs waits for it: computed on
    // the steps with every waiting change, and kept as the engine's events.
    return replaying.then(function () { return tapNow(fields, started); });
  }
  function tapNow(fields, started) {
    var setup = jsonOf("phone-setup");
    if (!setup || localSteps === null) return Promise.resolve(undefined);
    var op = fields.op || "";
    if (op === "finish") { recordedHere(); return Promise.resolve({ op: "finish", form: fields }); }
    if (op === "discard") return Promise.resolve(undefined);  // to the server (it leaves the page)
    var asked = op === "undo"
      ? engine.replay(setup, JSON.stringify(localSteps), JSON.stringify([{ op: "undo" }]))
      : engine.step(setup, JSON.stringify(localSteps), JSON.stringify(fields));
    return asked.then(function (text) { return drawTap(JSON.parse(text), op, fields, setup, started); },
      function () { return undefined; });  // the server says what is wrong
  }
  function drawTap(answer, op, fields, setup, started) {
    if (answer.error) { refuse(answer.error.message); return null; }
    localSteps = answer.steps;
    paint(answer.screen, setup);
    root.setAttribute("data-draw-ms", String(Math.round(performance.now() - started)));
    root.dispatchEvent(new CustomEvent("homegame:rendered", { bubbles: true }));
    var prompt = document.getElementById("prompt");
    if (prompt && prompt.scrollIntoView) prompt.scrollIntoView({ block: "start" });
    if (CONTROL[op]) return { op: op, form: fields };
    return { op: "events", events: answer.events };
  }
  function refuse(message) {
    var next = document.getElementById("next");
    var old = next && next.querySelector("[data-testid=live-error]");
    if (old) old.remove();
    if (!next) return;
    var box = document.createElement("div");
    box.className = "form-summary";
    box.setAttribute("role", "alert");
    box.setAttribute("data-testid", "live-error");
    var strong = document.createElement("strong");
    strong.textContent = message;
    box.appendChild(strong);
    var prompt = document.getElementById("prompt");
    next.insertBefore(box, prompt ? prompt.nextSibling : next.firstChild);
  }
  /* "Record hand" with the network gone: kept in the outbox, the hand is done here. */
  function recordedHere() {
    var next = document.getElementById("next");
    if (!next) return;
    var setup = JSON.parse(jsonOf("phone-setup") || "{}");
    var night = engine ? JSON.parse(jsonOf("phone-night") || "null") : null;
    var following = Number(setup.number) + 1;
    next.innerHTML = '<h2 id="prompt" class="live-prompt" data-testid="live-prompt">Hand ' +
      esc(setup.number) + (navigator.onLine ? " is being recorded"
        : " is recorded on this phone: it is sent when the network is back") + "</h2>" +
      (night
        ? gameChoice(night, setup, following) + '<div class="live-buttons">' +
          '<button type="button" class="button primary big" data-start-next>Start hand ' +
          esc(following) + "</button></div>"
        : "");
    root.querySelectorAll(".live-tools button").forEach(function (b) { b.disabled = true; });
  }

  /* The start form's choice of game on a dealer's choice night (the night's games). */
  function gameChoice(night, setup, number) {
    if (night.variant || !night.games || !night.games.length) return "";
    return '<div class="live-next-game"><label for="next-game">Game of hand ' + esc(number) + "</label>" +
      '<select id="next-game" name="variant" data-testid="next-game">' + night.games.map(function (g) {
        return '<option value="' + esc(choiceOf(g)) + '"' + (choiceOf(g) === choiceOf(setup) ? " selected" : "") + ">" +
          esc(g.game ? g.name : g.title) + "</option>";
      }).join("") + "</select>" +
      '<p class="muted small" data-testid="next-game-announcements">' + esc(gameWords(night, choiceOf(setup))) + "</p></div>";
  }
  /* A game's value in the picker: a variant, or a house game "game:<slug>" (a hand's setup
   * names its house game by game_slug, the night's games by game). */
  function choiceOf(g) {
    var slug = g.game_slug || (typeof g.game === "string" ? g.game : null);
    return g.variant === "house" && slug ? "game:" + slug : g.variant;
  }
  function gameWords(night, choice) {
    var game = (night.games || []).filter(function (g) { return choiceOf(g) === choice; })[0];
    if (!game) return "";
    return game.game ? "House game, version " + game.version + ": " + game.announcements
      : "Announcements (the league's house rules): " + game.announcements;
  }

  /* --- drawing the engine's screen (the same parts as templates/tracker/_live_draft.html) */
  function esc(value) {
    return String(value === null || value === undefined ? "" : value).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  function hidden(name, value) {
    return '<input type="hidden" name="' + esc(name) + '" value="' + esc(value) + '">';
  }
  function opening(extra) {
    return '<form method="post"' + (extra || "") + ">" + hidden("csrfmiddlewaretoken", csrf()) +
      hidden("version", root.getAttribute("data-version"));
  }
  function buttonForm(b, cls, aria) {
    return opening() + hidden("op", b.op) +
      (b.seat !== null && b.seat !== undefined ? hidden("seat", b.seat) : "") +
      (b.verb ? hidden("verb", b.verb) : "") + (b.choice ? hidden("choice", b.choice) : "") +
      '<button type="submit" class="' + cls + '"' + (aria ? ' aria-label="' + esc(aria) + '"' : "") +
      ">" + esc(b.label) + "</button></form>";
  }
  function cardInput(name, label, required) {
    return '<input type="text" name="' + esc(name) + '" data-card maxlength="3" autocomplete="off"' +
      (required ? ' required aria-required="true"' : "") + ' aria-label="' + esc(label) + '">';
  }
  function cardFace(card) {
    if (!card.code) return '<span class="card unknown" title="not seen">?</span>';
    var suit = card.symbol.slice(-1);
    var red = suit === "\u2665" || suit === "\u2666";
    return '<span class="card' + (card.up ? "" : " down") + (card.wild ? " wild" : "") + '"' +
      (card.wild ? ' title="' + esc(card.symbol) + ' wild"' : "") + '><span class="card' + (red ? " red" : "") +
      '">' + esc(card.symbol.slice(0, -1)) + '<span class="suit">' + esc(suit) + "</span></span>" +
      (card.wild ? '<span class="visually-hidden"> wild</span>' : "") + "</span>";
  }
  function paint(s, setup) {
    var number = JSON.parse(setup).number;
    var h = [];
    h.push('<section class="live-next" aria-labelledby="prompt" id="next" data-seen-up="' +
      esc(s.seen_up.join(" ")) + '" data-seen-down="' + esc(s.seen_down.join(" ")) + '">');
    h.push('<h2 id="prompt" class="live-prompt" data-testid="live-prompt">' + esc(s.prompt) + "</h2>");
    if (s.buttons.length) {
      h.push('<div class="live-buttons">');
      s.buttons.forEach(function (b) { h.push(buttonForm(b, "button big " + b.style)); });
      h.push("</div>");
    }
    if (s.mucks.length) {
      h.push('<div class="live-buttons live-mucks" role="group" aria-label="Concede at the showdown (the last hand in cannot muck)">');
      s.mucks.forEach(function (b) { h.push(buttonForm(b, "button big quiet")); });
      h.push("</div>");
    }
    if (s.deals.length) {
      h.push(opening(' class="live-deal" data-card-form data-live' + (s.choices_open ? " data-hold" : "")) + hidden("op", "deal"));
      s.deals.forEach(function (d) {
        h.push('<fieldset class="deal-seat"><legend>' + esc(d.name) + "</legend>");
        d.slots.forEach(function (slot) {
          h.push('<label class="card-slot' + (slot.up ? "" : " is-down") + '"><span class="slot-label">' +
            (slot.up ? "up" : "down") + "</span>" +
            cardInput(slot.name, d.name + ": " + (slot.up ? "face-up" : "face-down (if seen)") + " card", slot.required) +
            "</label>");
        });
        h.push("</fieldset>");
      });
      h.push('<button type="submit" class="button primary big">' + esc(s.deal_label) + "</button></form>");
    }
    if (s.community) {
      h.push(opening(' class="live-deal" data-card-form data-live') + hidden("op", "community") +
        '<label class="card-slot"><span class="slot-label">community</span>' +
        cardInput("community", "The community card", true) + "</label>" +
        '<button type="submit" class="button primary big">Deal</button></form>');
    }
    s.shows.forEach(function (show) {
      h.push('<div class="live-show" data-testid="show-' + esc(show.seat) + '"><h3 class="live-show-name">' + esc(show.name) +
        (show.optional ? ' <span class="muted small">may show, if seen (not needed: the pot is won uncontested)</span>' : "") + "</h3>");
      if (show.slots.length) {
        h.push(opening(" data-card-form data-live" + (show.optional ? " data-hold" : "")) + hidden("op", "show") +
          hidden("seat", show.seat) + '<fieldset class="deal-seat"><legend>' + esc(show.name) + "</legend>");
        show.slots.forEach(function (slot) {
          h.push('<label class="card-slot is-down"><span class="slot-label">down</span>' +
            cardInput(slot.name, show.name + ": face-down card", true) + "</label>");
        });
        h.push('</fieldset><button type="submit" class="button' + (show.optional ? "" : " primary") + '">Show</button></form>');
      }
      if (show.declare.length) {
        h.push('<div class="declare-row" role="group" aria-label="' + esc(show.name) + ' declares"><span class="declare-label">Declares</span>');
        show.declare.forEach(function (b) { h.push(buttonForm(b, "button", show.name + " declares " + b.choice)); });
        h.push("</div>");
      }
      h.push("</div>");
    });
    if (s.can_finish) {
      h.push(opening(' class="live-finish"') + hidden("op", "finish"));
      if (s.result_seats.length) {
        h.push('<details class="live-result" data-testid="table-result"><summary>The table\'s result, if it differs</summary>' +
          '<p class="muted small">Only when the table paid the pot otherwise: the hand is then recorded as disputed, with both results kept.</p>');
        s.result_seats.forEach(function (pair) {
          h.push('<label class="result-seat"><span>' + esc(pair[1]) + '</span><select name="result-' + esc(pair[0]) +
            '"><option value="">as the cards say</option>' + s.result_choices.map(function (c) {
              return '<option value="' + esc(c[0]) + '">' + esc(c[1]) + "</option>";
            }).join("") + "</select></label>");
        });
        h.push("</details>");
      }
      h.push('<button type="submit" class="button primary big">Record hand ' + esc(number) + "</button></form>");
    }
    h.push("</section>");
    h.push('<section class="live-table" aria-label="The table"><div class="street-head"><h2>' + esc(s.street) +
      '</h2><span class="pot" data-testid="pot">Pot <strong>' + esc(s.pot) + '</strong></span></div><ul class="seats live-seats">');
    s.seats.forEach(function (seat) {
      h.push('<li class="seat' + (seat.folded ? " folded" : "") + (seat.to_act ? " to-act" : "") + '"><div class="seat-head">' +
        '<span class="seat-name">' + esc(seat.name) + '</span><span class="seat-chips">' +
        (seat.street_chips ? '<span class="bet">' + esc(seat.street_chips) + "</span>" : "") +
        ' <span class="muted small">' + esc(seat.stack) + ' behind</span></span></div><div class="cards small-cards">' +
        seat.cards.map(cardFace).join("") + '</div><div class="seat-act">' +
        (seat.folded ? '<span class="badge out">' + (seat.folded === "showdown" ? "mucked" : "folded") + "</span>" : esc(seat.last_action)) +
        "</div></li>");
    });
    h.push("</ul></section>");
    h.push('<section class="live-tools" aria-label="Corrections">' + opening() + hidden("op", "undo") +
      '<button type="submit" class="button"' + (s.log.length ? "" : " disabled") + ">Undo the last step</button></form>" +
      opening() + hidden("op", "discard") + '<button type="submit" class="button quiet">Discard this hand</button></form></section>');
    if (s.log.length) {
      h.push('<section aria-labelledby="log-h"><h2 id="log-h">So far</h2><ol class="actions" data-testid="live-log">' +
        s.log.map(function (line) { return "<li>" + esc(line) + "</li>"; }).join("") + "</ol></section>");
    }
    var head = root.querySelector(".live-head");
    var keep = [head, document.getElementById("phone-setup"), document.getElementById("phone-steps")];
    root.innerHTML = h.join("");
    keep.reverse().forEach(function (el) { if (el) root.insertBefore(el, root.firstChild); });
    document.getElementById("phone-steps").textContent = JSON.stringify(localSteps);
  }

  /* --- a tap: kept, then sent ------------------------------------------------------- */
  root.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form || !root.contains(form)) return;
    e.preventDefault();
    var started = performance.now();
    var fields = {};
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken" && name !== "version") fields[name] = String(value);
    });
    root.setAttribute("data-sync", "busy");
    var run = function () {
      return (engine ? tapHere(fields, started) : Promise.resolve(undefined)).then(function (here) {
        if (here === null) { root.setAttribute("data-sync", "idle"); return; }  // refused here
        return keep(fields, here);
      });
    };
    taps = taps.then(run, run);  // one tap after the other, in the order made
  });
  var taps = Promise.resolve();
  root.addEventListener("change", function (e) {
    if (!e.target || e.target.id !== "next-game") return;
    var words = root.querySelector("[data-testid=next-game-announcements]");
    if (words) words.textContent = gameWords(JSON.parse(jsonOf("phone-night") || "{}"), e.target.value);
  });
  root.addEventListener("click", function (e) {
    var button = e.target && e.target.closest ? e.target.closest("[data-start-next]") : null;
    if (!button) return;
    button.disabled = true;
    taps = taps.then(startNext, startNext);
  });
  function keep(fields, here) {
    var key = draftKey();
    return pending().then(function (items) {
      var mine = items.filter(function (item) { return keyOf(item.change) === key && item.change.op !== "start"; });
      var change = {
        id: uuid(), draft: typeof key === "number" ? key : null, base: Number(root.getAttribute("data-version")) + mine.length,
        op: fields.op || "", form: fields,
      };
      if (typeof key === "string") change.start = key;
      if (here) {
        change.op = here.op;
        if (here.events) { change.events = here.events; change.form = {}; }
      }
      return add({ url: url, change: change });
    }).then(function () {
      hold();
      flush();  // not waited for: the next tap is drawn while this one travels
    });
  }

  window.addEventListener("online", function () {
    flush();
    if (document.querySelector("[data-start-next]")) refreshNight();  // before the next hand
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") flush();
  });
  root.setAttribute("data-sync", "idle");
  flush();
  // The engine is ready (seconds after the page): the screen is drawn again only when the
  // steps waiting in the outbox change it, so cards being picked meanwhile stay as they are.
  loadEngine().then(function (ready) {
    if (!ready || leaving) return;
    return pending().then(function (left) {
      if (!mineOf(left).length) remember();
      return catchUp(left).then(function (drew) { if (drew) shown(); });
    });
  });

  /* --- the installable app: the service worker, at the site's root (web/views/app.py) -- */
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});
  }
})();
