"""Routes of the Corporates characters (pages under /corporates/characters/, API under
/api/v1/corporates/characters/). Every route has its rows in tests/test_authorization_matrix.py."""

from django.urls import path

from characters.corporates import api, views

page_patterns = [
    path("", views.corporates_list, name="corporates-list"),
    path("<int:pk>/", views.corporates_character, name="corporates-character"),
    path(
        "<int:pk>/history/",
        views.corporates_character_history,
        name="corporates-character-history",
    ),
    path("<int:pk>/undo/", views.corporates_character_undo_view, name="corporates-character-undo"),
    path("<int:pk>/print/", views.corporates_character_print, name="corporates-character-print"),
]

api_patterns = [
    path("", api.CorporatesListAPI.as_view(), name="api-corporates-list"),
    path("<int:pk>/", api.CorporatesCharacterAPI.as_view(), name="api-corporates-character"),
    path(
        "<int:pk>/history/",
        api.CorporatesHistoryAPI.as_view(),
        name="api-corporates-character-history",
    ),
    path("<int:pk>/undo/", api.CorporatesUndoAPI.as_view(), name="api-corporates-character-undo"),
]
