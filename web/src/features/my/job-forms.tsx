// The forms a job needs, on its page: each one's state (to fill in, filled in and pending, submitted)
// and Fill in while the job is open.
import { Badge } from '../../ui/badge'
import { ButtonLink } from '../../ui/button'
import { clock } from './format'
import { PendingBadge } from './job-status'
import type { MyJob } from './types'

export function JobForms({ job, pendingForm }: { job: MyJob; pendingForm: (templateId: string) => boolean }) {
  if (job.forms.length === 0) return null
  const open = job.status !== 'COMPLETED' && job.status !== 'CANCELLED'
  return (
    <section className="card my-card" aria-labelledby="forms-title">
      <h2 id="forms-title">Forms</h2>
      <ul className="my-form-list">
        {job.forms.map(({ template, submission }) => (
          <li key={template.id}>
            <div>
              <div className="my-form-name">{template.name}</div>
              {template.description && <div className="muted">{template.description}</div>}
              <div className="my-form-state">
                {submission ? (
                  pendingForm(template.id) ? (
                    <PendingBadge what="Filled in, pending" />
                  ) : (
                    <Badge tone="green">Submitted {clock(submission.submittedAt, job.timeZone)}</Badge>
                  )
                ) : (
                  <Badge tone="amber">To fill in</Badge>
                )}
              </div>
            </div>
            {!submission && open && (
              <ButtonLink
                size="sm"
                variant="primary"
                to={`/my/jobs/${job.id}/forms/${template.id}`}
                aria-label={`Fill in ${template.name}`}
              >
                Fill in
              </ButtonLink>
            )}
          </li>
        ))}
      </ul>
    </section>
  )
}
