// The rule "strings users typed never reach HTML" as a check a later change cannot slip past: every
// source file of the dashboard is read and any HTML sink is named — the DOM's (innerHTML and its
// kin, React's dangerouslySetInnerHTML), and Leaflet's, which parse a string they are given, unless
// it comes from leaflet-text.ts. The browser test test/browser/planted-markup.test.ts shows it in
// the pages; this one fails at the line that would bring a sink back.
import { describe, expect, it } from 'vitest'
import { attributionHtml } from './leaflet-text'

/** Every sink, anywhere: there is no reason to build HTML from strings in this app. */
const FORBIDDEN = [
  /\b(innerHTML|outerHTML|insertAdjacentHTML|dangerouslySetInnerHTML|createContextualFragment|srcdoc)\b/,
  /\bdocument\.write(ln)?\b/,
  /\bDOMParser\b/,
  // Standalone tooltips and popups take their content in options: bind them to a layer instead.
  /\bL\.(tooltip|popup)\(/,
]
/** Leaflet parses a string as HTML here: the content must be leafletText(…). */
const TEXT_ONLY = [
  /\.(bindTooltip|bindPopup|setContent|setTooltipContent|setPopupContent)\((?!\s*leafletText\()/,
  /\bhtml:(?!\s*leafletText\()/,
  // Attributions are only ever HTML: the text must be attributionHtml(…).
  /\.(addAttribution|setPrefix)\((?!\s*attributionHtml\()/,
]
/** Calls whose options hold an attribution (a layer's, the control's prefix). */
const ATTRIBUTION_CALLS = /\b(tileLayer|imageOverlay|videoOverlay|wms|attribution)\(/g
const UNESCAPED_ATTRIBUTION = /\b(attribution|prefix):(?!\s*attributionHtml\()/

/** The arguments of the call whose opening parenthesis ends at `open`, by counting brackets. */
function callArguments(source: string, open: number): string {
  let depth = 1
  for (let at = open; at < source.length; at++) {
    const c = source[at]
    if (c === '(') depth++
    else if (c === ')' && --depth === 0) return source.slice(open, at)
  }
  return source.slice(open)
}

/** Each HTML sink in a source file, as `line: text`. */
function htmlSinks(source: string): string[] {
  const found: string[] = []
  const lineOf = (index: number) => source.slice(0, index).split('\n').length
  const report = (index: number) => {
    const line = lineOf(index)
    found.push(`${line}: ${source.split('\n')[line - 1]?.trim()}`)
  }
  for (const pattern of [...FORBIDDEN, ...TEXT_ONLY]) {
    const all = new RegExp(pattern.source, 'g')
    for (const match of source.matchAll(all)) report(match.index)
  }
  for (const call of source.matchAll(ATTRIBUTION_CALLS)) {
    const start = call.index + call[0].length
    if (UNESCAPED_ATTRIBUTION.test(callArguments(source, start))) report(call.index)
  }
  return [...new Set(found)].sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10))
}

const SOURCES = import.meta.glob<string>(
  ['../../**/*.{ts,tsx}', '!../../**/*.test.ts', '!./leaflet-text.ts'],
  {
    query: '?raw',
    import: 'default',
    eager: true,
  },
)

describe('strings reach HTML only through leaflet-text.ts', () => {
  it('reads the dashboard’s sources (the check is not looking at nothing)', () => {
    const files = Object.keys(SOURCES)
    expect(files.length).toBeGreaterThan(50)
    expect(files).toContain('../customers/pin-picker.tsx')
    expect(files).toContain('./map-panel.tsx')
    expect(files).not.toContain('./leaflet-text.ts')
  })

  it('finds no HTML sink in web/src', () => {
    const sinks = Object.entries(SOURCES).flatMap(([file, source]) =>
      htmlSinks(source).map((sink) => `${file}:${sink}`),
    )
    expect(sinks).toEqual([])
  })

  it('names the sinks it is there to catch', () => {
    const sample = [
      'marker.bindTooltip(landmark.name, { permanent: true })',
      'marker.bindTooltip(leafletText(landmark.name))',
      "L.divIcon({ className: 'x', html: depot.code })",
      "L.divIcon({ className: 'x', html: leafletText('■') })",
      'L.tileLayer(url, { attribution: tiles.attribution })',
      'L.tileLayer(url, { attribution: attributionHtml(tiles.attribution), maxZoom: 19 })',
      'map.attributionControl.addAttribution(name)',
      'element.innerHTML = name',
      '<div dangerouslySetInnerHTML={{ __html: name }} />',
      "popup.setContent('<b>' + name + '</b>')",
    ].join('\n')
    expect(htmlSinks(sample).map((sink) => Number.parseInt(sink, 10))).toEqual([1, 3, 5, 7, 8, 9, 10])
  })

  it('escapes an attribution for the one Leaflet control that takes only HTML', () => {
    expect(attributionHtml('© <b>Tiles</b> & "Co" \'s')).toBe(
      '© &#60;b&#62;Tiles&#60;/b&#62; &#38; &#34;Co&#34; &#39;s',
    )
  })
})
