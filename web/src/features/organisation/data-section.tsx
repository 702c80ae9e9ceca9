// Settings › Organisation › Your data: everything the organisation keeps here, as one archive to
// download (GET /v1/admin/export, admins only) — the answer to "what happens to our data if we leave?".
import { API_BASE } from '../../api/client'

export function DataSection() {
  return (
    <section className="card" aria-labelledby="org-data">
      <div className="card-body stack">
        <h2 id="org-data">Your data</h2>
        <p className="muted" style={{ margin: 0 }}>
          One archive of everything your organisation keeps here: jobs with their form answers, notes, photos
          and signatures, customers, depots, vehicles, the team and their shifts and absences, form templates
          and job series. It is documented, readable line by line, and <code>fieldservice import</code>{' '}
          restores it into an empty organisation. Passwords, sessions, API keys and automations (their webhook
          secrets) are not in it.
        </p>
        <div className="row">
          {/* A download, not a page: the archive streams as it is written, however large. */}
          <a className="btn" href={`${API_BASE}/export`} download>
            Download all your data
          </a>
        </div>
      </div>
    </section>
  )
}
