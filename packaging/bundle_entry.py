"""The bundle's one executable: the window, `turnlog-cli`, or the built-in model's server.

`turnlog.localmodel` starts its server as `<sys.executable> -m llama_cpp.server …`; in the
bundle `sys.executable` is this program, so that form is answered here. `turnlog-cli` is a
link to this program; the name it was started by picks the command line. The answers'
formula typesetter (a `multiprocessing` child) runs as this program too.
"""

import multiprocessing
import os
import runpy
import sys


def main() -> int:
    # The formula typesetter is a spawned child: in the bundle it is this program again,
    # and this answers it.
    multiprocessing.freeze_support()
    args = sys.argv[1:]
    if args[:2] == ["-m", "llama_cpp.server"]:
        sys.argv = [sys.argv[0], *args[2:]]
        runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)
        return 0
    if os.path.basename(sys.argv[0]) == "turnlog-cli":
        from turnlog.cli import main as cli

        return cli(args)
    from turnlog.app import main as window

    return window()


if __name__ == "__main__":
    raise SystemExit(main())
