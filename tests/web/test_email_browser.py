"""An e-mail address verified in a real browser at phone size (375x740): sign up with an
address, see it waiting on the profile, open the mailed link in another browser (as from a
mail app, not logged in), verify it there, and see it verified; axe finds nothing on the
pages of the flow. Screenshots: test-artifacts/web/email-*.png."""

from __future__ import annotations

import re

from django.core import mail

from tests.web.axe import axe_violations, describe
from tests.web.conftest import BROWSER_TESTS, PHONE, new_phone  # noqa: F401
from tracker.accounts.models import EmailAddress

pytestmark = BROWSER_TESTS

PASSWORD = "a-long-pass-phrase"


def test_an_address_is_verified_from_the_mailed_link(site, browser, phone, shots):
    page = phone
    page.goto(f"{site}/accounts/signup/")
    page.fill("#id_username", "ann")
    page.fill("#id_email", "ann@example.org")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("[data-testid=signup-submit]")
    page.wait_for_load_state()
    assert "open the link we mailed it" in page.content()

    page.goto(f"{site}/accounts/profile/")
    assert "not verified yet" in page.inner_text("[data-testid=email-state]")
    found = describe("profile", axe_violations(page))
    shots(page, "email-profile-waiting")

    (message,) = mail.outbox
    link = re.search(r"(/accounts/email/verify/\S+/)", message.body).group(1)
    errors: list[str] = []
    other = new_phone(browser, errors)  # the mail app's browser: not logged in
    try:
        other.goto(f"{site}{link}")
        assert other.locator("h1").inner_text() == "Verify your email address"
        found += describe("verify", axe_violations(other))
        shots(other, "email-verify")
        other.click("[data-testid=email-verify]")
        other.wait_for_load_state()
        assert other.locator("[data-testid=email-verified]").is_visible()
        found += describe("verified", axe_violations(other))
    finally:
        other.context.close()
    assert not errors, errors
    assert EmailAddress.objects.get(address="ann@example.org").is_verified

    page.reload()
    state = page.inner_text("[data-testid=email-state]")
    assert "verified" in state and "not verified" not in state
    shots(page, "email-profile-verified")
    assert not found, "\n".join(found)
