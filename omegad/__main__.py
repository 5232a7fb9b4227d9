from omegad.cli import main

raise SystemExit(main())
