// Per-route hooks added from an `onRoute` hook: they run after the route's own hooks of that kind and
// only on that route, so a feature costs nothing on the routes that do not use it (an app-wide hook
// would run on every request and check there whether it applies).
import type { RouteOptions } from 'fastify'

type HookName = 'onRequest' | 'preValidation' | 'preHandler' | 'onSend'

export function appendRouteHook(route: RouteOptions, name: HookName, hook: unknown): void {
  const hooks = route as unknown as Record<HookName, unknown>
  hooks[name] = ([] as unknown[]).concat(hooks[name] ?? [], hook)
}
