"""The served OpenAPI schema tells an API user what a table write's body means, never how
its serializer is implemented."""

import pytest

pytestmark = pytest.mark.django_db


def _components(client) -> dict:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    return schema["components"]["schemas"]


def test_it_describes_the_table_writes_bodies_by_what_they_mean(client):
    components = _components(client)
    described = {
        name: body.get("description", "")
        for name, body in components.items()
        if name.startswith(("TableVersion", "TableCombatant", "TableDirective"))
    }
    assert {"TableVersion", "TableCombatant", "TableDirective"} <= set(described)
    words = {"TableVersion": "version", "TableCombatant": "combatant", "TableDirective": "order"}
    for name, description in described.items():
        assert words[name.removesuffix("Request")] in description, name
    texts = " ".join(str(body) for body in components.values())
    for note in ("deep-copies", "0.16 ms", "shallow copies", "get_fields"):
        assert note not in texts
