// The position-sharing switch of My day: while a shift of today is under way and the worker agreed,
// the page watches the device's position and sends what location-sharing.ts keeps; the banner says
// plainly whether the office sees where the worker is, with the way to stop or start. Declining is
// remembered on this phone, and the app works the same without it.
import { useCallback, useEffect, useRef, useState } from 'react'
import { api, unwrap } from '../../api/client'
import { ApiError } from '../../api/errors'
import { BROWSER_TIME_ZONE, todayIn } from '../../lib/time'
import { Button } from '../../ui/button'
import { clock } from './format'
import {
  type Consent,
  type Fix,
  MIN_INTERVAL_MS,
  PositionBuffer,
  readConsent,
  shiftAt,
  worthKeeping,
  writeConsent,
} from './location-sharing'
import { useMyDay } from './queries'

type Problem = 'off-shift' | 'blocked' | null

/** Sends what the buffer holds, oldest first; stops at the first failure that may pass. */
async function sendBuffered(buffer: PositionBuffer): Promise<'sent' | 'off-shift' | 'later'> {
  for (let batch = buffer.next(); batch.length > 0; batch = buffer.next()) {
    try {
      await unwrap(api.POST('/my/positions', { body: { positions: batch } }))
      buffer.drop(batch.length)
    } catch (error) {
      if (error instanceof ApiError && error.code === 'OFF_SHIFT') {
        buffer.clear()
        return 'off-shift'
      }
      // Refused for good (too old, say): dropped, so later fixes are not held behind them.
      if (error instanceof ApiError && error.status === 400) buffer.drop(batch.length)
      else return 'later'
    }
  }
  return 'sent'
}

function usePositionSharing(userId: string) {
  const day = useMyDay(todayIn(BROWSER_TIME_ZONE))
  const [consent, setConsent] = useState<Consent>(() => readConsent(window.localStorage, userId))
  const [problem, setProblem] = useState<Problem>(null)
  const [now, setNow] = useState(() => Date.now())
  const buffer = useRef(new PositionBuffer(window.localStorage, userId))
  const lastKept = useRef<{ fix: Fix; at: number } | null>(null)
  const sending = useRef(false)
  // Set the moment the server says off shift: a fix the device reports before React re-renders (and
  // the watch is cleared) is not kept, so the phone stops at the first refusal.
  const offShift = useRef(false)

  // Whether a shift is under way is looked at again every 30 s.
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), MIN_INTERVAL_MS)
    return () => clearInterval(timer)
  }, [])
  const shift = shiftAt(day.data?.shifts ?? [], now)
  const supported = typeof navigator !== 'undefined' && 'geolocation' in navigator
  const active = consent === 'shared' && shift !== null && problem === null && supported

  const flush = useCallback(async () => {
    if (sending.current) return
    sending.current = true
    try {
      if ((await sendBuffered(buffer.current)) === 'off-shift') {
        offShift.current = true
        setProblem('off-shift')
      }
    } finally {
      sending.current = false
    }
  }, [])

  useEffect(() => {
    if (!active) return
    const watch = navigator.geolocation.watchPosition(
      (position) => {
        if (offShift.current) return
        const at = Date.now()
        const fix: Fix = {
          latitude: position.coords.latitude,
          longitude: position.coords.longitude,
          accuracy: Number.isFinite(position.coords.accuracy) ? position.coords.accuracy : null,
          recordedAt: new Date(position.timestamp || at).toISOString(),
        }
        if (!worthKeeping(lastKept.current, fix, at)) return
        lastKept.current = { fix, at }
        buffer.current.push(fix)
        if (navigator.onLine) void flush()
      },
      (error) => {
        if (error.code === error.PERMISSION_DENIED) setProblem('blocked')
      },
      { enableHighAccuracy: true, maximumAge: MIN_INTERVAL_MS / 2 },
    )
    const online = () => void flush()
    window.addEventListener('online', online)
    const retry = setInterval(() => void flush(), MIN_INTERVAL_MS)
    void flush()
    return () => {
      navigator.geolocation.clearWatch(watch)
      window.removeEventListener('online', online)
      clearInterval(retry)
    }
  }, [active, flush])

  const choose = (next: Exclude<Consent, null>) => {
    writeConsent(window.localStorage, userId, next)
    setConsent(next)
    if (next === 'declined') buffer.current.clear()
    offShift.current = false
    setProblem(null)
  }
  return { consent, problem, shift, supported, active, choose }
}

/** Says whether the office sees the worker's position, with the way to change it. */
export function LocationBanner({ userId }: { userId: string }) {
  const { consent, problem, shift, supported, active, choose } = usePositionSharing(userId)
  if (!shift || !supported) return null
  const ends = clock(shift.end, BROWSER_TIME_ZONE)
  if (problem === 'off-shift') {
    return (
      <div className="my-location" role="status">
        Location not shared: the office says you are off shift.
      </div>
    )
  }
  if (problem === 'blocked') {
    return (
      <div className="my-location" role="status">
        Location not shared: this browser blocks it. Allow location for this site to share it.
      </div>
    )
  }
  if (consent === null) {
    return (
      <section className="my-location my-location-ask" aria-label="Share your location">
        <p>
          Share your location with the office while you are on shift (it ends at {ends})? They use it to tell
          customers when you will arrive. Never outside your shift.
        </p>
        <div className="my-location-actions">
          <Button size="sm" variant="primary" onClick={() => choose('shared')}>
            Share location
          </Button>
          <Button size="sm" variant="ghost" onClick={() => choose('declined')}>
            Not now
          </Button>
        </div>
      </section>
    )
  }
  return (
    <div className={`my-location${active ? ' my-location-on' : ''}`} role="status">
      <span>
        {active
          ? `Your location is shared with the office until your shift ends (${ends}).`
          : 'Your location is not shared with the office.'}
      </span>
      <Button size="sm" variant="ghost" onClick={() => choose(active ? 'declined' : 'shared')}>
        {active ? 'Stop sharing' : 'Share location'}
      </Button>
    </div>
  )
}
