/**
 * A real omegad for the tests, as tests/helpers.py starts one: `python -m omegad serve` on a
 * temporary socket and data directory (the Python from $OMEGAD_PYTHON, default python3), JSON
 * logs to a file, no reranker model, ready once the socket answers `ping`.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { OmegadClient } from "../../src/client";
import { OmegadError } from "../../src/errors";

export const PYTHON = process.env.OMEGAD_PYTHON || "python3";

export class Daemon {
  readonly base: string;
  readonly socket: string;
  readonly dataDir: string;
  readonly logPath: string;
  proc: ChildProcess | null = null;
  private exited: Promise<number | null> = Promise.resolve(null);

  constructor() {
    // Unix socket paths are limited to ~100 bytes: keep everything in a short directory.
    this.base = fs.mkdtempSync(path.join("/tmp", "odv-"));
    this.socket = path.join(this.base, "d.sock");
    this.dataDir = path.join(this.base, "data");
    this.logPath = path.join(this.base, "d.log");
  }

  async start(timeoutMs = 90_000): Promise<this> {
    const log = fs.openSync(this.logPath, "a");
    const proc = spawn(PYTHON, ["-m", "omegad", "serve", "--socket", this.socket, "--data-dir", this.dataDir], {
      cwd: this.base,
      env: {
        ...process.env,
        OMEGAD_LOG_FORMAT: "json",
        // as CI sees it: no reranker installed, whatever the developer has cached
        OMEGAD_RERANKER_MODEL_DIR: path.join(this.base, "no-reranker-model"),
      },
      stdio: ["ignore", log, log],
    });
    fs.closeSync(log);
    this.proc = proc;
    this.exited = new Promise((resolve) => proc.once("exit", (code) => resolve(code)));
    await this.waitReady(timeoutMs);
    return this;
  }

  private async waitReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.proc?.exitCode !== null) throw new Error(`daemon exited with ${this.proc?.exitCode}:\n${this.log()}`);
      const probe = new OmegadClient({ socketPath: this.socket, timeoutMs: 5000 });
      try {
        await probe.ping();
        return;
      } catch (err) {
        if (!(err instanceof OmegadError) || err.code !== "not_running") throw err;
      } finally {
        probe.close();
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`daemon not ready after ${timeoutMs} ms:\n${this.log()}`);
  }

  log(): string {
    return fs.existsSync(this.logPath) ? fs.readFileSync(this.logPath, "utf8") : "";
  }

  /** SIGTERM and wait for the exit (SIGKILL after `timeoutMs`). */
  async stop(timeoutMs = 60_000): Promise<number | null> {
    const proc = this.proc;
    if (!proc) return null;
    if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGTERM");
    const timer = setTimeout(() => proc.kill("SIGKILL"), timeoutMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  async cleanup(): Promise<void> {
    if (this.proc && this.proc.exitCode === null && this.proc.signalCode === null) {
      this.proc.kill("SIGKILL");
      await this.exited;
    }
    fs.rmSync(this.base, { recursive: true, force: true });
  }

  client(timeoutMs = 60_000): OmegadClient {
    return new OmegadClient({ socketPath: this.socket, timeoutMs });
  }
}

export async function startDaemon(): Promise<Daemon> {
  const d = new Daemon();
  try {
    return await d.start();
  } catch (err) {
    await d.cleanup();
    throw err;
  }
}

/** A fresh namespace per test, so tests sharing a daemon never see each other's data. */
export function freshNamespace(prefix = "t"): string {
  return `${prefix}-${Math.random().toString(16).slice(2, 14)}`;
}

/** Runs Python code with the test's Python; returns stdout (throws with stderr on failure). */
export function python(code: string, input = "", env: NodeJS.ProcessEnv = process.env): string {
  const result = spawnSync(PYTHON, ["-c", code], { input, env, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`python failed (${result.status}): ${result.stderr}`);
  return result.stdout;
}

/** Waits until `check` returns a value other than undefined (polling), or fails. */
export async function eventually<T>(
  check: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Texts the daemon's detector flags as a contradiction (tests/integration/test_contradictions.py). */
export const DARK = "The user prefers dark mode in every editor";
export const LIGHT = "The user switched to light mode in every editor";
