// A statement written by hand once per dialect (where the query builder cannot say it as well),
// run as is by the fast path.
export interface HotQuery {
  /** Unique per query text: PostgreSQL keeps a prepared statement by this name on each connection. */
  name: string
  sqlite: string
  postgres: string
}
