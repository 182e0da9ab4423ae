"""_library.py - loads libttt with ctypes and declares the C structures and every function's prototype."""

from __future__ import annotations

import ctypes
import os
from typing import Optional

from ._errors import _path

# ---------------------------------------------------------------------------
# The C declarations


class _Game(ctypes.Structure):
    """struct ttt_game: opaque, only ever used through a pointer."""


class _Event(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int32), ("mark", ctypes.c_int32),
                ("row", ctypes.c_int32), ("col", ctypes.c_int32),
                ("ply", ctypes.c_int32), ("state", ctypes.c_int32)]


class _Solution(ctypes.Structure):
    """struct ttt_solution: size must be set to sizeof before the call."""
    _fields_ = [("size", ctypes.c_size_t), ("value", ctypes.c_int32),
                ("plies", ctypes.c_int32), ("nodes", ctypes.c_uint64),
                ("value_min", ctypes.c_int32), ("value_max", ctypes.c_int32),
                ("method", ctypes.c_int32), ("reserved", ctypes.c_int32)]


_GameP = ctypes.POINTER(_Game)
_LISTENER = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.POINTER(_Event))

_int, _size, _char_p = ctypes.c_int, ctypes.c_size_t, ctypes.c_char_p
_int_p = ctypes.POINTER(ctypes.c_int)
_size_p = ctypes.POINTER(ctypes.c_size_t)
_buf = ctypes.POINTER(ctypes.c_char)  # a writable char buffer
_u64, _u64_p = ctypes.c_uint64, ctypes.POINTER(ctypes.c_uint64)
_i32_p = ctypes.POINTER(ctypes.c_int32)
_SIZE_BITS = 8 * ctypes.sizeof(ctypes.c_size_t)

# name: (restype, argtypes). Every one is required: a library without one of
# them (older than 1.3) is refused when it is loaded. The constructors that
# take an allocator or caller memory are C-only: a Game's memory is malloc's.
_PROTOTYPES = {
    "ttt_version": (_int, []),
    "ttt_version_string": (_char_p, []),
    "ttt_strerror": (_char_p, [_int]),
    "ttt_game_new": (_int, [_int, _int, ctypes.POINTER(_GameP)]),
    "ttt_game_free": (None, [_GameP]),
    "ttt_game_footprint": (_size, [_int, _int]),
    "ttt_game_new_rect": (_int, [_int, _int, _int, ctypes.POINTER(_GameP)]),
    "ttt_game_footprint_rect": (_size, [_int, _int, _int]),
    "ttt_game_clone": (_int, [_GameP, ctypes.POINTER(_GameP)]),
    "ttt_game_reset": (_int, [_GameP]),
    "ttt_game_set_rule": (_int, [_GameP, _int, _int]),
    "ttt_game_get_rule": (_int, [_GameP, _int, _int_p]),
    "ttt_play": (_int, [_GameP, _int, _int, _int, _int_p]),
    "ttt_play_next": (_int, [_GameP, _int, _int, _int_p]),
    "ttt_play_at": (_int, [_GameP, _int, _int, _int, _int, _int_p]),
    "ttt_undo": (_int, [_GameP]),
    "ttt_redo": (_int, [_GameP]),
    "ttt_drop": (_int, [_GameP, _int, _int_p, _int_p]),
    "ttt_game_set_name": (_int, [_GameP, _int, _char_p, _size]),
    "ttt_game_get_name": (_int, [_GameP, _int, _buf, _size, _size_p]),
    "ttt_resign": (_int, [_GameP, _int, _int_p]),
    "ttt_agree_draw": (_int, [_GameP, _int_p]),
    "ttt_ending": (_int, [_GameP]),
    "ttt_state": (_int, [_GameP]),
    "ttt_size": (_int, [_GameP]),
    "ttt_width": (_int, [_GameP]),
    "ttt_height": (_int, [_GameP]),
    "ttt_win_length": (_int, [_GameP]),
    "ttt_ply": (_int, [_GameP]),
    "ttt_redo_count": (_int, [_GameP]),
    "ttt_to_move": (_int, [_GameP]),
    "ttt_cell": (_int, [_GameP, _int, _int, _int_p]),
    "ttt_move_at": (_int, [_GameP, _int, _int_p, _int_p, _int_p]),
    "ttt_winning_line": (_int, [_GameP, _int_p, _int_p, _int_p, _int_p]),
    "ttt_board": (_int, [_GameP, ctypes.POINTER(ctypes.c_int8), _size, _size_p]),
    "ttt_legal_moves": (_int, [_GameP, _i32_p, _size, _size_p]),
    "ttt_set_listener": (_int, [_GameP, _LISTENER, ctypes.c_void_p]),
    "ttt_cell_name": (_int, [_int, _int, _buf, _size, _size_p]),
    "ttt_parse_cell": (_int, [_char_p, _size, _int_p, _int_p, _size_p]),
    "ttt_game_save": (_int, [_GameP, _buf, _size, _size_p]),
    "ttt_game_load": (_int, [_char_p, _size, ctypes.c_void_p,
                             ctypes.POINTER(_GameP), _size_p]),
    "ttt_random_move": (_int, [_GameP, _u64_p, _int_p, _int_p]),
    "ttt_random_playout": (_int, [_GameP, _u64_p, _int_p]),
    "ttt_random_playouts": (_int, [_GameP, _u64_p, _u64, _u64_p]),
    "ttt_perft": (_int, [_GameP, _int, _size, _u64_p, _u64_p, _size, _size_p]),
    "ttt_count_positions": (_int, [_GameP, _int, _size, _u64_p]),
    "ttt_solve": (_int, [_GameP, _u64, _size, _int, ctypes.POINTER(_Solution),
                         _i32_p, _size, _size_p]),
    "ttt_best_move": (_int, [_GameP, _int, _u64, _u64_p, _int_p, _int_p]),
}

ENV_VAR = "LIBTTT_PATH"
# The library pip installed next to this file.
_BUNDLED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "libttt.so")

_libraries = {}


def library_path() -> str:
    """The library the package loads: $LIBTTT_PATH if set, else its own copy."""
    return os.environ.get(ENV_VAR) or _BUNDLED


def load_library(path: Optional[str] = None) -> ctypes.CDLL:
    """Loads libttt (cached per path) and declares every function's types.

    path defaults to library_path(). Raises OSError, naming the path, if the
    library cannot be loaded or lacks a function this package calls."""
    path = library_path() if path is None else _path(path, "path")
    lib = _libraries.get(path)
    if lib is not None:
        return lib
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        raise OSError("libttt could not be loaded from %s (%s)" % (path, e)) from e
    missing = [name for name in _PROTOTYPES if not hasattr(lib, name)]
    if missing:
        raise OSError("%s is not libttt 1.3 or later: it lacks %s"
                      % (path, ", ".join(missing)))
    for name, (restype, argtypes) in _PROTOTYPES.items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes
    _libraries[path] = lib
    return lib


# The library is loaded when the package is imported, so a missing or wrong
# one is an ImportError at once, never a skipped test or a late surprise.
try:
    _lib = load_library()
except OSError as _e:
    raise ImportError(
        "ttt: %s. The package's own libttt.so is missing: reinstall it "
        "(python3 -m pip install --no-build-isolation .), or set %s to a "
        "libttt shared library." % (_e, ENV_VAR)) from _e


def has_engine(lib_path: Optional[str] = None) -> bool:
    """True if the library has the engine (solve, best_move, perft, ...);
    always so for the 1.3 libraries this package loads."""
    return hasattr(load_library(lib_path), "ttt_solve")


def version(lib_path: Optional[str] = None) -> str:
    """The loaded library's version string, e.g. "1.5.0"."""
    return load_library(lib_path).ttt_version_string().decode()
