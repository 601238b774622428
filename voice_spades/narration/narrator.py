"""Engine events to sentences, for one listener."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from voice_spades.engine import (
    Bid,
    BiddingComplete,
    BidMade,
    BlindNilDecided,
    CardDrawn,
    CardPlayed,
    CardsExchanged,
    Deal,
    DrawFinished,
    Event,
    HandDealt,
    HandScored,
    HandStarted,
    MatchOver,
    PlayerView,
    SpadesBroken,
    TiedAtTarget,
    TrickWon,
    mask_of,
)
from voice_spades.narration.lines import Line, LineKind, Priority
from voice_spades.narration.phrases import Phrasebook, capital
from voice_spades.narration.results import hand_results
from voice_spades.narration.standing import progress

SHORT_PLAYS_FROM = 5
"""From this many players on, a card played after the lead is said without the seat
(play goes clockwise from the leader, whom the lead names): "North-west" on every card
of a six-player trick is too long to hear."""


def trick_tag(hand_number: int, trick_number: int) -> str:
    """The tag shared by the card-play messages of one trick."""
    return f"trick:{hand_number}:{trick_number}"


class Narrator:
    """Turns each engine event into the lines ``viewer`` should hear.

    It remembers the few facts a sentence needs that an event does not carry (the
    hand number, whether a card leads, who bid nil, which contracts are made);
    :meth:`sync` sets them from a view after resuming a game. The last card of a trick
    is said with the trick's result, in one sentence when it wins ("Partner North
    played the 8 of hearts and won the trick.").
    """

    def __init__(self, words: Phrasebook) -> None:
        self.words = words
        self.rules = words.rules
        self.viewer: int | None = words.viewer
        """The listener's seat; None for a watcher, who holds no cards."""
        self._hand_number = 1
        self._plays_in_trick = 0
        self._bids: list[Bid | None] = [None] * words.rules.players
        self._last_play: CardPlayed | None = None
        """The trick's last card, said with its result."""
        self._broken_by_last: Line | None = None
        """"Spades broken" by the trick's last card, said after it."""
        self._made: set[int] = set()
        """Sides whose contract was made this hand (announced once)."""

    @property
    def hand_number(self) -> int:
        """The hand being narrated."""
        return self._hand_number

    def sync(self, view: PlayerView) -> None:
        """Take the hand number, the trick so far and the bids from ``view``."""
        self._hand_number = view.hand_number
        self._plays_in_trick = len(view.trick)
        self._bids = list(view.bids)
        self._last_play = self._broken_by_last = None
        self._made = {side.side for side in progress(view.rules, view.bids, view.tricks_won)
                      if side.made}

    def narrate(self, event: Event, *, behind: bool = False) -> list[Line]:
        """The lines for one event; empty lines (silent at this verbosity) are left out.

        ``behind`` says the speech has not caught up with this trick's card plays:
        a trick's result then also says who played what.
        """
        return [line for line in self._lines(event, behind) if line.text]

    def _line(self, message_id: str, *, priority: Priority = Priority.NORMAL,
              tag: str | None = None, seat: int | None = None, **params: object) -> Line:
        return Line(message_id, self.words.say(message_id, **params), priority, tag, seat,
                    LineKind.EVENT)

    def _said(self, message_id: str, fields: Mapping[str, object],
              seat: int | None = None) -> Line:
        """:meth:`_line` with the fields in a mapping."""
        return Line(message_id, self.words.say(message_id, **fields), Priority.NORMAL, None,
                    seat, LineKind.EVENT)

    def _lines(self, event: Event, behind: bool) -> list[Line]:
        w = self.words
        me = self.viewer
        match event:
            case HandStarted(number, dealer, first):
                self._hand_number, self._plays_in_trick = number, 0
                self._bids = [None] * self.rules.players
                self._made, self._last_play, self._broken_by_last = set(), None, None
                if self.rules.deal is Deal.DRAW:
                    return [self._line("hand.started_draw", number=number,
                                       dealer=w.seat(dealer), first=w.seat(first))]
                # A player hears the number with the cards (hand.dealt); a watcher, who is
                # dealt none, hears it here.
                started = "hand.started" if me is not None else "hand.started_watching"
                return [self._line(started, number=number, dealer=w.seat_cap(dealer),
                                   first=w.seat(first))]
            case HandDealt(hands) | DrawFinished(hands):
                if me is None:  # a watcher is dealt nothing
                    return []
                mask = mask_of(hands[me])
                message = "hand.dealt" if isinstance(event, HandDealt) else "draw.finished"
                if message == "hand.dealt" and self._hand_number == 1:
                    message = "hand.dealt_first"
                return [self._line(message, hand=w.hand(mask), count=w.count(len(hands[me])),
                                   number=self._hand_number)]
            case BlindNilDecided(seat, declared):
                if declared:
                    self._bids[seat] = Bid(0, blind=True)
                message = "blind_nil.declared" if declared else "blind_nil.declined"
                return [self._line(message, Seat=w.seat_cap(seat), seat=seat)]
            case CardDrawn(seat, shown, kept, received, count):
                if seat != me:
                    return [self._line("draw.other", Seat=w.seat_cap(seat), count=w.count(count),
                                       seat=seat)]
                message = "draw.kept" if kept else "draw.discarded"
                return [self._line(message, card=w.card(shown), shown=w.card(shown),
                                   received=w.card(received), count=w.count(count))]
            case CardsExchanged(seat, given, received):
                if seat != me:
                    return [self._line("exchange.other", Seat=w.seat_cap(seat),
                                       count=w.count(len(given)), seat=seat)]
                if not given:
                    return [self._line("exchange.you_none")]
                return [self._line("exchange.you", given=w.cards(given),
                                   received=w.cards(received))]
            case BidMade(seat, bid):
                self._bids[seat] = bid
                return [self._line("bid.made", Seat=w.seat_cap(seat), bid=w.bid(bid), seat=seat)]
            case BiddingComplete(bids, contracts):
                return [self._bidding_complete(bids, contracts)]
            case CardPlayed():
                lead = not self._plays_in_trick
                self._plays_in_trick += 1
                if self._plays_in_trick >= self.rules.players:
                    self._last_play = event  # said with the trick's result, which follows
                    return []
                return [self._card_line(event, lead)]
            case SpadesBroken(seat, _card):
                # The card's own line has just named the player, unless it was short.
                named = not self._short_play(seat, lead=self._plays_in_trick == 1)
                line = self._line("spades.broken_after" if named else "spades.broken",
                                  Seat=w.seat_cap(seat), seat=seat)
                if self._last_play is not None:  # after that card, said with the trick
                    self._broken_by_last = line
                    return []
                return [line]
            case TrickWon(_trick, winner, _card, tricks_won):
                self._plays_in_trick = 0
                lines = self._trick_won(event, behind)
                winner_bid = self._bids[winner]
                if winner_bid is not None and winner_bid.is_nil and tricks_won[winner] == 1:
                    whose = w.whose(winner)
                    lines.append(self._line("nil.broken", whose=whose, Whose=capital(whose),
                                            seat=winner))
                return lines + self._contracts_made(tricks_won)
            case HandScored():
                lines = [line for message_id, fields in hand_results(w, event)
                         if (line := self._said(message_id, fields)).text]
                mine = [s.made for s in event.score.sides if me in s.seats]
                if lines and mine and mine[0] is not None:  # a sound: the listener's contract
                    lines[-1] = replace(lines[-1], result="made" if mine[0] else "set")
                return lines
            case TiedAtTarget(scores):
                return [self._line("tied", score=max(scores))]
            case MatchOver(winner, scores, hands):
                return [self._match_over(winner, scores, hands)]
        return []

    def _bidding_complete(self, bids: tuple[Bid, ...], contracts: tuple[int, ...]) -> Line:
        w = self.words
        if self.rules.is_partnership:
            sep = w.say("word.list_sep")
            summary = sep.join(w.say("word.side_number", side=w.side(i), n=c)
                               for i, c in enumerate(contracts))
        else:
            summary = w.bids(bids)
        return self._line("bidding.complete", contracts=summary, bids=w.bids(bids),
                          total=sum(b.tricks for b in bids), tricks=self.rules.hand_size)

    def _short_play(self, seat: int, lead: bool) -> bool:
        """True when a card play is said without its player (see SHORT_PLAYS_FROM)."""
        return not lead and self.rules.players >= SHORT_PLAYS_FROM and seat != self.viewer

    def _card_line(self, play: CardPlayed, lead: bool) -> Line:
        w = self.words
        if lead:
            message = "card.led"
        elif self._short_play(play.seat, lead):
            message = "card.played_next"
        else:
            message = "card.played"
        return self._line(message, Seat=w.seat_cap(play.seat), card=w.card(play.card),
                          trick=play.trick_number,
                          tag=trick_tag(self._hand_number, play.trick_number), seat=play.seat)

    def _trick_won(self, event: TrickWon, behind: bool) -> list[Line]:
        """The trick's result, with its last card unless the plays are summed up: one
        sentence when that card won, so the winner is named once."""
        w = self.words
        last, self._last_play = self._last_play, None
        broken = [] if self._broken_by_last is None else [self._broken_by_last]
        self._broken_by_last = None
        winner = event.winner
        params: dict[str, object] = {
            "Seat": w.seat_cap(winner), "card": w.card(event.winning_card),
            "number": event.trick.number, "plays": w.plays(event.trick.plays),
            "tally": w.tally(event.tricks_won)}
        if behind:
            return [*broken, self._said("trick.won_summary", params, winner)]
        if last is not None and last.seat == winner:
            return [self._said("trick.won_last", params, winner), *broken]
        # The listener's card that ends the hand's last trick goes unsaid: it was their
        # only card, and the prompt has just named it.
        forced = last is not None and last.seat == self.viewer \
            and event.trick.number == self.rules.hand_size
        before = [] if last is None or forced else [self._card_line(last, lead=False)]
        return [*before, *broken, self._said("trick.won", params, winner)]

    def _contracts_made(self, tricks_won: tuple[int, ...]) -> list[Line]:
        """"Contract made" for each side that has just taken enough tricks."""
        w = self.words
        lines = []
        for side in progress(self.rules, self._bids, tricks_won):
            if side.made and side.side not in self._made:
                self._made.add(side.side)
                lines.append(self._line("contract.made", Side=w.side_cap(side.side),
                                        side=w.side(side.side), contract=side.contract))
        return lines

    def _match_over(self, winner: int, scores: tuple[int, ...], hands: int) -> Line:
        w = self.words
        if self.viewer is None:  # a watcher: the winners by name
            message = "match.won_side"
        elif self.rules.side_of(self.viewer) == winner:
            message = "match.won_side" if self.rules.is_partnership else "match.won"
        else:
            message = "match.lost"
        return self._line(message, Side=w.side_cap(winner), scores=w.score_line(scores),
                          hands=hands, priority=Priority.HIGH)
