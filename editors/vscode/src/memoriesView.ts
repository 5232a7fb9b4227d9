/**
 * The Memories view: namespaces → memories, newest first, a page at a time through `list`
 * and its cursor ("Load more…" while the cursor is not null). Events (`stored`, `updated`,
 * `deleted`) and the commands' own edits patch the loaded pages in place, so paging state
 * survives them.
 */
import type { OmegadClient } from "./client";
import { OmegadError } from "./errors";
import { describeError, firstLine, shortDate } from "./format";
import type { Memory, NamespaceInfo, OmegadEvent } from "./types";
import type { TreeDataProvider, TreeItem, VscodeApi } from "./vscodeApi";

export const DEFAULT_PAGE_SIZE = 50;

export interface NamespaceNode {
  kind: "namespace";
  name: string;
  count: number | null;
}
export interface MemoryNode {
  kind: "memory";
  memory: Memory;
}
export interface MoreNode {
  kind: "more";
  namespace: string;
}
export interface MessageNode {
  kind: "message";
  text: string;
  detail?: string;
}
export type MemoriesNode = NamespaceNode | MemoryNode | MoreNode | MessageNode;

interface Page {
  nodes: MemoryNode[];
  next: string | null;
  more: MoreNode;
}

/** Codicons per memory type. */
export const TYPE_ICONS: Record<string, string> = {
  decision: "law",
  lesson: "mortar-board",
  preference: "heart",
  fact: "info",
  error: "bug",
  todo: "checklist",
  note: "note",
  memory: "lightbulb",
  session: "history",
};

export class MemoriesProvider implements TreeDataProvider<MemoriesNode> {
  private readonly changed;
  readonly onDidChangeTreeData;
  private readonly namespaceNodes = new Map<string, NamespaceNode>();
  private readonly pages = new Map<string, Page>();
  private readonly loading = new Map<string, Promise<Page>>();
  private readonly pageSize: number;

  constructor(
    private readonly api: VscodeApi,
    private readonly client: OmegadClient,
    private readonly workspaceNamespace: () => string,
    options: { pageSize?: number } = {},
  ) {
    this.changed = new api.EventEmitter<MemoriesNode | undefined>();
    this.onDidChangeTreeData = this.changed.event;
    this.pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  }

  async getChildren(node?: MemoriesNode): Promise<MemoriesNode[]> {
    if (!node) return this.rootChildren();
    if (node.kind !== "namespace") return [];
    let page: Page;
    try {
      page = await this.firstPage(node.name);
    } catch (err) {
      return [message(err)];
    }
    return page.next !== null ? [...page.nodes, page.more] : [...page.nodes];
  }

  private async rootChildren(): Promise<MemoriesNode[]> {
    let infos: NamespaceInfo[];
    try {
      infos = await this.fetchNamespaces();
    } catch (err) {
      return [message(err)];
    }
    const own = this.workspaceNamespace();
    if (!infos.some((i) => i.name === own)) infos.unshift({ name: own, memories: 0, last_write: null });
    infos.sort((a, b) => (a.name === own ? -1 : b.name === own ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return infos.map((info) => this.namespaceNode(info.name, info.memories));
  }

  /** `namespaces`, or for a daemon from before it, the namespaces `stats` counts. */
  private async fetchNamespaces(): Promise<NamespaceInfo[]> {
    try {
      return await this.client.namespaces();
    } catch (err) {
      if (!(err instanceof OmegadError) || err.code !== "unknown_method") throw err;
    }
    const stats = await this.client.stats();
    return Object.entries(stats.namespaces ?? {}).map(([name, ns]) => ({
      name,
      memories: ns.total ?? 0,
      last_write: null,
    }));
  }

  private namespaceNode(name: string, count: number | null): NamespaceNode {
    let node = this.namespaceNodes.get(name);
    if (!node) {
      node = { kind: "namespace", name, count };
      this.namespaceNodes.set(name, node);
    }
    node.count = count;
    return node;
  }

  private firstPage(namespace: string): Promise<Page> {
    const page = this.pages.get(namespace);
    if (page) return Promise.resolve(page);
    let pending = this.loading.get(namespace);
    if (!pending) {
      pending = this.client
        .list({ namespace, limit: this.pageSize })
        .then((result) => {
          const loaded: Page = {
            nodes: result.memories.map((memory) => ({ kind: "memory", memory })),
            next: result.next,
            more: { kind: "more", namespace },
          };
          this.pages.set(namespace, loaded);
          return loaded;
        })
        .finally(() => this.loading.delete(namespace));
      this.loading.set(namespace, pending);
    }
    return pending;
  }

  /** Appends the next page of `namespace` (the "Load more…" node). */
  async loadMore(namespace: string): Promise<void> {
    const page = this.pages.get(namespace);
    if (!page || page.next === null) return;
    const result = await this.client.list({ namespace, limit: this.pageSize, cursor: page.next });
    const seen = new Set(page.nodes.map((n) => n.memory.id));
    for (const memory of result.memories) {
      if (!seen.has(memory.id)) page.nodes.push({ kind: "memory", memory });
    }
    page.next = result.next;
    this.fireNamespace(namespace);
  }

  /** Reloads one namespace from its first page, or the whole tree. */
  refresh(namespace?: string): void {
    if (namespace === undefined) {
      this.pages.clear();
      this.changed.fire(undefined);
      return;
    }
    this.pages.delete(namespace);
    this.fireNamespace(namespace);
  }

  /** A memory changed (an edit, or an `updated` event): replace it where it is shown. */
  updated(memory: Memory): void {
    const node = this.pages.get(memory.namespace)?.nodes.find((n) => n.memory.id === memory.id);
    if (!node) return;
    node.memory = memory;
    this.fireNamespace(memory.namespace);
  }

  /** A memory is gone (deleted, or hidden by a rating). */
  removed(id: string, namespace: string): void {
    const page = this.pages.get(namespace);
    const index = page ? page.nodes.findIndex((n) => n.memory.id === id) : -1;
    const ns = this.namespaceNodes.get(namespace);
    if (ns && ns.count !== null && index >= 0) ns.count = Math.max(0, ns.count - 1);
    if (page && index >= 0) page.nodes.splice(index, 1);
    this.fireNamespace(namespace);
  }

  /** A new memory: shown in its place by creation time when that place is loaded. */
  stored(memory: Memory): void {
    const ns = this.namespaceNodes.get(memory.namespace);
    if (!ns) {
      this.changed.fire(undefined); // a namespace the tree does not show yet
      return;
    }
    const page = this.pages.get(memory.namespace);
    if (page && !page.nodes.some((n) => n.memory.id === memory.id)) {
      const at = Date.parse(memory.created_at);
      let index = page.nodes.findIndex((n) => Date.parse(n.memory.created_at) <= at);
      if (index < 0) index = page.next === null ? page.nodes.length : -1; // else on a later page
      if (index >= 0) page.nodes.splice(index, 0, { kind: "memory", memory });
    }
    if (ns.count !== null) ns.count += 1;
    this.fireNamespace(memory.namespace);
  }

  /** Applies a `stored` / `updated` / `deleted` event; others are ignored. */
  applyEvent(event: OmegadEvent): void {
    if (event.dropped) {
      this.refresh(); // events were lost: what is loaded may be stale
      return;
    }
    const data = event.data;
    switch (event.event) {
      case "stored":
        this.stored(data as unknown as Memory);
        break;
      case "updated":
        this.updated(data as unknown as Memory);
        break;
      case "deleted":
        this.removed(String(data.id), String(data.namespace));
        break;
      default:
        break;
    }
  }

  private fireNamespace(namespace: string): void {
    const node = this.namespaceNodes.get(namespace);
    this.changed.fire(node);
  }

  getTreeItem(node: MemoriesNode): TreeItem {
    const { api } = this;
    const state = api.TreeItemCollapsibleState;
    switch (node.kind) {
      case "namespace": {
        const own = node.name === this.workspaceNamespace();
        const item = new api.TreeItem(node.name, own ? state.Expanded : state.Collapsed);
        item.id = `namespace:${node.name}`;
        item.description = node.count === null ? "" : `${node.count} ${node.count === 1 ? "memory" : "memories"}`;
        item.tooltip = own ? `${node.name} (this workspace's namespace)` : node.name;
        item.iconPath = new api.ThemeIcon(own ? "root-folder" : "folder");
        item.contextValue = "namespace";
        return item;
      }
      case "memory": {
        const m = node.memory;
        const item = new api.TreeItem(firstLine(m.text), state.None);
        item.id = `memory:${m.id}`;
        item.description = [m.type, shortDate(m.created_at), locationLabel(m)].filter(Boolean).join(" · ");
        item.tooltip = memoryTooltip(m);
        item.iconPath = new api.ThemeIcon(TYPE_ICONS[m.type] ?? "lightbulb");
        item.contextValue = "memory";
        item.command = { command: "omegad.openMemory", title: "Open", arguments: [node] };
        return item;
      }
      case "more": {
        const item = new api.TreeItem("Load more…", state.None);
        item.id = `more:${node.namespace}`;
        item.iconPath = new api.ThemeIcon("ellipsis");
        item.contextValue = "more";
        item.command = { command: "omegad.loadMore", title: "Load more", arguments: [node] };
        return item;
      }
      case "message":
        return messageItem(api, node);
    }
  }
}

export function message(err: unknown): MessageNode {
  return { kind: "message", text: describeError(err) };
}

export function messageItem(api: VscodeApi, node: MessageNode): TreeItem {
  const item = new api.TreeItem(node.text, api.TreeItemCollapsibleState.None);
  item.tooltip = node.detail ?? node.text;
  item.iconPath = new api.ThemeIcon("warning");
  item.contextValue = "message";
  return item;
}

function locationLabel(m: Memory): string {
  const file = m.metadata?.file;
  if (typeof file !== "string" || !file) return "";
  const base = file.split("/").pop() ?? file;
  return typeof m.metadata.line === "number" ? `${base}:${m.metadata.line}` : base;
}

export function memoryTooltip(m: Memory): string {
  const lines = [m.text, "", `${m.type} · ${m.namespace} · created ${shortDate(m.created_at)} · id ${m.id}`];
  if (m.version > 1) lines.push(`edited ${shortDate(m.updated_at)} (version ${m.version})`);
  if (m.tags?.length) lines.push(`tags: ${m.tags.join(", ")}`);
  const where = locationLabel(m);
  if (where)
    lines.push(`at ${String(m.metadata.file)}${typeof m.metadata.line === "number" ? `:${m.metadata.line}` : ""}`);
  if (m.ratings) lines.push(`rated ${m.ratings}× (feedback ${m.feedback ?? 0})`);
  return lines.join("\n");
}
