import type { ItemInclude } from '../../../shared/context-items-domain';

export const includeNames: Record<ItemInclude, string> = {
  always: 'always: in every request',
  manual: 'manual: in the chats I add them to',
  agent: 'agent: when a question needs them',
};

/** The three include modes as options of a select. */
export function IncludeOptions() {
  return (
    <>
      {(Object.keys(includeNames) as ItemInclude[]).map((include) => (
        <option key={include} value={include}>
          {includeNames[include]}
        </option>
      ))}
    </>
  );
}
