import { BEGIN_MARKER, END_MARKER, withBenchSection } from './updateReadme';

describe('withBenchSection', () => {
  it('replaces what is between the markers and keeps the rest', () => {
    const readme = `# Title\n\n${BEGIN_MARKER}\nold figures\n${END_MARKER}\n\n## Developing\n`;
    expect(withBenchSection(readme, '## Benchmarks\nnew figures\n')).toBe(
      `# Title\n\n${BEGIN_MARKER}\n## Benchmarks\nnew figures\n${END_MARKER}\n\n## Developing\n`,
    );
  });

  it('appends the section with its markers to a README that has none', () => {
    expect(withBenchSection('# Title\n', 'figures')).toBe(
      `# Title\n\n${BEGIN_MARKER}\nfigures\n${END_MARKER}\n`,
    );
  });

  it('refuses markers out of order instead of losing text', () => {
    expect(() =>
      withBenchSection(`${END_MARKER}\ntext\n${BEGIN_MARKER}`, 'x'),
    ).toThrow(/markers are broken/);
  });
});
