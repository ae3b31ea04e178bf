/* The map of a city (staff/views/maps.py). Progressive: the records are listed below the map in any case.
   The base is blank unless the site names a tile server (data-tiles). The server clusters the points for the
   zoom shown (points.json?zoom=); a point links to its incident or dog, a cluster zooms in. No inline code. */
(function () {
  "use strict";
  var el = document.getElementById("map");
  if (!el || !window.L) { return; }
  var L = window.L;
  var map = L.map(el, { zoomSnap: 1, maxZoom: 19, minZoom: 5, attributionControl: true });
  if (el.dataset.tiles) {
    L.tileLayer(el.dataset.tiles, { maxZoom: 19, attribution: el.dataset.attribution || "" }).addTo(map);
  } else {
    el.classList.add("map-blank");
    map.attributionControl.setPrefix("Blank base: no street map is set up");
  }
  var bounds = (el.dataset.bounds || "").split(",").map(Number);
  if (bounds.length === 4 && bounds.every(isFinite)) {
    if (bounds[0] === bounds[2] && bounds[1] === bounds[3]) {
      map.setView([bounds[0], bounds[1]], 15);
    } else {
      map.fitBounds([[bounds[0], bounds[1]], [bounds[2], bounds[3]]], { padding: [24, 24], maxZoom: 16 });
    }
  } else {
    map.setView([46.3, -94.3], 6);  // Minnesota
  }
  var layer = L.layerGroup().addTo(map);
  var asked = null;
  var SVG = "http://www.w3.org/2000/svg";

  function svg(kind) {
    // kind: [id, label, letter, colour, shape]; the same symbol as the legend (shape and letter, not colour alone)
    var s = document.createElementNS(SVG, "svg");
    s.setAttribute("width", "22"); s.setAttribute("height", "22"); s.setAttribute("viewBox", "0 0 22 22");
    s.setAttribute("aria-hidden", "true");
    var shape;
    if (kind[4] === "square") {
      shape = document.createElementNS(SVG, "rect");
      shape.setAttribute("x", "2"); shape.setAttribute("y", "2"); shape.setAttribute("width", "18");
      shape.setAttribute("height", "18"); shape.setAttribute("rx", "2");
    } else if (kind[4] === "triangle" || kind[4] === "diamond") {
      shape = document.createElementNS(SVG, "polygon");
      shape.setAttribute("points", kind[4] === "triangle" ? "11,1 21,20 1,20" : "11,1 21,11 11,21 1,11");
    } else {
      shape = document.createElementNS(SVG, "circle");
      shape.setAttribute("cx", "11"); shape.setAttribute("cy", "11"); shape.setAttribute("r", "9.5");
    }
    shape.setAttribute("fill", kind[3]); shape.setAttribute("stroke", "#fff"); shape.setAttribute("stroke-width", "1.5");
    var text = document.createElementNS(SVG, "text");
    text.setAttribute("x", "11"); text.setAttribute("y", kind[4] === "triangle" ? "17" : "15");
    text.setAttribute("text-anchor", "middle"); text.setAttribute("font-size", "10");
    text.setAttribute("font-weight", "700"); text.setAttribute("font-family", "sans-serif");
    text.setAttribute("fill", "#fff"); text.textContent = kind[2];
    s.appendChild(shape); s.appendChild(text);
    return s;
  }

  function pointIcon(kind, url) {
    var a = document.createElement("a");
    a.href = url; a.className = "map-point"; a.setAttribute("aria-label", kind[1]); a.title = kind[1];
    a.appendChild(svg(kind));
    return L.divIcon({ html: a, className: "map-marker", iconSize: [22, 22], iconAnchor: [11, 11] });
  }

  function clusterIcon(count) {
    var b = document.createElement("span");
    b.className = "map-cluster"; b.textContent = String(count);
    var size = count < 10 ? 30 : count < 100 ? 36 : 44;
    return L.divIcon({ html: b, className: "map-marker map-cluster-" + size, iconSize: [size, size], iconAnchor: [size / 2, size / 2] });
  }

  function draw(data) {
    layer.clearLayers();
    var o = data.o, k = data.k;
    data.p.forEach(function (p) {
      var kind = k[p[2]];
      var url = (p[2] === 0 ? el.dataset.incidentUrl : el.dataset.dogUrl) + p[3];
      var m = L.marker([o[0] + p[0] / 1e5, o[1] + p[1] / 1e5], { icon: pointIcon(kind, url), keyboard: false, title: kind[1] });
      layer.addLayer(m);
    });
    data.c.forEach(function (c) {
      var at = [o[0] + c[0] / 1e5, o[1] + c[1] / 1e5];
      var m = L.marker(at, { icon: clusterIcon(c[2]), title: c[2] + " points: select to zoom in" });
      m.on("click", function () { map.setView(at, Math.min(map.getZoom() + 2, 19)); });
      layer.addLayer(m);
    });
    el.dataset.zoom = String(data.z);
    el.dataset.loaded = String(data.n);
  }

  function load() {
    var zoom = map.getZoom();
    if (zoom === asked) { return; }
    asked = zoom;
    fetch(el.dataset.points + "&zoom=" + zoom, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.json(); })
      .then(function (data) { if (data.z === asked) { draw(data); } })
      .catch(function () { el.dataset.loaded = "error"; });
  }
  map.on("zoomend", load);
  load();
})();
