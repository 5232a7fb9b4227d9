/**
 * A small stand-in for the `vscode` API: enough for the commands and views, recording what the
 * user would see (quick picks, input boxes, messages, opened documents, executed commands) and
 * answering from scripted queues (an empty queue means the user dismissed the prompt).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { VscodeApi } from "../../src/vscodeApi";

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly fsPath: string,
  ) {}

  get path(): string {
    return this.fsPath;
  }

  static file(p: string): Uri {
    return new Uri("file", path.resolve(p));
  }

  static untitled(name: string): Uri {
    return new Uri("untitled", name);
  }

  static joinPath(base: Uri, ...parts: string[]): Uri {
    return new Uri(base.scheme, path.join(base.fsPath, ...parts));
  }

  toString(): string {
    return `${this.scheme}://${this.fsPath}`;
  }
}

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

export class Range {
  readonly start: Position;
  readonly end: Position;

  constructor(a: number | Position, b: number | Position, c?: number, d?: number) {
    if (typeof a === "number" && typeof b === "number") {
      this.start = new Position(a, b);
      this.end = new Position(c ?? a, d ?? b);
    } else {
      this.start = a as Position;
      this.end = b as Position;
    }
  }

  get isEmpty(): boolean {
    return this.start.line === this.end.line && this.start.character === this.end.character;
  }
}

export class Selection extends Range {}

export class ThemeIcon {
  constructor(readonly id: string) {}
}

export class TreeItem {
  id?: string;
  description?: string;
  tooltip?: string;
  iconPath?: ThemeIcon;
  contextValue?: string;
  command?: { command: string; title: string; arguments?: unknown[] };

  constructor(
    readonly label: string,
    readonly collapsibleState: number = 0,
  ) {}
}

export const TreeItemCollapsibleState = { None: 0, Collapsed: 1, Expanded: 2 } as const;

export class EventEmitter<T> {
  private listeners: Array<(value: T) => void> = [];
  readonly fired: T[] = [];

  readonly event = (listener: (value: T) => void) => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };

  fire(value: T): void {
    this.fired.push(value);
    for (const l of this.listeners) l(value);
  }

  dispose(): void {
    this.listeners = [];
  }
}

export class TextDocument {
  readonly lines: string[];

  constructor(
    readonly uri: Uri,
    readonly languageId: string,
    text: string,
  ) {
    this.lines = text.split("\n");
  }

  get lineCount(): number {
    return this.lines.length;
  }

  getText(range?: Range): string {
    if (!range) return this.lines.join("\n");
    const { start, end } = range;
    if (start.line === end.line) return this.lines[start.line]!.slice(start.character, end.character);
    const out = [this.lines[start.line]!.slice(start.character)];
    for (let i = start.line + 1; i < end.line; i++) out.push(this.lines[i]!);
    out.push(this.lines[end.line]!.slice(0, end.character));
    return out.join("\n");
  }

  lineAt(line: number): { text: string } {
    return { text: this.lines[line] ?? "" };
  }
}

export interface TextEditor {
  document: TextDocument;
  selection: Selection;
}

export interface Folder {
  uri: Uri;
  name: string;
  index: number;
}

export interface Shown {
  level: "info" | "warning" | "error";
  message: string;
  items: string[];
  options?: Record<string, unknown>;
}

export interface Opened {
  file?: string;
  line?: number;
  content?: string;
  language?: string;
}

type PickAnswer = (items: Array<{ label: string }>) => { label: string } | undefined;

export interface Stub {
  api: VscodeApi;
  quickPicks: Array<{ items: Array<Record<string, unknown> & { label: string }>; options: Record<string, unknown> }>;
  inputBoxes: Array<Record<string, unknown>>;
  messages: Shown[];
  opened: Opened[];
  executed: Array<{ command: string; args: unknown[] }>;
  /** Scripted answers, used in order. */
  answers: { quickPick: PickAnswer[]; inputBox: Array<string | undefined>; message: Array<string | undefined> };
  config: Record<string, unknown>;
  setEditor(editor: TextEditor | undefined): void;
  folders: Folder[];
}

export function pick(label: string): PickAnswer {
  return (items) => items.find((i) => i.label === label);
}

export function makeVscode(
  folderPaths: Array<{ name: string; path: string }>,
  config: Record<string, unknown> = {},
): Stub {
  const folders: Folder[] = folderPaths.map((f, index) => ({ uri: Uri.file(f.path), name: f.name, index }));
  const stub = {
    quickPicks: [],
    inputBoxes: [],
    messages: [],
    opened: [],
    executed: [],
    answers: { quickPick: [], inputBox: [], message: [] },
    config,
    folders,
  } as unknown as Stub;
  let activeTextEditor: TextEditor | undefined;

  const show =
    (level: Shown["level"]) =>
    async (message: string, ...rest: unknown[]): Promise<string | undefined> => {
      let options: Record<string, unknown> | undefined;
      if (rest.length > 0 && typeof rest[0] === "object" && rest[0] !== null)
        options = rest.shift() as Record<string, unknown>;
      stub.messages.push({ level, message, items: rest as string[], options });
      return rest.length > 0 ? stub.answers.message.shift() : undefined;
    };

  const window = {
    get activeTextEditor() {
      return activeTextEditor;
    },
    async showQuickPick(items: Array<{ label: string }>, options: Record<string, unknown> = {}) {
      stub.quickPicks.push({ items: items as never, options });
      const answer = stub.answers.quickPick.shift();
      return answer ? answer(items) : undefined;
    },
    async showInputBox(options: Record<string, unknown> = {}) {
      stub.inputBoxes.push(options);
      const answer = stub.answers.inputBox.shift();
      const validate = options.validateInput as ((v: string) => string | undefined) | undefined;
      if (answer !== undefined && validate?.(answer)) return undefined;
      return answer;
    },
    showInformationMessage: show("info"),
    showWarningMessage: show("warning"),
    showErrorMessage: show("error"),
    async showTextDocument(doc: TextDocument, options: { selection?: Range } = {}) {
      const entry = stub.opened.find(
        (o) => o.file === doc.uri.fsPath && o.line === undefined && doc.uri.scheme === "file",
      );
      if (entry) entry.line = options.selection ? options.selection.start.line + 1 : undefined;
      return { document: doc, selection: options.selection };
    },
  };

  const workspace = {
    get workspaceFolders() {
      return folders.length ? folders : undefined;
    },
    getWorkspaceFolder(uri: Uri) {
      return folders.find((f) => uri.fsPath === f.uri.fsPath || uri.fsPath.startsWith(f.uri.fsPath + path.sep));
    },
    async openTextDocument(target: Uri | { content?: string; language?: string }) {
      if (target instanceof Uri) {
        const text = fs.readFileSync(target.fsPath, "utf8"); // throws for a missing file, as VS Code fails
        stub.opened.push({ file: target.fsPath });
        return new TextDocument(target, "plaintext", text);
      }
      stub.opened.push({ content: target.content, language: target.language });
      return new TextDocument(Uri.untitled("Untitled-1"), target.language ?? "plaintext", target.content ?? "");
    },
    getConfiguration(section: string) {
      return { get: <T>(key: string): T | undefined => stub.config[`${section}.${key}`] as T | undefined };
    },
  };

  const commands = {
    async executeCommand(command: string, ...args: unknown[]) {
      stub.executed.push({ command, args });
      return undefined;
    },
  };

  stub.api = {
    window,
    workspace,
    commands,
    Uri,
    Range,
    TreeItem,
    TreeItemCollapsibleState,
    ThemeIcon,
    EventEmitter,
  } as unknown as VscodeApi;
  stub.setEditor = (editor) => {
    activeTextEditor = editor;
  };
  return stub;
}

/** An editor on `file` (which must exist) with lines `[fromLine, toLine]` (0-based) selected. */
export function editorOn(file: string, language: string, fromLine: number, toLine: number): TextEditor {
  const doc = new TextDocument(Uri.file(file), language, fs.readFileSync(file, "utf8"));
  const endChar = doc.lines[toLine]!.length;
  return { document: doc, selection: new Selection(fromLine, 0, toLine, endChar) };
}
