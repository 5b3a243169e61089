/** Writes the benchmark section into the README, between its markers, leaving the rest of the file as it is. */

export const BEGIN_MARKER = '<!-- bench:begin (written by make bench) -->';
export const END_MARKER = '<!-- bench:end -->';

/**
 * The README with `section` between the markers; without markers, the section (with them) is appended.
 * Throws when the markers are out of order, rather than losing text.
 */
export function withBenchSection(readme: string, section: string): string {
  const begin = readme.indexOf(BEGIN_MARKER);
  const end = readme.indexOf(END_MARKER);
  const block = `${BEGIN_MARKER}\n${section.trimEnd()}\n${END_MARKER}`;
  if (begin < 0 && end < 0) return `${readme.trimEnd()}\n\n${block}\n`;
  if (begin < 0 || end < begin) {
    throw new Error(
      `the README's benchmark markers are broken: expected ${BEGIN_MARKER} before ${END_MARKER}`,
    );
  }
  return `${readme.slice(0, begin)}${block}${readme.slice(
    end + END_MARKER.length,
  )}`;
}
