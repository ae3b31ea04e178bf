from django.urls import path

from dogcase.documents import views

app_name = "documents"

urlpatterns = [
    path("verify/<str:code>", views.verify, name="verify"),
    path("documents/<int:pk>.pdf", views.download, name="download"),
    path("documents/<int:pk>/correct", views.correct, name="correct"),
    path("cases/<str:number>/act/<slug:step_id>/draft", views.draft, name="draft"),
]
