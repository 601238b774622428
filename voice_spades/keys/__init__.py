"""Keyboard input: the keymap (keymap.toml), terminal key reading, and the layer that
turns key presses into session intents."""

from voice_spades.keys.actions import ACTIONS
from voice_spades.keys.help import help_text, hints, key_help, key_lister
from voice_spades.keys.keyboard import KeyboardInput
from voice_spades.keys.keymap import Keymap, load_keymap
from voice_spades.keys.names import key_label, parse_key
from voice_spades.keys.terminal import TerminalKeys, decode, key_mode

__all__ = ["ACTIONS", "KeyboardInput", "Keymap", "TerminalKeys", "decode", "help_text",
           "hints", "key_help", "key_label", "key_lister", "key_mode", "load_keymap", "parse_key"]
