// Every relative link in README.md and docs/*.md resolves inside this repository, as in a fresh
// clone: the file exists (not outside the checkout, not in a sibling folder), and a `#fragment` names
// a heading of the linked Markdown file.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../', import.meta.url))

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

function withoutCode(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`(?!\])/g, '')
}

/** Inline links `[text](target)` outside code: targets only. */
function linkTargets(markdown: string): string[] {
  return [...withoutCode(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1] as string)
}

function anchorsOf(file: string): Set<string> {
  // Code spans in a heading keep their text in GitHub's anchor; only fenced blocks hide headings.
  const outsideFences = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '')
  const headings = outsideFences.match(/^#{1,6} .+$/gm) ?? []
  return new Set(headings.map((h) => headingSlug(h.replace(/^#+ /, '').replace(/`/g, ''))))
}

/** What is wrong with one link of `from`, or undefined when it resolves. */
function brokenLink(from: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined // https:, mailto: …
  const [path = '', fragment] = target.split('#')
  const file = path === '' ? from : resolve(dirname(from), decodeURIComponent(path))
  const inside = relative(ROOT, file)
  if (inside.startsWith('..') || inside.includes('node_modules')) return 'points outside the repository'
  if (!existsSync(file)) return 'no such file'
  if (fragment !== undefined && file.endsWith('.md') && !anchorsOf(file).has(fragment)) {
    return `no heading #${fragment}`
  }
  return undefined
}

const documents = [
  join(ROOT, 'README.md'),
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(ROOT, 'docs', name)),
]

describe('documentation links', () => {
  it('recognises links and anchors the way GitHub renders them', () => {
    expect(linkTargets('see [a](docs/x.md#y-z) and `[b](not/a/link)` and [c](https://e.org)')).toEqual([
      'docs/x.md#y-z',
      'https://e.org',
    ])
    expect(headingSlug('Health, failures and shutdown')).toBe('health-failures-and-shutdown')
    expect(headingSlug('5. Authentication')).toBe('5-authentication')
    expect(brokenLink(join(ROOT, 'README.md'), '../shared/DESIGN.md')).toBe('points outside the repository')
    expect(brokenLink(join(ROOT, 'README.md'), 'docs/missing.md')).toBe('no such file')
    expect(brokenLink(join(ROOT, 'README.md'), '#no-such-heading')).toBe('no heading #no-such-heading')
    // A code span inside a heading keeps its text in the anchor.
    expect(
      brokenLink(
        join(ROOT, 'docs', 'architecture.md'),
        'contract-decisions.md#idempotent-retries-idempotency-key',
      ),
    ).toBeUndefined()
  })

  it('README.md and every docs/*.md link only to files and headings in this repository', () => {
    const broken = documents.flatMap((document) =>
      linkTargets(readFileSync(document, 'utf8')).flatMap((target) => {
        const problem = brokenLink(document, target)
        return problem ? [`${relative(ROOT, document)}: ${target} (${problem})`] : []
      }),
    )
    expect(documents.length).toBeGreaterThan(2)
    expect(broken).toEqual([])
  })
})
