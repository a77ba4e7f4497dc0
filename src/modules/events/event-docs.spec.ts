import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVENT_CATALOGUE } from './event.types';

const REPOSITORY = join(__dirname, '..', '..', '..');
const markdown = readFileSync(join(REPOSITORY, 'docs', 'api.md'), 'utf8');

describe('the events and webhooks of docs/api.md', () => {
  it('lists every event type with when it is recorded', () => {
    for (const [type, { when }] of Object.entries(EVENT_CATALOGUE))
      expect(markdown).toMatch(new RegExp(`^\\| \`${type.replace('.', '\\.')}\` \\| [^|]+ \\| ${when.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\|$`, 'm'));
  });

  it('shows each receiver example exactly as the file CI runs', () => {
    const examples = readdirSync(join(REPOSITORY, 'docs', 'examples')).filter((name) => name.startsWith('webhook-receiver-'));
    expect(examples.sort()).toEqual(['webhook-receiver-express.mjs', 'webhook-receiver-fastify.mjs']);
    for (const name of examples) expect(markdown).toContain(`\`\`\`js\n${readFileSync(join(REPOSITORY, 'docs', 'examples', name), 'utf8')}\`\`\``);
  });
});
