import { MAX_MAJOR_AMOUNT } from '../money/money';

/** The most objects one search answers with. */
export const MAX_SEARCH_RESULTS = 20;

/** The fewest hex digits of an id's random part a search matches ids by the start of. */
const MIN_ID_DIGITS = 4;

/**
 * What a dashboard search asks of each kind of object, read once from the box's text:
 * - `id`: the text reads as an id, whole or its start (a prefix and at least `MIN_ID_DIGITS` hex
 *   digits); `from`/`to` bound the ids that start with it. Each kind looks only for its own prefix.
 * - `text`: the text itself, matched whole against merchant references and against the start of
 *   names, without regard to case.
 * - `digits`: the text when it is only digits (3 or more), matched against the end of account numbers.
 * - `amount`: the text read as an amount in major units (`1250.50`, `1,250.50`), matched exactly.
 */
export interface SearchTerms {
  id?: { prefix: string; from: string; to: string };
  text: string;
  digits?: string;
  amount?: number;
}

/** How well an object matched, best first: the order results come in. */
export const SEARCH_RANKS = { id: 0, reference: 1, name: 2, accountNumber: 3, amount: 4 } as const;

const ID_LIKE = /^([a-z]+)_([0-9a-f]+)$/;
const ID_DIGITS = 24;
const AMOUNT = /^(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$/;

/** The terms of the search box's `q` (already checked: 1 to 100 characters, no control character). */
export function searchTerms(q: string): SearchTerms {
  const text = q.trim();
  const terms: SearchTerms = { text };
  const id = ID_LIKE.exec(text.toLowerCase());
  if (id && id[2].length >= MIN_ID_DIGITS && id[2].length <= ID_DIGITS) {
    // The ids that start with it: at or after it, and before it followed by the first character
    // after the hex digits ('g'); a whole id is the one id of its range.
    terms.id = { prefix: id[1], from: id[0], to: `${id[0]}g` };
  }
  if (/^\d{3,}$/.test(text)) terms.digits = text;
  if (AMOUNT.test(text)) {
    const amount = Number(text.replaceAll(',', ''));
    if (amount > 0 && amount <= MAX_MAJOR_AMOUNT) terms.amount = amount;
  }
  return terms;
}
