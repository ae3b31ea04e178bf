from django.contrib.auth import views as auth_views
from django.urls import path

from dogcase.accounts import views

urlpatterns = [
    path("", views.account, name="account"),
    path("calendar/new", views.calendar_issue, name="calendar_issue"),
    path("calendar/revoke", views.calendar_revoke, name="calendar_revoke"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/", views.PasswordChangeView.as_view(), name="password_change"),
    path("password/done/", views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("users/", views.user_list, name="account_users"),
    path("users/new", views.user_new, name="account_user_new"),
    path("users/<int:pk>", views.user_detail, name="account_user"),
]
