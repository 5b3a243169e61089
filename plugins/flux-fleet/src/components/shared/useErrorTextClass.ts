import { makeStyles } from '@material-ui/core/styles';

/**
 * Text in the error colour that people can read: Material UI's `color="error"` (#f44336 on white, 3.7:1) fails
 * WCAG's 4.5:1 for body text (axe's color-contrast rule), so light themes use the palette's dark error shade and dark
 * themes its light one.
 */
const useStyles = makeStyles(theme => ({
  errorText: {
    color:
      theme.palette.type === 'dark'
        ? theme.palette.error.light
        : theme.palette.error.dark,
  },
}));

/** The class name of readable error-coloured text. */
export function useErrorTextClass(): string {
  return useStyles().errorText;
}
