"""The project's URLs and one more for bench/scale.py's pages: an empty staff view, the floor of a request
(the same client, middleware, session and user as a staff page, no query of its own, no template)."""

from django.http import HttpResponse
from django.urls import path

from config.urls import handler500
from config.urls import urlpatterns as project
from dogcase.cases.guards import staff_required


@staff_required
def empty(request):
    return HttpResponse(b"", content_type="text/plain")


# last, as a staff page's patterns come last: a request to it is resolved as theirs are
urlpatterns = [*project, path("bench/empty", empty)]

__all__ = ["handler500", "urlpatterns"]
