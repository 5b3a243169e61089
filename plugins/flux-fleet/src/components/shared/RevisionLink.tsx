import { Link } from '@backstage/core-components';
import {
  revisionUrl,
  shortRevision,
} from '@flux-fleet/plugin-flux-fleet-common';

/**
 * A revision in short form, linked to its commit when the source URL is on a known Git host; the full revision on
 * hover.
 */
export const RevisionLink = (props: {
  revision: string;
  sourceUrl?: string;
}) => {
  const { revision, sourceUrl } = props;
  const url = revisionUrl(sourceUrl, revision);
  const text = <code title={revision}>{shortRevision(revision)}</code>;
  return url ? (
    <Link to={url} aria-label={`commit of revision ${revision}`}>
      {text}
    </Link>
  ) : (
    text
  );
};
