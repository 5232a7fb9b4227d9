"""The RPC layer: everything between the Unix socket and the service.

Owns:
- `server`: the listening socket, connections, framing, backpressure, and the methods that
  act on a connection itself (``cancel``, ``subscribe``, ``unsubscribe``);
- `registry`: one row per method (params keys, parser, handler, access rule, scope);
- `dispatch`: envelope checks, the access check and the handler call; the one place where
  exceptions become error replies;
- `fields` (reading one value of a params map) and `schema` (one parser per method into the
  typed requests of `omegad.requests`, which live below this package with the service);
- `access`: reading a peer's credentials and applying the ``[[access.grant]]`` rules
  (parsed by `omegad.grants`) to each request.

The daemon's exceptions (`omegad.errors`) and the grants live below this package: every layer
raises those errors and the configuration parses the grants, and neither may import the RPC
layer (the import-linter contracts in pyproject.toml check what they can).

May import: `fields`, `schema` and `access` import nothing from omegad but `omegad.config`,
`omegad.errors`, `omegad.grants`, `omegad.requests` (and each other); nothing below this
package imports any of it (the service takes `omegad.requests` and raises `omegad.errors`). `registry`, `dispatch` and `server`
are the top layer: they may import the service and what it is built from, and only the
daemon's process (`omegad.daemon`) imports them. This file imports nothing, so that
importing a leaf does not load the top.
"""
