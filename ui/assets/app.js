// PaperChat: a citation [n] in an answer opens its paper's card in the sources panel beside it, scrolled to the
// very sentence it cites (#source-n-qi) when the answer quotes one; a suggested question (#ask) is asked at once.
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

  document.addEventListener("click", function (event) {
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
