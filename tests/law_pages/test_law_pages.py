"""The public law page: the law in force on a date, with its defects and conflicts, readable without login."""

import html
import re

import pytest

SUBD_12_TEXT = "guilty of a misdemeanor"


def provision_page(client, pack, key, on="2026-11-30"):
    """The page holding a provision's full text, reached by its line in the pack's contents (issue 20, item 6:
    the contents link every provision to the page of its part)."""
    contents = client.get(f"/law/{pack}/?on={on}").content.decode()
    line = re.search(rf'<li id="p-{re.escape(key)}"><a href="([^"#]+)#p-{re.escape(key)}">', contents)
    assert line, key
    response = client.get(html.unescape(line.group(1)))
    assert response.status_code == 200
    return response.content.decode()


def whole_law(client, pack, on="2026-11-30"):
    """The contents page and every page of the pack it links (its parts, problems, conflicts), joined."""
    contents = client.get(f"/law/{pack}/?on={on}").content.decode()
    urls = dict.fromkeys(
        html.unescape(u) for u in re.findall(rf'href="(/law/{re.escape(pack)}/[a-z0-9-]+/[^"#]*)', contents)
    )
    return contents + "".join(client.get(u).content.decode() for u in urls)


def test_list_page_links_every_jurisdiction_and_says_what_it_is_layered_over(client):
    response = client.get("/law/")

    assert response.status_code == 200
    page = response.content.decode()
    assert 'href="/law/tracy-mn/"' in page
    assert 'href="/law/battle-lake-mn/"' in page
    assert "State of Minnesota" in page
    assert 'href="/accounts/login/"' in page  # the site nav stays


def test_show_page_quotes_a_known_provision_with_its_citation_and_anchor(client):
    response = client.get("/law/tracy-mn/?on=2026-11-30")

    assert response.status_code == 200
    page = response.content.decode()
    assert "Law in force on <strong>Monday 30 November 2026</strong>" in page
    assert 'id="p-tracy-mn:5.F"' in page
    assert "Tracy City Code § 8.31, Subd 5.F" in page
    # the text itself is on the page of its part, under the same anchor
    assert "public liability insurance of at least Fifty Thousand" not in page
    part = provision_page(client, "tracy-mn", "tracy-mn:5.F")
    assert "public liability insurance of at least Fifty Thousand" in article(part, "p-tracy-mn:5.F")


def test_show_page_says_what_a_deadline_provision_does_in_plain_english(client):
    page = whole_law(client, "mn-statute")

    assert (
        "Owner: request a hearing on the dangerous dog declaration (and, if applicable, on prior potentially"
        " dangerous dog declarations) — 14 calendar days from the notice"
    ) in page
    assert "(Minn. Stat. 645.15 counting)" in page


def article(page, anchor):
    start = page.index(f'id="{anchor}"')
    return page[start : page.index("</article>", start)]


def test_state_restatements_are_marked_as_such_and_quoted_city_text_is_not(client):
    state = provision_page(client, "mn-statute", "mn-statute:347.541.1")
    page = provision_page(client, "tracy-mn", "tracy-mn:5.F")

    assert "A summary of the statute in our words — check the Revisor's text." in article(
        state, "p-mn-statute:347.541.1"
    )
    assert "<blockquote" not in article(state, "p-mn-statute:347.541.1")
    assert "restatement" not in article(page, "p-tracy-mn:5.F")
    assert "<blockquote" in article(page, "p-tracy-mn:5.F")


def test_provisions_are_grouped_under_their_headings(client):
    page = client.get("/law/mn-statute/?on=2026-11-30").content.decode()

    assert len(re.findall(r"<h3><a [^>]*>Definitions</a></h3>", page)) == 1
    assert re.search(r"<h3><a [^>]*>Definitions</a></h3>", page).start() < page.index(
        'id="p-mn-statute:347.50.definitions.owner"'
    )
    part = provision_page(client, "mn-statute", "mn-statute:347.50.definitions.owner")
    assert "<h1>Definitions</h1>" in part


def test_show_page_lists_defects_with_dogcases_reading(client):
    page = whole_law(client, "battle-lake-mn")

    assert 'id="defects"' in page
    assert "dogcase's reading:" in page
    # the cut-off (C)(4) trigger is a missing setting, said in words
    assert "supply the trigger (the city's setting for when the 14 days start;" in html.unescape(page)


def test_date_picker_changes_the_law_shown(client):
    before = client.get("/law/tracy-mn/?on=2016-01-04").content.decode()
    after = client.get("/law/tracy-mn/?on=2017-05-22").content.decode()

    assert "Monday 4 January 2016" in before
    assert SUBD_12_TEXT not in before
    assert 'id="p-tracy-mn:12"' not in before
    assert 'id="p-tracy-mn:12"' in after
    assert SUBD_12_TEXT not in whole_law(client, "tracy-mn", "2016-01-04")
    assert SUBD_12_TEXT in whole_law(client, "tracy-mn", "2017-05-22")


def test_page_without_a_date_shows_todays_law_and_says_so(client):
    response = client.get("/law/tracy-mn/")

    assert response.status_code == 200
    assert "(today)" in response.content.decode()


@pytest.mark.parametrize("bad", ["2026-02-30", "30/11/2026", ""])
def test_bad_date_rerenders_the_form_with_an_error_naming_the_field(client, bad):
    response = client.get("/law/tracy-mn/", {"on": bad})

    assert response.status_code == 400
    page = response.content.decode()
    assert re.search(r'role="alert">Law in force on', page) or 'role="alert">This field is required' in page
    assert 'aria-invalid="true"' in page
    assert 'id="layer-tracy-mn"' not in page


def test_impossible_date_message_repeats_what_was_typed(client):
    page = client.get("/law/tracy-mn/?on=2026-02-30").content.decode()

    assert "Law in force on: 2026-02-30 is not a real date" in page


@pytest.mark.parametrize("far", ["9999-12-31", "0001-01-01"])
def test_a_date_outside_the_clocks_range_is_a_form_error_not_a_crash(client, far):
    response = client.get("/law/tracy-mn/", {"on": far})

    assert response.status_code == 400
    assert 'aria-invalid="true"' in response.content.decode()


def test_unknown_jurisdiction_is_404(client):
    assert client.get("/law/nowhere-mn/").status_code == 404


def test_conflicts_table_lists_city_and_state_citations_and_what_applies(client):
    contents = client.get("/law/tracy-mn/?on=2026-11-30").content.decode()
    assert 'href="/law/tracy-mn/conflicts/?on=2026-11-30"' in contents
    page = client.get("/law/tracy-mn/conflicts/?on=2026-11-30").content.decode()

    table = page[page.index('id="conflicts"') : page.index("</section>", page.index('id="conflicts"'))]
    assert "<dt>What dogcase applies</dt>" in table
    assert "requirement liability_coverage" in table
    assert "$50,000" in table and "$300,000" in table
    link = re.search(r'href="(/law/tracy-mn/[a-z0-9-]+/\?on=2026-11-30)#p-tracy-mn:5.F"', table)
    assert link and 'id="p-tracy-mn:5.F"' in client.get(html.unescape(link.group(1))).content.decode()


def test_holidays_of_the_year_are_listed(client):
    page = client.get("/law/tracy-mn/?on=2026-11-30").content.decode()

    assert "Legal holidays in 2026" in page
    assert "Thu 26 Nov 2026" in page


def test_the_state_page_says_the_certificate_fee_is_capped_and_destruction_needs_no_designation(client):
    page = whole_law(client, "mn-statute")

    assert "not more than $500" in page  # 347.51 subd. 2(3), the fee's cap_usd
    assert "Ground: Destruction under Minn. Stat. § 347.56 (no designation needed)" in page
    assert "Exemption: bars destruction under Minn. Stat. § 347.56" in page


def test_a_city_designation_is_said_to_resemble_a_state_one_not_to_restate_it(client):
    # state_counterpart is a label (DESIGN.md principle 4): a Tracy vicious classification is not the state's
    # potentially dangerous finding, and no state rule reaches it through the resemblance
    page = client.get("/law/tracy-mn/?on=2026-11-30").content.decode()
    assert "restates the state" not in page
    assert "resembles the state's potentially dangerous dog (a label only" in page


def layer_section(page, pack):
    start = page.index(f'id="layer-{pack}"')
    return page[start : page.index("</section>", start)]


def test_the_state_layer_is_labelled_a_summary_in_our_words_and_a_city_layer_is_not(client):
    page = client.get("/law/tracy-mn/?on=2026-11-30").content.decode()
    state_page = client.get("/law/mn-statute/?on=2026-11-30").content.decode()

    state = layer_section(state_page, "mn-statute")
    heading = state[: state.index("<h3>")]
    assert "A summary of the statute in our words — check the Revisor's text." in heading
    assert "quoted text" not in page
    assert "(a summary in our words)" in state_page[state_page.index('aria-label="On this page"') :]
    assert "summary of the statute" not in layer_section(page, "tracy-mn")


def test_a_city_page_prints_its_own_law_and_links_the_states_on_its_own_page_with_the_same_date(client):
    page = client.get("/law/tracy-mn/?on=2026-06-01").content.decode()

    # the state's provisions are not printed on the city's page: they are one page for every city
    assert 'id="p-mn-statute:347.541.1"' not in page
    assert 'id="layer-mn-statute"' not in page
    assert 'href="/law/mn-statute/?on=2026-06-01">Read the State of Minnesota' in page
    # a state citation on the city's pages (a conflict, a defect) leads to the provision on the state's pages
    conflicts = client.get("/law/tracy-mn/conflicts/?on=2026-06-01").content.decode()
    assert re.search(r'href="/law/mn-statute/[a-z0-9-]+/\?on=2026-06-01#p-mn-statute:', conflicts)
    # a problem that touches only the state's law is told on the state's page, and counted here
    assert "only the law of the State of Minnesota" in page
    page = whole_law(client, "tracy-mn", "2026-06-01")
    state = whole_law(client, "mn-statute", "2026-06-01")
    state_only = state.count('<li id="d-')
    here = page.count('<li id="d-')
    assert 0 < here and 0 < state_only
    # today's page links today's state page (no date in the link)
    assert (
        'href="/law/mn-statute/">Read the State of Minnesota' in client.get("/law/tracy-mn/").content.decode()
    )


def test_a_city_law_page_stays_under_200_kb(client):
    for city in ("battle-lake-mn", "tracy-mn"):
        assert len(client.get(f"/law/{city}/?on=2026-11-30").content) < 200_000, city


def test_a_missing_setting_and_a_problems_provisions_are_named_in_words_with_the_ids_in_the_fold(client):
    page = client.get("/law/battle-lake-mn/?on=2026-11-30").content.decode()
    part = provision_page(client, "battle-lake-mn", "battle-lake-mn:C.4")
    settings = page[page.index('id="settings"') : page.index("</section>", page.index('id="settings"'))]

    assert "<strong>When the 14 days to register the dangerous dog begin</strong>" in settings
    link = re.search(
        r'<a href="(/law/battle-lake-mn/[a-z0-9-]+/\?on=2026-11-30)#p-battle-lake-mn:C.4">§ 90.15 \(C\)\(4\)</a>',
        settings,
    )
    assert link and 'id="p-battle-lake-mn:C.4"' in part
    assert 'id="p-battle-lake-mn:C.4"' in client.get(html.unescape(link.group(1))).content.decode()
    fold = settings[settings.index('<details class="attorney">') :]
    assert fold.index("Details for the city attorney") < fold.index("registration_trigger")
    page = client.get("/law/battle-lake-mn/problems/?on=2026-11-30").content.decode()
    defects = page[page.index('id="defects"') : page.index("</section>", page.index('id="defects"'))]
    assert "Concerns:" not in defects
    assert "The provisions it touches: " in defects
    page = client.get("/law/battle-lake-mn/conflicts/?on=2026-11-30").content.decode()
    conflicts = page[page.index('id="conflicts"') : page.index("</section>", page.index('id="conflicts"'))]
    assert "<summary>Time to request a hearing to appeal the designation (14 days after receipt" in conflicts
    assert "<summary>deadline owner.request_hearing" not in conflicts
