import type { KastenApp } from '../../src/main/app';
import { leadColumn, withLead } from '../../src/main/storage/index-database';

/**
 * Everything the index holds about the vault, in a canonical order, without row ids or timestamps:
 * two indexes of the same folder must dump equal.
 */
export function dumpIndex(app: Pick<KastenApp, 'index'>) {
  const db = app.index.database();
  const all = (sql: string) => db.prepare(sql).all();
  return {
    notes: all(
      `SELECT n.path, n.title, ${leadColumn}, n.word_count, n.size, n.hash FROM notes n ${withLead} ORDER BY n.path`,
    ),
    attachments: all('SELECT path, size FROM attachments ORDER BY path'),
    headings: all(
      'SELECT n.path, h.level, h.text, h.line FROM headings h JOIN notes n ON n.id = h.note_id ORDER BY 1, 4',
    ),
    blocks: all(
      'SELECT n.path, b.block_id, b.line FROM blocks b JOIN notes n ON n.id = b.note_id ORDER BY 1, 3',
    ),
    tags: all('SELECT n.path, t.tag FROM tags t JOIN notes n ON n.id = t.note_id ORDER BY 1, 2'),
    aliases: all('SELECT n.path, a.alias FROM aliases a JOIN notes n ON n.id = a.note_id ORDER BY 1, 2'),
    links: all(
      `SELECT n.path, l.line, l.col, l.raw, l.kind, l.target, l.subpath, l.resolved, l.status, l.candidates,
              l.via_alias, l.subpath_line, l.reason, l.context
       FROM links l JOIN notes n ON n.id = l.note_id ORDER BY 1, 2, 3, 5`,
    ),
    search: all(
      'SELECT n.path, f.title, f.aliases, f.headings, f.body FROM notes_fts f JOIN notes n ON n.id = f.rowid ORDER BY 1',
    ),
    warnings: all('SELECT path, message FROM warnings ORDER BY path, message'),
    // Rows of a note that is gone (none in an index built afresh): deleting a note deletes them.
    orphans: all(
      `SELECT 'lead', note_id FROM note_leads WHERE note_id NOT IN (SELECT id FROM notes)
       UNION ALL SELECT 'search', rowid FROM notes_fts WHERE rowid NOT IN (SELECT id FROM notes)`,
    ),
  };
}
