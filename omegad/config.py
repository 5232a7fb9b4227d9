"""Configuration: defaults, then one TOML file, then ``OMEGAD_*`` environment variables.

This module is the only reader of ``os.environ`` in the daemon. Every key is listed in
`docs/configuration.md` (a test checks that the two agree).
"""

from __future__ import annotations

import math
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from omegad.grants import GrantError, parse_grants
from omegad_client.protocol import DEFAULT_MAX_FRAME, MEMORY_TYPES, default_socket_path

__all__ = ["DEFAULT_DECAY_HALF_LIFE_DAYS", "DEFAULT_TYPE_WEIGHTS", "Config", "ConfigError", "load_config"]

#: Multiplicative weight of each memory type in the heuristic score.
DEFAULT_TYPE_WEIGHTS: dict[str, float] = {
    "decision": 1.10,
    "lesson": 1.08,
    "preference": 1.08,
    "error": 1.05,
    "fact": 1.00,
    "memory": 1.00,
    "todo": 0.95,
    "note": 0.95,
    "session": 0.90,
}

#: Half-life, in days, of the recency factor of each memory type (slow for durable kinds).
DEFAULT_DECAY_HALF_LIFE_DAYS: dict[str, float] = {
    "decision": 365.0,
    "preference": 365.0,
    "lesson": 365.0,
    "fact": 180.0,
    "error": 180.0,
    "memory": 180.0,
    "todo": 60.0,
    "note": 120.0,
    "session": 30.0,
}


class ConfigError(ValueError):
    """A configuration value is missing, of the wrong type or out of range."""


@dataclass(frozen=True)
class Config:
    # paths
    socket_path: Path = field(default_factory=lambda: default_socket_path(os.environ))
    data_dir: Path = field(default_factory=lambda: _xdg(os.environ, "XDG_DATA_HOME", ".local/share") / "omegad")
    model_cache_dir: Path = field(
        default_factory=lambda: _xdg(os.environ, "XDG_CACHE_HOME", ".cache") / "omegad" / "models"
    )
    embedding_model_dir: Path | None = None
    hub_endpoint: str = "https://huggingface.co"
    # limits
    max_frame_bytes: int = DEFAULT_MAX_FRAME
    max_text_chars: int = 16_000
    max_batch_items: int = 1_000
    max_query_limit: int = 100
    max_metadata_bytes: int = 16_384
    max_connections: int = 256
    max_inflight_per_connection: int = 64
    socket_mode: int = 0o600
    access_grants: tuple[Any, ...] = ()  # omegad.grants.Grant
    frame_timeout_s: float = 30.0
    shutdown_timeout_s: float = 10.0
    # workers
    embedding_threads: int = 2
    embedding_spinning: bool = False
    embedding_fused: bool = True
    embedding_weights8: bool = False
    embedding_idle_s: float = 300.0  # the model leaves memory after this long unused (0: kept)
    embed_batch_size: int = 16
    db_read_threads: int = 4
    write_batch_rows: int = 2_000
    # a store is acknowledged once in the write-ahead log ("log"), or once committed ("commit")
    store_ack: str = "log"
    pending_max_rows: int = 1_000
    pending_max_mb: float = 64.0
    pending_wait_s: float = 30.0
    index_cache_mb: int = 0  # 0: auto, sized by the indexes (`store.auto_index_cache_mb`)
    cache_rows: int = 20_000
    cache_fulltext: bool = True  # full-text search of the cached namespaces in memory
    metadata_cache_mb: int = 32
    disk_reserve_mb: float = 8.0
    # team mode (docs/team.md): the tables in object storage instead of the data directory
    store_uri: str | None = None
    store_storage_options: dict[str, str] = field(default_factory=dict)
    store_visibility_s: float = 1.0  # other hosts' commits are seen within this (LanceDB's read consistency)
    team_host: str | None = None  # this host's name in the lease (None: hostname and data directory)
    team_lease_ttl_s: float = 30.0
    team_maintenance: str = "auto"  # auto (the lease holder), always, never
    # query pipeline
    fusion: str = "linear"  # "linear" (absolute scores) or "rrf" (ranks)
    rrf_k: float = 5.0
    bm25_saturation: float = 15.0
    vector_weight: float = 3.0
    fts_weight: float = 1.0
    decay_floor: float = 0.7
    dedup_cosine: float = 0.97
    min_score: float = 0.0  # the relevance floor (docs/scoring.md, "Saying nothing")
    supersede_cosine: float = 0.8  # a newer near twin wins (`pipeline.supersede`; 0: off)
    supersede_factor: float = 0.85
    period_boost: float = 3.0  # in a period the question names (`recall.when`; 1: off)
    type_weights: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_TYPE_WEIGHTS))
    decay_half_life_days: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_DECAY_HALF_LIFE_DAYS))
    # cross-encoder rerank stage
    reranker_enabled: bool = True
    reranker_model_dir: Path | None = None
    reranker_weight: float = 0.3
    reranker_top_k: int = 20
    reranker_max_tokens: int = 256
    reranker_threads: int = 2
    reranker_batch_size: int = 8
    reranker_spinning: bool = False
    reranker_fused: bool = False  # fused, 20 pairs took 1.08-1.10x as long (docs/models.md)
    reranker_cache_size: int = 10_000
    reranker_timeout_s: float = 5.0
    reranker_max_failures: int = 3
    reranker_cooldown_s: float = 300.0
    reranker_auto_download: bool = False
    reranker_idle_s: float = 300.0  # the model leaves memory after this long unused (0: kept)
    # contradiction detection
    contradiction_enabled: bool = True
    contradiction_threshold: float = 0.4
    contradiction_gate_model: str = "auto"  # "auto" (cross-encoder when ready), "cosine", "cross_encoder"
    contradiction_gate: float = 0.3
    contradiction_gate_cosine: float = 0.3
    contradiction_demote_older: float = 0.85
    # the pair classifier (omegad.contradictions.classifier): "auto" uses the packaged model
    contradiction_classifier: str = "auto"
    secrets_on_detect: str = "redact"  # redact | reject | allow (docs/secrets.md)
    dedup_on_store: str = "link"  # link | merge-exact | off (docs/duplicates.md)
    dedup_link_cosine: float = 0.86  # calibrated: docs/duplicates.md
    contradiction_classifier_dir: Path | None = None
    contradiction_classifier_weight: float = 0.42
    contradiction_classifier_min_cosine: float = 0.6
    contradiction_classifier_threads: int = 1
    contradiction_classifier_idle_s: float = 60.0  # unloaded after this long unused (0: kept)
    # lifecycle signals (see omegad.storage.signals)
    feedback_weight: float = 0.1
    feedback_bound: float = 5.0
    hide_below: float = -3.0
    access_weight: float = 0.05
    access_cap: float = 1.2
    # maintenance (compaction, index folding, write-ahead-log checkpoints, version cleanup)
    maintenance_interval_s: float = 60.0
    maintenance_max_fragments: int = 32
    maintenance_unindexed_rows: int = 2_000
    maintenance_target_rows_per_fragment: int = 65_536
    wal_checkpoint_mb: float = 64.0
    maintenance_process_idle_s: float = 10.0  # the maintenance process ends after this long unused
    vector_index_rows: int = 20_000
    index_min_namespace_rows: int = 2_000
    vector_index: str = "auto"  # auto, hnsw or rabitq (omegad.storage.store.VECTOR_INDEX_SETTINGS)
    rabitq_from_rows: int = 262_144  # auto: RaBitQ from this many memories (omegad.storage.store.AUTO_RABITQ_ROWS)
    index_fold_delay_ms: int = 250  # new rows into the vector index this long after a burst of writes (0: off)
    # logging
    log_format: str = "auto"  # "auto" (JSON unless stdout is a TTY), "json" or "console"
    log_level: str = "info"

    def with_overrides(self, **changes: Any) -> Config:
        return replace(self, **changes)


def _xdg(env: Mapping[str, str], var: str, fallback: str) -> Path:
    value = env.get(var)
    if value:
        return Path(value)
    return Path(env.get("HOME") or Path.home()) / fallback


# key in TOML (section.key) -> (Config field, parser)
def _path(v: Any) -> Path:
    if not isinstance(v, str) or not v:
        raise ConfigError(f"expected a path, got {v!r}")
    return Path(v).expanduser()


def _whole(v: Any, least: int) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, str)):
        raise ConfigError(f"expected an integer, got {v!r}")
    try:
        out = int(v)
    except ValueError:
        raise ConfigError(f"expected an integer, got {v!r}") from None
    if out < least:
        raise ConfigError(f"expected a {'positive' if least == 1 else 'non-negative'} integer, got {v!r}")
    return out


def _int(v: Any) -> int:
    return _whole(v, 1)


def _nonneg_int(v: Any) -> int:
    return _whole(v, 0)


def _mb_or_auto(v: Any) -> int:
    """A size in MB, or ``auto`` (0)."""
    if isinstance(v, str) and v.strip().lower() == "auto":
        return 0
    try:
        return _whole(v, 0)
    except ConfigError:
        raise ConfigError(f'expected a size in MB or "auto", got {v!r}') from None


def _signed_float(v: Any) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float, str)):
        raise ConfigError(f"expected a number, got {v!r}")
    try:
        out = float(v)
    except ValueError:
        raise ConfigError(f"expected a number, got {v!r}") from None
    if not math.isfinite(out):
        raise ConfigError(f"expected a finite number, got {v!r}")
    return out


def _float(v: Any) -> float:
    try:
        out = _signed_float(v)
    except ConfigError:
        raise ConfigError(f"expected a finite non-negative number, got {v!r}") from None
    if out < 0.0:
        raise ConfigError(f"expected a finite non-negative number, got {v!r}")
    return out


def _share(v: Any) -> float:
    out = _float(v)
    if out > 1.0:
        raise ConfigError(f"expected a number from 0 to 1, got {v!r}")
    return out


def _bool(v: Any) -> bool:
    if isinstance(v, bool):
        return v
    if isinstance(v, str) and v.lower() in ("1", "true", "yes", "on", "0", "false", "no", "off"):
        return v.lower() in ("1", "true", "yes", "on")
    raise ConfigError(f"expected true or false, got {v!r}")


def _int_between(lo: int, hi: int) -> Any:
    def parse(v: Any) -> int:
        out = _int(v)
        if not lo <= out <= hi:
            raise ConfigError(f"expected an integer from {lo} to {hi}, got {v!r}")
        return out

    return parse


def _url(v: Any) -> str:
    if not isinstance(v, str) or not v.startswith(("http://", "https://")):
        raise ConfigError(f"expected an http(s) URL, got {v!r}")
    return v.rstrip("/")


def _choice(*allowed: str) -> Any:
    def parse(v: Any) -> str:
        if v not in allowed:
            raise ConfigError(f"expected one of {', '.join(allowed)}, got {v!r}")
        return str(v)

    return parse


def _type_map(v: Any) -> dict[str, float]:
    if not isinstance(v, dict):
        raise ConfigError(f"expected a table of type = number, got {v!r}")
    out: dict[str, float] = {}
    for key, value in v.items():
        if key not in MEMORY_TYPES:
            raise ConfigError(f"unknown memory type {key!r} (known: {', '.join(MEMORY_TYPES)})")
        out[key] = _float(value)
    return out


#: URI schemes of a team store (``store.uri``): those whose Lance commits are safe with several
#: writers (conditional PUT of the manifest), and ``s3+ddb`` (commits through a DynamoDB table).
OBJECT_SCHEMES = ("s3", "s3+ddb", "gs", "az", "abfs")


def _store_uri(v: Any) -> str:
    if not isinstance(v, str) or "://" not in v:
        raise ConfigError(f"expected a URI such as s3://bucket/prefix, got {v!r}")
    scheme, _, rest = v.partition("://")
    if scheme.lower() not in OBJECT_SCHEMES:
        raise ConfigError(f"expected a {', '.join(s + '://' for s in OBJECT_SCHEMES)} URI, got {v!r}")
    if not rest.split("/", 1)[0]:
        raise ConfigError(f"no bucket in {v!r}")
    if scheme.lower() == "s3+ddb" and "ddbTableName=" not in rest:
        raise ConfigError(f"an s3+ddb:// URI names its DynamoDB table (?ddbTableName=...), got {v!r}")
    return v.rstrip("/")


def _string_map(v: Any) -> dict[str, str]:
    if not isinstance(v, dict):
        raise ConfigError("expected a table of key = value")
    out: dict[str, str] = {}
    for key, value in v.items():
        if isinstance(value, bool):
            value = "true" if value else "false"
        if not isinstance(value, (str, int, float)):
            raise ConfigError(f"{key}: expected a string, number or boolean")
        out[str(key)] = str(value)
    return out


def _name(v: Any) -> str:
    if not isinstance(v, str) or not v.strip() or len(v) > 200:
        raise ConfigError(f"expected a name of 1 to 200 characters, got {v!r}")
    return v.strip()


def _socket_mode(v: Any) -> int:
    modes = {"0600": 0o600, "0660": 0o660, "0666": 0o666}
    if isinstance(v, str) and v in modes:
        return modes[v]
    raise ConfigError(f'expected "0600", "0660" or "0666", got {v!r}')


def _grants(v: Any) -> tuple[Any, ...]:
    try:
        return parse_grants(v)
    except GrantError as exc:
        raise ConfigError(str(exc)) from None


#: Every configuration key: TOML name, environment variable, Config field, parser.
KEYS: tuple[tuple[str, str | None, str, Any], ...] = (
    ("server.socket", "OMEGAD_SOCKET", "socket_path", _path),
    ("server.data_dir", "OMEGAD_DATA_DIR", "data_dir", _path),
    ("server.max_frame_bytes", "OMEGAD_MAX_FRAME_BYTES", "max_frame_bytes", _int),
    ("server.max_connections", "OMEGAD_MAX_CONNECTIONS", "max_connections", _int),
    ("server.max_inflight_per_connection", None, "max_inflight_per_connection", _int),
    ("server.frame_timeout_s", None, "frame_timeout_s", _float),
    ("server.shutdown_timeout_s", None, "shutdown_timeout_s", _float),
    ("server.socket_mode", None, "socket_mode", _socket_mode),
    ("access.grant", None, "access_grants", _grants),
    ("limits.max_text_chars", None, "max_text_chars", _int),
    ("limits.max_batch_items", None, "max_batch_items", _int),
    ("limits.max_query_limit", None, "max_query_limit", _int),
    ("limits.max_metadata_bytes", None, "max_metadata_bytes", _int),
    ("embedding.model_dir", "OMEGAD_EMBEDDING_MODEL_DIR", "embedding_model_dir", _path),
    ("embedding.threads", "OMEGAD_EMBEDDING_THREADS", "embedding_threads", _int),
    ("embedding.batch_size", None, "embed_batch_size", _int),
    ("embedding.spinning", None, "embedding_spinning", _bool),
    ("embedding.fused", None, "embedding_fused", _bool),
    ("embedding.weights8", None, "embedding_weights8", _bool),
    ("embedding.idle_s", None, "embedding_idle_s", _float),
    ("models.cache_dir", "OMEGAD_MODEL_CACHE", "model_cache_dir", _path),
    ("models.hub_endpoint", "OMEGAD_HUB_ENDPOINT", "hub_endpoint", _url),
    ("store.read_threads", None, "db_read_threads", _int),
    ("store.write_batch_rows", None, "write_batch_rows", _int),
    ("store.ack", "OMEGAD_STORE_ACK", "store_ack", _choice("log", "commit")),
    ("store.pending_max_rows", None, "pending_max_rows", _int),
    ("store.pending_max_mb", None, "pending_max_mb", _float),
    ("store.pending_wait_s", None, "pending_wait_s", _float),
    ("store.index_cache_mb", "OMEGAD_INDEX_CACHE_MB", "index_cache_mb", _mb_or_auto),
    ("store.cache_rows", None, "cache_rows", _nonneg_int),
    ("store.cache_fulltext", None, "cache_fulltext", _bool),
    ("store.metadata_cache_mb", None, "metadata_cache_mb", _int),
    ("store.disk_reserve_mb", None, "disk_reserve_mb", _float),
    ("store.uri", "OMEGAD_STORE_URI", "store_uri", _store_uri),
    ("store.storage_options", None, "store_storage_options", _string_map),
    ("store.visibility_s", None, "store_visibility_s", _float),
    ("team.host", "OMEGAD_TEAM_HOST", "team_host", _name),
    ("team.lease_ttl_s", None, "team_lease_ttl_s", _float),
    ("team.maintenance", None, "team_maintenance", _choice("auto", "always", "never")),
    ("lifecycle.feedback_weight", None, "feedback_weight", _float),
    ("lifecycle.feedback_bound", None, "feedback_bound", _float),
    ("lifecycle.hide_below", None, "hide_below", _signed_float),
    ("lifecycle.access_weight", None, "access_weight", _float),
    ("lifecycle.access_cap", None, "access_cap", _float),
    ("maintenance.interval_s", None, "maintenance_interval_s", _float),
    ("maintenance.max_fragments", None, "maintenance_max_fragments", _int),
    ("maintenance.unindexed_rows", None, "maintenance_unindexed_rows", _int),
    ("maintenance.target_rows_per_fragment", None, "maintenance_target_rows_per_fragment", _int),
    ("maintenance.wal_checkpoint_mb", None, "wal_checkpoint_mb", _float),
    ("maintenance.process_idle_s", None, "maintenance_process_idle_s", _float),
    ("index.vector_index_rows", None, "vector_index_rows", _int),
    ("index.min_namespace_rows", None, "index_min_namespace_rows", _int),
    ("index.vector_index", None, "vector_index", _choice("auto", "hnsw", "rabitq")),
    ("index.rabitq_from_rows", None, "rabitq_from_rows", _int),
    ("index.fold_delay_ms", None, "index_fold_delay_ms", _nonneg_int),
    ("query.fusion", None, "fusion", _choice("rrf", "linear")),
    ("query.rrf_k", None, "rrf_k", _float),
    ("query.bm25_saturation", None, "bm25_saturation", _float),
    ("query.vector_weight", None, "vector_weight", _float),
    ("query.fts_weight", None, "fts_weight", _float),
    ("query.decay_floor", None, "decay_floor", _float),
    ("query.dedup_cosine", None, "dedup_cosine", _float),
    ("query.min_score", None, "min_score", _share),
    ("query.supersede_cosine", None, "supersede_cosine", _share),
    ("query.supersede_factor", None, "supersede_factor", _share),
    ("query.period_boost", "OMEGAD_QUERY_PERIOD_BOOST", "period_boost", _float),
    ("query.type_weights", None, "type_weights", _type_map),
    ("query.decay_half_life_days", None, "decay_half_life_days", _type_map),
    ("reranker.enabled", "OMEGAD_CROSS_ENCODER", "reranker_enabled", _bool),
    ("reranker.model_dir", "OMEGAD_RERANKER_MODEL_DIR", "reranker_model_dir", _path),
    ("reranker.weight", "OMEGAD_RERANKER_WEIGHT", "reranker_weight", _float),
    ("reranker.top_k", None, "reranker_top_k", _int),
    ("reranker.max_tokens", None, "reranker_max_tokens", _int_between(16, 512)),
    ("reranker.threads", "OMEGAD_RERANKER_THREADS", "reranker_threads", _int),
    ("reranker.batch_size", None, "reranker_batch_size", _int),
    ("reranker.spinning", None, "reranker_spinning", _bool),
    ("reranker.fused", None, "reranker_fused", _bool),
    ("reranker.cache_size", None, "reranker_cache_size", _int),
    ("reranker.timeout_s", None, "reranker_timeout_s", _float),
    ("reranker.max_failures", None, "reranker_max_failures", _int),
    ("reranker.cooldown_s", None, "reranker_cooldown_s", _float),
    ("reranker.auto_download", "OMEGAD_RERANKER_AUTO_DOWNLOAD", "reranker_auto_download", _bool),
    ("reranker.idle_s", None, "reranker_idle_s", _float),
    ("contradiction.enabled", "OMEGAD_CONTRADICTIONS", "contradiction_enabled", _bool),
    ("contradiction.threshold", None, "contradiction_threshold", _float),
    ("contradiction.gate_model", None, "contradiction_gate_model", _choice("auto", "cosine", "cross_encoder")),
    ("contradiction.gate", None, "contradiction_gate", _float),
    ("contradiction.gate_cosine", None, "contradiction_gate_cosine", _float),
    ("contradiction.demote_older", None, "contradiction_demote_older", _float),
    ("contradiction.classifier", "OMEGAD_CONTRADICTION_CLASSIFIER", "contradiction_classifier", _choice("auto", "off")),
    ("contradiction.classifier_dir", None, "contradiction_classifier_dir", _path),
    ("contradiction.classifier_weight", None, "contradiction_classifier_weight", _share),
    ("contradiction.classifier_min_cosine", None, "contradiction_classifier_min_cosine", _share),
    ("contradiction.classifier_threads", None, "contradiction_classifier_threads", _int_between(1, 16)),
    ("contradiction.classifier_idle_s", None, "contradiction_classifier_idle_s", _float),
    ("secrets.on_detect", "OMEGAD_SECRETS", "secrets_on_detect", _choice("redact", "reject", "allow")),
    ("dedup.on_store", "OMEGAD_DEDUP", "dedup_on_store", _choice("link", "merge-exact", "off")),
    ("dedup.link_cosine", None, "dedup_link_cosine", _share),
    ("logging.format", "OMEGAD_LOG_FORMAT", "log_format", _choice("auto", "json", "console")),
    ("logging.level", "OMEGAD_LOG_LEVEL", "log_level", _choice("debug", "info", "warning", "error")),
)


#: Older names still honoured (the seed product's switch), used when the new one is unset.
ENV_ALIASES = {"OMEGAD_CROSS_ENCODER": "OMEGA_CROSS_ENCODER"}


def _flatten(doc: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in doc.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and name not in {
            "query.type_weights",
            "query.decay_half_life_days",
            "store.storage_options",
        }:
            out.update(_flatten(value, name + "."))
        else:
            out[name] = value
    return out


def load_config(
    config_file: Path | None = None,
    env: Mapping[str, str] | None = None,
    **overrides: Any,
) -> Config:
    """Build the configuration: defaults < TOML file (``OMEGAD_CONFIG``) < env < *overrides*."""
    env = os.environ if env is None else env
    values: dict[str, Any] = {}
    if config_file is None and env.get("OMEGAD_CONFIG"):
        config_file = Path(env["OMEGAD_CONFIG"]).expanduser()
    if config_file is not None:
        try:
            doc = tomllib.loads(config_file.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ConfigError(f"cannot read config file {config_file}: {exc.strerror}") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"config file {config_file} is not valid TOML: {exc}") from None
        flat = _flatten(doc)
        known = {k[0]: k for k in KEYS}
        unknown = sorted(set(flat) - set(known))
        if unknown:
            raise ConfigError(f"unknown key(s) in {config_file}: {', '.join(unknown)}")
        for name, value in flat.items():
            _, _, attr, parse = known[name]
            try:
                values[attr] = parse(value)
            except ConfigError as exc:
                raise ConfigError(f"{config_file}: {name}: {exc}") from None
    for _name, var, attr, parse in KEYS:
        if var in ENV_ALIASES and not env.get(var) and env.get(ENV_ALIASES[var]):
            var = ENV_ALIASES[var]
        if var and env.get(var):
            try:
                values[attr] = parse(env[var])
            except ConfigError as exc:
                raise ConfigError(f"${var}: {exc}") from None
    values.update({k: v for k, v in overrides.items() if v is not None})
    valid = {f.name for f in fields(Config)}
    bad = set(values) - valid
    if bad:
        raise ConfigError(f"unknown settings: {', '.join(sorted(bad))}")
    values.setdefault("socket_path", default_socket_path(env))
    values.setdefault("data_dir", _xdg(env, "XDG_DATA_HOME", ".local/share") / "omegad")
    values.setdefault("model_cache_dir", _xdg(env, "XDG_CACHE_HOME", ".cache") / "omegad" / "models")
    return Config(**values)
