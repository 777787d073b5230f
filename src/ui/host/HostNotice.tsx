import type { PageRole } from '../../link/hostFrames';

/**
 * The page is attached to the Node host's engine (`npm run broker`): say so, and whether this
 * page controls it or only watches (another page controls; this one's actions are refused).
 */
export function HostNotice({ role }: { role: PageRole }) {
  const others = role.pages - 1;
  return (
    <div
      className={`banner ${role.role === 'watching' ? 'banner-warn' : 'banner-info'}`}
      role="status"
      data-testid="host-attached"
      data-role={role.role}
    >
      {role.role === 'watching' ? (
        <>
          <strong data-testid="host-watching">Watching.</strong> Another page controls this Node engine: this page shows
          everything, and its actions are refused until that page closes.
        </>
      ) : (
        <>
          <strong>Attached to npm run broker's engine:</strong> real Kafka clients are drawn here, on wall-clock time.
          {others > 0 && ` ${others} other page${others === 1 ? '' : 's'} watching.`}
        </>
      )}
    </div>
  );
}
