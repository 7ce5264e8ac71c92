from tracker.cli import main

raise SystemExit(main())
