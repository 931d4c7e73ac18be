"""Routes of the Rapid 40000 army lists (pages under /rapid40k/, API under /api/v1/rapid40k/).

Every route has its rows in tests/test_authorization_matrix.py.
"""

from django.urls import path

from characters.rapid40k import api, views

page_patterns = [
    path("", views.army_list, name="rapid40k-list"),
    path("armies/new/", views.army_create, name="rapid40k-army-create"),
    path("armies/import/", views.army_import, name="rapid40k-army-import"),
    path("armies/compare/", views.army_compare, name="rapid40k-compare"),
    path("armies/<int:pk>/", views.army_page, name="rapid40k-army"),
    path("armies/<int:pk>/print/", views.army_print, name="rapid40k-army-print"),
    path("armies/<int:pk>/history/", views.army_history, name="rapid40k-army-history"),
    path("armies/<int:pk>/export.json", views.army_export, name="rapid40k-army-export"),
    path("shared/<str:token>/", views.army_shared, name="rapid40k-shared"),
]

api_patterns = [
    path("armies/", api.ArmyListAPI.as_view(), name="api-rapid40k-army-list"),
    path("armies/import/", api.ArmyImportAPI.as_view(), name="api-rapid40k-army-import"),
    path("armies/compare/", api.ArmyCompareAPI.as_view(), name="api-rapid40k-compare"),
    path("armies/<int:pk>/", api.ArmyDetailAPI.as_view(), name="api-rapid40k-army"),
    path("armies/<int:pk>/changes/", api.ArmyChangeAPI.as_view(), name="api-rapid40k-army-change"),
    path(
        "armies/<int:pk>/history/", api.ArmyHistoryAPI.as_view(), name="api-rapid40k-army-history"
    ),
    path("armies/<int:pk>/undo/", api.ArmyUndoAPI.as_view(), name="api-rapid40k-army-undo"),
    path("armies/<int:pk>/export/", api.ArmyExportAPI.as_view(), name="api-rapid40k-army-export"),
    path("shared/<str:token>/", api.SharedArmyAPI.as_view(), name="api-rapid40k-shared"),
]
