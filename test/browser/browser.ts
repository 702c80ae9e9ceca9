// Debian's Chromium driven by playwright-core (never Playwright's own browser download): found on
// PATH, launched headless with everything that would reach the network switched off.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core'
import { expect } from 'vitest'

const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export function chromiumPath(): string {
  for (const name of ['chromium', 'chromium-browser']) {
    try {
      return execFileSync('which', [name], { encoding: 'utf8' }).trim()
    } catch {
      // try the next name
    }
  }
  throw new Error('No chromium on PATH: install it with `apt-get install -y chromium` (.ci/run does)')
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: LAUNCH_ARGS })
}

export interface WatchedPage {
  page: Page
  /** Console errors, failed requests, CSP refusals and requests to any other origin, as they happen. */
  problems: string[]
}

/**
 * A page in a fresh context (its own cookies) that records what must never happen: a request to
 * another origin (no CDN, no fonts, no telemetry), a console error, a page error. `options` change the
 * context (a phone: PHONE).
 */
export async function openPage(
  browser: Browser,
  baseUrl: string,
  options: BrowserContextOptions = {},
): Promise<WatchedPage> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 1360, height: 900 },
    ...options,
  })
  const page = await context.newPage()
  page.setDefaultTimeout(10_000)
  const problems: string[] = []
  const origin = new URL(baseUrl).origin
  page.on('request', (request) => {
    const url = request.url()
    if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) {
      problems.push(`request to another origin: ${url}`)
    }
  })
  page.on('console', (message) => {
    // A 4xx the page asked for and handled (a wrong password, a 404 it explains) is logged by the
    // browser as a failed resource; those are expected. Anything else at error level is a problem.
    if (
      message.type() === 'error' &&
      !/Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())
    ) {
      problems.push(`console: ${message.text()}`)
    }
  })
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  return { page, problems }
}

/** A phone in the hand (the technician app's tests): 390×844, touch, UTC. */
export const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
  timezoneId: 'UTC',
}

const require = createRequire(import.meta.url)
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')

interface AxeViolation {
  id: string
  impact: string | null
  help: string
  nodes: { target: string[] }[]
}

/**
 * Runs axe-core in the page (evaluated through the DevTools protocol, so the page's CSP stays as
 * strict as in production) and fails on any serious or critical violation, naming it.
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  await page.evaluate(AXE_SOURCE)
  const violations = (await page.evaluate(async () => {
    // axe is the global the evaluated source just defined; the page's document is its context.
    const scope = globalThis as unknown as {
      axe: { run(context: unknown, options: object): Promise<{ violations: unknown[] }> }
      document: unknown
    }
    const result = await scope.axe.run(scope.document, { resultTypes: ['violations'] })
    return result.violations
  })) as AxeViolation[]
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)
  expect(serious, `accessibility of ${what}`).toEqual([])
}
