"""Headless Chromium (Debian's /usr/bin/chromium) driven by Playwright's sync API.

Outside CI, browser tests skip when Chromium is missing (`make browsers` installs it). In CI they always
run: `make test` installs Chromium first, so a missing browser there is a failure, not a skip.
"""

import os
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in the main thread; Django would otherwise refuse ORM calls there.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = Path("/usr/bin/chromium")
# Without the background-networking flags Chromium keeps dialling out, which this closed network refuses.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    browser_items = [item for item in items if here in Path(item.fspath).parents]
    for item in browser_items:
        item.add_marker(pytest.mark.browser)
        if not CHROMIUM.exists() and not os.getenv("CI"):
            item.add_marker(pytest.mark.skip(reason=f"{CHROMIUM} is missing; `make browsers` installs it"))


@pytest.fixture
def browser():
    from django.db import connections
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
        # Django keys connections by context variable, and Playwright's greenlets give the test its own
        # context: close what the test opened there, or PostgreSQL refuses to drop the test database.
        connections.close_all()


@pytest.fixture
def page(browser):
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()
