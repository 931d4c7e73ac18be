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


# --- Of the Dead profiles (read-only: every change goes through characters.profiles.services)
from characters.models import Profile, Trauma  # noqa: E402


class TraumaInline(admin.TabularInline):
    model = Trauma
    extra = 0

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("player", "status", "survival_points", "version")
    list_filter = ("status",)
    inlines = [TraumaInline]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
