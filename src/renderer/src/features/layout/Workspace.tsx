import { useEffect, useRef, useState, type ReactNode } from 'react';
import {
  Group,
  Panel,
  Separator,
  useGroupRef,
  usePanelRef,
  type Layout,
  type LayoutChangedMeta,
} from 'react-resizable-panels';
import { SidebarDrawer } from './SidebarDrawer';
import { narrowQuery, sidebarForShortcut, useLayoutStore, type Sidebar } from './layout-store';
import { readLayout, writeLayout } from './saved-layout';
import './layout.css';

const outerDefaults: Record<'wide' | 'narrow', Layout> = {
  wide: { tree: 17, center: 63, references: 20 },
  narrow: { tree: 0, center: 100, references: 0 },
};
// The composer keeps at least 420 px (wide) / 360 px (narrow) when the chat is at its minimum.
const chatMinimum = { wide: 520, narrow: 460 };
const noteMinimum = { wide: 280, narrow: 240 };
const noteKey = 'kasten.layout.note';

function outerKey(mode: 'wide' | 'narrow'): string {
  return `kasten.layout.${mode}`;
}

interface WorkspaceProps {
  tree: ReactNode;
  chat: ReactNode;
  /** The open note or the health view; null when neither is shown. */
  note: ReactNode | null;
  references: ReactNode;
}

/** Tree | chat | note | references as resizable splits; the sidebars collapse; sizes are remembered. */
export function Workspace({ tree, chat, note, references }: WorkspaceProps) {
  const narrow = useLayoutStore((state) => state.narrow);
  // A collapsed panel keeps its border a pixel wide; its content goes, so it is not half-there.
  const referencesCollapsed = useLayoutStore((state) => state.referencesCollapsed);
  const treeDrawerOpen = useLayoutStore((state) => state.treeDrawerOpen);
  const drawerOpen = useLayoutStore((state) => state.drawerOpen);
  const mode: 'wide' | 'narrow' = narrow ? 'narrow' : 'wide';
  const group = useGroupRef();
  const treePanel = usePanelRef();
  const referencesPanel = usePanelRef();
  const [initial] = useState(() => readLayout(outerKey(mode)) ?? outerDefaults[mode]);
  // Read when the note panel mounts; later changes of it are the panel's own.
  const noteSize = readLayout(noteKey)?.note ?? 45;

  useEffect(() => {
    const media = window.matchMedia(narrowQuery);
    const follow = () =>
      useLayoutStore.setState({ narrow: media.matches, drawerOpen: false, treeDrawerOpen: false });
    media.addEventListener('change', follow);
    return () => media.removeEventListener('change', follow);
  }, []);

  // Each mode has its own remembered sizes: a narrow window must not shrink the wide layout.
  const shownMode = useRef<'wide' | 'narrow'>(mode);
  useEffect(() => {
    if (shownMode.current === mode) return;
    shownMode.current = mode;
    group.current?.setLayout(readLayout(outerKey(mode)) ?? outerDefaults[mode]);
  }, [mode, group]);

  useEffect(() => {
    const toggle = (sidebar: Sidebar) => {
      const { narrow: isNarrow, drawerOpen, treeDrawerOpen } = useLayoutStore.getState();
      if (sidebar === 'references' && isNarrow) {
        useLayoutStore.setState({ drawerOpen: !drawerOpen });
        return;
      }
      if (sidebar === 'tree' && treeDrawerOpen) {
        useLayoutStore.setState({ treeDrawerOpen: false });
        return;
      }
      const panel = (sidebar === 'tree' ? treePanel : referencesPanel).current;
      if (!panel) return;
      if (!panel.isCollapsed()) {
        panel.collapse();
        return;
      }
      panel.expand();
      // No room beside the chat's and the note's minimum widths: the tree comes over the chat instead.
      if (sidebar === 'tree' && panel.isCollapsed()) useLayoutStore.setState({ treeDrawerOpen: true });
    };
    useLayoutStore.setState({ toggle });
    const onKey = (event: KeyboardEvent) => {
      const sidebar = sidebarForShortcut(event);
      if (!sidebar) return;
      event.preventDefault();
      toggle(sidebar);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [treePanel, referencesPanel]);

  const saveOuter = (layout: Layout, meta: LayoutChangedMeta) =>
    writeLayout(outerKey(shownMode.current), meta.requestedLayout ?? layout);
  const saveNote = (layout: Layout, meta: LayoutChangedMeta) => {
    const size = (meta.requestedLayout ?? layout).note;
    if (size) writeLayout(noteKey, { note: size });
  };

  return (
    <>
      <Group
        id="workspace"
        className="workspace-splits"
        groupRef={group}
        defaultLayout={initial}
        onLayoutChanged={saveOuter}
      >
        <Panel
          id="tree"
          panelRef={treePanel}
          collapsible
          minSize={180}
          maxSize={420}
          onResize={(size) => useLayoutStore.setState({ treeCollapsed: size.asPercentage === 0 })}
        >
          {treeDrawerOpen ? null : tree}
        </Panel>
        <Separator className="split-handle" aria-label="Resize the note tree" />
        <Panel id="center" minSize={note ? chatMinimum[mode] + noteMinimum[mode] : chatMinimum[mode]}>
          <Group id="center" className="workspace" onLayoutChanged={saveNote}>
            <Panel id="chat" minSize={chatMinimum[mode]}>
              {chat}
            </Panel>
            {note && (
              <>
                <Separator className="split-handle" aria-label="Resize the note" />
                <Panel id="note" minSize={noteMinimum[mode]} defaultSize={`${noteSize}%`}>
                  {note}
                </Panel>
              </>
            )}
          </Group>
        </Panel>
        <Separator className="split-handle" aria-label="Resize the references" disabled={narrow} />
        <Panel
          id="references"
          panelRef={referencesPanel}
          collapsible
          minSize={200}
          maxSize={480}
          onResize={(size) =>
            !useLayoutStore.getState().narrow &&
            useLayoutStore.setState({ referencesCollapsed: size.asPercentage === 0 })
          }
        >
          {narrow || referencesCollapsed ? null : references}
        </Panel>
      </Group>
      <SidebarDrawer
        side="left"
        open={treeDrawerOpen}
        onClose={() => useLayoutStore.setState({ treeDrawerOpen: false })}
      >
        {tree}
      </SidebarDrawer>
      {narrow && (
        <SidebarDrawer
          side="right"
          open={drawerOpen}
          onClose={() => useLayoutStore.setState({ drawerOpen: false })}
        >
          {references}
        </SidebarDrawer>
      )}
    </>
  );
}
