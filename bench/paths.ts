// Where things are, independent of the directory `npm run bench` is started from.
import { fileURLToPath } from 'node:url'

export const BENCH_DIR = fileURLToPath(new URL('.', import.meta.url))
export const ROOT_DIR = fileURLToPath(new URL('..', import.meta.url))
