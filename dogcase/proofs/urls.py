from django.urls import path

from dogcase.proofs import views

app_name = "proofs"

urlpatterns = [
    path("", views.queue, name="queue"),
    path("<int:pk>/", views.detail, name="detail"),
    path("<int:pk>/accept", views.accept, name="accept"),
    path("<int:pk>/reject", views.reject, name="reject"),
    path("<int:pk>/files/<int:file_pk>", views.download, name="file"),
    path("cases/<str:number>/<str:condition>/record", views.record, name="record"),
]
