"""What each intent means now: the player's side of the session.

Holds the little state that lives between key presses: a bid being typed, cards
marked for the blind nil exchange, and a yes/no question waiting for its answer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from voice_spades.commands import (
    Act,
    AnyIntent,
    Ask,
    Cancel,
    Command,
    Confirm,
    Control,
    JumpToSuit,
    MarkCard,
    Move,
    MoveCursor,
    NotUnderstood,
    PlayCurrent,
    Propose,
    Query,
    StartBid,
    TypeDigit,
)
from voice_spades.engine.actions import Bid, BlindNilChoice, DrawChoice, Exchange
from voice_spades.engine.cards import Card, Suit
from voice_spades.narration import Line, turn_prompt
from voice_spades.speech.message import Priority

if TYPE_CHECKING:
    from voice_spades.session.controller import Session

_GAME_INTENTS = (Act, PlayCurrent, StartBid, TypeDigit, MarkCard)
"""Intents that move the game on; they drop a question left unanswered."""


@dataclass(frozen=True, slots=True)
class _Question:
    text: str
    on_yes: Callable[[], None]
    on_no: Callable[[], None] | None = None


class PlayerTurn:
    """Interprets the player's intents for one :class:`Session` (on its thread)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.typed = ""
        self.marked: list[Card] = []
        self._question: _Question | None = None

    def reset(self) -> None:
        """Forget typed digits, marks and questions (a new hand or match)."""
        self.typed = ""
        self.marked = []
        self._question = None

    def action_taken(self) -> None:
        """The player's action went through: typed digits and marks are used up."""
        self.typed = ""
        self.marked = []

    def question_text(self) -> str | None:
        """The yes/no question pending: an explicit one, or the blind nil decision or
        the two-player draw when it is the player's turn for them."""
        if self._question is not None:
            return self._question.text
        view = self.session.view
        if view.is_my_turn and view.phase in ("blind-nil", "draw"):
            prompt = turn_prompt(view, self.session.words, self.session.hints)
            return prompt.text if prompt is not None else None
        return None

    # ----- dispatch ---------------------------------------------------------------
    def handle(self, intent: AnyIntent) -> None:
        """Do what ``intent`` means now; every outcome is said."""
        s = self.session
        if isinstance(intent, _GAME_INTENTS):
            self._question = None
        match intent:
            case Act(action):
                s.act(action)
            case PlayCurrent():
                self._play_current()
            case Ask(query, suit):
                self._ask(query, suit)
            case MoveCursor(move):
                self._move(move)
            case JumpToSuit(suit):
                view = s.view
                s.cursor.jump(suit, view.hand)
                self._say(s.answers.suit(view, suit))
            case StartBid():
                self._start_bid()
            case TypeDigit(digit):
                self._type_digit(digit)
            case MarkCard(card):
                self._mark(card)
            case Confirm(yes):
                self._confirm(yes)
            case Cancel():
                self._cancel()
            case Command(control):
                self._command(control)
            case Propose(proposed, question):
                self._propose(proposed, question)
            case NotUnderstood(heard):
                self._say(s.line("sorry", heard=heard or s.words.say("word.that")))

    def _say(self, line: Line) -> None:
        self.session.emit([line])

    def _my_turn(self, phase: str) -> bool:
        view = self.session.view
        return view.is_my_turn and view.phase == phase

    # ----- playing and bidding --------------------------------------------------
    def _play_current(self) -> None:
        s = self.session
        view = s.view
        if s.match.is_over:
            self._say(s.line("turn.over"))
        elif not view.is_my_turn:
            self._say(s.not_your_turn())
        elif view.phase == "bid":
            if self.typed:
                bid, self.typed = Bid(int(self.typed)), ""
                s.act(bid)
            else:
                self._say(s.line("bid.nothing_typed", nil=s.hints.nil, confirm=s.hints.confirm))
        elif view.phase == "play":
            if s.cursor.card is None:
                self._say(s.line("error.no_card"))
            else:
                s.act(s.cursor.card)
        elif view.phase == "exchange":
            s.act(Exchange(tuple(self.marked)))
        else:
            self._say(s.answers.legal(view))

    def _start_bid(self) -> None:
        s = self.session
        self.typed = ""
        if self._my_turn("bid"):
            prompt = turn_prompt(s.view, s.words, s.hints, s.bid_refusals())
            if prompt is not None:
                self._say(prompt)
        else:
            self._say(s.line("bid.not_now", turn=s.answers.whose_turn(s.view).text))

    def _type_digit(self, digit: int) -> None:
        s = self.session
        if not self._my_turn("bid"):
            self._say(s.line("bid.not_now", turn=s.answers.whose_turn(s.view).text))
            return
        typed = self.typed + str(digit)
        if int(typed) > s.match.rules.hand_size:
            typed = str(digit)
        self.typed = str(int(typed))
        self._say(s.answers.bid_typed(Bid(int(self.typed))))

    def _mark(self, card: Card | None) -> None:
        s = self.session
        if not self._my_turn("exchange"):
            self._say(s.line("mark.not_now"))
            return
        card = card or s.cursor.card
        limit = s.match.rules.blind_nil_exchange
        if card is None or card not in s.view.hand_cards:
            self._say(s.line("error.no_card"))
        elif card in self.marked:
            self.marked.remove(card)
            self._say(s.line("mark.off", card=s.words.card(card), count=len(self.marked)))
        elif len(self.marked) >= limit:
            self._say(s.line("mark.full", limit=limit))
        else:
            self.marked.append(card)
            self._say(s.line("mark.on", card=s.words.card(card), count=len(self.marked)))

    # ----- questions ------------------------------------------------------------
    def _propose(self, proposed: Act | PlayCurrent | Command, question: str) -> None:
        s = self.session
        if isinstance(proposed, Act):
            # Ask only about what would be allowed: otherwise say why not at once.
            if s.match.to_act != s.human or s.match.is_over:
                self._say(s.not_your_turn())
                return
            reason = s.match.hand.refusal(proposed.action, s.human)
            if reason is not None:
                self._say(s.line("error.illegal", reason=reason, priority=Priority.HIGH))
                return
        self._question = _Question(question, lambda: self.handle(proposed))
        self._say(s.line("question.yes_no", question=question, priority=Priority.HIGH))

    def _confirm(self, yes: bool) -> None:
        s = self.session
        question = self._question
        if question is not None:
            self._question = None
            if yes:
                question.on_yes()
            elif question.on_no is not None:
                question.on_no()
            else:
                self._say(s.line("question.cancelled"))
        elif self._my_turn("blind-nil"):
            s.act(BlindNilChoice(yes))
        elif self._my_turn("draw"):
            s.act(DrawChoice(yes))
        else:
            self._say(s.line("question.none"))

    def _cancel(self) -> None:
        s = self.session
        s.output.silence()
        if self._question is not None or self.typed:
            self._question = None
            self.typed = ""
            self._say(s.line("question.cancelled"))

    # ----- looking around -------------------------------------------------------
    def _ask(self, query: Query, suit: Suit | None) -> None:
        s = self.session
        a = s.answers
        view = s.view
        simple: dict[Query, Callable[[], Line]] = {
            Query.TABLE: lambda: a.table(view),
            Query.SUIT_LED: lambda: a.suit_led(view),
            Query.SCORES: lambda: a.scores(view),
            Query.WHOSE_TURN: lambda: a.whose_turn(view),
            Query.HAND: lambda: a.hand(view),
            Query.LEGAL: lambda: a.legal(view, s.bid_refusals() if view.is_my_turn else ()),
            Query.GAME_INFO: lambda: a.game_info(view),
            Query.BIDS: lambda: a.bids(view),
            Query.LAST_TRICK: lambda: a.last_trick(view),
            Query.HISTORY: lambda: a.history(s.output.recent(5)),
        }
        if query in simple:
            self._say(simple[query]())
        elif query is Query.SUIT:
            self._say(a.suit(view, suit) if suit is not None else a.hand(view))
        elif query is Query.HELP and s.help_text is not None:
            self._say(Line("help.keys", s.help_text()))
        elif s.voice_help is not None:
            self._say(Line("help.voice", s.voice_help(s.context())))
        else:
            self._say(s.line("session.what_can_i_say", help=s.hints.help))

    def _move(self, move: Move) -> None:
        s = self.session
        view = s.view
        card, suit_changed = s.cursor.move(move, view.hand)
        edge = {Move.HIGHEST: "high", Move.LOWEST: "low"}.get(move)
        self._say(s.answers.cursor(view, card, suit_changed=suit_changed, edge=edge,
                                   marked=card in self.marked))

    def _command(self, control: Control) -> None:
        s = self.session
        if control is Control.REPEAT:
            s.output.repeat_last()
        elif control is Control.SILENCE:
            s.output.silence()
        elif control in (Control.FASTER, Control.SLOWER):
            faster = control is Control.FASTER
            if s.output.change_rate(1 if faster else -1):
                self._say(s.line("session.faster" if faster else "session.slower"))
            else:
                self._say(s.line("session.no_speech"))
        elif control is Control.SAVE_AND_QUIT:
            s.quit()
        elif control is Control.NEW_GAME:
            if s.match.is_over:
                s.new_game()
            else:
                text = s.words.say("question.new_game")
                self._question = _Question(text, s.new_game)
                self._say(s.line("question.yes_no", question=text, priority=Priority.HIGH))
        elif control is Control.VERBOSITY:
            s.verbosity = s.verbosity.next()
            self._say(s.line("session.verbosity", level=s.verbosity.value))
        elif control is Control.LISTEN:
            if s.listen is not None:
                s.listen()
            else:
                self._say(s.line("session.listen_unavailable"))
