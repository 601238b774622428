"""The priority rules of the utterance queue."""

import pytest

from voice_spades.speech.message import LineKind, Priority, Utterance
from voice_spades.speech.queue_policy import LOW_WAITING, Admission, UtteranceQueue
from voice_spades.speech.record import Outcome


def texts(queue: UtteranceQueue) -> list[str]:
    return [u.text for u in queue]


def test_normal_queues_in_order() -> None:
    queue = UtteranceQueue()
    for text in ("one", "two", "three"):
        assert queue.offer(Utterance(text), busy=True) is Admission.QUEUED
    assert texts(queue) == ["one", "two", "three"]
    popped = queue.pop()
    assert popped is not None and popped.text == "one"


def test_high_clears_the_queue_and_interrupts_only_when_busy() -> None:
    queue = UtteranceQueue()
    queue.offer(Utterance("one"), busy=True)
    queue.offer(Utterance("two"), busy=True)
    assert queue.offer(Utterance("now", Priority.HIGH), busy=True) is Admission.INTERRUPT
    assert texts(queue) == ["now"]
    idle = UtteranceQueue()
    assert idle.offer(Utterance("now", Priority.HIGH), busy=False) is Admission.QUEUED


def test_normal_after_high_waits_behind_it() -> None:
    queue = UtteranceQueue()
    queue.offer(Utterance("now", Priority.HIGH), busy=False)
    queue.offer(Utterance("later"), busy=False)
    assert texts(queue) == ["now", "later"]


@pytest.mark.parametrize("busy", [True, False])
def test_low_waits_while_anything_is_playing_or_queued(busy: bool) -> None:
    queue = UtteranceQueue()
    if not busy:
        queue.offer(Utterance("queued"), busy=False)
    assert queue.offer(Utterance("meh", Priority.LOW), busy=busy) is Admission.WAITING
    queue.offer(event("East plays"), busy=True)  # a later event still goes first
    assert texts(queue)[-2:] == ["East plays", "meh"]
    assert [queue.pop() for _ in range(len(queue))][-1] == Utterance("meh", Priority.LOW)


def test_low_is_queued_when_idle_and_waits_behind_another_low() -> None:
    queue = UtteranceQueue()
    assert queue.offer(Utterance("a", Priority.LOW), busy=False) is Admission.QUEUED
    assert queue.offer(Utterance("b", Priority.LOW), busy=False) is Admission.WAITING
    assert texts(queue) == ["a", "b"]


def test_past_its_bound_the_oldest_waiting_low_goes_unsaid() -> None:
    queue = UtteranceQueue()
    for n in range(LOW_WAITING + 2):
        queue.offer(Utterance(f"chat {n}", Priority.LOW), busy=True)
    assert texts(queue) == [f"chat {n}" for n in range(2, LOW_WAITING + 2)]
    assert [(u.text, o) for u, o in queue.take_removed()] == [
        ("chat 0", Outcome.DROPPED), ("chat 1", Outcome.DROPPED)]


def test_full_queue_drops_the_oldest_but_keeps_high() -> None:
    queue = UtteranceQueue(maxsize=3)
    queue.offer(Utterance("urgent", Priority.HIGH), busy=False)
    for text in ("one", "two", "three", "four"):
        queue.offer(Utterance(text), busy=True)
    assert texts(queue) == ["urgent", "three", "four"]
    assert len(queue) == 3


def test_remove_tag_drops_only_that_tag() -> None:
    queue = UtteranceQueue()
    queue.offer(Utterance("a", tag="trick-5"), busy=True)
    queue.offer(Utterance("b"), busy=True)
    queue.offer(Utterance("c", tag="trick-5"), busy=True)
    assert queue.remove_tag("trick-5") == 2
    assert texts(queue) == ["b"]


def test_queue_needs_room_for_one() -> None:
    with pytest.raises(ValueError):
        UtteranceQueue(maxsize=0)


# ----- game events are never dropped unheard (issue 10) --------------------------------
def event(text: str, tag: str | None = None) -> Utterance:
    return Utterance(text, tag=tag, kind=LineKind.EVENT)


def prompt(text: str) -> Utterance:
    return Utterance(text, kind=LineKind.PROMPT)


def test_a_high_answer_goes_first_and_keeps_the_waiting_events_in_order() -> None:
    queue = UtteranceQueue()
    for text in ("e1", "e2"):
        queue.offer(event(text), busy=True)
    queue.offer(Utterance("old answer"), busy=True)
    assert queue.offer(Utterance("answer", Priority.HIGH), busy=True) is Admission.INTERRUPT
    assert texts(queue) == ["answer", "e1", "e2"]
    assert [(u.text, o) for u, o in queue.take_removed()] == [("old answer", Outcome.REPLACED)]


def test_normal_answers_wait_behind_answers_but_before_the_events() -> None:
    queue = UtteranceQueue()
    queue.offer(event("e1"), busy=True)
    queue.offer(Utterance("a1", Priority.HIGH), busy=True)
    queue.offer(Utterance("a2"), busy=True)
    queue.offer(event("e2"), busy=True)
    assert texts(queue) == ["a1", "a2", "e1", "e2"]


def test_a_cut_event_goes_back_behind_the_answers_and_ahead_of_the_other_events() -> None:
    queue = UtteranceQueue()
    queue.offer(event("e2"), busy=True)
    queue.offer(Utterance("answer", Priority.HIGH), busy=True)
    cut = event("e1")
    queue.requeue(cut)
    assert texts(queue) == ["answer", "e1", "e2"]
    assert queue.discard(cut) and not queue.discard(cut)


def test_a_prompt_waits_behind_the_events_and_replaces_an_older_prompt() -> None:
    queue = UtteranceQueue()
    queue.offer(event("e1"), busy=True)
    queue.offer(prompt("your bid, old"), busy=True)
    queue.offer(event("e2"), busy=True)
    queue.offer(prompt("your bid"), busy=True)
    assert texts(queue) == ["e1", "e2", "your bid"]
    assert queue.offer(Utterance("answer", Priority.HIGH), busy=True) is Admission.INTERRUPT
    assert texts(queue) == ["answer", "e1", "e2", "your bid"]


def test_a_prompt_not_yet_said_goes_once_the_game_moves_on() -> None:
    queue = UtteranceQueue()
    queue.offer(event("e1"), busy=True)
    queue.offer(prompt("your play"), busy=True)
    queue.offer(event("you played the 9 of spades"), busy=True)  # the player acted
    assert texts(queue) == ["e1", "you played the 9 of spades"]


def test_the_bound_never_pushes_out_an_event() -> None:
    queue = UtteranceQueue(maxsize=2)
    for i in range(20):
        queue.offer(event(f"e{i}"), busy=True)
    for text in ("a1", "a2", "a3"):
        queue.offer(Utterance(text), busy=True)
    assert texts(queue) == ["a2", "a3", *(f"e{i}" for i in range(20))]
    assert [(u.text, o) for u, o in queue.take_removed()] == [("a1", Outcome.DROPPED)]


def test_what_goes_is_reported_with_the_reason() -> None:
    queue = UtteranceQueue()
    queue.offer(event("card", tag="trick:1:1"), busy=True)
    queue.offer(event("won"), busy=True)
    queue.offer(Utterance("meh", Priority.LOW), busy=True)
    queue.remove_tag("trick:1:1")
    queue.clear()
    assert [(u.text, o) for u, o in queue.take_removed()] == [
        ("card", Outcome.FOLDED), ("won", Outcome.SKIPPED), ("meh", Outcome.SKIPPED)]
    assert queue.take_removed() == []
