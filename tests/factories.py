"""Test data, built the way users build it where the history matters."""

import factory

from characters.models import Player

PASSWORD = "a-long-test-passphrase-42"


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda p: f"{p.username}@example.test")
    display_name = factory.LazyAttribute(lambda p: p.username.title())
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def _save(obj, create, extracted, **kwargs):
        if create:
            obj.save()
