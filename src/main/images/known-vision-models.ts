/**
 * Model families known to take images, matched on the model id as the provider names it (the part after
 * an OpenRouter vendor prefix, without an Ollama tag). Used when the provider says nothing itself.
 */
const visionFamilies: readonly RegExp[] = [
  /^(?:chatgpt-4o|gpt-4o|gpt-4\.1|gpt-4\.5|gpt-4-turbo|gpt-4-vision|gpt-5|o1(?!-mini)|o3|o4)/,
  /^claude-3/,
  /^claude-(?:opus|sonnet|haiku)-4/,
  /^claude-[a-z]+-4/,
  /^(?:llava|bakllava|moondream|minicpm-v|llama3\.2-vision|llama4|gemma3(?!n)|qwen2\.5-?vl|qwen2-vl|qwen3-vl|mistral-small3\.[12]|granite3\.2-vision|pixtral|gemini)/,
];

/** Whether `model` is of a family known to see images. */
export function knownToSeeImages(model: string): boolean {
  const id = (model.toLowerCase().split('/').at(-1) ?? '').split(':')[0] ?? '';
  return visionFamilies.some((family) => family.test(id));
}
