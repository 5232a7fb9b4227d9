"""The composition root: a `Service` built from the configuration, apart from running it
(`omegad.daemon.lifecycle` runs it behind the RPC server)."""

from __future__ import annotations

import anyio

from omegad.app.faults import EMBEDDER_FIX
from omegad.app.service import Service
from omegad.app.team import Team, team_config
from omegad.config import Config
from omegad.contradictions.edges import EdgeStore
from omegad.errors import StartupError
from omegad.models.files import FUSED_DIR, ModelMissing, resolve_embedding
from omegad.recall.embed import Embedder, UnloadedEmbedder
from omegad.storage.bucket import BucketError
from omegad.storage.rows import StoreMismatch
from omegad.storage.store import MemoryStore, read_store_meta

__all__ = ["build_service", "load_embedder"]


def load_embedder(config: Config) -> Embedder:
    """Find and load the embedding model (blocking); raises `ModelMissing` saying what to do."""
    files = resolve_embedding(config.embedding_model_dir, config.model_cache_dir)
    return Embedder(
        files,
        threads=config.embedding_threads,
        batch_size=config.embed_batch_size,
        spinning=config.embedding_spinning,
        fused_dir=config.model_cache_dir / FUSED_DIR if config.embedding_fused else None,
        weights8=config.embedding_weights8,
        idle_s=config.embedding_idle_s,
    )


async def build_service(config: Config) -> Service:
    """Load the embedding model and open the store and the edges (in worker threads), and
    compose the service over them. Without a usable model but with memories stored, the
    service starts degraded (`UnloadedEmbedder`: reads work, the model is reloaded once its
    files change); raises `StartupError` saying what to fix otherwise."""
    embedder: Embedder | UnloadedEmbedder
    team: Team | None = None
    if config.store_uri is not None:
        config = team_config(config)
        try:
            team = await anyio.to_thread.run_sync(Team.open, config)
        except BucketError as exc:
            raise StartupError(str(exc)) from None
    try:
        embedder = await anyio.to_thread.run_sync(load_embedder, config)
    except ModelMissing as exc:
        meta = read_store_meta(config.data_dir) if team is None else None
        if meta is None:  # nothing stored yet: nothing to serve without the model
            text = str(exc)
            raise StartupError(text if "omegad models fetch" in text else f"{text}; fix: {EMBEDDER_FIX}") from None
        # degraded: serve the store's memories (get, export...) and reload the model once its
        # files change (see omegad.app.watch)
        embedder = UnloadedEmbedder(
            str(meta.get("embedding_model")),
            int(meta.get("embedding_dim") or 0),
            str(exc),
            threads=config.embedding_threads,
            batch_size=config.embed_batch_size,
        )
    model_id, dim = embedder.model_id, embedder.dim
    try:
        store = await anyio.to_thread.run_sync(
            lambda: MemoryStore.open(
                config.data_dir,
                model_id,
                dim,
                index_cache_mb=config.index_cache_mb,
                metadata_cache_mb=config.metadata_cache_mb,
                ops_in_child=True,  # (see omegad.storage.lanceops)
                vector_index=config.vector_index,
                rabitq_from_rows=config.rabitq_from_rows,
                min_namespace_rows=config.index_min_namespace_rows,
                team=team.location if team is not None else None,
            )
        )
    except (StoreMismatch, BucketError) as exc:
        raise StartupError(str(exc)) from None
    edges = await anyio.to_thread.run_sync(EdgeStore.open, store, config.data_dir)
    return Service(config, embedder, store, edges, load_embedder=lambda: load_embedder(config), team=team)
