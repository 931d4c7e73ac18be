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


@pytest.fixture(scope="module")
def browser():
    """One chromium per test module, closed when the module ends.

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


@pytest.fixture(params=list(VIEWPORTS), ids=list(VIEWPORTS))
def page(request, browser, live_server):
    context = browser.new_context(viewport=VIEWPORTS[request.param], locale="en-US")
    page = context.new_page()
    page.viewport_name = request.param
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.console_errors = errors
    yield page
    context.close()
