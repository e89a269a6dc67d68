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
  var liveUrl = window.location.pathname;
  var sending = false;
  var again = false;  // a tap came while a batch was on its way: send once more after it
  var timer = null;
  var dbPromise = null;

  function uuid() {
    if (window.crypto && window.crypto.randomUUID) return window.crypto.randomUUID();
    var b = new Uint8Array(16);
    window.crypto.getRandomValues(b);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map.call(b, function (x) { return (x + 0x100).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

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
  function draw(state) {
    if (!state) { leave(liveUrl); return; }
    root.innerHTML = state.html;
    root.setAttribute("data-draft", String(state.draft));
    root.setAttribute("data-version", String(state.version));
    root.dispatchEvent(new CustomEvent("homegame:rendered", { bubbles: true }));
    if (window.location.hash !== "#prompt") window.history.replaceState(null, "", liveUrl + "#prompt");
    var prompt = document.getElementById("prompt");
    if (prompt && prompt.scrollIntoView) prompt.scrollIntoView({ block: "start" });
  }

  function csrf() {
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
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
    var handUrl = null;
    (data.results || []).forEach(function (r) {
      if (r.status === "applied" || r.status === "already" || r.status === "dropped") done.push(r.id);
      if (r.status === "refused") { done.push(r.id); refused.push(r.error ? r.error.message : "refused"); }
      if (r.hand_url) handUrl = r.hand_url;
    });
    return remove(done).then(pending).then(function (left) {
      if (answer.status === 409 && data.conflicts) { conflict(data, left); return; }
      if (answer.status >= 400 && !data.results) {
        say((data.error && data.error.message) || "the server refused the steps", "error");
        return;
      }
      if (handUrl && !left.length) { leave(handUrl); return; }
      draw(data.state);
      if (refused.length) say("not saved: " + refused.join("; "), "error");
      else showWaiting(left);
    });
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
    var mine = left.filter(function (item) { return item.change.draft === first.draft; })
      .map(function (item) { return item.change; });
    var box = document.createElement("section");
    box.className = "form-summary live-conflict";
    box.setAttribute("role", "alert");
    box.setAttribute("data-testid", "live-conflict");
    var h = document.createElement("h2");
    h.textContent = data.error.message;
    box.appendChild(h);
    var p = document.createElement("p");
    var log = first.server && first.server.log ? first.server.log : [];
    p.textContent = "On the other screen (version " + first.server_version + "): " +
      (log.length ? log[log.length - 1] : "the hand was " + (first.server && first.server.status)) +
      " — yours: " + steps(mine.length) + " made on version " + first.base + ".";
    box.appendChild(p);
    [["mine", "Keep mine"], ["theirs", "Keep theirs"]].forEach(function (pair) {
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
        return settle([], answer);
      }, function () { say("offline: choose again when the network is back", "error"); })
      .then(function () { if (!leaving) root.setAttribute("data-sync", "idle"); });
  }

  /* --- a tap: kept, then sent ------------------------------------------------------- */
  root.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form || !root.contains(form)) return;
    e.preventDefault();
    root.setAttribute("data-sync", "busy");
    var fields = {};
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken" && name !== "version") fields[name] = String(value);
    });
    var draft = Number(root.getAttribute("data-draft"));
    pending().then(function (items) {
      var mine = items.filter(function (item) { return item.change.draft === draft; });
      var change = {
        id: uuid(), draft: draft, base: Number(root.getAttribute("data-version")) + mine.length,
        op: fields.op || "", form: fields,
      };
      return add({ url: url, change: change });
    }).then(function () {
      hold();
      return flush();
    });
  });

  window.addEventListener("online", flush);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") flush();
  });
  root.setAttribute("data-sync", "idle");
  flush();

  /* --- the installable app: the service worker, at the site's root (web/views/app.py) -- */
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});
  }
})();
