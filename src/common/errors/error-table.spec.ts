import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERRORS } from './error-codes';
import { errorTable, withErrorTable } from './error-table';

describe('the error table of docs/api.md', () => {
  const markdown = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'api.md'), 'utf8');

  it('is the one generated from the list of codes (run npm run docs:errors after changing ERRORS)', () => {
    expect(markdown).toBe(withErrorTable(markdown));
  });

  it('has a row for every code, with its status', () => {
    for (const [code, { status }] of Object.entries(ERRORS)) expect(errorTable()).toContain(`| ${status} | \`${code}\` |`);
    expect(errorTable().split('\n')).toHaveLength(Object.keys(ERRORS).length + 2);
  });
});
