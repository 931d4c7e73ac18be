"""The API form of a card, shared by every app's `api.py`.

A card is a dataclass that a page renders; its API twin serialises the same dataclass with
a `CardSerializer` naming the card in `Meta.dataclass` (and the fields it shows, when not
all), so field types come from the card's annotations and are never copied by hand.
"""

from rest_framework_dataclasses.serializers import DataclassSerializer


class CardSerializer(DataclassSerializer):
    # No docstring: the schema would show it as the description of every card.
    # Every field of a card is always in the answer, so the schema marks each one required
    # (a dataclass default only means the card may be built without it). The schema
    # component keeps the serializer's name, without its "Serializer" suffix.

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        meta = cls.__dict__.get("Meta")
        if meta is not None and not hasattr(meta, "ref_name"):
            meta.ref_name = cls.__name__.removesuffix("Serializer")

    @property
    def serializer_dataclass_field(self):
        return CardSerializer

    def build_typed_field(self, field_name, type_info, extra_kwargs):
        field_class, field_kwargs = super().build_typed_field(field_name, type_info, extra_kwargs)
        field_kwargs.pop("required", None)
        return field_class, field_kwargs
