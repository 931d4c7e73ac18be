"""Playwright driving Debian's chromium (/usr/bin/chromium), never a downloaded browser."""

import os
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
]
VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}


@pytest.fixture(scope="package")
def browser():
    """One chromium for the browser tests, closed when the last of them ends; each test has
    its own context (cookies, storage), so none sees another's session.

    Playwright's sync API keeps an event loop running in this thread, and Django's ORM
    refuses to run beside one unless told the thread is meant to be synchronous; the
    permission lasts exactly as long as the browser, so no later test (nor a subprocess
    it starts) inherits it.
    """
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.exists():
        pytest.fail("Debian's chromium is missing: `make test` installs it (apt-get)")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
            )
            yield browser
            browser.close()
    finally:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


@pytest.fixture(autouse=True)
def _close_contexts(request):
    """Close the contexts a test opened on the shared browser, so no page of it keeps
    polling the live server during the next test."""
    yield
    if "browser" in request.fixturenames:
        for context in request.getfixturevalue("browser").contexts:
            context.close()


@pytest.fixture(params=list(VIEWPORTS), ids=list(VIEWPORTS))
def page(request, browser, live_server):
    # A French browser: a first visit follows Accept-Language (English for "en-US").
    context = browser.new_context(viewport=VIEWPORTS[request.param], locale="fr-FR")
    page = context.new_page()
    page.viewport_name = request.param
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.console_errors = errors
    yield page
    context.close()
