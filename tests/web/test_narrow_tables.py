"""Tables on a phone, in Debian's Chromium: the audit log stacks its rows at 375 px (no
sideways scrolling) and keeps its table at desktop width; a table wider than its box shows
the "scroll →" hint with JavaScript (homegame.js) and without it (CSS alone)."""

from __future__ import annotations

from tests.web.conftest import BROWSER_TESTS, DESKTOP, PHONE, log_in, make_game, record_sample_hands
from tests.web.targets import overflow_problems

pytestmark = BROWSER_TESTS

# What the audit log's first row shows, cell by cell: its label, displayed or not, its width.
AUDIT_ROW = """() => {
  const wrap = document.querySelector('.table-wrap');
  const row = document.querySelector('[data-testid=audit-entry]');
  const head = document.querySelector('table.audit thead').getBoundingClientRect();
  return {
    table: getComputedStyle(document.querySelector('table.audit')).display,
    head: head.width * head.height,
    scrolls: wrap.scrollWidth > wrap.clientWidth + 1,
    page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    cells: [...row.cells].map(td => ({
      label: getComputedStyle(td, '::before').content,
      shown: td.getBoundingClientRect().height > 0,
      right: td.getBoundingClientRect().right,
    })),
    box: wrap.getBoundingClientRect().right,
  };
}"""

# Every table box on the page: whether it scrolls, and the hint CSS draws inside it.
HINTS = """() => [...document.querySelectorAll('.table-wrap')].map(wrap => {
  const before = getComputedStyle(wrap, '::before');
  const hint = wrap.previousElementSibling;
  return {
    label: wrap.getAttribute('aria-label'),
    scrolls: wrap.scrollWidth > wrap.clientWidth + 1,
    css_hint: before.content !== 'none' && parseFloat(before.height) > 0,
    js_hint: !!hint && hint.classList.contains('scroll-hint') && !hint.hidden,
  };
})"""


def test_the_audit_log_stacks_its_rows_on_a_phone_and_keeps_its_table_on_a_desktop(
    browser, site, settle, shots
):
    game = make_game()
    with settle():
        record_sample_hands(game)
    url = f"{site}/leagues/{game.league.slug}/audit/"
    for size, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        context = browser.new_context(viewport=size, is_mobile=size is PHONE)
        page = context.new_page()
        log_in(page, site, game.admin.username, next_url=url)
        page.goto(url)
        seen = page.evaluate(AUDIT_ROW)
        shots(page, f"narrow-audit-{name}")
        assert not seen["scrolls"] and seen["page"] <= 1, seen
        assert overflow_problems(page) == []
        if size is PHONE:
            # One card per entry: the header row is folded away, every cell (the channel and
            # the address too) is on its own line, named, and within the box.
            assert seen["table"] == "block" and seen["head"] <= 1, seen
            labels = [c["label"] for c in seen["cells"]]
            assert labels == [
                f'"{w}"' for w in ("When", "Who", "What", "Target", "Through", "From", "Details")
            ]
            assert all(c["shown"] and c["right"] <= seen["box"] + 1 for c in seen["cells"]), seen
            # Opening an entry's data keeps it within the box too.
            page.locator("[data-testid=audit-entry] summary").first.click()
            assert page.evaluate(AUDIT_ROW)["page"] <= 1
            assert not page.evaluate(AUDIT_ROW)["scrolls"]
        else:
            assert seen["table"] == "table" and seen["head"] > 100, seen
            assert all(c["label"] == "none" for c in seen["cells"]), seen
            headers = page.locator("table.audit thead th").all_inner_texts()
            assert [h.lower() for h in headers] == [
                "when",
                "who",
                "what",
                "target",
                "through",
                "from",
                "details",
            ]
        context.close()


def test_a_wide_table_shows_the_scroll_hint_with_and_without_javascript(browser, site, settle):
    """The tournament's statistics table is wider than a phone; its standings fit. Without
    JavaScript CSS draws the hint inside the wide table's box only; with it, homegame.js
    puts its hint above the box and CSS draws none."""
    game = make_game()
    with settle():
        record_sample_hands(game)
    url = f"{site}/tournaments/{game.tournament.pk}/stats/"
    found = {}
    for js in (False, True):
        context = browser.new_context(viewport=PHONE, is_mobile=True, java_script_enabled=js)
        page = context.new_page()
        page.goto(url)
        found[js] = page.evaluate(HINTS)
        context.close()
    wide = [t for t in found[False] if t["scrolls"]]
    narrow = [t for t in found[False] if not t["scrolls"]]
    assert wide, found  # the page has a table wider than a phone (else the test says nothing)
    assert all(t["css_hint"] and not t["js_hint"] for t in wide), found[False]
    assert all(not t["css_hint"] for t in narrow), found[False]
    assert [t["label"] for t in found[True] if t["scrolls"]] == [t["label"] for t in wide]
    for t in found[True]:
        assert not t["css_hint"], t
        assert t["js_hint"] == t["scrolls"], t
