// Rows × hours: one row per shift (worker · vehicle) across the day's hours in the depot's zone, the
// time outside the shift and its breaks shaded, jobs as blocks at their scheduled times, and the
// current time as a line; before each visit, the drive to it as a thin bar with its minutes, and
// each row's totals under its name. The time axis zooms (1×: the day fits; 2×, 4×, 8×: it scrolls
// sideways, the names staying put) so a row of many short visits can be read. Interactive on the
// board (rows are drop targets, assigned jobs can be dragged: dnd-kit, inside the page's
// DndContext); read-only in a plan preview.
import { useDraggable, useDroppable } from '@dnd-kit/core'
import { type CSSProperties, type ReactNode, useEffect, useRef, useState } from 'react'
import { Badge } from '../../ui/badge'
import './absent-rows.css'
import { clock, hourTicks, LABEL_ROOM_PX, labelTicks, percentOf, type TimeRange } from './board-model'
import { RISK_LOOK, type Risk } from './live-model'
import { type BlockStatus, STATUS_LOOK } from './status'

export interface TimelineBlock {
  id: string
  title: string
  /** The customer's name: the block's second line. */
  customer?: string | undefined
  start: number
  end: number
  status: BlockStatus
  /** Can be dragged to another row or time, or back to the tray (ASSIGNED jobs on the board). */
  draggable: boolean
  /** Read by screen readers and shown on hover: title, status, times, customer (and the forecast). */
  description: string
  /** Shown on hover, one fact a line (number and title, customer, address, times); else the description. */
  tooltip?: string | undefined
  /** Today, for a stop still to visit: "ETA 14:05" and its late risk (the live day). */
  eta?: string | undefined
  risk?: Risk | undefined
  /** Soft problems the board sees (window missed, overtime, in a break): an icon with them as its tooltip. */
  flags?: string[] | undefined
}

export interface TimelineRow {
  id: string
  label: string
  sublabel: string
  start: number
  end: number
  breaks: { start: number; end: number; isPaid: boolean }[]
  /** 1–8: the route's colour (the same on the map). */
  colour: number
  /** The route's day: "38 km · 1 h 10 min drive" (from the board's legs). */
  totals?: string | undefined
  /** Overtime as scheduled, a warning: "25 min overtime". */
  overtime?: string | undefined
  /** The drives between the row's stops. */
  travel?: TimelineTravel[] | undefined
  /** Today: the route's forecast end, and overtime past the shift ("Ends ~17:20 · 20 min overtime"). */
  note?: string | undefined
  /** Whether the note is a warning (overtime). */
  noteWarns?: boolean | undefined
  /** The worker is away the whole shift ("Holiday — Megan"): drawn greyed, takes no drops. */
  absent?: string | undefined
  /** Part of the day the worker is away ("Away 13:00–17:00 (Training)"): a band over those hours. */
  away?: { start: number; end: number; label: string }[] | undefined
  blocks: TimelineBlock[]
}

/** A drive as a thin bar: ending where the next visit starts (or, back to the origin, after the last). */
export interface TimelineTravel {
  id: string
  start: number
  end: number
  /** "12 min": shown on the bar when it is wide enough. */
  minutes: string
  /** "12 min drive, 8.4 km, Boiler to Bakery oven": its accessible name and tooltip. */
  description: string
  /** The gap before the visit is shorter than the drive. */
  short: boolean
}

/** The zooms of the time axis: 1 fits the day in the width, the others scroll. */
export const TIMELINE_ZOOMS = [1, 2, 4, 8] as const
export type TimelineZoom = (typeof TIMELINE_ZOOMS)[number]

export interface DropPreview {
  rowId: string
  start: number
  end: number
  /** The server's check of the slot: red with a HARD problem, amber with a SOFT one, and why. */
  tone?: 'checking' | 'ok' | 'hard' | 'soft' | undefined
  message?: string | undefined
}

export const rowDropId = (rowId: string) => `row:${rowId}`
export const jobDragId = (jobId: string) => `job:${jobId}`

const span = (start: number, end: number, range: TimeRange) => {
  const left = percentOf(start, range)
  return { left: `${left}%`, width: `${Math.max(0, percentOf(end, range) - left)}%` }
}

export function Timeline({
  label,
  rows,
  range,
  timeZone,
  now,
  interactive = false,
  preview,
  onSelect,
  empty,
  zoom = 1,
}: {
  label: string
  rows: TimelineRow[]
  range: TimeRange
  timeZone: string
  /** The current instant, when the day shown is today. */
  now?: number | undefined
  interactive?: boolean
  preview?: DropPreview | null
  onSelect?: (jobId: string) => void
  empty?: ReactNode
  zoom?: TimelineZoom
}) {
  const ticks = hourTicks(range)
  const nowShown = now !== undefined && now >= range.from && now <= range.to
  const scroller = useRef<HTMLDivElement>(null)
  // The axis labels as many times as fit in the hours' width (measured, as it follows the window and
  // the zoom): hours at fit, half and quarter hours zoomed in; a label the "Now" one would cover is left out.
  const hoursElement = useRef<HTMLDivElement>(null)
  const [hoursWidth, setHoursWidth] = useState(0)
  // A grid wider than its box scrolls sideways: it is then a tab stop, so a keyboard can scroll it.
  const [overflows, setOverflows] = useState(false)
  useEffect(() => {
    const element = hoursElement.current
    const box = scroller.current
    if (!element || !box) return
    const measure = () => {
      setHoursWidth(element.getBoundingClientRect().width)
      setOverflows(box.scrollWidth > box.clientWidth + 1)
    }
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(element)
    observer.observe(box)
    return () => observer.disconnect()
  }, [])
  const pxPerHour = hoursWidth > 0 ? (hoursWidth * 3_600_000) / (range.to - range.from) : 0
  const labels = labelTicks(range, pxPerHour).filter(
    (tick) => !nowShown || pxPerHour <= 0 || (Math.abs(tick - now) / 3_600_000) * pxPerHour >= LABEL_ROOM_PX,
  )
  // Zoomed in, bring the current time (else the first visit) into view; back to the start at 1×.
  useEffect(() => {
    const element = scroller.current
    if (!element) return
    if (zoom === 1) {
      element.scrollLeft = 0
      return
    }
    const target = element.querySelector<HTMLElement>('.timeline-now, .timeline-track .block')
    if (!target) return
    const box = element.getBoundingClientRect()
    const at = target.getBoundingClientRect().left - box.left + element.scrollLeft
    element.scrollLeft = Math.max(0, at - box.width / 3)
  }, [zoom])
  return (
    <section className="timeline" aria-label={label}>
      <div
        className="timeline-scroll"
        ref={scroller}
        {...(overflows ? { tabIndex: 0, role: 'group', 'aria-label': `${label}, scrolls sideways` } : {})}
      >
        <div className="timeline-grid" data-zoom={zoom} style={{ '--timeline-zoom': zoom } as CSSProperties}>
          <div className="timeline-head" aria-hidden="true">
            <div className="timeline-corner">{timeZone}</div>
            <div className="timeline-hours" ref={hoursElement}>
              {labels.map((tick) => (
                <span key={tick} className="timeline-hour" style={{ left: `${percentOf(tick, range)}%` }}>
                  {clock(tick, timeZone)}
                </span>
              ))}
              {nowShown && (
                <span className="timeline-now-label" style={{ left: `${percentOf(now, range)}%` }}>
                  Now {clock(now, timeZone)}
                </span>
              )}
            </div>
          </div>
          {rows.length === 0 && <div className="timeline-empty">{empty}</div>}
          {rows.map((row) => {
            const breaks = row.breaks
              .map((b) => `break ${clock(b.start, timeZone)}–${clock(b.end, timeZone)}`)
              .join(', ')
            const away = row.away ?? []
            const awayLabel = away.map((a) => a.label).join(', ')
            const rowLabel = `${row.label}, ${row.sublabel}${breaks ? `, ${breaks}` : ''}${awayLabel ? `, ${awayLabel}` : ''}${row.note ? `, ${row.note}` : ''}${row.absent ? `, away: ${row.absent}` : ''}`
            const content = (
              <>
                <div className="timeline-offshift" style={span(range.from, row.start, range)} />
                <div className="timeline-offshift" style={span(row.end, range.to, range)} />
                {ticks.map((tick) => (
                  <div
                    key={tick}
                    className="timeline-gridline"
                    style={{ left: `${percentOf(tick, range)}%` }}
                  />
                ))}
                {row.breaks.map((b) => (
                  <div
                    key={b.start}
                    className="timeline-break"
                    style={span(b.start, b.end, range)}
                    title={`Break ${clock(b.start, timeZone)}–${clock(b.end, timeZone)}${b.isPaid ? ' (paid)' : ''}`}
                  />
                ))}
                {away.map((a) => (
                  <div
                    key={a.start}
                    className="timeline-away"
                    style={span(a.start, a.end, range)}
                    title={a.label}
                  >
                    <span className="timeline-away-label">{a.label}</span>
                  </div>
                ))}
                {row.travel?.map((leg) => (
                  <div
                    key={leg.id}
                    className={`timeline-travel route-${row.colour}${leg.short ? ' timeline-travel-short' : ''}`}
                    style={span(leg.start, leg.end, range)}
                    role="img"
                    aria-label={leg.description}
                    title={leg.description}
                  >
                    <span className="timeline-travel-label">{leg.minutes}</span>
                  </div>
                ))}
                {preview?.rowId === row.id && (
                  <div
                    className={`timeline-preview timeline-preview-${preview.tone ?? 'ok'}`}
                    data-verdict={preview.tone ?? 'ok'}
                    style={span(preview.start, preview.end, range)}
                  >
                    {clock(preview.start, timeZone)}
                    {preview.message && (
                      <span
                        className={`timeline-preview-reason${percentOf(preview.start, range) > 60 ? ' timeline-preview-reason-left' : ''}`}
                      >
                        {preview.message}
                      </span>
                    )}
                  </div>
                )}
                {row.blocks.map((block) =>
                  interactive && block.draggable ? (
                    <DraggableBlock
                      key={block.id}
                      block={block}
                      range={range}
                      timeZone={timeZone}
                      onSelect={onSelect}
                    />
                  ) : (
                    <StaticBlock
                      key={block.id}
                      block={block}
                      range={range}
                      timeZone={timeZone}
                      onSelect={onSelect}
                    />
                  ),
                )}
                {nowShown && <div className="timeline-now" style={{ left: `${percentOf(now, range)}%` }} />}
                {row.absent && <div className="timeline-absent">{row.absent}</div>}
              </>
            )
            return (
              // biome-ignore lint/a11y/useSemanticElements: a row of the board, not a form fieldset
              <div
                key={row.id}
                className={row.absent ? 'timeline-row timeline-row-absent' : 'timeline-row'}
                role="group"
                aria-label={rowLabel}
              >
                <div className="timeline-label">
                  <span className={`route-swatch route-${row.colour}`} aria-hidden="true" />
                  <span>
                    <strong>{row.label}</strong>
                    <span className="timeline-sublabel">{row.sublabel}</span>
                    {row.totals && (
                      <span className="timeline-totals">
                        {row.totals}
                        {row.overtime && (
                          <>
                            {' · '}
                            <span className="timeline-note-warn">{row.overtime}</span>
                          </>
                        )}
                      </span>
                    )}
                    {away.map((a) => (
                      <span key={a.start} className="timeline-note">
                        {a.label}
                      </span>
                    ))}
                    {row.note && (
                      <span className={row.noteWarns ? 'timeline-note timeline-note-warn' : 'timeline-note'}>
                        {row.note}
                      </span>
                    )}
                  </span>
                </div>
                {interactive && !row.absent ? (
                  <DroppableTrack rowId={row.id}>{content}</DroppableTrack>
                ) : (
                  <div className="timeline-track">{content}</div>
                )}
              </div>
            )
          })}
        </div>
      </div>
    </section>
  )
}

function DroppableTrack({ rowId, children }: { rowId: string; children: ReactNode }) {
  const { setNodeRef, isOver } = useDroppable({ id: rowDropId(rowId), data: { rowId } })
  return (
    <div
      ref={setNodeRef}
      data-drop-track
      className={isOver ? 'timeline-track timeline-track-over' : 'timeline-track'}
    >
      {children}
    </div>
  )
}

interface BlockProps {
  block: TimelineBlock
  range: TimeRange
  timeZone: string
  onSelect?: ((jobId: string) => void) | undefined
}

function BlockContent({ block, timeZone }: { block: TimelineBlock; timeZone: string }) {
  const look = STATUS_LOOK[block.status]
  const risk = block.risk ? RISK_LOOK[block.risk] : null
  return (
    <>
      <span className="block-title">
        {/* First, so a narrow block still shows it. */}
        {risk && <Badge tone={risk.tone}>{risk.label}</Badge>}{' '}
        {block.flags && block.flags.length > 0 && (
          <span className="block-flag" aria-hidden="true" title={block.flags.join('\n')}>
            ⚠
          </span>
        )}
        {block.title}
      </span>{' '}
      <span className="block-meta">
        {/* Then, for a stop still to visit, when it will be reached (in the order the accessible name
            says it), and the customer (the status as a glyph: its colour says it too). Without a
            customer, the status and time. */}
        <span aria-hidden="true">{look.glyph}</span> {block.eta && `${block.eta} · `}
        {block.customer ?? `${look.label} · ${clock(block.start, timeZone)}`}
      </span>
    </>
  )
}

function DraggableBlock({ block, range, timeZone, onSelect }: BlockProps) {
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({
    id: jobDragId(block.id),
    data: { jobId: block.id },
  })
  const select = onSelect ? () => onSelect(block.id) : undefined
  return (
    // A click or Enter opens the job; Space picks it up (dnd-kit's keyboard sensor cancels the click).
    <button
      type="button"
      ref={setNodeRef}
      {...attributes}
      {...listeners}
      onClick={select}
      className={`block ${STATUS_LOOK[block.status].className}${isDragging ? ' block-dragging' : ''}`}
      style={span(block.start, block.end, range)}
      aria-label={block.description}
      title={block.tooltip ?? block.description}
    >
      <BlockContent block={block} timeZone={timeZone} />
    </button>
  )
}

function StaticBlock({ block, range, timeZone, onSelect }: BlockProps) {
  const select = onSelect ? () => onSelect(block.id) : undefined
  const className = `block ${STATUS_LOOK[block.status].className}`
  const style = span(block.start, block.end, range)
  if (!select) {
    return (
      <div className={className} style={style} title={block.tooltip ?? block.description}>
        <span className="visually-hidden">{block.description}</span>
        <span aria-hidden="true" className="block-inner">
          <BlockContent block={block} timeZone={timeZone} />
        </span>
      </div>
    )
  }
  return (
    <button
      type="button"
      className={className}
      style={style}
      aria-label={block.description}
      title={block.tooltip ?? block.description}
      onClick={select}
    >
      <BlockContent block={block} timeZone={timeZone} />
    </button>
  )
}
