/* Chronique's own script: small progressive enhancements, no inline code (the CSP forbids it).
   - [data-copy]: copies the text of the element it names (an <a>'s address, an input's value).
   - [data-share]: opens the phone's share sheet for the element it names, where one exists.
   - [data-theme-choice]: the light / dark / device switch, remembered in localStorage.
   Each works through event delegation, so content swapped in by htmx works too. */
(function () {
  "use strict";

  function target(button, attribute) {
    var element = document.querySelector(button.getAttribute(attribute));
    if (!element) return "";
    return element.href || element.value || element.textContent.trim();
  }

  function say(button, attribute) {
    var text = button.getAttribute(attribute);
    if (!text) return;
    var before = button.textContent;
    button.textContent = text;
    window.setTimeout(function () { button.textContent = before; }, 2000);
  }

  document.addEventListener("click", function (event) {
    var copy = event.target.closest("[data-copy]");
    if (copy) {
      event.preventDefault();
      var text = target(copy, "data-copy");
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(function () { say(copy, "data-copied"); });
      } else {
        var field = document.createElement("textarea");
        field.value = text;
        document.body.appendChild(field);
        field.select();
        document.execCommand("copy");
        field.remove();
        say(copy, "data-copied");
      }
      return;
    }
    var share = event.target.closest("[data-share]");
    if (share && navigator.share) {
      event.preventDefault();
      navigator.share({ title: share.getAttribute("data-share-title") || document.title,
                        url: target(share, "data-share") }).catch(function () {});
    }
  });

  function showShareButtons(root) {
    if (!navigator.share) return;
    root.querySelectorAll("[data-share][hidden]").forEach(function (button) {
      button.hidden = false;
    });
  }

  /* The Of the Dead attributes: how many of their points are left to set (RULES-NOTES O1). */
  function countPoints(form) {
    var output = form.querySelector("output[data-total]");
    if (!output) return;
    var set = 0;
    form.querySelectorAll("[data-points]").forEach(function (field) {
      set += parseInt(field.value, 10) || 0;
    });
    var left = parseInt(output.getAttribute("data-total"), 10) - set;
    var key = left === 0 ? "data-done" : left === 1 ? "data-left-one" : left > 1 ? "data-left-many"
      : left === -1 ? "data-over-one" : "data-over-many";
    output.textContent = output.getAttribute(key).replace("{n}", String(Math.abs(left)));
    output.classList.toggle("problem", left < 0);
    output.classList.toggle("ok", left === 0);
  }

  /* The KOLAPS builder: the rank list offers only the chosen archetype's ranks. */
  function offerRanks(select) {
    var ranks = document.querySelector(select.getAttribute("data-rank-list"));
    var chosen = select.options[select.selectedIndex];
    if (!ranks || !chosen) return;
    var allowed = (chosen.getAttribute("data-ranks") || "").split(" ");
    var first = null;
    Array.prototype.forEach.call(ranks.options, function (option) {
      var ok = allowed.indexOf(option.value) !== -1;
      option.hidden = !ok;
      option.disabled = !ok;
      if (ok && first === null) first = option;
    });
    if (ranks.selectedOptions[0] && ranks.selectedOptions[0].disabled && first) {
      first.selected = true;
    }
  }

  document.addEventListener("change", function (event) {
    if (event.target.matches("[data-rank-list]")) offerRanks(event.target);
  });

  document.addEventListener("input", function (event) {
    if (event.target.matches("[data-points]")) countPoints(event.target.form);
  });

  document.addEventListener("DOMContentLoaded", function () {
    showShareButtons(document);
    document.querySelectorAll("[data-rank-list]").forEach(offerRanks);
    document.querySelectorAll("[data-points]").forEach(function (field) {
      if (field.form) countPoints(field.form);
    });
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    showShareButtons(event.target);
    event.target.querySelectorAll("[data-rank-list]").forEach(offerRanks);
  });
})();
