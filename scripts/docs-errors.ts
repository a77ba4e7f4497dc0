import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withErrorTable } from '../src/common/errors/error-table';

/** `npm run docs:errors`: rewrites the error table of docs/api.md from the list of codes (`ERRORS`). */
const file = join(__dirname, '..', 'docs', 'api.md');
writeFileSync(file, withErrorTable(readFileSync(file, 'utf8')));
