/**
 * A strip of tabs after ARIA's tabs pattern: each tab `<prefix>-tab-<id>` controls the one panel
 * `<prefix>-body`, and the selected one is marked `selected` (its class `<prefix>-tab`).
 */
export function TabList<T extends string>(props: {
  prefix: string;
  tabs: readonly { id: T; label: string }[];
  selected: T;
  label?: string;
  onSelect: (id: T) => void;
}) {
  const { prefix, selected } = props;
  return (
    <div className={`${prefix}-tabs`} role="tablist" aria-label={props.label}>
      {props.tabs.map((t) => (
        <button
          key={t.id}
          type="button"
          role="tab"
          id={`${prefix}-tab-${t.id}`}
          aria-selected={t.id === selected}
          aria-controls={`${prefix}-body`}
          data-testid={`${prefix}-tab-${t.id}`}
          className={`${prefix}-tab${t.id === selected ? ' selected' : ''}`}
          onClick={() => props.onSelect(t.id)}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
