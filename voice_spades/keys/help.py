"""What the keys are, in words: the help list and the key names used in prompts."""

from __future__ import annotations

from voice_spades.keys.actions import action_description
from voice_spades.keys.keymap import Keymap
from voice_spades.keys.names import key_label
from voice_spades.narration import Hints, render
from voice_spades.narration.catalog import catalog


def help_text(keymap: Keymap) -> str:
    """Every binding, spoken: "Keys: B your bid; C cards on the table; ..."."""
    parts: list[str] = []
    digits = [f"digit_{d}" for d in range(10)]
    for action in keymap.bindings.get("keys", {}):
        if action in digits[1:]:
            continue
        if action == "digit_0":
            parts.append(render("help.key", keys=_digit_labels(keymap, digits),
                                action=render("action.digits")))
            continue
        labels = _labels(keymap, action, "keys")
        if labels:
            parts.append(render("help.key", keys=labels, action=action_description(action)))
    question = [render("help.key", keys=labels, action=action_description(action))
                for action in keymap.bindings.get("question", {})
                if (labels := _labels(keymap, action, "question"))]
    text = render("word.group_sep").join(parts)
    if question:
        return render("help.keys_question", keys=text,
                      question=render("word.group_sep").join(question))
    return render("help.keys", keys=text)


def hints(keymap: Keymap) -> Hints:
    """The key names used in prompts ("press Enter")."""
    default = Hints()
    return Hints(confirm=keymap.label_for("play", default=default.confirm),
                 mark=keymap.label_for("mark", default=default.mark),
                 nil=keymap.label_for("nil", default=default.nil),
                 help=keymap.label_for("help", default=default.help),
                 new=keymap.label_for("new_game", default=default.new),
                 quit=keymap.label_for("save_and_quit", default=default.quit))


def _labels(keymap: Keymap, action: str, section: str) -> str:
    return catalog().join([key_label(k) for k in keymap.keys_for(action, section)],
                          joiner="word.or")


def _digit_labels(keymap: Keymap, digits: list[str]) -> str:
    keys = [k for d in digits for k in keymap.keys_for(d)]
    if [key_label(k) for k in keys] == [str(d) for d in range(10)]:
        return render("word.bid_range", low=0, high=9)
    return render("word.list_sep").join(key_label(k) for k in keys)
