"""Accounts for the tests: a password reset finished from the link its mail carries."""

from __future__ import annotations

import re


def reset_from_mail(client, message, password: str):
    """Follow the reset link in ``message`` and choose ``password``: the page the link
    leads to, and the answer to the new password (redirects followed)."""
    link = re.search(r"https?://[^/]+(/accounts/reset/\S+)", message.body).group(1)
    form = client.get(link, follow=True)
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": password, "new_password2": password},
        follow=True,
    )
    return form, done
