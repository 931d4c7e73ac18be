"""The words of a modern RPG sheet: characteristics, skills and specialities, keyed as the
catalogue names them (the catalogue holds the choices, the product their words)."""

from django.utils.translation import gettext_lazy as _

CHARACTERISTIC_LABELS = {
    "reflexes": _("Réflexes"),
    "endurance": _("Endurance"),
    "sang_froid": _("Sang-froid"),
    "empathie": _("Empathie"),
}
SKILL_LABELS = {
    "tir": _("Shooting"),
    "conduite": _("Driving"),
    "athletisme": _("Athletics"),
    "roublardise": _("Trickery"),
    "combat_rapproche": _("Close combat"),
    "vigilance": _("Alertness"),
    "discretion": _("Stealth"),
    "soins": _("Care"),
}
SPECIALITY_LABELS = {
    "pistolet": _("Pistol"),
    "esquive": _("Dodge"),
    "pilotage": _("Piloting"),
    "course": _("Running"),
    "encaisser": _("Taking blows"),
    "natation": _("Swimming"),
    "tir_de_precision": _("Precision shooting"),
    "crochetage": _("Lock picking"),
    "desamorcage": _("Defusing"),
    "negociation": _("Negotiation"),
    "intimidation": _("Intimidation"),
    "premiers_secours": _("First aid"),
}


def characteristic_label(name: str) -> str:
    return str(CHARACTERISTIC_LABELS.get(name, name))


def skill_label(name: str) -> str:
    return str(SKILL_LABELS.get(name, name))


def speciality_label(name: str) -> str:
    return str(SPECIALITY_LABELS.get(name, name))
