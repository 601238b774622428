"""The bytes a terminal sends for each key (VT/xterm escape sequences), as key names.

Pure decoding, no terminal calls: the POSIX reader uses it, and the Windows reader for
the ordinary characters of a burst (and for the sequences a VT-mode console sends).
"""

from __future__ import annotations

from voice_spades.keys.names import UNKNOWN_KEY

ESC = 0x1B

_CSI_FINAL = {"A": "up", "B": "down", "C": "right", "D": "left", "H": "home", "F": "end",
              "P": "f1", "Q": "f2", "R": "f3", "S": "f4"}
_SS3_FINAL = {**_CSI_FINAL, "M": "enter"}
_TILDE = {1: "home", 7: "home", 4: "end", 8: "end", 2: "insert", 3: "delete", 5: "page_up",
          6: "page_down", 11: "f1", 12: "f2", 13: "f3", 14: "f4", 15: "f5", 17: "f6",
          18: "f7", 19: "f8", 20: "f9", 21: "f10", 23: "f11", 24: "f12"}
_CONTROL = {0x0D: "enter", 0x0A: "enter", 0x09: "tab", 0x7F: "backspace", 0x08: "backspace",
            0x20: "space"}


def decode(data: bytes) -> list[str]:
    """The key names in a burst of terminal input (several keys may arrive at once).

    >>> decode(b"hH\\x0e\\x1b[A\\x1b[1;2P\\r")
    ['h', 'shift+h', 'ctrl+n', 'up', 'shift+f1', 'enter']
    """
    keys: list[str] = []
    i = 0
    while i < len(data):
        key, i = _decode_one(data, i)
        keys.append(key)
    return keys


def _decode_one(data: bytes, i: int) -> tuple[str, int]:
    byte = data[i]
    if byte == ESC:
        return _decode_escape(data, i)
    if byte in _CONTROL:
        return _CONTROL[byte], i + 1
    if byte < 0x20:
        return (f"ctrl+{chr(byte + 0x60)}" if 1 <= byte <= 26 else UNKNOWN_KEY), i + 1
    if byte < 0x80:
        char = chr(byte)
        return (f"shift+{char.lower()}" if char.isupper() else char), i + 1
    # A UTF-8 character: no key of ours, but say which one it was.
    length = 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
    return data[i:i + length].decode("utf-8", "replace"), i + length


def _decode_escape(data: bytes, i: int) -> tuple[str, int]:
    if i + 1 >= len(data) or data[i + 1] not in b"[O":
        return "escape", i + 1
    if data[i + 1] == ord("O"):
        if i + 2 >= len(data):
            return "escape", i + 1
        return _SS3_FINAL.get(chr(data[i + 2]), UNKNOWN_KEY), i + 3
    j = i + 2
    if j < len(data) and data[j] == ord("["):  # Linux console F1-F5: ESC [ [ A..E
        if j + 1 < len(data):
            return {ord(c): f"f{n}" for n, c in enumerate("ABCDE", 1)}.get(
                data[j + 1], UNKNOWN_KEY), j + 2
        return UNKNOWN_KEY, j + 1
    start = j
    while j < len(data) and 0x20 <= data[j] <= 0x3F:
        j += 1
    if j >= len(data):
        return UNKNOWN_KEY, j
    params, final = data[start:j].decode("ascii", "replace"), chr(data[j])
    if final == "~":
        number = params.split(";")[0]
        key = _TILDE.get(int(number), UNKNOWN_KEY) if number.isdigit() else UNKNOWN_KEY
    else:
        key = _CSI_FINAL.get(final, UNKNOWN_KEY)
    return _with_shift(key, params), j + 1


def _with_shift(key: str, params: str) -> str:
    """Shift+F1 is "ESC [ 1 ; 2 P" (modifier 2 is Shift): the function keys take it."""
    if key.startswith("f") and key[1:].isdigit() and params.split(";")[1:2] == ["2"]:
        return f"shift+{key}"
    return key


def incomplete_sequence(data: bytes) -> bool:
    """True when ``data`` ends inside an escape sequence (the rest may be on its way)."""
    start = data.rfind(bytes([ESC]))
    if start < 0 or len(data) - start > 8:
        return False
    tail = data[start + 1:]
    if tail in (b"[", b"O", b"[["):
        return True
    return tail.startswith(b"[") and all(0x20 <= b <= 0x3F for b in tail[1:])
