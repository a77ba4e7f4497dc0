import { Body, Controller, Delete, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Answer } from '../../common/http/answer';
import { LIST_HEADERS } from '../../common/http/api-docs';
import { ListQuery, sendPage } from '../../common/http/list.query';
import {
  ApiKeyDto,
  ApiKeyEnvelopeDto,
  ApiKeyListEnvelopeDto,
  CreateApiKeyDto,
  CurrentUser,
  DashboardOperation,
  DashboardPrincipal,
  IssuedApiKeyDto,
  IssuedApiKeyEnvelopeDto,
  RollApiKeyDto,
} from '../auth';
import { API_KEYS_PATH } from './accounts.routes';
import { ApiKeysSetup } from './api-keys-setup.service';
import { clientOf } from './client';

const KEY_EXAMPLE: ApiKeyDto = {
  apiKeyId: 'key_0a1b2c3d4e5f60718293a4b5',
  name: 'Production server',
  prefix: 'mk_test',
  lastFour: 'x9Qz',
  permissions: ['read', 'write'],
  status: 'active',
  createdBy: { userId: 'usr_0a1b2c3d4e5f60718293a4b5', email: 'ada@acme.example' },
  createdAt: '2026-11-25T10:00:00.000Z',
  lastUsedAt: null,
  expiresAt: null,
  revokedAt: null,
};

/** The merchant's API keys, for owners and developers; a key's secret is in the answer to create and roll only. */
@ApiTags('Dashboard: API keys')
@Controller(API_KEYS_PATH)
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysSetup) {}

  @Get()
  @DashboardOperation(
    {},
    {
      operationId: 'listApiKeys',
      summary: "The merchant's API keys, newest first: prefix and last four characters, never the key",
      unsafe: false,
      success: {
        status: 200,
        type: ApiKeyListEnvelopeDto,
        description: 'A page of keys',
        headers: LIST_HEADERS,
        example: { message: 'API keys retrieved', response: [KEY_EXAMPLE] },
      },
      errors: ['validation_failed', 'invalid_cursor'],
    },
  )
  @Answer('API keys retrieved')
  async list(@CurrentUser() user: DashboardPrincipal, @Query() query: ListQuery, @Res({ passthrough: true }) reply: FastifyReply): Promise<ApiKeyDto[]> {
    return sendPage(reply, await this.keys.list(user.merchantId, query));
  }

  @Post()
  @DashboardOperation(
    { roles: ['owner', 'developer'] },
    {
      operationId: 'createApiKey',
      summary: 'Create an API key',
      description: 'The answer carries the key (`apiKey`): copy it now, it is never shown again.',
      unsafe: true,
      success: {
        status: 201,
        type: IssuedApiKeyEnvelopeDto,
        description: 'Created',
        example: { message: 'API key created', response: { ...KEY_EXAMPLE, apiKey: 'mk_test_3yZe7dV1kQ2m9Lr5xN8pW4tH6sJ0aB2cDx9Qz' } },
      },
      body: { type: CreateApiKeyDto, example: { name: 'Production server', permissions: ['read', 'write'] } },
    },
  )
  @Answer('API key created')
  create(@CurrentUser() user: DashboardPrincipal, @Body() dto: CreateApiKeyDto, @Req() request: FastifyRequest): Promise<IssuedApiKeyDto> {
    return this.keys.create(user, dto, clientOf(request));
  }

  @Post(':apiKeyId/roll')
  @DashboardOperation(
    { roles: ['owner', 'developer'] },
    {
      operationId: 'rollApiKey',
      summary: 'Replace a key with a new one; the old one keeps working `expiresInHours` (0–168, default 0)',
      description: 'The answer carries the new key, shown only now. Move your servers to it before the old one expires.',
      unsafe: true,
      success: { status: 201, type: IssuedApiKeyEnvelopeDto, description: 'Rolled: the new key' },
      body: { type: RollApiKeyDto, example: { expiresInHours: 1 }, optional: true },
      errors: ['resource_not_found', 'api_key_inactive'],
    },
  )
  @Answer('API key rolled')
  roll(
    @CurrentUser() user: DashboardPrincipal,
    @Param('apiKeyId') apiKeyId: string,
    @Body() dto: RollApiKeyDto,
    @Req() request: FastifyRequest,
  ): Promise<IssuedApiKeyDto> {
    return this.keys.roll(user, apiKeyId, dto.expiresInHours ?? 0, clientOf(request));
  }

  @Delete(':apiKeyId')
  @DashboardOperation(
    { roles: ['owner', 'developer'] },
    {
      operationId: 'revokeApiKey',
      summary: 'Revoke a key now',
      description: 'Requests with it are refused within a few seconds (the API processes cache a key that briefly).',
      unsafe: true,
      success: { status: 200, type: ApiKeyEnvelopeDto, description: 'Revoked' },
      errors: ['resource_not_found'],
    },
  )
  @Answer('API key revoked')
  revoke(@CurrentUser() user: DashboardPrincipal, @Param('apiKeyId') apiKeyId: string, @Req() request: FastifyRequest): Promise<ApiKeyDto> {
    return this.keys.revoke(user, apiKeyId, clientOf(request));
  }
}
