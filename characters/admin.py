from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.utils.translation import gettext_lazy as _

from characters.models import Player


@admin.register(Player)
class PlayerAdmin(UserAdmin):
    fieldsets = (
        *UserAdmin.fieldsets,
        (_("Chronique"), {"fields": ("display_name", "welcomed_at")}),
    )
    list_display = ("username", "email", "display_name", "is_staff", "date_joined")
    readonly_fields = ("welcomed_at",)
