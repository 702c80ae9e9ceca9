// "Download CSV" on a smaller list: every page of what its filters show, read through the same API
// calls, written as CSV in the browser (lib/csv.ts) and saved as a file.
import { useState } from 'react'
import { errorMessage } from '../api/errors'
import { type CsvColumn, saveFile, toCsv } from '../lib/csv'
import { Button } from './button'
import { useToast } from './toast'

export function DownloadListCsv<Row>({
  filename,
  columns,
  load,
}: {
  filename: string
  columns: readonly CsvColumn<Row>[]
  /** Every row the list's filters match (all its pages). */
  load: () => Promise<Row[]>
}) {
  const [pending, setPending] = useState(false)
  const toast = useToast()
  const download = async () => {
    setPending(true)
    try {
      saveFile(filename, toCsv(columns, await load()))
    } catch (error) {
      toast.error(`The download failed: ${errorMessage(error)}`)
    } finally {
      setPending(false)
    }
  }
  return (
    <Button onClick={() => void download()} pending={pending}>
      Download CSV
    </Button>
  )
}
