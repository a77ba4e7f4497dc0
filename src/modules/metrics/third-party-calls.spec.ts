import { Registry } from 'prom-client';
import { CircuitOpenError, ProviderError } from '../../common/providers/provider-http-client';
import { ThirdPartyCalls } from './third-party-calls';

class Adapter {
  calls = 0;
  async outer(): Promise<string> {
    this.calls++;
    return `${await this.inner()}!`;
  }
  async inner(): Promise<string> {
    return Promise.resolve('answer');
  }
  fail(error: Error): Promise<never> {
    return Promise.reject(error);
  }
  name(): string {
    return 'sync';
  }
}

describe('ThirdPartyCalls', () => {
  const counts = async (registry: Registry) =>
    Object.fromEntries(
      (await registry.getSingleMetric('third_party_call_duration_seconds')!.get()).values
        .filter((value) => (value as { metricName?: string }).metricName === 'third_party_call_duration_seconds_count')
        .map((value) => [`${value.labels.operation}/${value.labels.outcome}`, value.value]),
    );

  it('counts each call of the adapter by operation and outcome, not the calls it makes to itself', async () => {
    const registry = new Registry();
    const measured = new ThirdPartyCalls(registry).measure('rail', new Adapter(), { refused: (err) => err instanceof RangeError });
    expect(await measured.outer()).toBe('answer!');
    expect(measured.name()).toBe('sync');
    await expect(measured.fail(new ProviderError('refused', false, 422))).rejects.toThrow('refused');
    await expect(measured.fail(new ProviderError('down', true, 503))).rejects.toThrow('down');
    await expect(measured.fail(new CircuitOpenError('rail'))).rejects.toThrow('circuit open');
    await expect(measured.fail(new RangeError('bad'))).rejects.toThrow('bad');
    expect(await counts(registry)).toEqual({ 'outer/ok': 1, 'fail/refused': 2, 'fail/failed': 1, 'fail/circuit_open': 1 });
  });

  it("leaves what is set on the instance alone: a test's spy is the spy, and the class's methods are counted again once it is gone", async () => {
    const registry = new Registry();
    const measured = new ThirdPartyCalls(registry).measure('rail', new Adapter());
    const spy = jest.spyOn(measured, 'inner').mockResolvedValue('spied');
    expect(await measured.inner()).toBe('spied');
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
    expect(await measured.inner()).toBe('answer');
    expect(await counts(registry)).toEqual({ 'inner/ok': 1 });
  });

  it("reports each provider's circuit, one state at 1", async () => {
    const registry = new Registry();
    const circuit = { circuit: 'closed' as 'closed' | 'open' | 'half_open' };
    new ThirdPartyCalls(registry).measure('rail', new Adapter(), { circuit });
    const states = async () =>
      Object.fromEntries((await registry.getSingleMetric('third_party_circuit_state')!.get()).values.map((value) => [value.labels.state, value.value]));
    expect(await states()).toEqual({ closed: 1, half_open: 0, open: 0 });
    circuit.circuit = 'open';
    expect(await states()).toEqual({ closed: 0, half_open: 0, open: 1 });
  });
});
