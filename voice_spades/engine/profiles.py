"""Rule profiles: one frozen options object, five named presets.

Every profile rotates the same way: hand 1 has a random dealer ``d``; the first
player (first to bid and to lead) is ``d + 1`` clockwise; next hand ``d`` moves one
seat clockwise. That one rule covers pagat's "dealer passes left", cardgames'
"first player moves clockwise" and two-player's "the roles swap", where the
"dealer" is the player who draws first.

What breaks spades follows each profile's own text (RULES.md, "Common to all"):
pagat and classic-fr break them only with a spade played on another suit's lead ("su
un'uscita in un altro seme", "après un pique joué sur une autre couleur"); cardgames,
playroom and two-player with any spade played, a forced lead from an all-spade hand
included (seed 002: "Una volta giocata la prima carta di picche, le picche vengono
rotte"). **Decision**: the partnership profiles once all used pagat's reading; each now
follows its own text (:attr:`RuleOptions.forced_spade_lead_breaks`). A saved match
carries the flag it was played under, so a match saved before keeps its rule.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum

from voice_spades.errors import InvalidInputError


class FailedNil(Enum):
    """What happens to the tricks a failed nil bidder took (partnership play)."""

    BAGS = "bags"
    """pagat/playroom: not for the partner's bid; bags worth 1 point each."""
    BAGS_NO_POINTS = "bags-no-points"
    """classic-fr: not for the partner's bid; bags toward the penalty, no points."""
    FOR_PARTNER = "for-partner"
    """cardgames: they count toward the partner's bid; extra tricks are bags."""


class Deal(Enum):
    """How cards reach the players."""

    DEAL = "deal"
    """One at a time clockwise from the dealer's left."""
    DRAW = "draw"
    """Two-player: draw, keep or discard, alternating until the stock is gone."""


class MatchEnd(Enum):
    """What ends a match besides a side reaching the target."""

    TARGET = "target"
    """Only the target: the rule texts' own ending (``seeds/``, RULES.md). Saved matches
    from before this option existed were played under it."""
    MINUS_TARGET = "minus-target"
    """Also a side at minus the target or below after a hand: the highest score then
    wins (a tie at the top plays another hand, as at the target). Not in the rule texts,
    which only end at the target; it is the "losing score" of common Spades play (a game
    also ends when a side falls to -200 on MSN Zone and Plato, -200 or -500 in the Picas
    app; "win at +60, lose at -60" in Fast Lane Spades), so that a match nobody can win
    (six easy players, every score sinking: no end after 256 hands) still ends."""


DEFAULT_HAND_LIMIT = 30
"""Hands after which the highest score wins (:attr:`RuleOptions.hand_limit`): at most
about an evening (a hand takes 3 to 5 minutes)."""
MAX_HAND_LIMIT = 1000
"""The longest hand limit a match may have."""


class FirstLead(Enum):
    """Who leads the first trick of a hand."""

    FIRST_PLAYER = "first-player"
    """The first bidder (the dealer's left)."""
    TWO_OF_CLUBS = "two-of-clubs"
    """House rule: whoever holds the 2 of clubs (if it is removed, the first player)."""


REMOVED_TWOS_ORDER = ("2C", "2D", "2H", "2S")
"""Decision (RULES.md): with 3, 5 or 6 players, the 2s are removed in this order."""

BIG_CONTRACT_THRESHOLD = {3: 10, 4: 8, 5: 7, 6: 6}
"""Playroom: tricks bid and made beyond this many earn 10 points each."""


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """Every rule choice of a match. Build one with :func:`profile`."""

    name: str = "pagat"
    players: int = 4
    player_range: tuple[int, int] = (4, 4)
    partnerships: bool = True
    """With 4 players, partners sit opposite and bids are summed per side."""
    target: int = 500
    ending: MatchEnd = MatchEnd.MINUS_TARGET
    """What else ends the match (:class:`MatchEnd`)."""
    hand_limit: int | None = DEFAULT_HAND_LIMIT
    """After this many hands the highest score wins (a tie at the top plays one more
    hand, and so on); None: no limit. Not in the rule texts: the "hand limit, best score
    wins" of timed club and app play, so that every match fits in an evening."""
    failed_nil: FailedNil = FailedNil.BAGS
    nil_points: int = 100
    blind_nil: bool = False
    """Two-player blind (double) nil, declared before looking, with an exchange."""
    blind_nil_points: int = 200
    blind_nil_exchange: int = 3
    double_nil: bool = True
    """Both partners may bid nil; each nil is scored on its own."""
    exact_bid_bonus: int = 0
    """Points for making a bid of exactly 1 or 2 exactly (3-4 players only)."""
    big_contract_bonus: int = 0
    """Points per trick bid and made beyond the threshold for the player count."""
    no_hell: bool = False
    quicksand: bool = False
    suicide: bool = False
    bag_limit: int = 10
    bag_penalty: int = 100
    deal: Deal = Deal.DEAL
    first_lead: FirstLead = FirstLead.FIRST_PLAYER
    forced_spade_lead_breaks: bool = False
    """Any spade played breaks spades, a forced lead from an all-spade hand included
    (cardgames, playroom, two-player); False: only a spade played on another suit's
    lead does (pagat, classic-fr)."""

    def __post_init__(self) -> None:
        low, high = self.player_range
        if not low <= self.players <= high:
            if low == high:
                raise InvalidInputError("rules.players_exact", name=self.name, allowed=low,
                                        players=self.players)
            raise InvalidInputError("rules.players_range", name=self.name, low=low,
                                    high=high, players=self.players)
        if self.target <= 0:
            raise InvalidInputError("rules.target_not_positive", target=self.target)
        if self.hand_limit is not None and not 1 <= self.hand_limit <= MAX_HAND_LIMIT:
            raise InvalidInputError("rules.hand_limit_range", high=MAX_HAND_LIMIT,
                                    hands=self.hand_limit)
        if self.suicide and not self.is_partnership:
            raise InvalidInputError("rules.suicide_needs_partners")
        if self.deal is Deal.DRAW and self.players != 2:
            raise InvalidInputError("rules.draw_needs_two")

    @property
    def losing_score(self) -> int | None:
        """The score at or below which a side ends the match, or None (target only)."""
        return -self.target if self.ending is MatchEnd.MINUS_TARGET else None

    @property
    def is_partnership(self) -> bool:
        """True when seats 0/2 and 1/3 play as sides."""
        return self.partnerships and self.players == 4

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each side: partners together, or one seat per side."""
        if self.is_partnership:
            return ((0, 2), (1, 3))
        return tuple((seat,) for seat in range(self.players))

    def side_of(self, seat: int) -> int:
        """Index in :attr:`sides` of the side a seat plays for."""
        return seat % 2 if self.is_partnership else seat

    def partner_of(self, seat: int) -> int | None:
        """The seat opposite ``seat`` in a partnership game, else None.

        >>> profile("pagat").partner_of(1), profile("playroom", players=3).partner_of(1)
        (3, None)
        """
        return (seat + 2) % 4 if self.is_partnership else None

    @property
    def removed_twos(self) -> int:
        """How many 2s leave the deck so that every hand has the same size."""
        return 0 if self.deal is Deal.DRAW else 52 % self.players

    @property
    def hand_size(self) -> int:
        """Cards per player, which is also the tricks per hand."""
        if self.deal is Deal.DRAW:
            return 13
        return 52 // self.players

    @property
    def exact_bonus_applies(self) -> bool:
        """The exact 1-or-2 bonus is for 3 or 4 players only."""
        return self.exact_bid_bonus > 0 and self.players in (3, 4)

    def with_options(self, **changes: object) -> RuleOptions:
        """A copy with some options changed (validated again)."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


_PROFILES: dict[str, RuleOptions] = {
    "pagat": RuleOptions(name="pagat"),
    "classic-fr": RuleOptions(name="classic-fr", failed_nil=FailedNil.BAGS_NO_POINTS),
    "cardgames": RuleOptions(name="cardgames", failed_nil=FailedNil.FOR_PARTNER,
                             forced_spade_lead_breaks=True),
    "playroom": RuleOptions(name="playroom", player_range=(3, 6), exact_bid_bonus=20,
                            big_contract_bonus=10, forced_spade_lead_breaks=True),
    "two-player": RuleOptions(name="two-player", players=2, player_range=(2, 2),
                              partnerships=False, blind_nil=True, deal=Deal.DRAW,
                              forced_spade_lead_breaks=True),
}

PROFILE_NAMES = tuple(_PROFILES)
"""The profile names, default first."""


def profile(name: str = "pagat", *, players: int | None = None, target: int | None = None,
            no_hell: bool = False, quicksand: bool = False, suicide: bool = False,
            ending: MatchEnd | None = None,
            hand_limit: int | None = DEFAULT_HAND_LIMIT) -> RuleOptions:
    """The named preset, optionally with a player count, target, playroom variants,
    match ending (default: :attr:`MatchEnd.MINUS_TARGET`) and hand limit (default
    :data:`DEFAULT_HAND_LIMIT`; None: no limit).

    Raises InvalidInputError for an unknown name, a player count outside the
    profile's range, or a variant the profile does not offer.
    """
    if name not in _PROFILES:
        raise InvalidInputError("rules.unknown", name=name, choices=", ".join(PROFILE_NAMES))
    base = _PROFILES[name]
    if (no_hell or quicksand or suicide) and name != "playroom":
        raise InvalidInputError("rules.variants_need_playroom")
    return base.with_options(
        players=base.players if players is None else players,
        target=base.target if target is None else target,
        no_hell=no_hell, quicksand=quicksand, suicide=suicide,
        ending=base.ending if ending is None else ending, hand_limit=hand_limit)
