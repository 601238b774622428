"""What a resumed game says about the table, after the hand and the scores: what is on
the table (who led what) or the bids so far, and whose turn it is."""

from __future__ import annotations

from voice_spades.engine import Phase, PlayerView, Seat
from voice_spades.narration import Answers, Line


def table_lines(view: PlayerView, answers: Answers) -> list[Line]:
    """"East led the queen of hearts, then West 2 of hearts." or "Bids so far: ...",
    then whose turn it is when it is not the player's (the player's own turn is said by
    the prompt that follows)."""
    words = answers.words
    lines: list[Line] = []
    if view.phase is Phase.PLAY and view.trick:
        (leader, card), rest = view.trick[0], view.trick[1:]
        if rest:
            lines.append(answers.line("resume.table", seat=Seat(leader), card=card,
                                      plays=words.plays(rest)))
        else:
            lines.append(answers.line("resume.led", seat=Seat(leader), card=card))
    elif view.phase is Phase.BID:
        done = [s for s in range(view.rules.players) if view.bids[s] is not None]
        order = sorted(done, key=lambda s: (s - view.first_player) % view.rules.players)
        lines.append(answers.line("resume.bids", bids=words.bids(view.bids, order)) if done
                     else answers.line("resume.no_bids"))
    if view.to_act is not None and not view.is_my_turn:
        lines.append(answers.whose_turn(view))
    return lines
