"""The player's turn through the session: the cursor named in the prompt, Enter never
playing a card not heard, resuming at the table, and the hint."""

from __future__ import annotations

from collections.abc import Mapping

from tests.session.fakes import RecordingOutput, make_session
from voice_spades.bots import Bot
from voice_spades.bots.hard import HardBot
from voice_spades.commands import (
    Act,
    Ask,
    Confirm,
    Move,
    MoveCursor,
    PlayCurrent,
    Query,
    TypeDigit,
)
from voice_spades.engine import Card, Match, Phase, RuleOptions, profile
from voice_spades.narration import Phrasebook
from voice_spades.session import GameSettings, Pacer, Ports, Session


def at_my_play(seed: int = 3) -> tuple[Session, RecordingOutput]:
    session, out = make_session(seed=seed)
    session.start()
    session.play_bots()
    session.handle(TypeDigit(3))
    session.handle(PlayCurrent())
    session.play_bots()
    assert session.view.phase is Phase.PLAY and session.view.is_my_turn
    return session, out


def card_words(session: Session, card: Card | None) -> str:
    assert card is not None
    return Phrasebook(session.match.rules, 0).card(card)


def test_every_play_prompt_ends_naming_the_card_under_the_cursor() -> None:
    session, out = at_my_play()
    for _ in range(5):
        prompt = out.last()
        assert prompt.message_id in ("prompt.lead", "prompt.follow", "prompt.void")
        assert prompt.text.endswith(f" On the {card_words(session, session.cursor_card)}.")
        session.handle(PlayCurrent())
        session.play_bots()
        if not session.view.is_my_turn or session.view.phase is not Phase.PLAY:
            break


def test_enter_after_a_prompt_cut_off_names_the_card_and_asks() -> None:
    session, out = make_session(seed=3)
    session.start()
    session.play_bots()
    session.handle(TypeDigit(3))
    out.busy = True  # the narrator is still talking when the prompt is queued
    session.handle(PlayCurrent())
    session.play_bots()
    card = session.cursor_card
    session.interrupt_speech()  # Enter is pressed mid-prompt: the prompt is cut off
    out.busy = False
    session.handle(PlayCurrent())
    assert card in session.view.hand_cards, "Enter played a card never heard"
    assert out.last().text == f"Play the {card_words(session, card)}? Press Enter again to play it."
    session.handle(Confirm(True))  # the question was heard whole: Enter again plays it
    assert card not in session.view.hand_cards


def test_a_digit_in_play_is_refused_and_the_next_enter_does_not_play_unheard() -> None:
    session, out = make_session(seed=3)
    session.start()
    session.play_bots()
    session.handle(TypeDigit(3))
    out.busy = True
    session.handle(PlayCurrent())
    session.play_bots()
    hand = list(session.view.hand_cards)
    session.interrupt_speech()  # "3" typed while the play prompt is said
    session.handle(TypeDigit(3))
    assert out.last().message_id == "bid.not_now" and session.context().typed_bid == ""
    session.interrupt_speech()
    session.handle(PlayCurrent())
    assert session.view.hand_cards == hand and out.last().message_id == "turn.play_question_long"


def test_a_cursor_move_heard_whole_lets_enter_play_at_once() -> None:
    session, out = make_session(seed=3)
    session.start()
    session.play_bots()
    session.handle(TypeDigit(3))
    out.busy = True
    session.handle(PlayCurrent())
    session.play_bots()
    session.interrupt_speech()  # the prompt naming the card is cut off
    out.busy = False
    legal = [a for a in session.view.legal if isinstance(a, Card)]
    card = session.cursor_card
    session.handle(MoveCursor(Move.HIGHEST))  # walk down the suit back to it
    while session.cursor_card != card:
        session.handle(MoveCursor(Move.NEXT_CARD))
    assert card in legal and out.last().message_id.startswith("cursor.")
    session.handle(PlayCurrent())  # the move's answer named it, and it was heard
    assert card not in session.view.hand_cards


def test_the_current_card_key_names_it() -> None:
    session, out = at_my_play()
    session.handle(Ask(Query.CURRENT_CARD))
    assert out.last().text == f"On the {card_words(session, session.cursor_card)}."


def test_resuming_says_the_table_and_whose_turn() -> None:
    session, out = at_my_play()
    session.handle(PlayCurrent())  # the next seat is to play
    view = session.view
    assert len(view.trick) > 1 and view.trick[-1][0] == 0 and not view.is_my_turn
    resumed = Session(Match.from_json(session.match.to_json()),
                      Ports(out, pacer=Pacer(out.is_busy, min_gap=0.0)),
                      settings=session.settings)
    out.clear()
    resumed.start(resumed=True)
    words = Phrasebook(session.match.rules, 0)
    leader, led = view.trick[0]
    said = f"{words.seat_cap(leader)} led the {words.card(led)}, then "
    assert any(text.startswith(said) and text.endswith(f"you {words.card(view.trick[-1][1])}.")
               for text in out.texts), out.texts
    assert out.texts[-1] == f"{words.seat_cap(view.to_act or 0)}'s turn to play."
    assert out.ids[0] == "session.resumed" and "trick 1" in out.texts[0]


def _hard_bots(rules: RuleOptions, settings: GameSettings) -> Mapping[int, Bot]:
    """Hard bots bounded by deals, not time: their choices repeat from the seed."""
    return {seat: HardBot(seat, settings.seed * 31 + seat, time_budget=30, max_samples=8)
            for seat in range(1, rules.players)}


def _play_a_hand(hints: bool) -> tuple[str, list[str]]:
    out = RecordingOutput()
    settings = GameSettings(rules="pagat", seed=11)
    session = Session(Match(profile("pagat"), 11), Ports(out, pacer=Pacer(out.is_busy)),
                      settings=settings, bot_factory=_hard_bots)
    session.start()
    hint_lines = []
    while session.view.hand_number == 1 and not session.match.is_over:
        session.play_bots()
        if hints:
            session.handle(Ask(Query.HINT))
            hint_lines.append(out.last().message_id)
        view = session.view
        if view.phase is Phase.BID:
            session.handle(TypeDigit(2))
            session.handle(PlayCurrent())
        else:  # the same card with or without a hint (which moves the cursor)
            session.handle(Act(next(a for a in view.legal if isinstance(a, Card))))
    return session.match.to_json(), hint_lines


def test_hints_change_neither_chance_nor_the_hard_players_later_choices() -> None:
    with_hints, said = _play_a_hand(hints=True)
    without, _ = _play_a_hand(hints=False)
    assert with_hints == without
    assert said and set(said) <= {"hint.play", "hint.bid"}


def test_the_blind_nil_choice_names_the_keys_not_speech() -> None:
    session, out = make_session("two-player", seed=4)
    session.start()
    session.play_bots()
    assert session.view.phase is Phase.BLIND_NIL and session.view.is_my_turn
    session.handle(Ask(Query.LEGAL))
    assert out.last().text == "Press Y for blind nil, or N to look at your cards."


class _Said:
    def __init__(self, text: str, outcome: str) -> None:
        self.text = text
        self.outcome = type("Outcome", (), {"value": outcome})()


class RecordedOutput(RecordingOutput):
    """A recording output that also says what became of each line, as the speech
    adapter's ``record`` does: every line is "spoken" but those cut off."""

    def __init__(self) -> None:
        super().__init__()
        self.cut: set[int] = set()

    def cut_off_last(self) -> None:
        self.cut.add(len(self.lines) - 1)

    def record(self, count: int) -> list[_Said]:
        return [_Said(line.text, "interrupted" if i in self.cut else "spoken")
                for i, line in enumerate(self.lines)][-count:]


def test_a_question_said_whole_while_events_go_on_is_heard_through_the_record() -> None:
    out = RecordedOutput()
    session, _ = make_session(seed=3, output=out)
    session.start()
    session.play_bots()
    session.handle(TypeDigit(3))
    out.busy = True  # events are being said all along
    session.handle(PlayCurrent())
    session.play_bots()
    card = session.cursor_card
    out.cut_off_last()  # the prompt was cut off by the key
    session.interrupt_speech()
    session.handle(PlayCurrent())
    assert card in session.view.hand_cards and out.last().message_id == "turn.play_question_long"
    out.cut_off_last()  # first the question is cut off too: asked again
    session.interrupt_speech()
    session.handle(Confirm(True))
    assert card in session.view.hand_cards and out.last().message_id == "turn.play_question_long"
    session.interrupt_speech()  # this time it was said whole, then the events went on
    session.handle(Confirm(True))
    assert card not in session.view.hand_cards


def test_a_game_resumed_on_my_play_puts_the_cursor_on_a_playable_card() -> None:
    # the cursor used to start on the hand's first card, which may not follow suit
    for seed in range(3, 13):
        session, out = at_my_play(seed)
        legal = {a for a in session.view.legal if isinstance(a, Card)}
        if session.view.hand_cards[0] in legal:
            continue  # the first card is playable: nothing to tell apart
        resumed = Session(Match.from_json(session.match.to_json()),
                          Ports(out, pacer=Pacer(out.is_busy, min_gap=0.0)),
                          settings=session.settings)
        out.clear()
        resumed.start(resumed=True)
        assert resumed.cursor_card in legal
        assert out.last().text.endswith(f" On the {card_words(resumed, resumed.cursor_card)}.")
        return
    raise AssertionError("no seed left the first card unplayable")
