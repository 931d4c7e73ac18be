"""The OpenAPI schema says what the API refuses, so that a generated client is right.

`declare_errors` (a drf-spectacular postprocessing hook) adds to every operation the error
answers it can give, each with the `Error` body: 400 (the body or a parameter is refused:
`{"detail": sentence}` or `{field: [sentences]}`), 401 (no or a bad token), 403 (not
allowed), 404 (not found or not visible to you), 413 and 415 (a body too large or not
JSON) and 409 (changed meanwhile) on writes, 429 (too many tries). Every integer of an
answer without bounds, and of a path, is given the 64-bit range the JSON parser and the
routes enforce (config/api.py); an integer a client sends in a body or a query declares its
own range in its serializer or parameter (`characters.bounds`), never this default: the
schema says what the server checks (tests/test_api_bounds.py).
"""

from campaigns.systems.fields import OPTIONAL
from characters.bounds import API_INT_MAX, API_INT_MIN

# The components of a campaign's answers (chapter, close, settlement) that speak only its
# system (`campaigns.systems.fields.speak`).
SPOKEN = ("ChapterCard", "PlayerLine", "OutcomeLine", "SettlementPlan", "ParticipantPlan")
SPOKEN_NOTE = (
    "A field that belongs to another game system than the campaign's (an Of the Dead "
    "profile's vocations, survival points, traumas and kills; a KOLAPS unit's; a Rapid 40000 "
    "army's; a figure its settlement does not keep) is absent."
)

ERROR = {
    "type": "object",
    "description": "A refusal: `detail` is a sentence for the user; a field's refusals "
    "are listed under its name.",
    "properties": {"detail": {"type": "string"}},
    "additionalProperties": True,
}
DESCRIPTIONS = {
    "400": "The request is refused: what is wrong, in a sentence.",
    "401": "Not signed in, or the token is not valid.",
    "403": "Not allowed to do this.",
    "404": "Not found, or not visible to you.",
    "409": "Changed meanwhile: nothing was saved; read it again.",
    "413": "The body is too large.",
    "415": "The body is not JSON.",
    "429": "Too many tries: wait a moment.",
}
WRITES = {"post", "put", "patch", "delete"}


def _bound(schema) -> None:
    """Walk a schema object, bounding integers (iteratively: schemas nest)."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
            continue
        if not isinstance(node, dict):
            continue
        if node.get("type") == "integer":
            node.setdefault("minimum", API_INT_MIN)
            node.setdefault("maximum", API_INT_MAX)
            node.setdefault("format", "int64")
        stack.extend(value for key, value in node.items() if key != "example")


def declare_errors(result, generator, request, public):
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components["Error"] = ERROR
    reference = {"$ref": "#/components/schemas/Error"}
    for path_item in result.get("paths", {}).values():
        for method, operation in path_item.items():
            if method not in WRITES | {"get", "head"}:
                continue
            codes = ["400", "401", "403", "404", "429"]
            if method in WRITES:
                codes += ["409", "413", "415"]
            responses = operation.setdefault("responses", {})
            for code in codes:
                responses.setdefault(
                    code,
                    {
                        "description": DESCRIPTIONS[code],
                        "content": {"application/json": {"schema": reference}},
                    },
                )
    sent = _sent_components(result.get("paths", {}), components)
    for path_item in result.get("paths", {}).values():
        for operation in path_item.values():
            if not isinstance(operation, dict):
                continue
            _bound(operation.get("responses", {}))
            _bound([p for p in operation.get("parameters", []) if p.get("in") == "path"])
    _bound([schema for name, schema in components.items() if name not in sent])
    # What a sent component only answers (its read-only properties) is an answer too.
    _bound(
        [
            prop
            for name in sent
            for prop in components.get(name, {}).get("properties", {}).values()
            if prop.get("readOnly")
        ]
    )
    return result


def _refs(node) -> set[str]:
    """The components a schema object names (`$ref`), at any depth."""
    found, stack = set(), [node]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            ref = item.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
                found.add(ref.rsplit("/", 1)[1])
            stack.extend(item.values())
    return found


def _sent_components(paths: dict, components: dict) -> set[str]:
    """The components a client sends (a request body's, a query parameter's), and those they
    name in turn."""
    todo = set()
    for path_item in paths.values():
        for operation in path_item.values():
            if isinstance(operation, dict):
                todo |= _refs(operation.get("requestBody", {}))
                todo |= _refs([p for p in operation.get("parameters", []) if p.get("in") != "path"])
    sent: set[str] = set()
    while todo:
        name = todo.pop()
        if name not in sent:
            sent.add(name)
            todo |= _refs(components.get(name, {})) - sent
    return sent


def system_fields(result, generator, request, public):
    """The fields of a campaign's answers that belong to one kind of roster, or to the
    figures one system's settlement keeps (`campaigns.systems.fields.OPTIONAL`), are absent
    where the campaign's system does not speak them: optional in those answers' components
    (`SPOKEN`), the rule said in each component's description."""
    components = result.get("components", {}).get("schemas", {})
    for name in SPOKEN:
        component = components.get(name)
        if component is None:
            continue
        required = [f for f in component.get("required", []) if f not in OPTIONAL]
        if len(required) == len(component.get("required", [])):
            continue
        component["required"] = required
        component["description"] = " ".join(
            filter(None, [component.get("description", ""), SPOKEN_NOTE])
        )
    return result
