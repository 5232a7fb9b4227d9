"""The ``omegad`` command line: ``serve``, ``models``, ``service``, ``mcp``, ``doctor`` and the
memory commands. The top layer: it may import everything below it.
"""
