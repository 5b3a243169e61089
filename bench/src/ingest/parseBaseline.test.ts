import { continueToken } from './parseBaseline';

describe('the continue token of a list page', () => {
  it.each([
    ['metadata before the items', '{"kind":"List","metadata":{"continue":"abc="},"items":[{"a":1}]}', 'abc='],
    ['the last page', '{"kind":"List","metadata":{"resourceVersion":"7"},"items":[]}', undefined],
    ['an empty token', '{"metadata":{"continue":""},"items":[{"a":1}]}', undefined],
    ['metadata after the items (the whole page is read)', '{"items":[{"a":1}],"metadata":{"continue":"xyz"}}', 'xyz'],
    ['"items" inside the metadata first', '{"metadata":{"labels":{"items":"1"},"continue":"k"},"items":[]}', 'k'],
  ])('%s', (_case, page, token) => {
    expect(continueToken(page)).toBe(token);
  });
});
