/**
 * Kubernetes label selectors, as kube-apiserver parses them: comma-separated requirements of the forms
 * `key=value`, `key==value`, `key!=value`, `key in (a,b)`, `key notin (a,b)`, `key` and `!key`. Used to answer
 * `?labelSelector=` and to model which controller watches which object.
 */

/** One requirement of a label selector. */
export type LabelRequirement =
  | { key: string; op: 'exists' | 'notExists' }
  | { key: string; op: 'in' | 'notIn'; values: string[] }
  | { key: string; op: 'equals' | 'notEquals'; value: string };

/** A parsed label selector: every requirement must hold (an empty selector matches everything). */
export type LabelSelector = readonly LabelRequirement[];

/** Thrown for a selector kube-apiserver would reject (answered with 400 BadRequest). */
export class SelectorParseError extends Error {}

const KEY =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

function checkKey(key: string, text: string): string {
  if (!KEY.test(key) || key.length > 316) {
    throw new SelectorParseError(
      `unable to parse requirement: invalid label key "${key}" in "${text}"`,
    );
  }
  return key;
}

function checkValue(value: string, text: string): string {
  if (!VALUE.test(value) || value.length > 63) {
    throw new SelectorParseError(
      `unable to parse requirement: invalid label value: "${value}" in "${text}"`,
    );
  }
  return value;
}

/** Splits on commas that are not inside parentheses. */
function splitRequirements(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (depth < 0) {
      throw new SelectorParseError(`unbalanced parentheses in "${text}"`);
    }
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  if (depth !== 0) {
    throw new SelectorParseError(`unbalanced parentheses in "${text}"`);
  }
  parts.push(current);
  return parts;
}

/** Parses a label selector; an empty or blank text selects everything. */
export function parseLabelSelector(text: string | undefined): LabelSelector {
  if (text === undefined || text.trim() === '') return [];
  return splitRequirements(text).map(raw => {
    const part = raw.trim();
    if (part === '') {
      throw new SelectorParseError(
        `found '', expected: identifier in "${text}"`,
      );
    }
    const setMatch = /^(\S+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(part);
    if (setMatch) {
      const values = setMatch[3]
        .split(',')
        .map(v => checkValue(v.trim(), text))
        .filter((v, i, all) => all.indexOf(v) === i);
      if (setMatch[3].trim() === '') {
        throw new SelectorParseError(
          `unable to parse requirement: for 'in', 'notin' operators, values set can't be empty in "${text}"`,
        );
      }
      return {
        key: checkKey(setMatch[1], text),
        op: setMatch[2] === 'in' ? 'in' : 'notIn',
        values,
      };
    }
    const cmpMatch = /^([^=!\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(part);
    if (cmpMatch) {
      return {
        key: checkKey(cmpMatch[1], text),
        op: cmpMatch[2] === '!=' ? 'notEquals' : 'equals',
        value: checkValue(cmpMatch[3], text),
      };
    }
    const notExists = /^!\s*(\S+)$/.exec(part);
    if (notExists)
      return { key: checkKey(notExists[1], text), op: 'notExists' };
    if (/^\S+$/.test(part)) return { key: checkKey(part, text), op: 'exists' };
    throw new SelectorParseError(
      `unable to parse requirement: couldn't parse "${part}" in "${text}"`,
    );
  });
}

/** Whether labels satisfy every requirement of the selector. */
export function matchesLabels(
  selector: LabelSelector,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  for (const req of selector) {
    const has = labels !== undefined && Object.hasOwn(labels, req.key);
    const value = has ? labels![req.key] : undefined;
    switch (req.op) {
      case 'exists':
        if (!has) return false;
        break;
      case 'notExists':
        if (has) return false;
        break;
      case 'equals':
        if (value !== req.value) return false;
        break;
      case 'notEquals':
        if (value === req.value) return false;
        break;
      case 'in':
        if (!has || !req.values.includes(value!)) return false;
        break;
      case 'notIn':
        if (has && req.values.includes(value!)) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}
