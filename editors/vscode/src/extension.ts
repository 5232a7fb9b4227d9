/**
 * Wires the extension together: one client, the two views, the commands, the status bar
 * item and the subscriptions. Everything it wires lives in modules that do not import
 * `vscode`; this is the only one that does.
 */
import * as vscode from "vscode";
import { OmegadClient, type Subscription } from "./client";
import { Commands } from "./commands";
import { ContradictionsProvider } from "./contradictionsView";
import { MemoriesProvider } from "./memoriesView";
import { resolveSocketPath } from "./paths";
import { probeStatus, statusBarView } from "./status";
import type { VscodeApi } from "./vscodeApi";
import { workspaceNamespace } from "./workspace";

/** Seconds between status checks (each is one `hello`; it also reconnects after a restart). */
export const STATUS_INTERVAL_S = 30;

export function activate(context: vscode.ExtensionContext): void {
  const api: VscodeApi = vscode;
  const settings = () => vscode.workspace.getConfiguration("omegad");
  const socketPath = () => resolveSocketPath(settings().get<string>("socketPath"));
  const timeoutMs = () => Math.max(1, settings().get<number>("requestTimeoutSeconds") ?? 30) * 1000;
  const namespace = () => workspaceNamespace(api);

  const client = new OmegadClient({ socketPath: socketPath(), timeoutMs: timeoutMs() });
  const output = vscode.window.createOutputChannel("omegad", { log: true });
  context.subscriptions.push(output, { dispose: () => client.close() });
  client.onError((err) => output.warn(`${err instanceof Error ? err.message : String(err)}`));

  const memories = new MemoriesProvider(api, client, namespace);
  const contradictions = new ContradictionsProvider(api, client, namespace);
  const commands = new Commands(api, client, { memories, contradictions });
  const contradictionsView = vscode.window.createTreeView("omegad.contradictions", {
    treeDataProvider: contradictions,
  });
  contradictionsView.description = namespace();
  context.subscriptions.push(
    vscode.window.createTreeView("omegad.memories", { treeDataProvider: memories, showCollapseAll: true }),
    contradictionsView,
  );

  const register = (id: string, run: (...args: never[]) => unknown) =>
    context.subscriptions.push(vscode.commands.registerCommand(id, run));
  register("omegad.rememberSelection", () => commands.rememberSelection());
  register("omegad.recall", () => commands.recall());
  register("omegad.openMemory", (target: never) => commands.openMemory(target));
  register("omegad.loadMore", (node: never) => commands.loadMore(node));
  register("omegad.editMemory", (node: never) => commands.editMemory(node));
  register("omegad.deleteMemory", (node: never) => commands.deleteMemory(node));
  register("omegad.rateUp", (node: never) => commands.rateMemory(node, 1));
  register("omegad.rateDown", (node: never) => commands.rateMemory(node, -1));
  register("omegad.refreshMemories", () => memories.refresh());
  register("omegad.refreshContradictions", () => contradictions.refresh());
  register("omegad.keepNew", (node: never) => commands.resolve(node, "keep_new"));
  register("omegad.keepOld", (node: never) => commands.resolve(node, "keep_old"));
  register("omegad.bothValid", (node: never) => commands.resolve(node, "both_valid"));
  register("omegad.unresolve", (node: never) => commands.unresolve(node));
  register("omegad.showStatus", () => commands.showStatus());

  // Status bar: refreshed on a timer and whenever the connection opens or ends.
  const item = vscode.window.createStatusBarItem("omegad.status", vscode.StatusBarAlignment.Left, 0);
  item.name = "omegad";
  item.command = "omegad.showStatus";
  context.subscriptions.push(item);
  let probing = false;
  const refreshStatus = async (): Promise<void> => {
    if (probing) return;
    probing = true;
    try {
      const view = statusBarView(await probeStatus(client));
      item.text = view.text;
      item.tooltip = view.tooltip;
      item.backgroundColor =
        view.severity === "ok" ? undefined : new vscode.ThemeColor(`statusBarItem.${view.severity}Background`);
      item.show();
    } finally {
      probing = false;
    }
  };
  const timer = setInterval(() => void refreshStatus(), STATUS_INTERVAL_S * 1000);
  context.subscriptions.push({ dispose: () => clearInterval(timer) });
  context.subscriptions.push(
    client.onDidChangeConnection((change) => {
      void refreshStatus();
      if (change.connected) commands.refreshViews(); // the daemon may have restarted
    }),
  );

  // Events: contradictions of this workspace's namespace are announced; writes anywhere
  // patch the Memories view.
  let subscriptions: Subscription[] = [];
  const subscribe = (): void => {
    for (const s of subscriptions) void s.dispose();
    subscriptions = [
      client.subscribe(["contradiction"], (event) => void commands.contradictionNotice(event), namespace()),
      client.subscribe(["stored", "updated", "deleted"], (event) => memories.applyEvent(event)),
    ];
    for (const s of subscriptions) {
      s.ready.catch((err: unknown) => output.info(`subscription not established yet: ${String(err)}`));
    }
  };
  subscribe();
  context.subscriptions.push({ dispose: () => subscriptions.forEach((s) => void s.dispose()) });

  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("omegad.socketPath")) client.setSocketPath(socketPath());
      if (e.affectsConfiguration("omegad.namespace")) {
        contradictionsView.description = namespace();
        subscribe();
        commands.refreshViews();
      }
      void refreshStatus();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => {
      contradictionsView.description = namespace();
      subscribe();
      commands.refreshViews();
    }),
  );
  void refreshStatus();
}

export function deactivate(): void {
  // The client is closed by its disposable in context.subscriptions.
}
