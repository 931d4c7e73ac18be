"""What a game system declares for the campaign that plays it: the seam's pure half.

A system is one `rules.engine.systems.GameSystem`; its campaign part is the data below, so
that the campaign, the close, the settlement and the standings ask the system instead of
testing its name:

- `Roster`: what a player brings to a chapter (an Of the Dead profile, a KOLAPS unit, a
  Rapid 40000 army, a character sheet);
- `Close`: what the close of a chapter asks, per player or per roster entered, and per
  member of an entry (a KOLAPS character, a Rapid 40000 squad), as `CloseField` data the
  campaign app turns into a form;
- `settle`: a pure function from the close's records (`Record`) to each participant's
  `Figures` (value destroyed and lost, characters lost, experience), which the ledger keeps;
- `Standings`: the columns a campaign's table shows, and how it ranks (`Term` sums).

Where a rule text has no campaign rules, the declarations follow RULES-NOTES' "Campaign life
where the texts are silent" (CL1 to CL4).
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum


def gettext_noop(message: str) -> str:
    """Mark a string for translation without importing Django (makemessages finds it)."""
    return message


class Roster(StrEnum):
    """What a player brings to a chapter."""

    PROFILE = "profile"  # their own Of the Dead character, kept across campaigns
    UNIT = "unit"  # a KOLAPS unit of characters
    ARMY = "army"  # a Rapid 40000 army list of squads
    SHEET = "sheet"  # a roleplaying character sheet


class Per(StrEnum):
    """Who a close field is asked of."""

    PLAYER = "player"  # each player of the campaign
    ENTRY = "entry"  # each roster entered into the chapter
    MEMBER = "member"  # each member of an entry (a character, a squad)


class Kind(StrEnum):
    FLAG = "flag"  # ticked or not
    TEXT = "text"  # a short line
    COUNT = "count"  # a whole number from 0 (up to a member's figures for MEMBER)
    MEMBERS = "members"  # some of an entry's members, ticked (asked once per entry)


@dataclass(frozen=True)
class CloseField:
    name: str
    label: str
    kind: Kind
    per: Per
    # A COUNT kept split: one number per (value, label), shown folded (kills by zombie type).
    split: tuple[tuple[str, str], ...] = ()
    help: str = ""
    maximum: int = 999  # a COUNT's largest value


RESULT_LABELS: Mapping[str, str] = {
    "victory": gettext_noop("victory"),
    "draw": gettext_noop("draw"),
    "defeat": gettext_noop("defeat"),
    "played": gettext_noop("took part"),
}


@dataclass(frozen=True)
class Close:
    """What the close of a chapter asks: a result among `results` for each player (`per`
    PLAYER) or each roster entered (`per` ENTRY), then `fields`."""

    per: Per
    results: tuple[str, ...]
    fields: tuple[CloseField, ...] = ()
    # The words of the close's help line (what its settlement does afterwards).
    settles: str = ""

    def asked(self, per: Per) -> tuple[CloseField, ...]:
        return tuple(f for f in self.fields if f.per is per)


def entry_close(*fields: CloseField, settles: str) -> Close:
    """What the close asks of each roster entered (a KOLAPS unit, a Rapid 40000 army): its
    result (victory, draw or defeat), the side it played on, then `fields`."""
    side = CloseField("side", gettext_noop("Side (if any)"), Kind.TEXT, Per.ENTRY)
    return Close(
        per=Per.ENTRY,
        results=("victory", "draw", "defeat"),
        fields=(side, *fields),
        settles=settles,
    )


def sheet_level(name: str, label: str, maximum: int, help: str = "") -> CloseField:
    """A level a character sheet ended the session with, asked of it at the close."""
    return CloseField(name, label, Kind.COUNT, Per.ENTRY, help=help, maximum=maximum)


def sheet_close(*levels: CloseField, settles: str) -> Close:
    """What the close asks of each character sheet entered (Corporates, the modern RPG):
    that it took part, then its `levels`."""
    return Close(per=Per.ENTRY, results=("played",), fields=levels, settles=settles)


# --- The settlement's pure part ------------------------------------------------------------


@dataclass(frozen=True)
class Member:
    """One member of an entry as the close recorded it: a character (`figures` 1) or a
    squad; `value` is what it cost (PU, points), `lost` the figures it lost."""

    name: str
    value: int = 0
    figures: int = 1
    lost: int = 0
    wounded: bool = False
    changed_side: bool = False
    avatar: bool = False


@dataclass(frozen=True)
class Record:
    """One participant's close, as the settlement reads it."""

    player_id: int
    result: str
    side: str = ""
    entry: str = ""  # the roster entered ("" for a player's own character)
    members: tuple[Member, ...] = ()
    # The player's own answers the close recorded, by field name (a COUNT or a FLAG).
    counts: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Figures:
    """What the ledger keeps of one participant's chapter, beyond its result."""

    value_destroyed: int = 0
    value_lost: int = 0
    characters_lost: int = 0
    xp: int = 0


Settle = Callable[[Sequence[Record]], dict[int, Figures]]


def settle_nothing(records: Sequence[Record]) -> dict[int, Figures]:
    """A system whose settlement keeps no figure of its own."""
    return {record.player_id: Figures() for record in records}


def settle_xp(records: Sequence[Record]) -> dict[int, Figures]:
    """RULES-NOTES CL4: "the organiser awards XP at a chapter's close (0 by default)"."""
    return {
        record.player_id: Figures(xp=max(0, int(record.counts.get("xp", 0)))) for record in records
    }


def side_of(record: Record) -> str:
    """A participant without a side is a side of its own."""
    return record.side or f"\x00{record.player_id}"


def settle_losses(
    records: Sequence[Record], lost_value: Callable[[Member], int], *, characters: bool = True
) -> dict[int, Figures]:
    """Each participant's value lost (`lost_value` of each member) and the value the other
    sides lost (destroyed): RULES-NOTES CL1 (VU destroyed and lost) and CL2 (points
    destroyed). With more than two sides, every other side's losses count as destroyed.
    `characters`: its members are characters, and those lost are counted (CL1)."""
    lost = {r.player_id: sum(lost_value(m) for m in r.members) for r in records}
    by_side: dict[str, int] = {}
    for record in records:
        by_side[side_of(record)] = by_side.get(side_of(record), 0) + lost[record.player_id]
    everything = sum(by_side.values())
    return {
        r.player_id: Figures(
            value_lost=lost[r.player_id],
            value_destroyed=everything - by_side[side_of(r)],
            characters_lost=sum(1 for m in r.members if m.lost) if characters else 0,
        )
        for r in records
    }


# --- The standings -------------------------------------------------------------------------


@dataclass(frozen=True)
class Term:
    statistic: str
    weight: int = 1


@dataclass(frozen=True)
class Column:
    statistic: str
    heading: str


@dataclass(frozen=True)
class Standings:
    """A campaign's table: `score` (a sum of weighted statistics, shown as `score_heading`)
    ranks, `tie_breaks` (each a sum, higher first) break its ties. `ranked` False: the
    campaign shows its party, not a ranking (RULES-NOTES CL4)."""

    columns: tuple[Column, ...]
    score: tuple[Term, ...]
    score_heading: str
    tie_breaks: tuple[tuple[Term, ...], ...] = ()
    ranked: bool = True

    def statistics(self) -> tuple[str, ...]:
        names = [c.statistic for c in self.columns]
        names += [t.statistic for t in self.score]
        names += [t.statistic for terms in self.tie_breaks for t in terms]
        return tuple(dict.fromkeys(names))


def score_of(terms: Sequence[Term], statistics: Mapping[str, int | None]) -> int:
    return sum(t.weight * int(statistics.get(t.statistic) or 0) for t in terms)


WIN_DRAW_LOSS = (Term("chapters_won", 3), Term("chapters_drawn", 1))


def results_standings(
    *columns: Column, won: str, lost: str, tie_breaks: tuple[tuple[Term, ...], ...]
) -> Standings:
    """A table of results: chapters played, won (3 points), drawn (1), lost (0), headed
    `won` and `lost` in the system's words, then `columns` (RULES-NOTES CL1, CL2)."""
    return Standings(
        columns=(
            Column("chapters_played", gettext_noop("Played")),
            Column("chapters_won", won),
            Column("chapters_drawn", gettext_noop("Draws")),
            Column("chapters_lost", lost),
            *columns,
        ),
        score=WIN_DRAW_LOSS,
        score_heading=gettext_noop("Standing points"),
        tie_breaks=tie_breaks,
    )


@dataclass(frozen=True)
class Words:
    """The nouns a system's campaign pages use for what a player brings and its value."""

    entry: str = ""  # "unit", "army"
    value: str = ""  # "VU", "points"


# --- The system's index (`/rules/<system>/`) -----------------------------------------------


class Address(StrEnum):
    """How a calculator's page is addressed from its URL name (`Calculator.route`)."""

    ROUTE = "route"  # the route alone (`kolaps-test`)
    RESOLVER = "resolver"  # the route and the resolver's name (`/rules/of-the-dead/brawl/`)
    SYSTEM_PAGE = "system-page"  # the route, the system and the resolver in kebab-case


@dataclass(frozen=True)
class Calculator:
    """A page of the system's index: the resolver whose odds it shows (and the API answers,
    when the registry has it), its page, and its title ("": the resolver's own label)."""

    resolver: str
    route: str
    address: Address = Address.RESOLVER
    title: str = ""


@dataclass(frozen=True)
class Index:
    """What the system's index lists: its calculators in order, where a pick-up game at the
    table starts (a URL name, told the system when `table_asks_system`; "": from a chapter
    only), and whether its calculators read a campaign's rules settings (`?campaign=`)."""

    calculators: tuple[Calculator, ...]
    table: str = ""
    table_asks_system: bool = False
    reads_campaign_settings: bool = False
    # How a server roll's whole result is shown (its calculator's template; "": the facts
    # the roll came to, `rules.templatetags.outcomes.roll_facts`).
    result_template: str = ""
    # Its server rolls pit two squads of an army list: their inputs are named in its
    # calculators' words and its catalogue's (weapons, vehicles, special rules), and what a
    # roll came to is the two squads' totals, successes and failures (Rapid 40000).
    rolls_of_squads: bool = False

    @property
    def drawn_from_schemas(self) -> bool:
        """Its calculators are drawn from its resolvers' schemas (`Address.SYSTEM_PAGE`:
        `rules.dice_calculators`), and its rolls are read in their words."""
        return any(c.address is Address.SYSTEM_PAGE for c in self.calculators)


def calculators(route: str, address: Address, *resolvers: str) -> tuple[Calculator, ...]:
    """Calculators of one page shape, titled by their resolvers' labels."""
    return tuple(Calculator(name, route, address) for name in resolvers)


# A system without calculators of its own (the tests' sixth system).
NO_INDEX = Index(calculators=())
