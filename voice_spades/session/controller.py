"""The session: the one controller between the player's intents and the match.

Input layers (keys, voice) only :meth:`Session.submit` intents; the session thread
takes them from one queue, in order. The player's turn
(:class:`~voice_spades.session.turns.PlayerTurn`) decides what each intent means and
returns a :class:`~voice_spades.session.decisions.Decision`, which the session
carries out: it applies the action, plays the bots' turns between intents (paced by
the narrator), autosaves after every action, and sends every line to the
:class:`~voice_spades.session.output.Output` of its :class:`~voice_spades.session.ports.Ports`.
It plays a :class:`~voice_spades.table.Table` from the table's seat (a local match, or
a remote table), and tells its watchers (:meth:`Session.watch`) the typed state after
every change.
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable, Sequence
from dataclasses import replace

from voice_spades.commands import AnyIntent, Chat
from voice_spades.engine import Card, Event, Match, MatchOver, PlayerView
from voice_spades.errors import IllegalActionError, SpadesError
from voice_spades.messages import Message
from voice_spades.narration import Hints, History, Line, LineKind, Priority, Verbosity
from voice_spades.session.autosave import Autosave
from voice_spades.session.bookends import UNSAVED, match_over, welcome
from voice_spades.session.bots import BotFactory, default_bots
from voice_spades.session.cursor import watch_naming
from voice_spades.session.decisions import Decision, Request
from voice_spades.session.early_keys import PromptClock
from voice_spades.session.game import Game
from voice_spades.session.help_steps import help_lines
from voice_spades.session.inputs import GrammarContext, Inbox, InputEnded, KeyPress, QueueItem
from voice_spades.session.output import Output
from voice_spades.session.pacing import Pacer
from voice_spades.session.ports import VOICE_REQUESTS, InputHooks, Ports
from voice_spades.session.settings import GameSettings
from voice_spades.session.turns import refused
from voice_spades.session.watchers import Watcher, Watchers, note_batches
from voice_spades.table import LocalTable, Table

_log = logging.getLogger(__name__)

_HISTORY_STEPS = {Request.PREVIOUS_MESSAGE: History.previous, Request.NEXT_MESSAGE: History.next,
                  Request.NEWEST_MESSAGE: History.newest, Request.OLDEST_MESSAGE: History.oldest}
"""The message history's moves, by request."""

_POLL = 0.25
"""Seconds between checks that the session is still running, while nothing happens."""


class Session:
    """Runs one match (and the ones after it) for the player at one seat of a table.

    ``table`` is a :class:`~voice_spades.table.Table`, or a :class:`Match` played here
    from the settings' seat (South unless they say otherwise) with ``bot_factory``'s
    bots in the other seats.

    Thread use: input threads call :meth:`submit`, :meth:`interrupt_speech` and
    :meth:`context`; everything else runs on the session's thread (:meth:`run`),
    or directly from tests through :meth:`handle` and :meth:`play_bots`.
    """

    def __init__(self, table: Match | Table, ports: Ports, *,
                 settings: GameSettings | None = None,
                 verbosity: Verbosity = Verbosity.NORMAL, hints: Hints | None = None,
                 hooks: InputHooks | None = None,
                 bot_factory: BotFactory = default_bots) -> None:
        self.ports = ports
        self.settings = settings or GameSettings(
            rules=table.rules.name, seed=table.seed,
            seat=0 if isinstance(table, Match) else table.seat)
        self.hints = hints or Hints()
        self.hooks = hooks or InputHooks()
        self.bot_factory = bot_factory
        self.listeners: list[Callable[[GrammarContext], None]] = []
        """Called on the session thread with the new context after every change (a voice
        layer rebuilds its grammar there)."""
        self.watchers = Watchers()
        """Told the table's typed state after every change of the table (:meth:`watch`)."""
        self.running = True
        self.stop_requested = False
        """Set (it is safe from a signal handler) to save and quit at the next step."""
        self.stopped = threading.Event()
        """Set once the session has stopped (quit, input ended)."""
        self.inbox = Inbox()
        self._lock = threading.RLock()
        self.autosave = Autosave()
        self.history = History()
        """Every line said, to be stepped through (and repeated) a message at a time."""
        self.asked = PromptClock()
        """When the latest prompt or question was said: a key read before cannot answer it."""
        self.game = Game(self._local(table), verbosity, self.hints)

    def _local(self, table: Match | Table) -> Table:
        if not isinstance(table, Match):
            return table
        return LocalTable(table, self.bot_factory(table.rules, self.settings), self.settings.seat)

    @property
    def table(self) -> Table:
        """The table being played."""
        return self.game.table

    @property
    def human(self) -> int:
        """The player's seat."""
        return self.game.table.seat

    def watch(self, watcher: Watcher) -> None:
        """Tell ``watcher`` (on the session thread) the table's state now, then after
        every change: the view, the events just applied, whose turn it is."""
        self.watchers.add(watcher, self.table)

    # ----- the ports and hooks, by name ----------------------------------------------
    @property
    def output(self) -> Output:
        """Where the lines go."""
        return self.ports.output

    @property
    def pacer(self) -> Pacer:
        """When the bots may act."""
        return self.ports.pacer

    @property
    def waiting(self) -> threading.Event:
        """Set while the session waits for the player with nothing queued."""
        return self.inbox.waiting

    @property
    def listen(self) -> Callable[[], None] | None:
        """Push to talk, once a voice layer gives it."""
        return self.hooks.listen

    @listen.setter
    def listen(self, value: Callable[[], None] | None) -> None:
        self.hooks.listen = value

    @property
    def voice_help(self) -> Callable[[GrammarContext], Message] | None:
        """What can be said now, once a voice layer gives it."""
        return self.hooks.voice_help

    @voice_help.setter
    def voice_help(self, value: Callable[[GrammarContext], Message] | None) -> None:
        self.hooks.voice_help = value

    # ----- what input layers may call from any thread --------------------------
    def submit(self, item: QueueItem) -> None:
        """Queue an intent (or key press) for the session thread. Thread-safe."""
        self.inbox.put(item)

    def interrupt_speech(self) -> None:
        """Cut the sentence being spoken at once (a key was pressed); the game events still
        waiting are said after the key's answer. Thread-safe."""
        self.game.turn.heard.cut(self.output.is_busy())
        self.output.interrupt()

    def context(self) -> GrammarContext:
        """A consistent snapshot of what the player can do now. Thread-safe."""
        with self._lock:
            turn = self.game.turn
            return GrammarContext(self.view, self.question_text, turn.cursor.card, turn.typed,
                                  tuple(turn.marked), self.table.is_over,
                                  not isinstance(self.table, LocalTable))

    @property
    def match(self) -> Match:
        """The match being played here (a local table only)."""
        table = self.table
        if not isinstance(table, LocalTable):
            raise AttributeError("a remote table keeps its match on the server")
        return table.match

    @property
    def view(self) -> PlayerView:
        """The human's view of the match now."""
        return self.game.view

    @property
    def question_pending(self) -> bool:
        """True while a yes/no question waits for an answer."""
        return self.question_text is not None

    @property
    def question_text(self) -> str | None:
        """The pending yes/no question, if any."""
        return self.game.turn.question_text(self.view, self.game.answers)

    @property
    def cursor_card(self) -> Card | None:
        """The card under the hand cursor."""
        return self.game.turn.cursor.card

    # ----- start, run, stop --------------------------------------------------
    def start(self, *, resumed: bool = False, greeting: Line | None = None) -> None:
        """Greet the player (``greeting``, else the local game's welcome), or say where
        the resumed game stands, and prompt."""
        with self._lock:
            game = self.game
            if not resumed:
                lines = [greeting or welcome(game, self.settings, self.hints), *game.opening()]
            elif self.table.is_over:
                lines = [*game.resumed(), game.over_prompt()]
            else:
                lines = game.resumed()
            self.emit([*lines, *game.prompt()])
            self.watchers.publish(self.table)

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
        self.game.turn.heard.settle(self.output.is_busy())
        bot_wait = self._bot_wait()
        if bot_wait is None:
            self.inbox.wait_for_player()
        item = self.inbox.take(timeout if bot_wait is None else min(timeout, bot_wait))
        if item is not None:
            self.process(item)
            return True
        if bot_wait is not None and self.pacer.wait_time() <= 0:
            self.waiting.clear()
            with self._lock:
                self.bot_move()
            return True
        return False

    def process(self, item: QueueItem) -> None:
        """Handle one queue item on the session thread."""
        with self._lock:
            self.game.turn.heard.settle(self.output.is_busy())
            asked = self.question_text
            if isinstance(item, KeyPress):
                intent = item.resolve(self.question_pending)
                if intent is None:
                    self.emit([self.line("error.unknown_key", key=item.label,
                                         help=self.hints.help)])
                elif self.asked.too_early(item, intent):
                    if self.asked.first_told():  # in turn, after the prompt, which stands
                        self.emit([self.line("error.key_too_early", key=item.label)])
                else:
                    self._intent(intent, keyed=True)
            elif isinstance(item, InputEnded):
                self.quit("session.input_ended")
            else:
                self._intent(item)
            if self.question_text not in (None, asked):
                self.asked.asked()  # a new question: keys read before it wait
            self._changed()

    def _intent(self, intent: AnyIntent, keyed: bool = False) -> None:
        if isinstance(intent, Chat):  # table talk: not about the cards
            self.emit(self.watchers.chat(self.table, self.game, intent, keyed=keyed))
        else:
            self.carry_out(self.game.turn.decide(intent, self.game.turn_table()))

    def handle(self, intent: AnyIntent) -> None:
        """Handle one intent now (tests, and the session thread)."""
        self.process(intent)

    def quit(self, message: str = "session.saved_quit") -> None:
        """Save, say goodbye (or that the game could not be saved), and stop :meth:`run`."""
        self.save()
        unsaved = {} if self.table.is_over or self.autosave.problem is None else {
            "reason": self.autosave.problem}
        if unsaved:
            message = UNSAVED.get(message, message)
        self.emit([self.line(message, priority=Priority.HIGH, **unsaved)])
        self.running = False

    # ----- carrying out the turn's decisions -----------------------------------------
    def carry_out(self, decision: Decision) -> None:
        """Do what the player's turn decided: the request, the lines, then the action."""
        if decision.request is not None:
            self._do(decision.request)
        # What the turn says answers the player's intent, even a prompt (B says the bid
        # prompt): said at once, before the game events still waiting.
        self.emit([replace(line, kind=LineKind.ANSWER) for line in decision.say],
                  names=decision.names)
        if decision.action is not None:
            try:
                events = self.table.act(decision.action)
            except IllegalActionError as exc:  # the turn checked; the engine has the last word
                self.emit([refused(self.game.words, exc.message)])
                return
            if events:  # a remote table's events come back from its server
                self.after_action(events)

    def _do(self, request: Request) -> None:
        out = self.output
        if request is Request.REPEAT:
            self.emit([self.history.last_event(self.game.words)])
        elif request in _HISTORY_STEPS:
            self.emit([_HISTORY_STEPS[request](self.history, self.game.words)])
        elif request is Request.SILENCE:
            out.silence()
        elif request in (Request.FASTER, Request.SLOWER):
            faster = request is Request.FASTER
            if out.change_rate(1 if faster else -1):
                self.emit([self.line("session.faster" if faster else "session.slower")])
            else:
                self.emit([self.line("session.no_speech")])
        elif request is Request.VERBOSITY:
            self.verbosity = self.verbosity.next()
            name = self.game.words.say(f"session.verbosity_name.{self.verbosity.value}")
            self.emit([self.line("session.verbosity", level=name)])
        elif request in VOICE_REQUESTS:
            if not self.hooks.run(request):
                self.emit([self.line("session.listen_unavailable")])
        elif request is Request.SAVE_AND_QUIT:
            self.quit()
        elif request is Request.NEW_GAME:
            self.new_game()
        elif request is Request.HISTORY:
            self.emit([self.game.answers.history(out.recent(5))])
        else:
            self.emit(help_lines(request, self.hooks, self.game.turn.help, self.context(),
                                 self.line, self.hints))

    # ----- bots -----------------------------------------------------------------
    def _bot_wait(self) -> float | None:
        """Seconds until the bot to act (or the table's news) may be played, or None
        when nothing is to happen without the player."""
        notes = self.watchers.hear(self.table, self.game)  # presence, chat: said in turn
        if notes:
            with self._lock:
                for batch in note_batches(notes):
                    self.emit(batch)
        if not self.running or not self.table.pending():
            return None
        return self.pacer.wait_time()

    def bot_move(self) -> None:
        """Let the bot whose turn it is act, or play the table's next news (no pacing:
        callers pace)."""
        self.after_action(self.table.advance())  # none: a remote table caught up
        self._changed()

    def _changed(self) -> None:
        if self.listeners:
            context = self.context()
            for listener in self.listeners:
                listener(context)

    def play_bots(self) -> None:
        """Play every bot turn until the human is to act or the match is over."""
        with self._lock:
            while self.table.pending():
                self.bot_move()

    # ----- after an action --------------------------------------------------------
    def after_action(self, events: Sequence[Event]) -> None:
        """Save, narrate the events, and prompt the player if it is their turn."""
        self.save()
        self.watchers.publish(self.table, events)
        lines = self.game.narrate(events, behind=self.output.is_busy(), cut=self._cut)
        for event in events:
            if isinstance(event, MatchOver):
                lines += match_over(self.game, self.ports, self.human, event)
        prompt = self.game.prompt()
        if prompt:
            self.game.turn.help.close()  # the player's turn: the arrows move the cursor again
        self.emit([*lines, *prompt])

    def _cut(self, lines: list[Line], tag: str) -> None:
        # The plays of this trick are not all spoken yet: drop them, and let the trick's
        # result say who played what.
        self.emit(lines)
        self.output.cancel(tag)

    def new_game(self) -> None:
        """Abandon this match (if it is not over) and deal a new one, same settings (at
        a local table: a remote table's host starts its matches)."""
        if not isinstance(self.table, LocalTable):
            self.emit([self.line("table.no_new_game")])
            return
        self.settings = replace(self.settings, seed=random.randrange(2**31))
        match = Match(self.table.rules, self.settings.seed)
        self.game = Game(self._local(match), self.verbosity, self.hints)
        self.save()
        self.emit([self.line("session.new_game"), *self.game.opening(), *self.game.prompt()])
        self.watchers.publish(self.table)

    def save(self) -> None:
        """Autosave (atomic); a failure is reported once and play goes on."""
        problem = self.autosave.save(self.ports.store, self.table, self.settings)
        if problem is not None:
            self.emit([self.line("session.cannot_save", priority=Priority.HIGH, reason=problem)])

    # ----- lines ----------------------------------------------------------------
    def line(self, message_id: str, *, priority: Priority = Priority.NORMAL,
             **fields: object) -> Line:
        """A catalog message as a line, at the session's verbosity."""
        return self.game.line(message_id, priority=priority, **fields)

    def notify(self, notices: Sequence[Message | SpadesError], *, urgent: bool = True,
               priority: Priority | None = None) -> None:
        """Say start-up notices, urgently (cutting what is being said) unless ``urgent``
        is False (then in turn), or at ``priority``: messages, or errors that say what
        went wrong and how the game carries on (why voice is off, say)."""
        messages = [n.message if isinstance(n, SpadesError) else n for n in notices]
        if priority is None:  # (Priority.LOW is 0, falsy)
            priority = Priority.HIGH if urgent else Priority.NORMAL
        self.emit([self.line(m.id, priority=priority, **m.fields) for m in messages])

    def emit(self, lines: Sequence[Line], names: Card | None = None) -> None:
        """Send lines to the output (empty ones are left out). ``names`` is the card under
        the cursor when the lines name it (a play prompt names it too): whether they are
        heard whole decides if Enter may play it at once."""
        lines = [line for line in lines if line.text]
        if lines:
            turn = self.game.turn  # watched before: the lines may be cut at once
            watch_naming(turn.heard, lines, names, turn.cursor.card, self.output)
            self.output.emit(lines)
            if any(line.kind is LineKind.PROMPT for line in lines):
                self.asked.asked()  # after it is out: a key read before it waits
            self.game.turn.heard.sent()
            self.history.record(lines)
            self.pacer.said_something()

    @property
    def verbosity(self) -> Verbosity:
        """How much the narrator says."""
        return self.game.words.verbosity

    @verbosity.setter
    def verbosity(self, value: Verbosity) -> None:
        self.game.words.verbosity = value
