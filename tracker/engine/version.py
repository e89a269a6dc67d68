"""The engine's version, stored with every evaluation so an audit shows which version said what.

Bump it whenever a change can alter any hand value, winner, pot or payout.
"""

ENGINE_VERSION = "1.0.0"
