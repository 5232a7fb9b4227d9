"""The daemon process: ``omegad serve`` (logging, event loop, demo), its lifecycle (lock,
start-up, RPC server, drain, stop) and systemd's notify protocol. It composes the service
(`omegad.app`) with the RPC layer (`omegad.rpc`); only the command line imports it.
"""
