import { describe, expect, it } from 'vitest'
import { firstRecord, readHeader } from './csv-header'

describe('the header row of a CSV file', () => {
  it('splits on commas and stops at the end of the first line', () => {
    expect(firstRecord('Account No,Company,Town\r\nA1,Acme,Leeds\r\n')).toEqual([
      'Account No',
      'Company',
      'Town',
    ])
    expect(firstRecord('a,b\nc,d')).toEqual(['a', 'b'])
  })

  it('reads quoted cells with commas, quotes and line breaks inside, and ignores a BOM', () => {
    expect(firstRecord('\ufeff"Name, full","Say ""hi""","two\nlines",last\nx')).toEqual([
      'Name, full',
      'Say "hi"',
      'two\nlines',
      'last',
    ])
  })

  it('keeps empty columns and trims spaces around names', () => {
    expect(firstRecord(' a ,,c')).toEqual(['a', '', 'c'])
  })

  it('reads only the start of a file', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => `E${i},Customer ${i}`).join('\n')
    expect(await readHeader(new Blob([`externalId,name\n${rows}`]))).toEqual(['externalId', 'name'])
    expect(await readHeader(new Blob(['  \n']))).toEqual([])
  })
})

describe('guessing which column is which field', () => {
  it('matches names, labels and aliases ignoring case and punctuation, each column once', async () => {
    const { guessMapping } = await import('./import-fields')
    expect(
      guessMapping('customers', ['Account No.', 'Company', 'Lat', 'LONGITUDE', 'E-mail', 'Unused']),
    ).toEqual({
      externalId: 'Account No.',
      name: 'Company',
      latitude: 'Lat',
      longitude: 'LONGITUDE',
      email: 'E-mail',
    })
    expect(guessMapping('jobs', ['externalid', 'Job title', 'Account No'])).toEqual({
      externalId: 'externalid',
      title: 'Job title',
      customerExternalId: 'Account No',
    })
  })
})
