import pytest

from tests.schedule.helpers import make_club


@pytest.fixture
def club():
    """A league whose roster is five players, each linked to an account with a verified
    address, and its admin."""
    return make_club()
