"""Of the Dead objects around the authorization matrix's campaign.

Called from the `roles` fixture: the owner has a public profile and a calendar feed; the
campaign has two planned chapters, an active invitation and an open next-chapter vote.
"""

from datetime import UTC, datetime


def of_the_dead_objects(*, owner, organiser, campaign) -> dict:
    from campaigns.chapters.services import chapter_plan
    from campaigns.services import calendar_feed_token, invitation_create
    from campaigns.votes.services import vote_open
    from characters.profiles.services import profile_create, profile_update

    profile = profile_create(
        actor=owner, player=owner, physique=3, psychique=2, reflexes=2, combat=2
    )
    profile = profile_update(actor=owner, profile=profile, is_public=True)
    chapter = chapter_plan(
        actor=organiser,
        campaign=campaign,
        title="Le pont",
        starts_at=datetime(2030, 5, 4, 18, tzinfo=UTC),
        place="Lyon",
    )
    other_chapter = chapter_plan(actor=organiser, campaign=campaign, title="Le métro")
    return {
        "profile": profile,
        "chapter": chapter,
        "other_chapter": other_chapter,
        "invitation": invitation_create(actor=organiser, campaign=campaign),
        "vote": vote_open(
            actor=organiser,
            campaign=campaign,
            kind="next_chapter",
            candidates=[chapter, other_chapter],
        ),
        "feed": calendar_feed_token(player=owner),
    }
