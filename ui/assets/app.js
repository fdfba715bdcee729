// PaperChat: a citation [n] in an answer opens its paper's card in the sources panel beside it, scrolled to the
// very sentence it cites (#source-n-qi) when the answer quotes one; a suggested question (#ask) is asked at once;
// a dot of the corpus map opens its paper.
(function () {
  if (window.__paperchatCitations) return;
  window.__paperchatCitations = true;

  function askNext(text) {
    var box = document.querySelector("#pc-question textarea");
    var send = document.querySelector("#pc-send");
    if (!box || !send) return;
    box.value = text;
    box.dispatchEvent(new Event("input", { bubbles: true }));
    setTimeout(function () { send.click(); }, 50);
  }

  // The table selects a cell on a pointer press, not on a bare click().
  function press(element) {
    var box = element.getBoundingClientRect();
    var at = { bubbles: true, cancelable: true, view: window, button: 0, clientX: box.x + 4, clientY: box.y + 4 };
    ["pointerdown", "mousedown", "pointerup", "mouseup", "click"].forEach(function (type) {
      element.dispatchEvent(type.indexOf("pointer") === 0 ? new PointerEvent(type, at) : new MouseEvent(type, at));
    });
  }

  // A dot of the map opens its paper: the Papers tab, filtered to it, its card shown.
  function openPaper(name) {
    var tab = Array.prototype.find.call(document.querySelectorAll('#pc-tabs button[role="tab"]'),
      function (b) { return b.textContent.trim() === "Papers"; });
    if (!tab) return;
    tab.click();
    var tries = 0;
    var timer = setInterval(function () {
      var box = document.querySelector("#pc-search textarea, #pc-search input");
      if (box && box.value !== name) {
        box.value = name;
        box.dispatchEvent(new Event("input", { bubbles: true }));
      }
      // a shown cell of the Name column (the table also keeps hidden copies of its cells)
      var cell = Array.prototype.find.call(document.querySelectorAll('#pc-table [data-testid^="cell-"]'),
        function (c) {
          return /-0$/.test(c.dataset.testid) && c.getClientRects().length && c.textContent.trim() === name;
        });
      if (cell || ++tries > 50) {
        clearInterval(timer);
        if (cell) press(cell);
      }
    }, 100);
  }

  document.addEventListener("click", function (event) {
    var point = event.target.closest && event.target.closest('#pc-map path[aria-roledescription="point"]');
    if (point) {
      var found = /(?:^|; )name: ([^;]+)/.exec(point.getAttribute("aria-label") || "");
      if (found) openPaper(found[1].trim());
      return;
    }
    var suggestion = event.target.closest && event.target.closest('a[href="#ask"]');
    if (suggestion) {
      event.preventDefault();
      event.stopPropagation();
      askNext(suggestion.textContent.trim());
      return;
    }
    var link = event.target.closest && event.target.closest('a[href^="#source-"], a[href^="#cmp-source-"]');
    if (!link) return;
    var target = document.getElementById(link.getAttribute("href").slice(1));
    event.preventDefault();
    event.stopPropagation();
    if (!target) return;
    var details = target.closest("details");
    if (details) details.open = true;
    target.scrollIntoView({ behavior: "smooth", block: target.tagName === "MARK" ? "center" : "nearest" });
    target.classList.remove("pc-flash");
    void target.offsetWidth; // restart the animation
    target.classList.add("pc-flash");
  }, true);
})();
