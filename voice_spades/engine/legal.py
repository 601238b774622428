"""Trick rules on card masks: legal cards, trick winner, and why a card is illegal."""

from __future__ import annotations

from voice_spades.engine.cards import CARDS, SUIT_MASKS, CardMask, Suit, cards_of

SPADES_MASK = SUIT_MASKS[Suit.SPADES]
NON_SPADES_MASK = SPADES_MASK ^ ((1 << 52) - 1)


def legal_mask(hand: CardMask, led_suit: int | None, spades_broken: bool) -> CardMask:
    """Cards of ``hand`` that may be played: follow suit if possible; lead spades only
    once broken or when holding nothing else."""
    if led_suit is not None:
        follow = hand & SUIT_MASKS[led_suit]
        return follow or hand
    if spades_broken:
        return hand
    return (hand & NON_SPADES_MASK) or hand


def trick_winner_index(plays: list[tuple[int, int]]) -> int:
    """Position in ``plays`` (seat, card index) of the winning card."""
    led = plays[0][1] // 13
    best, best_key = 0, -1
    for pos, (_seat, card) in enumerate(plays):
        suit = card // 13
        if suit == 3:
            key = 100 + card
        elif suit == led:
            key = card
        else:
            continue
        if key > best_key:
            best, best_key = pos, key
    return best


def spoken_cards_of_suit(mask: CardMask) -> str:
    """"the 4 and 9 of hearts" for the cards of one suit (at most four are named)."""
    cards = cards_of(mask)
    ranks = [card.rank_name if card.rank > 10 else str(card.rank) for card in cards]
    if len(ranks) > 4:
        ranks = [*ranks[:3], f"{len(ranks) - 3} more"]
    listed = ranks[0] if len(ranks) == 1 else ", ".join(ranks[:-1]) + " and " + ranks[-1]
    return f"the {listed} of {cards[0].suit.plural}"


def illegal_play_reason(hand: CardMask, card: int, led_suit: int | None,
                        spades_broken: bool) -> str | None:
    """Why playing ``card`` from ``hand`` is illegal, in plain words; None if legal."""
    name = CARDS[card].name
    if not hand >> card & 1:
        return f"You don't hold the {name}."
    if led_suit is not None:
        follow = hand & SUIT_MASKS[led_suit]
        if follow and card // 13 != led_suit:
            suit = Suit(led_suit).plural
            return f"You must follow {suit}: you hold {spoken_cards_of_suit(follow)}."
        return None
    if card // 13 == Suit.SPADES and not spades_broken and hand & NON_SPADES_MASK:
        return "You can't lead a spade yet: spades are not broken and you hold other suits."
    return None
