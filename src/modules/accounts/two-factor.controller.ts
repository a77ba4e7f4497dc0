import { Body, Controller, Delete, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Answer } from '../../common/http/answer';
import { CurrentUser, DashboardOperation, DashboardPrincipal } from '../auth';
import { DASHBOARD_PATH } from './accounts.routes';
import { clientOf, SET_COOKIE, signedIn } from './client';
import { AccountDto, AccountEnvelopeDto } from './dto/account.dto';
import { TwoFactorCodeDto, TwoFactorEnabledDto, TwoFactorEnabledEnvelopeDto, TwoFactorEnrolmentDto, TwoFactorEnrolmentEnvelopeDto } from './dto/two-factor.dto';
import { TwoFactor } from './two-factor.service';

/** The signed-in user's TOTP second factor. Open to every role, and to a user the team requires to enrol. */
@ApiTags('Dashboard: account')
@Controller(`${DASHBOARD_PATH}/two-factor`)
export class TwoFactorController {
  constructor(private readonly twoFactor: TwoFactor) {}

  @Post()
  @HttpCode(200)
  @DashboardOperation(
    { beforeTwoFactor: true },
    {
      operationId: 'enrolTwoFactor',
      summary: 'Start enrolling a TOTP second factor',
      description:
        'Add the secret to an authenticator app (the `otpauthUri` as a QR code), then confirm with a code. A new enrolment replaces one not confirmed.',
      unsafe: true,
      success: { status: 200, type: TwoFactorEnrolmentEnvelopeDto, description: 'A secret to confirm' },
      errors: ['two_factor_state_conflict'],
    },
  )
  @Answer('Two-factor enrolment started')
  enrol(@CurrentUser() user: DashboardPrincipal): Promise<TwoFactorEnrolmentDto> {
    return this.twoFactor.enrol(user);
  }

  @Post('confirm')
  @HttpCode(200)
  @DashboardOperation(
    { beforeTwoFactor: true },
    {
      operationId: 'confirmTwoFactor',
      summary: 'Turn the second factor on with a code from the app',
      description: "Answers ten single-use recovery codes, shown only now. The user's sessions restart: the new one's cookie and CSRF token are in the answer.",
      unsafe: true,
      success: { status: 200, type: TwoFactorEnabledEnvelopeDto, headers: SET_COOKIE, description: 'On' },
      body: { type: TwoFactorCodeDto, example: { code: '123456' } },
      errors: ['invalid_two_factor_code', 'two_factor_state_conflict'],
    },
  )
  @Answer('Two-factor authentication on')
  async confirm(
    @CurrentUser() user: DashboardPrincipal,
    @Body() dto: TwoFactorCodeDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TwoFactorEnabledDto> {
    const result = await this.twoFactor.confirm(user, dto.code, clientOf(request));
    return { ...signedIn(reply, result), recoveryCodes: result.recoveryCodes };
  }

  @Delete()
  @DashboardOperation(
    {},
    {
      operationId: 'disableTwoFactor',
      summary: 'Turn the second factor off, with a current code or a recovery code',
      description: "Refused while the team requires it. The user's sessions restart.",
      unsafe: true,
      success: { status: 200, type: AccountEnvelopeDto, headers: SET_COOKIE, description: 'Off' },
      body: { type: TwoFactorCodeDto, example: { code: '123456' } },
      errors: ['invalid_two_factor_code', 'two_factor_state_conflict'],
    },
  )
  @Answer('Two-factor authentication off')
  async disable(
    @CurrentUser() user: DashboardPrincipal,
    @Body() dto: TwoFactorCodeDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AccountDto> {
    return signedIn(reply, await this.twoFactor.disable(user, dto.code, clientOf(request)));
  }
}
