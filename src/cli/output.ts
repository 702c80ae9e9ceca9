/** Where a command prints: the process's stdout, or a test's buffer. */
export interface CliOutput {
  write(text: string): void
}
