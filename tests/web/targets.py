"""Tap targets and sideways scrolling, measured in the browser.

WCAG 2.2 success criterion 2.5.8 (Target Size, Minimum): every target is at least 24 by 24
CSS pixels, except where

- equivalent: the same function has a target that is large enough (a checkbox or radio
  whose label is 24 by 24 or more);
- inline: the target sits in a sentence (a link inside running text);
- spacing: a 24 px circle centred on the undersized target touches no other target.

We hold the pages to more than the criterion: the spacing exception is not taken (a 10 px
hand-number link in a table passes it, yet is hard to tap), so every target is 24 by 24
unless it is inline in a sentence or has an equivalent. (The user-agent and essential
exceptions do not apply: every control here is styled by the site.) :func:`small_targets`
lists the targets that fail; axe-core 4.x checks target size only under its ``wcag22aa`` tag
and only for crowded targets, so we measure every link, button and field ourselves.

:func:`overflow_problems` lists what scrolls sideways: the page itself (never allowed), and
tables whose container is not a keyboard-reachable region with a visible "scroll" hint.
"""

from __future__ import annotations

MIN_TARGET = 24

TARGETS_JS = """(MIN) => {
  const selector = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]';
  const shown = (el) => {
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none') return false;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return false;
    if (r.right <= 0 || r.bottom + scrollY <= 0) return false;  // parked off-screen (skip link)
    return true;
  };
  const blockOf = (el) => {
    let node = el.parentElement;
    while (node && getComputedStyle(node).display.startsWith('inline')) node = node.parentElement;
    return node || document.body;
  };
  const inSentence = (el) => {
    if (!getComputedStyle(el).display.startsWith('inline') || getComputedStyle(el).display === 'inline-block') return false;
    const block = blockOf(el).cloneNode(true);
    block.querySelectorAll('a, button, input, select, textarea, summary').forEach(n => n.remove());
    return /\\p{L}{2,}.*\\p{L}{2,}/su.test(block.textContent);  // words of its own around it
  };
  const describe = (el, r) => {
    const text = (el.innerText || el.value || el.getAttribute('aria-label') || el.name || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
    const cls = el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '';
    return `${el.tagName.toLowerCase()}${cls} "${text}" ${Math.round(r.width)}x${Math.round(r.height)}`;
  };
  const all = [...document.querySelectorAll(selector)].filter(shown).map(el => ({el, r: el.getBoundingClientRect()}));
  const big = (r) => r.width >= MIN - 0.5 && r.height >= MIN - 0.5;
  const labelled = (el) => el.labels && [...el.labels].some(l => shown(l) && big(l.getBoundingClientRect()));
  const small = all.filter(({el, r}) => !big(r) && !(r.width <= 1 && r.height <= 1 && labelled(el)));
  return small.filter(t => !labelled(t.el) && !inSentence(t.el)).map(t => describe(t.el, t.r));
}"""

OVERFLOW_JS = """() => {
  const problems = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth + 1) {
    const wide = [...document.querySelectorAll('body *')].filter(el => {
      const r = el.getBoundingClientRect();
      return r.right > doc.clientWidth + 1 && getComputedStyle(el).position !== 'fixed'
        && !el.closest('.table-wrap') && r.width > 0;
    }).slice(0, 3).map(el => el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ')[0] : ''));
    problems.push(`the page scrolls sideways (${doc.scrollWidth} > ${doc.clientWidth}): ${wide.join(', ')}`);
  }
  for (const table of document.querySelectorAll('table')) {
    const r = table.getBoundingClientRect();
    if (r.width === 0) continue;
    const wrap = table.closest('.table-wrap');
    if (!wrap) {
      if (r.right > doc.clientWidth + 1) problems.push(`a table outside a .table-wrap is cut off`);
      continue;
    }
    if (wrap.scrollWidth <= wrap.clientWidth + 1) continue;  // it fits
    const label = wrap.getAttribute('aria-label') || '';
    if (wrap.getAttribute('tabindex') !== '0' || wrap.getAttribute('role') !== 'region' || !label) {
      problems.push(`"${label}" scrolls but is not a focusable, labelled region`);
    }
    const hint = wrap.previousElementSibling;
    const hintShown = hint && hint.classList.contains('scroll-hint') && hint.getBoundingClientRect().height > 0;
    if (!hintShown) problems.push(`"${label}" scrolls sideways without a visible hint`);
  }
  return problems;
}"""


def small_targets(page) -> list[str]:
    """Targets under 24x24 px that no WCAG 2.5.8 exception covers, described."""
    return page.evaluate(TARGETS_JS, MIN_TARGET)


def overflow_problems(page) -> list[str]:
    """The page scrolling sideways, or a table scrolling without a region and a hint."""
    return page.evaluate(OVERFLOW_JS)


def page_problems(page, where: str) -> list[str]:
    """Everything a phone page must not have, one line each: axe-core's violations, tap
    targets under 24x24 px and anything scrolling sideways (``where`` names the page)."""
    from tests.web.axe import axe_violations, describe

    found = describe(where, axe_violations(page))
    found += [f"{where}: target under 24x24 px: {t}" for t in small_targets(page)]
    found += [f"{where}: {p}" for p in overflow_problems(page)]
    return found
