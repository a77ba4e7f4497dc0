/**
 * The one way server-rendered pages (the agreement page, receipts) build HTML: a tagged template
 * that escapes every value it is given, and isolates for names other people chose.
 */

/** Markup that is already safe: produced by `html`, never from a raw string. */
export class SafeHtml {
  constructor(readonly value: string) {}

  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

function interpolate(value: unknown): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(interpolate).join('');
  if (value === null || value === undefined || value === false) return '';
  if (typeof value === 'string') return escapeHtml(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new TypeError(`cannot interpolate ${typeof value} into HTML`);
}

/**
 * The only way pages are built: every interpolated value is HTML-escaped (quotes included, so
 * values are also safe inside attributes) unless it is itself the output of `html`.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += interpolate(values[i]) + strings[i + 1];
  return new SafeHtml(out);
}

/**
 * A name someone else chose, isolated from the text around it: whatever direction it runs in, or
 * bidirectional controls it holds (names stored before they were refused), it cannot reorder the
 * page's own words. `<bdi>` where markup is allowed; FSI…PDI, the same isolate in plain text,
 * in the `<title>`.
 */
export function isolated(name: string): SafeHtml {
  return html`<bdi>${name}</bdi>`;
}

export function isolatedText(name: string): string {
  return `\u2068${name}\u2069`;
}

/**
 * A whole page of the service's own (the agreement page, receipts): not indexed, its style inline
 * (the pages' CSP allows nothing from elsewhere), the content in the branded card.
 */
export function pageDocument(title: string, style: string, content: SafeHtml): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${title}</title>
<style>${new SafeHtml(style)}</style>
</head>
<body>
<main>
<p class="brand">Merchant Payments</p>
<div class="card">
${content}
</div>
</main>
</body>
</html>
`.value;
}
