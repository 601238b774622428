"""A hand's results in words: for each side (or player) its bid, the tricks it took,
made or set, each nil made or failed, bags, then the new scores, in that order.

Every verbosity says all of it (brief leaves out the points, never a nil). With five or
six players the players' results share one line, so that a hand ends in two lines, not
one per player.
"""

from __future__ import annotations

from voice_spades.engine import HandScored, SideScore
from voice_spades.narration.phrases import Phrasebook

Said = tuple[str, dict[str, object]]
"""A message id and its fields, for whoever makes the line."""

SHARED_LINE_FROM = 5
"""From this many sides on, the sides' results are said in one line."""


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


def hand_results(words: Phrasebook, event: HandScored) -> list[Said]:
    """The lines that end a hand, as (message id, fields): one per side (or one for
    every player at five or six), a Boston, then the new scores."""
    w = words
    sides = event.score.sides
    said: list[Said] = []
    if len(sides) >= SHARED_LINE_FROM:
        results = w.say("word.sentence_sep").join(
            w.say("score.result", result=side_result(w, side)) for side in sides)
        said.append(("score.results", {"results": results}))
    else:
        said += [("score.side", {"result": side_result(w, side),
                                 "points": w.signed(side.total), "score": side.score_after,
                                 "bags": w.bags(side.bags_after)})
                 for side in sides]
    if event.score.boston is not None:
        said.append(("boston", {"Side": w.side_cap(event.score.boston),
                                "tricks": w.rules.hand_size}))
    said.append(("score.totals", {"number": event.hand_number,
                                  "scores": w.scores(event.scores, event.bags)}))
    return said


def results_text(words: Phrasebook, event: HandScored) -> str:
    """:func:`hand_results` as one text, for a review of the hand once it is over: the
    scores are those it left ("Scores after it: ...")."""
    said = [("review.scores_after", fields) if message_id == "score.totals"
            else (message_id, fields) for message_id, fields in hand_results(words, event)]
    return words.say("word.sentence_sep").join(
        text for message_id, fields in said if (text := words.say(message_id, **fields)))
