"""Writes of the hand-history interchange: import jobs (imports.py) and one PHH hand (hands.py)."""
