/**
 * The Contradictions view: the flagged pairs of the workspace's namespace (`contradictions`),
 * open ones first, each with its newer and older memory as children. Resolving is a command
 * (keep new / keep old / both valid → `resolve`).
 */
import type { OmegadClient } from "./client";
import { firstLine, shortDate } from "./format";
import { type MessageNode, message, messageItem } from "./memoriesView";
import type { Edge, EdgeSide, Resolution } from "./types";
import type { TreeDataProvider, TreeItem, VscodeApi } from "./vscodeApi";

export interface EdgeNode {
  kind: "edge";
  edge: Edge;
}
export interface SideNode {
  kind: "side";
  edge: Edge;
  side: "new" | "old";
  memory: EdgeSide;
}
export type ContradictionNode = EdgeNode | SideNode | MessageNode;

export const RESOLUTION_LABELS: Record<Resolution, string> = {
  keep_new: "kept the new one",
  keep_old: "kept the old one",
  both_valid: "both valid",
};

export const LIMIT = 200;

export class ContradictionsProvider implements TreeDataProvider<ContradictionNode> {
  private readonly changed;
  readonly onDidChangeTreeData;

  constructor(
    private readonly api: VscodeApi,
    private readonly client: OmegadClient,
    readonly namespace: () => string,
  ) {
    this.changed = new api.EventEmitter<ContradictionNode | undefined>();
    this.onDidChangeTreeData = this.changed.event;
  }

  async getChildren(node?: ContradictionNode): Promise<ContradictionNode[]> {
    if (node?.kind === "edge") {
      const { edge } = node;
      const sides: SideNode[] = [];
      if (edge.new) sides.push({ kind: "side", edge, side: "new", memory: edge.new });
      if (edge.old) sides.push({ kind: "side", edge, side: "old", memory: edge.old });
      return sides;
    }
    if (node) return [];
    let edges: Edge[];
    try {
      edges = await this.client.contradictions({ namespace: this.namespace(), limit: LIMIT });
    } catch (err) {
      return [message(err)];
    }
    const open = edges.filter((e) => !e.resolution);
    const resolved = edges.filter((e) => e.resolution);
    return [...open, ...resolved].map((edge) => ({ kind: "edge", edge }));
  }

  refresh(): void {
    this.changed.fire(undefined);
  }

  getTreeItem(node: ContradictionNode): TreeItem {
    const { api } = this;
    const state = api.TreeItemCollapsibleState;
    switch (node.kind) {
      case "edge": {
        const { edge } = node;
        const newer = edge.new?.text ?? edge.source;
        const older = edge.old?.text ?? edge.target;
        const item = new api.TreeItem(firstLine(newer, 60), state.Collapsed);
        item.id = `edge:${edge.id}`;
        const status = edge.resolution
          ? (RESOLUTION_LABELS[edge.resolution] ?? edge.resolution)
          : `confidence ${edge.confidence.toFixed(2)}`;
        item.description = `vs “${firstLine(older, 50)}” · ${status}`;
        item.tooltip = [
          `new (${shortDate(edge.new?.created_at)}): ${newer}`,
          `old (${shortDate(edge.old?.created_at)}): ${older}`,
          "",
          `confidence ${edge.confidence.toFixed(2)} · signals: ${edge.signals.map((s) => s.kind).join(", ") || "none"}`,
          edge.resolution ? `resolved: ${RESOLUTION_LABELS[edge.resolution] ?? edge.resolution}` : "open",
        ].join("\n");
        item.iconPath = new api.ThemeIcon(edge.resolution ? "check" : "warning");
        item.contextValue = edge.resolution ? "contradiction.resolved" : "contradiction";
        return item;
      }
      case "side": {
        const item = new api.TreeItem(`${node.side}: ${firstLine(node.memory.text, 70)}`, state.None);
        item.id = `edge:${node.edge.id}:${node.side}`;
        item.description = [node.memory.type, shortDate(node.memory.created_at)].filter(Boolean).join(" · ");
        item.tooltip = node.memory.text;
        item.iconPath = new api.ThemeIcon(node.side === "new" ? "arrow-up" : "arrow-down");
        item.contextValue = "contradiction.side";
        item.command = { command: "omegad.openMemory", title: "Open", arguments: [node.memory.id] };
        return item;
      }
      case "message":
        return messageItem(api, node);
    }
  }
}
