/* Chronique's service worker (docs/table.md, "Offline"): keeps the app shell (styles,
   scripts) and the table pages as last shown, so that a phone that lost its network can
   reload the table and its queue. Writes and the API always go to the network. Its cache is
   named by the shell's addresses, which name their content: a deploy replaces it. */
"use strict";
var SHELL_CACHE = "chronique-shell-{{ release }}";
var SHELL = [{% for url in shell %}"{{ url|escapejs }}"{% if not forloop.last %}, {% endif %}{% endfor %}];
var STATIC = "{{ static_prefix|escapejs }}";
var PAGES = /^\/(table\/[0-9]+|table\/watch\/[^/]+)\/$/;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(SHELL_CACHE).then(function (cache) {
    return cache.addAll(SHELL);
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("chronique-shell-") === 0 && name !== SHELL_CACHE;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (url.pathname.indexOf(STATIC) === 0) {
    event.respondWith(caches.match(request).then(function (hit) { return hit || fetch(request); }));
    return;
  }
  if (request.mode === "navigate" && PAGES.test(url.pathname)) {
    // The network first (the table as it is now); without one, the page as last shown.
    event.respondWith(fetch(request).catch(function () {
      return caches.match(url.pathname).then(function (hit) {
        return hit || Response.error();
      });
    }));
  }
});
