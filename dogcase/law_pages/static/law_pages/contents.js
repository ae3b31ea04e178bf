// The law of a pack was once one page; its parts now have pages of their own. An old address into it
// (#p-<provision>, #d-<problem>, #defects, #conflicts) is sent on to the page that holds it now. Without
// JavaScript, #p-<provision> still lands on the provision's line in the contents, a link to its page.
// From our own file (the Content Security Policy allows no inline code).
(() => {
  const me = document.currentScript;
  const go = () => {
    const id = decodeURIComponent(location.hash.slice(1));
    if (!id) return;
    let url = null;
    if (id.startsWith("p-")) {
      const link = document.getElementById(id)?.querySelector("a[href]");
      if (link) url = link.href;
    } else if (id.startsWith("d-")) {
      const page = [...document.querySelectorAll("a[data-ids]")].find((a) => a.dataset.ids.split(" ").includes(id));
      url = `${page ? page.href : me.dataset.problems}#${id}`;
    } else if (id === "defects") {
      url = me.dataset.problems;
    } else if (id === "conflicts") {
      url = me.dataset.conflicts;
    }
    if (url) location.replace(url);
  };
  go();
  window.addEventListener("hashchange", go);
})();
