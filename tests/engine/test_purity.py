"""tracker.engine is pure Python: importing it loads no Django, DRF or Celery, and is quick."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import json, sys, time
t = time.perf_counter()
import tracker.engine
from tracker.engine import evaluate_showdown
elapsed = time.perf_counter() - t
evaluate_showdown({"variant": "low_hole", "options": {"game": "high_low"},
                   "players": [{"down": ["As", "5d", "3h"], "up": ["4c", "5h", "Ks", "9d"]}]})
bad = sorted(m for m in sys.modules if m.split(".")[0] in ("django", "rest_framework", "celery"))
print(json.dumps({"bad": bad, "import_seconds": elapsed}))
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
    assert result["import_seconds"] < 0.3
