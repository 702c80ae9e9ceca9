// Team members: the list (paged, searched and filtered on the server), create, change (role, colour),
// activate and deactivate.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../../api/client'
import type { QueryParams, RequestBody, Schema } from '../../api/types'
import { allPages, type CsvColumn } from '../../lib/csv'

export type User = Schema<'User'>
export type UserRole = User['role']
export type UserFilters = Omit<QueryParams<'/team/users'>, 'page' | 'limit'>
export const PAGE_SIZE = 25

export function useUsers(page: number, filters: UserFilters) {
  const query = { page, limit: PAGE_SIZE, ...filters }
  return useQuery({
    queryKey: ['team', 'users', query],
    queryFn: () => unwrap(api.GET('/team/users', { params: { query } })),
    placeholderData: keepPreviousData,
  })
}

/** Everyone the filters match, all pages: the list's CSV. */
export const allUsers = (filters: UserFilters) =>
  allPages(async (page) => {
    const query = { page, limit: 100, ...filters }
    const { users, pagination } = await unwrap(api.GET('/team/users', { params: { query } }))
    return { items: users, total: pagination.total }
  })

export const USER_CSV: CsvColumn<User>[] = [
  { header: 'id', value: (u) => u.id },
  { header: 'name', value: (u) => u.name },
  { header: 'email', value: (u) => u.email },
  { header: 'role', value: (u) => u.role },
  { header: 'isActive', value: (u) => u.isActive },
  { header: 'colour', value: (u) => u.colour },
  { header: 'createdAt', value: (u) => u.createdAt },
]

function useInvalidate() {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: ['team'] })
}

export function useCreateUser() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: (body: RequestBody<'/team/users', 'post'>) => unwrap(api.POST('/team/users', { body })),
    onSuccess: invalidate,
  })
}

export function useUpdateUser() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string } & RequestBody<'/team/users/{id}', 'patch'>) =>
      unwrap(api.PATCH('/team/users/{id}', { params: { path: { id } }, body })),
    onSuccess: invalidate,
  })
}

export function useSetUserActive() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: ({ id, active }: { id: string; active: boolean }) =>
      unwrap(
        active
          ? api.POST('/team/users/{id}/activate', { params: { path: { id } } })
          : api.POST('/team/users/{id}/deactivate', { params: { path: { id } } }),
      ),
    onSuccess: invalidate,
  })
}

export function useSetUserPassword() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: ({ id, password }: { id: string; password: string }) =>
      unwrap(api.PUT('/team/users/{id}/password', { params: { path: { id } }, body: { password } })),
    onSuccess: invalidate,
  })
}

/** The server's minimum (SetPasswordBody), checked here too so a form can say so before sending. */
export const MIN_PASSWORD_LENGTH = 12

export const ROLES: { value: UserRole; label: string; hint: string }[] = [
  { value: 'ADMIN', label: 'Admin', hint: 'Everything, including team, API keys, automations and settings' },
  { value: 'DISPATCHER', label: 'Dispatcher', hint: 'Jobs, board, plans, customers, fleet and shifts' },
  { value: 'WORKER', label: 'Worker', hint: 'Does the jobs; uses the technician app, not this dashboard' },
]

export function roleLabel(role: UserRole): string {
  return ROLES.find((r) => r.value === role)?.label ?? role
}

export type Absence = Schema<'Absence'>
export type AbsenceReason = Absence['reason']
export type AbsenceBody = RequestBody<'/team/users/{id}/absences', 'post'>

export const ABSENCE_REASONS: { value: AbsenceReason; label: string }[] = [
  { value: 'HOLIDAY', label: 'Holiday' },
  { value: 'SICK', label: 'Sick' },
  { value: 'TRAINING', label: 'Training' },
  { value: 'OTHER', label: 'Other' },
]

export const absenceReasonLabel = (reason: AbsenceReason) =>
  ABSENCE_REASONS.find((r) => r.value === reason)?.label ?? reason

/** A member's absences ending on or after `from` (today: the upcoming ones and the one under way). */
export function useAbsences(userId: string, from: string) {
  return useQuery({
    queryKey: ['absences', userId, from],
    queryFn: () =>
      unwrap(api.GET('/team/users/{id}/absences', { params: { path: { id: userId }, query: { from } } })),
  })
}

// Absences change the board, the plan and the shifts' days: refresh whatever read them.
function useInvalidateAbsences() {
  const queryClient = useQueryClient()
  return () =>
    Promise.all(
      ['absences', 'board', 'shifts'].map((key) => queryClient.invalidateQueries({ queryKey: [key] })),
    )
}

export function useCreateAbsence() {
  const invalidate = useInvalidateAbsences()
  return useMutation({
    mutationFn: ({ userId, ...body }: { userId: string } & AbsenceBody) =>
      unwrap(api.POST('/team/users/{id}/absences', { params: { path: { id: userId } }, body })),
    onSuccess: invalidate,
  })
}

export function useDeleteAbsence() {
  const invalidate = useInvalidateAbsences()
  return useMutation({
    mutationFn: ({ userId, absenceId }: { userId: string; absenceId: string }) =>
      unwrap(
        api.DELETE('/team/users/{id}/absences/{absenceId}', { params: { path: { id: userId, absenceId } } }),
      ),
    onSuccess: invalidate,
  })
}
