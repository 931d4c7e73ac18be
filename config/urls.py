"""Every route of Chronique. Each one has its rows in tests/test_authorization_matrix.py."""

from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.i18n import set_language
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from campaigns import (
    chapter_api,
    chapter_views,
    encounter_api,
    encounter_views,
    rules_api,
    rules_views,
    settlement_api,
    settlement_views,
)
from campaigns import views as campaigns_views
from characters import api as characters_api
from characters import kolaps_urls, profile_api, profile_views
from characters import views as characters_views
from characters.forms import LoginForm, ResetSetPasswordForm
from config import views
from config.api_root import api_root

# Swagger UI sets inline styles; on its page alone styles (never scripts) may be inline.
api_docs = csp_update({"style-src": [UNSAFE_INLINE]})(
    SpectacularSwaggerSplitView.as_view(url_name="api-schema")
)

auth_patterns = [
    path("signup/", characters_views.signup, name="signup"),
    path(
        "login/",
        auth_views.LoginView.as_view(
            authentication_form=LoginForm, redirect_authenticated_user=True
        ),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/change/", characters_views.password_change, name="password_change"),
    path("password/reset/", auth_views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(form_class=ResetSetPasswordForm),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]

# Of the Dead profiles and campaigns of chapters (issue 5): the API twins.
otd_api_patterns = [
    path("me/profile/", profile_api.ProfileMineAPI.as_view(), name="api-profile-mine"),
    path("me/profile/traumas/", profile_api.ProfileTraumaAPI.as_view(), name="api-profile-traumas"),
    path("me/profile/sheet/", profile_api.ProfileSheetAPI.as_view(), name="api-profile-sheet"),
    path(
        "players/<str:username>/",
        profile_api.ProfilePublicAPI.as_view(),
        name="api-profile-public",
    ),
    path(
        "campaigns/<int:pk>/invitations/",
        chapter_api.InvitationCreateAPI.as_view(),
        name="api-invitation-create",
    ),
    path(
        "campaigns/<int:pk>/invitations/<int:invitation>/revoke/",
        chapter_api.InvitationRevokeAPI.as_view(),
        name="api-invitation-revoke",
    ),
    path("join/<str:token>/", chapter_api.JoinAPI.as_view(), name="api-campaign-join"),
    path("campaigns/<int:pk>/leave/", chapter_api.LeaveAPI.as_view(), name="api-campaign-leave"),
    path(
        "campaigns/<int:pk>/co-organisers/",
        chapter_api.CoOrganiserAPI.as_view(),
        name="api-campaign-co-organisers",
    ),
    path(
        "campaigns/<int:pk>/chapters/",
        chapter_api.ChapterPlanAPI.as_view(),
        name="api-chapter-create",
    ),
    path("campaigns/<int:pk>/votes/", chapter_api.VoteOpenAPI.as_view(), name="api-vote-open"),
    path("chapters/upcoming/", chapter_api.UpcomingAPI.as_view(), name="api-chapter-upcoming"),
    path("chapters/<int:pk>/", chapter_api.ChapterDetailAPI.as_view(), name="api-chapter-detail"),
    path(
        "chapters/<int:pk>/vocation/",
        chapter_api.ChapterVocationAPI.as_view(),
        name="api-chapter-vocation",
    ),
    path(
        "chapters/<int:pk>/close/", chapter_api.ChapterCloseAPI.as_view(), name="api-chapter-close"
    ),
    path("votes/<int:pk>/", chapter_api.VoteDetailAPI.as_view(), name="api-vote-detail"),
    path("votes/<int:pk>/ballot/", chapter_api.BallotAPI.as_view(), name="api-vote-ballot"),
    path("votes/<int:pk>/close/", chapter_api.VoteCloseAPI.as_view(), name="api-vote-close"),
    path("calendar/token/", chapter_api.CalendarTokenAPI.as_view(), name="api-calendar-token"),
]

# KOLAPS campaigns serve units; starting a chapter; healing a trauma by hand (kchap).
kchap_api_patterns = [
    path(
        "chapters/<int:pk>/start/", chapter_api.ChapterStartAPI.as_view(), name="api-chapter-start"
    ),
    path(
        "chapters/<int:pk>/units/", chapter_api.ChapterUnitsAPI.as_view(), name="api-chapter-units"
    ),
    path(
        "chapters/<int:pk>/units/<int:unit>/",
        chapter_api.ChapterUnitAPI.as_view(),
        name="api-chapter-unit",
    ),
    path(
        "me/profile/traumas/<int:trauma>/heal/",
        profile_api.ProfileTraumaHealAPI.as_view(),
        name="api-profile-trauma-heal",
    ),
]

# The stateless rules API is the calculator's hot path: its routes come first, grouped under
# one prefix, so resolving an odds request tries a handful of patterns, not every route.
rules_api_patterns = [
    path("", rules_api.RulesAPI.as_view(), name="api-rules"),
    path(
        "<slug:system>/<slug:resolver>/<slug:verb>",
        rules_api.ResolveAPI.as_view(),
        name="api-resolve",
    ),
]

api_patterns = [
    path("rules/", include(rules_api_patterns)),
    path("", api_root, name="api-root"),
    path("auth/signup/", characters_api.SignupAPI.as_view(), name="api-signup"),
    path("auth/token/", characters_api.TokenAPI.as_view(), name="api-token"),
    path("me/", characters_api.MeAPI.as_view(), name="api-me"),
    path("me/password/", characters_api.PasswordAPI.as_view(), name="api-password"),
    path("campaigns/", chapter_api.CampaignListAPI.as_view(), name="api-campaign-list"),
    path(
        "campaigns/<int:pk>/",
        chapter_api.CampaignDetailAPI.as_view(),
        name="api-campaign-detail",
    ),
    *otd_api_patterns,
    *kchap_api_patterns,
    path("rolls/", rules_api.RollListAPI.as_view(), name="api-roll-list"),
    path("rolls/<int:pk>/", rules_api.RollDetailAPI.as_view(), name="api-roll-detail"),
    # KOLAPS units and characters
    path("kolaps/", include(kolaps_urls.api_patterns)),
]

# The post-chapter settlement, leaderboards and character history (docs/settlement.md).
api_patterns += [
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
    path(
        "campaigns/<int:pk>/leaderboard/",
        settlement_api.CampaignLeaderboardAPI.as_view(),
        name="api-campaign-leaderboard",
    ),
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
    path(
        "chapters/<int:pk>/encounter/",
        encounter_api.ChapterEncounterAPI.as_view(),
        name="api-chapter-encounter",
    ),
]

# Of the Dead profiles and campaigns of chapters (issue 5).
otd_patterns = [
    path("profile/", profile_views.profile_mine, name="profile-mine"),
    path("profile/traumas/", profile_views.profile_trauma_add, name="profile-trauma-add"),
    path("profile/sheet/", profile_views.profile_sheet, name="profile-sheet"),
    path("players/<str:username>/", profile_views.profile_public, name="profile-public"),
    path("campaigns/new/", chapter_views.campaign_create, name="campaign-create"),
    path("campaigns/<int:pk>/edit/", chapter_views.campaign_edit, name="campaign-edit"),
    path(
        "campaigns/<int:pk>/invitations/",
        chapter_views.invitation_create,
        name="invitation-create",
    ),
    path(
        "campaigns/<int:pk>/invitations/<int:invitation>/revoke/",
        chapter_views.invitation_revoke,
        name="invitation-revoke",
    ),
    path("join/<str:token>/", chapter_views.campaign_join, name="campaign-join"),
    path("campaigns/<int:pk>/leave/", chapter_views.campaign_leave, name="campaign-leave"),
    path(
        "campaigns/<int:pk>/co-organisers/",
        chapter_views.campaign_co_organisers,
        name="campaign-co-organisers",
    ),
    path("campaigns/<int:pk>/chapters/new/", chapter_views.chapter_create, name="chapter-create"),
    path("campaigns/<int:pk>/votes/new/", chapter_views.vote_open, name="vote-open"),
    path("chapters/upcoming/", chapter_views.upcoming, name="chapter-upcoming"),
    path("chapters/<int:pk>/", chapter_views.chapter_detail, name="chapter-detail"),
    path("chapters/<int:pk>/edit/", chapter_views.chapter_edit, name="chapter-edit"),
    path("chapters/<int:pk>/vocation/", chapter_views.chapter_vocation, name="chapter-vocation"),
    path("chapters/<int:pk>/close/", chapter_views.chapter_close, name="chapter-close"),
    path("votes/<int:pk>/", chapter_views.vote_detail, name="vote-detail"),
    path("votes/<int:pk>/close/", chapter_views.vote_close, name="vote-close"),
    path("calendar/token/", chapter_views.calendar_token, name="calendar-token"),
    path("calendar/<str:token>.ics", chapter_views.calendar_feed, name="calendar-feed"),
]

# KOLAPS campaigns serve units; starting a chapter; healing a trauma by hand (kchap).
kchap_patterns = [
    path("chapters/<int:pk>/start/", chapter_views.chapter_start, name="chapter-start"),
    path("chapters/<int:pk>/units/", chapter_views.chapter_unit_enter, name="chapter-unit-enter"),
    path(
        "chapters/<int:pk>/units/<int:unit>/withdraw/",
        chapter_views.chapter_unit_withdraw,
        name="chapter-unit-withdraw",
    ),
    path(
        "profile/traumas/<int:trauma>/heal/",
        profile_views.profile_trauma_heal,
        name="profile-trauma-heal",
    ),
]

urlpatterns = [
    path("", views.home, name="home"),
    path("api/v1/", include(api_patterns)),
    path("healthz", views.healthz, name="healthz"),
    path("i18n/setlang/", set_language, name="set_language"),
    path("accounts/", include(auth_patterns)),
    path("account/", characters_views.account, name="account"),
    path("account/token/", characters_views.account_token, name="account-token"),
    path("campaigns/", campaigns_views.campaign_list, name="campaign-list"),
    *otd_patterns,
    *kchap_patterns,
    path("campaigns/<int:pk>/", campaigns_views.campaign_detail, name="campaign-detail"),
    path("rules/kolaps/test/", rules_views.kolaps_test, name="kolaps-test"),
    path("rules/kolaps/ranged/", rules_views.kolaps_ranged, name="kolaps-ranged"),
    path("rules/kolaps/melee/", rules_views.kolaps_melee, name="kolaps-melee"),
    path("rolls/", rules_views.roll_list, name="roll-list"),
    path("rolls/<int:pk>/", rules_views.roll_detail, name="roll-detail"),
    # KOLAPS units and characters
    path("kolaps/", include(kolaps_urls.page_patterns)),
    # The post-chapter settlement, leaderboards and character history (docs/settlement.md).
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
    path(
        "campaigns/<int:pk>/leaderboard/",
        settlement_views.campaign_leaderboard,
        name="campaign-leaderboard",
    ),
    path("leaderboard/", settlement_views.leaderboard, name="leaderboard"),
    path(
        "players/<str:username>/history/",
        settlement_views.profile_history,
        name="profile-history",
    ),
    path(
        "profile/death-choice/", settlement_views.profile_death_choice, name="profile-death-choice"
    ),
    # The encounter log of a chapter being played (campaigns/encounter.py).
    path(
        "chapters/<int:pk>/encounter/", encounter_views.chapter_encounter, name="chapter-encounter"
    ),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", api_docs, name="api-docs"),
    path("admin/", admin.site.urls),
]
