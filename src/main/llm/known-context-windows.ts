/**
 * Published context windows of common model families, in tokens. A pattern matches a lowercased model id
 * as a whole word ("gpt-4" does not match "gpt-4o"); the longest matching pattern wins, so "llama3.1" beats
 * "llama3". Where a family's members differ, the figure is the smallest common one: too small only wastes
 * room, too large gets prompts cut off by the server.
 */
const families: Record<string, number> = {
  'gpt-5': 400_000,
  'gpt-4.1': 1_047_576,
  'gpt-4o': 128_000,
  'chatgpt-4o': 128_000,
  'gpt-4-turbo': 128_000,
  'gpt-4': 8_192,
  'gpt-3.5-turbo': 16_385,
  'gpt-3.5-turbo-instruct': 4_096,
  o1: 200_000,
  'o1-mini': 128_000,
  'o1-preview': 128_000,
  o3: 200_000,
  'o3-mini': 200_000,
  'o4-mini': 200_000,
  claude: 200_000,
  llama2: 4_096,
  'llama-2': 4_096,
  llama3: 8_192,
  'llama-3': 8_192,
  'llama3.1': 131_072,
  'llama-3.1': 131_072,
  'llama3.2': 131_072,
  'llama-3.2': 131_072,
  'llama3.3': 131_072,
  'llama-3.3': 131_072,
  qwen2: 32_768,
  'qwen2.5': 32_768,
  'qwen-2.5': 32_768,
  qwen3: 40_960,
  mistral: 32_768,
  'mistral-nemo': 131_072,
  mixtral: 32_768,
  gemma: 8_192,
  gemma2: 8_192,
  'gemma-2': 8_192,
  gemma3: 131_072,
  'gemma-3': 131_072,
  phi3: 4_096,
  'phi-3': 4_096,
  'phi3.5': 131_072,
  'phi-3.5': 131_072,
  phi4: 16_384,
  'phi-4': 16_384,
  'deepseek-r1': 131_072,
  'command-r': 131_072,
};

const patterns = Object.keys(families).sort((a, b) => b.length - a.length);

/** A size written into the id, e.g. `phi3:medium-128k` or `gpt-4-32k`, counted in binary thousands. */
const sizeSuffix = /(?:^|[-:_/])(\d{1,4})k(?=$|[-:_.])/;

/** The context window of `modelId` from its name alone, or null when the name says nothing known. */
export function knownContextWindow(modelId: string): number | null {
  const id = modelId.toLowerCase();
  const size = sizeSuffix.exec(id)?.[1];
  if (size !== undefined) return Number(size) * 1024;
  for (const pattern of patterns) {
    if (matchesAsWord(id, pattern)) return families[pattern] ?? null;
  }
  return null;
}

function matchesAsWord(id: string, pattern: string): boolean {
  for (let at = id.indexOf(pattern); at !== -1; at = id.indexOf(pattern, at + 1)) {
    const before = id.slice(Math.max(0, at - 1), at);
    const after = id.slice(at + pattern.length, at + pattern.length + 2);
    // "llama3" must not match "llama3.1", nor "o1" match "foo1".
    if (!/^[a-z0-9]$/.test(before) && !/^([a-z0-9]|\.\d)/.test(after)) return true;
  }
  return false;
}
