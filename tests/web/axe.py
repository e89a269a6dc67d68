"""axe-core in the browser tests: inject the engine into a page, run the WCAG 2 A/AA rules.

Why a vendored file: axe-core is the engine every axe wrapper runs, and the npm
package is its one upstream release. One minified file (under tests/web/vendor/,
with its MPL-2.0 licence) needs no network at test time, no Node and no extra
Python dependency whose own Playwright pin could fight ours; its version and hash
are pinned here and checked against the hash Deque publishes in the package's
sri-history.json, so an upgrade is a deliberate two-line change.

The script is evaluated through the DevTools protocol (``page.evaluate``), so a
Content-Security-Policy on the pages does not block it.
"""

from __future__ import annotations

import base64
import hashlib
from functools import cache
from pathlib import Path

AXE_VERSION = "4.14.1"
AXE_SHA256 = "KTSJmUUM3yhJqOcLeRL8LahahJ2jnA0NU5T1HUqe2Vw="  # sri-history.json, axe.min.js
AXE_FILE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"

# WCAG 2.0 and 2.1, levels A and AA.
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

RUN = """async (tags) => {
  const results = await axe.run(document, {
    runOnly: {type: 'tag', values: tags},
    resultTypes: ['violations'],
  });
  return {
    version: axe.version,
    violations: results.violations.map(v => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map(n => ({target: n.target, summary: n.failureSummary})),
    })),
  };
}"""


@cache
def axe_source() -> str:
    data = AXE_FILE.read_bytes()
    digest = base64.b64encode(hashlib.sha256(data).digest()).decode()
    assert digest == AXE_SHA256, f"{AXE_FILE} is not axe-core {AXE_VERSION} (sha256 {digest})"
    return data.decode()


def axe_violations(page) -> list[dict]:
    """The WCAG 2 A/AA violations axe-core finds on the page as it is now."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(axe_source())
    report = page.evaluate(RUN, WCAG_TAGS)
    assert report["version"] == AXE_VERSION, report["version"]
    return report["violations"]


def describe(where: str, violations: list[dict]) -> list[str]:
    """One line per violation: the rule, its impact, what it means, every target."""
    lines = []
    for v in violations:
        targets = "; ".join(" ".join(map(str, n["target"])) for n in v["nodes"])
        lines.append(f"{where}: {v['id']} [{v['impact']}] {v['help']} -> {targets}")
    return lines
