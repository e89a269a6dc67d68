"""Per-seat facts of a settled hand: see :mod:`tracker.engine.facts` (an observer of the
stud state machine's walk)."""

from tracker.engine.facts import FACTS_VERSION, STREET_INDEX, hand_facts

__all__ = ["FACTS_VERSION", "STREET_INDEX", "hand_facts"]
