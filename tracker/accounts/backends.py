"""The authentication backend of every sign-in (the login page, the admin's, the API token
endpoint): Django's ``ModelBackend`` finding the account by its canonical name, so an
account made as ``Bob`` signs in as ``bob`` or ``ＢＯＢ`` too (tracker/accounts/names.py)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend

from tracker.accounts.selectors import sign_in_account


class AccountNameBackend(ModelBackend):
    """``ModelBackend`` (permissions, ``is_active``) with the account found by
    ``sign_in_account``: the exact username first, then the canonical form."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        User = get_user_model()
        if username is None:
            username = kwargs.get(User.USERNAME_FIELD)
        if username is None or password is None:
            return None
        user = sign_in_account(username)
        if user is None:
            # As ModelBackend does: hash the password anyway, so that an unknown username
            # takes as long as a wrong password.
            User().set_password(password)
            return None
        if user.check_password(password) and self.user_can_authenticate(user):
            return user
        return None
