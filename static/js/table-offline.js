/* The table when the network drops (docs/table.md, "Offline").
   - Every write of the table page carries an idempotency key, one per form as drawn: a
     double tap, a send retried after a timeout or from the queue acts once on the server.
   - Offline, an action whose dice were rolled by hand is queued on the phone (IndexedDB),
     with the version it was based on, and shown as pending; what needs the server (its
     rolls, its odds, the organiser's tools) says so and is not faked.
   - Back online, the queue is sent in order with its keys; each lands once. One that meets
     a newer state (409) or is refused stops the queue: the phone shows why and offers to
     send it again on the new state or to drop it. The queue survives a reload and sleep.
   - The page as last shown is kept for the service worker (/sw.js), so that a reload
     without a network still shows the table and its queue. No inline script. */
(function () {
  "use strict";
  var page = document.getElementById("table-page");
  if (!page) { return; }
  keepShown();
  var box = document.getElementById("table-queue");
  if (!box) { return; }  // the spectator's screen: nothing to queue
  var encounter = page.getAttribute("data-encounter");
  var list = document.getElementById("table-queue-list");
  var note = document.getElementById("table-queue-note");
  var words = box.dataset;
  var sending = false;

  // --- The page as last shown, for a reload without a network (players and spectators) --
  function keepShown() {
    var keeping = null;
    function keepPage() {
      if (!("caches" in window) || keeping) { return; }
      keeping = window.setTimeout(function () {
        keeping = null;
        var html = "<!DOCTYPE html>\n" + document.documentElement.outerHTML;
        window.caches.open("chronique-pages").then(function (cache) {
          return cache.put(window.location.pathname, new Response(html, {
            headers: { "Content-Type": "text/html; charset=utf-8" }
          }));
        }).catch(function () { return null; });
      }, 300);
    }
    document.body.addEventListener("htmx:afterSwap", keepPage);
    document.body.addEventListener("table:refreshed", keepPage);
    window.addEventListener("offline", keepPage);
    if ("serviceWorker" in navigator) {
      navigator.serviceWorker.register(page.getAttribute("data-sw")).catch(function () { return null; });
    }
    keepPage();
  }

  function newKey() {
    if (window.crypto && window.crypto.randomUUID) { return window.crypto.randomUUID(); }
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  function keyOf(form) {
    if (!form.dataset.idempotencyKey) { form.dataset.idempotencyKey = newKey(); }
    return form.dataset.idempotencyKey;
  }

  // --- The queue, kept in IndexedDB -------------------------------------------------------
  function open() {
    return new Promise(function (resolve, reject) {
      var request = window.indexedDB.open("chronique-table", 1);
      request.onupgradeneeded = function () {
        var store = request.result.createObjectStore("queue", { keyPath: "id", autoIncrement: true });
        store.createIndex("encounter", "encounter");
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function store(mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction("queue", mode);
        var request = work(tx.objectStore("queue"));
        tx.oncomplete = function () { resolve(request ? request.result : undefined); };
        tx.onerror = function () { reject(tx.error); };
      });
    });
  }

  function queued() {
    return store("readonly", function (s) { return s.index("encounter").getAll(encounter); })
      .then(function (rows) { return rows.sort(function (a, b) { return a.id - b.id; }); });
  }
  function put(row) { return store("readwrite", function (s) { return s.put(row); }); }
  function drop(id) { return store("readwrite", function (s) { return s.delete(id); }); }

  // --- What the phone shows -------------------------------------------------------------
  function say(text) { note.textContent = text || ""; note.hidden = !text; }

  function draw() {
    return queued().then(function (rows) {
      list.textContent = "";
      rows.forEach(function (row) {
        var item = document.createElement("li");
        item.className = "queued" + (row.problem ? " conflict" : "");
        item.setAttribute("data-queued", String(row.id));
        var label = document.createElement("span");
        label.textContent = row.label + " — " + (row.problem ? words.stopped : words.pending);
        item.appendChild(label);
        if (row.problem) {
          var why = document.createElement("p");
          why.textContent = row.problem;
          item.appendChild(why);
          [["again", words.sendAgain], ["drop", words.drop]].forEach(function (pair) {
            var button = document.createElement("button");
            button.type = "button";
            button.className = pair[0] === "drop" ? "secondary" : "";
            button.setAttribute("data-queue-" + pair[0], String(row.id));
            button.textContent = pair[1];
            item.appendChild(button);
          });
        }
        list.appendChild(item);
      });
      box.hidden = rows.length === 0 && note.hidden;
      return rows;
    });
  }

  function current() {
    var state = document.getElementById("table-state");
    return state ? parseInt(state.getAttribute("data-version"), 10) || 0 : 0;
  }

  function describe(form) {
    var parts = [];
    ["kind", "actor", "target"].forEach(function (name) {
      var field = form.elements[name];
      if (field && field.selectedIndex >= 0 && field.value) {
        parts.push(field.options[field.selectedIndex].text.trim());
      }
    });
    return parts.join(" · ");
  }

  // The taps queued one after the other: each reads the queue its forerunner wrote.
  var queueing = Promise.resolve();

  function enqueue(form, key) {
    // What the player chose when they tapped, read now: the next tap may come before the
    // queue answers (a quick player picks the next target meanwhile).
    var row = {
      encounter: encounter,
      url: form.getAttribute("action"),
      body: new URLSearchParams(new FormData(form)).toString(),
      key: key,
      label: describe(form),
      problem: ""
    };
    delete form.dataset.idempotencyKey;  // the next action is another write
    queueing = queueing.then(function () { return queued(); }).then(function (rows) {
      // The first waits on the state on screen; each next on the state its forerunner made.
      row.version = rows.length ? null : current();
      return put(row);
    }).then(draw, draw);
    return queueing;
  }

  function byHand(form) {
    var roll = form.elements.roll;
    return !roll || roll.value !== "server";
  }

  // --- Sending the queue, in order, once back -------------------------------------------
  function versionIn(html) {
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var state = holder.querySelector("#table-state");
    return state ? parseInt(state.getAttribute("data-version"), 10) : null;
  }

  function refusalIn(html) {
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var message = holder.querySelector("#table-message, .errors");
    return message ? message.textContent.trim() : "";
  }

  function send() {
    if (sending || navigator.onLine === false) { return Promise.resolve(); }
    sending = true;
    var last = null;
    function next(rows) {
      var row = rows.shift();
      if (!row) { return null; }
      if (row.problem) { return null; }  // waits for the player's choice
      var body = new URLSearchParams(row.body);
      var version = row.version !== null && row.version !== undefined ? row.version : last;
      if (version !== null && version !== undefined) { body.set("version", String(version)); }
      return fetch(row.url, {
        method: "POST",
        body: body,
        credentials: "same-origin",
        headers: { "HX-Request": "true", "Idempotency-Key": row.key }
      }).then(function (response) {
        return response.text().then(function (html) {
          if (response.ok) {
            last = versionIn(html);
            return drop(row.id).then(function () { return next(rows); });
          }
          row.problem = (response.status === 409 ? words.conflict : words.refused) +
            (refusalIn(html) ? " " + refusalIn(html) : "");
          return put(row).then(function () { return null; });
        });
      });
    }
    return queued().then(next).catch(function () { return null; }).then(function () {
      sending = false;
      return draw();
    }).then(function () {
      if (window.chroniqueTable && window.chroniqueTable.refresh) { window.chroniqueTable.refresh(); }
    });
  }

  // --- Wiring ----------------------------------------------------------------------------
  document.body.addEventListener("htmx:configRequest", function (event) {
    var form = event.detail.elt && event.detail.elt.closest ? event.detail.elt.closest("form") : null;
    if (form && page.contains(form) && event.detail.verb === "post") {
      event.detail.headers["Idempotency-Key"] = keyOf(form);
    }
  });

  function offlineWrite(event, form) {
    if (form.id === "action-form" && byHand(form)) {
      say("");
      return enqueue(form, keyOf(form));
    }
    say(words.needsServer);
    return draw();
  }

  document.body.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt && event.detail.elt.closest ? event.detail.elt.closest("form") : null;
    if (!form || !page.contains(form) || navigator.onLine !== false) { return; }
    if (event.detail.requestConfig && event.detail.requestConfig.verb !== "post") {
      event.preventDefault();
      say(words.needsServer);
      draw();
      return;
    }
    event.preventDefault();
    offlineWrite(event, form);
  });

  // Sent, but the answer never came (the network went in between): queue it with the same
  // key; if the server had it, sending it again changes nothing.
  document.body.addEventListener("htmx:sendError", function (event) {
    var form = event.detail.elt && event.detail.elt.closest ? event.detail.elt.closest("form") : null;
    if (form && page.contains(form) && event.detail.requestConfig.verb === "post") {
      offlineWrite(event, form);
    }
  });

  list.addEventListener("click", function (event) {
    var again = event.target.closest("[data-queue-again]");
    var gone = event.target.closest("[data-queue-drop]");
    if (!again && !gone) { return; }
    var id = parseInt((again || gone).getAttribute(again ? "data-queue-again" : "data-queue-drop"), 10);
    queued().then(function (rows) {
      var row = rows.filter(function (r) { return r.id === id; })[0];
      if (!row) { return null; }
      if (gone) { return drop(id); }
      row.problem = "";
      row.version = current();  // on the state now shown
      return put(row);
    }).then(draw).then(send);
  });

  window.addEventListener("online", function () { say(""); send(); });
  draw().then(function () { if (navigator.onLine !== false) { send(); } });
  window.chroniqueQueue = { draw: draw, send: send, rows: queued };
})();
