import { html, isolated, isolatedText, pageDocument, SafeHtml } from '../../common/html/html';
import type { TermsSection } from '../agreements';

const STYLE = `
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:#f3f4f6;color:#111827;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:42rem;margin:0 auto;padding:1.25rem .875rem 3rem}
.brand{font-size:.8125rem;font-weight:600;letter-spacing:.06em;text-transform:uppercase;color:#4b5563;margin:0 0 .75rem .25rem}
.card{background:#fff;border:1px solid #e5e7eb;border-radius:12px;padding:1.25rem}
.eyebrow{font-size:.875rem;color:#4b5563;margin:0 0 .25rem}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 .75rem;overflow-wrap:anywhere}
.version{display:inline-block;font-size:.8125rem;font-weight:600;color:#1e3a8a;background:#e0e7ff;border-radius:999px;padding:.125rem .625rem;margin:0}
.lead{margin:1rem 0 0;color:#374151}
ol{list-style:none;margin:1.25rem 0 1.5rem;padding:0}
li{border-top:1px solid #eef0f3;padding:.875rem 0}
h2{font-size:1rem;line-height:1.35;margin:0 0 .25rem}
li p{margin:0;color:#374151}
button{display:block;width:100%;min-height:3rem;padding:.75rem 1.5rem;font:inherit;font-weight:600;color:#fff;background:#1d4ed8;border:0;border-radius:8px;cursor:pointer}
button:hover{background:#1e40af}
button:focus-visible,a:focus-visible{outline:3px solid #93c5fd;outline-offset:2px}
.fine{font-size:.875rem;color:#4b5563;margin:.875rem 0 0}
.icon{display:flex;align-items:center;justify-content:center;width:3rem;height:3rem;border-radius:50%;font-size:1.5rem;font-weight:700;margin:0 0 1rem}
.ok{background:#dcfce7;color:#166534}
.warn{background:#fef3c7;color:#92400e}
.message{margin:0;color:#374151}
a{color:#1d4ed8}
.nowrap{white-space:nowrap}
@media (min-width:40rem){main{padding-top:3rem}.card{padding:2rem}h1{font-size:1.75rem}button{display:inline-block;width:auto}}
`;

const layout = (title: string, content: SafeHtml): string => pageDocument(title, STYLE, content);

const DATE_FORMAT = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
const formatDate = (date: Date) => `${DATE_FORMAT.format(date)} UTC`;

export interface AgreementFormView {
  businessName: string;
  termsTitle: string;
  termsVersion: string;
  terms: readonly TermsSection[];
  csrfToken: string;
  expiresAt: Date;
}

/** The agreement itself: terms and a plain form (no script) that posts back to this URL. */
export function renderAgreementPage(view: AgreementFormView): string {
  return layout(
    `${view.termsTitle} – ${isolatedText(view.businessName)}`,
    html`<p class="eyebrow">Agreement for</p>
<h1>${isolated(view.businessName)}</h1>
<p class="version">Terms version ${view.termsVersion}</p>
<p class="lead">Please read the ${view.termsTitle.toLowerCase()} below. Selecting <strong>Accept</strong> accepts it on behalf of ${isolated(view.businessName)}.</p>
<ol>
${view.terms.map((section, i) => html`<li><h2>${i + 1}. ${section.heading}</h2><p>${section.body}</p></li>\n`)}</ol>
<form method="post">
<input type="hidden" name="csrf_token" value="${view.csrfToken}">
<input type="hidden" name="terms_version" value="${view.termsVersion}">
<button type="submit">Accept</button>
</form>
<p class="fine">This link works once and expires on ${formatDate(view.expiresAt)}. We record the time, your IP address and browser with your acceptance.</p>`,
  );
}

export function renderConfirmationPage(view: { businessName: string; termsVersion: string; acceptedAt: Date }): string {
  return layout(
    `Agreement accepted – ${isolatedText(view.businessName)}`,
    html`<div class="icon ok" aria-hidden="true">✓</div>
<h1>Agreement accepted</h1>
<p class="message">Thank you. ${isolated(view.businessName)} accepted the terms (<span class="nowrap">version ${view.termsVersion}</span>) on ${formatDate(view.acceptedAt)}.</p>
<p class="fine">You can close this page. The next step, business verification, continues with the company that sent you this link.</p>`,
  );
}

export interface MessageView {
  title: string;
  /** Text, or markup from `html` when it names the business (`isolated`). */
  message: string | SafeHtml;
  /** A link back to this page (GET), e.g. to reload the current terms. */
  reloadLabel?: string;
}

/** Every page that is not the form or the confirmation: 403, 404, 409, 410, 5xx. */
export function renderMessagePage(view: MessageView): string {
  return layout(
    view.title,
    html`<div class="icon warn" aria-hidden="true">!</div>
<h1>${view.title}</h1>
<p class="message">${view.message}</p>
${view.reloadLabel ? html`<p class="fine"><a href="">${view.reloadLabel}</a></p>` : ''}`,
  );
}
