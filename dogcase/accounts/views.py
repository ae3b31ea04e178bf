from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from dogcase.accounts import calendar_feed
from dogcase.accounts.forms import LoginForm
from dogcase.accounts.middleware import IDLE_LOGOUT
from dogcase.accounts.models import CalendarFeed
from dogcase.cases.access import cities_of
from dogcase.staff.roles import roles_of
from dogcase.staff.views.common import city_names


class LoginView(auth_views.LoginView):
    form_class = LoginForm

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["idle_logout"] = self.request.session.pop(IDLE_LOGOUT, False)
        return context

    def form_invalid(self, form):
        locked_out = form.has_error("__all__", "locked_out")
        context = self.get_context_data(form=form, locked_out=locked_out)
        return self.render_to_response(context, status=429 if locked_out else 200)


class PasswordChangeView(auth_views.PasswordChangeView):
    template_name = "registration/password_change.html"


class PasswordChangeDoneView(auth_views.PasswordChangeDoneView):
    template_name = "registration/password_changed.html"


@login_required
def account(request):
    """The user's own page: their roles and cities, the password, and their private calendar address."""
    return _account_page(request)


@login_required
@require_POST
def calendar_issue(request):
    token = calendar_feed.issue_feed(request.user, at=timezone.now())
    url = request.build_absolute_uri(reverse("calendar_feed", args=[token]))
    # shown once, in this answer only: the address is not stored and cannot be shown again
    return _account_page(request, new_feed_url=url)


@login_required
@require_POST
def calendar_revoke(request):
    if calendar_feed.revoke_feed(request.user):
        messages.success(request, "Your calendar address no longer works. Calendars using it stop updating.")
    return redirect("account")


def _account_page(request, **extra):
    user = request.user
    feed = CalendarFeed.objects.filter(user=user).first()
    context = {
        "roles": roles_of(user),
        "cities": city_names(cities_of(user)).values(),
        "feed": feed,
        **extra,
    }
    return render(request, "accounts/account.html", context)
