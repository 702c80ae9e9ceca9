// Form templates: their rules (fields well-formed, a TAGGED_JOBS template names a tag of the
// organisation), which templates a job needs, and answers checked against a template.

import type { Kysely, Transaction } from 'kysely'
import { sqlBool } from '../../db/database.js'
import { newId, nowIso } from '../../db/ids.js'
import { referenceExists } from '../../db/references.js'
import type { Database, Executor, FormTemplateRow } from '../../db/types.js'
import { AppError, describeDetail, type ErrorDetail, notFound, validationError } from '../../http/errors.js'
import { offsetOf, paginationOf } from '../../http/pagination.js'
import type { Pagination } from '../../http/schemas.js'
import type { Requires, RequiresInput } from '../completion/schemas.js'
import * as repository from './repository.js'
import {
  type CreateFormTemplateBody,
  type FieldInput,
  type FormField,
  type FormTemplate,
  type FormTemplateListQuery,
  LONG_TEXT_MAX,
  TEXT_MAX,
  type UpdateFormTemplateBody,
} from './schemas.js'
import { serializeFormTemplate } from './serialize.js'

// Keys that name an object's prototype machinery: answers are plain JSON objects, and whatever reads
// them by key (here, the dashboard, a client's code) should never meet one. (`__proto__` already fails
// the key's pattern; the JSON parser refuses it as a key of the answers.)
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

/** The fields as stored, or 400 naming the first wrong one. */
function normaliseFields(fields: FieldInput[]): FormField[] {
  const seen = new Set<string>()
  return fields.map((field, i) => {
    const at = (name: string) => `/body/fields/${i}/${name}`
    if (RESERVED_KEYS.has(field.key))
      throw validationError(at('key'), `cannot be "${field.key}": choose another key`)
    if (seen.has(field.key))
      throw validationError(at('key'), `repeats the key "${field.key}" of an earlier field`)
    seen.add(field.key)
    const min = field.min ?? null
    const max = field.max ?? null
    if (field.type !== 'NUMBER' && (min !== null || max !== null)) {
      throw validationError(at(min !== null ? 'min' : 'max'), 'is only for NUMBER fields')
    }
    if (min !== null && max !== null && min > max)
      throw validationError(at('max'), `must be at least min (${min})`)
    const options = field.options ?? []
    if (field.type === 'CHOICE' && options.length === 0) {
      throw validationError(at('options'), 'must list at least one answer for a CHOICE field')
    }
    if (field.type !== 'CHOICE' && options.length > 0)
      throw validationError(at('options'), 'is only for CHOICE fields')
    return {
      key: field.key,
      label: field.label,
      type: field.type,
      required: field.required ?? false,
      min,
      max,
      options,
    }
  })
}

async function assertAppliesTo(
  trx: Transaction<Database>,
  organisationId: string,
  appliesTo: 'ALL_JOBS' | 'TAGGED_JOBS',
  tagId: string | null,
): Promise<void> {
  if (appliesTo === 'ALL_JOBS') {
    if (tagId !== null)
      throw validationError('/body/tagId', 'must be null or omitted when appliesTo is ALL_JOBS')
    return
  }
  if (tagId === null) throw validationError('/body/tagId', 'is required when appliesTo is TAGGED_JOBS')
  if (!(await referenceExists(trx, 'tags', organisationId, tagId))) {
    throw validationError('/body/tagId', `tag ${tagId} does not exist in your organisation`)
  }
}

export async function listFormTemplates(
  db: Executor,
  organisationId: string,
  query: FormTemplateListQuery,
): Promise<{ formTemplates: FormTemplate[]; pagination: Pagination }> {
  const { rows, total } = await repository.listFormTemplateRows(
    db,
    organisationId,
    { isActive: query.isActive },
    { limit: query.limit, offset: offsetOf(query) },
  )
  return { formTemplates: rows.map(serializeFormTemplate), pagination: paginationOf(query, total) }
}

/** The template, or undefined when the organisation has none with this id. */
export async function findFormTemplate(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<FormTemplate | undefined> {
  const row = await repository.findFormTemplateRow(db, organisationId, id)
  return row ? serializeFormTemplate(row) : undefined
}

export async function getFormTemplate(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<FormTemplate> {
  const row = await repository.findFormTemplateRow(db, organisationId, id)
  if (!row) throw notFound('Form template')
  return serializeFormTemplate(row)
}

/** The requirements as stored: every key, what was left out not required. */
function requiresText(input: RequiresInput | undefined): string {
  const requires: Requires = {
    signature: input?.signature ?? false,
    photos: input?.photos ?? 0,
    notes: input?.notes ?? false,
  }
  return JSON.stringify(requires)
}

export async function createFormTemplate(
  db: Kysely<Database>,
  organisationId: string,
  body: CreateFormTemplateBody,
): Promise<FormTemplate> {
  const fields = normaliseFields(body.fields)
  const tagId = body.tagId ?? null
  return db.transaction().execute(async (trx) => {
    await assertAppliesTo(trx, organisationId, body.appliesTo, tagId)
    const now = nowIso()
    const row = {
      id: newId(),
      organisation_id: organisationId,
      name: body.name,
      description: body.description ?? '',
      applies_to: body.appliesTo,
      tag_id: tagId,
      fields: JSON.stringify(fields),
      is_active: sqlBool(body.isActive ?? true),
      requires: requiresText(body.requires),
      created_at: now,
      updated_at: now,
    }
    await repository.insertFormTemplate(trx, row)
    return serializeFormTemplate(row as FormTemplateRow)
  })
}

export async function updateFormTemplate(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
  body: UpdateFormTemplateBody,
): Promise<FormTemplate> {
  const fields = body.fields === undefined ? undefined : normaliseFields(body.fields)
  return db.transaction().execute(async (trx) => {
    const current = await repository.findFormTemplateRow(trx, organisationId, id)
    if (!current) throw notFound('Form template')
    const appliesTo = body.appliesTo ?? current.applies_to
    // Switching to ALL_JOBS drops the tag unless one is sent (which is then refused).
    const tagId = body.tagId !== undefined ? body.tagId : appliesTo === 'ALL_JOBS' ? null : current.tag_id
    if (body.appliesTo !== undefined || body.tagId !== undefined)
      await assertAppliesTo(trx, organisationId, appliesTo, tagId)
    const changes = {
      ...(body.name !== undefined && { name: body.name }),
      ...(body.description !== undefined && { description: body.description }),
      applies_to: appliesTo,
      tag_id: tagId,
      ...(fields !== undefined && { fields: JSON.stringify(fields) }),
      ...(body.isActive !== undefined && { is_active: sqlBool(body.isActive) }),
      ...(body.requires !== undefined && { requires: requiresText(body.requires) }),
      updated_at: nowIso(),
    }
    await repository.updateFormTemplate(trx, organisationId, id, changes)
    return getFormTemplate(trx, organisationId, id)
  })
}

export async function deleteFormTemplate(
  db: Kysely<Database>,
  organisationId: string,
  id: string,
): Promise<{ id: string; deletedAt: string }> {
  if (!(await repository.deleteFormTemplate(db, organisationId, id))) throw notFound('Form template')
  return { id, deletedAt: nowIso() }
}

/** The active templates a job needs: every ALL_JOBS one, and the TAGGED_JOBS ones of its tags. */
export async function templatesNeededBy(
  db: Executor,
  organisationId: string,
  jobId: string,
): Promise<FormTemplate[]> {
  const rows = await repository.findTemplatesNeededBy(db, organisationId, jobId)
  return rows.map(serializeFormTemplate)
}

/** The latest submission of each template the job's submissions answered. */
export async function submissionsByTemplate(
  db: Executor,
  organisationId: string,
  jobId: string,
): Promise<Map<string, { id: string; submittedAt: string }>> {
  const rows = await repository.findTemplateSubmissions(db, organisationId, jobId)
  return new Map(rows.map((row) => [row.template_id as string, { id: row.id, submittedAt: row.created_at }]))
}

/** 422 FORM_REQUIRED, listing them, when a template the job needs has no submission yet. */
export async function assertFormsSubmitted(
  db: Executor,
  organisationId: string,
  jobId: string,
): Promise<void> {
  const [needed, submitted] = await Promise.all([
    templatesNeededBy(db, organisationId, jobId),
    submissionsByTemplate(db, organisationId, jobId),
  ])
  const missing = needed.filter((template) => !submitted.has(template.id))
  if (missing.length === 0) return
  throw new AppError(
    'FORM_REQUIRED',
    `The job needs ${missing.map((t) => `"${t.name}"`).join(', ')} filled in before it can be completed`,
    missing.map((t) => ({ path: `/formTemplates/${t.id}`, message: `"${t.name}" has not been submitted` })),
  )
}

/** The answers checked against the template's fields, or 400 naming every wrong one. */
export function assertAnswersFit(template: FormTemplate, answers: Record<string, unknown>): void {
  const details: ErrorDetail[] = []
  const at = (key: string) => `/body/answers/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`
  const fields = new Map(template.fields.map((field) => [field.key, field]))
  for (const key of Object.keys(answers)) {
    if (!fields.has(key)) details.push({ path: at(key), message: `is not a field of "${template.name}"` })
  }
  for (const field of template.fields) {
    // Own answers only: an optional field keyed `toString` must not find Object.prototype.toString.
    const value = Object.hasOwn(answers, field.key) ? answers[field.key] : undefined
    if (value === undefined || value === '') {
      if (field.required) details.push({ path: at(field.key), message: `is required (${field.label})` })
      continue
    }
    const problem = answerProblem(field, value)
    if (problem) details.push({ path: at(field.key), message: problem })
  }
  if (details.length > 0) {
    throw new AppError('VALIDATION_ERROR', details.map(describeDetail).join('; '), details)
  }
}

function answerProblem(field: FormField, value: unknown): string | undefined {
  switch (field.type) {
    case 'TEXT':
    case 'LONG_TEXT': {
      const limit = field.type === 'TEXT' ? TEXT_MAX : LONG_TEXT_MAX
      if (typeof value !== 'string') return 'must be text'
      return value.length > limit ? `must be at most ${limit} characters` : undefined
    }
    case 'NUMBER':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number'
      if (field.min !== null && value < field.min) return `must be at least ${field.min}`
      if (field.max !== null && value > field.max) return `must be at most ${field.max}`
      return undefined
    case 'YES_NO':
      return typeof value === 'boolean' ? undefined : 'must be true or false'
    case 'CHOICE':
      return typeof value === 'string' && field.options.includes(value)
        ? undefined
        : `must be one of ${field.options.map((o) => `"${o}"`).join(', ')}`
  }
}
