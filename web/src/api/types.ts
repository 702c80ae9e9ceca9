// Shorthands for the generated types: a route's JSON body and query, and a component schema, so
// hooks and forms never restate a request shape by hand.
import type { components, paths } from './schema'

export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name]

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete'

export type RequestBody<Path extends keyof paths, M extends Method> = paths[Path][M] extends {
  requestBody?: { content: { 'application/json': infer Body } }
}
  ? Body
  : never

export type QueryParams<Path extends keyof paths, M extends Method = 'get'> = paths[Path][M] extends {
  parameters: { query?: infer Query }
}
  ? NonNullable<Query>
  : never
