"""``python -m omegad_mcp``: the same as the ``omegad-mcp`` command."""

from . import main

raise SystemExit(main())
