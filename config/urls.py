"""Every route of Chronique. Each one has its rows in tests/test_authorization_matrix.py."""

from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.i18n import set_language
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from campaigns import api as campaigns_api
from campaigns import rules_api, rules_views, settlement_api, settlement_views
from campaigns import views as campaigns_views
from characters import api as characters_api
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

api_patterns = [
    path("", api_root, name="api-root"),
    path("auth/signup/", characters_api.SignupAPI.as_view(), name="api-signup"),
    path("auth/token/", characters_api.TokenAPI.as_view(), name="api-token"),
    path("me/", characters_api.MeAPI.as_view(), name="api-me"),
    path("me/password/", characters_api.PasswordAPI.as_view(), name="api-password"),
    path("campaigns/", campaigns_api.CampaignListAPI.as_view(), name="api-campaign-list"),
    path(
        "campaigns/<int:pk>/",
        campaigns_api.CampaignDetailAPI.as_view(),
        name="api-campaign-detail",
    ),
    path("rules/", rules_api.RulesAPI.as_view(), name="api-rules"),
    path(
        "rules/<slug:system>/<slug:resolver>/<slug:verb>",
        rules_api.ResolveAPI.as_view(),
        name="api-resolve",
    ),
    path("rolls/", rules_api.RollListAPI.as_view(), name="api-roll-list"),
    path("rolls/<int:pk>/", rules_api.RollDetailAPI.as_view(), name="api-roll-detail"),
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
]

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("i18n/setlang/", set_language, name="set_language"),
    path("accounts/", include(auth_patterns)),
    path("account/", characters_views.account, name="account"),
    path("account/token/", characters_views.account_token, name="account-token"),
    path("campaigns/", campaigns_views.campaign_list, name="campaign-list"),
    path("campaigns/<int:pk>/", campaigns_views.campaign_detail, name="campaign-detail"),
    path("rules/kolaps/test/", rules_views.kolaps_test, name="kolaps-test"),
    path("rolls/", rules_views.roll_list, name="roll-list"),
    path("rolls/<int:pk>/", rules_views.roll_detail, name="roll-detail"),
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
    path("api/v1/", include(api_patterns)),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", api_docs, name="api-docs"),
    path("admin/", admin.site.urls),
]
