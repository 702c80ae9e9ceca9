// Public surface of the optimiser library.
export { checkPlan, findFeasibleInsertion, planDistance, type Violation } from './check.js'
export {
  AT_RISK_MARGIN_SECONDS,
  type ForecastInput,
  type ForecastStop,
  forecastRoute,
  type RouteForecast,
  type StopForecast,
  type StopRisk,
} from './forecast.js'
export type * from './model.js'
export { parseSolomon, type SolomonInstance } from './solomon.js'
export { solve } from './solve.js'
export { DEFAULT_DETOUR_FACTOR, DEFAULT_SPEED_KMH, euclideanMatrix, greatCircleMatrix } from './travel.js'
