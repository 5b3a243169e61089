import { CopyTextButton } from '@backstage/core-components';
import { makeStyles } from '@material-ui/core/styles';
import { Fragment } from 'react';

const useStyles = makeStyles(theme => ({
  // where the line is too narrow the command wraps between its words, never inside one (a context or object name
  // stays whole), and the copy button sits after it, never over its end
  command: {
    display: 'flex',
    alignItems: 'center',
    maxWidth: '100%',
    gap: theme.spacing(0.5),
    '& code': { fontSize: '0.8rem', minWidth: 0 },
    '& code > span': { whiteSpace: 'nowrap' },
    '& button': { flexShrink: 0 },
    // the copy icon at the text's size: at its own 24 px it overflowed the icon button and was clipped
    '& button svg': { width: '1rem', height: '1rem' },
  },
}));

/** A `flux` or `kubectl` command to copy: the command in code, then its copy button. */
export function CopyableCommand(props: {
  command: string;
  /** Names the command for screen readers: "Copy the flux migrate command for prod-eu-west-1". */
  label: string;
  'data-testid'?: string;
}) {
  const classes = useStyles();
  const { command } = props;
  return (
    <span className={classes.command} data-testid={props['data-testid']}>
      <code>
        {command.split(' ').map((word, i) => (
          // eslint-disable-next-line react/no-array-index-key
          <Fragment key={i}>
            {i > 0 && ' '}
            <span>{word}</span>
          </Fragment>
        ))}
      </code>
      <CopyTextButton
        text={command}
        tooltipText="Command copied"
        aria-label={props.label}
        // an icon beside the command, not a filled square that outweighs it (the default, primary, is for actions)
        variant="tertiary"
      />
    </span>
  );
}
