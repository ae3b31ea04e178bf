"""The admin edits what a city supplies for its documents beside its law pack (offices' addresses and
telephones, the letterhead's). Issued documents are not registered: they are written only by the acts."""

from django.contrib import admin

from dogcase.documents.models import CityOffice


@admin.register(CityOffice)
class CityOfficeAdmin(admin.ModelAdmin):
    list_display = ("jurisdiction", "office", "address", "telephone", "updated_at")
    list_filter = ("jurisdiction",)
