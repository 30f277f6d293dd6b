import type { ItemInclude } from '../../../../shared/context-items-domain';

const explanations: Record<ItemInclude, string> = {
  always: 'always: in every request of every chat',
  manual: 'manual: only in the chats you add it to',
  agent: 'agent: added to a request when the question is about what it describes',
};

/** An item's include mode as a small badge, explained on hover. */
export function IncludeBadge({ include }: { include: ItemInclude }) {
  return (
    <span className={`include include-${include}`} title={explanations[include]} data-testid="item-include">
      {include}
    </span>
  );
}
