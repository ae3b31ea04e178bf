"""Every staff page prints cleanly (a print stylesheet); the case page prints as a case summary (issue 8,
item 7). The browser test (tests/browser/test_print_browser.py) prints the case page to PDF."""

import re

from django.contrib.staticfiles import finders

from tests.staff.conftest import client_for, declare, record_bite


def test_every_page_links_the_print_stylesheet(officer):
    client = client_for(officer)
    for path in ("/", "/cases/", "/dogs/", "/people/", "/incidents/", "/law/", "/accounts/"):
        html = client.get(path).content.decode()
        assert re.search(r'<link rel="stylesheet" href="/static/dogcase/print\.css" media="print">', html), (
            path
        )


def test_the_print_stylesheet_hides_navigation_buttons_and_forms():
    css = open(finders.find("dogcase/print.css"), encoding="utf-8").read()
    hidden = re.search(r"([^{}]*)\{\s*display:\s*none\s*!important;\s*\}", css).group(1)
    for selector in (
        ".site-header",
        ".nav",
        ".search-bar",
        "button",
        ".button",
        "form",
        "#next",
        ".no-print",
    ):
        assert re.search(rf"(^|[\s,]){re.escape(selector)}([\s,]|$)", hidden), selector
    assert "@page" in css and "break-inside: avoid" in css
    assert 'a[href^="http"]::after' in css  # outside links print their address


def test_the_case_page_carries_its_summary_heading_for_print(officer):
    case = record_bite(officer, dog_name="Biscuit")
    declare(case, officer)
    html = client_for(officer).get(f"/cases/{case.number}").content.decode()
    assert '<div class="print-only summary-head">' in html and "Case summary" in html
    assert "data-print" in html and "/static/dogcase/print.js" in html
    assert "{{" not in html and "{%" not in html  # no template text left unrendered
