import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { applyStoredTheme } from './features/theme/store';
import './styles/theme.css';
import './styles/base.css';
import './styles/controls.css';
import './styles/feedback.css';
import './styles/data.css';
import './styles/picker.css';
import './styles/workspace.css';
import './styles/tables.css';
import './styles/table-admin.css';

applyStoredTheme();

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
