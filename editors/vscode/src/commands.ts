/**
 * What each command does, against an injected `vscode`-like API and a client: Remember
 * Selection, Recall, the Memories view's edit / delete / rate, the Contradictions view's
 * resolve, the contradiction notification and the status details. Errors end as one message
 * box saying what to do (`describeError`), never as an exception out of a command.
 */
import type { OmegadClient } from "./client";
import type { ContradictionNode, ContradictionsProvider } from "./contradictionsView";
import { describeError, firstLine, shortDate } from "./format";
import type { MemoriesNode, MemoriesProvider } from "./memoriesView";
import { probeStatus, statusReport } from "./status";
import type { Edge, Memory, OmegadEvent, QueryHit, Resolution } from "./types";
import type { QuickPickItem, VscodeApi } from "./vscodeApi";
import { editorPlace, memoryLocation, placeContext, placeMetadata, workspaceNamespace } from "./workspace";

/** The types Remember Selection offers, in this order. */
export const REMEMBER_TYPES = ["decision", "lesson", "preference", "fact", "error", "todo", "note", "memory"] as const;

export const TYPE_HINTS: Record<(typeof REMEMBER_TYPES)[number], string> = {
  decision: "a choice made, and why",
  lesson: "something learned the hard way",
  preference: "how someone likes things done",
  fact: "how things are",
  error: "an error and its cause or fix",
  todo: "something left to do",
  note: "anything else worth keeping",
  memory: "no particular kind",
};

export const RECALL_LIMIT = 20;

export const RESOLVE_ACTIONS: Array<{ title: string; resolution: Resolution }> = [
  { title: "Keep new", resolution: "keep_new" },
  { title: "Keep old", resolution: "keep_old" },
  { title: "Both valid", resolution: "both_valid" },
];

export interface RecallItem extends QuickPickItem {
  hit: QueryHit;
}

export interface TypeItem extends QuickPickItem {
  type: string;
}

export class Commands {
  constructor(
    private readonly api: VscodeApi,
    private readonly client: OmegadClient,
    private readonly views: { memories?: MemoriesProvider; contradictions?: ContradictionsProvider } = {},
  ) {}

  /** Runs a command body; any failure becomes one error message. */
  private async guard(body: () => Promise<void>): Promise<void> {
    try {
      await body();
    } catch (err) {
      await this.api.window.showErrorMessage(describeError(err));
    }
  }

  // -- Remember Selection --------------------------------------------------------------------

  rememberSelection(): Promise<void> {
    return this.guard(async () => {
      const { window } = this.api;
      const editor = window.activeTextEditor;
      if (!editor) {
        await window.showWarningMessage("omegad: open a file and select what to remember.");
        return;
      }
      let text = editor.document.getText(editor.selection).trim();
      if (!text) {
        const typed = await window.showInputBox({
          title: "Remember",
          prompt: "Nothing is selected: what should omegad remember?",
          value: editor.document.lineAt(editor.selection.start.line).text.trim(),
        });
        text = typed?.trim() ?? "";
        if (!text) return;
      }
      const items: TypeItem[] = REMEMBER_TYPES.map((type) => ({ label: type, description: TYPE_HINTS[type], type }));
      const picked = await window.showQuickPick(items, {
        title: "Remember as…",
        placeHolder: firstLine(text, 60),
      });
      if (!picked) return;
      const place = editorPlace(this.api, editor);
      const result = await this.client.store({
        text,
        type: picked.type,
        namespace: place.namespace,
        metadata: placeMetadata(place),
      });
      this.views.memories?.refresh(place.namespace);
      const where = place.file ? ` (${place.file}:${place.line})` : "";
      await window.showInformationMessage(
        result.created
          ? `omegad remembered a ${picked.type} in ${place.namespace}${where}.`
          : `omegad already had this memory (${result.id}).`,
      );
    });
  }

  // -- Recall ----------------------------------------------------------------------------------

  recall(): Promise<void> {
    return this.guard(async () => {
      const { window } = this.api;
      const question = (
        await window.showInputBox({
          title: "Recall",
          prompt: "Ask omegad what it remembers",
          placeHolder: "e.g. where do we keep refresh tokens?",
        })
      )?.trim();
      if (!question) return;
      const editor = window.activeTextEditor;
      const place = editor ? editorPlace(this.api, editor) : undefined;
      const namespace = place?.namespace ?? workspaceNamespace(this.api);
      const { results } = await this.client.query({
        text: question,
        namespace,
        limit: RECALL_LIMIT,
        context: place ? placeContext(place) : undefined,
      });
      if (results.length === 0) {
        await window.showInformationMessage(
          `omegad remembers nothing in ${namespace} that matches “${firstLine(question, 60)}”.`,
        );
        return;
      }
      const items: RecallItem[] = results.map((hit) => recallItem(hit));
      const picked = await window.showQuickPick(items, {
        title: `Recall · ${namespace}`,
        placeHolder: firstLine(question, 80),
        matchOnDescription: true,
        matchOnDetail: true,
      });
      if (picked) await this.showMemory(picked.hit);
    });
  }

  /** Opens a memory's file at its line; one without a place is shown as a message. */
  private async showMemory(memory: Memory): Promise<void> {
    const { api } = this;
    const location = memoryLocation(api, memory);
    if (location) {
      const line = location.line - 1;
      try {
        const doc = await api.workspace.openTextDocument(location.uri);
        const at = Math.min(line, Math.max(0, doc.lineCount - 1));
        await api.window.showTextDocument(doc, { selection: new api.Range(at, 0, at, 0), preview: true });
        return;
      } catch {
        await api.window.showWarningMessage(
          `omegad: ${location.uri.fsPath} cannot be opened; the memory says: ${memory.text}`,
        );
        return;
      }
    }
    await api.window.showInformationMessage(memory.text, {
      modal: false,
      detail: `${memory.type} · ${shortDate(memory.created_at)}`,
    });
  }

  // -- Memories view -----------------------------------------------------------------------------

  /** A tree node, a memory, or a memory id (from the Contradictions view). */
  openMemory(target: MemoriesNode | Memory | string | undefined): Promise<void> {
    return this.guard(async () => {
      const memory = await this.memoryOf(target);
      if (memory) await this.showMemory(memory);
    });
  }

  private async memoryOf(target: MemoriesNode | Memory | string | undefined): Promise<Memory | undefined> {
    if (typeof target === "string") return this.client.get(target);
    if (!target) return undefined;
    if ("kind" in target) return target.kind === "memory" ? target.memory : undefined;
    return target;
  }

  loadMore(node: MemoriesNode | undefined): Promise<void> {
    return this.guard(async () => {
      if (node?.kind === "more") await this.views.memories?.loadMore(node.namespace);
    });
  }

  editMemory(node: MemoriesNode | undefined): Promise<void> {
    return this.guard(async () => {
      if (node?.kind !== "memory") return;
      const old = node.memory;
      const text = await this.api.window.showInputBox({
        title: "Edit memory",
        prompt: `${old.type} in ${old.namespace} · ${old.id}`,
        value: old.text,
        validateInput: (value) => (value.trim() ? undefined : "A memory needs some text (delete it instead)"),
      });
      if (text === undefined || text.trim() === "" || text === old.text) return;
      const updated = await this.client.update({ id: old.id, text });
      this.views.memories?.updated(updated);
    });
  }

  deleteMemory(node: MemoriesNode | undefined): Promise<void> {
    return this.guard(async () => {
      if (node?.kind !== "memory") return;
      const m = node.memory;
      const answer = await this.api.window.showWarningMessage(
        `Delete this memory from ${m.namespace}?`,
        { modal: true, detail: m.text },
        "Delete",
      );
      if (answer !== "Delete") return;
      await this.client.delete(m.id);
      this.views.memories?.removed(m.id, m.namespace);
      this.views.contradictions?.refresh(); // deleting a memory removes its edges
    });
  }

  rateMemory(node: MemoriesNode | undefined, score: 1 | -1): Promise<void> {
    return this.guard(async () => {
      if (node?.kind !== "memory") return;
      const m = node.memory;
      const result = await this.client.feedback(m.id, score);
      if (result.hidden) {
        this.views.memories?.removed(m.id, m.namespace);
        await this.api.window.showInformationMessage(
          "omegad: rated down; this memory is now hidden from recall (and from this view).",
        );
        return;
      }
      this.views.memories?.updated({
        ...m,
        feedback: result.feedback,
        ratings: result.ratings,
        accesses: result.accesses,
      });
      await this.api.window.showInformationMessage(
        `omegad: rated ${score > 0 ? "up" : "down"} (feedback ${result.feedback.toFixed(2)} from ${result.ratings} rating${result.ratings === 1 ? "" : "s"}).`,
      );
    });
  }

  refreshViews(): void {
    this.views.memories?.refresh();
    this.views.contradictions?.refresh();
  }

  // -- Contradictions --------------------------------------------------------------------------

  resolve(node: ContradictionNode | undefined, resolution: Resolution): Promise<void> {
    return this.guard(async () => {
      const edge = node?.kind === "edge" || node?.kind === "side" ? node.edge : undefined;
      if (!edge) return;
      await this.client.resolve(edge.source, edge.target, resolution);
      this.views.contradictions?.refresh();
    });
  }

  unresolve(node: ContradictionNode | undefined): Promise<void> {
    return this.guard(async () => {
      if (node?.kind !== "edge" || !node.edge.resolution) return;
      await this.client.unresolve(node.edge.source, node.edge.target);
      this.views.contradictions?.refresh();
    });
  }

  /** A `contradiction` event: refresh the view and offer to resolve the pair right away. */
  contradictionNotice(event: OmegadEvent): Promise<void> {
    return this.guard(async () => {
      if (event.dropped) this.views.contradictions?.refresh(); // some were lost: reload them all
      if (event.event !== "contradiction") return;
      this.views.contradictions?.refresh();
      const edge = event.data as unknown as Edge;
      const newer = firstLine(edge.new?.text ?? edge.source, 80);
      const older = firstLine(edge.old?.text ?? edge.target, 80);
      const answer = await this.api.window.showWarningMessage(
        `omegad: a new memory contradicts an older one in ${edge.namespace}: “${newer}” vs “${older}”`,
        ...RESOLVE_ACTIONS.map((a) => a.title),
        "Show",
      );
      if (answer === "Show") {
        await this.api.commands.executeCommand("omegad.contradictions.focus");
        return;
      }
      const action = RESOLVE_ACTIONS.find((a) => a.title === answer);
      if (!action) return;
      await this.client.resolve(edge.source, edge.target, action.resolution);
      this.views.contradictions?.refresh();
    });
  }

  // -- Status ----------------------------------------------------------------------------------

  showStatus(): Promise<void> {
    return this.guard(async () => {
      const status = await probeStatus(this.client, true);
      const doc = await this.api.workspace.openTextDocument({
        content: statusReport(status, workspaceNamespace(this.api)),
        language: "plaintext",
      });
      await this.api.window.showTextDocument(doc, { preview: true });
    });
  }
}

export function recallItem(hit: QueryHit): RecallItem {
  const file = typeof hit.metadata?.file === "string" ? hit.metadata.file : undefined;
  const line = typeof hit.metadata?.line === "number" ? `:${hit.metadata.line}` : "";
  const flags: string[] = [];
  if (hit.contradicts?.length) flags.push("$(warning) contradicts an older memory");
  if (hit.contradicted_by?.length) flags.push("$(warning) contradicted by a newer memory");
  return {
    label: firstLine(hit.text, 100),
    description: `${hit.type} · ${hit.score.toFixed(2)}`,
    detail: [file ? `${file}${line}` : "", shortDate(hit.created_at), ...flags].filter(Boolean).join(" · "),
    hit,
  };
}
