"""The OpenAPI schema says what the API refuses, so that a generated client is right.

`declare_errors` (a drf-spectacular postprocessing hook) adds to every operation the error
answers it can give, each with the `Error` body: 400 (the body or a parameter is refused:
`{"detail": sentence}` or `{field: [sentences]}`), 401 (no or a bad token), 403 (not
allowed), 404 (not found or not visible to you), 413 and 415 (a body too large or not
JSON) and 409 (changed meanwhile) on writes, 429 (too many tries). `bound_integers` gives
every integer without bounds the 64-bit range the JSON parser enforces (config/api.py).
"""

from config.bounds import API_INT_MAX, API_INT_MIN

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
    _bound(result.get("paths", {}))
    _bound(components)
    return result
