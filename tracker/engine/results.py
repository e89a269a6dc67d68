"""A hand entered as results: the stud machine without its betting rounds.

:class:`ResultsHand` is a :class:`tracker.engine.stud.StudHand` that overrides
what differs when a scorekeeper records a hand from its results (quick entry,
:func:`tracker.engine.procedure.settle_quick`) instead of action by action:

* no betting rounds: each street is dealt, its folds come in any order (there
  are no turns), and :meth:`ResultsHand.end_betting` closes it; a betting action
  is refused;
* the chips come per seat (:meth:`ResultsHand.contribute`), with the part nobody
  matched given back (:meth:`ResultsHand.return_uncalled`);
* a face-up card the scorekeeper did not note may be unknown.

Everything else -- dealing, the seventh-card choices, the community card, mucks,
declarations, the pots and the settlement -- is the parent's. ``StudHand(...,
results=True)`` makes one too.

>>> from tracker.engine.examples import third_street
>>> hand = third_street(results=True)
>>> type(hand).__name__, [(o.verb.value, o.seat) for o in hand.next_event().options]
('ResultsHand', [('fold', 0), ('fold', 1), ('end_betting', None)])
>>> hand.bring_in(0)
Traceback (most recent call last):
...
tracker.engine.stud.ProcedureError: a hand entered as results has no betting actions
"""

from __future__ import annotations

from .stud import (
    Code,
    Event,
    NextEvent,
    Option,
    Phase,
    ProcedureError,
    StudHand,
    Subject,
    Verb,
)

__all__ = ["ResultsHand"]


class ResultsHand(StudHand):
    """The machine of a hand entered as results (see the module doc)."""

    __slots__ = ()

    # ------------------------------------------------------------------
    # No betting rounds

    def _start_betting(self) -> None:
        """A street's cards are dealt: its folds, then :meth:`end_betting`."""
        self.seventh_open = False
        self.phase = Phase.BET

    def _betting_event(self) -> NextEvent:
        """While a street is open: any seat still in may fold, or the street ends."""
        options = tuple(Option(Verb.FOLD, i) for i in range(self.n) if self.in_hand[i])
        return NextEvent(Phase.BET, self.street, options=(*options, Option(Verb.END_BETTING)))

    def legal_options(self, seat: int) -> tuple[Option, ...]:
        """No seat has betting options: there are no turns."""
        return ()

    def _forced_options(self) -> tuple[Option, ...]:
        return ()

    def _check_turn(self, seat: int | None) -> None:
        """A betting action is refused: the street's phase first, then the mode.

        >>> from tracker.engine.examples import antes_posted
        >>> antes_posted(results=True).verify_check_or_call(0)
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: third street is not fully dealt yet: cards for p1, p2
        first
        """
        if self.phase is not Phase.BET:
            super()._check_turn(seat)  # raises, naming what the phase waits for
        raise self.fail(
            "a hand entered as results has no betting actions", Code.INVALID_ACTION, seat
        )

    def _betting_not_over(self) -> ProcedureError:
        return self.fail(
            f"{self.street_names[self.street]} street is not over yet", Code.OUT_OF_TURN
        )

    def _incomplete_betting(self) -> ProcedureError:
        return self.fail(
            f"the hand is incomplete: {self.street_names[self.street]} street is not over",
            Code.INCOMPLETE_HAND,
        )

    def _check_unknown_up(self, seat: int) -> None:
        """A face-up card nobody noted may stay unknown -- except in a house game whose rules
        act on up cards (follow-the-X, extra cards, pay rules): there every up card counts."""
        game = self.game
        if game is not None and (game.up_order_needed or game.extra_cards or game.pays):
            super()._check_unknown_up(seat)

    # ------------------------------------------------------------------
    # Folds in any order

    def verify_fold(self, seat: int) -> None:
        """Check ``seat`` folding: any seat still in, once the street is dealt.

        >>> from tracker.engine.examples import third_street
        >>> hand = third_street(results=True)
        >>> hand.verify_fold(1)
        >>> hand.fold(1)
        >>> hand.verify_fold(1)
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: the hand is over: everyone else has folded
        """
        if self.paying is not None and self.paying == seat:
            return  # folds instead of paying the price
        if self.phase is not Phase.BET:
            super()._check_turn(seat)  # raises, naming what the phase waits for
        if not self.in_hand[seat]:
            raise self.fail(f"{self.label(seat)} has folded", Code.ILLEGAL_ACTION, seat)

    def fold(self, seat: int) -> None:
        """``seat`` folds on this street; the hand is over when one seat is left.

        >>> from tracker.engine.examples import third_street
        >>> hand = third_street(results=True)
        >>> hand.fold(0)  # p1 need not bring it in first: there are no turns
        >>> hand.folded, hand.next_event().over
        (['third', None], True)
        """
        self.verify_fold(seat)
        if self.paying is not None:
            self._fold_unpaid(seat)
            return
        self._drop(seat)
        self._end_if_alone()

    def verify_end_betting(self) -> None:
        """Check that the street's betting may end: its cards are dealt.

        >>> from tracker.engine.examples import antes_posted, deal_round
        >>> hand = antes_posted(results=True)
        >>> hand.verify_end_betting()
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: third street is not fully dealt yet: cards for p1, p2
        first
        >>> deal_round(hand, "As Qh Ks Qd 2c 3c")
        >>> hand.verify_end_betting()
        """
        if self.phase is not Phase.BET:
            super()._check_turn(None)  # raises, naming what the phase waits for

    def end_betting(self) -> None:
        """The street's betting is over (after its folds).

        >>> from tracker.engine.examples import third_street
        >>> hand = third_street(results=True)
        >>> hand.end_betting()
        >>> hand.street, hand.cards_due(0)
        (<Street.FOURTH: 1>, 1)
        """
        self.verify_end_betting()
        if self.observers:
            self._emit(Event(Verb.END_BETTING, self.street))
        self._next_street()

    # ------------------------------------------------------------------
    # The chips, per seat

    def verify_contribute(self, seat: int, amount: int) -> None:
        """Check that ``seat`` put ``amount`` chips in: not negative, not over its stack.

        >>> from tracker.engine.examples import third_street
        >>> hand = third_street(results=True)
        >>> hand.verify_contribute(0, 99)
        >>> hand.verify_contribute(0, 500)
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: p1 has 99 chips left, not 500
        """
        if amount < 0:
            raise self.fail(
                f"{self.label(seat)} cannot put in {amount} chips", Code.INVALID_ACTION, seat,
                Subject.CHIPS,
            )  # fmt: skip
        if amount > self.stacks[seat]:
            raise self.fail(
                f"{self.label(seat)} has {self.stacks[seat]} chips left, not {amount}",
                Code.OVER_STACK,
                seat,
                Subject.CHIPS,
            )

    def contribute(self, seat: int, amount: int) -> None:
        """``seat`` put ``amount`` chips in besides its ante and buy.

        >>> from tracker.engine.examples import third_street
        >>> hand = third_street(results=True)
        >>> hand.contribute(0, 5); hand.contribute(1, 5)
        >>> hand.stacks, [p.to_dict() for p in hand.pots()]
        ([94, 94], [{'amount': 12, 'eligible': [0, 1]}])
        """
        self.verify_contribute(seat, amount)
        self.stacks[seat] -= amount
        self.live[seat] += amount
        if self.observers:
            self._emit(Event(Verb.CONTRIBUTE, self.street, seat, amount))

    def verify_return_uncalled(self, seat: int, amount: int) -> None:
        """Check giving ``amount`` of ``seat``'s chips back: no more than nobody matched.

        >>> from tracker.engine.examples import third_street
        >>> hand = third_street(results=True)
        >>> hand.contribute(0, 2); hand.contribute(1, 5)
        >>> hand.verify_return_uncalled(1, 3)
        >>> hand.verify_return_uncalled(1, 8)
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: p2 has 3 chips in that nobody matched: 8 cannot go back
        """
        unmatched = self.live[seat] - max(self.live[j] for j in range(self.n) if j != seat)
        if not 0 < amount <= unmatched:
            raise self.fail(
                f"{self.label(seat)} has {max(unmatched, 0)} chips in that nobody matched: "
                f"{amount} cannot go back",
                Code.UNMATCHED,
                seat,
                Subject.CHIPS,
            )

    def return_uncalled(self, seat: int, amount: int) -> None:
        """Give back the part of ``seat``'s chips nobody matched.

        >>> from tracker.engine.examples import third_street
        >>> hand = third_street(results=True)
        >>> hand.contribute(0, 2); hand.contribute(1, 5); hand.fold(0)
        >>> hand.return_uncalled(1, 3)  # p1 folded to p2's completion
        >>> [p.to_dict() for p in hand.pots()], hand.settle().finishing_stacks
        ([{'amount': 6, 'eligible': [1]}], [97, 103])
        """
        self.verify_return_uncalled(seat, amount)
        self.stacks[seat] += amount
        self.live[seat] -= amount
        self.returned[seat] += amount
        if self.observers:
            self._emit(Event(Verb.RETURN, self.street, seat, amount))
