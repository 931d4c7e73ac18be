"""Routes of `rules`: the calculators, the server rolls and the encounter at the table.

`resolve_api_urlpatterns` is the stateless rules API, the calculators' hot path: config/urls.py
mounts it first under /api/v1/rules/, so resolving an odds request tries a handful of
patterns, not every route. `urlpatterns` are the pages, `api_urlpatterns` the other API
twins. Every route has its rows in tests/test_authorization_matrix.py.
"""

from django.urls import path, re_path

from rules.calculators import api as calculators_api
from rules.calculators import index as calculators_index
from rules.calculators import rapid40k as rapid40k_calculators
from rules.calculators import views as calculators_views
from rules.catalogue import api as catalogue_api
from rules.catalogue import views as catalogue_views
from rules.dice_calculators import views as dice_calculators_views
from rules.rolls import api as rolls_api
from rules.rolls import views as rolls_views
from rules.table import api as table_api
from rules.table import consumers as table_consumers
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
    # Before the calculators' "rules/<system>/<resolver>/": "catalogue" is no resolver.
    path("rules/<slug:system>/catalogue/", catalogue_views.catalogue, name="catalogue"),
    path("rules/kolaps/test/", calculators_views.kolaps_test, name="kolaps-test"),
    path("rules/kolaps/ranged/", calculators_views.kolaps_ranged, name="kolaps-ranged"),
    path("rules/kolaps/melee/", calculators_views.kolaps_melee, name="kolaps-melee"),
    path(
        "rules/of-the-dead/<slug:resolver>/",
        calculators_views.of_the_dead_calculator,
        name="of-the-dead-calculator",
    ),
    path(
        "rules/rapid40k/<slug:resolver>/",
        rapid40k_calculators.rapid40k_calculator,
        name="rapid40k-calculator",
    ),
    path("rolls/", rolls_views.roll_list, name="roll-list"),
    path("rolls/<int:pk>/", rolls_views.roll_detail, name="roll-detail"),
    path("chapters/<int:pk>/encounter/", table_views.chapter_encounter, name="chapter-encounter"),
    path("rules/corporates/turn/", dice_calculators_views.corporates_turn, name="corporates-turn"),
    path(
        "rules/modern-rpg/chase-tracker/", dice_calculators_views.modern_chase, name="modern-chase"
    ),
    path(
        "rules/<slug:system>/",
        calculators_index.system_index,
        name="dice-calculators",
    ),
    path(
        "rules/<slug:system>/<slug:resolver>/",
        dice_calculators_views.resolver_calculator,
        name="dice-calculator",
    ),
    path("chapters/<int:pk>/table/", table_views.chapter_table, name="chapter-table"),
    path("sw.js", table_views.table_service_worker, name="table-service-worker"),
    path("table/new/", table_views.table_new, name="table-new"),
    path("table/new/of-the-dead/", table_views.table_new_of_the_dead, name="table-new-of-the-dead"),
    path("table/watch/<str:token>/", table_views.table_watch, name="table-watch"),
    path("table/<int:pk>/", table_views.table_encounter, name="table-encounter"),
    path("table/<int:pk>/odds/", table_views.table_odds, name="table-odds"),
    path("table/<int:pk>/act/", table_views.table_act, name="table-act"),
    path("table/<int:pk>/undo/", table_views.table_undo, name="table-undo"),
    path("table/<int:pk>/stray/", table_views.table_stray, name="table-stray"),
    path("table/<int:pk>/directive/", table_views.table_directive, name="table-directive"),
    path("table/<int:pk>/reveal/", table_views.table_reveal, name="table-reveal"),
    path("table/<int:pk>/advance/", table_views.table_advance, name="table-advance"),
    path("table/<int:pk>/end/", table_views.table_end, name="table-end"),
    path("table/<int:pk>/add/", table_views.table_add, name="table-add"),
    path("table/<int:pk>/link/revoke/", table_views.table_link_revoke, name="table-link-revoke"),
    path("table/<int:pk>/link/rotate/", table_views.table_link_rotate, name="table-link-rotate"),
]

api_urlpatterns = [
    path("rolls/", rolls_api.RollListAPI.as_view(), name="api-roll-list"),
    path("rolls/<int:pk>/", rolls_api.RollDetailAPI.as_view(), name="api-roll-detail"),
    path(
        "chapters/<int:pk>/encounter/",
        table_api.ChapterEncounterAPI.as_view(),
        name="api-chapter-encounter",
    ),
    path("chapters/<int:pk>/table/", table_api.ChapterTableAPI.as_view(), name="api-chapter-table"),
    path("table/new/", table_api.TableNewAPI.as_view(), name="api-table-new"),
    path(
        "table/new/of-the-dead/",
        table_api.TableQuickPartyAPI.as_view(),
        name="api-table-new-of-the-dead",
    ),
    path("table/watch/<str:token>/", table_api.TableWatchAPI.as_view(), name="api-table-watch"),
    path("table/<int:pk>/", table_api.TableAPI.as_view(), name="api-table-encounter"),
    path("table/<int:pk>/odds/", table_api.TableOddsAPI.as_view(), name="api-table-odds"),
    path("table/<int:pk>/act/", table_api.TableActAPI.as_view(), name="api-table-act"),
    path("table/<int:pk>/undo/", table_api.TableUndoAPI.as_view(), name="api-table-undo"),
    path("table/<int:pk>/stray/", table_api.TableStrayAPI.as_view(), name="api-table-stray"),
    path(
        "table/<int:pk>/directive/",
        table_api.TableDirectiveAPI.as_view(),
        name="api-table-directive",
    ),
    path("table/<int:pk>/reveal/", table_api.TableRevealAPI.as_view(), name="api-table-reveal"),
    path("table/<int:pk>/advance/", table_api.TableAdvanceAPI.as_view(), name="api-table-advance"),
    path("table/<int:pk>/end/", table_api.TableEndAPI.as_view(), name="api-table-end"),
    path("table/<int:pk>/add/", table_api.TableAddAPI.as_view(), name="api-table-add"),
    path(
        "table/<int:pk>/link/revoke/",
        table_api.TableLinkRevokeAPI.as_view(),
        name="api-table-link-revoke",
    ),
    path(
        "table/<int:pk>/link/rotate/",
        table_api.TableLinkRotateAPI.as_view(),
        name="api-table-link-rotate",
    ),
    path(
        "rules/<slug:system>/catalogue/", catalogue_api.CatalogueAPI.as_view(), name="api-catalogue"
    ),
    path("rules/<slug:system>/", calculators_api.SystemIndexAPI.as_view(), name="api-rules-system"),
]

# The live encounter's WebSockets (config/asgi.py): read-only, what the services committed.
websocket_urlpatterns = [
    path("ws/table/<int:pk>/", table_consumers.EncounterConsumer.as_asgi()),
    path("ws/table/watch/<str:token>/", table_consumers.EncounterConsumer.as_asgi()),
    re_path(r"^ws/", table_consumers.NoSuchSocket.as_asgi()),
]
