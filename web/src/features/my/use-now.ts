// The current time for what depends on it on screen (a job turning late), read again every
// TICK_MS so the flags move with the day while the page stays open.
import { useEffect, useState } from 'react'

const TICK_MS = 30_000

export function useNow(): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS)
    return () => clearInterval(timer)
  }, [])
  return now
}
