import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { AppModule } from './app.module';
import { buildOpenApiDocuments } from './openapi';
import { createRootLogger, RequestLogController } from './common/logging/logger.options';
import { AppError } from './common/errors/app-error';
import { installAnswers } from './common/http/answer';
import { installPaging } from './common/http/list.query';
import { checkJsonBody } from './common/validation/json-body.guard';
import { installBodyDeadline, installShutdownBudget } from './common/http/body-deadline';
import { clientErrorHandler, frameworkErrors } from './common/http/framework-errors';
import { generateRequestId } from './common/http/request-id';
import { DOCS_HEADERS, installSecurityHeaders } from './common/http/security-headers';
import { AppConfig } from './config/app.config';
import { installAgreementPageErrors } from './modules/agreement-page';
import { installReceiptPageErrors } from './modules/international-intents';
import { installCallerAuthentication, keepsRawBody } from './modules/auth';
import { DashboardSessions } from './modules/accounts';
import { DASHBOARD_WEB_HEADERS, DASHBOARD_WEB_PATH, installDashboardWeb, isDashboardWebRoute } from './modules/dashboard-web';
import { installIdempotency } from './modules/idempotency';
import { installChangeAudit } from './modules/audit';
import { installKybUploadHooks } from './modules/kyb';
import { installRequestMetrics, OpsMetrics } from './modules/metrics';

const DOCS_PATH = 'docs';

/** The OpenAPI document and its viewer, mounted by the Swagger module rather than a handler: public, limited per client IP. */
function isOpenApiRoute(url: string): boolean {
  return url.startsWith('/openapi.') || url === `/${DOCS_PATH}` || url.startsWith(`/${DOCS_PATH}/`);
}

/** Default JSON body limit. Routes that take documents raise their own limit. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Builds the HTTP application (not yet listening). Shared by `main.ts`, the e2e suites and the bench. */
export async function createApp(config: AppConfig, options: { logStream?: DestinationStream } = {}): Promise<NestFastifyApplication> {
  const logger = createRootLogger(config, options.logStream);
  const adapter = new FastifyAdapter({
    loggerInstance: logger,
    logController: new RequestLogController(),
    genReqId: generateRequestId,
    requestIdHeader: false,
    // Client IPs (recorded as agreement-acceptance evidence) come from X-Forwarded-For only via trusted proxies.
    trustProxy: config.trustProxy,
    bodyLimit: DEFAULT_BODY_LIMIT,
    // Give in-flight requests time to finish on SIGTERM, refuse new ones with 503.
    return503OnClosing: true,
    // Errors Fastify and Node answer before any hook runs get the contract's body too.
    frameworkErrors,
    clientErrorHandler,
    // `/api/merchant/pobo/users/` is the same route as without the slash, as most clients expect.
    routerOptions: { ignoreTrailingSlash: true },
    // No Nest middleware is mounted (see `nestLoggerParams`): without middie, no request pays for its hook.
    skipMiddie: true,
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, { logger }), adapter, {
    bufferLogs: true,
    bodyParser: false,
  });
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();

  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('X-Request-Id', request.id);
    done();
  });
  // First after the request id: nothing else runs for a merchant route without a valid key, or
  // for a public route over its client's limit. Each rail signs with its own secret.
  installCallerAuthentication(app, fastify, {
    railSecrets: { bank_rail: config.bankRail.webhookSecret, bridge_rail: config.bridgeRail.webhookSecret, payout_rail: config.payoutRail.webhookSecret },
    sessions: app.get(DashboardSessions),
    extraPublic: (url) => isOpenApiRoute(url) || isDashboardWebRoute(url),
  });
  fastify.addHook('onRequest', (request, _reply, done) => {
    // Compressed bodies are not accepted: refused before reading rather than misread.
    const encoding = request.headers['content-encoding'];
    done(
      encoding !== undefined && encoding.toLowerCase() !== 'identity'
        ? new AppError('unsupported_media_type', 'Content-Encoding is not supported; send the body uncompressed')
        : undefined,
    );
  });
  installBodyDeadline(fastify, config.body);
  installShutdownBudget(fastify, config.shutdownTimeoutMs);
  installSecurityHeaders(fastify, { [`/${DOCS_PATH}`]: DOCS_HEADERS, [DASHBOARD_WEB_PATH]: DASHBOARD_WEB_HEADERS });

  // Fastify's own JSON parser (with its prototype-poisoning guard), but its failures become our
  // `invalid_json` error: Nest would otherwise turn them into a bare 400 without the cause. Every
  // parsed body (the KYB application's too) is then checked for what would fail as a 500 further
  // in: nesting past MAX_JSON_DEPTH, NUL characters, lone surrogates (`checkJsonBody`).
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // A rail callback's signature covers its exact bytes.
    if (keepsRawBody(request)) request.rawBody = body as string;
    void parseJson(request, body as string, (err, parsed) =>
      err ? done(new AppError('invalid_json', 'Request body is not valid JSON')) : done(checkJsonBody(parsed), parsed),
    );
  });

  // Plain HTML forms (the agreement page) post urlencoded bodies and carry its CSRF cookie; the
  // merchant API takes JSON only (refused below).
  await app.register(fastifyFormbody);
  // Parsing and serialising only: a hook on every request would cost the merchant API for a cookie only the page uses.
  await app.register(fastifyCookie, { hook: false });
  fastify.addHook('preValidation', (request, _reply, done) => {
    const isApi = request.url.startsWith('/api/');
    const json = /^application\/json\b/i.test(request.headers['content-type'] ?? '');
    if (isApi && request.body !== undefined && !json) return done(new AppError('unsupported_media_type', 'Content-Type must be application/json'));
    // The query string's values reach the same validators and SQL as a body's: the same refusals
    // (a NUL in a filter would otherwise fail in PostgreSQL as a 500). A list's cursor is its own
    // refusal, `invalid_cursor`: the paging reads only a cursor that is an id it issued.
    // Only an escaped character can be one of them, so a query without `%` is not looked at.
    const query = request.url.indexOf('?');
    const escaped = isApi && query >= 0 && request.url.includes('%', query);
    done((escaped && checkJsonBody({ ...(request.query as object), cursor: undefined })) || undefined);
  });

  installRequestMetrics(fastify, app.get(OpsMetrics));
  installAnswers(fastify);
  installPaging(fastify, config.publicBaseUrl);
  installIdempotency(app, fastify);
  installChangeAudit(app, fastify);
  installKybUploadHooks(app, fastify, config.maxConcurrentKybUploads);
  installAgreementPageErrors(fastify);
  installReceiptPageErrors(fastify);

  setupOpenApi(app, config);
  await app.init();
  // After Nest's error handler is set: registering a plugin loads every pending one, and a plugin
  // loaded before that handler (the API docs') would answer its errors with Fastify's own.
  await installDashboardWeb(app);
  return app;
}

function setupOpenApi(app: NestFastifyApplication, config: AppConfig): void {
  const documents = buildOpenApiDocuments(app, config);
  SwaggerModule.setup(DOCS_PATH, app, documents.merchant, { jsonDocumentUrl: 'openapi.json', yamlDocumentUrl: 'openapi.yaml' });
  SwaggerModule.setup(`${DOCS_PATH}/rails`, app, documents.rails, { jsonDocumentUrl: 'openapi.rails.json', yamlDocumentUrl: 'openapi.rails.yaml' });
}
