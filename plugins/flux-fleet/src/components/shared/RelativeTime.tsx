import { ageOf, relativeTime } from '../../lib/relativeTime';

/** A time shown relative to now ("5 minutes ago"), with the exact time on hover and for assistive technology. */
export const RelativeTime = (props: { time: string }) => (
  <time dateTime={props.time} title={props.time}>
    {relativeTime(props.time)}
  </time>
);

/** How long ago a time was, as a duration ("12 minutes"), with the exact time on hover. */
export const Age = (props: { since: string }) => (
  <time dateTime={props.since} title={props.since}>
    {ageOf(props.since)}
  </time>
);
