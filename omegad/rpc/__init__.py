"""The RPC layer: everything between the Unix socket and the service.

Owns:
- `server`: the listening socket, connections, framing, backpressure, and the methods that
  act on a connection itself (``cancel``, ``subscribe``, ``unsubscribe``);
- `registry`: one row per method (params keys, parser, handler, access rule, scope);
- `dispatch`: envelope checks, the access check and the handler call; the one place where
  exceptions become error replies;
- `params` (the typed params handlers receive), `fields` (reading one value of a params map)
  and `schema` (one parser per method);
- `access`: reading a peer's credentials and applying the ``[[access.grant]]`` rules
  (parsed by `omegad.grants`) to each request.

The daemon's exceptions (`omegad.errors`) and the grants live below this package: every layer
raises those errors and the configuration parses the grants, and neither may import the RPC
layer (the import-linter contracts in pyproject.toml check what they can).

May import: `params`, `fields`, `schema` and `access` are leaves: they import nothing from
omegad but `omegad.config`, `omegad.errors`, `omegad.grants` (and each other), and every other
layer may import them (handlers take typed params and raise these errors). `registry`, `dispatch` and `server`
are the top layer: they may import the service and what it is built from, and only the
daemon's lifecycle (`omegad.server`) imports them. This file imports nothing, so that
importing a leaf does not load the top.
"""
