import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Account, answer, Body, dashboard, isNotFound, MerchantEvent, WebhookAttempt, WebhookEndpoint, WebhookEndpointWithSecret } from '../api';
import { IdLink } from '../components/id-link';
import { Column, PagedTable } from '../components/table';
import { CopyButton, EmptyState, ErrorNotice, Field, formValues, IdDetail, NotFound, PageHeader, Status, Time } from '../components/ui';
import { canWrite } from '../session';

type EventType = Exclude<Body<'CreateWebhookEndpointDto'>['enabledEvents'][number], '*'>;

/**
 * Every event type an endpoint may take, with what a person calls it. Typed against the served
 * document's list: a type added to the service or removed from it fails the dashboard's build
 * until it is added or removed here.
 */
const EVENT_LABELS = {
  'pobo_business.agreement_accepted': 'Business accepted its agreement',
  'pobo_business.kyb_status_changed': 'Business KYB status changed',
  'pobo_business.naira_account_activated': 'Business Naira account active',
  'payment_intent.created': 'Payment intent created',
  'payment_intent.payment_returned': 'Payment returned',
  'payment_intent.funds_received': 'Payment received',
  'payment_intent.succeeded': 'Payment confirmed',
  'payment_intent.expired': 'Payment intent expired',
  'withdrawal.created': 'Withdrawal created',
  'withdrawal.succeeded': 'Withdrawal paid',
  'withdrawal.failed': 'Withdrawal failed',
  'international_payment_intent.created': 'International payment created',
  'international_payment_intent.status_changed': 'International payment moved a step',
  'international_payment_intent.settled': 'International payment settled',
  'international_payment_intent.rejected': 'International payment rejected',
  'international_payment_intent.receivable_opened': 'Money owed back by a rail',
  'international_payment_intent.return_completed': 'A rail returned money',
  'international_payment_intent.receivable_cleared': 'Nothing owed by a rail any more',
  'vault.deposit_pending': 'Vault deposit pending',
  'vault.deposit_confirmed': 'Vault deposit credited',
  'vault.deposit_dropped': 'Vault deposit dropped',
  'vault_transfer.submitted': 'Vault transfer sent',
  'vault_transfer.confirmed': 'Vault transfer confirmed',
  'vault_transfer.failed': 'Vault transfer failed',
  'webhook_endpoint.test': 'Test event',
} satisfies Record<EventType, string>;

const EVENT_TYPES = Object.keys(EVENT_LABELS) as EventType[];

const ENDPOINTS = '/api/dashboard/webhook-endpoints';

function endpointStatus(endpoint: WebhookEndpoint) {
  if (!endpoint.disabled) return <Status value={endpoint.failingSince ? 'failing' : 'enabled'} tone={endpoint.failingSince ? 'warn' : 'good'} />;
  const why = { user: 'disabled', gone: 'disabled (410 Gone)', failing: 'disabled (kept failing)' }[endpoint.disabledReason ?? 'user'];
  return <Status value={why} tone={endpoint.disabledReason === 'user' ? 'neutral' : 'bad'} />;
}

/** The secret of an endpoint, shown this once (at creation, rotation or an owner's reveal). */
function SecretNotice({ endpoint, title, onDone }: { endpoint: WebhookEndpointWithSecret; title: string; onDone: () => void }) {
  return (
    <section className="notice good" aria-labelledby="secret-title">
      <h2 id="secret-title">{title}</h2>
      <p>Copy the signing secret now and store it with your receiver: it is not shown again.</p>
      <p>
        <code className="secret" data-testid="webhook-secret">
          {endpoint.secret}
        </code>{' '}
        <CopyButton text={endpoint.secret} label="Copy secret" />
      </p>
      <button type="button" className="secondary" onClick={onDone}>
        Done
      </button>
    </section>
  );
}

/** The types an endpoint takes, as a short text. */
const typesOf = (endpoint: WebhookEndpoint) => (endpoint.enabledEvents.includes('*') ? 'All events' : endpoint.enabledEvents.join(', '));

/** The event types a form chose: all of them, or those ticked. */
function chosenTypes(form: FormData): string[] {
  if (form.get('all') === 'on') return ['*'];
  return form.getAll('events').filter((value): value is string => typeof value === 'string');
}

function EventTypesField({ selected }: { selected?: string[] }) {
  const all = !selected || selected.includes('*');
  return (
    <fieldset className="event-types">
      <legend>Events to send</legend>
      <label>
        <input type="checkbox" name="all" defaultChecked={all} /> All events, including types added later
      </label>
      <details>
        <summary>Or choose types</summary>
        {EVENT_TYPES.map((type) => (
          <label key={type}>
            <input type="checkbox" name="events" value={type} defaultChecked={!all && selected?.includes(type)} /> {EVENT_LABELS[type]} <code>{type}</code>
          </label>
        ))}
      </details>
    </fieldset>
  );
}

/** The merchant's webhook endpoints: everyone sees them; owners and developers add them. */
export function Webhooks({ account }: { account: Account }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [created, setCreated] = useState<WebhookEndpointWithSecret | null>(null);
  const writer = canWrite(account, 'owner', 'developer');
  const create = useMutation({
    mutationFn: (body: { url: string; enabledEvents: string[]; description?: string }) => answer(dashboard.POST(ENDPOINTS, { body: body as never })),
    onSuccess: (endpoint) => {
      setCreated(endpoint);
      void client.invalidateQueries({ queryKey: [ENDPOINTS] });
    },
  });
  const columns: Column<WebhookEndpoint>[] = [
    {
      header: 'URL',
      cell: (endpoint) => (
        <Link to={`/webhooks/${endpoint.webhookEndpointId}`} className="wrap">
          {endpoint.url}
        </Link>
      ),
    },
    { header: 'Events', cell: typesOf },
    { header: 'Status', cell: endpointStatus },
    { header: 'Created', cell: (endpoint) => <Time iso={endpoint.createdAt} /> },
  ];
  return (
    <>
      <PageHeader title="Webhooks" />
      <p>
        Each change you care about is sent to these URLs as it happens, signed with the endpoint's secret (Standard Webhooks). See every event on the{' '}
        <Link to="/events">events page</Link>.
      </p>
      {created && (
        <SecretNotice
          endpoint={created}
          title={`Endpoint added: ${created.url}`}
          onDone={() => {
            setCreated(null);
            void navigate(`/webhooks/${created.webhookEndpointId}`);
          }}
        />
      )}
      {writer && (
        <form
          className="stacked-form"
          aria-label="Add an endpoint"
          onSubmit={(event) => {
            event.preventDefault();
            const form = new FormData(event.currentTarget);
            const description = (formValues(event.currentTarget).description ?? '').trim();
            create.mutate({ url: formValues(event.currentTarget).url ?? '', enabledEvents: chosenTypes(form), ...(description && { description }) });
          }}
        >
          <Field label="Endpoint URL" name="url" type="url" required hint="Where events are POSTed: https:// in production." />
          <Field label="Description (optional)" name="description" />
          <EventTypesField />
          <button type="submit" disabled={create.isPending}>
            Add endpoint
          </button>
        </form>
      )}
      <ErrorNotice error={create.error} />
      <PagedTable<WebhookEndpoint>
        path={ENDPOINTS}
        caption="Webhook endpoints"
        rowKey={(endpoint) => endpoint.webhookEndpointId}
        columns={columns}
        empty={
          <EmptyState title="No endpoints yet">{writer ? <p>Add one above to receive events.</p> : <p>Ask an owner or a developer to add one.</p>}</EmptyState>
        }
      />
    </>
  );
}

/** One endpoint: its settings and actions, and every delivery attempt with its answer. */
export function WebhookEndpointPage({ account }: { account: Account }) {
  const { webhookEndpointId = '' } = useParams();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [secret, setSecret] = useState<{ endpoint: WebhookEndpointWithSecret; title: string } | null>(null);
  const [editing, setEditing] = useState(false);
  const [recovered, setRecovered] = useState<number | null>(null);
  const [tested, setTested] = useState(false);
  const writer = canWrite(account, 'owner', 'developer');
  const params = { params: { path: { webhookEndpointId } } };
  const key = ['webhook-endpoint', webhookEndpointId];
  const endpoint = useQuery({ queryKey: key, queryFn: () => answer(dashboard.GET(`${ENDPOINTS}/{webhookEndpointId}`, params)), retry: false });
  const refresh = (updated?: WebhookEndpoint) => {
    if (updated) client.setQueryData(key, updated);
    void client.invalidateQueries({ queryKey: [`${ENDPOINTS}/{webhookEndpointId}/deliveries`] });
  };
  const update = useMutation({
    mutationFn: (body: { url?: string; enabledEvents?: string[]; description?: string | null; disabled?: boolean }) =>
      answer(dashboard.PATCH(`${ENDPOINTS}/{webhookEndpointId}`, { ...params, body: body as never })),
    onSuccess: (updated) => {
      setEditing(false);
      refresh(updated);
    },
  });
  const rotate = useMutation({
    mutationFn: () => answer(dashboard.POST(`${ENDPOINTS}/{webhookEndpointId}/rotate-secret`, params)),
    onSuccess: (rotated) => setSecret({ endpoint: rotated, title: 'New signing secret (the old one keeps signing for 24 hours)' }),
  });
  const reveal = useMutation({
    mutationFn: () => answer(dashboard.POST(`${ENDPOINTS}/{webhookEndpointId}/reveal-secret`, params)),
    onSuccess: (revealed) => setSecret({ endpoint: revealed, title: 'Signing secret' }),
  });
  const test = useMutation({
    mutationFn: () => answer(dashboard.POST(`${ENDPOINTS}/{webhookEndpointId}/test`, params)),
    onSuccess: () => {
      setTested(true);
      refresh();
    },
  });
  const recover = useMutation({
    mutationFn: (since: string) => answer(dashboard.POST(`${ENDPOINTS}/{webhookEndpointId}/recover`, { ...params, body: { since } })),
    onSuccess: (result) => {
      setRecovered(result.resent);
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => answer(dashboard.DELETE(`${ENDPOINTS}/{webhookEndpointId}`, params)),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: [ENDPOINTS] });
      void navigate('/webhooks');
    },
  });
  if (isNotFound(endpoint.error)) return <NotFound />;
  const data = endpoint.data;
  const columns: Column<WebhookAttempt>[] = [
    {
      header: 'Event',
      cell: (attempt) => (
        <>
          <Link to={`/events/${attempt.eventId}`}>
            <code>{attempt.eventType}</code>
          </Link>{' '}
          <span className="muted">attempt {attempt.attempt}</span>
        </>
      ),
    },
    { header: 'Sent', cell: (attempt) => <Time iso={attempt.attemptedAt} /> },
    {
      header: 'Answer',
      cell: (attempt) =>
        attempt.statusCode === null ? (
          <Status value="no answer" tone="bad" />
        ) : (
          <Status value={String(attempt.statusCode)} tone={attempt.statusCode >= 200 && attempt.statusCode < 300 ? 'good' : 'bad'} />
        ),
    },
    { header: 'Took', className: 'amount', cell: (attempt) => `${attempt.durationMs} ms` },
    {
      header: 'Details',
      cell: (attempt) => (
        <>
          {attempt.error && <p>{attempt.error}</p>}
          {attempt.responseBody && (
            <details>
              <summary>Answer body</summary>
              <pre className="payload">{attempt.responseBody}</pre>
            </details>
          )}
        </>
      ),
    },
    { header: 'Next try', cell: (attempt) => <Time iso={attempt.nextRetryAt} /> },
  ];
  return (
    <>
      <PageHeader title="Webhook endpoint" />
      <ErrorNotice error={endpoint.error} />
      {secret && <SecretNotice endpoint={secret.endpoint} title={secret.title} onDone={() => setSecret(null)} />}
      {data && (
        <>
          <dl className="details">
            <dt>URL</dt>
            <dd className="wrap">{data.url}</dd>
            <dt>Status</dt>
            <dd>
              {endpointStatus(data)}
              {data.failingSince && (
                <>
                  {' '}
                  failing since <Time iso={data.failingSince} />
                </>
              )}
            </dd>
            <dt>Events</dt>
            <dd>{typesOf(data)}</dd>
            {data.description && (
              <>
                <dt>Description</dt>
                <dd>{data.description}</dd>
              </>
            )}
            <IdDetail id={data.webhookEndpointId} />
          </dl>
          {writer && (
            <div className="actions-bar">
              <button type="button" onClick={() => test.mutate()} disabled={test.isPending}>
                Send a test event
              </button>
              <button type="button" className="secondary" onClick={() => update.mutate({ disabled: !data.disabled })} disabled={update.isPending}>
                {data.disabled ? 'Enable' : 'Disable'}
              </button>
              <button type="button" className="secondary" onClick={() => setEditing(!editing)}>
                Edit
              </button>
              <button type="button" className="secondary" onClick={() => rotate.mutate()} disabled={rotate.isPending}>
                Rotate secret
              </button>
              {account.user.role === 'owner' && (
                <button type="button" className="secondary" onClick={() => reveal.mutate()} disabled={reveal.isPending}>
                  Reveal secret
                </button>
              )}
              <button
                type="button"
                className="danger"
                onClick={() => {
                  if (window.confirm(`Delete the endpoint ${data.url} and its delivery history?`)) remove.mutate();
                }}
              >
                Delete
              </button>
            </div>
          )}
          {tested && <p role="status">Test event sent: its delivery appears below.</p>}
          <ErrorNotice error={update.error ?? rotate.error ?? reveal.error ?? test.error ?? remove.error ?? recover.error} />
          {editing && (
            <form
              className="stacked-form"
              aria-label="Edit the endpoint"
              onSubmit={(event) => {
                event.preventDefault();
                const form = new FormData(event.currentTarget);
                const description = (formValues(event.currentTarget).description ?? '').trim();
                update.mutate({ url: formValues(event.currentTarget).url ?? '', enabledEvents: chosenTypes(form), description: description || null });
              }}
            >
              <Field label="Endpoint URL" name="url" type="url" required defaultValue={data.url} />
              <Field label="Description" name="description" defaultValue={data.description ?? ''} />
              <EventTypesField selected={data.enabledEvents} />
              <button type="submit" disabled={update.isPending}>
                Save
              </button>
            </form>
          )}
          {writer && (
            <form
              className="inline-form"
              aria-label="Recover missed events"
              onSubmit={(event) => {
                event.preventDefault();
                const since = formValues(event.currentTarget).since ?? '';
                recover.mutate(new Date(since).toISOString());
              }}
            >
              <Field label="Resend every event it has not acknowledged since" name="since" type="datetime-local" required />
              <button type="submit" className="secondary" disabled={recover.isPending}>
                Recover
              </button>
            </form>
          )}
          {recovered !== null && <p role="status">{recovered === 1 ? '1 event queued again.' : `${recovered} events queued again.`}</p>}
          <h2>Deliveries</h2>
          <PagedTable<WebhookAttempt>
            path={`${ENDPOINTS}/{webhookEndpointId}/deliveries`}
            pathParams={{ webhookEndpointId }}
            caption="Delivery attempts"
            rowKey={(attempt) => attempt.webhookAttemptId}
            columns={columns}
            follow={{ everyMs: 1000, following: (attempt) => attempt.nextRetryAt !== null, expecting: tested || recovered !== null }}
            empty={<EmptyState title="Nothing sent yet">{writer && <p>Send a test event to see a delivery here.</p>}</EmptyState>}
          />
        </>
      )}
    </>
  );
}

/** The id of the object an event is about: the object's first field. */
function objectIdOf(event: MerchantEvent): string {
  const first = Object.values(event.data.object as Record<string, unknown>)[0];
  return typeof first === 'string' ? first : '';
}

/** Every event of the last 30 days, newest first. */
export function Events() {
  const columns: Column<MerchantEvent>[] = [
    {
      header: 'Event',
      cell: (event) => (
        <Link to={`/events/${event.eventId}`}>
          <code>{event.type}</code>
        </Link>
      ),
    },
    { header: 'Object', cell: (event) => <IdLink id={objectIdOf(event)} /> },
    { header: 'When', cell: (event) => <Time iso={event.createdAt} /> },
  ];
  return (
    <>
      <PageHeader title="Events" />
      <p>
        Every change to your objects in the last 30 days, as your <Link to="/webhooks">webhook endpoints</Link> receive it.
      </p>
      <PagedTable<MerchantEvent>
        path="/api/dashboard/events"
        caption="Events"
        rowKey={(event) => event.eventId}
        columns={columns}
        empty={<EmptyState title="No events yet">Events appear here as your businesses, payments and payouts change.</EmptyState>}
      />
    </>
  );
}

/** One event: its payload as sent, and sending it again to an endpoint. */
export function EventPage({ account }: { account: Account }) {
  const { eventId = '' } = useParams();
  const [resentTo, setResentTo] = useState<string | null>(null);
  const writer = canWrite(account, 'owner', 'developer');
  const event = useQuery({
    queryKey: ['event', eventId],
    queryFn: () => answer(dashboard.GET('/api/dashboard/events/{eventId}', { params: { path: { eventId } } })),
    retry: false,
  });
  const endpoints = useQuery({
    queryKey: [ENDPOINTS, 'all'],
    queryFn: () => answer(dashboard.GET(ENDPOINTS, { params: { query: { limit: 100 } } })),
    enabled: writer,
  });
  const resend = useMutation({
    mutationFn: (webhookEndpointId: string) =>
      answer(dashboard.POST('/api/dashboard/events/{eventId}/resend', { params: { path: { eventId } }, body: { webhookEndpointId } })),
    onSuccess: (endpoint) => setResentTo(endpoint.url),
  });
  if (isNotFound(event.error)) return <NotFound />;
  const data = event.data;
  return (
    <>
      <PageHeader title={data ? `Event ${data.type}` : 'Event'} />
      <ErrorNotice error={event.error} />
      {data && (
        <>
          <dl className="details">
            <IdDetail id={data.eventId} />
            <dt>Created</dt>
            <dd>
              <Time iso={data.createdAt} />
            </dd>
            <dt>Object version</dt>
            <dd>{data.objectVersion}</dd>
          </dl>
          {writer && endpoints.data && endpoints.data.length > 0 && (
            <form
              className="inline-form"
              aria-label="Resend the event"
              onSubmit={(submitted) => {
                submitted.preventDefault();
                resend.mutate(formValues(submitted.currentTarget).endpoint ?? '');
              }}
            >
              <div className="field">
                <label htmlFor="resend-endpoint">Send again to</label>
                <select id="resend-endpoint" name="endpoint">
                  {endpoints.data.map((endpoint) => (
                    <option key={endpoint.webhookEndpointId} value={endpoint.webhookEndpointId}>
                      {endpoint.url}
                    </option>
                  ))}
                </select>
              </div>
              <button type="submit" className="secondary" disabled={resend.isPending}>
                Resend
              </button>
            </form>
          )}
          {resentTo && <p role="status">Queued again for {resentTo}.</p>}
          <ErrorNotice error={resend.error} />
          <h2>Payload</h2>
          <pre className="payload" tabIndex={0} aria-label="The event as sent">
            {JSON.stringify(data, null, 2)}
          </pre>
        </>
      )}
    </>
  );
}
