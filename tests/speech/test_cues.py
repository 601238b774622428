"""Which lines sound which cues, where each seat is placed, and the output wrapper."""

from __future__ import annotations

import io

import pytest

from voice_spades.engine import HandScored, Match, TrickWon, profile
from voice_spades.narration import Line, LineKind, Narrator, Phrasebook
from voice_spades.narration.lines import Priority
from voice_spades.narration.templates import load_templates
from voice_spades.speech import Announcer, TextSpeaker
from voice_spades.speech.audio_clip import pan_gains
from voice_spades.speech.cue_sounds import Cue
from voice_spades.speech.cues import CUES, RESULT_CUES, SEATED, CueRules, PlacedCue, attach_cues
from voice_spades.speech.output import AnnouncerOutput
from voice_spades.speech.placement import Place, seat_pan, seat_pans, seat_place

LANGUAGES = ("en", "it", "fr")


def test_every_id_in_the_cue_table_is_in_the_catalog() -> None:
    ids = set(load_templates("en"))
    assert set(CUES) <= ids, set(CUES) - ids


def test_every_cue_is_sounded_by_some_line() -> None:
    sounded = {cue for cues in CUES.values() for cue in cues} | set(RESULT_CUES.values())
    assert sounded == set(Cue)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_sound_messages_exist_in_every_language(language: str) -> None:
    texts = load_templates(language)
    for message_id in ("sound.no_portaudio", "sound.cues_no_device", "sound.cues_lost",
                       "sound.cues_no_portaudio"):
        assert message_id in texts, (language, message_id)


def test_seats_are_placed_from_the_listeners_chair() -> None:
    # Four: the left-hand opponent left, the partner and the player centre, the
    # right-hand opponent right.
    assert seat_pans(4) == {0: 0.0, 1: -0.6, 2: 0.0, 3: 0.6}
    assert seat_pans(2) == {0: 0.0, 1: 0.0}
    # Three, five and six: spread evenly from left to right in table order.
    assert seat_pans(3) == {0: 0.0, 1: -0.6, 2: 0.6}
    assert seat_pans(5) == pytest.approx({0: 0.0, 1: -0.6, 2: -0.2, 3: 0.2, 4: 0.6})
    assert seat_pans(6) == pytest.approx({0: 0.0, 1: -0.6, 2: -0.3, 3: 0.0, 4: 0.3, 5: 0.6})
    # From another chair, the same shape turned.
    assert seat_pans(4, listener=2) == {0: 0.0, 1: 0.6, 2: 0.0, 3: -0.6}
    assert seat_pan(None, 4) == seat_pan(7, 4) == 0.0


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_no_seat_is_in_one_ear_only(players: int) -> None:
    for pan in seat_pans(players).values():
        quiet = min(pan_gains(pan))
        assert quiet > 0.3, (players, pan)  # the far ear at -10.5 dB or nearer


def test_the_seat_across_the_table_is_told_from_the_listener() -> None:
    # Both in the centre, only the seat across is "across"; from seat 2 it is seat 0.
    assert seat_place(2, 4) == Place(0.0, True) and seat_place(0, 4) == Place(0.0, False)
    assert seat_place(0, 4, listener=2) == Place(0.0, True)
    assert seat_place(3, 6) == Place(0.0, True) and seat_place(1, 2) == Place(0.0, True)
    assert not any(seat_place(seat, 3).across for seat in range(3))
    assert not seat_place(None, 4).across


def card_line(seat: int, message_id: str = "card.played") -> Line:
    return Line(message_id, f"Seat {seat} played.", seat=seat, kind=LineKind.EVENT)


def prompt() -> Line:
    return Line("prompt.follow", "Your play.", Priority.HIGH, kind=LineKind.PROMPT)


@pytest.mark.parametrize(("players", "seat", "pan", "across"), [
    (4, 1, -0.6, False), (4, 2, 0.0, True), (4, 3, 0.6, False), (4, 0, 0.0, False),
    (3, 1, -0.6, False), (3, 2, 0.6, False), (5, 2, -0.2, False), (6, 4, 0.3, False),
    (6, 3, 0.0, True)])
def test_a_card_sounds_where_its_seat_is(players: int, seat: int, pan: float,
                                         across: bool) -> None:
    cues = CueRules(players)
    assert cues.cues_for([card_line(seat)]) == [
        PlacedCue(Cue.CARD, pytest.approx(pan), across)]  # type: ignore[arg-type]


def test_only_seated_cues_sound_from_across() -> None:
    cues = CueRules()
    lines = [Line("trick.won_last", "North played and won.", seat=2, kind=LineKind.EVENT),
             Line("match.won_side", "You won.", kind=LineKind.EVENT, seat=2)]
    assert cues.cues_for(lines) == [PlacedCue(Cue.CARD, 0.0, True),
                                    PlacedCue(Cue.TRICK, 0.0, True), PlacedCue(Cue.MATCH_WON)]
    assert {Cue.CARD, Cue.TRICK} <= SEATED and Cue.MATCH_WON not in SEATED


def test_game_lines_sound_their_cues_in_order() -> None:
    cues = CueRules()
    lines = [Line("trick.won_last", "West played and won.", seat=1, kind=LineKind.EVENT),
             Line("spades.broken_after", "Spades are broken.", seat=1, kind=LineKind.EVENT),
             Line("nil.broken", "That breaks East's nil.", seat=3, kind=LineKind.EVENT),
             Line("contract.made", "Made.", kind=LineKind.EVENT)]
    assert cues.cues_for(lines) == [(Cue.CARD, -0.6, False), (Cue.TRICK, -0.6, False),
                                    (Cue.SPADES_BROKEN, -0.6, False),
                                    (Cue.NIL_BROKEN, 0.6, False)]
    over = [Line("score.totals", "Scores.", kind=LineKind.EVENT, result="set"),
            Line("match.lost", "West and East won.", Priority.HIGH, kind=LineKind.EVENT)]
    assert cues.cues_for(over) == [PlacedCue(Cue.CONTRACT_SET), PlacedCue(Cue.MATCH_LOST)]
    won = [Line("score.totals", "Scores.", kind=LineKind.EVENT, result="made"),
           Line("match.won_side", "You won.", kind=LineKind.EVENT, seat=2)]
    assert cues.cues_for(won) == [PlacedCue(Cue.CONTRACT_MADE), PlacedCue(Cue.MATCH_WON)]
    assert cues.cues_for([Line("score.totals", "Scores.", kind=LineKind.EVENT)]) == []


def test_your_turn_sounds_once_per_turn() -> None:
    cues = CueRules()
    assert cues.cues_for([card_line(3), prompt()]) == [(Cue.CARD, 0.6, False),
                                                       PlacedCue(Cue.YOUR_TURN)]
    # The cursor's answer and the prompt said again: nothing happened, no new cue.
    assert cues.cues_for([Line("answer.cursor", "Ace of hearts.")]) == []
    assert cues.cues_for([prompt()]) == []
    assert cues.cues_for([card_line(1), card_line(2), card_line(3), prompt()]) == [
        (Cue.CARD, -0.6, False), (Cue.CARD, 0.0, True), (Cue.CARD, 0.6, False),
        PlacedCue(Cue.YOUR_TURN)]


def test_answers_sound_nothing() -> None:
    cues = CueRules()
    assert cues.cues_for([Line("turn.yours", "Your turn to play."),
                          Line("answer.last_trick", "Last trick.", seat=1)]) == []


def three_each(match: Match) -> object:
    """Bid three (a contract for every side), then play the first legal card."""
    actions = match.legal_actions()
    return next((a for a in actions if getattr(a, "tricks", None) == 3), actions[0])


def played_hand(seed: int) -> tuple[list[Line], HandScored]:
    match = Match(profile("pagat"), seed)
    narrator = Narrator(Phrasebook(match.rules, 0))
    lines: list[Line] = []
    while True:
        events = match.apply(three_each(match))  # type: ignore[arg-type]
        for event in events:
            lines += narrator.narrate(event)
            if isinstance(event, HandScored):
                return lines, event


@pytest.mark.parametrize("seed", [5, 6, 7, 8])
def test_the_narrator_gives_the_lines_cues_need(seed: int) -> None:
    lines, scored = played_hand(seed)
    broken = [line for line in lines if line.message_id.startswith("spades.broken")]
    assert all(line.seat is not None for line in broken)
    # The hand's last line (the last side's result) carries the listener's made or set.
    results = [line for line in lines if line.result is not None]
    mine = next(s for s in scored.score.sides if 0 in s.seats)
    assert results == [lines[-1]] and lines[-1].message_id == "score.side"
    assert lines[-1].result == ("made" if mine.made else "set")


def test_both_results_and_broken_spades_occur() -> None:
    hands = [played_hand(seed)[0] for seed in range(5, 15)]
    assert {lines[-1].result for lines in hands} == {"made", "set"}
    assert any(line.message_id.startswith("spades.broken") for lines in hands
               for line in lines)


def test_a_broken_nil_is_placed_at_the_nil_bidder() -> None:
    # Every computer bids the first legal bid, nil, so nils break.
    match = Match(profile("pagat"), 5)
    narrator = Narrator(Phrasebook(match.rules, 0))
    broken = []
    while not broken:
        for event in match.apply(match.legal_actions()[0]):
            broken += [(line, event) for line in narrator.narrate(event)
                       if line.message_id == "nil.broken"]
    line, event = broken[0]
    assert isinstance(event, TrickWon) and line.seat == event.winner


def test_without_sounds_the_output_is_left_as_it_is() -> None:
    inner = AnnouncerOutput(Announcer(TextSpeaker(stream=io.StringIO()),
                                      stream=io.StringIO()))
    assert attach_cues(inner, None) is inner
    inner.close()
