"""A shared table whose host hears a long game event through the speech path the game
uses (announcer, output, the speaker's queue and thread; the synthesizer alone is timed,
not spoken), with a friend seated who can then leave or chat while it is said."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.client.net import connect, eventually, running_server
from tests.speech.timed_speaker import TimedSpeaker
from voice_spades.client.line import Line as ClientLine
from voice_spades.engine import options_to_dict, profile
from voice_spades.narration import Line, LineKind
from voice_spades.protocol.wire import Create, Join, SeatSpec, Start
from voice_spades.session import GameSettings, Pacer, Ports, Session
from voice_spades.speech import Announcer
from voice_spades.speech.message import Utterance
from voice_spades.speech.output import AnnouncerOutput


@dataclass
class LongEvent:
    """The host's session and speech while ``event`` is being said (as ``speaking``)."""

    session: Session
    output: AnnouncerOutput
    speaker: TimedSpeaker
    printed: io.StringIO
    friend_line: ClientLine
    event: Line
    speaking: Utterance

    def printed_after_event(self, text: str) -> Callable[[], bool]:
        """A check for :func:`eventually`: the session takes what came, and ``text`` has
        been printed after the event."""
        def check() -> bool:
            self.session.step()
            return text in self.printed.getvalue().split(self.event.text)[-1]
        return check


@contextmanager
def a_long_event_being_said(tmp_path: Path) -> Iterator[LongEvent]:
    """Ada hosts Giulia (West) and two bots that wait 30 s; once the table's greeting is
    said, a 60-word event (1.2 s) starts to be said to Ada."""
    rules = options_to_dict(profile("pagat"))
    seats = (SeatSpec("human"), SeatSpec("open"), SeatSpec("bot", "easy"),
             SeatSpec("bot", "easy"))
    speaker = TimedSpeaker(seconds_per_word=0.02, longest=1.5)
    printed = io.StringIO()
    output = AnnouncerOutput(Announcer(speaker, stream=printed))
    try:
        with running_server(tmp_path, bot_delay=30.0) as server:
            host_line, host = connect(server.address, Create(rules, seats), name="Ada")
            assert host.code is not None
            friend_line, _ = connect(server.address, Join(host.code), name="Giulia")
            try:
                host_line.send(Start())
                eventually(lambda: host.ready.is_set())
                session = Session(host, Ports(output, pacer=Pacer(output.is_busy,
                                                                   min_gap=0.0)),
                                  settings=GameSettings(seat=host.seat))
                session.start()
                eventually(lambda: not session.step()
                           and "Giulia sat down" in printed.getvalue())
                assert output.wait_idle(20)
                event = Line("card.played", " ".join(["West played the queen of hearts, "
                                                      "and North the king."] * 6),
                             kind=LineKind.EVENT)
                output.emit([event])
                speaking = speaker.wait_for_text(event.text)
                yield LongEvent(session, output, speaker, printed, friend_line, event,
                                speaking)
            finally:
                host_line.close()
                friend_line.close()
    finally:
        speaker.close()
