"""Recall: from a query text to ranked memories.

Owns the sentence embedder, the query pipeline's stages, the in-memory copy of small
namespaces for exact neighbour search, and the cross-encoder rerank (session, breaker,
cache, stage). Imports storage, models and the shared modules; never the service or RPC.
"""
