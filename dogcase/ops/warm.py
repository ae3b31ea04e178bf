"""A web process made ready before its first request: the law packs read, then what the process holds for its
whole life moved out of the cyclic garbage collector's sight.

Python's collector walks every object it tracks at each full collection: after Django, the templates' code and
the law packs (about 100,000 objects in a web process), a full collection costs tens of milliseconds and falls
in whichever request happens to allocate past the threshold, so it shows as a slow request now and then, not in
the median. `gc.freeze()` moves the objects alive at that point into a permanent generation that no collection
walks (they live until the process ends anyway). A law pack read again later (dogcase.ops.lawreload) is an
ordinary object again and is collected as usual; the frozen, superseded pack stays until the worker is recycled
(gunicorn's max_requests, config/gunicorn.py)."""

from __future__ import annotations

import gc
import logging

log = logging.getLogger(__name__)


def ready_for_requests() -> int:
    """Read the law packs, collect what starting left behind, and freeze the rest: the number of objects frozen.
    Packs that do not load do not stop the process from starting: the error is logged, and the requests that
    need the law meet it as they did before (a city's pages answer with the error, the rest of the site works)."""
    from dogcase.law import library

    try:
        library()
    except Exception:
        log.exception("the law packs did not load before the first request")
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
