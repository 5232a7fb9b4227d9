"""Storage: the memories table and its side tables on LanceDB, and what keeps them durable.

Owns the rows and table helpers, tombstones, readers, search, index state and caches,
maintenance passes (run in a child process by `lanceops`), the vector-index build
(`indexer`), the feedback and access signals table, fsync helpers and the write-ahead log.
Imports only the shared modules (`omegad.config`, `omegad.errors`, `omegad.timeutil`,
`omegad.logs`): nothing of recall, contradictions, the service or the RPC layer.
"""

from omegad.storage.deferred import defer_namespace_client

# before anything here imports lancedb (omegad/storage/deferred.py)
defer_namespace_client()
