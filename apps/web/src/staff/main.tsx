import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { createConsoleRouter } from './app/router';
import '../styles/app.css';
import './staff.css';

/*
 * The staff console's entry (issue 41, decision 038): a separate app of the web workspace, built apart from
 * the customers' (vite.staff.config.ts) and served at /staff/. It shares the portal's UI components, styles
 * and API client, and none of the customers' app, content or session code.
 */
const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');
createRoot(container).render(
  <StrictMode>
    <RouterProvider router={createConsoleRouter()} />
  </StrictMode>,
);
