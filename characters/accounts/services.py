"""The only writer of player accounts.

Every operation validates, writes in one transaction and enqueues follow-up work on
commit. Views, the API and tasks call these functions; none of them saves a model.
A refusal the user can reach is raised as `Refusal` with a translated sentence.
"""

from django.contrib.auth import password_validation
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from characters.accounts.tasks import player_send_welcome
from characters.kept import PLAYER_NAMES, stamp_renew
from characters.models import Player
from characters.permissions import Refusal


def _check_password(password: str, player: Player) -> None:
    try:
        password_validation.validate_password(password, player)
    except ValidationError as exc:
        raise Refusal(" ".join(exc.messages), field="password") from exc


def _check_unique(*, username: str | None, email: str, exclude_pk: int | None = None) -> None:
    others = Player.objects.exclude(pk=exclude_pk) if exclude_pk else Player.objects.all()
    if username is not None and others.filter(username__iexact=username).exists():
        raise Refusal(_("This username is already taken."), field="username")
    if others.filter(email__iexact=email).exists():
        raise Refusal(_("An account already uses this e-mail address."), field="email")


# The usernames of the accounts a campaign import creates (campaigns.transfer), never
# chosen at sign-up: an import can neither take a name someone may want nor pass for them.
IMPORTED_PREFIX = "imported-"


def player_signup(*, username: str, email: str, password: str, display_name: str = "") -> Player:
    """Create an account and send the welcome e-mail once the account is committed."""
    username = username.strip()
    email = Player.objects.normalize_email(email.strip())
    if not username:
        raise Refusal(_("Choose a username."), field="username")
    if username.casefold().startswith(IMPORTED_PREFIX):
        raise Refusal(
            _("Usernames beginning with “%(prefix)s” are kept for imported players.")
            % {"prefix": IMPORTED_PREFIX},
            field="username",
        )
    _check_unique(username=username, email=email)
    player = Player(username=username, email=email, display_name=display_name.strip())
    _check_password(password, player)
    player.set_password(password)
    with transaction.atomic():
        player.full_clean(exclude=["password"])
        player.save()
        language = translation.get_language()
        player_send_welcome.delay_on_commit(player.pk, language)
    return player


def player_update(*, player: Player, email: str, display_name: str) -> Player:
    """Change the account's e-mail address and display name. A new name renews the stamp
    of the pages kept with players' names in them (`characters.kept.PLAYER_NAMES`)."""
    email = Player.objects.normalize_email(email.strip())
    _check_unique(username=None, email=email, exclude_pk=player.pk)
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=player.pk)
        if locked.display_name != display_name.strip():
            # Now, and again once committed: a page read in between would keep the old name.
            stamp_renew(PLAYER_NAMES)
            transaction.on_commit(lambda: stamp_renew(PLAYER_NAMES))
        locked.email = email
        locked.display_name = display_name.strip()
        try:
            locked.full_clean(exclude=["password"])
        except ValidationError as exc:
            field, messages = next(iter(exc.message_dict.items()))
            raise Refusal(" ".join(messages), field=field) from exc
        locked.save(update_fields=["email", "display_name"])
    return locked


def player_change_password(*, player: Player, old_password: str, new_password: str) -> Player:
    """Replace the password after checking the current one."""
    if not player.check_password(old_password):
        raise Refusal(_("Your current password is incorrect."), field="old_password")
    _check_password(new_password, player)
    with transaction.atomic():
        player.set_password(new_password)
        player.save(update_fields=["password"])
        _token_replace(player)
    return player


def player_set_password(*, player: Player, password: str) -> Player:
    """Set a new password after a reset link was followed (the form validated it)."""
    with transaction.atomic():
        player.set_password(password)
        player.save(update_fields=["password"])
        _token_replace(player)
    return player


def _token_replace(player: Player) -> None:
    """A new password ends what the old one opened: the API token, if the player has one,
    is replaced by a new key (shown on the account page), and every session signed with
    the old password's hash is refused from its next request (Django's session hash; the
    page that changed it keeps its own session through `update_session_auth_hash`)."""
    from rest_framework.authtoken.models import Token

    if Token.objects.filter(user=player).delete()[0]:
        Token.objects.create(user=player)


def player_token(*, player: Player, rotate: bool = False):
    """The player's API token for scripts; `rotate` replaces it with a new one."""
    from rest_framework.authtoken.models import Token

    with transaction.atomic():
        if rotate:
            Token.objects.filter(user=player).delete()
        token, _created = Token.objects.get_or_create(user=player)
    return token


def player_token_revoke(*, player: Player) -> None:
    from rest_framework.authtoken.models import Token

    with transaction.atomic():
        Token.objects.filter(user=player).delete()
