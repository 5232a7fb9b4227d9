"""The memory service: typed handlers over recall, contradictions and storage, the single
writer and its op records, maintenance scheduling, start-up recovery from the write-ahead
log, degraded mode, events, exports and stats. It takes typed requests (`omegad.requests`)
and never imports the RPC layer (`omegad.rpc`), which sits above it.
"""
