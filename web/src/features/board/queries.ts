// The board's data: one call for the day (rows, their jobs, the waiting jobs), refreshed when the
// window regains focus, every 30 seconds, and after every change; assigning and unassigning go
// through the job lifecycle routes; the server's check of a job on a row at a time (a drag's target,
// the Assign dialog) is cached per job, shift and start until the next change.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { api, unwrap } from '../../api/client'
import type { RequestBody } from '../../api/types'

export const BOARD_REFRESH_MS = 30_000

export function useBoard(date: string, locationId: string | undefined) {
  const query = { date, ...(locationId ? { locationId } : {}) }
  return useQuery({
    queryKey: ['board', query],
    queryFn: async () => (await unwrap(api.GET('/board', { params: { query } }))).board,
    placeholderData: keepPreviousData,
    refetchInterval: BOARD_REFRESH_MS,
    refetchOnWindowFocus: 'always',
  })
}

export type Assignment = RequestBody<'/jobs/{id}/assign', 'post'>

/** After any change to jobs: the board, its live forecast and job lists all show them. */
function useJobsChanged() {
  const queryClient = useQueryClient()
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['board'] }),
      queryClient.invalidateQueries({ queryKey: ['live'] }),
      queryClient.invalidateQueries({ queryKey: ['jobs'] }),
      queryClient.invalidateQueries({ queryKey: ['assignment-check'] }),
    ])
}

export function useAssignJob() {
  const changed = useJobsChanged()
  return useMutation({
    mutationFn: ({ id, assignment }: { id: string; assignment: Assignment }) =>
      unwrap(api.POST('/jobs/{id}/assign', { params: { path: { id } }, body: assignment })),
    onSettled: changed,
  })
}

export function useUnassignJob() {
  const changed = useJobsChanged()
  return useMutation({
    mutationFn: (id: string) => unwrap(api.POST('/jobs/{id}/unassign', { params: { path: { id } } })),
    onSettled: changed,
  })
}

/** One problem of a slot, as POST /jobs/{id}/assignment-check (checkJobAssignment) lists them. */
export type AssignmentProblem = Awaited<ReturnType<typeof checkSlot>>[number]

/** A job on a row at a time: what the check and the assign send. */
export interface Slot {
  jobId: string
  userId: string
  shiftId: string
  start: number
  end: number
}

export const slotAssignment = (slot: Slot): Assignment => ({
  userId: slot.userId,
  shiftId: slot.shiftId,
  scheduledStart: new Date(slot.start).toISOString(),
  scheduledEnd: new Date(slot.end).toISOString(),
})

async function checkSlot(slot: Slot) {
  const answer = await unwrap(
    api.POST('/jobs/{id}/assignment-check', {
      params: { path: { id: slot.jobId } },
      body: slotAssignment(slot),
    }),
  )
  return answer.check.problems
}

const checkOptions = (slot: Slot) => ({
  queryKey: ['assignment-check', slot.jobId, slot.shiftId, slot.start],
  queryFn: () => checkSlot(slot),
  staleTime: BOARD_REFRESH_MS,
  retry: false,
})

const NO_SLOT: Slot = { jobId: '', userId: '', shiftId: '', start: 0, end: 0 }
const slotKey = (slot: Slot | null) => (slot ? `${slot.jobId}|${slot.shiftId}|${slot.start}` : '')

/** `value` once it has stayed the same for `ms` milliseconds. */
function useSettled(value: string, ms: number): string {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return settled
}

/**
 * The problems of a slot (nothing asked while `slot` is null): a slot already checked answers at
 * once from the cache; a new one is asked once it has stayed put for `debounceMs` (a drag passes
 * over many quarter hours on its way).
 */
export function useAssignmentCheck(slot: Slot | null, debounceMs = 120) {
  const key = slotKey(slot)
  const settled = useSettled(key, debounceMs)
  return useQuery({ ...checkOptions(slot ?? NO_SLOT), enabled: key !== '' && key === settled })
}

/** The problems of a slot now: from the cache when a drag already asked, else from the server. */
export function useFetchAssignmentCheck() {
  const queryClient = useQueryClient()
  return (slot: Slot) => queryClient.fetchQuery(checkOptions(slot))
}
