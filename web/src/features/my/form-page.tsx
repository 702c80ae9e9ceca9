// Filling in one of a job's forms, full screen on a phone. Online, the server checks the answers and
// its field errors show next to the fields; offline, the phone checks what it can (required, number
// range) and keeps the answers to send when the connection returns.
import { type FormEvent, useState } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { Banner } from '../../ui/banner'
import { Button } from '../../ui/button'
import { ErrorState, LoadingState } from '../../ui/states'
import { useToast } from '../../ui/toast'
import { answerErrors, answersOf, checkAnswers, type Draft, FormFieldControl } from './form-fields'
import { applyPending } from './pending'
import { useMyJob } from './queries'
import { useJobAction, useQueue } from './queue-context'

export function MyFormPage() {
  const { jobId = '', templateId = '' } = useParams()
  const job = useMyJob(jobId)
  const { actions } = useQueue()
  const run = useJobAction()
  const toast = useToast()
  const navigate = useNavigate()
  const [draft, setDraft] = useState<Draft>({})
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({})
  const [failure, setFailure] = useState<unknown>(null)
  const [sending, setSending] = useState(false)

  if (job.isPending) return <LoadingState label="Loading the form…" />
  if (job.error && !job.data) {
    return (
      <ErrorState error={job.error} title="This form could not be loaded" onRetry={() => job.refetch()} />
    )
  }
  const shown = applyPending(job.data, actions).job
  const form = shown.forms.find((entry) => entry.template.id === templateId)
  const back = `/my/jobs/${jobId}`
  if (!form) {
    return (
      <div className="my-page">
        <div className="state state-page">
          <h1 className="state-title">Form not found</h1>
          <p>This job does not need this form.</p>
          <Link to={back}>Back to the job</Link>
        </div>
      </div>
    )
  }
  const { template } = form
  const server = answerErrors(failure)
  const errors = { ...server.fields, ...localErrors }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setFailure(null)
    const offline = !navigator.onLine
    const checked = offline ? checkAnswers(template.fields, draft) : {}
    setLocalErrors(checked)
    if (Object.keys(checked).length > 0) return
    setSending(true)
    try {
      const result = await run({
        kind: 'form',
        jobId,
        jobTitle: shown.title,
        templateId,
        formName: template.name,
        answers: answersOf(template.fields, draft),
      })
      toast.success(
        result === 'queued'
          ? `“${template.name}” saved on this phone: it will be sent when you are back online`
          : `“${template.name}” submitted`,
      )
      navigate(back)
    } catch (error) {
      setFailure(error)
    } finally {
      setSending(false)
    }
  }

  return (
    <div className="my-page">
      <Link to={back} className="my-back">
        ‹ {shown.title}
      </Link>
      <form className="card my-card my-form" onSubmit={(event) => void submit(event)} noValidate>
        <header>
          <h1>{template.name}</h1>
          {template.description && <p className="muted">{template.description}</p>}
        </header>
        {form.submission && (
          <Banner tone="info">
            This form has already been filled in for this job; sending it again adds answers.
          </Banner>
        )}
        {server.form && <Banner tone="danger">{server.form}</Banner>}
        {template.fields.map((field) => (
          <FormFieldControl
            key={field.key}
            field={field}
            value={draft[field.key] ?? ''}
            error={errors[field.key]}
            onChange={(value) => {
              setDraft((current) => ({ ...current, [field.key]: value }))
              setLocalErrors(({ [field.key]: _cleared, ...rest }) => rest)
            }}
          />
        ))}
        <div className="my-form-actions">
          <Button type="submit" variant="primary" className="my-big-button" pending={sending}>
            Submit form
          </Button>
        </div>
      </form>
    </div>
  )
}
