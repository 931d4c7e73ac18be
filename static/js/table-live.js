/* The live encounter: a WebSocket tells this page the encounter's new version; the page
   then fetches the server-rendered state and swaps it in. Reconnects with backoff and
   catches up (it sends the version it has); says so while the connection is down; a link
   revoked meanwhile (the socket closed with 4404, the page a 404) shows the 404. Keeps
   the screen awake (Screen Wake Lock) and switches the dark theme. No inline script. */
(function () {
  "use strict";
  var page = document.getElementById("table-page");
  if (!page) { return; }
  var statusLine = document.getElementById("live-status");
  var delay = 500;
  var socket = null;
  var retry = null;
  var fetching = false;
  var wanted = 0;

  function current() {
    var state = document.getElementById("table-state");
    return state ? parseInt(state.getAttribute("data-version"), 10) || 0 : 0;
  }

  function down(isDown) {
    if (statusLine) { statusLine.hidden = !isDown; }
    page.classList.toggle("offline", isDown);
  }

  function refresh() {
    if (fetching) { return; }
    fetching = true;
    fetch(page.getAttribute("data-state-url"), {
      headers: { "HX-Request": "true", "HX-Target": "table-state" },
      credentials: "same-origin"
    }).then(function (response) {
      if (!response.ok) { throw new Error(String(response.status)); }
      return response.text();
    }).then(function (html) {
      var holder = document.createElement("div");
      holder.innerHTML = html;
      var fresh = holder.querySelector("#table-state");
      var old = document.getElementById("table-state");
      if (fresh && old) {
        old.replaceWith(fresh);
        if (window.htmx) { window.htmx.process(fresh); }
        document.body.dispatchEvent(new CustomEvent("table:refreshed"));
        var version = fresh.getAttribute("data-version");
        document.querySelectorAll("#action-form input[name=version]").forEach(function (input) {
          input.value = version;
        });
        announce();
      }
    }).catch(function () { down(true); }).finally(function () {
      fetching = false;
      if (wanted > current()) { refresh(); }
    });
  }

  function connect() {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + window.location.host + page.getAttribute("data-ws-path"));
    socket.onopen = function () {
      delay = 500;
      down(false);
      socket.send(JSON.stringify({ since: current() }));
    };
    socket.onmessage = function (event) {
      var message = JSON.parse(event.data);
      if (typeof message.version === "number" && message.version !== current()) {
        wanted = message.version;
        refresh();
      }
    };
    socket.onclose = function (event) {
      down(true);
      // 4404: the server no longer shows this encounter here (a spectator link revoked).
      // If the page says so too, show its answer instead of reconnecting for ever.
      if (event.code === 4404) {
        fetch(page.getAttribute("data-state-url"), { credentials: "same-origin" })
          .then(function (response) {
            if (response.status === 404) { window.location.reload(); }
          }).catch(function () { return null; });
      }
      if (retry) { window.clearTimeout(retry); }
      retry = window.setTimeout(function () {
        retry = null;
        if (navigator.onLine !== false) { connect(); }
      }, delay);
      delay = Math.min(delay * 2, 10000);
    };
  }

  // The phone knows before the socket does: say so at once, and try again when back.
  window.addEventListener("offline", function () {
    down(true);
    if (socket) { socket.close(); }
  });
  window.addEventListener("online", function () {
    delay = 500;
    if (!socket || socket.readyState === WebSocket.CLOSED) { connect(); }
  });

  // A screen reader hears the newest log line in the one polite region that is never
  // swapped; the focus stays where the player is.
  var announcer = document.getElementById("table-announce");
  var announced = "";
  function announce() {
    var latest = document.querySelector("#table-log li");
    var text = latest ? latest.textContent.replace(/\s+/g, " ").trim() : "";
    if (announcer && text && text !== announced) {
      announced = text;
      announcer.textContent = text;
    }
  }
  (function () {
    var latest = document.querySelector("#table-log li");
    announced = latest ? latest.textContent.replace(/\s+/g, " ").trim() : "";
  })();

  // After this page's own write, htmx swapped a fresh state in: nothing to fetch. The
  // control that sent it was swapped too: the keyboard keeps its place on its successor.
  var focusedId = null;
  document.body.addEventListener("htmx:beforeSwap", function () {
    focusedId = document.activeElement && document.activeElement.id;
  });
  document.body.addEventListener("htmx:afterSwap", function () {
    wanted = current();
    announce();
    if (focusedId && (!document.activeElement || document.activeElement === document.body)) {
      var again = document.getElementById(focusedId);
      if (again) { again.focus(); }
    }
  });

  var lock = null;
  function keepAwake() {
    if (!("wakeLock" in navigator) || document.visibilityState !== "visible") { return; }
    navigator.wakeLock.request("screen").then(function (sentinel) { lock = sentinel; })
      .catch(function () { lock = null; });
  }
  document.addEventListener("visibilitychange", keepAwake);

  var themeButton = document.getElementById("theme-switch");
  function applyTheme(theme) {
    if (theme) { document.documentElement.setAttribute("data-theme", theme); }
    if (themeButton) { themeButton.setAttribute("aria-pressed", theme === "dark" ? "true" : "false"); }
  }
  var saved = null;
  try { saved = window.localStorage.getItem("chronique-theme"); } catch (e) { saved = null; }
  applyTheme(saved);
  if (themeButton) {
    themeButton.addEventListener("click", function () {
      var dark = document.documentElement.getAttribute("data-theme") === "dark" ||
        (!document.documentElement.getAttribute("data-theme") &&
          window.matchMedia("(prefers-color-scheme: dark)").matches);
      var next = dark ? "light" : "dark";
      try { window.localStorage.setItem("chronique-theme", next); } catch (e) { /* private mode */ }
      applyTheme(next);
    });
  }

  keepAwake();
  connect();
  window.chroniqueTable = { lock: function () { return lock; }, version: current, refresh: refresh };
})();
