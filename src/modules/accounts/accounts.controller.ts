import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Answer } from '../../common/http/answer';
import { ApiPublicOperation } from '../../common/http/api-docs';
import { CurrentUser, DashboardOperation, DashboardPrincipal, PublicRoute } from '../auth';
import { DASHBOARD_PATH } from './accounts.routes';
import { AccountsService } from './accounts.service';
import { clientOf, SET_COOKIE, setCookies, signedIn } from './client';
import { DashboardSessions } from './dashboard-sessions.service';
import {
  AccountDto,
  AccountEnvelopeDto,
  ChangePasswordDto,
  LoginDto,
  SessionDto,
  SessionEndedDto,
  SessionEndedEnvelopeDto,
  SessionListEnvelopeDto,
  SignUpDto,
} from './dto/account.dto';
import {
  AcceptedDto,
  AcceptedEnvelopeDto,
  AcceptInvitationDto,
  DoneDto,
  DoneEnvelopeDto,
  LinkTokenDto,
  PasswordResetDto,
  PasswordResetRequestDto,
} from './dto/links.dto';

const ACCOUNT_EXAMPLE = {
  user: { userId: 'usr_0a1b2c3d4e5f60718293a4b5', email: 'ada@acme.example', role: 'owner', emailVerified: false, twoFactorEnabled: false },
  merchant: { merchantId: 'mer_0a1b2c3d4e5f60718293a4b5', name: 'Acme', mode: 'test' },
  csrfToken: 'q0mJ2pWm3kW0yq1Yb0n8l0O7hB9kYw3V8q6H2d1c4f0',
};
const TOKEN_EXAMPLE = 'q0mJ2pWm3kW0yq1Yb0n8l0O7hB9kYw3V8q6H2d1c4f0';

/**
 * The Merchant Dashboard's account endpoints: sign-up, login, logout, who is signed in, sessions,
 * passwords and their reset, e-mail verification, and joining a team by invitation.
 */
@ApiTags('Dashboard: account')
@Controller(DASHBOARD_PATH)
export class AccountsController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly sessions: DashboardSessions,
  ) {}

  @PublicRoute()
  @Post('signup')
  @ApiPublicOperation({
    operationId: 'signUp',
    summary: 'Create a merchant and its owner, signed in',
    description: 'A link to verify the e-mail address is mailed to it.',
    success: {
      status: 201,
      type: AccountEnvelopeDto,
      headers: SET_COOKIE,
      description: 'Signed up and in',
      example: { message: 'Signed up', response: ACCOUNT_EXAMPLE },
    },
    body: { type: SignUpDto, example: { email: 'ada@acme.example', password: 'correct horse battery staple', merchantName: 'Acme' } },
    errors: ['email_taken', 'csrf_failed', 'rate_limited'],
  })
  @Answer('Signed up')
  async signUp(@Body() dto: SignUpDto, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<AccountDto> {
    this.sessions.assertSameOrigin(request.headers.origin);
    return signedIn(reply, await this.accounts.signUp(dto, clientOf(request)));
  }

  @PublicRoute()
  @Post('login')
  @HttpCode(200)
  @ApiPublicOperation({
    operationId: 'logIn',
    summary: 'Sign in with e-mail and password (and the second factor, when on)',
    description:
      'A new session each time. Failed logins are limited per e-mail and per client IP (429 with `Retry-After`, unlocked by time). A user with a ' +
      'second factor who sends no `code` gets 401 `two_factor_required`: send the same request again with it.',
    success: {
      status: 200,
      type: AccountEnvelopeDto,
      headers: SET_COOKIE,
      description: 'Signed in',
      example: { message: 'Signed in', response: ACCOUNT_EXAMPLE },
    },
    body: { type: LoginDto, example: { email: 'ada@acme.example', password: 'correct horse battery staple' } },
    errors: ['invalid_credentials', 'two_factor_required', 'invalid_two_factor_code', 'csrf_failed', 'rate_limited'],
  })
  @Answer('Signed in')
  async logIn(@Body() dto: LoginDto, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<AccountDto> {
    this.sessions.assertSameOrigin(request.headers.origin);
    return signedIn(reply, await this.accounts.login(dto, clientOf(request)));
  }

  @Post('logout')
  @HttpCode(200)
  @DashboardOperation(
    { beforeTwoFactor: true },
    {
      operationId: 'logOut',
      summary: 'End this session',
      unsafe: true,
      success: {
        status: 200,
        type: SessionEndedEnvelopeDto,
        headers: SET_COOKIE,
        description: 'Signed out',
        example: { message: 'Signed out', response: { sessionId: 'ses_0a1b2c3d4e5f60718293a4b5', ended: true } },
      },
    },
  )
  @Answer('Signed out')
  async logOut(
    @CurrentUser() user: DashboardPrincipal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SessionEndedDto> {
    const ended = await this.accounts.logout(user, clientOf(request));
    setCookies(reply, this.sessions.clearedCookies());
    return ended;
  }

  @Post('password')
  @HttpCode(200)
  @DashboardOperation(
    {},
    {
      operationId: 'changePassword',
      summary: "Change the signed-in user's password",
      description: 'Every session of the user ends, this one too, and a new one begins (its cookie and CSRF token are in the answer).',
      unsafe: true,
      success: {
        status: 200,
        type: AccountEnvelopeDto,
        headers: SET_COOKIE,
        description: 'Changed; signed in anew',
        example: { message: 'Password changed', response: ACCOUNT_EXAMPLE },
      },
      body: { type: ChangePasswordDto, example: { currentPassword: 'correct horse battery staple', newPassword: 'a longer and newer passphrase' } },
      errors: ['invalid_credentials'],
    },
  )
  @Answer('Password changed')
  async changePassword(
    @CurrentUser() user: DashboardPrincipal,
    @Body() dto: ChangePasswordDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AccountDto> {
    return signedIn(reply, await this.accounts.changePassword(user, dto, clientOf(request)));
  }

  @PublicRoute()
  @Post('password-reset')
  @HttpCode(202)
  @ApiPublicOperation({
    operationId: 'requestPasswordReset',
    summary: 'Mail a password-reset link (single use, 1 hour)',
    description:
      'The same answer whether or not the e-mail has an account. Each request counts against the e-mail and the client IP, like a failed login ' +
      '(429 with `Retry-After` past either).',
    success: {
      status: 202,
      type: AcceptedEnvelopeDto,
      description: 'Asked',
      example: { message: 'If an account has this e-mail, a link is on its way', response: { accepted: true } },
    },
    body: { type: PasswordResetRequestDto, example: { email: 'ada@acme.example' } },
    errors: ['rate_limited'],
  })
  @Answer('If an account has this e-mail, a link is on its way')
  async requestPasswordReset(@Body() dto: PasswordResetRequestDto, @Req() request: FastifyRequest): Promise<AcceptedDto> {
    await this.accounts.requestPasswordReset(dto.email, clientOf(request));
    return { accepted: true };
  }

  @PublicRoute()
  @Post('password-reset/confirm')
  @HttpCode(200)
  @ApiPublicOperation({
    operationId: 'resetPassword',
    summary: "Set a new password with the e-mailed link's token",
    description: 'Every session of the user ends. Sign in afterwards (with the second factor, when on).',
    success: { status: 200, type: DoneEnvelopeDto, description: 'Reset', example: { message: 'Password reset', response: { done: true } } },
    body: { type: PasswordResetDto, example: { token: TOKEN_EXAMPLE, newPassword: 'a longer and newer passphrase' } },
    errors: ['invalid_link', 'rate_limited'],
  })
  @Answer('Password reset')
  async resetPassword(@Body() dto: PasswordResetDto, @Req() request: FastifyRequest): Promise<DoneDto> {
    await this.accounts.resetPassword(dto, clientOf(request));
    return { done: true };
  }

  @PublicRoute()
  @Post('verify-email')
  @HttpCode(200)
  @ApiPublicOperation({
    operationId: 'verifyEmail',
    summary: "Confirm the e-mail address with the e-mailed link's token",
    success: { status: 200, type: DoneEnvelopeDto, description: 'Verified', example: { message: 'E-mail verified', response: { done: true } } },
    body: { type: LinkTokenDto, example: { token: TOKEN_EXAMPLE } },
    errors: ['invalid_link', 'rate_limited'],
  })
  @Answer('E-mail verified')
  async verifyEmail(@Body() dto: LinkTokenDto, @Req() request: FastifyRequest): Promise<DoneDto> {
    await this.accounts.verifyEmail(dto.token, clientOf(request));
    return { done: true };
  }

  @Post('verify-email/resend')
  @HttpCode(202)
  @DashboardOperation(
    { beforeTwoFactor: true },
    {
      operationId: 'resendVerificationEmail',
      summary: 'Mail another verification link to the signed-in user (nothing when verified already)',
      unsafe: true,
      success: {
        status: 202,
        type: AcceptedEnvelopeDto,
        description: 'On its way',
        example: { message: 'Verification link sent', response: { accepted: true } },
      },
    },
  )
  @Answer('Verification link sent')
  async resendVerification(@CurrentUser() user: DashboardPrincipal): Promise<AcceptedDto> {
    await this.accounts.resendVerification(user);
    return { accepted: true };
  }

  @PublicRoute()
  @Post('invitations/accept')
  @ApiPublicOperation({
    operationId: 'acceptInvitation',
    summary: "Join the inviting team with the e-mailed link's token, signed in",
    description: "The account has the invitation's e-mail (verified by the link) and role.",
    success: {
      status: 201,
      type: AccountEnvelopeDto,
      headers: SET_COOKIE,
      description: 'Joined and signed in',
      example: { message: 'Invitation accepted', response: { ...ACCOUNT_EXAMPLE, user: { ...ACCOUNT_EXAMPLE.user, role: 'developer', emailVerified: true } } },
    },
    body: { type: AcceptInvitationDto, example: { token: TOKEN_EXAMPLE, password: 'correct horse battery staple' } },
    errors: ['invalid_link', 'email_taken', 'csrf_failed', 'rate_limited'],
  })
  @Answer('Invitation accepted')
  async acceptInvitation(
    @Body() dto: AcceptInvitationDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AccountDto> {
    this.sessions.assertSameOrigin(request.headers.origin);
    return signedIn(reply, await this.accounts.acceptInvitation(dto, clientOf(request)));
  }

  @Get('me')
  @DashboardOperation(
    { beforeTwoFactor: true },
    {
      operationId: 'getMe',
      summary: "Who is signed in, for which merchant, and the session's CSRF token",
      unsafe: false,
      success: {
        status: 200,
        type: AccountEnvelopeDto,
        description: 'The signed-in user',
        example: { message: 'Account retrieved', response: ACCOUNT_EXAMPLE },
      },
    },
  )
  @Answer('Account retrieved')
  async me(@CurrentUser() user: DashboardPrincipal, @Req() request: FastifyRequest): Promise<AccountDto> {
    return this.accounts.me(user, this.sessions.csrfTokenOf(request));
  }

  @Get('sessions')
  @DashboardOperation(
    {},
    {
      operationId: 'listSessions',
      summary: "The signed-in user's sessions that have not ended, newest first",
      unsafe: false,
      success: { status: 200, type: SessionListEnvelopeDto, description: 'The sessions' },
    },
  )
  @Answer('Sessions retrieved')
  listSessions(@CurrentUser() user: DashboardPrincipal): Promise<SessionDto[]> {
    return this.accounts.listSessions(user);
  }

  @Delete('sessions/:sessionId')
  @DashboardOperation(
    {},
    {
      operationId: 'endSession',
      summary: "End one of the signed-in user's sessions (another device, say)",
      unsafe: true,
      success: { status: 200, type: SessionEndedEnvelopeDto, description: 'Ended' },
      errors: ['resource_not_found'],
    },
  )
  @Answer('Session ended')
  endSession(@CurrentUser() user: DashboardPrincipal, @Param('sessionId') sessionId: string, @Req() request: FastifyRequest): Promise<SessionEndedDto> {
    return this.accounts.endSession(user, sessionId, clientOf(request));
  }
}
