"""The law of a pack cut into parts a phone can hold: each heading of the text is a part (split further when it
is long), with its own page; the pack's page is the contents, linking every provision to its part."""

from __future__ import annotations

from django.utils.text import slugify

# Pages of a pack that are not parts of its text.
RESERVED = ("problems", "conflicts")  # and problems-2, problems-3, ... (cut_problems)
# A rough height budget for one part at 390 px: a provision's card, plus its text's lines.
PART_BUDGET = 4_200
CARD = 330
PER_CHAR = 0.75


def _cost(p: dict) -> float:
    # From the provision's own fields only, so that a city's page and the state's page cut a layer alike.
    words = len(p.get("text") or "") + len(p.get("confirm") or "") + len(p.get("differs_from_state") or "")
    return CARD + PER_CHAR * words


def cut(provisions: list[dict]) -> list[dict]:
    """The provisions (in the order of the text) gathered by heading — a heading the text comes back to is one
    part — each part cut again while it is over the budget. Each part: slug, heading, index, of, provisions."""
    by_heading: dict[str | None, list[dict]] = {}
    for p in provisions:
        by_heading.setdefault(p.get("heading"), []).append(p)
    parts: list[dict] = []
    used: set[str] = set(RESERVED) | {f"problems-{n}" for n in range(2, 100)}
    for heading, items in by_heading.items():
        base = slugify(heading or "") or "other"
        slug, n = base, 1
        while slug in used:
            n += 1
            slug = f"{base}-{n}"
        used.add(slug)
        chunks: list[list[dict]] = [[]]
        spent = 0.0
        for p in items:
            cost = _cost(p)
            if chunks[-1] and spent + cost > PART_BUDGET:
                chunks.append([])
                spent = 0.0
            chunks[-1].append(p)
            spent += cost
        for i, chunk in enumerate(chunks, start=1):
            if i > 1:
                used.add(f"{slug}-part-{i}")
            parts.append(
                {
                    "slug": slug if i == 1 else f"{slug}-part-{i}",
                    "heading": heading,
                    # a part the text gives no heading is called by its citation
                    "title": heading or chunk[0]["citation"],
                    "index": i,
                    "of": len(chunks),
                    "provisions": chunk,
                    "first": chunk[0]["citation"],
                    "last": chunk[-1]["citation"],
                }
            )
    return parts


# A page of known problems: the words of its problems, at most (each problem's text, reading and links).
PROBLEMS_BUDGET = 40_000


def cut_problems(defects: list[dict]) -> list[list[dict]]:
    """The known problems, in order, on pages each under the budget (one page when they fit)."""
    pages: list[list[dict]] = [[]]
    spent = 0
    for d in defects:
        cost = (
            700
            + len(d.get("text") or "")
            + len(d.get("reading") or "")
            + 250 * len(d.get("provisions") or ())
        )
        if pages[-1] and spent + cost > PROBLEMS_BUDGET:
            pages.append([])
            spent = 0
        pages[-1].append(d)
        spent += cost
    return pages


def problems_slug(index: int) -> str:
    return "problems" if index == 1 else f"problems-{index}"
