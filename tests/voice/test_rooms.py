"""The voice package's rooms import downward only, as its docstring lists them."""

from __future__ import annotations

from tests.test_layers import import_graph

VOICE_ROOMS: list[set[str]] = [
    {"lexicon", "lists"},
    {"audio", "models"},
    {"recognizers"},
    {"understanding", "early_end", "spoken_help"},
    {"adaptation"},
    {"learning", "model_offer"},
    {"listener", "training"},
    {"testing"},
]
"""Lowest first, as in ``voice_spades/voice/__init__.py``. Within one level, rooms do
not import each other."""


def voice_room(module: str) -> str | None:
    parts = module.split(".")
    if parts[:2] != ["voice_spades", "voice"] or len(parts) < 3:
        return None
    return parts[2]


def level(room: str) -> int:
    for index, rooms in enumerate(VOICE_ROOMS):
        if room in rooms:
            return index
    raise AssertionError(f"voice room {room!r} is in no level: add it to VOICE_ROOMS")


def test_voice_rooms_import_downward_only() -> None:
    problems = []
    for source, targets in sorted(import_graph().items()):
        here = voice_room(source)
        if here is None:
            continue
        for target in sorted(targets):
            there = voice_room(target)
            if there is None or there == here:
                continue
            if level(there) >= level(here):
                problems.append(f"{source} -> {target}")
    assert not problems, "voice rooms importing sideways or upward:\n" + "\n".join(problems)
