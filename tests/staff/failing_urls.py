"""The project's URLs and one view that fails, to show the server-error page as production serves it."""

from django.urls import path

from config.urls import urlpatterns as project_urlpatterns


def fails_on_purpose(request):
    raise RuntimeError("a failure in a view, on purpose")


urlpatterns = [path("fails-on-purpose", fails_on_purpose), *project_urlpatterns]
