/**
 * The daemon's state for the status bar, and the details it opens: the lines `omegad doctor`
 * prints about a running daemon (omegad/cli/doctor.py `daemon_checks`), from `hello` and `stats`.
 * Every field may be missing or null (a degraded daemon reports what it cannot measure as
 * null); every line still prints.
 */
import type { OmegadClient } from "./client";
import { OmegadError } from "./errors";
import { PROTOCOL_VERSION } from "./protocol";
import type { Hello, Problem, RerankerState, Stats } from "./types";

export type DaemonState = "connected" | "degraded" | "not_running" | "error";

export interface DaemonStatus {
  state: DaemonState;
  socketPath: string;
  hello?: Hello;
  stats?: Stats;
  error?: OmegadError;
}

/** Asks the daemon how it is (`hello`; with `details`, `stats` too). Never throws. */
export async function probeStatus(client: OmegadClient, details = false): Promise<DaemonStatus> {
  const socketPath = client.socketPath;
  try {
    const hello = await client.hello();
    if (hello.protocol !== PROTOCOL_VERSION) {
      const error = new OmegadError(
        "protocol",
        `the daemon speaks protocol ${String(hello.protocol)}, this extension protocol ${PROTOCOL_VERSION}: update the older one`,
      );
      return { state: "error", socketPath, hello, error };
    }
    let stats: Stats | undefined;
    if (details) {
      try {
        stats = await client.stats();
      } catch {
        stats = undefined; // the hello line still says what matters
      }
    }
    const degraded = hello.status === "degraded" || (Array.isArray(hello.problems) && hello.problems.length > 0);
    return { state: degraded ? "degraded" : "connected", socketPath, hello, stats };
  } catch (err) {
    const error = err instanceof OmegadError ? err : new OmegadError("error", String(err));
    return { state: error.code === "not_running" ? "not_running" : "error", socketPath, error };
  }
}

export interface StatusBarView {
  text: string;
  tooltip: string;
  severity: "ok" | "warning" | "error";
}

function problemsOf(value: unknown): Problem[] {
  return Array.isArray(value) ? value.filter((p): p is Problem => typeof p === "object" && p !== null) : [];
}

function rerankerSummary(r: RerankerState | undefined): string {
  if (!r || typeof r.state !== "string") return "unknown";
  switch (r.state) {
    case "ready":
      return `ready${r.model ? ` (${r.model})` : ""}`;
    case "missing":
      return "missing: queries keep the heuristic order";
    case "disabled":
      return "turned off";
    case "failed":
      return `failed${r.last_error ? `: ${r.last_error}` : ""}`;
    default:
      return r.state;
  }
}

export function statusBarView(status: DaemonStatus): StatusBarView {
  const { hello } = status;
  switch (status.state) {
    case "connected":
    case "degraded": {
      const problems = problemsOf(hello?.problems);
      const codes = problems.map((p) => p.code ?? "?").join(", ");
      const reranker = hello?.reranker;
      const busy = reranker && ["loading", "downloading", "failed"].includes(reranker.state);
      const suffix = busy ? ` · reranker ${reranker.state}` : "";
      const lines = [
        `omegad ${hello?.daemon_version ?? "?"} at ${status.socketPath}`,
        status.state === "degraded" ? `degraded: ${codes || "?"}` : "connected",
        `reranker: ${rerankerSummary(reranker)}`,
        "",
        "Click for details (like `omegad doctor`).",
      ];
      if (status.state === "degraded") {
        return {
          text: `$(warning) omegad: degraded (${codes || "?"})${suffix}`,
          tooltip: lines.join("\n"),
          severity: "warning",
        };
      }
      return { text: `$(database) omegad${suffix}`, tooltip: lines.join("\n"), severity: "ok" };
    }
    case "not_running":
      return {
        text: "$(circle-slash) omegad: not running",
        tooltip: `Nothing listens at ${status.socketPath}.\nStart it with \`omegad serve\` or \`omegad service install\`.\nClick for details.`,
        severity: "error",
      };
    case "error":
      return {
        text: "$(error) omegad: error",
        tooltip: `${status.error?.message ?? "unknown error"}\nClick for details.`,
        severity: "error",
      };
  }
}

export interface Check {
  level: "ok" | "warning" | "error";
  name: string;
  detail: string;
  fix?: string | null;
}

function num(value: unknown, digits = 0, scale = 1): string {
  if (typeof value !== "number" || !Number.isFinite(value)) return "?";
  return (value / scale).toFixed(digits);
}

/** The checks `omegad doctor` makes about the daemon, from what it answered. */
export function daemonChecks(status: DaemonStatus, namespace?: string): Check[] {
  if (status.state === "not_running" || status.state === "error") {
    return [
      {
        level: status.state === "not_running" ? "warning" : "error",
        name: "daemon",
        detail:
          status.state === "not_running"
            ? `not running at ${status.socketPath} (${String(status.error?.data.reason || "no answer")})`
            : `answers at ${status.socketPath} but fails: ${status.error?.message ?? "?"}`,
        fix:
          status.state === "not_running"
            ? "omegad serve (foreground) or omegad service install"
            : "see its log (journalctl --user -u omegad)",
      },
    ];
  }
  const hello = status.hello;
  const stats = status.stats;
  const problems = problemsOf(hello?.problems);
  const codes = problems.map((p) => p.code ?? "?").join(", ");
  const checks: Check[] = [
    {
      level: problems.length ? "error" : "ok",
      name: "daemon",
      detail:
        `omegad ${hello?.daemon_version ?? "?"} at ${status.socketPath}, protocol ${hello?.protocol ?? "?"}, up ${num(stats?.uptime_s)} s` +
        (problems.length ? `, degraded (${codes})` : ""),
    },
  ];
  for (const p of problems) {
    checks.push({
      level: "error",
      name: `daemon ${p.code ?? "?"}`,
      detail: `${p.message ?? "?"}${p.detail ? ` (${p.detail})` : ""}`,
      fix: p.fix ?? null,
    });
  }
  const emb = hello?.embedding;
  checks.push({
    level: stats?.models?.embedding?.state && stats.models.embedding.state !== "ready" ? "error" : "ok",
    name: "embedding model",
    detail: `${emb?.model ?? "?"} (${emb?.variant ?? "?"}, dim ${emb?.dim ?? "?"})${
      stats?.models?.embedding?.state ? `, ${stats.models.embedding.state}` : ""
    }`,
  });
  const reranker = hello?.reranker;
  checks.push(rerankerCheck(reranker));
  if (stats) {
    const store = stats.store ?? undefined;
    const detail =
      `${num(stats.memories)} memories, ${num(store?.fragments)} fragments, ${num(store?.unindexed_rows)} unindexed rows, ` +
      `${num(store?.versions)} versions, ${num(stats.disk_bytes, 1, 2 ** 20)} MB`;
    const due = stats.maintenance?.due;
    checks.push(
      due
        ? { level: "warning", name: "store", detail: `${detail}; maintenance due (${due})`, fix: "omegad maintain" }
        : { level: "ok", name: "store", detail },
    );
  }
  if (namespace) {
    const ns = stats?.namespaces?.[namespace];
    checks.push({
      level: "ok",
      name: "namespace",
      detail: `${namespace} (this workspace): ${ns ? `${num(ns.total)} memories` : "no memories yet"}`,
    });
  }
  return checks;
}

function rerankerCheck(r: RerankerState | undefined): Check {
  const name = "reranker";
  if (!r || typeof r.state !== "string") return { level: "ok", name, detail: "?" };
  switch (r.state) {
    case "ready":
      return { level: "ok", name, detail: `ready: ${r.model ?? "?"}` };
    case "disabled":
      return { level: "ok", name, detail: "turned off in the configuration (queries keep the heuristic order)" };
    case "missing": {
      const where = typeof r.directory === "string" ? ` (${r.directory})` : "";
      return {
        level: "warning",
        name,
        detail: `missing${where}: queries keep the heuristic order`,
        fix: r.fix ?? "omegad models fetch reranker",
      };
    }
    case "failed":
      return {
        level: "error",
        name,
        detail: `failed: ${r.last_error ?? r.detail ?? "?"}`,
        fix: "omegad models fetch reranker",
      };
    default:
      return { level: "ok", name, detail: `${r.state}${r.detail ? `: ${r.detail}` : ""}` };
  }
}

export function checkLine(c: Check): string {
  const fix = c.fix ? ` · fix: ${c.fix}` : "";
  return `${c.level.padEnd(7)} ${c.name.padEnd(16)} ${c.detail}${fix}`;
}

/** The details document the status bar item opens. */
export function statusReport(status: DaemonStatus, namespace?: string): string {
  const checks = daemonChecks(status, namespace);
  const header = ["omegad: the daemon's lines of `omegad doctor`, from its hello and stats", ""];
  const footer = [
    "",
    "`omegad doctor` in a terminal also checks the models on disk, the data directory and the service.",
  ];
  return [...header, ...checks.map(checkLine), ...footer].join("\n") + "\n";
}
