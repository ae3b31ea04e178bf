from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from dogcase.accounts import calendar_feed, manage, notices, throttle
from dogcase.accounts.forms import LoginForm, ThrottledPasswordChangeForm
from dogcase.accounts.middleware import IDLE_LOGOUT
from dogcase.accounts.models import CalendarFeed
from dogcase.cases.access import cities_of
from dogcase.cases.pages import city_names
from dogcase.cases.roles import ROLES, roles_of


class LoginView(auth_views.LoginView):
    form_class = LoginForm

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["idle_logout"] = self.request.session.pop(IDLE_LOGOUT, False)
        return context

    def form_valid(self, form):
        user = form.get_user()
        last_login, now = user.last_login, timezone.now()  # before this login moves it on
        response = super().form_valid(form)
        throttle.set_known_device(response, user, self.request)
        for notice in (
            notices.own_locks_notice(user, now),
            notices.administrator_notice(user, last_login, now),
        ):
            if notice:
                messages.warning(self.request, notice)
        return response

    def form_invalid(self, form):
        locked_out = form.has_error("__all__", "locked_out")
        context = self.get_context_data(form=form, locked_out=locked_out)
        return self.render_to_response(context, status=429 if locked_out else 200)


class PasswordChangeView(auth_views.PasswordChangeView):
    template_name = "registration/password_change.html"
    form_class = ThrottledPasswordChangeForm

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "request": self.request}

    def form_invalid(self, form):
        status = 429 if form.has_error("old_password", "locked_out") else 200
        return self.render_to_response(self.get_context_data(form=form), status=status)

    def form_valid(self, form):
        response = super().form_valid(form)
        throttle.set_known_device(response, form.user, self.request)  # the new password made it unknown
        return response


class PasswordChangeDoneView(auth_views.PasswordChangeDoneView):
    template_name = "registration/password_changed.html"


# -- staff accounts, managed by a user administrator (dogcase.accounts.manage) -----------------------------


def _account_row(user, admin_cities) -> dict:
    roles = set(user.groups.values_list("name", flat=True))
    cities = sorted(a.jurisdiction for a in user.city_access.all())
    return {
        "user": user,
        "name": user.get_full_name() or user.username,
        "roles": [role.label for role in ROLES if role.group in roles],
        "cities": [manage.city_name(c) for c in cities if c in admin_cities],
        "other_cities": sum(1 for c in cities if c not in admin_cities),
    }


def _choices(admin) -> dict:
    return {
        "role_choices": [(role.group, role.label) for role in ROLES],
        "city_choices": [(c, manage.city_name(c)) for c in cities_of(admin)],
    }


@login_required
def user_list(request):
    manage.require_user_administrator(request.user)
    mine = set(cities_of(request.user))
    rows = [_account_row(u, mine) for u in manage.manageable_users(request.user)]
    return render(
        request,
        "accounts/user_list.html",
        {
            "rows": rows,
            "cities": [manage.city_name(c) for c in sorted(mine)],
            "locks": notices.recent_lock_rows(request.user, timezone.now()),
        },
    )


@login_required
def user_new(request):
    admin = request.user
    manage.require_user_administrator(admin)
    errors: dict[str, str] = {}
    values = {"roles": [], "cities": list(cities_of(admin)) if len(cities_of(admin)) == 1 else []}
    status = 200
    if request.method == "POST":
        values = {
            "username": request.POST.get("username", "").strip(),
            "first_name": request.POST.get("first_name", "").strip()[:150],
            "last_name": request.POST.get("last_name", "").strip()[:150],
            "email": request.POST.get("email", "").strip()[:254],
            "roles": request.POST.getlist("roles"),
            "cities": request.POST.getlist("cities"),
        }
        try:
            user = manage.create_user(actor=admin, password=request.POST.get("password", ""), **values)
        except manage.AccountProblem as problem:
            errors[problem.field] = problem.message
            status = 400
        else:
            messages.success(
                request,
                f"Created the account {user.username}. Give them the password you set; "
                "they can change it from Password in the header.",
            )
            return redirect("account_user", pk=user.pk)
    context = {"values": values, "errors": errors, **_choices(admin)}
    return render(request, "accounts/user_new.html", context, status=status)


@login_required
def user_detail(request, pk: int):
    admin = request.user
    manage.require_user_administrator(admin)
    User = get_user_model()
    user = manage.manageable_users(admin).filter(pk=pk).first() or User.objects.filter(pk=pk).first()
    if user is None:
        raise Http404("No such user.")
    errors: dict[str, str] = {}
    status = 200
    if request.method == "POST":
        try:
            if request.POST.get("action") == "offices":
                manage.set_offices(user, actor=admin, offices=request.POST.getlist("offices"))
                messages.success(request, f"Saved the offices {user.username} holds.")
            elif request.POST.get("action") in ("deactivate", "reactivate"):
                active = request.POST["action"] == "reactivate"
                manage.set_active(user, actor=admin, active=active)
                if not manage.manageable_users(admin).filter(pk=user.pk).exists():
                    # it serves another city: only its access to this administrator's cities was removed
                    messages.success(
                        request,
                        f"Removed the access of {user.username} to your cities. The account stays open for "
                        "the other cities it works for.",
                    )
                    return redirect("account_users")
                messages.success(
                    request, f"{'Reactivated' if active else 'Deactivated'} the account {user.username}."
                )
            else:
                manage.change_access(
                    user,
                    actor=admin,
                    roles=request.POST.getlist("roles"),
                    cities=request.POST.getlist("cities"),
                )
                messages.success(request, f"Saved the roles and cities of {user.username}.")
            return redirect("account_user", pk=user.pk)
        except manage.AccountProblem as problem:
            errors[problem.field] = problem.message
            status = 400
    else:
        manage.check_managed(admin, user)
    mine = set(cities_of(admin))
    context = {
        "account": user,
        "row": _account_row(user, mine),
        "roles": set(user.groups.values_list("name", flat=True)),
        "cities": {a.jurisdiction for a in user.city_access.all()},
        "errors": errors,
        "is_self": user.pk == admin.pk,
        "offices": manage.office_choices(admin, user),
        **_choices(admin),
    }
    return render(request, "accounts/user_detail.html", context, status=status)


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
