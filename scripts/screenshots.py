"""Screenshots of the officer's and the clerk's dashboards of the demo data, at 1280 and 390 px wide, into
docs/screenshots/ (referenced from the README). Headless Debian Chromium, launched as the browser tests launch
it; the demo data in a throwaway database, served in this process.

    .venv/bin/python scripts/screenshots.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import threading
from pathlib import Path
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

CHROMIUM = "/usr/bin/chromium"
PASSWORD = "Screenshots-demo-only-2026"  # noqa: S105 - a throwaway database
SHOTS = [("officer", 1280), ("officer", 390), ("clerk", 1280), ("clerk", 390)]


class _Quiet(WSGIRequestHandler):
    def log_message(self, *args):
        pass


class _ThreadedServer(WSGIServer):
    daemon_threads = True

    def process_request(self, request, client_address):
        threading.Thread(target=self._handle, args=(request, client_address), daemon=True).start()

    def _handle(self, request, client_address):
        try:
            self.finish_request(request, client_address)
        finally:
            self.shutdown_request(request)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    var = tempfile.mkdtemp(prefix="dogcase-screens-")
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DOGCASE_VAR_DIR=var,
        DOGCASE_DEMO_PASSWORD=PASSWORD,
        DEBUG="True",
        ALLOWED_HOSTS="127.0.0.1,localhost",
    )
    os.environ.pop("DATABASE_URL", None)
    import django

    django.setup()
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.core.management import call_command
    from django.core.wsgi import get_wsgi_application

    call_command("migrate", verbosity=0)
    call_command("seed_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115

    server = make_server(
        "127.0.0.1", 0, StaticFilesHandler(get_wsgi_application()), _ThreadedServer, handler_class=_Quiet
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"

    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import CHROMIUM_ARGS

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        for username, width in SHOTS:
            context = browser.new_context(viewport={"width": width, "height": 800 if width > 600 else 844})
            page = context.new_page()
            page.goto(base + "/accounts/login/")
            page.get_by_label("Username").fill(username)
            page.get_by_label("Password").fill(PASSWORD)
            page.get_by_role("button", name="Log in").click()
            page.wait_for_url(base + "/")
            path = out / f"dashboard-{username}-{width}.png"
            page.screenshot(path=str(path), full_page=True)
            print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
            context.close()
        browser.close()
    server.shutdown()
    shutil.rmtree(var, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
