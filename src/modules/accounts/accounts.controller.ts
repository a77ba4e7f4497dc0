import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Answer } from '../../common/http/answer';
import { ApiDashboardOperation, ApiPublicOperation } from '../../common/http/api-docs';
import { CurrentUser, DashboardPrincipal, DashboardRoute, PublicRoute } from '../auth';
import { DASHBOARD_PATH } from './accounts.routes';
import { AccountsService, SignedIn } from './accounts.service';
import { ClientOf, DashboardSessions, SessionCookie } from './dashboard-sessions.service';
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

const ACCOUNT_EXAMPLE = {
  user: { userId: 'usr_0a1b2c3d4e5f60718293a4b5', email: 'ada@acme.example', role: 'owner', emailVerified: false },
  merchant: { merchantId: 'mer_0a1b2c3d4e5f60718293a4b5', name: 'Acme' },
  csrfToken: 'q0mJ2pWm3kW0yq1Yb0n8l0O7hB9kYw3V8q6H2d1c4f0',
};
const SET_COOKIE = {
  'Set-Cookie': { description: 'The session cookie (`HttpOnly`, `SameSite=Lax`; `Secure` and `__Host-` over HTTPS)', schema: { type: 'string' } },
};

/** The Merchant Dashboard's account endpoints: sign-up, login, logout, who is signed in, sessions. */
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
    summary: 'Sign in with e-mail and password',
    description: 'A new session each time. Failed logins are limited per e-mail and per client IP (429 with `Retry-After`, unlocked by time).',
    success: {
      status: 200,
      type: AccountEnvelopeDto,
      headers: SET_COOKIE,
      description: 'Signed in',
      example: { message: 'Signed in', response: ACCOUNT_EXAMPLE },
    },
    body: { type: LoginDto, example: { email: 'ada@acme.example', password: 'correct horse battery staple' } },
    errors: ['invalid_credentials', 'csrf_failed', 'rate_limited'],
  })
  @Answer('Signed in')
  async logIn(@Body() dto: LoginDto, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<AccountDto> {
    this.sessions.assertSameOrigin(request.headers.origin);
    return signedIn(reply, await this.accounts.login(dto, clientOf(request)));
  }

  @DashboardRoute()
  @Post('logout')
  @HttpCode(200)
  @ApiDashboardOperation({
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
  })
  @Answer('Signed out')
  async logOut(@CurrentUser() user: DashboardPrincipal, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionEndedDto> {
    const ended = await this.accounts.endSession(user, user.sessionId);
    setCookie(reply, this.sessions.clearedCookie());
    return ended;
  }

  @DashboardRoute()
  @Post('password')
  @HttpCode(200)
  @ApiDashboardOperation({
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
  })
  @Answer('Password changed')
  async changePassword(
    @CurrentUser() user: DashboardPrincipal,
    @Body() dto: ChangePasswordDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AccountDto> {
    return signedIn(reply, await this.accounts.changePassword(user, dto, clientOf(request)));
  }

  @DashboardRoute()
  @Get('me')
  @ApiDashboardOperation({
    operationId: 'getMe',
    summary: "Who is signed in, for which merchant, and the session's CSRF token",
    unsafe: false,
    success: { status: 200, type: AccountEnvelopeDto, description: 'The signed-in user', example: { message: 'Account retrieved', response: ACCOUNT_EXAMPLE } },
  })
  @Answer('Account retrieved')
  async me(@CurrentUser() user: DashboardPrincipal, @Req() request: FastifyRequest): Promise<AccountDto> {
    return this.accounts.me(user, this.sessions.csrfTokenOf(request));
  }

  @DashboardRoute()
  @Get('sessions')
  @ApiDashboardOperation({
    operationId: 'listSessions',
    summary: "The signed-in user's sessions that have not ended, newest first",
    unsafe: false,
    success: { status: 200, type: SessionListEnvelopeDto, description: 'The sessions' },
  })
  @Answer('Sessions retrieved')
  listSessions(@CurrentUser() user: DashboardPrincipal): Promise<SessionDto[]> {
    return this.accounts.listSessions(user);
  }

  @DashboardRoute()
  @Delete('sessions/:sessionId')
  @ApiDashboardOperation({
    operationId: 'endSession',
    summary: "End one of the signed-in user's sessions (another device, say)",
    unsafe: true,
    success: { status: 200, type: SessionEndedEnvelopeDto, description: 'Ended' },
    errors: ['resource_not_found'],
  })
  @Answer('Session ended')
  endSession(@CurrentUser() user: DashboardPrincipal, @Param('sessionId') sessionId: string): Promise<SessionEndedDto> {
    return this.accounts.endSession(user, sessionId);
  }
}

function clientOf(request: FastifyRequest): ClientOf {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? '' };
}

function signedIn(reply: FastifyReply, result: SignedIn): AccountDto {
  setCookie(reply, result.session.cookie);
  return result.account;
}

function setCookie(reply: FastifyReply, cookie: SessionCookie): void {
  void reply.header('Set-Cookie', reply.server.serializeCookie(cookie.name, cookie.value, cookie.options));
}
