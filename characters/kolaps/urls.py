"""Routes of the KOLAPS units and characters (pages under /kolaps/, API under /api/v1/kolaps/).

Every route has its rows in tests/test_authorization_matrix.py.
"""

from django.urls import path

from characters.kolaps import api, views

page_patterns = [
    path("", views.kolaps_list, name="kolaps-list"),
    path("units/new/", views.unit_create, name="kolaps-unit-create"),
    path("units/import/", views.unit_import, name="kolaps-unit-import"),
    path("units/<int:pk>/", views.unit_page, name="kolaps-unit"),
    path("units/<int:pk>/print/", views.unit_print, name="kolaps-unit-print"),
    path("units/<int:pk>/history/", views.unit_history, name="kolaps-unit-history"),
    path("units/<int:pk>/export.json", views.unit_export, name="kolaps-unit-export"),
    path("characters/new/", views.character_create, name="kolaps-character-create"),
    path("characters/<int:pk>/", views.character_page, name="kolaps-character"),
    path("characters/<int:pk>/print/", views.character_print, name="kolaps-character-print"),
    path("characters/<int:pk>/history/", views.character_history, name="kolaps-character-history"),
    path("shared/<str:token>/", views.shared_unit, name="kolaps-shared"),
    path("shared/<str:token>/print/", views.shared_print, name="kolaps-shared-print"),
]

api_patterns = [
    path("units/", api.UnitListAPI.as_view(), name="api-kolaps-unit-list"),
    path("units/import/", api.UnitImportAPI.as_view(), name="api-kolaps-unit-import"),
    path("units/<int:pk>/", api.UnitDetailAPI.as_view(), name="api-kolaps-unit"),
    path("units/<int:pk>/changes/", api.UnitChangeAPI.as_view(), name="api-kolaps-unit-change"),
    path(
        "units/<int:pk>/duplicate/",
        api.UnitDuplicateAPI.as_view(),
        name="api-kolaps-unit-duplicate",
    ),
    path("units/<int:pk>/history/", api.UnitHistoryAPI.as_view(), name="api-kolaps-unit-history"),
    path("units/<int:pk>/undo/", api.UnitUndoAPI.as_view(), name="api-kolaps-unit-undo"),
    path("units/<int:pk>/export/", api.UnitExportAPI.as_view(), name="api-kolaps-unit-export"),
    path("characters/", api.CharacterListAPI.as_view(), name="api-kolaps-character-list"),
    path("characters/<int:pk>/", api.CharacterDetailAPI.as_view(), name="api-kolaps-character"),
    path(
        "characters/<int:pk>/changes/",
        api.CharacterChangeAPI.as_view(),
        name="api-kolaps-character-change",
    ),
    path(
        "characters/<int:pk>/duplicate/",
        api.CharacterDuplicateAPI.as_view(),
        name="api-kolaps-character-duplicate",
    ),
    path(
        "characters/<int:pk>/history/",
        api.CharacterHistoryAPI.as_view(),
        name="api-kolaps-character-history",
    ),
    path(
        "characters/<int:pk>/undo/",
        api.CharacterUndoAPI.as_view(),
        name="api-kolaps-character-undo",
    ),
    path("shared/<str:token>/", api.SharedUnitAPI.as_view(), name="api-kolaps-shared"),
]
