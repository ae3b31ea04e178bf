// A "Print" button: window.print() from our own script file (the Content Security Policy allows no inline code).
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-print]");
  if (button) {
    event.preventDefault();
    window.print();
  }
});
