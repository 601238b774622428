"""Looking back and keeping count, through the session: the message history keys, R,
the last trick after a hand ends, the previous hand trick by trick, tricks still
needed, the target, and each player's bid and tricks in turn."""

from __future__ import annotations

import random

from tests.session.fakes import RecordingOutput, make_session
from voice_spades.commands import Act, Ask, Command, Control, Query
from voice_spades.engine import Bid, Phase
from voice_spades.session import Session


def play_one_hand(session: Session, seed: int = 1) -> None:
    """Play on (the human at random) until the first hand is over and the second one
    waits for the human's bid."""
    rng = random.Random(seed)
    session.start()
    while session.match.hands_played < 1:
        session.play_bots()
        if session.match.hands_played < 1:
            session.handle(Act(rng.choice(session.view.legal)))
    session.play_bots()
    assert session.view.phase is Phase.BID and not session.view.completed


def ask(session: Session, out: RecordingOutput, query: Query) -> str:
    session.handle(Ask(query))
    return out.last().text


def test_the_last_trick_is_there_after_the_hand_ended() -> None:
    session, out = make_session()
    play_one_hand(session)
    last = session.match.finished[-1].completed[-1]
    text = ask(session, out, Query.LAST_TRICK)
    assert text.startswith("Last trick of hand 1, won by "), text
    words = session.game.words
    assert words.plays(last.plays) in text


def test_the_previous_hand_is_reviewed_a_trick_at_a_time_then_its_score() -> None:
    session, out = make_session()
    session.start()
    assert ask(session, out, Query.PREVIOUS_HAND) == "No hand has been finished yet."
    play_one_hand(session)
    steps = [ask(session, out, Query.PREVIOUS_HAND) for _ in range(15)]
    assert [s.split(":")[0] for s in steps[:13]] == \
        [f"Hand 1, trick {n} of 13" for n in range(1, 14)]
    assert steps[13].startswith("Hand 1 result: You and partner North: bid ")
    assert "Scores after it: you and partner North " in steps[13]
    assert steps[14] == steps[0]  # round again


def test_history_keys_step_through_events_and_answers_one_at_a_time() -> None:
    session, out = make_session()
    session.start()
    session.play_bots()
    said = [line.text for line in out.lines]
    scores = ask(session, out, Query.SCORES)
    assert ask(session, out, Query.PREVIOUS_MESSAGE) == scores
    assert ask(session, out, Query.PREVIOUS_MESSAGE) == said[-1]
    assert ask(session, out, Query.PREVIOUS_MESSAGE) == said[-2]
    assert ask(session, out, Query.NEXT_MESSAGE) == said[-1]
    assert ask(session, out, Query.NEWEST_MESSAGE) == f"Newest message: {scores}"
    assert ask(session, out, Query.OLDEST_MESSAGE) == f"Oldest message: {said[0]}"


def test_repeat_says_the_last_event_or_prompt_again_not_an_answer() -> None:
    session, out = make_session()
    session.start()
    session.play_bots()
    prompt = out.last().text
    assert out.last().message_id == "prompt.bid_any" and prompt == "Your bid."
    ask(session, out, Query.SCORES)
    session.handle(Command(Control.REPEAT))
    assert out.last().text == prompt


def test_tricks_needed_target_and_players_one_at_a_time() -> None:
    session, out = make_session()
    session.start()
    session.play_bots()
    assert ask(session, out, Query.TRICKS_NEEDED) == "No contracts yet: the bidding is not over."
    assert ask(session, out, Query.TARGET) == \
        "Game to 500 points. Every 10 bags cost 100 points. Nil scores 100. A side at " \
        "minus 500 or below ends the match. After 30 hands, the highest score wins."
    first = ask(session, out, Query.NEXT_PLAYER)
    assert first == "You: no bid yet."
    others = [ask(session, out, Query.NEXT_PLAYER) for _ in range(3)]
    assert [o.split(":")[0] for o in others] == ["West", "Partner North", "East"]
    assert ask(session, out, Query.NEXT_PLAYER) == first
    session.handle(Act(Bid(3)))
    session.play_bots()
    assert session.view.phase is Phase.PLAY
    needed = ask(session, out, Query.TRICKS_NEEDED)
    assert needed.startswith("Tricks still needed: you and partner North, "), needed
    assert " more to make " in needed
    players = [ask(session, out, Query.NEXT_PLAYER) for _ in range(4)]
    assert any(p.startswith("You: bid 3, took ") for p in players), players


def test_c_says_who_is_winning_the_trick() -> None:
    session, out = make_session()
    session.start()
    rng = random.Random(2)
    while True:
        session.play_bots()
        view = session.view
        if view.phase is Phase.PLAY and len(view.trick) >= 2:
            break
        session.handle(Act(rng.choice(view.legal)))
    text = ask(session, out, Query.TABLE)
    led = view.trick[0][1].suit
    best = max(view.trick, key=lambda play: (play[1].suit.name == "SPADES",
                                             play[1].suit == led, play[1].rank))
    assert text.endswith(f". Winning: {session.game.words.seat(best[0])}."), text
