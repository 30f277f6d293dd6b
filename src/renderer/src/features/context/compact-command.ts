/** `/compact [focus]` typed in the composer: the focus text (null without one), or null for any other text. */
export function compactCommand(text: string): { focus: string | null } | null {
  const match = /^\/compact(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match) return null;
  const focus = match[1]?.trim() ?? '';
  return { focus: focus === '' ? null : focus };
}
