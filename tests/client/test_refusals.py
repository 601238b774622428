"""An action the server refuses is said in the player's own words, with the rules'
reason, and the game goes on: here a card the rules forbid (one that does not follow
suit, or a spade led before spades are broken)."""

from __future__ import annotations

from pathlib import Path

from tests.client.net import SelfPlaying, connect, eventually, running_server
from voice_spades.engine import Card, Phase, Suit, cards_of, options_to_dict, profile
from voice_spades.narration import Phrasebook
from voice_spades.protocol.wire import Create, Join, SeatSpec, Start


def test_a_forbidden_card_is_refused_with_the_rules_reason_and_play_goes_on(
        tmp_path: Path) -> None:
    rules = options_to_dict(profile("pagat", target=2000, hand_limit=None))
    seats = (SeatSpec("human"), SeatSpec("open"), SeatSpec("bot", "easy"),
             SeatSpec("bot", "easy"))
    with running_server(tmp_path) as server:
        host_line, host = connect(server.address, Create(rules, seats))
        assert host.code is not None
        line, friend = connect(server.address, Join(host.code), name="Giulia")
        host_line.send(Start())
        eventually(lambda: host.ready.is_set() and friend.ready.is_set())
        host_play = SelfPlaying(host, seed=1).start()
        friend_play = SelfPlaying(friend, seed=2)
        refused: list[Card] = []
        leads: list[Suit | None] = []

        def watch(snapshot: object) -> None:
            view = friend.view()
            if refused or not view.is_my_turn or view.phase is not Phase.PLAY \
                    or friend.pending():
                return
            wrong = [c for c in cards_of(view.hand) if c not in view.legal]
            if wrong:
                refused.append(wrong[0])
                leads.append(view.trick[0][1].suit if view.trick else None)
                friend.act(wrong[0])

        friend_play.session.watch(watch)  # before the self-play: it acts first
        friend_play.start()
        try:
            eventually(lambda: "net.illegal" in friend_play.output.ids, timeout=30)
            said = friend_play.output.last("net.illegal").text
            card, led = refused[0], leads[0]
            words = Phrasebook(profile("pagat"), 1)
            if led is None:  # a spade led too early
                assert card.suit is Suit.SPADES
                assert said == ("You can't lead a spade yet: spades are not broken and you "
                                "hold other suits.")
            else:
                assert said.startswith(f"You must follow {words.suit(led)}: you hold "), said
            seq = friend.last_seq
            # The game goes on: the friend plays a legal card, and the next tricks come.
            eventually(lambda: friend.last_seq > seq + 8, timeout=20)
        finally:
            friend_play.stop()
            host_play.stop()
        line.close()
        host_line.close()
