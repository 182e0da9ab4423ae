"""python3 -m ttt [COMMAND ARGS...]: the ttt program bundled with the package (no arguments: ttt play)."""

import os
import sys

# The ttt command-line program, built from the same sources as `ttt` and
# linked to the libttt.so next to it.
PROGRAM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ttt-cli")


def main(argv=None):
    """Runs the ttt program in place of this process: `python3 -m ttt` plays
    a game in the terminal, `python3 -m ttt solve 3 b2` solves, and so on
    (`python3 -m ttt --help` lists the commands)."""
    args = sys.argv[1:] if argv is None else list(argv)
    if not os.access(PROGRAM, os.X_OK):
        sys.exit("ttt: the bundled program %s is missing; reinstall the package"
                 % PROGRAM)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(PROGRAM, ["ttt"] + (args or ["play"]))


if __name__ == "__main__":
    main()
