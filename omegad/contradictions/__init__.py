"""Contradiction detection: which newer memory contradicts which older one.

What it owns, from the bottom up (each module imports only the ones above it):

- the detectors, pure functions of two texts, no I/O: ``words`` (stemmer, token patterns),
  ``lexicon`` (the loader of ``lexicon.toml``, the detectors' data), ``known`` (the lexicon
  loaded once, and the concepts the detectors name), ``tokens`` (cutting a text into
  tokens), ``model`` (terms, quantities, clauses; `Signal` and `Detection`), ``quantities``,
  ``clauses`` (reading a text into clauses), ``compare`` (one clause pair: guards, changes,
  signals) and ``detect`` (`detect`: the best clause pair, the noisy-or);
- ``edges``: the graph of flagged pairs in its own LanceDB table, and its in-memory index;
- ``checker``: the background worker that runs the detectors on each committed memory and
  its neighbours and writes edges through the writer.

The detector modules share ``_``-prefixed helpers among themselves: they are one
implementation cut into files, not separate interfaces. Outside this package use
``detect.detect``, ``model.Detection`` / ``model.Signal`` / ``model.DETECTOR_VERSION``,
``known.ANTONYMS``, ``edges`` and ``checker``. ``edges``, ``classifier`` and ``checker`` may
import `omegad.storage`, `omegad.recall`, `omegad.models` and the shared modules; nothing here
imports the service (`omegad.app`), the RPC layer or the process (the layers contract).
docs/contradictions.md has the design and its figures.
"""
