import { ErrorCode, ERRORS } from './error-codes';

const START = '<!-- error-codes:start (npm run docs:errors) -->';
const END = '<!-- error-codes:end -->';

/** The error table of docs/api.md, in status order: one row per code of `ERRORS`. */
export function errorTable(): string {
  const rows = (Object.entries(ERRORS) as [ErrorCode, { status: number; when: string }][])
    .sort(([, a], [, b]) => a.status - b.status)
    .map(([code, { status, when }]) => `| ${status} | \`${code}\` | ${when} |`);
  return ['| Status | `error.code` | When |', '|---|---|---|', ...rows].join('\n');
}

/** `markdown` with the table between its markers replaced by `errorTable()`. */
export function withErrorTable(markdown: string): string {
  const start = markdown.indexOf(START);
  const end = markdown.indexOf(END);
  if (start < 0 || end < start) throw new Error(`the markers ${START} … ${END} are missing`);
  return `${markdown.slice(0, start + START.length)}\n${errorTable()}\n${markdown.slice(end)}`;
}
