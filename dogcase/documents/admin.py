"""The admin shows what a city supplies for its documents beside its law pack (offices' addresses and telephones,
the letterhead's), read-only: they are changed on the City settings page, where each change is audited in the
city's chain (dogcase.documents.offices). Issued documents are not registered: they are written only by the acts."""

from django.contrib import admin

from dogcase.documents.models import CityOffice


@admin.register(CityOffice)
class CityOfficeAdmin(admin.ModelAdmin):
    list_display = ("jurisdiction", "office", "address", "telephone", "updated_at")
    list_filter = ("jurisdiction",)

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
