"""The player's turn decides from a table alone: no session, no output."""

from __future__ import annotations

from voice_spades.bots import decide
from voice_spades.bots.legal_player import LegalMovePlayer
from voice_spades.commands import Act, Cancel, Command, Confirm, Control, PlayCurrent, TypeDigit
from voice_spades.engine import Bid, Card, Match, Phase, profile
from voice_spades.narration import Answers, Hints, Phrasebook
from voice_spades.session import PlayerTurn, Request, TurnTable


def table_of(match: Match) -> TurnTable:
    answers = Answers(Phrasebook(match.rules, 0), Hints())
    return TurnTable(match.view(0), match.is_over, answers, match.refusal)


def at_phase(phase: Phase) -> Match:
    match = Match(profile("pagat"), 3)
    bots = {seat: LegalMovePlayer(seed=seat) for seat in range(1, 4)}
    while not (match.to_act == 0 and match.view(0).phase is phase):
        if match.to_act == 0:
            match.apply(Bid(3))
        else:
            seat = match.to_act
            assert seat is not None
            match.apply(decide(bots[seat], match.view(seat)))
    return match


def test_typed_digits_become_a_bid_to_apply() -> None:
    match, turn = at_phase(Phase.BID), PlayerTurn()
    typed = turn.decide(TypeDigit(4), table_of(match))
    assert typed.action is None and typed.say[0].text.startswith("4.")
    made = turn.decide(PlayCurrent(), table_of(match))
    assert made.action == Bid(4) and made.say == () and turn.typed == ""


def test_an_illegal_card_is_refused_with_the_engine_reason() -> None:
    match, turn = at_phase(Phase.PLAY), PlayerTurn()
    view = match.view(0)
    illegal = [c for c in view.hand_cards if c not in view.legal]
    legal = [a for a in view.legal if isinstance(a, Card)]
    if illegal:
        refused = turn.decide(Act(illegal[0]), table_of(match))
        assert refused.action is None and refused.say[0].message_id == "error.illegal"
    assert turn.decide(Act(legal[0]), table_of(match)).action == legal[0]


def test_a_new_game_is_asked_first_then_requested() -> None:
    match, turn = at_phase(Phase.BID), PlayerTurn()
    asked = turn.decide(Command(Control.NEW_GAME), table_of(match))
    assert asked.request is None and asked.say[0].message_id == "question.yes_no"
    assert turn.question_text(match.view(0), table_of(match).answers) is not None
    assert turn.decide(Confirm(True), table_of(match)).request is Request.NEW_GAME
    cancel = turn.decide(Cancel(), table_of(match))
    assert cancel.request is Request.SILENCE and cancel.say == ()
