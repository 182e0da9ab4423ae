"""_notation.py - cell names ("b2" <-> (1, 1)): the library's parser, and a Python fast path for well-formed names."""

from __future__ import annotations

import ctypes
import re
from typing import Optional, Tuple

from ._errors import _c_int, _check, _encode_record, _error, _text
from ._library import load_library
from ._types import E_PARSE, MAX_SIZE


def cell_name(row: int, col: int, lib_path: Optional[str] = None) -> str:
    """(1, 1) -> "b2"."""
    lib = load_library(lib_path)
    buf = ctypes.create_string_buffer(16)
    length = ctypes.c_size_t()
    _check(lib, lib.ttt_cell_name(_c_int(row, "row"), _c_int(col, "col"), buf, len(buf),
                                  ctypes.byref(length)))
    return buf.value.decode()


def parse_cell(name: str, lib_path: Optional[str] = None) -> Tuple[int, int]:
    """"b2" -> (1, 1). The whole string must be one cell name (ParseError
    with .offset otherwise)."""
    return _parse_cell(load_library(lib_path), name)


def _parse_cell(lib, name: str) -> Tuple[int, int]:
    data = _encode_record(lib, _text(name, "a cell name"))
    row, col, used = ctypes.c_int(), ctypes.c_int(), ctypes.c_size_t()
    status = lib.ttt_parse_cell(data, len(data), ctypes.byref(row),
                                ctypes.byref(col), ctypes.byref(used))
    _check(lib, status, 0, _CELL_NAME_RULE % name)
    if used.value != len(data):
        raise _error(lib, E_PARSE, used.value, _CELL_NAME_RULE % name)
    return row.value, col.value


_CELL_NAME_RULE = ("%r is not a cell name: column letters then a row number "
                   "from 1, e.g. b2 (column b, row 2)")


# Cell names as ttt_parse_cell reads them: column letters (bijective base
# 26, either case) then a 1-based row without leading zeros.
_CELL_NAME = re.compile(r"([a-zA-Z]{1,3})([1-9][0-9]{0,3})\Z")


def _parse_name(lib, name: str) -> Tuple[int, int]:
    """parse_cell without a foreign call for well-formed names; anything
    else goes to ttt_parse_cell for its exact error and offset."""
    match = _CELL_NAME.match(_text(name, "a cell name"))
    if match:
        col = 0
        for letter in match.group(1).lower():
            col = col * 26 + ord(letter) - 96
        row = int(match.group(2))
        if col <= MAX_SIZE and row <= MAX_SIZE:
            return row - 1, col - 1
    return _parse_cell(lib, name)


# A column alone, as the CLI takes a move under gravity: "d".
_COLUMN_NAME = re.compile(r"[a-zA-Z]{1,3}\Z")


def _parse_column(lib, name: str) -> int:
    """A column's letters -> its index: "a" -> 0, "aa" -> 26."""
    if not _COLUMN_NAME.match(name):
        raise _error(lib, E_PARSE, 0, "%r is not a column: column letters, "
                     "e.g. d (the fourth column)" % (name,))
    col = 0
    for letter in name.lower():
        col = col * 26 + ord(letter) - 96
    return col - 1


def _column_letters(col: int) -> str:
    """The letters of a column's name: 0 -> "a", 26 -> "aa"."""
    letters = ""
    col += 1
    while col:
        col, rest = divmod(col - 1, 26)
        letters = chr(97 + rest) + letters
    return letters
