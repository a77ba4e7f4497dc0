import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { Medium, startMedium } from '../../../test/support/medium';

/** The dispatcher is woken when a delivery is written (or resent), never by a statement that wrote none. */
describe('webhook_deliveries notifications (medium)', () => {
  let m: Medium;
  let listener: Client;
  let heard = 0;

  beforeAll(async () => {
    m = await startMedium({ name: 'webhook-notify' });
    listener = new Client({ connectionString: m.db.url });
    await listener.connect();
    listener.on('notification', () => heard++);
    await listener.query('LISTEN webhook_deliveries');
  });

  afterAll(async () => {
    await listener?.end();
    await m?.close();
  });

  const heardAfter = async (sql: string): Promise<number> => {
    heard = 0;
    await m.sql(sql);
    await sleep(200);
    return heard;
  };

  it('stays quiet for an insert of no delivery (an event of a merchant with no endpoint)', async () => {
    expect(await heardAfter('INSERT INTO webhook_deliveries SELECT * FROM webhook_deliveries WHERE false')).toBe(0);
  });

  it('notifies for an insert that wrote a delivery', async () => {
    const merchantId = await m.merchant();
    await m.sql(`INSERT INTO events (id, merchant_id, type, object_id, data) VALUES ('evt_notify', $1, 'payment_intent.created', 'pi_notify', '{}')`, [
      merchantId,
    ]);
    await m.sql(
      `INSERT INTO webhook_endpoints (id, merchant_id, url, enabled_events, sealed_secret) VALUES ('we_notify', $1, 'https://example.com/hook', '{*}', 'sealed')`,
      [merchantId],
    );
    expect(await heardAfter(`INSERT INTO webhook_deliveries (endpoint_id, event_id) VALUES ('we_notify', 'evt_notify')`)).toBe(1);
  });

  it('notifies for a resend statement, as before', async () => {
    expect(await heardAfter('UPDATE webhook_deliveries SET round = round + 1 WHERE false')).toBe(1);
  });
});
