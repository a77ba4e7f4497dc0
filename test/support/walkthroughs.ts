import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** A fenced block whose info string is `bash runnable` is a walk-through step that CI runs as written. */
const RUNNABLE = /^```bash runnable\n([\s\S]*?)^```$/gm;
/** `# → text`: what the commands before it print; `…` stands for anything. */
const EXPECTED = /^# → (.*)$/;

export const REPOSITORY = join(__dirname, '..', '..');

/** The Markdown files that may hold walk-throughs: the README and everything in docs/. */
export function documentationFiles(): string[] {
  const docs = readdirSync(join(REPOSITORY, 'docs')).filter((name) => name.endsWith('.md'));
  return ['README.md', ...docs.map((name) => join('docs', name))].map((file) => join(REPOSITORY, file));
}

export interface Walkthrough {
  /** The file, relative to the repository. */
  file: string;
  blocks: number;
  expectations: number;
  /** Every runnable block of the file, in order, as one bash script (see `walkthroughScript`). */
  script: string;
}

export function walkthroughOf(path: string): Walkthrough {
  const markdown = readFileSync(path, 'utf8');
  const blocks = [...markdown.matchAll(RUNNABLE)].map((match) => match[1]);
  const { script, expectations } = walkthroughScript(blocks);
  return { file: relative(REPOSITORY, path), blocks: blocks.length, expectations, script };
}

/**
 * The blocks as one bash script with `set -e`, run in one shell so that the variables one block
 * sets are there for the next. The commands before each `# → …` line are run with their output
 * captured and printed, then every fragment of the line (between `…`) must appear in that output,
 * in order. When anything fails, the script stops with the output of the step that failed.
 */
export function walkthroughScript(blocks: string[]): { script: string; expectations: number } {
  const out: string[] = [
    'set -eo pipefail',
    '__OUT=$(mktemp)',
    `trap '__s=$?; if [ $__s -ne 0 ]; then echo "--- the failing step printed:" >&2; cat "$__OUT" >&2; fi; rm -f "$__OUT"' EXIT`,
    '__expect() {',
    `  node -e 'const [text, file] = process.argv.slice(1); const output = require("fs").readFileSync(file, "utf8");`,
    `    const pattern = text.split("…").map((part) => part.trim().replace(/[.*+?^$\{}()|[\\]\\\\]/g, "\\\\$&")).join("[\\\\s\\\\S]*?");`,
    `    if (!new RegExp(pattern).test(output)) { console.error("expected: " + text); process.exit(1); }' "$1" "$__OUT"`,
    '}',
  ];
  let expectations = 0;
  for (const block of blocks) {
    let step: string[] = [];
    let captured = false;
    for (const line of block.split('\n')) {
      const expected = EXPECTED.exec(line);
      if (!expected) {
        step.push(line);
        captured = false;
        continue;
      }
      if (!captured) {
        out.push(': > "$__OUT"', '{', ...step, '} > "$__OUT" 2>&1', 'cat "$__OUT"');
        step = [];
        captured = true;
      }
      out.push(`__expect ${shellQuote(expected[1])}`);
      expectations++;
    }
    out.push(...step);
  }
  return { script: `${out.join('\n')}\n`, expectations };
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
