/**
 * Debug output that costs nothing when off, in the manner of vite's
 * `debugHmr?.(…)`: `debug('check')` is undefined unless `DEBUG` names the
 * scope (`DEBUG=passepartout:check`, `DEBUG=passepartout:*`), so callers write
 * `log?.(…)` and an unset `DEBUG` skips even the formatting.
 */
const started = performance.now()

export function debug(scope: string): ((message: string) => void) | undefined {
  const enabled = (process.env.DEBUG ?? '')
    .split(',')
    .some((pattern) => pattern === `passepartout:${scope}` || pattern === 'passepartout:*')
  if (!enabled) return undefined
  return (message) =>
    process.stderr.write(`passepartout:${scope} +${(performance.now() - started).toFixed(0)}ms ${message}\n`)
}
