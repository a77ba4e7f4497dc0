import { maskUrl, REDACTION_MARKER } from './logger.options';

describe('maskUrl', () => {
  const key = 'mk_test_3bTqvCrJ3Zz7WZQ5tJmFq1x2y3z4A5B6C7D8E9';
  const token = 'Qm9ndXNUb2tlbkZvclRoZUFncmVlbWVudFBhZ2UxMjM';

  it.each([
    [`/api/merchant/pobo/users?api_key=${key}`, '/api/merchant/pobo/users?api_key=[Redacted]'],
    [`/api/merchant/pobo/users?note=${key.replace('_', '%5F')}`, `/api/merchant/pobo/users?note=mk_test_${REDACTION_MARKER}`],
    [`/api/merchant/pobo/users/${key}`, `/api/merchant/pobo/users/mk_test_${REDACTION_MARKER}`],
    [`/agreements/${token}`, `/agreements/${REDACTION_MARKER}`],
    [`/%61greements/${token}`, `/agreements/${REDACTION_MARKER}`],
    [`//AGREEMENTS//${token}?x=1`, `//AGREEMENTS//${REDACTION_MARKER}?x=1`],
    [`/x?token=${token}&limit=2`, `/x?token=${REDACTION_MARKER}&limit=2`],
  ])('masks %s', (url, masked) => {
    expect(maskUrl(url)).toBe(masked);
  });

  it('leaves ordinary URLs alone and survives malformed escapes', () => {
    expect(maskUrl('/api/merchant/pobo/users?limit=10&cursor=pobo_abc')).toBe('/api/merchant/pobo/users?limit=10&cursor=pobo_abc');
    expect(maskUrl('/api/%E0%A4%A/%zz')).toBe('/api/%E0%A4%A/%zz');
  });
});
