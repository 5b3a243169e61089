import { parseBenchOptions, UsageError } from './options';

describe('parseBenchOptions', () => {
  it('measures ingest at S and M and runs the product at M by default, writing the committed results', () => {
    expect(parseBenchOptions([])).toMatchObject({
      ingestSizes: ['S', 'M'],
      productSize: 'M',
      quick: false,
      resultsFile: 'bench/results/latest.json',
      updateReadme: true,
    });
  });

  it('adds the ingest of L behind --with-l, never the product at L', () => {
    expect(parseBenchOptions(['--with-l'])).toMatchObject({
      ingestSizes: ['S', 'M', 'L'],
      productSize: 'M',
    });
    expect(() => parseBenchOptions(['--size', 'L'])).toThrow(/--with-l/);
  });

  it('keeps a quick run on fleet S, short, and away from the committed results and the README', () => {
    const quick = parseBenchOptions(['--quick']);
    expect(quick).toMatchObject({
      ingestSizes: ['S'],
      productSize: 'S',
      resultsFile: 'bench/results/quick.tmp.json',
      updateReadme: false,
    });
    expect(quick.loadSeconds).toBeLessThan(parseBenchOptions([]).loadSeconds);
  });

  it('re-renders the README from the committed results with --render', () => {
    expect(parseBenchOptions(['--render'])).toMatchObject({
      renderOnly: true,
      resultsFile: 'bench/results/latest.json',
      updateReadme: true,
    });
    expect(parseBenchOptions([]).renderOnly).toBe(false);
  });

  it('names the wrong flag', () => {
    expect(() => parseBenchOptions(['--size', 'XL'])).toThrow(
      new UsageError('--size must be S or M, got XL'),
    );
    expect(() => parseBenchOptions(['--fast'])).toThrow('unknown flag --fast');
    expect(() => parseBenchOptions(['--churn', '-1'])).toThrow(
      /--churn needs a number/,
    );
  });
});
