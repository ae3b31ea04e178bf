"""The Django admin, for superusers: staff accounts and which cities they work for — nothing else. Day to day,
an administrator manages the accounts of their cities from the staff pages (dogcase.accounts.manage), audited.

Case records are deliberately not registered: they are written only by the legal-act functions, with their
audit events (DESIGN.md principle 5); an admin form would bypass both.
"""

from django.contrib import admin

from dogcase.cases.models import CityAccess


@admin.register(CityAccess)
class CityAccessAdmin(admin.ModelAdmin):
    list_display = ("user", "jurisdiction")
    list_filter = ("jurisdiction",)
    search_fields = ("user__username",)
