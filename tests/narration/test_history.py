"""The message history: every line an item, stepped through one at a time."""

from __future__ import annotations

from voice_spades.engine import profile
from voice_spades.narration import History, Line, LineKind, Phrasebook, Verbosity

WORDS = Phrasebook(profile("pagat"), 0)


def said(history: History, *texts: str, kind: LineKind = LineKind.EVENT) -> None:
    history.record([Line("bid.made", text, kind=kind) for text in texts])


def test_stepping_back_starts_at_the_newest_and_goes_one_message_at_a_time() -> None:
    history = History()
    said(history, "West bid 4.", "Partner North bid 3.", "East bid 2.")
    assert history.previous(WORDS).text == "East bid 2."
    assert history.previous(WORDS).text == "Partner North bid 3."
    assert history.previous(WORDS).text == "West bid 4."
    assert history.previous(WORDS).text == "Oldest message: West bid 4."
    assert history.next(WORDS).text == "Partner North bid 3."
    assert history.next(WORDS).text == "East bid 2."
    assert history.next(WORDS).text == "Newest message: East bid 2."


def test_new_messages_do_not_move_the_cursor_and_newest_jumps_to_the_end() -> None:
    history = History()
    said(history, "one.", "two.", "three.")
    history.previous(WORDS)
    history.previous(WORDS)
    said(history, "four.")
    assert history.next(WORDS).text == "three."
    assert history.next(WORDS).text == "four."
    history.previous(WORDS)
    assert history.newest(WORDS).text == "Newest message: four."
    assert history.previous(WORDS).text == "three."
    assert history.oldest(WORDS).text == "Oldest message: one."


def test_answers_are_items_too_but_the_history_own_lines_are_not() -> None:
    history = History()
    said(history, "West bid 4.")
    said(history, "Scores: us 0, them 0.", kind=LineKind.ANSWER)
    step = history.previous(WORDS)
    history.record([step, history.last_event(WORDS)])
    assert [line.text for line in history.items] == ["West bid 4.", "Scores: us 0, them 0."]
    assert history.previous(WORDS).text == "West bid 4."


def test_repeat_says_the_last_event_or_prompt_not_the_last_answer() -> None:
    history = History()
    said(history, "East played the ace of hearts.")
    said(history, "You can play any card.", kind=LineKind.ANSWER)
    assert history.last_event(WORDS).text == "East played the ace of hearts."
    said(history, "Your play: follow hearts.", kind=LineKind.PROMPT)
    assert history.last_event(WORDS).text == "Your play: follow hearts."


def test_an_empty_history_says_so_and_old_messages_are_forgotten() -> None:
    history = History(size=3)
    assert history.previous(WORDS).text == "Nothing has been said yet."
    assert history.last_event(WORDS).text == "Nothing has been said yet."
    said(history, "a.", "b.", "c.", "d.", "e.")
    assert len(history) == 3
    assert history.oldest(WORDS).text == "Oldest message: c."
    assert history.next(WORDS).text == "d."
    said(history, "f.", "g.", "h.")  # "d." is forgotten under the cursor
    assert history.next(WORDS).text == "f."


def test_brief_edges_are_shorter() -> None:
    history = History()
    said(history, "a.")
    brief = Phrasebook(profile("pagat"), 0, Verbosity.BRIEF)
    assert history.next(brief).text == "Newest: a."
