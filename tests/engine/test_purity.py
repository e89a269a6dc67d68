"""tracker.engine is pure Python: importing it loads no Django, DRF or Celery, and builds no
lookup table (they fill on first use, so an import stays cheap; bench/engine.py times it)."""

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
