import { describe, expect, it } from 'vitest'
import { allPages, toCsv } from './csv'

describe('CSV made in the browser', () => {
  it('quotes what needs quoting and keeps formulas from running, numbers as they are', () => {
    const rows = [
      { name: 'Van, 7', note: 'say "hi"', value: -2.5 },
      { name: '=HYPERLINK("x")', note: '@me', value: null },
      { name: '-1 minus', note: 'two\nlines', value: 3 },
    ]
    const csv = toCsv(
      [
        { header: 'Name', value: (r: (typeof rows)[number]) => r.name },
        { header: 'Note', value: (r) => r.note },
        { header: 'Value', value: (r) => r.value },
      ],
      rows,
    )
    expect(csv).toBe(
      'Name,Note,Value\r\n"Van, 7","say ""hi""",-2.5\r\n"\'=HYPERLINK(""x"")",\'@me,\r\n\'-1 minus,"two\nlines",3\r\n',
    )
  })

  it('reads every page, and stops at the total', async () => {
    const asked: number[] = []
    const items = await allPages(async (page) => {
      asked.push(page)
      return { items: page < 3 ? [page * 10, page * 10 + 1] : [30], total: 5 }
    })
    expect(items).toEqual([10, 11, 20, 21, 30])
    expect(asked).toEqual([1, 2, 3])
  })
})
