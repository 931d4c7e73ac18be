"""Campaigns, their history and their chapters with the close record, read-only for staff:
every change goes through the services, which write the history the admin would skip."""

from django.contrib import admin

from campaigns.models import (
    Campaign,
    CampaignEvent,
    Chapter,
    ChapterOutcome,
    ChapterUnitEntry,
    ChapterUnitResult,
    Membership,
)
from characters.admin import ReadOnly, ReadOnlyInline


class MembershipInline(ReadOnlyInline):
    model = Membership


@admin.register(Campaign)
class CampaignAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("name", "system", "organiser", "created_at")
    list_filter = ("system",)
    search_fields = ("name",)
    inlines = [MembershipInline]


@admin.register(CampaignEvent)
class CampaignEventAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("at", "campaign", "actor", "verb")


class ChapterOutcomeInline(ReadOnlyInline):
    model = ChapterOutcome


class ChapterUnitResultInline(ReadOnlyInline):
    model = ChapterUnitResult


class ChapterUnitEntryInline(ReadOnlyInline):
    model = ChapterUnitEntry


@admin.register(Chapter)
class ChapterAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("campaign", "number", "title", "status", "closed_at", "settled_at")
    list_filter = ("status",)
    inlines = [ChapterOutcomeInline, ChapterUnitResultInline, ChapterUnitEntryInline]
