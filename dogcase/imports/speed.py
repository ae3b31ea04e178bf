"""What makes reading a file of a hundred thousand rows fast (dogcase.imports.walk): records built without
Django's constructor checks, the garbage collector kept off the application while a file is read, an e-mail
domain checked once, a dog's sex labelled from a table."""

from __future__ import annotations

import contextlib
import functools
import gc
import threading
from collections.abc import Callable, Iterator
from typing import Any

from django.core.validators import EmailValidator
from django.db.models.base import ModelState
from django.db.models.signals import post_init, pre_init
from django.utils.encoding import force_str

from dogcase.cases.models import Dog


@functools.cache
def maker(model) -> Callable[..., Any]:
    """`model(**values)` for a new record, in a fraction of the time: its values set straight on the object, as
    Model.__init__ sets them (each field not in `values` its default), without the keyword arguments' checks
    (`values` are fields of the model, never a related object). With a receiver of the pre_init or post_init
    signal, the model's own constructor."""
    fields = model._meta.concrete_fields
    attname = {f.name: f.attname for f in fields}
    static = {f.attname: f.get_default() for f in fields if not (f.has_default() and callable(f.default))}
    per_object = [f for f in fields if f.has_default() and callable(f.default)]

    def make(**values: Any) -> Any:
        if pre_init.receivers or post_init.receivers:  # someone listens (to some model): as Django builds it
            return model(**values)
        obj = model.__new__(model)
        obj._state = ModelState()
        given = obj.__dict__
        given.update(static)
        for f in per_object:
            given[f.attname] = f.get_default()
        for name, value in values.items():
            given[attname[name]] = value
        return obj

    return make


_collector_lock = threading.Lock()
# the walks under way in the process, and the collector's thresholds before the first of them
_collector_held: list = [0, None]
YOUNG_OBJECTS = 50_000  # the collector's first threshold while a file is read (Python's own: 2,000)


@contextlib.contextmanager
def collector_leaves_the_application_alone() -> Iterator[None]:
    """While a file is read, the garbage collector leaves the application alone: the objects there before the
    file (Django, the law library: most of the process) are out of its full passes (gc.freeze), and its
    young pass waits for many more new objects than it usually does (a file makes hundreds of thousands that
    live for a thousand rows: each pass walked them again, and each full pass the whole application: a tenth
    of the time of an import of ten thousand dogs). Both are given back when the last walk of the process
    ends."""
    with _collector_lock:
        if not _collector_held[0]:
            _collector_held[1] = gc.get_threshold()
            gc.freeze()
            gc.set_threshold(YOUNG_OBJECTS, *_collector_held[1][1:])
        _collector_held[0] += 1
    try:
        yield
    finally:
        with _collector_lock:
            _collector_held[0] -= 1
            if not _collector_held[0]:
                gc.set_threshold(*_collector_held[1])
                gc.unfreeze()


class _RememberingEmailValidator(EmailValidator):
    """Django's e-mail validator (validate_email), each domain's verdict remembered: a file's addresses share a
    few domains, and checking the domain was most of the time of checking an address."""

    def __init__(self) -> None:
        super().__init__()
        self._domains: dict[str, bool] = {}

    def validate_domain_part(self, domain_part: str) -> bool:
        verdict = self._domains.get(domain_part)
        if verdict is None:
            if len(self._domains) >= 10_000:
                self._domains.clear()
            verdict = self._domains[domain_part] = super().validate_domain_part(domain_part)
        return verdict


validate_email = _RememberingEmailValidator()


class SexLabelled:
    """A dog as its `description` reads it, its sex's label (get_sex_display) from a table made once per thousand
    records: Django's get_FOO_display rebuilds the field's choices at each call, which was most of the time of
    a dog's event. Anything else is the dog's."""

    __slots__ = ("_dog", "_labels")

    def __init__(self, dog: Dog, labels: dict) -> None:
        self._dog, self._labels = dog, labels

    @staticmethod
    def labels() -> dict:
        """value -> label as Model._get_FIELD_display gives it."""
        return {
            value: force_str(label, strings_only=True)
            for value, label in Dog._meta.get_field("sex").flatchoices
        }

    def __getattr__(self, name: str) -> Any:
        return getattr(self._dog, name)

    def get_sex_display(self) -> Any:
        sex = self._dog.sex
        return self._labels.get(sex, force_str(sex, strings_only=True))
