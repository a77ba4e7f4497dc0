import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What the local chains deploy: the contract's ABI and creation bytecode. */
export interface ContractArtifact {
  contractName: string;
  compiler: string;
  abi: unknown[];
  bytecode: `0x${string}`;
}

const SOURCE = 'SandboxUSDC.sol';

/**
 * Compiles `SandboxUSDC.sol` with solc-js (the compiler as WebAssembly from npm: nothing is
 * downloaded). The checked-in `sandbox-usdc.json` is its output (`npm run sandbox:usdc`); a unit
 * test compiles again and compares, so the two never drift.
 */
export function compileSandboxUsdc(): ContractArtifact {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- solc ships no types and only CommonJS
  const solc = require('solc') as { compile(input: string): string; version(): string };
  const input = {
    language: 'Solidity',
    sources: { [SOURCE]: { content: readFileSync(join(__dirname, SOURCE), 'utf8') } },
    settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: 'cancun', outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((error) => error.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((error) => error.formattedMessage).join('\n'));
  const contract = output.contracts[SOURCE].SandboxUSDC;
  return { contractName: 'SandboxUSDC', compiler: solc.version(), abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
}
