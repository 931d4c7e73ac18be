"""Who may do what on every route, for every role.

Each URL pattern and each API operation has rows here; a new route without rows fails
`test_it_lists_every_route` and `test_it_lists_every_api_operation`. A refused write must
leave the database as it was.
"""

import json
import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.conf import settings
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from rest_framework.authtoken.models import Token

from campaigns.models import Campaign, CampaignEvent, Membership
from characters.models import Player
from rules.engine.systems.corporates.catalogue import load_catalogue as corporates_catalogue
from rules.rolls.models import RollRecord
from tests.conftest import make_roles
from tests.table_fixtures import table_snapshot


@dataclass
class World:
    roles: dict
    sessions: dict[str, str]  # role -> the key of a session signed in as that role
    pristine: tuple  # the snapshot() every case starts from


@pytest.fixture(scope="module")
def matrix_world(django_db_setup, django_db_blocker):
    """The matrix's world, built once for the module inside a transaction that is rolled back
    at its end; each case runs in a savepoint of it (pytest-django's `db`), rolled back after
    the case, so every case starts from the same world: the one snapshot() saw here."""
    with django_db_blocker.unblock(), transaction.atomic():
        roles = make_roles()
        sessions = {}
        for role in SIGNED_IN:
            signed = Client()
            signed.force_login(roles[role])
            sessions[role] = signed.cookies[settings.SESSION_COOKIE_NAME].value
        yield World(roles=roles, sessions=sessions, pristine=snapshot())
        transaction.set_rollback(True)


@pytest.fixture
def roles(matrix_world, db):
    return matrix_world.roles


def log_in(client, world: World, role: str) -> None:
    """As `client.force_login`, with the role's session made once with the world."""
    if role != "anonymous":
        client.cookies[settings.SESSION_COOKIE_NAME] = world.sessions[role]


CORPORATES_NUMBERS = corporates_catalogue().sheet["numbers"]
SAMPLE_PATH_VALUES = {"system": "kolaps", "resolver": "test", "verb": "odds"}
ROLES = ("anonymous", "owner", "other_player", "organiser", "participant")
SIGNED_IN = ROLES[1:]


def every(status: int) -> dict[str, int]:
    return dict.fromkeys(ROLES, status)


def signed_in(status: int, anonymous: int) -> dict[str, int]:
    return {"anonymous": anonymous, **dict.fromkeys(SIGNED_IN, status)}


@dataclass
class Row:
    name: str
    method: str
    expect: dict[str, int]
    kwargs: Any = None  # a function of the roles fixture giving the URL kwargs
    data: Any = None  # a function of (roles, user) giving the request body
    api: bool = False
    writes: bool = field(default=False)
    denied: frozenset = frozenset()  # roles refused in the page itself (200 with a sentence)
    label: str = ""

    def url(self, roles) -> str:
        kwargs = self.kwargs(roles) if self.kwargs else {}
        return reverse(self.name, kwargs=kwargs)


# The systems whose catalogue is browsed besides KOLAPS (rows labelled by system).
CATALOGUE_SYSTEMS = ("of-the-dead", "rapid40k", "corporates", "modern-rpg")
SYSTEM_INDEXES = ("kolaps", *CATALOGUE_SYSTEMS)


def _system(slug):
    return lambda roles: {"system": slug}


def campaign_pk(roles):
    return {"pk": roles["campaign"].pk}


def roll_pk(roles):
    return {"pk": roles["roll"].pk}


def resolve_kwargs(verb):
    return lambda roles: {"system": "kolaps", "resolver": "test", "verb": verb}


def evaluate_body(roles, user):
    return {"db": 3, "rank": "veteran", "sante": 6, "dice": "3 4 5", "action": "evaluate"}


def roll_body(roles, user):
    return {"db": 3, "rank": "veteran", "sante": 6, "action": "roll"}


RAPID40K_MELEE = {"a_figures": 2, "a_combat": 3, "b_figures": 4, "b_combat": 2}


def dice_calculator_kwargs(roles):
    return {"system": "modern-rpg", "resolver": "test"}


def dice_calculator_body(action):
    return lambda roles, user: {
        "characteristic": "8",
        "skill": "6",
        "dice": "6 2",
        "action": action,
    }


SHOT_FORM = {
    "rank": "veteran",
    "sante": 6,
    "affiliation": "apc",
    "expertise": 2,
    "equipment_db": 0,
    "weapon": "fa-f4",
    "distance_cm": 45,
    "order": "movement",
    "cover": 0,
    "moved_cm": 0,
    "extra_protection": 0,
    "target_sante": 6,
    "melee_figures": 0,
}
FIGHT_FORM = {
    f"{side}_{key}": value
    for side, weapon in (("a", "matraque-composite"), ("b", "griffes"))
    for key, value in {
        "rank": "aguerri",
        "sante": 6,
        "affiliation": "apc",
        "expertise": 1,
        "weapon": weapon,
        "charge": 0,
        "supports": 0,
        "charged_supports": 0,
        "immobiliser": 0,
    }.items()
}


def shot_body(action):
    return lambda roles, user: {**SHOT_FORM, "dice": "3", "action": action}


def fight_body(action):
    return lambda roles, user: {**FIGHT_FORM, "a_dice": "3", "b_dice": "2", "action": action}


def signup_body(roles, user):
    return {
        "username": "newcomer",
        "email": "newcomer@example.test",
        "display_name": "",
        "password": "a-long-new-passphrase-9",
        "password_again": "a-long-new-passphrase-9",
    }


def account_body(roles, user):
    return {"email": "changed@example.test", "display_name": "Changed"}


def password_body(roles, user):
    return {
        "old_password": "a-long-test-passphrase-42",
        "password": "another-long-passphrase-1",
        "password_again": "another-long-passphrase-1",
        "new_password": "another-long-passphrase-1",
    }


PAGE_ONLY_FOR_SIGNED_IN = signed_in(200, anonymous=302)
CAMPAIGN_MEMBERS_PAGE = {
    "anonymous": 302,
    "owner": 404,
    "other_player": 404,
    "organiser": 200,
    "participant": 200,
}
CAMPAIGN_MEMBERS_API = {**CAMPAIGN_MEMBERS_PAGE, "anonymous": 401}
ROLL_OWNER_PAGE = {
    "anonymous": 302,
    "owner": 200,
    "other_player": 404,
    "organiser": 404,
    "participant": 404,
}
ROLL_OWNER_API = {**ROLL_OWNER_PAGE, "anonymous": 401}

MATRIX: list[Row] = [
    # Public pages
    Row("home", "get", signed_in(302, anonymous=200)),
    Row("healthz", "get", every(200)),
    Row("set_language", "post", every(302), data=lambda r, u: {"language": "en", "next": "/"}),
    # Accounts
    Row("signup", "get", signed_in(302, anonymous=200)),
    Row("signup", "post", signed_in(302, anonymous=302), data=signup_body, writes=True),
    Row("login", "get", signed_in(302, anonymous=200)),
    Row("logout", "post", every(302)),
    Row("password_change", "get", PAGE_ONLY_FOR_SIGNED_IN),
    Row("password_change", "post", every(302), data=password_body, writes=True),
    Row("password_reset", "get", every(200)),
    Row("password_reset", "post", every(302), data=lambda r, u: {"email": "x@example.test"}),
    Row("password_reset_done", "get", every(200)),
    Row(
        "password_reset_confirm",
        "get",
        every(200),
        kwargs=lambda r: {"uidb64": "MQ", "token": "not-a-token"},
    ),
    Row("password_reset_complete", "get", every(200)),
    Row("account", "get", PAGE_ONLY_FOR_SIGNED_IN),
    Row("account", "post", every(302), data=account_body, writes=True),
    Row("account-token", "post", every(302), data=lambda r, u: {"action": "rotate"}, writes=True),
    # Campaigns
    Row("campaign-list", "get", PAGE_ONLY_FOR_SIGNED_IN),
    Row("campaign-detail", "get", CAMPAIGN_MEMBERS_PAGE, kwargs=campaign_pk),
    # Rules: the calculator and the record of server rolls
    Row("kolaps-test", "get", every(200)),
    Row("kolaps-test", "post", every(200), data=evaluate_body, label="evaluate"),
    Row(
        "kolaps-test",
        "post",
        every(200),
        data=roll_body,
        writes=True,
        denied=frozenset({"anonymous"}),
        label="roll",
    ),
    Row("kolaps-ranged", "get", every(200)),
    Row("kolaps-ranged", "post", every(200), data=shot_body("evaluate"), label="evaluate"),
    Row(
        "kolaps-ranged",
        "post",
        every(200),
        data=shot_body("roll"),
        writes=True,
        denied=frozenset({"anonymous"}),
        label="roll",
    ),
    Row("kolaps-melee", "get", every(200)),
    Row("kolaps-melee", "post", every(200), data=fight_body("evaluate"), label="evaluate"),
    Row(
        "kolaps-melee",
        "post",
        every(200),
        data=fight_body("roll"),
        writes=True,
        denied=frozenset({"anonymous"}),
        label="roll",
    ),
    Row("rapid40k-calculator", "get", every(200), kwargs=lambda r: {"resolver": "melee"}),
    Row(
        "rapid40k-calculator",
        "post",
        every(200),
        kwargs=lambda r: {"resolver": "melee"},
        data=lambda r, u: {
            **RAPID40K_MELEE,
            "a_dice": "3 5",
            "b_dice": "1 4 2 2",
            "action": "evaluate",
        },
        label="evaluate",
    ),
    Row(
        "rapid40k-calculator",
        "post",
        every(200),
        kwargs=lambda r: {"resolver": "melee"},
        data=lambda r, u: {**RAPID40K_MELEE, "action": "roll"},
        writes=True,
        denied=frozenset({"anonymous"}),
        label="roll",
    ),
    # Corporates and the modern RPG: the calculators built from the resolvers' schemas
    # Each system's index (calculators, catalogue, table), open to everyone as its API twin.
    *(
        Row("dice-calculators", "get", every(200), kwargs=_system(slug), label=slug)
        for slug in SYSTEM_INDEXES
    ),
    Row("dice-calculators", "get", every(404), kwargs=_system("chess"), label="unknown"),
    *(
        Row("api-rules-system", "get", every(200), kwargs=_system(slug), api=True, label=slug)
        for slug in SYSTEM_INDEXES
    ),
    Row("api-rules-system", "get", every(404), kwargs=_system("chess"), api=True, label="unknown"),
    Row("dice-calculator", "get", every(200), kwargs=dice_calculator_kwargs),
    # A calculator's old snake_case address: a permanent redirect to the kebab-case one.
    Row(
        "dice-calculator",
        "get",
        every(301),
        kwargs=lambda r: {"system": "modern-rpg", "resolver": "cold_blood"},
        label="old address",
    ),
    Row(
        "dice-calculator",
        "post",
        every(200),
        kwargs=dice_calculator_kwargs,
        data=dice_calculator_body("evaluate"),
        label="evaluate",
    ),
    Row(
        "dice-calculator",
        "post",
        every(200),
        kwargs=dice_calculator_kwargs,
        data=dice_calculator_body("roll"),
        writes=True,
        denied=frozenset({"anonymous"}),
        label="roll",
    ),
    Row("corporates-turn", "get", every(200)),
    Row("modern-chase", "get", PAGE_ONLY_FOR_SIGNED_IN),
    Row(
        "modern-chase",
        "post",
        signed_in(200, anonymous=302),
        data=lambda r, u: {
            "terrain": "foot",
            "objective": "40",
            "points": "0",
            "lead": "6",
            "round": "1",
            "risk": "normal",
            "pursued_successes": "2",
            "pursuer_successes": "1",
        },
        writes=True,
    ),
    Row("roll-list", "get", PAGE_ONLY_FOR_SIGNED_IN),
    Row("roll-detail", "get", ROLL_OWNER_PAGE, kwargs=roll_pk),
    # API
    Row("api-root", "get", every(200), api=True),
    Row("api-schema", "get", every(200), api=True),
    Row("api-docs", "get", every(200)),
    Row(
        "api-signup",
        "post",
        signed_in(403, anonymous=201),
        data=lambda r, u: {
            "username": "api-newcomer",
            "email": "api-newcomer@example.test",
            "password": "a-long-new-passphrase-9",
        },
        api=True,
        writes=True,
    ),
    Row(
        "api-token",
        "post",
        signed_in(200, anonymous=400),
        data=lambda r, u: (
            {"username": u.username, "password": "a-long-test-passphrase-42"}
            if u
            else {"username": "nobody", "password": "wrong"}
        ),
        api=True,
        writes=True,
    ),
    Row("api-token", "delete", signed_in(204, anonymous=401), api=True, writes=True),
    Row("api-me", "get", signed_in(200, anonymous=401), api=True),
    Row("api-me", "patch", signed_in(200, anonymous=401), data=account_body, api=True, writes=True),
    Row(
        "api-password",
        "post",
        signed_in(204, anonymous=401),
        data=password_body,
        api=True,
        writes=True,
    ),
    Row("api-campaign-list", "get", signed_in(200, anonymous=401), api=True),
    Row("api-campaign-detail", "get", CAMPAIGN_MEMBERS_API, kwargs=campaign_pk, api=True),
    Row("api-rules", "get", every(200), api=True),
    Row(
        "api-resolve",
        "post",
        every(200),
        kwargs=resolve_kwargs("odds"),
        data=lambda r, u: {"db": 3, "rank": "veteran"},
        api=True,
        label="odds",
    ),
    Row(
        "api-resolve",
        "post",
        signed_in(201, anonymous=401),
        kwargs=resolve_kwargs("roll"),
        data=lambda r, u: {"db": 3, "rank": "veteran"},
        api=True,
        writes=True,
        label="roll",
    ),
    Row("api-roll-list", "get", signed_in(200, anonymous=401), api=True),
    Row("api-roll-detail", "get", ROLL_OWNER_API, kwargs=roll_pk, api=True),
]


# --- KOLAPS units and characters ---------------------------------------------------------------
OWNER_ONLY_PAGE = {
    "anonymous": 302,
    "owner": 200,
    "other_player": 404,
    "organiser": 404,
    "participant": 404,
}
OWNER_ONLY_WRITE_PAGE = {**OWNER_ONLY_PAGE, "owner": 302}
OWNER_ONLY_API = {**OWNER_ONLY_PAGE, "anonymous": 401}
OWNER_ONLY_CREATE_API = {**OWNER_ONLY_API, "owner": 201}


def kolaps_unit_pk(roles):
    return {"pk": roles["kolaps_unit"].pk}


def kolaps_character_pk(roles):
    return {"pk": roles["kolaps_character"].pk}


def kolaps_token(roles):
    return {"token": roles["kolaps_unit"].share_token}


def kolaps_export(roles, user):
    from characters.kolaps.unit_file import unit_export

    unit = roles["kolaps_unit"]
    return unit_export(unit, list(unit.members.order_by("position", "pk")))


def campaign_export(roles, user):
    from campaigns.transfer.services import campaign_export

    campaign = roles["campaign"]
    return campaign_export(actor=campaign.organiser, campaign=campaign)


def kolaps_unit_version(body):
    return lambda roles, user: {**body, "version": roles["kolaps_unit"].version}


def kolaps_character_version(body):
    return lambda roles, user: {**body, "version": roles["kolaps_character"].version}


NEW_CHARACTER = {"name": "Recruit", "archetype": "agent-de-police", "rank": "novice"}

MATRIX += [
    Row("kolaps-list", "get", PAGE_ONLY_FOR_SIGNED_IN),
    Row(
        "kolaps-unit-create",
        "post",
        every(302),
        data=lambda r, u: {"name": "New"},
        writes=True,
    ),
    Row("kolaps-unit-import", "get", PAGE_ONLY_FOR_SIGNED_IN),
    Row(
        "kolaps-unit-import",
        "post",
        every(302),
        data=lambda r, u: {"text": json.dumps(kolaps_export(r, u))},
        writes=True,
    ),
    Row("kolaps-unit", "get", OWNER_ONLY_PAGE, kwargs=kolaps_unit_pk),
    Row(
        "kolaps-unit",
        "post",
        OWNER_ONLY_WRITE_PAGE,
        kwargs=kolaps_unit_pk,
        data=kolaps_unit_version({"op": "rename", "name": "Renamed"}),
        writes=True,
    ),
    Row("kolaps-unit-print", "get", OWNER_ONLY_PAGE, kwargs=kolaps_unit_pk),
    Row("kolaps-unit-history", "get", OWNER_ONLY_PAGE, kwargs=kolaps_unit_pk),
    Row(
        "kolaps-unit-history",
        "post",
        OWNER_ONLY_WRITE_PAGE,
        kwargs=kolaps_unit_pk,
        data=kolaps_unit_version({}),
        writes=True,
    ),
    Row("kolaps-unit-export", "get", OWNER_ONLY_PAGE, kwargs=kolaps_unit_pk),
    Row(
        "kolaps-character-create",
        "post",
        every(302),
        data=lambda r, u: NEW_CHARACTER,
        writes=True,
    ),
    Row("kolaps-character", "get", OWNER_ONLY_PAGE, kwargs=kolaps_character_pk),
    Row(
        "kolaps-character",
        "post",
        OWNER_ONLY_WRITE_PAGE,
        kwargs=kolaps_character_pk,
        data=kolaps_character_version({"op": "raise", "talent": "marche"}),
        writes=True,
    ),
    Row("kolaps-character-print", "get", OWNER_ONLY_PAGE, kwargs=kolaps_character_pk),
    Row("kolaps-character-history", "get", OWNER_ONLY_PAGE, kwargs=kolaps_character_pk),
    Row(
        "kolaps-character-history",
        "post",
        OWNER_ONLY_WRITE_PAGE,
        kwargs=kolaps_character_pk,
        data=kolaps_character_version({}),
        writes=True,
    ),
    # Anyone with the link reads a shared unit, signed in or not.
    Row("kolaps-shared", "get", every(200), kwargs=kolaps_token),
    Row("kolaps-shared-print", "get", every(200), kwargs=kolaps_token),
    # API
    Row("api-kolaps-unit-list", "get", signed_in(200, anonymous=401), api=True),
    Row(
        "api-kolaps-unit-list",
        "post",
        signed_in(201, anonymous=401),
        data=lambda r, u: {"name": "New"},
        api=True,
        writes=True,
    ),
    Row(
        "api-kolaps-unit-import",
        "post",
        signed_in(201, anonymous=401),
        data=kolaps_export,
        api=True,
        writes=True,
    ),
    Row("api-kolaps-unit", "get", OWNER_ONLY_API, kwargs=kolaps_unit_pk, api=True),
    Row(
        "api-kolaps-unit-change",
        "post",
        OWNER_ONLY_API,
        kwargs=kolaps_unit_pk,
        data=kolaps_unit_version({"op": "rename", "name": "Renamed"}),
        api=True,
        writes=True,
    ),
    Row(
        "api-kolaps-unit-duplicate",
        "post",
        OWNER_ONLY_CREATE_API,
        kwargs=kolaps_unit_pk,
        api=True,
        writes=True,
    ),
    Row("api-kolaps-unit-history", "get", OWNER_ONLY_API, kwargs=kolaps_unit_pk, api=True),
    Row(
        "api-kolaps-unit-undo",
        "post",
        OWNER_ONLY_API,
        kwargs=kolaps_unit_pk,
        data=kolaps_unit_version({}),
        api=True,
        writes=True,
    ),
    Row("api-kolaps-unit-export", "get", OWNER_ONLY_API, kwargs=kolaps_unit_pk, api=True),
    Row("api-kolaps-character-list", "get", signed_in(200, anonymous=401), api=True),
    Row(
        "api-kolaps-character-list",
        "post",
        signed_in(201, anonymous=401),
        data=lambda r, u: NEW_CHARACTER,
        api=True,
        writes=True,
    ),
    Row("api-kolaps-character", "get", OWNER_ONLY_API, kwargs=kolaps_character_pk, api=True),
    Row(
        "api-kolaps-character-change",
        "post",
        OWNER_ONLY_API,
        kwargs=kolaps_character_pk,
        data=kolaps_character_version({"op": "raise", "talent": "marche"}),
        api=True,
        writes=True,
    ),
    Row(
        "api-kolaps-character-duplicate",
        "post",
        OWNER_ONLY_CREATE_API,
        kwargs=kolaps_character_pk,
        api=True,
        writes=True,
    ),
    Row(
        "api-kolaps-character-history",
        "get",
        OWNER_ONLY_API,
        kwargs=kolaps_character_pk,
        api=True,
    ),
    Row(
        "api-kolaps-character-undo",
        "post",
        OWNER_ONLY_API,
        kwargs=kolaps_character_pk,
        data=kolaps_character_version({}),
        api=True,
        writes=True,
    ),
    Row("api-kolaps-shared", "get", every(200), kwargs=kolaps_token, api=True),
]

# --- Rapid 40000 army lists --------------------------------------------------------------


def rapid40k_army_pk(roles):
    return {"pk": roles["rapid40k_army"].pk}


def rapid40k_token(roles):
    return {"token": roles["rapid40k_army"].share_token}


def rapid40k_export(roles, user):
    from characters.rapid40k.services import army_export

    return army_export(roles["rapid40k_army"])


def rapid40k_version(body):
    return lambda roles, user: {**body, "version": roles["rapid40k_army"].version}


RAPID40K_NEW = {"name": "New", "faction": "orks"}
RAPID40K_RENAME = {"action": "settings", "name": "Renamed"}

MATRIX += [
    Row("rapid40k-list", "get", PAGE_ONLY_FOR_SIGNED_IN),
    Row("rapid40k-army-create", "post", every(302), data=lambda r, u: RAPID40K_NEW, writes=True),
    Row("rapid40k-army-import", "get", PAGE_ONLY_FOR_SIGNED_IN),
    Row(
        "rapid40k-army-import",
        "post",
        every(302),
        data=lambda r, u: {"text": json.dumps(rapid40k_export(r, u))},
        writes=True,
    ),
    Row("rapid40k-compare", "get", PAGE_ONLY_FOR_SIGNED_IN),
    Row("rapid40k-army", "get", OWNER_ONLY_PAGE, kwargs=rapid40k_army_pk),
    Row(
        "rapid40k-army",
        "post",
        OWNER_ONLY_WRITE_PAGE,
        kwargs=rapid40k_army_pk,
        data=rapid40k_version(RAPID40K_RENAME),
        writes=True,
    ),
    Row("rapid40k-army-print", "get", OWNER_ONLY_PAGE, kwargs=rapid40k_army_pk),
    Row("rapid40k-army-history", "get", OWNER_ONLY_PAGE, kwargs=rapid40k_army_pk),
    Row(
        "rapid40k-army-history",
        "post",
        OWNER_ONLY_WRITE_PAGE,
        kwargs=rapid40k_army_pk,
        data=rapid40k_version({}),
        writes=True,
    ),
    Row("rapid40k-army-export", "get", OWNER_ONLY_PAGE, kwargs=rapid40k_army_pk),
    # Anyone with the link reads a shared list, signed in or not.
    Row("rapid40k-shared", "get", every(200), kwargs=rapid40k_token),
    # API
    Row("api-rapid40k-army-list", "get", signed_in(200, anonymous=401), api=True),
    Row(
        "api-rapid40k-army-list",
        "post",
        signed_in(201, anonymous=401),
        data=lambda r, u: RAPID40K_NEW,
        api=True,
        writes=True,
    ),
    Row(
        "api-rapid40k-army-import",
        "post",
        signed_in(201, anonymous=401),
        data=rapid40k_export,
        api=True,
        writes=True,
    ),
    Row("api-rapid40k-army", "get", OWNER_ONLY_API, kwargs=rapid40k_army_pk, api=True),
    Row(
        "api-rapid40k-army-change",
        "post",
        OWNER_ONLY_API,
        kwargs=rapid40k_army_pk,
        data=rapid40k_version(RAPID40K_RENAME),
        api=True,
        writes=True,
    ),
    Row("api-rapid40k-army-history", "get", OWNER_ONLY_API, kwargs=rapid40k_army_pk, api=True),
    Row(
        "api-rapid40k-army-undo",
        "post",
        OWNER_ONLY_API,
        kwargs=rapid40k_army_pk,
        data=rapid40k_version({}),
        api=True,
        writes=True,
    ),
    Row("api-rapid40k-army-export", "get", OWNER_ONLY_API, kwargs=rapid40k_army_pk, api=True),
    Row("api-rapid40k-shared", "get", every(200), kwargs=rapid40k_token, api=True),
    # Without the two lists asked for, the API refuses with a sentence.
    Row("api-rapid40k-compare", "get", signed_in(400, anonymous=401), api=True),
]

# --- Of the Dead profiles and campaigns of chapters ---------------------------------------------
MANAGE_PAGE = {
    "anonymous": 302,
    "owner": 404,
    "other_player": 404,
    "organiser": 200,
    "participant": 403,
}
MANAGE_WRITE = {**MANAGE_PAGE, "organiser": 302}
MANAGE_API = {**MANAGE_PAGE, "anonymous": 401}
MANAGE_API_CREATED = {**MANAGE_API, "organiser": 201}
PLAYERS_WRITE = {**MANAGE_WRITE, "organiser": 403, "participant": 302}
PLAYERS_API = {**MANAGE_API, "organiser": 403, "participant": 200}
OWN_PROFILE_API = {
    "anonymous": 401,
    "owner": 200,
    "other_player": 404,
    "organiser": 404,
    "participant": 404,
}


def chapter_pk(roles):
    return {"pk": roles["chapter"].pk}


def vote_pk(roles):
    return {"pk": roles["vote"].pk}


def invitation_kwargs(roles):
    return {"pk": roles["campaign"].pk, "invitation": roles["invitation"].pk}


def token_kwargs(roles):
    return {"token": roles["invitation"].token}


def profile_body(roles, user):
    body = {"physique": 3, "psychique": 3, "reflexes": 2, "combat": 1}
    if user is not None and user.pk == roles["owner"].pk:
        from characters.models import Profile

        body["version"] = Profile.objects.get(player=user).version
    return body


def trauma_body(roles, user):
    return {
        "name": "Bras cassé",
        "kind": "physical",
        "permanence": "temporary",
        "effect_attribute": "physique",
        "effect_change": -1,
    }


def campaign_body(roles, user):
    return {
        "name": "Nouvelle",
        "system": "of-the-dead",
        "survival_points_survive": 1,
        "survival_points_victory": 1,
    }


def chapter_body(roles, user):
    return {"title": "Le parc", "min_survival_points": 0, "duration_minutes": 240}


def vocation_body(roles, user):
    return {"vocation": "meneur", "player": roles["participant"].pk, "action": "choose"}


def close_body(roles, user):
    prefix = f"p{roles['participant'].pk}_"
    return {"epilogue": "Ils passent le pont.", prefix + "result": "victory"}


def close_api_body(roles, user):
    return {
        "epilogue": "Ils passent le pont.",
        "outcomes": [{"player": roles["participant"].pk, "result": "victory"}],
    }


OTD_MATRIX: list[Row] = [
    Row("profile-mine", "get", PAGE_ONLY_FOR_SIGNED_IN),
    Row("profile-mine", "post", every(302), data=profile_body, writes=True),
    Row("profile-trauma-add", "post", every(302), data=trauma_body, writes=True),
    Row("profile-sheet", "get", {**every(302), "owner": 200}),
    Row("profile-public", "get", every(200), kwargs=lambda r: {"username": "owner"}),
    Row("campaign-create", "get", PAGE_ONLY_FOR_SIGNED_IN),
    Row("campaign-create", "post", every(302), data=campaign_body, writes=True),
    Row("campaign-edit", "get", MANAGE_PAGE, kwargs=campaign_pk),
    Row("campaign-edit", "post", MANAGE_WRITE, kwargs=campaign_pk, data=campaign_body, writes=True),
    Row("campaign-export", "get", MANAGE_PAGE, kwargs=campaign_pk),
    Row("campaign-import", "get", PAGE_ONLY_FOR_SIGNED_IN),
    Row(
        "campaign-import",
        "post",
        every(302),
        data=lambda r, u: {"text": json.dumps(campaign_export(r, u))},
        writes=True,
    ),
    Row("invitation-create", "post", MANAGE_WRITE, kwargs=campaign_pk, writes=True),
    Row("invitation-revoke", "post", MANAGE_WRITE, kwargs=invitation_kwargs, writes=True),
    Row("campaign-join", "get", PAGE_ONLY_FOR_SIGNED_IN, kwargs=token_kwargs),
    Row(
        "campaign-join",
        "post",
        {**every(302), "organiser": 400, "participant": 400},
        kwargs=token_kwargs,
        writes=True,
    ),
    Row(
        "campaign-leave",
        "post",
        {**every(404), "anonymous": 302, "participant": 302},
        kwargs=campaign_pk,
        writes=True,
    ),
    Row(
        "campaign-co-organisers",
        "post",
        MANAGE_WRITE,
        kwargs=campaign_pk,
        data=lambda r, u: {"username": "other", "action": "add"},
        writes=True,
    ),
    Row("chapter-create", "get", MANAGE_PAGE, kwargs=campaign_pk),
    Row("chapter-create", "post", MANAGE_WRITE, kwargs=campaign_pk, data=chapter_body, writes=True),
    Row("chapter-detail", "get", CAMPAIGN_MEMBERS_PAGE, kwargs=chapter_pk),
    Row("chapter-edit", "get", MANAGE_PAGE, kwargs=chapter_pk),
    Row("chapter-edit", "post", MANAGE_WRITE, kwargs=chapter_pk, data=chapter_body, writes=True),
    Row(
        "chapter-vocation",
        "post",
        {**MANAGE_WRITE, "participant": 302},
        kwargs=chapter_pk,
        data=vocation_body,
        writes=True,
    ),
    Row("chapter-close", "get", MANAGE_PAGE, kwargs=chapter_pk),
    Row("chapter-close", "post", MANAGE_WRITE, kwargs=chapter_pk, data=close_body, writes=True),
    Row("vote-open", "get", MANAGE_PAGE, kwargs=campaign_pk),
    Row(
        "vote-open",
        "post",
        MANAGE_WRITE,
        kwargs=campaign_pk,
        data=lambda r, u: {"kind": "vocations", "chapter": r["chapter"].pk},
        writes=True,
    ),
    Row("vote-detail", "get", CAMPAIGN_MEMBERS_PAGE, kwargs=vote_pk),
    Row(
        "vote-detail",
        "post",
        PLAYERS_WRITE,
        kwargs=vote_pk,
        data=lambda r, u: {"chapter": str(r["chapter"].pk)},
        writes=True,
    ),
    Row("vote-close", "post", MANAGE_WRITE, kwargs=vote_pk, writes=True),
    Row(
        "vote-closing",
        "post",
        MANAGE_WRITE,
        kwargs=vote_pk,
        data=lambda r, u: {"closes_at": "2099-01-01T18:00"},
        writes=True,
    ),
    Row("chapter-upcoming", "get", PAGE_ONLY_FOR_SIGNED_IN),
    Row("calendar-token", "post", every(302), writes=True),
    Row("calendar-feed", "get", every(200), kwargs=lambda r: {"token": r["feed"].token}),
    # API twins
    Row("api-profile-mine", "get", OWN_PROFILE_API, api=True),
    Row(
        "api-profile-mine",
        "post",
        {**every(201), "anonymous": 401, "owner": 400},
        data=profile_body,
        api=True,
        writes=True,
    ),
    Row(
        "api-profile-mine",
        "patch",
        OWN_PROFILE_API,
        data=lambda r, u: {**profile_body(r, u), "description": "Tenace"},
        api=True,
        writes=True,
    ),
    Row(
        "api-profile-traumas",
        "post",
        {**OWN_PROFILE_API, "owner": 201},
        data=lambda r, u: {"name": "Sourd", "kind": "physical"},
        api=True,
        writes=True,
    ),
    Row("api-profile-sheet", "get", OWN_PROFILE_API, api=True),
    Row("api-profile-public", "get", every(200), kwargs=lambda r: {"username": "owner"}, api=True),
    Row(
        "api-campaign-list",
        "post",
        signed_in(201, anonymous=401),
        data=campaign_body,
        api=True,
        writes=True,
    ),
    Row("api-campaign-export", "get", MANAGE_API, kwargs=campaign_pk, api=True),
    Row(
        "api-campaign-import",
        "post",
        signed_in(201, anonymous=401),
        data=campaign_export,
        api=True,
        writes=True,
    ),
    Row(
        "api-campaign-detail",
        "patch",
        MANAGE_API,
        kwargs=campaign_pk,
        data=lambda r, u: {"description": "Changée"},
        api=True,
        writes=True,
    ),
    Row(
        "api-invitation-create",
        "post",
        MANAGE_API_CREATED,
        kwargs=campaign_pk,
        api=True,
        writes=True,
    ),
    Row(
        "api-invitation-revoke", "post", MANAGE_API, kwargs=invitation_kwargs, api=True, writes=True
    ),
    Row(
        "api-campaign-join",
        "post",
        {**every(201), "anonymous": 401, "organiser": 400, "participant": 400},
        kwargs=token_kwargs,
        api=True,
        writes=True,
    ),
    Row(
        "api-campaign-leave",
        "post",
        {**every(404), "anonymous": 401, "participant": 204},
        kwargs=campaign_pk,
        api=True,
        writes=True,
    ),
    Row(
        "api-campaign-co-organisers",
        "post",
        MANAGE_API,
        kwargs=campaign_pk,
        data=lambda r, u: {"username": "other"},
        api=True,
        writes=True,
    ),
    Row(
        "api-campaign-co-organisers",
        "delete",
        {**MANAGE_API, "organiser": 400},
        kwargs=campaign_pk,
        data=lambda r, u: {"username": "other"},
        api=True,
        writes=True,
    ),
    Row(
        "api-chapter-create",
        "post",
        MANAGE_API_CREATED,
        kwargs=campaign_pk,
        data=chapter_body,
        api=True,
        writes=True,
    ),
    Row("api-chapter-detail", "get", CAMPAIGN_MEMBERS_API, kwargs=chapter_pk, api=True),
    Row(
        "api-chapter-detail",
        "patch",
        MANAGE_API,
        kwargs=chapter_pk,
        data=lambda r, u: {"place": "Villeurbanne"},
        api=True,
        writes=True,
    ),
    Row(
        "api-chapter-vocation",
        "post",
        {**MANAGE_API, "participant": 200},
        kwargs=chapter_pk,
        data=vocation_body,
        api=True,
        writes=True,
    ),
    Row(
        "api-chapter-vocation",
        "delete",
        {**MANAGE_API, "participant": 200},
        kwargs=chapter_pk,
        data=lambda r, u: {"player": r["participant"].pk},
        api=True,
        writes=True,
    ),
    Row("api-chapter-close", "get", MANAGE_API, kwargs=chapter_pk, api=True),
    Row(
        "api-chapter-close",
        "post",
        MANAGE_API,
        kwargs=chapter_pk,
        data=close_api_body,
        api=True,
        writes=True,
    ),
    Row(
        "api-vote-open",
        "post",
        MANAGE_API_CREATED,
        kwargs=campaign_pk,
        data=lambda r, u: {"kind": "vocations", "chapter": r["chapter"].pk},
        api=True,
        writes=True,
    ),
    Row("api-vote-detail", "get", CAMPAIGN_MEMBERS_API, kwargs=vote_pk, api=True),
    Row(
        "api-vote-ballot",
        "post",
        PLAYERS_API,
        kwargs=vote_pk,
        data=lambda r, u: {"chapter": r["chapter"].pk},
        api=True,
        writes=True,
    ),
    Row("api-vote-close", "post", MANAGE_API, kwargs=vote_pk, api=True, writes=True),
    Row(
        "api-vote-closing",
        "post",
        MANAGE_API,
        kwargs=vote_pk,
        data=lambda r, u: {"closes_at": "2099-01-01T18:00:00Z"},
        api=True,
        writes=True,
    ),
    Row("api-chapter-upcoming", "get", signed_in(200, anonymous=401), api=True),
    Row("api-calendar-token", "post", signed_in(200, anonymous=401), api=True, writes=True),
]
MATRIX += OTD_MATRIX


# --- KOLAPS campaigns serve units; starting a chapter; healing a trauma by hand --------------
def kolaps_chapter_pk(roles):
    return {"pk": roles["kolaps_chapter"].pk}


def kolaps_other_chapter_pk(roles):
    return {"pk": roles["kolaps_other_chapter"].pk}


def kolaps_entry_kwargs(roles):
    return {"pk": roles["kolaps_chapter"].pk, "unit": roles["participant_unit"].pk}


def trauma_kwargs(roles):
    return {"trauma": roles["trauma"].pk}


def unit_entry_body(roles, user):
    return {"unit": roles["participant_unit"].pk, "side": "Nord"}


def kolaps_close_body(roles, user):
    prefix = f"u{roles['participant_unit'].pk}_"
    return {
        "epilogue": "La gare tombe.",
        prefix + "result": "defeat",
        prefix + "lost": [str(roles["participant_private"].pk)],
    }


def kolaps_close_api_body(roles, user):
    return {
        "epilogue": "La gare tombe.",
        "unit_results": [
            {
                "unit": roles["participant_unit"].pk,
                "result": "defeat",
                "lost": [roles["participant_private"].pk],
            }
        ],
    }


OWN_TRAUMA_PAGE = {**every(404), "anonymous": 302, "owner": 302}


def rapid40k_chapter_pk(roles):
    return {"pk": roles["rapid40k_chapter"].pk}


def rapid40k_other_chapter_pk(roles):
    return {"pk": roles["rapid40k_other_chapter"].pk}


def rapid40k_entry_kwargs(roles):
    return {"pk": roles["rapid40k_chapter"].pk, "army": roles["participant_army"].pk}


def army_entry_body(roles, user):
    return {"army": roles["participant_army"].pk, "side": "Nord"}


RAPID40K_CHAPTER_MATRIX: list[Row] = [
    Row(
        "chapter-detail", "get", CAMPAIGN_MEMBERS_PAGE, kwargs=rapid40k_chapter_pk, label="rapid40k"
    ),
    Row(
        "chapter-army-enter",
        "post",
        PLAYERS_WRITE,
        kwargs=rapid40k_other_chapter_pk,
        data=army_entry_body,
        writes=True,
    ),
    Row(
        "chapter-army-withdraw",
        "post",
        {**MANAGE_WRITE, "participant": 302},
        kwargs=rapid40k_entry_kwargs,
        writes=True,
    ),
    Row(
        "api-chapter-detail",
        "get",
        CAMPAIGN_MEMBERS_API,
        kwargs=rapid40k_chapter_pk,
        api=True,
        label="rapid40k",
    ),
    Row(
        "api-chapter-armies",
        "post",
        {**MANAGE_API, "organiser": 403, "participant": 201},
        kwargs=rapid40k_other_chapter_pk,
        data=army_entry_body,
        api=True,
        writes=True,
    ),
    Row(
        "api-chapter-army",
        "delete",
        {**MANAGE_API, "participant": 200},
        kwargs=rapid40k_entry_kwargs,
        api=True,
        writes=True,
    ),
]
MATRIX += RAPID40K_CHAPTER_MATRIX


def sheet_other_chapter_pk(roles):
    return {"pk": roles["sheet_other_chapter"].pk}


def sheet_entry_kwargs(roles):
    return {"pk": roles["sheet_chapter"].pk, "character": roles["participant_sheet"].pk}


def sheet_entry_body(roles, user):
    return {"character": roles["participant_sheet"].pk}


SHEET_CHAPTER_MATRIX: list[Row] = [
    Row(
        "chapter-sheet-enter",
        "post",
        PLAYERS_WRITE,
        kwargs=sheet_other_chapter_pk,
        data=sheet_entry_body,
        writes=True,
    ),
    Row(
        "chapter-sheet-withdraw",
        "post",
        {**MANAGE_WRITE, "participant": 302},
        kwargs=sheet_entry_kwargs,
        writes=True,
    ),
    Row(
        "api-chapter-sheets",
        "post",
        {**MANAGE_API, "organiser": 403, "participant": 201},
        kwargs=sheet_other_chapter_pk,
        data=sheet_entry_body,
        api=True,
        writes=True,
    ),
    Row(
        "api-chapter-sheet",
        "delete",
        {**MANAGE_API, "participant": 200},
        kwargs=sheet_entry_kwargs,
        api=True,
        writes=True,
    ),
]
MATRIX += SHEET_CHAPTER_MATRIX

KCHAP_MATRIX: list[Row] = [
    Row("chapter-start", "post", MANAGE_WRITE, kwargs=chapter_pk, writes=True),
    Row("chapter-detail", "get", CAMPAIGN_MEMBERS_PAGE, kwargs=kolaps_chapter_pk, label="kolaps"),
    Row(
        "chapter-unit-enter",
        "post",
        PLAYERS_WRITE,
        kwargs=kolaps_other_chapter_pk,
        data=unit_entry_body,
        writes=True,
    ),
    Row(
        "chapter-unit-withdraw",
        "post",
        {**MANAGE_WRITE, "participant": 302},
        kwargs=kolaps_entry_kwargs,
        writes=True,
    ),
    Row("chapter-close", "get", MANAGE_PAGE, kwargs=kolaps_chapter_pk, label="kolaps"),
    Row(
        "chapter-close",
        "post",
        MANAGE_WRITE,
        kwargs=kolaps_chapter_pk,
        data=kolaps_close_body,
        writes=True,
        label="kolaps",
    ),
    Row("profile-trauma-heal", "post", OWN_TRAUMA_PAGE, kwargs=trauma_kwargs, writes=True),
    # API twins
    Row("api-chapter-start", "post", MANAGE_API, kwargs=chapter_pk, api=True, writes=True),
    Row(
        "api-chapter-detail",
        "get",
        CAMPAIGN_MEMBERS_API,
        kwargs=kolaps_chapter_pk,
        api=True,
        label="kolaps",
    ),
    Row(
        "api-chapter-units",
        "post",
        {**MANAGE_API, "organiser": 403, "participant": 201},
        kwargs=kolaps_other_chapter_pk,
        data=unit_entry_body,
        api=True,
        writes=True,
    ),
    Row(
        "api-chapter-unit",
        "delete",
        {**MANAGE_API, "participant": 200},
        kwargs=kolaps_entry_kwargs,
        api=True,
        writes=True,
    ),
    Row("api-chapter-close", "get", MANAGE_API, kwargs=kolaps_chapter_pk, api=True, label="kolaps"),
    Row(
        "api-chapter-close",
        "get",
        MANAGE_API,
        kwargs=rapid40k_chapter_pk,
        api=True,
        label="rapid40k",
    ),
    Row(
        "api-chapter-close",
        "post",
        MANAGE_API,
        kwargs=kolaps_chapter_pk,
        data=kolaps_close_api_body,
        api=True,
        writes=True,
        label="kolaps",
    ),
    Row(
        "api-profile-trauma-heal",
        "post",
        OWN_PROFILE_API,
        kwargs=trauma_kwargs,
        api=True,
        writes=True,
    ),
]
MATRIX += KCHAP_MATRIX

# --- The post-chapter settlement, leaderboards, history -------------------------------------
ORGANISERS_ONLY_PAGE = {
    "anonymous": 302,
    "owner": 404,
    "other_player": 404,
    "organiser": 200,
    "participant": 403,
}
ORGANISERS_ONLY_API = {**ORGANISERS_ONLY_PAGE, "anonymous": 401}
ONLY_THE_PARTICIPANT_PAGE = {
    "anonymous": 302,
    "owner": 404,
    "other_player": 404,
    "organiser": 404,
    "participant": 200,
}


def awaiting_pk(roles):
    return {"pk": roles["awaiting_chapter"].pk}


def settled_pk(roles):
    return {"pk": roles["settled_chapter"].pk}


def playing_pk(roles):
    return {"pk": roles["playing_chapter"].pk}


def encounter_roll(roles, user):
    """The participant's roll: organisers record for anyone, a player for themself."""
    return {"player": str(roles["participant"].pk), "target": "", "damage": 0, "roll": ""}


def encounter_roll_api(roles, user):
    return {"player": roles["participant"].pk, "damage": 0}


def participant_name(roles):
    return {"username": roles["participant"].username}


MATRIX += [
    Row("chapter-settlement", "get", ORGANISERS_ONLY_PAGE, kwargs=awaiting_pk),
    Row(
        "chapter-settlement",
        "post",
        {**ORGANISERS_ONLY_PAGE, "organiser": 302},
        kwargs=awaiting_pk,
        writes=True,
    ),
    Row("chapter-settlement-progress", "get", ORGANISERS_ONLY_PAGE, kwargs=awaiting_pk),
    Row(
        "chapter-settlement-reopen",
        "post",
        {**ORGANISERS_ONLY_PAGE, "organiser": 302},
        kwargs=settled_pk,
        writes=True,
    ),
    Row("campaign-leaderboard", "get", CAMPAIGN_MEMBERS_PAGE, kwargs=campaign_pk),
    Row("leaderboard", "get", PAGE_ONLY_FOR_SIGNED_IN),
    Row("profile-history", "get", ONLY_THE_PARTICIPANT_PAGE, kwargs=participant_name),
    Row("profile-death-choice", "get", PAGE_ONLY_FOR_SIGNED_IN),
    # Nobody here is dead: every choice is refused in the page (the owner's character is
    # alive, the others have none); the accepted choice is in test_settlement_pages.
    Row(
        "profile-death-choice",
        "post",
        {**dict.fromkeys(SIGNED_IN, 200), "anonymous": 302},
        data=lambda r, u: {"choice": "zombie"},
        writes=True,
        denied=frozenset(SIGNED_IN),
    ),
    # The encounter log of the chapter being played (campaigns/encounter.py).
    Row("chapter-encounter", "get", CAMPAIGN_MEMBERS_PAGE, kwargs=playing_pk),
    Row(
        "chapter-encounter",
        "post",
        {**CAMPAIGN_MEMBERS_PAGE, "organiser": 302, "participant": 302},
        kwargs=playing_pk,
        data=encounter_roll,
        writes=True,
    ),
    Row("api-chapter-encounter", "get", CAMPAIGN_MEMBERS_API, kwargs=playing_pk, api=True),
    Row(
        "api-chapter-encounter",
        "post",
        {**CAMPAIGN_MEMBERS_API, "organiser": 201, "participant": 201},
        kwargs=playing_pk,
        data=encounter_roll_api,
        api=True,
        writes=True,
    ),
    Row("api-chapter-settlement", "get", ORGANISERS_ONLY_API, kwargs=awaiting_pk, api=True),
    Row(
        "api-chapter-settlement",
        "post",
        {**ORGANISERS_ONLY_API, "organiser": 202},
        kwargs=awaiting_pk,
        api=True,
        writes=True,
    ),
    Row(
        "api-chapter-settlement-reopen",
        "post",
        ORGANISERS_ONLY_API,
        kwargs=settled_pk,
        api=True,
        writes=True,
    ),
    Row("api-campaign-leaderboard", "get", CAMPAIGN_MEMBERS_API, kwargs=campaign_pk, api=True),
    Row("api-leaderboard", "get", signed_in(200, anonymous=401), api=True),
    Row(
        "api-profile-history",
        "get",
        {**ONLY_THE_PARTICIPANT_PAGE, "anonymous": 401},
        kwargs=participant_name,
        api=True,
    ),
    Row(
        "api-profile-death-choice",
        "post",
        {
            "anonymous": 401,
            "owner": 400,
            "other_player": 404,
            "organiser": 404,
            "participant": 404,
        },
        data=lambda r, u: {"choice": "zombie"},
        api=True,
        writes=True,
    ),
]


# --- What a player sees: the dashboard ----------------------------------------------------------
MATRIX += [
    Row("dashboard", "get", PAGE_ONLY_FOR_SIGNED_IN),
    Row("set_theme", "post", every(302), data=lambda r, u: {"theme": "dark", "next": "/"}),
    Row("api-dashboard", "get", signed_in(200, anonymous=401), api=True),
    Row("notifications", "get", PAGE_ONLY_FOR_SIGNED_IN),
    Row("notifications", "post", every(302), data=lambda r, u: {"enabled": "on"}, writes=True),
    Row("api-notifications", "get", signed_in(200, anonymous=401), api=True),
    Row(
        "api-notifications",
        "patch",
        signed_in(200, anonymous=401),
        data=lambda r, u: {"enabled": True},
        api=True,
        writes=True,
    ),
    Row("catalogue", "get", every(200), kwargs=lambda r: {"system": "kolaps"}),
    *(
        Row("catalogue", "get", every(200), kwargs=_system(slug), label=slug)
        for slug in CATALOGUE_SYSTEMS
    ),
    Row("catalogue", "get", every(404), kwargs=_system("chess"), label="unknown"),
    Row("vote-remind", "post", MANAGE_WRITE, kwargs=vote_pk, writes=True),
    Row(
        "api-vote-remind",
        "post",
        {**MANAGE_API, "organiser": 204},
        kwargs=vote_pk,
        api=True,
        writes=True,
    ),
    Row("api-catalogue", "get", every(200), kwargs=lambda r: {"system": "kolaps"}, api=True),
    *(
        Row("api-catalogue", "get", every(200), kwargs=_system(slug), api=True, label=slug)
        for slug in CATALOGUE_SYSTEMS
    ),
    Row("api-catalogue", "get", every(404), kwargs=_system("chess"), api=True, label="unknown"),
    # An unknown token: 404 for everyone (a known one works signed in or not, tested apart).
    Row("notifications-unsubscribe", "get", every(404), kwargs=lambda r: {"token": "nope"}),
    Row(
        "notifications-unsubscribe",
        "post",
        every(404),
        kwargs=lambda r: {"token": "nope"},
        writes=True,
    ),
    Row(
        "api-notifications-unsubscribe",
        "post",
        every(404),
        kwargs=lambda r: {"token": "nope"},
        api=True,
        writes=True,
    ),
]


# --- The Of the Dead calculators (brawl, shot, throw) and their resolvers ----------------------
OF_THE_DEAD_BRAWL_FORM = {
    "attacker_combat": 3,
    "attacker_modifiers": 0,
    "attacker_surrounded_by": 0,
    "defender_combat": 2,
    "defender_modifiers": 0,
    "defender_surrounded_by": 0,
}


def of_the_dead_brawl(resolver="brawl"):
    return lambda roles: {"resolver": resolver}


def of_the_dead_body(action):
    dice = {"attacker_dice": "4 5 6", "defender_dice": "1 2"} if action == "evaluate" else {}
    return lambda roles, user: {**OF_THE_DEAD_BRAWL_FORM, **dice, "action": action}


def of_the_dead_resolve(verb):
    return lambda roles: {"system": "of_the_dead", "resolver": "brawl", "verb": verb}


def of_the_dead_api_body(roles, user):
    return {"attacker": {"combat": 3}, "defender": {"combat": 2}}


MATRIX += [
    Row("of-the-dead-calculator", "get", every(200), kwargs=of_the_dead_brawl()),
    Row(
        "of-the-dead-calculator",
        "post",
        every(200),
        kwargs=of_the_dead_brawl(),
        data=of_the_dead_body("evaluate"),
        label="evaluate",
    ),
    Row(
        "of-the-dead-calculator",
        "post",
        every(200),
        kwargs=of_the_dead_brawl(),
        data=of_the_dead_body("roll"),
        writes=True,
        denied=frozenset({"anonymous"}),
        label="roll",
    ),
    Row(
        "api-resolve",
        "post",
        every(200),
        kwargs=of_the_dead_resolve("odds"),
        data=of_the_dead_api_body,
        api=True,
        label="of-the-dead odds",
    ),
    Row(
        "api-resolve",
        "post",
        signed_in(201, anonymous=401),
        kwargs=of_the_dead_resolve("roll"),
        data=of_the_dead_api_body,
        api=True,
        writes=True,
        label="of-the-dead roll",
    ),
]

# The Django admin is staff-only as a whole: every one of its routes is covered by this rule.
ADMIN_NAMESPACE = "admin"


def _route_names(patterns, namespace=None):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = pattern.namespace or namespace
            if inner and namespace and pattern.namespace:
                inner = f"{namespace}:{pattern.namespace}"
            yield from _route_names(pattern.url_patterns, inner)
        elif isinstance(pattern, URLPattern):
            yield f"{namespace}:{pattern.name}" if namespace else pattern.name


def test_it_lists_every_route():
    """A route nobody thought about is a route nobody protected."""
    names = set(_route_names(get_resolver().url_patterns))
    assert None not in names, "every URL pattern needs a name to be listed in the matrix"
    listed = {row.name for row in MATRIX}
    missing = {n for n in names if not n.startswith(f"{ADMIN_NAMESPACE}:")} - listed
    assert not missing, f"routes missing from the authorization matrix: {sorted(missing)}"
    assert not listed - names, f"matrix rows for routes that no longer exist: {listed - names}"


def test_it_lists_every_api_operation(client):
    """Every operation of the OpenAPI schema has its row."""
    from django.urls import resolve

    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    listed = {(row.name, row.method) for row in MATRIX if row.api}
    missing = []
    for path, operations in schema["paths"].items():
        concrete = re.sub(r"\{(\w+)\}", lambda m: SAMPLE_PATH_VALUES.get(m.group(1), "1"), path)
        name = resolve(concrete).url_name
        missing.extend(
            (name, method)
            for method in operations
            if method in {"get", "post", "put", "patch", "delete"} and (name, method) not in listed
        )
    assert not missing, f"API operations missing from the matrix: {missing}"


# --- Modern RPG characters ---------------------------------------------------------------------


def modern_character_pk(roles):
    return {"pk": roles["modern_character"].pk}


MODERN_SHEET = {
    "name": "Recrue",
    "reflexes": "10",
    "endurance": "8",
    "sang_froid": "10",
    "empathie": "8",
    "skill_tir": "6",
    "specialities": ["course"],
    "hp_max": "10",
}
MODERN_SHEET_API = {
    "name": "Recrue",
    "characteristics": {"reflexes": 10, "endurance": 8, "sang_froid": 10, "empathie": 8},
    "skills": {"tir": 6},
}


def modern_version(body):
    return lambda roles, user: {**body, "version": roles["modern_character"].version}


MATRIX += [
    Row("modern-list", "get", PAGE_ONLY_FOR_SIGNED_IN),
    Row("modern-list", "post", every(302), data=lambda r, u: MODERN_SHEET, writes=True),
    Row("modern-character", "get", OWNER_ONLY_PAGE, kwargs=modern_character_pk),
    Row(
        "modern-character",
        "post",
        OWNER_ONLY_WRITE_PAGE,
        kwargs=modern_character_pk,
        data=modern_version({**MODERN_SHEET, "stress": "2"}),
        writes=True,
    ),
    Row("modern-character-history", "get", OWNER_ONLY_PAGE, kwargs=modern_character_pk),
    Row("modern-character-print", "get", OWNER_ONLY_PAGE, kwargs=modern_character_pk),
    Row("modern-character-export", "get", OWNER_ONLY_PAGE, kwargs=modern_character_pk),
    Row("api-modern-list", "get", signed_in(200, anonymous=401), api=True),
    Row(
        "api-modern-list",
        "post",
        signed_in(201, anonymous=401),
        data=lambda r, u: MODERN_SHEET_API,
        api=True,
        writes=True,
    ),
    Row("api-modern-character", "get", OWNER_ONLY_API, kwargs=modern_character_pk, api=True),
    Row(
        "api-modern-character",
        "patch",
        OWNER_ONLY_API,
        kwargs=modern_character_pk,
        data=modern_version({"stress": 2}),
        api=True,
        writes=True,
    ),
    Row(
        "api-modern-character-history", "get", OWNER_ONLY_API, kwargs=modern_character_pk, api=True
    ),
    Row("api-modern-character-export", "get", OWNER_ONLY_API, kwargs=modern_character_pk, api=True),
]


# --- Corporates characters ------------------------------------------------------------------


def corporates_character_pk(roles):
    return {"pk": roles["corporates_character"].pk}


CORPORATES_SHEET = {
    "name": "Recrue",
    "weapon": "cutting",
    "fatigue": "0",
    "wounds": "0",
    **{name: str(bounds["default"]) for name, bounds in CORPORATES_NUMBERS.items()},
}


def corporates_version(body):
    return lambda roles, user: {**body, "version": roles["corporates_character"].version}


MATRIX += [
    Row("corporates-list", "get", PAGE_ONLY_FOR_SIGNED_IN),
    Row("corporates-list", "post", every(302), data=lambda r, u: CORPORATES_SHEET, writes=True),
    Row("corporates-character", "get", OWNER_ONLY_PAGE, kwargs=corporates_character_pk),
    Row(
        "corporates-character",
        "post",
        OWNER_ONLY_WRITE_PAGE,
        kwargs=corporates_character_pk,
        data=corporates_version({**CORPORATES_SHEET, "wounds": "2"}),
        writes=True,
    ),
    Row("corporates-character-history", "get", OWNER_ONLY_PAGE, kwargs=corporates_character_pk),
    Row(
        "corporates-character-undo",
        "post",
        OWNER_ONLY_WRITE_PAGE,
        kwargs=corporates_character_pk,
        data=corporates_version({}),
        writes=True,
    ),
    Row("corporates-character-print", "get", OWNER_ONLY_PAGE, kwargs=corporates_character_pk),
    Row("api-corporates-list", "get", signed_in(200, anonymous=401), api=True),
    Row(
        "api-corporates-list",
        "post",
        signed_in(201, anonymous=401),
        data=lambda r, u: {"name": "Recrue", "numbers": {"shot_pool": 4}},
        api=True,
        writes=True,
    ),
    Row(
        "api-corporates-character", "get", OWNER_ONLY_API, kwargs=corporates_character_pk, api=True
    ),
    Row(
        "api-corporates-character",
        "patch",
        OWNER_ONLY_API,
        kwargs=corporates_character_pk,
        data=corporates_version({"wounds": 2}),
        api=True,
        writes=True,
    ),
    Row(
        "api-corporates-character-history",
        "get",
        OWNER_ONLY_API,
        kwargs=corporates_character_pk,
        api=True,
    ),
    Row(
        "api-corporates-character-undo",
        "post",
        OWNER_ONLY_API,
        kwargs=corporates_character_pk,
        data=corporates_version({}),
        api=True,
        writes=True,
    ),
]


def corporates_snapshot() -> tuple:
    from characters.corporates.models import CorporatesCharacter, CorporatesCharacterEvent

    return (
        sorted(
            CorporatesCharacter.objects.values_list("pk", "name", "wounds", "numbers", "version")
        ),
        CorporatesCharacterEvent.objects.count(),
    )


# --- Campaign rules settings (the matrix campaign is Of the Dead: nothing open to choose) --
MATRIX += [
    Row("campaign-rules-settings", "get", CAMPAIGN_MEMBERS_PAGE, kwargs=campaign_pk),
    Row(
        "campaign-rules-settings",
        "post",
        CAMPAIGN_MEMBERS_PAGE,
        kwargs=campaign_pk,
        data=lambda r, u: {},
        writes=True,
        denied=frozenset({"organiser", "participant"}),
    ),
    Row("api-campaign-rules-settings", "get", CAMPAIGN_MEMBERS_API, kwargs=campaign_pk, api=True),
    Row(
        "api-campaign-rules-settings",
        "post",
        {**CAMPAIGN_MEMBERS_API, "organiser": 400, "participant": 403},
        kwargs=campaign_pk,
        data=lambda r, u: {"settings": {}},
        api=True,
        writes=True,
    ),
]


def modern_snapshot() -> tuple:
    from characters.modern.models import ModernCharacter, ModernCharacterEvent

    return (
        sorted(ModernCharacter.objects.values_list("pk", "name", "stress", "version")),
        ModernCharacterEvent.objects.count(),
    )


# --- The live encounter at the table (rules/table/) ------------------------------------------
# The organiser created the pick-up games; the participant plays the other side's unit; the
# owner and the other player are strangers to them. A refusal reached in the page (no action
# to undo, no order to reveal) is its sentence with its 4xx, as in the API.
TABLE_PAGE = CAMPAIGN_MEMBERS_PAGE
TABLE_API = CAMPAIGN_MEMBERS_API
TABLE_ORGANISERS_PAGE = {**TABLE_PAGE, "participant": 403}
TABLE_ORGANISERS_API = {**TABLE_API, "participant": 403}
TABLE_WROTE_PAGE = {**TABLE_PAGE, "organiser": 302, "participant": 302}
TABLE_REFUSED_PAGE = {**TABLE_PAGE, "organiser": 400, "participant": 400}
TABLE_REFUSED_API = {**TABLE_API, "organiser": 400, "participant": 400}


def table_speech_pk(roles):
    return {"pk": roles["table_speech"].pk}


def table_action_pk(roles):
    return {"pk": roles["table_action"].pk}


def table_chapter_pk(roles):
    return {"pk": roles["table_chapter"].pk}


def table_token(roles):
    return {"token": roles["table_speech"].spectator_token}


def _hunter(roles):
    return roles["table_action"].combatants.get(side="Meute", position=2).pk


def _police(roles):
    return roles["table_action"].combatants.get(side="Brigade", position=0).pk


def table_melee(roles, user):
    """The participant's hunter attacks the organiser's police: allowed to both of them."""
    return {
        "version": roles["table_action"].version,
        "kind": "melee",
        "actor": _hunter(roles),
        "target": _police(roles),
        "roll": "server",
        "distance_cm": 0,
        "cover": 0,
    }


def table_order(roles, user):
    hunter = roles["table_speech"].combatants.get(side="Meute", position=2).pk
    return {"version": 1, "combatant": hunter, "directive": "defensive"}


def table_version(encounter_key):
    return lambda roles, user: {"version": roles[encounter_key].version}


def table_stray_body(roles, user):
    """The choice of a stray shot's figure on the target's side: there is none waiting in
    the matrix's encounter, so the roles who may see it get the sentence (400)."""
    return {"version": roles["table_action"].version, "ally": _hunter(roles), "roll": "server"}


def table_reveal_body(roles, user):
    return {**table_order(roles, user), "directive": ""}


def table_new_page(roles, user):
    return {"first": roles["table_police"].pk, "second": roles["table_spare"].pk, "title": ""}


def table_new_api(roles, user):
    return {"units": [roles["table_police"].pk, roles["table_spare"].pk]}


def table_otd_pk(roles):
    return {"pk": roles["table_otd"].pk}


def table_otd_add_page(roles, user):
    """Two zonards, on the page's prefixed form."""
    return {
        "add-version": roles["table_otd"].version,
        "add-kind": "zombie",
        "add-zombie_type": "zonard",
        "add-count": 2,
        "add-reflexes": 1,
        "add-combat": 2,
        "add-physique": 1,
        "add-life": 2,
        "add-moral": 0,
    }


def table_otd_add_api(roles, user):
    return {
        "version": roles["table_otd"].version,
        "kind": "zombie",
        "zombie_type": "zonard",
        "count": 2,
        "reflexes": 1,
        "combat": 2,
        "life": 2,
    }


TABLE_NEW_PAGE = {**dict.fromkeys(SIGNED_IN, 400), "anonymous": 302, "organiser": 302}
TABLE_NEW_API = {**dict.fromkeys(SIGNED_IN, 400), "anonymous": 401, "organiser": 201}
TABLE_OPEN_PAGE = {**TABLE_ORGANISERS_PAGE, "organiser": 302}
TABLE_OPEN_API = {**TABLE_ORGANISERS_API, "organiser": 201}

MATRIX += [
    Row("table-encounter", "get", TABLE_PAGE, kwargs=table_action_pk),
    Row("api-table-encounter", "get", TABLE_API, kwargs=table_action_pk, api=True),
    Row("table-watch", "get", every(200), kwargs=table_token),
    # The service worker: a script of the app shell, the same for everyone.
    Row("table-service-worker", "get", every(200)),
    Row("api-table-watch", "get", every(200), kwargs=table_token, api=True),
    Row("table-odds", "get", TABLE_PAGE, kwargs=table_action_pk, data=table_melee),
    Row("api-table-odds", "post", TABLE_API, kwargs=table_action_pk, data=table_melee, api=True),
    Row(
        "table-act", "post", TABLE_WROTE_PAGE, kwargs=table_action_pk, data=table_melee, writes=True
    ),
    Row(
        "api-table-act",
        "post",
        {**TABLE_API, "organiser": 200, "participant": 200},
        kwargs=table_action_pk,
        data=table_melee,
        api=True,
        writes=True,
    ),
    Row(
        "table-undo",
        "post",
        TABLE_REFUSED_PAGE,
        kwargs=table_action_pk,
        data=table_version("table_action"),
        writes=True,
    ),
    Row(
        "api-table-undo",
        "post",
        TABLE_REFUSED_API,
        kwargs=table_action_pk,
        data=table_version("table_action"),
        api=True,
        writes=True,
    ),
    Row(
        "table-stray",
        "post",
        TABLE_REFUSED_PAGE,
        kwargs=table_action_pk,
        data=table_stray_body,
        writes=True,
    ),
    Row(
        "api-table-stray",
        "post",
        TABLE_REFUSED_API,
        kwargs=table_action_pk,
        data=table_stray_body,
        api=True,
        writes=True,
    ),
    Row(
        "table-directive",
        "post",
        TABLE_WROTE_PAGE,
        kwargs=table_speech_pk,
        data=table_order,
        writes=True,
    ),
    Row(
        "api-table-directive",
        "post",
        {**TABLE_API, "organiser": 200, "participant": 200},
        kwargs=table_speech_pk,
        data=table_order,
        api=True,
        writes=True,
    ),
    Row(
        "table-reveal",
        "post",
        TABLE_REFUSED_PAGE,
        kwargs=table_speech_pk,
        data=table_reveal_body,
        writes=True,
    ),
    Row(
        "api-table-reveal",
        "post",
        TABLE_REFUSED_API,
        kwargs=table_speech_pk,
        data=table_reveal_body,
        api=True,
        writes=True,
    ),
    Row(
        "table-advance",
        "post",
        {**TABLE_ORGANISERS_PAGE, "organiser": 302},
        kwargs=table_speech_pk,
        data=table_version("table_speech"),
        writes=True,
    ),
    Row(
        "api-table-advance",
        "post",
        {**TABLE_ORGANISERS_API, "organiser": 200},
        kwargs=table_speech_pk,
        data=table_version("table_speech"),
        api=True,
        writes=True,
    ),
    Row(
        "table-end",
        "post",
        {**TABLE_ORGANISERS_PAGE, "organiser": 302},
        kwargs=table_speech_pk,
        data=table_version("table_speech"),
        writes=True,
    ),
    Row(
        "api-table-end",
        "post",
        {**TABLE_ORGANISERS_API, "organiser": 200},
        kwargs=table_speech_pk,
        data=table_version("table_speech"),
        api=True,
        writes=True,
    ),
    # The spectator link: the organiser revokes it or makes a new one (live or ended).
    *(
        row
        for action in ("revoke", "rotate")
        for row in (
            Row(
                f"table-link-{action}",
                "post",
                {**TABLE_ORGANISERS_PAGE, "organiser": 302},
                kwargs=table_action_pk,
                writes=True,
            ),
            Row(
                f"api-table-link-{action}",
                "post",
                {**TABLE_ORGANISERS_API, "organiser": 200},
                kwargs=table_action_pk,
                api=True,
                writes=True,
            ),
        )
    ),
    Row("table-new", "get", PAGE_ONLY_FOR_SIGNED_IN),
    Row("table-new", "post", TABLE_NEW_PAGE, data=table_new_page, writes=True),
    Row("api-table-new", "post", TABLE_NEW_API, data=table_new_api, api=True, writes=True),
    # Of the Dead: the organiser adds zombies; anyone signed in opens a quick party.
    Row(
        "table-add",
        "post",
        {**TABLE_ORGANISERS_PAGE, "organiser": 302},
        kwargs=table_otd_pk,
        data=table_otd_add_page,
        writes=True,
    ),
    Row(
        "api-table-add",
        "post",
        {**TABLE_ORGANISERS_API, "organiser": 200},
        kwargs=table_otd_pk,
        data=table_otd_add_api,
        api=True,
        writes=True,
    ),
    Row("table-new-of-the-dead", "get", PAGE_ONLY_FOR_SIGNED_IN),
    Row(
        "table-new-of-the-dead",
        "post",
        signed_in(302, anonymous=302),
        data=lambda roles, user: {"title": "Ce soir"},
        writes=True,
    ),
    Row(
        "api-table-new-of-the-dead",
        "post",
        signed_in(201, anonymous=401),
        data=lambda roles, user: {"title": "Ce soir"},
        api=True,
        writes=True,
    ),
    Row("chapter-table", "post", TABLE_OPEN_PAGE, kwargs=table_chapter_pk, writes=True),
    Row(
        "api-chapter-table",
        "post",
        TABLE_OPEN_API,
        kwargs=table_chapter_pk,
        api=True,
        writes=True,
    ),
]


def snapshot() -> tuple:
    return (
        sorted(Player.objects.values_list("username", "email", "display_name", "password")),
        sorted(Token.objects.values_list("user__username", "key")),
        sorted(Campaign.objects.values_list("pk", "name", "organiser_id")),
        sorted(Membership.objects.values_list("campaign_id", "player_id")),
        CampaignEvent.objects.count(),
        RollRecord.objects.count(),
        *kolaps_snapshot(),
        *kolaps_chapter_snapshot(),
        *modern_snapshot(),
        *corporates_snapshot(),
        *table_snapshot(),
    )


def kolaps_chapter_snapshot() -> tuple:
    from campaigns.models import ChapterUnitEntry, ChapterUnitResult
    from characters.models import Trauma

    return (
        sorted(ChapterUnitEntry.objects.values_list("chapter_id", "unit_id", "side")),
        sorted(ChapterUnitResult.objects.values_list("chapter_id", "unit_id", "result")),
        sorted(Trauma.objects.values_list("pk", "active", "permanence")),
    )


def kolaps_snapshot() -> tuple:
    from characters.kolaps.models import KolapsChange, KolapsCharacter, KolapsUnit

    return (
        sorted(
            KolapsUnit.objects.values_list("pk", "name", "vu", "status", "share_token", "version")
        ),
        sorted(
            KolapsCharacter.objects.values_list(
                "pk", "name", "unit_id", "is_avatar", "rank", "talents", "equipment", "version"
            ),
            key=lambda row: row[0],
        ),
        KolapsChange.objects.count(),
        *otd_snapshot(),
        *_settlement_snapshot(),
    )


def otd_snapshot() -> tuple:
    from campaigns.models import (
        Ballot,
        CalendarFeed,
        Chapter,
        ChapterOutcome,
        Invitation,
        VocationAssignment,
        Vote,
    )
    from characters.models import Profile, ProfileEvent, Trauma

    return (
        sorted(Membership.objects.values_list("campaign_id", "player_id", "role")),
        sorted(Campaign.objects.values_list("pk", "description", "chapters_planned")),
        sorted(Profile.objects.values_list("player_id", "version", "description", "physique")),
        Trauma.objects.count(),
        ProfileEvent.objects.count(),
        sorted(Chapter.objects.values_list("pk", "title", "status", "place")),
        sorted(Invitation.objects.values_list("pk", "revoked_at")),
        sorted(Vote.objects.values_list("pk", "status")),
        sorted(Ballot.objects.values_list("voter_id", "chapter_id", "vocation", "nominee_id")),
        sorted(VocationAssignment.objects.values_list("chapter_id", "player_id", "vocation")),
        ChapterOutcome.objects.count(),
        sorted(CalendarFeed.objects.values_list("player_id", "token")),
    )


def _settlement_snapshot() -> tuple:
    from campaigns.models import Chapter, ChapterSettlement, EncounterEvent, SettlementEntry
    from characters.models import Profile

    return (
        EncounterEvent.objects.count(),
        sorted(Chapter.objects.values_list("pk", "settled_at"), key=repr),
        sorted(ChapterSettlement.objects.values_list("chapter_id", "status")),
        SettlementEntry.objects.filter(reverted_at__isnull=True).count(),
        sorted(Profile.objects.values_list("pk", "status", "survival_points", "version")),
    )


def _request(client, row: Row, world: World, role: str):
    roles = world.roles
    user = roles[role]
    log_in(client, world, role)
    url = row.url(roles)
    data = row.data(roles, user) if row.data else {}
    if row.api and row.method in {"post", "patch", "delete"}:
        return getattr(client, row.method)(url, data, content_type="application/json")
    return getattr(client, row.method)(url, data)


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(
    "row", MATRIX, ids=lambda r: f"{r.method}-{r.name}" + (f"-{r.label}" if r.label else "")
)
def test_it_answers_each_role_as_the_matrix_says(client, matrix_world, roles, row, role):
    response = _request(client, row, matrix_world, role)
    assert response.status_code == row.expect[role], (
        f"{row.method.upper()} {row.name} as {role}: {response.status_code}"
    )
    denied = response.status_code >= 400 or (
        response.status_code == 302 and "/accounts/login/" in response.get("Location", "")
    )
    denied = denied or role in row.denied
    if row.writes and denied:
        assert snapshot() == matrix_world.pristine, (
            f"a refused {row.method} on {row.name} changed the database"
        )
    if row.api and response.status_code >= 400 and response.content:
        body = response.json()
        assert body, "an API refusal carries a sentence"


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_it_keeps_the_admin_for_staff(client, roles, role):
    """Players, organisers included, never reach the admin; staff do."""
    if roles[role] is not None:
        client.force_login(roles[role])
    response = client.get(reverse("admin:characters_player_changelist"))
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


@pytest.mark.django_db
def test_it_opens_the_admin_to_staff(client, roles):
    staff = roles["owner"]
    Player.objects.filter(pk=staff.pk).update(is_staff=True, is_superuser=True)
    client.force_login(Player.objects.get(pk=staff.pk))
    assert client.get(reverse("admin:index")).status_code == 200
    assert client.get(reverse("admin:campaigns_campaign_changelist")).status_code == 200
    # Campaigns change only through the services (which keep the history): read-only here.
    campaign = roles["campaign"]
    url = reverse("admin:campaigns_campaign_change", args=[campaign.pk])
    assert client.get(url).status_code == 200
    client.post(url, {"name": "Renamed", "system": "kolaps", "organiser": staff.pk})
    assert Campaign.objects.get(pk=campaign.pk).name == "Matrix"
    assert client.get(reverse("admin:campaigns_campaign_add")).status_code == 403


# --- Pages and their API twins ---------------------------------------------------------------
# A page and its API twin are declared together here, so that the two cannot drift apart: the
# rows of a pair with the same label must give every role the same verdict. A page answers
# with its own means (a redirect to the login page, a redirect after a write, a refusal shown
# in the page); these are read as the API's 401, 2xx and 4xx. A page whose path has a twin
# under /api/v1/, or a page `name` with an API route `api-name`, must be declared here.


@dataclass(frozen=True)
class Twin:
    page: str
    api: str
    # (page method, API method) compared; none: every method both routes have rows for.
    methods: tuple[tuple[str, str], ...] = ()

    def method_pairs(self) -> list[tuple[str, str]]:
        if self.methods:
            return list(self.methods)
        page = {row.method for row in MATRIX if row.name == self.page}
        api = {row.method for row in MATRIX if row.name == self.api}
        return [(method, method) for method in sorted(page & api)]


TWINS: tuple[Twin, ...] = (
    Twin("home", "api-root"),
    Twin("signup", "api-signup"),
    Twin("account", "api-me", (("get", "get"), ("post", "patch"))),
    Twin("password_change", "api-password", (("post", "post"),)),
    Twin("roll-list", "api-roll-list"),
    Twin("roll-detail", "api-roll-detail"),
    # KOLAPS units and characters
    Twin("kolaps-list", "api-kolaps-unit-list", (("get", "get"),)),
    Twin("kolaps-unit-create", "api-kolaps-unit-list", (("post", "post"),)),
    Twin("kolaps-unit-import", "api-kolaps-unit-import"),
    Twin("kolaps-unit", "api-kolaps-unit"),
    Twin("kolaps-unit", "api-kolaps-unit-change", (("post", "post"),)),
    Twin("kolaps-unit-history", "api-kolaps-unit-history"),
    Twin("kolaps-unit-history", "api-kolaps-unit-undo", (("post", "post"),)),
    Twin("kolaps-unit-export", "api-kolaps-unit-export"),
    Twin("kolaps-character-create", "api-kolaps-character-list", (("post", "post"),)),
    Twin("kolaps-character", "api-kolaps-character"),
    Twin("kolaps-character", "api-kolaps-character-change", (("post", "post"),)),
    Twin("kolaps-character-history", "api-kolaps-character-history"),
    Twin("kolaps-character-history", "api-kolaps-character-undo", (("post", "post"),)),
    Twin("kolaps-shared", "api-kolaps-shared"),
    # Rapid 40000 army lists
    Twin("rapid40k-list", "api-rapid40k-army-list", (("get", "get"),)),
    Twin("rapid40k-army-create", "api-rapid40k-army-list", (("post", "post"),)),
    Twin("rapid40k-army-import", "api-rapid40k-army-import"),
    Twin("rapid40k-army", "api-rapid40k-army"),
    Twin("rapid40k-army", "api-rapid40k-army-change", (("post", "post"),)),
    Twin("rapid40k-army-history", "api-rapid40k-army-history"),
    Twin("rapid40k-army-history", "api-rapid40k-army-undo", (("post", "post"),)),
    Twin("rapid40k-army-export", "api-rapid40k-army-export"),
    Twin("rapid40k-shared", "api-rapid40k-shared"),
    Twin("rapid40k-compare", "api-rapid40k-compare"),
    # Profiles
    Twin("profile-mine", "api-profile-mine"),
    Twin("profile-sheet", "api-profile-sheet"),
    Twin("profile-public", "api-profile-public"),
    Twin("profile-trauma-heal", "api-profile-trauma-heal"),
    Twin("profile-history", "api-profile-history"),
    Twin("profile-death-choice", "api-profile-death-choice"),
    # Campaigns, invitations, chapters, votes
    Twin("campaign-list", "api-campaign-list"),
    Twin("campaign-create", "api-campaign-list", (("post", "post"),)),
    Twin("campaign-detail", "api-campaign-detail"),
    Twin("campaign-edit", "api-campaign-detail", (("post", "patch"),)),
    Twin("campaign-export", "api-campaign-export"),
    Twin("campaign-import", "api-campaign-import"),
    Twin("invitation-create", "api-invitation-create"),
    Twin("invitation-revoke", "api-invitation-revoke"),
    Twin("campaign-join", "api-campaign-join"),
    Twin("campaign-leave", "api-campaign-leave"),
    Twin("campaign-co-organisers", "api-campaign-co-organisers"),
    Twin("campaign-leaderboard", "api-campaign-leaderboard"),
    Twin("leaderboard", "api-leaderboard"),
    Twin("chapter-create", "api-chapter-create"),
    Twin("chapter-upcoming", "api-chapter-upcoming"),
    Twin("chapter-detail", "api-chapter-detail"),
    Twin("chapter-edit", "api-chapter-detail", (("post", "patch"),)),
    Twin("chapter-vocation", "api-chapter-vocation"),
    Twin("chapter-start", "api-chapter-start"),
    Twin("chapter-unit-enter", "api-chapter-units"),
    Twin("chapter-unit-withdraw", "api-chapter-unit", (("post", "delete"),)),
    Twin("chapter-army-enter", "api-chapter-armies"),
    Twin("chapter-army-withdraw", "api-chapter-army", (("post", "delete"),)),
    Twin("chapter-sheet-enter", "api-chapter-sheets"),
    Twin("chapter-sheet-withdraw", "api-chapter-sheet", (("post", "delete"),)),
    Twin("chapter-close", "api-chapter-close"),
    Twin("chapter-encounter", "api-chapter-encounter"),
    Twin("chapter-settlement", "api-chapter-settlement"),
    Twin("chapter-settlement-reopen", "api-chapter-settlement-reopen"),
    Twin("vote-open", "api-vote-open"),
    Twin("vote-detail", "api-vote-detail"),
    Twin("vote-detail", "api-vote-ballot", (("post", "post"),)),
    Twin("vote-close", "api-vote-close"),
    Twin("vote-closing", "api-vote-closing"),
    Twin("calendar-token", "api-calendar-token"),
    Twin("dashboard", "api-dashboard"),
    Twin("catalogue", "api-catalogue"),
    Twin("dice-calculators", "api-rules-system"),
    Twin("vote-remind", "api-vote-remind"),
    Twin("notifications", "api-notifications", (("get", "get"), ("post", "patch"))),
    Twin("notifications-unsubscribe", "api-notifications-unsubscribe", (("post", "post"),)),
    Twin("campaign-rules-settings", "api-campaign-rules-settings"),
    # Modern RPG characters
    Twin("modern-list", "api-modern-list"),
    Twin("modern-character", "api-modern-character", (("get", "get"), ("post", "patch"))),
    Twin("modern-character-history", "api-modern-character-history"),
    Twin("modern-character-export", "api-modern-character-export"),
    Twin("corporates-list", "api-corporates-list"),
    Twin("corporates-character", "api-corporates-character", (("get", "get"), ("post", "patch"))),
    Twin("corporates-character-history", "api-corporates-character-history"),
    Twin("corporates-character-undo", "api-corporates-character-undo", (("post", "post"),)),
    # The live encounter at the table
    Twin("table-encounter", "api-table-encounter"),
    Twin("table-watch", "api-table-watch"),
    Twin("table-odds", "api-table-odds", (("get", "post"),)),
    Twin("table-act", "api-table-act"),
    Twin("table-undo", "api-table-undo"),
    Twin("table-stray", "api-table-stray"),
    Twin("table-directive", "api-table-directive"),
    Twin("table-reveal", "api-table-reveal"),
    Twin("table-advance", "api-table-advance"),
    Twin("table-end", "api-table-end"),
    Twin("table-link-revoke", "api-table-link-revoke"),
    Twin("table-link-rotate", "api-table-link-rotate"),
    Twin("table-new", "api-table-new", (("post", "post"),)),
    Twin("table-add", "api-table-add"),
    Twin("table-new-of-the-dead", "api-table-new-of-the-dead", (("post", "post"),)),
    Twin("chapter-table", "api-chapter-table"),
)

# Pairs whose verdicts differ, each for its reason, keyed by (page route, page method).
TWINS_THAT_DIFFER = {
    # No two lists chosen yet: the page shows its form, the API says what is missing.
    ("rapid40k-compare", "get"): "the page shows the form where the API answers 400",
    # The page offers what the API refuses: creating your profile, or the form of your death
    # choice with the sentence that there is none to make.
    ("profile-mine", "get"): "no profile yet: the page shows the form to create one",
    ("profile-mine", "post"): "the page redirects to the form whatever the refusal",
    ("profile-sheet", "get"): "no profile yet: the page redirects to the profile page",
    ("profile-death-choice", "post"): "no death choice to make: the page says so",
    # Signing up: the page redirects, after the new account or, signed in already, to yours.
    ("signup", "post"): "the page redirects where the API answers 201 or 403",
}


def _verdict(row: Row, role: str) -> str:
    status = row.expect[role]
    if role in row.denied:
        return "refused"
    if status in (200, 201, 202, 204) or (status == 302 and role != "anonymous"):
        return "allowed"
    if status in (302, 401) or (status == 403 and role == "anonymous" and row.api):
        return "log in"
    return "refused" if status in (400, 403) else str(status)


def _twin_rows(twin: Twin) -> list[tuple[Row, Row]]:
    """The rows of a pair: each declared method pair, label by label."""
    rows = []
    for page_method, api_method in twin.method_pairs():
        api = {
            row.label: row
            for row in MATRIX
            if row.api and (row.name, row.method) == (twin.api, api_method)
        }
        rows.extend(
            (row, api[row.label])
            for row in MATRIX
            if not row.api and (row.name, row.method) == (twin.page, page_method)
            if row.label in api
        )
    return rows


def _route_paths(patterns, prefix=""):
    """(name, path pattern) of every named route outside the admin."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            if pattern.namespace != ADMIN_NAMESPACE:
                yield from _route_paths(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield pattern.name, prefix + str(pattern.pattern)


def _twins_in_the_routes() -> set[tuple[str, str]]:
    """Pages and API routes that are twins by their path (the page's path under /api/v1/) or
    by their name (`name` and `api-name`), seen from both sides."""
    paths = dict(_route_paths(get_resolver().url_patterns))
    pages = {name: path for name, path in paths.items() if not path.startswith("api/")}
    api = {name: path for name, path in paths.items() if path.startswith("api/v1/")}
    by_path = {path: name for name, path in pages.items()}
    found = {(page, f"api-{page}") for page in pages if f"api-{page}" in api}
    found |= {(page, api_name) for page, path in pages.items() for api_name in api
              if api[api_name] == f"api/v1/{path}"}  # fmt: skip
    found |= {(by_path[path.removeprefix("api/v1/")], name) for name, path in api.items()
              if path.removeprefix("api/v1/") in by_path}  # fmt: skip
    return found


def test_it_pairs_pages_with_their_api_twins():
    """A page and its API twin nobody paired could drift apart unseen."""
    declared = {(twin.page, twin.api) for twin in TWINS}
    missing = _twins_in_the_routes() - declared
    assert not missing, f"pages and API twins to declare in TWINS: {sorted(missing)}"
    for twin in TWINS:
        assert _twin_rows(twin), f"{twin} compares no rows"
    for page, api in declared:
        assert {(r.name, r.api) for r in MATRIX} >= {(page, False), (api, True)}, (page, api)
    compared = {
        (page.name, page.method): _verdicts(page, api)
        for twin in TWINS
        for page, api in _twin_rows(twin)
    }
    for key, reason in TWINS_THAT_DIFFER.items():
        assert key in compared, f"{key} is no pair: {reason}"
        assert not all(p == a for p, a in compared[key].values()), f"{key} now agree"


def _verdicts(page: Row, api: Row) -> dict[str, tuple[str, str]]:
    return {role: (_verdict(page, role), _verdict(api, role)) for role in ROLES}


@pytest.mark.parametrize(
    ("page", "api"),
    [
        pair
        for twin in TWINS
        for pair in _twin_rows(twin)
        if (pair[0].name, pair[0].method) not in TWINS_THAT_DIFFER
    ],
    ids=lambda row: f"{row.method}-{row.name}" + (f"-{row.label}" if row.label else ""),
)
def test_a_page_and_its_api_twin_answer_each_role_alike(page, api):
    verdicts = _verdicts(page, api)
    assert all(p == a for p, a in verdicts.values()), verdicts
