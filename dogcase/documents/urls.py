from django.urls import path

from dogcase.documents import service_views, views

app_name = "documents"

urlpatterns = [
    path("verify/<str:code>", views.verify, name="verify"),
    path("documents/<int:pk>.pdf", views.download, name="download"),
    path("documents/<int:pk>/correct", views.correct, name="correct"),
    path("cases/<str:number>/act/<slug:step_id>/draft", views.draft, name="draft"),
    path("documents/<int:pk>/service", service_views.record_attempt, name="service_attempt"),
    path(
        "documents/<int:pk>/service/<int:number>/return", service_views.record_return, name="service_return"
    ),
    path(
        "documents/<int:pk>/service/<int:number>/article",
        service_views.record_article,
        name="service_article",
    ),
    path("staff/mailing-sheet", service_views.mailing_sheet, name="mailing_sheet"),
]
