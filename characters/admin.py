"""The admin shows players and their Of the Dead profiles to staff, read-only: every change
goes through the services, which validate and write the history the admin would skip."""

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.utils.translation import gettext_lazy as _

from characters.models import Player, Profile, Trauma


class ReadOnly:
    """Mixed into every admin class of Chronique (both apps): nothing is added, changed or
    deleted here."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyInline(ReadOnly, admin.TabularInline):
    """The rows of an object shown on its page, read-only like the rest."""

    extra = 0


@admin.register(Player)
class PlayerAdmin(ReadOnly, UserAdmin):
    fieldsets = (
        *UserAdmin.fieldsets,
        (_("Chronique"), {"fields": ("display_name", "welcomed_at")}),
    )
    list_display = ("username", "email", "display_name", "is_staff", "date_joined")


class TraumaInline(ReadOnlyInline):
    model = Trauma


@admin.register(Profile)
class ProfileAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("player", "status", "survival_points", "version")
    list_filter = ("status",)
    inlines = [TraumaInline]
