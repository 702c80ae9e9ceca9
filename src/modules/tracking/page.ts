// The customer's tracking page, /t/<token>: one small HTML page and one small script, served by the
// API process itself — not the dashboard's bundle (a customer on a phone loads ~4 KB, not the
// dashboard's React and Leaflet). The script reads the token from the address, asks
// GET /v1/track/<token> every 30 s and draws the technician as a dot on an SVG around the
// destination. Without a tile server set by the organisation that is all: no request to any other
// origin. With one, the SVG is drawn over its tiles (Web Mercator z/x/y worked out here, the
// attribution as text in a corner); the page sends no Referer, so the tile server never sees the
// token, though it learns the area of the address and the customer's IP (docs/operations.md). Everything it shows is set as text
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
  // Web Mercator at zoom z, in the SVG's units: a 256-pixel tile is drawn 128 units wide (about
  // 256 screen pixels on a phone, as the viewBox is 200 units across).
  var TILE = 128
  function world(lat, lng, z) {
    var size = TILE * Math.pow(2, z), sin = Math.sin(lat * Math.PI / 180)
    return { x: (lng + 180) / 360 * size, y: (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * size }
  }
  // The template as the dashboard's Leaflet fills it: {s} one of a, b, c; {r} empty (no retina tiles).
  function tileAddress(template, z, x, y) {
    return template.replace(/{s}/g, 'abc'.charAt(Math.abs(x + y) % 3)).replace(/{z}/g, z)
      .replace(/{x}/g, x).replace(/{-y}/g, Math.pow(2, z) - 1 - y).replace(/{y}/g, y).replace(/{r}/g, '')
  }
  // The tiles under the destination (the centre), at the closest zoom from 17 down to 11 where the
  // technician stays within 80 units; returns where the technician is drawn.
  function drawTiles(map, tiles, east, north) {
    var home = tiles.destination
    var lat = home.lat + north / 111320
    var lng = home.lng + east / (111320 * Math.cos(home.lat * Math.PI / 180))
    var z = 17, centre, there
    for (; ; z--) {
      centre = world(home.lat, home.lng, z)
      there = world(lat, lng, z)
      if (z === 11 || Math.max(Math.abs(there.x - centre.x), Math.abs(there.y - centre.y)) <= 80) break
    }
    var count = Math.pow(2, z)
    var layer = node('g', { id: 'tiles' })
    for (var ty = Math.floor((centre.y - 100) / TILE); ty <= Math.floor((centre.y + 100) / TILE); ty++) {
      if (ty < 0 || ty >= count) continue
      for (var tx = Math.floor((centre.x - 100) / TILE); tx <= Math.floor((centre.x + 100) / TILE); tx++) {
        var image = node('image', {
          x: tx * TILE - centre.x, y: ty * TILE - centre.y, width: TILE + 0.5, height: TILE + 0.5,
          preserveAspectRatio: 'none', 'class': 'tile'
        })
        image.setAttribute('href', tileAddress(tiles.tileUrl, z, ((tx % count) + count) % count, ty))
        layer.appendChild(image)
      }
    }
    map.appendChild(layer)
    if (tiles.attribution) {
      var credit = node('text', { id: 'attribution', x: 98, y: 97, 'text-anchor': 'end', 'font-size': 6, fill: '#1f2933', stroke: '#fff', 'stroke-width': 2, 'paint-order': 'stroke' })
      credit.textContent = tiles.attribution
      map.attributionNode = credit
    }
    return { x: there.x - centre.x, y: there.y - centre.y }
  }
  function drawMap(position, tiles) {
    var map = $('map')
    while (map.firstChild) map.removeChild(map.firstChild)
    var east = position.metresEast, north = position.metresNorth
    var metres = Math.sqrt(east * east + north * north)
    var at
    map.attributionNode = null
    if (tiles && tiles.destination) {
      at = drawTiles(map, tiles, east, north)
    } else {
      // The farther of the two (at least 500 m) fills 80 % of the half-width.
      var scale = 80 / Math.max(500, Math.abs(east), Math.abs(north))
      at = { x: east * scale, y: -north * scale }
      map.appendChild(node('circle', { cx: 0, cy: 0, r: 60, fill: 'none', stroke: '#cbd2d9', 'stroke-dasharray': '3 3' }))
    }
    map.appendChild(node('line', { x1: 0, y1: 0, x2: at.x, y2: at.y, stroke: '#9fb3c8', 'stroke-width': 1.5 }))
    var home = node('rect', { x: -6, y: -6, width: 12, height: 12, rx: 2, fill: '#243b53' })
    home.appendChild(node('title', {})).textContent = 'Your address'
    map.appendChild(home)
    var dot = node('circle', { id: 'technician-dot', cx: at.x, cy: at.y, r: 7, fill: '#2186eb', stroke: '#fff', 'stroke-width': 2 })
    dot.appendChild(node('title', {})).textContent = 'Technician'
    map.appendChild(dot)
    if (map.attributionNode) map.appendChild(map.attributionNode)
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
    if (tracking.position) drawMap(tracking.position, tracking.map)
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

// no-referrer in the header as well as the meta: tile requests never carry the token's address.
export const trackingPage = freeze(PAGE, 'text/html; charset=utf-8', REVALIDATE, {
  'x-robots-tag': 'noindex',
  'referrer-policy': 'no-referrer',
})
export const trackingScript = freeze(SCRIPT, 'text/javascript; charset=utf-8', REVALIDATE)
