import Typography from '@material-ui/core/Typography';
import { ReactNode } from 'react';

/** One labelled fact. */
export interface Fact {
  label: string;
  value: ReactNode;
}

const FactRow = ({ fact }: { fact: Fact }) => (
  <>
    <Typography component="dt" variant="body2" color="textSecondary">
      {fact.label}
    </Typography>
    <Typography component="dd" variant="body2" style={{ margin: 0 }}>
      {fact.value}
    </Typography>
  </>
);

/** Labelled facts in two columns, as a description list (so screen readers pair each label with its value). */
export const FactList = (props: { facts: Fact[] }) => (
  <dl
    style={{
      display: 'grid',
      gridTemplateColumns: 'max-content minmax(0, 1fr)',
      columnGap: 16,
      rowGap: 4,
      margin: 0,
    }}
  >
    {props.facts.map(fact => (
      <FactRow key={fact.label} fact={fact} />
    ))}
  </dl>
);
