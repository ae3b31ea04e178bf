/* "Use my location": fills the latitude and longitude of a point from the browser's geolocation (the officer's
   phone), and says so; typing in them makes the point one placed by hand. Without geolocation the button stays
   hidden and the fields are typed. */
(function () {
  "use strict";
  function setUp(box) {
    var button = box.querySelector("[data-locate-button]");
    var status = box.querySelector("[data-locate-status]");
    var source = box.querySelector("[data-locate-source]");
    var lat = box.querySelector("input[name=latitude]");
    var lon = box.querySelector("input[name=longitude]");
    if (!button || !lat || !lon) { return; }
    [lat, lon].forEach(function (input) {
      input.addEventListener("input", function () { if (source) { source.value = "hand"; } });
    });
    if (!("geolocation" in navigator)) { return; }
    button.hidden = false;
    button.addEventListener("click", function () {
      status.textContent = "Finding your location…";
      navigator.geolocation.getCurrentPosition(function (pos) {
        lat.value = pos.coords.latitude.toFixed(6);
        lon.value = pos.coords.longitude.toFixed(6);
        if (source) { source.value = "phone"; }
        status.textContent = "Your location: " + lat.value + ", " + lon.value +
          " (within about " + Math.round(pos.coords.accuracy) + " m).";
      }, function (err) {
        status.textContent = "Your location could not be read (" + (err.message || "refused") +
          "). Type the latitude and longitude, or leave them blank.";
      }, { enableHighAccuracy: true, timeout: 15000, maximumAge: 60000 });
    });
  }
  function start() { document.querySelectorAll("[data-locate]").forEach(setUp); }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
