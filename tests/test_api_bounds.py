"""Every integer a client sends is bounded before the database, and the served schema says
the bounds: its serializer's or parameter's own (the rules' range, else its column's), never
a default the schema hook adds (`config.schema`), which would declare what nothing checks."""

import json

import pytest
from django.urls import reverse

from characters.bounds import ID_MAX, VERSION_MAX
from tests.factories import PlayerFactory
from tests.table_fixtures import pick_up_encounter

pytestmark = pytest.mark.django_db


def _integers_sent(schema: dict) -> list[tuple[str, dict]]:
    """(where, schema) of every integer a request body or a query parameter carries, the
    components they name followed (read-only properties are never sent)."""
    components = schema["components"]["schemas"]
    found = []

    def walk(node, where: str, seen: frozenset) -> None:
        if not isinstance(node, dict) or node.get("readOnly"):
            return
        ref = node.get("$ref")
        if ref:
            name = ref.rsplit("/", 1)[1]
            if name not in seen:
                walk(components[name], f"{where}<{name}>", seen | {name})
            return
        if node.get("type") == "integer":
            found.append((where, node))
        for name, value in node.get("properties", {}).items():
            walk(value, f"{where}.{name}", seen)
        for key in ("items", "additionalProperties"):
            walk(node.get(key), f"{where}[]", seen)
        for key in ("allOf", "anyOf", "oneOf"):
            for value in node.get(key, []):
                walk(value, where, seen)

    for path, item in schema["paths"].items():
        for method, operation in item.items():
            where = f"{method.upper()} {path}"
            for content in operation.get("requestBody", {}).get("content", {}).values():
                walk(content.get("schema"), where, frozenset())
            for parameter in operation.get("parameters", []):
                if parameter["in"] == "query":
                    walk(parameter["schema"], f"{where} ?{parameter['name']}", frozenset())
    return found


def test_it_declares_both_bounds_of_every_integer_a_request_carries(client):
    schema = client.get("/api/schema/?format=json").json()
    sent = _integers_sent(schema)
    assert len(sent) > 40  # the walk reaches the bodies
    unbounded = sorted(
        {where for where, node in sent if "minimum" not in node or "maximum" not in node}
    )
    assert unbounded == []
    versions = {node["maximum"] for where, node in sent if where.endswith(".version")}
    assert versions == {VERSION_MAX}, "a version is a 32-bit column"
    ids = {node["maximum"] for where, node in sent if where.endswith((".combatant", ".unit"))}
    assert ids == {ID_MAX}


def test_it_declares_the_bounds_of_every_integer_it_answers_too(client):
    """An answer's integers keep the 64-bit range the hook gives them (a read-only property
    of a component a client sends among them)."""
    stack, unbounded = [client.get("/api/schema/?format=json").json()], 0
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict):
            if node.get("type") == "integer" and not {"minimum", "maximum"} <= set(node):
                unbounded += 1
            stack.extend(node.values())
    assert unbounded == 0


def test_it_refuses_an_id_or_a_version_beyond_its_column_with_a_sentence(client):
    organiser = PlayerFactory(username="orga")
    encounter = pick_up_encounter(organiser)
    client.force_login(organiser)
    url = reverse("api-table-undo", args=[encounter.pk])
    for body in ({"version": VERSION_MAX + 1}, {"version": -1}):
        response = client.post(url, json.dumps(body), content_type="application/json")
        assert response.status_code == 400
        assert response.json() == {
            "version": [
                "Un nombre est hors limites\u00a0: les nombres entiers vont de 0 à 2147483647."
            ]
        }
    url = reverse("api-table-reveal", args=[encounter.pk])
    response = client.post(url, {"combatant": 0}, content_type="application/json")
    assert response.status_code == 400
    assert "hors limites" in response.json()["combatant"][0]
    url = reverse("api-rapid40k-compare") + "?a=0&b=1"
    response = client.get(url)
    assert response.status_code == 400
    assert "hors limites" in json.dumps(response.json(), ensure_ascii=False)
