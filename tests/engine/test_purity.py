"""tracker.engine is pure Python: importing it (and its deals and settle-up modules, which the
package does not import) loads no Django, DRF or Celery, and builds no lookup table (they fill
on first use, so an import stays cheap; bench/engine.py times it)."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import json, sys
import tracker.engine
from tracker.engine import evaluate_showdown
from tracker.engine import hands
built_on_import = len(hands._GROUPED7)
evaluate_showdown({"variant": "low_hole", "options": {"game": "high_low"},
                   "players": [{"down": ["As", "5d", "3h"], "up": ["4c", "5h", "Ks", "9d"]}]})
from tracker.engine.deals import deal_options
from tracker.engine.settle_up import settle_up
deal_options([3000, 2000, 1000], [600, 300, 100], unit=50)
settle_up({"ann": -100, "bob": 40, "cat": 60})
bad = sorted(m for m in sys.modules if m.split(".")[0] in ("django", "rest_framework", "celery"))
print(json.dumps({"bad": bad, "built_on_import": built_on_import, "built": len(hands._GROUPED7)}))
"""


def test_engine_imports_no_framework():
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    result = json.loads(out.stdout)
    assert result["bad"] == []
    assert result["built_on_import"] == 0 < result["built"]  # lazily, on the first hand
