"""axe-core (tests/browser/vendor, from the npm registry; scripts/vendor-axe.sh) run in a page by the browser
tests: the violations of impact serious or critical, which must be none."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

VENDOR = Path(__file__).parent / "vendor"
BLOCKING = ("serious", "critical")


@cache
def axe_source() -> str:
    """The vendored axe.min.js, checked against the checksum recorded beside it."""
    data = (VENDOR / "axe.min.js").read_bytes()
    recorded = next(
        line.split()[1]
        for line in (VENDOR / "axe-core.VERSION").read_text().splitlines()
        if line.startswith("sha256 ")
    )
    assert hashlib.sha256(data).hexdigest() == recorded, "axe.min.js differs from axe-core.VERSION"
    return data.decode()


def violations(page) -> list[dict]:
    """axe's serious and critical violations on the page as it is now. The script is evaluated through the
    browser's debugging protocol, not added as a <script>: the site's Content-Security-Policy stays in force."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    result = page.evaluate(
        """async () => {
            const r = await axe.run(document, {resultTypes: ['violations']});
            return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5)}));
        }"""
    )
    return [v for v in result if v["impact"] in BLOCKING]


def describe(found: list[dict]) -> str:
    return "\n".join(f"{v['impact']}: {v['id']} — {v['help']} at {', '.join(v['nodes'])}" for v in found)
