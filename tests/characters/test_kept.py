"""Kept pages (characters/kept.py): what names the release they were rendered by."""

from characters import kept


def test_it_names_another_release_when_the_csrf_mark_changes(monkeypatch):
    """The mark a kept page holds for the CSRF token derives from the secret key: a process
    with another key would not replace it, and every form of the page would be refused.
    Pages kept under another key are another release, never served."""
    before = kept.release()
    monkeypatch.setattr(kept, "CSRF", "\ue000csrf-another-secret-key\ue000")
    assert kept.release() != before
    monkeypatch.undo()
    assert kept.release() == before
