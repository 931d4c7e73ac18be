"""Routes of `characters`: accounts, Of the Dead profiles, KOLAPS units and characters,
Rapid 40000 army lists, Corporates and modern RPG characters.

`urlpatterns` are the pages, `api_urlpatterns` their API twins (mounted under /api/v1/ by
config/urls.py). Every route has its rows in tests/test_authorization_matrix.py.
"""

from django.contrib.auth import views as auth_views
from django.urls import include, path

from characters.accounts import api as accounts_api
from characters.accounts import views as accounts_views
from characters.accounts.forms import ResetSetPasswordForm
from characters.corporates import urls as corporates_urls
from characters.kolaps import urls as kolaps_urls
from characters.modern import urls as modern_urls
from characters.profiles import api as profiles_api
from characters.profiles import views as profiles_views
from characters.rapid40k import urls as rapid40k_urls

auth_patterns = [
    path("signup/", accounts_views.signup, name="signup"),
    path("login/", accounts_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/change/", accounts_views.password_change, name="password_change"),
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

urlpatterns = [
    path("accounts/", include(auth_patterns)),
    path("account/", accounts_views.account, name="account"),
    path("account/token/", accounts_views.account_token, name="account-token"),
    path("profile/", profiles_views.profile_mine, name="profile-mine"),
    path("profile/traumas/", profiles_views.profile_trauma_add, name="profile-trauma-add"),
    path(
        "profile/traumas/<int:trauma>/heal/",
        profiles_views.profile_trauma_heal,
        name="profile-trauma-heal",
    ),
    path("players/<str:username>/", profiles_views.profile_public, name="profile-public"),
    path("kolaps/", include(kolaps_urls.page_patterns)),
    path("rapid40k/", include(rapid40k_urls.page_patterns)),
    path("modern/characters/", include(modern_urls.page_patterns)),
    path("corporates/characters/", include(corporates_urls.page_patterns)),
]

api_urlpatterns = [
    path("auth/signup/", accounts_api.SignupAPI.as_view(), name="api-signup"),
    path("auth/token/", accounts_api.TokenAPI.as_view(), name="api-token"),
    path("me/", accounts_api.MeAPI.as_view(), name="api-me"),
    path("me/password/", accounts_api.PasswordAPI.as_view(), name="api-password"),
    path("me/profile/", profiles_api.ProfileMineAPI.as_view(), name="api-profile-mine"),
    path(
        "me/profile/traumas/", profiles_api.ProfileTraumaAPI.as_view(), name="api-profile-traumas"
    ),
    path(
        "me/profile/traumas/<int:trauma>/heal/",
        profiles_api.ProfileTraumaHealAPI.as_view(),
        name="api-profile-trauma-heal",
    ),
    path(
        "players/<str:username>/",
        profiles_api.ProfilePublicAPI.as_view(),
        name="api-profile-public",
    ),
    path("kolaps/", include(kolaps_urls.api_patterns)),
    path("rapid40k/", include(rapid40k_urls.api_patterns)),
    path("modern/characters/", include(modern_urls.api_patterns)),
    path("corporates/characters/", include(corporates_urls.api_patterns)),
]
