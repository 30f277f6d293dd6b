import { vaultTools } from '../chat/vault-tools';
import { writeTools } from '../chat/write-tools';
import { readAttachment } from '../items/read-attachment';
import type { Tool } from './tool-registry';

/** The tools Kasten brings itself; MCP servers' tools join them in the registry as they are listed. */
export const builtInTools: readonly Tool[] = [...vaultTools, ...writeTools, readAttachment];
