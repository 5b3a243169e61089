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

  it('adds the ingest of L behind --with-l, the product staying at M', () => {
    expect(parseBenchOptions(['--with-l'])).toMatchObject({
      ingestSizes: ['S', 'M', 'L'],
      productSize: 'M',
    });
  });

  it('runs the product at L with --size L, measuring the ingest of L alone, into its own results file', () => {
    expect(parseBenchOptions(['--size', 'L'])).toMatchObject({
      ingestSizes: ['L'],
      productSize: 'L',
      resultsFile: 'bench/results/latest-L.json',
    });
    // the Kubernetes plugin's views of 100 clusters each wait out the timeout: fewer of them keep the run short
    expect(parseBenchOptions(['--size', 'L']).pageViews).toBeLessThan(parseBenchOptions([]).pageViews);
    expect(() => parseBenchOptions(['--size', 'L', '--with-l'])).toThrow(/leave out --with-l/);
    expect(() => parseBenchOptions(['--quick', '--size', 'L'])).toThrow(/leave out --size L/);
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
      new UsageError('--size must be S, M or L, got XL'),
    );
    expect(() => parseBenchOptions(['--fast'])).toThrow('unknown flag --fast');
    expect(() => parseBenchOptions(['--churn', '-1'])).toThrow(
      /--churn needs a number/,
    );
  });
});
