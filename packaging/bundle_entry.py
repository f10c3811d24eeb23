"""The bundle's one executable: the window, `turnlog-cli`, or the built-in model's server.

Turnlog starts its child processes (`turnlog.system.children`) as `<sys.executable> -m MODULE …`:
the built-in model's server, the formula typesetter, the PDF reader. In the bundle
`sys.executable` is this program, so that form is answered here for those modules.
`turnlog-cli` is a link to this program; the name it was started by picks the command line.
Both keep their dataclasses' methods as a source install does (`turnlog.system.compiled_methods`),
in the bundle, where the build put them (packaging/keep_methods.py).
"""

import os
import runpy
import sys

CHILD_MODULES = ("llama_cpp.server", "turnlog.ui.transcript.typesetting",
                 "turnlog.formats.pdf_text")


def main() -> int:
    args = sys.argv[1:]
    if len(args) >= 2 and args[0] == "-m" and args[1] in CHILD_MODULES:
        sys.argv = [sys.argv[0], *args[2:]]
        runpy.run_module(args[1], run_name="__main__", alter_sys=True)
        return 0
    if os.path.basename(sys.argv[0]) == "turnlog-cli":
        from turnlog.cli import main as cli

        return cli()  # its own command line, as the installed `turnlog-cli` script runs it
    from turnlog.app import main as window

    return window()


if __name__ == "__main__":
    raise SystemExit(main())
