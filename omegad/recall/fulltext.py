"""Full-text (BM25) search in memory, ranking as LanceDB's ``FTS()`` index does, for the
namespaces the neighbour cache holds (`omegad.recall.neighbours`).

Through LanceDB a small store's full-text search is mostly planning and execution overhead,
and a query's critical path (docs/storage.md, "Full-text search"); here it is a few
dictionary lookups. To return what LanceDB returns the
text goes through the same steps as Lance 13's default index: runs of alphanumeric characters,
tokens of 40 bytes or more dropped, lower case, ASCII folding, English Snowball stemming, then
the stop words (compared with the stems); BM25 with k1 = 1.2, b = 0.75 and
idf = ln((N − n + 0.5) / (n + 0.5) + 1), where N, n and the average length are taken over the
whole table, not over the namespace searched.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from typing import TypeVar

import numpy as np
import numpy.typing as npt
import snowballstemmer  # type: ignore[import-untyped]

__all__ = ["K1", "B", "Postings", "bm25", "idf", "terms"]

K1 = 1.2
B = 0.75
MAX_TOKEN_BYTES = 40  # tokens this long or longer are dropped

# NLTK's English list, as Lance's stop-word filter has it (the contractions it also lists can
# never be a token: the apostrophe splits them)
STOP_WORDS = frozenset(
    [
        "i",
        "me",
        "my",
        "myself",
        "we",
        "our",
        "ours",
        "ourselves",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "he",
        "him",
        "his",
        "himself",
        "she",
        "her",
        "hers",
        "herself",
        "it",
        "its",
        "itself",
        "they",
        "them",
        "their",
        "theirs",
        "themselves",
        "what",
        "which",
        "who",
        "whom",
        "this",
        "that",
        "these",
        "those",
        "am",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "have",
        "has",
        "had",
        "having",
        "do",
        "does",
        "did",
        "doing",
        "a",
        "an",
        "the",
        "and",
        "but",
        "if",
        "or",
        "because",
        "as",
        "until",
        "while",
        "of",
        "at",
        "by",
        "for",
        "with",
        "about",
        "against",
        "between",
        "into",
        "through",
        "during",
        "before",
        "after",
        "above",
        "below",
        "to",
        "from",
        "up",
        "down",
        "in",
        "out",
        "on",
        "off",
        "over",
        "under",
        "again",
        "further",
        "then",
        "once",
        "here",
        "there",
        "when",
        "where",
        "why",
        "how",
        "all",
        "any",
        "both",
        "each",
        "few",
        "more",
        "most",
        "other",
        "some",
        "such",
        "no",
        "nor",
        "not",
        "only",
        "own",
        "same",
        "so",
        "than",
        "too",
        "very",
        "s",
        "t",
        "can",
        "will",
        "just",
        "don",
        "should",
        "now",
        "d",
        "ll",
        "m",
        "o",
        "re",
        "ve",
        "y",
        "ain",
        "aren",
        "couldn",
        "didn",
        "doesn",
        "hadn",
        "hasn",
        "haven",
        "isn",
        "ma",
        "mightn",
        "mustn",
        "needn",
        "shan",
        "shouldn",
        "wasn",
        "weren",
        "won",
        "wouldn",
    ]
)

_TOKEN = re.compile(r"[^\W_]+")
_stemmer = snowballstemmer.stemmer("english")


@functools.lru_cache(maxsize=65_536)
def _term(token: str) -> str | None:
    """The indexed form of one token, or None when the filters drop it."""
    if len(token.encode()) >= MAX_TOKEN_BYTES:
        return None
    word = token.lower()
    if not word.isascii():
        word = "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))
    stem: str = _stemmer.stemWord(word)
    return None if stem in STOP_WORDS else stem


def terms(text: str) -> list[str]:
    """The terms of *text*, in order, as the index holds them."""
    return [t for t in map(_term, _TOKEN.findall(text)) if t is not None]


#: A number, or an array of them (`Postings.dense_scores` scores a term's postings at once).
Num = TypeVar("Num", float, npt.NDArray[np.float64])


def bm25(tf: Num, length: Num, avg_length: float, idf: float) -> Num:
    return idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / avg_length))


def idf(docs: int, with_term: int) -> float:
    return math.log((docs - with_term + 0.5) / (with_term + 0.5) + 1)


class Postings:
    """The inverted index of one namespace: term → {slot: term frequency}, and each slot's
    length in terms. Slots are the neighbour cache's row slots."""

    def __init__(self) -> None:
        self.postings: dict[str, dict[int, int]] = {}
        self.lengths: dict[int, int] = {}
        self.total_length = 0
        # for `dense_scores`: each slot's length, and each searched term's postings as arrays
        # (slots, frequencies), dropped when a row with that term comes or goes
        self._length_array = np.zeros(64, dtype=np.float64)
        self._arrays: dict[str, tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]] = {}

    def add(self, slot: int, text: str) -> None:
        counts = Counter(terms(text))
        for term, n in counts.items():
            self.postings.setdefault(term, {})[slot] = n
            self._arrays.pop(term, None)
        length = sum(counts.values())
        self.lengths[slot] = length
        self.total_length += length
        if slot >= len(self._length_array):
            grown = np.zeros(max(2 * len(self._length_array), slot + 1), dtype=np.float64)
            grown[: len(self._length_array)] = self._length_array
            self._length_array = grown
        self._length_array[slot] = length

    def remove(self, slot: int, text: str) -> None:
        if slot not in self.lengths:
            return
        for term in set(terms(text)):
            docs = self.postings.get(term)
            if docs is not None:
                docs.pop(slot, None)
                self._arrays.pop(term, None)
                if not docs:
                    del self.postings[term]
        self.total_length -= self.lengths.pop(slot)
        self._length_array[slot] = 0

    def frequency(self, term: str) -> int:
        """Documents of this namespace holding *term*."""
        return len(self.postings.get(term, ()))

    def dense_scores(
        self, query: Iterable[str], docs: int, avg_length: float, df: dict[str, int], size: int
    ) -> npt.NDArray[np.float64]:
        """The BM25 score of each slot ``0..size-1`` for the terms *query* (0 where none is
        held; a match always scores above 0), with the table-wide *docs*, *avg_length* and
        document frequencies *df*: `bm25` summed over the query's terms, computed on arrays
        (a loop over thousands of postings held the GIL beside the question's embedding,
        docs/storage.md, "Full-text search")."""
        out = np.zeros(size, dtype=np.float64)
        for term in query:
            arrays = self._arrays.get(term)
            if arrays is None:
                holders = self.postings.get(term)
                if not holders:
                    continue
                slots = np.fromiter(holders.keys(), dtype=np.int64, count=len(holders))
                tf = np.fromiter(holders.values(), dtype=np.float64, count=len(holders))
                arrays = self._arrays[term] = (slots, tf)
            slots, tf = arrays
            weight = idf(docs, df[term])
            lengths = self._length_array[slots]
            out[slots] += bm25(tf, lengths, avg_length, weight)
        return out
