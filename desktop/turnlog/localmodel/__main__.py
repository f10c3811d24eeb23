"""`python -m turnlog.localmodel`: which llama.cpp build is installed; exit 1 unless it is
the portable one (packaging/pip-install and packaging/build-bundle.sh run it)."""

from .build import main

raise SystemExit(main())
