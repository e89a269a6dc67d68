"""Every model of the tracker app, imported from its feature package so Django finds them.

The app label is ``tracker`` for all of them (table names ``tracker_<model>``), wherever
the class lives. Import models from their feature package, not from here.
"""

from tracker.accounts.models import AccountName, ApiToken, EmailAddress
from tracker.audit.models import AuditEntry
from tracker.games.models import LeagueGame, LeagueGameVersion
from tracker.hands.models import (
    Dispute,
    DraftChange,
    DraftHand,
    Evaluation,
    Hand,
    HandSeat,
    Pot,
    ReevaluationChunk,
    ReevaluationJob,
)
from tracker.interchange.models import ImportChunk, ImportFile, ImportJob
from tracker.leagues.models import CalendarFeed, Invite, League, Membership, Player
from tracker.mail.models import MailOptOut, OutboxMessage
from tracker.money.models import (
    Deal,
    LeagueMoney,
    MoneyEntry,
    MoneyLedgerEntry,
    NightMoney,
    SettleTransfer,
)
from tracker.rulings.models import Ruling
from tracker.schedule.models import CheckIn, Rsvp, ScheduledNight
from tracker.stats.models import MonthTally, TournamentTally
from tracker.tournaments.models import (
    FinalStanding,
    LedgerEntry,
    Seat,
    StandingTally,
    TableLink,
    Tournament,
)

__all__ = [
    "AccountName",
    "ApiToken",
    "AuditEntry",
    "CalendarFeed",
    "CheckIn",
    "Deal",
    "Dispute",
    "DraftChange",
    "DraftHand",
    "EmailAddress",
    "Evaluation",
    "FinalStanding",
    "Hand",
    "HandSeat",
    "ImportChunk",
    "ImportFile",
    "ImportJob",
    "Invite",
    "League",
    "LedgerEntry",
    "LeagueGame",
    "LeagueGameVersion",
    "LeagueMoney",
    "MailOptOut",
    "MoneyEntry",
    "MoneyLedgerEntry",
    "Membership",
    "MonthTally",
    "NightMoney",
    "OutboxMessage",
    "SettleTransfer",
    "Player",
    "Pot",
    "ReevaluationChunk",
    "ReevaluationJob",
    "Rsvp",
    "Ruling",
    "ScheduledNight",
    "Seat",
    "StandingTally",
    "TableLink",
    "Tournament",
    "TournamentTally",
]
