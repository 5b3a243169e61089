import { isCapacityLine, parseExposition } from './parseExposition';

describe('parseExposition', () => {
  it('keeps every label set of a histogram apart, with its _sum and _count', () => {
    const samples = parseExposition(
      [
        '# HELP controller_runtime_reconcile_time_seconds Length of time per reconciliation per controller',
        '# TYPE controller_runtime_reconcile_time_seconds histogram',
        'controller_runtime_reconcile_time_seconds_bucket{controller="gitrepository",le="1"} 1',
        'controller_runtime_reconcile_time_seconds_bucket{controller="gitrepository",le="+Inf"} 2',
        'controller_runtime_reconcile_time_seconds_sum{controller="gitrepository"} 3.5',
        'controller_runtime_reconcile_time_seconds_count{controller="gitrepository"} 2',
        'controller_runtime_reconcile_time_seconds_bucket{controller="helmchart",le="1"} 5',
        'controller_runtime_reconcile_time_seconds_bucket{controller="helmchart",le="+Inf"} 7',
        'controller_runtime_reconcile_time_seconds_sum{controller="helmchart"} 9',
        'controller_runtime_reconcile_time_seconds_count{controller="helmchart"} 7',
      ].join('\n'), // no newline after the last line
    );
    expect(samples).toHaveLength(8);
    expect(samples).toContainEqual({
      name: 'controller_runtime_reconcile_time_seconds_bucket',
      labels: { controller: 'gitrepository', le: '1' },
      value: 1,
    });
    expect(samples[samples.length - 1]).toEqual({
      name: 'controller_runtime_reconcile_time_seconds_count',
      labels: { controller: 'helmchart' },
      value: 7,
    });
  });

  it('reads NaN, +Inf, escapes and timestamps', () => {
    expect(
      parseExposition('a{x="q\\"uote"} NaN\nb +Inf 1700000000000\nc -Inf\n'),
    ).toEqual([
      { name: 'a', labels: { x: 'q"uote' }, value: NaN },
      { name: 'b', labels: {}, value: Infinity },
      { name: 'c', labels: {}, value: -Infinity },
    ]);
  });

  it.each([
    [
      'HTML',
      '<html>\n<body>502 Bad Gateway</body>\n',
      /'<html>' is not a metric name/,
    ],
    [
      'JSON',
      '{"kind":"Status","code":500}',
      /not the Prometheus text format: no sample in it \(it starts '\{"kind"/,
    ],
    ['an empty body', '\n', /it is empty/],
    ['garbage bytes', '\u0000\u0001{=', /not the Prometheus text format/],
    ['words', 'hello world\n', /the value of hello is 'world', not a number/],
  ])('refuses %s with a message saying why', (_, text, message) => {
    expect(() => parseExposition(text)).toThrow(message);
  });
});

describe('isCapacityLine', () => {
  it.each([
    ['a series capacity reads', 'controller_runtime_reconcile_total{controller="kustomization",result="success"} 7', true],
    ['a histogram bucket it reads', 'workqueue_queue_duration_seconds_bucket{name="kustomization",le="1"} 3', true],
    ['an indented one without labels', '  process_cpu_seconds_total 12.5', true],
    ["Flux's per-object histogram", 'gotk_reconcile_duration_seconds_bucket{kind="Kustomization",name="a",namespace="b",le="1"} 2', false],
    ['another well-named series', 'go_goroutines 42', false],
    ['a comment', '# TYPE workqueue_depth gauge', false],
    ['an empty line', '', false],
    ['HTML, for the parser to name', '<html><body>502 Bad Gateway</body></html>', true],
    ['JSON, for the parser to name', '{"kind":"Status","code":500}', true],
    ['a name with a character no metric name has', 'workqueue-depth 3', true],
    ['a name starting with a digit', '9workqueue_depth 3', true],
    ['a series named like one capacity reads, longer', 'workqueue_depth_total 3', false],
  ])('%s: %s', (_, line, kept) => {
    expect(isCapacityLine(Buffer.from(line))).toBe(kept);
    // the same line amid others, as a scrape's body holds it
    const body = Buffer.from(`go_threads 9\n${line}\n# HELP x y`);
    expect(isCapacityLine(body, 13, 13 + Buffer.byteLength(line))).toBe(kept);
  });
});
