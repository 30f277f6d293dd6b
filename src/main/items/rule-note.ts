import { parse as parseYaml } from 'yaml';
import { itemIncludes, type ItemInclude } from '../../shared/context-items-domain';
import { locateFrontmatter } from '../../shared/markdown/frontmatter';

/** What a rule note says: when it applies, what it is about, and its text without the frontmatter. */
export interface RuleNote {
  include: ItemInclude;
  description: string | null;
  body: string;
  /** Why the rule counts as `manual` although it may not mean to, or how its frontmatter is wrong. */
  warning: string | null;
}

const manual = 'it applies only in the chats you add it to (manual)';

/**
 * Reads a rule's frontmatter `include:` (always, manual or agent) and `description:`. A rule whose
 * frontmatter is not valid YAML, or whose `include:` is something else, is `manual` with a warning that
 * says so: it never lands in every request by mistake.
 */
export function readRuleNote(content: string): RuleNote {
  const lines = content.replace(/^\uFEFF/, '').split(/\r?\n/);
  const { yaml, bodyStart } = locateFrontmatter(lines);
  const body = lines.slice(bodyStart).join('\n').trim();
  if (yaml === null) {
    return {
      include: 'manual',
      description: null,
      body,
      warning: `No frontmatter with include: — ${manual}.`,
    };
  }
  let data: unknown;
  try {
    data = parseYaml(yaml, { prettyErrors: false, maxAliasCount: 100, logLevel: 'error' });
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0];
    return {
      include: 'manual',
      description: null,
      body,
      warning: `Its frontmatter is not valid YAML (${reason}): ${manual}.`,
    };
  }
  const record =
    data !== null && typeof data === 'object' && !Array.isArray(data)
      ? (data as Record<string, unknown>)
      : {};
  const description =
    typeof record.description === 'string' && record.description.trim() !== ''
      ? record.description.trim()
      : null;
  const include = record.include;
  if (include === undefined || include === null) {
    return { include: 'manual', description, body, warning: `No include: in its frontmatter — ${manual}.` };
  }
  const value = typeof include === 'string' ? include.trim().toLowerCase() : include;
  if (!itemIncludes.includes(value as ItemInclude)) {
    return {
      include: 'manual',
      description,
      body,
      warning: `include: ${JSON.stringify(include)} is not always, manual or agent — ${manual}.`,
    };
  }
  const warning =
    value === 'agent' && description === null
      ? 'No description: — it is matched to questions by its title and text.'
      : null;
  return { include: value as ItemInclude, description, body, warning };
}
