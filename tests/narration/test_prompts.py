""""Your turn" prompts and the answers to the player's questions."""

from __future__ import annotations

from tests.engine.helpers import deal_with
from voice_spades.engine import Bid, Card, HandState, Match, Phase, PlayerView, Suit, profile
from voice_spades.narration import Answers, Hints, Phrasebook, Verbosity, turn_prompt

PAGAT = profile("pagat")


def view_of(hand: HandState, seat: int = 0) -> PlayerView:
    match = Match(hand.rules, 0)
    match.hand = hand
    return match.view(seat)


def prompt(view: PlayerView, refusals: tuple[str, ...] = (),
           verbosity: Verbosity = Verbosity.NORMAL) -> str:
    line = turn_prompt(view, Phrasebook(view.rules, view.seat, verbosity), Hints(), refusals)
    assert line is not None
    return line.text


def play_until(hand: HandState, done: object) -> None:
    while not done(hand):  # type: ignore[operator]
        hand.apply(hand.legal_actions()[0])


def test_bid_prompt_is_short_when_any_bid_will_do_and_verbose_gives_the_range() -> None:
    hand = deal_with(PAGAT, [], dealer=3)
    assert prompt(view_of(hand)) == "Your bid."
    assert prompt(view_of(hand), verbosity=Verbosity.BRIEF) == "Bid."
    assert prompt(view_of(hand), verbosity=Verbosity.VERBOSE) == \
        "Your bid: 0 to 13. 0 is nil. Bids so far: not yet."


def test_bid_prompt_gives_the_range_and_nil_when_some_bids_are_refused() -> None:
    rules = profile("playroom", players=4, no_hell=True)
    hand = deal_with(rules, [], dealer=0)
    for bid in ("3", "4", "3"):
        hand.apply(hand.legal_bids()[int(bid)])
    assert prompt(view_of(hand)).startswith("Your bid: 0 to 2 or 4 to 13. 0 is nil.")


def test_bid_prompt_mentions_a_no_hell_refusal() -> None:
    rules = profile("playroom", players=4, no_hell=True)
    hand = deal_with(rules, [], dealer=0)
    for bid in ("3", "4", "3"):
        hand.apply(hand.legal_bids()[int(bid)])
    view = view_of(hand)
    refusals = tuple(r for t in range(14) if (r := hand.bid_refusal(0, Bid(t))) is not None)
    text = prompt(view, refusals)
    assert text.startswith("Your bid: 0 to 2 or 4 to 13. 0 is nil. No hell:")
    assert "may not bid 3" in text


def test_lead_prompt_says_whether_spades_are_broken() -> None:
    hand = deal_with(PAGAT, ["2H 3H 4S"], dealer=3)
    play_until(hand, lambda h: h.phase is Phase.PLAY)
    assert hand.to_act == 0
    assert prompt(view_of(hand)) == "Your lead. Spades are not broken."


def test_follow_and_void_prompts() -> None:
    hand = deal_with(PAGAT, ["2H 3H"], dealer=2)
    play_until(hand, lambda h: h.phase is Phase.PLAY and h.to_act == 0)
    led = hand.led_suit
    assert led is not None
    text = prompt(view_of(hand))
    suit = Phrasebook(PAGAT).suit(Suit(led))
    has = any(c.suit == led for c in hand.hand_of(0))
    expected = f"Your play: follow {suit}." if has else \
        f"Your play: you have no {suit}, play any card."
    assert text == expected
    verbose = prompt(view_of(hand), verbosity=Verbosity.VERBOSE)
    assert "On the table: East " in verbose


def test_two_player_prompts() -> None:
    rules = profile("two-player")
    match = Match(rules, 4)
    if match.to_act != 0:
        match.apply(match.legal_actions()[0])
    assert prompt(match.view(0)).startswith("Blind nil? Decide before you see your cards")
    while not (match.hand.phase is Phase.DRAW and match.to_act == 0):
        match.apply(match.legal_actions()[0])
    top = match.view(0).draw_top
    assert top is not None
    assert prompt(match.view(0)) == f"You see the {Phrasebook(rules).card(top)}: keep or discard?"


def test_answers_to_questions() -> None:
    hand = deal_with(PAGAT, ["AS 10S 4S KH"], dealer=2)
    play_until(hand, lambda h: h.phase is Phase.PLAY and h.to_act == 0)
    view = view_of(hand)
    answers = Answers(Phrasebook(PAGAT), Hints())
    # Issue 10 (problem 7): C also says who is winning the trick so far.
    assert answers.table(view).text == \
        f"On the table: East {Phrasebook(PAGAT).card(view.trick[0][1])}. Winning: East."
    assert answers.suit_led(view).text.endswith(" led.")
    assert answers.scores(view).text == ("Scores: you and partner North 0 with 0 bags; "
                                         "West and East 0 with 0 bags. Target 500.")
    assert answers.game_info(view).text.startswith("Trick 1 of 13. You bid ")
    assert answers.whose_turn(view).text == "Your turn to play."
    assert answers.suit(view, Suit.SPADES).text.startswith("Spades: ace, king, ")
    legal = answers.legal(view).text
    assert legal.startswith("You can play ")
    assert answers.last_trick(view).text == "No trick has been completed yet this hand."
    west = Answers(Phrasebook(PAGAT, 1), Hints())
    assert west.legal(view_of(hand, 1)).text == \
        "Nothing for you to do now. South's turn to play."


def test_cursor_words_mark_unplayable_cards() -> None:
    hand = deal_with(PAGAT, ["2H 3C"], dealer=2)
    play_until(hand, lambda h: h.phase is Phase.PLAY and h.to_act == 0)
    view = view_of(hand)
    answers = Answers(Phrasebook(PAGAT), Hints())
    illegal = [card for card in view.hand_cards if card not in view.legal]
    if illegal:
        assert answers.cursor(view, illegal[0]).text.endswith(", not playable")
    legal = next(a for a in view.legal if isinstance(a, Card))
    assert "not playable" not in answers.cursor(view, legal).text
