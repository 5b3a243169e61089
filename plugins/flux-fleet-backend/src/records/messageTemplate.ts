/**
 * A Ready message with the record's own values (revision, name, namespace) cut out, so that the messages of many
 * objects share one text: `Applied revision: main@sha1:4f1c…` of every Kustomization becomes one template, and
 * the revision is kept once, in its own column. Flux writes its messages from these values (kustomize-controller
 * "Applied revision: <revision>", source-controller "stored artifact for revision '<revision>'", helm-controller
 * "Helm upgrade succeeded for release <namespace>/<name>.v3 with chart <chart>@<version>").
 */

/** Stand for the values in a template; a message or value that has any of them is never templated. */
const PLACEHOLDERS = ['\u0001', '\u0002', '\u0003'] as const;
function hasPlaceholder(text: string): boolean {
  return PLACEHOLDERS.some(p => text.includes(p));
}
/** Shorter values are left in: they would cut ordinary words and gain nothing. */
const MIN_VALUE_LENGTH = 4;

/**
 * The template of `message` for `values` (at most three, in a fixed order: revision, name, namespace), or
 * undefined when none of them occurs in it. {@link fillTemplate} with the same values gives `message` back
 * exactly: each value's occurrences become its own placeholder, which neither the message nor the values have.
 */
export function messageTemplate(
  message: string,
  values: readonly (string | undefined)[],
): string | undefined {
  if (hasPlaceholder(message)) return undefined;
  let template = message;
  let cut = false;
  for (let i = 0; i < values.length && i < PLACEHOLDERS.length; i++) {
    const value = values[i];
    if (!value || value.length < MIN_VALUE_LENGTH || hasPlaceholder(value)) continue;
    if (!template.includes(value)) continue;
    template = template.replaceAll(value, PLACEHOLDERS[i]);
    cut = true;
  }
  return cut ? template : undefined;
}

/** The message a {@link messageTemplate} was made from, given the same values. */
export function fillTemplate(template: string, values: readonly (string | undefined)[]): string {
  let message = template;
  // the other way round: a later value was cut from text an earlier one had already been cut from
  for (let i = Math.min(values.length, PLACEHOLDERS.length) - 1; i >= 0; i--) {
    if (message.includes(PLACEHOLDERS[i])) message = message.replaceAll(PLACEHOLDERS[i], values[i]!);
  }
  return message;
}
