from django.contrib import admin
from django.urls import include, path

from dogcase.api import api

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("dogcase.accounts.urls")),
    path("api/v1/", api.urls),
    path("law/", include("dogcase.law_pages.urls")),
    path("", include("dogcase.staff.urls")),
]
