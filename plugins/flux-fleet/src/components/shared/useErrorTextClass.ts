import { lighten, makeStyles } from '@material-ui/core/styles';

/**
 * Text in the error colour that people can read: Material UI's `color="error"` (#f44336 on white, 3.7:1) fails
 * WCAG's 4.5:1 for body text (axe's color-contrast rule), so light themes use the palette's dark error shade and dark
 * themes its light one lightened further: Backstage's dark `error.light` (#e57373) on its card background (#424242)
 * is 3.4:1, which axe flagged on a failing deploy line; 40 % lighter is about 5.3:1.
 */
const useStyles = makeStyles(theme => ({
  errorText: {
    color:
      theme.palette.type === 'dark'
        ? lighten(theme.palette.error.light, 0.4)
        : theme.palette.error.dark,
  },
}));

/** The class name of readable error-coloured text. */
export function useErrorTextClass(): string {
  return useStyles().errorText;
}
