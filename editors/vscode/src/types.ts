/**
 * Shapes of the daemon's results this extension reads (docs/protocol.md "Methods"). Only the
 * keys used here are typed; the daemon may add keys, which are ignored.
 */

export type Metadata = Record<string, unknown>;

export interface Memory {
  id: string;
  text: string;
  type: string;
  tags: string[];
  namespace: string;
  metadata: Metadata;
  created_at: string;
  updated_at: string;
  version: number;
  feedback?: number;
  ratings?: number;
  accesses?: number;
  hidden?: boolean;
}

export interface ContradictionRef {
  id: string;
  confidence: number;
  at?: string;
}

export interface QueryHit extends Memory {
  score: number;
  contradicts?: ContradictionRef[];
  contradicted_by?: ContradictionRef[];
}

export type QueryContext = {
  project?: string;
  file?: string;
  language?: string;
  symbols?: string[];
};

export interface EdgeSide {
  id: string;
  text: string;
  type: string;
  created_at: string;
}

export interface Edge {
  id: string;
  kind: string;
  source: string;
  target: string;
  namespace: string;
  confidence: number;
  signals: Array<{ kind: string; score: number; evidence?: unknown }>;
  created_at: string;
  resolution: Resolution | null;
  resolved_at: string | null;
  new?: EdgeSide;
  old?: EdgeSide;
}

export type Resolution = "keep_new" | "keep_old" | "both_valid";

export interface Problem {
  code: string;
  message: string;
  fix?: string | null;
  detail?: string | null;
  since?: string | null;
  count?: number;
}

export interface RerankerState {
  state: string;
  model?: string;
  detail?: string;
  fix?: string;
  last_error?: string | null;
  [key: string]: unknown;
}

export interface Hello {
  protocol: number;
  daemon_version: string;
  embedding?: { model?: string; variant?: string; dim?: number };
  reranker?: RerankerState;
  status: "ok" | "degraded" | string;
  problems: Problem[];
}

/** The parts of `stats` the status details show; any of it may be missing or null. */
export interface Stats {
  status?: string;
  problems?: Problem[];
  memories?: number | null;
  namespaces?: Record<string, { total?: number; types?: Record<string, number> }> | null;
  disk_bytes?: number | null;
  uptime_s?: number | null;
  store?: { fragments?: number | null; unindexed_rows?: number | null; versions?: number | null } | null;
  maintenance?: { due?: string | null } | null;
  models?: { embedding?: { state?: string; model?: string; variant?: string }; reranker?: RerankerState } | null;
  [key: string]: unknown;
}

export interface NamespaceInfo {
  name: string;
  memories: number;
  last_write: string | null;
}

export interface ListPage {
  memories: Memory[];
  next: string | null;
}

export interface StoreResult {
  id: string;
  created: boolean;
}

export interface FeedbackResult {
  id: string;
  feedback: number;
  ratings: number;
  accesses: number;
  hidden: boolean;
}

export type Topic = "contradiction" | "stored" | "updated" | "deleted";

/** An event frame (docs/protocol.md "Events"). */
export interface OmegadEvent {
  event: string;
  data: Record<string, unknown>;
  subscription: number;
  dropped?: number;
}
