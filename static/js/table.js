/* The table screen updates itself: every few seconds it fetches the screen's fragment and
   puts it in place when it changed. No framework; without JavaScript the page still shows
   the state as of its loading, with a reload link. */
(function () {
  "use strict";
  var box = document.getElementById("table-screen");
  if (!box || !window.fetch) return;
  var url = box.getAttribute("data-live-url");
  var status = document.querySelector("[data-ts-status]");
  var reload = document.querySelector("[data-ts-reload]");
  var every = 3000;
  var current = box.innerHTML.trim();
  var busy = false;

  function say(text) {
    if (status) status.textContent = text;
  }

  if (reload) reload.hidden = true;
  say("Updates itself every few seconds.");

  function poll() {
    if (busy || document.hidden) return;
    busy = true;
    fetch(url, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (response) {
        if (!response.ok) throw new Error("status " + response.status);
        return response.text();
      })
      .then(function (html) {
        html = html.trim();
        if (html !== current) {
          box.innerHTML = html;
          current = html;
        }
        say("Updates itself every few seconds.");
      })
      .catch(function () {
        say("Cannot reach the site; trying again.");
      })
      .then(function () {
        busy = false;
      });
  }

  window.setInterval(poll, every);
  document.addEventListener("visibilitychange", poll);
})();
