// An act's form carries its one-time key in its own address once opened (data-keyed-url), so that Back to the
// form after it was sent returns to that address: the server sees the key used and shows the act already
// recorded, instead of a fresh form that would record a repeatable act twice. From our own file (the Content
// Security Policy allows no inline code); without JavaScript the form works as before.
(() => {
  const form = document.querySelector("form[data-keyed-url]");
  if (!form || new URLSearchParams(location.search).has("key")) return;
  history.replaceState(history.state, "", form.dataset.keyedUrl + location.hash);
})();
