"""The API documentation page works offline and under the strict Content-Security-Policy."""

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_it_shows_every_api_operation_in_the_documentation(page, live_server, output_dir):
    page.goto(live_server.url + "/api/docs/")
    page.locator(".swagger-ui .opblock").first.wait_for(timeout=15000)
    text = page.locator(".swagger-ui").inner_text()
    assert "/api/v1/me/" in text
    assert "/api/v1/campaigns/{id}/" in text
    page.screenshot(path=str(output_dir / f"{page.viewport_name}-api-docs.png"))
    csp = [e for e in page.console_errors if "Content Security Policy" in e]
    assert csp == [], csp
