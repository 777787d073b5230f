import { Term } from '../glossary/Term';
import type { TermName } from '../glossary/terms';

/**
 * A table's header row: one column header per name, in order (the names as the CLI prints them).
 * A column named in `terms` wraps its header in that glossary term.
 */
export function ColumnHeads({
  names,
  terms,
}: {
  names: readonly string[];
  terms?: Readonly<Partial<Record<string, TermName>>>;
}) {
  return (
    <thead>
      <tr>
        {names.map((n) => {
          const term = terms?.[n];
          return (
            <th key={n} scope="col">
              {term ? <Term name={term}>{n}</Term> : n}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}
