from turnlog.cli import main

raise SystemExit(main())
