import { ErrorDetail, ValidationFailedError } from '../errors/app-error';

/**
 * How deep a JSON body may nest, the body itself being level 1. The deepest request the API
 * takes (a KYB application's identity file) is 5 levels; past a few thousand levels the
 * recursive validation pipe (class-transformer, class-validator) overflows the stack, and
 * nothing legitimate comes near 32.
 */
export const MAX_JSON_DEPTH = 32;

/** Enough to show a client what is wrong without answering with a copy of a hostile body. */
const MAX_DETAILS = 20;

interface Container {
  value: object;
  depth: number;
  parent: Container | null;
  key: string | number | null;
}

type Problem = { at: Container | null; key: string | number | null; message: string };

/**
 * Checks a parsed JSON body, before any other code sees it, for what no field of the API may
 * hold and what would otherwise fail deep inside a library or the database as a 500:
 * - nesting deeper than `MAX_JSON_DEPTH` (the validation pipe recurses);
 * - NUL characters, in values and in field names (PostgreSQL refuses them in `text`);
 * - strings that are not well-formed UTF-16, i.e. lone surrogates from `\ud800`-style escapes
 *   (validators that URI-encode, such as `isEmail`, throw on them, and they cannot be stored
 *   as UTF-8).
 * Iterative on purpose: the body may be nested as deep as its size limit allows.
 *
 * Returns the refusal (400 `validation_failed`, each detail naming the field's path as the
 * validation pipe does, e.g. `company_files[6].file_type`), or null when the body is fine.
 */
export function checkJsonBody(body: unknown): ValidationFailedError | null {
  const problems: Problem[] = [];
  const refuse = (problem: Problem) => problems.push(problem) >= MAX_DETAILS;

  if (typeof body === 'string') {
    const message = stringProblem(body);
    if (message) refuse({ at: null, key: null, message });
  }
  const stack: Container[] = typeof body === 'object' && body !== null ? [{ value: body, depth: 1, parent: null, key: null }] : [];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.depth > MAX_JSON_DEPTH) {
      if (refuse({ at: node.parent, key: node.key, message: `is nested more than ${MAX_JSON_DEPTH} levels deep` })) break;
      continue;
    }
    const children: Container[] = [];
    const visit = (key: string | number, child: unknown): boolean => {
      if (typeof key === 'string') {
        const message = stringProblem(key);
        if (message && refuse({ at: node, key, message: `field name ${message}` })) return true;
      }
      if (typeof child === 'string') {
        const message = stringProblem(child);
        if (message && refuse({ at: node, key, message })) return true;
      } else if (typeof child === 'object' && child !== null) {
        children.push({ value: child, depth: node.depth + 1, parent: node, key });
      }
      return false;
    };
    let full = false;
    if (Array.isArray(node.value)) {
      for (let i = 0; i < node.value.length && !full; i++) full = visit(i, node.value[i]);
    } else {
      const record = node.value as Record<string, unknown>;
      const keys = Object.keys(record);
      for (let i = 0; i < keys.length && !full; i++) full = visit(keys[i], record[keys[i]]);
    }
    if (full) break;
    // Reversed, so that problems are reported in the order they appear in the body.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  if (problems.length === 0) return null;
  const details: ErrorDetail[] = problems.map((p) => ({ field: pathOf(p.at, p.key), message: p.message }));
  return new ValidationFailedError(details);
}

const hasLoneSurrogate = (value: string) => !(value as string & { isWellFormed(): boolean }).isWellFormed();

function stringProblem(value: string): string | null {
  if (value.includes('\0')) return 'must not contain NUL characters';
  if (hasLoneSurrogate(value)) return 'must be well-formed Unicode (no unpaired surrogates)';
  return null;
}

/** The path syntax of every error detail: properties joined by dots, array positions in brackets. */
function pathOf(parent: Container | null, key: string | number | null): string {
  const keys: (string | number)[] = [];
  if (key !== null) keys.push(key);
  for (let node = parent; node && node.key !== null; node = node.parent) keys.push(node.key);
  let path = '';
  for (let i = keys.length - 1; i >= 0; i--) {
    const k = keys[i];
    path += typeof k === 'number' ? `[${k}]` : path ? `.${k}` : k;
  }
  return path;
}
