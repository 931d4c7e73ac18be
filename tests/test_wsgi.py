"""The WSGI entry point gunicorn serves (config/wsgi.py)."""

from pathlib import Path

import pytest
from django.template import TemplateSyntaxError

import config.wsgi


def test_it_compiles_every_template_before_its_first_request():
    templates = Path(__file__).resolve().parent.parent / "templates"
    compiled = config.wsgi._prepare()
    assert sorted(compiled) == sorted(
        p.relative_to(templates).as_posix() for p in templates.rglob("*.html")
    )
    assert "base.html" in compiled


def test_it_stops_the_worker_on_a_template_that_does_not_compile(settings, tmp_path):
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "broken.html").write_text("{% if %}")
    settings.BASE_DIR = tmp_path
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [tmp_path / "templates"]}]
    with pytest.raises(TemplateSyntaxError):
        config.wsgi._prepare()


def test_it_stops_the_worker_on_a_widget_template_that_does_not_compile(settings, tmp_path):
    (tmp_path / "templates" / "jinja2").mkdir(parents=True)
    # Django's syntax, not Jinja2's
    (tmp_path / "templates" / "jinja2" / "broken.html").write_text("{% load static %}")
    settings.BASE_DIR = tmp_path
    config.wsgi.RENDERER.__dict__.pop("engine", None)  # read BASE_DIR again
    try:
        with pytest.raises(TemplateSyntaxError):
            config.wsgi._prepare()
    finally:
        config.wsgi.RENDERER.__dict__.pop("engine", None)
