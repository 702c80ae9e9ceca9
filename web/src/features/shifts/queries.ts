// Shift templates: a worker in a vehicle at a depot on a weekday, from a start to an end time, with
// breaks. The week grid reads a depot's shifts a page of 100 at a time; writes refresh every shift
// list (and the board, which reads shifts too).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../../api/client'
import type { RequestBody, Schema } from '../../api/types'
import { allPages, type CsvColumn } from '../../lib/csv'

export type Shift = Schema<'Shift'>
export type Weekday = Shift['day']
export type ShiftBody = RequestBody<'/shifts', 'post'>
export const GRID_PAGE_SIZE = 100

export const WEEKDAYS: { value: Weekday; label: string; short: string }[] = [
  { value: 'MONDAY', label: 'Monday', short: 'Mon' },
  { value: 'TUESDAY', label: 'Tuesday', short: 'Tue' },
  { value: 'WEDNESDAY', label: 'Wednesday', short: 'Wed' },
  { value: 'THURSDAY', label: 'Thursday', short: 'Thu' },
  { value: 'FRIDAY', label: 'Friday', short: 'Fri' },
  { value: 'SATURDAY', label: 'Saturday', short: 'Sat' },
  { value: 'SUNDAY', label: 'Sunday', short: 'Sun' },
]

export const dayLabel = (day: Weekday) => WEEKDAYS.find((d) => d.value === day)?.label ?? day

/** Every shift of the depot, all pages: the list's CSV. */
export const allDepotShifts = (locationId: string) =>
  allPages(async (page) => {
    const { shifts, pagination } = await unwrap(
      api.GET('/shifts', { params: { query: { page, limit: 100, locationId } } }),
    )
    return { items: shifts, total: pagination.total }
  })

export const SHIFT_CSV: CsvColumn<Shift>[] = [
  { header: 'id', value: (s) => s.id },
  { header: 'worker', value: (s) => s.user.name },
  { header: 'day', value: (s) => s.day },
  { header: 'startTime', value: (s) => s.startTime },
  { header: 'endTime', value: (s) => s.endTime },
  { header: 'vehicle', value: (s) => s.vehicle.name },
  { header: 'depot', value: (s) => s.location.name },
  { header: 'breaks', value: (s) => s.breaks.map((b) => `${b.startTime}–${b.endTime}`).join('; ') },
]

export function useDepotShifts(locationId: string | undefined, page: number) {
  const query = { page, limit: GRID_PAGE_SIZE, locationId: locationId ?? '' }
  return useQuery({
    queryKey: ['shifts', query],
    queryFn: () => unwrap(api.GET('/shifts', { params: { query } })),
    enabled: Boolean(locationId),
    placeholderData: keepPreviousData,
  })
}

export function useShift(id: string | undefined) {
  return useQuery({
    queryKey: ['shifts', 'one', id],
    queryFn: () => unwrap(api.GET('/shifts/{id}', { params: { path: { id: id ?? '' } } })),
    enabled: Boolean(id),
  })
}

/** Active workers (the people shifts are for): the first 100. */
export function useWorkers() {
  const query = { page: 1, limit: 100, role: 'WORKER' as const, isActive: true }
  return useQuery({
    queryKey: ['team', 'users', query],
    queryFn: () => unwrap(api.GET('/team/users', { params: { query } })),
    staleTime: 60_000,
  })
}

function useInvalidate() {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: ['shifts'] })
}

/** Creates one shift per weekday given; stops at the first refusal, reporting the days already made. */
export class PartlyCreated extends Error {
  constructor(
    readonly created: Weekday[],
    readonly cause: unknown,
  ) {
    super('Some shifts were created')
  }
}

export function useCreateShifts() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: async ({ days, ...body }: Omit<ShiftBody, 'day'> & { days: Weekday[] }) => {
      const created: Shift[] = []
      for (const day of days) {
        try {
          created.push((await unwrap(api.POST('/shifts', { body: { ...body, day } }))).shift)
        } catch (error) {
          if (created.length === 0) throw error
          throw new PartlyCreated(
            created.map((s) => s.day),
            error,
          )
        }
      }
      return created
    },
    onSettled: invalidate,
  })
}

export function useUpdateShift() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string } & RequestBody<'/shifts/{id}', 'patch'>) =>
      unwrap(api.PATCH('/shifts/{id}', { params: { path: { id } }, body })),
    onSuccess: invalidate,
  })
}

export function useDeleteShift() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/shifts/{id}', { params: { path: { id } } })),
    onSuccess: invalidate,
  })
}

export type ShiftDateChange = Schema<'ShiftDateChange'>

/** The shift's one-off changes on or after `from`. */
export function useShiftDateChanges(shiftId: string, from: string) {
  return useQuery({
    queryKey: ['shifts', 'dates', shiftId, from],
    queryFn: () =>
      unwrap(api.GET('/shifts/{id}/dates', { params: { path: { id: shiftId }, query: { from } } })),
  })
}

// A changed date moves the board's row and the plan's route: refresh them with the shifts.
function useInvalidateDates() {
  const queryClient = useQueryClient()
  return () =>
    Promise.all(['shifts', 'board'].map((key) => queryClient.invalidateQueries({ queryKey: [key] })))
}

export function useChangeShiftDate() {
  const invalidate = useInvalidateDates()
  return useMutation({
    mutationFn: ({
      id,
      date,
      ...body
    }: { id: string; date: string } & RequestBody<'/shifts/{id}/dates/{date}', 'put'>) =>
      unwrap(api.PUT('/shifts/{id}/dates/{date}', { params: { path: { id, date } }, body })),
    onSuccess: invalidate,
  })
}

export function useRestoreShiftDate() {
  const invalidate = useInvalidateDates()
  return useMutation({
    mutationFn: ({ id, date }: { id: string; date: string }) =>
      unwrap(api.DELETE('/shifts/{id}/dates/{date}', { params: { path: { id, date } } })),
    onSuccess: invalidate,
  })
}
