"""The encounter log of a chapter being played in Chronique: who rolled, whom it hit, how
hard, and which recorded server roll it was. The settlement sums these events into the
ledger (damage dealt and taken, rolls made: docs/settlement.md).

The log is the chapter's: `campaigns.chapters.services.encounter_event_record` is the only
writer of `EncounterEvent`. `encounter_card` is what the page and its API twin read (four
queries with the chapter, however long the log): it names the server rolls, which live here.
"""

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Value
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.models import Chapter, ChapterStatus, EncounterEvent
from campaigns.permissions import CAN_MANAGE, CAN_VIEW, campaign_role, members_of
from characters.bidi import isolate_text
from characters.compiled import CompiledRead, fields_of
from characters.typography import elide
from rules.labels import resolver_label
from rules.rolls.models import RollRecord
from rules.table.kolaps.combatants import DIRECTIVE_LABELS
from rules.table.models import (
    UNDO_LOOKS_PAST,
    Combatant,
    Encounter,
    EncounterEntry,
    EncounterStatus,
    EntryKind,
    Phase,
)
from rules.table.systems import adapter_for
from rules.templatetags.outcomes import outcome_label, row_label

RECENT_ROLLS = 20


# --- Reading ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class EncounterRow:
    id: int
    at: datetime
    player_id: int
    player: str
    target_id: int | None
    target: str | None
    damage: int
    roll_id: int | None
    roll: str | None


@dataclass(frozen=True)
class EncounterCard:
    chapter: Chapter
    rows: list[EncounterRow]
    players: list[tuple[int, str]]
    # Who the viewer may record for (everyone for an organiser, themself for a player),
    # empty when nothing can be recorded (the chapter is not being played).
    record_for: list[tuple[int, str]]
    my_rolls: list[tuple[int, str]]

    @property
    def is_current(self) -> bool:
        return self.chapter.status == ChapterStatus.CURRENT

    @property
    def can_record(self) -> bool:
        return bool(self.record_for)

    @property
    def damage_by_player(self) -> list[tuple[str, int, int, int]]:
        """(name, rolls made, damage dealt, damage taken) per player, in the log's order."""
        names = dict(self.players)
        made: dict[int, int] = {}
        dealt: dict[int, int] = {}
        taken: dict[int, int] = {}
        for row in self.rows:
            made[row.player_id] = made.get(row.player_id, 0) + 1
            if row.target_id is not None:
                dealt[row.player_id] = dealt.get(row.player_id, 0) + row.damage
                taken[row.target_id] = taken.get(row.target_id, 0) + row.damage
        order = [pk for pk, _name in self.players if pk in made or pk in taken]
        return [(names[pk], made.get(pk, 0), dealt.get(pk, 0), taken.get(pk, 0)) for pk in order]


def _name(display: str, username: str) -> str:
    return display or username


def _roll_label(pk: int, resolver: str, outcome: dict, system: str = "") -> str:
    """`#12 ranged — Serious wound`: the result in the words the calculators use."""
    if outcome.get("row"):
        result = row_label(outcome["row"])
    elif outcome.get("outcome"):
        result = outcome_label(outcome["outcome"], system or "kolaps")
    else:
        result = ""
    return f"#{pk} {resolver_label(resolver, system)}" + (f" — {result}" if result else "")


def encounter_card(user, chapter: Chapter) -> EncounterCard:
    """For organisers and participants of the campaign (`chapter_get_for_user`, which reads
    the chapter with its campaign); three queries: the memberships, the log, the viewer's
    recent server rolls (only when they may record)."""
    members = members_of(chapter.campaign)
    roles = campaign_role(user, chapter.campaign, members=members)
    players = [(member.id, member.name) for member in members.players]
    rows = [
        EncounterRow(
            id=row["pk"],
            at=row["at"],
            player_id=row["player_id"],
            player=_name(row["player__display_name"], row["player__username"]),
            target_id=row["target_id"],
            target=(
                _name(row["target__display_name"], row["target__username"])
                if row["target_id"] is not None
                else None
            ),
            damage=row["damage"],
            roll_id=row["roll_id"],
            roll=(
                _roll_label(
                    row["roll_id"],
                    row["roll__resolver"],
                    row["roll__outcome"] or {},
                    row["roll__system"],
                )
                if row["roll_id"] is not None
                else None
            ),
        )
        for row in EncounterEvent.objects.filter(chapter=chapter)
        .order_by("at", "pk")
        .values(
            "pk",
            "at",
            "player_id",
            "player__display_name",
            "player__username",
            "target_id",
            "target__display_name",
            "target__username",
            "damage",
            "roll_id",
            "roll__system",
            "roll__resolver",
            "roll__outcome",
        )
    ]
    can_manage = bool(roles & CAN_MANAGE)
    record_for: list[tuple[int, str]] = []
    if chapter.status == ChapterStatus.CURRENT:
        record_for = [(pk, name) for pk, name in players if can_manage or pk == user.pk]
    my_rolls = []
    if record_for:
        # Only this system's rolls: a Rapid 40000 roll has no place in a KOLAPS encounter.
        system = chapter.campaign.system
        my_rolls = [
            (pk, _roll_label(pk, resolver, outcome or {}, system))
            for pk, resolver, outcome in RollRecord.objects.for_user(user)
            .filter(system=system)
            .order_by("-at", "-pk")
            .values_list("pk", "resolver", "outcome")[:RECENT_ROLLS]
        ]
    return EncounterCard(
        chapter=chapter,
        rows=rows,
        players=players,
        record_for=record_for,
        my_rolls=my_rolls,
    )


# --- The live encounter -----------------------------------------------------------------------


@dataclass(frozen=True)
class CombatantCard:
    """A combatant as the page and the API show it: what every system has, then the
    system's own part, which its adapter fills (`TableAdapter.card_fields`) and the others
    leave at their defaults."""

    id: int
    name: str
    side: str
    dead: bool
    unconscious: bool
    wounds: int
    kills: int
    mine: bool
    # A system's own live state (Combatant.state).
    state: dict
    # --- The system's part (its adapter's `card_fields`) ---
    # KOLAPS: rank, the gauges (Santé, Souffle, Moral), the order directive (None while it
    # is hidden from the viewer; "" when none was given), weapons.
    rank: str = ""
    is_avatar: bool = False
    sante: int = 0
    souffle: int = 0
    moral: int = 0
    directive: str | None = ""
    revealed: bool = False
    on_ground: bool = False
    weapons: list[str] = field(default_factory=list)
    badges: list[str] = field(default_factory=list)
    # What the system's rules let it do now, in sentences (KOLAPS: K18's Moral effects...).
    notes: list[str] = field(default_factory=list)
    # (label, value) of its state, in the viewer's language (the systems of numbers).
    state_lines: tuple[tuple[str, str], ...] = ()
    # KOLAPS K18: it may fight in melee with armed fists (the action form offers them).
    armed_fist: bool = False


@dataclass(frozen=True)
class SideCard:
    name: str
    attacker: bool
    combatants: list[CombatantCard]


@dataclass(frozen=True)
class LogLine:
    version: int
    kind: str
    author: str
    at: datetime
    text: str
    undone: bool


@dataclass(frozen=True)
class LogTurn:
    turn: int
    lines: list[LogLine]


@dataclass(frozen=True)
class StrayOption:
    """A figure a stray shot on the target's side may hit, and the chance its wound's death
    roll kills it (K8)."""

    id: int
    name: str
    sante: int
    dies_exact: str


@dataclass(frozen=True)
class StrayChoiceCard:
    """KOLAPS, Tir dans une mêlée 2-3 and 6: a stray shot hit one of the target's allies,
    whom the target's player chooses (`can_choose`: the viewer may); nobody is a choice only
    when the face asks for an ally in the melee (`in_melee_only`)."""

    target_id: int
    target: str
    shooter: str
    wound: str
    wound_label: str
    in_melee_only: bool
    options: list[StrayOption]
    can_choose: bool


@dataclass(frozen=True)
class TableCard:
    id: int
    title: str
    system: str
    status: str
    turn: int
    phase: str
    phase_label: str
    attacker_side: str
    version: int
    chapter_id: int | None
    sides: list[SideCard]
    log: list[LogTurn]
    can_manage: bool
    can_act: bool
    can_undo: bool
    # The spectator link's token, for organisers only; empty when the link is revoked.
    spectator_token: str
    # The log holds the lines after this version (0: the whole log).
    log_since: int = 0
    # How the page draws a combatant (the system's), what the organiser's next-phase button
    # says, and who plays in this phase, in order (systems with an initiative: O5).
    combatant_template: str = "rules/table/systems/kolaps_combatant.html"
    advance_label: str = ""
    order: list[dict] = field(default_factory=list)
    # The stray shot waiting for the target's player's choice (KOLAPS), if any.
    stray_choice: StrayChoiceCard | None = None

    @property
    def is_live(self) -> bool:
        return self.status == EncounterStatus.LIVE

    @property
    def odds_numbers(self) -> bool:
        """The odds also say the roll's numbers (its adapter's `ODDS_NUMBERS`)."""
        return adapter_for(self.system).ODDS_NUMBERS

    @property
    def combatants(self) -> list[CombatantCard]:
        return [c for side in self.sides for c in side.combatants]

    @property
    def mine(self) -> list[CombatantCard]:
        return [c for c in self.combatants if c.mine]

    @property
    def playing_now(self) -> list[dict]:
        """The figures whose turn it is (O5's current step), for the page's banner."""
        return [row for row in self.order if row.get("now")]

    @property
    def your_turn(self) -> list[dict]:
        return [row for row in self.order if row.get("yours")]

    @property
    def phase_done(self) -> bool:
        return bool(self.order) and all(row.get("played") for row in self.order)


def _directive_label(slug: str) -> str:
    return str(DIRECTIVE_LABELS.get(slug, slug))


LINK_LINES = {
    "revoked": gettext_lazy("The spectator link is revoked: it no longer opens."),
    "replaced": gettext_lazy("A new spectator link replaces the old one, which no longer opens."),
    "made": gettext_lazy("A new spectator link is made."),
}


def _line_text(
    adapter, side_label, kind: str, data: dict, actor: str, target: str, show_directive: bool
) -> str:
    if kind == EntryKind.ACTION:
        return str(adapter.action_text(data, actor, target))
    if kind == EntryKind.UNDO:
        # The undo names the action it took back as that action's line did (the undo keeps
        # the action's data, its actor and its target); one written before it kept them
        # names the kind of action.
        if isinstance(data.get("action"), dict):
            line = str(adapter.action_text(data["action"], actor, target)).rstrip(".")
            return _('Undone: "%(action)s".') % {"action": line}
        return _("Undone: %(kind)s (action #%(version)s).") % {
            "kind": adapter.KIND_LABELS.get(data.get("kind"), _("an action")),
            "version": data.get("undoes"),
        }
    if kind == EntryKind.DIRECTIVE:
        if show_directive:
            return _("%(actor)s receives the order: %(directive)s.") % {
                "actor": actor,
                "directive": _directive_label(data.get("directive", "")),
            }
        return _("%(actor)s receives an order.") % {"actor": actor}
    if kind == EntryKind.REVEAL:
        return _("%(actor)s reveals the order: %(directive)s.") % {
            "actor": actor,
            "directive": _directive_label(data.get("directive", "")),
        }
    if kind == EntryKind.PHASE:
        if data.get("phase") == Phase.WRAP_UP:
            return _("Wrap-up phase.")
        return _("Action phase.")
    if kind == EntryKind.END_PHASE and "events" in data:
        text = _("Wrap-up of turn %(turn)s.") % {"turn": data.get("turn")}
        lost = [
            _("%(name)s loses %(count)s life")
            % {"name": isolate_text(e.get("name") or ""), "count": -e["change"]}
            for e in data["events"]
            if e.get("event") == "life" and e.get("change", 0) < 0
        ]
        return " ".join([text, *[f"{line}." for line in lost]])
    if kind == EntryKind.END_PHASE:
        attacker = (data.get("next_attacker") or {}).get("attacker")
        if attacker:
            return _("End phase of turn %(turn)s: %(side)s attacks next turn.") % {
                "turn": data.get("turn"),
                "side": isolate_text(attacker),
            }
        return _("End phase of turn %(turn)s.") % {"turn": data.get("turn")}
    if kind == EntryKind.ENDED:
        return _("The encounter is over.")
    if kind == EntryKind.LINK:
        return str(LINK_LINES.get(data.get("link"), LINK_LINES["made"]))
    if data.get("added"):
        names = ", ".join(isolate_text(name) for name in data["added"])
        return _("Joining the encounter: %(names)s.") % {"names": names}
    sides = [isolate_text(str(side_label(side))) for side in data.get("sides", [])]
    return _("The encounter begins: %(sides)s.") % {"sides": ", ".join(sides)}


LOG_VALUES = (
    "version",
    "turn",
    "kind",
    "at",
    "data",
    "actor_id",
    "target_id",
    "author_id",
    "author__display_name",
    "author__username",
    "undone_by_id",
)


# The page's two reads, compiled once per process (characters.compiled): phones poll the
# page and most polls come right after a change. The page rendered afresh after 100
# actions and their undos (tests/benchmarks/test_table_page_bench.py, CPU medians, in turn
# 2026-11-28): 10.5-11.7 ms with these querysets compiled on each request, 8.3-9.0 ms here.
_COMBATANTS = CompiledRead(
    lambda pk: (
        Combatant.objects.filter(encounter_id=pk)
        .order_by("position", "pk")
        .values_list(*fields_of(Combatant))
    )
)
# The log's lines after a version (0: the whole log), as `.values(*LOG_VALUES)` reads them.
_LOG = CompiledRead(
    lambda pk, after: (
        EncounterEntry.objects.filter(encounter_id=pk, version__gt=Value(after))
        .order_by("version")
        .values(*LOG_VALUES)
    ),
    2,
)


def written_line(entry: EncounterEntry, author) -> dict:
    """The log's row of a line a write has just made, as the log query reads it."""
    return {
        "version": entry.version,
        "turn": entry.turn,
        "kind": entry.kind,
        "at": entry.at,
        "data": entry.data,
        "actor_id": entry.actor_id,
        "target_id": entry.target_id,
        "author_id": author.pk,
        "author__display_name": getattr(author, "display_name", ""),
        "author__username": author.username,
        "undone_by_id": entry.undone_by_id,
    }


def _stray_choice(adapter, combatants, encounter, can_manage: bool, user_id) -> Any:
    step = adapter.stray_step(encounter, combatants)
    if step is None:
        return None
    target = step["target"]
    return StrayChoiceCard(
        target_id=target.pk,
        target=target.name,
        shooter=step["shooter"],
        wound=step["wound"],
        wound_label=row_label(step["wound"]),
        in_melee_only=step["in_melee_only"],
        options=[
            StrayOption(id=c.pk, name=c.name, sante=c.sante, dies_exact=dies)
            for c, dies in step["options"]
        ],
        can_choose=encounter.status == EncounterStatus.LIVE
        and (can_manage or (user_id is not None and target.player_id == user_id)),
    )


def table_card(
    user,
    encounter: Encounter,
    *,
    spectator: bool = False,
    log_since: int | None = None,
    combatants: list[Combatant] | None = None,
    lines: list[dict] | None = None,
    log_window: int | None = None,
) -> TableCard:
    """What the live page, its partial and its API twin show, in two queries after the fetch
    (the combatants, the log with its authors). Directives stay hidden from the other side
    until revealed: a spectator sees only the revealed ones. `log_since`: only the log's
    lines after that version (a device catching up, the answer to a write), and one more
    query for what the last action was. A write's answer hands over what it has just
    written (`combatants` as its lock left them, the `lines` after `log_since`), and the card
    reads nothing. `log_window`: only the lines of the log's last `log_window` versions (the
    page's recent window: older ones are left out once the version passes `log_window`)."""
    roles = getattr(encounter, "viewer_roles", set())
    adapter = adapter_for(encounter.system)
    side_label = adapter.side_label
    can_manage = not spectator and bool(roles & CAN_MANAGE)
    if combatants is None:
        combatants = _COMBATANTS.objects(encounter.pk)
    user_id = user.pk if (user is not None and user.is_authenticated and not spectator) else None
    my_sides = {c.side for c in combatants if user_id is not None and c.player_id == user_id}
    names = {c.pk: c.name for c in combatants}
    sides: dict[str, list[CombatantCard]] = {}
    for c in combatants:
        sees = c.revealed or can_manage or c.side in my_sides
        sides.setdefault(c.side, []).append(
            CombatantCard(
                id=c.pk,
                name=c.name,
                side=str(side_label(c.side)),
                dead=c.dead,
                unconscious=c.unconscious,
                wounds=c.wounds,
                kills=c.kills,
                mine=can_manage or (user_id is not None and c.player_id == user_id),
                state=dict(c.state or {}),
                **adapter.card_fields(c, sees=sees),
            )
        )
    after = 0
    if lines is not None:
        entries = lines
    else:
        if log_since is not None:
            after = log_since
        elif log_window and encounter.version > log_window:
            # The lines of the last versions (the newest among them: what "Undo" would take
            # back, if anything).
            after = encounter.version - log_window
        entries = _LOG.dicts(encounter.pk, after)
    turns: dict[int, list[LogLine]] = {}
    by_side = {c.pk: c.side for c in combatants}
    # Names isolated in the lines' sentences (`characters.bidi`), each once.
    isolated = {pk: isolate_text(name) for pk, name in names.items()}
    unknown = isolate_text("?")
    authors: dict[int, str] = {}
    for row in entries:
        actor = isolated.get(row["actor_id"], unknown)
        target = isolated.get(row["target_id"], unknown)
        show = can_manage or by_side.get(row["actor_id"]) in my_sides
        author = authors.get(row["author_id"])
        if author is None:
            author = isolate_text(_name(row["author__display_name"], row["author__username"]))
            authors[row["author_id"]] = author
        turns.setdefault(row["turn"], []).append(
            LogLine(
                version=row["version"],
                kind=row["kind"],
                author=author,
                at=row["at"],
                text=elide(
                    _line_text(
                        adapter, side_label, row["kind"], row["data"] or {}, actor, target, show
                    )
                ),
                undone=row["undone_by_id"] is not None,
            )
        )
    # Undo is one level deep (`encounter_undo`): it takes back the encounter's newest line
    # but those it looks past (an undo, a spectator link), when that line is an action not
    # undone yet, of this turn; the newest undo's line stands for the action it took back
    # (undone). Read when the lines read do not hold it (a window of links).
    last = next(
        (
            r
            for r in reversed(entries)
            if r["kind"] not in UNDO_LOOKS_PAST or r["kind"] == EntryKind.UNDO
        ),
        None,
    )
    if last is None and (log_since is not None or after):
        last = (
            EncounterEntry.objects.filter(encounter=encounter)
            .exclude(kind__in=UNDO_LOOKS_PAST)
            .order_by("-version")
            .values("kind", "turn", "author_id", "undone_by_id")
            .first()
        )
    can_undo = (
        encounter.status == EncounterStatus.LIVE
        and last is not None
        and last["kind"] == EntryKind.ACTION
        and last["undone_by_id"] is None
        and last["turn"] == encounter.turn
        and (can_manage or (user_id is not None and last["author_id"] == user_id))
    )
    return TableCard(
        stray_choice=_stray_choice(adapter, combatants, encounter, can_manage, user_id),
        id=encounter.pk,
        title=encounter.title,
        system=encounter.system,
        status=encounter.status,
        turn=encounter.turn,
        phase=encounter.phase,
        phase_label=str(dict(Phase.choices).get(encounter.phase, encounter.phase)),
        attacker_side=encounter.attacker_side,
        version=encounter.version,
        chapter_id=encounter.chapter_id,
        sides=[
            SideCard(
                name=str(side_label(name)),
                attacker=bool(name) and name == encounter.attacker_side,
                combatants=members,
            )
            for name, members in sides.items()
        ],
        log=[LogTurn(turn=turn, lines=lines) for turn, lines in sorted(turns.items())],
        can_manage=can_manage,
        can_act=not spectator and bool(roles & CAN_VIEW) and encounter.status == "live",
        can_undo=not spectator and can_undo,
        spectator_token=(encounter.spectator_token or "") if can_manage else "",
        log_since=log_since or 0,
        combatant_template=adapter.COMBATANT_TEMPLATE,
        advance_label=str(adapter.ADVANCE_LABELS.get(encounter.phase, _("Next phase"))),
        order=_order(adapter, encounter, combatants, user_id, can_manage),
    )


def _order(adapter, encounter, combatants, user_id, can_manage: bool) -> list[dict]:
    """Who plays in the phase, in order (systems with an initiative), each row saying
    whether it is this device's to play now (`yours`: the player's own figure, or a figure
    no player plays for its organiser: the zombies)."""
    if encounter.status != EncounterStatus.LIVE:
        return []
    rows = adapter.order(combatants, encounter.phase, encounter.turn)
    players = {c.pk: c.player_id for c in combatants}
    for row in rows:
        player = players.get(row["id"])
        row["yours"] = bool(row.get("now")) and (
            (user_id is not None and player == user_id) or (can_manage and player is None)
        )
    return rows
