"""A hand's results in words.

Said when the hand ends, one short line per side (or player): its bid, the tricks it
took, made or set, each nil made or failed (a failed nil's tricks that count as bags
said as such), the bags it took and its new score: each fact once, so that the turnover
to the next hand stays short (``voice-spades bench pace``). The verbose verbosity, and
the review of the previous hand (``results_text``), say every part with its points
(bonuses, bag points, the bag penalty) and the totals with the bags carried.
"""

from __future__ import annotations

from voice_spades.engine import FailedNil, HandScored, SideScore
from voice_spades.narration.phrases import Phrasebook

Said = tuple[str, dict[str, object]]
"""A message id and its fields, for whoever makes the line."""


def side_result(words: Phrasebook, side: SideScore) -> str:
    """One side's result, without its new score: "West and East: bid 6, took 4, set,
    minus 60; East made nil, plus 100"."""
    w = words
    name = w.side_cap(side.side)
    solo = len(side.seats) == 1
    if side.contract or not side.nils:
        head = w.say("score.head", Side=name, bid=side.contract, took=side.counted)
    else:
        bid = w.say("word.blind_nil" if side.nils[0].blind else "word.nil")
        head = w.say("score.head", Side=name, bid=bid, took=side.tricks)
    first = [head]
    if side.made is not None:
        first.append(w.say("score.made" if side.made else "score.set",
                           points=w.signed(side.contract_points)))
    parts = [w.say("word.list_sep").join(p for p in first if p)]
    if side.exact_bonus:
        parts.append(w.say("score.part.exact", points=w.signed(side.exact_bonus)))
    if side.big_bonus:
        parts.append(w.say("score.part.big", points=w.signed(side.big_bonus)))
    for nil in side.nils:
        kind = w.say("word.blind_nil" if nil.blind else "word.nil")
        outcome = "made" if nil.made else "failed"
        if solo:
            parts.append(w.say(f"score.own_nil_{outcome}", kind=kind, Kind=kind,
                               points=w.signed(nil.points)))
        else:
            parts.append(w.say(f"score.nil_{outcome}", seat=w.seat(nil.seat), kind=kind,
                               points=w.signed(nil.points)))
    if side.new_bags:
        parts.append(w.say("score.bags", bags=w.bags(side.new_bags),
                           points=w.signed(side.bag_points)))
    if side.bag_penalty:
        parts.append(w.say("score.part.penalty", points=w.signed(side.bag_penalty)))
    return w.say("word.group_sep").join(p for p in parts if p)


def short_name(words: Phrasebook, side: int) -> str:
    """A side as the hand's end names it: "Us" and "Them" with two partnerships, else
    the side's own name ("West", "You", "North and South")."""
    rules = words.rules
    if rules.is_partnership and len(rules.sides) == 2 and words.viewer is not None:
        mine = rules.side_of(words.viewer) == side
        return words.say("score.short_us" if mine else "score.short_them")
    return words.side_cap(side)


def side_short(words: Phrasebook, side: SideScore) -> str:
    """One side's result in short, without its new score: "Us: bid 5, took 4, set",
    "Them: bid 5, partner North took 5, made, your nil failed, your 2 count as bags,
    3 bags"."""
    w = words
    name = short_name(w, side.side)
    failed = [nil for nil in side.nils if not nil.made]
    # A failed nil's tricks that do not count for the partner: say whose tricks count.
    uncounted = side.tricks - side.counted if side.contract and side.nils \
        and w.rules.failed_nil is not FailedNil.FOR_PARTNER else 0
    bidders = [s for s in side.seats if all(nil.seat != s for nil in side.nils)]
    if side.contract and uncounted and len(bidders) == 1:
        parts = [w.say("score.short_head_seat", Side=name, bid=side.contract,
                       seat=w.seat(bidders[0]), took=side.counted)]
    elif side.contract or not side.nils:
        parts = [w.say("score.short_head", Side=name, bid=side.contract, took=side.counted)]
    else:  # only nils: "West: bid nil, took 0"
        bid = w.say("word.blind_nil" if side.nils[0].blind else "word.nil")
        parts = [w.say("score.head", Side=name, bid=bid, took=side.tricks)]
    if side.made is not None:
        parts.append(w.say("score.short_made" if side.made else "score.short_set"))
    for nil in side.nils:
        kind = w.say("word.blind_nil" if nil.blind else "word.nil")
        outcome = "made" if nil.made else "failed"
        if len(side.seats) == 1:
            parts.append(w.say(f"score.short_own_nil_{outcome}", kind=kind, Kind=kind))
        else:
            parts.append(w.say(f"score.short_nil_{outcome}", seat=w.seat(nil.seat),
                               kind=kind))
    if uncounted and len(failed) == 1:
        whose = w.whose(failed[0].seat)
        parts.append(w.say("score.short_nil_bags", whose=whose, count=uncounted))
    if side.new_bags and not uncounted:
        parts.append(w.bags(side.new_bags))
    elif side.new_bags > uncounted:  # overtricks too: the bags of the hand in all
        parts.append(w.say("score.short_bags_in_all", bags=w.bags(side.new_bags)))
    if side.bag_penalty:
        parts.append(w.say("score.part.penalty", points=w.signed(side.bag_penalty)))
    return w.say("word.list_sep").join(p for p in parts if p)


def hand_results(words: Phrasebook, event: HandScored) -> list[Said]:
    """The lines that end a hand, as (message id, fields): one per side (or player),
    a Boston, then the totals (which only the verbose verbosity says: the side lines
    hold the new scores)."""
    w = words
    said: list[Said] = [
        ("score.side", {"result": side_result(w, side), "short": side_short(w, side),
                        "points": w.signed(side.total), "score": event.scores[side.side],
                        "bags": w.bags(event.bags[side.side])})
        for side in event.score.sides]
    if event.score.boston is not None:
        said.append(("boston", {"Side": w.side_cap(event.score.boston),
                                "tricks": w.rules.hand_size}))
    said.append(("score.totals", {"number": event.hand_number,
                                  "scores": w.scores(event.scores, event.bags)}))
    return said


def results_text(words: Phrasebook, event: HandScored) -> str:
    """Every part of a hand's results as one text, for a review of the hand once it is
    over: each side's result with its points, then the scores it left ("Scores after
    it: ...")."""
    w = words
    said: list[Said] = [("score.result", {"result": side_result(w, side)})
                        for side in event.score.sides]
    said += [("review.scores_after", fields) if message_id == "score.totals"
             else (message_id, fields) for message_id, fields in hand_results(w, event)
             if message_id != "score.side"]
    return w.say("word.sentence_sep").join(
        text for message_id, fields in said if (text := w.say(message_id, **fields)))
