"""omegad: a local long-term memory daemon for AI agents (LanceDB + ONNX Runtime, msgpack RPC
over a Unix socket). Clients use the separate ``omegad_client`` package."""

__version__ = "0.1.0"

__all__ = ["__version__"]
