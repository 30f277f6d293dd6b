// An editor saving one note again and again, each save adding a unique marker line to what it read,
// until the stop file appears, `maxSaves` is reached or `maxMs` pass. Styles:
// - in-place: opens the note, reads it and writes it back through that one descriptor;
// - exchange: writes a temporary file and exchanges it with the note, as Kasten does; when what it
//   displaced is not what it read (someone saved meanwhile) it exchanges that back and starts again;
// - rename: writes a temporary file and renames it over the note, checking nothing.
// Reports each save's marker and whether it went into the note (an in-place write can land in a file
// already exchanged away: `displaced`).
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  ftruncateSync,
  openSync,
  readFileSync,
  readSync,
} from 'node:fs';
import { renameSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { swapSync } from 'fs-native-extensions';

const [note, style, stopFile, maxSaves, maxMs] = process.argv.slice(2);
const until = Date.now() + Number(maxMs);
const saves = [];
// Every 5 to 25 ms, as an editor saving on every keystroke of a fast typist (the attack run measured 25 ms).
const pause = () => new Promise((resolve) => setTimeout(resolve, 5 + Math.floor(Math.random() * 21)));

function readAll(fd) {
  const chunks = [];
  const chunk = Buffer.alloc(65536);
  for (let position = 0; ;) {
    const read = readSync(fd, chunk, 0, chunk.length, position);
    if (read === 0) return Buffer.concat(chunks);
    chunks.push(Buffer.from(chunk.subarray(0, read)));
    position += read;
  }
}

const withLine = (bytes, line) => Buffer.concat([bytes, Buffer.from(`${line}\n`)]);

function saveInPlace(marker) {
  const fd = openSync(note, constants.O_RDWR);
  try {
    const next = withLine(readAll(fd), marker);
    writeSync(fd, next, 0, next.length, 0);
    ftruncateSync(fd, next.length);
    return { marker, displaced: fstatSync(fd).nlink === 0 };
  } finally {
    closeSync(fd);
  }
}

function saveByExchange(marker, temporary) {
  for (let round = 0; round < 64; round++) {
    const basis = readFileSync(note);
    writeFileSync(temporary, withLine(basis, marker));
    if (readFileSync(note).equals(basis)) {
      swapSync(temporary, note);
      const displaced = readFileSync(temporary);
      // Saved by someone meanwhile: theirs goes back at once, and the line is added to it.
      if (!displaced.equals(basis)) swapSync(temporary, note);
      unlinkSync(temporary);
      if (displaced.equals(basis)) return { marker, displaced: false };
    } else unlinkSync(temporary);
  }
  throw new Error('the note never settled');
}

function saveByRename(marker, temporary) {
  writeFileSync(temporary, withLine(readFileSync(note), marker));
  renameSync(temporary, note);
  return { marker, displaced: false };
}

const temporary = join(dirname(note), `.editor-${process.pid}-${basename(note)}`);
process.send?.({ ready: true });
for (let n = 0; n < Number(maxSaves) && Date.now() < until && !existsSync(stopFile); n++) {
  const marker = `editor-save-${n}`;
  if (style === 'in-place') saves.push(saveInPlace(marker));
  else if (style === 'exchange') saves.push(saveByExchange(marker, temporary));
  else saves.push(saveByRename(marker, temporary));
  await pause();
}
process.send?.({ saves }, () => process.exit(0));
