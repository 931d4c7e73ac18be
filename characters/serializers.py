"""The API form of a card, shared by every app's `api.py`.

A card is a dataclass that a page renders; its API twin serialises the same dataclass with
a `CardSerializer` naming the card in `Meta.dataclass` (and the fields it shows, when not
all), so field types come from the card's annotations and are never copied by hand.
A card nested in another needs no serialiser of its own: it gets the one declared for its
dataclass (showing all its fields), else a plain `CardSerializer` named after the dataclass.

`id_field` and `version_field` are the integers a request names a row or a version by,
bounded by their columns (`characters.bounds`) so that the schema says the range and nothing
beyond it reaches the database.
"""

import copy
from typing import ClassVar

from django.core.exceptions import ImproperlyConfigured
from django.utils.functional import lazy
from rest_framework import serializers
from rest_framework.fields import Field
from rest_framework_dataclasses.serializers import DataclassSerializer

from characters.bounds import ID_MAX, ID_MIN, VERSION_MAX, VERSION_MIN, out_of_range_sentence


class CardSerializer(DataclassSerializer):
    # No docstring: the schema would show it as the description of every card.
    # Every field of a card is always in the answer, so the schema marks each one required
    # (a dataclass default only means the card may be built without it). The schema
    # component keeps the serializer's name, without its "Serializer" suffix.

    # Dataclass -> the serialiser declared for it that shows all its fields.
    declared: ClassVar[dict[type, type["CardSerializer"]]] = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        meta = cls.__dict__.get("Meta")
        if meta is None:
            return
        if not hasattr(meta, "ref_name"):
            meta.ref_name = cls.__name__.removesuffix("Serializer")
        if not hasattr(meta, "fields") and not hasattr(meta, "exclude"):
            if meta.dataclass in CardSerializer.declared:
                raise ImproperlyConfigured(f"Two serialisers show all of {meta.dataclass}.")
            CardSerializer.declared[meta.dataclass] = cls

    # The fields built for each (serialiser, dataclass): building them reads the card's type
    # annotations field by field, on every answer, for the same result; each answer gets a
    # copy of the first build, never bound itself (`_copied`).
    built: ClassVar[dict[tuple[type, type], dict[str, Field]]] = {}

    def get_fields(self) -> dict[str, Field]:
        if self.extra_kwargs:  # options of this instance: built for it alone
            return super().get_fields()
        # The dataclass given to this instance, else the class's own (Meta.dataclass).
        key = (type(self), self.dataclass)
        fields = CardSerializer.built.get(key)
        if fields is None:
            fields = CardSerializer.built[key] = super().get_fields()
        return {name: _copied(field) for name, field in fields.items()}

    @property
    def serializer_dataclass_field(self):
        return CardSerializer

    def build_dataclass_field(self, field_name, type_info):
        declared = CardSerializer.declared.get(type_info.base_type)
        if declared is None:
            return super().build_dataclass_field(field_name, type_info)
        return declared, {"many": type_info.is_many}

    def build_typed_field(self, field_name, type_info, extra_kwargs):
        field_class, field_kwargs = super().build_typed_field(field_name, type_info, extra_kwargs)
        field_kwargs.pop("required", None)
        return field_class, field_kwargs

    def get_default_field_names(self, declared_fields):
        # The card's order; a declared field the card has not (a property) comes first.
        card = list(self.dataclass_definition.fields)
        return [name for name in declared_fields if name not in card] + card


# A serialiser's fields are bound to it (their name, parent, label and source set on them):
# each answer binds copies of the fields built once. DRF copies deep (`Field.__deepcopy__`
# builds each field anew from its arguments, a nested card with all its own). Binding sets
# only the copy's own attributes, and neither an answer nor a validation changes the rest,
# so a field is copied shallow: a leaf as it is, a list or a dict with a copy of its child
# bound to it, a nested card (or `FieldsOnce` body) unbound (its own fields copied when it
# serialises). Anything else (a list of cards declared `many`) is copied deep. The chapter's
# close through the API: 23,848 Python calls to 19,937
# (tests/benchmarks/test_chapter_close_bench.py, "close (API)", 2026-11-28).
_LEAVES = (
    serializers.BooleanField,
    serializers.CharField,
    serializers.ChoiceField,
    serializers.DateField,
    serializers.DateTimeField,
    serializers.DecimalField,
    serializers.FloatField,
    serializers.IntegerField,
    serializers.TimeField,
)
_HOLDERS = (serializers.ListField, serializers.DictField)


class FieldsOnce(serializers.Serializer):
    # No docstring: the schema would show it as the description of every body without its
    # own. A request body's serialiser whose declared fields are built once per process and
    # copied shallow for each request (`_copied`), as a card's are: a body of many rows (a
    # chapter's close) no longer builds its fields anew on every request.

    # Serialiser class -> its declared fields, copied once (never bound).
    built: ClassVar[dict[type, dict[str, Field]]] = {}

    def get_fields(self) -> dict[str, Field]:
        fields = FieldsOnce.built.get(type(self))
        if fields is None:
            fields = FieldsOnce.built[type(self)] = super().get_fields()
        return {name: _copied(field) for name, field in fields.items()}


def _copied(field: Field) -> Field:
    """A copy of `field` (never bound itself) for one serialiser to bind."""
    if isinstance(field, _HOLDERS):
        copied = _shallow(field)
        copied.child = _copied(field.child)
        copied.child.source = None  # as ListField and DictField bind their child
        copied.child.bind(field_name="", parent=copied)
        return copied
    if isinstance(field, _LEAVES) or (
        isinstance(field, (CardSerializer, FieldsOnce)) and "fields" not in field.__dict__
    ):
        return _shallow(field)
    return copy.deepcopy(field)


def _shallow(field: Field) -> Field:
    copied = object.__new__(type(field))
    copied.__dict__.update(field.__dict__)
    return copied


def card_serializer(card: type, *, name: str = "") -> type[CardSerializer]:
    """The serialiser of `card` showing all its fields, `name` in the schema (the card's
    own name by default): what a class with only `Meta.dataclass` would be."""
    name = name or card.__name__
    meta = type("Meta", (), {"dataclass": card, "ref_name": name})
    return type(f"{name}Serializer", (CardSerializer,), {"Meta": meta})


def bounded_integer(low: int, high: int, **kwargs) -> serializers.IntegerField:
    """A whole number from `low` to `high`, refused beyond with the out-of-range sentence."""
    sentence = lazy(out_of_range_sentence, str)(low, high)
    return serializers.IntegerField(
        min_value=low,
        max_value=high,
        error_messages=dict.fromkeys(("min_value", "max_value"), sentence),
        **kwargs,
    )


def id_field(**kwargs) -> serializers.IntegerField:
    """A row's number from outside (a 64-bit column, from 1)."""
    return bounded_integer(ID_MIN, ID_MAX, **kwargs)


def version_field(**kwargs) -> serializers.IntegerField:
    """The version a client read (a 32-bit column, from 0)."""
    return bounded_integer(VERSION_MIN, VERSION_MAX, **kwargs)
