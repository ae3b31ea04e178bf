// Folds (<details>) stay closed until asked, except the one the address points into: after an act the case page
// opens at #timeline, and a link to #e-12 opens the timeline to that event. A heavy fold's content
// (<div data-part="?part=…">) is fetched when the fold opens. From our own file (the Content Security Policy
// allows no inline code). Printing shows every fold's content (print.css; print.js fetches the parts first).
(() => {
  const load = (el) => {
    if (el.dataset.loaded) return Promise.resolve();
    el.dataset.loaded = "1";
    return fetch(el.dataset.part, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
      .then((r) => (r.ok ? r.text() : Promise.reject(r.status)))
      .then((html) => { el.innerHTML = html; })
      .catch(() => { delete el.dataset.loaded; });
  };
  window.dogcaseLoadParts = () => Promise.all([...document.querySelectorAll("[data-part]")].map(load));
  document.addEventListener("toggle", (event) => {
    const fold = event.target;
    if (fold.tagName === "DETAILS" && fold.open) fold.querySelectorAll("[data-part]").forEach(load);
  }, true);
  const open = () => {
    const id = decodeURIComponent(location.hash.slice(1));
    const target = id && document.getElementById(id);
    if (!target) return;
    if (target.tagName === "DETAILS") target.open = true;
    const inner = target.querySelector(":scope > details.fold-inner");
    if (inner) inner.open = true;
    for (let d = target.parentElement; d; d = d.parentElement) {
      if (d.tagName === "DETAILS") d.open = true;
    }
    target.scrollIntoView();
  };
  document.addEventListener("DOMContentLoaded", open);
  window.addEventListener("hashchange", open);
})();
