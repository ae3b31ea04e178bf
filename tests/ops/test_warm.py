"""A web process is made ready before its first request (config/wsgi.py, dogcase/ops/warm.py): the law packs
read, and the objects alive then frozen out of the garbage collector's full collections."""

from __future__ import annotations

import gc
import importlib
import sys

import pytest

from dogcase.law import loader


@pytest.fixture
def unfrozen():
    gc.unfreeze()
    yield
    gc.unfreeze()  # the rest of the suite runs with nothing frozen


def test_ready_reads_the_law_and_freezes_what_is_alive(unfrozen):
    from dogcase.ops.warm import ready_for_requests

    loader.forget_loaded()
    assert gc.get_freeze_count() == 0
    frozen = ready_for_requests()
    assert loader._LOADED, "the law packs are read before the first request"
    library = next(iter(loader._LOADED.values())).library
    assert frozen > 0 and gc.get_freeze_count() > 0
    # the packs read are among what no full collection walks any more: tracked objects are either frozen or not
    # in any generation a collection looks at
    assert not any(library is o for o in gc.get_objects()), "the law packs are frozen, not collected"


def test_the_wsgi_application_is_made_ready_when_it_is_loaded(unfrozen):
    sys.modules.pop("config.wsgi", None)
    module = importlib.import_module("config.wsgi")
    assert callable(module.application)
    assert gc.get_freeze_count() > 0


def test_packs_that_do_not_load_do_not_stop_the_process(unfrozen, monkeypatch, caplog):
    from dogcase.law import PackError
    from dogcase.ops import warm

    def broken():
        raise PackError("pack.yaml", None, "a broken pack")

    monkeypatch.setattr("dogcase.law.library", broken)
    assert warm.ready_for_requests() > 0
    assert "did not load" in caplog.text and "a broken pack" in caplog.text
