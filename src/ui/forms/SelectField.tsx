import { Options } from './Options';

/** A labelled select over a fixed set of values (each shown as `labelOf(value)`). */
export function SelectField<T extends string>({
  label,
  testid,
  value,
  values,
  labelOf,
  onChange,
  disabled,
  title,
}: {
  label: string;
  testid: string;
  value: T;
  values: readonly T[];
  labelOf?: (value: T) => string;
  onChange: (value: T) => void;
  disabled?: boolean;
  title?: string;
}) {
  return (
    <label title={title}>
      {label}{' '}
      <select data-testid={testid} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value as T)}>
        <Options values={values} label={labelOf} />
      </select>
    </label>
  );
}
