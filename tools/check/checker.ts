/**
 * What both type checkers give `passepartout check`: problems at their place in
 * the file the compiler saw. The native compiler (`tsc` 7, native-checker.ts)
 * checks everything at once; a warm ts-morph program (warm-checker.ts)
 * re-checks after each save in a long-lived process.
 */

/** A TypeScript diagnostic at its place in the file TypeScript saw. */
export interface TsProblem {
  /** Absolute path; undefined for problems of the configuration or the program as a whole. */
  file: string | undefined
  /** 1-based; 0 when the problem has no place. */
  line: number
  /** 1-based, UTF-16 code units. */
  column: number
  /** `TS2322`. */
  code: string
  message: string
  severity: 'error' | 'warning'
}

/** The compiler options when the project has no tsconfig.json, as tsconfig.json would spell them. */
export const DEFAULT_COMPILER_OPTIONS = {
  target: 'ES2022',
  module: 'ESNext',
  moduleResolution: 'Bundler',
  allowImportingTsExtensions: true,
  noEmit: true,
  strict: true,
  skipLibCheck: true,
} as const

const TYPESCRIPT_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts']

/** A TypeScript source file (not a declaration file): what the checker checks. */
export function isTypeScript(file: string): boolean {
  return TYPESCRIPT_EXTENSIONS.some((extension) => file.endsWith(extension)) && !/\.d\.[cm]?ts$/.test(file)
}
