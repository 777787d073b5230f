import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App';
import { Session } from './ui/session';
import './ui/styles.css';

const session = new Session();
const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App session={session} />
    </StrictMode>,
  );
}
void session.start();
// A closing tab lets go of the cluster at once: its worker holds the cluster's Web Lock, and a
// worker left running (busy, or frozen in the back/forward cache) would keep the next tab out.
addEventListener('pagehide', () => session.shutdown());
addEventListener('pageshow', (e) => {
  if (e.persisted) location.reload(); // back from the cache with its worker gone: start again
});
