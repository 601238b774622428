"""Answers to the questions a player may ask at any time, and the hand cursor's words."""

from __future__ import annotations

from collections.abc import Sequence

from voice_spades.engine import Bid, Card, Phase, PlayerView, Suit
from voice_spades.narration.lines import Hints, Line
from voice_spades.narration.phrases import Phrasebook, capital
from voice_spades.narration.prompts import bid_notes
from voice_spades.narration.review import HandRecord, Review
from voice_spades.narration.standing import Standing, winning_so_far


class Answers:
    """Builds answer lines from the viewer's :class:`PlayerView`.

    ``standing`` answers where the hand stands (tricks needed, the target, each
    player's bid and tricks in turn) and ``review`` looks back (the last trick, the
    previous hand trick by trick).
    """

    def __init__(self, words: Phrasebook, hints: Hints) -> None:
        self.words = words
        self.hints = hints
        self.standing = Standing(words)
        self.review = Review(words)

    def line(self, message_id: str, **params: object) -> Line:
        """Any catalog message as a line (normal priority)."""
        return Line(message_id, self.words.say(message_id, **params))

    def table(self, view: PlayerView) -> Line:
        """C: the cards on the table, and who is winning the trick so far."""
        if view.phase in (Phase.BID, Phase.BLIND_NIL, Phase.DRAW, Phase.EXCHANGE):
            return self.line("answer.table_bidding")
        winner = winning_so_far(view.trick)
        if winner is not None:
            return self.line("answer.table", plays=self.words.plays(view.trick),
                             winner=self.words.seat(winner))
        return self.line("answer.table_empty", leader=self.words.seat_cap(view.leader))

    def suit_led(self, view: PlayerView) -> Line:
        """F: the suit led."""
        if not view.trick:
            return self.line("answer.nothing_led")
        leader, card = view.trick[0]
        return self.line("answer.suit_led", Suit=card.suit,
                         leader=self.words.seat(leader))

    def game_info(self, view: PlayerView, *, over: bool = False) -> Line:
        """V or I: each player's bid and tricks, and the trick number; once the match is
        ``over``, who won, after how many hands, and the final scores."""
        w = self.words
        if over:
            # The match ends only with one side alone at the top (a tie plays on).
            winner = max(range(len(view.scores)), key=view.scores.__getitem__)
            return self.line("answer.game_info_over", side=w.side(winner),
                             hands=view.hand_number, scores=w.score_line(view.scores))
        if view.phase in (Phase.DRAW, Phase.BLIND_NIL, Phase.EXCHANGE):
            sep = w.say("word.list_sep")
            held = sep.join(w.say("word.seat_card", seat=w.seat(s), card=w.count(n))
                            for s, n in enumerate(view.cards_held))
            where = capital(w.say(f"word.where.{view.phase.value}"))
            return self.line("answer.game_info_draw", where=where, held=held)
        if view.phase is not Phase.PLAY:
            return self.line("answer.game_info_bidding", bids=w.bids(view.bids))
        sep = w.say("word.group_sep")
        players = sep.join(w.say("word.seat_bid_took", seat=w.seat(s), bid=w.bid(view.bids[s]),
                                 took=view.tricks_won[s]) for s in range(view.rules.players))
        return self.line("answer.game_info", trick=view.trick_number,
                         tricks=view.rules.hand_size, players=capital(players))

    def scores(self, view: PlayerView) -> Line:
        """S: scores and bags."""
        return self.line("answer.scores", scores=self.words.scores(view.scores, view.bags),
                         target=view.rules.target)

    def whose_turn(self, view: PlayerView) -> Line:
        """T: whose turn it is and to do what."""
        if view.to_act is None:
            return self.line("turn.over")
        task = self.words.say(f"word.phase.{view.phase.value}")
        if view.to_act == view.seat:
            return self.line("turn.yours", task=task)
        return self.line("turn.other", whose=capital(self.words.whose(view.to_act)), task=task)

    def hand(self, view: PlayerView) -> Line:
        """H: the whole hand."""
        if not view.hand:
            return self.line("answer.hand_empty")
        return self.line("answer.hand", hand=self.words.hand(view.hand),
                         count=self.words.count(view.hand.bit_count()))

    def suit(self, view: PlayerView, suit: Suit) -> Line:
        """One suit of the hand."""
        cards = [c for c in view.hand_cards if c.suit == suit]
        if not cards:
            return self.line("answer.suit_void", suit=suit)
        return self.line("answer.suit", Suit=suit, ranks=self.words.ranks(cards))

    def legal(self, view: PlayerView, refusals: Sequence[str] = ()) -> Line:
        """What can I do now: the legal cards, bids or choices."""
        w = self.words
        if not view.is_my_turn:
            return self.line("answer.nothing_to_do", turn=self.whose_turn(view).text)
        if view.phase is Phase.BID:
            return self.line("answer.legal_bids", choices=w.bid_choices(view.legal),
                             nil_note=w.nil_note(view.legal),
                             notes=bid_notes(w, refusals))
        if view.phase is Phase.DRAW:
            assert view.draw_top is not None
            return self.line("answer.legal_draw", card=w.card(view.draw_top))
        if view.phase is Phase.BLIND_NIL:
            return self.line("answer.legal_blind_nil", yes=self.hints.yes, no=self.hints.no)
        if view.phase is Phase.EXCHANGE:
            return self.line("answer.legal_exchange", limit=view.rules.blind_nil_exchange)
        cards = [a for a in view.legal if isinstance(a, Card)]
        if len(cards) == view.hand.bit_count() and len(cards) > 1:
            return self.line("answer.legal_any")
        return self.line("answer.legal_cards", cards=w.cards(cards))

    def bids(self, view: PlayerView) -> Line:
        """Every bid so far."""
        return self.line("answer.bids", bids=self.words.bids(view.bids))

    def last_trick(self, view: PlayerView, previous: HandRecord | None = None) -> Line:
        """The last completed trick: who played what and who won; between hands, the
        last trick of ``previous``, the hand just played."""
        return self.review.last_trick(view, previous)

    def history(self, texts: Sequence[str]) -> Line:
        """The recent messages, oldest first."""
        if not texts:
            return self.line("answer.history_empty")
        return self.line("answer.history", lines=self.words.say("word.sentence_sep").join(texts))

    def cursor(self, view: PlayerView, card: Card | None, *, suit_changed: bool = False,
               edge: str | None = None, marked: bool = False) -> Line:
        """The card the cursor reached; ``edge`` is "high" or "low" for Home and End."""
        w = self.words
        if card is None:
            return self.line("cursor.empty")
        notes = ""
        if marked:
            notes += w.say("word.marked")
        playable = [a for a in view.legal if isinstance(a, Card)]
        if view.is_my_turn and view.phase is Phase.PLAY and card not in playable:
            notes += w.say("word.not_playable")
        params = {"card": w.card(card), "rank": w.rank(card), "notes": notes,
                  "suit": card.suit}
        if edge is not None:
            return self.line(f"cursor.edge_{edge}", **params)
        if suit_changed:
            return self.line("cursor.suit_card", **params)
        return self.line("cursor.card", **params)

    def bid_typed(self, bid: Bid) -> Line:
        """Echo of a bid typed on the keyboard, not yet made."""
        return self.line("bid.typed", bid=self.words.bid(bid), confirm=self.hints.confirm)
