// The customer's tracking page, /t/<token>: one small HTML page and one small script, served by the
// API process itself — not the dashboard's bundle (a customer on a phone loads ~4 KB, not the
// dashboard's React and Leaflet). The script reads the token from the address, asks
// GET /v1/track/<token> every 30 s and draws the technician as a dot on an SVG around the
// destination: no tile server and no request to any other origin. Everything it shows is set as text
// (textContent), never as HTML: the job title and the names were typed by users. The arrival window
// comes worded by the server in the depot's time zone (arrival-window.ts, as in the emails), not in the
// phone's: a customer abroad, or with a phone set to another zone, reads the time their email said.
import { freeze, REVALIDATE } from '../../http/frozen-response.js'

export const TRACKING_SCRIPT_PATH = '/t/assets/track.js'
export const REFRESH_MS = 30_000

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.45 system-ui,-apple-system,sans-serif;color:#1f2933;background:#f4f6f8}
main{max-width:28rem;margin:0 auto;padding:1rem}
header p{margin:0;color:#52606d;font-size:.9rem}
h1{font-size:1.35rem;margin:.2rem 0 1rem}
.card{background:#fff;border-radius:12px;padding:1rem;margin-bottom:1rem;box-shadow:0 1px 3px rgba(0,0,0,.08)}
.label{color:#52606d;font-size:.85rem;margin:0}
.window{font-size:1.6rem;font-weight:600;margin:.1rem 0 0}
.status{display:inline-block;padding:.15rem .6rem;border-radius:999px;background:#e3f8ff;color:#035388;font-weight:600;font-size:.9rem}
svg{width:100%;height:auto;display:block;background:#eef2f5;border-radius:8px}
.muted{color:#52606d;font-size:.85rem;margin:.5rem 0 0}
[hidden]{display:none}
`

const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>Your visit</title>
<style>${STYLE}</style>
<script src="${TRACKING_SCRIPT_PATH}" defer></script>
</head>
<body>
<main>
<header><p id="organisation"></p><h1 id="title">Your visit</h1></header>
<section class="card" aria-labelledby="status-label">
<p class="label" id="status-label">Status</p>
<p><span class="status" id="status">Loading…</span></p>
<p class="label" id="technician" hidden></p>
</section>
<section class="card" id="window-card" hidden aria-labelledby="window-label">
<p class="label" id="window-label">Expected arrival</p>
<p class="window" id="window"></p>
</section>
<section class="card" id="map-card" hidden aria-labelledby="map-label">
<p class="label" id="map-label">Where your technician is</p>
<svg id="map" viewBox="-100 -100 200 200" role="img" aria-label="Technician position relative to your address"></svg>
<p class="muted" id="distance"></p>
</section>
<p class="muted" id="updated"></p>
<noscript><p>This page needs JavaScript to show your visit.</p></noscript>
</main>
</body>
</html>
`

// Plain ES2017 for any phone browser; kept small and free of dependencies.
const SCRIPT = `'use strict'
;(function () {
  var token = location.pathname.split('/').pop()
  var SVG = 'http://www.w3.org/2000/svg'
  var STATUS = {
    SCHEDULED: 'Scheduled',
    EN_ROUTE: 'On the way',
    IN_PROGRESS: 'Arrived',
    COMPLETED: 'Completed',
    CANCELLED: 'Cancelled'
  }
  function $(id) { return document.getElementById(id) }
  function text(id, value) { $(id).textContent = value }
  var zone
  // In the depot's zone, like the window; a browser that does not know it says its own.
  function time(iso) {
    try {
      return new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: zone })
    } catch (error) {
      return new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
    }
  }
  function node(name, attributes) {
    var element = document.createElementNS(SVG, name)
    for (var key in attributes) element.setAttribute(key, String(attributes[key]))
    return element
  }
  function drawMap(position) {
    var map = $('map')
    while (map.firstChild) map.removeChild(map.firstChild)
    var east = position.metresEast, north = position.metresNorth
    var metres = Math.sqrt(east * east + north * north)
    // The farther of the two (at least 500 m) fills 80 % of the half-width.
    var scale = 80 / Math.max(500, Math.abs(east), Math.abs(north))
    map.appendChild(node('circle', { cx: 0, cy: 0, r: 60, fill: 'none', stroke: '#cbd2d9', 'stroke-dasharray': '3 3' }))
    map.appendChild(node('line', { x1: 0, y1: 0, x2: east * scale, y2: -north * scale, stroke: '#9fb3c8', 'stroke-width': 1.5 }))
    var home = node('rect', { x: -6, y: -6, width: 12, height: 12, rx: 2, fill: '#243b53' })
    home.appendChild(node('title', {})).textContent = 'Your address'
    map.appendChild(home)
    var dot = node('circle', { id: 'technician-dot', cx: east * scale, cy: -north * scale, r: 7, fill: '#2186eb', stroke: '#fff', 'stroke-width': 2 })
    dot.appendChild(node('title', {})).textContent = 'Technician'
    map.appendChild(dot)
    text('distance', (metres < 1000 ? Math.round(metres / 10) * 10 + ' m' : (metres / 1000).toFixed(1) + ' km') +
      ' away (as the crow flies), seen at ' + time(position.recordedAt))
  }
  function show(tracking) {
    zone = tracking.timeZone
    text('organisation', tracking.organisationName)
    text('title', tracking.jobTitle)
    text('status', STATUS[tracking.status] || tracking.status)
    var technician = $('technician')
    technician.hidden = !tracking.technicianFirstName
    technician.textContent = tracking.technicianFirstName ? 'Your technician: ' + tracking.technicianFirstName : ''
    $('window-card').hidden = !tracking.arrivalWindow
    // The server words the window in the depot's zone, as the customer's email does.
    if (tracking.arrivalWindow) text('window', tracking.arrivalWindow.text)
    $('map-card').hidden = !tracking.position
    if (tracking.position) drawMap(tracking.position)
    text('updated', 'Updated ' + time(new Date().toISOString()))
  }
  function fail(message) {
    text('status', message)
    $('window-card').hidden = true
    $('map-card').hidden = true
  }
  function refresh() {
    fetch('/v1/track/' + encodeURIComponent(token), { headers: { accept: 'application/json' } })
      .then(function (response) {
        if (response.status === 404) return fail('This link is not valid')
        if (response.status === 410) return fail('This visit is over')
        if (!response.ok) return fail('Could not load your visit; retrying')
        return response.json().then(function (body) { show(body.data.tracking) })
      })
      .catch(function () { fail('Offline; retrying') })
  }
  document.addEventListener('DOMContentLoaded', function () {
    refresh()
    setInterval(refresh, ${REFRESH_MS})
  })
})()
`

export const trackingPage = freeze(PAGE, 'text/html; charset=utf-8', REVALIDATE, {
  'x-robots-tag': 'noindex',
})
export const trackingScript = freeze(SCRIPT, 'text/javascript; charset=utf-8', REVALIDATE)
