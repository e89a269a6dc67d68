"""What follows a password change: the user's API tokens are revoked.

Django calls ``password_changed()`` of every entry of ``AUTH_PASSWORD_VALIDATORS`` once a
new password is saved (``set_password()`` then ``save()``): the password change page, a
password reset, the admin's password form, ``manage.py changepassword``, a script. It does
not for the hash upgrade Django makes at a sign-in, which changes no password. So
``ApiTokensRevokedOnPasswordChange`` is listed there: it checks nothing about a password
(``validate`` accepts every one) and revokes the tokens once the change is saved.

What a session keeps: the change page keeps the session it was made in signed in (Django's
``update_session_auth_hash``) and signs out the user's other sessions (their stored hash no
longer matches); a reset signs out every session. Tokens are revoked in both cases: there
is no API call that changes a password, so no token is the "current" one to keep.
"""

from __future__ import annotations

from tracker.accounts.services import api_tokens_revoke_all

HELP_TEXT = "Changing the password revokes the account's API tokens."


class ApiTokensRevokedOnPasswordChange:
    """Not a rule for passwords: revokes the user's API tokens when their password changed."""

    def validate(self, password: str, user=None) -> None:
        return None

    def password_changed(self, password: str, user=None) -> None:
        if user is not None and user.pk is not None:
            api_tokens_revoke_all(user=user, reason="password changed")

    def get_help_text(self) -> str:
        return HELP_TEXT
