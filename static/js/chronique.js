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

  document.addEventListener("DOMContentLoaded", function () { showShareButtons(document); });
  document.addEventListener("htmx:afterSwap", function (event) { showShareButtons(event.target); });
})();
