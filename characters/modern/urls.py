"""Routes of the modern RPG characters (pages under /modern/characters/, API under
/api/v1/modern/characters/). Every route has its rows in tests/test_authorization_matrix.py."""

from django.urls import path

from characters.modern import api, views

page_patterns = [
    path("", views.modern_list, name="modern-list"),
    path("<int:pk>/", views.modern_character, name="modern-character"),
    path("<int:pk>/history/", views.modern_character_history, name="modern-character-history"),
    path("<int:pk>/print/", views.modern_character_print, name="modern-character-print"),
    path("<int:pk>/export/", views.modern_character_export, name="modern-character-export"),
]

api_patterns = [
    path("", api.ModernListAPI.as_view(), name="api-modern-list"),
    path("<int:pk>/", api.ModernCharacterAPI.as_view(), name="api-modern-character"),
    path("<int:pk>/history/", api.ModernHistoryAPI.as_view(), name="api-modern-character-history"),
    path("<int:pk>/export/", api.ModernExportAPI.as_view(), name="api-modern-character-export"),
]
