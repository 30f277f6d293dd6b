import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createAttachmentReader } from '../attachments/attachment-reader';
import type { TextVectors } from '../embeddings/text-vectors';
import { AttachmentIntake } from '../items/attachment-intake';
import { AttachmentStore } from '../items/attachment-store';
import { ItemService } from '../items/item-service';
import { ItemSettingsStore } from '../items/item-settings';
import { McpSettingsStore } from '../items/mcp-settings';
import { RulesCatalog } from '../items/rules-catalog';
import { SessionItemsStore } from '../items/session-items-store';
import { McpServers } from '../mcp/mcp-servers';
import { builtInTools } from '../tools/built-in-tools';
import { fetchUrlTool } from '../web/fetch-url-tool';
import { WebPages } from '../web/web-pages';
import { WebSettingsStore } from '../web/web-settings';
import { ToolRegistry } from '../tools/tool-registry';
import type { AppOptions } from './app-options';
import type { ImageServices } from './image-services';
import type { RequestServices } from './request-services';
import type { VaultServices } from './vault-services';

/** The attachment reader's worker, built beside the parser's; null (read in process) when it is not there. */
function attachmentWorkerBeside(indexWorker: string | undefined): string | null {
  const file = indexWorker ? join(dirname(indexWorker), 'attachment-worker.js') : null;
  return file && existsSync(file) ? file : null;
}

/** Every tool, MCP servers, attachments, and the rules, pins and agent prompt of each chat. */
export function itemServices(
  options: AppOptions,
  { db, index, openPath, readNote }: VaultServices,
  { tokensOf, attachmentRoom }: RequestServices,
  vectors: TextVectors,
  images: Pick<ImageServices, 'intake' | 'readNote'>,
) {
  const mcp = new McpServers();
  const mcpSettings = new McpSettingsStore(db);
  const attachments = new AttachmentStore(db);
  const reader = createAttachmentReader(attachmentWorkerBeside(options.indexWorker));
  const intake = new AttachmentIntake({
    reader,
    tokens: tokensOf,
    room: attachmentRoom,
    images: images.intake,
  });
  const webSettings = new WebSettingsStore(db, options.allowPrivateUrls);
  const web = new WebPages({ settings: webSettings, pdf: reader, intake, ...options.web });
  /** Every tool; the MCP servers' are registered in it as they are listed. */
  const tools = new ToolRegistry([...builtInTools, fetchUrlTool(web)]);
  const service = new ItemService({
    settings: new ItemSettingsStore(db, openPath),
    sessions: new SessionItemsStore(db),
    attachments,
    rules: new RulesCatalog({ notesUnder: (folder) => index.noteHashesUnder(folder), readNote }),
    index,
    // A pinned note brings the images it embeds, as a linked note does, for a model that sees them.
    readNote: (path: string) => images.readNote(path),
    registry: tools,
    mcp,
    vectors,
    tokens: tokensOf,
  });
  return {
    tools,
    mcp,
    mcpSettings,
    attachments,
    intake,
    web,
    webSettings,
    service,
    async stop() {
      await mcp.dispose();
      await reader.dispose();
    },
  };
}

export type ItemServices = ReturnType<typeof itemServices>;
