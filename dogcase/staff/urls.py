from django.urls import path

from dogcase.staff import views

app_name = "staff"

urlpatterns = [
    path("", views.home, name="home"),
]
