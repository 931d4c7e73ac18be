"""Counting an Of the Dead campaign's votes: the next chapter and the vocations.

Pure: the caller loads the ballots. Readings of RULES-NOTES O5 (vocations: each at most
once per chapter, one per player; ties by the rule text's order, then seniority) and of
the next-chapter vote (ties to the chapter planned first).
"""

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class NextChapterCount:
    counts: dict[int, int]  # chapter id -> ballots
    winner: int | None
    tied: list[int]  # the chapters that shared the top count, when more than one


def count_next_chapter(
    ballots: Sequence[int],
    candidates: Sequence[tuple[int, int]],
    *,
    played: Collection[int] = (),
) -> NextChapterCount:
    """Count ballots (chapter ids) among `candidates` [(chapter id, chapter number)].

    Next-chapter vote (docs/of-the-dead.md): a candidate `played` since the vote opened
    (started, closed or settled) cannot be the next chapter: its ballots are counted and
    shown, but it never wins. Tie rule: among the candidates still to play sharing the
    most ballots, the one planned first (the lowest chapter number) wins. No ballot for a
    candidate still to play: no winner.
    """
    counts = {pk: 0 for pk, _number in candidates}
    for pk in ballots:
        if pk in counts:
            counts[pk] += 1
    playable = [(pk, number) for pk, number in candidates if pk not in played]
    top = max((counts[pk] for pk, _number in playable), default=0)
    if top == 0:
        return NextChapterCount(counts=counts, winner=None, tied=[])
    leaders = sorted((number, pk) for pk, number in playable if counts[pk] == top)
    return NextChapterCount(
        counts=counts,
        winner=leaders[0][1],
        tied=[pk for _number, pk in leaders] if len(leaders) > 1 else [],
    )


@dataclass(frozen=True)
class VocationCount:
    counts: dict[tuple[str, int], int]  # (vocation, player id) -> ballots
    assignments: dict[int, str] = field(default_factory=dict)  # player id -> vocation


def count_vocations(
    ballots: Sequence[tuple[str, int]],
    players_in_order: Sequence[int],
    taken: dict[int, str] | None = None,
    *,
    vocations: Sequence[str],
) -> VocationCount:
    """Give vocations from ballots (vocation, nominee id), each vocation at most once and one
    vocation per player, keeping those already `taken` {player id: vocation}; `vocations`
    are the ten vocations in the rule text's order.

    Pairs are settled from the most ballots down. Tie rule: between pairs with as many
    ballots, the vocation listed first in the rule text wins, then the player who joined
    the campaign first. A pair whose vocation or player is already settled is skipped.
    """
    taken = dict(taken or {})
    order = {vocation: i for i, vocation in enumerate(vocations)}
    seniority = {pk: i for i, pk in enumerate(players_in_order)}
    counts = Counter(
        (vocation, nominee)
        for vocation, nominee in ballots
        if vocation in order and nominee in seniority
    )
    used = set(taken.values())
    assignments: dict[int, str] = {}
    ranked = sorted(
        counts.items(), key=lambda item: (-item[1], order[item[0][0]], seniority[item[0][1]])
    )
    for (vocation, nominee), _count in ranked:
        if vocation in used or nominee in taken or nominee in assignments:
            continue
        assignments[nominee] = vocation
        used.add(vocation)
    return VocationCount(counts=dict(counts), assignments=assignments)
