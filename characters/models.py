"""The models of `characters`, imported here so that Django finds them: the player account
(`accounts/`), the Of the Dead profile (`profiles/`) and KOLAPS characters and units
(`kolaps/`), Rapid 40000 army lists (`rapid40k/`),
Corporates and modern RPG characters (`corporates/`, `modern/`)."""

from characters import one_line  # noqa: F401  (its receiver: names and titles are one line)
from characters.accounts.models import Player
from characters.corporates.models import CorporatesCharacter, CorporatesCharacterEvent
from characters.kolaps.models import KolapsChange, KolapsCharacter, KolapsUnit
from characters.modern.models import ModernCharacter, ModernCharacterEvent
from characters.profiles.models import (
    Profile,
    ProfileEvent,
    ProfileQuerySet,
    ProfileStatus,
    Trauma,
    TraumaKind,
    TraumaPermanence,
    Vocation,
)
from characters.rapid40k.models import Rapid40kArmy, Rapid40kChange, Rapid40kSquad

__all__ = [
    "CorporatesCharacter",
    "CorporatesCharacterEvent",
    "KolapsChange",
    "KolapsCharacter",
    "KolapsUnit",
    "ModernCharacter",
    "ModernCharacterEvent",
    "Player",
    "Profile",
    "ProfileEvent",
    "ProfileQuerySet",
    "ProfileStatus",
    "Rapid40kArmy",
    "Rapid40kChange",
    "Rapid40kSquad",
    "Trauma",
    "TraumaKind",
    "TraumaPermanence",
    "Vocation",
]
