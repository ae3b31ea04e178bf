from __future__ import annotations

from django.contrib.auth import views as auth_views

from dogcase.accounts.forms import LoginForm
from dogcase.accounts.middleware import IDLE_LOGOUT


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
