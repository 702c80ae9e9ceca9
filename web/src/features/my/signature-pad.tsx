// The customer signs on the phone: a canvas drawn with pointer events (finger, stylus or mouse alike),
// Clear, the signer's name (required: the server refuses a signature without it), Save → a PNG, signed
// now. The canvas is drawn at the screen's pixel density so the line stays sharp.
import { type PointerEvent, useEffect, useRef, useState } from 'react'
import { Banner } from '../../ui/banner'
import { Button } from '../../ui/button'
import { Dialog } from '../../ui/dialog'
import { Field } from '../../ui/form'
import { canvasBlob } from './photo'

export interface Signature {
  blob: Blob
  signerName: string
  signedAt: string
}

const HEIGHT = 200

export function SignatureDialog({
  onSave,
  onClose,
}: {
  onSave: (signature: Signature) => Promise<void>
  onClose: () => void
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null)
  const drawing = useRef(false)
  const [drawn, setDrawn] = useState(false)
  const [name, setName] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)

  useEffect(() => {
    const canvas = canvasRef.current
    const context = canvas?.getContext('2d')
    if (!canvas || !context) return
    const ratio = window.devicePixelRatio || 1
    canvas.width = Math.round(canvas.clientWidth * ratio)
    canvas.height = Math.round(HEIGHT * ratio)
    context.scale(ratio, ratio)
    context.lineWidth = 2.5
    context.lineCap = 'round'
    context.lineJoin = 'round'
    context.strokeStyle = '#111827'
  }, [])

  const point = (event: PointerEvent<HTMLCanvasElement>) => {
    const box = event.currentTarget.getBoundingClientRect()
    return { x: event.clientX - box.left, y: event.clientY - box.top }
  }
  const down = (event: PointerEvent<HTMLCanvasElement>) => {
    const context = event.currentTarget.getContext('2d')
    if (!context) return
    event.currentTarget.setPointerCapture(event.pointerId)
    drawing.current = true
    const { x, y } = point(event)
    context.beginPath()
    context.moveTo(x, y)
    // A dot for a tap, which draws no line.
    context.lineTo(x + 0.1, y + 0.1)
    context.stroke()
  }
  const move = (event: PointerEvent<HTMLCanvasElement>) => {
    if (!drawing.current) return
    const context = event.currentTarget.getContext('2d')
    if (!context) return
    const { x, y } = point(event)
    context.lineTo(x, y)
    context.stroke()
    setDrawn(true)
  }
  const up = () => {
    drawing.current = false
  }
  const clear = () => {
    const canvas = canvasRef.current
    canvas?.getContext('2d')?.clearRect(0, 0, canvas.width, canvas.height)
    setDrawn(false)
  }
  const save = async () => {
    const canvas = canvasRef.current
    if (!drawn || !canvas) return setProblem('Ask the customer to sign in the box first.')
    if (!name.trim()) return setProblem("Write the signer's name.")
    setProblem(null)
    setSaving(true)
    try {
      const blob = await canvasBlob(canvas, 'image/png')
      await onSave({ blob, signerName: name.trim(), signedAt: new Date().toISOString() })
    } catch (error) {
      setProblem(error instanceof Error ? error.message : 'The signature could not be saved.')
      setSaving(false)
    }
  }

  return (
    <Dialog
      title="Customer's signature"
      description="Sign in the box with a finger."
      onClose={onClose}
      onSubmit={() => void save()}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" pending={saving}>
            Save signature
          </Button>
        </>
      }
    >
      <div className="my-signature">
        <canvas
          ref={canvasRef}
          className="my-signature-pad"
          style={{ height: HEIGHT }}
          role="img"
          aria-label="Signature pad: sign here"
          onPointerDown={down}
          onPointerMove={move}
          onPointerUp={up}
          onPointerCancel={up}
        />
        <Button size="sm" onClick={clear} disabled={!drawn}>
          Clear
        </Button>
      </div>
      <Field label="Signer's name">
        {(control) => (
          <input
            {...control}
            className="input"
            autoComplete="name"
            maxLength={200}
            required
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        )}
      </Field>
      {problem && <Banner tone="danger">{problem}</Banner>}
    </Dialog>
  )
}
