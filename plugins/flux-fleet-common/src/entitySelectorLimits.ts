import { LabelSelectorParseResult, parseLabelSelectorCached } from './labelSelector';

/**
 * How large an entity's `backstage.io/kubernetes-label-selector` may be (rules §6, decided). Kubernetes sets no
 * limit on a selector, but an entity's selector is matched against every object of the fleet on every view: issue
 * 11 measured an annotation of 3,000 terms answering the whole fleet (2.9 MB). Real selectors have a handful of
 * terms; these bounds are far above that and far below what hurts.
 */
export const ENTITY_SELECTOR_LIMITS = {
  /** Characters of the annotation; checked before parsing, so a huge text is never parsed. */
  maxLength: 4_096,
  /** Requirements (comma-separated terms). */
  maxRequirements: 50,
  /** Values of one `in`/`notin` set. */
  maxValues: 100,
} as const;

/**
 * An entity's label selector parsed and checked against {@link ENTITY_SELECTOR_LIMITS}: the selector, or a
 * message saying what is wrong (a parse error, or which bound it passes and by how much). Never throws.
 */
export function checkEntityLabelSelector(text: string): LabelSelectorParseResult {
  if (typeof text !== 'string') return { error: `a label selector must be text, got ${typeof text}` };
  const { maxLength, maxRequirements, maxValues } = ENTITY_SELECTOR_LIMITS;
  if (text.length > maxLength) {
    return {
      error: `the label selector is ${text.length.toLocaleString('en')} characters long; Flux Fleet reads at most ${maxLength.toLocaleString('en')}`,
    };
  }
  const result = parseLabelSelectorCached(text);
  if (result.error !== undefined) return result;
  const { requirements } = result.selector;
  if (requirements.length > maxRequirements) {
    return {
      error: `the label selector has ${requirements.length} requirements; Flux Fleet reads at most ${maxRequirements}`,
    };
  }
  const wide = requirements.find(r => r.values.length > maxValues);
  if (wide) {
    return {
      error: `the label selector's requirement on '${wide.key}' lists ${wide.values.length} values; Flux Fleet reads at most ${maxValues}`,
    };
  }
  return result;
}
