"""Model files: where they live, how `omegad models fetch` puts them there, and the ONNX edits
made on the way (int8 embedding tables). Imports nothing of the daemon but the shared modules.
"""
