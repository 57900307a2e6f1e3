"""The ``eudify`` command the package installs: the Rust CLI (``eudify --help``), run in this
process, with the binary's output, messages and exit codes."""

from __future__ import annotations

import signal
import sys

from . import _eudify


def main() -> None:
    # Ctrl-C ends the run at once, as it ends the binary: the work runs without the GIL, so
    # Python's own handler would only raise KeyboardInterrupt once the run is over. (SIGPIPE is
    # ignored already, as in Rust binaries: a closed stdout is an error the CLI ends quietly on.)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.exit(_eudify.run_cli(sys.argv))


if __name__ == "__main__":
    main()
