/* The table screen (and its read-only live view) updates itself: it fetches the screen's
   fragment every few seconds while the page is visible, and every half-minute while it is
   hidden (another tab, a phone's screen off), through the Page Visibility API; coming back
   into view polls at once. Each poll sends the last ETag (the first poll, the page's own),
   and the site answers 304 while nothing changed, so an unchanged night costs the site one
   cheap read and nothing is redrawn. No framework; without JavaScript the page still shows the state as of its
   loading, with a reload link. */
(function () {
  "use strict";
  var box = document.getElementById("table-screen");
  if (!box || !window.fetch) return;
  var url = box.getAttribute("data-live-url");
  var status = document.querySelector("[data-ts-status]");
  var reload = document.querySelector("[data-ts-reload]");
  var VISIBLE = 3000;
  var HIDDEN = 30000;
  var etag = box.getAttribute("data-etag") || null; // the version the page was drawn from
  var busy = false;
  var timer = null;
  var gone = false;

  function say(text) {
    if (status) status.textContent = text;
  }

  if (reload) reload.hidden = true;
  say("Updates itself every few seconds.");

  function later() {
    window.clearTimeout(timer);
    timer = window.setTimeout(poll, document.hidden ? HIDDEN : VISIBLE);
  }

  function poll() {
    if (busy) return;
    busy = true;
    var headers = { "Accept": "text/html" };
    if (etag) headers["If-None-Match"] = etag;
    fetch(url, { credentials: "same-origin", cache: "no-store", headers: headers })
      .then(function (response) {
        if (response.status === 304) return null;
        if (response.status === 404) {
          gone = true;
          throw new Error("gone");
        }
        if (!response.ok) throw new Error("status " + response.status);
        etag = response.headers.get("ETag");
        return response.text();
      })
      .then(function (html) {
        if (html !== null) box.innerHTML = html.trim();
        say("Updates itself every few seconds.");
      })
      .catch(function () {
        say(gone ? "This screen is gone (its link was revoked or has expired)."
                 : "Cannot reach the site; trying again.");
      })
      .then(function () {
        busy = false;
        if (!gone) later();
      });
  }

  document.addEventListener("visibilitychange", function () {
    if (gone) return;
    if (!document.hidden) poll();
    else later();
  });
  later();
})();
