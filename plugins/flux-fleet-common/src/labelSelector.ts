/**
 * Kubernetes label selectors in their text form, as Flux controllers take them (`--watch-label-selector`) and as
 * Backstage entities carry them (`backstage.io/kubernetes-label-selector`): parsing with clear errors, and
 * matching against labels with the API server's semantics (rules §4).
 *
 * Grammar (as `k8s.io/apimachinery/pkg/labels.Parse` accepts it): requirements separated by commas, each one of
 * `key`, `!key`, `key=value`, `key==value`, `key!=value`, `key in (v1,v2)`, `key notin (v1,v2)`, `key>n`, `key<n`.
 * Whitespace between tokens is ignored; an empty selector selects everything.
 */
import { ANNOTATIONS } from './vocabulary';

/** The operator of one requirement. */
export type LabelSelectorOperator =
  | 'exists'
  | 'doesNotExist'
  | 'equals'
  | 'notEquals'
  | 'in'
  | 'notIn'
  | 'greaterThan'
  | 'lessThan';

/** One requirement of a label selector; every requirement must hold. */
export interface LabelRequirement {
  key: string;
  operator: LabelSelectorOperator;
  /** Values for `equals`/`notEquals` (one), `in`/`notIn` (one or more), `greaterThan`/`lessThan` (one integer). */
  values: readonly string[];
}

/** A parsed label selector. */
export interface LabelSelector {
  /** The text it was parsed from. */
  text: string;
  /** Empty: selects everything. */
  requirements: readonly LabelRequirement[];
}

/** The outcome of parsing a selector: the selector, or a message saying what is wrong and where. */
export type LabelSelectorParseResult =
  | { selector: LabelSelector; error?: undefined }
  | { selector?: undefined; error: string };

/** Raised by {@link parseLabelSelectorOrThrow} for malformed selectors. */
export class LabelSelectorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LabelSelectorError';
  }
}

type TokenType =
  | 'identifier'
  | 'in'
  | 'notin'
  | '!'
  | '='
  | '=='
  | '!='
  | '>'
  | '<'
  | '('
  | ')'
  | ','
  | 'end';

interface Token {
  type: TokenType;
  value: string;
  /** Offset of the token in the text, for error messages. */
  at: number;
}

const SPECIAL = new Set(['!', '=', '(', ')', ',', '>', '<']);
const WHITESPACE = new Set([' ', '\t', '\r', '\n']);

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (WHITESPACE.has(ch)) {
      i++;
      continue;
    }
    if (SPECIAL.has(ch)) {
      const two = text.slice(i, i + 2);
      if (two === '==' || two === '!=') {
        tokens.push({ type: two, value: two, at: i });
        i += 2;
      } else {
        tokens.push({ type: ch as TokenType, value: ch, at: i });
        i++;
      }
      continue;
    }
    const start = i;
    while (
      i < text.length &&
      !SPECIAL.has(text[i]) &&
      !WHITESPACE.has(text[i])
    ) {
      i++;
    }
    const word = text.slice(start, i);
    let type: TokenType = 'identifier';
    if (word === 'in') type = 'in';
    else if (word === 'notin') type = 'notin';
    tokens.push({ type, value: word, at: start });
  }
  tokens.push({ type: 'end', value: '', at: text.length });
  return tokens;
}

const NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const DNS_SUBDOMAIN =
  /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Why a label key is invalid, or undefined when it is valid (a qualified name, as Kubernetes requires). */
export function labelKeyProblem(key: string): string | undefined {
  const slash = key.indexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (prefix !== undefined) {
    if (
      prefix.length === 0 ||
      prefix.length > 253 ||
      !DNS_SUBDOMAIN.test(prefix)
    ) {
      return `the prefix '${prefix}' of label key '${key}' is not a DNS subdomain`;
    }
  }
  if (name.length === 0 || name.length > 63 || !NAME.test(name)) {
    return `'${key}' is not a valid label key (a name of at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit, with an optional DNS prefix and '/')`;
  }
  return undefined;
}

/** Why a label value is invalid, or undefined when it is valid (empty, or a name of at most 63 characters). */
export function labelValueProblem(value: string): string | undefined {
  if (value === '') return undefined;
  if (value.length > 63 || !NAME.test(value)) {
    return `'${value}' is not a valid label value (at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit)`;
  }
  return undefined;
}

class Parser {
  private pos = 0;
  constructor(
    private readonly text: string,
    private readonly tokens: Token[],
  ) {}

  private peek(): Token {
    return this.tokens[this.pos];
  }

  private next(): Token {
    return this.tokens[this.pos++];
  }

  private fail(token: Token, expected: string): never {
    const found =
      token.type === 'end' ? 'the end of the selector' : `'${token.value}'`;
    throw new LabelSelectorError(
      `invalid label selector "${this.text}": found ${found} at position ${
        token.at + 1
      }, expected ${expected}`,
    );
  }

  private invalid(message: string): never {
    throw new LabelSelectorError(
      `invalid label selector "${this.text}": ${message}`,
    );
  }

  parse(): LabelRequirement[] {
    const requirements: LabelRequirement[] = [];
    if (this.peek().type === 'end') {
      return requirements;
    }
    for (;;) {
      requirements.push(this.requirement());
      const token = this.next();
      if (token.type === 'end') {
        return requirements;
      }
      if (token.type !== ',') {
        this.fail(token, "',' or the end of the selector");
      }
      const after = this.peek();
      if (after.type !== 'identifier' && after.type !== '!') {
        this.fail(after, "a requirement after ','");
      }
    }
  }

  private key(): string {
    const token = this.next();
    if (token.type !== 'identifier') {
      this.fail(token, 'a label key');
    }
    const problem = labelKeyProblem(token.value);
    if (problem) this.invalid(problem);
    return token.value;
  }

  private value(): string {
    const token = this.peek();
    // `key=` (nothing before ',' or the end) means the empty value, as in Kubernetes.
    if (token.type === ',' || token.type === 'end' || token.type === ')') {
      return '';
    }
    // `in` and `notin` are words like any other where a value is expected (`tier=in`).
    if (
      token.type !== 'identifier' &&
      token.type !== 'in' &&
      token.type !== 'notin'
    ) {
      this.fail(token, 'a label value');
    }
    this.next();
    const problem = labelValueProblem(token.value);
    if (problem) this.invalid(problem);
    return token.value;
  }

  private requirement(): LabelRequirement {
    if (this.peek().type === '!') {
      this.next();
      const key = this.key();
      const after = this.peek();
      if (after.type !== ',' && after.type !== 'end') {
        this.fail(after, `',' or the end of the selector after '!${key}'`);
      }
      return { key, operator: 'doesNotExist', values: [] };
    }
    const key = this.key();
    const op = this.peek();
    switch (op.type) {
      case ',':
      case 'end':
        return { key, operator: 'exists', values: [] };
      case '=':
      case '==':
        this.next();
        return { key, operator: 'equals', values: [this.value()] };
      case '!=':
        this.next();
        return { key, operator: 'notEquals', values: [this.value()] };
      case 'in':
      case 'notin': {
        this.next();
        const values = this.valueSet(op.type);
        return { key, operator: op.type === 'in' ? 'in' : 'notIn', values };
      }
      case '>':
      case '<': {
        this.next();
        const token = this.next();
        if (token.type !== 'identifier' || !/^-?\d+$/.test(token.value)) {
          this.fail(token, `an integer after '${op.value}'`);
        }
        return {
          key,
          operator: op.type === '>' ? 'greaterThan' : 'lessThan',
          values: [token.value],
        };
      }
      default:
        return this.fail(
          op,
          "one of '=', '==', '!=', 'in', 'notin', '>', '<', ',' or the end of the selector",
        );
    }
  }

  private valueSet(operator: 'in' | 'notin'): string[] {
    const open = this.next();
    if (open.type !== '(') {
      this.fail(open, `'(' after '${operator}'`);
    }
    const values: string[] = [];
    if (this.peek().type === ')') {
      this.invalid(`the values of '${operator}' cannot be empty`);
    }
    for (;;) {
      values.push(this.value());
      const token = this.next();
      if (token.type === ')') break;
      if (token.type !== ',') {
        this.fail(token, "',' or ')' in the list of values");
      }
    }
    return [...new Set(values)].sort();
  }
}

/** Parses a label selector; never throws. */
export function parseLabelSelector(text: string): LabelSelectorParseResult {
  if (typeof text !== 'string') {
    return { error: `a label selector must be text, got ${typeof text}` };
  }
  try {
    const requirements = new Parser(text, tokenize(text)).parse();
    return { selector: { text, requirements } };
  } catch (e) {
    if (e instanceof LabelSelectorError) {
      return { error: e.message };
    }
    throw e;
  }
}

/** Parses a label selector; throws a {@link LabelSelectorError} saying what is wrong when it is malformed. */
export function parseLabelSelectorOrThrow(text: string): LabelSelector {
  const result = parseLabelSelector(text);
  if (result.error !== undefined) {
    throw new LabelSelectorError(result.error);
  }
  return result.selector;
}

function hasLabel(labels: Readonly<Record<string, string>>, key: string) {
  return Object.prototype.hasOwnProperty.call(labels, key);
}

function matchesRequirement(
  requirement: LabelRequirement,
  labels: Readonly<Record<string, string>>,
): boolean {
  const present = hasLabel(labels, requirement.key);
  const value = present ? labels[requirement.key] : undefined;
  switch (requirement.operator) {
    case 'exists':
      return present;
    case 'doesNotExist':
      return !present;
    case 'equals':
    case 'in':
      return present && requirement.values.includes(value!);
    case 'notEquals':
    case 'notIn':
      // As in Kubernetes: an absent label satisfies `!=` and `notin`.
      return !present || !requirement.values.includes(value!);
    case 'greaterThan':
    case 'lessThan': {
      if (!present || !/^-?\d+$/.test(value!)) return false;
      const actual = Number(value);
      const bound = Number(requirement.values[0]);
      return requirement.operator === 'greaterThan'
        ? actual > bound
        : actual < bound;
    }
    default:
      return false;
  }
}

/** Whether `labels` satisfy every requirement of the selector (an empty selector matches everything). */
export function matchesLabelSelector(
  selector: LabelSelector,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  const actual = labels ?? {};
  for (const requirement of selector.requirements) {
    if (!matchesRequirement(requirement, actual)) return false;
  }
  return true;
}

/**
 * Parsed selectors by text. Fleets use few distinct selectors (one per shard, one per entity), matched against
 * hundreds of thousands of objects, so each text is parsed once. Bounded: cleared when it grows large.
 */
const parsedSelectors = new Map<string, LabelSelectorParseResult>();
const PARSED_SELECTORS_LIMIT = 10_000;

/** {@link parseLabelSelector}, remembering the result for the same text. */
export function parseLabelSelectorCached(
  text: string,
): LabelSelectorParseResult {
  let result = parsedSelectors.get(text);
  if (!result) {
    if (parsedSelectors.size >= PARSED_SELECTORS_LIMIT) {
      parsedSelectors.clear();
    }
    result = parseLabelSelector(text);
    parsedSelectors.set(text, result);
  }
  return result;
}

/**
 * Whether `labels` match the selector text. A malformed selector matches nothing (as a controller whose
 * selector does not parse watches nothing: it does not start).
 */
export function matchesLabelSelectorText(
  text: string,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  const { selector } = parseLabelSelectorCached(text);
  return selector ? matchesLabelSelector(selector, labels) : false;
}

/**
 * The selector of a catalog entity's `backstage.io/kubernetes-label-selector` annotation, parsed as Kubernetes
 * does; undefined when the entity has none.
 */
export function entityLabelSelector(
  annotations: Readonly<Record<string, string>> | undefined,
): LabelSelectorParseResult | undefined {
  const text = annotations?.[ANNOTATIONS.kubernetesLabelSelector];
  if (text === undefined) return undefined;
  const result = parseLabelSelectorCached(text);
  if (result.error !== undefined) {
    return {
      error: `annotation ${ANNOTATIONS.kubernetesLabelSelector}: ${result.error}`,
    };
  }
  return result;
}

/** The selector written back as text, in a canonical form (`a=b,c in (d,e),!f`). */
export function formatLabelSelector(selector: LabelSelector): string {
  return selector.requirements
    .map(r => {
      switch (r.operator) {
        case 'exists':
          return r.key;
        case 'doesNotExist':
          return `!${r.key}`;
        case 'equals':
          return `${r.key}=${r.values[0]}`;
        case 'notEquals':
          return `${r.key}!=${r.values[0]}`;
        case 'in':
          return `${r.key} in (${r.values.join(',')})`;
        case 'notIn':
          return `${r.key} notin (${r.values.join(',')})`;
        case 'greaterThan':
          return `${r.key}>${r.values[0]}`;
        case 'lessThan':
          return `${r.key}<${r.values[0]}`;
        default:
          return '';
      }
    })
    .join(',');
}
