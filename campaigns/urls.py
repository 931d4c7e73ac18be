"""Routes of `campaigns`: campaigns, their chapters, votes and calendar, the settlement and
the leaderboards.

`urlpatterns` are the pages, `api_urlpatterns` their API twins (mounted under /api/v1/ by
config/urls.py). Every route has its rows in tests/test_authorization_matrix.py.
"""

from django.urls import path

from campaigns import api, views
from campaigns.chapters import api as chapters_api
from campaigns.chapters import views as chapters_views
from campaigns.dashboard import api as dashboard_api
from campaigns.dashboard import views as dashboard_views
from campaigns.notifications import api as notifications_api
from campaigns.notifications import views as notifications_views
from campaigns.rules_settings import api as rules_settings_api
from campaigns.rules_settings import views as rules_settings_views
from campaigns.settlement import api as settlement_api
from campaigns.settlement import views as settlement_views
from campaigns.transfer import api as transfer_api
from campaigns.transfer import views as transfer_views

urlpatterns = [
    path("campaigns/", views.campaign_list, name="campaign-list"),
    path("campaigns/new/", views.campaign_create, name="campaign-create"),
    path("campaigns/<int:pk>/", views.campaign_detail, name="campaign-detail"),
    path("campaigns/<int:pk>/edit/", views.campaign_edit, name="campaign-edit"),
    path("campaigns/import/", transfer_views.campaign_import, name="campaign-import"),
    path("campaigns/<int:pk>/export.json", transfer_views.campaign_export, name="campaign-export"),
    path(
        "campaigns/<int:pk>/invitations/",
        views.invitation_create,
        name="invitation-create",
    ),
    path(
        "campaigns/<int:pk>/invitations/<int:invitation>/revoke/",
        views.invitation_revoke,
        name="invitation-revoke",
    ),
    path("join/<str:token>/", views.campaign_join, name="campaign-join"),
    path("campaigns/<int:pk>/leave/", views.campaign_leave, name="campaign-leave"),
    path(
        "campaigns/<int:pk>/co-organisers/",
        views.campaign_co_organisers,
        name="campaign-co-organisers",
    ),
    path("campaigns/<int:pk>/chapters/new/", chapters_views.chapter_create, name="chapter-create"),
    path("campaigns/<int:pk>/votes/new/", chapters_views.vote_open, name="vote-open"),
    path(
        "campaigns/<int:pk>/leaderboard/",
        settlement_views.campaign_leaderboard,
        name="campaign-leaderboard",
    ),
    path("chapters/upcoming/", chapters_views.upcoming, name="chapter-upcoming"),
    path("profile/sheet/", chapters_views.profile_sheet, name="profile-sheet"),
    path("chapters/<int:pk>/", chapters_views.chapter_detail, name="chapter-detail"),
    path("chapters/<int:pk>/edit/", chapters_views.chapter_edit, name="chapter-edit"),
    path("chapters/<int:pk>/vocation/", chapters_views.chapter_vocation, name="chapter-vocation"),
    path("chapters/<int:pk>/close/", chapters_views.chapter_close, name="chapter-close"),
    path("chapters/<int:pk>/start/", chapters_views.chapter_start, name="chapter-start"),
    path(
        "chapters/<int:pk>/units/",
        chapters_views.chapter_entry_enter,
        {"kind": "unit"},
        name="chapter-unit-enter",
    ),
    path(
        "chapters/<int:pk>/armies/",
        chapters_views.chapter_entry_enter,
        {"kind": "army"},
        name="chapter-army-enter",
    ),
    path(
        "chapters/<int:pk>/armies/<int:army>/withdraw/",
        chapters_views.chapter_entry_withdraw,
        {"kind": "army"},
        name="chapter-army-withdraw",
    ),
    path(
        "chapters/<int:pk>/units/<int:unit>/withdraw/",
        chapters_views.chapter_entry_withdraw,
        {"kind": "unit"},
        name="chapter-unit-withdraw",
    ),
    path(
        "chapters/<int:pk>/characters/",
        chapters_views.chapter_entry_enter,
        {"kind": "character"},
        name="chapter-sheet-enter",
    ),
    path(
        "chapters/<int:pk>/characters/<int:character>/withdraw/",
        chapters_views.chapter_entry_withdraw,
        {"kind": "character"},
        name="chapter-sheet-withdraw",
    ),
    path(
        "chapters/<int:pk>/settlement/",
        settlement_views.chapter_settlement,
        name="chapter-settlement",
    ),
    path(
        "chapters/<int:pk>/settlement/progress/",
        settlement_views.chapter_settlement_progress,
        name="chapter-settlement-progress",
    ),
    path(
        "chapters/<int:pk>/settlement/reopen/",
        settlement_views.chapter_settlement_reopen,
        name="chapter-settlement-reopen",
    ),
    path("votes/<int:pk>/", chapters_views.vote_detail, name="vote-detail"),
    path("votes/<int:pk>/close/", chapters_views.vote_close, name="vote-close"),
    path("votes/<int:pk>/closing/", chapters_views.vote_closing, name="vote-closing"),
    path("calendar/token/", chapters_views.calendar_token, name="calendar-token"),
    path("calendar/<str:token>.ics", chapters_views.calendar_feed, name="calendar-feed"),
    path("leaderboard/", settlement_views.leaderboard, name="leaderboard"),
    path(
        "players/<str:username>/history/",
        settlement_views.profile_history,
        name="profile-history",
    ),
    path(
        "profile/death-choice/", settlement_views.profile_death_choice, name="profile-death-choice"
    ),
    path("dashboard/", dashboard_views.dashboard, name="dashboard"),
    path(
        "campaigns/<int:pk>/rules-settings/",
        rules_settings_views.campaign_rules_settings_page,
        name="campaign-rules-settings",
    ),
    path("votes/<int:pk>/remind/", notifications_views.vote_remind, name="vote-remind"),
    path("notifications/", notifications_views.notifications, name="notifications"),
    path(
        "notifications/unsubscribe/<str:token>/",
        notifications_views.notifications_unsubscribe,
        name="notifications-unsubscribe",
    ),
]

api_urlpatterns = [
    path("campaigns/", api.CampaignListAPI.as_view(), name="api-campaign-list"),
    path("campaigns/import/", transfer_api.CampaignImportAPI.as_view(), name="api-campaign-import"),
    path(
        "campaigns/<int:pk>/export/",
        transfer_api.CampaignExportAPI.as_view(),
        name="api-campaign-export",
    ),
    path(
        "campaigns/<int:pk>/",
        api.CampaignDetailAPI.as_view(),
        name="api-campaign-detail",
    ),
    path(
        "campaigns/<int:pk>/invitations/",
        api.InvitationCreateAPI.as_view(),
        name="api-invitation-create",
    ),
    path(
        "campaigns/<int:pk>/invitations/<int:invitation>/revoke/",
        api.InvitationRevokeAPI.as_view(),
        name="api-invitation-revoke",
    ),
    path("join/<str:token>/", api.JoinAPI.as_view(), name="api-campaign-join"),
    path("campaigns/<int:pk>/leave/", api.LeaveAPI.as_view(), name="api-campaign-leave"),
    path(
        "campaigns/<int:pk>/co-organisers/",
        api.CoOrganiserAPI.as_view(),
        name="api-campaign-co-organisers",
    ),
    path(
        "campaigns/<int:pk>/chapters/",
        chapters_api.ChapterPlanAPI.as_view(),
        name="api-chapter-create",
    ),
    path("campaigns/<int:pk>/votes/", chapters_api.VoteOpenAPI.as_view(), name="api-vote-open"),
    path(
        "campaigns/<int:pk>/leaderboard/",
        settlement_api.CampaignLeaderboardAPI.as_view(),
        name="api-campaign-leaderboard",
    ),
    path("chapters/upcoming/", chapters_api.UpcomingAPI.as_view(), name="api-chapter-upcoming"),
    path("me/profile/sheet/", chapters_api.ProfileSheetAPI.as_view(), name="api-profile-sheet"),
    path("chapters/<int:pk>/", chapters_api.ChapterDetailAPI.as_view(), name="api-chapter-detail"),
    path(
        "chapters/<int:pk>/vocation/",
        chapters_api.ChapterVocationAPI.as_view(),
        name="api-chapter-vocation",
    ),
    path(
        "chapters/<int:pk>/close/", chapters_api.ChapterCloseAPI.as_view(), name="api-chapter-close"
    ),
    path(
        "chapters/<int:pk>/start/", chapters_api.ChapterStartAPI.as_view(), name="api-chapter-start"
    ),
    path(
        "chapters/<int:pk>/units/", chapters_api.ChapterUnitsAPI.as_view(), name="api-chapter-units"
    ),
    path(
        "chapters/<int:pk>/armies/",
        chapters_api.ChapterArmiesAPI.as_view(),
        name="api-chapter-armies",
    ),
    path(
        "chapters/<int:pk>/armies/<int:army>/",
        chapters_api.ChapterArmyAPI.as_view(),
        name="api-chapter-army",
    ),
    path(
        "chapters/<int:pk>/units/<int:unit>/",
        chapters_api.ChapterUnitAPI.as_view(),
        name="api-chapter-unit",
    ),
    path(
        "chapters/<int:pk>/characters/",
        chapters_api.ChapterSheetsAPI.as_view(),
        name="api-chapter-sheets",
    ),
    path(
        "chapters/<int:pk>/characters/<int:character>/",
        chapters_api.ChapterSheetAPI.as_view(),
        name="api-chapter-sheet",
    ),
    path(
        "chapters/<int:pk>/settlement/",
        settlement_api.ChapterSettlementAPI.as_view(),
        name="api-chapter-settlement",
    ),
    path(
        "chapters/<int:pk>/settlement/reopen/",
        settlement_api.ChapterSettlementReopenAPI.as_view(),
        name="api-chapter-settlement-reopen",
    ),
    path("votes/<int:pk>/", chapters_api.VoteDetailAPI.as_view(), name="api-vote-detail"),
    path("votes/<int:pk>/ballot/", chapters_api.BallotAPI.as_view(), name="api-vote-ballot"),
    path("votes/<int:pk>/close/", chapters_api.VoteCloseAPI.as_view(), name="api-vote-close"),
    path("votes/<int:pk>/closing/", chapters_api.VoteClosingAPI.as_view(), name="api-vote-closing"),
    path("calendar/token/", chapters_api.CalendarTokenAPI.as_view(), name="api-calendar-token"),
    path("leaderboard/", settlement_api.LeaderboardAPI.as_view(), name="api-leaderboard"),
    path(
        "players/<str:username>/history/",
        settlement_api.ProfileHistoryAPI.as_view(),
        name="api-profile-history",
    ),
    path(
        "profile/death-choice/",
        settlement_api.DeathChoiceAPI.as_view(),
        name="api-profile-death-choice",
    ),
    path("dashboard/", dashboard_api.DashboardAPI.as_view(), name="api-dashboard"),
    path(
        "campaigns/<int:pk>/rules-settings/",
        rules_settings_api.CampaignRulesSettingsAPI.as_view(),
        name="api-campaign-rules-settings",
    ),
    path(
        "votes/<int:pk>/remind/", notifications_api.VoteRemindAPI.as_view(), name="api-vote-remind"
    ),
    path("notifications/", notifications_api.NotificationsAPI.as_view(), name="api-notifications"),
    path(
        "notifications/unsubscribe/<str:token>/",
        notifications_api.NotificationsUnsubscribeAPI.as_view(),
        name="api-notifications-unsubscribe",
    ),
]
