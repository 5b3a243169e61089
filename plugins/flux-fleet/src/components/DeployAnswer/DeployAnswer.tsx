import Box from '@material-ui/core/Box';
import Link from '@material-ui/core/Link';
import { makeStyles } from '@material-ui/core/styles';
import Typography from '@material-ui/core/Typography';
import { FluxObjectRef } from '@flux-fleet/plugin-flux-fleet-common';
import { memo } from 'react';
import {
  COMPARISON_WORDS,
  compareVerdicts,
  DeployLine,
  DeployVerdict,
  deployHeadline,
  VERDICT_WORDS,
} from '../../lib/deployAnswer';
import { objectTitle } from '../../lib/objectKey';
import { StateTone } from '../../lib/stateText';
import { RelativeTime } from '../shared/RelativeTime';
import { RevisionLink } from '../shared/RevisionLink';
import { StatusTone } from '../shared/StatusTone';
import { useErrorTextClass } from '../shared/useErrorTextClass';
import { CopyableCommand } from '../shared/CopyableCommand';

/** The tone of each deploy verdict (the same icons and colours as the reconcile states). */
export const VERDICT_TONE: Readonly<Record<DeployVerdict, StateTone>> = {
  deployed: 'ok',
  behind: 'warning',
  progressing: 'pending',
  failing: 'error',
  suspended: 'aborted',
  stale: 'warning',
};

const useStyles = makeStyles(theme => ({
  line: {
    display: 'grid',
    gridTemplateColumns: 'minmax(9em, max-content) minmax(8em, 1fr) auto',
    columnGap: theme.spacing(2),
    alignItems: 'baseline',
    padding: theme.spacing(0.75, 0),
    borderBottom: `1px solid ${theme.palette.divider}`,
  },
  nowrap: {
    whiteSpace: 'nowrap',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    wordBreak: 'normal',
  },
  detail: {
    gridColumn: '1 / -1',
    paddingLeft: theme.spacing(3),
  },
}));

const Revision = (props: { line: DeployLine }) => {
  const { line } = props;
  const { object } = line;
  if (!line.revision) {
    return (
      <Typography variant="body2" component="span" color="textSecondary">
        no revision applied yet
      </Typography>
    );
  }
  return (
    <Typography variant="body2" component="span">
      <RevisionLink revision={line.revision} sourceUrl={object.sourceUrl} />
      {line.comparison === 'current' && (
        <Typography component="span" variant="body2" color="textSecondary">
          {' '}
          · {COMPARISON_WORDS.current}
        </Typography>
      )}
      {line.comparison !== 'current' &&
        line.comparison !== 'unknown' &&
        line.sourceRevision && (
          <Typography
            component="span"
            variant="body2"
            color="textSecondary"
            data-testid="flux-fleet-deploy-comparison"
          >
            {' '}
            · {COMPARISON_WORDS[line.comparison]}{' '}
            <RevisionLink
              revision={line.sourceRevision}
              sourceUrl={object.sourceUrl}
            />
          </Typography>
        )}
    </Typography>
  );
};

/**
 * One cluster's line: verdict, cluster, the revision applied (linked to its commit) and whether it is what the
 * source holds, since when; when it is not deployed and up to date, the cause in words and the `flux` command.
 *
 * Test ids: `flux-fleet-deploy-line-<cluster>`, inside it `flux-fleet-deploy-verdict`, `flux-fleet-deploy-cause`,
 * `flux-fleet-deploy-command`.
 */
export const DeployAnswerLine = (props: {
  line: DeployLine;
  onOpen?: (ref: FluxObjectRef) => void;
}) => {
  const classes = useStyles();
  const errorText = useErrorTextClass();
  const { line, onOpen } = props;
  const ref = line.object.ref;
  return (
    <Box
      className={classes.line}
      data-testid={`flux-fleet-deploy-line-${line.cluster}`}
      role="listitem"
    >
      <span className={classes.nowrap} data-testid="flux-fleet-deploy-verdict">
        <StatusTone tone={VERDICT_TONE[line.verdict]}>
          {VERDICT_WORDS[line.verdict]}
        </StatusTone>
      </span>
      <span className={classes.nowrap}>
        {onOpen ? (
          <Link
            component="button"
            variant="body2"
            onClick={() => onOpen(ref)}
            title={`${objectTitle(ref)} in ${line.cluster}`}
            aria-label={`${line.cluster}: details of ${objectTitle(ref)}`}
            style={{ fontWeight: 'bold' }}
          >
            {line.cluster}
          </Link>
        ) : (
          <strong>{line.cluster}</strong>
        )}{' '}
        <Revision line={line} />
      </span>
      <Typography
        variant="body2"
        component="span"
        color="textSecondary"
        className={classes.nowrap}
      >
        {line.since && <RelativeTime time={line.since} />}
      </Typography>
      {line.cause && (
        <Box className={classes.detail}>
          <Typography
            variant="body2"
            color={line.verdict === 'failing' ? 'inherit' : 'textSecondary'}
            className={line.verdict === 'failing' ? errorText : undefined}
            data-testid="flux-fleet-deploy-cause"
          >
            {line.reconcilers > 1 && `${objectTitle(ref)}: `}
            {line.cause}
          </Typography>
          {line.command && (
            <CopyableCommand
              command={line.command}
              label="Copy the flux command"
              data-testid="flux-fleet-deploy-command"
            />
          )}
        </Box>
      )}
    </Box>
  );
};

/**
 * The deploy answer: the sentence for the whole service, then one line per cluster grouped by environment.
 *
 * Test ids: `flux-fleet-deploy-answer`, `flux-fleet-deploy-headline`, `flux-fleet-deploy-env-<environment>`.
 */
export const DeployAnswer = memo(
  (props: { lines: DeployLine[]; onOpen?: (ref: FluxObjectRef) => void }) => {
    const { lines, onOpen } = props;
    const environments = [...new Set(lines.map(l => l.environment))];
    const worst = [...lines].sort((a, b) =>
      compareVerdicts(a.verdict, b.verdict),
    )[0];
    return (
      <Box data-testid="flux-fleet-deploy-answer" mb={2}>
        <Typography
          variant="subtitle1"
          component="p"
          data-testid="flux-fleet-deploy-headline"
          style={{ fontWeight: 'bold' }}
        >
          {worst && (
            <StatusTone tone={VERDICT_TONE[worst.verdict]}>
              {deployHeadline(lines)}
            </StatusTone>
          )}
        </Typography>
        {environments.map(environment => (
          <Box
            key={environment}
            mt={1}
            data-testid={`flux-fleet-deploy-env-${environment}`}
          >
            <Typography variant="overline" component="h3" color="textSecondary">
              {environment}
            </Typography>
            <div role="list" aria-label={`Clusters of ${environment}`}>
              {lines
                .filter(l => l.environment === environment)
                .map(line => (
                  <DeployAnswerLine
                    key={line.cluster}
                    line={line}
                    onOpen={onOpen}
                  />
                ))}
            </div>
          </Box>
        ))}
      </Box>
    );
  },
);
