import { Paperclip } from 'lucide-react';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { compactCommand } from '../context/compact-command';
import { useContextStore } from '../context/context-store';
import { useIndexStore } from '../status/index-store';
import { connectionProblem, useConnectionStore } from '../connection/connection-store';
import { ComposerAttachmentChip } from '../attachments/AttachmentChip';
import { useComposerAttachments } from '../attachments/use-composer-attachments';
import { useComposerWebPages } from '../web/use-composer-web-pages';
import { webAddressesIn } from '../../../../shared/web-addresses';
import { useItemsStore } from '../items/items-store';
import { sendItems } from '../items/session-items-view';
import { useChatStore } from './chat-store';
import { useWriteSettingsStore } from './write-settings-store';
import { forgetDraft, keepDraft, loadDraft } from './chat-drafts';
import { useVaultStore } from '../vault/vault-store';
import { DraftLinks } from './DraftLinks';
import { useAskStore } from '../ask/ask-store';
import { ComposerPassage } from '../ask/AskedPassage';
import { useNoteStore } from '../notes/note-store';
import { savedPromptCall } from '../prompts/saved-prompt-call';
import { useCompletion } from './use-completion';
import { SuggestionList } from './SuggestionList';
import './chat.css';
import type { MentionNotice } from './add-mention';
import './composer.css';

/** Files dragged over the page but not onto the composer must not make the browser open them. */
function useNoDropOutside() {
  useEffect(() => {
    const refuse = (event: DragEvent) => {
      if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
    };
    window.addEventListener('dragover', refuse);
    window.addEventListener('drop', refuse);
    return () => {
      window.removeEventListener('dragover', refuse);
      window.removeEventListener('drop', refuse);
    };
  }, []);
}

/**
 * Where the user writes: Enter sends, Shift+Enter adds a line, `[[` completes note titles, `@` adds a
 * note, rule or tool to the chat, `/` at the start runs a saved prompt on the open note; files dropped,
 * pasted or picked go with the message.
 */
export function Composer({ streaming }: { streaming: boolean }) {
  const send = useChatStore((state) => state.send);
  const stop = useChatStore((state) => state.stop);
  const sending = useChatStore((state) => state.sending);
  const offline = useConnectionStore((state) => connectionProblem(state.state));
  const { setDraft, compact } = useContextStore.getState();
  const indexing = useIndexStore((state) => state.progress?.state === 'indexing');
  const [text, setText] = useState('');
  const [caret, setCaret] = useState(0);
  const [notice, setNotice] = useState<MentionNotice | null>(null);
  const [dropping, setDropping] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const files = useComposerAttachments();
  const pages = useComposerWebPages(text);
  const reading = files.reading || pages.reading;
  const tokens = [...files.tokens, ...pages.tokens];
  useNoDropOutside();
  const vault = useVaultStore((state) => state.vault?.path ?? null);
  const sessionId = useChatStore((state) => state.session?.id ?? null);
  /** Counts edits, so a draft read after the user began typing does not replace what was typed. */
  const edits = useRef(0);
  useEffect(() => {
    if (!vault) return;
    let shown = true;
    const before = edits.current;
    void loadDraft(vault, sessionId).then((draft) => {
      if (!shown || edits.current !== before) return;
      setText(draft);
      setDraft(draft);
    });
    return () => {
      shown = false;
    };
  }, [vault, sessionId, setDraft]);
  /** The text changed: the context meter counts it, and it is kept as this chat's draft. */
  const remember = (next: string) => {
    edits.current++;
    setDraft(next);
    // Before the vault is known too: the draft is kept for whichever vault then opens.
    keepDraft(vault, sessionId, next);
  };
  // "Ask" in the note viewer: the question about the passage is typed here.
  const asks = useAskStore((state) => state.asks);
  useEffect(() => {
    if (asks > 0) input.current?.focus();
  }, [asks]);
  // The meter counts the files read for this message, as they will be sent.
  const readyTokens = tokens.join('\n');
  useEffect(() => {
    useContextStore.getState().setAttachments(readyTokens === '' ? [] : readyTokens.split('\n'));
  }, [readyTokens]);

  const edit = (next: string, at = next.length) => {
    setText(next);
    remember(next);
    setCaret(at);
    requestAnimationFrame(() => input.current?.setSelectionRange(at, at));
  };
  const completion = useCompletion(text, caret, edit, setNotice);

  const submit = async () => {
    if (streaming || sending || offline || reading || text.trim() === '') return;
    const command = compactCommand(text);
    if (command) {
      edit('');
      await compact(command.focus);
      return;
    }
    const saved = await savedPromptCall(text, useNoteStore.getState().path);
    const chatStarted = useChatStore.getState().session !== null;
    const { pending, pendingPrompt } = useItemsStore.getState();
    const items = chatStarted ? undefined : sendItems(pending);
    const prompt = chatStarted ? undefined : (pendingPrompt ?? undefined);
    const newChatWrites = useWriteSettingsStore.getState().newChat;
    const writes = chatStarted || newChatWrites === 'ask' ? undefined : newChatWrites;
    const selection = useAskStore.getState().asked?.selection;
    if (await send(text, { attachments: tokens, items, prompt, saved, selection, writes })) {
      useAskStore.getState().clear();
      edit('');
      if (vault) forgetDraft(vault, chatStarted ? sessionId : null);
      files.clear();
      pages.clear();
      setNotice(null);
      useItemsStore.getState().clearPending();
      useWriteSettingsStore.getState().setNewChat('ask');
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (completion.onKeyDown(event)) return;
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void submit();
    }
  };

  const blocked = sending || offline !== null || reading || text.trim() === '';
  return (
    <div
      className={`composer${dropping ? ' dropping' : ''}`}
      data-testid="composer-area"
      onDragOver={(event) => {
        const types = event.dataTransfer.types;
        if (!types.includes('Files') && !types.includes('text/uri-list')) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
        setDropping(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDropping(false);
      }}
      onDrop={(event) => {
        setDropping(false);
        if (event.dataTransfer.files.length === 0) {
          // A link dropped from a browser joins the message as its address; its page is then fetched.
          const address = webAddressesIn(event.dataTransfer.getData('text/uri-list'))[0];
          if (!address) return;
          event.preventDefault();
          edit(text.trim() === '' ? address : `${text.trimEnd()} ${address}`);
          return;
        }
        event.preventDefault();
        files.add([...event.dataTransfer.files]);
      }}
    >
      {completion.rows.length > 0 && (
        <SuggestionList
          label={completion.label}
          rows={completion.rows}
          active={completion.active}
          onChoose={completion.choose}
        />
      )}
      {notice && (
        <p
          className={`composer-notice small${notice.failed ? ' error' : ''}`}
          role={notice.failed ? 'alert' : 'status'}
          data-testid="composer-notice"
        >
          {notice.text}
        </p>
      )}
      {files.files.length > 0 && (
        <div className="attachment-chips" data-testid="composer-attachments">
          {files.files.map((file) => (
            <ComposerAttachmentChip key={file.id} file={file} onRemove={() => files.remove(file.id)} />
          ))}
        </div>
      )}
      <ComposerPassage />
      {pages.pages.length > 0 && (
        <div className="attachment-chips" data-testid="composer-web-pages">
          {pages.pages.map((page) => (
            <ComposerAttachmentChip key={page.id} file={page} onRemove={() => pages.remove(page.id)} />
          ))}
        </div>
      )}
      <DraftLinks text={text} />
      {sending && indexing && (
        <p className="composer-waiting muted small" data-testid="composer-waiting">
          Your message is sent once the index has read the vault; cancel indexing to send it now.
        </p>
      )}
      <div className="composer-row">
        <textarea
          ref={input}
          value={text}
          rows={3}
          placeholder="Ask about your notes. [[ links a note, @ adds a note, rule or tool, / runs a saved prompt; drop files to attach."
          aria-label="Message"
          data-testid="composer"
          readOnly={sending}
          onChange={(event) => {
            setText(event.target.value);
            remember(event.target.value);
            setCaret(event.target.selectionStart);
            completion.typed(event.target.value, event.target.selectionStart);
            setNotice(null);
          }}
          onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
          onPaste={(event) => {
            const pasted = [...event.clipboardData.files];
            if (pasted.length === 0) return;
            event.preventDefault();
            files.add(pasted);
          }}
        />
        <input
          ref={picker}
          type="file"
          multiple
          hidden
          data-testid="attach-input"
          onChange={(event) => {
            files.add([...(event.target.files ?? [])]);
            event.target.value = '';
          }}
        />
        <div className="composer-actions">
          <button
            type="button"
            className="icon-button composer-attach"
            aria-label="Attach files"
            title="Attach files (text, Markdown, code or PDF); you can also drop or paste them"
            onClick={() => picker.current?.click()}
          >
            <Paperclip size={16} aria-hidden />
          </button>
          {streaming ? (
            <button
              type="button"
              disabled={offline !== null}
              title={offline ?? undefined}
              onClick={() => void stop()}
            >
              Stop
            </button>
          ) : (
            <button
              type="button"
              className="primary"
              disabled={blocked}
              title={offline ?? (reading ? 'Waiting for the files and pages to be read' : undefined)}
              onClick={() => void submit()}
            >
              Send
            </button>
          )}
        </div>
      </div>
    </div>
  );
}
