"""Scoring of one hand: a pure function of bids, tricks and the scores before it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from voice_spades.engine.actions import Bid
from voice_spades.engine.profiles import BIG_CONTRACT_THRESHOLD, FailedNil, RuleOptions


@dataclass(frozen=True, slots=True)
class NilResult:
    """How one nil or blind nil bid ended."""

    seat: int
    blind: bool
    made: bool
    points: int


@dataclass(frozen=True, slots=True)
class SideScore:
    """One side's score for a hand, part by part; ``total`` is their sum."""

    side: int
    seats: tuple[int, ...]
    contract: int
    """Sum of the side's non-nil bids (0 when every bidder of the side bid nil)."""
    tricks: int
    """All tricks the side took."""
    counted: int
    """Tricks that count toward the contract."""
    made: bool | None
    """Whether the contract was made; None when the side had no contract."""
    contract_points: int
    bag_points: int
    nil_points: int
    exact_bonus: int
    big_bonus: int
    bag_penalty: int
    """Negative: 100 per completed cycle of 10 bags."""
    new_bags: int
    nils: tuple[NilResult, ...]
    score_before: int
    bags_before: int
    bag_limit: int

    @property
    def total(self) -> int:
        """The change to the side's score this hand."""
        return (self.contract_points + self.bag_points + self.nil_points + self.exact_bonus
                + self.big_bonus + self.bag_penalty)

    @property
    def score_after(self) -> int:
        """The side's score after this hand."""
        return self.score_before + self.total

    @property
    def bags_after(self) -> int:
        """Bags carried after this hand (always 0 to 9 with the usual limit)."""
        return (self.bags_before + self.new_bags) % self.bag_limit


@dataclass(frozen=True, slots=True)
class HandScore:
    """The scoring of one hand for every side."""

    sides: tuple[SideScore, ...]
    boston: int | None
    """Index of the side that took every trick, if one did (announced, not scored)."""


def score_hand(rules: RuleOptions, bids: Sequence[Bid], tricks: Sequence[int],
               scores_before: Sequence[int], bags_before: Sequence[int]) -> HandScore:
    """Score a finished hand. ``bids`` and ``tricks`` are per seat, the rest per side."""
    results = []
    boston = None
    for side, seats in enumerate(rules.sides):
        result = _score_side(rules, side, seats, bids, tricks, scores_before[side],
                             bags_before[side])
        results.append(result)
        if result.tricks == rules.hand_size:
            boston = side
    return HandScore(tuple(results), boston)


def _score_side(rules: RuleOptions, side: int, seats: tuple[int, ...], bids: Sequence[Bid],
                tricks: Sequence[int], score_before: int, bags_before: int) -> SideScore:
    nils = tuple(
        NilResult(seat, bids[seat].blind, tricks[seat] == 0,
                  (1 if tricks[seat] == 0 else -1)
                  * (rules.blind_nil_points if bids[seat].blind else rules.nil_points))
        for seat in seats if bids[seat].is_nil)
    contract = sum(bids[seat].tricks for seat in seats)
    bidder_tricks = sum(tricks[seat] for seat in seats if not bids[seat].is_nil)
    nil_tricks = sum(tricks[seat] for seat in seats if bids[seat].is_nil)
    if rules.failed_nil is FailedNil.FOR_PARTNER:
        counted, nil_bags = bidder_tricks + nil_tricks, 0
    else:
        counted, nil_bags = bidder_tricks, nil_tricks

    made: bool | None = None
    contract_points = exact = big = overtricks = 0
    if contract > 0:
        made = counted >= contract
        if made:
            overtricks = counted - contract
            contract_points = 10 * contract
            if rules.quicksand:
                contract_points -= 10 * overtricks
            if rules.exact_bonus_applies and contract in (1, 2) and overtricks == 0:
                exact = rules.exact_bid_bonus
            threshold = BIG_CONTRACT_THRESHOLD.get(rules.players, 13)
            if rules.big_contract_bonus and contract > threshold:
                big = rules.big_contract_bonus * (contract - threshold)
        else:
            missing = contract - counted
            contract_points = -10 * (missing if rules.quicksand else contract)
    else:
        overtricks = counted

    if rules.quicksand:
        new_bags = bag_points = 0
    else:
        new_bags = overtricks + nil_bags
        bag_points = overtricks + (0 if rules.failed_nil is FailedNil.BAGS_NO_POINTS
                                   else nil_bags)
    penalty = -rules.bag_penalty * ((bags_before + new_bags) // rules.bag_limit)
    return SideScore(
        side=side, seats=seats, contract=contract, tricks=bidder_tricks + nil_tricks,
        counted=counted, made=made, contract_points=contract_points, bag_points=bag_points,
        nil_points=sum(n.points for n in nils), exact_bonus=exact, big_bonus=big,
        bag_penalty=penalty, new_bags=new_bags, nils=nils, score_before=score_before,
        bags_before=bags_before, bag_limit=rules.bag_limit)
