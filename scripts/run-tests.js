// `npm test`: lint, typecheck, unit, build, integration and end-to-end, then one totals line.
// Every step runs even when an earlier one failed, so one run shows everything that is wrong.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const results = 'test-results';
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });

const vitest = (project) => [
  'npx',
  [
    'vitest',
    'run',
    '--project',
    project,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${results}/${project}.json`,
  ],
];

const steps = [
  { name: 'lint', command: ['npm', ['run', '--silent', 'lint']] },
  { name: 'typecheck', command: ['npm', ['run', '--silent', 'typecheck']] },
  { name: 'unit', command: vitest('unit'), report: `${results}/unit.json` },
  // Integration tests run the built parser worker, and e2e the built app.
  { name: 'build', command: ['npx', ['electron-vite', 'build']] },
  { name: 'integration', command: vitest('integration'), report: `${results}/integration.json` },
  { name: 'e2e', command: ['npx', ['playwright', 'test']], report: `${results}/e2e.json` },
];

function counts(step) {
  if (!step.report || !existsSync(step.report)) return null;
  const report = JSON.parse(readFileSync(step.report, 'utf8'));
  if (report.stats) {
    // Playwright: expected = passed, unexpected = failed.
    const { expected = 0, unexpected = 0, flaky = 0, skipped = 0 } = report.stats;
    return { passed: expected + flaky, failed: unexpected, skipped };
  }
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    skipped: report.numPendingTests + report.numTodoTests,
  };
}

const summary = [];
for (const step of steps) {
  console.log(`\n▶ ${step.name}`);
  const [command, args] = step.command;
  const { status } = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  summary.push({ ...step, ok: status === 0, counts: counts(step) });
}

let passed = 0;
let failed = 0;
let skipped = 0;
console.log('\nstep          result   passed  failed  skipped');
for (const step of summary) {
  const c = step.counts;
  console.log(
    `${step.name.padEnd(13)} ${(step.ok ? 'ok' : 'FAILED').padEnd(8)} ${String(c?.passed ?? '-').padStart(6)}  ${String(c?.failed ?? '-').padStart(6)}  ${String(c?.skipped ?? '-').padStart(7)}`,
  );
  if (c) {
    passed += c.passed;
    failed += c.failed;
    skipped += c.skipped;
  }
  // A failed check without test counts (lint, typecheck, build, a runner that crashed) counts as one failure.
  if (!step.ok && (!c || c.failed === 0)) failed += 1;
}
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exitCode = summary.every((step) => step.ok) ? 0 : 1;
