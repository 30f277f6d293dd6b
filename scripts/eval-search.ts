// `npm run eval:search`: how well note search finds the right notes. Runs the built `kasten serve` on a
// copy of each fixture vault and asks it the questions in test/fixtures/eval:
//   questions.json     natural-language questions over the eval vault and the sample vault, each with
//                      the notes that answer it → recall@5 and MRR (first relevant hit within the top 10);
//   multilingual.json  one-word queries over the multilingual vault, each with every note containing the
//                      word → recall and precision over the top 50 hits, per language;
//   navigation         every note's title over the eval vault and the docs vault (real documentation pages,
//                      see its README) → the share of notes their own title brings first.
// Nothing here fails a build; it prints tables to compare before and after a change to search.
//
// Semantic and hybrid rows need an embedding model. Without one named below they run against the
// scripted model server of the tests (test/support), whose vectors are bags of words: texts sharing
// words are close. That is a stand-in that exercises the whole path (embedding the vault, vector search,
// fusion), not a measure of search by meaning; its rows say so. With a real model:
//
// EVAL_EMBED_URL=http://127.0.0.1:11434   the embedding server (Ollama's root, or an OpenAI-compatible
//                                         URL ending in /v1); default: Ollama on this machine
// EVAL_EMBED_MODEL=nomic-embed-text       the embedding model (default nomic-embed-text)
// EVAL_EMBED_PROVIDER=ollama              ollama or openai-compatible (default ollama)
// EVAL_EMBED_KEY_ENV=OPENAI_API_KEY       the variable holding its API key, if it needs one
//   Any of the first three selects the real model; they become `kasten serve --embed-*` flags.
// EVAL_MODES=lexical,semantic,hybrid      search modes to compare (default: all three)
// EVAL_VERBOSE=1                          also list each question whose answer is not in the top 5, and
//                                         each word query's missing and extra notes.
// EVAL_SERVE_ARGS="--flag value"          extra arguments for `kasten serve`.
import { existsSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { evaluateNavigation, type NavigationFigures } from './bench/navigation-eval.ts';
import { startEmbedder, withServedVault, type SearchServer } from './bench/search-server.ts';

interface Question {
  vault: 'eval' | 'sample';
  question: string;
  relevant: string[];
}

interface WordQuery {
  language: string;
  query: string;
  relevant: string[];
}

const repoRoot = join(import.meta.dirname, '..');
const fixtures = join(repoRoot, 'test', 'fixtures');
const vaultFolders: Record<string, string> = {
  eval: join(fixtures, 'vaults', 'eval'),
  sample: join(repoRoot, 'resources', 'sample-vault'),
  multilingual: join(fixtures, 'vaults', 'multilingual'),
  docs: join(fixtures, 'eval', 'docs-vault'),
};
const questions = JSON.parse(readFileSync(join(fixtures, 'eval', 'questions.json'), 'utf8')) as Question[];
const wordQueries = JSON.parse(
  readFileSync(join(fixtures, 'eval', 'multilingual.json'), 'utf8'),
) as WordQuery[];

const listedModes = (process.env.EVAL_MODES ?? '')
  .split(',')
  .map((mode) => mode.trim())
  .filter(Boolean);
const modes = listedModes.length > 0 ? listedModes : ['lexical', 'semantic', 'hybrid'];
const byMeaning = modes.some((mode) => mode !== 'lexical');
const verbose = process.env.EVAL_VERBOSE === '1';
const serveArgs = (process.env.EVAL_SERVE_ARGS ?? '').split(/\s+/).filter(Boolean);

const questionLimit = 10;
const recallCutoff = 5;
const wordLimit = 50;

if (!existsSync(join(repoRoot, 'out', 'main', 'cli.js'))) {
  console.error('eval:search needs the built app: run `npx electron-vite build` first.');
  process.exit(1);
}

/** Paths compare as NFC: file names may come back from the file system decomposed. */
const key = (path: string) => path.normalize('NFC');

/** Runs `work` against `kasten serve` on a throwaway copy of a fixture vault, embedded when needed. */
const withVault = <T>(name: string, work: (server: SearchServer) => Promise<T>) =>
  withServedVault(vaultFolders[name]!, name, { args: [...embedder.args, ...serveArgs], byMeaning }, work);

const mean = (values: number[]) =>
  values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : Number.NaN;
const fixed = (value: number) => (Number.isFinite(value) ? value.toFixed(3) : 'n/a');
const cell = (value: string, width = 10) => value.padStart(width);

interface QuestionFigures {
  vault: string;
  mode: string;
  questions: number;
  recallAt5: number;
  mrr: number;
  foundIn10: number;
  noHits: number;
}

interface LanguageFigures {
  language: string;
  mode: string;
  queries: number;
  recall: number;
  precision: number;
  noHits: number;
}

async function evaluateQuestions(vault: 'eval' | 'sample'): Promise<QuestionFigures[]> {
  const asked = questions.filter((question) => question.vault === vault);
  return withVault(vault, async (server) => {
    const figures: QuestionFigures[] = [];
    for (const mode of modes) {
      const recalls: number[] = [];
      const reciprocalRanks: number[] = [];
      let found = 0;
      let noHits = 0;
      for (const { question, relevant } of asked) {
        const hits = (await server.search(question, questionLimit, mode)).map((hit) => key(hit.path));
        const wanted = new Set(relevant.map(key));
        const top = hits.slice(0, recallCutoff);
        recalls.push(top.filter((path) => wanted.has(path)).length / wanted.size);
        const rank = hits.slice(0, questionLimit).findIndex((path) => wanted.has(path));
        reciprocalRanks.push(rank === -1 ? 0 : 1 / (rank + 1));
        if (rank !== -1) found++;
        if (hits.length === 0) noHits++;
        if (verbose && !top.some((path) => wanted.has(path))) {
          const shown = hits.length ? hits.slice(0, 3).join(', ') : 'no hits';
          console.log(`  miss [${vault}, ${mode}] "${question}" → want ${relevant.join(', ')}; got ${shown}`);
        }
      }
      figures.push({
        vault,
        mode,
        questions: asked.length,
        recallAt5: mean(recalls),
        mrr: mean(reciprocalRanks),
        foundIn10: found,
        noHits,
      });
    }
    return figures;
  });
}

async function evaluateWords(): Promise<LanguageFigures[]> {
  const languages = [...new Set(wordQueries.map((query) => query.language))];
  return withVault('multilingual', async (server) => {
    const figures: LanguageFigures[] = [];
    for (const mode of modes) {
      for (const language of languages) {
        const recalls: number[] = [];
        const precisions: number[] = [];
        let noHits = 0;
        const asked = wordQueries.filter((query) => query.language === language);
        for (const { query, relevant } of asked) {
          const hits = (await server.search(query, wordLimit, mode)).map((hit) => key(hit.path));
          const wanted = new Set(relevant.map(key));
          const correct = hits.filter((path) => wanted.has(path)).length;
          recalls.push(correct / wanted.size);
          // Precision of an empty answer is undefined; such queries are counted under "no hits" instead.
          if (hits.length > 0) precisions.push(correct / hits.length);
          else noHits++;
          if (verbose && (correct < wanted.size || correct < hits.length)) {
            const missing = [...wanted].filter((path) => !hits.includes(path));
            const extra = hits.filter((path) => !wanted.has(path));
            console.log(
              `  [${language}, ${mode}] "${query}": missing ${missing.join(', ') || '-'}; extra ${extra.join(', ') || '-'}`,
            );
          }
        }
        figures.push({
          language,
          mode,
          queries: asked.length,
          recall: mean(recalls),
          precision: mean(precisions),
          noHits,
        });
      }
    }
    return figures;
  });
}

async function navigation(vault: 'eval' | 'docs'): Promise<NavigationFigures[]> {
  return withVault(vault, async (server) => {
    const figures: NavigationFigures[] = [];
    for (const mode of modes) {
      const result = await evaluateNavigation(server, vault, mode);
      if (verbose) {
        for (const miss of result.misses) {
          const rank = miss.rank === null ? 'not in the top 20' : `#${miss.rank}`;
          console.log(`  miss [${vault}, ${mode}] "${miss.title}" (${miss.path}) ${rank}; first ${miss.got}`);
        }
      }
      figures.push(result);
    }
    return figures;
  });
}

const embedder = await startEmbedder(byMeaning);
/** A mode as the tables name it: semantic and hybrid say which embedder they ran with. */
const label = (mode: string) => (mode === 'lexical' ? mode : `${mode} (${embedder.label})`);
const width = Math.max(8, ...modes.map((mode) => label(mode).length));
console.log(
  `\nKasten search evaluation — ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, modes: ${modes.map(label).join(', ')}\n`,
);

let questionFigures: QuestionFigures[];
let languageFigures: LanguageFigures[];
let navigationFigures: NavigationFigures[];
try {
  questionFigures = [...(await evaluateQuestions('eval')), ...(await evaluateQuestions('sample'))];
  languageFigures = await evaluateWords();
  navigationFigures = [...(await navigation('eval')), ...(await navigation('docs'))];
} catch (error) {
  console.error(`eval:search failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
} finally {
  await embedder.stop();
}

console.log(
  `Natural-language questions: recall@${recallCutoff} (share of the answering notes in the top ${recallCutoff}, averaged) and MRR (1/rank of the first answering note, 0 beyond ${questionLimit})\n`,
);
console.log(
  `| ${'vault'.padEnd(8)} | ${'mode'.padEnd(width)} | ${cell('questions')} | ${cell('recall@5')} | ${cell('MRR')} | ${cell('found@10')} | ${cell('no hits')} |`,
);
console.log(`| ${'-'.repeat(8)} | ${'-'.repeat(width)} | ${Array(5).fill('---------:').join(' | ')} |`);
for (const f of questionFigures) {
  console.log(
    `| ${f.vault.padEnd(8)} | ${label(f.mode).padEnd(width)} | ${cell(String(f.questions))} | ${cell(fixed(f.recallAt5))} | ${cell(fixed(f.mrr))} | ${cell(String(f.foundIn10))} | ${cell(String(f.noHits))} |`,
  );
}

console.log(
  `\nOne-word queries, multilingual vault: recall and precision over the top ${wordLimit} hits, averaged per language (precision over the queries that had hits)\n`,
);
console.log(
  `| ${'language'.padEnd(8)} | ${'mode'.padEnd(width)} | ${cell('queries')} | ${cell('recall')} | ${cell('precision')} | ${cell('no hits')} |`,
);
console.log(`| ${'-'.repeat(8)} | ${'-'.repeat(width)} | ${Array(4).fill('---------:').join(' | ')} |`);
for (const f of languageFigures) {
  console.log(
    `| ${f.language.padEnd(8)} | ${label(f.mode).padEnd(width)} | ${cell(String(f.queries))} | ${cell(fixed(f.recall))} | ${cell(fixed(f.precision))} | ${cell(String(f.noHits))} |`,
  );
}

const share = (count: number, of: number) => `${((100 * count) / of).toFixed(1)}%`;
console.log(
  `\nNavigation: every note's title as the query; the note first (among notes of the same title: within as many places), and within the first three\n`,
);
console.log(
  `| ${'vault'.padEnd(8)} | ${'mode'.padEnd(width)} | ${cell('notes')} | ${cell('first')} | ${cell('top 3')} |`,
);
console.log(`| ${'-'.repeat(8)} | ${'-'.repeat(width)} | ${Array(3).fill('---------:').join(' | ')} |`);
for (const f of navigationFigures) {
  console.log(
    `| ${f.vault.padEnd(8)} | ${label(f.mode).padEnd(width)} | ${cell(String(f.notes))} | ${cell(share(f.first, f.notes))} | ${cell(share(f.inTop3, f.notes))} |`,
  );
}

console.log('');
for (const mode of modes) {
  const byVault = questionFigures
    .filter((f) => f.mode === mode)
    .map((f) => `${f.vault} recall@5 ${fixed(f.recallAt5)} MRR ${fixed(f.mrr)}`);
  const words = languageFigures.filter((f) => f.mode === mode);
  const navigated = navigationFigures
    .filter((f) => f.mode === mode)
    .map((f) => `${f.vault} ${share(f.first, f.notes)}`);
  console.log(
    `Summary (${label(mode)}): ${byVault.join('; ')}; multilingual recall ${fixed(mean(words.map((f) => f.recall)))} precision ${fixed(mean(words.map((f) => f.precision).filter(Number.isFinite)))}; title first: ${navigated.join(', ')}`,
  );
}
