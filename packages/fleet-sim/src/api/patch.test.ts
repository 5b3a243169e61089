import { ApiError } from './apiError';
import { applyJsonPatch, applyMergePatch } from './patch';

describe('merge patch (RFC 7386)', () => {
  it('merges objects, replaces lists and removes nulls', () => {
    const doc = {
      spec: { suspend: false, path: './a', dependsOn: [{ name: 'x' }] },
      metadata: { labels: { a: '1', b: '2' } },
    };
    expect(
      applyMergePatch(doc, {
        spec: { suspend: true, dependsOn: [] },
        metadata: { labels: { b: null, c: '3' } },
      }),
    ).toEqual({
      spec: { suspend: true, path: './a', dependsOn: [] },
      metadata: { labels: { a: '1', c: '3' } },
    });
    expect(doc.spec.suspend).toBe(false);
  });
});

describe('JSON patch (RFC 6902)', () => {
  const doc = {
    metadata: { annotations: { a: '1' } },
    spec: { list: ['x', 'y'] },
  };

  it('adds, replaces, removes, copies and tests', () => {
    expect(
      applyJsonPatch(doc, [
        {
          op: 'add',
          path: '/metadata/annotations/reconcile.fluxcd.io~1requestedAt',
          value: 'now',
        },
        { op: 'replace', path: '/spec/list/0', value: 'z' },
        { op: 'add', path: '/spec/list/-', value: 'w' },
        { op: 'remove', path: '/metadata/annotations/a' },
        { op: 'copy', from: '/spec/list/1', path: '/spec/first' },
        { op: 'test', path: '/spec/first', value: 'y' },
      ]),
    ).toEqual({
      metadata: { annotations: { 'reconcile.fluxcd.io/requestedAt': 'now' } },
      spec: { list: ['z', 'y', 'w'], first: 'y' },
    });
    expect(doc.metadata.annotations.a).toBe('1');
  });

  it('answers 422 for a path that does not exist and a failed test', () => {
    const attempt = (ops: unknown) => {
      try {
        applyJsonPatch(doc, ops);
      } catch (error) {
        return error as ApiError;
      }
      throw new Error('expected an error');
    };
    expect(
      attempt([{ op: 'replace', path: '/spec/missing', value: 1 }]).code,
    ).toBe(422);
    expect(attempt([{ op: 'remove', path: '/status/conditions/0' }]).code).toBe(
      422,
    );
    expect(
      attempt([{ op: 'test', path: '/spec/list/0', value: 'nope' }]).code,
    ).toBe(422);
  });
});
