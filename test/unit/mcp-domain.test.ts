import { describe, expect, it } from 'vitest';
import { mcpServerConfigSchema, mcpServerConfigsSchema } from '../../src/shared/mcp-domain';

describe('MCP server configuration', () => {
  it('fills in defaults for a stdio server', () => {
    const config = mcpServerConfigSchema.parse({
      id: 'files',
      name: 'Files',
      transport: 'stdio',
      command: 'npx',
    });
    expect(config).toEqual({
      id: 'files',
      name: 'Files',
      enabled: true,
      include: 'always',
      tools: {},
      transport: 'stdio',
      command: 'npx',
      args: [],
      env: {},
    });
  });

  it('accepts an HTTP server with headers and per-tool include modes', () => {
    const config = mcpServerConfigSchema.parse({
      id: 'web',
      name: 'Web',
      transport: 'http',
      url: 'https://mcp.example/mcp',
      headers: { Authorization: 'Bearer t' },
      include: 'manual',
      tools: { search: 'agent' },
    });
    expect(config).toMatchObject({ transport: 'http', include: 'manual', tools: { search: 'agent' } });
  });

  it('refuses what cannot be run or reached', () => {
    const base = { id: 'x', name: 'X' };
    expect(mcpServerConfigSchema.safeParse({ ...base, transport: 'stdio', command: ' ' }).success).toBe(
      false,
    );
    expect(mcpServerConfigSchema.safeParse({ ...base, transport: 'http', url: 'file:///etc' }).success).toBe(
      false,
    );
    expect(mcpServerConfigSchema.safeParse({ ...base, transport: 'sse', url: 'http://a' }).success).toBe(
      false,
    );
    const badEnv = { ...base, transport: 'stdio', command: 'node', env: { 'A=B': '1' } };
    expect(mcpServerConfigSchema.safeParse(badEnv).success).toBe(false);
    const badMode = { ...base, transport: 'stdio', command: 'node', tools: { echo: 'sometimes' } };
    expect(mcpServerConfigSchema.safeParse(badMode).success).toBe(false);
  });

  it('refuses two servers with the same id', () => {
    const server = { id: 'x', name: 'X', transport: 'stdio', command: 'node' };
    expect(mcpServerConfigsSchema.safeParse([server, server]).success).toBe(false);
  });
});
