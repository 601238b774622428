"""The priority rules of the utterance queue."""

import pytest

from voice_spades.speech.message import Priority, Utterance
from voice_spades.speech.queue_policy import Admission, UtteranceQueue


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
def test_low_is_dropped_when_anything_is_playing_or_queued(busy: bool) -> None:
    queue = UtteranceQueue()
    if not busy:
        queue.offer(Utterance("queued"), busy=False)
    assert queue.offer(Utterance("meh", Priority.LOW), busy=busy) is Admission.DROPPED
    assert "meh" not in texts(queue)


def test_low_is_queued_when_idle_and_never_piles_up() -> None:
    queue = UtteranceQueue()
    assert queue.offer(Utterance("a", Priority.LOW), busy=False) is Admission.QUEUED
    assert queue.offer(Utterance("b", Priority.LOW), busy=False) is Admission.DROPPED
    assert texts(queue) == ["a"]


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
