"""Access checks shared by the pages of every app. Every one runs on the server, for every request.

A record of a city the user does not work for is answered 404, not 403, so that a case number or file id
does not reveal that the record exists.
"""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import render

from dogcase.cases.access import READ_ONLY, RECORD_KEEPERS, cities_of, read_access, staff_roles
from dogcase.cases.pages import not_installed
from dogcase.law import UnknownJurisdiction


def staff_required(view):
    """Logged in, and holding at least one staff role (a user with no role sees nothing)."""

    @login_required
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        # the user's roles, cities and offices in one statement: nearly every staff page asks for all three
        read_access(request.user)
        if not staff_roles(request.user):
            raise PermissionDenied("You have no staff role yet — ask an administrator.")
        try:
            return view(request, *args, **kwargs)
        except UnknownJurisdiction as exc:
            # a record of a city whose law pack was removed or renamed: nothing can be done under its law
            context = {"jurisdiction": exc.jurisdiction, "message": not_installed(exc.jurisdiction)}
            return render(request, "staff/not_installed.html", context, status=503)

    return wrapped


def is_read_only(user) -> bool:
    roles = staff_roles(user)
    return not roles or roles <= READ_ONLY


def require_writer(user) -> None:
    """The auditor role is read-only: refused before any act is attempted."""
    if is_read_only(user):
        raise PermissionDenied("Your role is read-only.")


def may_record(user) -> bool:
    return bool(staff_roles(user) & RECORD_KEEPERS)


def in_cities(queryset, user, **lookup):
    """The one record matching `lookup` in the user's cities, or 404."""
    try:
        return queryset.get(jurisdiction__in=cities_of(user), **lookup)
    except queryset.model.DoesNotExist:
        raise Http404("No such record in your cities.") from None
