import type { ReactNode } from 'react';

/**
 * A number input inside its label (`before` and `after` it): the text is kept as typed and handed
 * on as typed, so a form can show an invalid entry (`invalid`) instead of silently clamping it.
 */
export function NumberField(props: {
  before: ReactNode;
  after?: ReactNode;
  className?: string;
  inputClassName?: string;
  testid: string;
  min: number;
  max?: number;
  value: string | number;
  ariaLabel?: string;
  invalid?: boolean;
  onChange: (text: string) => void;
}) {
  return (
    <label className={props.className}>
      {props.before}
      <input
        className={props.inputClassName}
        data-testid={props.testid}
        type="number"
        min={props.min}
        max={props.max}
        value={props.value}
        aria-label={props.ariaLabel}
        aria-invalid={props.invalid}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.after}
    </label>
  );
}
