// What a connection runs on the MCP SDK, in one module imported when the first MCP server starts: the
// SDK's client, its transports and their schema checking (ajv) are some 200 modules that opening a vault
// without MCP servers never needs.
export { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
export { callFailure, serverLoss } from './mcp-call-failure';
export { connectSession, openSession } from './mcp-session';
export { startFailure } from './mcp-start-failure';
