"""Forms of the campaign, chapter and vote pages: they parse, the services decide."""

from dataclasses import replace

from django import forms
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from campaigns.chapters import entries
from campaigns.chapters import services as chapter_services
from campaigns.forms import text_field as _text
from campaigns.models import ChapterStatus, VoteKind
from campaigns.permissions import Member
from campaigns.systems import entry_kinds
from campaigns.systems.base import EntryResultInput
from campaigns.votes import services as vote_services
from characters.accounts.forms import ServiceForm
from characters.bidi import isolate_text, needs_isolation
from characters.models import Player, Vocation
from characters.widgets import RENDERER
from rules.engine.systems import uses_profiles
from rules.engine.systems.seam import RESULT_LABELS, Kind, Per

ONE_PER_LINE = _("One per line.")
# The close form's row stamp (`CloseForm._row_stamp`): a player's id and name in it.
ROW_ID, ROW_NAME = "\ue001", "\ue002"
_ROW_STAMPS: dict[tuple[type, str, str, type], str] = {}


def _lines(label, help_text=ONE_PER_LINE):
    return forms.CharField(
        label=label, required=False, help_text=help_text, widget=forms.Textarea(attrs={"rows": 2})
    )


class ChapterForm(ServiceForm):
    title = forms.CharField(label=_("Title"), max_length=160)
    scenario = _text(_("Scenario"), rows=4)
    players_min = forms.IntegerField(label=_("Players at least"), required=False, min_value=1)
    players_max = forms.IntegerField(label=_("Players at most"), required=False, min_value=1)
    min_survival_points = forms.IntegerField(
        label=_("Minimum survival points"), required=False, min_value=0, initial=0
    )
    required_cards = _lines(_("Required cards"))
    required_items = _lines(_("Required items"))
    objectives = _text(_("Objectives"))
    weather = forms.CharField(label=_("Weather"), required=False, max_length=120)
    time_of_day = forms.CharField(label=_("Time of day"), required=False, max_length=120)
    announced_events = _lines(_("Announced events (drops, NPC appearances)"))
    starts_at = forms.DateTimeField(
        label=_("Date and time"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    duration_minutes = forms.IntegerField(
        label=_("Duration (minutes)"), required=False, min_value=15, max_value=1440, initial=240
    )
    place = forms.CharField(label=_("Place"), required=False, max_length=200)

    # What a player's Of the Dead profile is checked against: asked only where players
    # bring one (`GameSystem.uses_profiles`).
    PROFILE_FIELDS = ("min_survival_points", "required_cards", "required_items")

    def __init__(self, *args, chapter=None, campaign=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.chapter = chapter
        campaign = chapter.campaign if chapter is not None else campaign
        if campaign is not None and not uses_profiles(campaign.system):
            for name in self.PROFILE_FIELDS:
                del self.fields[name]
            self.fields["announced_events"].label = _("Announced events")

    @classmethod
    def initial_for(cls, chapter) -> dict:
        data = {name: getattr(chapter, name) for name in chapter_services.CHAPTER_FIELDS}
        for name in chapter_services.LIST_FIELDS:
            data[name] = "\n".join(data[name])
        return data

    def save(self, actor, campaign=None):
        data = dict(self.cleaned_data)
        if self.chapter is None:
            return self.run(chapter_services.chapter_plan, actor=actor, campaign=campaign, **data)
        return self.run(chapter_services.chapter_update, actor=actor, chapter=self.chapter, **data)


def _isolated_chapter(chapter) -> str:
    """A chapter's "number. title" among the form's words, its title isolated."""
    return isolate_text(str(chapter))


class VoteOpenForm(ServiceForm):
    kind = forms.ChoiceField(label=_("Vote on"), choices=VoteKind.choices)
    candidates = forms.ModelMultipleChoiceField(
        label=_("Candidate chapters (next-chapter vote)"),
        queryset=None,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    chapter = forms.ModelChoiceField(
        label=_("Chapter (vocation vote)"), queryset=None, required=False
    )
    closes_at = forms.DateTimeField(
        label=_("Closes on (optional)"),
        required=False,
        help_text=_(
            "The vote closes itself then; the players who have not voted are reminded the day "
            "before. Leave empty to close it yourself."
        ),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        open_chapters = campaign.chapters.exclude(status=ChapterStatus.CLOSED).order_by("number")
        self.fields["candidates"].queryset = open_chapters.filter(status=ChapterStatus.PLANNED)
        self.fields["chapter"].queryset = open_chapters
        for name in ("candidates", "chapter"):
            self.fields[name].label_from_instance = _isolated_chapter
        if not uses_profiles(campaign.system):
            # Vocations are Of the Dead's: elsewhere a vote is on the next chapter only.
            self.fields["kind"].choices = [(VoteKind.NEXT_CHAPTER, VoteKind.NEXT_CHAPTER.label)]
            del self.fields["chapter"]
            self.fields["candidates"].label = _("Candidate chapters")

    def save(self, actor):
        data = self.cleaned_data
        return self.run(
            vote_services.vote_open,
            actor=actor,
            campaign=self.campaign,
            kind=data["kind"],
            candidates=list(data.get("candidates") or []),
            chapter=data.get("chapter"),
            closes_at=data.get("closes_at"),
        )


class VoteClosingForm(ServiceForm):
    closes_at = forms.DateTimeField(
        label=_("Closes on"),
        required=False,
        help_text=_("Leave empty: the vote stays open until an organiser closes it."),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )

    def save(self, actor, vote):
        return self.run(
            vote_services.vote_set_closing,
            actor=actor,
            vote=vote,
            closes_at=self.cleaned_data.get("closes_at"),
        )


class NextChapterBallotForm(ServiceForm):
    chapter = forms.ChoiceField(label=_("Your choice"), widget=forms.RadioSelect)

    def __init__(self, *args, card, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["chapter"].choices = [(o.value, isolate_text(o.label)) for o in card.candidates]
        if card.my_chapter:
            self.fields["chapter"].initial = str(card.my_chapter)

    def save(self, voter, vote):
        chapter = vote.candidates.filter(pk=self.cleaned_data["chapter"]).first()
        return self.run(vote_services.ballot_cast, voter=voter, vote=vote, chapter=chapter)


class VocationBallotForm(ServiceForm):
    """One select per vocation: who should hold it (or nobody)."""

    def __init__(self, *args, card, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "—"), *((o.value, isolate_text(o.label)) for o in card.players)]
        for value, label in Vocation.choices:
            self.fields[value] = forms.ChoiceField(label=label, choices=choices, required=False)
            if value in card.my_nominations:
                self.fields[value].initial = str(card.my_nominations[value])

    def save(self, voter, vote):
        players = {str(p.pk): p for p in Player.objects.filter(memberships__campaign=vote.campaign)}
        nominations = {
            vocation: players.get(nominee)
            for vocation, nominee in self.cleaned_data.items()
            if nominee
        }
        ballots = self.run(
            vote_services.ballots_cast, voter=voter, vote=vote, nominations=nominations
        )
        return None if ballots is None else len(ballots)


class VocationForm(ServiceForm):
    default_renderer = RENDERER
    vocation = forms.ChoiceField(label=_("Vocation"), choices=Vocation.choices)
    player = forms.ChoiceField(label=_("Player"), required=False)

    def __init__(self, *args, card, **kwargs):
        super().__init__(*args, **kwargs)
        if card.can_manage:
            self.fields["player"].choices = [
                (str(p.id), isolate_text(p.name)) for p in card.players
            ]
        else:
            del self.fields["player"]

    def save(self, actor, chapter):
        player = actor
        if self.cleaned_data.get("player"):
            player = Player.objects.filter(pk=self.cleaned_data["player"]).first()
        return self.run(
            chapter_services.vocation_choose,
            actor=actor,
            chapter=chapter,
            player=player,
            vocation=self.cleaned_data["vocation"],
        )


ABSENT = "absent"


class EntryForm(ServiceForm):
    """A player enters one of their rosters into a chapter (`campaigns.chapters.entries`):
    the subclass names the kind, its field and the card's list of the viewer's rosters.
    Drafts are listed too, so that choosing one gives the reason it cannot enter."""

    default_renderer = RENDERER
    kind: entry_kinds.EntryKind
    mine: str  # the card's list of the viewer's rosters
    valid_label: str  # "%(name)s — %(vu)s VU": the key is the kind's value

    def __init__(self, *args, card, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields[self.kind.name].choices = [
            (
                str(roster.id),
                self.valid_label
                % {
                    "name": isolate_text(roster.name),
                    self.kind.value: getattr(roster, self.kind.value),
                }
                if roster.valid
                else _("%(name)s — draft") % {"name": isolate_text(roster.name)},
            )
            for roster in getattr(card, self.mine)
        ]

    @classmethod
    def kind_of(cls, system: str) -> entry_kinds.EntryKind:
        """The kind entered into a chapter of `system`'s campaign."""
        return cls.kind

    def save(self, actor, chapter):
        roster = self.kind.roster.objects.filter(pk=self.cleaned_data[self.kind.name]).first()
        return self.run(
            entries.chapter_entry_enter,
            actor=actor,
            chapter=chapter,
            kind=self.kind,
            roster=roster,
            side=self.cleaned_data["side"],
        )


class UnitEntryForm(EntryForm):
    kind = entry_kinds.UNIT
    mine = "my_units"
    valid_label = _("%(name)s — %(vu)s VU")
    unit = forms.ChoiceField(label=_("Your unit"))
    side = forms.CharField(
        label=_("Side"),
        required=False,
        max_length=80,
        help_text=_("Units with the same side play together; leave empty to play alone."),
    )


class ArmyEntryForm(EntryForm):
    kind = entry_kinds.ARMY
    mine = "my_armies"
    valid_label = _("%(name)s — %(points)s points")
    army = forms.ChoiceField(label=_("Your army list"))
    side = forms.CharField(
        label=_("Side"),
        required=False,
        max_length=80,
        help_text=_("Armies with the same side play together; leave empty to play alone."),
    )


class SheetEntryForm(EntryForm):
    """A player enters one of their character sheets (Corporates, modern RPG): the kind is
    the campaign's system's (`entries.SHEET_KINDS`)."""

    kind = entry_kinds.CORPORATES_SHEET  # the name the page knows; the card's system's is used
    character = forms.ChoiceField(label=_("Your character"))
    side = forms.CharField(
        label=_("Side"),
        required=False,
        max_length=80,
        help_text=_("Characters with the same side play together; leave empty to play alone."),
    )

    def __init__(self, *args, card, **kwargs):
        ServiceForm.__init__(self, *args, **kwargs)
        self.kind = self.kind_of(card.system)
        self.fields["character"].choices = [
            (str(sheet.id), isolate_text(sheet.name)) for sheet in card.my_sheets
        ]

    @classmethod
    def kind_of(cls, system: str) -> entry_kinds.EntryKind:
        return entries.sheet_kind_of(system)


def table_close_initial(card) -> dict:
    """What the live encounter told the chapter when it ended (`chapter_table_record`), as
    the close form's first answers for the organiser to review: each army's figures lost per
    squad, each character sheet's levels (Corporates fatigue and wounds, modern hit points
    lost and stress), the characters lost ticked, an epilogue and notable events drafted
    from the sides' losses, wounds and Moral. Nothing while the game is still played."""
    record = card.table_record or {}
    initial: dict = {}
    if not record.get("ended"):
        return initial
    # Rapid 40000: the figures each squad of an army lost.
    for army_id, army in (record.get("armies") or {}).items():
        for squad in army.get("squads", []):
            initial[f"{card.entry_prefix}{army_id}_figures_lost_{squad['squad']}"] = squad["lost"]
    # Corporates, the modern RPG: the levels each character sheet entered ended with.
    for sheet_id, levels in (record.get("sheets") or {}).items():
        for name, value in levels.items():
            initial[f"{card.entry_prefix}{sheet_id}_{name}"] = value
    for unit_id, unit in (record.get("units") or {}).items():
        initial[f"u{unit_id}_lost"] = [str(pk) for pk in unit.get("lost_ids", [])]
        initial[f"u{unit_id}_side"] = unit.get("side", "")
    # Of the Dead: each player's character's death and kills by zombie type.
    for player_id, player in (record.get("players") or {}).items():
        initial[f"p{player_id}_died"] = bool(player.get("died"))
        for kind, count in (player.get("kills") or {}).items():
            initial[f"p{player_id}_kills_{kind}"] = count
    events, story = [], []
    for side, row in (record.get("sides") or {}).items():
        lost = ", ".join(row.get("lost", [])) or _("nobody")
        wounded = ", ".join(row.get("wounded", [])) or _("nobody")
        story.append(
            _("%(side)s: lost %(lost)s; wounded %(wounded)s.")
            % {"side": side, "lost": lost, "wounded": wounded}
        )
        events += [_("%(name)s is lost.") % {"name": name} for name in row.get("lost", [])]
    initial["epilogue"] = " ".join(
        [_("The encounter lasted %(turns)s turns.") % {"turns": record.get("turns")}, *story]
    )
    initial["notable_events"] = "\n".join(events)
    return initial


class CloseForm(ServiceForm):
    """The epilogue, then what the campaign's system asks at the close
    (`rules.engine.systems.seam.Close`, read through the card): for each player (Of the
    Dead, the roleplaying games) a result among the system's and the player's fields
    (death, side and kills by zombie type; XP); for each roster entered (KOLAPS units,
    Rapid 40000 armies) its result, side and its members' fates (characters dead, wounded,
    who changed sides; figures each squad lost). Field names are the row's prefix (`p12_`
    for a player, the system's `entry_prefix` and the roster's id for an entry) and the
    declared field's name. What a live encounter told the chapter fills the first answers
    (`table_close_initial`). `card` is the chapter's `close_card`. Its hundred widgets are
    drawn by Jinja2 templates (`characters.widgets`)."""

    default_renderer = RENDERER

    epilogue = forms.CharField(label=_("Epilogue"), widget=forms.Textarea(attrs={"rows": 4}))
    notable_events = _lines(_("Notable events"))

    def __init__(self, *args, card, **kwargs):
        kwargs.setdefault("initial", table_close_initial(card))
        super().__init__(*args, **kwargs)
        self.card = card
        close = card.close
        self.player_ids = [p.id for p in card.players]
        # Each sentence translated once, not once per row.
        self._results = [
            *((value, gettext(RESULT_LABELS[value])) for value in close.results),
            (ABSENT, gettext("did not play")),
        ]
        self._result_label = str(_("%(name)s: result"))
        self._field_label = str(_("%(name)s: %(field)s"))
        self._split_label = str(_("%(name)s: %(field)s, %(kind)s"))
        self._labels = {f.name: gettext(f.label) for f in close.fields}
        for player in card.players:
            self._row_fields(f"p{player.id}_", player.name, close.asked(Per.PLAYER))
        for entry in card.entries:
            prefix = self._entry_prefix(entry)
            asked = close.asked(Per.ENTRY)
            own = [f for f in asked if f.kind is not Kind.MEMBERS]
            self._row_fields(prefix, entry.name, own, side=entry.side)
            for name, value in entry.initial.items():
                self.fields[prefix + name].initial = value
            for f in asked:
                if f.kind is Kind.MEMBERS:
                    self.fields[prefix + f.name] = forms.MultipleChoiceField(
                        label=self._field_label
                        % {"name": isolate_text(entry.name), "field": self._labels[f.name]},
                        choices=[(str(m.id), isolate_text(m.name)) for m in entry.members],
                        required=False,
                        widget=forms.CheckboxSelectMultiple,
                    )
            for f in close.asked(Per.MEMBER):
                for member in entry.members:
                    self.fields[f"{prefix}{f.name}_{member.id}"] = forms.IntegerField(
                        label=_("%(member)s: %(field)s (0 to %(most)s)")
                        % {
                            "member": isolate_text(member.name),
                            "field": self._labels[f.name],
                            "most": member.figures,
                        },
                        required=False,
                        min_value=0,
                        max_value=member.figures,
                        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                    )

    def _entry_prefix(self, entry) -> str:
        return f"{self.card.entry_prefix}{entry.id}_"

    def _row_fields(self, prefix: str, name: str, asked, side: str = "") -> None:
        """A row's result, then its declared fields (a player's, or an entry's side)."""
        named = isolate_text(name)
        self.fields[prefix + "result"] = forms.ChoiceField(
            label=self._result_label % {"name": named},
            choices=self._results,
            initial=ABSENT,
            required=False,  # not sent: did not play
        )
        for f in asked:
            label = self._field_label % {"name": named, "field": self._labels[f.name]}
            if f.kind is Kind.FLAG:
                self.fields[prefix + f.name] = forms.BooleanField(label=label, required=False)
            elif f.kind is Kind.TEXT:
                self.fields[prefix + f.name] = forms.CharField(
                    label=label, required=False, max_length=80, initial=side
                )
            elif f.kind is Kind.COUNT:
                parts = f.split or (("", ""),)
                for value, kind in parts:
                    self.fields[f"{prefix}{f.name}_{value}".rstrip("_")] = forms.IntegerField(
                        label=self._split_label
                        % {"name": named, "field": self._labels[f.name], "kind": kind}
                        if value
                        else label,
                        required=False,
                        min_value=0,
                        max_value=f.maximum,
                        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                    )

    def outcomes(self) -> list:
        data, rows = self.cleaned_data, []
        asked = {f.name: f for f in self.card.close.asked(Per.PLAYER)}
        for player_id in self.player_ids:
            prefix = f"p{player_id}_"
            if data[prefix + "result"] in (ABSENT, ""):
                continue
            kills = asked.get("kills")
            rows.append(
                chapter_services.OutcomeInput(
                    player_id=player_id,
                    result=data[prefix + "result"],
                    died=bool(data.get(prefix + "died")),
                    side=data.get(prefix + "side") or "",
                    kills={
                        value: data.get(f"{prefix}kills_{value}") or 0
                        for value, _label in (kills.split if kills else ())
                    },
                    answers={
                        name: data.get(f"{prefix}{name}")
                        for name in asked
                        if name not in chapter_services.OUTCOME_COLUMNS
                        and data.get(f"{prefix}{name}") is not None
                    },
                )
            )
        return rows

    def entries(self) -> list:
        data, rows = self.cleaned_data, []
        counted = self.card.close.asked(Per.MEMBER)
        own = [f.name for f in self.card.close.asked(Per.ENTRY) if f.kind is Kind.COUNT]
        for entry in self.card.entries:
            prefix = self._entry_prefix(entry)
            if data[prefix + "result"] in (ABSENT, ""):
                continue

            def ids(name: str, prefix: str = prefix) -> list[int]:
                return [int(pk) for pk in data.get(prefix + name) or []]

            rows.append(
                EntryResultInput(
                    entry_id=entry.id,
                    result=data[prefix + "result"],
                    side=data.get(prefix + "side") or "",
                    lost_ids=ids("lost"),
                    wounded_ids=ids("wounded"),
                    changed_side_ids=ids("changed_side"),
                    figures_lost={
                        member.id: data.get(f"{prefix}{f.name}_{member.id}") or 0
                        for f in counted
                        for member in entry.members
                    },
                    answers={name: data.get(prefix + name) or 0 for name in own},
                )
            )
        return rows

    def save(self, actor, chapter):
        return self.run(
            chapter_services.chapter_close,
            actor=actor,
            chapter=chapter,
            epilogue=self.cleaned_data["epilogue"],
            outcomes=self.outcomes(),
            entry_results=self.entries(),
            notable_events=self.cleaned_data["notable_events"],
        )

    def draft(self) -> dict:
        """The form's first answers in the API's words (`ChapterCloseAPI.get`): the same
        values the page's fields start with, by declared field name."""

        def answers(prefix: str, asked) -> dict:
            shown = {}
            for f in asked:
                if f.kind is Kind.COUNT and f.split:
                    shown[f.name] = {
                        value: self[f"{prefix}{f.name}_{value}"].value() for value, _kind in f.split
                    }
                elif f.kind is Kind.MEMBERS:
                    shown[f.name] = [int(pk) for pk in self[prefix + f.name].value() or []]
                else:
                    shown[f.name] = self[prefix + f.name].value()
            return shown

        def result(prefix: str) -> str | None:
            value = self[prefix + "result"].value()
            return None if value in (ABSENT, "", None) else value

        close = self.card.close
        return {
            "epilogue": self["epilogue"].value() or "",
            "notable_events": (self["notable_events"].value() or "").splitlines(),
            "results": list(close.results),
            "players": [
                {
                    "player": player.id,
                    "name": player.name,
                    "result": result(f"p{player.id}_"),
                    "answers": answers(f"p{player.id}_", close.asked(Per.PLAYER)),
                }
                for player in self.card.players
            ],
            "entries": [
                {
                    "entry": entry.id,
                    "name": entry.name,
                    "player": entry.player_id,
                    "value": entry.value,
                    "result": result(self._entry_prefix(entry)),
                    "answers": answers(self._entry_prefix(entry), close.asked(Per.ENTRY)),
                    "members": [
                        {
                            "member": member.id,
                            "name": member.name,
                            "figures": member.figures,
                            "answers": {
                                f.name: self[
                                    f"{self._entry_prefix(entry)}{f.name}_{member.id}"
                                ].value()
                                for f in close.asked(Per.MEMBER)
                            },
                        }
                        for member in entry.members
                    ],
                }
                for entry in self.card.entries
            ],
        }

    def text_fields(self):
        """The epilogue and the notable events, for the template (without walking the
        hundred fields of the players' rows to find them)."""
        return [self["epilogue"], self["notable_events"]]

    def _declared(self, prefix: str, asked) -> list[dict]:
        """A row's declared fields, bound, for the template: one entry per field, a split
        count folded into `split`, the members' counts into `members`."""
        shown = []
        for f in asked:
            row: dict = {
                "kind": str(f.kind),
                "label": self._labels[f.name],
                "help": gettext(f.help) if f.help else "",
            }
            if f.kind is Kind.COUNT and f.split:
                row["split"] = [self[f"{prefix}{f.name}_{value}"] for value, _kind in f.split]
            else:
                row["field"] = self[prefix + f.name]
            shown.append(row)
        return shown

    def entry_rows(self):
        """Bound fields grouped by roster entered, for the template."""
        close = self.card.close
        for entry in self.card.entries:
            prefix = self._entry_prefix(entry)
            yield {
                "name": entry.name,
                "player": entry.player,
                "value": entry.value,
                "result": self[prefix + "result"],
                "fields": self._declared(prefix, close.asked(Per.ENTRY)),
                "members": [
                    self[f"{prefix}{f.name}_{member.id}"]
                    for f in close.asked(Per.MEMBER)
                    for member in entry.members
                ],
            }

    def player_rows(self):
        """Bound fields grouped by player, for the template; a fresh row (nothing sent,
        nothing filled in from the live encounter) comes `drawn` already: the page's row
        stamped with the player's id and name (`_row_stamp`)."""
        players = self.card.players
        stamp = self._row_stamp() if players and self.stamp_rows and not self.is_bound else None
        asked = self.card.close.asked(Per.PLAYER)
        for player in players:
            prefix = f"p{player.id}_"
            if (
                stamp is not None
                and not any(key.startswith(prefix) for key in self.initial)
                # a name that needs isolating is isolated differently in its legend (<bdi>)
                # and its labels (FSI ... PDI): drawn in full
                and not needs_isolation(player.name)
            ):
                # Django's own HTML, the name escaped as the template would.
                drawn = stamp.replace(ROW_ID, str(player.id)).replace(ROW_NAME, escape(player.name))
                yield {"drawn": mark_safe(drawn)}
                continue
            yield {
                "name": player.name,
                "result": self[prefix + "result"],
                "fields": self._declared(prefix, asked),
            }

    # A fresh player's row is the same HTML for every player but for their id and name: the
    # close page's row (its `player-row` partial), drawn once per form, system, language and
    # renderer for a player whose id and name are private-use characters, then stamped.
    # Drawing the row's ten widgets was most of the page. Kept for the life of the process
    # (a deploy restarts it); with DEBUG on, drawn on every request so edits show at once.
    stamp_rows = True

    def _row_stamp(self) -> str:
        key = (type(self), self.card.system, translation.get_language(), type(self.renderer))
        stamp = _ROW_STAMPS.get(key)
        if stamp is None:
            placeholder = Member(id=ROW_ID, display_name=ROW_NAME, username=ROW_NAME, role="")
            card = replace(self.card, players=[placeholder], entries=[], table_record={})
            form = type(self)(card=card, renderer=self.renderer)
            form.stamp_rows = False
            stamp = render_to_string(
                "campaigns/chapters/chapter_close.html#player-row",
                {"row": next(form.player_rows())},
            )
            if not settings.DEBUG:
                _ROW_STAMPS[key] = stamp
        return stamp
