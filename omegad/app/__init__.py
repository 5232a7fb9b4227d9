"""The memory service: typed handlers over recall, contradictions and storage.

Owns the composition root (`build`: `build_service(config)`), the parts composed (`service`),
the single writer and its op records (`writer`, `ops`), maintenance scheduling
(`maintenance`), the handlers by topic (`memories`, `query`, `graph`, `exports`, `admin`,
`stats`), the watchers (`watch`), start-up recovery from the write-ahead log (`recovery`),
degraded mode (`faults`), events, exports' line format (`backup`) and the heap.

May import `omegad.contradictions`, `omegad.recall`, `omegad.storage`, `omegad.models` and the
shared modules. It takes typed requests (`omegad.requests`) and never imports the RPC layer
(`omegad.rpc`), the process (`omegad.daemon`) or the command line, which sit above it.
"""
