import { randomBytes } from 'node:crypto';
import { getAddress } from 'viem';
import { isChainAddress } from './chain-address';

describe('isChainAddress', () => {
  it('takes an EVM address in its EIP-55 form (as viem encodes it), all lower case or all upper case', () => {
    for (let i = 0; i < 200; i++) {
      const hex = randomBytes(20).toString('hex');
      const checksummed = getAddress(`0x${hex}`);
      expect(isChainAddress('base', checksummed)).toBe(true);
      expect(isChainAddress('ethereum', `0x${hex}`)).toBe(true);
      expect(isChainAddress('polygon', `0x${hex.toUpperCase()}`)).toBe(true);
    }
  });

  it('refuses a mixed-case EVM address whose checksum does not hold, a wrong length, no 0x or a non-hex character', () => {
    const checksummed = '0x8C8d35429F74ec245F8Ef2f4Fd1e551cFF97d650';
    expect(isChainAddress('base', checksummed)).toBe(true);
    expect(isChainAddress('base', checksummed.replace('8C8d', '8c8d'))).toBe(false);
    expect(isChainAddress('base', checksummed.slice(0, -1))).toBe(false);
    expect(isChainAddress('base', `${checksummed}0`)).toBe(false);
    expect(isChainAddress('base', checksummed.slice(2))).toBe(false);
    expect(isChainAddress('base', `0x${'g'.repeat(40)}`)).toBe(false);
    expect(isChainAddress('base', '2AmbLgAgTeK9Bp3bQmGnw1RkxaxmJZ23bSNDB7A3Fj5x')).toBe(false);
  });

  it('takes a Solana public key on solana and nothing else there', () => {
    expect(isChainAddress('solana', '2AmbLgAgTeK9Bp3bQmGnw1RkxaxmJZ23bSNDB7A3Fj5x')).toBe(true);
    expect(isChainAddress('solana', '0x8C8d35429F74ec245F8Ef2f4Fd1e551cFF97d650')).toBe(false);
    expect(isChainAddress('solana', '2AmbLgAgTeK9Bp3bQmGnw1RkxaxmJZ23bSNDB7A3Fj5')).toBe(false);
    expect(isChainAddress('solana', '0OIl' + 'A'.repeat(40))).toBe(false);
  });
});
