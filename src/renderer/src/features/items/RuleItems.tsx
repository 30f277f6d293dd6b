import { TriangleAlert } from 'lucide-react';
import type { RuleInfo } from '../../../../shared/context-items-domain';
import { exactTokens } from '../context/token-format';
import { openReference } from '../references/open-reference';
import { IncludeBadge } from './IncludeBadge';
import { ItemSwitch } from './ItemSwitch';

const states: Record<RuleInfo['include'], (active: boolean) => string> = {
  always: () => 'in every chat',
  manual: (active) => (active ? 'in this chat' : 'not in this chat'),
  agent: (active) => (active ? 'added to this chat' : 'when a question is about it'),
};

/** The vault's rules: each with its mode, its cost, a switch for the ones a chat chooses, its warning. */
export function RuleItems({ rules, folder }: { rules: (RuleInfo & { active: boolean })[]; folder: string }) {
  if (rules.length === 0) {
    return (
      <p className="items-empty small">
        Rules tell the model how to answer. Add notes to <code>{folder}/</code> with{' '}
        <code>include: always|manual|agent</code> in their frontmatter (and a <code>description:</code> for
        agent rules).
      </p>
    );
  }
  return (
    <ul className="item-list">
      {rules.map((rule) => (
        <li key={rule.path} className="item" data-testid="rule-item" data-active={rule.active}>
          <div className="item-line">
            <button
              type="button"
              className="link-button item-name"
              title={`Open ${rule.path}`}
              onClick={() => void openReference(rule.path)}
            >
              {rule.name}
            </button>
            <span className="item-tokens small">{exactTokens(rule.tokens)} tokens</span>
            {rule.include !== 'always' && (
              <ItemSwitch kind="rule" itemKey={rule.path} name={rule.name} on={rule.active} />
            )}
          </div>
          <div className="item-facts small">
            <IncludeBadge include={rule.include} />
            {rule.include !== 'always' && <span className="muted">{states[rule.include](rule.active)}</span>}
          </div>
          {rule.description && <p className="item-detail small">{rule.description}</p>}
          {rule.warning && (
            <p className="item-warning small" data-testid="rule-warning" title={rule.warning}>
              <TriangleAlert size={13} aria-hidden /> {rule.warning}
            </p>
          )}
        </li>
      ))}
    </ul>
  );
}
