"""No engine identifier reaches a staff page (issue 10 item 8, DESIGN principle 9).

The demo data of every city is loaded; then every demo user (every role, working for both cities) and an
anonymous visitor crawl the site from the home page and the Law page, following every link, every htmx partial
and every redirect, as a person clicking through would; each act form is also sent back empty once, to read
its messages. Each page's visible text — all of it outside the
"Details for the city attorney" fold — must hold no snake_case identifier, dotted engine name, pack key, file
name or YAML key with its value. The error pages (403, 404, 500) are scanned too. A second check makes sure
the crawl reached every URL pattern of the staff app, the Law page and the accounts (a page added later is
crawled the day a link leads to it, or this test says which one nothing links to).

The crawl is generic: nothing here names today's pages or today's words. To stay fast, the pages whose content
depends on who reads them (dashboards, case pages, act forms, search) are read by every role; any other page
is read once by whichever role reaches it first, and twice more per kind of page by each other role; one path
with different queries (the intake form's rows, a list's pages) is read three times in all.
"""

from __future__ import annotations

import html as html_lib
import os
import re
from collections import defaultdict
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.urls import NoReverseMatch, URLPattern, URLResolver, get_resolver, resolve, reverse
from django.urls.exceptions import Resolver404

from dogcase.cases.models import Case, Dog
from tests.staff.page_words import identifiers_on

pytestmark = pytest.mark.django_db

# Pages whose content depends on the reader's role: every role reads every one of them.
PER_ROLE = frozenset({"staff:home", "staff:case", "staff:act", "staff:search"})
# Forms also sent back empty, once each, to read their messages. Sent as of a case version that never exists,
# so nothing can be recorded: the form answers with its field messages, or says the case has moved on.
SENT_EMPTY = {"staff:act": {"version": "-1"}, "owners:file": {"version": "-1"}}
# Any other kind of page: read once by the first role to reach it, and this many more times by each role.
SAMPLES_PER_ROLE = 2
# The same path with other queries (another row of the intake form, another page of a list): this many in all.
QUERIES_PER_PATH = 3
# Prefixes not crawled: the Django admin (not staff pages), the JSON API, static files, stored evidence files,
# and logging out (reached through its form, which the coverage check counts).
NOT_PAGES = ("/admin/", "/api/", "/static/", "/files/", "/favicon.ico", "/accounts/logout/")
# Where a page leads: links, form actions (a POST-only action is reached through its form), htmx requests.
LINK_ATTRIBUTES = re.compile(r'\b(href|action|hx-get|hx-post|hx-put|hx-delete)="([^"]*)"')


def _links(page: str) -> list[tuple[str, str]]:
    out = []
    for attribute, raw in LINK_ATTRIBUTES.findall(page):
        url = html_lib.unescape(raw).split("#", 1)[0]
        if url.startswith("/") and not url.startswith("//"):
            out.append((attribute, url))
    return out


# URL patterns the demo data gives no page of, and why (the coverage check below leaves them out).
NOT_IN_THE_DEMO = {
    "staff:file": "the demo data stores no evidence file",
    "calendar_feed": "a calendar file (text/calendar) at a private address shown once, not a page",
    "documents:service_return": "the demo data has no letter by mail waiting for what comes back",
    "owners:link": "the owner's one-time sign-in link is sent by e-mail, not linked from a page",
    "staff:import_progress": "fetched every second only while a file is being read; the demo's files were read "
    "when it was seeded",
}


def _url_name(url: str) -> str | None:
    try:
        match = resolve(urlsplit(url).path)
    except Resolver404:
        return None
    return match.view_name


class Crawl:
    def __init__(self) -> None:
        self.offending: dict[str, list[str]] = defaultdict(list)  # words -> "url (reader)"
        self.read: set[str] = set()  # URLs read by anyone
        self.queries: dict[str, int] = defaultdict(int)  # path -> URLs with a query read, by anyone
        self.seen_names: set[str] = set()  # URL pattern names fetched or linked to
        self.pages = 0

    def check(self, url: str, reader: str, response) -> None:
        content_type = response.get("Content-Type", "")
        if "text/html" not in content_type:
            return
        found = identifiers_on(response.content.decode())
        if found:
            self.offending[f"{url} (as {reader}, HTTP {response.status_code})"] = found

    def walk(self, client: Client, reader: str, start: list[str]) -> None:
        todo = list(reversed(start))
        mine: set[str] = set()
        samples: dict[str, int] = defaultdict(int)
        while todo:
            url = todo.pop()
            if url in mine or url.startswith(NOT_PAGES):
                continue
            name = _url_name(url)
            query_keys = sorted(part.split("=", 1)[0] for part in urlsplit(url).query.split("&") if part)
            kind = f"{name}?{'&'.join(query_keys)}"  # the kind of page: its pattern and its query's keys
            first_reading = url not in self.read
            if name not in PER_ROLE and url in self.read:
                if samples[kind] >= SAMPLES_PER_ROLE:
                    continue
                samples[kind] += 1
            elif name not in PER_ROLE and query_keys and url not in self.read:
                path = urlsplit(url).path
                if self.queries[path] >= QUERIES_PER_PATH:
                    continue
                self.queries[path] += 1
            mine.add(url)
            self.read.add(url)
            response = client.get(url)
            self.pages += 1
            if name:
                self.seen_names.add(name)
            if response.status_code in (301, 302, 303):
                todo.append(response["Location"])
                continue
            self.check(url, reader, response)
            if "text/html" not in response.get("Content-Type", ""):
                continue
            if name in SENT_EMPTY and first_reading and response.status_code == 200:
                sent = client.post(url, SENT_EMPTY[name])
                self.pages += 1
                self.check(f"{url} sent empty", reader, sent)
            for attribute, link in _links(response.content.decode()):
                link_name = _url_name(link)
                if link_name:
                    self.seen_names.add(link_name)
                if attribute in ("href", "hx-get"):
                    todo.append(link)

    def report(self) -> str:
        """Each offending word with the pages it is on (the first three, then how many more)."""
        pages_of: dict[str, list[str]] = defaultdict(list)
        for page, words in sorted(self.offending.items()):
            for word in words:
                pages_of[word].append(page)
        lines = [
            f"  {word!r} on {'; '.join(pages[:3])}"
            + (f" and {len(pages) - 3} more" if len(pages) > 3 else "")
            for word, pages in sorted(pages_of.items())
        ]
        return (
            f"Engine identifiers in the visible text of {len(self.offending)} staff pages (say it in the words "
            "of the packs' labels, or put it behind the 'Details for the city attorney' fold):\n"
            + "\n".join(lines)
        )


def _pages_without_arguments() -> list[str]:
    """The URL of every pattern that takes no argument (a page reached after a form, like a password changed)."""
    out = []
    for name, _route in _staff_patterns():
        try:
            out.append(reverse(name))
        except NoReverseMatch:
            continue
    return out


def _staff_patterns(resolver=None, prefix: str = "", namespace: str = "") -> list[tuple[str, str]]:
    """Every named URL pattern outside the admin and the API: (view name, route)."""
    out = []
    for entry in (resolver or get_resolver()).url_patterns:
        route = prefix + str(entry.pattern)
        if route.startswith(("admin/", "api/")):
            continue
        if isinstance(entry, URLResolver):
            ns = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            out += _staff_patterns(entry, route, ns)
        elif isinstance(entry, URLPattern) and entry.name:
            out.append((f"{namespace}{entry.name}", route))
    return out


@pytest.fixture
def demo(settings):
    settings.DEBUG = True  # the development demo password
    with open(os.devnull, "w") as quiet:
        call_command("seed_demo", stdout=quiet)
    settings.DEBUG = False
    return {role.username: role for role in User.objects.filter(groups__isnull=False).distinct()}


def test_no_staff_page_of_the_demo_data_shows_an_engine_identifier(demo):
    crawl = Crawl()
    # the verification page of an issued document: its address is printed on the PDF, not linked from a page
    from dogcase.documents.models import IssuedDocument

    verify = [f"/verify/{d.verification_code}" for d in IssuedDocument.objects.order_by("pk")[:3]]
    crawl.walk(Client(), "a visitor", ["/", "/law/", "/accounts/login/", *verify])
    # searches: a case number, a dog's name, a word that finds nothing, a term too short to search for
    searches = [Case.objects.order_by("pk").first().number, Dog.objects.order_by("pk").first().name]
    searches = [f"/search?q={term}" for term in (*searches, "zzzzqqq", "a")]
    for username, user in sorted(demo.items()):
        client = Client()
        client.force_login(user)
        crawl.walk(client, username, ["/", "/law/", *searches, *_pages_without_arguments()])
    # the owner's portal, as the demo's owner signed in with her code and her dog's name
    from dogcase.owners import demo as owner_demo

    portal = owner_demo.portal_sign_in([])
    owner = Client()
    owner.post("/owner/", {"code": portal["code"], "fact": portal["dog"]})
    crawl.walk(owner, "the demo owner", ["/owner/"])
    assert crawl.pages > 100
    if crawl.offending:
        pytest.fail(crawl.report(), pytrace=False)
    unreached = sorted(
        f"{name} ({route})"
        for name, route in _staff_patterns()
        if name not in crawl.seen_names and name not in NOT_IN_THE_DEMO
    )
    assert not unreached, "No page of the demo data links to these URL patterns: " + "; ".join(unreached)


def test_the_error_pages_show_no_engine_identifier(demo, settings):
    settings.ROOT_URLCONF = "tests.staff.failing_urls"
    for user in (None, demo["auditor"], demo["officer"]):
        client = Client(raise_request_exception=False)
        if user is not None:
            client.force_login(user)
        case = Case.objects.order_by("pk").first()
        for url, status in (
            ("/cases/XX-0000-0000", 404 if user else 302),  # a visitor is asked to log in first
            ("/law/nowhere-mn/", 404),
            ("/no/such/page", 404),
            ("/fails-on-purpose", 500),
        ):
            response = client.get(url)
            assert response.status_code == status, (url, user)
            assert identifiers_on(response.content.decode()) == [], url
        if user is not None and user.username == "auditor":  # read-only: an act form is refused
            response = client.get(f"/cases/{case.number}/act/declare_dog")
            assert response.status_code == 403
            assert identifiers_on(response.content.decode()) == []


def test_the_scan_finds_what_it_must_and_leaves_the_attorneys_fold_alone():
    page = (
        "<p>Hold the hearing (notice_received).</p><p>quoted: false</p>"
        "<details class='x'><summary>More</summary>in force from: null</details>"
        '<details class="attorney"><summary>Details for the city attorney</summary>'
        "<details><summary>inner</summary>kept_inside</details>registration_trigger</details>"
        "<p>See facts.yaml, mn-statute:347.50.definitions; give an empty list; 9 a.m., e.g. Rex. None.</p>"
        "<p>Victim was: None of these</p>"
        '<a href="/x_y" title="a_b">Case</a>'
        # the name an owner gave a photo is theirs; the same words outside that span are the engine's
        '<p>Sent: <span class="file-name">photo_of.gate.png</span>, then rules.yaml</p>'
    )
    assert identifiers_on(page) == [
        "empty list",
        "facts.yaml",
        "in force from: null",
        "mn-statute:347.50.definitions",
        "notice_received",
        "quoted: false",
        "rules.yaml",
    ]
