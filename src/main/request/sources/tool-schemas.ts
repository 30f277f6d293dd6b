import { z } from 'zod';
import type { LlmTool } from '../../llm/llm-types';
import type { ToolSchema } from '../context-types';

const schemas = new WeakMap<LlmTool, ToolSchema>();

/**
 * The tools as they are sent: name, description and the JSON Schema of their input. Converted once per
 * tool object, since the tool set is the same for every request.
 */
export function toolSchemasOf(tools: readonly LlmTool[]): ToolSchema[] {
  return tools.map((tool) => {
    let schema = schemas.get(tool);
    if (!schema) {
      // The `$schema` dialect line is not part of what providers are sent.
      const { $schema: _dialect, ...parameters } =
        tool.jsonSchema ?? (z.toJSONSchema(tool.input) as Record<string, unknown>);
      schema = { name: tool.name, description: tool.description, parameters };
      schemas.set(tool, schema);
    }
    return schema;
  });
}
