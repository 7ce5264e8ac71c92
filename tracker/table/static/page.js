// The table's page: the websocket's address from the page's own (textual.js needs it
// whole), and the keys to the terminal as soon as it is there.
(function () {
  "use strict";
  var terminal = document.getElementById("terminal");
  var url = new URL(terminal.dataset.sessionWebsocketUrl, window.location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.search = "";
  url.hash = "";
  terminal.dataset.sessionWebsocketUrl = url.href;
  function focus() {
    var input = terminal.querySelector("textarea");
    if (input) {
      input.focus();
    } else {
      window.setTimeout(focus, 50);
    }
  }
  window.addEventListener("load", focus);
})();
