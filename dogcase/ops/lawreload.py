"""A law pack written on a running server is taken into use without a restart: each web process looks at the
packs' files at most every DOGCASE_LAW_RELOAD_SECONDS (a stat of each file) and, when one was written, reads
them again — used from the next request if they load, refused (the law in use kept, the error logged) if not.
The new version is recorded, with an audit event in each city it touches (dogcase.cases.lawchanges)."""

from __future__ import annotations

import threading
import time

from django.conf import settings
from django.http import HttpRequest

from dogcase.cases.lawchanges import take_newer_law


class LawReload:
    def __init__(self, get_response):
        self.get_response = get_response
        self.every = settings.DOGCASE_LAW_RELOAD_SECONDS
        self.next_look = 0.0
        self.lock = threading.Lock()

    def __call__(self, request: HttpRequest):
        if self.every > 0 and time.monotonic() >= self.next_look and self.lock.acquire(blocking=False):
            try:
                self.next_look = time.monotonic() + self.every
                take_newer_law(record=False)
            finally:
                self.lock.release()
        return self.get_response(request)
