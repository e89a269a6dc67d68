/* homegame's service worker (web/views/app.py serves it at /sw.js, scope "/").
 * Version {{ version }}: a new version (any static file changed) makes a new cache; the old
 * one is dropped once the new worker takes over, so an update is picked up.
 * - static files and the engine's zip (/engine-<digest>.zip): from the cache first (they are
 *   named by this version); the browser's Python (static/vendor/pyodide/) and the engine are
 *   fetched into the cache once the worker has taken over (WARM), or kept when first used;
 * - the live logger's page (/tournaments/<id>/live/): from the network, the copy kept for
 *   when the network is gone, so a reload offline opens the logger with its outbox;
 * - everything else: the network, untouched. */
"use strict";
var VERSION = "{{ version }}";
var CACHE = "homegame-" + VERSION;
var SHELL = {{ shell|safe }};
var WARM = {{ warm|safe }};  // fetched once the worker has taken over (the browser's Python)
var LOGGER = /^\/tournaments\/\d+\/live\/$/;
var ENGINE = /^\/engine-[0-9a-f]+\.zip$/;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(SHELL); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n.indexOf("homegame-") === 0 && n !== CACHE; })
      .map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }).then(function () {
    return caches.open(CACHE).then(function (cache) {
      return Promise.all(WARM.map(function (address) {
        return cache.match(address).then(function (hit) {
          return hit || cache.add(address).catch(function () {});  // else kept when first used
        });
      }));
    });
  }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.indexOf("{{ static_prefix }}") === 0 || ENGINE.test(url.pathname)) {
    event.respondWith(caches.match(request).then(function (hit) {
      return hit || fetch(request).then(function (response) {
        if (response.ok) {
          var copy = response.clone();
          caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
        }
        return response;
      });
    }));
    return;
  }
  if (request.mode === "navigate" && LOGGER.test(url.pathname)) {
    var key = url.origin + url.pathname;  // one copy per logger, whatever its #hash
    event.respondWith(fetch(request).then(function (response) {
      if (response.ok && !response.redirected) {
        var copy = response.clone();
        caches.open(CACHE).then(function (cache) { cache.put(key, copy); });
      }
      return response;
    }, function () {
      return caches.match(key).then(function (hit) { return hit || Response.error(); });
    }));
  }
});
