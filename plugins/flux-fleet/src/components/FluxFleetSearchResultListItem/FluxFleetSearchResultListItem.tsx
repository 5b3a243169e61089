import { Link } from '@backstage/core-components';
import Box from '@material-ui/core/Box';
import Chip from '@material-ui/core/Chip';
import ListItemIcon from '@material-ui/core/ListItemIcon';
import ListItemText from '@material-ui/core/ListItemText';
import Typography from '@material-ui/core/Typography';
import {
  ResultHighlight,
  SearchDocument,
} from '@backstage/plugin-search-common';
import { HighlightedSearchResultText } from '@backstage/plugin-search-react';
import { FluxFleetSearchDocumentFields } from '@flux-fleet/plugin-flux-fleet-common';
import { ReactNode } from 'react';

/** A catalog search document with the fields the catalog collator writes and those Flux Fleet adds. */
type FluxFleetSearchDocument = SearchDocument &
  FluxFleetSearchDocumentFields & { kind?: string; type?: string };

/**
 * Props of {@link FluxFleetSearchResultListItem}: those the search page gives every result item.
 *
 * @public
 */
export interface FluxFleetSearchResultListItemProps {
  result?: SearchDocument;
  highlight?: ResultHighlight;
  rank?: number;
  icon?: ReactNode | ((result: SearchDocument) => ReactNode);
  lineClamp?: number;
}

/**
 * A search result for one of Flux Fleet's catalog entities: its title and text, with its Flux kind, cluster,
 * instance, shard, tenant and namespace as chips (those the document carries).
 *
 * Test ids: `flux-fleet-search-result`; chips read "<Field>: <value>", e.g. "Shard: shard1".
 *
 * @public
 */
export const FluxFleetSearchResultListItem = (
  props: FluxFleetSearchResultListItemProps,
) => {
  const { highlight, icon, lineClamp = 3 } = props;
  const result = props.result as FluxFleetSearchDocument | undefined;
  if (!result) {
    return null;
  }
  const chips: Array<[string, string | undefined]> = [
    ['Kind', result.fluxKind ?? result.type],
    ['Cluster', result.fluxCluster],
    ['Instance', result.fluxInstance],
    ['Shard', result.fluxShard],
    ['Tenant', result.fluxTenant],
    ['Namespace', result.fluxNamespace],
  ];
  return (
    <Box display="flex" data-testid="flux-fleet-search-result">
      {icon && (
        <ListItemIcon>
          {typeof icon === 'function' ? icon(result) : icon}
        </ListItemIcon>
      )}
      <Box flexWrap="wrap" width="100%">
        <ListItemText
          primaryTypographyProps={{ variant: 'h6' }}
          primary={
            <Link noTrack to={result.location}>
              {highlight?.fields.title ? (
                <HighlightedSearchResultText
                  text={highlight.fields.title}
                  preTag={highlight.preTag}
                  postTag={highlight.postTag}
                />
              ) : (
                result.title
              )}
            </Link>
          }
          secondary={
            <Typography
              component="span"
              variant="body2"
              color="textSecondary"
              style={{
                display: '-webkit-box',
                WebkitBoxOrient: 'vertical',
                WebkitLineClamp: lineClamp,
                overflow: 'hidden',
              }}
            >
              {highlight?.fields.text ? (
                <HighlightedSearchResultText
                  text={highlight.fields.text}
                  preTag={highlight.preTag}
                  postTag={highlight.postTag}
                />
              ) : (
                result.text
              )}
            </Typography>
          }
        />
        <Box display="flex" flexWrap="wrap" style={{ gap: 4 }}>
          {chips
            .filter(([, value]) => value)
            .map(([label, value]) => (
              <Chip key={label} size="small" label={`${label}: ${value}`} />
            ))}
        </Box>
      </Box>
    </Box>
  );
};
