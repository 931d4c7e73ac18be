# Chronique — `make run` to try it, `make test` to prove it.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
# The links of the mails the server sends (notifications) follow the port it runs on.
SITE_URL ?= http://127.0.0.1:$(PORT)
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/chronique
TEST_BROKER_URL ?= redis://127.0.0.1:6379/14

.PHONY: run test lint worker beat bench messages migrate demo install install-test services clean backup restore

$(PY):
	@command -v $(PYTHON) >/dev/null || { echo "Chronique needs Python 3.11 ($(PYTHON))"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(PY)
	$(PY) -m pip install -q -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml $(VENV)/.installed
	$(PY) -m pip install -q -e ".[test]"
	@touch $@

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test

migrate: install
	@mkdir -p var
	$(PY) manage.py migrate --noinput -v 0

demo: migrate
	$(PY) manage.py demo_load

run: migrate
	$(PY) manage.py collectstatic --noinput -v 0
	$(PY) manage.py demo_load || echo "The demo could not be loaded (see above); serving without it."
	@echo "Chronique: http://127.0.0.1:$(PORT)/"
	SITE_URL=$(SITE_URL) EMBEDDED_BEAT=true $(PY) manage.py runserver 127.0.0.1:$(PORT)

# Backups of the database DATABASE_URL names (SQLite file by default) into var/backups/.
backup: install
	$(PY) manage.py backup $(if $(FILE),--output $(FILE),)

restore: install
	@test -n "$(FILE)" || { echo "make restore FILE=var/backups/chronique-....dump"; exit 1; }
	$(PY) manage.py restore $(FILE)

worker: install
	$(VENV)/bin/celery -A config worker --loglevel=INFO

beat: install
	$(VENV)/bin/celery -A config beat --loglevel=INFO

services:
	@bash .ci/services.sh

lint: install-test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

test: install-test services
	@bash .ci/chromium.sh
	@bash .ci/axe.sh
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-cache
	$(VENV)/bin/mypy
	DATABASE_URL=sqlite://:memory: $(PY) manage.py makemigrations --check --dry-run
	DATABASE_URL=$(TEST_DATABASE_URL) CELERY_BROKER_URL=$(TEST_BROKER_URL) \
		$(PY) -m pytest --durations=10 $(PYTEST_ARGS)

$(VENV)/.installed-bench: pyproject.toml $(VENV)/.installed-test
	$(PY) -m pip install -q -e ".[test,bench]"
	@touch $@

bench: install-test $(VENV)/.installed-bench services
	DATABASE_URL=$(TEST_DATABASE_URL) CELERY_BROKER_URL=$(TEST_BROKER_URL) \
		$(PY) -m pytest tests/benchmarks -s -p no:cacheprovider $(PYTEST_ARGS)

messages: install
	@command -v msgfmt >/dev/null || { apt-get update -qq && apt-get install -y -qq gettext; }
	$(PY) manage.py makemessages -l fr -l en --no-location --no-obsolete \
		-i ".venv/*" -i "tests/*" -i "staticfiles/*" -i "var/*"
	$(PY) manage.py compilemessages -l fr -l en -i .venv

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache test-output node_modules
