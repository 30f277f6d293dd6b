/** Model APIs accept tool names of these characters, at most 64 of them. */
export const maxToolNameLength = 64;

export interface ToolAddress {
  server: string;
  tool: string;
}

/** FNV-1a: a short, stable tag that tells apart names cut to the same prefix. */
function tag(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36).padStart(7, '0');
}

/** `mcp__<server>__<tool>` in the characters model APIs accept, cut to fit with a tag of the full name. */
export function qualifiedToolName(server: string, tool: string): string {
  const full = `mcp__${server}__${tool}`;
  const safe = full.replace(/[^A-Za-z0-9_-]/g, '_');
  if (safe.length <= maxToolNameLength) return safe;
  const suffix = `_${tag(full)}`;
  return safe.slice(0, maxToolNameLength - suffix.length) + suffix;
}

/**
 * Gives every (server, tool) pair a unique model-facing name and keeps it for the life of the session,
 * so names the model saw earlier in a chat still work after other servers come and go.
 */
export class ToolNames {
  private readonly byName = new Map<string, ToolAddress>();
  private readonly byAddress = new Map<string, string>();

  /** The name of a tool, given on first sight and kept. */
  name(server: string, tool: string): string {
    const key = JSON.stringify([server, tool]);
    const known = this.byAddress.get(key);
    if (known) return known;
    const base = qualifiedToolName(server, tool);
    let name = base;
    for (let copy = 2; this.byName.has(name); copy++) {
      const suffix = `_${copy}`;
      name = base.slice(0, maxToolNameLength - suffix.length) + suffix;
    }
    this.byName.set(name, { server, tool });
    this.byAddress.set(key, name);
    return name;
  }

  /** The tool a name was given to. */
  lookup(name: string): ToolAddress | undefined {
    return this.byName.get(name);
  }

  /** Frees the names of a server's tools, as when the server is removed. */
  forget(server: string): void {
    for (const [name, address] of this.byName) {
      if (address.server !== server) continue;
      this.byName.delete(name);
      this.byAddress.delete(JSON.stringify([address.server, address.tool]));
    }
  }
}
