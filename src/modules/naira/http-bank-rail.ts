import { IsIn, IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';
import { parseProviderBody, ProviderHttpClient } from '../../common/providers/provider-http-client';
import { BankRail, VirtualAccount, VirtualAccountRequest } from './bank-rail';

class VirtualAccountBody {
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  id: string;

  @Matches(/^\d{10}$/)
  account_number: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  bank_name: string;

  @IsIn(['active'])
  status: string;
}

/** The bank rail over HTTP (the sandbox in development). */
export class HttpBankRail implements BankRail {
  constructor(private readonly client: ProviderHttpClient) {}

  async openVirtualAccount(request: VirtualAccountRequest, options: { timeoutMs: number; retries: number }): Promise<VirtualAccount> {
    const { body } = await this.client.request({
      method: 'POST',
      path: '/v1/virtual-accounts',
      headers: { 'idempotency-key': request.reference },
      body: { reference: request.reference, account_name: request.accountName, currency: 'NGN' },
      ...options,
    });
    const account = parseProviderBody('bank rail', VirtualAccountBody, body);
    return { id: account.id, accountNumber: account.account_number, bankName: account.bank_name };
  }
}
