from django.contrib import admin
from django.urls import include, path

from dogcase.api import api
from dogcase.documents.feeds import calendar_feed

urlpatterns = [
    # The API first: its calls are the most frequent, and a path tried against the admin's patterns first pays
    # for listing every one of them when they miss.
    path("api/v1/", api.urls),
    path("admin/", admin.site.urls),
    path("accounts/", include("dogcase.accounts.urls")),
    path("law/", include("dogcase.law_pages.urls")),
    path("calendar/<str:token>.ics", calendar_feed, name="calendar_feed"),
    path("", include("dogcase.owners.urls")),
    path("staff/proofs/", include("dogcase.proofs.urls")),
    path("", include("dogcase.documents.urls")),
    path("", include("dogcase.staff.urls")),
]

# The 500 page sets the security headers itself (dogcase.ops.errors).
handler500 = "dogcase.ops.errors.server_error"
