"""The player's turn decides from a table alone: no session, no output."""

from __future__ import annotations

from voice_spades.bots import decide
from voice_spades.bots.explain import Advice
from voice_spades.bots.legal_player import LegalMovePlayer
from voice_spades.commands import (
    Act,
    Ask,
    Cancel,
    Command,
    Confirm,
    Control,
    Move,
    MoveCursor,
    PlayCurrent,
    Propose,
    Query,
    StartBid,
    TypeDigit,
)
from voice_spades.engine import NIL, Bid, BlindNilChoice, Card, Exchange, Match, Phase, profile
from voice_spades.messages import Message
from voice_spades.narration import Answers, Hints, Phrasebook
from voice_spades.session import PlayerTurn, Request, TurnTable
from voice_spades.session.advice import advice_line


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


def test_enter_names_an_unheard_cursor_card_and_asks_before_playing_it() -> None:
    match, turn = at_phase(Phase.PLAY), PlayerTurn()
    view = match.view(0)
    card = next(a for a in view.legal if isinstance(a, Card))
    turn.cursor.card = card
    asked = turn.decide(PlayCurrent(), table_of(match))
    assert asked.action is None and asked.names == card
    words = Phrasebook(match.rules, 0)
    assert asked.say[0].text == f"Play the {words.card(card)}? Press Enter again to play it."
    assert turn.question_text(view, table_of(match).answers) == f"Play the {words.card(card)}?"
    turn.heard.named(card)  # the question was said ...
    turn.heard.sent()
    turn.heard.settle(busy=False)  # ... and heard to the end
    assert turn.decide(Confirm(True), table_of(match)).action == card


def test_enter_plays_at_once_a_card_heard_named() -> None:
    match, turn = at_phase(Phase.PLAY), PlayerTurn()
    card = next(a for a in match.view(0).legal if isinstance(a, Card))
    turn.cursor.card = card
    turn.heard.named(card)
    turn.heard.sent()
    turn.heard.settle(busy=False)
    assert turn.decide(PlayCurrent(), table_of(match)).action == card


def test_zero_then_enter_asks_nil_as_the_nil_key_does() -> None:
    match, turn = at_phase(Phase.BID), PlayerTurn()
    by_key = PlayerTurn().decide(Propose(Act(NIL), Message("question.nil")), table_of(match))
    turn.decide(TypeDigit(0), table_of(match))
    typed = turn.decide(PlayCurrent(), table_of(match))
    assert typed.action is None and typed.say == by_key.say
    assert typed.say[0].text == "Bid nil? Yes or no?" and turn.typed == ""
    assert turn.decide(Confirm(True), table_of(match)).action == NIL


def test_digits_typed_out_of_the_bidding_are_discarded() -> None:
    match, turn = at_phase(Phase.PLAY), PlayerTurn()
    refused = turn.decide(TypeDigit(3), table_of(match))
    assert refused.say[0].message_id == "bid.not_now" and turn.typed == ""
    # Typed while another seat bids: refused too, and not kept for the player's turn.
    bidding, turn = Match(profile("pagat"), 1), PlayerTurn()
    bot = LegalMovePlayer(seed=1)
    typed_early = 0
    while bidding.to_act != 0:
        assert turn.decide(TypeDigit(3), table_of(bidding)).say[0].message_id == "bid.not_now"
        typed_early += 1
        bidding.apply(decide(bot, bidding.view(bidding.to_act or 0)))
    assert typed_early and turn.typed == ""
    nothing = turn.decide(PlayCurrent(), table_of(bidding))
    assert nothing.action is None and nothing.say[0].message_id == "bid.nothing_typed"


def test_the_help_key_steps_through_pages_until_another_key() -> None:
    match, turn = at_phase(Phase.PLAY), PlayerTurn()
    for page in (0, 1, 2):
        assert turn.decide(Ask(Query.HELP), table_of(match)).request is Request.KEYS_HELP
        assert turn.help.index == page and turn.help.opening == (page == 0)
    back = turn.decide(MoveCursor(Move.PREVIOUS_SUIT), table_of(match))
    assert back.request is Request.KEYS_HELP and turn.help.index == 1
    turn.decide(Ask(Query.TABLE), table_of(match))
    assert turn.help.open is None
    assert turn.decide(Ask(Query.ALL_KEYS), table_of(match)).request is Request.ALL_KEYS


def test_the_current_card_key_names_the_cursor_card() -> None:
    match, turn = at_phase(Phase.PLAY), PlayerTurn()
    turn.cursor.sync(match.view(0).hand)
    card = turn.cursor.card
    assert card is not None
    said = turn.decide(Ask(Query.CURRENT_CARD), table_of(match))
    words = Phrasebook(match.rules, 0)
    assert said.names == card and said.say[0].text.startswith(f"On the {words.card(card)}")


def test_the_hint_waits_for_the_player_s_turn() -> None:
    match = Match(profile("pagat"), 3)
    if match.to_act == 0:
        match.apply(Bid(3))
    said = PlayerTurn().decide(Ask(Query.HINT), table_of(match))
    assert said.say[0].message_id == "hint.not_now" and said.action is None


def test_the_hint_words_every_kind_of_choice() -> None:
    match = Match(profile("two-player"), 4)
    words = Phrasebook(match.rules, 0)
    view = match.view(0)
    exchange = Advice(Exchange((Card.parse("8S"), Card.parse("KH"))), Message("reason.exchange"))
    assert advice_line(view, exchange, words).text == (
        "Hint: give back the 8 of spades and king of hearts. They are your cards most likely "
        "to win a trick. They are marked: Enter gives them back.")
    blind = Advice(BlindNilChoice(False), Message("reason.blind_nil_no"))
    assert advice_line(view, blind, words).text.startswith("Hint: no blind nil; look at your ")
    bid = Advice(Bid(4), Message("reason.bid_count", sure=3, likely=1))
    assert advice_line(view, bid, words).text == \
        "Hint: bid 4. Counted tricks: 3 sure, 1 likely. Enter bids it."


def test_moving_the_cursor_drops_the_question_about_the_card_left() -> None:
    match, turn = at_phase(Phase.PLAY), PlayerTurn()
    turn.cursor.card = next(a for a in match.view(0).legal if isinstance(a, Card))
    turn.decide(PlayCurrent(), table_of(match))
    assert turn.question_text(match.view(0), table_of(match).answers) is not None
    turn.decide(MoveCursor(Move.NEXT_CARD), table_of(match))
    assert turn.question_text(match.view(0), table_of(match).answers) is None


def a_match_played_to_its_end(seed: int) -> Match:
    """A pagat match to 100 points (one to three hands) played by bots in every seat."""
    match = Match(profile("pagat", target=100), seed)
    bots = {seat: LegalMovePlayer(seed=seat) for seat in range(4)}
    while not match.is_over:
        seat = match.to_act
        assert seat is not None
        match.apply(decide(bots[seat], match.view(seat)))
    return match


def test_game_info_after_the_match_says_who_won_and_the_final_scores() -> None:
    for seed in (1, 2, 3, 4):
        match = a_match_played_to_its_end(seed)
        said = PlayerTurn().decide(Ask(Query.GAME_INFO), table_of(match)).say[0]
        assert said.message_id == "answer.game_info_over" and "Bidding" not in said.text
        winner = "you won" if match.winner == 0 else "West and East won"
        hands = match.hands_played
        you, them = match.scores
        assert said.text == (f"The match is over: {winner} after {hands} "
                             f"{'hand' if hands == 1 else 'hands'}, you and partner North "
                             f"{you}, West and East {them}."), said.text


def test_b_during_play_gives_the_bids_and_still_opens_the_bidding() -> None:
    match = at_phase(Phase.PLAY)
    bids = ["nil" if bid is None or bid.is_nil else str(bid.tricks)
            for bid in match.view(0).bids]
    said = PlayerTurn().decide(StartBid(), table_of(match)).say[0]
    assert said.message_id == "answer.bids"
    assert said.text == (f"Bids: you {bids[0]}, West {bids[1]}, partner North {bids[2]}, "
                         f"East {bids[3]}.")
    bidding = PlayerTurn().decide(StartBid(), table_of(at_phase(Phase.BID))).say[0]
    assert bidding.message_id != "answer.bids" and "bid" in bidding.text.lower()
    over = PlayerTurn().decide(StartBid(), table_of(a_match_played_to_its_end(1))).say[0]
    assert over.text == "This is not the time to bid. The match is over."
