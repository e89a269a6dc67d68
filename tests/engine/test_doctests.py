"""The examples in the engine's docstrings, and in the tests' shared helpers, are tests too."""

import doctest
import importlib
import pkgutil

import pytest

import tests.support
import tracker.engine

MODULES = sorted(
    [f"tracker.engine.{m.name}" for m in pkgutil.iter_modules(tracker.engine.__path__)]
    + [f"tests.support.{m.name}" for m in pkgutil.iter_modules(tests.support.__path__)]
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"
