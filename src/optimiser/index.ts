// Public surface of the optimiser library.
export { checkPlan, findFeasibleInsertion, planDistance, type Violation } from './check.js'
export type * from './model.js'
export { parseSolomon, type SolomonInstance } from './solomon.js'
export { solve } from './solve.js'
export { DEFAULT_DETOUR_FACTOR, DEFAULT_SPEED_KMH, euclideanMatrix, greatCircleMatrix } from './travel.js'
