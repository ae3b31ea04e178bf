from django.contrib import admin

from dogcase.accounts.models import LoginThrottle


@admin.register(LoginThrottle)
class LoginThrottleAdmin(admin.ModelAdmin):
    """Failed-login counts: an administrator deletes a row to lift a lock before it ends by itself."""

    list_display = ("key", "failures", "first_failure_at", "locked_until")
    search_fields = ("key",)
    readonly_fields = ("key", "failures", "first_failure_at", "locked_until")

    def has_add_permission(self, request) -> bool:
        return False
