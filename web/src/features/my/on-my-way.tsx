// "On my way" on the next job of the day: tells the office and — through the tracking link and, when
// the organisation turned them on, an email — the customer that the worker has set off. Sent at once
// and only online: an "on my way" that reaches the customer after the worker does helps nobody, so it
// is not queued offline like start and complete. Pressing it again changes nothing on the server.
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { api, unwrap } from '../../api/client'
import { Button } from '../../ui/button'
import { useToast } from '../../ui/toast'
import { clock } from './format'
import { showJob } from './queries'
import type { MyJob } from './types'
import { useOnline } from './use-online'

async function setOff(id: string): Promise<MyJob> {
  const params = { path: { id }, header: { 'Idempotency-Key': crypto.randomUUID() } }
  return (await unwrap(api.POST('/my/jobs/{id}/en-route', { params }))).job
}

export function OnMyWay({ job }: { job: MyJob }) {
  const online = useOnline()
  const queryClient = useQueryClient()
  const toast = useToast()
  const [sending, setSending] = useState(false)
  if (job.enRouteAt) {
    return (
      <p className="my-en-route" role="status">
        On your way since {clock(job.enRouteAt, job.timeZone)}
      </p>
    )
  }
  const send = async () => {
    setSending(true)
    try {
      showJob(queryClient, await setOff(job.id))
      toast.success('The customer can now follow you on the way')
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Could not send "On my way"')
    } finally {
      setSending(false)
    }
  }
  return (
    <div className="my-en-route">
      <Button
        variant="primary"
        className="my-big-button"
        disabled={!online || sending}
        aria-describedby={online ? undefined : `offline-${job.id}`}
        onClick={() => void send()}
      >
        {sending ? 'Sending…' : 'On my way'}
      </Button>
      {!online && (
        <p className="muted" id={`offline-${job.id}`}>
          Needs a connection: the customer is told at once or not at all.
        </p>
      )}
    </div>
  )
}
