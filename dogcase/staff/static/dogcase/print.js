// A "Print" button: window.print() from our own script file (the Content Security Policy allows no inline code),
// once every fold fetched on opening (folds.js) is in the page, so the paper holds all of it.
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-print]");
  if (button) {
    event.preventDefault();
    const parts = window.dogcaseLoadParts ? window.dogcaseLoadParts() : Promise.resolve();
    parts.then(() => window.print(), () => window.print());
  }
});
