import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Where a source note goes and how its broken link of its own script reads. */
interface Script {
  folder: string;
  note: (index: number) => string;
  brokenTarget: (group: number) => string;
}

/** Folders in four scripts, with long names that wrap: the health view must not draw one over another. */
const scripts: Script[] = [
  {
    folder: 'en/Release notes',
    note: (index) => `Release notes for version 0.0.${index}`,
    brokenTarget: (group) => `Release notes/v0.0.${group}`,
  },
  {
    folder: 'ar/ملاحظات الإصدار',
    note: (index) => `ملاحظة طويلة عن الروابط بين الملاحظات ${index}`,
    brokenTarget: (group) => `ملاحظة مفقودة عن الروابط الطويلة جدا ${group}`,
  },
  {
    folder: 'zh/发布说明',
    note: (index) => `关于笔记之间链接的很长的说明 ${index}`,
    brokenTarget: (group) => `不存在的关于链接的笔记 ${group}`,
  },
  {
    folder: 'ko/릴리스 노트',
    note: (index) => `노트 사이의 링크에 관한 긴 설명 ${index}`,
    brokenTarget: (group) => `없는 노트 ${group}`,
  },
];

/** The notes named Canvas, one per script: every `[[Canvas]]` is ambiguous among them. */
export const canvasTwins = [
  'en/Plugins/Canvas.md',
  'ar/الإضافات/Canvas.md',
  'zh/插件/Canvas.md',
  'ko/플러그인/Canvas.md',
];

export interface HealthVaultOptions {
  /** Notes holding the issues; each holds `linksPerNote` of them. */
  notes: number;
  /** A multiple of 5: a fifth of each note's links are of each of its five lines below. */
  linksPerNote: number;
}

/** What the vault holds, worked out as it was written. */
export interface HealthVaultFacts {
  issues: number;
  broken: number;
  ambiguous: number;
  brokenSubpaths: number;
  /** Links to Canvas, written `[[Canvas]]` or `[[canvas|…]]`. */
  canvasLinks: number;
  /** Notes under each top-level folder that hold issues. */
  notesIn: Record<string, number>;
  /** The path of the note with this index. */
  pathOf: (index: number) => string;
}

/**
 * A vault whose health lists thousands of issues, as a big multilingual vault's does: notes in English,
 * Arabic, Chinese and Korean folders, each with links that are ambiguous (Canvas, in every language),
 * broken (to a thousand missing notes, and to one missing note per script group), or to a missing
 * heading; and one note in `en-archive/` whose folder starts like `en`'s.
 */
export function writeHealthVault(root: string, options: HealthVaultOptions): HealthVaultFacts {
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write('Start.md', '# Start\n\nThe vault begins here. See [[en/Plugins/Canvas|the English canvas]].\n');
  for (const path of canvasTwins) write(path, '# Canvas\n\nAn infinite space for notes.\n');
  write('en-archive/Old release.md', '# Old release\n\nSee [[Missing note 0]].\n');

  const pathOf = (index: number) => {
    const script = scripts[index % scripts.length]!;
    return `${script.folder}/${script.note(index)}.md`;
  };
  const notesIn: Record<string, number> = { 'en-archive': 1 };
  const perLine = options.linksPerNote / 5;
  for (let index = 0; index < options.notes; index++) {
    const script = scripts[index % scripts.length]!;
    const lines = [`# ${script.note(index)}`, ''];
    for (let repeat = 0; repeat < perLine; repeat++) {
      const link = index * perLine + repeat;
      lines.push(
        `Drawn on [[Canvas]] first.`,
        `Then again on [[canvas|the canvas]].`,
        `A note not written yet: [[Missing note ${link % 1000}]].`,
        `In its own script: [[${script.brokenTarget(Math.floor(index / scripts.length) % 50)}]] which is gone.`,
        `A heading that is not there: [[Start#Heading ${index % 20}]].`,
        '',
      );
    }
    write(pathOf(index), lines.join('\n'));
    const top = script.folder.split('/')[0]!;
    notesIn[top] = (notesIn[top] ?? 0) + 1;
  }
  const fifth = options.notes * perLine;
  return {
    issues: 5 * fifth + 1,
    broken: 2 * fifth + 1,
    ambiguous: 2 * fifth,
    brokenSubpaths: fifth,
    canvasLinks: 2 * fifth,
    notesIn,
    pathOf,
  };
}
