import { searchTerms } from './search-terms';

describe('searchTerms', () => {
  it('reads an id, whole or by its start, in any case, bounding the ids that start with it', () => {
    expect(searchTerms('  PI_3F9A1C2B ').id).toEqual({ prefix: 'pi', from: 'pi_3f9a1c2b', to: 'pi_3f9a1c2bg' });
    expect(searchTerms('pobo_4c1f0a9e2b7d3c5e8f601a2b').id).toEqual({
      prefix: 'pobo',
      from: 'pobo_4c1f0a9e2b7d3c5e8f601a2b',
      to: 'pobo_4c1f0a9e2b7d3c5e8f601a2bg',
    });
    // Too short a start would match too much; longer than an id is none.
    expect(searchTerms('pi_3f9').id).toBeUndefined();
    expect(searchTerms(`pi_${'a'.repeat(25)}`).id).toBeUndefined();
    expect(searchTerms('order_12x4').id).toBeUndefined();
  });

  it('reads digits as the end of an account number, and amounts with or without thousands separators', () => {
    expect(searchTerms('6785')).toEqual({ text: '6785', digits: '6785', amount: 6785 });
    expect(searchTerms('12')).toEqual({ text: '12', amount: 12 });
    expect(searchTerms('1,234.56')).toEqual({ text: '1,234.56', amount: 1234.56 });
    expect(searchTerms('12.345678').amount).toBe(12.345678);
    for (const notAmount of ['1,23', '1.2.3', '-5', '0', '1e5', '1,234,56']) expect(searchTerms(notAmount).amount).toBeUndefined();
    expect(searchTerms('999999999999').amount).toBeUndefined();
  });

  it('keeps the text itself for references and names, trimmed', () => {
    expect(searchTerms('  Jane Doe ')).toEqual({ text: 'Jane Doe' });
  });
});
