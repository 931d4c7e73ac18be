"""Routes of `rules`: the calculators, the server rolls and the encounter at the table.

`resolve_api_urlpatterns` is the stateless rules API, the calculators' hot path: config/urls.py
mounts it first under /api/v1/rules/, so resolving an odds request tries a handful of
patterns, not every route. `urlpatterns` are the pages, `api_urlpatterns` the other API
twins. Every route has its rows in tests/test_authorization_matrix.py.
"""

from django.urls import path

from rules.calculators import api as calculators_api
from rules.calculators import views as calculators_views
from rules.catalogue import api as catalogue_api
from rules.catalogue import views as catalogue_views
from rules.rolls import api as rolls_api
from rules.rolls import views as rolls_views
from rules.table import api as table_api
from rules.table import views as table_views

resolve_api_urlpatterns = [
    path("", calculators_api.RulesAPI.as_view(), name="api-rules"),
    path(
        "<slug:system>/<slug:resolver>/<slug:verb>",
        calculators_api.ResolveAPI.as_view(),
        name="api-resolve",
    ),
]

urlpatterns = [
    path("rules/kolaps/test/", calculators_views.kolaps_test, name="kolaps-test"),
    path("rules/kolaps/ranged/", calculators_views.kolaps_ranged, name="kolaps-ranged"),
    path("rules/kolaps/melee/", calculators_views.kolaps_melee, name="kolaps-melee"),
    path("rolls/", rolls_views.roll_list, name="roll-list"),
    path("rolls/<int:pk>/", rolls_views.roll_detail, name="roll-detail"),
    path("chapters/<int:pk>/encounter/", table_views.chapter_encounter, name="chapter-encounter"),
    path("rules/<slug:system>/catalogue/", catalogue_views.catalogue, name="catalogue"),
]

api_urlpatterns = [
    path("rolls/", rolls_api.RollListAPI.as_view(), name="api-roll-list"),
    path("rolls/<int:pk>/", rolls_api.RollDetailAPI.as_view(), name="api-roll-detail"),
    path(
        "chapters/<int:pk>/encounter/",
        table_api.ChapterEncounterAPI.as_view(),
        name="api-chapter-encounter",
    ),
    path(
        "rules/<slug:system>/catalogue/", catalogue_api.CatalogueAPI.as_view(), name="api-catalogue"
    ),
]
