from turnlog.app import main

raise SystemExit(main())
