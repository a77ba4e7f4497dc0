import { extractCredential } from './merchant-authenticator.service';

describe('extractCredential', () => {
  it('takes the key from x-api-key or a Bearer Authorization header', () => {
    expect(extractCredential(['X-Api-Key', ' mk_test_a '])).toEqual({ key: 'mk_test_a' });
    expect(extractCredential(['Authorization', 'bearer mk_test_a'])).toEqual({ key: 'mk_test_a' });
  });

  it('accepts both headers when they carry the same key, as generated clients send them', () => {
    expect(extractCredential(['x-api-key', 'mk_test_a', 'Authorization', 'Bearer mk_test_a'])).toEqual({ key: 'mk_test_a' });
  });

  it('names two different keys a conflict, also when one of them is unreadable', () => {
    expect(extractCredential(['x-api-key', 'mk_test_a', 'authorization', 'Bearer mk_test_b'])).toEqual({ conflict: true });
    expect(extractCredential(['x-api-key', 'mk_test_a', 'authorization', 'Basic mk_test_a'])).toEqual({ conflict: true });
    expect(extractCredential(['x-api-key', '', 'authorization', 'Bearer mk_test_a'])).toEqual({ conflict: true });
  });

  it('has no usable key without a credential, with an unreadable one, or with a header sent twice', () => {
    expect(extractCredential([])).toBeUndefined();
    expect(extractCredential(['x-api-key', ''])).toBeUndefined();
    expect(extractCredential(['Authorization', 'Basic mk_test_a'])).toBeUndefined();
    expect(extractCredential(['Authorization', 'Bearer mk_test_a', 'Authorization', 'Bearer mk_test_a'])).toBeUndefined();
    expect(extractCredential(['x-api-key', 'mk_test_a', 'X-Api-Key', 'mk_test_a'])).toBeUndefined();
  });
});
