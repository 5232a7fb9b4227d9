"""The MCP server ``omegad``: memory tools for AI coding agents, over stdio.

`build_server` makes the server (tests drive it in process); `main` is ``omegad-mcp``.
Per MCP session (the server's lifespan) a `_State` holds the daemon connection and the
project the client's roots named; tools and resolvers reach it through their `Context`.
Set-up and the tools: docs/mcp.md.
"""

from __future__ import annotations

import argparse
import os
import typing
import uuid
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

import anyio.to_thread
from mcp.server.mcpserver import Context, ListRoots, MCPServer, Resolve
from mcp.shared.message import ServerMessageMetadata
from mcp_types import ListRootsRequest, ListRootsResult, ToolAnnotations
from mcp_types.version import is_version_at_least
from pydantic import Field

from omegad_client import __version__
from omegad_client.protocol import default_socket_path

from ._link import DaemonLink, MemoryToolError
from ._models import (
    Budget,
    Contradiction,
    ContradictionsResult,
    Deleted,
    Edge,
    Feedback,
    Hit,
    ListResult,
    Memory,
    QueryResult,
    Redaction,
    StoreResult,
)
from ._project import Project, project_from_roots, valid_namespace, working_project

__all__ = ["INSTRUCTIONS", "Settings", "build_server", "main", "settings_from"]

INSTRUCTIONS = """\
omegad is the user's long-term memory for this project: decisions, lessons, preferences and \
facts from earlier sessions, kept on this machine.
- Before you re-derive a decision, pick a library or convention, or debug something that may \
have happened before, call memory_query first; when the user asks what was decided, too.
- As you learn them, store with memory_store: decisions and why, lessons (causes of bugs, \
pitfalls), the user's preferences and conventions, non-obvious facts about the codebase. One \
self-contained statement each; never secrets; nothing the code or git history already says.
- When memory_store or memory_query shows a contradiction, tell the user and settle it with \
memory_resolve. Correct wrong memories with memory_update; rate recalled ones with \
memory_feedback.
Memories are scoped to this project's namespace unless a tool is given another."""

#: How long memory_store waits for the contradiction check of the new memory.
CHECK_WAIT_S = 2.0
#: How long a tool call waits for the MCP client to list its roots.
ROOTS_TIMEOUT_S = 5.0
# The first protocol revision that asks for roots inside a tool call's input_required round.
_INPUT_REQUIRED_VERSION = "2026-07-28"

# Input bounds: the daemon's (docs/protocol.md); lists an agent reads are bounded tighter,
# since every result costs it context.
MAX_TEXT_CHARS = 16_000
MAX_TAGS = 32
MAX_TAG_CHARS = 64
MAX_CONTEXT_CHARS = 512
MAX_RESULTS = 100

MemoryType = Literal["memory", "decision", "lesson", "preference", "fact", "error", "todo", "note", "session"]
Resolution = Literal["keep_new", "keep_old", "both_valid"]
MAX_TYPES = len(typing.get_args(MemoryType))

MemoryId = Annotated[
    str,
    Field(
        pattern=r"^[A-Za-z0-9][A-Za-z0-9._:@/+\-]{0,127}$",
        description="a memory's id, as memory_query, memory_list or memory_store gave it",
    ),
]
Text = Annotated[str, Field(min_length=1, max_length=MAX_TEXT_CHARS)]
Tag = Annotated[str, Field(min_length=1, max_length=MAX_TAG_CHARS)]
Tags = Annotated[list[Tag], Field(max_length=MAX_TAGS)]
NamespaceArg = Annotated[
    str | None,
    Field(
        pattern=r"^[A-Za-z0-9][A-Za-z0-9._:@/\-]{0,127}$",
        description="leave out: this project's namespace. Name another only when the user asks about "
        "another project's memory.",
    ),
]
FileArg = Annotated[
    str | None,
    Field(
        min_length=1,
        max_length=MAX_CONTEXT_CHARS,
        description="the file this is about (path relative to the project, or absolute)",
    ),
]


@dataclass(frozen=True)
class Settings:
    """What ``omegad-mcp`` was started with (`settings_from` reads the command line and env)."""

    socket_path: Path
    #: ``--namespace`` / ``OMEGAD_NAMESPACE``; None: the project's.
    namespace: str | None
    #: The working directory, for the git top-level / directory-name fallback.
    cwd: Path


class _State:
    """One MCP session's: the daemon connection and the project its roots named."""

    def __init__(self, settings: Settings, link: DaemonLink) -> None:
        self.settings = settings
        self.link = link
        self.roots: Project | None = None
        self._working: Project | None = None

    async def working_project(self) -> Project:
        if self._working is None:
            self._working = await anyio.to_thread.run_sync(working_project, self.settings.cwd)
        return self._working


@dataclass(frozen=True)
class _Scope:
    namespace: str
    project: Project


BridgeContext = Context[_State, Any]


def _state(ctx: BridgeContext) -> _State:
    return ctx.request_context.lifespan_context


async def _client_roots(ctx: BridgeContext) -> ListRootsResult | ListRoots | None:
    """The client's roots, asked once per session and only of a client that offers them."""
    state = _state(ctx)
    caps = ctx.client_capabilities
    if state.roots is not None or caps is None or caps.roots is None:
        return None
    version = ctx.protocol_version
    if version is not None and is_version_at_least(version, _INPUT_REQUIRED_VERSION):
        return ListRoots()  # the SDK asks within the call's input_required round
    try:
        return await ctx.request_context.session.send_request(
            ListRootsRequest(),
            ListRootsResult,
            request_read_timeout_seconds=ROOTS_TIMEOUT_S,
            metadata=ServerMessageMetadata(related_request_id=ctx.request_id),
        )
    except Exception:  # a client that offers roots but cannot list them: go by git / cwd
        return None


async def _scope(
    ctx: BridgeContext,
    roots: Annotated[ListRootsResult | None, Resolve(_client_roots)],
    namespace: str | None,
) -> _Scope:
    """The namespace and project of a tool call (`namespace`: the tool's argument)."""
    state = _state(ctx)
    if roots is not None:
        state.roots = project_from_roots(str(root.uri) for root in roots.roots)
    project = state.roots or await state.working_project()
    return _Scope(namespace or state.settings.namespace or project.namespace, project)


Scope = Annotated[_Scope, Resolve(_scope)]


def _params(**kwargs: Any) -> dict[str, Any]:
    return {k: v for k, v in kwargs.items() if v is not None}


# -- tools ----------------------------------------------------------------------------------


async def memory_query(
    ctx: BridgeContext,
    scope: Scope,
    query: Annotated[str, Field(min_length=1, max_length=MAX_TEXT_CHARS, description="what you want to know")],
    limit: Annotated[int, Field(ge=1, le=MAX_RESULTS, description="how many results at most")] = 8,
    types: Annotated[list[MemoryType] | None, Field(max_length=MAX_TYPES, description="only these types")] = None,
    tags: Annotated[
        list[Tag] | None, Field(max_length=MAX_TAGS, description="only memories with any of these tags")
    ] = None,
    file: FileArg = None,
    explain: Annotated[bool, Field(description="add each result's ranking signals and the stages")] = False,
    max_tokens: Annotated[
        int | None,
        Field(ge=1, le=100_000, description="keep the results whose texts fit in this many tokens, best first"),
    ] = None,
    namespace: NamespaceArg = None,
) -> QueryResult:
    """Recall what is remembered about this project from earlier sessions: decisions and their
    reasons, lessons, the user's preferences, facts. Call it BEFORE re-deriving a decision,
    choosing a library or convention, or debugging something that may have happened before,
    and when the user asks what was decided or done. Ask in plain words; pass `file` when the
    question is about one file (memories about it rank higher). Best results first; a result
    with `contradicted_by` has a newer memory that disagrees: prefer that one."""
    context = _params(project=scope.project.name, file=file)
    params = _params(
        text=query,
        limit=limit,
        namespace=scope.namespace,
        types=list(types) if types else None,
        tags=list(tags) if tags else None,
        explain=explain or None,
        context=context or None,
        max_tokens=max_tokens,
    )
    link = _state(ctx).link
    try:
        reply = await link.call("query", params)
    except MemoryToolError as exc:
        unknown = set(exc.data.get("unknown", ())) & {"context", "max_tokens"}
        if exc.code != "invalid_params" or not unknown:
            raise
        # A daemon older than `context` or `max_tokens` on `query`: ask without them.
        reply = await link.call("query", {k: v for k, v in params.items() if k not in unknown})
    return QueryResult(
        namespace=scope.namespace,
        results=[Hit.model_validate(r) for r in reply["results"]],
        trace=reply.get("trace"),
        budget=Budget.model_validate(reply["budget"]) if "budget" in reply else None,
    )


async def memory_store(
    ctx: BridgeContext,
    scope: Scope,
    text: Annotated[
        str,
        Field(
            min_length=1,
            max_length=MAX_TEXT_CHARS,
            description="one self-contained statement that makes sense without this conversation, "
            "e.g. 'We retry webhooks 5 times with backoff because the provider drops bursts'",
        ),
    ],
    type: Annotated[
        MemoryType | None,
        Field(description="decision, lesson (a pitfall, a bug's cause), preference (the user's), fact, ..."),
    ] = None,
    tags: Annotated[Tags | None, Field(description="a few short keywords (modules, topics)")] = None,
    file: FileArg = None,
    namespace: NamespaceArg = None,
) -> StoreResult:
    """Remember one thing for future sessions of this project. Call it when a decision is made
    (with its reason), when you learn a lesson (a bug's cause, a pitfall, what did not work),
    when the user states a preference or convention, or when you find a non-obvious fact about
    the codebase. Not for secrets, nor what the code or git history already says. The result
    lists earlier memories the new one contradicts: tell the user and settle each with
    memory_resolve."""
    link = _state(ctx).link
    metadata = _params(project=scope.project.name, file=file)
    # A fresh id makes the store idempotent, so a broken connection can be retried safely.
    memory_id = uuid.uuid4().hex
    stored = await link.call(
        "store",
        _params(
            text=text,
            type=type,
            tags=list(tags) if tags else None,
            namespace=scope.namespace,
            metadata=metadata or None,
            id=memory_id,
        ),
    )
    duplicate_of = stored.get("duplicate_of")
    if duplicate_of is not None:  # the same text was already remembered: nothing new to check
        return StoreResult(
            id=duplicate_of,
            namespace=scope.namespace,
            contradictions=[],
            redacted=[Redaction.model_validate(r) for r in stored.get("redacted", [])],
            check="done",
            duplicate_of=duplicate_of,
            hint=f"Already remembered as {duplicate_of}: nothing new was stored (its tags were merged).",
        )
    # The memory is stored: from here on a failure must not read as a failed store (the agent
    # would store it again), so it only leaves the check pending.
    check: Literal["done", "pending"] = "done"
    conflicts: list[Contradiction] = []
    try:
        try:
            await link.call("flush", {"timeout": CHECK_WAIT_S})
        except MemoryToolError as exc:
            if exc.code != "timeout":
                raise
            check = "pending"  # what it found so far is still worth showing
        edges = (await link.call("contradictions", {"id": memory_id}))["contradictions"]
        conflicts = [Contradiction.model_validate(e) for e in edges if e["source"] == memory_id]
    except MemoryToolError:
        check = "pending"
    hint = None
    redacted = [Redaction.model_validate(r) for r in stored.get("redacted", [])]
    if redacted:
        kinds = ", ".join(sorted({r.kind for r in redacted}))
        hint = f"Secrets ({kinds}) were replaced by [redacted:KIND] before storing; never store secrets."
    if conflicts:
        hint = (hint + " " if hint else "") + (
            f"This contradicts {len(conflicts)} earlier memor{'y' if len(conflicts) == 1 else 'ies'}: tell the "
            "user, then settle each with memory_resolve (keep_new when the new one replaces it)."
        )
    elif check == "pending":
        hint = (hint + " " if hint else "") + (
            "The contradiction check is still running: memory_contradictions shows its findings later."
        )
    return StoreResult(
        id=memory_id, namespace=scope.namespace, contradictions=conflicts, redacted=redacted, check=check, hint=hint
    )


async def memory_get(ctx: BridgeContext, id: MemoryId) -> Memory:
    """Read one memory in full by its id: when a result was cut short, or before updating or
    deleting it."""
    return Memory.model_validate(await _state(ctx).link.call("get", {"id": id}))


async def memory_list(
    ctx: BridgeContext,
    scope: Scope,
    order: Annotated[Literal["newest", "oldest"], Field(description="by time stored")] = "newest",
    limit: Annotated[int, Field(ge=1, le=MAX_RESULTS, description="memories per page")] = 20,
    cursor: Annotated[
        str | None, Field(min_length=1, max_length=1024, description="`next` of the previous page")
    ] = None,
    types: Annotated[list[MemoryType] | None, Field(max_length=MAX_TYPES, description="only these types")] = None,
    tags: Annotated[
        list[Tag] | None, Field(max_length=MAX_TAGS, description="only memories with any of these tags")
    ] = None,
    namespace: NamespaceArg = None,
) -> ListResult:
    """Browse what is remembered for this project, newest first, without a question: when the
    user asks what you remember, or to review memories before cleaning up. To answer a
    question use memory_query, which ranks by relevance. Pass `next` back as `cursor` for the
    following page."""
    reply = await _state(ctx).link.call(
        "list",
        _params(
            namespace=scope.namespace,
            order=order,
            limit=limit,
            cursor=cursor,
            types=list(types) if types else None,
            tags=list(tags) if tags else None,
        ),
    )
    return ListResult(
        namespace=scope.namespace,
        memories=[Memory.model_validate(m) for m in reply["memories"]],
        next=reply.get("next"),
    )


async def memory_update(
    ctx: BridgeContext,
    id: MemoryId,
    text: Annotated[Text | None, Field(description="the corrected statement (replaces the text)")] = None,
    type: Annotated[MemoryType | None, Field(description="the new type")] = None,
    tags: Annotated[Tags | None, Field(description="the new tags (replace the old ones)")] = None,
) -> Memory:
    """Correct a memory in place: when what it says is wrong or outdated, or the user corrects
    it. Keeps its id and age. Give only what changes. (When a decision was changed rather than
    mis-remembered, memory_store of the new decision keeps the history.)"""
    if text is None and type is None and tags is None:
        raise MemoryToolError("nothing to update: give text, type or tags", "invalid_params")
    reply = await _state(ctx).link.call(
        "update", _params(id=id, text=text, type=type, tags=list(tags) if tags is not None else None)
    )
    return Memory.model_validate(reply)


async def memory_delete(ctx: BridgeContext, id: MemoryId) -> Deleted:
    """Forget a memory for good (cannot be undone): only when the user asks, when it holds a
    secret, or when it is wrong and not worth correcting with memory_update. Its
    contradiction links go with it."""
    reply = await _state(ctx).link.call("delete", {"id": id}, retry=False)
    return Deleted(id=id, deleted=reply["deleted"])


async def memory_contradictions(
    ctx: BridgeContext,
    scope: Scope,
    id: Annotated[MemoryId | None, Field(description="only the contradictions of this memory")] = None,
    include_resolved: Annotated[bool, Field(description="also those already settled")] = False,
    limit: Annotated[int, Field(ge=1, le=MAX_RESULTS, description="how many at most")] = 20,
    namespace: NamespaceArg = None,
) -> ContradictionsResult:
    """List pairs of memories that disagree (a newer one against an older one), newest first:
    after memory_store or memory_query reported a contradiction, or when the user wants to
    review conflicting memories. Settle each with memory_resolve."""
    params = {"id": id} if id is not None else {"namespace": scope.namespace}
    # Settled ones are filtered here: fetch more, so a page of them does not hide open ones.
    fetch = limit if include_resolved else min(1000, limit * 5)
    reply = await _state(ctx).link.call("contradictions", {**params, "limit": fetch})
    edges = [e for e in reply["contradictions"] if include_resolved or e.get("resolution") is None]
    return ContradictionsResult(
        namespace=scope.namespace, contradictions=[Contradiction.model_validate(e) for e in edges[:limit]]
    )


async def memory_resolve(
    ctx: BridgeContext,
    newer_id: Annotated[MemoryId, Field(description="the newer memory of the pair (`new.id`)")],
    older_id: Annotated[MemoryId, Field(description="the older memory of the pair (`old.id`)")],
    resolution: Annotated[
        Resolution,
        Field(
            description="keep_new: the newer one replaces the older; keep_old: the newer one is wrong; "
            "both_valid: they do not really conflict"
        ),
    ],
) -> Edge:
    """Settle a contradiction the user decided on (or that is plainly settled by what you
    know): which memory holds. Nothing is deleted; the losing one ranks lower in queries
    from then on."""
    reply = await _state(ctx).link.call("resolve", {"source": newer_id, "target": older_id, "resolution": resolution})
    return Edge.model_validate(reply)


async def memory_feedback(
    ctx: BridgeContext,
    id: MemoryId,
    score: Annotated[
        float,
        Field(ge=-1.0, le=1.0, description="1: it helped; -1: wrong, stale or irrelevant for what it was recalled for"),
    ],
) -> Feedback:
    """Rate a memory you were given: up when it helped, down when it was wrong, stale or beside
    the point. Ratings shape later rankings; a memory rated down far enough is no longer
    recalled. Each call adds a rating."""
    reply = await _state(ctx).link.call("feedback", {"id": id, "score": score}, retry=False)
    return Feedback.model_validate(reply)


def _hints(
    title: str, *, read_only: bool = False, destructive: bool = False, idempotent: bool = False
) -> ToolAnnotations:
    return ToolAnnotations(
        title=title,
        read_only_hint=read_only,
        destructive_hint=destructive,
        idempotent_hint=idempotent,
        open_world_hint=False,
    )


#: Every tool: its function, and its title and hints.
TOOLS: Sequence[tuple[Any, ToolAnnotations]] = (
    (memory_query, _hints("Recall memories", read_only=True, idempotent=True)),
    (memory_store, _hints("Remember")),
    (memory_get, _hints("Read a memory", read_only=True, idempotent=True)),
    (memory_list, _hints("Browse memories", read_only=True, idempotent=True)),
    (memory_update, _hints("Correct a memory", destructive=True, idempotent=True)),
    (memory_delete, _hints("Forget a memory", destructive=True, idempotent=True)),
    (memory_contradictions, _hints("List contradictions", read_only=True, idempotent=True)),
    (memory_resolve, _hints("Settle a contradiction", idempotent=True)),
    (memory_feedback, _hints("Rate a memory")),
)


def build_server(settings: Settings) -> MCPServer[_State]:
    """The MCP server. It connects to the daemon on the first tool call, not here."""

    @asynccontextmanager
    async def lifespan(_: MCPServer[_State]) -> AsyncIterator[_State]:
        link = DaemonLink(settings.socket_path)
        async with link.running():
            yield _State(settings, link)

    server: MCPServer[_State] = MCPServer("omegad", instructions=INSTRUCTIONS, version=__version__, lifespan=lifespan)
    for fn, hints in TOOLS:
        server.add_tool(fn, title=hints.title, annotations=hints)
    return server


def settings_from(argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> Settings:
    """Settings from the command line and environment (``OMEGAD_SOCKET``, ``OMEGAD_NAMESPACE``);
    exits with a usage error on an invalid namespace."""
    env = os.environ if env is None else env
    p = argparse.ArgumentParser(
        prog="omegad-mcp",
        description="MCP server (stdio) that gives AI agents their omegad memory. See docs/mcp.md.",
    )
    p.add_argument("--socket", type=Path, help="daemon socket (default: $OMEGAD_SOCKET or the XDG runtime dir)")
    p.add_argument(
        "--namespace",
        help="namespace for every memory (default: $OMEGAD_NAMESPACE, else the project's: the client's root, "
        "the git top-level directory or the working directory, by name)",
    )
    p.add_argument("--version", action="version", version=f"omegad-mcp {__version__}")
    args = p.parse_args(argv)
    namespace = args.namespace or env.get("OMEGAD_NAMESPACE") or None
    if namespace is not None and not valid_namespace(namespace):
        p.error(
            f"invalid namespace {namespace!r}: 1-128 characters, letters, digits and . _ : @ / -, "
            "starting with a letter or digit"
        )
    socket_path = args.socket if args.socket is not None else default_socket_path(env)
    return Settings(socket_path=socket_path.expanduser(), namespace=namespace, cwd=Path.cwd())


def main(argv: Sequence[str] | None = None) -> int:
    settings = settings_from(argv)
    build_server(settings).run("stdio")
    return 0
