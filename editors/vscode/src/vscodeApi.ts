/**
 * The part of the `vscode` API the extension's logic uses, as a type only: extension.ts
 * passes the real `vscode` module (tsc checks that it fits), tests pass a small stub. Modules
 * that take a `VscodeApi` never import `vscode` at run time.
 */
import type * as vscode from "vscode";

export interface VscodeApi {
  window: Pick<
    typeof vscode.window,
    | "activeTextEditor"
    | "showQuickPick"
    | "showInputBox"
    | "showInformationMessage"
    | "showWarningMessage"
    | "showErrorMessage"
    | "showTextDocument"
  >;
  workspace: Pick<
    typeof vscode.workspace,
    "workspaceFolders" | "getWorkspaceFolder" | "openTextDocument" | "getConfiguration"
  >;
  commands: Pick<typeof vscode.commands, "executeCommand">;
  Uri: Pick<typeof vscode.Uri, "file" | "joinPath">;
  Range: typeof vscode.Range;
  TreeItem: typeof vscode.TreeItem;
  TreeItemCollapsibleState: typeof vscode.TreeItemCollapsibleState;
  ThemeIcon: typeof vscode.ThemeIcon;
  EventEmitter: typeof vscode.EventEmitter;
}

export type { Event, QuickPickItem, TextEditor, TreeDataProvider, TreeItem, Uri, WorkspaceFolder } from "vscode";
