"""The test suite's own layout: a test module imports no other test module (what several
share lives in tests/support/ or in a conftest fixture), and neither do the bench scripts.

A test module is one pytest collects: a ``test_*.py`` file under tests/."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _module_of(path: Path) -> str:
    """The dotted name of the file ``path`` below the repository."""
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def _is_test_module(name: str) -> bool:
    parts = name.split(".")
    return parts[0] == "tests" and parts[-1].startswith("test_")


def imported_test_modules(source: str, module: str) -> list[tuple[int, str]]:
    """The test modules that ``source`` (the text of ``module``) imports, with their line:
    ``import``, ``from ... import`` (a module or a name of one), relative or not, anywhere
    in the file (in a function too).

    >>> imported_test_modules("from tests.web.test_pages import html", "tests.web.x")
    [(1, 'tests.web.test_pages')]
    >>> imported_test_modules("from . import test_pages as p", "tests.web.test_x")
    [(1, 'tests.web.test_pages')]
    >>> imported_test_modules("from tests.support.pages import html", "tests.web.test_x")
    []
    """
    package = module.split(".")[:-1]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            stem = ".".join([*base, *(node.module.split(".") if node.module else [])])
            names = [stem, *(f"{stem}.{alias.name}" for alias in node.names)]
        else:
            continue
        found += [(node.lineno, n) for n in dict.fromkeys(names) if _is_test_module(n)]
    return sorted(found)


def test_the_finder_sees_every_form_of_import():
    source = "\n".join(
        [
            "import tests.money.test_payouts",
            "from tests.money import test_payouts",
            "from .test_stud import play",
            "def f():",
            "    from tests.engine.test_stud import STAKES",
            "from tests.support.money import play",
            "import tests.factories",
        ]
    )
    assert imported_test_modules(source, "tests.engine.test_variants") == [
        (1, "tests.money.test_payouts"),
        (2, "tests.money.test_payouts"),
        (3, "tests.engine.test_stud"),
        (5, "tests.engine.test_stud"),
    ]


def test_no_test_module_nor_bench_script_imports_a_test_module():
    files = sorted([*(ROOT / "tests").rglob("*.py"), *(ROOT / "bench").rglob("*.py")])
    assert any(f.name == "test_payouts.py" for f in files)  # the walk found the suite
    offenders = [
        f"{f.relative_to(ROOT)}:{line} imports {name}"
        for f in files
        for line, name in imported_test_modules(f.read_text(encoding="utf-8"), _module_of(f))
    ]
    assert offenders == [], "\n".join(offenders)


def test_the_shared_helpers_are_a_package_of_no_tests():
    support = ROOT / "tests" / "support"
    assert (support / "__init__.py").is_file()
    assert not list(support.rglob("test_*.py"))
