import type { AgentPromptPlacement, SessionItemKind } from '../../shared/context-items-domain';
import type { SqliteDatabase } from '../storage/database';

/** An item the user added to a chat: a manual rule or tool by its key, or a pinned note by its path. */
export interface SessionItemRow {
  kind: SessionItemKind;
  key: string;
  title: string;
  /** A pinned note whose note was renamed: the pin followed it from `previousKey`. */
  previousKey: string | null;
}

/** What the user added to each chat, and each chat's own agent prompt; rows in the app database. */
export class SessionItemsStore {
  private readonly statements;

  constructor(db: SqliteDatabase) {
    this.statements = {
      list: db.prepare<[string], SessionItemRow>(
        `SELECT kind, key, title, previous_key AS previousKey FROM session_items
         WHERE session_id = ? ORDER BY added_at, key`,
      ),
      add: db.prepare<[string, string, string, string, string]>(
        `INSERT INTO session_items (session_id, kind, key, title, added_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (session_id, kind, key) DO UPDATE SET title = excluded.title`,
      ),
      remove: db.prepare<[string, string, string]>(
        'DELETE FROM session_items WHERE session_id = ? AND kind = ? AND key = ?',
      ),
      // A pin already on the new path (pinned twice) keeps that row; the old one goes.
      follow: db.prepare<[string, string, string]>(
        `UPDATE OR REPLACE session_items SET key = ?, previous_key = key, title = ?
         WHERE kind = 'pinned' AND key = ?`,
      ),
      pinnedIn: db.prepare<[string], { sessionId: string }>(
        `SELECT DISTINCT session_id AS sessionId FROM session_items
         WHERE kind = 'pinned' AND key IN (SELECT value FROM json_each(?))`,
      ),
      prompt: db.prepare<[string], { text: string | null; placement: string | null }>(
        'SELECT agent_prompt AS text, agent_prompt_placement AS placement FROM sessions WHERE id = ?',
      ),
      setPrompt: db.prepare<[string | null, string | null, string]>(
        'UPDATE sessions SET agent_prompt = ?, agent_prompt_placement = ? WHERE id = ?',
      ),
    };
  }

  list(sessionId: string): SessionItemRow[] {
    return this.statements.list.all(sessionId);
  }

  /** Adds (`on`) or removes an item of the chat. */
  set(sessionId: string, kind: SessionItemKind, key: string, title: string, on: boolean): void {
    if (on) this.statements.add.run(sessionId, kind, key, title, new Date().toISOString());
    else this.statements.remove.run(sessionId, kind, key);
  }

  /** A note was renamed: every chat that pinned it keeps it pinned at its new path. */
  followRename(from: string, to: string, title: string): number {
    return this.statements.follow.run(to, title, from).changes;
  }

  /** The chats that pinned any of the notes at `paths`. */
  pinnedIn(paths: readonly string[]): string[] {
    return this.statements.pinnedIn.all(JSON.stringify(paths)).map((row) => row.sessionId);
  }

  /** The chat's own agent prompt; null: it uses the vault's. */
  agentPrompt(sessionId: string): { text: string; placement: AgentPromptPlacement } | null {
    const row = this.statements.prompt.get(sessionId);
    if (!row || row.text === null) return null;
    return { text: row.text, placement: row.placement === 'system' ? 'system' : 'message' };
  }

  setAgentPrompt(sessionId: string, prompt: { text: string; placement: AgentPromptPlacement } | null): void {
    this.statements.setPrompt.run(prompt?.text ?? null, prompt?.placement ?? null, sessionId);
  }
}
