"""The modern RPG in a campaign: its party page shows, beside who played and the XP each
earned, each player's characters with their stress and wounds as their sheets carry them
(RULES-NOTES CL4: "Its campaign page shows the party (who played, XP, stress, wounds), not a
ranking")."""

from collections import defaultdict

from campaigns.systems.base import CampaignSystem, SheetLine
from characters.modern.models import ModernCharacter
from rules.engine.systems import system_get


def party_sheets(player_ids: list[int]) -> dict[int, list[SheetLine]]:
    """Each player's characters, stress and wounds (hit points below the maximum): one
    query."""
    sheets: dict[int, list[SheetLine]] = defaultdict(list)
    for owner_id, name, stress, hp, hp_max in (
        ModernCharacter.objects.filter(owner_id__in=player_ids)
        .order_by("name", "pk")
        .values_list("owner_id", "name", "stress", "hp", "hp_max")
    ):
        sheets[owner_id].append(SheetLine(name=name, stress=stress, wounds=max(0, hp_max - hp)))
    return dict(sheets)


SYSTEM = CampaignSystem(game=system_get("modern-rpg"), party_sheets=party_sheets)
