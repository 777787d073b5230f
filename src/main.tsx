import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App';
import { Session } from './ui/session';
import { attachedHostUrl, webSocketEndpoint } from './ui/host/hostLink';
import { uiStore } from './ui/store';
import { EngineClient } from './worker/client';
import './ui/styles.css';

// Served by `npm run broker`: attach to its engine (the one real clients use) instead of a worker.
const hostUrl = attachedHostUrl();
const session = new Session(
  uiStore,
  hostUrl ? new EngineClient(webSocketEndpoint(hostUrl, (host) => uiStore.setState({ host }))) : new EngineClient(),
);
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
