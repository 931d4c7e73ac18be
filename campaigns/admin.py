from django.contrib import admin

from campaigns.models import Campaign, CampaignEvent, Membership


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ("name", "system", "organiser", "created_at")
    list_filter = ("system",)
    search_fields = ("name",)
    inlines = [MembershipInline]


@admin.register(CampaignEvent)
class CampaignEventAdmin(admin.ModelAdmin):
    """History is append-only: the admin may read it, never change it."""

    list_display = ("at", "campaign", "actor", "verb")
    readonly_fields = ("campaign", "actor", "at", "verb", "data")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
