from tooluse1.cli import main

raise SystemExit(main())
