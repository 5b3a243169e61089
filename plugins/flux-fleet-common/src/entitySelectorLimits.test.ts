import { checkEntityLabelSelector, ENTITY_SELECTOR_LIMITS } from './entitySelectorLimits';

const terms = (n: number) => Array.from({ length: n }, (_, i) => `team${i}=payments`).join(',');

describe('checkEntityLabelSelector', () => {
  it.each([
    ['app=payments', 1],
    ['app in (payments,checkout),tier!=db,!legacy', 3],
    [terms(ENTITY_SELECTOR_LIMITS.maxRequirements), ENTITY_SELECTOR_LIMITS.maxRequirements],
  ])('accepts %j (%d requirements)', (text, n) => {
    expect(checkEntityLabelSelector(text).selector?.requirements).toHaveLength(n);
  });

  it.each([
    // the annotation of 3,000 terms: refused before it is parsed, by its length
    [terms(3_000), /is 52,889 characters long; Flux Fleet reads at most 4,096/],
    [terms(51), /has 51 requirements; Flux Fleet reads at most 50/],
    [
      `app in (${Array.from({ length: 101 }, (_, i) => `v${i}`).join(',')})`,
      /requirement on 'app' lists 101 values; Flux Fleet reads at most 100/,
    ],
    ['app in (payments', /./],
    ['=payments', /./],
  ])('refuses %#, saying why', (text, message) => {
    const result = checkEntityLabelSelector(text);
    expect(result.selector).toBeUndefined();
    expect(result.error).toMatch(message);
  });
});
