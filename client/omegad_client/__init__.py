"""Thin client for the omegad memory daemon. Depends on msgpack only.

```python
from omegad_client import Client

with Client() as client:
    client.store("Use ruff, not flake8", type="decision", tags=["lint"])
    print(client.query("which linter?"))
```

`AsyncClient` (the same surface, on anyio) is imported lazily so that this package works
without anyio installed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._errors import (
    BadRequest,
    Cancelled,
    ClientClosed,
    ConnectionLost,
    DaemonNotRunning,
    Forbidden,
    InternalError,
    InvalidParams,
    NotFound,
    OmegadError,
    ProtocolError,
    Timeout,
    TooLarge,
    Unavailable,
    UnknownMethod,
)
from ._sync import DEFAULT_TIMEOUT, Client, ClientState
from .protocol import PROTOCOL_VERSION, default_socket_path

if TYPE_CHECKING:
    from ._async import AsyncClient

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_TIMEOUT",
    "PROTOCOL_VERSION",
    "AsyncClient",
    "BadRequest",
    "Cancelled",
    "Client",
    "ClientClosed",
    "ClientState",
    "ConnectionLost",
    "DaemonNotRunning",
    "Forbidden",
    "InternalError",
    "InvalidParams",
    "NotFound",
    "OmegadError",
    "ProtocolError",
    "Timeout",
    "TooLarge",
    "Unavailable",
    "UnknownMethod",
    "default_socket_path",
]


def __getattr__(name: str) -> Any:
    if name == "AsyncClient":
        from ._async import AsyncClient

        return AsyncClient
    raise AttributeError(f"module 'omegad_client' has no attribute {name!r}")
