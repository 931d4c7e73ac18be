from django.contrib import admin

from campaigns.models import Campaign, CampaignEvent, Membership


class ReadOnly:
    """Staff read campaigns here; every change goes through campaigns.services, which
    writes the history the admin would skip."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class MembershipInline(ReadOnly, admin.TabularInline):
    model = Membership
    extra = 0


@admin.register(Campaign)
class CampaignAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("name", "system", "organiser", "created_at")
    list_filter = ("system",)
    search_fields = ("name",)
    inlines = [MembershipInline]


@admin.register(CampaignEvent)
class CampaignEventAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("at", "campaign", "actor", "verb")


# --- Of the Dead campaigns: chapters and their close record (read-only) ---------------------
from campaigns.models import Chapter, ChapterOutcome, ChapterUnitResult  # noqa: E402


class ChapterOutcomeInline(ReadOnly, admin.TabularInline):
    model = ChapterOutcome
    extra = 0


class ChapterUnitResultInline(ReadOnly, admin.TabularInline):
    model = ChapterUnitResult
    extra = 0


@admin.register(Chapter)
class ChapterAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("campaign", "number", "title", "status", "closed_at", "settled_at")
    list_filter = ("status",)
    inlines = [ChapterOutcomeInline, ChapterUnitResultInline]


# --- KOLAPS units entered into chapters (read-only) -----------------------------------------
from campaigns.models import ChapterUnitEntry  # noqa: E402


class ChapterUnitEntryInline(ReadOnly, admin.TabularInline):
    model = ChapterUnitEntry
    extra = 0


ChapterAdmin.inlines = [*ChapterAdmin.inlines, ChapterUnitEntryInline]
