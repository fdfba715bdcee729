// PaperChat: a citation [n] in an answer opens its paper's card in the sources panel beside it.
(function () {
  if (window.__paperchatCitations) return;
  window.__paperchatCitations = true;
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest('a[href^="#source-"], a[href^="#cmp-source-"]');
    if (!link) return;
    var card = document.getElementById(link.getAttribute("href").slice(1));
    event.preventDefault();
    event.stopPropagation();
    if (!card) return;
    var details = card.closest("details");
    if (details) details.open = true;
    card.scrollIntoView({ behavior: "smooth", block: "nearest" });
    card.classList.remove("pc-flash");
    void card.offsetWidth; // restart the animation
    card.classList.add("pc-flash");
  }, true);
})();
