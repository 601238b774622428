"""The session: the one controller between the player's intents and the match.

Input layers (keys now, voice later) only :meth:`Session.submit` intents; the
session thread takes them from one queue, in order, answers at once, plays the
bots' turns between them (paced by the narrator), autosaves after every action,
and sends every message to the :class:`~voice_spades.session.output.Output`.
"""

from __future__ import annotations

import logging
import queue
import random
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from voice_spades.bots import Bot, decide
from voice_spades.commands import AnyIntent
from voice_spades.engine.actions import Action, Bid
from voice_spades.engine.cards import Card, mask_of
from voice_spades.engine.events import Event, HandStarted, MatchOver, TrickWon
from voice_spades.engine.match import Match
from voice_spades.engine.profiles import RuleOptions
from voice_spades.engine.view import PlayerView
from voice_spades.errors import IllegalActionError
from voice_spades.narration import (
    Answers,
    Hints,
    Line,
    Narrator,
    Phrasebook,
    Verbosity,
    trick_tag,
    turn_prompt,
)
from voice_spades.session.bots import make_bots
from voice_spades.session.cursor import HandCursor
from voice_spades.session.inputs import GrammarContext, InputEnded, KeyPress, QueueItem
from voice_spades.session.output import Output
from voice_spades.session.pacing import Pacer
from voice_spades.session.settings import GameSettings
from voice_spades.session.turns import PlayerTurn
from voice_spades.speech.message import Priority
from voice_spades.storage import SaveStore, Stats

BotFactory = Callable[[RuleOptions, GameSettings], Mapping[int, Bot]]
"""Makes the computer players for a match."""

_log = logging.getLogger(__name__)

HUMAN = 0
"""The human's seat: South."""

_POLL = 0.25
"""Seconds between checks that the session is still running, while nothing happens."""


def default_bots(rules: RuleOptions, settings: GameSettings) -> Mapping[int, Bot]:
    """Partner at Hard, opponents at the settings' level."""
    return make_bots(rules, settings.level, settings.seed)


class Session:
    """Runs one match (and the ones after it) for the human, who sits South.

    Thread use: input threads call :meth:`submit`, :meth:`interrupt_speech` and
    :meth:`context`; everything else runs on the session's thread (:meth:`run`),
    or directly from tests through :meth:`handle` and :meth:`play_bots`.
    """

    def __init__(self, match: Match, output: Output, *, settings: GameSettings | None = None,
                 verbosity: Verbosity = Verbosity.NORMAL,
                 hints: Hints | None = None, store: SaveStore | None = None,
                 stats: Stats | None = None, pacer: Pacer | None = None,
                 bot_factory: BotFactory = default_bots,
                 help_text: Callable[[], str] | None = None,
                 voice_help: Callable[[GrammarContext], str] | None = None,
                 listen: Callable[[], None] | None = None) -> None:
        self.output = output
        self.settings = settings or GameSettings(rules=match.rules.name, seed=match.seed)
        self.human = HUMAN
        self.hints = hints or Hints()
        self.store = store
        self.stats = stats
        self.pacer = pacer or Pacer(output.is_busy)
        self.bot_factory = bot_factory
        self.help_text = help_text
        self.voice_help = voice_help
        self.listen = listen
        self.listeners: list[Callable[[GrammarContext], None]] = []
        """Called on the session thread with the new context after every change (a voice
        layer rebuilds its grammar there)."""
        self.running = True
        self.stop_requested = False
        """Set (it is safe from a signal handler) to save and quit at the next step."""
        self.waiting = threading.Event()
        """Set while the session waits for the player with nothing queued."""
        self.stopped = threading.Event()
        """Set once the session has stopped (quit, input ended)."""
        self._queue: queue.Queue[QueueItem] = queue.Queue()
        self._lock = threading.RLock()
        self._submit_lock = threading.Lock()
        self._save_failed = False
        self._verbosity = verbosity
        self._install(match)

    def _install(self, match: Match) -> None:
        self.match = match
        self.bots = dict(self.bot_factory(match.rules, self.settings))
        self.words = Phrasebook(match.rules, self.human, self._verbosity)
        self.narrator = Narrator(self.words)
        self.narrator.sync(self.view)
        self.answers = Answers(self.words, self.hints)
        self.cursor = HandCursor()
        self.cursor.sync(self.view.hand)
        self.turn = PlayerTurn(self)

    # ----- what input layers may call from any thread --------------------------
    def submit(self, item: QueueItem) -> None:
        """Queue an intent (or key press) for the session thread. Thread-safe."""
        with self._submit_lock:
            self.waiting.clear()
            self._queue.put(item)

    def interrupt_speech(self) -> None:
        """Cut the sentence being spoken at once (a key was pressed). Thread-safe."""
        self.output.silence()

    def context(self) -> GrammarContext:
        """A consistent snapshot of what the player can do now. Thread-safe."""
        with self._lock:
            return GrammarContext(self.view, self.question_text, self.cursor.card,
                                  self.turn.typed, tuple(self.turn.marked), self.match.is_over)

    @property
    def view(self) -> PlayerView:
        """The human's view of the match now."""
        return self.match.view(self.human)

    @property
    def question_pending(self) -> bool:
        """True while a yes/no question waits for an answer."""
        return self.question_text is not None

    @property
    def question_text(self) -> str | None:
        """The pending yes/no question, if any."""
        return self.turn.question_text()

    @property
    def cursor_card(self) -> Card | None:
        """The card under the hand cursor."""
        return self.cursor.card

    # ----- start, run, stop --------------------------------------------------
    def start(self, *, resumed: bool = False) -> None:
        """Greet the player (or say where the resumed game stands) and prompt."""
        with self._lock:
            view = self.view
            if resumed:
                where = self.words.say(f"word.where.{view.phase}", trick=view.trick_number)
                lines = [self.line("session.resumed", hand=view.hand_number, where=where,
                                   scores=self.words.scores(view.scores, view.bags))]
                if view.hand:
                    lines.append(self.answers.hand(view))
                if self.match.is_over:
                    lines.append(self._over_prompt())
            else:
                lines = [self._welcome()]
                for event in self.match.opening_events():
                    lines += self.narrator.narrate(event)
            self.emit([*lines, *self._prompt()])

    def run(self) -> None:
        """Serve the queue and the bots until the player quits or input ends."""
        try:
            while self.running:
                if self.stop_requested:
                    with self._lock:
                        self.quit()
                    break
                try:
                    self.step(_POLL)
                except Exception as exc:  # a bug must not end the player's game
                    _log.exception("the session failed to handle a step")
                    self.emit([self.line("error.internal", error=exc.__class__.__name__,
                                         quit=self.hints.quit, priority=Priority.HIGH)])
        finally:
            self.stopped.set()

    def step(self, timeout: float = 0.0) -> bool:
        """Handle one queued item, or play one bot move once it is due; wait at most
        ``timeout`` seconds for either. Returns True if something was done."""
        bot_wait = self._bot_wait()
        if bot_wait is None:
            with self._submit_lock:
                if self._queue.empty():
                    self.waiting.set()
            wait = timeout
        else:
            wait = min(timeout, bot_wait)
        try:
            item = self._queue.get(timeout=wait) if wait > 0 else self._queue.get_nowait()
        except queue.Empty:
            if bot_wait is not None and self.pacer.wait_time() <= 0:
                self.waiting.clear()
                with self._lock:
                    self.bot_move()
                return True
            return False
        self.waiting.clear()
        self.process(item)
        return True

    def process(self, item: QueueItem) -> None:
        """Handle one queue item on the session thread."""
        with self._lock:
            if isinstance(item, KeyPress):
                intent = item.resolve(self.question_pending)
                if intent is None:
                    self.emit([self.line("error.unknown_key", key=item.label,
                                         help=self.hints.help)])
                else:
                    self.turn.handle(intent)
            elif isinstance(item, InputEnded):
                self.quit("session.input_ended")
            else:
                self.turn.handle(item)
            self._changed()

    def handle(self, intent: AnyIntent) -> None:
        """Handle one intent now (tests, and the session thread)."""
        self.process(intent)

    def quit(self, message: str = "session.saved_quit") -> None:
        """Save, say goodbye, and stop :meth:`run`."""
        self.save()
        self.emit([self.line(message, priority=Priority.HIGH)])
        self.running = False

    # ----- bots -----------------------------------------------------------------
    def _bot_wait(self) -> float | None:
        """Seconds until the bot to act may move, or None when no bot is to act."""
        seat = self.match.to_act
        if seat is None or seat == self.human or not self.running:
            return None
        return self.pacer.wait_time()

    def bot_move(self) -> None:
        """Let the bot whose turn it is act (no pacing: callers pace)."""
        seat = self.match.to_act
        assert seat is not None and seat != self.human
        try:
            events = self.match.apply(decide(self.bots[seat], self.match.view(seat)))
        except Exception:
            # A bot bug must not stop the player's game: take the first legal action.
            _log.exception("the %s bot failed; it takes the first legal action", seat)
            events = self.match.apply(self.match.legal_actions()[0])
        self.after_action(events)
        self._changed()

    def _changed(self) -> None:
        if self.listeners:
            context = self.context()
            for listener in self.listeners:
                listener(context)

    def play_bots(self) -> None:
        """Play every bot turn until the human is to act or the match is over."""
        with self._lock:
            while self.match.to_act is not None and self.match.to_act != self.human:
                self.bot_move()

    # ----- acting and narrating -----------------------------------------------
    def act(self, action: Action) -> None:
        """The human's action: applied, or refused with the engine's reason."""
        if self.match.is_over:
            self.emit([self.line("turn.over")])
            return
        if self.match.to_act != self.human:
            self.emit([self.not_your_turn()])
            return
        try:
            events = self.match.apply(action)
        except IllegalActionError as exc:
            self.emit([self.line("error.illegal", reason=str(exc), priority=Priority.HIGH)])
            return
        self.turn.action_taken()
        self.after_action(events)

    def after_action(self, events: Sequence[Event]) -> None:
        """Save, narrate the events, and prompt the player if it is their turn."""
        self.save()
        behind = self.output.is_busy()
        lines: list[Line] = []
        for event in events:
            if isinstance(event, TrickWon) and behind:
                # The plays of this trick are not all spoken yet: drop them, and let the
                # trick's result say who played what.
                self.emit(lines)
                lines = []
                self.output.cancel(trick_tag(self.narrator.hand_number, event.trick.number))
            if isinstance(event, HandStarted):
                self.turn.reset()
            lines += self.narrator.narrate(event, behind=behind)
            if isinstance(event, MatchOver):
                lines += self._match_over(event)
        view = self.view
        self.cursor.sync(view.hand)
        if view.is_my_turn and view.phase == "play":
            self.cursor.focus(mask_of(a for a in view.legal if isinstance(a, Card)), view.hand)
        self.emit([*lines, *self._prompt()])

    def _prompt(self) -> list[Line]:
        view = self.view
        refusals = self.bid_refusals() if view.phase == "bid" and view.is_my_turn else []
        line = turn_prompt(view, self.words, self.hints, refusals)
        return [line] if line is not None else []

    def bid_refusals(self) -> list[str]:
        """Why some bids in range are not allowed to the human now (no hell, suicide)."""
        return [r for t in range(self.match.rules.hand_size + 1)
                if (r := self.match.hand.bid_refusal(self.human, Bid(t))) is not None]

    def _match_over(self, event: MatchOver) -> list[Line]:
        rules = self.match.rules
        won = rules.side_of(self.human) == event.winner
        lines: list[Line] = []
        if self.stats is not None:
            try:
                self.stats.record(rules.name, won)
                wins, losses = self.stats.of(rules.name)
                lines.append(self.line("session.stats", rules=rules.name, wins=wins,
                                       losses=losses))
            except OSError as exc:
                lines.append(self.line("session.save_failed", reason=exc.strerror or exc))
        if self.store is not None:
            self.store.delete()
        return [*lines, self._over_prompt()]

    def _over_prompt(self) -> Line:
        return self.line("prompt.match_over", new=self.hints.new, quit=self.hints.quit,
                         priority=Priority.HIGH)

    def new_game(self) -> None:
        """Abandon this match (if it is not over) and deal a new one, same settings."""
        self.settings = replace(self.settings, seed=random.randrange(2**31))
        self._install(Match(self.match.rules, self.settings.seed))
        self.save()
        lines = [self.line("session.new_game")]
        for event in self.match.opening_events():
            lines += self.narrator.narrate(event)
        self.emit([*lines, *self._prompt()])

    def save(self) -> None:
        """Autosave (atomic); a failure is reported once and play goes on."""
        if self.store is None or self.match.is_over:
            return
        try:
            self.store.save(self.match, self.settings.to_dict())
        except OSError as exc:
            if not self._save_failed:
                self._save_failed = True
                self.emit([self.line("session.save_failed", reason=exc.strerror or exc)])

    # ----- lines ----------------------------------------------------------------
    def line(self, message_id: str, *, priority: Priority = Priority.NORMAL,
             **params: object) -> Line:
        """A catalog message as a line, at the session's verbosity."""
        return Line(message_id, self.words.say(message_id, **params), priority)

    def notify(self, notices: Sequence[tuple[str, Mapping[str, object]] | Line]) -> None:
        """Say start-up notices: (catalog message id, its fields) pairs, or lines made
        elsewhere (a component's own sentence, such as why voice is off)."""
        self.emit([notice if isinstance(notice, Line)
                   else Line(notice[0], self.words.say(notice[0], **notice[1]), Priority.HIGH)
                   for notice in notices])

    def emit(self, lines: Sequence[Line]) -> None:
        """Send lines to the output (empty ones are left out)."""
        lines = [line for line in lines if line.text]
        if lines:
            self.output.emit(lines)
            self.pacer.said_something()

    def not_your_turn(self) -> Line:
        """"Not your turn. West's turn to play." """
        return self.line("error.not_your_turn", turn=self.answers.whose_turn(self.view).text,
                         priority=Priority.HIGH)

    @property
    def verbosity(self) -> Verbosity:
        """How much the narrator says."""
        return self.words.verbosity

    @verbosity.setter
    def verbosity(self, value: Verbosity) -> None:
        self._verbosity = value
        self.words.verbosity = value

    def _welcome(self) -> Line:
        rules = self.match.rules
        seating = "session.seating_partner" if rules.is_partnership else "session.seating"
        return self.line("session.welcome", rules=rules.name, players=rules.players,
                         level=self.words.say("session.level", level=self.settings.level),
                         seating=self.words.say(seating), help=self.hints.help)

