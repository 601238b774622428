"""The phrases offered at each prompt come from the legal actions of the state."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from voice_spades.commands import (
    Act,
    Ask,
    Cancel,
    Command,
    Confirm,
    Control,
    MarkCard,
    PlayCurrent,
    Query,
)
from voice_spades.engine import (
    Bid,
    BlindNilChoice,
    Card,
    DrawChoice,
    Exchange,
    Match,
    Phase,
    PlayerView,
    Suit,
    mask_of,
    profile,
)
from voice_spades.voice.understanding.grammar import (
    Extreme,
    PhraseTable,
    all_phrases,
    build_phrases,
    full_grammar,
)


def cards(text: str) -> list[Card]:
    return [Card.parse(code) for code in text.split()]


def bid_view(rules: str = "pagat", bids: tuple[int, ...] = (), **options: object) -> PlayerView:
    match = Match(profile(rules, **options), seed=3)  # type: ignore[arg-type]
    for tricks in bids:
        match.apply(Bid(tricks))
    assert match.to_act is not None
    return match.view(match.to_act)


def play_view(hand: str, led: str | None = None) -> PlayerView:
    """The seat to act in the play phase, holding ``hand``; ``led`` is the suit led."""
    match = Match(profile("pagat"), seed=3)
    while match.view(0).phase == Phase.BID:
        match.apply(Bid(3))
    assert match.to_act is not None
    held = cards(hand)
    view = dataclasses.replace(match.view(match.to_act), hand=mask_of(held))
    if led is None:
        return dataclasses.replace(view, legal=tuple(held))
    follow = tuple(c for c in held if c.suit is Suit.parse(led))
    return dataclasses.replace(view, legal=follow or tuple(held))


def two_player_view(phase: Phase) -> PlayerView:
    match = Match(profile("two-player"), seed=3)
    while match.view(0).phase != phase:
        match.apply(BlindNilChoice(phase == Phase.EXCHANGE)
                    if match.view(0).phase == Phase.BLIND_NIL else match.legal_actions()[0])
    assert match.to_act is not None
    return match.view(match.to_act)


def cmudict_words() -> set[str]:
    pocketsphinx = pytest.importorskip("pocketsphinx")
    path = Path(pocketsphinx.__file__).parent / "model" / "en-us" / "cmudict-en-us.dict"
    with path.open(encoding="utf-8") as handle:
        return {line.split(maxsplit=1)[0] for line in handle if line.strip()}


def bid_phrases(table: PhraseTable) -> set[str]:
    return {p for p, m in table.meanings.items()
            if isinstance(m, Act) and isinstance(m.action, Bid)}


def test_bidding_offers_the_legal_bids_and_no_cards() -> None:
    table = build_phrases(bid_view(), confirming=False, cursor=None)
    assert table.intent("four") == Act(Bid(4))
    assert table.intent("bid four") == Act(Bid(4))
    assert table.intent("i bid thirteen") == Act(Bid(13))
    for nil in ("nil", "zero", "bid nil"):
        assert table.intent(nil) == Act(Bid(0))
    assert "fourteen" not in table
    assert "blind nil" not in table
    assert not any("hearts" in p and "my" not in p and "read" not in p and "what" not in p
                   for p in table.phrases)
    assert "yes" not in table


def test_no_hell_refused_bid_is_not_offered() -> None:
    view = bid_view("playroom", (3, 3, 3), players=4, no_hell=True)
    assert Bid(4) not in view.legal
    table = build_phrases(view, confirming=False, cursor=None)
    assert "four" not in table and "bid four" not in table
    assert table.intent("five") == Act(Bid(5))


def test_three_players_may_bid_up_to_seventeen() -> None:
    table = build_phrases(bid_view("playroom", players=3), confirming=False, cursor=None)
    assert table.intent("bid seventeen") == Act(Bid(17))


def test_playing_names_every_card_held_legal_or_not() -> None:
    view = play_view("QH 2H 10S AC", led="H")
    table = build_phrases(view, confirming=False, cursor=None)
    assert table.intent("queen of hearts") == Act(Card.parse("QH"))
    assert table.intent("play the queen of hearts") == Act(Card.parse("QH"))
    assert table.intent("queen hearts") == Act(Card.parse("QH"))
    assert table.intent("ten spades") == Act(Card.parse("10S"))
    assert table.intent("deuce of hearts") == Act(Card.parse("2H"))
    # Held but illegal (hearts were led): still named, so the session can say why.
    assert table.intent("ace of clubs") == Act(Card.parse("AC"))
    assert Act(Card.parse("AC")) not in table.legal
    assert Act(Card.parse("QH")) in table.legal
    assert "king of hearts" not in table
    assert not bid_phrases(table)


def test_highest_and_lowest_name_cards_held() -> None:
    table = build_phrases(play_view("QH 2H 7H 10S"), confirming=False, cursor=None)
    assert table.meanings["highest heart"] == Extreme(Suit.HEARTS, True)
    assert table.intent("highest heart") == Act(Card.parse("QH"))
    assert table.intent("play my lowest heart") == Act(Card.parse("2H"))
    assert table.intent("lowest spade") == Act(Card.parse("10S"))
    assert "highest club" not in table


def test_play_it_needs_a_card_under_the_cursor() -> None:
    view = play_view("QH 2H")
    assert "play it" not in build_phrases(view, confirming=False, cursor=None)
    table = build_phrases(view, confirming=False, cursor=Card.parse("QH"))
    assert table.intent("play it") == PlayCurrent()
    assert PlayCurrent() in table.legal


def test_blind_nil_is_offered_only_before_the_draw() -> None:
    view = two_player_view(Phase.BLIND_NIL)
    table = build_phrases(view, confirming=True, cursor=None)
    assert table.intent("blind nil") == Act(BlindNilChoice(True))
    assert table.intent("no blind nil") == Act(BlindNilChoice(False))
    assert table.intent("yes") == Confirm(True)
    assert "blind nil" not in build_phrases(bid_view(), confirming=False, cursor=None)


def test_the_draw_offers_keep_and_discard() -> None:
    table = build_phrases(two_player_view(Phase.DRAW), confirming=True, cursor=None)
    assert table.intent("keep it") == Act(DrawChoice(True))
    assert table.intent("discard") == Act(DrawChoice(False))
    assert table.intent("no") == Confirm(False)


def test_the_exchange_marks_cards_then_gives_them_back() -> None:
    view = two_player_view(Phase.EXCHANGE)
    table = build_phrases(view, confirming=False, cursor=None)
    card = view.hand_cards[0]
    assert table.intent(f"exchange {card.name}") == MarkCard(card)
    assert table.intent("exchange them") == PlayCurrent()
    assert table.intent("no exchange") == Act(Exchange())


def test_a_pending_question_offers_answers_and_no_actions() -> None:
    table = build_phrases(bid_view(), confirming=True, cursor=None)
    assert table.intent("yes") == Confirm(True)
    assert table.intent("no") == Confirm(False)
    assert table.intent("cancel") == Cancel()
    assert not bid_phrases(table)
    assert table.intent("what is the score") == Ask(Query.SCORES)


@pytest.mark.parametrize("confirming", [False, True])
def test_queries_and_commands_are_always_offered(confirming: bool) -> None:
    for view in (bid_view(), play_view("QH"), two_player_view(Phase.DRAW)):
        table = build_phrases(view, confirming=confirming, cursor=None)
        assert table.intent("what's on the table") == Ask(Query.TABLE)
        assert table.intent("what is on the table") == Ask(Query.TABLE)
        assert table.intent("read hearts") == Ask(Query.SUIT, Suit.HEARTS)
        assert table.intent("my spades") == Ask(Query.SUIT, Suit.SPADES)
        assert table.intent("what can i play") == Ask(Query.LEGAL)
        assert table.intent("what can i say") == Ask(Query.WHAT_CAN_I_SAY)
        assert table.intent("new game") == Command(Control.NEW_GAME)
        assert table.intent("be quiet") == Command(Control.SILENCE)
        assert table.intent("repeat") == Command(Control.REPEAT)


def random_views(count: int) -> list[tuple[PlayerView, bool, Card | None]]:
    rng = random.Random(5)
    out = []
    for rules in ("pagat", "two-player", "playroom"):
        match = Match(profile(rules), seed=rng.randrange(1000))
        for _ in range(count):
            if match.is_over:
                break
            assert match.to_act is not None
            view = match.view(match.to_act)
            cursor = rng.choice(view.hand_cards) if view.hand else None
            out.append((view, rng.random() < 0.2, cursor))
            match.apply(rng.choice(match.legal_actions()))
    return out


def test_no_phrase_means_two_things() -> None:
    assert not full_grammar().dropped
    for view, confirming, cursor in random_views(80):
        table = build_phrases(view, confirming=confirming, cursor=cursor)
        assert not table.dropped
        assert len(set(table.phrases)) == len(table)


def test_every_prompt_phrase_has_the_same_meaning_in_the_full_grammar() -> None:
    full = full_grammar()
    for view, confirming, cursor in random_views(80):
        table = build_phrases(view, confirming=confirming, cursor=cursor)
        for phrase, meaning in table.meanings.items():
            assert full.meanings[phrase] == meaning


def test_every_word_is_in_the_pocketsphinx_dictionary() -> None:
    words = cmudict_words()
    missing = {w for p in full_grammar().phrases for w in p.split() if w not in words}
    assert not missing


def test_phrases_are_plain_lower_case_words() -> None:
    for phrase in full_grammar().phrases:
        assert phrase == " ".join(phrase.split())
        assert all(c.islower() or c in " '" for c in phrase), phrase


def test_the_full_grammar_covers_every_kind() -> None:
    kinds = set(all_phrases().values())
    assert kinds >= {"card", "extreme", "play-it", "bid", "blind-nil", "draw", "mark",
                     "exchange", "query", "command", "answer"}
