from omegad.cli.main import main

raise SystemExit(main())
