import { useCallback, useRef, useState } from 'react';
import { refuseBeforeSending } from '../../../../shared/attachment-domain';
import type { PreparedAttachment } from '../../../../shared/context-items-domain';
import { describeError, kasten } from '../../api';
import { toBase64 } from './attachment-facts';

/** A file on the composer: being read, read and counted, or refused with main's sentence. */
export interface ComposerFile {
  id: number;
  name: string;
  state: 'reading' | 'ready' | 'refused';
  prepared: PreparedAttachment | null;
  message: string | null;
}

/** `chat:send` takes at most this many files with one message. */
const maxFiles = 20;

/**
 * The files waiting to go with the next message. Each is read and counted by main as soon as it is added;
 * what can be refused by its name and size alone is refused without uploading it.
 */
export function useComposerAttachments() {
  const [files, setFiles] = useState<ComposerFile[]>([]);
  const nextId = useRef(1);
  // The files being read or read, known at once (the state lags a render behind several drops).
  const accepted = useRef(new Set<number>());

  const update = useCallback((id: number, patch: Partial<ComposerFile>) => {
    if (patch.state === 'refused') accepted.current.delete(id);
    setFiles((list) => list.map((file) => (file.id === id ? { ...file, ...patch } : file)));
  }, []);

  const add = useCallback(
    (list: readonly File[]) => {
      for (const file of list) {
        const id = nextId.current++;
        const refusal =
          accepted.current.size >= maxFiles
            ? `“${file.name}” was not added: a message can carry ${maxFiles} files.`
            : (refuseBeforeSending(file.name, file.size)?.message ?? null);
        const entry: ComposerFile = refusal
          ? { id, name: file.name, state: 'refused', prepared: null, message: refusal }
          : { id, name: file.name, state: 'reading', prepared: null, message: null };
        setFiles((current) => [...current, entry]);
        if (refusal) continue;
        accepted.current.add(id);
        void file
          .arrayBuffer()
          .then((buffer) =>
            kasten.attachments.prepare({ name: file.name, data: toBase64(new Uint8Array(buffer)) }),
          )
          .then(
            (prepared) => update(id, { state: 'ready', prepared }),
            (error: unknown) => update(id, { state: 'refused', message: describeError(error) }),
          );
      }
    },
    [update],
  );

  const remove = useCallback((id: number) => {
    accepted.current.delete(id);
    setFiles((list) => list.filter((file) => file.id !== id));
  }, []);

  const clear = useCallback(() => {
    accepted.current.clear();
    setFiles([]);
  }, []);

  return {
    files,
    add,
    remove,
    clear,
    reading: files.some((file) => file.state === 'reading'),
    /** What `chat:send` takes: the files read and counted. */
    tokens: files.flatMap((file) => (file.prepared ? [file.prepared.token] : [])),
  };
}
