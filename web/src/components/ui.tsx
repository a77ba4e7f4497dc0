import { useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../api';
import { localTime, utcTime } from '../format';

/** A moment in the viewer's time zone; its UTC value on hover (and to screen readers through `dateTime`). */
export function Time({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span className="muted">—</span>;
  return (
    <time dateTime={iso} title={utcTime(iso)}>
      {localTime(iso)}
    </time>
  );
}

/** The API's message and the request id to quote to support. */
export function ErrorNotice({ error }: { error: unknown }) {
  if (!error) return null;
  const apiError = error instanceof ApiError ? error : undefined;
  return (
    <div role="alert" className="notice error">
      <p>{apiError ? apiError.message : 'Something went wrong: try again.'}</p>
      {apiError && apiError.details.length > 0 && (
        <ul>
          {apiError.details.map((detail) => (
            <li key={`${detail.field}:${detail.message}`}>
              <code>{detail.field}</code>: {detail.message}
            </li>
          ))}
        </ul>
      )}
      {apiError?.requestId && (
        <p className="muted">
          Request id <code>{apiError.requestId}</code>
        </p>
      )}
    </div>
  );
}

/** A status as text (never colour alone), coloured by its tone. */
export function Status({ value, tone }: { value: string; tone: 'good' | 'warn' | 'bad' | 'neutral' }) {
  return <span className={`status ${tone}`}>{value.replace(/_/g, ' ')}</span>;
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <p>
        <strong>{title}</strong>
      </p>
      {children}
    </div>
  );
}

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className="page-header">
      <h1>{title}</h1>
      {children}
    </header>
  );
}

/**
 * A transaction hash, shortened to its ends (whole on hover), with a button that copies it whole
 * and, where the chain has one, a link to its page on the block explorer.
 */
export function Hash({ value, label, explorerUrl }: { value: string; label: string; explorerUrl?: string | null }) {
  const short = value.length > 20 ? `${value.slice(0, 10)}…${value.slice(-8)}` : value;
  return (
    <span className="hash">
      <code title={value}>{short}</code> <CopyButton text={value} label={label} />
      {explorerUrl && (
        <>
          {' '}
          <a href={explorerUrl} target="_blank" rel="noopener noreferrer">
            Explorer
          </a>
        </>
      )}
    </span>
  );
}

/** The `Id` row of an object's details: the id, and a button that copies it. */
export function IdDetail({ id }: { id: string }) {
  return (
    <>
      <dt>Id</dt>
      <dd>
        <code>{id}</code> <CopyButton text={id} label="Copy id" />
      </dd>
    </>
  );
}

/** Copies a text to the clipboard, and says so. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="secondary"
      onClick={() => {
        void navigator.clipboard.writeText(text).then(() => setCopied(true));
      }}
    >
      {copied ? 'Copied' : label}
    </button>
  );
}

/** A labelled input; `error` is the API's message for this field. */
export function Field(props: {
  label: string;
  name: string;
  type?: string;
  autoComplete?: string;
  required?: boolean;
  minLength?: number;
  inputMode?: 'numeric' | 'decimal' | 'text' | 'email';
  defaultValue?: string;
  hint?: string;
}) {
  const id = `field-${props.name}`;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        autoComplete={props.autoComplete}
        required={props.required}
        minLength={props.minLength}
        inputMode={props.inputMode}
        defaultValue={props.defaultValue}
        aria-describedby={props.hint ? `${id}-hint` : undefined}
      />
      {props.hint && (
        <p id={`${id}-hint`} className="hint">
          {props.hint}
        </p>
      )}
    </div>
  );
}

/**
 * Sets or clears one filter of the list in the URL (so the filtered list is a link to share), and
 * goes back to the first page: a cursor belongs to the filters it was made under.
 */
export function useUrlFilter(): (name: string, value: string) => void {
  const [params, setParams] = useSearchParams();
  return (name, value) => {
    const next = new URLSearchParams(params);
    next.delete('cursor');
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next);
  };
}

/** A list's filter to one value of a field (a status, say), kept in the URL. */
export function FilterSelect({ label, name, options }: { label: string; name: string; options: readonly string[] }) {
  const [params] = useSearchParams();
  const setFilter = useUrlFilter();
  const id = `filter-${name}`;
  return (
    <div className="inline-form">
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <select id={id} value={params.get(name) ?? ''} onChange={(event) => setFilter(name, event.target.value)}>
          <option value="">Any</option>
          {options.map((option) => (
            <option key={option} value={option}>
              {option.replace(/_/g, ' ')}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

/**
 * The next and first pages of a list whose cursor lives in the URL beside its filters, so a link
 * to a page can be shared.
 */
export function Pager({ nextCursor }: { nextCursor?: string }) {
  const [params, setParams] = useSearchParams();
  const atFirst = !params.get('cursor');
  if (atFirst && !nextCursor) return null;
  const go = (cursor: string | undefined) => {
    const next = new URLSearchParams(params);
    if (cursor) next.set('cursor', cursor);
    else next.delete('cursor');
    setParams(next);
  };
  return (
    <nav className="pager" aria-label="Pages">
      {!atFirst && (
        <button type="button" className="secondary" onClick={() => go(undefined)}>
          First page
        </button>
      )}
      {nextCursor && (
        <button type="button" className="secondary" onClick={() => go(nextCursor)}>
          Next page
        </button>
      )}
    </nav>
  );
}

/** The form's text fields by name (the dashboard's forms have no file inputs). */
export function formValues(form: HTMLFormElement): Record<string, string> {
  return Object.fromEntries([...new FormData(form).entries()].flatMap(([key, value]) => (typeof value === 'string' ? [[key, value]] : [])));
}

/** What any page shows for an object that does not exist or belongs to another merchant. */
export function NotFound() {
  return (
    <>
      <PageHeader title="Not found" />
      <p>There is nothing here, or it belongs to another merchant.</p>
      <p>
        <Link to="/">Back to the overview</Link>
      </p>
    </>
  );
}
