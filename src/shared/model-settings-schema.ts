import { z } from 'zod';

/** The chat model's settings as `models:configure`, `models:list` and `models:test` take them. */
export const modelSettings = z
  .object({
    provider: z.enum(['ollama', 'openai-compatible', 'anthropic']),
    baseUrl: z.url({ protocol: /^https?$/ }),
    model: z.string().trim().max(300),
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'Not an environment variable name.')
      .nullable(),
    contextWindow: z.number().int().min(512).max(10_000_000).nullable(),
    /** Left out by settings from before it existed: the chat model writes the summaries. */
    summaryModel: z.string().trim().min(1).max(300).nullable().default(null),
    /** The user confirmed that the key in `apiKeyEnv` may be sent to `baseUrl` (see `confirm-key`). */
    confirmKey: z.boolean().optional(),
  })
  .strict();
