"""Engine events to sentences, for one listener."""

from __future__ import annotations

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
    SideScore,
    SpadesBroken,
    TiedAtTarget,
    TrickWon,
    mask_of,
)
from voice_spades.narration.lines import Line, Priority
from voice_spades.narration.phrases import Phrasebook, capital


def trick_tag(hand_number: int, trick_number: int) -> str:
    """The tag shared by the card-play messages of one trick."""
    return f"trick:{hand_number}:{trick_number}"


class Narrator:
    """Turns each engine event into the lines ``viewer`` should hear.

    It remembers the few facts a sentence needs that an event does not carry (the
    hand number, whether a card leads, who bid nil); :meth:`sync` sets them from a
    view after resuming a game.
    """

    def __init__(self, words: Phrasebook) -> None:
        if words.viewer is None:
            raise TypeError("a Narrator narrates for a listener: give the Phrasebook a viewer")
        self.words = words
        self.rules = words.rules
        self.viewer: int = words.viewer
        self._hand_number = 1
        self._plays_in_trick = 0
        self._bids: list[Bid | None] = [None] * words.rules.players

    @property
    def hand_number(self) -> int:
        """The hand being narrated."""
        return self._hand_number

    def sync(self, view: PlayerView) -> None:
        """Take the hand number, the trick so far and the bids from ``view``."""
        self._hand_number = view.hand_number
        self._plays_in_trick = len(view.trick)
        self._bids = list(view.bids)

    def narrate(self, event: Event, *, behind: bool = False) -> list[Line]:
        """The lines for one event; empty lines (silent at this verbosity) are left out.

        ``behind`` says the speech has not caught up with this trick's card plays:
        a trick's result then also says who played what.
        """
        return [line for line in self._lines(event, behind) if line.text]

    def _line(self, message_id: str, *, priority: Priority = Priority.NORMAL,
              tag: str | None = None, seat: int | None = None, **params: object) -> Line:
        return Line(message_id, self.words.say(message_id, **params), priority, tag, seat)

    def _lines(self, event: Event, behind: bool) -> list[Line]:
        w = self.words
        me = self.viewer
        match event:
            case HandStarted(number, dealer, first):
                self._hand_number, self._plays_in_trick = number, 0
                self._bids = [None] * self.rules.players
                if self.rules.deal is Deal.DRAW:
                    return [self._line("hand.started_draw", number=number,
                                       dealer=w.seat(dealer), first=w.seat(first))]
                return [self._line("hand.started", number=number, dealer=w.seat_cap(dealer),
                                   first=w.seat(first))]
            case HandDealt(hands) | DrawFinished(hands):
                mask = mask_of(hands[me])
                message = "hand.dealt" if isinstance(event, HandDealt) else "draw.finished"
                return [self._line(message, hand=w.hand(mask), count=w.count(len(hands[me])))]
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
            case CardPlayed(seat, card, trick):
                message = "card.played" if self._plays_in_trick else "card.led"
                self._plays_in_trick += 1
                return [self._line(message, Seat=w.seat_cap(seat), card=w.card(card), trick=trick,
                                   tag=trick_tag(self._hand_number, trick), seat=seat)]
            case SpadesBroken(seat, _card):
                return [self._line("spades.broken", Seat=w.seat_cap(seat))]
            case TrickWon(trick, winner, card, tricks_won):
                self._plays_in_trick = 0
                message = "trick.won_summary" if behind else "trick.won"
                lines = [self._line(message, Seat=w.seat_cap(winner), card=w.card(card),
                                    number=trick.number, plays=w.plays(trick.plays),
                                    tally=w.tally(tricks_won), seat=winner)]
                winner_bid = self._bids[winner]
                if winner_bid is not None and winner_bid.is_nil and tricks_won[winner] == 1:
                    whose = w.whose(winner)
                    lines.append(self._line("nil.broken", whose=whose, Whose=capital(whose)))
                return lines
            case HandScored(number, score, scores, bags):
                lines = [self._side_score(side) for side in score.sides]
                for side in score.sides:
                    for nil in side.nils:
                        kind = "blind_nil" if nil.blind else "nil"
                        outcome = "made" if nil.made else "failed"
                        lines.append(self._line(f"{kind}.{outcome}", Seat=w.seat_cap(nil.seat),
                                                points=abs(nil.points)))
                if score.boston is not None:
                    lines.append(self._line("boston", Side=w.side_cap(score.boston),
                                            tricks=self.rules.hand_size))
                lines.append(self._line("score.totals", number=number,
                                        scores=w.scores(scores, bags)))
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

    def _side_score(self, side: SideScore) -> Line:
        w = self.words
        parts = [w.say(message, points=w.signed(points), bags=w.bags(side.new_bags))
                 for message, points in (
                     ("score.part.contract", side.contract_points),
                     ("score.part.bags", side.bag_points),
                     ("score.part.nil", side.nil_points),
                     ("score.part.exact", side.exact_bonus),
                     ("score.part.big", side.big_bonus),
                     ("score.part.penalty", side.bag_penalty)) if points]
        message = "score.side" if side.contract else "score.side_nil_only"
        return self._line(message, Side=w.side_cap(side.side), contract=side.contract,
                          tricks=side.tricks, points=w.signed(side.total),
                          parts=w.join(parts) or w.say("score.part.none"),
                          score=side.score_after, bags=w.bags(side.bags_after))

    def _match_over(self, winner: int, scores: tuple[int, ...], hands: int) -> Line:
        w = self.words
        mine = self.rules.side_of(self.viewer) == winner
        if mine:
            message = "match.won_side" if self.rules.is_partnership else "match.won"
        else:
            message = "match.lost"
        return self._line(message, Side=w.side_cap(winner), scores=w.score_line(scores),
                          hands=hands, priority=Priority.HIGH)
