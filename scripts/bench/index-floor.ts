// The floor of a cold index, run as a process of its own: reading every note of a vault and inserting
// them into an FTS5 table of the index's shape in one transaction. Nothing that indexes the notes can be
// faster than this; `npm run bench` prints the cold index against it. Prints its milliseconds and peak RSS.
import Database from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [vault, file] = process.argv.slice(2);
const started = performance.now();
const db = new Database(file!);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = OFF');
db.exec(
  `CREATE VIRTUAL TABLE notes_fts USING fts5(title, body, tokenize = "unicode61 remove_diacritics 2 categories 'L* N* Co M*'")`,
);
const insert = db.prepare('INSERT INTO notes_fts (title, body) VALUES (?, ?)');
const names = readdirSync(vault!, { recursive: true, encoding: 'utf8' }).filter((name) =>
  name.endsWith('.md'),
);
db.transaction(() => {
  for (const name of names) insert.run(name, readFileSync(join(vault!, name), 'utf8'));
})();
db.close();
const ms = performance.now() - started;
process.stdout.write(
  `${JSON.stringify({ notes: names.length, ms, maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`,
);
