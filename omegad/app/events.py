"""Events pushed to subscribed connections (`subscribe`): what was stored, updated, deleted,
and contradictions found.

`EventHub.publish` never waits: each subscribed connection has a bounded queue that one task of
that connection drains onto its socket. A subscriber that stops reading fills only its own
queue; further events for it are dropped and counted, and the next event frame it gets says how
many (docs/protocol.md, "subscribe / unsubscribe").
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import anyio

__all__ = ["EventHub", "EventStats", "Subscriber", "Subscription"]

#: Events waiting per connection before new ones are dropped.
MAX_QUEUED = 1000
#: Subscriptions one connection may hold.
MAX_SUBSCRIPTIONS = 16


@dataclass(frozen=True)
class Subscription:
    id: int
    topics: frozenset[str]
    namespace: str | None  # None: every namespace the peer may read


class EventStats(NamedTuple):
    #: connections with at least one subscription
    subscribers: int
    #: events handed to subscribers' queues
    queued: int
    #: event frames written to sockets
    delivered: int
    #: events dropped because a subscriber's queue was full
    dropped: int


class Subscriber:
    """One connection's subscriptions and its queue of event frames."""

    def __init__(self, send: Callable[[dict[str, Any]], Awaitable[None]], may_read: Callable[[str], bool]) -> None:
        self.subscriptions: dict[int, Subscription] = {}
        self._send = send
        self._may_read = may_read
        self._queue: deque[dict[str, Any]] = deque()
        self._wake = anyio.Event()
        self.dropped = 0  # since the last frame it was sent
        self.dropped_total = 0
        self.delivered = 0

    def offer(self, topic: str, namespace: str, data: dict[str, Any]) -> int:
        """Queue *data* for each matching subscription; returns how many were queued."""
        queued = 0
        for sub in self.subscriptions.values():
            if topic not in sub.topics or (sub.namespace is not None and sub.namespace != namespace):
                continue
            if sub.namespace is None and not self._may_read(namespace):
                continue
            if len(self._queue) >= MAX_QUEUED:
                self.dropped += 1
                self.dropped_total += 1
                continue
            self._queue.append({"event": topic, "data": data, "subscription": sub.id})
            queued += 1
        if queued:
            self._wake.set()
        return queued

    async def run(self) -> None:
        """Write queued events to the connection, in order, until cancelled."""
        while True:
            while not self._queue:
                self._wake = anyio.Event()
                await self._wake.wait()
            frame = self._queue.popleft()
            if self.dropped:
                frame["dropped"], self.dropped = self.dropped, 0
            await self._send(frame)
            self.delivered += 1


class EventHub:
    def __init__(self) -> None:
        self._subscribers: set[Subscriber] = set()
        self._ids = itertools.count(1)
        self.queued = 0
        self._gone_delivered = 0
        self._gone_dropped = 0

    def subscribe(self, subscriber: Subscriber, topics: tuple[str, ...], namespace: str | None) -> Subscription:
        sub = Subscription(next(self._ids), frozenset(topics), namespace)
        subscriber.subscriptions[sub.id] = sub
        self._subscribers.add(subscriber)
        return sub

    def unsubscribe(self, subscriber: Subscriber, subscription: int) -> bool:
        found = subscriber.subscriptions.pop(subscription, None) is not None
        if not subscriber.subscriptions:
            self.remove(subscriber)
        return found

    def remove(self, subscriber: Subscriber) -> None:
        """The connection ended (or holds no subscription any more)."""
        if subscriber in self._subscribers:
            self._subscribers.discard(subscriber)
            self._gone_delivered += subscriber.delivered
            self._gone_dropped += subscriber.dropped_total
            subscriber.delivered = subscriber.dropped_total = 0

    def wants(self, topic: str) -> bool:
        return any(topic in s.topics for sub in self._subscribers for s in sub.subscriptions.values())

    def publish(self, topic: str, namespace: str, data: dict[str, Any]) -> None:
        for subscriber in list(self._subscribers):
            self.queued += subscriber.offer(topic, namespace, data)

    def stats(self) -> EventStats:
        subs = list(self._subscribers)
        return EventStats(
            subscribers=len(subs),
            queued=self.queued,
            delivered=self._gone_delivered + sum(s.delivered for s in subs),
            dropped=self._gone_dropped + sum(s.dropped_total for s in subs),
        )
