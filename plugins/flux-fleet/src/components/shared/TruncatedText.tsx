import Tooltip from '@material-ui/core/Tooltip';
import Typography from '@material-ui/core/Typography';
import { CSSProperties, ReactNode } from 'react';

/**
 * Table cells keep their words whole: a cell never wraps inside a word (`word-break: normal`) and stays on one
 * line; {@link TruncatedText} cuts what is too long with an ellipsis.
 */
export const NOWRAP_CELL: CSSProperties = {
  whiteSpace: 'nowrap',
  wordBreak: 'normal',
};

/**
 * Text on one line, cut with an ellipsis beyond `maxWidth`, the whole text in a tooltip (and for assistive
 * technology, which reads the element's full text).
 */
export const TruncatedText = (props: {
  text: string;
  maxWidth?: string | number;
  children?: ReactNode;
  color?: 'textPrimary' | 'textSecondary' | 'error';
  testId?: string;
}) => (
  <Tooltip title={props.text}>
    <Typography
      variant="body2"
      component="span"
      color={props.color}
      data-testid={props.testId}
      style={{
        display: 'inline-block',
        maxWidth: props.maxWidth ?? '16em',
        overflow: 'hidden',
        textOverflow: 'ellipsis',
        whiteSpace: 'nowrap',
        wordBreak: 'normal',
        verticalAlign: 'bottom',
      }}
    >
      {props.children ?? props.text}
    </Typography>
  </Tooltip>
);
