import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileSandboxUsdc } from '../sandbox/chains/sandbox-usdc.compile';

/** `npm run sandbox:usdc`: compiles the local chains' USDC and writes the artifact they deploy. */
writeFileSync(join(__dirname, '..', 'sandbox', 'chains', 'sandbox-usdc.json'), `${JSON.stringify(compileSandboxUsdc(), null, 2)}\n`);
