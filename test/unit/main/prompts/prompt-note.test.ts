import { describe, expect, it } from 'vitest';
import { readPromptNote } from '../../../../src/main/prompts/prompt-note';
import { fillTemplate, templateVariables } from '../../../../src/main/prompts/prompt-template';

describe('a saved prompt note', () => {
  it('reads name, description, model and include from its frontmatter, and the variables of its body', () => {
    const note = readPromptNote(
      [
        '---',
        'name: Summarize',
        'description: Turn this note into a permanent note',
        'model: small-model',
        'include:',
        '  rules: [Cite sources]',
        '  tools: [search_notes]',
        '---',
        'Summarize {{note}} ({{ title }}), written {{date}}.',
      ].join('\n'),
      'Summarize note',
    );
    expect(note).toMatchObject({
      name: 'Summarize',
      description: 'Turn this note into a permanent note',
      model: 'small-model',
      include: { rules: ['Cite sources'], tools: ['search_notes'] },
      body: 'Summarize {{note}} ({{ title }}), written {{date}}.',
      variables: ['note', 'title', 'date'],
      warnings: [],
      usable: true,
    });
  });

  it('without frontmatter is named by its title and runs', () => {
    const note = readPromptNote('Ask about {{selection}}', 'Explain');
    expect(note).toMatchObject({ name: 'Explain', variables: ['selection'], usable: true, warnings: [] });
  });

  it('with frontmatter that is not YAML says so and still runs under its title', () => {
    const note = readPromptNote('---\nname: [Broken\n---\nHello {{title}}', 'Fallback');
    expect(note.name).toBe('Fallback');
    expect(note.usable).toBe(true);
    expect(note.warnings[0]).toMatch(/^Its frontmatter is not valid YAML/);
  });

  it('with a YAML bomb is refused by the alias limit, with a warning, not expanded', () => {
    const bomb = [
      '---',
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
      'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
      'name: [*f,*f,*f,*f,*f,*f,*f,*f,*f]',
      '---',
      'Body {{note}}',
    ].join('\n');
    const note = readPromptNote(bomb, 'Bomb');
    expect(note.name).toBe('Bomb');
    expect(note.warnings.join(' ')).toMatch(/not valid YAML/);
  });

  it('of 1 MB is listed with a warning and does not run', () => {
    const note = readPromptNote(`---\nname: Huge\n---\n${'word '.repeat(210_000)}`, 'Huge');
    expect(note.usable).toBe(false);
    expect(note.warnings[0]).toMatch(/a prompt may be at most 64 KB, so it does not run/);
  });

  it('with an unknown variable warns and keeps it as written', () => {
    const note = readPromptNote('Use {{note}} and {{author}} and {{ author }}', 'Odd');
    expect(note.usable).toBe(true);
    expect(note.variables).toEqual(['note']);
    expect(note.warnings).toEqual([
      '{{author}}, {{ author }} are not variables Kasten fills ({{note}}, {{selection}}, {{title}}, {{date}}, {{links}}): sent as written.',
    ]);
  });

  it('with fields of the wrong type warns about each and leaves them out', () => {
    const note = readPromptNote('---\nname: 12\ndescription: [a]\ninclude: always\n---\nHi', 'Typed');
    expect(note.name).toBe('Typed');
    expect(note.description).toBeNull();
    expect(note.warnings).toEqual([
      'name: should be a line of text; it is left out.',
      'description: should be a line of text; it is left out.',
      'include: should hold rules: and tools:, each a list of names; it is left out.',
    ]);
  });

  it('with an empty body does not run', () => {
    const note = readPromptNote('---\nname: Empty\n---\n\n', 'Empty');
    expect(note.usable).toBe(false);
    expect(note.warnings).toEqual(['Its body is empty: there is nothing to send.']);
  });
});

describe('filling a prompt template', () => {
  it('replaces each known variable, spaces and case aside, and leaves unknown ones as written', () => {
    expect(
      fillTemplate('{{Title}}: {{ selection }} on {{date}} {{author}}', {
        title: 'Atomic notes',
        selection: 'one idea',
        date: '2026-12-07',
      }),
    ).toBe('Atomic notes: one idea on 2026-12-07 {{author}}');
  });

  it('does not fill a variable inside a value again (a selection quoting {{note}})', () => {
    expect(
      fillTemplate('Explain: {{selection}}', { selection: 'see {{note}} and {{title}}', title: 'X' }),
    ).toBe('Explain: see {{note}} and {{title}}');
  });

  it('lists the known variables in the order they first occur', () => {
    expect(templateVariables('{{links}} {{note}} {{links}} {{x}}')).toEqual({
      known: ['links', 'note'],
      unknown: ['{{x}}'],
    });
  });
});
