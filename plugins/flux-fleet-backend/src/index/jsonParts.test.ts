import { joinJsonArray } from './jsonParts';

describe('joinJsonArray', () => {
  it.each([
    ['no elements', [], '{"items":[]}'],
    ['texts only', ['{"a":1}', '"é"'], '{"items":[{"a":1},"é"]}'],
    ['bytes only', [Buffer.from('1'), Buffer.from('"ü"')], '{"items":[1,"ü"]}'],
    ['bytes and texts mixed', ['1', Buffer.from('2'), Buffer.from('3'), '4', '5'], '{"items":[1,2,3,4,5]}'],
  ])('joins %s', (_, elements, expected) => {
    const json = joinJsonArray('{"items":[', elements as Array<Buffer | string>, ']}');
    expect(json.toString('utf8')).toBe(expected);
    expect(JSON.parse(json.toString('utf8'))).toEqual(JSON.parse(expected));
  });
});
