"""One hand to record is one frozen HandRequest: the services take it, or its fields."""

from __future__ import annotations

import dataclasses

import pytest

from tracker.hands.requests import HandRequest


def test_a_hand_request_is_frozen_and_made_of_its_fields_once():
    asked = HandRequest(entry_mode="quick", entry={"seats": []}, number=3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        asked.number = 4  # type: ignore[misc]
    assert HandRequest.given(asked, {}) is asked
    assert (
        HandRequest.given(None, {"entry_mode": "quick", "entry": {"seats": []}, "number": 3})
        == asked
    )


def test_a_hand_request_or_its_fields_not_both():
    asked = HandRequest(entry_mode="quick", entry={})
    with pytest.raises(TypeError):
        HandRequest.given(asked, {"number": 2})
    with pytest.raises(TypeError):
        HandRequest.given(None, {"entry_mode": "quick", "entry": {}, "hand_number": 2})
