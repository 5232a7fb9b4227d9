/**
 * Where the user works, in the daemon's terms: the workspace's namespace, the metadata a
 * remembered selection carries (`project`, `file`, `line`, `language`: the keys the daemon's
 * query `context` matches), and the file a memory points back to.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { DEFAULT_NAMESPACE, isValidNamespace, sanitizeNamespace } from "./paths";
import type { Memory, Metadata, QueryContext } from "./types";
import type { TextEditor, Uri, VscodeApi, WorkspaceFolder } from "./vscodeApi";

/**
 * The namespace: the `omegad.namespace` setting when set (made valid if it is not), else the
 * workspace folder's name made valid, else `default`.
 */
export function resolveNamespace(setting: string | undefined | null, folderName: string | undefined): string {
  const given = (setting ?? "").trim();
  if (given) return isValidNamespace(given) ? given : sanitizeNamespace(given);
  return folderName ? sanitizeNamespace(folderName) : DEFAULT_NAMESPACE;
}

/** The folder that owns `uri`, else the first workspace folder. */
export function folderOf(api: VscodeApi, uri?: Uri): WorkspaceFolder | undefined {
  return (uri && api.workspace.getWorkspaceFolder(uri)) || api.workspace.workspaceFolders?.[0];
}

export function workspaceNamespace(api: VscodeApi, folder?: WorkspaceFolder): string {
  const setting = api.workspace.getConfiguration("omegad").get<string>("namespace");
  return resolveNamespace(setting, (folder ?? folderOf(api))?.name);
}

export interface EditorPlace {
  folder: WorkspaceFolder | undefined;
  namespace: string;
  /** The workspace folder's name. */
  project: string | undefined;
  /** Workspace-relative path with `/` (absolute outside any folder; absent for unsaved files). */
  file: string | undefined;
  /** 1-based line of the selection's start. */
  line: number;
  language: string;
}

export function editorPlace(api: VscodeApi, editor: TextEditor): EditorPlace {
  const doc = editor.document;
  const folder = doc.uri.scheme === "untitled" ? folderOf(api) : folderOf(api, doc.uri);
  let file: string | undefined;
  if (doc.uri.scheme === "file") {
    const owner = api.workspace.getWorkspaceFolder(doc.uri);
    file = owner ? relativePosix(owner.uri.fsPath, doc.uri.fsPath) : doc.uri.fsPath;
  }
  return {
    folder,
    namespace: workspaceNamespace(api, folder),
    project: folder?.name,
    file,
    line: editor.selection.start.line + 1,
    language: doc.languageId,
  };
}

function relativePosix(from: string, to: string): string {
  return path.relative(from, to).split(path.sep).join("/");
}

/** The metadata stored with a remembered selection (keys with no value left out). */
export function placeMetadata(place: EditorPlace): Metadata {
  return dropUndefined({ project: place.project, file: place.file, line: place.line, language: place.language });
}

/** The query `context` for where the user is. */
export function placeContext(place: EditorPlace): QueryContext {
  return dropUndefined({ project: place.project, file: place.file, language: place.language });
}

function dropUndefined<T extends Record<string, unknown>>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined && v !== "")) as T;
}

export interface MemoryLocation {
  uri: Uri;
  /** 1-based. */
  line: number;
}

/**
 * The file and line a memory was written at, when its metadata says: an absolute `file` as
 * is; a relative one in the folder named by `project`, else the first folder that has it,
 * else the first folder.
 */
export function memoryLocation(api: VscodeApi, memory: Pick<Memory, "metadata">): MemoryLocation | undefined {
  const meta = memory.metadata ?? {};
  const file = typeof meta.file === "string" && meta.file !== "" ? meta.file : undefined;
  if (!file) return undefined;
  const rawLine = typeof meta.line === "number" ? Math.floor(meta.line) : 1;
  const line = rawLine >= 1 ? rawLine : 1;
  if (path.isAbsolute(file)) return { uri: api.Uri.file(file), line };
  const folders = api.workspace.workspaceFolders ?? [];
  const named = folders.find((f) => f.name === meta.project);
  const holding = folders.find((f) => f.uri.scheme === "file" && fs.existsSync(path.join(f.uri.fsPath, file)));
  const folder = named ?? holding ?? folders[0];
  if (!folder) return undefined;
  return { uri: api.Uri.joinPath(folder.uri, ...file.split("/")), line };
}
