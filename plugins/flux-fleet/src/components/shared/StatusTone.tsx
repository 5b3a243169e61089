import {
  StatusAborted,
  StatusError,
  StatusOK,
  StatusPending,
  StatusWarning,
} from '@backstage/core-components';
import { Theme, useTheme } from '@material-ui/core/styles';
import { ReactNode } from 'react';
import { StateTone } from '../../lib/stateText';

type StatusComponent = (props: { children?: ReactNode }) => JSX.Element;

const ICONS: Record<StateTone, StatusComponent> = {
  ok: StatusOK,
  error: StatusError,
  warning: StatusWarning,
  pending: StatusPending,
  aborted: StatusAborted,
};

/**
 * A status in words with the core-components icon of its tone: the one way every Flux Fleet view shows a state
 * (reconcile states, deploy verdicts, cluster sync status), so a colour means the same everywhere.
 */
export const StatusTone = (props: {
  tone: StateTone;
  children?: ReactNode;
}) => {
  const Icon = ICONS[props.tone];
  // core-components hides a status and its children from assistive technology (aria-hidden): the icon alone goes
  // through it (decorative), the words stay beside it, readable
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center' }}>
      <Icon />
      <span>{props.children}</span>
    </span>
  );
};

/**
 * The theme colour of a tone (the status colours core-components' icons use), for tinted cells and counts; reads
 * in the light and the dark theme alike.
 */
export function toneColor(theme: Theme, tone: StateTone): string {
  const status = (theme.palette as any).status as
    | Record<string, string>
    | undefined;
  switch (tone) {
    case 'ok':
      return status?.ok ?? theme.palette.success.main;
    case 'error':
      return status?.error ?? theme.palette.error.main;
    case 'warning':
      return status?.warning ?? theme.palette.warning.main;
    case 'pending':
      return status?.pending ?? theme.palette.info.main;
    default:
      return status?.aborted ?? theme.palette.text.secondary;
  }
}

/** {@link toneColor} as a hook. */
export function useToneColor(): (tone: StateTone) => string {
  const theme = useTheme();
  return tone => toneColor(theme, tone);
}
