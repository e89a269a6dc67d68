"""The live page of one tournament driven through the browser (the live logger's tests)."""

from __future__ import annotations

from tests.web.conftest import live_act, live_prompt, live_settle, live_tap
from tracker.hands.models import Hand

DECK = [f"{r}{s}" for r in "23456789TJQKA" for s in "cdhs"]


class Table:
    """The live page of one tournament, driven through the browser."""

    def __init__(self, page, site, tournament, shots, name):
        self.page, self.site, self.tournament = page, site, tournament
        self.shots, self.name = shots, name
        self.used: set[str] = set()

    # -- reading the page

    def prompt(self) -> str:
        return live_prompt(self.page)

    def buttons(self) -> list[str]:
        return [b.inner_text() for b in self.page.locator("#next .live-buttons button").all()]

    def shot(self, what: str, full_page: bool = True):
        self.shots(self.page, f"live-{self.name}-{what}", full_page=full_page)

    # -- doing things

    def start(self, variant: str, options: dict[str, str] | None = None):
        page = self.page
        page.goto(f"{self.site}/tournaments/{self.tournament.pk}/live/")
        page.select_option("#id_variant", variant)
        if options:
            page.locator(".live-start details summary").click()
            self.shot("start-open")
            for name, value in options.items():
                page.select_option(f"[name='opt-{variant}__{name}']", value)
            self.shot("start")
        page.locator("button:text-is('Start the hand')").click()
        page.wait_for_load_state()

    def tap(self, selector: str):
        live_tap(self.page, selector)

    def button(self, label: str):
        live_act(self.page, label)

    def pick(self, code: str):
        assert code not in self.used, code
        self.used.add(code)
        self.page.locator(f".picker:not([hidden]) button[data-code='{code}']").click()

    def fresh(self, count: int, avoid: str = "") -> list[str]:
        cards = [c for c in DECK if c not in self.used and c[0] not in avoid][:count]
        return cards

    def deal(self, cards: list[str]):
        """Pick the face-up cards the page asks for, in its order (the street goes in by
        itself once the last is picked)."""
        for code in cards[:-1]:
            self.pick(code)
        self.pick(cards[-1])
        live_settle(self.page)

    def deal_held(self, cards: list[str]):
        """Seventh street with choices open: the picker waits for a tap on a card, and the
        street goes in by its Deal button (a last card picked sends nothing)."""
        form = self.page.locator(".live-deal[data-hold]")
        assert form.count() == 1
        assert self.page.locator(".picker:not([hidden])").count() == 0  # not opened by itself
        form.locator("input[data-card][required]").first.click()
        for code in cards:
            self.pick(code)
        assert self.page.locator(".live-deal[data-hold]").count() == 1  # still on the page
        self.tap(".live-deal button[type=submit]")

    def bet(self, policy):
        """Play the betting while the page names a player to act: ``policy(name, labels)``
        names the button."""
        while self.prompt().endswith(" to act"):
            name = self.prompt().removesuffix(" to act")
            self.button(policy(name, self.buttons()))

    def show_all(self, avoid: str = ""):
        """At the showdown every hand shows its unseen cards (picked from fresh cards)."""
        while self.page.locator(".live-show form[data-live]").count():
            wanted = self.page.locator(".live-show form[data-live]").first
            count = wanted.locator("input[data-card]").count()
            self.deal(self.fresh(count, avoid))

    def record(self) -> Hand:
        number = self.page.locator(".live-finish button").inner_text().split()[-1]
        self.shot("finish")
        self.tap(".live-finish button")
        assert self.page.url.rstrip("/").split("/")[-2] == "hands", self.page.url
        self.shot("recorded")
        return Hand.objects.get(tournament=self.tournament, number=int(number))

    def replay(self, hand: Hand):
        """The recorded hand steps through its actions one by one."""
        page = self.page
        page.goto(f"{self.site}{hand.get_absolute_url()}?step=3")
        step = page.locator("section.street.step:not([hidden])")
        assert step.count() == 1
        assert page.inner_text("section.street.step:not([hidden]) [data-testid=step-text]")
        self.shot("replay-step", full_page=False)
        # The arrows walk the whole hand.
        seen = 0
        while page.locator("section.street.step:not([hidden]) a[rel=next]").count():
            page.locator("section.street.step:not([hidden]) a[rel=next]").click()
            seen += 1
            assert seen < 200
        assert seen > 10
        return seen
