import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';

/**
 * Adds `part` to the handler's Fastify route config, keeping what other decorators put there
 * (how it is called, its idempotency): Nest's `RouteConfig` replaces the whole config, so two of
 * them on one handler would silently drop one.
 */
export function WithRouteConfig(part: Record<string, unknown>): MethodDecorator {
  return (_target, _key, descriptor: PropertyDescriptor) => {
    const handler = descriptor.value as object;
    const existing = (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) as Record<string, unknown> | undefined) ?? {};
    Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...existing, ...part }, handler);
    return descriptor;
  };
}
