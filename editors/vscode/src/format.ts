/** Short texts for people: labels, dates, and what an error means with how to fix it. */
import { OmegadError } from "./errors";

/** The first non-empty line of `text`, at most `max` characters (with an ellipsis). */
export function firstLine(text: string, max = 80): string {
  const line = text.split(/\r?\n/).find((l) => l.trim() !== "") ?? "";
  const trimmed = line.trim().replace(/\s+/g, " ");
  return trimmed.length > max ? `${trimmed.slice(0, max - 1)}…` : trimmed;
}

/** `2026-03-01T10:00:00.123Z` → `2026-03-01 10:00` (UTC, as the daemon answers). */
export function shortDate(iso: string | null | undefined): string {
  if (!iso) return "";
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return m ? `${m[1]} ${m[2]}` : iso;
}

/** A sentence for an error message box: what went wrong and, when known, the fix. */
export function describeError(err: unknown): string {
  if (!(err instanceof OmegadError)) return `omegad: ${err instanceof Error ? err.message : String(err)}`;
  switch (err.code) {
    case "not_running":
      return (
        `omegad is not running (${String(err.data.socket ?? "no socket")}). ` +
        "Start it with `omegad serve`, or `omegad service install` to start it at login."
      );
    case "unavailable": {
      const reason = typeof err.data.reason === "string" ? ` (${err.data.reason})` : "";
      const fix = typeof err.data.fix === "string" ? ` Fix: ${err.data.fix}` : "";
      return `omegad cannot do this now${reason}: ${err.message}.${fix}`;
    }
    case "unknown_method":
      return `omegad: ${err.message}. This daemon is older than the extension: update omegad.`;
    default:
      return `omegad: ${err.message}`;
  }
}
