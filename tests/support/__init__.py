"""Helpers shared by test modules: builders, fixtures and example data.

Test modules import from here (or take conftest fixtures), never from one another
(tests/test_layout.py holds the suite to that)."""
