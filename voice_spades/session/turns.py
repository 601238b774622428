"""What each intent means now: the player's side of the session.

:class:`PlayerTurn` holds the little state that lives between key presses (a bid
being typed, cards marked for the blind nil exchange, a yes/no question waiting for
its answer, the hand cursor) and turns each intent into a
:class:`~voice_spades.session.decisions.Decision`, reading only a
:class:`~voice_spades.session.decisions.TurnTable`; the session carries it out.
"""

from __future__ import annotations

from collections.abc import Callable

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
    answered_decision,
)
from voice_spades.engine import (
    NIL,
    Action,
    Bid,
    Card,
    Exchange,
    Phase,
    PlayerView,
    Suit,
)
from voice_spades.messages import Message
from voice_spades.narration import Answers, Line, Phrasebook, Priority, turn_prompt
from voice_spades.session.advice import hint
from voice_spades.session.cursor import CursorHearing, HandCursor
from voice_spades.session.decisions import (
    NOTHING,
    Decision,
    Question,
    Request,
    TurnTable,
    saying,
)
from voice_spades.session.help_steps import HelpSteps

_GAME_INTENTS = (Act, PlayCurrent, StartBid, TypeDigit, MarkCard)
"""Intents that move the game on; they drop a question left unanswered."""

_CONTROL_REQUESTS = {
    Control.REPEAT: Request.REPEAT,
    Control.SILENCE: Request.SILENCE,
    Control.FASTER: Request.FASTER,
    Control.SLOWER: Request.SLOWER,
    Control.SAVE_AND_QUIT: Request.SAVE_AND_QUIT,
    Control.VERBOSITY: Request.VERBOSITY,
    Control.LISTEN: Request.LISTEN,
    Control.SLEEP: Request.SLEEP,
    Control.GET_VOICE_MODEL: Request.GET_VOICE_MODEL,
}
"""Session commands the turn hands straight to the session (NEW_GAME may ask first)."""

_HISTORY_REQUESTS = {
    Query.PREVIOUS_MESSAGE: Request.PREVIOUS_MESSAGE,
    Query.NEXT_MESSAGE: Request.NEXT_MESSAGE,
    Query.NEWEST_MESSAGE: Request.NEWEST_MESSAGE,
    Query.OLDEST_MESSAGE: Request.OLDEST_MESSAGE,
}
"""Steps through the message history, which the session keeps."""


def make_line(words: Phrasebook, message_id: str, *, priority: Priority = Priority.NORMAL,
              **fields: object) -> Line:
    """A catalog message as a line, at the phrasebook's verbosity."""
    return Line(message_id, words.say(message_id, **fields), priority)


def say_message(words: Phrasebook, message: Message | str) -> str:
    """``message`` in words at the phrasebook's verbosity (text is kept as it is)."""
    return message if isinstance(message, str) else words.message(message)


def not_your_turn(answers: Answers, view: PlayerView) -> Line:
    """"Not your turn. West's turn to play." """
    return make_line(answers.words, "error.not_your_turn", turn=answers.whose_turn(view).text,
                     priority=Priority.HIGH)


def refused(words: Phrasebook, reason: Message) -> Line:
    """An action the rules forbid now, and why."""
    return make_line(words, "error.illegal", reason=say_message(words, reason),
                     priority=Priority.HIGH)


def bid_prompt_refusals(table: TurnTable) -> list[str]:
    """Why some bids are not allowed, said with a bid prompt: only on the player's turn
    to bid."""
    view, words = table.view, table.answers.words
    if not (view.is_my_turn and view.phase == Phase.BID):
        return []
    return [words.message(reason) for reason in table.bid_refusals()]


class PlayerTurn:
    """Interprets the player's intents, one at a time (on the session's thread)."""

    def __init__(self) -> None:
        self.typed = ""
        """Digits of a bid typed but not yet made."""
        self.marked: list[Card] = []
        """Cards marked for the blind nil exchange."""
        self.cursor = HandCursor()
        self.heard = CursorHearing()
        """Whether the card under the cursor was heard named since it last changed."""
        self.help = HelpSteps()
        """The help list open (F1's pages, every key) and the place in it."""
        self.hinted: Bid | None = None
        """The bid the last hint advised, which Enter makes while no digit is typed."""
        self._question: Question | None = None

    def reset(self) -> None:
        """Forget typed digits, marks, questions and the hinted bid (a new hand)."""
        self.typed = ""
        self.marked = []
        self.hinted = None
        self._question = None

    def question_text(self, view: PlayerView, answers: Answers) -> str | None:
        """The yes/no question pending: an explicit one, or the blind nil decision or
        the two-player draw when it is the player's turn for them."""
        if self._question is not None:
            return self._question.text
        if view.is_my_turn and answered_decision(view.phase, True) is not None:
            prompt = turn_prompt(view, answers.words, answers.hints)
            return prompt.text if prompt is not None else None
        return None

    # ----- dispatch ---------------------------------------------------------------
    def decide(self, intent: AnyIntent, table: TurnTable) -> Decision:
        """What ``intent`` means now; every outcome says something or asks the session."""
        words = table.answers.words
        if isinstance(intent, _GAME_INTENTS):
            self._question = None
        listed = self.help.step(intent)
        if listed is not None:
            return Decision(request=listed)
        if isinstance(intent, Cancel) and self.help.open is not None:
            self.help.close()
            return Decision(say=(make_line(words, "help.closed"),), request=Request.SILENCE)
        if isinstance(intent, MoveCursor | JumpToSuit) and self._question is not None \
                and self._question.on_yes == PlayCurrent():
            self._question = None  # "Play the 9 of spades?" is about the card just left
        match intent:
            case Act(action):
                return self._act(action, table)
            case PlayCurrent():
                return self._play_current(table)
            case Ask(query, suit):
                return self._ask(query, suit, table)
            case MoveCursor(move):
                return self._move(move, table)
            case JumpToSuit(suit):
                card = self.cursor.jump(suit, table.view.hand)
                return Decision(say=(table.answers.suit(table.view, suit),), names=card)
            case StartBid():
                return self._start_bid(table)
            case TypeDigit(digit):
                return self._type_digit(digit, table)
            case MarkCard(card):
                return self._mark(card, table)
            case Confirm(yes, reflex):
                return self._confirm(yes, table, reflex=reflex)
            case Cancel():
                return self._cancel(words)
            case Command(control):
                return self._command(control, table)
            case Propose(proposed, question):
                return self._propose(proposed, question, table)
            case NotUnderstood(heard, hint):
                sorry = make_line(words, "sorry", heard=heard or words.say("word.that"))
                if hint is None:
                    return saying(sorry)
                return saying(sorry, make_line(words, hint.id, **hint.fields))
        return NOTHING

    @staticmethod
    def _my_turn(table: TurnTable, phase: Phase) -> bool:
        return table.view.is_my_turn and table.view.phase == phase

    # ----- playing and bidding --------------------------------------------------
    def _act(self, action: Action, table: TurnTable) -> Decision:
        """The player's action, if the rules allow it now; else why not."""
        words = table.answers.words
        if table.over:
            return saying(make_line(words, "turn.over"))
        if not table.view.is_my_turn:
            return saying(not_your_turn(table.answers, table.view))
        reason = table.refusal(action)
        if reason is not None:
            return saying(refused(words, reason))
        self.typed = ""
        self.marked = []
        self.hinted = None
        return Decision(action=action)

    def _play_current(self, table: TurnTable) -> Decision:
        view, words, hints = table.view, table.answers.words, table.answers.hints
        if table.over:
            return saying(make_line(words, "turn.over"))
        if not view.is_my_turn:
            return saying(not_your_turn(table.answers, view))
        if view.phase == Phase.BID:
            if not self.typed and self.hinted is not None:
                self.typed = str(self.hinted.tricks)  # the bid the hint named: Enter makes it
            if not self.typed:
                return saying(make_line(words, "bid.nothing_typed", nil=hints.nil,
                                        confirm=hints.confirm))
            bid, self.typed = Bid(int(self.typed)), ""
            if bid == NIL:  # asked about as the nil key asks
                return self._propose(Act(NIL), Message("question.nil"), table)
            return self._act(bid, table)
        if view.phase == Phase.PLAY:
            card = self.cursor.card
            if card is None:
                return saying(make_line(words, "error.no_card"))
            if not self.heard.heard(card):
                return self._ask_to_play(card, table)
            return self._act(card, table)
        if view.phase == Phase.EXCHANGE:
            return self._act(Exchange(tuple(self.marked)), table)
        return saying(table.answers.legal(view))

    def _ask_to_play(self, card: Card, table: TurnTable) -> Decision:
        """Enter on a card the player has not heard named since the cursor last changed
        (the prompt naming it was cut off, say): name it and ask; Enter again plays it."""
        words = table.answers.words
        reason = table.refusal(card)
        if reason is not None:
            return saying(refused(words, reason))
        self._question = Question(words.say("turn.play_question", card=card), PlayCurrent())
        line = make_line(words, "turn.play_question_long", card=card,
                         confirm=table.answers.hints.confirm, priority=Priority.HIGH)
        return Decision(say=(line,), names=card)

    def _start_bid(self, table: TurnTable) -> Decision:
        answers = table.answers
        self.typed = ""
        if table.view.phase is Phase.PLAY and not table.over:
            return saying(answers.bids(table.view))  # the bids are what B holds in play
        if not self._my_turn(table, Phase.BID):
            return saying(make_line(answers.words, "bid.not_now",
                                    turn=answers.whose_turn(table.view).text))
        prompt = turn_prompt(table.view, answers.words, answers.hints,
                             bid_prompt_refusals(table))
        return saying(prompt) if prompt is not None else NOTHING

    def _type_digit(self, digit: int, table: TurnTable) -> Decision:
        answers = table.answers
        if not self._my_turn(table, Phase.BID):
            return saying(make_line(answers.words, "bid.not_now",
                                    turn=answers.whose_turn(table.view).text))
        typed = self.typed + str(digit)
        if int(typed) > table.view.rules.hand_size:
            typed = str(digit)
        self.typed = str(int(typed))
        return saying(answers.bid_typed(Bid(int(self.typed))))

    def _mark(self, card: Card | None, table: TurnTable) -> Decision:
        words = table.answers.words
        if not self._my_turn(table, Phase.EXCHANGE):
            return saying(make_line(words, "mark.not_now"))
        card = card or self.cursor.card
        limit = table.view.rules.blind_nil_exchange
        if card is None or card not in table.view.hand_cards:
            return saying(make_line(words, "error.no_card"))
        if card in self.marked:
            self.marked.remove(card)
            return saying(make_line(words, "mark.off", card=words.card(card),
                                    count=len(self.marked)))
        if len(self.marked) >= limit:
            return saying(make_line(words, "mark.full", limit=limit))
        self.marked.append(card)
        return saying(make_line(words, "mark.on", card=words.card(card), count=len(self.marked)))

    # ----- questions ------------------------------------------------------------
    def _propose(self, proposed: Act | PlayCurrent | Command, question: Message | str,
                 table: TurnTable) -> Decision:
        words = table.answers.words
        if isinstance(proposed, Act):
            # Ask only about what would be allowed: otherwise say why not at once.
            if not table.view.is_my_turn or table.over:
                return saying(not_your_turn(table.answers, table.view))
            reason = table.refusal(proposed.action)
            if reason is not None:
                return saying(refused(words, reason))
        return self._ask_yes_no(say_message(words, question), proposed, words)

    def _ask_yes_no(self, text: str, on_yes: Act | PlayCurrent | Command | Request,
                    words: Phrasebook) -> Decision:
        self._question = Question(text, on_yes)
        return saying(make_line(words, "question.yes_no", question=text, priority=Priority.HIGH))

    def _confirm(self, yes: bool, table: TurnTable, *, reflex: bool = False) -> Decision:
        words = table.answers.words
        question = self._question
        if question is not None:
            self._question = None
            if not yes:
                return saying(make_line(words, "question.cancelled"))
            if isinstance(question.on_yes, Request):
                return Decision(request=question.on_yes)
            return self.decide(question.on_yes, table)
        decision = answered_decision(table.view.phase, yes)
        if decision is not None and table.view.is_my_turn:
            if reflex:  # a reflex Enter never chooses: the question again, with its keys
                return saying(self._choice_again(table))
            return self._act(decision, table)
        return saying(make_line(words, "question.none"))

    @staticmethod
    def _choice_again(table: TurnTable) -> Line:
        """The two-way decision's prompt again, naming the keys that choose."""
        view, answers = table.view, table.answers
        prompt = turn_prompt(view, answers.words, answers.hints)
        question = prompt.text if prompt is not None else ""
        hints = answers.hints
        if view.phase is Phase.DRAW:
            return make_line(answers.words, "question.choose_draw", question=question,
                             keep=hints.keep, discard=hints.discard, priority=Priority.HIGH)
        return make_line(answers.words, "question.choose_blind_nil", question=question,
                         yes=hints.yes, no=hints.no, priority=Priority.HIGH)

    def _cancel(self, words: Phrasebook) -> Decision:
        if self._question is None and not self.typed:
            self.hinted = None
            return Decision(request=Request.SILENCE)
        self._question = None
        self.typed = ""
        self.hinted = None
        return Decision(say=(make_line(words, "question.cancelled"),), request=Request.SILENCE)

    # ----- looking around -------------------------------------------------------
    def _ask(self, query: Query, suit: Suit | None, table: TurnTable) -> Decision:
        a, view = table.answers, table.view
        simple: dict[Query, Callable[[], Line]] = {
            Query.TABLE: lambda: a.table(view),
            Query.SUIT_LED: lambda: a.suit_led(view),
            Query.SCORES: lambda: a.scores(view),
            Query.WHOSE_TURN: lambda: a.whose_turn(view),
            Query.HAND: lambda: a.hand(view),
            Query.LEGAL: lambda: a.legal(view, bid_prompt_refusals(table)),
            Query.GAME_INFO: lambda: a.game_info(view, over=table.over),
            Query.BIDS: lambda: a.bids(view),
            Query.LAST_TRICK: lambda: a.last_trick(view, table.previous),
            Query.PREVIOUS_HAND: lambda: a.review.previous_hand(table.previous),
            Query.TRICKS_NEEDED: lambda: a.standing.needed(view),
            Query.TARGET: lambda: a.standing.target(view),
            Query.NEXT_PLAYER: lambda: a.standing.next_player(view),
        }
        if query in simple:
            return saying(simple[query]())
        if query is Query.SUIT:
            return saying(a.suit(view, suit) if suit is not None else a.hand(view))
        if query is Query.HISTORY:
            return Decision(request=Request.HISTORY)
        if query in _HISTORY_REQUESTS:
            return Decision(request=_HISTORY_REQUESTS[query])
        if query is Query.CURRENT_CARD:
            return self._current_card(table)
        if query is Query.HINT:
            return self._hint(table)
        return Decision(request=Request.VOICE_HELP)

    def _hint(self, table: TurnTable) -> Decision:
        """The hint, with what it advises put under Enter: the cursor on the card to play
        (named by the hint, so heard), the bid to make while no digit is typed, or the
        cards to give back marked."""
        line, action = hint(table.view, table.answers, table.seed, over=table.over)
        if isinstance(action, Card) and action in table.view.hand_cards:
            if self._question is not None and self._question.on_yes == PlayCurrent():
                self._question = None  # "Play the 9 of spades?" was about the card left
            self.cursor.card = action
            return Decision(say=(line,), names=action)
        if isinstance(action, Bid):
            self.hinted = action
        elif isinstance(action, Exchange):
            self.marked = list(action.cards)  # marked as advised: Enter gives them back
        return saying(line)

    def _current_card(self, table: TurnTable) -> Decision:
        """The card under the cursor, and whether it can be played or is marked."""
        view, words = table.view, table.answers.words
        self.cursor.sync(view.hand)
        card = self.cursor.card
        if card is None:
            return saying(make_line(words, "cursor.empty"))
        notes = words.say("word.marked") if card in self.marked else ""
        if view.is_my_turn and view.phase is Phase.PLAY and card not in view.legal:
            notes += words.say("word.not_playable")
        return Decision(say=(make_line(words, "turn.current", card=card, notes=notes),),
                        names=card)

    def _move(self, move: Move, table: TurnTable) -> Decision:
        view = table.view
        card, suit_changed = self.cursor.move(move, view.hand)
        edge = {Move.HIGHEST: "high", Move.LOWEST: "low"}.get(move)
        return Decision(say=(table.answers.cursor(view, card, suit_changed=suit_changed,
                                                  edge=edge, marked=card in self.marked),),
                        names=card)

    def _command(self, control: Control, table: TurnTable) -> Decision:
        if control is not Control.NEW_GAME:
            return Decision(request=_CONTROL_REQUESTS[control])
        if table.over:
            return Decision(request=Request.NEW_GAME)
        words = table.answers.words
        return self._ask_yes_no(words.say("question.new_game"), Request.NEW_GAME, words)
