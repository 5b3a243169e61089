import Typography from '@material-ui/core/Typography';
import { CSSProperties, Fragment, ReactNode } from 'react';
import { NOWRAP_CELL } from './TruncatedText';

/**
 * A table cell that wraps between words only: Backstage's cells break words anywhere (`word-break: break-word`),
 * which at 1280 px cut names, kinds and flags mid-word ("namespac es").
 */
export const WORDS_CELL: CSSProperties = { wordBreak: 'normal', overflowWrap: 'normal' };

/**
 * Items of a list (cluster/namespace paths, `--flags`, "Kind 3" counts) each kept on one line, the list wrapping
 * between them: a browser breaks a name after its hyphens and slashes, even where words are kept whole.
 */
export const WholeItems = (props: { items: readonly string[]; separator?: string }) => {
  const separator = props.separator ?? ', ';
  if (props.items.length === 0) return <>—</>;
  return (
    <>
      {props.items.map((item, n) => (
        <Fragment key={n}>
          {n > 0 && separator}
          <span style={NOWRAP_CELL}>{item}</span>
        </Fragment>
      ))}
    </>
  );
};

/**
 * Short facts one under another, each starting a line of its own; a fact too long for its column wraps between its
 * words, never inside one (a browser breaks "cross-namespace" after its hyphen): a narrow column where " · "
 * between them ran wide.
 */
export const WholeLines = (props: { lines: readonly string[] }) => (
  <>
    {props.lines.map(line => (
      <div key={line} style={{ whiteSpace: 'normal' }}>
        <WholeItems items={line.split(' ')} separator=" " />
      </div>
    ))}
  </>
);

/**
 * A path (`cluster/namespace`, `cluster/instance/shard`) whose parts each stay whole, with a line break allowed after
 * each slash: a list of such paths kept whole on one line each ran a table past 1280 px.
 */
export const BreakablePath = (props: { parts: readonly string[] }) => (
  <>
    {props.parts.map((part, n) => (
      <Fragment key={n}>
        {n > 0 && <wbr />}
        <span style={NOWRAP_CELL}>
          {part}
          {n < props.parts.length - 1 ? '/' : ''}
        </span>
      </Fragment>
    ))}
  </>
);

/**
 * A cell's second fact, under its first in the secondary text colour (an object's kind under its name, the boundary
 * under the instance): at 1280 px a column of its own for each pushed the tables past the page.
 */
export const SecondLine = (props: { children: ReactNode; testId?: string }) => (
  <Typography
    variant="body2"
    color="textSecondary"
    component="div"
    data-testid={props.testId}
    // wraps between words even in a cell kept on one line: it may hold a BreakablePath
    style={{ ...WORDS_CELL, whiteSpace: 'normal' }}
  >
    {props.children}
  </Typography>
);

/**
 * A sentence that wraps between its words and after the commas of a list written without spaces (label selectors:
 * `a=b,c=d`), never after a hyphen inside a name: a finding's message broke "team-content" into "team-" and
 * "content" across lines.
 */
export const WholeWords = (props: { text: string }) => (
  <>
    {props.text.split(' ').map((word, n) => (
      <Fragment key={n}>
        {n > 0 && ' '}
        {word.split(/(?<=,)/).map((part, m) => (
          <Fragment key={m}>
            {m > 0 && <wbr />}
            <span style={NOWRAP_CELL}>{part}</span>
          </Fragment>
        ))}
      </Fragment>
    ))}
  </>
);
