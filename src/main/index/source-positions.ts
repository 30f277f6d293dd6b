/**
 * Maps offsets in markdown-it's inline source (a paragraph's, heading's or table cell's text with the
 * block structure stripped) back to 1-based line and column in the note, which markdown-it does not
 * track below block level.
 */
export interface SourceMap {
  at(offset: number): { line: number; column: number };
}

/**
 * Paragraphs and setext headings: each content line is a suffix of its source line (markers and indent
 * stripped in front); the last one also lost its trailing ASCII spaces and tabs.
 */
export function linesMap(content: string, firstLine: number, lines: string[]): SourceMap {
  const contentLines = content.split('\n');
  const starts: number[] = [];
  const offsets: number[] = [];
  let start = 0;
  contentLines.forEach((text, index) => {
    const source = lines[firstLine + index] ?? '';
    // markdown-it trims ASCII spaces and tabs only: a no-break space (U+00A0) or an ideographic space at
    // the end stays in the content, so trimEnd(), which takes every Unicode space, shifted the columns.
    const visible = index === contentLines.length - 1 ? source.replace(/[ \t\r]+$/, '') : source;
    starts.push(start);
    offsets.push(visible.length - text.length);
    start += text.length + 1;
  });
  return {
    at(offset) {
      let index = starts.length - 1;
      while (index > 0 && starts[index]! > offset) index--;
      return { line: firstLine + index + 1, column: offsets[index]! + offset - starts[index]! + 1 };
    },
  };
}

/** ATX headings: the text starts after the opening `#` run and its spaces. */
export function headingMap(content: string, line: number, lines: string[]): SourceMap {
  const source = lines[line] ?? '';
  let after = source.indexOf('#');
  while (source[after] === '#') after++;
  const offset = Math.max(0, source.indexOf(content, after));
  return { at: (position) => ({ line: line + 1, column: offset + position + 1 }) };
}

/**
 * Table cells: markdown-it drops the `\` of each `\|`, so the cell is found in its row by its escaped form
 * (from `cursor`, cells in order) and every pipe before an offset shifts it by one.
 */
export function cellMap(content: string, line: number, lines: string[], cursor: { at: number }): SourceMap {
  const source = lines[line] ?? '';
  const escaped = content.replaceAll('|', '\\|');
  const start = Math.max(0, source.indexOf(escaped, cursor.at));
  cursor.at = start + escaped.length;
  return {
    at(offset) {
      let pipes = 0;
      for (
        let index = content.indexOf('|');
        index >= 0 && index < offset;
        index = content.indexOf('|', index + 1)
      )
        pipes++;
      return { line: line + 1, column: start + offset + pipes + 1 };
    },
  };
}
