/** How Kasten reads an attached file; `code` carries a language for a fenced block. */
export type AttachmentKind = 'markdown' | 'text' | 'code' | 'pdf' | 'image' | 'web';

/** Why an attached file was not read; `message` says it to the user. */
export type AttachmentRefusalCode =
  | 'binary'
  | 'unsupported'
  | 'too-large'
  | 'empty'
  | 'pdf-no-text'
  | 'pdf-encrypted'
  | 'pdf-corrupt'
  | 'timeout';

export interface AttachmentText {
  ok: true;
  name: string;
  kind: AttachmentKind;
  /** For code, the language of the fenced block (`typescript`); null for other kinds. */
  language: string | null;
  /** The text to send; a PDF's pages are each headed `--- page N ---`. */
  text: string;
  /** How many pages a PDF has (all of them, even when `truncated`); null for other kinds. */
  pages: number | null;
  /** Size of the file as attached. */
  bytes: number;
  /** The text was cut at `maxAttachmentCharacters`. */
  truncated: boolean;
  /** For a web page (its article as Markdown, or a PDF it served): the address it was read from. */
  url?: string | null;
}

export interface AttachmentRefusal {
  ok: false;
  name: string;
  code: AttachmentRefusalCode;
  /** A plain sentence for the user, naming the file. */
  message: string;
}

export type AttachmentResult = AttachmentText | AttachmentRefusal;

/** Files larger than this are refused before they are read (the composer can refuse them on drop). */
export const maxAttachmentBytes = 25 * 1024 * 1024;
/** Text beyond this many characters is cut off and the result marked `truncated`. */
export const maxAttachmentCharacters = 2_000_000;
/** A PDF that takes longer than this to read is given up. */
export const attachmentReadTimeoutMs = 30_000;

export const markdownExtensions: readonly string[] = 'md markdown mdown mkd mdx'.split(' ');
export const textExtensions: readonly string[] = 'txt text log csv tsv rst adoc org tex bib'.split(' ');

// Language names are the ones highlight.js and GitHub use for fenced blocks.
const extensionsByLanguage: Record<string, string> = {
  typescript: 'ts mts cts',
  tsx: 'tsx',
  javascript: 'js mjs cjs',
  jsx: 'jsx',
  python: 'py pyi',
  rust: 'rs',
  go: 'go',
  java: 'java',
  kotlin: 'kt kts',
  scala: 'scala',
  swift: 'swift',
  c: 'c h',
  cpp: 'cpp cc cxx hpp hh hxx',
  csharp: 'cs',
  fsharp: 'fs fsx',
  ruby: 'rb',
  php: 'php',
  perl: 'pl pm',
  lua: 'lua',
  r: 'r',
  julia: 'jl',
  haskell: 'hs',
  ocaml: 'ml mli',
  elixir: 'ex exs',
  erlang: 'erl',
  clojure: 'clj cljs cljc edn',
  dart: 'dart',
  zig: 'zig',
  bash: 'sh bash zsh',
  powershell: 'ps1',
  sql: 'sql',
  html: 'html htm',
  xml: 'xml',
  css: 'css',
  scss: 'scss',
  less: 'less',
  vue: 'vue',
  svelte: 'svelte',
  json: 'json jsonc json5',
  yaml: 'yaml yml',
  toml: 'toml',
  ini: 'ini cfg conf',
  dockerfile: 'dockerfile',
  makefile: 'mk',
  graphql: 'graphql gql',
  protobuf: 'proto',
  diff: 'diff patch',
};

/** File extensions (lower case, no dot) of code, and the language of each. */
export const codeLanguages: ReadonlyMap<string, string> = new Map(
  Object.entries(extensionsByLanguage).flatMap(([language, extensions]) =>
    extensions.split(' ').map((extension) => [extension, language] as const),
  ),
);

/**
 * Extensions Kasten knows how to read. Other files are still read when their content is clean
 * text; only `unsupportedAttachmentExtensions` are refused by name.
 */
export const acceptedAttachmentExtensions: readonly string[] = [
  ...markdownExtensions,
  ...textExtensions,
  ...codeLanguages.keys(),
  'pdf',
];

/** Binary formats refused by name alone: images, archives, office documents, audio, video, programs. */
export const unsupportedAttachmentExtensions: ReadonlySet<string> = new Set(
  (
    'png jpg jpeg gif webp avif bmp tif tiff heic ico psd svgz ' +
    'zip gz tgz bz2 xz 7z rar tar zst dmg iso ' +
    'doc docx xls xlsx ppt pptx odt ods odp pages numbers key epub rtf ' +
    'mp3 wav flac ogg m4a aac mp4 mov avi mkv webm ' +
    'exe dll so dylib bin class jar wasm o a sqlite db woff woff2 ttf otf'
  ).split(' '),
);

/**
 * Images the main process takes for models that see them (it decides, knowing the model): not refused
 * by name before reading, though the text reader refuses them.
 */
export const imageAttachmentExtensions: ReadonlySet<string> = new Set(
  'png jpg jpeg jfif gif webp avif tif tiff heic heif svg'.split(' '),
);

/** The extension of a file name in lower case, without the dot; '' when it has none. */
export function attachmentExtension(name: string): string {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

const megabytes = (bytes: number): string => `${Math.round(bytes / (1024 * 1024))} MB`;

/** The sentence the user reads for each refusal. */
export function refusalMessage(name: string, code: AttachmentRefusalCode): string {
  const quoted = `“${name}”`;
  switch (code) {
    case 'binary':
      return `${quoted} is not text: it holds binary data.`;
    case 'unsupported':
      return `${quoted} is not a kind of file Kasten can read: attach text, Markdown, code or PDF files.`;
    case 'too-large':
      return `${quoted} is too large: an attachment can be up to ${megabytes(maxAttachmentBytes)}.`;
    case 'empty':
      return `${quoted} is empty: there is no text in it to attach.`;
    case 'pdf-no-text':
      return `${quoted} has no text to read: its pages are images only (Kasten does not read text in images).`;
    case 'pdf-encrypted':
      return `${quoted} is password-protected: Kasten cannot read it.`;
    case 'pdf-corrupt':
      return `${quoted} is damaged or not really a PDF: Kasten cannot read it.`;
    case 'timeout':
      return `${quoted} took more than ${attachmentReadTimeoutMs / 1000} seconds to read, so Kasten stopped reading it.`;
  }
}

/** A refusal with its usual sentence, or with `message` when the situation needs a more precise one. */
export function refuseAttachment(
  name: string,
  code: AttachmentRefusalCode,
  message = refusalMessage(name, code),
): AttachmentRefusal {
  return { ok: false, name, code, message };
}

/** What the composer can refuse on drop, from the name and size alone; null when the file must be read. */
export function refuseBeforeReading(name: string, size: number): AttachmentRefusal | null {
  if (size > maxAttachmentBytes) return refuseAttachment(name, 'too-large');
  if (size === 0) return refuseAttachment(name, 'empty');
  if (unsupportedAttachmentExtensions.has(attachmentExtension(name)))
    return refuseAttachment(name, 'unsupported');
  return null;
}

/**
 * What the composer and `kasten ask --attach` refuse before handing a file over: as `refuseBeforeReading`,
 * except that images are left to the main process, which knows whether the model sees them.
 */
export function refuseBeforeSending(name: string, size: number): AttachmentRefusal | null {
  const image = imageAttachmentExtensions.has(attachmentExtension(name));
  if (image && size > 0 && size <= maxAttachmentBytes) return null;
  return refuseBeforeReading(name, size);
}
