import './zod-without-eval';
// The tokens and defaults first, then the pieces several features share: a feature's own sheet, which
// builds on both, comes after them wherever it is imported.
import './theme.css';
import './components/pane.css';
import './components/form.css';
import './components/include-badge.css';
import './components/tool-modes.css';
import './components/markdown.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { startSyncs } from './start-syncs';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
startSyncs();
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
