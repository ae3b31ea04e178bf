"""The law's pages a phone can hold (issue 20, item 6): a pack's page is its contents, each part of its text on a
page of its own; every page is at most 60 KB, every provision is reached from the contents, nothing is lost, and
an old address into the one long page (#p-<provision>) still leads to the provision."""

import html
import re

import pytest

from dogcase import law

MAX_BYTES = 60 * 1024
DATES = ["", "?on=2016-01-04", "?on=2026-11-30"]


def packs():
    return sorted(law.library().jurisdictions)


def get(client, url):
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def pages_of(client, pack, query):
    """The contents of a pack on a date and every page of that pack it links, by URL."""
    contents_url = f"/law/{pack}/{query}"
    contents = get(client, contents_url)
    urls = dict.fromkeys(
        html.unescape(u) for u in re.findall(rf'href="(/law/{re.escape(pack)}/[a-z0-9-]+/[^"#]*)', contents)
    )
    return {contents_url: contents, **{url: get(client, url) for url in urls}}


def own_provisions(pack, on):
    j = law.library().get(pack)
    shown = j.show(on)
    layers = [layer for layer in shown["layers"] if layer["pack"] == pack] or shown["layers"]
    return [p for layer in layers for p in layer["provisions"]], shown["defects"]


@pytest.mark.parametrize("query", DATES)
@pytest.mark.parametrize("pack", packs())
def test_every_page_of_every_pack_is_at_most_60_kb(client, pack, query):
    import datetime as dt

    pages = pages_of(client, pack, query)

    start = law.library().packs[pack].in_force.start
    if start is not None and query and dt.date.fromisoformat(query.removeprefix("?on=")) < start:
        # a city whose own law was not in force yet (the invented Lakeview, from 2020): the state's parts only
        assert len(pages) >= 2
    else:
        assert len(pages) > 3  # the contents, its parts, its problems
    sizes = {url: len(page.encode()) for url, page in pages.items()}
    assert {url: size for url, size in sizes.items() if size > MAX_BYTES} == {}, sizes


@pytest.mark.parametrize("pack", packs())
def test_every_provision_is_reached_from_the_contents_and_held_whole_on_one_page(client, pack):
    import datetime as dt

    on = dt.date(2026, 11, 30)
    provisions, defects = own_provisions(pack, on)
    pages = pages_of(client, pack, "?on=2026-11-30")
    contents = pages[f"/law/{pack}/?on=2026-11-30"]
    held = {url: page for url, page in pages.items() if "<article" in page}

    assert provisions
    for p in provisions:
        key = re.escape(p["provision"])
        line = re.search(rf'<li id="p-{key}"><a href="([^"#]+)#p-{key}">([^<]+)</a>', contents)
        assert line, p["provision"]
        assert html.unescape(line.group(2)) == p["citation"]
        page = pages[html.unescape(line.group(1))]
        start = page.index(f'<article class="card provision" id="p-{p["provision"]}"')
        text = html.unescape(page[start : page.index("</article>", start)])
        assert " ".join(p["text"].split()) in " ".join(text.split()), p["provision"]
        # on exactly one page: nothing lost, nothing printed twice
        assert sum(f'id="p-{p["provision"]}"' in page for page in held.values()) == 1, p["provision"]
    # every known problem in the text is told, with dogcase's reading, on a page of problems: the city's, or
    # the state's when it touches only the state's law
    own = {p["provision"] for p in provisions}
    problems = "".join(page for url, page in pages.items() if "/problems" in url)
    state = law.library().get(pack).state
    if state:
        state_pages = pages_of(client, state.id, "?on=2026-11-30")
        state_problems = "".join(page for url, page in state_pages.items() if "/problems" in url)
    for d in defects:
        here = not d["provisions"] or any(key in own for key in d["provisions"])
        assert f'<li id="d-{d["id"]}">' in (problems if here else state_problems), d["id"]


@pytest.mark.parametrize("query", DATES)
@pytest.mark.parametrize("pack", packs())
def test_every_link_into_the_law_lands_on_what_it_names(client, pack, query):
    pages = pages_of(client, pack, query)
    seen: dict[str, str] = {}
    checked = 0
    for page in pages.values():
        for url, anchor in re.findall(r'href="(/law/[^"#]*)#([pd]-[^"]+)"', page):
            url = html.unescape(url)
            if url not in seen:
                seen[url] = pages.get(url) or get(client, url)
            assert f'id="{html.unescape(anchor)}"' in seen[url], (url, anchor)
            checked += 1
    assert checked > 0
    # a provision not in force on the date is said to be so, not shown by its engine name
    assert not any(
        re.search(rf"(?<!<code)>{re.escape(pack)}:[A-Za-z0-9._]+<", page) for page in pages.values()
    )


def test_an_old_anchor_on_the_contents_names_the_page_that_holds_the_provision_now(client):
    # The law was one page: /law/tracy-mn/#p-tracy-mn:5.F went to the insurance rule. The contents keep that
    # anchor on the provision's line, a link to its part (the no-JavaScript way), and load the script that
    # follows it there at once (tests/browser/test_law_page_browser.py walks it).
    contents = get(client, "/law/tracy-mn/")
    line = re.search(
        r'<li id="p-tracy-mn:5.F"><a href="(/law/tracy-mn/[a-z0-9-]+/)#p-tracy-mn:5.F">', contents
    )

    assert line
    assert "public liability insurance of at least Fifty Thousand" in get(client, line.group(1))
    assert re.search(r'<script src="/static/law_pages/contents[.a-z0-9]*js" defer', contents)
    # the part pages carry no date when the law is today's, and keep the date asked for otherwise
    dated = get(client, "/law/tracy-mn/?on=2017-05-22")
    assert re.search(r'<li id="p-tracy-mn:5.F"><a href="/law/tracy-mn/[a-z0-9-]+/\?on=2017-05-22#', dated)


def test_a_part_not_in_the_law_on_the_date_is_not_found_and_a_bad_date_is_a_form_error(client):
    assert client.get("/law/tracy-mn/no-such-part/").status_code == 404
    assert client.get("/law/nowhere-mn/definitions/").status_code == 404
    assert client.get("/law/mn-statute/conflicts/").status_code == 404  # the state has no state under it
    response = client.get("/law/tracy-mn/definition-of-terms/?on=2026-02-30")
    assert response.status_code == 400
    assert "Law in force on: 2026-02-30 is not a real date" in response.content.decode()


def test_a_part_page_has_one_h1_its_provisions_under_it_and_a_way_back_and_on(client):
    contents = get(client, "/law/battle-lake-mn/")
    first, second = re.findall(r'<h3><a href="(/law/battle-lake-mn/[a-z0-9-]+/)">', contents)[:2]
    page = get(client, first)

    assert page.count("<h1") == 1
    assert page.index("<h1") < page.index('<h2 class="citation"')
    assert "<h3" not in page and "<h4" not in page
    assert 'href="/law/battle-lake-mn/">' in page
    assert f'Next: <a href="{second}">' in page
