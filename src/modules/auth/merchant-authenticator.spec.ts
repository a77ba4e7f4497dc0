import { extractApiKey } from './merchant-authenticator.service';

describe('extractApiKey', () => {
  it('takes the key from x-api-key or a Bearer Authorization header', () => {
    expect(extractApiKey(['X-Api-Key', ' mk_test_a '])).toBe('mk_test_a');
    expect(extractApiKey(['Authorization', 'bearer mk_test_a'])).toBe('mk_test_a');
  });

  it('refuses anything but exactly one credential', () => {
    expect(extractApiKey([])).toBeUndefined();
    expect(extractApiKey(['x-api-key', ''])).toBeUndefined();
    expect(extractApiKey(['Authorization', 'Basic mk_test_a'])).toBeUndefined();
    expect(extractApiKey(['x-api-key', 'mk_test_a', 'authorization', 'Bearer mk_test_b'])).toBeUndefined();
    expect(extractApiKey(['x-api-key', 'mk_test_a', 'Authorization', 'Bearer mk_test_a'])).toBeUndefined();
    expect(extractApiKey(['Authorization', 'Bearer mk_test_a', 'Authorization', 'Bearer mk_test_b'])).toBeUndefined();
  });
});
