// Form templates: the forms a worker fills in on a job — what each asks (typed fields), and which jobs
// need it (all, or those with a tag). A job that needs an active template cannot be completed until a
// submission answers it (422 FORM_REQUIRED).

import { type Static, Type } from '@sinclair/typebox'
import { DateTime, Envelope, Id, Nullable, PageQuery, Pagination, StringEnum } from '../../http/schemas.js'
import { Requires, RequiresInput } from '../completion/schemas.js'

export const MAX_FIELDS = 50
export const MAX_OPTIONS = 50
export const TEXT_MAX = 1000
export const LONG_TEXT_MAX = 10_000

export const FieldType = StringEnum(
  ['TEXT', 'LONG_TEXT', 'NUMBER', 'YES_NO', 'CHOICE'],
  `TEXT: a line (≤ ${TEXT_MAX} characters); LONG_TEXT: a paragraph (≤ ${LONG_TEXT_MAX}); NUMBER: a finite ` +
    'number within min and max when set; YES_NO: true or false; CHOICE: one of `options`',
)
export const AppliesTo = StringEnum(
  ['ALL_JOBS', 'TAGGED_JOBS'],
  'Which jobs need the form: every job, or the jobs carrying `tagId`',
)

const FieldKey = Type.String({
  pattern: '^[a-zA-Z][a-zA-Z0-9_]{0,63}$',
  maxLength: 64,
  description:
    'The answer’s key: a letter, then up to 63 letters, digits or underscores; unique in the form; ' +
    'not `constructor` or `prototype`',
  examples: ['pressureBar'],
})
const Label = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', examples: ['Pressure (bar)'] })
const Option = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' })

export const FormField = Type.Object(
  {
    key: FieldKey,
    label: Label,
    type: FieldType,
    required: Type.Boolean({ description: 'An answer must be given' }),
    min: Nullable(Type.Number({ description: 'NUMBER only: the smallest answer allowed' })),
    max: Nullable(Type.Number({ description: 'NUMBER only: the largest answer allowed' })),
    options: Type.Array(Option, {
      maxItems: MAX_OPTIONS,
      description: 'CHOICE only: the answers to choose from',
    }),
  },
  { additionalProperties: false, title: 'FormField' },
)
export type FormField = Static<typeof FormField>

const FieldInput = Type.Object(
  {
    key: FieldKey,
    label: Label,
    type: FieldType,
    required: Type.Optional(Type.Boolean({ default: false, description: 'Default false' })),
    min: Type.Optional(Nullable(Type.Number({ description: 'NUMBER only' }))),
    max: Type.Optional(Nullable(Type.Number({ description: 'NUMBER only; at least min' }))),
    options: Type.Optional(
      Type.Array(Option, {
        minItems: 1,
        maxItems: MAX_OPTIONS,
        uniqueItems: true,
        description: 'CHOICE only, and required for it: 1 to 50 distinct answers',
      }),
    ),
  },
  { additionalProperties: false },
)
export type FieldInput = Static<typeof FieldInput>

export const FormTemplate = Type.Object(
  {
    id: Id,
    name: Type.String(),
    description: Type.String(),
    appliesTo: AppliesTo,
    tagId: Nullable(Type.String({ description: 'TAGGED_JOBS: the tag; null for ALL_JOBS' })),
    fields: Type.Array(FormField),
    isActive: Type.Boolean({ description: 'Inactive templates are kept but no job needs them' }),
    requires: Type.Object(Requires.properties, {
      additionalProperties: false,
      description: 'What completing a job the template applies to needs (422 COMPLETION_REQUIREMENTS)',
    }),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { title: 'FormTemplate' },
)
export type FormTemplate = Static<typeof FormTemplate>

const Name = Type.String({ minLength: 1, maxLength: 255, pattern: '\\S', examples: ['Boiler safety check'] })
const Fields = Type.Array(FieldInput, {
  minItems: 1,
  maxItems: MAX_FIELDS,
  description: '1 to 50 fields, keys unique',
})

export const CreateFormTemplateBody = Type.Object(
  {
    name: Name,
    description: Type.Optional(Type.String({ maxLength: 2000, description: 'Default ""' })),
    appliesTo: AppliesTo,
    tagId: Type.Optional(Nullable(Type.String({ maxLength: 200, description: 'Required for TAGGED_JOBS' }))),
    fields: Fields,
    isActive: Type.Optional(Type.Boolean({ default: true, description: 'Default true' })),
    requires: Type.Optional(RequiresInput),
  },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'Boiler safety check',
        appliesTo: 'TAGGED_JOBS',
        tagId: '0190f5c2-8d4e-7b1a-9c3d-2e4f6a8b0c1d',
        fields: [
          { key: 'pressureBar', label: 'Pressure (bar)', type: 'NUMBER', required: true, min: 0, max: 4 },
          { key: 'leaks', label: 'Any leaks?', type: 'YES_NO', required: true },
          { key: 'notes', label: 'Notes', type: 'LONG_TEXT' },
        ],
      },
    ],
  },
)
export type CreateFormTemplateBody = Static<typeof CreateFormTemplateBody>

export const UpdateFormTemplateBody = Type.Object(
  {
    name: Type.Optional(Name),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    appliesTo: Type.Optional(AppliesTo),
    tagId: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    fields: Type.Optional(Fields),
    isActive: Type.Optional(Type.Boolean()),
    requires: Type.Optional(RequiresInput),
  },
  { additionalProperties: false, examples: [{ isActive: false }] },
)
export type UpdateFormTemplateBody = Static<typeof UpdateFormTemplateBody>

export const FormTemplateListQuery = Type.Object(
  {
    ...PageQuery(50),
    isActive: Type.Optional(
      Type.Boolean({ description: 'Only active (true) or inactive (false) templates' }),
    ),
  },
  { additionalProperties: false },
)
export type FormTemplateListQuery = Static<typeof FormTemplateListQuery>

export const FormTemplateResponse = Envelope(Type.Object({ formTemplate: FormTemplate }), 'The form template')
export const FormTemplateListResponse = Envelope(
  Type.Object({ formTemplates: Type.Array(FormTemplate), pagination: Pagination }),
  'Form templates, newest first',
)
export const DeletedFormTemplateResponse = Envelope(
  Type.Object({ formTemplate: Type.Object({ id: Id, deletedAt: DateTime }) }),
  'The template was deleted; its submissions are kept',
)

/** What one field answer may be, for the worker's form submission body. */
export const FormAnswers = Type.Record(
  Type.String({ maxLength: 64 }),
  Type.Union([Type.String({ maxLength: LONG_TEXT_MAX }), Type.Number(), Type.Boolean()]),
  {
    description:
      'The answer of each field by its key: a string (TEXT, LONG_TEXT, CHOICE), a number or a boolean',
  },
)
