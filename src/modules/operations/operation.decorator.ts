import { applyDecorators, HttpCode, RequestMapping, RequestMethod, Type } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { DASHBOARD_ROLES, DashboardRole } from '../../common/dashboard-roles';
import type { ErrorCode } from '../../common/errors/error-codes';
import { Answer } from '../../common/http/answer';
import { ApiMerchantOperation, ApiOperationSpec } from '../../common/http/api-docs';
import { WithRouteConfig } from '../../common/http/route-config';
import type { IdPrefix } from '../../common/ids/ids';
import { CHANGE_AUDIT, ChangeAudit } from '../audit';
import { DashboardOperation, MerchantRoute } from '../auth';
import { Idempotent, idempotencyErrors } from '../idempotency';

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
type IdempotencyMode = 'required' | 'optional';

/**
 * One operation of the service, declared once whoever calls it: a merchant's server with an API
 * key, a Merchant Dashboard user with a session, or both. Each caller has its own path (the
 * merchant API's, under `/api/merchant`, and the dashboard's, under `/api/dashboard`), its own
 * authorisation (the key's permission; the user's roles) and its own entry in the OpenAPI
 * document; everything else (the handler, its answer, body, errors, description and example) is
 * the operation's and is said once.
 */
export interface OperationSpec<B extends object = object> extends Omit<ApiOperationSpec, 'body' | 'errors'> {
  method: Method;
  /** The message of the success envelope (`{ message, response }`); none for an operation that sends its own answer (a file). */
  answer?: string;
  body?: { type: Type<B>; example: object; optional?: boolean };
  /** Codes particular to this operation; those of its callers, its body and its idempotency are added. */
  errors?: ErrorCode[];
  /** It honours `Idempotency-Key` (`required` when it moves money), answering `status`; `creates`: the kind of id the claim fixes. */
  idempotent?: { mode: IdempotencyMode; status: number; creates?: IdPrefix };
  /** Called with a merchant's API key holding `permission` (a change names `write` or `move_money`). */
  merchant?: { path: string; tag: string; permission?: 'write' | 'move_money' };
  /**
   * Called from the dashboard with a session by a user with one of `roles` (every role unless
   * given). `idempotency`: the key's mode for this caller when it differs (the dashboard's pages
   * always send one). `audit`: the entry a change made from the dashboard writes in the audit log,
   * in the change's transaction.
   */
  dashboard?: { path: string; tag: string; roles?: DashboardRole[]; idempotency?: IdempotencyMode; audit?: ChangeAudit<B> };
}

/** The dashboard's variant of an operation both callers have is the same handler under this method name. */
const DASHBOARD_ALIAS = (key: string) => `${key}FromDashboard`;

/**
 * Declares an operation (`OperationSpec`): its routes, callers, idempotency, answer and OpenAPI
 * entries. When both callers have it, the dashboard's route is a second method of the controller
 * that runs the same handler with the same parameters, so Nest and the OpenAPI document see two
 * ordinary routes, each with its own authorisation and documentation. Put it above every other
 * decorator of the handler: it copies the parameters' metadata, which is complete only then.
 */
export function Operation<B extends object = object>(spec: OperationSpec<B>): MethodDecorator {
  return (target, key, descriptor) => {
    if (typeof key !== 'string') throw new Error('an operation is a named method');
    if (!spec.merchant && !spec.dashboard) throw new Error(`${key}: an operation has a merchant or a dashboard caller`);
    if (spec.merchant) applyDecorators(...merchantRoute(spec, spec.merchant))(target, key, descriptor);
    if (!spec.dashboard) return descriptor;
    if (!spec.merchant) {
      applyDecorators(...dashboardRoute(spec, spec.dashboard, spec.operationId))(target, key, descriptor);
      return descriptor;
    }
    const alias = DASHBOARD_ALIAS(key);
    const handler = descriptor.value as (...args: unknown[]) => unknown;
    const aliasDescriptor: PropertyDescriptor = {
      value: function (this: unknown, ...args: unknown[]) {
        return handler.apply(this, args);
      },
      writable: true,
      configurable: true,
    };
    // The OpenAPI explorer finds a method's parameters by its function's name.
    Object.defineProperty(aliasDescriptor.value, 'name', { value: alias });
    Object.defineProperty(target, alias, aliasDescriptor);
    // The same parameters: what Nest keeps of them per method name (their decorators, a passed-through
    // reply) and their types (read by the validation pipe and the OpenAPI explorer).
    for (const owner of [target.constructor, target]) {
      for (const metadataKey of Reflect.getOwnMetadataKeys(owner, key)) {
        Reflect.defineMetadata(metadataKey, Reflect.getOwnMetadata(metadataKey, owner, key), owner, alias);
      }
    }
    const dashboardOperationId = `dashboard${spec.operationId[0].toUpperCase()}${spec.operationId.slice(1)}`;
    applyDecorators(...dashboardRoute(spec, spec.dashboard, dashboardOperationId))(target, alias, aliasDescriptor);
    return descriptor;
  };
}

function merchantRoute<B extends object>(spec: OperationSpec<B>, merchant: NonNullable<OperationSpec['merchant']>): MethodDecorator[] {
  return [
    ...route(spec, merchant.path, spec.idempotent?.mode),
    MerchantRoute(merchant.permission),
    ApiTags(merchant.tag),
    ApiMerchantOperation(docs(spec, spec.idempotent?.mode)),
  ];
}

function dashboardRoute<B extends object>(
  spec: OperationSpec<B>,
  dashboard: NonNullable<OperationSpec<B>['dashboard']>,
  operationId: string,
): MethodDecorator[] {
  const roles = dashboard.roles ?? DASHBOARD_ROLES;
  const restricted = roles.length < DASHBOARD_ROLES.length;
  const mode = dashboard.idempotency ?? spec.idempotent?.mode;
  return [
    ...route(spec, dashboard.path, mode),
    ...(dashboard.audit ? [WithRouteConfig({ [CHANGE_AUDIT]: dashboard.audit })] : []),
    ApiTags(dashboard.tag),
    DashboardOperation(
      { roles },
      {
        ...docs(spec, mode),
        operationId,
        summary: restricted ? `${spec.summary} (${roles.map((role) => `${role}s`).join(', ')})` : spec.summary,
        unsafe: spec.method !== 'GET',
      },
    ),
  ];
}

/** The route itself: its method and path, its answer's message and, when it honours one, its Idempotency-Key. */
function route<B extends object>(spec: OperationSpec<B>, path: string, mode: IdempotencyMode | undefined): MethodDecorator[] {
  return [
    RequestMapping({ path, method: RequestMethod[spec.method] }),
    ...(spec.answer === undefined ? [] : [Answer(spec.answer)]),
    // The status the operation documents is the status it answers (an idempotent one's is set with its key).
    ...(spec.idempotent && mode ? [Idempotent(mode, spec.idempotent.status, { creates: spec.idempotent.creates })] : [HttpCode(spec.success.status)]),
  ];
}

/** The OpenAPI entry's parts every caller shares, with the codes the key's mode adds. */
function docs<B extends object>(spec: OperationSpec<B>, mode: IdempotencyMode | undefined): ApiOperationSpec {
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    description: spec.description,
    success: spec.success,
    body: spec.body,
    errors: [...(spec.errors ?? []), ...(mode ? idempotencyErrors(mode) : [])],
  };
}
