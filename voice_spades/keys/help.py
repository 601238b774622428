"""What the keys are, in words: the help for now (a few keys at a time, by phase), the
full key list (a key at a time, or one long line), and the key names used in prompts."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from voice_spades.engine import Phase
from voice_spades.keys.actions import action_description
from voice_spades.keys.keymap import Keymap
from voice_spades.keys.names import key_label
from voice_spades.narration import Hints, render
from voice_spades.narration.catalog import CATALOG, catalog
from voice_spades.session import GrammarContext

PAGE_SIZE = 4
"""Keys said per press of the help key."""

TWO_PLAYER_ACTIONS = frozenset({"keep", "discard", "mark"})
SHARED_TABLE_ACTIONS = frozenset({"chat", "mute_chat"})
"""Keys that work only at a shared table: said among the keys for now only there."""
"""Actions that only the two-player game has: left out of other games' help."""

_DIGITS = tuple(f"digit_{d}" for d in range(10))
_JUMPS = ("jump_spades", "jump_hearts", "jump_diamonds", "jump_clubs")

_NOW: dict[Phase, tuple[str, ...]] = {
    Phase.BID: ("digits", "nil", "bid", "hand", "hint", "bids", "game_info"),
    Phase.PLAY: ("play", "next_card", "previous_card", "next_suit", "previous_suit",
                 "current_card", "hint", "legal", "table", "highest", "lowest", "jumps",
                 "last_trick", "hand", "game_info"),
    Phase.DRAW: ("keep", "discard", "hint", "hand"),
    Phase.BLIND_NIL: ("hint", "scores"),
    Phase.EXCHANGE: ("mark", "next_card", "previous_card", "next_suit", "play", "hint",
                     "hand"),
}
"""The keys for the player's own turn, most needed first, by phase."""
_WAITING = ("table", "whose_turn", "hand", "game_info", "last_trick", "tricks_needed", "bids",
            "scores")
"""The keys while someone else is to act."""
_OVER = ("new_game", "save_and_quit", "scores")
"""The keys once the match is over."""
_ALWAYS = ("repeat", "previous_message", "next_message", "newest_message", "scores",
           "whose_turn", "tricks_needed", "next_player", "previous_hand", "target", "cancel",
           "faster", "slower", "verbosity", "save_and_quit", "new_game", "all_keys")
"""Keys for any moment, after those for now."""
_QUESTION = ("yes", "no", "confirm", "cancel")
"""The answer keys, first while a question waits."""
_DECISION: dict[Phase, tuple[tuple[str, str], ...]] = {
    Phase.DRAW: (("keep", "keys"), ("discard", "keys"), ("confirm", "question")),
    Phase.BLIND_NIL: (("yes", "question"), ("no", "question"), ("confirm", "question")),
}
"""At a two-way decision on the player's turn, its two answers come first (action and
keymap section), then what Enter does there."""
_NEXT = ("all_keys", "next_suit", "next_message")
_BACK = ("previous_suit", "previous_message")
"""The keys named as stepping a help list forward and back (their first keys)."""
_PHASE_ONLY = frozenset({"bid", "nil", "play", "keep", "discard", "mark", "yes", "no"})
"""Keys that do something only in their own phase: said only there."""


def help_text(keymap: Keymap, players: int | None = None) -> str:
    """Every binding, spoken: "Keys: B your bid; C cards on the table; ...". With
    ``players``, keys of the two-player game are left out of other games."""
    parts, question = _every_key(keymap, players)
    text = render("word.group_sep").join(parts)
    if question:
        return render("help.keys_question", keys=text,
                      question=render("word.group_sep").join(question))
    return render("help.keys", keys=text)


def _every_key(keymap: Keymap, players: int | None) -> tuple[list[str], list[str]]:
    """Every binding worded ("B your bid"): the keys, and the answer keys."""
    parts: list[str] = []
    for action in keymap.bindings.get("keys", {}):
        if action in _DIGITS[1:] or not _in_game(action, players):
            continue
        item = _item(keymap, "digits" if action == "digit_0" else action)
        if item:
            parts.append(item)
    question = [item for action in keymap.bindings.get("question", {})
                if (item := _item(keymap, action, "question"))]
    return parts, question


def key_list(keymap: Keymap, context: GrammarContext, index: int,
             opening: bool = False) -> list[str]:
    """Every key of this game, item ``index`` (counted from 0, wrapping round) as one
    short line a braille display shows whole: "3 of 60: F suit led." With ``opening``,
    a line saying how to step through the list and leave it comes first."""
    keys, question = _every_key(keymap, context.view.rules.players)
    items = [*keys, *(render("help.list_question", item=item) for item in question)]
    index %= len(items)
    lines = [render("help.list_item", number=index + 1, count=len(items), item=items[index])]
    if opening:
        lines.insert(0, render("help.list_intro", count=len(items),
                               next=_first_keys(keymap, _NEXT), back=_first_keys(keymap, _BACK),
                               leave=_labels(keymap, "cancel", "question")))
    return lines


def _first_keys(keymap: Keymap, actions: Iterable[str]) -> str:
    """The first key of each of ``actions`` that has one, joined with "or"."""
    return _joined([key_label(keys[0]) for a in actions if (keys := keymap.keys_for(a))])


def phase_help(keymap: Keymap, context: GrammarContext, page: int) -> str:
    """The keys for now, page ``page`` (counted from 0, wrapping round): first what the
    player can do in this phase, then what works at any time; :data:`PAGE_SIZE` keys a
    page, each page saying how to hear the next one."""
    items = now_items(keymap, context)
    pages = max(1, -(-len(items) // PAGE_SIZE))
    page %= pages
    chosen = items[page * PAGE_SIZE:(page + 1) * PAGE_SIZE]
    more_key = keymap.label_for("help", default=Hints().help)
    step, back = _first_keys(keymap, _NEXT[1:2]), _first_keys(keymap, _BACK[:1])
    if page + 1 < pages:
        follow = render("help.more", key=more_key, next=step, back=back)
    else:
        follow = render("help.end", key=more_key, next=step, back=back,
                        all=keymap.label_for("all_keys", default=more_key))
    return render("help.page", page=page + 1, pages=pages,
                  items=render("word.group_sep").join(chosen), next=follow)


def now_items(keymap: Keymap, context: GrammarContext) -> list[str]:
    """Every key worth knowing now, worded, most needed first."""
    view = context.view
    players = view.rules.players
    if context.over:
        order: Iterable[str] = _OVER
    elif view.is_my_turn:
        order = _NOW.get(view.phase, ())
    else:
        order = _WAITING
    phase = view.phase.value if view.is_my_turn and not context.over else "waiting"
    items: list[str] = []
    decision = _DECISION.get(view.phase, ()) if view.is_my_turn and not context.over else ()
    if decision:  # the two answers first, worded for this decision
        items += [_item(keymap, action, section, phase) for action, section in decision]
    elif context.question is not None:
        items += [_item(keymap, action, "question") for action in _QUESTION]
    named = set(order) | set(_ALWAYS)
    extra = [a for a in keymap.bindings.get("keys", {})
             if a not in named and a not in _DIGITS and a not in _JUMPS and a != "help"
             and a not in _PHASE_ONLY]
    for action in (*order, *_ALWAYS, *extra):
        if _in_game(action, players) and (context.shared or action not in SHARED_TABLE_ACTIONS):
            items.append(_item(keymap, action, phase=phase))
    return list(dict.fromkeys(item for item in items if item))


def hints(keymap: Keymap) -> Hints:
    """The key names used in prompts ("press Enter")."""
    default = Hints()
    return Hints(confirm=keymap.label_for("play", default=default.confirm),
                 mark=keymap.label_for("mark", default=default.mark),
                 nil=keymap.label_for("nil", default=default.nil),
                 help=keymap.label_for("help", default=default.help),
                 new=keymap.label_for("new_game", default=default.new),
                 quit=keymap.label_for("save_and_quit", default=default.quit),
                 yes=keymap.label_for("yes", "question", default=default.yes),
                 no=keymap.label_for("no", "question", default=default.no),
                 keep=keymap.label_for("keep", default=default.keep),
                 discard=keymap.label_for("discard", default=default.discard))


def _in_game(action: str, players: int | None) -> bool:
    return players is None or players == 2 or action not in TWO_PLAYER_ACTIONS


def _item(keymap: Keymap, action: str, section: str = "keys", phase: str = "") -> str:
    """"Enter play the card under the cursor", or "" for an action with no key."""
    if action == "digits":
        keys = _digit_labels(keymap)
        description = render("action.digits")
    elif action == "jumps":
        keys = _joined([key_label(k) for a in _JUMPS for k in keymap.keys_for(a)])
        description = render("action.jumps")
    else:
        keys = _labels(keymap, action, section)
        specific = f"help.{phase}.{action}"
        description = render(specific) if specific in CATALOG else action_description(action)
    return render("help.key", keys=keys, action=description) if keys else ""


def _labels(keymap: Keymap, action: str, section: str) -> str:
    return _joined([key_label(k) for k in keymap.keys_for(action, section)])


def _joined(labels: list[str]) -> str:
    return catalog().join(labels, joiner="word.or")


def _digit_labels(keymap: Keymap) -> str:
    keys = [k for d in _DIGITS for k in keymap.keys_for(d)]
    if [key_label(k) for k in keys] == [str(d) for d in range(10)]:
        return render("word.bid_range", low=0, high=9)
    return render("word.list_sep").join(key_label(k) for k in keys)


def key_lister(keymap: Keymap) -> Callable[[GrammarContext, int, bool], list[str]]:
    """The session's every-key hook: :func:`key_list` over ``keymap``."""
    return lambda context, index, opening: key_list(keymap, context, index, opening)


def key_help(keymap: Keymap) -> Callable[[GrammarContext, int | None], str]:
    """The session's key help hook: the keys for now, page ``page`` (counted from 0), or
    every key of this game with None."""
    def answer(context: GrammarContext, page: int | None) -> str:
        if page is None:
            return help_text(keymap, context.view.rules.players)
        return phase_help(keymap, context, page)
    return answer
