"""KOLAPS characters and units: every write through the services, with history and undo."""

import json

import pytest
from django.db import IntegrityError, transaction
from django.utils import translation

from characters.kolaps import services, undo
from characters.kolaps import unit_file as kolaps_io
from characters.kolaps.models import KolapsChange, KolapsCharacter, KolapsUnit
from characters.permissions import Forbidden, Refusal
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english():
    """Sentences are checked in English, whatever the French catalogue holds."""
    with translation.override("en"):
        yield


@pytest.fixture
def owner():
    return PlayerFactory(username="alice")


def police(owner, name="Dupont", rank="veteran", unit=None, archetype="agent-de-police"):
    return services.character_create(
        owner=owner, name=name, archetype=archetype, rank=rank, unit=unit
    )


def raise_(owner, character, talent, times=1):
    for _ in range(times):
        character.refresh_from_db()
        services.character_raise(
            actor=owner, character=character, version=character.version, talent=talent
        )
    character.refresh_from_db()
    return character


def fresh(obj):
    obj.refresh_from_db()
    return obj


def test_it_creates_a_character_from_its_archetype_at_expertise_0(owner):
    character = police(owner)
    assert character.talents == {
        "discipline": 0, "pistolet": 0, "fusil": 0, "bouclier": 0, "corps-a-corps": 0, "marche": 0,
    }  # fmt: skip
    assert character.equipment == [
        "pa-police-50", "fa-f4", "tenue-legere-sti-europa", "matraque-composite",
    ]  # fmt: skip
    assert (character.sante, character.souffle, character.moral) == (6, 6, 6)
    assert character.catalogue_version == services.catalogue().version
    assert KolapsChange.objects.get(character=character).verb == "created"


def test_it_refuses_a_rank_the_archetype_does_not_allow(owner):
    with pytest.raises(Refusal) as refusal:
        police(owner, archetype="agent-anti-emeute", rank="novice")
    assert refusal.value.field == "rank"
    assert not KolapsCharacter.objects.exists()


def test_it_raises_and_lowers_expertise_and_buys_and_drops_specialisations(owner):
    character = raise_(owner, police(owner), "fusil", 2)
    assert character.talents["fusil"] == 2
    character = raise_(owner, character, "tir-instinctif")
    assert character.talents["tir-instinctif"] == 1
    services.character_lower(
        actor=owner, character=character, version=character.version, talent="tir-instinctif"
    )
    assert "tir-instinctif" not in fresh(character).talents
    assert fresh(character).version == 5


def test_it_refuses_a_specialisation_whose_prerequisite_is_missing(owner):
    """Tir instinctif 1: "Prérequis : Expertise fusil ou pistolet 1"."""
    character = police(owner)
    with pytest.raises(Refusal) as refusal:
        services.character_raise(
            actor=owner, character=character, version=character.version, talent="tir-instinctif"
        )
    assert "Fusil 1" in str(refusal.value.message)
    assert fresh(character).version == 1


def test_it_refuses_lowering_a_base_talent_below_0(owner):
    character = police(owner)
    with pytest.raises(Refusal):
        services.character_lower(
            actor=owner, character=character, version=character.version, talent="fusil"
        )


def test_it_refuses_a_stale_version_with_the_current_state(owner):
    character = raise_(owner, police(owner), "fusil")
    with pytest.raises(services.StaleVersion) as stale:
        services.character_raise(actor=owner, character=character, version=1, talent="marche")
    assert stale.value.status == 409
    assert stale.value.current.talents["fusil"] == 1
    assert fresh(character).talents["marche"] == 0


def test_it_picks_equipment_among_the_choices_only(owner):
    character = police(owner)
    services.character_set_equipment(
        actor=owner, character=character, version=1, group=2, item="fpa-lg-mod-39"
    )
    assert fresh(character).equipment[1] == "fpa-lg-mod-39"
    with pytest.raises(Refusal):
        services.character_set_equipment(
            actor=owner, character=character, version=2, group=2, item="griffes"
        )


def test_it_keeps_gauges_within_1_and_6_in_the_service_and_the_database(owner):
    character = police(owner)
    with pytest.raises(Refusal) as refusal:
        services.character_set_gauges(
            actor=owner, character=character, version=1, sante=7, souffle=6, moral=6
        )
    assert refusal.value.field == "sante"
    services.character_set_gauges(
        actor=owner, character=character, version=1, sante=3, souffle=2, moral=1
    )
    assert (fresh(character).sante, character.souffle, character.moral) == (3, 2, 1)
    for gauge in ("sante", "souffle", "moral"):
        with pytest.raises(IntegrityError), transaction.atomic():
            KolapsCharacter.objects.filter(pk=character.pk).update(**{gauge: 0})


def test_it_values_a_unit_and_makes_it_valid_with_one_avatar(owner):
    unit = services.unit_create(owner=owner, name="Section 4")
    assert (fresh(unit).vu, unit.status) == (0, "draft")
    veteran = raise_(owner, police(owner, "Dupont", unit=unit), "fusil", 2)
    novice = police(owner, "Martin", rank="novice", unit=unit)
    assert (fresh(unit).vu, unit.status) == (4, "draft")
    services.unit_set_avatar(actor=owner, unit=unit, version=fresh(unit).version, character=novice)
    assert (fresh(unit).vu, unit.status) == (4, "valid")
    services.unit_set_avatar(actor=owner, unit=unit, version=fresh(unit).version, character=veteran)
    assert list(unit.members.filter(is_avatar=True).values_list("name", flat=True)) == ["Dupont"]
    with pytest.raises(services.StaleVersion):
        services.unit_rename(actor=owner, unit=unit, version=1, name="Late")


def test_it_keeps_a_unit_with_two_characters_of_one_name_as_a_draft(owner):
    unit = services.unit_create(owner=owner, name="U")
    chief = police(owner, "Dupont", unit=unit)
    services.unit_set_avatar(actor=owner, unit=unit, version=fresh(unit).version, character=chief)
    assert fresh(unit).status == "valid"
    police(owner, "dupont", unit=unit)
    assert fresh(unit).status == "draft"
    with pytest.raises(Refusal):
        services.unit_require_valid(unit)


def test_it_refuses_anything_not_the_actors_own_and_writes_nothing(owner):
    other = PlayerFactory(username="bruno")
    unit = services.unit_create(owner=owner, name="U")
    character = police(owner)
    theirs = police(other, "Theirs")
    before = KolapsChange.objects.count()
    with pytest.raises(Forbidden):
        services.character_raise(actor=other, character=character, version=1, talent="fusil")
    with pytest.raises(Forbidden):
        services.unit_add_character(actor=other, unit=unit, version=1, character=character)
    with pytest.raises(Refusal):
        services.unit_add_character(actor=owner, unit=unit, version=1, character=theirs)
    assert KolapsChange.objects.count() == before
    assert fresh(theirs).unit_id is None and fresh(character).talents["fusil"] == 0


def test_it_moves_a_character_only_out_of_one_unit_and_into_another(owner):
    first = services.unit_create(owner=owner, name="A")
    second = services.unit_create(owner=owner, name="B")
    character = police(owner, unit=first)
    with pytest.raises(Refusal):
        services.unit_add_character(
            actor=owner, unit=second, version=fresh(second).version, character=character
        )
    services.unit_remove_character(
        actor=owner, unit=first, version=fresh(first).version, character=character
    )
    services.unit_add_character(
        actor=owner, unit=second, version=fresh(second).version, character=character
    )
    assert fresh(character).unit_id == second.pk
    assert (fresh(first).vu, fresh(second).vu) == (0, 3)


def test_it_undoes_the_last_change_then_the_one_before(owner):
    unit = services.unit_create(owner=owner, name="U")
    character = raise_(owner, police(owner, unit=unit), "fusil", 2)
    services.unit_rename(actor=owner, unit=unit, version=fresh(unit).version, name="Renamed")
    undo.unit_undo(actor=owner, unit=unit, version=fresh(unit).version)
    assert fresh(unit).name == "U"
    undo.unit_undo(actor=owner, unit=unit, version=fresh(unit).version)
    assert fresh(character).talents["fusil"] == 1
    assert fresh(unit).vu == 3
    undo.character_undo(actor=owner, character=character, version=fresh(character).version)
    assert fresh(character).talents["fusil"] == 0
    with pytest.raises(Refusal) as refusal:
        undo.character_undo(actor=owner, character=character, version=fresh(character).version)
    assert "nothing left" in str(refusal.value.message)
    verbs = list(KolapsChange.objects.filter(unit=unit).values_list("verb", flat=True))
    assert verbs.count("undo") == 3  # history only grows


def test_it_refuses_to_undo_what_was_changed_again_since(owner):
    unit = services.unit_create(owner=owner, name="U")
    character = police(owner, unit=unit)
    services.unit_remove_character(
        actor=owner, unit=unit, version=fresh(unit).version, character=character
    )
    other = services.unit_create(owner=owner, name="Other")
    services.unit_add_character(
        actor=owner, unit=other, version=fresh(other).version, character=character
    )
    with pytest.raises(Refusal) as refusal:
        undo.unit_undo(actor=owner, unit=unit, version=fresh(unit).version)
    assert refusal.value.status == 409
    assert fresh(character).unit_id == other.pk


def test_it_undoes_an_avatar_choice(owner):
    unit = services.unit_create(owner=owner, name="U")
    first = police(owner, "A", unit=unit)
    second = police(owner, "B", unit=unit)
    services.unit_set_avatar(actor=owner, unit=unit, version=fresh(unit).version, character=first)
    services.unit_set_avatar(actor=owner, unit=unit, version=fresh(unit).version, character=second)
    undo.unit_undo(actor=owner, unit=unit, version=fresh(unit).version)
    assert (fresh(first).is_avatar, fresh(second).is_avatar) == (True, False)


def test_it_duplicates_a_unit_with_copies_of_its_characters(owner):
    unit = services.unit_create(owner=owner, name="U")
    chief = police(owner, unit=unit)
    services.unit_set_avatar(actor=owner, unit=unit, version=fresh(unit).version, character=chief)
    copy = services.unit_duplicate(actor=owner, unit=unit)
    assert copy.name == "U (copy)"
    assert (copy.vu, copy.status) == (3, "valid")
    assert copy.members.get().pk != chief.pk
    single = services.character_duplicate(actor=owner, character=chief)
    assert single.unit_id is None and not single.is_avatar


def test_it_shares_and_revokes_a_link(owner):
    unit = services.unit_create(owner=owner, name="U")
    services.unit_share(actor=owner, unit=unit, version=fresh(unit).version)
    token = fresh(unit).share_token
    assert token and len(token) >= 32
    services.unit_unshare(actor=owner, unit=unit, version=fresh(unit).version)
    assert fresh(unit).share_token is None


# --- Export and import -----------------------------------------------------------------------


def _exported(unit):
    members = list(unit.members.order_by("position", "pk"))
    return kolaps_io.unit_export_text(fresh(unit), members)


def _built_unit(owner):
    unit = services.unit_create(owner=owner, name="Section 4")
    chief = police(owner, "Martin", rank="novice", unit=unit)
    services.unit_set_avatar(actor=owner, unit=unit, version=fresh(unit).version, character=chief)
    dupont = raise_(owner, police(owner, "Dupont", unit=unit), "fusil", 2)
    raise_(owner, dupont, "tir-instinctif")
    services.character_set_gauges(
        actor=owner, character=dupont, version=fresh(dupont).version, sante=4, souffle=5, moral=3
    )
    return unit


def test_it_exports_and_imports_a_unit_identically(owner):
    unit = _built_unit(owner)
    text = _exported(unit)
    document = json.loads(text)
    assert document["schema"] == "chronique.kolaps.unit"
    assert document["catalogue_version"] == services.catalogue().version
    assert document["unit"]["vu"] == 4
    copy = kolaps_io.unit_import(owner=PlayerFactory(), text=text)
    assert _exported(copy) == text
    assert (copy.vu, copy.status) == (4, "valid")


def test_it_imports_with_a_history_line_for_the_unit_and_each_character(owner):
    text = _exported(_built_unit(owner))
    bruno = PlayerFactory(username="bruno")
    copy = kolaps_io.unit_import(owner=bruno, text=text)
    lines = KolapsChange.objects.filter(unit=copy).order_by("pk")
    members = list(copy.members.order_by("position"))
    assert [(c.verb, c.target, c.actor, c.owner, c.character) for c in lines] == [
        *[("imported", "character", bruno, bruno, m) for m in members],
        ("imported", "unit", bruno, bruno, None),
    ]
    assert lines.last().data["catalogue_version"] == services.catalogue().version
    with pytest.raises(Refusal, match="nothing left to undo"):
        undo.unit_undo(actor=bruno, unit=copy, version=fresh(copy).version)
    with pytest.raises(Refusal, match="nothing left to undo"):
        undo.character_undo(actor=bruno, character=members[0], version=members[0].version)


def _line_of(text: str, needle: str, occurrence: int = 1) -> int:
    found = [n for n, line in enumerate(text.splitlines(), start=1) if needle in line]
    return found[occurrence - 1]


@pytest.mark.parametrize(
    ("edit", "needle", "field"),
    [
        (
            lambda d: d["unit"]["characters"][1].update(rank="general"),
            ('"rank": "general"', 1),
            "unit.characters[1].rank",
        ),
        (
            lambda d: d["unit"]["characters"][1]["gauges"].update(sante=9),
            ('"sante": 9', 1),
            "unit.characters[1].gauges.sante",
        ),
        (
            lambda d: d["unit"]["characters"][0]["talents"].update(fusil=4),
            ('"fusil": 4', 1),
            "unit.characters[0].talents.fusil",
        ),
        (
            lambda d: d["unit"]["characters"][1].update(avatar=True),
            ('"avatar": true', 2),
            "unit.characters[1].avatar",
        ),
        (
            # K13: the Avatar's Moral is always 6, in a file as in the builder.
            lambda d: d["unit"]["characters"][0]["gauges"].update(moral=3),
            ('"moral": 3', 1),
            "unit.characters[0].gauges.moral",
        ),
        (
            # A missing field is reported on the line of the object that lacks it.
            lambda d: d["unit"]["characters"][0].pop("equipment"),
            ('"characters": [', 1),
            "unit.characters[0].equipment",
        ),
        (lambda d: d.update(schema_version=2), ('"schema_version"', 1), "schema_version"),
        (
            lambda d: d["unit"]["characters"][0].update(weapon="laser"),
            ('"weapon"', 1),
            "unit.characters[0].weapon",
        ),
    ],
)
def test_it_refuses_a_bad_file_with_its_line_and_field_and_saves_nothing(
    owner, edit, needle, field
):
    document = json.loads(_exported(_built_unit(owner)))
    edit(document)
    text = json.dumps(document, ensure_ascii=False, indent=2)
    line = _line_of(text, *needle) + (1 if needle[0] == '"characters": [' else 0)
    before = (KolapsUnit.objects.count(), KolapsCharacter.objects.count())
    with pytest.raises(kolaps_io.ImportError_) as refusal:
        kolaps_io.unit_import(owner=owner, text=text)
    assert (refusal.value.line, refusal.value.path) == (line, field)
    assert f"Line {line}, field {field}" in str(refusal.value.message)
    assert (KolapsUnit.objects.count(), KolapsCharacter.objects.count()) == before


def test_it_refuses_text_that_is_not_json_with_its_line(owner):
    with pytest.raises(kolaps_io.ImportError_) as refusal:
        kolaps_io.unit_import(owner=owner, text='{\n  "schema": \n}')
    assert refusal.value.line == 3
    assert not KolapsUnit.objects.exists()


def test_it_refuses_a_file_nested_too_deeply_without_failing(owner):
    with pytest.raises(kolaps_io.ImportError_) as refusal:
        kolaps_io.unit_import(owner=owner, text="[" * 100_000)
    assert refusal.value.path == "file" and "nested too deeply" in str(refusal.value.message)
    assert not KolapsUnit.objects.exists()


class _CountedText(str):
    """A text that counts the characters its `count` calls scan."""

    scanned = 0

    def count(self, sub, start=0, end=None):
        end = len(self) if end is None else end
        _CountedText.scanned += max(0, end - start)
        return super().count(sub, start, end)


def test_it_finds_the_lines_of_a_large_file_in_one_pass():
    """A body of 240,000 values (the size an attacker sent) is read in time linear in its
    size: the newlines are counted once, not again from the start for each value."""
    for size in (1_000, 8_000):
        body = json.dumps({"unit": {"characters": [{"rank": "x"}] * size}}, indent=1)
        _CountedText.scanned = 0
        lines = kolaps_io._lines_of(_CountedText(body))
        assert _CountedText.scanned <= len(body)
        assert (
            lines[f"unit.characters[{size - 1}].rank"]
            == body.count("\n", 0, body.rindex('"x"')) + 1
        )


def test_it_refuses_a_text_larger_than_a_unit_file_before_reading_it(owner):
    text = " " * (kolaps_io.MAX_BYTES + 1)
    with pytest.raises(Refusal, match="too large"):
        kolaps_io.unit_import(owner=owner, text=text)
