import type { z } from 'zod';
import type { ReferenceKind, ToolCallPart } from '../../shared/chat-domain';
import type { ItemInclude } from '../../shared/context-items-domain';
import type { ToolVault } from '../chat/note-locator';
import { writesRefused } from '../chat/write-permissions';
import type { WriteContext } from '../chat/write-tools';
import type { AttachmentStore } from '../items/attachment-store';
import type { LlmTool } from '../llm/llm-types';
import type { McpToolSource } from '../items/tool-catalog';

/** A note a tool call put in front of the model. */
export interface SurfacedNote {
  path: string;
  title: string;
  kind: Extract<ReferenceKind, 'read' | 'search-hit'>;
  subpath: string | null;
  document: number;
  /** What of the tool's output carries this note: its tokens are what the model received from it. */
  text: string;
}

export interface ToolOutcome {
  ok: boolean;
  /** What the model gets back. */
  output: string;
  notes: SurfacedNote[];
}

/** Numbers notes for citations; the same note keeps its number for the whole session. */
export type DocumentNumbers = (path: string, title: string) => number;

/** What one call runs with: the answer's chat, vault and services, and the call's own part. */
export interface ToolContext {
  sessionId: string;
  vault: ToolVault;
  numbers: DocumentNumbers;
  /** How write calls are decided on in this answer. */
  writes: WriteContext;
  /** The chat's attached files; null where files cannot be attached. */
  attachments: Pick<AttachmentStore, 'get'> | null;
  /** The MCP servers; null where none can run. */
  mcp: Pick<McpToolSource, 'call'> | null;
  /** The call's part in the answer: a write tool puts the change it proposes on it. */
  call: ToolCallPart;
  /** Saves and announces the call's part after a tool changed it. */
  shown: () => void;
  signal: AbortSignal;
}

/** What an answer's calls run with besides its vault, numbers and writes. */
export type AnswerTools = Pick<ToolContext, 'sessionId' | 'attachments' | 'mcp'> & { registry: ToolRegistry };

/** Where a tool comes from: the settings panel lists the vault's and the MCP servers' tools. */
export type ToolFamily = 'vault' | 'write' | 'attachment' | 'mcp' | 'web';

/**
 * One tool the model may call: what it is offered as (an LlmTool: name, description, input schema), how
 * it is offered and run, and `run`, which gets its input already parsed with `input`.
 */
export interface Tool<Input extends z.ZodType = z.ZodType> extends LlmTool {
  readonly input: Input;
  readonly family: ToolFamily;
  /** Its include mode until the settings give it another. */
  readonly include: ItemInclude;
  /**
   * Whether its results are numbered notes the model cites: one note `read`, or `listed` ones (a search),
   * after which the model is reminded to cite.
   */
  readonly documents: 'read' | 'listed' | null;
  /** Whether it changes the vault: refused while writes are off, each call approved first. */
  readonly writes: boolean;
  /** The system prompt's line for it, given only when it is offered; tools may share one. */
  readonly guidance?: string;
  /** Runs a call; a thrown error becomes the call's result for the model. */
  run(input: z.infer<Input>, context: ToolContext): Promise<ToolOutcome>;
}

/** A tool whose `run` is typed by its schema. */
export function defineTool<Input extends z.ZodType>(tool: Tool<Input>): Tool {
  return tool;
}

/**
 * Every tool Kasten knows: the built-in ones, and MCP servers' tools as they are listed. A call is run
 * in one way whatever its tool: looked up, checked against its schema, run; every failure is a result
 * the model reads, never an exception.
 */
export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();

  constructor(tools: readonly Tool[]) {
    for (const tool of tools) this.register(tool);
  }

  /** Adds a tool, or replaces the one of its name (an MCP server listed it anew). */
  register(tool: Tool): void {
    this.tools.set(tool.name, tool);
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  /** The tools of one family, in the order they were registered. */
  family(family: ToolFamily): Tool[] {
    return [...this.tools.values()].filter((tool) => tool.family === family);
  }

  /** The tools with these names, in the order they were registered: a prompt built from them is stable. */
  inOrder(names: readonly string[]): Tool[] {
    const wanted = new Set(names);
    return [...this.tools.values()].filter((tool) => wanted.has(tool.name));
  }

  /**
   * Runs one call. `invalid` is why the provider could not read the call (arguments that are not JSON);
   * a write call is told first that writes are off, whatever else is wrong with it.
   */
  async run(name: string, args: unknown, invalid: string | null, context: ToolContext): Promise<ToolOutcome> {
    const tool = this.tools.get(name);
    const refused = tool?.writes ? writesRefused(context.writes.mode, context.writes.allowed) : null;
    if (refused !== null) return failure(refused);
    if (invalid !== null) return failure(invalid);
    if (!tool) return failure(`There is no tool named "${name}".`);
    const parsed = tool.input.safeParse(args);
    if (!parsed.success) return failure(`Invalid arguments for ${name}: ${issuesText(parsed.error)}`);
    try {
      return await tool.run(parsed.data, context);
    } catch (error) {
      return failure(error instanceof Error ? error.message : String(error));
    }
  }
}

/** "note: expected string, received undefined; limit: too big": each issue with the field it is about. */
function issuesText(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

export function failure(message: string): ToolOutcome {
  return { ok: false, output: message, notes: [] };
}

export function success(output: string): ToolOutcome {
  return { ok: true, output, notes: [] };
}
