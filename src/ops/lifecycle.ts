// Where the process is in its life, for /readyz and for the connection header of every response.
//
// serving → draining (SIGTERM/SIGINT: /readyz answers 503 so the load balancer takes this instance
// out of rotation, but every request is still served) → closing (the port is closed, in-flight
// requests and webhook deliveries finish, pools close).

export type LifecycleState = 'serving' | 'draining' | 'closing'

export class Lifecycle {
  private current: LifecycleState = 'serving'

  get state(): LifecycleState {
    return this.current
  }

  /** True from the shutdown signal on: not ready, and keep-alive connections are not kept. */
  get stopping(): boolean {
    return this.current !== 'serving'
  }

  drain(): void {
    if (this.current === 'serving') this.current = 'draining'
  }

  close(): void {
    this.current = 'closing'
  }
}
