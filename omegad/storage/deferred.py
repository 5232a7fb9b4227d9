"""Keep the generated REST client of a Lance namespace server out of the process until used.

`lancedb` imports `lance_namespace`, whose package imports its generated REST client in full:
every API class, each method wrapped in pydantic validators. omegad never talks to a namespace
server (it opens tables by path or object-store URI), yet that client was ~13 MiB of the quiet
daemon's resident memory (docs/storage.md, "Models out of memory when unused").

`defer_namespace_client` puts a stand-in for the client's top package in `sys.modules` before
`lancedb` is imported. Its submodules import as usual through the stand-in's real ``__path__``
(`lance_namespace` needs the pydantic models, and gets the same classes); the first use of
anything else on the package (``ApiClient``, ``Configuration``...) runs the real package's
``__init__`` and answers from it, so nothing behaves differently, it only happens later.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types

__all__ = ["NAMESPACE_CLIENT", "defer_namespace_client"]

NAMESPACE_CLIENT = "lance_namespace_urllib3_client"


def defer_namespace_client() -> bool:
    """Install the stand-in (True), unless the package is already imported or not there."""
    if NAMESPACE_CLIENT in sys.modules:
        return False
    try:
        spec = importlib.util.find_spec(NAMESPACE_CLIENT)
    except (ImportError, ValueError):
        return False
    if spec is None or not spec.submodule_search_locations:
        return False
    stand_in = types.ModuleType(NAMESPACE_CLIENT, "(stand-in until first use: omegad.storage.deferred)")
    stand_in.__spec__ = spec
    stand_in.__path__ = list(spec.submodule_search_locations)
    stand_in.__file__ = spec.origin
    stand_in.__package__ = NAMESPACE_CLIENT

    def __getattr__(name: str) -> object:
        # only reached for names the stand-in lacks: neither a loaded submodule nor a dunder it has
        if sys.modules.get(NAMESPACE_CLIENT) is stand_in:
            del sys.modules[NAMESPACE_CLIENT]
        real = importlib.import_module(NAMESPACE_CLIENT)
        return getattr(real, name)

    stand_in.__getattr__ = __getattr__  # type: ignore[method-assign]
    sys.modules[NAMESPACE_CLIENT] = stand_in
    return True
