from django.urls import path

from dogcase.law_pages import views

app_name = "law_pages"

urlpatterns = [
    path("", views.jurisdiction_list, name="list"),
    path("<slug:jurisdiction_id>/", views.jurisdiction_law, name="show"),
    path("<slug:jurisdiction_id>/<slug:part>/", views.law_part, name="part"),
]
